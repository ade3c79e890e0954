/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: SIMT control instructions (custom-0).
 *
 * These follow upstream Vortex's simulator (simx) and RTL; docs/hardware.md
 * ("SIMT control") gives the upstream file and line for each rule and
 * lists where the card differs.  In short:
 *   - a warp-wide operand (tmc's mask, wspawn's count and PC, bar's id and
 *     count, pred's fallback mask, join's token) is the highest active
 *     lane's register;
 *   - split and pred test bit 0 of the predicate, negated by bit 0 of the
 *     rs2 (split) or rd (pred) register *field*;
 *   - divergence is explicit: a divergent split pushes one IPDOM entry
 *     (the mask to reconverge to, the side it did not take, the PC after
 *     the split) and runs the larger side first; the first join of the
 *     entry switches to the other side from that PC, the second pops it.
 *     A uniform split pushes nothing and returns the depth, which makes
 *     its join a no-op;
 *   - wspawn starts warps with their registers as they are, once its
 *     caller is the core's only active warp;
 *   - a global barrier (id bit 31) counts cores: a core arrives when all of
 *     its active warps have;
 *   - vote and shuffle (funct7 1) work across the active lanes.
 */
#include <string.h>
#include "vx_sim_internal.h"

/* barrier_id of a warp parked in wspawn: no bar id has these bits. */
#define VX_SPAWN_PARKED     0x7fffffffu

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

/* Register @r of the highest active lane: a warp-wide operand. */
static uint32_t highest(const struct vx_sim *sim, const struct vx_warp *w,
                        uint32_t r)
{
    return w->x[r * sim->cfg.threads + vx_tmask_last(&w->tmask)];
}

/* A 32-bit mask operand as a thread mask: lanes >= threads dropped. */
static struct vx_tmask mask_from_u32(const struct vx_sim *sim, uint32_t v)
{
    struct vx_tmask m = { { 0 } };

    m.w[0] = sim->cfg.threads >= 32 ? v : v & ((1u << sim->cfg.threads) - 1);
    return m;
}

static uint32_t tmask_count(const struct vx_tmask *m)
{
    uint32_t n = 0;

    for (int i = 0; i < VX_TMASK_WORDS; i++) {
        n += __builtin_popcount(m->w[i]);
    }
    return n;
}

/* Warps of core @core with a context (running, parked or halted). */
static uint32_t core_active(const struct vx_sim *sim, uint32_t core)
{
    const struct vx_warp *w = &sim->warps[core * sim->cfg.warps];
    uint32_t n = 0;

    for (uint32_t i = 0; i < sim->cfg.warps; i++) {
        n += w[i].active;
    }
    return n;
}

/* ------------------------------------------------------------ wspawn */

/*
 * Warps 0..count-1 of @w's core but @w itself start at @pc on lane 0,
 * keeping their registers, in @w's launch block and address space.
 */
static void spawn_warps(struct vx_sim *sim, struct vx_warp *w, uint32_t count,
                        uint32_t pc)
{
    struct vx_warp *first = w - w->lwid;
    struct vx_tmask lane0 = { { 1 } };

    for (uint32_t i = 0; i < count; i++) {
        struct vx_warp *t = &first[i];

        if (t == w || t->active) {
            continue;
        }
        vx_warp_spawn(sim, t, pc, &lane0);
        /* same block: the CP keeps the launch alive until these end too */
        t->block_slot = w->block_slot;
        memcpy(t->block_idx, w->block_idx, sizeof(t->block_idx));
        t->warp_in_block = w->warp_in_block;
        t->satp = w->satp;
    }
}

/* A wspawn parked on core @core goes ahead once its caller is alone. */
static void spawn_check(struct vx_sim *sim, uint32_t core)
{
    struct vx_core *c = &sim->cores[core];
    struct vx_warp *caller;

    if (!c->spawn_pending || core_active(sim, core) != 1) {
        return;
    }
    caller = &sim->warps[core * sim->cfg.warps + c->spawn_caller];
    c->spawn_pending = false;
    caller->at_barrier = false;
    caller->barrier_id = 0;
    spawn_warps(sim, caller, c->spawn_count, c->spawn_pc);
}

/*
 * Upstream's Emulator::wspawn(): nothing to do for fewer than 2 warps
 * when the caller is alone; otherwise the spawn waits until the caller is
 * the core's only active warp, and the caller waits with it.  A second
 * wspawn on a core while one waits could never go ahead (both callers
 * wait for the other), so it is a barrier error here.
 */
