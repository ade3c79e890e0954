// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Jobs, the command ring and recovery
 *
 * Every SUBMIT becomes one &struct vortex_job pushed to the open file's
 * &drm_sched_entity.  A single &drm_gpu_scheduler feeds the card's single
 * command ring with a credit limit of one, so at most one job is on the
 * card at any time: an error or a hang always belongs to the active job,
 * and recovery never has to sort innocent jobs from guilty ones.
 *
 * run_job writes LAUNCH and FENCE(seqno, IRQ) into the ring and rings the
 * doorbell; the FENCE interrupt signals the job's hardware fence, and the
 * scheduler turns that into the job's finished fence, which is what WAIT
 * and out-syncobjs see.  On a card with the fast doorbell, a short job's
 * FENCE executes within the doorbell write and raises no interrupt: the
 * driver reads the fence record in VRAM right after the write instead
 * (vortex_fence_wb.c; FENCE_SEQNO on a card without one).
 *
 * A job that waits for nothing and finds the card idle skips the scheduler
 * altogether: SUBMIT puts it on the card the same way (the fast lane,
 * vortex_job_run_inline()), and its hardware fence is what WAIT sees.
 *
 * Four things end a job early: the scheduler's timeout (-ETIMEDOUT), the
 * ERROR interrupt (-EIO), the closing of the file that owns the job
 * (-ECANCELED) and hot-unplug (-ECANCELED).  They can race with the job's
 * own end and with each other in any order; &vortex_device.job_lock keeps
 * the rule that a job is ended exactly once, by whoever finds it still on
 * the card first (see its kernel-doc).  The first three go through
 * vortex_job_recover() on the ordered reset workqueue (which is also the
 * scheduler's timeout queue, so they never run at the same time).
 * Recovery stops the scheduler's queue, freezes the interrupt and checks,
 * by fence seqno, that the job it was asked to stop is still the one on
 * the card.  If it is not (it ended meanwhile, and another job may be
 * running already), recovery leaves the card and that job alone.  If it
 * is, it gives vortex_job_capture_hang() the card exactly as the failure
 * left it, resets the card, fails the job's hardware fence with the error
 * and restarts the scheduler, which then runs the next job as if nothing
 * happened.
 *
 * SUBMIT and WAIT, the ioctls that make and watch jobs, are in
 * vortex_submit.c.
 *
 * Hot-unplug fails the job on the card with -ECANCELED, and run_job refuses
 * (-ECANCELED) every job that reaches it afterwards, so queued work drains
 * without hardware and every waiter wakes up.
 */

#include <linux/debugfs.h>
#include <linux/dma-fence.h>
#include <linux/interrupt.h>
#include <linux/ratelimit.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "vortex_accel.h"
#include "vortex_causes.h"
#include "vortex_compat.h"
#include "vortex_debug.h"
#include "vortex_debugfs.h"
#include "vortex_device.h"
#include "vortex_dump.h"
#include "vortex_fault.h"
#include "vortex_gem.h"
#include "vortex_handover.h"
#include "vortex_job.h"
#include "vortex_vm.h"

/* One job on the card at a time needs only a few dwords of ring. */
#define VORTEX_RING_SIZE	VX_RING_SIZE_MIN

static struct vortex_job *to_vortex_job(struct drm_sched_job *sched_job)
{
	return container_of(sched_job, struct vortex_job, base);
}

static const char *vortex_fence_get_driver_name(struct dma_fence *fence)
{
	return "vortex";
}

static const char *vortex_fence_get_timeline_name(struct dma_fence *fence)
{
	return "vortex-ring";
}

static const struct dma_fence_ops vortex_fence_ops = {
	.get_driver_name = vortex_fence_get_driver_name,
	.get_timeline_name = vortex_fence_get_timeline_name,
};

/* The hardware fence is allocated at SUBMIT, initialised by run_job. */
static bool vortex_job_has_run(struct vortex_job *job)
{
	return dma_fence_was_initialized(job->hw_fence);
}

/*
 * vortex_job_end_locked() - the job left the card: account and signal
 * @error: 0, or why it did not complete
 * @cycles: device clock now, or 0 when the card cannot be read
 */
static void vortex_job_end_locked(struct vortex_device *vdev,
				  struct vortex_job *job, int error, u64 cycles)
{
	ktime_t now = ktime_get();	/* the fence's timestamp too */

	lockdep_assert_held(&vdev->job_lock);

	vdev->jobs.active_job = NULL;
	/*
	 * A cancel asked for this job is answered, whoever ended it: recovery
	 * for an ERROR that came first takes reset_error and ends the job
	 * without looking at the cancel, which would otherwise stay pending
	 * and keep the fast lane shut until the next recovery.
	 */
	if (vdev->jobs.cancel_pending &&
	    vdev->jobs.cancel_seqno == lower_32_bits(job->hw_fence->seqno))
		vdev->jobs.cancel_pending = false;
	atomic64_add(ktime_to_ns(now) - job->start_ns, &job->vfile->engine_ns);
	/*
	 * The card's clock stands still while nothing runs, and one job runs
	 * at a time: its cycles are those since the last job ended, so a job
	 * costs one clock read, not two.
	 */
	if (cycles > vdev->jobs.clock_mark) {
		atomic64_add(cycles - vdev->jobs.clock_mark, &job->vfile->engine_cycles);
		vdev->jobs.clock_mark = cycles;
	}
	/* Off the card: buffers closed meanwhile may go (vortex_vm.c). */
	vortex_vm_job_end(job->vfile->vm, &job->vm_ticket);
	if (error)
		dma_fence_set_error(job->hw_fence, error);
	dma_fence_signal_timestamp_locked(job->hw_fence, now);
	job->ended = true;
	/* The jobs behind a fast-lane job may go, in the scheduler's order. */
	if (job->inline_lane && vdev->jobs.handover)
		vortex_handover_open(vdev->jobs.handover, vdev->jobs.submit_wq);
	/*
	 * WAIT finds the job done from here on, though the scheduler's
	 * finished fence follows only once gpu_sched has taken the hardware
	 * fence from run_job (a job can end before that); so a WAIT after the
	 * debugger's FINISHED event finds the job done.
	 */
	atomic64_set_release(&job->vfile->ended[job->seqno % VORTEX_WAIT_HISTORY],
			     job->seqno << 8 | (u8)-error);
	vortex_debug_job_end_locked(vdev, job, error);
	/*
	 * Its timer has nothing left to time (one already running finds no
	 * fast-lane job on the card).  Nothing else frees a fast-lane job:
	 * the scheduler never saw it.
	 */
	if (job->inline_lane) {
		cancel_delayed_work(&vdev->jobs.inline_tdr);
		if (!job->submit_owns)
			queue_work(system_wq, &job->release_work);
	}
}

/* End whatever is on the card; used when the card cannot be asked. */
static void vortex_job_end_active(struct vortex_device *vdev, int error)
{
	unsigned long flags;

	spin_lock_irqsave(&vdev->job_lock, flags);
	if (vdev->jobs.active_job)
		vortex_job_end_locked(vdev, vdev->jobs.active_job, error, 0);
	vdev->jobs.reset_error = 0;
	vdev->jobs.cancel_pending = false;
	spin_unlock_irqrestore(&vdev->job_lock, flags);
}

/* Whether a FENCE_SEQNO of @seqno means @job's FENCE has executed. */
static bool vortex_job_fence_passed(struct vortex_job *job, u32 seqno)
{
	return (s32)(seqno - lower_32_bits(job->hw_fence->seqno)) >= 0;
}

/*
 * Ends the active job if its FENCE has executed.  @in_doorbell: right
 * after a fast doorbell, where the fence record (vortex_fence_wb.c) says
 * so from memory, clock included; on a card without one, FENCE_SEQNO and
 * the low word of the clock, enough for a job that ended within the
 * doorbell's budget.
 */
static void vortex_job_fence(struct vortex_device *vdev, bool in_doorbell)
{
	struct vortex_fence_rec rec;
	struct vortex_job *job;
	unsigned long flags;
	bool wb;
	u32 seqno;
	u64 now;

	wb = in_doorbell && vortex_fence_wb_read(vdev, &rec);
	seqno = wb ? rec.seqno : vortex_read(vdev, VX_REG_FENCE_SEQNO);
	spin_lock_irqsave(&vdev->job_lock, flags);
	job = vdev->jobs.active_job;
	if (job && vortex_job_fence_passed(job, seqno)) {
		if (wb)
			now = rec.clock;
		else if (in_doorbell)
			now = vdev->jobs.clock_mark + (u32)(vortex_read(vdev, VX_REG_CLOCK_LO) -
						       lower_32_bits(vdev->jobs.clock_mark));
		else
			now = vortex_device_clock(vdev);
		vortex_job_end_locked(vdev, job, 0, now);
	}
	spin_unlock_irqrestore(&vdev->job_lock, flags);
}

/*
 * Whether the console has anything of @job, ended: with the fence record
 * of its FENCE, CONS_TAIL from there rather than from the register.
 */
static bool vortex_job_console_end(struct vortex_device *vdev,
				   struct vortex_job *job)
{
	struct vortex_fence_rec rec;

	if (vortex_fence_wb_read(vdev, &rec) &&
	    rec.seqno == lower_32_bits(job->hw_fence->seqno))
		return vortex_console_job_end(vdev, &rec.cons_tail);
	return vortex_console_job_end(vdev, NULL);
}

/**
 * vortex_job_irq_fence() - the FENCE interrupt: the job on the card ended
 * @vdev: the device
 */
void vortex_job_irq_fence(struct vortex_device *vdev)
{
	vortex_job_fence(vdev, false);
}

/**
 * vortex_job_irq_error() - the ERROR interrupt: the job faulted
 * @vdev: the device
 *
 * The card is reset from the reset queue, unless a debugger keeps it
 * frozen for its target.
 */
void vortex_job_irq_error(struct vortex_device *vdev)
{
	bool for_debugger;

	/* With a debugger on the job, the card stays frozen for it. */
	spin_lock(&vdev->job_lock);
	for_debugger = vortex_debug_irq_error(vdev);
	if (!for_debugger)
		vortex_job_fail_active_locked(vdev, -EIO);
	spin_unlock(&vdev->job_lock);
}

/**
 * vortex_job_fail_active_locked() - end the job on the card with @error
 * @vdev: the device; job_lock held
 * @error: -EIO (an ERROR, or one a debugger kept frozen)
 *
 * Recovery, queued here, resets the card, fails the job on it (if any)
 * and lets the next job run.  Set under the caller's job_lock, so a
 * timeout that looks meanwhile sees the error, not a job to time out.
 */
void vortex_job_fail_active_locked(struct vortex_device *vdev, int error)
{
	lockdep_assert_held(&vdev->job_lock);
	vdev->jobs.reset_error = error;
	queue_work(vdev->jobs.reset_wq, &vdev->jobs.reset_work);
}

/**
 * vortex_job_active_locked() - the job on the card
 * @vdev: the device; job_lock held, so the job cannot be freed meanwhile
 *
 * Return: the job, or NULL.
 */
struct vortex_job *vortex_job_active_locked(struct vortex_device *vdev)
{
	lockdep_assert_held(&vdev->job_lock);
	return vdev->jobs.active_job;
}

/**
 * vortex_job_quiesce() - no job starts or is freed until vortex_job_resume()
 * @vdev: the device; on the reset queue (vortex_job_serialized()), so
 *	recovery cannot restart the scheduler meanwhile
 *
 * Stops the scheduler's queue, as recovery does, for a look at the card
 * (a debugger's COREDUMP).  A job on the card may still end.  Take the DM
 * lock after this, never before (run_job takes it: "Lock order").
 */
void vortex_job_quiesce(struct vortex_device *vdev)
{
	drm_sched_wqueue_stop(&vdev->jobs.sched);
}

/**
 * vortex_job_resume() - undo vortex_job_quiesce()
 * @vdev: the device
 */
void vortex_job_resume(struct vortex_device *vdev)
{
	drm_sched_wqueue_start(&vdev->jobs.sched);
}

/**
 * vortex_job_serialized() - run @work where recovery runs, and wait for it
 * @vdev: the device
 * @work: initialised by the caller
 *
 * On the ordered reset queue, so never beside recovery or a timeout.
 */
void vortex_job_serialized(struct vortex_device *vdev, struct work_struct *work)
{
	queue_work(vdev->jobs.reset_wq, work);
	flush_work(work);
}

/**
 * vortex_job_account() - count a new job; vortex_job_release() uncounts it
 * @vdev: the device
 *
 * Unbinding waits until the count is back at zero (vortex_job_unplug()).
 */
void vortex_job_account(struct vortex_device *vdev)
{
	atomic_inc(&vdev->jobs.job_count);
}

/**
 * vortex_job_ring_reset() - point the card at an empty ring
 * @vdev: the device, just reset (vortex_device_reset()); nothing writes the
 *	ring meanwhile
 */
void vortex_job_ring_reset(struct vortex_device *vdev)
{
	vortex_write(vdev, VX_REG_RING_BASE, vdev->devaddr + vdev->jobs.ring_node.start);
	vortex_write(vdev, VX_REG_RING_SIZE, vdev->jobs.ring_size);
	vortex_write(vdev, VX_REG_RING_TAIL, 0);
	vortex_write(vdev, VX_REG_RING_CTRL, VX_RING_CTRL_ENABLE);
	vdev->jobs.ring_tail = 0;
}

/**
 * vortex_job_clock_start() - jobs' cycles count from the card's clock now
 * @vdev: the device at probe, nothing on it; the clock survives resets
 */
void vortex_job_clock_start(struct vortex_device *vdev)
{
	vdev->jobs.clock_mark = vortex_device_clock(vdev);
}

static void vortex_ring_emit(struct vortex_device *vdev, u32 dw)
{
	writel(dw, vdev->vram + vdev->jobs.ring_node.start + vdev->jobs.ring_tail);
	vdev->jobs.ring_tail = (vdev->jobs.ring_tail + 4) & (vdev->jobs.ring_size - 1);
}

/*
 * Makes @job the job on the card, unless its file is closing: the close
 * sets vfile->closed and looks at @active_job under the same lock, so
 * either it finds this job there and cancels it, or this finds the flag.
 * The fence is set up before the IRQ handler can find the job.
 */
static int vortex_job_activate_locked(struct vortex_device *vdev,
				      struct vortex_job *job)
{
	lockdep_assert_held(&vdev->job_lock);
	if (job->vfile->closed)
		return -ECANCELED;
	dma_fence_init(job->hw_fence, &vortex_fence_ops, &vdev->job_lock,
		       vdev->jobs.fence_context, ++vdev->jobs.emit_seqno);
	vdev->jobs.active_job = job;
	job->start_ns = ktime_get_ns();
	return 0;
}

/* Writes the active job's packets and rings the doorbell; DM lock held. */
static void vortex_job_emit(struct vortex_device *vdev, struct vortex_job *job)
{
	int i;

	vortex_console_job_start(vdev, job->vfile);
	vortex_debug_job_start(vdev, job);
	vortex_vm_switch(job->vfile->vm);

	/*
	 * With one job in flight the CP has consumed the whole ring by the
	 * time the next job runs (the previous FENCE executed, or recovery
	 * reset the ring), so there is always room.
	 */
	vortex_ring_emit(vdev, VX_PKT_HDR(VX_PKT_LAUNCH, VX_LAUNCH_NDW));
	for (i = 0; i < VX_LAUNCH_NDW; i++)
		vortex_ring_emit(vdev, job->launch[i]);
	vortex_ring_emit(vdev, VX_PKT_HDR(VX_PKT_FENCE, VX_FENCE_NDW));
	vortex_ring_emit(vdev, lower_32_bits(job->hw_fence->seqno));
	vortex_ring_emit(vdev, VX_FENCE_FLAG_IRQ);
	/* The packets sit in write-combining buffers until flushed. */
	wmb();

	if (vdev->caps & VX_CAPS_FAST_DOORBELL) {
		/* A short job ends inside this write, and its FENCE is silent. */
		vortex_write(vdev, VX_REG_DOORBELL, vdev->jobs.ring_tail);
		vortex_job_fence(vdev, true);
	} else {
		vortex_write(vdev, VX_REG_RING_TAIL, vdev->jobs.ring_tail);
		vortex_write(vdev, VX_REG_DOORBELL, 1);
	}
}

static struct dma_fence *vortex_job_do_run(struct drm_sched_job *sched_job)
{
	struct vortex_job *job = to_vortex_job(sched_job);
	struct vortex_device *vdev = job->vdev;
	unsigned long flags;
	int ret, idx;

	/* A failed in-fence, or cancelled while queued. */
	if (unlikely(sched_job->s_fence->finished.error))
		return ERR_PTR(sched_job->s_fence->finished.error);

	vortex_gate_pass(&vdev->run_gate);
	if (!drm_dev_enter(&vdev->drm, &idx))
		return ERR_PTR(-ECANCELED);

	/* Jobs go on the card only under the DM lock (vortex_dm.h). */
	mutex_lock(&vdev->dm.lock);
	spin_lock_irqsave(&vdev->job_lock, flags);
	ret = vortex_job_activate_locked(vdev, job);
	spin_unlock_irqrestore(&vdev->job_lock, flags);
	if (!ret)
		vortex_job_emit(vdev, job);
	mutex_unlock(&vdev->dm.lock);
	drm_dev_exit(idx);
	if (ret)
		return ERR_PTR(ret);	/* a refused job keeps an unused fence */

	/* The job is on the card; the scheduler hears of its fence next. */
	vortex_gate_pass(&vdev->ran_gate);
	/* One reference for the scheduler; the job keeps its own. */
	return dma_fence_get(job->hw_fence);
}

/* run_job is a fence-signalling path (see vortex_job_timedout()). */
static struct dma_fence *vortex_job_run(struct drm_sched_job *sched_job)
{
	bool cookie = dma_fence_begin_signalling();
	struct dma_fence *fence = vortex_job_do_run(sched_job);

	dma_fence_end_signalling(cookie);
	return fence;
}

/**
 * vortex_job_ended() - whether a file's job has left the card
 * @vfile: the file
 * @seqno: the file's job number, within %VORTEX_WAIT_HISTORY of its last
 * @error: receives 0 or why the job did not complete
 *
 * True as soon as the job's hardware fence has signalled, which may be
 * before the scheduler's finished fence does (struct vortex_file @ended).
 *
 * Return: true if it has.
 */
bool vortex_job_ended(struct vortex_file *vfile, u64 seqno, int *error)
{
	s64 v = atomic64_read_acquire(&vfile->ended[seqno % VORTEX_WAIT_HISTORY]);

	if ((u64)v >> 8 != seqno)
		return false;
	*error = -(int)(v & 0xff);
	return true;
}

/**
 * vortex_job_dump_ctx() - what a crash dump needs of the job layer
 * @vdev: the device; DM lock held, the scheduler's queue stopped
 * @job: the job to dump, or NULL
 * @error: -ETIMEDOUT or -EIO in recovery; 0 for a debugger's request
 * @ctx: filled in
 */
void vortex_job_dump_ctx(struct vortex_device *vdev, struct vortex_job *job,
			 int error, struct vortex_dump_ctx *ctx)
{
	*ctx = (struct vortex_dump_ctx) {
		.job = job, .error = error,
		.start_ns = error ? vdev->jobs.recovery_start_ns : ktime_get_ns(),
		.last_fence = lower_32_bits(vdev->jobs.emit_seqno),
		.ring_offset = vdev->jobs.ring_node.start,
		.ring_size = vdev->jobs.ring_size,
	};
}

/* Captures the card for a crash dump, which its worker then publishes. */
static void vortex_job_capture(struct vortex_device *vdev, struct vortex_job *job,
			       int error)
{
	struct vortex_dump_ctx ctx;

	vortex_job_dump_ctx(vdev, job, error, &ctx);
	vortex_dump_capture(vdev, &ctx);
}

/* The failure's line in the kernel log, within the card's rate limit. */
static void vortex_job_log_failure(struct vortex_device *vdev, const char *who,
				   const struct drm_vortex_fault_info *f)
{
	if (!__ratelimit(&vdev->jobs.fail_log))
		return;
	if (f->cause == VX_ERR_NONE)
		drm_err(&vdev->drm, "%s timed out: no end after %u ms, card status 0x%x\n",
			who, vortex_job_timeout_ms, vortex_read(vdev, VX_REG_STATUS));
	else
		drm_err(&vdev->drm,
			"%s failed: %s (cause %u) in warp %u lane %u at pc 0x%08x, addr 0x%08x, ring 0x%x\n",
			who, vx_cause_text(f->cause), f->cause, f->warp, f->lane,
			f->pc, f->addr, vortex_read(vdev, VX_REG_ERR_PKT));
}

/**
 * vortex_job_capture_hang() - the crash-dump hook
 * @vdev: the device
 * @job: the job that failed, or NULL if the card failed with nothing on it
 * @error: -ETIMEDOUT, -EIO or -ECANCELED
 *
 * Called from vortex_job_recover() with the scheduler stopped, the card's
 * interrupt masked and the card not yet reset: every warp is frozen where
 * it was, the error capture registers hold the fault, and the job's buffers
 * (job->bos, those with DRM_VORTEX_SUBMIT_BO_DUMP in job->bo_flags) are
 * still referenced.  Logs the failure and captures the crash dump
 * (vortex_dump.c), which is published later, by the dump's worker; the DM
 * lock is held.
 */
static void vortex_job_capture_hang(struct vortex_device *vdev,
				    struct vortex_job *job, int error)
{
	struct drm_vortex_fault_info f = {
		.job = job ? job->seqno : 0, .status = error, .dump = -1,
	};

	if (error == -ECANCELED)
		return;
	vortex_fault_read(vdev, &f);
	if (job)
		vortex_fault_record(job->vfile, &f);

	vortex_job_log_failure(vdev, job ? "job" : "card, with no job,", &f);
	vortex_job_capture(vdev, job, error);
}

/*
 * What recovery must do, decided with the interrupt quiet: an ERROR from the
 * card always means a reset, and the job on the card (if any) gets -EIO;
 * otherwise @error applies only if @victim is still the job on the card.
 */
static int vortex_job_recover_error(struct vortex_device *vdev, u32 victim,
				    int error)
{
	struct vortex_job *job;
	unsigned long flags;

	spin_lock_irqsave(&vdev->job_lock, flags);
	job = vdev->jobs.active_job;
	if (vdev->jobs.reset_error)
		error = vdev->jobs.reset_error;
	else if (!job || lower_32_bits(job->hw_fence->seqno) != victim)
		error = 0;
	spin_unlock_irqrestore(&vdev->job_lock, flags);
	return error;
}

/**
 * vortex_job_recover() - stop the job on the card and get the card going again
 * @vdev: the device
 * @bad: the job the scheduler timed out, or NULL
 * @victim: hardware fence seqno of the job to stop
 * @error: what that job ends with (-ETIMEDOUT, -ECANCELED)
 *
 * A pending ERROR from the card overrides @victim and @error (-EIO).  When
 * there is nothing to stop any more (the job ended meanwhile and another
 * may be running already, or the card is gone), neither the card nor the
 * job on it is touched and the scheduler goes on as it was: stopping and
 * restarting it would cancel the innocent job (see &vortex_device.job_lock).
 * Runs on the ordered reset workqueue only.
 *
 * Return: true if a job was ended (or the card reset for an ERROR with no
 * job) and the scheduler restarted; false if nothing was done, in which
 * case @bad is still the caller's.
 */
static bool vortex_job_recover(struct vortex_device *vdev,
			       struct drm_sched_job *bad, u32 victim, int error)
{
	struct vortex_job *failed = NULL;
	unsigned long flags;
	u64 cycles = 0;
	bool cookie;
	int idx;

	vdev->jobs.recovery_start_ns = ktime_get_ns();
	/* No run_job, no free_job until restarted. */
	drm_sched_wqueue_stop(&vdev->jobs.sched);
	/*
	 * The failed job's fence waits on what follows.  Not on the stop
	 * above, which waits for run_job, a signalling section itself that
	 * never waits for recovery (lockdep cannot tell, and would call the
	 * nesting a cycle).
	 */
	cookie = dma_fence_begin_signalling();

	if (drm_dev_enter(&vdev->drm, &idx)) {
		/* After the queue stopped: run_job takes the DM lock too. */
		mutex_lock(&vdev->dm.lock);
		vortex_device_irq_disable(vdev);
		synchronize_irq(vdev->irq);
		error = vortex_job_recover_error(vdev, victim, error);
		if (error) {
			failed = READ_ONCE(vdev->jobs.active_job);
			vortex_job_capture_hang(vdev, failed, error);
			cycles = vortex_device_clock(vdev);
			vortex_device_reset(vdev);
		} else {
			/* A FENCE that came meanwhile is still pending. */
			vortex_device_irq_enable(vdev);
		}
		mutex_unlock(&vdev->dm.lock);
		drm_dev_exit(idx);
	} else {
		/* Gone: vortex_job_unplug() failed the job on the card. */
		error = 0;
	}

	if (!error) {
		drm_sched_wqueue_start(&vdev->jobs.sched);
		dma_fence_end_signalling(cookie);
		return false;
	}

	spin_lock_irqsave(&vdev->job_lock, flags);
	if (vdev->jobs.active_job)
		vortex_job_end_locked(vdev, vdev->jobs.active_job, error, cycles);
	vdev->jobs.reset_error = 0;
	spin_unlock_irqrestore(&vdev->job_lock, flags);
	/*
	 * The failed job's fence has signalled: what follows retires and
	 * frees jobs (their buffers' mappings, under &vortex_vm.lock, which
	 * is held around allocations), as free_job always does, outside the
	 * signalling section.
	 */
	dma_fence_end_signalling(cookie);

	/*
	 * No hardware fence is outstanding now (one job at a time, and the
	 * queue is stopped), so drm_sched_stop() only retires finished jobs
	 * (leaving @bad to drm_sched_job_timedout() to free) and
	 * drm_sched_start() cancels nothing; the scheduler then goes on with
	 * the next job.
	 */
	drm_sched_stop(&vdev->jobs.sched, bad);
	drm_sched_start(&vdev->jobs.sched, 0);
	return true;
}

/* Whether the job is over as far as the driver can tell. */
static bool vortex_job_is_done(struct vortex_job *job)
{
	return dma_fence_is_signaled(&job->base.s_fence->finished) ||
	       !vortex_job_has_run(job) || dma_fence_is_signaled(job->hw_fence);
}

/*
 * job_timeout_ms may change at run time (the module parameter is writable).
 * The scheduler's timer period follows it: gpu_sched reads its timeout only
 * when it arms the timer (drm_sched_start_timeout(), as it begins a job or
 * puts a spared one back), and this runs before both, from prepare_job and
 * the timeout handler.  Returns the limit in force, in ms.
 */
static u32 vortex_job_sync_timeout(struct vortex_device *vdev)
{
	u32 ms = READ_ONCE(vortex_job_timeout_ms);

	WRITE_ONCE(vdev->jobs.sched.timeout, msecs_to_jiffies(ms));
	return ms;
}

/* Whether @job, on the card, has run for the limit in force now. */
static bool vortex_job_timeout_due(struct vortex_device *vdev,
				   struct vortex_job *job)
{
	u32 ms = vortex_job_sync_timeout(vdev);

	return ktime_get_ns() - job->start_ns >= (u64)ms * NSEC_PER_MSEC;
}

/* Whether @job, found by its timer, has really hung (a signalling section). */
static bool vortex_job_hang_due(struct vortex_job *job)
{
	struct vortex_device *vdev = job->vdev;
	int idx;

	/*
	 * Spurious if the job ended meanwhile: either its fence is already
	 * signalled, or its interrupt is still being handled.  The next job
	 * may be on the card by now; it is none of this handler's business.
	 */
	if (!vortex_job_is_done(job) && drm_dev_enter(&vdev->drm, &idx)) {
		synchronize_irq(vdev->irq);
		drm_dev_exit(idx);
	}
	if (vortex_job_is_done(job))
		return false;
	/* Halted by a debugger, or frozen for it: the clock stands still. */
	if (vortex_debug_job_paused(vdev, job))
		return false;
	/* job_timeout_ms was raised since the timer was armed: not due. */
	return vortex_job_timeout_due(vdev, job);
}

/*
 * run_job, timedout_job and recovery are fence-signalling paths: lockdep
 * is told, and names whatever in them allocates with reclaim or waits on
 * a fence.  Recovery marks its own section (vortex_job_recover()).
 */
static enum drm_gpu_sched_stat vortex_job_timedout(struct drm_sched_job *sched_job)
{
	struct vortex_job *job = to_vortex_job(sched_job);
	struct vortex_device *vdev = job->vdev;
	bool cookie, hang;

	vortex_gate_pass(&vdev->recover_gate);
	cookie = dma_fence_begin_signalling();
	hang = vortex_job_hang_due(job);
	dma_fence_end_signalling(cookie);
	if (!hang)
		return vortex_sched_no_hang(sched_job);
	vortex_gate_pass(&vdev->hang_gate);

	if (!vortex_job_recover(vdev, sched_job,
				lower_32_bits(job->hw_fence->seqno), -ETIMEDOUT))
		return vortex_sched_no_hang(sched_job);
	return DRM_GPU_SCHED_STAT_RESET;
}

/*
 * ERROR interrupt, or a closing file's job to cancel.  A cancel request is
 * taken (cleared) here, so a later close can ask again for its own job.
 */
static void vortex_job_reset_work(struct work_struct *work)
{
	struct vortex_device *vdev = container_of(work, struct vortex_device,
						  jobs.reset_work);
	unsigned long flags;
	int error = 0;
	u32 victim = 0;

	vortex_gate_pass(&vdev->recover_gate);

	spin_lock_irqsave(&vdev->job_lock, flags);
	if (vdev->jobs.reset_error) {
		error = vdev->jobs.reset_error;
	} else if (vdev->jobs.cancel_pending) {
		error = -ECANCELED;
		victim = vdev->jobs.cancel_seqno;
		vdev->jobs.cancel_pending = false;
	}
	spin_unlock_irqrestore(&vdev->job_lock, flags);

	if (error)
		vortex_job_recover(vdev, NULL, victim, error);
}

/**
 * vortex_job_release() - free a job and drop what it holds
 * @job: the job
 */
void vortex_job_release(struct vortex_job *job)
{
	struct vortex_device *vdev = job->vdev;
	u32 i;

	for (i = 0; i < job->bo_count; i++)
		if (job->bos[i])
			drm_gem_object_put(job->bos[i]);
	if (job->bos != job->few_bos) {
		kvfree(job->bos);
		kvfree(job->bo_flags);
	}

	if (vortex_job_has_run(job))
		dma_fence_put(job->hw_fence);
	else
		kfree(job->hw_fence);

	vortex_user_job_del(job->vfile->user, job->user_bo_refs);
	atomic_dec(&job->vfile->jobs_in_flight);
	vortex_vm_job_put(job->vfile->vm, &job->vm_ticket);
	vortex_file_put(job->vfile);
	kfree(job);

	if (atomic_dec_and_test(&vdev->jobs.job_count))
		wake_up_var(&vdev->jobs.job_count);
}

static void vortex_job_free(struct drm_sched_job *sched_job)
{
	struct vortex_job *job = to_vortex_job(sched_job);

	drm_sched_job_cleanup(sched_job);
	vortex_job_sched_unprepare(job);
	vortex_job_release(job);
}

/*
 * The scheduler takes @sched_job off its entity and asks whether it must
 * wait for more than its dependencies: never.  Only a race test stops
 * here (debugfs pop_gate), at the point where gpu_sched has chosen the
 * entity and not yet looked at the job behind this one.  The job's timer,
 * armed next, runs for the job_timeout_ms in force now.
 */
static struct dma_fence *vortex_job_prepare(struct drm_sched_job *sched_job,
					    struct drm_sched_entity *entity)
{
	struct vortex_device *vdev = to_vortex_job(sched_job)->vdev;

	vortex_gate_pass(&vdev->pop_gate);
	vortex_job_sync_timeout(vdev);
	return NULL;
}

static const struct drm_sched_backend_ops vortex_sched_ops = {
	.prepare_job = vortex_job_prepare,
	.run_job = vortex_job_run,
	.timedout_job = vortex_job_timedout,
	.free_job = vortex_job_free,
};

/* --------------------------------------------------------- fast lane */

static bool vortex_fast_lane = true;
module_param_named(fast_lane, vortex_fast_lane, bool, 0644);
MODULE_PARM_DESC(fast_lane,
		 "SUBMIT puts a job on an idle card itself, and a short one ends within the call (default: on; needs the card's fast doorbell)");

/**
 * vortex_job_fast_lane() - whether SUBMIT may take the fast lane
 * @vdev: the device
 *
 * What DRM_VORTEX_CAP_FAST_LANE reports.
 *
 * Return: true if the module and the card allow it.
 */
bool vortex_job_fast_lane(struct vortex_device *vdev)
{
	return vortex_fast_lane && (vdev->caps & VX_CAPS_FAST_DOORBELL);
}

static void vortex_job_release_work(struct work_struct *work)
{
	struct vortex_job *job = container_of(work, struct vortex_job, release_work);

	vortex_gate_pass(&job->vdev->release_gate);
	vortex_job_release(job);
}

/* Whether @job may take the fast lane now: job_lock held. */
static bool vortex_job_card_idle_locked(struct vortex_device *vdev,
					struct vortex_job *job)
{
	lockdep_assert_held(&vdev->job_lock);
	/* A debug session's target goes through the scheduler; others need not. */
	return !vdev->jobs.active_job && !vdev->jobs.sched_jobs &&
	       !vortex_debug_owns(vdev->debug, job) &&
	       !vdev->jobs.reset_error && !vdev->jobs.cancel_pending;
}

/**
 * vortex_job_run_inline() - the fast lane: SUBMIT runs the job on an idle card
 * @job: a job of SUBMIT, its file's lock held, with no dependency left
 *
 * The scheduler is for jobs that must wait: for other jobs, for their
 * in-syncobjs, for the card.  A job that finds the card idle (nothing on
 * it, nothing in the scheduler, no recovery about), and is not the job of
 * a debugger's target, is put on it by SUBMIT itself, the same way run_job
 * does, and the fast doorbell (docs/hardware.md) runs it within the
 * doorbell write: if its fence has executed by then, SUBMIT ends it then
 * and there, and WAIT returns at once.  One that runs longer ends by interrupt as any job does, and
 * &vortex_device.inline_tdr bounds it with the scheduler's timeout.  Until
 * it ends, jobs given to the scheduler wait for it (its handover,
 * vortex_handover.c), so the card still has one job at a time and
 * recovery's rules hold unchanged.
 *
 * On success the caller must call vortex_job_inline_done() once it no
 * longer uses the job.
 *
 * Return: true if the job went on the card.
 */
bool vortex_job_run_inline(struct vortex_job *job)
{
	struct vortex_device *vdev = job->vdev;
	unsigned long flags;
	bool idle;

	/* A test holding a scheduler gate wants its job to go through it. */
	if (!vortex_job_fast_lane(vdev) || vortex_gate_armed(&vdev->run_gate) ||
	    vortex_gate_armed(&vdev->ran_gate) || vortex_gate_armed(&vdev->pop_gate))
		return false;

	/*
	 * A busy card sends the job to the scheduler without waiting for the
	 * DM lock, which a debugger or a recovery may hold; an idle one is
	 * checked again under it.
	 */
	spin_lock_irqsave(&vdev->job_lock, flags);
	idle = vortex_job_card_idle_locked(vdev, job);
	spin_unlock_irqrestore(&vdev->job_lock, flags);
	if (!idle)
		return false;

	mutex_lock(&vdev->dm.lock);
	spin_lock_irqsave(&vdev->job_lock, flags);
	idle = vortex_job_card_idle_locked(vdev, job);
	if (idle && !vortex_job_activate_locked(vdev, job)) {
		job->inline_lane = true;
		job->submit_owns = true;
		INIT_WORK(&job->release_work, vortex_job_release_work);
		vdev->jobs.fast_jobs++;
	} else {
		idle = false;
	}
	spin_unlock_irqrestore(&vdev->job_lock, flags);
	if (!idle) {
		mutex_unlock(&vdev->dm.lock);
		return false;
	}
	vortex_job_emit(vdev, job);
	spin_lock_irqsave(&vdev->job_lock, flags);
	job->inline_ended = job->ended;
	if (!job->ended)
		mod_delayed_work(vdev->jobs.reset_wq, &vdev->jobs.inline_tdr,
				 msecs_to_jiffies(vortex_job_timeout_ms));
	spin_unlock_irqrestore(&vdev->job_lock, flags);
	/* SUBMIT tells the client whether a CONSOLE read would find anything. */
	if (job->inline_ended)
		job->console_unread = vortex_job_console_end(vdev, job);
	mutex_unlock(&vdev->dm.lock);
	return true;
}

/**
 * vortex_job_inline_done() - SUBMIT lets go of a fast-lane job
 * @job: from a successful vortex_job_run_inline()
 *
 * Frees it if it has ended already; otherwise its end will.
 */
void vortex_job_inline_done(struct vortex_job *job)
{
	struct vortex_device *vdev = job->vdev;
	unsigned long flags;
	bool ended;

	spin_lock_irqsave(&vdev->job_lock, flags);
	job->submit_owns = false;
	ended = job->ended;
	spin_unlock_irqrestore(&vdev->job_lock, flags);
	if (ended)
		vortex_job_release(job);
}

/*
 * The timeout of a fast-lane job, on the reset workqueue like the
 * scheduler's (so never at the same time as another recovery).  It may
 * find another job on the card, or the job not yet due: a debugger's
 * halts do not count, and a job's end cancels its timer only if it has
 * not started.
 */
static void vortex_job_inline_timeout(struct work_struct *work)
{
	struct vortex_device *vdev = container_of(to_delayed_work(work),
						  struct vortex_device, jobs.inline_tdr);
	struct vortex_job *job;
	unsigned long flags;
	u64 timeout, ran = 0;
	u32 seqno = 0;

	vortex_gate_pass(&vdev->recover_gate);
	/* The limit in force now, as the scheduler's handler reads it. */
	timeout = (u64)READ_ONCE(vortex_job_timeout_ms) * NSEC_PER_MSEC;
	spin_lock_irqsave(&vdev->job_lock, flags);
	job = vdev->jobs.active_job;
	if (job && job->inline_lane) {
		seqno = lower_32_bits(job->hw_fence->seqno);
		ran = ktime_get_ns() - job->start_ns;
	} else {
		job = NULL;
	}
	spin_unlock_irqrestore(&vdev->job_lock, flags);
	if (!job)
		return;
	if (ran < timeout || vortex_debug_job_paused(vdev, job)) {
		queue_delayed_work(vdev->jobs.reset_wq, &vdev->jobs.inline_tdr,
				   nsecs_to_jiffies(ran < timeout ? timeout - ran : timeout));
		return;
	}
	vortex_gate_pass(&vdev->hang_gate);
	vortex_job_recover(vdev, NULL, seqno, -ETIMEDOUT);
}

/* Whether a fast-lane job is on the card: job_lock held. */
static bool vortex_job_inline_on_card_locked(struct vortex_device *vdev)
{
	lockdep_assert_held(&vdev->job_lock);
	return vdev->jobs.active_job && vdev->jobs.active_job->inline_lane;
}

/**
 * vortex_job_sched_prepare() - @job goes to the scheduler
 * @job: a job of SUBMIT, initialised for the scheduler, not yet armed
 *
 * Counts it in &vortex_device.sched_jobs, which keeps the fast lane shut
 * until the scheduler has freed it, and makes it wait for the handover
 * of the fast-lane job on the card, if any, or of the one that has just
 * left it, until that opens (vortex_handover.c): the first such job
 * makes the handover.  Both in one critical section with the fast lane's
 * check, so a job is either run inline or waited for.
 *
 * Return: 0, or -ENOMEM (then undone).
 */
int vortex_job_sched_prepare(struct vortex_job *job)
{
	struct vortex_device *vdev = job->vdev;
	struct vortex_handover *spare = NULL;
	struct dma_fence *fence = NULL;
	unsigned long flags;
	int ret;

retry:
	spin_lock_irqsave(&vdev->job_lock, flags);
	if (vortex_job_inline_on_card_locked(vdev) &&
	    !vortex_handover_follows_card(vdev->jobs.handover)) {
		/* The first job behind it makes its handover, outside the lock. */
		if (!spare) {
			spin_unlock_irqrestore(&vdev->job_lock, flags);
			spare = vortex_handover_alloc();
			if (!spare)
				return -ENOMEM;
			goto retry;
		}
		/* The last one opened (its work holds its own reference). */
		vortex_handover_put(vdev->jobs.handover);
		vortex_handover_init(spare, vdev->jobs.handover_context,
				     ++vdev->jobs.handover_seqno);
		vdev->jobs.handover = spare;
		spare = NULL;
	}
	if (vortex_handover_waits(vdev->jobs.handover))
		fence = vortex_handover_fence(vdev->jobs.handover);
	vdev->jobs.sched_jobs++;
	vortex_debug_job_queued_locked(vdev, job);
	spin_unlock_irqrestore(&vdev->job_lock, flags);
	kfree(spare);
	if (!fence)
		return 0;
	ret = drm_sched_job_add_dependency(&job->base, fence);
	if (ret)
		vortex_job_sched_unprepare(job);
	return ret;
}

/**
 * vortex_job_sched_unprepare() - the scheduler is done with @job
 * @job: the job
 *
 * It was freed, or the scheduler never got it.
 */
void vortex_job_sched_unprepare(struct vortex_job *job)
{
	struct vortex_device *vdev = job->vdev;
	unsigned long flags;

	spin_lock_irqsave(&vdev->job_lock, flags);
	vdev->jobs.sched_jobs--;
	spin_unlock_irqrestore(&vdev->job_lock, flags);
}

/*
 * debugfs jobs: what the fast lane looks at (vortex_job_card_idle_locked()),
 * so a test can wait for a state, and say why the lane stayed shut.
 */
static int vortex_jobs_show(struct seq_file *m, void *data)
{
	struct vortex_device *vdev = m->private;
	s64 active = -1, cancel = -1;
	unsigned long flags;
	int sched_jobs, reset_error;
	bool handover;

	spin_lock_irqsave(&vdev->job_lock, flags);
	if (vdev->jobs.active_job)
		active = lower_32_bits(vdev->jobs.active_job->hw_fence->seqno);
	if (vdev->jobs.cancel_pending)
		cancel = vdev->jobs.cancel_seqno;
	sched_jobs = vdev->jobs.sched_jobs;
	reset_error = vdev->jobs.reset_error;
	handover = vortex_handover_waits(vdev->jobs.handover);
	spin_unlock_irqrestore(&vdev->job_lock, flags);

	seq_printf(m, "active_job: %lld\nsched_jobs: %d\nreset_error: %d\ncancel_pending: %lld\nhandover: %d\n",
		   active, sched_jobs, reset_error, cancel, handover);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vortex_jobs);

#if IS_ENABLED(CONFIG_DRM_ACCEL_VORTEX_DEBUG)
static void vortex_job_fail_log_reset(struct work_struct *work)
{
	struct vortex_jobs *jobs = container_of(work, struct vortex_jobs,
						fail_log_reset);

	ratelimit_default_init(&jobs->fail_log);
}

/*
 * debugfs fail_log, a test hook (vortex_gate.c): writing ``reset`` starts
 * a fresh window of the failure lines' rate limit, so a test that reads
 * its own line need not wait out the lines of the tests before it.  The
 * reset runs on reset_wq, where every failure line is printed.
 */
static ssize_t vortex_job_fail_log_write(struct file *f, const char __user *buf,
					 size_t len, loff_t *pos)
{
	struct vortex_device *vdev = f->private_data;
	char line[8] = {};

	if (len >= sizeof(line))
		return -EINVAL;
	if (copy_from_user(line, buf, len))
		return -EFAULT;
	if (strcmp(strim(line), "reset"))
		return -EINVAL;
	queue_work(vdev->jobs.reset_wq, &vdev->jobs.fail_log_reset);
	flush_work(&vdev->jobs.fail_log_reset);
	return len;
}

static const struct file_operations vortex_job_fail_log_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = vortex_job_fail_log_write,
};
#endif

