/* SPDX-License-Identifier: MIT */
/*
 * Vortex card simulator: command processor.
 *
 * The CP owns the ring registers and turns packets into work.  DOORBELL
 * samples TAIL and asks the embedder (hooks->kick) to call vx_sim_run(),
 * whose scheduler calls vx_cp_advance() between warp instructions.  With
 * the fast doorbell (vx_sim_config.fast_doorbell) a DOORBELL that finds
 * the card idle first runs it itself, for a small fixed budget, so that a
 * short job is over before the write returns and nobody has to be woken:
 * only what is left over is kicked.  Either way an MMIO handler stays
 * short however long a kernel runs.
 *
 * A LAUNCH is consumed from the ring at once (HEAD moves past it) and its
 * parameters are kept in struct vx_cp; blocks are then handed to cores as
 * warp slots free up, and the CP reads no further packet until the last
 * block is done.  That is what makes "FENCE after LAUNCH" mean "finished".
 */
#include <string.h>

#include "vx_exec.h"

/*
 * Packets parsed per vx_cp_advance() call: a ring full of NOPs must not
 * hold the simulator lock for long.  The rest is done on the next call.
 */
#define VX_CP_PACKET_BUDGET 1024

static bool ring_enabled(const struct vx_sim *sim)
{
    return sim->ring_ctrl & VX_RING_CTRL_ENABLE;
}

bool vx_cp_pending(const struct vx_sim *sim)
{
    if (sim->error) {
        return false;
    }
    return sim->cp.busy ||
           (ring_enabled(sim) && sim->ring_head != sim->cp.tail);
}

void vx_cp_reset(struct vx_sim *sim)
{
    struct vx_block *blocks = sim->cp.blocks;

    memset(&sim->cp, 0, sizeof(sim->cp));
    sim->cp.blocks = blocks;
    memset(blocks, 0, sim->nwarps * sizeof(*blocks));
}

/* ------------------------------------------------------------ registers */

static bool ring_config_ok(struct vx_sim *sim)
{
    uint32_t size = sim->ring_size;

    if (size < VX_RING_SIZE_MIN || size > VX_RING_SIZE_MAX ||
        (size & (size - 1))) {
        vx_sim_guest_error(sim, "vortex: RING_SIZE 0x%x is not a power of "
                           "two in 4 KiB..16 MiB", size);
        return false;
    }
    if (sim->ring_base & (size - 1)) {
        vx_sim_guest_error(sim, "vortex: RING_BASE 0x%x not aligned to "
                           "RING_SIZE 0x%x", sim->ring_base, size);
        return false;
    }
    if (!vx_sim_mem(sim, sim->ring_base, size)) {
        vx_sim_guest_error(sim, "vortex: ring 0x%x+0x%x is outside VRAM",
                           sim->ring_base, size);
        return false;
    }
    return true;
}

static void ctrl_write(struct vx_sim *sim, uint32_t value)
{
    if (value & ~VX_RING_CTRL_ENABLE) {
        vx_sim_guest_error(sim, "vortex: RING_CTRL reserved bits 0x%x",
                           value & ~VX_RING_CTRL_ENABLE);
    }
    if (!(value & VX_RING_CTRL_ENABLE)) {
        /* A running LAUNCH finishes; no further packet is read. */
        sim->ring_ctrl = 0;
        return;
    }
    if (ring_enabled(sim)) {
        return;
    }
    if (!ring_config_ok(sim)) {
        vx_sim_cp_error(sim, VX_ERR_BAD_PACKET, 0);
        return;
    }
    sim->ring_ctrl = VX_RING_CTRL_ENABLE;
    sim->ring_head = 0;
    sim->ring_tail = 0;
    sim->cp.tail = 0;
}

/*
 * The fence record (docs/hardware.md, "Fence write-back"): what a driver
 * would read from FENCE_SEQNO, CLOCK_LO/HI and CONS_TAIL, in VRAM.  SEQNO
 * goes last, in one store: a reader that sees a FENCE's seqno there sees
 * that FENCE's clock and console tail, even while the run thread writes.
 */
