/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: warp scheduler.
 *
 * Round-robin over the global warp array.  A warp keeps the core for a
 * short burst of instructions (VX_RUN_BURST) rather than one: switching
 * warps costs a scan of the array, while a burst keeps the warp's
 * registers hot in the host cache.  Fairness is unaffected at the scale
 * that matters to kernels (barriers and the CP only care that every warp
 * eventually runs).  128: with 32, entering a warp (the scan, the
 * executor's entry, the translated executor's block lookup) cost the
 * translated executor up to a third of its time (docs/hardware.md,
 * "Scheduling").
 */
#include <string.h>
#include "vx_sim_internal.h"

#define VX_RUN_BURST    128

bool vx_warp_runnable(const struct vx_sim *sim, const struct vx_warp *w)
{
    return w->active && !w->halted && !w->at_barrier;
}

void vx_warp_start(struct vx_sim *sim, struct vx_warp *w, uint32_t pc,
                   const struct vx_tmask *tmask)
{
    uint32_t t = sim->cfg.threads;

    /* dscratch is the Debug Module's and survives a new context */
    memset(w->x, 0, 32 * t * sizeof(*w->x));
    memset(w->f, 0, 32 * t * sizeof(*w->f));
    w->fflags = 0;
    w->frm = 0;
    vx_warp_spawn(sim, w, pc, tmask);
}

/*
 * wspawn sets only the PC and the mask (upstream's Emulator::step()): the
 * registers keep what the warp's last context left, which Vortex's start
 * code relies on.  The rest is that of a new context.
 */
void vx_warp_spawn(struct vx_sim *sim, struct vx_warp *w, uint32_t pc,
                   const struct vx_tmask *tmask)
{
    w->pc = pc;
    w->tmask = *tmask;
    w->active = true;
    w->halted = false;
    w->halted_idle = false;
    w->hacause = VX_HACAUSE_NONE;
    w->at_barrier = false;
    w->ipdom_depth = 0;
    vx_warp_forget_launch(sim, w);
}

void vx_warp_forget_launch(struct vx_sim *sim, struct vx_warp *w)
{
    struct vx_core *core = &sim->cores[w->core];

    core->cycle_base += w->cycle;
    core->instret_base += w->instret;
    w->satp = 0;
    w->barrier_id = 0;
    w->block_slot = -1;
    memset(w->block_idx, 0, sizeof(w->block_idx));
    w->warp_in_block = 0;
    w->cycle = 0;
    w->instret = 0;
}

/* block_slot is left alone: vx_cp_warp_ended() still needs it. */
void vx_warp_stop(struct vx_sim *sim, struct vx_warp *w)
{
    w->active = false;
    w->halted = false;
    w->halted_idle = false;
    w->hacause = VX_HACAUSE_NONE;
    w->at_barrier = false;
    w->ipdom_depth = 0;
    memset(&w->tmask, 0, sizeof(w->tmask));
}

/* The next runnable warp at or after the cursor, NULL if there is none. */
static struct vx_warp *next_warp(struct vx_sim *sim)
{
    uint32_t n = sim->nwarps, g = sim->run_cursor % n;

    for (uint32_t i = 0; i < n; i++, g = (g + 1 == n) ? 0 : g + 1) {
        struct vx_warp *w = &sim->warps[g];

        if (vx_warp_runnable(sim, w)) {
            return w;
        }
    }
    return NULL;
}

/*
 * Run up to @max instructions of @w.  Returns the slots used; *ended is
 * set when the warp ended, which may let the CP dispatch more work.
 */
static uint64_t run_burst(struct vx_sim *sim, struct vx_warp *w, uint64_t max,
                          bool *ended)
{
    uint64_t n = 0;
    enum vx_exec_result r;

    if (w->resethalt_armed) {
        w->resethalt_armed = false;
        vx_dm_halt_warp(sim, w, VX_HACAUSE_RESETHALTREQ);
        return 0;
    }
    r = vx_exec_burst(sim, w, max, &n);
    if (r != VX_EXEC_OK) {
        *ended = r == VX_EXEC_ENDED;
    }
    return n;
}

uint64_t vx_sim_run(struct vx_sim *sim, uint64_t budget)
{
    uint64_t used = 0;

    if (sim->error || !vx_sim_park_poll(sim)) {
        return 0;
    }
    vx_cp_advance(sim);
    while (used < budget && !sim->error) {
        struct vx_warp *w;
        uint64_t left = budget - used, n;
        bool ended = false, stop = false;

        if (vx_park_due(sim)) {
            n = vx_park_probe(sim, left, &ended, &stop);
            used += n;
            /* the probe's steps are real execution: they count */
            sim->clock += n;
            if (ended) {
                vx_cp_advance(sim);
            }
            if (stop) {
                break;
            }
            continue;
        }
        w = next_warp(sim);
        if (!w) {
            break;
        }
        sim->run_cursor = w->gid + 1;
        n = run_burst(sim, w, left < VX_RUN_BURST ? left : VX_RUN_BURST,
                      &ended);
        used += n;
        /* before the CP runs on: a FENCE's record has the clock of its end */
        sim->clock += n;
        if (ended) {
            vx_cp_advance(sim);
        }
    }
    return used;
}

bool vx_sim_runnable(const struct vx_sim *sim)
{
    if (sim->error || sim->park.parked) {
        return false;
    }
    /* A running LAUNCH only moves on when its warps do. */
    if (vx_cp_pending(sim) && !sim->cp.busy) {
        return true;
    }
    for (uint32_t g = 0; g < sim->nwarps; g++) {
        if (vx_warp_runnable(sim, &sim->warps[g])) {
            return true;
        }
    }
    return false;
}
