// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Debug Module sequencing, written once
 *
 * Every access the driver makes to the card's Debug Module
 * (shared/specs/vxdebug-spec.md, docs/hardware.md), in the order it makes
 * them: the register shadows and requests, the RV32 instructions injected
 * into a halted warp, the warp checks, a warp's status, its registers lane
 * by lane or the whole warp at once, and the debugger session's batches
 * (REGS, STATUS, STEP, resume, halt at start, the HALTED event's data).
 * Five files, one header (vortex_dmseq.h): this one the registers,
 * vortex_dmseq_warp.c one halted warp, vortex_dmseq_session.c a session's
 * batches, vortex_dmseq_check.c a session call's arguments,
 * vortex_dmseq_bp.c the breakpoints.  One source, compiled twice:
 *
 * - into vortex.ko (Kbuild), where driver/vortex_dm.c, vortex_warp.c,
 *   vortex_debug.c and vortex_debug_regs.c call it over the BAR;
 * - into libvortex-debug's simulator backend (userspace/debug/debug.mk),
 *   where vxdbg_sim.c and vxdbg_sim_session.c call it over the simulator's
 *   MMIO, so the backend makes the driver's accesses by construction and
 *   a host test that counts or records them sees what the driver does.
 *
 * The files are plain C: no kernel or libc call beyond memcpy()/memset(), no
 * allocation, no lock, errors as negative errnos.  The host reaches the
 * registers through &struct vortex_dmseq_ops (one read or write of a DM
 * register each; the host counts them and asserts its lock there), waits
 * between two polls of a request through its delay hook, gives the
 * card's error status and its reset through &struct
 * vortex_dmseq_session_ops, and the target's memory (where a breakpoint's
 * word lies) through &struct vortex_dmseq_bp_ops.  What stays on the
 * host's side: locks
 * (the driver's DM lock around every call here, in the order of
 * vortex_device.h's "Lock order", unchanged), user memory (copied in
 * before and out after, outside the lock), memory allocation, whether the
 * target's job is on the card, and the events.  So a new session
 * operation's Debug Module work is written here once, and both the driver
 * and the simulator backend call it.
 *
 * Registers: the driver keeps what it last wrote to each 32-warp window of
 * the mask array, to DSELECT and to DCONFIG, and skips writes that would
 * change nothing.  Requests (DCTRL writes) wait for the card to report
 * them done, polling a bounded number of times (&vortex_dmseq.polls): a
 * card that stops answering gives -EIO, never a stuck thread, and a card
 * that is gone (reads all ones) gives -ENODEV.  The simulated DM finishes
 * a request inside the write, so the simulator backend polls once.
 */

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <string.h>
#endif

#include "vortex_dmseq.h"

/* ------------------------------------------------------- registers */

/**
 * vortex_dmseq_init() - the shadows from the DM's reset values
 * @dm: ops, priv, polls, the topology and both mask arrays set
 */
void vortex_dmseq_init(struct vortex_dmseq *dm)
{
	u32 windows = vortex_dmseq_windows(dm);

	dm->active = false;
	dm->dselect = 0;
	dm->dconfig = 0;
	dm->raw_dselect = 0;
	memset(dm->wmask, 0, windows * sizeof(*dm->wmask));
	memset(dm->raw_wmask, 0, windows * sizeof(*dm->raw_wmask));
	dm->wmask_known = false;
	vortex_dmseq_forget_step(dm);
}

/**
 * vortex_dmseq_read() - read a Debug Module register
 * @dm: the DM
 * @reg: the DM register (VX_DM_*)
 *
 * Return: the register's value.
 */
u32 vortex_dmseq_read(struct vortex_dmseq *dm, u32 reg)
{
	return dm->ops->read(dm->priv, reg);
}

/**
 * vortex_dmseq_write() - write a Debug Module register
 * @dm: the DM
 * @reg: the DM register (VX_DM_*)
 * @val: the value
 */
