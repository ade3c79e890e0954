/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_CORE_IOCTL_H__
#define __VORTEX_CORE_IOCTL_H__

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

/* vortex_syncobj.c */
long vortex_syncobj_ioctl(struct drm_file *file, unsigned int cmd,
			  void __user *uarg);

#endif /* __VORTEX_CORE_IOCTL_H__ */
