// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Crash dump registers, stored by the warps themselves
 *
 * Reading a whole warp through the Debug Module costs DM accesses per
 * register: three per injected instruction (INJECT, the DCTRL request,
 * the DCTRL poll), and about 75 injected stores per warp even when every
 * lane stores at once (vortex_warp_dump_regs()).  A 4,8,32,32 card has
 * 1024 warps, some 270 thousand accesses, and each one is a trip to the
 * card.
 *
 * A recovery dump, whose card is reset right after, has the warps run a
 * stub instead: a short program the driver writes into its dump area
 * (&vortex_device.dump_node), which stores every register of every lane
 * into the area and ends in ``ebreak``.  Per warp the DM is asked only
 * for what injection cannot give: the halt cause (DCTRL.hacause), the PC
 * (DPC), and DPC set to the stub.  Then the warps of a batch resume and
 * halt again on the stub's ``ebreak``.  Everything here is in
 * shared/specs/vxdebug-spec.md: DPC is "RW", "Program counter of the warp
 * selected by DSELECT.warpsel"; resumereq "resume[s] all selected warps in
 * global warp array"; DCONFIG.ebreakh "Enable ebreak halt"; and "DSCRATCH
 * register is exposed to core as a per-thread CSR register", which is how
 * the stub keeps the two registers it borrows.  Vortex's own debugger
 * writes DPC the same way (saursin/vxdebug e5d7b7c, src/backend.cpp:538,
 * Backend::set_warp_pc()), and reads registers one injection and one
 * DSCRATCH read at a time (read_gpr(), src/backend.cpp:721).
 *
 * The stub runs with the warp's thread mask, so it first stores the
 * lanes the mask leaves out: the active lanes keep x5 and x6 in
 * DSCRATCH3 and DSCRATCH2 and the mask in DSCRATCH1, then ``vx_tmc``
 * hands the warp to the other lanes, which keep theirs, and a second
 * ``vx_tmc`` makes every lane active.  That is why the stub is for warps
 * of 32 lanes at most (vx_tmc takes a 32-bit mask).  Each lane then
 * stores x0-x31, f0-f31, fcsr (rows 0-64, the layout of
 * &vortex_dump_warp.regs, so a warp's rows are one copy out of the BAR),
 * then DSCRATCH1 (the warp's thread mask in the lanes it had active, 0 in
 * the others), its block index, warp in block and, last, the batch's
 * sequence number (rows 65-70), which tells a warp that ran the stub from
 * the stale rows of an earlier batch or dump.
 *
 * A batch runs until every warp of it has halted, or none has for
 * STUB_IDLE_NS.  A warp still running then is halted again: if its DPC is
 * still the stub's first instruction it never ran (a warp parked at a
 * barrier does not), gets its PC back, and the caller reads it the
 * injecting way; if it stopped part way (the card's simulator shares the
 * machine), it runs on once more.  A warp that still did not finish, or
 * any unfinished one when the card stops on an error, is not read at all:
 * its x5, x6 and mask may be the stub's (``not-captured:`` says so).
 */

#include <linux/delay.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/slab.h>

#include "vortex_device.h"
#include "vortex_dm.h"
#include "vortex_dump.h"
#include "vortex_dump_state.h"
#include "vortex_rv32.h"
#include "vortex_warp.h"

/*
 * The dump area: the stub's code, then its data words, then the rows of
 * a batch of warps, one slot of STUB_ROWS rows per warp.
 */
#define STUB_DATA	0x400	/* data words, after the code */
#define STUB_STRIDE	(STUB_DATA + 0)	/* bytes per warp slot */
#define STUB_BASE	(STUB_DATA + 4)	/* slot of warp 0, as this batch sees it */
#define STUB_SEQ	(STUB_DATA + 8)	/* this batch's sequence number */
#define STUB_SLOTS	SZ_4K	/* the first slot */
#define STUB_MAX_INSNS	(STUB_DATA / 4)