static void vortex_job_fail_log_init(struct vortex_device *vdev)
{
	ratelimit_default_init(&vdev->jobs.fail_log);
#if IS_ENABLED(CONFIG_DRM_ACCEL_VORTEX_DEBUG)
	INIT_WORK(&vdev->jobs.fail_log_reset, vortex_job_fail_log_reset);
	debugfs_create_file("fail_log", 0200, vdev->drm.debugfs_root, vdev,
			    &vortex_job_fail_log_fops);
#endif
}

/* ------------------------------------------------------------- files */

/**
 * vortex_job_file_open() - a file's scheduler entity and fences
 * @vfile: the file
 *
 * Return: 0, or a negative errno.
 */
int vortex_job_file_open(struct vortex_file *vfile)
{
	struct drm_gpu_scheduler *sched = &vfile->vdev->jobs.sched;
	int ret;

	vfile->fences = kvcalloc(VORTEX_WAIT_HISTORY, sizeof(*vfile->fences),
				 GFP_KERNEL_ACCOUNT);
	vfile->ended = kvcalloc(VORTEX_WAIT_HISTORY, sizeof(*vfile->ended),
				GFP_KERNEL_ACCOUNT);
	if (!vfile->fences || !vfile->ended) {
		ret = -ENOMEM;
		goto err_free;
	}

	ret = drm_sched_entity_init(&vfile->entity, DRM_SCHED_PRIORITY_NORMAL,
				    &sched, 1, NULL);
	if (ret)
		goto err_free;
	return 0;

err_free:
	kvfree(vfile->ended);
	kvfree(vfile->fences);
	vfile->ended = NULL;
	vfile->fences = NULL;
	return ret;
}

