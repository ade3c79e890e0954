// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: The syncobj array ioctls, from one copy of their argument
 *
 * DRM_IOCTL_SYNCOBJ_WAIT, _RESET and _SIGNAL take an array of handles
 * whose length, count_handles, DRM passes unbounded to kmalloc_array()
 * (6.12 and 7.3 alike): a count near 2^32 trips the page allocator's
 * WARN.  A
 * filter that reads the count before drm_ioctl() cannot close that: DRM
 * copies the argument again, and a second thread of the caller rewrites
 * the count in between (10,705 of 220,623 calls got through in the hostile
 * run).  drm_ioctl_kernel() would take a kernel copy, but DRM exports none
 * of its syncobj handlers.
 *
 * So the driver serves these three itself, from one copy of the argument
 * and with DRM's exported syncobj helpers, with DRM's semantics and
 * errnos (drivers/gpu/drm/drm_syncobj.c): the count is bounded by
 * %VORTEX_SYNCOBJ_MAX_HANDLES (-EINVAL past it), a handle that names no
 * syncobj is -ENOENT, WAIT with no fence in a syncobj is -EINVAL unless
 * DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, a wait that times out is -ETIME.
 * WAIT_FOR_SUBMIT waits for a fence to arrive through
 * drm_syncobj_find_fence(), which bounds that wait itself; the caller's
 * timeout then applies to the fences.  The timeline ioctls never reach an
 * allocation (this driver has no timeline syncobjs: DRM answers
 * -EOPNOTSUPP first).
 *
 * Only for the kernels whose DRM has that bug (VORTEX_DRM_SYNCOBJ_COUNT_WARNS,
 * vortex_compat.h): on a fixed one the three go to DRM and this file
 * compiles to nothing.
 */

#include <linux/dma-fence.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_syncobj.h>
#include <drm/drm_utils.h>

#include "vortex_compat.h"
#include "vortex_core_ioctl.h"

#if VORTEX_DRM_SYNCOBJ_COUNT_WARNS

/*
 * The syncobjs named by @count handles at user address @uhandles, each
 * referenced; the handles themselves in *@handles, to kfree().
 */
static struct drm_syncobj **vortex_syncobj_find(struct drm_file *file,
						u64 uhandles, u32 count,
						u32 **handles)
{
	struct drm_syncobj **objs;
	u32 i;

	*handles = memdup_array_user(u64_to_user_ptr(uhandles), count,
				     sizeof(**handles));
	if (IS_ERR(*handles))
		return ERR_CAST(*handles);
	objs = kcalloc(count, sizeof(*objs), GFP_KERNEL_ACCOUNT);
	if (!objs) {
		kfree(*handles);
		return ERR_PTR(-ENOMEM);
	}
	for (i = 0; i < count; i++) {
		objs[i] = drm_syncobj_find(file, (*handles)[i]);
		if (!objs[i]) {
			while (i--)
				drm_syncobj_put(objs[i]);
			kfree(objs);
			kfree(*handles);
			return ERR_PTR(-ENOENT);
		}
	}
	return objs;
}

static void vortex_syncobj_put_all(struct drm_syncobj **objs, u32 count)
{
	u32 i;

	for (i = 0; i < count; i++)
		drm_syncobj_put(objs[i]);
	kfree(objs);
}

/* WAIT on @n fences: 0 with @first set, -ETIME, -ERESTARTSYS. */
static int vortex_syncobj_wait_fences(struct dma_fence **fences, u32 n,
				      bool all, signed long timeout, u32 *first)
{
	signed long left = timeout;
	u32 i;

	if (!all) {
		left = dma_fence_wait_any_timeout(fences, n, true, timeout, first);
		if (left < 0)
			return left;
		return left ? 0 : -ETIME;
	}
	for (i = 0; i < n; i++) {
		if (dma_fence_is_signaled(fences[i]))
			continue;
		if (!left)
			return -ETIME;
		left = dma_fence_wait_timeout(fences[i], true, left);
		if (left < 0)
			return left;
		if (!left)
			return -ETIME;
	}
	*first = 0;
	return 0;
}

