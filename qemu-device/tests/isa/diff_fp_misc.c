/* SPDX-License-Identifier: MIT */
/*
 * The rest of RV32F: comparisons, fmin/fmax (NaNs, signed zeros),
 * sign injection, fclass, conversions with saturation in every rounding
 * mode (dynamic and static), fmv, flw/fsw, and the fflags/frm/fcsr CSRs.
 */
#include "fp_test.h"

FP_CMPOP(feq, "feq.s") FP_CMPOP(flt, "flt.s") FP_CMPOP(fle, "fle.s")
FP_BINOP(fmin, "fmin.s ft2, ft0, ft1")
FP_BINOP(fmax, "fmax.s ft2, ft0, ft1")
FP_BINOP(fsgnj, "fsgnj.s ft2, ft0, ft1")
FP_BINOP(fsgnjn, "fsgnjn.s ft2, ft0, ft1")
FP_BINOP(fsgnjx, "fsgnjx.s ft2, ft0, ft1")
FP_TOINT(fclass, "fclass.s", "")
FP_TOINT(cvt_w, "fcvt.w.s", "")
FP_TOINT(cvt_wu, "fcvt.wu.s", "")
FP_TOINT(cvt_w_rne, "fcvt.w.s", ", rne")
FP_TOINT(cvt_w_rtz, "fcvt.w.s", ", rtz")
FP_TOINT(cvt_w_rdn, "fcvt.w.s", ", rdn")
FP_TOINT(cvt_w_rup, "fcvt.w.s", ", rup")
FP_TOINT(cvt_w_rmm, "fcvt.w.s", ", rmm")
FP_TOINT(cvt_wu_rtz, "fcvt.wu.s", ", rtz")
FP_FROMINT(cvt_s_w, "fcvt.s.w", "")
FP_FROMINT(cvt_s_wu, "fcvt.s.wu", "")
FP_FROMINT(cvt_s_w_rmm, "fcvt.s.w", ", rmm")
FP_FROMINT(cvt_s_wu_rup, "fcvt.s.wu", ", rup")
FP_BINOP(fadd_rne, "fadd.s ft2, ft0, ft1, rne")
FP_BINOP(fadd_rtz, "fadd.s ft2, ft0, ft1, rtz")
FP_BINOP(fadd_rdn, "fadd.s ft2, ft0, ft1, rdn")
FP_BINOP(fadd_rup, "fadd.s ft2, ft0, ft1, rup")
FP_BINOP(fadd_rmm, "fadd.s ft2, ft0, ft1, rmm")
FP_BINOP(fmul_rmm, "fmul.s ft2, ft0, ft1, rmm")
FP_BINOP(fdiv_rmm, "fdiv.s ft2, ft0, ft1, rmm")

static volatile unsigned ivals[] = {
    0, 1, 2, 3, 0xffffffff, 0x7fffffff, 0x80000000, 0x80000001, 0x00ffffff,
    0x01000001, 0x01000003, 0x01000002, 0xfeffffff, 0x12345678, 0xfffffffe,
    0x7fffffc0, 0x7fffff80, 0xffffff80, 0x0000ffff,
};
#define NI (sizeof(ivals) / sizeof(ivals[0]))

static unsigned pairs(unsigned *out, unsigned a, unsigned b)
{
    unsigned n = 0;

    RECORD(out, n, fp_feq(a, b));
    RECORD(out, n, fp_flt(a, b));
    RECORD(out, n, fp_fle(a, b));
    RECORD(out, n, fp_fmin(a, b));
    RECORD(out, n, fp_fmax(a, b));
    RECORD(out, n, fp_fsgnj(a, b));
    RECORD(out, n, fp_fsgnjn(a, b));
    RECORD(out, n, fp_fsgnjx(a, b));
    RECORD(out, n, fp_fadd_rne(a, b));
    RECORD(out, n, fp_fadd_rtz(a, b));
    RECORD(out, n, fp_fadd_rdn(a, b));
    RECORD(out, n, fp_fadd_rup(a, b));
    RECORD(out, n, fp_fadd_rmm(a, b));
    RECORD(out, n, fp_fmul_rmm(a, b));
    RECORD(out, n, fp_fdiv_rmm(a, b));
    return n;
}