/* drm_sched_entity_fini() of a closing file, run on the scheduler's queue. */
struct vortex_entity_kill {
	struct work_struct work;
	struct drm_sched_entity *entity;
};

static void vortex_job_entity_kill_work(struct work_struct *work)
{
	struct vortex_entity_kill *kill = container_of(work, struct vortex_entity_kill,
						       work);

	drm_sched_entity_fini(kill->entity);
}

/*
 * Kills @entity where the scheduler cannot be taking a job off it.
 *
 * On 6.12, drm_sched_entity_pop_job() puts the entity back into the run
 * queue's FIFO tree when a job waits behind the one it takes, without
 * looking at entity->stopped.  drm_sched_entity_kill() removes the entity
 * and then waits for entity_idle, which the run work completes only after
 * that re-insert: an entity killed while the scheduler pops its first of
 * two jobs is back in the tree when drm_sched_entity_fini() returns, and
 * the file is freed with it inside (rb_next() on poison in
 * drm_sched_run_job_work(), then both CPUs spinning on the run queue's
 * lock).  The scheduler's run work is on our ordered submit_wq, so a kill
 * queued there runs between two of its iterations, never inside one.
 */
static void vortex_job_entity_kill(struct vortex_device *vdev,
				   struct drm_sched_entity *entity)
{
	struct vortex_entity_kill kill = { .entity = entity };

