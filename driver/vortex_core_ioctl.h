/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_CORE_IOCTL_H__
#define __VORTEX_CORE_IOCTL_H__

#include <linux/compiler_types.h>
#include <linux/errno.h>

#include "vortex_compat.h"

struct drm_file;
struct file;

/* Handles one syncobj array ioctl may name (the uapi says so too). */
#define VORTEX_SYNCOBJ_MAX_HANDLES	1024

long vortex_accel_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);
#ifdef CONFIG_COMPAT
long vortex_accel_compat_ioctl(struct file *filp, unsigned int cmd,
			       unsigned long arg);
#else
#define vortex_accel_compat_ioctl NULL
#endif

/* vortex_syncobj.c, on the kernels that need it (vortex_compat.h) */
#if VORTEX_DRM_SYNCOBJ_COUNT_WARNS
long vortex_syncobj_ioctl(struct drm_file *file, unsigned int cmd,
			  void __user *uarg);
#else
static inline long vortex_syncobj_ioctl(struct drm_file *file,
					unsigned int cmd, void __user *uarg)
{
	return -ENOTTY;
}
#endif

#endif /* __VORTEX_CORE_IOCTL_H__ */
