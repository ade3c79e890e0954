// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Warp access
 *
 * Everything the driver does to one halted warp through the Debug Module,
 * for the debugger (vortex_debug*.c) and the crash dump (vortex_dump*.c)
 * alike: the warp checks, the warp's status, and its registers, lane by
 * lane or the whole warp at once.  The sequences (the RV32 instructions
 * injected, the DSCRATCH borrow and restore) are dbgcore/vortex_dmseq.c's,
 * shared with libvortex-debug's simulator backend; this file adds what
 * only the driver has: memory allocated as recovery must, and the BAR.
 * Neither user knows of the other; both hold the DM lock around every
 * call (lock order: vortex_device.h, "Lock order").
 */

#include <linux/io.h>
#include <linux/slab.h>

#include "vortex_accel.h"
#include "vortex_device.h"
#include "vortex_dm.h"
#include "vortex_warp.h"

/**
 * vortex_warp_check() - a warp id that exists, and (if @halted) is halted
 * @vdev: the device, DM lock held
 * @warp: global warp id
 * @halted: the warp must be debug-halted
 *
 * Return: 0, -ERANGE or -EBUSY.
 */
int vortex_warp_check(struct vortex_device *vdev, u32 warp, bool halted)
{
	return vortex_dmseq_warp_check(&vdev->dm.seq, warp, halted);
}

/**
 * vortex_warp_status() - what only injection can read of a halted warp
 * @vdev: the device, DM lock held
 * @st: @st->warp names the warp; fills cause, PC, thread mask, block
 *
 * Reads lane 0; the DSCRATCH0/3 and x5 it borrows are restored.
 *
 * Return: 0 or a negative errno.
 */
int vortex_warp_status(struct vortex_device *vdev,
		       struct drm_vortex_debug_warp_state *st)
{
	return vortex_dmseq_warp_status(&vdev->dm.seq, st);
}

/**
 * vortex_warp_read_regs() - every register of every lane of a halted warp
 * @vdev: the device, DM lock held
 * @warp: global warp id, halted
 * @out: VORTEX_WARP_REGS x threads words: x0-x31, f0-f31, fcsr, each for
 *	lane 0 up
 * @reset_next: the card is reset right after (a recovery dump): the
 *	lanes' DSCRATCH CSRs need not be saved and restored
 *
 * For crash dumps: it runs in recovery, and allocates accordingly.
 *
 * Return: 0 or a negative errno.
 */
int vortex_warp_read_regs(struct vortex_device *vdev, u32 warp, u32 *out,
			  bool reset_next)
{
	struct vortex_dmseq_warp *ctx;
	int ret;

	ctx = kmalloc(sizeof(*ctx), VORTEX_RECOVERY_GFP);
	if (!ctx)
		return -ENOMEM;
	vortex_dmseq_warp_init(ctx, &vdev->dm.seq);
	ctx->scratch_lost = reset_next;
	ret = vortex_dmseq_warp_read_regs(ctx, warp, out);
	kfree(ctx);
	return ret;
}

/**
 * DOC: Registers of a whole warp for a crash dump
 *
 * Reading a register through DSCRATCH costs two DM accesses per lane,
 * which on a large card (a 4,8,32,32 card has 2 million lane registers)
 * is seconds.  When the card is reset right after, the dump has the warp
 * store its own registers instead: every lane computes its slot in a
 * VRAM area the driver keeps for this (vortex_dump_init()) from its thread
 * id, and each injected ``sw``/``fsw`` writes
 * one register of every lane at once.  About 75 injections per warp,
 * whatever its width, then one copy out of the BAR.  x5 and x6 serve as
 * the pointer and a temporary (their values are kept in DSCRATCH3 and
 * DSCRATCH2 and stored from there); the lanes' DSCRATCHes and the two
 * registers are not given back, which is why this is only for reset_next.
 * The injections are vortex_dmseq_warp_store_regs()'s.  A recovery dump
 * runs this only for the warps its register stub cannot read (a warp
 * parked at a barrier, cards past 32 lanes: vortex_dump_regs.c), which is
 * cheaper still: a few DM accesses per warp instead of 75 injections.
 *
 * Injected stores go through the warp's translation, so the area is
 * reachable only while the dump maps it into the job's address space (the
 * dump window, vortex_vm_window_map()); no space maps it otherwise, and
 * the card is frozen under the driver's control all that time.
 */

/**
 * vortex_warp_dump_regs_size() - bytes of VRAM the store path needs
 * @threads: lanes per warp
 *
 * Return: the size of the store area for a warp of @threads lanes.
 */
u32 vortex_warp_dump_regs_size(u32 threads)
{
	return vortex_dmseq_warp_store_size(threads);
}

/**
 * vortex_warp_dump_regs() - vortex_warp_read_regs() for a card reset next
 * @vdev: the device, DM lock held
 * @warp: global warp id, halted
 * @area: virtual address, in the warp's space, of the area
 * @vram_offset: VRAM offset of the same vortex_warp_dump_regs_size() bytes
 * @out: as for vortex_warp_read_regs()
 *
 * Clobbers x5, x6 and DSCRATCH2-3 of every lane (see the DOC above).
 *
 * Return: 0, -ERANGE or -EBUSY (vortex_warp_check()), or another
 * negative errno.
 */
int vortex_warp_dump_regs(struct vortex_device *vdev, u32 warp, u32 area,
			  u64 vram_offset, u32 *out)
{
	u32 threads = vdev->num_threads, size = vortex_warp_dump_regs_size(threads);
	u32 *slots;
	int ret;

	slots = kvmalloc(size, VORTEX_RECOVERY_GFP);
	if (!slots)
		return -ENOMEM;
	ret = vortex_dmseq_warp_store_regs(&vdev->dm.seq, warp, area);
	if (!ret) {
		memcpy_fromio(slots, vdev->vram + vram_offset, size);
		vortex_dmseq_warp_unpack(slots, threads, out);
	}
	kvfree(slots);
	return ret;
}
