/* SPDX-License-Identifier: MIT */
/*
 * Shared by the RV32F differential tests: operand tables (special values,
 * boundaries, rounding ties), a deterministic pseudo-random operand
 * generator, and wrappers that run one instruction under a dynamic
 * rounding mode and report its result and the fflags it raised.
 */
#ifndef FP_TEST_H
#define FP_TEST_H

#include "vx_test.h"

static volatile unsigned fvals[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3fc00000, 0x40200000,
    0x3dcccccd, 0x40400000, 0x7f7fffff, 0xff7fffff, 0x00800000, 0x80800000,
    0x00000001, 0x80000001, 0x007fffff, 0x00400000, 0x7f800000, 0xff800000,
    0x7fc00000, 0xffc00000, 0x7f800001, 0xff812345, 0x7fa00000, 0x4b800001,
    0x4b7fffff, 0x3f000000, 0x3effffff, 0x4f000000, 0xcf000000, 0x4f800000,
    0x5f000000, 0xcf000001, 0x34000000, 0x33800000, 0x0c000000, 0x72800000,
    0x3f800001, 0x3f7fffff, 0xc0490fdb, 0x1e3ce508,
};
#define NFVALS (sizeof(fvals) / sizeof(fvals[0]))

static unsigned lcg_state = 12345;

/* Random floats biased towards interesting exponents and mantissas. */
static inline unsigned frand(void)
{
    unsigned r, e;

    lcg_state = lcg_state * 1664525u + 1013904223u;
    r = lcg_state;
    lcg_state = lcg_state * 1664525u + 1013904223u;
    e = lcg_state >> 24;
    switch (e & 7) {
    case 0: r = (r & 0x807fffff) | ((e >> 3) << 23); break;        /* tiny */
    case 1: r = (r & 0x807fffff) | ((0xff - (e >> 3)) << 23); break; /* huge */
    case 2: r &= 0xff800fff; break;                 /* short mantissa */
    case 3: r = (r & 0x80ffffff) | 0x3f000000; break;   /* near 1 */
    default: break;
    }
    return r;
}

/*
 * Read, then clear: fflags is one per warp (upstream Vortex's fcsr, see
 * docs/hardware.md), and a csrrw runs lane after lane, so in one csrrw
 * only the lowest lane would read the flags.  As two instructions every
 * lane reads them before any clears them.
 */
static inline unsigned get_fflags_clear(void)
{
    unsigned f;

    __asm__ volatile("csrr %0, fflags\n\tcsrw fflags, zero" : "=r"(f));
    return f;
}

static inline void set_frm(unsigned rm)
{
    __asm__ volatile("csrw frm, %0" :: "r"(rm));
}

/*
 * Wrappers: bit patterns in and out via fmv.  @mn is the whole
 * instruction text on ft0 (a), ft1 (b), ft3 (c) giving ft2, so a static
 * rounding mode is just part of it: "fadd.s ft2, ft0, ft1, rtz".
 */
#define FP_BINOP(name, mn)                                                   \
    static inline unsigned fp_##name(unsigned a, unsigned b)                 \
    {                                                                        \
        unsigned r;                                                          \
        __asm__ volatile("fmv.w.x ft0, %1\n\tfmv.w.x ft1, %2\n\t"            \
                         mn "\n\tfmv.x.w %0, ft2"                            \
                         : "=r"(r) : "r"(a), "r"(b) : "ft0", "ft1", "ft2");  \
        return r;                                                            \
    }

#define FP_CMPOP(name, mn)                                                   \
    static inline unsigned fp_##name(unsigned a, unsigned b)                 \
    {                                                                        \
        unsigned r;                                                          \
        __asm__ volatile("fmv.w.x ft0, %1\n\tfmv.w.x ft1, %2\n\t"            \
                         mn " %0, ft0, ft1"                                  \
                         : "=r"(r) : "r"(a), "r"(b) : "ft0", "ft1");         \
        return r;                                                            \
    }

#define FP_UNOP(name, mn)                                                    \
    static inline unsigned fp_##name(unsigned a)                             \
    {                                                                        \
        unsigned r;                                                          \
        __asm__ volatile("fmv.w.x ft0, %1\n\t" mn "\n\t"                     \
                         "fmv.x.w %0, ft2"                                   \
                         : "=r"(r) : "r"(a) : "ft0", "ft2");                 \
        return r;                                                            \
    }

/* float -> int register */
#define FP_TOINT(name, mn, rm)                                               \
    static inline unsigned fp_##name(unsigned a)                             \
    {                                                                        \
        unsigned r;                                                          \
        __asm__ volatile("fmv.w.x ft0, %1\n\t" mn " %0, ft0" rm              \
                         : "=r"(r) : "r"(a) : "ft0");                        \
        return r;                                                            \
    }

/* int register -> float */
#define FP_FROMINT(name, mn, rm)                                             \
    static inline unsigned fp_##name(unsigned a)                             \
    {                                                                        \
        unsigned r;                                                          \
        __asm__ volatile(mn " ft0, %1" rm "\n\tfmv.x.w %0, ft0"              \
                         : "=r"(r) : "r"(a) : "ft0");                        \
        return r;                                                            \
    }

#define FP_FMAOP(name, mn)                                                   \
    static inline unsigned fp_##name(unsigned a, unsigned b, unsigned c)     \
    {                                                                        \
        unsigned r;                                                          \
        __asm__ volatile("fmv.w.x ft0, %1\n\tfmv.w.x ft1, %2\n\t"            \
                         "fmv.w.x ft3, %3\n\t"                               \
                         mn "\n\tfmv.x.w %0, ft2"                            \
                         : "=r"(r) : "r"(a), "r"(b), "r"(c)                  \
                         : "ft0", "ft1", "ft2", "ft3");                      \
        return r;                                                            \
    }

/* Record a result and the flags it raised (and clear them). */
#define RECORD(out, n, expr)                                                 \
    do {                                                                     \
        out[n++] = (expr);                                                   \
        out[n++] = get_fflags_clear();                                       \
    } while (0)

#endif /* FP_TEST_H */
