// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Registers and status of a session's warps
 *
 * DRM_VORTEX_DEBUG_IOCTL_REGS and _STATUS over the warp layer
 * (vortex_warp.c): the batch is checked and copied in, run under the DM
 * lock with one warp borrowed at a time (its DSCRATCHes go back when the
 * batch moves to another warp or ends), and copied out after.
 */

#include <linux/slab.h>
#include <linux/uaccess.h>

#include "vortex_accel.h"
#include "vortex_debug.h"
#include "vortex_device.h"
#include "vortex_dm.h"
#include "vortex_warp.h"

/* Validates one op; @n receives the number of lanes it names. */
static int vortex_regs_check(struct vortex_warp_ctx *ctx,
			     const struct drm_vortex_debug_reg_op *op, u32 *n)
{
	u32 w, i;

	if (op->pad || op->flags & ~DRM_VORTEX_DEBUG_REG_WRITE)
		return -EINVAL;
	if (op->reg >= DRM_VORTEX_DEBUG_REG_F(32) &&
	    (op->reg < DRM_VORTEX_DEBUG_REG_CSR(0) ||
	     op->reg > DRM_VORTEX_DEBUG_REG_CSR(0xfff)) &&
	    op->reg != DRM_VORTEX_DEBUG_REG_PC)
		return -ERANGE;
	if (op->warp >= vortex_device_total_warps(ctx->vdev))
		return -ERANGE;
	*n = 0;
	for (w = 0; w < 4; w++) {
		for (i = 0; i < 32; i++)
			if (op->lanes[w] & BIT(i) && w * 32 + i >= ctx->threads)
				return -ERANGE;
		*n += hweight32(op->lanes[w]);
	}
	return *n ? 0 : -EINVAL;
}

/* How many ops from @ops[0] read GPRs of the same warp (at most VORTEX_WARP_GROUP). */
static u32 vortex_regs_group_len(const struct drm_vortex_debug_reg_op *ops, u32 n)
{
	u32 i;

	if (ops[0].flags & DRM_VORTEX_DEBUG_REG_WRITE ||
	    ops[0].reg == DRM_VORTEX_DEBUG_REG_PC)
		return 1;
	for (i = 1; i < n && i < VORTEX_WARP_GROUP; i++)
		if (ops[i].warp != ops[0].warp || !vortex_warp_reg_is_gpr(ops[i].reg) ||
		    !vortex_warp_reg_is_gpr(ops[0].reg) ||
		    ops[i].flags & DRM_VORTEX_DEBUG_REG_WRITE)
			break;
	return i;
}

/**
 * vortex_debug_regs() - DRM_VORTEX_DEBUG_IOCTL_REGS
 * @dbg: the session
 * @data: the batch, struct drm_vortex_debug_regs; its @done is set
 *
 * Return: 0 or a negative errno (uapi/vortex_accel.h).
 */
int vortex_debug_regs(struct vortex_debug *dbg, void *data)
{
	struct drm_vortex_debug_regs *args = data;
	struct vortex_device *vdev = dbg->vdev;
	struct drm_vortex_debug_reg_op *ops;
	u32 (*vals)[VX_DM_MAX_THREADS];
	struct vortex_warp_ctx *ctx;
	u32 i, g, good, ran, *nlanes;
	int ret = 0, bad = 0;

	args->done = 0;

	/*
	 * User memory in and out outside the DM lock, which is the card's:
	 * the ops and written values are copied in first, read values out
	 * after.  A bad op stops the batch there; those before it run.
	 */
	ops = vortex_debug_batch_in(dbg, "REGS",
				    VORTEX_DEBUG_BATCH(struct drm_vortex_debug_regs, args),
				    DRM_VORTEX_DEBUG_MAX_REG_OPS, sizeof(*ops));
	if (IS_ERR(ops))
		return PTR_ERR(ops);
	ctx = vortex_warp_ctx_alloc(vdev, GFP_KERNEL_ACCOUNT);
	vals = kvcalloc(args->count, sizeof(*vals), GFP_KERNEL_ACCOUNT);
	nlanes = kvcalloc(args->count, sizeof(*nlanes), GFP_KERNEL_ACCOUNT);
	if (!ctx || !vals || !nlanes) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (good = 0; good < args->count; good++) {
		bad = vortex_regs_check(ctx, &ops[good], &nlanes[good]);
		if (!bad && ops[good].flags & DRM_VORTEX_DEBUG_REG_WRITE &&
		    copy_from_user(vals[good], u64_to_user_ptr(ops[good].values),
				   nlanes[good] * sizeof(u32)))
			bad = -EFAULT;
		if (bad) {
			vortex_debug_reject(dbg, bad,
					    "REGS: entry %u: warp %u, reg 0x%x, flags 0x%x",
					    good, ops[good].warp, ops[good].reg,
					    ops[good].flags);
			break;
		}
	}

	mutex_lock(&vdev->dm.lock);
	if (!vortex_debug_on_card(dbg)) {
		ret = -ESRCH;
		goto out_unlock;
	}
	for (ran = 0; ran < good && !ret; ran += g) {
		g = vortex_regs_group_len(&ops[ran], good - ran);
		ret = vortex_warp_borrow(ctx, ops[ran].warp);
		if (ret)
			break;
		if (ops[ran].reg == DRM_VORTEX_DEBUG_REG_PC)
			vortex_warp_pc(ctx, &ops[ran], vals[ran], nlanes[ran]);
		else if (ops[ran].flags & DRM_VORTEX_DEBUG_REG_WRITE)
			ret = vortex_warp_write(ctx, &ops[ran], vals[ran]);
		else
			ret = vortex_warp_read_group(ctx, &ops[ran], g, &vals[ran]);
	}
	if (ret)
		good = ran;	/* the group that failed did not take effect */
	vortex_warp_restore(ctx);
out_unlock:
	mutex_unlock(&vdev->dm.lock);
	if (ret == -ESRCH)
		goto out_free;

	for (i = 0; i < good; i++) {
		if (!(ops[i].flags & DRM_VORTEX_DEBUG_REG_WRITE) &&
		    copy_to_user(u64_to_user_ptr(ops[i].values), vals[i],
				 nlanes[i] * sizeof(u32))) {
			ret = -EFAULT;
			break;
		}
		args->done++;
	}
	if (!ret && good < args->count)
		ret = bad;
out_free:
	kvfree(nlanes);
	kvfree(vals);
	kfree(ctx);
	kvfree(ops);
	return ret;
}