static void fence_wb_write(struct vx_sim *sim)
{
    uint8_t *rec;
    uint32_t seqno_le;

    if (!sim->fence_wb) {
        return;
    }
    /* checked when FENCE_WB was written: aligned, all of it in VRAM */
    rec = sim->vram + vx_vram_off(sim->fence_wb);
    st32(rec + VX_FENCE_WB_CLOCK_LO, (uint32_t)sim->clock);
    st32(rec + VX_FENCE_WB_CLOCK_HI, (uint32_t)(sim->clock >> 32));
    st32(rec + VX_FENCE_WB_CONS_TAIL, sim->cons_tail);
    st32((uint8_t *)&seqno_le, sim->fence_seqno);
    __atomic_store_n((uint32_t *)(rec + VX_FENCE_WB_SEQNO), seqno_le,
                     __ATOMIC_RELEASE);
}

/* FENCE_WB: 0, or where the record goes from now on; written there at once. */
static void fence_wb_reg_write(struct vx_sim *sim, uint32_t value)
{
    if (value && ((value & (VX_FENCE_WB_SIZE - 1)) ||
                  !vx_vram_range_ok(sim, value, VX_FENCE_WB_SIZE))) {
        vx_sim_guest_error(sim, "vortex: FENCE_WB 0x%x is not a %u-byte "
                           "aligned VRAM address, ignored", value,
                           VX_FENCE_WB_SIZE);
        return;
    }
    sim->fence_wb = value;
    fence_wb_write(sim);
}

/* A RING_TAIL value, written there or (fast doorbell) to DOORBELL. */
static bool tail_ok(struct vx_sim *sim, const char *reg, uint32_t value)
{
    if ((value & 3) || (ring_enabled(sim) && value >= sim->ring_size)) {
        vx_sim_guest_error(sim, "vortex: %s 0x%x unaligned or past "
                           "RING_SIZE, ignored", reg, value);
        return false;
    }
    return true;
}

static void tail_write(struct vx_sim *sim, uint32_t value)
{
    if (tail_ok(sim, "RING_TAIL", value)) {
        sim->ring_tail = value;
    }
}

static void kick(struct vx_sim *sim)
{
    if (sim->hooks && sim->hooks->kick) {
        sim->hooks->kick(sim->opaque);
    }
}

/*
 * The fast doorbell's inline run.  Only an idle card runs here: a busy
 * one is the embedder's run loop's already, which takes the new packets
 * in turn.  A FENCE executed within the budget raises no interrupt, as
 * the driver reads FENCE_SEQNO when the write returns; errors and debug
 * halts interrupt as always.  Packets cost nothing from the budget (the
 * CP bounds them per call itself).
 */
static void doorbell_run(struct vx_sim *sim, bool was_idle)
{
    if (was_idle && sim->cfg.doorbell_budget) {
        sim->cp.in_doorbell = true;
        vx_sim_run(sim, sim->cfg.doorbell_budget);
        sim->cp.in_doorbell = false;
    }
    if (vx_sim_runnable(sim)) {
        kick(sim);
    }
}

static void doorbell_write(struct vx_sim *sim, uint32_t value)
{
    bool was_idle;

    if (!ring_enabled(sim)) {
        vx_sim_guest_error(sim, "vortex: DOORBELL while the ring is disabled");
        return;
    }
    if (!sim->cfg.fast_doorbell) {
        sim->cp.tail = sim->ring_tail;
        kick(sim);
        return;
    }
    if (!tail_ok(sim, "DOORBELL", value)) {
        return;
    }
    was_idle = !vx_sim_runnable(sim);
    sim->ring_tail = value;
    sim->cp.tail = value;
    doorbell_run(sim, was_idle);
}

uint32_t vx_cp_read(struct vx_sim *sim, uint32_t offset)
{
    switch (offset) {
    case VX_REG_RING_BASE:
        return sim->ring_base;
    case VX_REG_RING_SIZE:
        return sim->ring_size;
    case VX_REG_RING_HEAD:
        return sim->ring_head;
    case VX_REG_RING_TAIL:
        return sim->ring_tail;
    case VX_REG_RING_CTRL:
        return sim->ring_ctrl;
    case VX_REG_DOORBELL:
        return 0;   /* write-only */
    case VX_REG_FENCE_SEQNO:
        return sim->fence_seqno;
    case VX_REG_FENCE_WB:
        return sim->fence_wb;
    }
    vx_sim_guest_error(sim, "vortex: read of unknown register 0x%x", offset);
    return 0;
}

