// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: A session call's arguments, checked once
 *
 * What a debugger session refuses before it does anything, with its
 * errno, for both hosts: the headers of the DM, WARPS, STEP and STATUS
 * calls, the header every batch (REGS, MEM, BREAKPOINT) shares, and one
 * MEM entry (a BREAKPOINT entry is vortex_dmseq_bp.c's, a REGS entry
 * vortex_dmseq_session.c's).  The order of the checks is the uapi's
 * (uapi/vortex_accel.h, "Session ioctl sizes" and each call's errnos), so
 * the driver and the simulator backend fail a malformed call the same way
 * and test_vxdbg_api's error paths hold on both.  What only a host knows
 * stays there: whether user memory is readable, whether an entry longer
 * than this build's struct is zero past it (the driver with
 * copy_struct_from_user()), the caller's capabilities, and where an
 * address of the target lies.
 */

#ifdef __KERNEL__
#include <linux/errno.h>
#else
#include <errno.h>
#endif

#include "vortex_dmseq.h"

/**
 * vortex_dmseq_stride_check() - an entry stride, as the uapi allows it
 * @stride: bytes from one entry to the next, from userspace
 * @size: the entry's size in this build
 *
 * Return: 0, or -EINVAL shorter than @size, longer than
 * VORTEX_DMSEQ_MAX_STRIDE or not a multiple of 8.
 */
int vortex_dmseq_stride_check(u32 stride, size_t size)
{
	if (stride < size || stride > VORTEX_DMSEQ_MAX_STRIDE || stride % 8)
		return -EINVAL;
	return 0;
}

/**
 * vortex_dmseq_batch_check() - a REGS, MEM or BREAKPOINT header
 * @flags: the header's flags
 * @count: its entries
 * @stride: bytes from one entry to the next
 * @max: the call's most entries
 * @size: the entry's size in this build
 *
 * Return: 0, -EINVAL flags, no entries or a bad stride, -E2BIG more than
 * @max entries.
 */
int vortex_dmseq_batch_check(u32 flags, u32 count, u32 stride, u32 max,
			     size_t size)
{
	if (flags || !count)
		return -EINVAL;
	if (count > max)
		return -E2BIG;
	return vortex_dmseq_stride_check(stride, size);
}

/**
 * vortex_dmseq_mem_op_check() - one MEM entry, before its memory is looked at
 * @op: the entry
 *
 * Return: 0, -EINVAL (flags, pad, space, no bytes) or -E2BIG (more than
 * DRM_VORTEX_DEBUG_MAX_MEM_LEN bytes).
 */
int vortex_dmseq_mem_op_check(const struct drm_vortex_debug_mem_op *op)
{
	if (op->pad || op->flags & ~DRM_VORTEX_DEBUG_MEM_WRITE ||
	    op->space != DRM_VORTEX_DEBUG_SPACE_DEVICE || !op->len)
		return -EINVAL;
	if (op->len > DRM_VORTEX_DEBUG_MAX_MEM_LEN)
		return -E2BIG;
	return 0;
}

/**
 * vortex_dmseq_dm_check() - a raw DM batch's header
 * @args: the header
 *
 * Return: 0, -EINVAL flags or no entries, -E2BIG more than
 * DRM_VORTEX_DEBUG_DM_MAX_OPS.
 */
int vortex_dmseq_dm_check(const struct drm_vortex_debug_dm *args)
{
	if (args->flags || !args->count)
		return -EINVAL;
	if (args->count > DRM_VORTEX_DEBUG_DM_MAX_OPS)
		return -E2BIG;
	return 0;
}

/**
 * vortex_dmseq_dm_op_check() - one raw DM access
 * @op: the access
 *
 * Return: 0, -EINVAL (flags, pad) or -ERANGE (no such DM register).
 */
int vortex_dmseq_dm_op_check(const struct drm_vortex_debug_dm_op *op)
{
	if (op->pad || op->flags & ~DRM_VORTEX_DEBUG_DM_WRITE)
		return -EINVAL;
	if (op->reg >= VX_DM_NREGS)
		return -ERANGE;
	return 0;
}

/**
 * vortex_dmseq_warps_check() - a WARPS call's header
 * @dm: the DM
 * @args: the header
 *
 * Return: 0, -EINVAL (op, flags, pad, PERSIST but for a HALT_AT_START
 * with ALL) or -E2BIG (a mask longer than the card's windows).
 */
int vortex_dmseq_warps_check(const struct vortex_dmseq *dm,
			     const struct drm_vortex_debug_warps *args)
{
	if (args->pad || args->flags & ~(DRM_VORTEX_DEBUG_WARPS_ALL |
					 DRM_VORTEX_DEBUG_WARPS_PERSIST) ||
	    args->op > DRM_VORTEX_DEBUG_WARPS_HALT_AT_START)
		return -EINVAL;
	/* Every launch halting: a HALT_AT_START of all warps only. */
	if (args->flags & DRM_VORTEX_DEBUG_WARPS_PERSIST &&
	    (args->op != DRM_VORTEX_DEBUG_WARPS_HALT_AT_START ||
	     !(args->flags & DRM_VORTEX_DEBUG_WARPS_ALL)))
		return -EINVAL;
	if (!(args->flags & DRM_VORTEX_DEBUG_WARPS_ALL) &&
	    args->mask_words > vortex_dmseq_windows(dm))
		return -E2BIG;
	return 0;
}

/**
 * vortex_dmseq_step_check() - a STEP call's header
 * @args: the header
 *
 * Return: 0, -EINVAL (flags, no steps) or -E2BIG (more than
 * DRM_VORTEX_DEBUG_MAX_STEPS).
 */
int vortex_dmseq_step_check(const struct drm_vortex_debug_step *args)
{
	if (args->flags || !args->count)
		return -EINVAL;
	if (args->count > DRM_VORTEX_DEBUG_MAX_STEPS)
		return -E2BIG;
	return 0;
}

/**
 * vortex_dmseq_status_check() - a STATUS call's header, its count cut to the card
 * @dm: the DM
 * @args: the header; @args->count becomes at most the warps from @args->first
 *
 * Return: 0, -EINVAL (flags, stride, no records), -E2BIG (more than
 * DRM_VORTEX_DEBUG_STATUS_MAX records) or -ERANGE (@args->first past the
 * card's warps).
 */
int vortex_dmseq_status_check(const struct vortex_dmseq *dm,
			      struct drm_vortex_debug_status *args)
{
	u32 total = vortex_dmseq_total_warps(dm);

	if (args->flags || !args->count ||
	    vortex_dmseq_stride_check(args->stride,
				      sizeof(struct drm_vortex_debug_warp_state)))
		return -EINVAL;
	if (args->count > DRM_VORTEX_DEBUG_STATUS_MAX)
		return -E2BIG;
	if (args->first >= total)
		return -ERANGE;
	if (args->count > total - args->first)
		args->count = total - args->first;
	return 0;
}