static int vortex_syncobj_wait(struct drm_file *file, struct drm_syncobj_wait *args)
{
	const u32 flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
			  DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT |
			  DRM_SYNCOBJ_WAIT_FLAGS_WAIT_DEADLINE;
	struct drm_syncobj **objs;
	struct dma_fence **fences;
	u32 i, first = ~0u, *handles;
	int ret = 0;

	if (args->flags & ~flags)
		return -EINVAL;
	if (!args->count_handles)
		return 0;
	if (args->count_handles > VORTEX_SYNCOBJ_MAX_HANDLES)
		return -EINVAL;
	objs = vortex_syncobj_find(file, args->handles, args->count_handles, &handles);
	if (IS_ERR(objs))
		return PTR_ERR(objs);
	fences = kcalloc(args->count_handles, sizeof(*fences), GFP_KERNEL_ACCOUNT);
	if (!fences) {
		ret = -ENOMEM;
		goto out_put;
	}
	for (i = 0; i < args->count_handles && !ret; i++) {
		fences[i] = drm_syncobj_fence_get(objs[i]);
		if (fences[i])
			continue;
		if (!(args->flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT))
			ret = -EINVAL;
		else
			ret = drm_syncobj_find_fence(file, handles[i], 0,
						     DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
						     &fences[i]);
	}
	if (!ret && args->flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_DEADLINE)
		for (i = 0; i < args->count_handles; i++)
			dma_fence_set_deadline(fences[i], ns_to_ktime(args->deadline_nsec));
	if (!ret)
		ret = vortex_syncobj_wait_fences(fences, args->count_handles,
						 args->flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
						 drm_timeout_abs_to_jiffies(args->timeout_nsec),
						 &first);
	if (!ret)
		args->first_signaled = first;
	for (i = 0; i < args->count_handles; i++)
		dma_fence_put(fences[i]);
	kfree(fences);
out_put:
	vortex_syncobj_put_all(objs, args->count_handles);
	kfree(handles);
	return ret;
}

/* RESET (@signal false) or SIGNAL every syncobj of @args. */
static int vortex_syncobj_set(struct drm_file *file, struct drm_syncobj_array *args,
			      bool signal)
{
	struct drm_syncobj **objs;
	struct dma_fence *fence;
	u32 i, *handles;

	if (args->pad || !args->count_handles ||
	    args->count_handles > VORTEX_SYNCOBJ_MAX_HANDLES)
		return -EINVAL;
	objs = vortex_syncobj_find(file, args->handles, args->count_handles, &handles);
	if (IS_ERR(objs))
		return PTR_ERR(objs);
	kfree(handles);
	for (i = 0; i < args->count_handles; i++) {
		/* What drm_syncobj_assign_null_handle() puts there. */
		fence = signal ? dma_fence_allocate_private_stub(ktime_get()) : NULL;
		drm_syncobj_replace_fence(objs[i], fence);
		dma_fence_put(fence);
	}
	vortex_syncobj_put_all(objs, args->count_handles);
	return 0;
}

/**
 * vortex_syncobj_ioctl() - DRM_IOCTL_SYNCOBJ_{WAIT,RESET,SIGNAL} on the accel node
 * @file: the DRM file
 * @cmd: the ioctl, one of the three
 * @uarg: its argument
 *
 * Return: what DRM's handler would return (see DOC above).
 */
long vortex_syncobj_ioctl(struct drm_file *file, unsigned int cmd,
			  void __user *uarg)
{
	union {
		struct drm_syncobj_wait wait;
		struct drm_syncobj_array array;
	} args = {};
	size_t size = _IOC_SIZE(cmd);
	int ret;

	if (drm_dev_is_unplugged(file->minor->dev))
		return -ENODEV;

	/* Shorter (older) structs are zero-extended, as drm_ioctl() does. */
	if (size > sizeof(args))
		size = sizeof(args);
	if (copy_from_user(&args, uarg, size))
		return -EFAULT;

	switch (_IOC_NR(cmd)) {
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_WAIT):
		ret = vortex_syncobj_wait(file, &args.wait);
		break;
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_RESET):
		ret = vortex_syncobj_set(file, &args.array, false);
		break;
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_SIGNAL):
		ret = vortex_syncobj_set(file, &args.array, true);
		break;
	default:
		return -ENOTTY;
	}
	/* DRM copies the struct back whatever the handler returned. */
	if (_IOC_DIR(cmd) & _IOC_READ && copy_to_user(uarg, &args, size))
		return -EFAULT;
	return ret;
}

#endif /* VORTEX_DRM_SYNCOBJ_COUNT_WARNS */
