// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Registers and status of a session's warps
 *
 * DRM_VORTEX_DEBUG_IOCTL_REGS and _STATUS: the batch is checked and copied
 * in, run under the DM lock by the shared sequences (dbgcore/vortex_dmseq.c:
 * one warp borrowed at a time, its DSCRATCHes given back when the batch
 * moves to another warp or ends), and copied out after.
 */

#include <linux/slab.h>
#include <linux/uaccess.h>

#include "vortex_accel.h"
#include "vortex_debug.h"
#include "vortex_device.h"
#include "vortex_dm.h"
#include "vortex_warp.h"

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
	struct vortex_dmseq_warp *ctx;
	u32 i, good, ran, *nlanes;
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
	ctx = kmalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	vals = kvcalloc(args->count, sizeof(*vals), GFP_KERNEL_ACCOUNT);
	nlanes = kvcalloc(args->count, sizeof(*nlanes), GFP_KERNEL_ACCOUNT);
	if (!ctx || !vals || !nlanes) {
		ret = -ENOMEM;
		goto out_free;
	}
	vortex_dmseq_warp_init(ctx, &vdev->dm.seq);
	for (good = 0; good < args->count; good++) {
		bad = vortex_dmseq_reg_op_check(&vdev->dm.seq, &ops[good], &nlanes[good]);
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
	ret = vortex_dmseq_regs(ctx, ops, good, vals, nlanes, &ran);
	good = ran;	/* a group that failed did not take effect */
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
	struct drm_vortex_debug_warp_state *sts;
	u32 i = 0, n;
	int ret;

	ret = vortex_dmseq_status_check(&vdev->dm.seq, args);
	if (ret)
		return vortex_debug_reject(dbg, ret,
					   "STATUS: flags 0x%x, stride %u, %u records from warp %u",
					   args->flags, args->stride, args->count, args->first);
	/* Filled under the DM lock, copied out after: user memory may stall. */
	sts = kvcalloc(args->count, sizeof(*sts), GFP_KERNEL_ACCOUNT);
	if (!sts)
		return -ENOMEM;

	mutex_lock(&vdev->dm.lock);
	if (!vortex_debug_on_card(dbg)) {
		ret = -ESRCH;
		goto out_unlock;
	}

	ret = vortex_dmseq_status(&dbg->seq, args->first, args->count, sts, &i);
out_unlock:
	mutex_unlock(&vdev->dm.lock);
	n = ret == -ESRCH ? 0 : i;
	for (i = 0; i < n; i++) {
		void __user *rec = u64_to_user_ptr(args->states) + (u64)i * args->stride;

		/* Longer records from newer userspace: the tail is zeroed. */
		if (copy_to_user(rec, &sts[i], sizeof(*sts)) ||
		    clear_user(rec + sizeof(*sts), args->stride - sizeof(*sts))) {
			ret = -EFAULT;
			break;
		}
	}
	args->count = i;
	kvfree(sts);
	return ret;
}
