/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_DUMP_H__
#define __VORTEX_DUMP_H__

#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

struct drm_device;
struct drm_file;
struct vortex_device;
struct vortex_file;
struct vortex_job;
struct vortex_dump;

/**
 * struct vortex_dump_cost - what the last published dump cost (debugfs
 * ``last_dump``, for benchmarks)
 */
struct vortex_dump_cost {
	/** @publish_ns: from the failure's handling to the dump in sysfs */
	u64 publish_ns;
	/** @dm_accesses: Debug Module accesses of the capture */
	u64 dm_accesses;
	/** @lane_regs: lane registers it read */
	u64 lane_regs;
	/** @bytes: bytes of its text */
	u64 bytes;
	/** @state_bytes: bytes of state the snapshot holds */
	u64 state_bytes;
	/** @frozen_ns: how long the card stayed frozen for the capture */
	u64 frozen_ns;
	/** @render_ns: how long the rendering took (in the worker) */
	u64 render_ns;
	/**
	 * @start_ns: when the failure's handling began (ktime_get_ns(), which
	 * userspace reads as CLOCK_MONOTONIC)
	 */
	u64 start_ns;
};

/**
 * struct vortex_dump_slot - the card's one crash dump, as the driver owns it
 *
 * A capture leaves its snapshot @pending and queues @work, which hands it
 * to devcoredump once the dump before it is gone (@captured), and renders
 * it.  devcoredump's free callback ends @captured.  vortex_dump_publish.c
 * owns every field.
 */
struct vortex_dump_slot {
	/** @lock: guards @pending, @captured, @held and @closed */
	spinlock_t lock;
	/** @pending: a captured dump not yet published, or NULL */
	struct vortex_dump *pending;
	/** @captured: devcoredump holds our dump, or is still removing it */
	bool captured;
	/** @held: the dump devcoredump holds, until its free callback, or NULL */
	struct vortex_dump *held;
	/** @closed: the card is going; nothing more is published */
	bool closed;
	/** @idle: woken when @captured ends, and when @closed is set */
	wait_queue_head_t idle;
	/** @wq: ordered: runs @work */
	struct workqueue_struct *wq;
	/** @work: publishes @pending and renders it */
	struct work_struct work;
	/** @last_ret: what @work's last publication returned */
	int last_ret;
	/** @released: ends @captured after devcoredump's release (vortex_compat.h) */
	struct delayed_work released;
	/** @release_looks: times @released found the card's link still there */
	unsigned int release_looks;
	/** @dropped: dumps dropped while one was unread (debugfs) */
	atomic_t dropped;
	/** @last: what the last published dump cost (debugfs) */
	struct vortex_dump_cost last;
	/**
	 * @listeners: told of each dump once it is rendered
	 * (%VORTEX_DUMP_PUBLISHED, a &struct vortex_dump_note), in atomic
	 * context; the debugger listens there, so the dump needs no part of it
	 */
	struct atomic_notifier_head listeners;
};

/* The action of a &vortex_dump_slot.listeners call: a dump is readable. */
#define VORTEX_DUMP_PUBLISHED	1

/**
 * struct vortex_dump_note - what &vortex_dump_slot.listeners hear of a dump
 */
struct vortex_dump_note {
	/** @owner: thread group of the dumped job's file, or NULL */
	struct pid *owner;
	/** @job: the job's seqno in its file */
	u64 job;
	/** @bytes: size of the rendered dump, clamped to U32_MAX */
	u32 bytes;
};

/**
 * struct vortex_dump_ctx - what the job layer tells a capture
 *
 * Filled by vortex_job_dump_ctx(), so the dump reads no job state itself.
 */
struct vortex_dump_ctx {
	/** @job: the job that failed or that a debugger asked about, or NULL */
	struct vortex_job *job;
	/** @error: -ETIMEDOUT or -EIO in recovery, 0 for a debugger's request */
	int error;
	/** @start_ns: when the failure's handling began (ktime_get_ns()) */
	u64 start_ns;
	/** @last_fence: last hardware fence seqno written to the ring */
	u32 last_fence;
	/** @ring_offset: VRAM offset of the ring */
	u64 ring_offset;
	/** @ring_size: its bytes */
	u32 ring_size;
};

int vortex_dump_capture(struct vortex_device *vdev,
			const struct vortex_dump_ctx *ctx);
int vortex_dump_init(struct vortex_device *vdev);
void vortex_dump_fini(struct vortex_device *vdev);
int vortex_dump_slot_init(struct vortex_device *vdev);
void vortex_dump_slot_fini(struct vortex_device *vdev);
int vortex_dump_wait_published(struct vortex_device *vdev);
void vortex_dump_file_open(struct vortex_file *vfile);
int vortex_dump_config_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file);

#endif /* __VORTEX_DUMP_H__ */