void vortex_dmseq_write(struct vortex_dmseq *dm, u32 reg, u32 val)
{
	dm->ops->write(dm->priv, reg, val);
}

/**
 * vortex_dmseq_activate() - set DCTRL.dmactive if it is not
 * @dm: the DM
 *
 * The activating write does nothing else (as in RISC-V debug); the
 * shadows restart from the DM's reset values.
 *
 * Return: 0, or -ENODEV when the card does not answer.
 */
int vortex_dmseq_activate(struct vortex_dmseq *dm)
{
	u32 windows = vortex_dmseq_windows(dm);

	if (dm->active)
		return 0;
	vortex_dmseq_write(dm, VX_DM_DCTRL, VX_DCTRL_DMACTIVE);
	if (!(vortex_dmseq_read(dm, VX_DM_DCTRL) & VX_DCTRL_DMACTIVE))
		return -ENODEV;
	dm->active = true;
	vortex_dmseq_forget_step(dm);
	dm->dselect = 0;
	dm->dconfig = 0;
	memset(dm->wmask, 0, windows * sizeof(*dm->wmask));
	dm->wmask_known = true;
	/* A raw client starts from the reset values too. */
	dm->raw_dselect = 0;
	memset(dm->raw_wmask, 0, windows * sizeof(*dm->raw_wmask));
	return 0;
}

/**
 * vortex_dmseq_deactivate() - clear DCTRL.dmactive
 * @dm: the DM
 *
 * The DM resets its registers and resumes every warp it had halted.
 */
void vortex_dmseq_deactivate(struct vortex_dmseq *dm)
{
	vortex_dmseq_write(dm, VX_DM_DCTRL, 0);
	dm->active = false;
	vortex_dmseq_forget_step(dm);
}

/**
 * vortex_dmseq_request() - write DCTRL requests and wait until they are done
 * @dm: the DM, active
 * @bits: VX_DCTRL_*REQ bits (and VX_DCTRL_INJECTWARP)
 * @dctrl: if not NULL, receives DCTRL as last read (with injecterr)
 *
 * Polls DCTRL at most &vortex_dmseq.polls times, the host's delay between
 * two: a card that stops answering gives -EIO, never a stuck thread.  Any
 * request but an injection changes which warps are halted, so the last
 * STEP's halts are news again (&vortex_dmseq.stepped).
 *
 * Return: 0; -EIO if a step or inject is still pending after the bounded
 * wait; -ENODEV if the card reads all ones.
 */
int vortex_dmseq_request(struct vortex_dmseq *dm, u32 bits, u32 *dctrl)
{
	unsigned int polls;
	u32 v;

	if (bits & ~(VX_DCTRL_INJECTREQ | VX_DCTRL_INJECTWARP))
		vortex_dmseq_forget_step(dm);
	vortex_dmseq_write(dm, VX_DM_DCTRL, VX_DCTRL_DMACTIVE | bits);
	for (polls = 0; polls < dm->polls; polls++) {
		v = vortex_dmseq_read(dm, VX_DM_DCTRL);
		if (v == ~0u)
			return -ENODEV;
		if (VX_DCTRL_STEPSTATE(v) == VX_REQSTATE_NONE &&
		    VX_DCTRL_INJECTSTATE(v) == VX_REQSTATE_NONE) {
			if (dctrl)
				*dctrl = v;
			return 0;
		}
		if (dm->ops->delay)
			dm->ops->delay(dm->priv);
	}
	return -EIO;
}

static void vortex_dmseq_dselect(struct vortex_dmseq *dm, u32 v)
{
	if (v != dm->dselect) {
		vortex_dmseq_write(dm, VX_DM_DSELECT, v);
		dm->dselect = v;
	}
}

/**
 * vortex_dmseq_select() - select a warp and a thread, keeping the window
 * @dm: the DM
 * @warp: the warp
 * @thread: the thread in it
 */
