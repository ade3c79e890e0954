// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: The target's memory: MEM and BREAKPOINT
 *
 * DRM_VORTEX_DEBUG_IOCTL_MEM and _BREAKPOINT.  What they mean is the
 * debugger core's, shared with the simulator backend
 * (dbgcore/vortex_dmseq_check.c: the entries' checks;
 * dbgcore/vortex_dmseq_bp.c: the breakpoint table, set, clear, and
 * breakpoints hidden from memory access).  This file adds what only the
 * driver has: an address of the target translated in its GPU address
 * spaces to a buffer and a VRAM offset (&vortex_debug_bp_ops resolves a
 * breakpoint's word that way and holds its buffer), VRAM access through
 * the BAR, and user memory copied outside the DM lock.
 */

#include <linux/io.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "vortex_accel.h"
#include "vortex_debug.h"
#include "vortex_device.h"
#include "vortex_dm.h"
#include "vortex_vm.h"

/*
 * VRAM at offset @vram: what a virtual address of the target translates
 * to (vortex_vm_get_bo()), since a VM_BIND mapping's address says nothing
 * of where its buffer sits.
 */
static void __iomem *vortex_debug_vram(struct vortex_device *vdev, u64 vram)
{
	return vdev->vram + vram;
}

/* Writes an instruction word the card may fetch right after. */
static void vortex_debug_poke(struct vortex_device *vdev, u64 vram, u32 word)
{
	writel(word, vortex_debug_vram(vdev, vram));
	/* Out of the write-combining buffer before the card runs again. */
	wmb();
}

/*
 * The target's buffer at @addr, with a reference, in @avail its bytes
 * from @addr on and in @vram the VRAM offset of @addr; NULL if no space of
 * the target maps @addr.  The first of the target's files that maps it:
 * they agree unless VM_BIND made them differ (uapi, "User-chosen virtual
 * addresses").
 */
static struct drm_gem_object *vortex_debug_target_bo(struct vortex_debug *dbg,
						     u64 addr, u64 *avail,
						     u64 *vram)
{
	struct drm_device *drm = &dbg->vdev->drm;
	struct drm_gem_object *obj = NULL;
	struct drm_file *file;

	mutex_lock(&drm->filelist_mutex);
	list_for_each_entry(file, &drm->filelist, lhead) {
		struct vortex_file *vfile = file->driver_priv;

		if (vfile->pid != dbg->target)
			continue;
		obj = vortex_vm_get_bo(vfile->vm, addr, avail, vram);
		if (obj)
			break;
	}
	mutex_unlock(&drm->filelist_mutex);
	return obj;
}

/* Whether the target's spaces map every byte of [@addr, @addr + @len). */
static bool vortex_debug_target_maps(struct vortex_debug *dbg, u64 addr, u64 len)
{
	struct drm_gem_object *obj;
	u64 avail, vram;

	if (addr + len < addr)
		return false;
	while (len) {
		obj = vortex_debug_target_bo(dbg, addr, &avail, &vram);
		if (!obj)
			return false;
		drm_gem_object_put(obj);
		avail = min(avail, len);
		addr += avail;
		len -= avail;
	}
	return true;
}

/* ------------------------------------------------------- breakpoints */

/* A breakpoint's word: its VRAM offset, its buffer held meanwhile. */
static int vortex_debug_bp_resolve(void *priv, u64 addr, u64 *where, void **ref)
{
	struct drm_gem_object *obj;
	u64 avail;

	obj = vortex_debug_target_bo(priv, addr, &avail, where);
	if (!obj)
		return -ENXIO;
	*ref = obj;
	return 0;
}

static void vortex_debug_bp_release(void *priv, void *ref)
{
	drm_gem_object_put(ref);
}

static u32 vortex_debug_bp_read_word(void *priv, u64 where)
{
	struct vortex_debug *dbg = priv;

	return readl(vortex_debug_vram(dbg->vdev, where));
}

static void vortex_debug_bp_write_word(void *priv, u64 where, u32 word)
{
	struct vortex_debug *dbg = priv;

	vortex_debug_poke(dbg->vdev, where, word);
}

/* The target's memory as the session's breakpoints reach it. */
const struct vortex_dmseq_bp_ops vortex_debug_bp_ops = {
	.resolve = vortex_debug_bp_resolve,
	.release = vortex_debug_bp_release,
	.read_word = vortex_debug_bp_read_word,
	.write_word = vortex_debug_bp_write_word,
};

/**
 * vortex_debug_breakpoint_ioctl() - DRM_VORTEX_DEBUG_IOCTL_BREAKPOINT
 * @dbg: the session
 * @data: the batch, struct drm_vortex_debug_breakpoint; its @done is set
 *
 * Each entry under the DM lock, which the sequences that step over a
 * breakpoint hold too.
 *
 * Return: 0 or a negative errno (vortex_dmseq_bp_op()).
 */
int vortex_debug_breakpoint_ioctl(struct vortex_debug *dbg, void *data)
{
	struct drm_vortex_debug_breakpoint *args = data;
	struct vortex_device *vdev = dbg->vdev;
	struct drm_vortex_debug_bp_op *ops, *op;
	int ret = 0;

	args->done = 0;
	ops = vortex_debug_batch_in(dbg, "BREAKPOINT",
				    VORTEX_DEBUG_BATCH(struct drm_vortex_debug_breakpoint, args),
				    DRM_VORTEX_DEBUG_MAX_BREAKPOINTS, sizeof(*ops));
	if (IS_ERR(ops))
		return PTR_ERR(ops);
	for (; args->done < args->count; args->done++) {
		op = &ops[args->done];
		mutex_lock(&vdev->dm.lock);
		ret = vortex_dmseq_bp_op(&dbg->bps, op);
		mutex_unlock(&vdev->dm.lock);
		if (ret == -EINVAL)
			vortex_debug_reject(dbg, ret,
					    "BREAKPOINT: op %u, flags 0x%x, pad 0x%x, space %u, addr 0x%llx",
					    op->op, op->flags, op->pad, op->space, op->addr);
		if (ret)
			break;
	}
	kvfree(ops);
	return ret;
}

/* -------------------------------------------------------------- MEM */

/*
 * Bytes a debugger's MEM write moves under one hold of the DM lock: the
 * lock is the card's, and SUBMIT, run_job and recovery wait for it.  The
 * user's memory is never touched under it (it may fault, slowly: a
 * userfaultfd page held the card for 60 s), only this bounce buffer.
 */
#define VORTEX_DEBUG_MEM_CHUNK	SZ_64K

/*
 * @n bytes from @bounce to @addr of the target's space, a buffer at a
 * time, each held by a reference while it is copied (the target may close
 * its handle meanwhile; its memory is not handed out again until the copy
 * is done).  The breakpoints stay hidden (vortex_dmseq_bp_hide()).  DM
 * lock held.
 */
static int vortex_debug_mem_chunk(struct vortex_debug *dbg, u64 addr,
				  const u8 *bounce, u32 n)
{
	struct drm_gem_object *obj;
	u64 done, piece, vram;

	for (done = 0; done < n; done += piece) {
		obj = vortex_debug_target_bo(dbg, addr + done, &piece, &vram);
		if (!obj)
			return -ENXIO;	/* unmapped since it was checked */
		piece = min_t(u64, piece, n - done);
		memcpy_toio(vortex_debug_vram(dbg->vdev, vram), bounce + done, piece);
		drm_gem_object_put(obj);
	}
	vortex_dmseq_bp_hide(&dbg->bps, addr, n);
	/* Written code is fetched by the next step or resume. */
	wmb();
	return 0;
}

/* Bytes a read copies between two looks for a reschedule. */
#define VORTEX_DEBUG_MEM_READ_PIECE	SZ_1M

/*
 * A read, straight from VRAM to the user's buffer: one copy, where a
 * bounce buffer made two (issue 37: 0.40 of a buffer's read through its
 * mapping).  Nothing is locked while user memory is touched (a
 * userfaultfd page may stall it for minutes); a reference holds the
 * piece's buffer, so its VRAM is nobody else's meanwhile.  The CPU maps
 * VRAM write-combined, ordinary memory to its loads, as a client's own
 * mapping of the buffer reads it.  The breakpoints in the piece, taken
 * under the DM lock before the copy, then put back the words their
 * ebreaks replaced.  A breakpoint set or cleared by another thread of the
 * debugger during the read may show either way.
 */
static int vortex_debug_mem_read(struct vortex_debug *dbg, u64 addr,
				 u8 __user *ubuf, u32 len,
				 struct vortex_dmseq_hidden *hidden)
{
	struct vortex_device *vdev = dbg->vdev;
	struct drm_gem_object *obj;
	u32 done, n, nh, i, b;
	u64 avail, vram, off;
	int ret = 0;

	for (done = 0; !ret && done < len; done += n) {
		obj = vortex_debug_target_bo(dbg, addr + done, &avail, &vram);
		if (!obj)
			return -ENXIO;	/* unmapped since it was checked */
		n = min3(avail, (u64)len - done, (u64)VORTEX_DEBUG_MEM_READ_PIECE);
		mutex_lock(&vdev->dm.lock);
		nh = vortex_dmseq_bp_hidden(&dbg->bps, addr + done, n, hidden);
		mutex_unlock(&vdev->dm.lock);
		if (copy_to_user(ubuf + done,
				 (__force const void *)vortex_debug_vram(vdev, vram), n))
			ret = -EFAULT;
		for (i = 0; !ret && i < nh; i++)
			for (b = 0; b < 4; b++)
				if (vortex_dmseq_hidden_byte(&hidden[i], b, addr + done, n, &off) &&
				    put_user(((u8 *)&hidden[i].orig)[b], ubuf + done + off))
					ret = -EFAULT;
		drm_gem_object_put(obj);
		cond_resched();
	}
	return ret;
}

/*
 * One memory range.  The whole range is checked to be mapped first, so a
 * range running off the target's buffers fails before any byte moves.  A
 * write goes in chunks through @bounce: the DM lock is taken per chunk,
 * for the device side only (the breakpoints' kept words change with it),
 * and user memory is copied outside it.
 */
static int vortex_debug_mem_op(struct vortex_debug *dbg,
			       const struct drm_vortex_debug_mem_op *op,
			       u8 *bounce, struct vortex_dmseq_hidden *hidden)
{
	u8 __user *ubuf = u64_to_user_ptr(op->buf);
	struct vortex_device *vdev = dbg->vdev;
	u32 done, n;
	int ret;

	mutex_lock(&vdev->dm.lock);
	ret = vortex_debug_target_maps(dbg, op->addr, op->len) ? 0 : -ENXIO;
	mutex_unlock(&vdev->dm.lock);
	if (!ret && !(op->flags & DRM_VORTEX_DEBUG_MEM_WRITE))
		return vortex_debug_mem_read(dbg, op->addr, ubuf, op->len, hidden);

	for (done = 0; !ret && done < op->len; done += n) {
		n = min_t(u32, op->len - done, VORTEX_DEBUG_MEM_CHUNK);
		if (copy_from_user(bounce, ubuf + done, n))
			return -EFAULT;
		mutex_lock(&vdev->dm.lock);
		ret = vortex_debug_mem_chunk(dbg, op->addr + done, bounce, n);
		mutex_unlock(&vdev->dm.lock);
		cond_resched();
	}
	return ret;
}

/**
 * vortex_debug_mem_ioctl() - DRM_VORTEX_DEBUG_IOCTL_MEM
 * @dbg: the session
 * @data: the batch, struct drm_vortex_debug_mem; its @done is set
 *
 * Return: 0 or a negative errno (uapi/vortex_accel.h).
 */
int vortex_debug_mem_ioctl(struct vortex_debug *dbg, void *data)
{
	struct drm_vortex_debug_mem *args = data;
	struct drm_vortex_debug_mem_op *ops, *op;
	struct vortex_dmseq_hidden *hidden;
	u8 *bounce;
	int ret = 0;

	args->done = 0;
	ops = vortex_debug_batch_in(dbg, "MEM",
				    VORTEX_DEBUG_BATCH(struct drm_vortex_debug_mem, args),
				    DRM_VORTEX_DEBUG_MAX_MEM_OPS, sizeof(*ops));
	if (IS_ERR(ops))
		return PTR_ERR(ops);

	bounce = kvmalloc(VORTEX_DEBUG_MEM_CHUNK, GFP_KERNEL_ACCOUNT);
	hidden = kmalloc_array(DRM_VORTEX_DEBUG_MAX_BREAKPOINTS, sizeof(*hidden),
			       GFP_KERNEL_ACCOUNT);
	if (!bounce || !hidden) {
		ret = -ENOMEM;
		goto out;
	}
	for (; args->done < args->count; args->done++) {
		op = &ops[args->done];
		ret = vortex_dmseq_mem_op_check(op);
		if (ret) {
			vortex_debug_reject(dbg, ret,
					    "MEM: entry %u: flags 0x%x, pad 0x%x, space %u, len %u",
					    args->done, op->flags, op->pad, op->space, op->len);
			break;
		}
		ret = vortex_debug_mem_op(dbg, op, bounce, hidden);
		if (ret)
			break;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
	}
out:
	kfree(hidden);
	kvfree(bounce);
	kvfree(ops);
	return ret;
}
