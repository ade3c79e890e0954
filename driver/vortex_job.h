/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_JOB_H__
#define __VORTEX_JOB_H__

#include <drm/gpu_scheduler.h>

#include "vortex_code_object.h"
#include "vortex_regs.h"
#include "vortex_vm.h"

struct drm_device;
struct drm_file;
struct drm_gem_object;
struct vortex_device;
struct vortex_file;

#define VORTEX_JOB_FEW_BOS	4

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
	/** @few_bos: @bos of a job with few buffers, saving an allocation */
	struct drm_gem_object *few_bos[VORTEX_JOB_FEW_BOS];
	/** @few_bo_flags: @bo_flags of the same */
	u32 few_bo_flags[VORTEX_JOB_FEW_BOS];
	/** @bo_count: entries in @bos and @bo_flags */
	u32 bo_count;
	/** @user_bo_refs: buffer references counted in the user's bound */
	u32 user_bo_refs;

	/** @launch: LAUNCH payload, validated */
	u32 launch[VX_LAUNCH_NDW];
	/** @seqno: the file's seqno of the job (SUBMIT's) */
	u64 seqno;
	/** @code: the code object holding the entry point, if registered */
	struct vortex_code_ref code;

	/** @hw_fence: set when the job goes on the card */
	struct dma_fence *hw_fence;
	/**
	 * @inline_lane: SUBMIT put it on the card itself (the fast lane);
	 * it never reaches the scheduler and is freed by @release_work, or
	 * by SUBMIT if it ended before SUBMIT let go of it (@submit_owns)
	 */
	bool inline_lane;
	/** @submit_owns: SUBMIT still uses the job (under job_lock) */
	bool submit_owns;
	/** @ended: it left the card (under job_lock) */
	bool ended;
	/**
	 * @inline_ended: a fast-lane job that ended within SUBMIT's doorbell;
	 * @console_unread then says whether its file has console to read
	 */
	bool inline_ended;
	/** @console_unread: see @inline_ended */
	bool console_unread;
	/** @release_work: frees a fast-lane job that ended after SUBMIT */
	struct work_struct release_work;
	/** @vm_ticket: keeps closed buffers mapped while the job exists */
	struct vortex_vm_ticket vm_ticket;
	/** @start_ns: when run_job put it on the card */
	u64 start_ns;
};

int vortex_job_init(struct vortex_device *vdev);
void vortex_job_unplug(struct vortex_device *vdev);

int vortex_job_file_open(struct vortex_file *vfile);
void vortex_job_file_close(struct vortex_file *vfile);
void vortex_job_ndmreset(struct vortex_device *vdev);

void vortex_job_irq_fence(struct vortex_device *vdev);
void vortex_job_irq_error(struct vortex_device *vdev);

const char *vortex_err_name(u32 cause);

/* Drops what a job holds; for jobs that never reached the scheduler. */
void vortex_job_release(struct vortex_job *job);

bool vortex_job_fast_lane(struct vortex_device *vdev);
bool vortex_job_run_inline(struct vortex_job *job);
bool vortex_job_ended(struct vortex_file *vfile, u64 seqno, int *error);
void vortex_job_file_release(struct vortex_file *vfile);
void vortex_job_inline_done(struct vortex_job *job);
int vortex_job_sched_prepare(struct vortex_job *job);
void vortex_job_sched_unprepare(struct vortex_job *job);

/* vortex_submit.c */
int vortex_job_submit_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *file);
int vortex_job_wait_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *file);

#endif /* __VORTEX_JOB_H__ */
