// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: DRM core ioctls on the accel node
 *
 * An accel file is neither a primary nor a render node: it has no master,
 * no authentication and no modesetting.  Yet drm_ioctl() offers it the
 * whole core table, and some of those entries assume a master exists:
 * DRM_IOCTL_GET_MAGIC and DRM_IOCTL_GET_UNIQUE dereference the file's NULL
 * master (an Oops any user of the node can cause), and the syncobj array
 * ioctls pass any count_handles to kmalloc_array(), where 0xffffffff trips
 * the page allocator's WARN.  Upstream has fixed neither: 6.12 and 7.3
 * alike (drm_getmagic(), drm_getunique(), drm_syncobj_array_find() in
 * Debian's linux-source-7.3).  The fixes are in patches/, and
 * vortex_compat.h guards what is here only for them by the kernels that
 * need it (VORTEX_DRM_ACCEL_MASTER_OOPS, VORTEX_DRM_SYNCOBJ_COUNT_WARNS):
 * on a fixed kernel GET_MAGIC and GET_UNIQUE reach DRM, which refuses
 * them as the filter does, and the syncobj ioctls are DRM's own.
 *
 * The driver's file operations therefore let through only the core ioctls
 * that mean something here -- DRM_IOCTL_VERSION, DRM_IOCTL_GET_CAP,
 * DRM_IOCTL_GEM_CLOSE, the two PRIME ioctls and the syncobj family -- and
 * refuse every other core ioctl with -EOPNOTSUPP before DRM sees it.  The
 * syncobj ioctls that take an array of handles are refused with -EINVAL
 * when count_handles exceeds %VORTEX_SYNCOBJ_MAX_HANDLES.  The driver's
 * own ioctls (DRM_COMMAND_BASE and up) go straight to drm_ioctl().
 *
 * A count read here would be read again by DRM when it copies the
 * argument, and a second thread can rewrite it in between: so WAIT, RESET
 * and SIGNAL do not go to DRM at all on a kernel with the bug, the driver
 * serves them from one copy of their argument (vortex_syncobj.c).  The timeline ones are bounded
 * here and reach no allocation in DRM (no timeline syncobjs on this
 * driver: -EOPNOTSUPP).
 */

#include <linux/compat.h>
#include <linux/stddef.h>
#include <linux/uaccess.h>
#include <drm/drm.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>

#include "vortex_compat.h"
#include "vortex_core_ioctl.h"
#include "vortex_device.h"

/*
 * Where count_handles sits in the argument of a syncobj array ioctl, or -1
 * for a core ioctl that takes no array.
 */
static int vortex_syncobj_count_offset(unsigned int nr)
{
	switch (nr) {
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_WAIT):
		return offsetof(struct drm_syncobj_wait, count_handles);
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT):
		return offsetof(struct drm_syncobj_timeline_wait, count_handles);
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_RESET):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_SIGNAL):
		return offsetof(struct drm_syncobj_array, count_handles);
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_QUERY):
		return offsetof(struct drm_syncobj_timeline_array, count_handles);
	default:
		return -1;
	}
}

static bool vortex_core_ioctl_allowed(unsigned int nr)
{
	switch (nr) {
	case DRM_IOCTL_NR(DRM_IOCTL_VERSION):
	case DRM_IOCTL_NR(DRM_IOCTL_GET_CAP):
	case DRM_IOCTL_NR(DRM_IOCTL_GEM_CLOSE):
	case DRM_IOCTL_NR(DRM_IOCTL_PRIME_HANDLE_TO_FD):
	case DRM_IOCTL_NR(DRM_IOCTL_PRIME_FD_TO_HANDLE):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_CREATE):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_DESTROY):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_TRANSFER):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_EVENTFD):
		return true;
	case DRM_IOCTL_NR(DRM_IOCTL_GET_MAGIC):
	case DRM_IOCTL_NR(DRM_IOCTL_GET_UNIQUE):
		/* A fixed DRM refuses them itself, with the same errno. */
		return !VORTEX_DRM_ACCEL_MASTER_OOPS;
	default:
		return vortex_syncobj_count_offset(nr) >= 0;
	}
}

/* Whether @cmd is a syncobj array ioctl the driver serves itself. */
static bool vortex_syncobj_served(unsigned int cmd)
{
	if (!VORTEX_DRM_SYNCOBJ_COUNT_WARNS)
		return false;
	/* Any size: an older, shorter struct is zero-extended. */
	switch (DRM_IOCTL_NR(cmd)) {
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_WAIT):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_RESET):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_SIGNAL):
		return _IOC_TYPE(cmd) == DRM_IOCTL_BASE;
	default:
		return false;
	}
}

