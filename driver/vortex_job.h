/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_JOB_H__
#define __VORTEX_JOB_H__

#include <drm/gpu_scheduler.h>

#include "vortex_code_object.h"
#include "vortex_regs.h"

struct drm_device;
struct drm_file;
struct drm_gem_object;
struct vortex_device;
struct vortex_file;

/**
 * struct vortex_job - one LAUNCH, from SUBMIT until the scheduler frees it
 */
struct vortex_job {
	/** @base: the scheduler's job */
	struct drm_sched_job base;
	/** @vdev: the card */
	struct vortex_device *vdev;
	/** @vfile: holds a reference */
	struct vortex_file *vfile;

	/** @bos: buffers the job uses, each with a reference */
	struct drm_gem_object **bos;
	/** @bo_flags: DRM_VORTEX_SUBMIT_BO_* of each of @bos */
	u32 *bo_flags;
	/** @bo_count: entries in @bos and @bo_flags */
	u32 bo_count;

	/** @launch: LAUNCH payload, validated */
	u32 launch[VX_LAUNCH_NDW];
	/** @seqno: the file's seqno of the job (SUBMIT's) */
	u64 seqno;
	/** @code: the code object holding the entry point, if registered */
	struct vortex_code_ref code;

	/** @hw_fence: set by run_job */
	struct dma_fence *hw_fence;
	/** @start_ns: when run_job put it on the card */
	u64 start_ns;
	/** @start_cycles: device clock at the same moment */
	u64 start_cycles;
};

int vortex_job_init(struct vortex_device *vdev);
void vortex_job_unplug(struct vortex_device *vdev);

int vortex_job_file_open(struct vortex_file *vfile);
void vortex_job_file_close(struct vortex_file *vfile);

void vortex_job_irq_fence(struct vortex_device *vdev);
void vortex_job_irq_error(struct vortex_device *vdev);

const char *vortex_err_name(u32 cause);

/* Drops what a job holds; for jobs that never reached the scheduler. */
void vortex_job_release(struct vortex_job *job);

/* vortex_submit.c */
int vortex_job_submit_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *file);
int vortex_job_wait_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *file);

#endif /* __VORTEX_JOB_H__ */