void vortex_dmseq_select(struct vortex_dmseq *dm, u32 warp, u32 thread)
{
	vortex_dmseq_dselect(dm, VX_DSELECT_MAKE(VX_DSELECT_WINSEL(dm->dselect),
						 warp, thread));
}

static void vortex_dmseq_select_window(struct vortex_dmseq *dm, u32 win)
{
	vortex_dmseq_dselect(dm, VX_DSELECT_MAKE(win, VX_DSELECT_WARPSEL(dm->dselect),
						 VX_DSELECT_THREADSEL(dm->dselect)));
}

/**
 * vortex_dmseq_set_dconfig() - write DCONFIG if it changes
 * @dm: the DM
 * @dconfig: the VX_DCONFIG_* bits
 */
void vortex_dmseq_set_dconfig(struct vortex_dmseq *dm, u32 dconfig)
{
	if (dconfig != dm->dconfig) {
		vortex_dmseq_write(dm, VX_DM_DCONFIG, dconfig);
		dm->dconfig = dconfig;
	}
}

/* Window @win of the mask of every warp (bits past the last warp clear). */
static u32 vortex_dmseq_all_bits(const struct vortex_dmseq *dm, u32 win)
{
	u32 total = vortex_dmseq_total_warps(dm);

	return total - win * 32 >= 32 ? ~0u : VX_BIT(total - win * 32) - 1;
}

/**
 * vortex_dmseq_mask_all() - the mask of every warp of the card, or of none
 * @dm: the DM
 * @mask: out: vortex_dmseq_windows() words
 * @all: every warp, else none
 */
void vortex_dmseq_mask_all(const struct vortex_dmseq *dm, u32 *mask, bool all)
{
	u32 win;

	for (win = 0; win < vortex_dmseq_windows(dm); win++)
		mask[win] = all ? vortex_dmseq_all_bits(dm, win) : 0;
}

/**
 * vortex_dmseq_mask_check() - a user's mask names no warp past the last
 * @dm: the DM
 * @mask: @words words, the first windows
 * @words: how many, at most vortex_dmseq_windows()
 *
 * Return: 0 or -ERANGE.
 */
int vortex_dmseq_mask_check(const struct vortex_dmseq *dm, const u32 *mask,
			    u32 words)
{
	u32 total = vortex_dmseq_total_warps(dm), windows = vortex_dmseq_windows(dm);

	if (total % 32 && words == windows && mask[windows - 1] >> (total % 32))
		return -ERANGE;
	return 0;
}

static void vortex_dmseq_set_window(struct vortex_dmseq *dm, u32 win, u32 bits)
{
	if (dm->wmask_known && bits == dm->wmask[win])
		return;
	vortex_dmseq_select_window(dm, win);
	vortex_dmseq_write(dm, VX_DM_WMASK, bits);
	dm->wmask[win] = bits;
}

/**
 * vortex_dmseq_set_mask() - select a set of warps for halt, resume, reset-halt
 * @dm: the DM
 * @mask: one bit per warp, vortex_dmseq_windows() words
 *
 * The mask array is written a 32-warp window at a time, and only the
 * windows that change.
 */
void vortex_dmseq_set_mask(struct vortex_dmseq *dm, const u32 *mask)
{
	u32 win;

	for (win = 0; win < vortex_dmseq_windows(dm); win++)
		vortex_dmseq_set_window(dm, win, mask[win]);
	dm->wmask_known = true;
}

/**
 * vortex_dmseq_set_mask_all() - select every warp of the card, or none
 * @dm: the DM
 * @all: true for every warp, false for none
 */
void vortex_dmseq_set_mask_all(struct vortex_dmseq *dm, bool all)
{
	u32 win;

	for (win = 0; win < vortex_dmseq_windows(dm); win++)
		vortex_dmseq_set_window(dm, win, all ? vortex_dmseq_all_bits(dm, win) : 0);
	dm->wmask_known = true;
}

