/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: SIMT control instructions (custom-0).
 *
 * Divergence is explicit, as on the Vortex hardware: the compiler brackets
 * a divergent region with split/join, and the warp keeps an immediate
 * post-dominator (IPDOM) stack of the masks to come back to.  A divergent
 * split runs the taken lanes first and leaves an "else" entry; the first
 * join switches to the else lanes and re-runs the region from just after
 * the split, the second join restores the full mask.
 */
#include <string.h>
#include "vx_sim_internal.h"

static enum vx_exec_result simt_fault(struct vx_sim *sim, struct vx_warp *w,
                                      uint32_t cause, uint32_t addr)
{
    struct vx_fault f;

    memset(&f, 0, sizeof(f));
    f.cause = cause;
    f.pc = w->pc;
    f.addr = addr;
    f.lanes = w->tmask;
    vx_sim_fault(sim, w, &f);
    return VX_EXEC_FAULT;
}

/* Register @r of the lowest active lane: the operand of most Vortex ops. */
static uint32_t lowest(const struct vx_sim *sim, const struct vx_warp *w,
                       uint32_t r)
{
    return w->x[r * sim->cfg.threads + vx_tmask_first(&w->tmask)];
}

/* A 32-bit mask operand as a thread mask: lanes >= threads dropped. */
static struct vx_tmask mask_from_u32(const struct vx_sim *sim, uint32_t v)
{
    struct vx_tmask m = { { 0 } };

    m.w[0] = sim->cfg.threads >= 32 ? v : v & ((1u << sim->cfg.threads) - 1);
    return m;
}

/* The warp runs out of lanes: its context goes, the CP may finish. */
static enum vx_exec_result simt_end(struct vx_sim *sim, struct vx_warp *w)
{
    vx_warp_stop(sim, w);
    vx_cp_warp_ended(sim, w);
    return VX_EXEC_ENDED;
}

static enum vx_exec_result simt_tmc(struct vx_sim *sim, struct vx_warp *w,
                                    uint32_t rs1)
{
    struct vx_tmask m = mask_from_u32(sim, lowest(sim, w, rs1));

    if (vx_tmask_empty(&m)) {
        return simt_end(sim, w);
    }
    w->tmask = m;
    w->pc += 4;
    return VX_EXEC_OK;
}

static enum vx_exec_result simt_wspawn(struct vx_sim *sim, struct vx_warp *w,
                                       uint32_t rs1, uint32_t rs2)
{
    uint32_t count = lowest(sim, w, rs1), pc = lowest(sim, w, rs2);
    struct vx_warp *first = w - w->lwid;
    struct vx_tmask lane0 = { { 1 } };

    if (count > sim->cfg.warps) {
        count = sim->cfg.warps;
    }
    for (uint32_t i = 1; i < count; i++) {
        struct vx_warp *t = &first[i];

        if (t->active) {
            continue;
        }
        vx_warp_start(sim, t, pc, &lane0);
        /* same block: the CP keeps the launch alive until these end too */
        t->block_slot = w->block_slot;
        memcpy(t->block_idx, w->block_idx, sizeof(t->block_idx));
        t->warp_in_block = w->warp_in_block;
        t->satp = w->satp;      /* and its address space */
    }
    w->pc += 4;
    return VX_EXEC_OK;
}

static void ipdom_push(struct vx_warp *w, uint8_t kind, uint32_t pc,
                       const struct vx_tmask *mask)
{
    struct vx_ipdom_entry *e = &w->ipdom[w->ipdom_depth++];

    e->kind = kind;
    e->pc = pc;
    e->mask = *mask;
}

static enum vx_exec_result simt_split(struct vx_sim *sim, struct vx_warp *w,
                                      uint32_t rd, uint32_t rs1, uint32_t rs2)
{
    uint32_t T = sim->cfg.threads;
    bool invert = lowest(sim, w, rs2) != 0;
    struct vx_tmask taken = { { 0 } }, not_taken = { { 0 } };
    struct vx_tmask active = w->tmask;
    uint32_t token = w->ipdom_depth;

    VX_FOR_EACH_LANE(&active, l) {
        if ((w->x[rs1 * T + l] != 0) != invert) {
            vx_tmask_set(&taken, l);
        } else {
            vx_tmask_set(&not_taken, l);
        }
    }
    bool diverged = !vx_tmask_empty(&taken) && !vx_tmask_empty(&not_taken);
    if (token + (diverged ? 2 : 1) > VX_IPDOM_DEPTH) {
        return simt_fault(sim, w, VX_ERR_DIVERGENCE, 0);
    }
    if (diverged) {
        ipdom_push(w, VX_IPDOM_RESTORE, 0, &active);
        ipdom_push(w, VX_IPDOM_ELSE, w->pc + 4, &not_taken);
        w->tmask = taken;
    } else {
        ipdom_push(w, VX_IPDOM_UNIFORM, 0, &active);
    }
    if (rd != 0) {
        VX_FOR_EACH_LANE(&active, l) {
            w->x[rd * T + l] = token;
        }
    }
    w->pc += 4;
    return VX_EXEC_OK;
}

