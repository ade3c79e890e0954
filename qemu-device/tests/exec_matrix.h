/* SPDX-License-Identifier: MIT */
/*
 * The executors a suite that picks its own runs each case on (so it runs
 * once, not once per VX_SIM_EXEC): ref, burst, avx2, and the translator
 * with its AVX-512 moves on and off.  test_branch and test_coalesce.
 */
#ifndef EXEC_MATRIX_H
#define EXEC_MATRIX_H

#include "uncore_util.h"
#include "vx_jit.h"

static const struct exec {
    const char *name;
    enum vx_sim_exec exec;
    int avx512;                 /* jit: 1 on, 0 off; -1 not the jit */
} execs[] = {
    { "ref", VX_SIM_EXEC_REF, -1 },
    { "burst", VX_SIM_EXEC_BURST, -1 },
    { "avx2", VX_SIM_EXEC_AVX2, -1 },
    { "jit", VX_SIM_EXEC_JIT, 1 },
    { "jit-avx2", VX_SIM_EXEC_JIT, 0 },
};
#define NEXECS  (sizeof(execs) / sizeof(execs[0]))

static inline bool host_has_avx512(void)
{
#if defined(__x86_64__)
    return __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512vl");
#else
    return false;
#endif
}

/*
 * A card of @cfg on executor @x (cfg->exec is set here): 0; 1 if this
 * host cannot run @x (a case to skip); -1 with the reason in
 * c->last_error if the card did not open as asked.
 */
static inline int exec_card_open(struct card *c, const struct exec *x,
                                 struct vx_sim_config *cfg)
{
    cfg->exec = x->exec;
    if (!vx_sim_exec_available(x->exec) ||
        (x->avx512 == 1 && !host_has_avx512())) {
        return 1;
    }
    if (card_open_cfg(c, cfg)) {
        return -1;
    }
    /* warps under 8 lanes have no translator: the jit is avx2 there */
    if (x->avx512 >= 0 && cfg->threads >= 8 &&
        vx_jit_set_avx512(c->sim, x->avx512)) {
        snprintf(c->last_error, sizeof(c->last_error), "no AVX-512 switch");
        card_close(c);
        return -1;
    }
    return 0;
}

/* Whether the translated code ran, where @x has a translator. */
static inline bool exec_translated(struct card *c, const struct exec *x)
{
    struct vx_jit_stats st;

    if (x->avx512 < 0 || c->sim->cfg.threads < 8) {
        return true;
    }
    return vx_jit_stats_get(c->sim, &st) && st.runs > 0;
}

#endif /* EXEC_MATRIX_H */
