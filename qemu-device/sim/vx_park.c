/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: parking a card whose warps spin without effect.
 *
 * A hung kernel (`j .`, a spin on a flag nobody sets) would keep the
 * embedder's run thread at 100% of a host core until the driver's
 * timeout resets the card.  Such a card is at a fixed point: every warp
 * that can run is in a loop one iteration of which leaves its registers
 * and PC as they were, stores nothing and reads only words that nobody
 * writes.  Then nothing the warps do can change what they do next, and
 * running them is only heat; the card parks until something outside
 * them can change that (docs/hardware.md, "Parking").
 *
 * Detection costs nothing on loops that do work: vx_sim_run() starts a
 * probe round once VX_PARK_INTERVAL_MIN slots have passed since the last
 * register write, and the round backs off by doubling up to
 * VX_PARK_INTERVAL_MAX while it keeps failing.  A round single-steps each
 * runnable warp on the reference interpreter for one iteration (back to
 * the PC it started at, at most VX_PARK_ITER_MAX instructions), looking
 * at each instruction before it runs: a store, an AMO, a CSR write,
 * tmc, wspawn, bar or anything else that reaches beyond the warp's
 * registers, mask and IPDOM stack ends the round; a load's words are recorded with
 * what they hold.  The steps are the warp's real execution, counted like
 * any other, so a round that fails has changed nothing but which
 * executor ran those few instructions, and the executors agree (the
 * differential tests).  The first warp of a loop that does work fails
 * within an iteration, which is all a round costs then.
 *
 * Parked, vx_sim_run() runs nothing and vx_sim_runnable() is false;
 * the card's clock and the warps' counters stand still, as an idle
 * card's do.  Any register write (a doorbell, a DM request, a reset,
 * anything) wakes it, and so does a change to a recorded word, which
 * the embedder finds with vx_sim_park_poll() (VRAM written by the host
 * through the BAR is not seen by the simulator).  A halted warp, one
 * about to halt on reset, a card in ndmreset or a CP with packets to
 * read never parks; warps at a barrier are not running and are skipped.
 */
#include <stdlib.h>

#include "vx_exec.h"

/* Slots from a register write to the first probe round: about a ms. */
#define VX_PARK_INTERVAL_MIN    (1u << 16)
/* The longest a failing round backs off to: some 100 ms of work. */
#define VX_PARK_INTERVAL_MAX    (1u << 23)
/* A loop longer than this is not taken for a spin. */
#define VX_PARK_ITER_MAX        64

#define OPC_LOAD        0x03
#define OPC_LOAD_FP     0x07
#define OPC_MISC_MEM    0x0f
#define OPC_OP_IMM      0x13
#define OPC_AUIPC       0x17
#define OPC_OP          0x33
#define OPC_LUI         0x37
#define OPC_FMADD       0x43
#define OPC_FMSUB       0x47
#define OPC_FNMSUB      0x4b
#define OPC_FNMADD      0x4f
#define OPC_OP_FP       0x53
#define OPC_BRANCH      0x63
#define OPC_JALR        0x67
#define OPC_JAL         0x6f
#define OPC_SYSTEM      0x73
#define INSN_WFI        0x10500073u

static void park_schedule(struct vx_sim *sim, uint64_t interval)
{
    struct vx_park *p = &sim->park;

    p->probing = false;
    p->nwatch = 0;
    p->interval = interval;
    p->due = sim->clock + interval;
}

void vx_park_wake(struct vx_sim *sim)
{
    bool was = sim->park.parked;

    sim->park.parked = false;
    park_schedule(sim, VX_PARK_INTERVAL_MIN);
    if (was && sim->hooks && sim->hooks->kick) {
        sim->hooks->kick(sim->opaque);
    }
}

void vx_park_fini(struct vx_sim *sim)
{
    free(sim->park.snap);
    sim->park.snap = NULL;
}

static void round_fail(struct vx_sim *sim)
{
    uint64_t next = sim->park.interval * 2;

    park_schedule(sim, next < VX_PARK_INTERVAL_MAX ? next
                                                   : VX_PARK_INTERVAL_MAX);
}

/* Record the word at VRAM offset @off and what it holds. */
static bool watch_add(struct vx_sim *sim, uint32_t off)
{
    struct vx_park *p = &sim->park;

    for (uint32_t i = 0; i < p->nwatch; i++) {
        if (p->watch_off[i] == off) {
            return true;
        }
    }
    if (p->nwatch == VX_PARK_WATCH_MAX) {
        return false;
    }
    p->watch_off[p->nwatch] = off;
    p->watch_val[p->nwatch++] = ld32(sim->vram + off);
    return true;
}