/* Rows per lane: x0-x31, f0-f31, fcsr, then what the status needs. */
#define ROW_MASK	(VORTEX_WARP_REGS + 0)	/* DSCRATCH1: the mask, or 0 */
#define ROW_BLOCK	(VORTEX_WARP_REGS + 1)	/* three rows: block index x, y, z */
#define ROW_WIB		(VORTEX_WARP_REGS + 4)	/* warp in block */
#define ROW_SEQ		(VORTEX_WARP_REGS + 5)	/* STUB_SEQ, stored last */
#define STUB_ROWS	(VORTEX_WARP_REGS + 6)
#define STUB_EXTRA	(STUB_ROWS - VORTEX_WARP_REGS)

/* The two registers the stub borrows, and where it keeps them. */
#define PTR		5
#define TMP		6
#define KEEP_PTR	3
#define KEEP_TMP	2
#define KEEP_MASK	1

/* A batch that has not all halted by then is read the injecting way. */
#define STUB_IDLE_NS	(20 * NSEC_PER_MSEC)	/* no warp halted meanwhile */
#define STUB_MAX_NS	(200 * NSEC_PER_MSEC)

struct stub {
	u32 *code;
	u32 n;
	u32 threads;
	s32 moved;	/* what PTR has been moved on by, in bytes */
};

static void emit(struct stub *s, u32 insn)
{
	if (!WARN_ON_ONCE(s->n >= STUB_MAX_INSNS))
		s->code[s->n++] = insn;
}

/* TMP = the data word at @data, through the stub's own PC */
static void emit_load_data(struct stub *s, u32 data)
{
	emit(s, RV32_AUIPC(TMP, 0));
	emit(s, RV32_LW(TMP, TMP, data - (s->n - 1) * 4));
}

/* Store @reg (an FPR if @fp) to row @row of the lane's slot. */
static void emit_store(struct stub *s, u32 reg, u32 row, bool fp)
{
	s32 off = row * s->threads * 4 - s->moved;

	while (off > 2047) {	/* the rows go up, and so does PTR */
		emit(s, RV32_ADDI(PTR, PTR, 2040));
		s->moved += 2040;
		off -= 2040;
	}
	emit(s, fp ? RV32_FSW(reg, PTR, off) : RV32_SW(reg, PTR, off));
}

/* The stub for warps of @threads lanes; returns its length in words. */
static u32 vortex_dump_stub(u32 *code, u32 threads)
{
	struct stub s = { .code = code, .threads = threads };
	u32 trim = 32 - threads, branch, r;

	/* The active lanes keep x5, x6 and the mask; x5 = the other lanes. */
	emit(&s, RV32_CSRW(VX_CSR_DSCRATCH(KEEP_PTR), PTR));
	emit(&s, RV32_CSRW(VX_CSR_DSCRATCH(KEEP_TMP), TMP));
	emit(&s, RV32_CSRR(TMP, VX_CSR_ACTIVE_THREADS));
	emit(&s, RV32_CSRW(VX_CSR_DSCRATCH(KEEP_MASK), TMP));
	emit(&s, RV32_XORI(PTR, TMP, -1));
	emit(&s, RV32_SLLI(PTR, PTR, trim));
	emit(&s, RV32_SRLI(PTR, PTR, trim));
	branch = s.n;
	emit(&s, 0);
	/* Those lanes keep theirs (and no mask), then every lane runs. */
	emit(&s, VX_INSN_TMC(PTR));
	emit(&s, RV32_CSRW(VX_CSR_DSCRATCH(KEEP_PTR), PTR));
	emit(&s, RV32_CSRW(VX_CSR_DSCRATCH(KEEP_TMP), TMP));
	emit(&s, RV32_CSRW(VX_CSR_DSCRATCH(KEEP_MASK), 0));
	emit(&s, RV32_ADDI(PTR, 0, -1));
	emit(&s, VX_INSN_TMC(PTR));
	code[branch] = RV32_BEQZ(PTR, (s.n - branch) * 4);

	/* PTR = base + global warp * stride + lane * 4 */
	emit(&s, RV32_CSRR(PTR, VX_CSR_MHARTID));
	emit(&s, RV32_SRLI(PTR, PTR, ilog2(threads)));
	emit_load_data(&s, STUB_STRIDE);
	emit(&s, RV32_MUL(PTR, PTR, TMP));
	emit(&s, RV32_CSRR(TMP, VX_CSR_THREAD_ID));
	emit(&s, RV32_SLLI(TMP, TMP, 2));
	emit(&s, RV32_ADD(PTR, PTR, TMP));
	emit_load_data(&s, STUB_BASE);
	emit(&s, RV32_ADD(PTR, PTR, TMP));

	/* rows in order: PTR only moves on */
	for (r = 0; r < 32; r++) {
		if (r == PTR || r == TMP)
			emit(&s, RV32_CSRR(TMP, VX_CSR_DSCRATCH(r == PTR ? KEEP_PTR : KEEP_TMP)));
		emit_store(&s, r == PTR ? TMP : r, r, false);
	}
	for (r = 0; r < 32; r++)
		emit_store(&s, r, 32 + r, true);
	emit(&s, RV32_CSRR(TMP, RV32_CSR_FCSR));
	emit_store(&s, TMP, 64, false);
	emit(&s, RV32_CSRR(TMP, VX_CSR_DSCRATCH(KEEP_MASK)));
	emit_store(&s, TMP, ROW_MASK, false);
	for (r = 0; r < 3; r++) {
		emit(&s, RV32_CSRR(TMP, VX_CSR_BLOCK_IDX(r)));
		emit_store(&s, TMP, ROW_BLOCK + r, false);
	}
	emit(&s, RV32_CSRR(TMP, VX_CSR_WARP_IN_BLOCK));
	emit_store(&s, TMP, ROW_WIB, false);
	emit_load_data(&s, STUB_SEQ);
	emit_store(&s, TMP, ROW_SEQ, false);
	emit(&s, VORTEX_EBREAK);
	return s.n;
}