	INIT_WORK_ONSTACK(&kill.work, vortex_job_entity_kill_work);
	queue_work(vdev->jobs.submit_wq, &kill.work);
	flush_work(&kill.work);
	destroy_work_on_stack(&kill.work);
}

/**
 * vortex_job_ndmreset() - a debugger's DCTRL.ndmreset, the driver's way
 * @vdev: the device; DM lock held (no job goes on the card meanwhile)
 *
 * The card is reset as recovery resets it (ring and interrupts set up
 * again): the job on the card, whoever's, is stopped through recovery with
 * -ECANCELED, as when its file closes (no crash dump); with none there,
 * the card is reset at once.  Either reset arms the warps a resethaltreq
 * latched (docs/hardware.md).
 */
void vortex_job_ndmreset(struct vortex_device *vdev)
{
	struct vortex_job *job;
	unsigned long flags;

	lockdep_assert_held(&vdev->dm.lock);
	spin_lock_irqsave(&vdev->job_lock, flags);
	job = vdev->jobs.active_job;
	if (job) {
		vdev->jobs.cancel_pending = true;
		vdev->jobs.cancel_seqno = lower_32_bits(job->hw_fence->seqno);
		queue_work(vdev->jobs.reset_wq, &vdev->jobs.reset_work);
	}
	spin_unlock_irqrestore(&vdev->job_lock, flags);
	if (!job)
		vortex_device_reset(vdev);
}

