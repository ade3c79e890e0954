/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_DUMP_H__
#define __VORTEX_DUMP_H__

#include <linux/gfp.h>
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
 * struct vortex_dump_slot - the card's one crash dump, as the driver owns it
 *
 * A capture leaves its snapshot @pending; vortex_dump_publish(), with the
 * DM lock dropped, hands it to devcoredump once the dump before it is gone,
 * and queues its rendering on @wq.  devcoredump's free callback ends
 * @busy, through @unlink.  vortex_dump_publish.c owns every field.
 */
struct vortex_dump_slot {
	/** @lock: guards @pending, @busy and @last_ret */
	spinlock_t lock;
	/** @pending: a captured dump not yet published, or NULL */
	struct vortex_dump *pending;
	/** @busy: devcoredump holds our dump, or is still removing it */
	bool busy;
	/** @closed: the card is going; nothing more is published */
	bool closed;
	/** @idle: woken when @busy ends */
	wait_queue_head_t idle;
	/** @publish_lock: one publication at a time, and none after @closed */
	struct mutex publish_lock;
	/** @wq: renders published dumps */
	struct workqueue_struct *wq;
	/** @unlink: waits out devcoredump's release of a freed dump */
	struct delayed_work unlink;
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

/*
 * Allocations while the card is frozen in recovery: fail rather than
 * retry or warn (a dump then says what it lacks).
 */
#define VORTEX_DUMP_GFP		(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN)

int vortex_dump_capture(struct vortex_device *vdev, struct vortex_job *job,
			int error);
int vortex_dump_init(struct vortex_device *vdev);
void vortex_dump_fini(struct vortex_device *vdev);
int vortex_dump_slot_init(struct vortex_device *vdev);
void vortex_dump_slot_fini(struct vortex_device *vdev);
int vortex_dump_publish(struct vortex_device *vdev, bool rendered);
int vortex_dump_devcd(struct vortex_device *vdev);
void vortex_dump_file_open(struct vortex_file *vfile);
int vortex_dump_config_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file);

#endif /* __VORTEX_DUMP_H__ */
