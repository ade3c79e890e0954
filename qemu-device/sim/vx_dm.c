/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: Debug Module (shared/specs/vxdebug-spec.md).
 *
 * Every request completes inside the DCTRL write: the embedder serialises
 * register accesses with the run loop, so no instruction is in flight when
 * a write arrives and "halt before the next instruction" is simply setting
 * the flag.  That is why stepstate and injectstate always read NONE.
 *
 * ndmreset also resets at once; the bit then reads 1 for 2^NRC cycles,
 * where a cycle is a device cycle (sim->clock) or a read of any DM
 * register.  An idle card's clock stands still, so counting reads is what
 * lets a debugger polling DCTRL see the bit drop (docs/hardware.md).
 */
#include <string.h>

#include "vx_sim_internal.h"

static uint32_t mask_words(const struct vx_sim *sim)
{
    return (sim->nwarps + 31) / 32;
}

static bool wmask_test(const struct vx_sim *sim, const uint32_t *m, uint32_t g)
{
    return (m[g / 32] >> (g % 32)) & 1;
}

/* The warp DSELECT.warpsel names, NULL if out of range. */
static struct vx_warp *selected_warp(struct vx_sim *sim)
{
    uint32_t g = VX_DSELECT_WARPSEL(sim->dm.dselect);

    return g < sim->nwarps ? &sim->warps[g] : NULL;
}

/* Lane DSELECT.threadsel of the selected warp, -1 if out of range. */
static int selected_lane(struct vx_sim *sim)
{
    uint32_t t = VX_DSELECT_THREADSEL(sim->dm.dselect);

    if (!selected_warp(sim) || t >= sim->cfg.threads) {
        return -1;
    }
    return t;
}

static void kick(struct vx_sim *sim)
{
    if (sim->hooks && sim->hooks->kick) {
        sim->hooks->kick(sim->opaque);
    }
}

/* ------------------------------------------------ calls from other files */

void vx_dm_halt_warp(struct vx_sim *sim, struct vx_warp *w, uint8_t cause)
{
    if (!w->active) {
        return;
    }
    w->halted = true;
    w->hacause = cause;
    vx_sim_irq_raise(sim, VX_IRQ_DEBUG);
}

bool vx_dm_ebreak_halts(const struct vx_sim *sim)
{
    return sim->dm.dmactive && (sim->dm.dconfig & VX_DCONFIG_EBREAKH);
}

/*
 * The latch persists, so every reset re-arms it until it is replaced.  The
 * RTL's resethaltreq is a haltreq of the latched warps after the reset
 * (VX_debug_module.sv drives halt_req with it): their halted bits are set
 * while they have no context, which the summary bits see.
 */
void vx_dm_on_reset(struct vx_sim *sim)
{
    if (!sim->dm.dmactive) {
        return;
    }
    for (uint32_t g = 0; g < sim->nwarps; g++) {
        struct vx_warp *w = &sim->warps[g];

        w->resethalt_armed = wmask_test(sim, sim->dm.resethalt, g);
        if (w->resethalt_armed && !w->active) {
            w->halted_idle = true;
            w->hacause = VX_HACAUSE_RESETHALTREQ;
        }
    }
}

void vx_dm_reset(struct vx_sim *sim)
{
    struct vx_dm *dm = &sim->dm;
    size_t words = mask_words(sim);
    bool resumed = false;

    dm->dmactive = false;
    dm->dconfig = 0;
    dm->dselect = 0;
    dm->inject = 0;
    dm->injecterr = false;
    dm->ndmreset_until = 0;
    memset(dm->wmask, 0, words * sizeof(uint32_t));
    memset(dm->resethalt, 0, words * sizeof(uint32_t));
    memset(sim->warps[0].dscratch, 0,
           (size_t)sim->nwarps * 4 * sim->cfg.threads * sizeof(uint32_t));
    for (uint32_t g = 0; g < sim->nwarps; g++) {
        struct vx_warp *w = &sim->warps[g];

        w->resethalt_armed = false;
        w->halted_idle = false;
        if (w->halted) {
            w->halted = false;
            resumed = true;
        }
        w->hacause = VX_HACAUSE_NONE;
    }
    if (resumed) {
        kick(sim);
    }
}