/**
 * vortex_job_file_close() - drop a closing file's work without waiting
 * @vfile: the file
 *
 * Queued jobs are killed (their fences end with an error once the job ahead
 * of them is done), and a job of this file that is on the card is stopped
 * through recovery with -ECANCELED instead of running to its end or to the
 * timeout.  The jobs themselves hold what they need and free it later.
 */
void vortex_job_file_close(struct vortex_file *vfile)
{
	struct vortex_device *vdev = vfile->vdev;
	struct vortex_job *job;
	unsigned long flags;
	u32 i;

	/*
	 * From here run_job puts no job of this file on the card; one that
	 * is there already is stopped.  A job the scheduler has taken but
	 * not yet run is refused by run_job (see vortex_job_run()).
	 */
	spin_lock_irqsave(&vdev->job_lock, flags);
	vfile->closed = true;
	job = vdev->jobs.active_job;
	if (job && job->vfile == vfile) {
		vdev->jobs.cancel_pending = true;
		vdev->jobs.cancel_seqno = lower_32_bits(job->hw_fence->seqno);
		queue_work(vdev->jobs.reset_wq, &vdev->jobs.reset_work);
	}
	spin_unlock_irqrestore(&vdev->job_lock, flags);

	vortex_job_entity_kill(vdev, &vfile->entity);

	for (i = 0; i < VORTEX_WAIT_HISTORY; i++)
		dma_fence_put(vfile->fences[i]);
	kvfree(vfile->fences);
	vfile->fences = NULL;
}

