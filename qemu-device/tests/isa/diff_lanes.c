/* SPDX-License-Identifier: MIT */
/*
 * Eight lanes with different data: integer and M operations on
 * lane-dependent operands, FP under every dynamic rounding mode in turn
 * (frm and fflags are one per warp, upstream Vortex's fcsr, so the mode
 * is the same in every lane and the flags, the OR over the lanes, are
 * not compared), gathers and scatters at lane-dependent
 * addresses, and unit-stride word accesses across the warp (the
 * simulator's coalesced path).  Each lane writes its own 2048-word slice.
 * No control flow depends on the lane.
 */
#include "fp_test.h"

#define NLANES  8
#define SLICE   2048

const unsigned test_nlanes = NLANES;

VX_RTYPE(mul) VX_RTYPE(mulh) VX_RTYPE(div) VX_RTYPE(remu) VX_RTYPE(sra)
VX_RTYPE(sltu)
FP_BINOP(fadd, "fadd.s ft2, ft0, ft1")
FP_BINOP(fmul, "fmul.s ft2, ft0, ft1")
FP_BINOP(fdiv, "fdiv.s ft2, ft0, ft1")
FP_UNOP(fsqrt, "fsqrt.s ft2, ft0")
FP_FMAOP(fmadd, "fmadd.s ft2, ft0, ft1, ft3")
FP_TOINT(cvt_w, "fcvt.w.s", "")
FP_FROMINT(cvt_s_w, "fcvt.s.w", "")

static const unsigned table[64] = {
    0x00000000, 0x00000001, 0xffffffff, 0x80000000, 0x7fffffff, 0x12345678,
    0x9abcdef0, 0x00000007, 0xfffffff9, 0x0000ffff, 0xffff8000, 0x00008000,
    0x3f800000, 0x40490fdb, 0xc0000000, 0x00800000, 0x7f7fffff, 0x33800001,
    0x4b000001, 0xcb000003, 0x3eaaaaab, 0x3dcccccd, 0x00000003, 0x00000031,
    0x0000001f, 0x00000020, 0xdeadbeef, 0xcafef00d, 0x01000001, 0x7f800000,
    0x7fc00000, 0x80000001, 0x00400000, 0x3f000001, 0xbf7fffff, 0x42f60000,
    0x000000ff, 0x00000080, 0x0000007f, 0xfffffffe, 0x55555555, 0xaaaaaaaa,
    0x0f0f0f0f, 0xf0f0f0f0, 0x00010001, 0x10000000, 0x20000000, 0x40000000,
    0x3f7fffff, 0x3f800001, 0x4effffff, 0xcf000000, 0x4f000000, 0x5f800000,
    0x2f800000, 0x1f800000, 0x0000000a, 0x00000064, 0x000003e8, 0x00002710,
    0x000186a0, 0x000f4240, 0x00989680, 0x05f5e100,
};

static volatile unsigned words[NLANES * 4];
static volatile unsigned short halves[NLANES * 4];
static volatile unsigned char bytes[NLANES * 4];

static unsigned ints(unsigned *out, unsigned lane)
{
    unsigned n = 0;

    for (unsigned i = 0; i < 64; i++) {
        unsigned a = table[(i + lane) & 63], b = table[(i * 3 + lane * 5) & 63];

        out[n++] = op_mul(a, b);
        out[n++] = op_mulh(a, b);
        out[n++] = op_div(a, b);
        out[n++] = op_remu(a, b);
        out[n++] = op_sra(a, b);
        out[n++] = op_sltu(a, b);
    }
    return n;
}

static unsigned floats(unsigned *out, unsigned lane)
{
    unsigned n = 0;

    for (unsigned i = 0; i < 64; i++) {
        unsigned a = table[(i + lane * 7) & 63], b = table[(i * 5 + lane) & 63];
        unsigned c = table[(i * 11 + lane * 3) & 63];

        set_frm(i % 5);

        out[n++] = fp_fadd(a, b);
        out[n++] = fp_fmul(a, b);
        out[n++] = fp_fdiv(a, b);
        out[n++] = fp_fsqrt(a);
        out[n++] = fp_fmadd(a, b, c);
        out[n++] = fp_cvt_w(a);
        out[n++] = fp_cvt_s_w(b);
    }
    get_fflags_clear();
    set_frm(0);
    return n;
}

static unsigned memory(unsigned *out, unsigned lane)
{
    unsigned n = 0;

    /* unit stride across lanes */
    words[lane] = table[lane] ^ 0x5a5a5a5a;
    out[n++] = words[lane];
    out[n++] = table[lane + 8];
    /* gathers and scatters at scattered addresses */
    words[8 + ((lane * 5) & 7)] = lane * 0x01020304;
    out[n++] = words[8 + ((lane * 5) & 7)];
    halves[(lane * 3) & 7] = (unsigned short)(0x8001 + lane * 0x1111);
    out[n++] = (unsigned)(short)halves[(lane * 3) & 7];
    out[n++] = halves[(lane * 3) & 7];
    bytes[(lane * 7) & 7] = (unsigned char)(0x7e + lane);
    out[n++] = (unsigned)(signed char)bytes[(lane * 7) & 7];
    out[n++] = bytes[(lane * 7) & 7];
    return n;
}

unsigned test_main(unsigned *out)
{
    unsigned lane = test_lane(), n = 0;

    out += lane * SLICE;
    n += ints(out + n, lane);
    n += floats(out + n, lane);
    n += memory(out + n, lane);
    return NLANES * SLICE;
}