/* ---------------------------------------------------------------- DCTRL */

static bool ndmreset_asserted(const struct vx_sim *sim)
{
    return sim->clock < sim->dm.ndmreset_until;
}

/*
 * all/any halted, running, unavail over every warp of the card, whatever
 * DSELECT and WMASK select, as the reference RTL computes its summary
 * (docs/hardware.md, "Summary bits"): from the halted bit of each warp,
 * which here is @halted for a warp with a context and @halted_idle for
 * one without.  Running means "not halted", context or not.
 */
static uint32_t dctrl_summary(struct vx_sim *sim)
{
    uint32_t nhalted = 0, nactive = 0, n = sim->nwarps, v = 0;

    for (uint32_t g = 0; g < n; g++) {
        const struct vx_warp *w = &sim->warps[g];

        nactive += w->active;
        nhalted += w->halted || w->halted_idle;
    }
    v |= nhalted ? VX_DCTRL_ANYHALTED : 0;
    v |= nhalted == n ? VX_DCTRL_ALLHALTED : 0;
    v |= nhalted < n ? VX_DCTRL_ANYRUNNING : 0;
    v |= !nhalted ? VX_DCTRL_ALLRUNNING : 0;
    v |= nactive < n ? VX_DCTRL_ANYUNAVAIL : 0;
    v |= !nactive ? VX_DCTRL_ALLUNAVAIL : 0;
    return v;
}

static uint32_t dctrl_read(struct vx_sim *sim)
{
    struct vx_warp *w = selected_warp(sim);
    uint32_t v = VX_DCTRL_DMACTIVE | dctrl_summary(sim);

    if (w) {
        v |= VX_PUT(w->hacause, 11, 9);
    }
    if (sim->dm.injecterr) {
        v |= VX_DCTRL_INJECTERR;
    }
    if (ndmreset_asserted(sim)) {
        v |= VX_DCTRL_NDMRESET;
    }
    return v;
}

/*
 * As the RTL's scheduler takes a haltreq (VX_schedule.sv, "halt request
 * from debugger"): every selected warp's halted bit set and its cause
 * HALTREQ, halted already or not, with a context or not.  Only a warp that
 * was running halts anew and interrupts; a warp without a context keeps
 * the bit in @halted_idle and starts running all the same (halting at the
 * first instruction is resethaltreq's work).
 */
static void do_haltreq(struct vx_sim *sim)
{
    for (uint32_t g = 0; g < sim->nwarps; g++) {
        struct vx_warp *w = &sim->warps[g];

        if (!wmask_test(sim, sim->dm.wmask, g)) {
            continue;
        }
        if (w->active && !w->halted) {
            vx_dm_halt_warp(sim, w, VX_HACAUSE_HALTREQ);
        }
        w->halted_idle = !w->active;
        w->hacause = VX_HACAUSE_HALTREQ;
    }
}

static void do_resumereq(struct vx_sim *sim)
{
    bool resumed = false;

    for (uint32_t g = 0; g < sim->nwarps; g++) {
        struct vx_warp *w = &sim->warps[g];

        if (wmask_test(sim, sim->dm.wmask, g) && (w->halted || w->halted_idle)) {
            resumed |= w->halted;
            w->halted = false;
            w->halted_idle = false;
            w->hacause = VX_HACAUSE_NONE;
        }
    }
    if (resumed) {
        kick(sim);
    }
}

/*
 * The warp runs exactly one instruction: it is made runnable, executed by
 * the core, and halted again unless the instruction ended it, faulted (the
 * card is then frozen) or was an ebreak that halted it by itself.
 */