/**
 * vortex_dump_stub_size() - VRAM the dump area needs for the stub
 * @threads: lanes per warp
 * @warps: warps of the card
 * @max: the most the area may take
 *
 * Return: bytes for the stub and as many warp slots as @max allows (all
 * of them if it can), or 0 if the stub cannot serve these warps.
 */
u64 vortex_dump_stub_size(u32 threads, u32 warps, u64 max)
{
	u64 stride = (u64)STUB_ROWS * threads * 4;

	if (threads > 32 || !is_power_of_2(threads) || max < STUB_SLOTS + stride)
		return 0;
	return STUB_SLOTS + min_t(u64, warps, (max - STUB_SLOTS) / stride) * stride;
}

struct stub_run {
	struct vortex_device *vdev;
	struct vortex_dump *d;
	u32 area_va;
	u64 area;	/* VRAM offset */
	u32 stride;
	u32 per_batch;
	u32 seq;
	u32 *mask;	/* the batch, a window per word */
	u32 extra[STUB_EXTRA][32];
	u32 code[STUB_MAX_INSNS];
};

static atomic_t vortex_dump_stub_seq = ATOMIC_INIT(0);

/* Whether every warp of the batch in @r->mask is halted. */
static bool stub_all_halted(struct stub_run *r, u32 first_win, u32 last_win,
			    u32 *halted)
{
	u32 win, n = 0;
	bool all = true;

	for (win = first_win; win <= last_win; win++) {
		u32 st = vortex_dm_window(r->vdev, VX_DM_WSTATUS, win) & r->mask[win];

		n += hweight32(st);
		all &= st == r->mask[win];
	}
	*halted = n;
	return all;
}

/*
 * Waits until the batch has halted, or has stopped halting.  Asleep, so
 * the card's simulator can have the CPU; the naps grow from 10 us to a
 * millisecond, so a slow batch costs few polls (each one a DM access per
 * window).
 */
static void stub_wait(struct stub_run *r, u32 first_win, u32 last_win)
{
	u64 start = ktime_get_ns(), progress = start, now;
	u32 halted, last = 0, nap = 10;

	for (;; nap = min(2 * nap, 1000u)) {
		if (stub_all_halted(r, first_win, last_win, &halted))
			return;
		now = ktime_get_ns();
		if (halted != last) {
			last = halted;
			progress = now;
		}
		if (now - progress > STUB_IDLE_NS || now - start > STUB_MAX_NS)
			return;
		usleep_range(nap, 2 * nap);
	}
}

/*
 * Reads back @dw from its slot in the batch that starts at global warp
 * @first, if it ran the stub to its end.
 * Return: true if it did (its state and registers are in @dw).
 */