void vx_cp_write(struct vx_sim *sim, uint32_t offset, uint32_t value)
{
    switch (offset) {
    case VX_REG_RING_BASE:
    case VX_REG_RING_SIZE:
        if (ring_enabled(sim)) {
            vx_sim_guest_error(sim, "vortex: ring register 0x%x written "
                               "while enabled, ignored", offset);
        } else if (offset == VX_REG_RING_BASE) {
            sim->ring_base = value;
        } else {
            sim->ring_size = value;
        }
        return;
    case VX_REG_RING_TAIL:
        tail_write(sim, value);
        return;
    case VX_REG_RING_CTRL:
        ctrl_write(sim, value);
        return;
    case VX_REG_DOORBELL:
        doorbell_write(sim, value);
        return;
    case VX_REG_FENCE_WB:
        fence_wb_reg_write(sim, value);
        return;
    }
    vx_sim_guest_error(sim, "vortex: write 0x%x to read-only or unknown "
                       "register 0x%x ignored", value, offset);
}

/* ------------------------------------------------------- block dispatch */

/* Free warp slots of core @c; the CP only uses warps without a context. */
static uint32_t core_free_warps(const struct vx_sim *sim, uint32_t c)
{
    const struct vx_warp *w = &sim->warps[c * sim->cfg.warps];
    uint32_t n = 0;

    for (uint32_t i = 0; i < sim->cfg.warps; i++) {
        n += !w[i].active;
    }
    return n;
}

/* The ABI's initial a0 and sp for every lane of a fresh warp. */
static void init_lanes(struct vx_sim *sim, struct vx_warp *w)
{
    uint32_t t = sim->cfg.threads;
    struct vx_cp *cp = &sim->cp;

    for (uint32_t lane = 0; lane < t; lane++) {
        uint32_t hartid = w->gid * t + lane;

        /* Vortex's start clears every register (docs/hardware.md) */
        w->x[10 * t + lane] = cp->cores_mode ? 0 : cp->arg;
        if (cp->stack_size) {
            w->x[2 * t + lane] = cp->stack_base +
                                 (hartid + 1) * cp->stack_size;
        }
    }
}

static void start_block_warp(struct vx_sim *sim, struct vx_warp *w, int slot,
                             const uint32_t idx[3], uint32_t wib)
{
    struct vx_cp *cp = &sim->cp;
    uint32_t left = cp->threads_per_block - wib * sim->cfg.threads;
    uint32_t n = left < sim->cfg.threads ? left : sim->cfg.threads;
    struct vx_tmask mask = { { 0 } };

    for (uint32_t lane = 0; lane < n; lane++) {
        vx_tmask_set(&mask, lane);
    }
    vx_warp_start(sim, w, cp->entry, &mask);
    w->block_slot = slot;
    memcpy(w->block_idx, idx, sizeof(w->block_idx));
    w->warp_in_block = wib;
    w->satp = cp->satp;
    init_lanes(sim, w);
    /*
     * The scheduler also honours the flag; doing it here as well means a
     * launched warp halts at its entry PC whatever the scheduler's order.
     */
    if (w->resethalt_armed) {
        w->resethalt_armed = false;
        vx_dm_halt_warp(sim, w, VX_HACAUSE_RESETHALTREQ);
    }
}

/*
 * A block's slot is normally the global id of its first warp, so there is
 * nothing to search.  That slot can still be held by an older block whose
 * first warp ended before its others; then the next free slot is taken.
 * One exists: every resident block holds a warp, and this block has a
 * free one, so fewer than nwarps slots are in use.
 */
static int block_slot_for(const struct vx_sim *sim, uint32_t gid)
{
    uint32_t s = gid;

    while (sim->cp.blocks[s].used) {
        s = (s + 1) % sim->nwarps;
    }
    return s;
}

static void start_block(struct vx_sim *sim, uint32_t core)
{
    struct vx_cp *cp = &sim->cp;
    uint64_t b = cp->blocks_issued++;
    uint32_t idx[3];
    struct vx_warp *w = &sim->warps[core * sim->cfg.warps];
    uint32_t wib = 0, first = 0;
    int slot;

    if (core_free_warps(sim, core) == sim->cfg.warps) {
        vx_exec_core_start(sim, core, cp->arg);
    }
    while (w[first].active) {
        first++;
    }
    slot = block_slot_for(sim, w[first].gid);

    idx[0] = b % cp->grid[0];
    idx[1] = (b / cp->grid[0]) % cp->grid[1];
    idx[2] = b / ((uint64_t)cp->grid[0] * cp->grid[1]);
    cp->blocks[slot].used = true;
    cp->blocks[slot].core = core;
    cp->blocks[slot].warps_left = cp->warps_per_block;
    memset(cp->blocks[slot].bar_count, 0, sizeof(cp->blocks[slot].bar_count));
    for (uint32_t i = first; i < sim->cfg.warps && wib < cp->warps_per_block;
         i++) {
        if (!w[i].active) {
            start_block_warp(sim, &w[i], slot, idx, wib++);
        }
    }
}