static void do_stepreq(struct vx_sim *sim)
{
    struct vx_warp *w = selected_warp(sim);
    enum vx_exec_result r;

    if (!w || !w->active || !w->halted) {
        vx_sim_guest_error(sim, "vortex: DM stepreq on a warp that is not "
                           "halted, ignored");
        return;
    }
    if (sim->error) {
        vx_sim_guest_error(sim, "vortex: DM stepreq while the card is "
                           "stopped on an error, ignored");
        return;
    }
    w->halted = false;
    w->hacause = VX_HACAUSE_NONE;
    w->resethalt_armed = false;
    r = vx_exec_warp(sim, w);
    if ((r == VX_EXEC_OK || r == VX_EXEC_WAIT) && w->active) {
        vx_dm_halt_warp(sim, w, VX_HACAUSE_STEP);
    }
    /*
     * An ended warp frees a slot for the next block even if every other
     * warp is halted (the scheduler would not call the CP then); a
     * finished launch lets the CP read on, which the run loop does.
     */
    if (r == VX_EXEC_ENDED && sim->cp.busy) {
        vx_cp_advance(sim);
    }
    kick(sim);
}

/*
 * @warp_wide (DCTRL.injectwarp, an extension in a reserved bit): every
 * thread of the selected warp executes INJECT, lane 0 first, whatever
 * threadsel says; the first lane that faults sets injecterr and the lanes
 * after it do not execute.
 */
static void do_injectreq(struct vx_sim *sim, bool warp_wide)
{
    struct vx_warp *w = selected_warp(sim);
    int lane = selected_lane(sim);
    uint32_t first, last, l;

    sim->dm.injecterr = false;
    if (!w || (!warp_wide && lane < 0) || !w->active || !w->halted) {
        sim->dm.injecterr = true;
        return;
    }
    first = warp_wide ? 0 : lane;
    last = warp_wide ? sim->cfg.threads - 1 : lane;
    for (l = first; l <= last; l++) {
        if (vx_exec_inject(sim, w, l, sim->dm.inject) < 0) {
            sim->dm.injecterr = true;
            return;
        }
    }
}

static void do_ndmreset(struct vx_sim *sim)
{
    vx_sim_core_reset(sim);
    sim->dm.ndmreset_until = sim->clock +
                             (1u << VX_DCONFIG_NRC(sim->dm.dconfig));
}

static void dctrl_write(struct vx_sim *sim, uint32_t value)
{
    struct vx_dm *dm = &sim->dm;

    if (!(value & VX_DCTRL_DMACTIVE)) {
        if (dm->dmactive) {
            vx_dm_reset(sim);
        }
        return;
    }
    /* As in RISC-V debug: the write that activates the DM does no more. */
    if (!dm->dmactive) {
        dm->dmactive = true;
        return;
    }
    if (value & VX_DCTRL_HALTREQ) {
        do_haltreq(sim);
    }
    if (value & VX_DCTRL_RESUMEREQ) {
        do_resumereq(sim);
    }
    if (value & VX_DCTRL_RESETHALTREQ) {
        memcpy(dm->resethalt, dm->wmask, mask_words(sim) * sizeof(uint32_t));
    }
    if (value & VX_DCTRL_STEPREQ) {
        do_stepreq(sim);
    }
    if (value & VX_DCTRL_INJECTREQ) {
        do_injectreq(sim, value & VX_DCTRL_INJECTWARP);
    }
    if (value & VX_DCTRL_NDMRESET) {
        do_ndmreset(sim);
    }
}

/* ---------------------------------------------------- the other registers */

/* Bits of window @win that name existing warps (0 past the last warp). */
static uint32_t window_valid(const struct vx_sim *sim, uint32_t win)
{
    uint32_t first = win * 32;

    if (first >= sim->nwarps) {
        return 0;
    }
    if (sim->nwarps - first >= 32) {
        return ~0u;
    }
    return (1u << (sim->nwarps - first)) - 1;
}

/* WACTIVE (halted = false) or WSTATUS (halted = true) of the window. */
static uint32_t window_state(struct vx_sim *sim, bool halted)
{
    uint32_t win = VX_DSELECT_WINSEL(sim->dm.dselect);
    uint32_t valid = window_valid(sim, win), v = 0;

    for (uint32_t i = 0; i < 32; i++) {
        const struct vx_warp *w;

        if (!((valid >> i) & 1)) {
            continue;
        }
        w = &sim->warps[win * 32 + i];
        if (halted ? w->halted : w->active) {
            v |= 1u << i;
        }
    }
    return v;
}

static uint32_t dscratch_read(struct vx_sim *sim, uint32_t n)
{
    int lane = selected_lane(sim);

    if (lane < 0) {
        return 0;
    }
    return selected_warp(sim)->dscratch[n * sim->cfg.threads + lane];
}