static bool stub_collect(struct stub_run *r, struct vortex_dump_warp *dw,
			 u32 first)
{
	struct vortex_device *vdev = r->vdev;
	u32 threads = vdev->num_threads, lane, row, row_bytes = threads * 4;
	void __iomem *slot = vdev->vram + r->area + STUB_SLOTS +
			     (u64)(dw->st.warp - first) * r->stride;

	for (row = 0; row < STUB_EXTRA; row++)
		memcpy_fromio(r->extra[row], slot + (VORTEX_WARP_REGS + row) * row_bytes,
			      row_bytes);
	for (lane = 0; lane < threads; lane++)
		if (r->extra[ROW_SEQ - VORTEX_WARP_REGS][lane] != r->seq)
			return false;
	dw->st.thread_mask[0] = 0;
	for (lane = 0; lane < threads; lane++)
		dw->st.thread_mask[0] |= r->extra[ROW_MASK - VORTEX_WARP_REGS][lane];
	for (row = 0; row < 3; row++)
		dw->st.block_idx[row] = r->extra[ROW_BLOCK + row - VORTEX_WARP_REGS][0];
	dw->st.warp_in_block = r->extra[ROW_WIB - VORTEX_WARP_REGS][0];
	dw->regs = kvmalloc_array(VORTEX_WARP_REGS * threads, sizeof(u32),
				  VORTEX_RECOVERY_GFP);
	if (dw->regs)	/* else the caller says "registers" */
		memcpy_fromio(dw->regs, slot, VORTEX_WARP_REGS * row_bytes);
	return true;
}

/*
 * Runs the warps in r->mask (its windows @first_win to @last_win) until
 * they have halted or stopped halting, and halts again those still
 * running, which it leaves in r->mask.  Return: whether there were any.
 */
static bool stub_run_mask(struct stub_run *r, u32 first_win, u32 last_win)
{
	struct vortex_device *vdev = r->vdev;
	u32 win, running = 0;

	vortex_dm_set_mask(vdev, r->mask);
	if (!vortex_dm_request(vdev, VX_DCTRL_RESUMEREQ, NULL))
		stub_wait(r, first_win, last_win);
	for (win = first_win; win <= last_win; win++) {
		r->mask[win] &= ~vortex_dm_window(vdev, VX_DM_WSTATUS, win);
		running |= r->mask[win];
	}
	if (running) {
		vortex_dm_set_mask(vdev, r->mask);
		vortex_dm_request(vdev, VX_DCTRL_HALTREQ, NULL);
	}
	return running;
}

/*
 * One batch: the halted warps of d->warps[@from..] whose slots fit.
 * Return: the index past the batch.
 */
