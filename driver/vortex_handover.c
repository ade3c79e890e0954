// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: The handover from a fast-lane job to the scheduler
 *
 * Jobs given to the scheduler while a fast-lane job is on the card must
 * wait for it.  They used to wait for its hardware fence; but gpu_sched
 * learns of an entity's dependency only when it first pops that entity's
 * job, and its fence callbacks run where the fence signals (the FENCE
 * interrupt).  So when two files' jobs waited behind one fast-lane job, the
 * scheduler could pick the younger one's entity (the older one's, its
 * dependency already known, was not ready), then find its dependency
 * signalled a moment later and run it: the older job ran second, against
 * the FIFO order docs/driver.md promises.  Seen on the debug kernel in
 * ``rel.two_clients_run_in_the_documented_order`` (CI at 2893f21): the
 * other file's job was on the card while the first file's waited.
 *
 * Such jobs wait for a handover fence instead, one per fast-lane job that
 * has jobs behind it.  The fast-lane job's end queues the handover's work
 * on the scheduler's own ordered queue (&vortex_jobs.submit_wq), and the
 * work signals it.  run_job's work never runs beside it, so every entity
 * waiting for the handover becomes ready between two of its runs, at
 * once, and gpu_sched's policy orders them as it would any ready jobs.
 * Jobs submitted after the fast-lane job ended but before the handover
 * opened wait for it too (vortex_job_sched_prepare()).
 *
 * The handover's own state is here; which handover the card has, under
 * job_lock, is vortex_job.c's.
 */

#include <linux/dma-fence.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "vortex_handover.h"

/**
 * struct vortex_handover - what scheduled jobs wait for behind a fast-lane job
 */
struct vortex_handover {
	/** @base: signalled on the scheduler's queue; first, for dma_fence_free() */
	struct dma_fence base;
	/** @lock: @base's */
	spinlock_t lock;
	/** @work: signals @base */
	struct work_struct work;
	/** @opening: @work is queued (the caller's lock, job_lock) */
	bool opening;
};

static const char *vortex_handover_driver_name(struct dma_fence *fence)
{
	return "vortex";
}

static const char *vortex_handover_timeline_name(struct dma_fence *fence)
{
	return "vortex-handover";
}

static const struct dma_fence_ops vortex_handover_ops = {
	.get_driver_name = vortex_handover_driver_name,
	.get_timeline_name = vortex_handover_timeline_name,
};

static void vortex_handover_work(struct work_struct *work)
{
	struct vortex_handover *h = container_of(work, struct vortex_handover, work);
	bool cookie = dma_fence_begin_signalling();

	dma_fence_signal(&h->base);
	dma_fence_end_signalling(cookie);
	dma_fence_put(&h->base);	/* the work's reference */
}

/**
 * vortex_handover_alloc() - memory for a handover, not yet a fence
 *
 * Allocated outside the caller's spinlock; vortex_handover_init() makes it
 * a fence, kfree() frees one that was not used.
 *
 * Return: the handover, or NULL.
 */
struct vortex_handover *vortex_handover_alloc(void)
{
	return kzalloc(sizeof(struct vortex_handover), GFP_KERNEL);
}

/**
 * vortex_handover_init() - make @h an unsignalled fence
 * @h: from vortex_handover_alloc()
 * @context: the card's handover fence context
 * @seqno: the next number on it
 *
 * Its one reference is the card's (&vortex_jobs.handover), dropped by
 * vortex_handover_put().
 */
void vortex_handover_init(struct vortex_handover *h, u64 context, u64 seqno)
{
	spin_lock_init(&h->lock);
	INIT_WORK(&h->work, vortex_handover_work);
	dma_fence_init(&h->base, &vortex_handover_ops, &h->lock, context, seqno);
}

/**
 * vortex_handover_waits() - whether jobs still wait for @h to open
 * @h: a handover, or NULL
 *
 * Return: true from vortex_handover_init() until its work has signalled it.
 */
bool vortex_handover_waits(struct vortex_handover *h)
{
	return h && !dma_fence_is_signaled(&h->base);
}

/**
 * vortex_handover_follows_card() - whether @h still follows the job on the card
 * @h: a handover, or NULL
 *
 * Return: true until vortex_handover_open() (the caller's lock held).
 */
bool vortex_handover_follows_card(struct vortex_handover *h)
{
	return h && !h->opening;
}

/**
 * vortex_handover_fence() - a reference to @h's fence, for a job to wait for
 * @h: a handover
 *
 * Return: the fence.
 */
struct dma_fence *vortex_handover_fence(struct vortex_handover *h)
{
	return dma_fence_get(&h->base);
}

/**
 * vortex_handover_open() - the fast-lane job left the card: open @h
 * @h: a handover; the caller's lock (job_lock) held, any context
 * @wq: the scheduler's ordered queue
 *
 * Once only: later calls do nothing.
 */
void vortex_handover_open(struct vortex_handover *h, struct workqueue_struct *wq)
{
	if (h->opening)
		return;
	h->opening = true;
	dma_fence_get(&h->base);	/* the work's */
	queue_work(wq, &h->work);
}

/**
 * vortex_handover_put() - drop the card's reference
 * @h: a handover, or NULL
 */
void vortex_handover_put(struct vortex_handover *h)
{
	if (h)
		dma_fence_put(&h->base);
}