static uint32_t dm_reg_read(struct vx_sim *sim, uint32_t reg)
{
    struct vx_dm *dm = &sim->dm;
    struct vx_warp *w;

    switch (reg) {
    case VX_DM_DCONFIG:
        return dm->dconfig;
    case VX_DM_DSELECT:
        return dm->dselect;
    case VX_DM_WMASK:
        return window_valid(sim, VX_DSELECT_WINSEL(dm->dselect)) ?
               dm->wmask[VX_DSELECT_WINSEL(dm->dselect)] : 0;
    case VX_DM_WACTIVE:
        return window_state(sim, false);
    case VX_DM_WSTATUS:
        return window_state(sim, true);
    case VX_DM_DCTRL:
        return dctrl_read(sim);
    case VX_DM_DPC:
        w = selected_warp(sim);
        return w ? w->pc : 0;
    case VX_DM_INJECT:
        return dm->inject;
    }
    if (reg >= VX_DM_DSCRATCH(0) && reg <= VX_DM_DSCRATCH(3)) {
        return dscratch_read(sim, reg - VX_DM_DSCRATCH(0));
    }
    return 0;
}

uint32_t vx_dm_read(struct vx_sim *sim, uint32_t reg)
{
    uint32_t v;

    if (reg == VX_DM_PLATFORM) {
        v = VX_PLATFORM_MAKE(sim->tlog2, sim->cfg.warps, sim->cfg.cores,
                             sim->cfg.clusters);
    } else {
        v = sim->dm.dmactive ? dm_reg_read(sim, reg) : 0;
    }
    /* A DM read counts as one cycle of ndmreset, see the top of the file. */
    if (ndmreset_asserted(sim)) {
        sim->dm.ndmreset_until--;
    }
    return v;
}

static void wmask_write(struct vx_sim *sim, uint32_t value)
{
    uint32_t win = VX_DSELECT_WINSEL(sim->dm.dselect);
    uint32_t valid = window_valid(sim, win);

    if (!valid) {
        vx_sim_guest_error(sim, "vortex: DM WMASK window %u has no warps",
                           win);
        return;
    }
    sim->dm.wmask[win] = value & valid;
}

static void dpc_write(struct vx_sim *sim, uint32_t value)
{
    struct vx_warp *w = selected_warp(sim);

    if (!w || !w->active || !w->halted) {
        vx_sim_guest_error(sim, "vortex: DM DPC written for a warp that is "
                           "not halted, ignored");
        return;
    }
    w->pc = value;
}

static void dscratch_write(struct vx_sim *sim, uint32_t n, uint32_t value)
{
    int lane = selected_lane(sim);

    if (lane < 0) {
        vx_sim_guest_error(sim, "vortex: DM DSCRATCH%u written with no thread "
                           "selected, ignored", n);
        return;
    }
    selected_warp(sim)->dscratch[n * sim->cfg.threads + lane] = value;
}

void vx_dm_write(struct vx_sim *sim, uint32_t reg, uint32_t value)
{
    struct vx_dm *dm = &sim->dm;

    if (reg == VX_DM_DCTRL) {
        dctrl_write(sim, value);
        return;
    }
    if (!dm->dmactive) {
        vx_sim_guest_error(sim, "vortex: DM register %u written while "
                           "dmactive = 0, ignored", reg);
        return;
    }
    switch (reg) {
    case VX_DM_DCONFIG:
        dm->dconfig = value & VX_DCONFIG_WRITABLE;
        return;
    case VX_DM_DSELECT:
        dm->dselect = value;
        return;
    case VX_DM_WMASK:
        wmask_write(sim, value);
        return;
    case VX_DM_DPC:
        dpc_write(sim, value);
        return;
    case VX_DM_INJECT:
        dm->inject = value;
        return;
    }
    if (reg >= VX_DM_DSCRATCH(0) && reg <= VX_DM_DSCRATCH(3)) {
        dscratch_write(sim, reg - VX_DM_DSCRATCH(0), value);
        return;
    }
    vx_sim_guest_error(sim, "vortex: DM register %u is read-only", reg);
}