/**
 * vortex_debug_status() - DRM_VORTEX_DEBUG_IOCTL_STATUS
 * @dbg: the session
 * @data: the request, struct drm_vortex_debug_status; its @count becomes
 *	the number filled
 *
 * Return: 0 or a negative errno (uapi/vortex_accel.h).
 */
int vortex_debug_status(struct vortex_debug *dbg, void *data)
{
	struct drm_vortex_debug_status *args = data;
	struct vortex_device *vdev = dbg->vdev;
	struct drm_vortex_debug_warp_state st, *sts;
	u32 total = vortex_device_total_warps(vdev), per_cluster, i = 0, n,
	    active = 0, halted = 0;
	int ret = 0;

	if (args->flags)
		return vortex_debug_reject(dbg, -EINVAL, "STATUS: flags 0x%x", args->flags);
	ret = vortex_debug_check_stride(dbg, "STATUS", args->stride, sizeof(st));
	if (ret)
		return ret;
	if (!args->count)
		return vortex_debug_reject(dbg, -EINVAL, "STATUS: no records");
	if (args->count > DRM_VORTEX_DEBUG_STATUS_MAX)
		return vortex_debug_reject(dbg, -E2BIG, "STATUS: %u records", args->count);
	if (args->first >= total)
		return vortex_debug_reject(dbg, -ERANGE, "STATUS: warp %u of %u",
					   args->first, total);
	args->count = min(args->count, total - args->first);
	per_cluster = vdev->num_cores * vdev->num_warps;
	/* Filled under the DM lock, copied out after: user memory may stall. */
	sts = kvcalloc(args->count, sizeof(*sts), GFP_KERNEL_ACCOUNT);
	if (!sts)
		return -ENOMEM;

	mutex_lock(&vdev->dm.lock);
	if (!vortex_debug_on_card(dbg)) {
		ret = -ESRCH;
		goto out_unlock;
	}

	for (i = 0; i < args->count; i++) {
		u32 w = args->first + i;

		if (i == 0 || w % 32 == 0) {
			active = vortex_dm_window(vdev, VX_DM_WACTIVE, w / 32);
			halted = vortex_dm_window(vdev, VX_DM_WSTATUS, w / 32);
		}
		memset(&st, 0, sizeof(st));
		st.warp = w;
		st.cluster = w / per_cluster;
		st.core = w % per_cluster / vdev->num_warps;
		st.warp_in_core = w % vdev->num_warps;
		if (active & BIT(w % 32))
			st.state |= DRM_VORTEX_DEBUG_WARP_ACTIVE;
		if (halted & BIT(w % 32)) {
			st.state |= DRM_VORTEX_DEBUG_WARP_HALTED;
			ret = vortex_warp_status(vdev, &st);
			if (ret)
				break;
			if (vortex_debug_on_breakpoint(dbg, st.pc))
				st.state |= DRM_VORTEX_DEBUG_WARP_ON_BREAKPOINT;
		}
		sts[i] = st;
	}
out_unlock:
	mutex_unlock(&vdev->dm.lock);
	n = ret == -ESRCH ? 0 : i;
	for (i = 0; i < n; i++) {
		void __user *rec = u64_to_user_ptr(args->states) + (u64)i * args->stride;

		/* Longer records from newer userspace: the tail is zeroed. */
		if (copy_to_user(rec, &sts[i], sizeof(st)) ||
		    clear_user(rec + sizeof(st), args->stride - sizeof(st))) {
			ret = -EFAULT;
			break;
		}
	}
	args->count = i;
	kvfree(sts);
	return ret;
}
