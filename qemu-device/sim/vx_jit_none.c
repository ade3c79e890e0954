/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: the translating executor where there is none.
 *
 * The translator emits x86-64 code (vx_jit_translate.c), so the build
 * takes this file instead of it, and of vx_jit_dispatch.c and
 * vx_jit_helpers.c, on every other host (qemu-device/meson.build,
 * qemu-device/sim.mk).  vx_jit_available() says there is no translator:
 * vx_sim_config_check() and vx_sim_set_exec() refuse "jit", and "best"
 * takes the burst executor (vx_sim_exec_best()).
 */
#include <string.h>

#include "vx_exec.h"
#include "vx_jit.h"

bool vx_jit_available(void)
{
    return false;
}

/* Unreachable (the executor is refused); the burst executor if reached. */
enum vx_exec_result vx_jit_exec(struct vx_sim *sim, struct vx_warp *w,
                                uint64_t max, uint64_t *used)
{
    return vx_exec_fast(sim, w, max, used);
}

void vx_jit_free(struct vx_sim *sim)
{
    (void)sim;
}

int vx_jit_set_avx512(struct vx_sim *sim, bool on)
{
    (void)sim;
    (void)on;
    return -1;
}

int vx_jit_set_specialize(struct vx_sim *sim, uint32_t runs)
{
    (void)sim;
    (void)runs;
    return -1;
}

bool vx_jit_stats_get(const struct vx_sim *sim, struct vx_jit_stats *st)
{
    (void)sim;
    memset(st, 0, sizeof(*st));
    return false;
}