/*
 * The words a load of @w is about to read, recorded.  Local memory is
 * left out: only the core's own warps reach it, and they store nothing.
 * Anything that would fault, or the console's page, ends the round.
 */
static bool watch_load(struct vx_sim *sim, struct vx_warp *w, uint32_t insn)
{
    const uint32_t *base = &w->x[RS1(insn) * sim->cfg.threads];
    uint32_t size = 1u << (F3(insn) & 3), imm = imm_i(insn);

    VX_FOR_EACH_LANE(&w->tmask, l) {
        uint32_t va = base[l] + imm, off;

        if (va & (size - 1)) {
            return false;
        }
        if (vx_lmem_hit(va)) {
            continue;
        }
        if (w->satp) {
            if (vx_mmu_untlb(va) ||
                vx_mmu_translate(sim, w->satp, va, VX_ACC_LOAD, &off)) {
                return false;
            }
            off += va & 0xfff;
        } else {
            off = vx_vram_off(va);
            if (off & vx_vram_fault_bits(sim->vram_flat, size)) {
                return false;
            }
        }
        if (!watch_add(sim, off & ~3u)) {
            return false;
        }
    }
    return true;
}

/* Whether @insn may be part of a spin: its only effects are on registers. */
static bool insn_spins(struct vx_sim *sim, struct vx_warp *w, uint32_t insn)
{
    switch (insn & 0x7f) {
    case OPC_LOAD:
    case OPC_LOAD_FP:
        return watch_load(sim, w, insn);
    case OPC_MISC_MEM:
    case OPC_OP_IMM:
    case OPC_AUIPC:
    case OPC_OP:
    case OPC_LUI:
    case OPC_FMADD:
    case OPC_FMSUB:
    case OPC_FNMSUB:
    case OPC_FNMADD:
    case OPC_OP_FP:
    case OPC_BRANCH:
    case OPC_JALR:
    case OPC_JAL:
        return true;
    case VX_OPCODE_CUSTOM0:
        /*
         * Votes, shuffles, split, join and pred change registers, the
         * mask and the IPDOM stack, all compared; tmc, wspawn and bar
         * reach beyond the warp.
         */
        return F7(insn) == 1 ||
               (F7(insn) == 0 && (F3(insn) == VX_F3_SPLIT ||
                                  F3(insn) == VX_F3_JOIN ||
                                  F3(insn) == VX_F3_PRED));
    case OPC_SYSTEM:
        /* wfi, or a CSR read (csrrs/csrrc of x0 or uimm 0) */
        if (F3(insn) == 0) {
            return insn == INSN_WFI;
        }
        return (F3(insn) & 3) != 1 && RS1(insn) == 0;
    default:
        return false;
    }
}

/* The word at @w's PC, false where fetching it would fault. */
static bool fetch(struct vx_sim *sim, struct vx_warp *w, uint32_t *insn)
{
    uint32_t poff;

    if (w->satp) {
        if ((w->pc & 3) ||
            vx_mmu_translate(sim, w->satp, w->pc, VX_ACC_FETCH, &poff)) {
            return false;
        }
        *insn = ld32(sim->vram + poff + (w->pc & 0xfff));
        return true;
    }
    if (!vx_vram_pc_ok(sim->cfg.vram_size, w->pc)) {
        return false;
    }
    *insn = ld32(sim->vram + vx_vram_off(w->pc));
    return true;
}

/* The warp's IPDOM stack as far as it is in use: @a the same as @b. */
static bool ipdom_same(const struct vx_ipdom_entry *a,
                       const struct vx_ipdom_entry *b, uint32_t depth)
{
    for (uint32_t i = 0; i < depth; i++) {
        if (memcmp(&a[i].mask, &b[i].mask, sizeof(a[i].mask)) ||
            a[i].pc != b[i].pc || a[i].fallthrough != b[i].fallthrough) {
            return false;
        }
    }
    return true;
}

struct warp_state {
    uint32_t pc, ipdom_depth;
    struct vx_tmask tmask;
    uint8_t fflags, frm;
};

static void state_save(const struct vx_warp *w, struct warp_state *s)
{
    memset(s, 0, sizeof(*s));
    s->pc = w->pc;
    s->ipdom_depth = w->ipdom_depth;
    s->tmask = w->tmask;
    s->fflags = w->fflags;
    s->frm = w->frm;
}

/*
 * One iteration of @w's loop on the interpreter, within @max slots
 * (*@used counts them): true if it came back to where it started with
 * nothing changed.  *@r is the last step's result.
 */