/**
 * vortex_dmseq_halt_running() - halt the warps of a set that are not halted
 * @dm: the DM
 * @mask: one bit per warp, vortex_dmseq_windows() words; NULL: every warp
 *
 * A haltreq makes HALTREQ the cause of every selected warp, one halted by
 * a breakpoint, a step or at its start included, as the RTL's scheduler
 * does (docs/hardware.md, "Summary bits").  Leaving the halted warps out
 * of the mask (WSTATUS read a window at a time) keeps their causes for the
 * debugger and the dump.  The request is made even when no warp is left,
 * so it drops the last STEP's halts as any halt does.
 *
 * Return: 0 or a negative errno (vortex_dmseq_request()).
 */
int vortex_dmseq_halt_running(struct vortex_dmseq *dm, const u32 *mask)
{
	u32 win, bits;

	for (win = 0; win < vortex_dmseq_windows(dm); win++) {
		bits = mask ? mask[win] : vortex_dmseq_all_bits(dm, win);
		if (bits)
			bits &= ~vortex_dmseq_window(dm, VX_DM_WSTATUS, win);
		vortex_dmseq_set_window(dm, win, bits);
	}
	dm->wmask_known = true;
	return vortex_dmseq_request(dm, VX_DCTRL_HALTREQ, NULL);
}

/**
 * vortex_dmseq_window() - one window of WACTIVE or WSTATUS
 * @dm: the DM
 * @reg: VX_DM_WACTIVE or VX_DM_WSTATUS
 * @win: the window
 *
 * Return: the window's 32 warp bits.
 */
u32 vortex_dmseq_window(struct vortex_dmseq *dm, u32 reg, u32 win)
{
	vortex_dmseq_select_window(dm, win);
	return vortex_dmseq_read(dm, reg);
}

/**
 * vortex_dmseq_warp_bit() - one warp's bit of WACTIVE or WSTATUS
 * @dm: the DM
 * @reg: VX_DM_WACTIVE or VX_DM_WSTATUS
 * @warp: global warp id
 *
 * Return: whether the bit is set.
 */
bool vortex_dmseq_warp_bit(struct vortex_dmseq *dm, u32 reg, u32 warp)
{
	return vortex_dmseq_window(dm, reg, warp / 32) & VX_BIT(warp % 32);
}

/**
 * vortex_dmseq_inject() - run one instruction in the selected warp
 * @dm: the DM
 * @insn: the instruction
 * @warp_wide: in every thread of the warp (DCTRL.injectwarp), else in the
 *	selected thread only
 *
 * Return: 0; -EIO if the card refused or faulted on it (DCTRL.injecterr)
 * or did not answer; -ENODEV if it is gone.
 */
int vortex_dmseq_inject(struct vortex_dmseq *dm, u32 insn, bool warp_wide)
{
	u32 bits = VX_DCTRL_INJECTREQ | (warp_wide ? VX_DCTRL_INJECTWARP : 0);
	u32 dctrl;
	int ret;

	vortex_dmseq_write(dm, VX_DM_INJECT, insn);
	ret = vortex_dmseq_request(dm, bits, &dctrl);
	if (ret)
		return ret;
	return dctrl & VX_DCTRL_INJECTERR ? -EIO : 0;
}

/*
 * A raw client (DRM_VORTEX_DEBUG_IOCTL_DM) owns its selection: "All
 * subsequent step and instruction injection commands then use the selected
 * warp/thread pair" (shared/specs/vxdebug-spec.md).  The host's own
 * sequences borrow DSELECT and the mask array between its batches, so what
 * the client's batches left there is kept too, and each batch first gets
 * it back.
 */

/**
 * vortex_dmseq_raw_begin() - give a raw client back its selection
 * @dm: the DM
 *
 * Before a raw batch: DSELECT and the mask array as the client's last
 * batch left them.  Nothing is written when nothing moved.  The client
 * may resume or step: the last STEP's halts are news again.
 */
