/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_WARP_H__
#define __VORTEX_WARP_H__

#include <linux/gfp.h>
#include <linux/types.h>

#include "vortex_accel.h"
#include "vortex_regs.h"

struct vortex_device;

/*
 * The warp layer (vortex_warp.c): one halted warp through the Debug
 * Module, for the debugger and the crash dump.  Every call needs the DM
 * lock held and the device entered.
 */

/* ebreak: what a software breakpoint writes over an instruction */
#define VORTEX_EBREAK		0x00100073u

/* Registers of a whole warp, per lane: x0-x31, f0-f31, fcsr */
#define VORTEX_WARP_REGS	65

/* GPR reads of one warp that share one pass over its lanes (DSCRATCH0-3) */
#define VORTEX_WARP_GROUP	4

/**
 * struct vortex_warp_ctx - a borrowed warp: its lanes' DSCRATCHes, kept
 */
struct vortex_warp_ctx {
	/** @vdev: the device */
	struct vortex_device *vdev;
	/** @warp: warp whose DSCRATCHes are saved in @saved, or ~0u */
	u32 warp;
	/** @threads: lanes per warp */
	u32 threads;
	/** @scratch_lost: the card is reset next, DSCRATCH need not survive */
	bool scratch_lost;
	/** @saved: DSCRATCH0-3 of each lane of @warp */
	u32 saved[VX_DM_MAX_THREADS][4];
	/** @rows: room for the values of one vortex_warp_read_group() */
	u32 rows[VORTEX_WARP_GROUP][VX_DM_MAX_THREADS];
};

/* Whether register number @reg (DRM_VORTEX_DEBUG_REG_*) is x0..x31. */
static inline bool vortex_warp_reg_is_gpr(u32 reg)
{
	return reg < DRM_VORTEX_DEBUG_REG_F(0);
}

int vortex_warp_check(struct vortex_device *vdev, u32 warp, bool halted);
int vortex_warp_status(struct vortex_device *vdev,
		       struct drm_vortex_debug_warp_state *st);

struct vortex_warp_ctx *vortex_warp_ctx_alloc(struct vortex_device *vdev,
					      gfp_t gfp);
int vortex_warp_borrow(struct vortex_warp_ctx *ctx, u32 warp);
void vortex_warp_restore(struct vortex_warp_ctx *ctx);
int vortex_warp_read_group(struct vortex_warp_ctx *ctx,
			   const struct drm_vortex_debug_reg_op *ops, u32 n,
			   u32 vals[][VX_DM_MAX_THREADS]);
int vortex_warp_write(struct vortex_warp_ctx *ctx,
		      const struct drm_vortex_debug_reg_op *op, const u32 *vals);
void vortex_warp_pc(struct vortex_warp_ctx *ctx,
		    const struct drm_vortex_debug_reg_op *op, u32 *vals,
		    u32 nlanes);

/* Whole warps, for crash dumps */
int vortex_warp_read_regs(struct vortex_device *vdev, u32 warp, u32 *out,
			  bool reset_next);
u32 vortex_warp_dump_regs_size(u32 threads);
int vortex_warp_dump_regs(struct vortex_device *vdev, u32 warp, u32 area,
			  u64 vram_offset, u32 *out);

#endif /* __VORTEX_WARP_H__ */
