/* SPDX-License-Identifier: MIT */
/*
 * RV32IM differential test: every register-register and immediate ALU
 * operation over a table of interesting operands (0, 1, -1, INT_MIN, ...),
 * including division by zero and INT_MIN / -1.  Operations are emitted
 * through inline assembly so the compiler cannot fold them away.
 */
#include "vx_test.h"

VX_RTYPE(add) VX_RTYPE(sub) VX_RTYPE(sll) VX_RTYPE(slt) VX_RTYPE(sltu)
VX_RTYPE(xor) VX_RTYPE(srl) VX_RTYPE(sra) VX_RTYPE(or) VX_RTYPE(and)
VX_RTYPE(mul) VX_RTYPE(mulh) VX_RTYPE(mulhsu) VX_RTYPE(mulhu)
VX_RTYPE(div) VX_RTYPE(divu) VX_RTYPE(rem) VX_RTYPE(remu)

static volatile unsigned vals[] = {
    0, 1, 2, 3, 5, 7, 31, 32, 33, 0x7f, 0x80, 0xff, 0x7fff, 0x8000,
    0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0xfffffffe, 0xfffffffb,
    0x12345678, 0x87654321, 0xdeadbeef, 0x00010000, 0xffff0000,
};
#define NVALS (sizeof(vals) / sizeof(vals[0]))

/* out[n++] = "mn rd, a, imm" */
#define IMM1(out, n, mn, a, imm)                                            \
    do {                                                                    \
        unsigned r_;                                                        \
        __asm__ volatile(mn " %0, %1, " #imm : "=r"(r_) : "r"(a));          \
        out[n++] = r_;                                                      \
    } while (0)

#define IMM_OPS(out, n, a, imm)                                             \
    do {                                                                    \
        IMM1(out, n, "addi", a, imm);                                       \
        IMM1(out, n, "slti", a, imm);                                       \
        IMM1(out, n, "sltiu", a, imm);                                      \
        IMM1(out, n, "xori", a, imm);                                       \
        IMM1(out, n, "ori", a, imm);                                        \
        IMM1(out, n, "andi", a, imm);                                       \
    } while (0)

#define SHIFT_OPS(out, n, a, sh)                                            \
    do {                                                                    \
        IMM1(out, n, "slli", a, sh);                                        \
        IMM1(out, n, "srli", a, sh);                                        \
        IMM1(out, n, "srai", a, sh);                                        \
    } while (0)

static unsigned alu_rr(unsigned *out)
{
    unsigned n = 0;

    for (unsigned i = 0; i < NVALS; i++) {
        for (unsigned j = 0; j < NVALS; j++) {
            unsigned a = vals[i], b = vals[j];

            out[n++] = op_add(a, b);
            out[n++] = op_sub(a, b);
            out[n++] = op_sll(a, b);
            out[n++] = op_slt(a, b);
            out[n++] = op_sltu(a, b);
            out[n++] = op_xor(a, b);
            out[n++] = op_srl(a, b);
            out[n++] = op_sra(a, b);
            out[n++] = op_or(a, b);
            out[n++] = op_and(a, b);
            out[n++] = op_mul(a, b);
            out[n++] = op_mulh(a, b);
            out[n++] = op_mulhsu(a, b);
            out[n++] = op_mulhu(a, b);
            out[n++] = op_div(a, b);
            out[n++] = op_divu(a, b);
            out[n++] = op_rem(a, b);
            out[n++] = op_remu(a, b);
        }
    }
    return n;
}

static unsigned alu_imm(unsigned *out)
{
    unsigned n = 0;

    for (unsigned i = 0; i < NVALS; i++) {
        unsigned a = vals[i], r;

        IMM_OPS(out, n, a, 0);
        IMM_OPS(out, n, a, 1);
        IMM_OPS(out, n, a, -1);
        IMM_OPS(out, n, a, 2047);
        IMM_OPS(out, n, a, -2048);
        IMM_OPS(out, n, a, 0x555);
        SHIFT_OPS(out, n, a, 0);
        SHIFT_OPS(out, n, a, 1);
        SHIFT_OPS(out, n, a, 15);
        SHIFT_OPS(out, n, a, 31);
        __asm__ volatile("lui %0, 0xfffff" : "=r"(r));
        out[n++] = r ^ a;
        __asm__ volatile("lui %0, 0x80000" : "=r"(r));
        out[n++] = r + a;
    }
    return n;
}

unsigned test_main(unsigned *out)
{
    unsigned n = 0;

    n += alu_rr(out + n);
    n += alu_imm(out + n);
    return n;
}
