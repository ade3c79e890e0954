/* SPDX-License-Identifier: MIT */
/*
 * fadd/fsub/fmul/fdiv/fsqrt in all five rounding modes (dynamic frm) over
 * the special operand table and pseudo-random operands: results and fflags.
 */
#include "fp_test.h"

FP_BINOP(fadd, "fadd.s ft2, ft0, ft1")
FP_BINOP(fsub, "fsub.s ft2, ft0, ft1")
FP_BINOP(fmul, "fmul.s ft2, ft0, ft1")
FP_BINOP(fdiv, "fdiv.s ft2, ft0, ft1")
FP_UNOP(fsqrt, "fsqrt.s ft2, ft0")

static unsigned arith(unsigned *out, unsigned a, unsigned b)
{
    unsigned n = 0;

    RECORD(out, n, fp_fadd(a, b));
    RECORD(out, n, fp_fsub(a, b));
    RECORD(out, n, fp_fmul(a, b));
    RECORD(out, n, fp_fdiv(a, b));
    return n;
}

unsigned test_main(unsigned *out)
{
    unsigned n = 0;

    get_fflags_clear();
    for (unsigned rm = 0; rm < 5; rm++) {
        set_frm(rm);
        for (unsigned i = 0; i < NFVALS; i++) {
            RECORD(out, n, fp_fsqrt(fvals[i]));
            for (unsigned j = 0; j < NFVALS; j++) {
                n += arith(out + n, fvals[i], fvals[j]);
            }
        }
        lcg_state = 777;
        for (unsigned k = 0; k < 1500; k++) {
            unsigned a = frand(), b = frand();

            n += arith(out + n, a, b);
            RECORD(out, n, fp_fsqrt(a & 0x7fffffff));
        }
    }
    return n;
}