static enum vx_exec_result simt_wspawn(struct vx_sim *sim, struct vx_warp *w,
                                       uint32_t rs1, uint32_t rs2)
{
    uint32_t count = highest(sim, w, rs1), pc = highest(sim, w, rs2);
    struct vx_core *c = &sim->cores[w->core];

    if (count > sim->cfg.warps) {
        count = sim->cfg.warps;
    }
    if (c->spawn_pending) {
        return simt_fault(sim, w, VX_ERR_BARRIER, 0);
    }
    w->pc += 4;
    if (core_active(sim, w->core) == 1) {
        spawn_warps(sim, w, count, pc);
        return VX_EXEC_OK;
    }
    c->spawn_pending = true;
    c->spawn_count = count;
    c->spawn_pc = pc;
    c->spawn_caller = w->lwid;
    w->at_barrier = true;
    w->barrier_id = VX_SPAWN_PARKED;
    return VX_EXEC_WAIT;
}

/* ---------------------------------------------------- tmc, warp ends */

enum vx_exec_result vx_simt_warp_end(struct vx_sim *sim, struct vx_warp *w)
{
    vx_warp_stop(sim, w);
    vx_cp_warp_ended(sim, w);
    spawn_check(sim, w->core);
    return VX_EXEC_ENDED;
}

enum vx_exec_result vx_simt_core_end(struct vx_sim *sim, struct vx_warp *w)
{
    struct vx_warp *first = w - w->lwid;
    struct vx_core *c = &sim->cores[w->core];

    for (uint32_t i = 0; i < sim->cfg.warps; i++) {
        if (first[i].active) {
            vx_warp_stop(sim, &first[i]);
            vx_cp_warp_ended(sim, &first[i]);
        }
    }
    c->spawn_pending = false;
    memset(c->gbar_warps, 0, sizeof(c->gbar_warps));
    return VX_EXEC_ENDED;
}

void vx_simt_reset(struct vx_sim *sim)
{
    for (uint32_t i = 0; i < sim->ncores; i++) {
        struct vx_core *c = &sim->cores[i];

        memset(c->bar_count, 0, sizeof(c->bar_count));
        memset(c->gbar_warps, 0, sizeof(c->gbar_warps));
        c->spawn_pending = false;
    }
    memset(sim->gbar_count, 0, sizeof(sim->gbar_count));
}

/* The new mask, or the warp ends if it is empty (execute.cpp:1539-1545). */
static enum vx_exec_result set_mask(struct vx_sim *sim, struct vx_warp *w,
                                    const struct vx_tmask *m, uint32_t pc)
{
    if (vx_tmask_empty(m)) {
        return vx_simt_warp_end(sim, w);
    }
    w->tmask = *m;
    w->pc = pc;
    return VX_EXEC_OK;
}

static enum vx_exec_result simt_tmc(struct vx_sim *sim, struct vx_warp *w,
                                    uint32_t rs1)
{
    struct vx_tmask m = mask_from_u32(sim, highest(sim, w, rs1));

    return set_mask(sim, w, &m, w->pc + 4);
}

/* --------------------------------------------------- split, join, pred */

/* Active lanes whose predicate (bit 0 of rs1, xor @neg) holds. */
static struct vx_tmask pred_lanes(const struct vx_sim *sim,
                                  const struct vx_warp *w, uint32_t rs1,
                                  uint32_t neg)
{
    const uint32_t *x = &w->x[rs1 * sim->cfg.threads];
    struct vx_tmask m = { { 0 } };

    VX_FOR_EACH_LANE(&w->tmask, l) {
        if ((x[l] ^ neg) & 1) {
            vx_tmask_set(&m, l);
        }
    }
    return m;
}

