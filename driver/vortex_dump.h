/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_DUMP_H__
#define __VORTEX_DUMP_H__

#include <linux/gfp.h>

struct drm_device;
struct drm_file;
struct vortex_device;
struct vortex_file;
struct vortex_job;

/*
 * Allocations while the card is frozen in recovery: fail rather than
 * retry or warn (a dump then says what it lacks).
 */
#define VORTEX_DUMP_GFP		(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN)

int vortex_dump_capture(struct vortex_device *vdev, struct vortex_job *job,
			int error);
int vortex_dump_init(struct vortex_device *vdev);
void vortex_dump_fini(struct vortex_device *vdev);
void vortex_dump_file_open(struct vortex_file *vfile);
int vortex_dump_config_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file);

#endif /* __VORTEX_DUMP_H__ */
