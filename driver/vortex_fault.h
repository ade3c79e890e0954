/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_FAULT_H__
#define __VORTEX_FAULT_H__

#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "vortex_accel.h"

struct drm_device;
struct drm_file;
struct vortex_device;
struct vortex_file;

/**
 * struct vortex_fault_record - a file's last failed job (vortex_fault.c)
 */
struct vortex_fault_record {
	/** @lock: guards the rest; recovery writes, DRM_IOCTL_VORTEX_FAULT reads */
	spinlock_t lock;
	/** @valid: a job of the file has failed */
	bool valid;
	/** @info: how it failed, as DRM_IOCTL_VORTEX_FAULT gives it */
	struct drm_vortex_fault_info info;
	/**
	 * @dump_pending: its crash dump was captured and the dump's worker
	 * has not yet published (or dropped) it: @info.dump is not final
	 */
	bool dump_pending;
	/** @dump_settled: woken when @dump_pending ends */
	wait_queue_head_t dump_settled;
};

void vortex_fault_file_open(struct vortex_file *vfile);
void vortex_fault_read(struct vortex_device *vdev, struct drm_vortex_fault_info *f);
void vortex_fault_record(struct vortex_file *vfile, const struct drm_vortex_fault_info *f);
void vortex_fault_dump_captured(struct vortex_file *vfile, u64 job);
void vortex_fault_dump_published(struct vortex_file *vfile, u64 job, int devcd);
int vortex_fault_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* __VORTEX_FAULT_H__ */
