/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_JOB_H__
#define __VORTEX_JOB_H__

#include <linux/atomic.h>
#include <linux/ratelimit_types.h>
#include <linux/workqueue.h>
#include <drm/drm_mm.h>
#include <drm/gpu_scheduler.h>

#include "vortex_code_object.h"
#include "vortex_regs.h"
#include "vortex_vm.h"

struct drm_device;
struct drm_file;
struct drm_gem_object;
struct vortex_device;
struct vortex_dump_ctx;
struct vortex_file;
struct vortex_handover;

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

/**
 * struct vortex_jobs - the job layer's state: ring, scheduler, the job on
 * the card
 *
 * Held by &vortex_device.jobs; only vortex_job.c writes it.  Other files
 * ask through the functions below (vortex_job_active_locked(),
 * vortex_job_fail_active_locked(), vortex_job_quiesce(), ...).  The lock
 * is &vortex_device.job_lock, which also guards the debug session pointer
 * and the interrupt mask, and is every hardware fence's lock.
 */
struct vortex_jobs {
	/** @ring_node: the ring's VRAM */
	struct drm_mm_node ring_node;
	/** @ring_size: bytes of ring, a power of two */
	u32 ring_size;
	/**
	 * @ring_tail: next byte offset to write in the ring.  Only run_job
	 * and recovery touch it, and recovery stops the scheduler's queue
	 * first, so they never run at the same time: no lock.
	 */
	u32 ring_tail;
	/** @sched: the scheduler that feeds the ring */
	struct drm_gpu_scheduler sched;
	/** @reset_wq: ordered: TDR and error work */
	struct workqueue_struct *reset_wq;
	/**
	 * @submit_wq: ordered, high priority: run_job and free_job.  A
	 * SUBMIT's run_job then preempts the submitting thread instead of
	 * waiting for it to block in WAIT, so the doorbell rings while that
	 * thread returns.
	 */
	struct workqueue_struct *submit_wq;
	/** @reset_work: recovery, queued on @reset_wq */
	struct work_struct reset_work;
	/** @fence_context: dma_fence context of the hardware fences */
	u64 fence_context;
	/** @emit_seqno: last hardware fence seqno: run_job only */
	u64 emit_seqno;
	/** @active_job: on the card, or NULL (job_lock) */
	struct vortex_job *active_job;
	/** @reset_error: -EIO from the ERROR IRQ or a debugger, else 0 (job_lock) */
	int reset_error;
	/**
	 * @cancel_pending: a closed file's job on the card must stop; cleared
	 * when that job leaves the card, whoever ends it (job_lock)
	 */
	bool cancel_pending;
	/** @cancel_seqno: hardware fence seqno of that job (job_lock) */
	u32 cancel_seqno;
	/** @job_count: jobs not yet freed; release waits for 0 */
	atomic_t job_count;
	/**
	 * @sched_jobs: jobs handed to the scheduler and not yet freed by it;
	 * changed under job_lock, where the fast lane checks it is zero
	 */
	int sched_jobs;
	/**
	 * @handover: what jobs given to the scheduler wait for while a
	 * fast-lane job is on the card, and after it until it opens
	 * (vortex_handover.c); a reference, or NULL (job_lock)
	 */
	struct vortex_handover *handover;
	/** @handover_context: dma_fence context of the handovers */
	u64 handover_context;
	/** @handover_seqno: the last handover's seqno (job_lock) */
	u64 handover_seqno;
	/** @inline_tdr: the timeout of a fast-lane job still on the card */
	struct delayed_work inline_tdr;
	/**
	 * @clock_mark: device clock when the last job ended (job_lock): the
	 * next job's cycles count from here
	 */
	u64 clock_mark;
	/** @fast_jobs: jobs that took the fast lane (job_lock; debugfs) */
	u64 fast_jobs;
	/** @recovery_start_ns: when the running recovery began */
	u64 recovery_start_ns;
	/**
	 * @fail_log: the rate limit of the card's failure lines (the
	 * kernel's default, 10 per 5 s); recovery prints them, so it is used
	 * on @reset_wq only
	 */
	struct ratelimit_state fail_log;
#if IS_ENABLED(CONFIG_DRM_ACCEL_VORTEX_DEBUG)
	/** @fail_log_reset: test hook: restarts @fail_log, on @reset_wq */
	struct work_struct fail_log_reset;
#endif
};

int vortex_job_init(struct vortex_device *vdev);
void vortex_job_unplug(struct vortex_device *vdev);

int vortex_job_file_open(struct vortex_file *vfile);
void vortex_job_file_close(struct vortex_file *vfile);
void vortex_job_ndmreset(struct vortex_device *vdev);

void vortex_job_irq_fence(struct vortex_device *vdev);
void vortex_job_irq_error(struct vortex_device *vdev);

/* Drops what a job holds; for jobs that never reached the scheduler. */
void vortex_job_release(struct vortex_job *job);

struct vortex_job *vortex_job_active_locked(struct vortex_device *vdev);
void vortex_job_fail_active_locked(struct vortex_device *vdev, int error);
void vortex_job_quiesce(struct vortex_device *vdev);
void vortex_job_resume(struct vortex_device *vdev);
void vortex_job_serialized(struct vortex_device *vdev, struct work_struct *work);
void vortex_job_account(struct vortex_device *vdev);
void vortex_job_ring_reset(struct vortex_device *vdev);
void vortex_job_clock_start(struct vortex_device *vdev);
void vortex_job_dump_ctx(struct vortex_device *vdev, struct vortex_job *job,
			 int error, struct vortex_dump_ctx *ctx);

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