/*
 * One pass over the cores, starting after the last one used, giving each
 * core at most one block: blocks spread over the card before they stack up.
 * Returns the number of blocks started.
 */
static uint32_t dispatch_pass(struct vx_sim *sim)
{
    struct vx_cp *cp = &sim->cp;
    uint32_t started = 0, first = cp->next_core;

    for (uint32_t i = 0; i < sim->ncores; i++) {
        uint32_t core = (first + i) % sim->ncores;

        if (cp->blocks_issued == cp->blocks_total || sim->error) {
            break;
        }
        if (core_free_warps(sim, core) < cp->warps_per_block) {
            continue;
        }
        start_block(sim, core);
        cp->next_core = (core + 1) % sim->ncores;
        started++;
    }
    return started;
}

static void dispatch_blocks(struct vx_sim *sim)
{
    while (sim->cp.blocks_issued < sim->cp.blocks_total && !sim->error &&
           dispatch_pass(sim)) {
    }
}

static void launch_done_check(struct vx_sim *sim)
{
    struct vx_cp *cp = &sim->cp;

    if (cp->busy && cp->blocks_done == cp->blocks_total) {
        cp->busy = false;
    }
}

/*
 * Counts the block's warps that still have a context rather than
 * decrementing a counter, so warps that wspawn started with the block's
 * coordinates keep the block (and so the launch) alive until they end too.
 */
void vx_cp_warp_ended(struct vx_sim *sim, struct vx_warp *w)
{
    int slot = w->block_slot;
    struct vx_block *b;
    const struct vx_warp *cw;
    uint32_t left = 0;

    w->block_slot = -1;
    if (slot < 0 || (uint32_t)slot >= sim->nwarps ||
        !sim->cp.blocks[slot].used) {
        return;
    }
    b = &sim->cp.blocks[slot];
    cw = &sim->warps[b->core * sim->cfg.warps];
    for (uint32_t i = 0; i < sim->cfg.warps; i++) {
        if (&cw[i] != w && cw[i].active && cw[i].block_slot == slot) {
            left++;
        }
    }
    b->warps_left = left;
    if (left) {
        return;
    }
    b->used = false;
    sim->cp.blocks_done++;
    launch_done_check(sim);
}

/* --------------------------------------------------------------- packets */