static enum vx_exec_result simt_split(struct vx_sim *sim, struct vx_warp *w,
                                      uint32_t rd, uint32_t rs1, uint32_t rs2)
{
    uint32_t T = sim->cfg.threads, depth = w->ipdom_depth;
    struct vx_tmask active = w->tmask, then, other;

    then = pred_lanes(sim, w, rs1, rs2 & 1);
    for (int i = 0; i < VX_TMASK_WORDS; i++) {
        other.w[i] = active.w[i] & ~then.w[i];
    }
    if (!vx_tmask_empty(&then) && !vx_tmask_empty(&other)) {
        struct vx_ipdom_entry *e;

        if (depth >= T - 1) {
            return simt_fault(sim, w, VX_ERR_DIVERGENCE, 0);
        }
        e = &w->ipdom[w->ipdom_depth++];
        e->mask = active;
        e->pc = w->pc + 4;
        e->fallthrough = false;
        /* the larger side first, the taken one on a tie */
        if (tmask_count(&then) >= tmask_count(&other)) {
            e->other = other;
            w->tmask = then;
        } else {
            e->other = then;
            w->tmask = other;
        }
    }
    if (rd != 0) {
        VX_FOR_EACH_LANE(&active, l) {
            w->x[rd * T + l] = depth;
        }
    }
    w->pc += 4;
    return VX_EXEC_OK;
}

/*
 * A token equal to the depth closes a uniform split.  Otherwise the top
 * entry's other side, as the split divided the lanes (whatever the first
 * side did to its mask since), runs from after its split, or, once it
 * has, the entry's mask comes back.  A join with nothing to close, or
 * with a token no open split returned, is a divergence error (upstream
 * aborts on the first and uses the top entry for the second).
 */
static enum vx_exec_result simt_join(struct vx_sim *sim, struct vx_warp *w,
                                     uint32_t rs1)
{
    uint32_t token = highest(sim, w, rs1), depth = w->ipdom_depth;
    struct vx_ipdom_entry *e;

    if (token == depth) {
        w->pc += 4;
        return VX_EXEC_OK;
    }
    if (depth == 0 || token > depth) {
        return simt_fault(sim, w, VX_ERR_DIVERGENCE, 0);
    }
    e = &w->ipdom[depth - 1];
    if (e->fallthrough) {
        w->ipdom_depth--;
        return set_mask(sim, w, &e->mask, w->pc + 4);
    }
    e->fallthrough = true;
    return set_mask(sim, w, &e->other, e->pc);
}

/* pred: the active lanes whose predicate holds; none -> the mask in rs2. */
static enum vx_exec_result simt_pred(struct vx_sim *sim, struct vx_warp *w,
                                     uint32_t rd, uint32_t rs1, uint32_t rs2)
{
    struct vx_tmask m = pred_lanes(sim, w, rs1, rd & 1);

    if (vx_tmask_empty(&m)) {
        m = mask_from_u32(sim, highest(sim, w, rs2));
    }
    return set_mask(sim, w, &m, w->pc + 4);
}

/* ---------------------------------------------------------------- bar */

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
                             uint32_t idx)
{
    if (w->block_slot >= 0) {
        return &sim->cp.blocks[w->block_slot].bar_count[idx];
    }
    return &sim->cores[w->core].bar_count[idx];
}

/*
 * One more arrival at global barrier @idx: the warp's, and its core's
 * once every active warp of the core has arrived.  True when the last
 * of @want cores arrived.
 */
static bool gbar_arrive(struct vx_sim *sim, const struct vx_warp *w,
                        uint32_t idx, uint32_t want)
{
    struct vx_core *c = &sim->cores[w->core];

    if (++c->gbar_warps[idx] < core_active(sim, w->core)) {
        return false;
    }
    c->gbar_warps[idx] = 0;
    if (++sim->gbar_count[idx] < want) {
        return false;
    }
    sim->gbar_count[idx] = 0;
    return true;
}

/*
 * The arriving warp moves past the bar and parks; the last arrival
 * releases everybody, so a released warp simply continues after its bar.
 * A count below 2 does not wait (upstream's Emulator::barrier()).  A count
 * the scope cannot reach would wait forever: a barrier error here.
 */
static enum vx_exec_result simt_bar(struct vx_sim *sim, struct vx_warp *w,
                                    uint32_t rs1, uint32_t rs2)
{
    uint32_t id = highest(sim, w, rs1), want = highest(sim, w, rs2);
    bool global = id & 0x80000000u;
    uint32_t idx = id & 0x7fffffffu;
    uint32_t limit = global ? sim->ncores : sim->cfg.warps;
    uint32_t *count;

    if (idx >= VX_NUM_BARRIERS || want > limit) {
        return simt_fault(sim, w, VX_ERR_BARRIER, id);
    }
    w->pc += 4;
    if (want < 2) {
        return VX_EXEC_OK;
    }
    w->at_barrier = true;
    w->barrier_id = id;
    if (global) {
        if (!gbar_arrive(sim, w, idx, want)) {
            return VX_EXEC_WAIT;
        }
    } else {
        count = bar_counter(sim, w, idx);
        if (++*count < want) {
            return VX_EXEC_WAIT;
        }
        *count = 0;
    }
    bar_release(sim, w, id, global);
    return VX_EXEC_OK;
}