/**
 * vortex_job_file_release() - the last of a file's job state
 * @vfile: the file, whose last reference is gone (so are its jobs)
 *
 * @ended outlives the file's close: a closing file's job may still end on
 * the card after it (vortex_job_file_close()).
 */
void vortex_job_file_release(struct vortex_file *vfile)
{
	kvfree(vfile->ended);
}

/* ------------------------------------------------------- init / fini */

/**
 * vortex_job_unplug() - the card is gone: fail what was on it, wait for the rest
 * @vdev: the device, unplugged and quiet (vortex_device_fini())
 *
 * Jobs still queued drain through run_job, which refuses them; jobs of
 * closed files end through gpu_sched's kill work, on the system
 * workqueue, which calls our free_job.  Either may still be under way
 * when the driver is unbound, and after ``rmmod`` nothing of the module
 * may be called: so unbinding waits here until every job has been freed.
 * (The DRM device may outlive the unbind, held by a buffer; its release
 * calls vortex_job_fini(), which needs no module code it cannot find:
 * every file is closed before the module can go.)
 *
 * What is left is the return from vortex_job_release() to the caller in
 * gpu_sched: no sleeping call follows the last job's count, and the
 * module's unload waits for an RCU grace period before it frees the text.
 */
void vortex_job_unplug(struct vortex_device *vdev)
{
	vortex_job_end_active(vdev, -ECANCELED);
	while (!wait_var_event_timeout(&vdev->jobs.job_count,
				       !atomic_read(&vdev->jobs.job_count), 10 * HZ))
		drm_info(&vdev->drm, "unbind waits for %d jobs to be freed\n",
			 atomic_read(&vdev->jobs.job_count));
}

