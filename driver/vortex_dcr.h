/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_DCR_H__
#define __VORTEX_DCR_H__

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct vortex_file;

/* DCRs a file has: STARTUP_ADDR0 .. MPM_CLASS (uapi DRM_VORTEX_DCR_*). */
#define VORTEX_DCR_COUNT	5

int vortex_dcr_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
void vortex_dcr_startup(struct vortex_file *vfile, u64 *pc, u64 *arg);

#endif /* __VORTEX_DCR_H__ */