static uint32_t ring_dword(struct vx_sim *sim, uint32_t off)
{
    uint32_t addr = sim->ring_base + (off & (sim->ring_size - 1));
    const uint8_t *p = vx_sim_mem(sim, addr, 4);

    /* ring_config_ok() checked the whole ring; stay safe regardless. */
    if (!p) {
        return 0;
    }
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool bad_packet(struct vx_sim *sim, uint32_t off, const char *why)
{
    vx_sim_guest_error(sim, "vortex: bad packet at ring offset 0x%x: %s",
                       off, why);
    vx_sim_cp_error(sim, VX_ERR_BAD_PACKET, off);
    return false;
}

/* a * b * c, saturated at UINT64_MAX: the operands are guest-chosen. */
static uint64_t mul3_sat(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t ab = (uint64_t)a * b;

    if (c && ab > UINT64_MAX / c) {
        return UINT64_MAX;
    }
    return ab * c;
}

static bool stack_ok(struct vx_sim *sim, uint32_t base, uint32_t size)
{
    uint64_t area = (uint64_t)sim->nwarps * sim->cfg.threads * size;

    return !size || vx_vram_range_ok(sim, base, area);
}

/*
 * SATP: 0 (untranslated, the card before address translation), or MODE
 * with a root table in VRAM.  ASID or PPN bits without MODE are refused
 * as the reserved dword's bits were.
 */
static const char *satp_check(struct vx_sim *sim, uint32_t satp)
{
    uint64_t root = (uint64_t)VX_SATP_PPN(satp) << VX_PAGE_SHIFT;

    if (!(satp & VX_SATP_MODE)) {
        return satp ? "LAUNCH SATP has ASID or PPN bits without MODE" : NULL;
    }
    if (root > UINT32_MAX || !vx_vram_range_ok(sim, (uint32_t)root, 4096)) {
        return "LAUNCH SATP root table outside VRAM";
    }
    return NULL;
}

/*
 * CORES: GRID, BLOCK and STACK_* must be 0; the launch is then one
 * single-lane block per core, which the dispatch puts on warp 0 of each
 * core (the card is idle when a LAUNCH starts).  Fills @p in.
 */
static const char *launch_cores(struct vx_sim *sim, uint32_t *p)
{
    for (int i = VX_LAUNCH_GRID_X; i <= VX_LAUNCH_STACK_SIZE; i++) {
        if (p[i]) {
            return "LAUNCH CORES with a grid, block or stack";
        }
    }
    p[VX_LAUNCH_GRID_X] = sim->ncores;
    p[VX_LAUNCH_GRID_Y] = p[VX_LAUNCH_GRID_Z] = 1;
    p[VX_LAUNCH_BLOCK_X] = p[VX_LAUNCH_BLOCK_Y] = p[VX_LAUNCH_BLOCK_Z] = 1;
    return NULL;
}

/*
 * Checks of docs/hardware.md, in its order; @p is the 12-dword payload,
 * which a CORES launch's grid and block are filled into.
 */
static const char *launch_check(struct vx_sim *sim, uint32_t *p)
{
    uint64_t block_threads, blocks;
    const char *why;

    if (p[VX_LAUNCH_FLAGS] & ~VX_LAUNCH_FLAGS_ALL) {
        return "LAUNCH reserved flags set";
    }
    why = satp_check(sim, p[VX_LAUNCH_SATP]);
    if (why) {
        return why;
    }
    if (p[VX_LAUNCH_FLAGS] & VX_LAUNCH_FLAG_CORES) {
        why = launch_cores(sim, p);
        if (why) {
            return why;
        }
    }
    for (int i = 0; i < 3; i++) {
        if (!p[VX_LAUNCH_GRID_X + i] || !p[VX_LAUNCH_BLOCK_X + i]) {
            return "LAUNCH with a zero grid or block dimension";
        }
    }
    block_threads = mul3_sat(p[VX_LAUNCH_BLOCK_X], p[VX_LAUNCH_BLOCK_Y],
                             p[VX_LAUNCH_BLOCK_Z]);
    if (block_threads > (uint64_t)sim->cfg.warps * sim->cfg.threads) {
        return "LAUNCH block larger than one core";
    }
    blocks = mul3_sat(p[VX_LAUNCH_GRID_X], p[VX_LAUNCH_GRID_Y],
                      p[VX_LAUNCH_GRID_Z]);
    if (blocks > UINT32_MAX || blocks * block_threads > UINT32_MAX) {
        return "LAUNCH grid of more than 2^32-1 threads";
    }
    if (p[VX_LAUNCH_SATP]) {
        /* virtual: a bad entry or stack faults when a warp uses it */
        return p[VX_LAUNCH_ENTRY] & 3 ? "LAUNCH entry PC not 4-byte aligned"
                                      : NULL;
    }
    if (!vx_vram_pc_ok(sim->cfg.vram_size, p[VX_LAUNCH_ENTRY])) {
        return "LAUNCH entry PC not a 4-byte aligned VRAM address";
    }
    if (!stack_ok(sim, p[VX_LAUNCH_STACK_BASE], p[VX_LAUNCH_STACK_SIZE])) {
        return "LAUNCH stack area outside VRAM";
    }
    return NULL;
}

static bool run_launch(struct vx_sim *sim, uint32_t off, uint32_t ndw)
{
    struct vx_cp *cp = &sim->cp;
    uint32_t p[VX_LAUNCH_NDW];
    const char *why;

    if (ndw != VX_LAUNCH_NDW) {
        return bad_packet(sim, off, "LAUNCH ndw is not 12");
    }
    for (uint32_t i = 0; i < VX_LAUNCH_NDW; i++) {
        p[i] = ring_dword(sim, off + 4 * (i + 1));
    }
    why = launch_check(sim, p);
    if (why) {
        return bad_packet(sim, off, why);
    }
    cp->cores_mode = p[VX_LAUNCH_FLAGS] & VX_LAUNCH_FLAG_CORES;
    if (cp->cores_mode) {
        cp->next_core = 0;      /* block b on core b */
    }
    cp->entry = p[VX_LAUNCH_ENTRY];
    cp->arg = p[VX_LAUNCH_ARG];
    cp->stack_base = p[VX_LAUNCH_STACK_BASE];
    cp->stack_size = p[VX_LAUNCH_STACK_SIZE];
    cp->satp = p[VX_LAUNCH_SATP];
    for (int i = 0; i < 3; i++) {
        cp->grid[i] = p[VX_LAUNCH_GRID_X + i];
        cp->block[i] = p[VX_LAUNCH_BLOCK_X + i];
    }
    cp->threads_per_block = cp->block[0] * cp->block[1] * cp->block[2];
    cp->warps_per_block = (cp->threads_per_block + sim->cfg.threads - 1) >>
                          sim->tlog2;
    cp->blocks_total = (uint64_t)cp->grid[0] * cp->grid[1] * cp->grid[2];
    cp->blocks_issued = 0;
    cp->blocks_done = 0;
    cp->busy = true;
    vx_lmem_launch(sim);
    return true;
}

static bool run_fence(struct vx_sim *sim, uint32_t off, uint32_t ndw)
{
    uint32_t seqno, flags;

    if (ndw != VX_FENCE_NDW) {
        return bad_packet(sim, off, "FENCE ndw is not 2");
    }
    seqno = ring_dword(sim, off + 4 * (1 + VX_FENCE_SEQNO));
    flags = ring_dword(sim, off + 4 * (1 + VX_FENCE_FLAGS));
    if (flags & ~VX_FENCE_FLAG_IRQ) {
        return bad_packet(sim, off, "FENCE reserved flags set");
    }
    sim->fence_seqno = seqno;
    fence_wb_write(sim);
    if ((flags & VX_FENCE_FLAG_IRQ) && !sim->cp.in_doorbell) {
        vx_sim_irq_raise(sim, VX_IRQ_FENCE);
    }
    return true;
}

/*
 * TLB_INVAL: what the TLB_* registers do, in ring order.  As the CP reads
 * no packet while a LAUNCH runs, the jobs before it are over.
 */
static bool run_tlb_inval(struct vx_sim *sim, uint32_t off, uint32_t ndw)
{
    uint32_t cmd, asid, va;

    if (ndw != VX_TLBI_NDW) {
        return bad_packet(sim, off, "TLB_INVAL ndw is not 3");
    }
    cmd = ring_dword(sim, off + 4 * (1 + VX_TLBI_CMD));
    asid = ring_dword(sim, off + 4 * (1 + VX_TLBI_ASID));
    va = ring_dword(sim, off + 4 * (1 + VX_TLBI_VA));
    if (!vx_mmu_inval(sim, cmd, asid, va)) {
        return bad_packet(sim, off, "TLB_INVAL command or ASID out of range");
    }
    return true;
}

/* Run the packet at HEAD; HEAD moves past it unless it was rejected. */
static void run_packet(struct vx_sim *sim)
{
    uint32_t mask = sim->ring_size - 1;
    uint32_t off = sim->ring_head;
    uint32_t avail = (sim->cp.tail - off) & mask;
    uint32_t hdr = ring_dword(sim, off);
    uint32_t ndw = VX_PKT_NDW(hdr);
    bool ok;

    sim->cp.pkt_offset = off;
    if (((uint64_t)ndw + 1) * 4 > avail) {
        bad_packet(sim, off, "packet runs past TAIL");
        return;
    }
    if (VX_PKT_RSVD(hdr)) {
        bad_packet(sim, off, "header reserved bits set");
        return;
    }
    switch (VX_PKT_OP(hdr)) {
    case VX_PKT_NOP:
        ok = true;
        break;
    case VX_PKT_LAUNCH:
        ok = run_launch(sim, off, ndw);
        break;
    case VX_PKT_FENCE:
        ok = run_fence(sim, off, ndw);
        break;
    case VX_PKT_TLB_INVAL:
        ok = run_tlb_inval(sim, off, ndw);
        break;
    default:
        ok = bad_packet(sim, off, "unknown opcode");
        break;
    }
    if (ok) {
        sim->ring_head = (off + (ndw + 1) * 4) & mask;
    }
}

void vx_cp_advance(struct vx_sim *sim)
{
    if (sim->error) {
        return;
    }
    if (sim->cp.busy) {
        dispatch_blocks(sim);
        return;
    }
    for (int n = 0; n < VX_CP_PACKET_BUDGET && vx_cp_pending(sim); n++) {
        run_packet(sim);
        if (sim->cp.busy) {
            dispatch_blocks(sim);
            return;
        }
    }
}