void vortex_dmseq_raw_begin(struct vortex_dmseq *dm)
{
	vortex_dmseq_forget_step(dm);
	if (!dm->active)
		return;		/* the registers read 0 and ignore writes */
	vortex_dmseq_set_mask(dm, dm->raw_wmask);
	if (dm->dselect != dm->raw_dselect) {
		vortex_dmseq_write(dm, VX_DM_DSELECT, dm->raw_dselect);
		dm->dselect = dm->raw_dselect;
	}
}

/**
 * vortex_dmseq_raw_write() - one write of a raw batch, remembered for the client
 * @dm: the DM
 * @reg: DM register index
 * @val: the value
 *
 * A DCTRL write with ndmreset goes to the card without that bit: the card's
 * reset would also reset the ring and interrupt registers under the host.
 * The caller resets the card its own way.
 *
 * Return: true if @val asked for ndmreset.
 */
bool vortex_dmseq_raw_write(struct vortex_dmseq *dm, u32 reg, u32 val)
{
	/* (The write that activates the DM does nothing else.) */
	bool ndmreset = reg == VX_DM_DCTRL && dm->active &&
			val & VX_DCTRL_DMACTIVE && val & VX_DCTRL_NDMRESET;
	u32 win, windows = vortex_dmseq_windows(dm);

	vortex_dmseq_forget_step(dm);
	vortex_dmseq_write(dm, reg, ndmreset ? val & ~VX_DCTRL_NDMRESET : val);
	switch (reg) {
	case VX_DM_DCTRL:
		if (!(val & VX_DCTRL_DMACTIVE)) {
			/* A DM reset: the registers go back to 0. */
			dm->raw_dselect = 0;
			memset(dm->raw_wmask, 0, windows * sizeof(*dm->raw_wmask));
		}
		dm->active = val & VX_DCTRL_DMACTIVE;
		break;
	case VX_DM_DSELECT:
		if (dm->active)
			dm->raw_dselect = val;
		break;
	case VX_DM_WMASK:
		/* Windows past the last warp ignore writes. */
		win = VX_DSELECT_WINSEL(dm->raw_dselect);
		if (dm->active && win < windows)
			dm->raw_wmask[win] = val;
		break;
	}
	return ndmreset;
}

/**
 * vortex_dmseq_raw_end() - after a raw batch: the shadows are the client's view
 * @dm: the DM
 *
 * Rereads DCTRL.dmactive, DSELECT and DCONFIG; the mask array holds what
 * the batch wrote to it, which vortex_dmseq_raw_write() kept.
 */
void vortex_dmseq_raw_end(struct vortex_dmseq *dm)
{
	u32 windows = vortex_dmseq_windows(dm);

	dm->active = vortex_dmseq_read(dm, VX_DM_DCTRL) & VX_DCTRL_DMACTIVE;
	dm->dselect = vortex_dmseq_read(dm, VX_DM_DSELECT);
	dm->dconfig = vortex_dmseq_read(dm, VX_DM_DCONFIG);
	if (!dm->active)
		memset(dm->raw_wmask, 0, windows * sizeof(*dm->raw_wmask));
	dm->raw_dselect = dm->dselect;
	memcpy(dm->wmask, dm->raw_wmask, windows * sizeof(*dm->wmask));
	dm->wmask_known = true;
}

/**
 * vortex_dmseq_card_reset() - the host reset the card
 * @dm: the DM, which a card reset keeps
 *
 * Every warp stopped: no halt the last STEP left stands any more, and
 * every halt after this is news.  The host's card reset calls it, with
 * its DM lock held or nothing else running (probe).
 */
void vortex_dmseq_card_reset(struct vortex_dmseq *dm)
{
	vortex_dmseq_forget_step(dm);
}

/**
 * vortex_dmseq_forget_step() - the last STEP's halts are news again
 * @dm: the DM
 *
 * From now on a HALTED event reports whatever stands halted.  This layer
 * calls it wherever halts change other than by a step (&vortex_dmseq.stepped):
 * a host has no reason to.
 */
void vortex_dmseq_forget_step(struct vortex_dmseq *dm)
{
	dm->stepped = false;
}
