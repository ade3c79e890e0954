/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: the translating executor.  On x86-64 hosts it is
 * vx_jit_dispatch.c (with vx_jit_translate.c, vx_jit_emit.h and
 * vx_jit_helpers.c); elsewhere vx_jit_none.c, which has no translator.
 * The build picks one (qemu-device/meson.build, qemu-device/sim.mk).
 */
#ifndef VX_JIT_H
#define VX_JIT_H

#include "vx_sim_internal.h"

/* What the translator did so far on one card (host tests and the bench). */
struct vx_jit_stats {
    uint64_t blocks;            /* blocks translated */
    uint64_t insns;             /* instructions in them */
    uint64_t untranslatable;    /* PCs found with nothing to translate */
    uint64_t ns;                /* host time spent translating */
    uint64_t runs;              /* translated blocks executed */
    uint64_t interp;            /* instructions left to the interpreter */
    uint64_t flushes;           /* code arena refills */
    uint64_t specialized;       /* masked functions made for one mask */
    uint64_t loops;             /* functions with a loop mode (scalars, ymm) */
    bool avx512;                /* its code uses AVX-512F/VL, not only AVX2 */
};

/*
 * Whether this host runs translated code: x86-64 with AVX2 (cpuid);
 * false where the build has no translator.  vx_sim_exec_available().
 */
bool vx_jit_available(void);
/* vx_exec_burst() for VX_SIM_EXEC_JIT. */
enum vx_exec_result vx_jit_exec(struct vx_sim *sim, struct vx_warp *w,
                                uint64_t max, uint64_t *used);
void vx_jit_free(struct vx_sim *sim);
/*
 * Whether translated code may use AVX-512 masked moves where the host has
 * them (the default); false makes it use the AVX2 moves, as on a host
 * without AVX-512 (tests), dropping the translations made so far.  -1
 * if the card has no translator (no arena, or warps under 8 lanes).
 */
int vx_jit_set_avx512(struct vx_sim *sim, bool on);
/*
 * After how many runs in a row with lanes masked off, all with one mask,
 * a block gets code for that mask (vx_jit_translate.c's "Masks"; the
 * default 2, so that a block run once is not translated twice); 1 at the
 * first (tests), 0 never: every mask through the masked code for any
 * mask (tests).  Drops the translations made so far; -1 if the card has
 * no translator.
 */
int vx_jit_set_specialize(struct vx_sim *sim, uint32_t runs);
/* False (and zeroes) if the card has not translated anything. */
bool vx_jit_stats_get(const struct vx_sim *sim, struct vx_jit_stats *st);

#endif /* VX_JIT_H */
