/* SPDX-License-Identifier: MIT */
/*
 * fmadd/fmsub/fnmsub/fnmadd in all five rounding modes: special operand
 * triples (inf * 0 + qNaN must raise NV), exact cancellation (signed zero
 * per mode), and pseudo-random triples with close exponents so the
 * addend and product interact.
 */
#include "fp_test.h"

FP_FMAOP(fmadd, "fmadd.s ft2, ft0, ft1, ft3")
FP_FMAOP(fmsub, "fmsub.s ft2, ft0, ft1, ft3")
FP_FMAOP(fnmsub, "fnmsub.s ft2, ft0, ft1, ft3")
FP_FMAOP(fnmadd, "fnmadd.s ft2, ft0, ft1, ft3")
FP_FMAOP(fmadd_rmm, "fmadd.s ft2, ft0, ft1, ft3, rmm")
FP_FMAOP(fmadd_rtz, "fmadd.s ft2, ft0, ft1, ft3, rtz")

static volatile unsigned tvals[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000,
    0x7fc00000, 0x7f800001, 0x00000001, 0x007fffff, 0x7f7fffff, 0x3f800001,
    0x3f7fffff, 0x34000000, 0xb4000000, 0x00800000,
};
#define NT (sizeof(tvals) / sizeof(tvals[0]))

static unsigned fma4(unsigned *out, unsigned a, unsigned b, unsigned c)
{
    unsigned n = 0;

    RECORD(out, n, fp_fmadd(a, b, c));
    RECORD(out, n, fp_fmsub(a, b, c));
    RECORD(out, n, fp_fnmsub(a, b, c));
    RECORD(out, n, fp_fnmadd(a, b, c));
    return n;
}

unsigned test_main(unsigned *out)
{
    unsigned n = 0;

    get_fflags_clear();
    for (unsigned rm = 0; rm < 5; rm++) {
        set_frm(rm);
        for (unsigned i = 0; i < NT; i++) {
            for (unsigned j = 0; j < NT; j++) {
                for (unsigned k = 0; k < NT; k++) {
                    n += fma4(out + n, tvals[i], tvals[j], tvals[k]);
                }
            }
        }
        lcg_state = 4242;
        for (unsigned k = 0; k < 800; k++) {
            unsigned a = frand(), b = frand(), c = frand();
            unsigned c2;

            n += fma4(out + n, a, b, c);
            /* an addend near the product: cancellation and ties */
            c2 = fp_fmadd(a, b, 0) ^ (k & 1 ? 0x80000000 : 0);
            get_fflags_clear();
            c2 += (k >> 1) % 5 - 2;
            n += fma4(out + n, a, b, c2);
        }
    }
    set_frm(0);
    lcg_state = 99;
    for (unsigned k = 0; k < 500; k++) {
        unsigned a = frand(), b = frand(), c = frand();

        RECORD(out, n, fp_fmadd_rmm(a, b, c));
        RECORD(out, n, fp_fmadd_rtz(a, b, c));
    }
    return n;
}