/* ------------------------------------------------------ vote, shuffle */

static enum vx_exec_result simt_vote(struct vx_sim *sim, struct vx_warp *w,
                                     uint32_t f3, uint32_t rd, uint32_t rs1)
{
    uint32_t T = sim->cfg.threads;
    struct vx_tmask yes = pred_lanes(sim, w, rs1, 0);
    bool any = !vx_tmask_empty(&yes);
    bool all = tmask_count(&yes) == tmask_count(&w->tmask);
    uint32_t v;

    switch (f3) {
    case 0:  v = all; break;                    /* all */
    case 1:  v = any; break;                    /* any */
    case 2:  v = all || !any; break;            /* uniform */
    default: v = yes.w[0]; break;               /* ballot: lanes 0..31 */
    }
    if (rd != 0) {
        VX_FOR_EACH_LANE(&w->tmask, l) {
            w->x[rd * T + l] = v;
        }
    }
    w->pc += 4;
    return VX_EXEC_OK;
}

/*
 * Lane @t's source lane for shuffle @f3 with control word @bc: b in bits
 * 0-5, c in 6-11, the segment mask in 12-17; a source outside t's segment
 * is t itself.
 */
static uint32_t shfl_src(uint32_t f3, uint32_t t, uint32_t bc)
{
    int b = bc & 0x3f, c = (bc >> 6) & 0x3f, mask = (bc >> 12) & 0x3f;
    int lane = t, min = t & mask, max = (t & mask) | (c & ~mask);
    bool ok;

    switch (f3) {
    case 4:  lane = t - b; ok = lane >= min; break;             /* up */
    case 5:  lane = t + b; ok = lane <= max; break;             /* down */
    case 6:  lane = t ^ b; ok = lane <= max; break;             /* bfly */
    default: lane = min | (b & ~mask); ok = lane <= max; break; /* idx */
    }
    return ok ? (uint32_t)lane : t;
}

/* An inactive source lane reads 0, as upstream reads only active lanes. */
static enum vx_exec_result simt_shfl(struct vx_sim *sim, struct vx_warp *w,
                                     uint32_t f3, uint32_t rd, uint32_t rs1,
                                     uint32_t rs2)
{
    uint32_t T = sim->cfg.threads, v[VX_TMASK_WORDS * 32];
    const uint32_t *a = &w->x[rs1 * T], *bc = &w->x[rs2 * T];

    VX_FOR_EACH_LANE(&w->tmask, t) {
        uint32_t s = shfl_src(f3, t, bc[t]);

        if (s >= T) {
            s = t;
        }
        v[t] = vx_tmask_test(&w->tmask, s) ? a[s] : 0;
    }
    if (rd != 0) {
        VX_FOR_EACH_LANE(&w->tmask, t) {
            w->x[rd * T + t] = v[t];
        }
    }
    w->pc += 4;
    return VX_EXEC_OK;
}

enum vx_exec_result vx_simt_exec(struct vx_sim *sim, struct vx_warp *w,
                                 uint32_t insn)
{
    uint32_t rd = (insn >> 7) & 31, rs1 = (insn >> 15) & 31;
    uint32_t rs2 = (insn >> 20) & 31, f3 = (insn >> 12) & 7;

    if ((insn >> 25) == 1) {
        return f3 < 4 ? simt_vote(sim, w, f3, rd, rs1)
                      : simt_shfl(sim, w, f3, rd, rs1, rs2);
    }
    if ((insn >> 25) != 0) {
        return simt_fault(sim, w, VX_ERR_ILLEGAL_INSTR, insn);
    }
    switch (f3) {
    case VX_F3_TMC:    return simt_tmc(sim, w, rs1);
    case VX_F3_WSPAWN: return simt_wspawn(sim, w, rs1, rs2);
    case VX_F3_SPLIT:  return simt_split(sim, w, rd, rs1, rs2);
    case VX_F3_JOIN:   return simt_join(sim, w, rs1);
    case VX_F3_BAR:    return simt_bar(sim, w, rs1, rs2);
    case VX_F3_PRED:   return simt_pred(sim, w, rd, rs1, rs2);
    default:           return simt_fault(sim, w, VX_ERR_ILLEGAL_INSTR, insn);
    }
}