static bool probe_warp(struct vx_sim *sim, struct vx_warp *w, uint64_t max,
                       uint64_t *used, enum vx_exec_result *r)
{
    size_t regs = 32 * (size_t)sim->cfg.threads;
    struct warp_state before, after;
    uint32_t *snap = sim->park.snap;

    struct vx_ipdom_entry *ipdom = (struct vx_ipdom_entry *)(snap + 2 * regs);

    state_save(w, &before);
    memcpy(snap, w->x, regs * sizeof(*snap));
    memcpy(snap + regs, w->f, regs * sizeof(*snap));
    memcpy(ipdom, w->ipdom, w->ipdom_depth * sizeof(*ipdom));
    for (uint64_t i = 0; i < max; i++) {
        uint32_t insn;
        uint64_t n;

        if (!fetch(sim, w, &insn) || !insn_spins(sim, w, insn)) {
            return false;
        }
        *r = vx_exec_ref(sim, w, 1, &n);
        *used += n;
        if (*r != VX_EXEC_OK) {
            return false;
        }
        if (w->pc == before.pc) {
            break;
        }
    }
    state_save(w, &after);
    return !memcmp(&before, &after, sizeof(before)) &&
           ipdom_same(ipdom, w->ipdom, w->ipdom_depth) &&
           !memcmp(snap, w->x, regs * sizeof(*snap)) &&
           !memcmp(snap + regs, w->f, regs * sizeof(*snap));
}

/* Whether the card as a whole may park at all: nothing pending outside the warps. */
static bool round_allowed(struct vx_sim *sim)
{
    if (sim->cp.in_doorbell || (vx_cp_pending(sim) && !sim->cp.busy) ||
        sim->clock < sim->dm.ndmreset_until) {
        return false;
    }
    if (!sim->park.snap) {
        /* x and f, then the IPDOM stack */
        sim->park.snap = malloc(64 * sizeof(uint32_t) * sim->cfg.threads +
                                sizeof(((struct vx_warp *)0)->ipdom));
    }
    return sim->park.snap != NULL;
}

/* Every recorded word still holds what the round saw. */
static bool watch_unchanged(const struct vx_sim *sim)
{
    const struct vx_park *p = &sim->park;

    for (uint32_t i = 0; i < p->nwatch; i++) {
        if (ld32(sim->vram + p->watch_off[i]) != p->watch_val[i]) {
            return false;
        }
    }
    return true;
}

uint64_t vx_park_probe(struct vx_sim *sim, uint64_t left, bool *ended,
                       bool *stop)
{
    struct vx_park *p = &sim->park;
    uint64_t used = 0;
    bool first = true;

    if (!p->probing) {
        if (!round_allowed(sim)) {
            round_fail(sim);
            return 0;
        }
        p->probing = true;
        p->next = 0;
        p->probed = 0;
    }
    for (; p->next < sim->nwarps; p->next++) {
        struct vx_warp *w = &sim->warps[p->next];
        enum vx_exec_result r = VX_EXEC_OK;

        if (!w->active) {
            continue;
        }
        if (w->halted || w->resethalt_armed || vx_tmask_empty(&w->tmask)) {
            round_fail(sim);
            return used;
        }
        if (w->at_barrier) {
            continue;
        }
        if (left - used <= VX_PARK_ITER_MAX) {
            /* the rest next call; a call too small for one warp gives up */
            if (first) {
                round_fail(sim);
            }
            *stop = !first;
            return used;
        }
        first = false;
        if (!probe_warp(sim, w, VX_PARK_ITER_MAX, &used, &r)) {
            *ended = r == VX_EXEC_ENDED;
            round_fail(sim);
            return used;
        }
        p->probed++;
    }
    /* VRAM the host wrote between calls of one round */
    if (!p->probed || !watch_unchanged(sim)) {
        round_fail(sim);
        return used;
    }
    p->probing = false;
    p->parked = true;
    p->parks++;
    p->polls = 0;
    *stop = true;
    return used;
}

bool vx_sim_park_poll(struct vx_sim *sim)
{
    if (!sim->park.parked) {
        return true;
    }
    if (watch_unchanged(sim)) {
        sim->park.polls++;
        return false;
    }
    vx_park_wake(sim);
    return true;
}

unsigned vx_sim_park_poll_ms(const struct vx_sim *sim)
{
    uint32_t n = sim->park.polls;

    return n < 64 ? 1 : n < 192 ? 2 : 4;
}

bool vx_sim_parked(const struct vx_sim *sim)
{
    return sim->park.parked;
}

uint64_t vx_sim_park_count(const struct vx_sim *sim)
{
    return sim->park.parks;
}