static enum vx_exec_result simt_join(struct vx_sim *sim, struct vx_warp *w,
                                     uint32_t rs1)
{
    uint32_t token = lowest(sim, w, rs1);
    uint32_t depth = w->ipdom_depth;
    struct vx_ipdom_entry *e;

    if (depth == 0) {
        return simt_fault(sim, w, VX_ERR_DIVERGENCE, 0);
    }
    e = &w->ipdom[depth - 1];
    /* an else entry sits one above the restore entry of the same split */
    if (token != depth - (e->kind == VX_IPDOM_ELSE ? 2 : 1)) {
        return simt_fault(sim, w, VX_ERR_DIVERGENCE, 0);
    }
    w->ipdom_depth--;
    w->tmask = e->mask;
    w->pc = e->kind == VX_IPDOM_ELSE ? e->pc : w->pc + 4;
    return VX_EXEC_OK;
}

/*
 * Release every warp parked at barrier @id in @w's scope: the device for
 * a global id; otherwise @w's core, and within it @w's block.
 */
static void bar_release(struct vx_sim *sim, const struct vx_warp *w,
                        uint32_t id, bool global)
{
    uint32_t first = global ? 0 : w->core * sim->cfg.warps;
    uint32_t n = global ? sim->nwarps : sim->cfg.warps;

    for (uint32_t i = first; i < first + n; i++) {
        struct vx_warp *t = &sim->warps[i];

        if (t->at_barrier && t->barrier_id == id &&
            (global || t->block_slot == w->block_slot)) {
            t->at_barrier = false;
        }
    }
}

/*
 * Local barriers belong to the block, so blocks sharing a core never
 * release each other; warps started outside a launch share their core's.
 */
static uint32_t *bar_counter(struct vx_sim *sim, const struct vx_warp *w,
                             uint32_t idx, bool global)
{
    if (global) {
        return &sim->gbar_count[idx];
    }
    if (w->block_slot >= 0) {
        return &sim->cp.blocks[w->block_slot].bar_count[idx];
    }
    return &sim->cores[w->core].bar_count[idx];
}

/*
 * The arriving warp moves past the bar and parks; the last one releases
 * everybody, so a released warp simply continues after its bar.
 */
static enum vx_exec_result simt_bar(struct vx_sim *sim, struct vx_warp *w,
                                    uint32_t rs1, uint32_t rs2)
{
    uint32_t id = lowest(sim, w, rs1), want = lowest(sim, w, rs2);
    bool global = id & 0x80000000u;
    uint32_t idx = id & 0x7fffffffu;
    uint32_t limit = global ? sim->nwarps : sim->cfg.warps;
    uint32_t *count;

    if (idx >= VX_NUM_BARRIERS || want > limit) {
        return simt_fault(sim, w, VX_ERR_BARRIER, id);
    }
    count = bar_counter(sim, w, idx, global);
    w->pc += 4;
    if (++*count < want) {
        w->at_barrier = true;
        w->barrier_id = id;
        return VX_EXEC_WAIT;
    }
    *count = 0;
    bar_release(sim, w, id, global);
    return VX_EXEC_OK;
}

/* pred: lanes whose rs1 is set; none -> the mask in rs2. */
static enum vx_exec_result simt_pred(struct vx_sim *sim, struct vx_warp *w,
                                     uint32_t rs1, uint32_t rs2)
{
    uint32_t T = sim->cfg.threads;
    struct vx_tmask m = { { 0 } };

    VX_FOR_EACH_LANE(&w->tmask, l) {
        if (w->x[rs1 * T + l] != 0) {
            vx_tmask_set(&m, l);
        }
    }
    if (vx_tmask_empty(&m)) {
        m = mask_from_u32(sim, lowest(sim, w, rs2));
        if (vx_tmask_empty(&m)) {
            return simt_end(sim, w);    /* as tmc 0 */
        }
    }
    w->tmask = m;
    w->pc += 4;
    return VX_EXEC_OK;
}

enum vx_exec_result vx_simt_exec(struct vx_sim *sim, struct vx_warp *w,
                                 uint32_t insn)
{
    uint32_t rd = (insn >> 7) & 31, rs1 = (insn >> 15) & 31;
    uint32_t rs2 = (insn >> 20) & 31;

    if ((insn >> 25) != 0) {
        return simt_fault(sim, w, VX_ERR_ILLEGAL_INSTR, insn);
    }
    switch ((insn >> 12) & 7) {
    case VX_F3_TMC:    return simt_tmc(sim, w, rs1);
    case VX_F3_WSPAWN: return simt_wspawn(sim, w, rs1, rs2);
    case VX_F3_SPLIT:  return simt_split(sim, w, rd, rs1, rs2);
    case VX_F3_JOIN:   return simt_join(sim, w, rs1);
    case VX_F3_BAR:    return simt_bar(sim, w, rs1, rs2);
    case VX_F3_PRED:   return simt_pred(sim, w, rs1, rs2);
    default:           return simt_fault(sim, w, VX_ERR_ILLEGAL_INSTR, insn);
    }
}