/*
 * Syncobjs made through the node count against the user's bound
 * (vortex_user.c): CREATE, and FD_TO_HANDLE, counted as making one even
 * when it imports a sync file into a syncobj that exists (its flags are
 * the caller's memory, which may change after a look); DESTROY gives one
 * back, and a closing file all of its own.  Returns what the call is
 * charged, or a negative errno.
 */
static int vortex_syncobj_charge(struct drm_file *file, unsigned int cmd)
{
	struct vortex_file *vfile = file->driver_priv;
	int ret;

	switch (DRM_IOCTL_NR(cmd)) {
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_CREATE):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE):
		ret = vortex_user_syncobj_add(vfile->user, 1);
		if (ret)
			return ret;
		atomic_inc(&vfile->syncobjs);
		return 1;
	default:
		return 0;
	}
}

/* After the call: a failed make gives its charge back, a destroy one. */
static void vortex_syncobj_settle(struct drm_file *file, unsigned int cmd,
				  int charged, long ret)
{
	struct vortex_file *vfile = file->driver_priv;
	int back = ret ? charged :
		   DRM_IOCTL_NR(cmd) == DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_DESTROY);

	if (back && atomic_read(&vfile->syncobjs) > 0) {
		atomic_dec(&vfile->syncobjs);
		vortex_user_syncobj_del(vfile->user, 1);
	}
}

/* 0, or why a core ioctl does not reach DRM. */
static long vortex_core_ioctl_check(unsigned int cmd, void __user *arg)
{
	unsigned int nr = DRM_IOCTL_NR(cmd);
	u32 __user *ucount;
	int offset;
	u32 count;

	if (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END)
		return 0;
	if (!vortex_core_ioctl_allowed(nr))
		return -EOPNOTSUPP;

	offset = vortex_syncobj_count_offset(nr);
	if (offset < 0)
		return 0;
	/* A short argument is DRM's to judge; only read what is there. */
	if (_IOC_SIZE(cmd) < offset + sizeof(count))
		return 0;
	ucount = arg + offset;
	if (get_user(count, ucount))
		return -EFAULT;
	return count > VORTEX_SYNCOBJ_MAX_HANDLES ? -EINVAL : 0;
}

/*
 * The filter, then the driver's own syncobj ioctls or @call (DRM's native
 * or compat entry) with the syncobj count settled around it.  @uarg is
 * @arg as a user pointer of the caller's ABI.
 */
static long vortex_core_ioctl_pass(struct file *filp, unsigned int cmd,
				   unsigned long arg, void __user *uarg,
				   long (*call)(struct file *, unsigned int, unsigned long))
{
	long ret = vortex_core_ioctl_check(cmd, uarg);
	int charged;

	if (ret)
		return ret;
	/* The three structs have the same layout for 32-bit callers. */
	if (vortex_syncobj_served(cmd))
		return vortex_syncobj_ioctl(filp->private_data, cmd, uarg);
	charged = vortex_syncobj_charge(filp->private_data, cmd);
	if (charged < 0)
		return charged;
	ret = call(filp, cmd, arg);
	vortex_syncobj_settle(filp->private_data, cmd, charged, ret);
	return ret;
}

/**
 * vortex_accel_ioctl() - &file_operations.unlocked_ioctl of the accel node
 * @filp: the file
 * @cmd: the ioctl
 * @arg: its argument
 *
 * Return: what drm_ioctl() returns, or the filter's refusal (see DOC above).
 */
long vortex_accel_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	return vortex_core_ioctl_pass(filp, cmd, arg, (void __user *)arg, drm_ioctl);
}

#ifdef CONFIG_COMPAT
/**
 * vortex_accel_compat_ioctl() - the same for 32-bit callers
 * @filp: the file
 * @cmd: the ioctl
 * @arg: its argument, a 32-bit pointer
 *
 * drm_compat_ioctl() calls some core handlers directly rather than through
 * drm_ioctl(), so the filter must stand in front of it too.
 *
 * Return: what drm_compat_ioctl() returns, or the filter's refusal.
 */
long vortex_accel_compat_ioctl(struct file *filp, unsigned int cmd,
			       unsigned long arg)
{
	return vortex_core_ioctl_pass(filp, cmd, arg, compat_ptr(arg), drm_compat_ioctl);
}
#endif
