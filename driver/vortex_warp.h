/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_WARP_H__
#define __VORTEX_WARP_H__

#include <linux/gfp.h>
#include <linux/types.h>

#include "vortex_accel.h"
#include "vortex_dmseq.h"
#include "vortex_regs.h"

/*
 * Allocations while the card is frozen in recovery (a crash dump's
 * capture, the warps' register paths under it) and for the dump after:
 * fail rather than retry or warn (a dump then says what it lacks).
 */
#define VORTEX_RECOVERY_GFP	(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN)

struct vortex_device;

/*
 * The warp layer (vortex_warp.c): one halted warp through the Debug
 * Module, for the debugger and the crash dump, over the shared sequences
 * of dbgcore/vortex_dmseq.c.  Every call needs the DM lock held and the device
 * entered.
 */

int vortex_warp_check(struct vortex_device *vdev, u32 warp, bool halted);
int vortex_warp_status(struct vortex_device *vdev,
		       struct drm_vortex_debug_warp_state *st);

/* Whole warps, for crash dumps */
int vortex_warp_read_regs(struct vortex_device *vdev, u32 warp, u32 *out,
			  bool reset_next);
u32 vortex_warp_dump_regs_size(u32 threads);
int vortex_warp_dump_regs(struct vortex_device *vdev, u32 warp, u32 area,
			  u64 vram_offset, u32 *out);

#endif /* __VORTEX_WARP_H__ */