static u32 stub_batch(struct stub_run *r, u32 from, bool *card_error)
{
	struct vortex_device *vdev = r->vdev;
	struct vortex_dump *d = r->d;
	u32 first = d->warps[from].st.warp, i, end, first_win, last_win, again;
	bool late;

	r->seq = atomic_inc_return(&vortex_dump_stub_seq);
	writel(r->area_va + STUB_SLOTS - first * r->stride,
	       vdev->vram + r->area + STUB_BASE);
	writel(r->seq, vdev->vram + r->area + STUB_SEQ);
	wmb();	/* in VRAM before the warps run */

	memset(r->mask, 0, vdev->dm.windows * sizeof(*r->mask));
	for (end = from; end < d->nwarps &&
	     d->warps[end].st.warp - first < r->per_batch; end++) {
		struct vortex_dump_warp *dw = &d->warps[end];

		if (!(dw->st.state & DRM_VORTEX_DEBUG_WARP_HALTED))
			continue;
		vortex_dm_select(vdev, dw->st.warp, 0);
		dw->st.cause = VX_DCTRL_HACAUSE(vortex_dm_read(vdev, VX_DM_DCTRL));
		dw->st.pc = vortex_dm_read(vdev, VX_DM_DPC);
		vortex_dm_write(vdev, VX_DM_DPC, r->area_va);
		r->mask[dw->st.warp / 32] |= BIT(dw->st.warp % 32);
	}
	first_win = first / 32;
	last_win = d->warps[end - 1].st.warp / 32;
	if (stub_run_mask(r, first_win, last_win)) {
		/*
		 * Halted again before the stub's end: those that never
		 * started (parked at a barrier) are the caller's; the others
		 * were only slow (the card is shared), and go on.
		 */
		for (i = from, again = 0; i < end; i++) {
			u32 g = d->warps[i].st.warp;

			if (!(r->mask[g / 32] & BIT(g % 32)))
				continue;
			vortex_dm_select(vdev, g, 0);
			if (vortex_dm_read(vdev, VX_DM_DPC) == r->area_va)
				r->mask[g / 32] &= ~BIT(g % 32);
			else
				again++;
		}
		if (again)
			stub_run_mask(r, first_win, last_win);
	}
	late = vortex_read(vdev, VX_REG_STATUS) & VX_STATUS_ERROR;
	*card_error |= late;

	for (i = from; i < end; i++) {
		struct vortex_dump_warp *dw = &d->warps[i];

		if (!(dw->st.state & DRM_VORTEX_DEBUG_WARP_HALTED))
			continue;
		if (stub_collect(r, dw, first)) {
			if (!dw->regs)
				vortex_dump_missing(d, "registers");
			dw->stored = true;
			continue;
		}
		if (late) {
			/* It may have run part of the stub: x5, x6 unknown. */
			dw->stored = true;
			vortex_dump_missing(d, "registers (the card stopped on an error)");
			continue;
		}
		vortex_dm_select(vdev, dw->st.warp, 0);
		if (vortex_dm_read(vdev, VX_DM_DPC) != r->area_va) {
			/* Part of the stub ran: x5, x6 and the mask are its. */
			dw->stored = true;
			vortex_dump_missing(d, "registers (a warp stopped in the register stub)");
			continue;
		}
		/* Never started: its PC back, and the caller reads it. */
		vortex_dm_write(vdev, VX_DM_DPC, dw->st.pc);
	}
	return end;
}

/**
 * vortex_dump_stub_warps() - have the dump's halted warps store their registers
 * @vdev: the device, DM lock held, in recovery: the card is reset next
 * @d: the dump, d->warps listed with their coordinates and state
 * @area_va: the dump area's address in the job's space (the dump window)
 *
 * Warps it read have &vortex_dump_warp.stored set (and their registers,
 * unless there was no memory for them); the caller reads the
 * others.  Leaves every warp of the dump halted.
 */
void vortex_dump_stub_warps(struct vortex_device *vdev, struct vortex_dump *d,
			    u32 area_va)
{
	u64 need = vortex_dump_stub_size(vdev->num_threads, 1, U64_MAX);
	u32 n, i, dconfig = vdev->dm.seq.dconfig;
	struct stub_run *r;
	bool card_error = false;

	/* The window is in the job's space: a translated one. */
	if (!need || vdev->dump_node.size < need || !d->nwarps || !area_va ||
	    !(d->launch[VX_LAUNCH_SATP] & VX_SATP_MODE) ||
	    vortex_read(vdev, VX_REG_STATUS) & VX_STATUS_ERROR)
		return;
	r = kzalloc(sizeof(*r), VORTEX_RECOVERY_GFP);
	if (r)
		r->mask = kcalloc(vdev->dm.windows, sizeof(*r->mask), VORTEX_RECOVERY_GFP);
	if (!r || !r->mask)
		goto out;
	r->vdev = vdev;
	r->d = d;
	r->area_va = area_va;
	r->area = vdev->dump_node.start;
	r->stride = STUB_ROWS * vdev->num_threads * 4;
	r->per_batch = (vdev->dump_node.size - STUB_SLOTS) / r->stride;

	n = vortex_dump_stub(r->code, vdev->num_threads);
	memcpy_toio(vdev->vram + r->area, r->code, n * sizeof(u32));
	writel(r->stride, vdev->vram + r->area + STUB_STRIDE);
	vortex_dm_set_dconfig(vdev, dconfig | VX_DCONFIG_EBREAKH);
	for (i = 0; i < d->nwarps && !card_error; )
		i = stub_batch(r, i, &card_error);
	vortex_dm_set_dconfig(vdev, dconfig);
out:
	if (r)
		kfree(r->mask);
	kfree(r);
}