static unsigned to_int(unsigned *out, unsigned a)
{
    unsigned n = 0;

    RECORD(out, n, fp_fclass(a));
    RECORD(out, n, fp_cvt_w_rne(a));
    RECORD(out, n, fp_cvt_w_rtz(a));
    RECORD(out, n, fp_cvt_w_rdn(a));
    RECORD(out, n, fp_cvt_w_rup(a));
    RECORD(out, n, fp_cvt_w_rmm(a));
    RECORD(out, n, fp_cvt_wu_rtz(a));
    for (unsigned rm = 0; rm < 5; rm++) {
        set_frm(rm);
        RECORD(out, n, fp_cvt_w(a));
        RECORD(out, n, fp_cvt_wu(a));
    }
    set_frm(0);
    return n;
}

static unsigned from_int(unsigned *out, unsigned v)
{
    unsigned n = 0;

    for (unsigned rm = 0; rm < 5; rm++) {
        set_frm(rm);
        RECORD(out, n, fp_cvt_s_w(v));
        RECORD(out, n, fp_cvt_s_wu(v));
    }
    set_frm(0);
    RECORD(out, n, fp_cvt_s_w_rmm(v));
    RECORD(out, n, fp_cvt_s_wu_rup(v));
    return n;
}

/*
 * fflags/frm/fcsr through every CSR instruction form.  fcsr is one per
 * warp on the card (upstream Vortex's), and a CSR instruction runs lane
 * after lane, so a read-modify-write form gives each lane a different old
 * value: the program runs on one lane (test_sim_lanes).
 */
const unsigned test_sim_lanes = 1;

static unsigned csrs(unsigned *out)
{
    unsigned n = 0, r;

    __asm__ volatile("csrrwi %0, fcsr, 0x1f" : "=r"(r)); out[n++] = r;
    __asm__ volatile("csrrsi %0, frm, 3" : "=r"(r)); out[n++] = r;
    __asm__ volatile("csrrci %0, fflags, 5" : "=r"(r)); out[n++] = r;
    __asm__ volatile("csrr %0, fcsr" : "=r"(r)); out[n++] = r;
    __asm__ volatile("csrrw %0, fcsr, %1" : "=r"(r) : "r"(~0u)); out[n++] = r;
    __asm__ volatile("csrr %0, fcsr" : "=r"(r)); out[n++] = r;
    __asm__ volatile("csrrs %0, fflags, %1" : "=r"(r) : "r"(0x40)); out[n++] = r;
    __asm__ volatile("csrrc %0, frm, %1" : "=r"(r) : "r"(0x5u)); out[n++] = r;
    __asm__ volatile("csrr %0, fcsr" : "=r"(r)); out[n++] = r;
    __asm__ volatile("csrw fcsr, zero");
    /* flags accumulate across instructions until cleared */
    fp_fdiv_rmm(0x3f800000, 0);
    fp_fadd_rne(0x7f7fffff, 0x7f7fffff);
    __asm__ volatile("csrr %0, fflags" : "=r"(r)); out[n++] = r;
    get_fflags_clear();
    return n;
}

/* flw/fsw keep every bit pattern, NaN payloads included. */
static unsigned mem(unsigned *out)
{
    static volatile unsigned buf[4];
    unsigned n = 0;

    for (unsigned i = 0; i < NFVALS; i++) {
        buf[0] = fvals[i];
        __asm__ volatile("flw ft0, 0(%0)\n\tfsw ft0, 8(%0)" :: "r"(buf)
                         : "ft0", "memory");
        out[n++] = buf[2];
    }
    return n;
}

unsigned test_main(unsigned *out)
{
    unsigned n = 0;

    get_fflags_clear();
    for (unsigned i = 0; i < NFVALS; i++) {
        for (unsigned j = 0; j < NFVALS; j++) {
            n += pairs(out + n, fvals[i], fvals[j]);
        }
        n += to_int(out + n, fvals[i]);
    }
    for (unsigned i = 0; i < NI; i++) {
        n += from_int(out + n, ivals[i]);
    }
    lcg_state = 31337;
    for (unsigned k = 0; k < 2000; k++) {
        unsigned a = frand();

        n += to_int(out + n, a);
        n += from_int(out + n, a);
    }
    n += csrs(out + n);
    n += mem(out + n);
    return n;
}