/*
 * Last file closed and the card removed: no hardware fence is outstanding
 * (vortex_job_unplug()), and queued jobs were killed with their entities.
 * The scheduler still runs, so it retires and frees every job through its
 * own free_job; only once none is left is it torn down.
 */
static void vortex_job_fini(struct drm_device *drm, void *arg)
{
	struct vortex_device *vdev = arg;

	cancel_delayed_work_sync(&vdev->jobs.inline_tdr);
	cancel_work_sync(&vdev->jobs.reset_work);
	vortex_job_end_active(vdev, -ECANCELED);
	wait_var_event(&vdev->jobs.job_count, !atomic_read(&vdev->jobs.job_count));
	drm_sched_fini(&vdev->jobs.sched);

	destroy_workqueue(vdev->jobs.submit_wq);	/* a handover opens */
	vortex_handover_put(vdev->jobs.handover);
	destroy_workqueue(vdev->jobs.reset_wq);

	mutex_lock(&vdev->mm_lock);
	drm_mm_remove_node(&vdev->jobs.ring_node);
	mutex_unlock(&vdev->mm_lock);
}

/**
 * vortex_job_init() - ring, scheduler and reset workqueue
 * @vdev: the device, VRAM allocator ready
 *
 * The card is not touched: vortex_device_reset() programs the ring.
 * Undone by vortex_job_fini() when the DRM device is released, after the
 * last file has gone.
 *
 * Return: 0 or a negative errno.
 */
int vortex_job_init(struct vortex_device *vdev)
{
	int ret;

	spin_lock_init(&vdev->job_lock);
	INIT_WORK(&vdev->jobs.reset_work, vortex_job_reset_work);
	INIT_DELAYED_WORK(&vdev->jobs.inline_tdr, vortex_job_inline_timeout);
	vdev->jobs.fence_context = dma_fence_context_alloc(1);
	vdev->jobs.handover_context = dma_fence_context_alloc(1);
	vdev->jobs.ring_size = VORTEX_RING_SIZE;

	/* The ring must be aligned to its size; keep it out of the way. */
	mutex_lock(&vdev->mm_lock);
	ret = drm_mm_insert_node_in_range(&vdev->mm, &vdev->jobs.ring_node,
					  vdev->jobs.ring_size, vdev->jobs.ring_size, 0,
					  0, vdev->vram_size, DRM_MM_INSERT_HIGH);
	mutex_unlock(&vdev->mm_lock);
	if (ret)
		return ret;

	vdev->jobs.reset_wq = alloc_ordered_workqueue("vortex-reset", 0);
	if (!vdev->jobs.reset_wq) {
		ret = -ENOMEM;
		goto err_ring_remove;
	}

	/* Like the queue drm_sched would allocate, but high priority. */
	vdev->jobs.submit_wq = alloc_ordered_workqueue("vortex-submit",
						       WQ_MEM_RECLAIM | WQ_HIGHPRI);
	if (!vdev->jobs.submit_wq) {
		ret = -ENOMEM;
		goto err_reset_wq_destroy;
	}

	ret = vortex_sched_init(&vdev->jobs.sched, &vortex_sched_ops, vdev->jobs.submit_wq,
				msecs_to_jiffies(vortex_job_timeout_ms),
				vdev->jobs.reset_wq, "vortex-ring", vdev->drm.dev);
	if (ret)
		goto err_submit_wq_destroy;

	debugfs_create_u64("fast_jobs", 0400, vdev->drm.debugfs_root,
			   &vdev->jobs.fast_jobs);
	debugfs_create_file("jobs", 0400, vdev->drm.debugfs_root, vdev,
			    &vortex_jobs_fops);
	vortex_job_fail_log_init(vdev);
	return drmm_add_action_or_reset(&vdev->drm, vortex_job_fini, vdev);

err_submit_wq_destroy:
	destroy_workqueue(vdev->jobs.submit_wq);
err_reset_wq_destroy:
	destroy_workqueue(vdev->jobs.reset_wq);
err_ring_remove:
	mutex_lock(&vdev->mm_lock);
	drm_mm_remove_node(&vdev->jobs.ring_node);
	mutex_unlock(&vdev->mm_lock);
	return ret;
}
