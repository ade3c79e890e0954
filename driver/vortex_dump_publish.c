// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Crash dump publication
 *
 * The card keeps one crash dump (struct vortex_dump_slot), as xe does:
 *
 * - Recovery captures a snapshot with the DM lock held and leaves it
 *   pending (vortex_dump_offer()).
 * - With the DM lock dropped, and before the failed job's fence signals
 *   (so a program that sees its job fail finds the dump), recovery
 *   publishes it: vortex_dump_publish() hands the snapshot to devcoredump
 *   with dev_coredumpm_timeout() and queues its rendering
 *   (vortex_dump_render()) on the dump workqueue.  A read of
 *   /sys/class/devcoredump/devcdN/data waits for the rendering, then
 *   copies from the rendered text.
 * - devcoredump keeps the dump for ``dump_keep_s`` seconds (default an
 *   hour; devcoredump's own default is five minutes) or until its user
 *   writes to the data file, and then calls the free callback, which
 *   ends the slot's hold.  While the slot is held by an unread dump, a
 *   new snapshot is dropped, counted in debugfs ``dumps_dropped`` and
 *   logged, rate limited; held by a dump its user has just discarded, it
 *   waits for devcoredump to let that one go (vortex_dump_publish()).
 *
 * devcoredump calls the free callback before it deletes the card's
 * ``devcoredump`` link to the dump; a dump published in between would
 * collide with that link (a duplicate-name warning, and a dump without
 * its link).  So the slot's hold ends in a work item that first waits
 * for the link to be gone (@unlink), outside recovery.
 *
 * A published dump is announced by a uevent on the card
 * (VORTEX_CRASH_DUMP=1, beside devcoredump's own for devcdN) once it is
 * rendered, and, to a debugger attached to the dumped job's process, by a
 * DUMP event with its size.
 *
 * A published dump holds a reference on the DRM device, which its
 * callbacks use; unbinding the driver discards it (vortex_dump_slot_fini()).
 */

#include <linux/devcoredump.h>
#include <linux/kernfs.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include "vortex_debugfs.h"
#include "vortex_device.h"
#include "vortex_dump.h"
#include "vortex_dump_state.h"

/* The longest recovery waits for a discarded dump's release. */
#define VORTEX_DUMP_RELEASE_MAX_MS	10000

static unsigned int vortex_dump_keep_s = 3600;
module_param_named(dump_keep_s, vortex_dump_keep_s, uint, 0644);
MODULE_PARM_DESC(dump_keep_s,
		 "Seconds an unread crash dump is kept before devcoredump discards it (default 3600)");

static struct vortex_device *slot_to_vdev(struct vortex_dump_slot *slot)
{
	return container_of(slot, struct vortex_device, dump);
}

/**
 * vortex_dump_pending() - whether a captured dump awaits publication
 * @vdev: the device
 *
 * Return: true if a capture now would only be dropped.
 */
bool vortex_dump_pending(struct vortex_device *vdev)
{
	struct vortex_dump_slot *slot = &vdev->dump;
	bool pending;

	spin_lock(&slot->lock);
	pending = slot->pending || slot->closed;
	spin_unlock(&slot->lock);
	return pending;
}

/**
 * vortex_dump_dropped() - count and log a dump that found the slot taken
 * @vdev: the device
 */
void vortex_dump_dropped(struct vortex_device *vdev)
{
	atomic_inc(&vdev->dumps_dropped);
	dev_warn_ratelimited(vdev->drm.dev,
			     "crash dump dropped: the last one is still there (write to /sys/class/devcoredump/devcd*/data to discard it)\n");
}

static ssize_t vortex_dump_read(char *buffer, loff_t offset, size_t count,
				void *data, size_t datalen)
{
	struct vortex_dump *d = data;

	if (wait_for_completion_killable(&d->rendered))
		return -EINTR;
	if (!d->text)
		return -ENOMEM;
	return memory_read_from_buffer(buffer, count, &offset, d->text,
				       d->text_len);
}

/* devcoredump is done with the dump: it unlinks it from the card next. */
static void vortex_dump_free(void *data)
{
	struct vortex_dump *d = data;
	struct vortex_device *vdev = d->vdev;

	WRITE_ONCE(d->gone, true);
	vortex_dump_put(d);
	queue_delayed_work(system_wq, &vdev->dump.unlink, 0);
}

/* The hold ends once devcoredump's release has removed the card's link. */
static void vortex_dump_unlink_work(struct work_struct *work)
{
	struct vortex_dump_slot *slot =
		container_of(to_delayed_work(work), struct vortex_dump_slot, unlink);
	struct vortex_device *vdev = slot_to_vdev(slot);
	struct kernfs_node *dir = vdev->drm.dev->kobj.sd, *link;

	/* A test holds the release here, as a slow kernel stretches it. */
	vortex_gate_pass(&vdev->unlink_gate);
	link = dir ? kernfs_find_and_get(dir, "devcoredump") : NULL;
	if (link) {
		kernfs_put(link);
		queue_delayed_work(system_wq, &slot->unlink, 1);
		return;
	}
	spin_lock(&slot->lock);
	slot->busy = false;
	spin_unlock(&slot->lock);
	wake_up_all(&slot->idle);
	drm_dev_put(&vdev->drm);	/* the published dump's */
}

static bool vortex_dump_busy(struct vortex_dump_slot *slot)
{
	bool busy;

	spin_lock(&slot->lock);
	busy = slot->busy;
	spin_unlock(&slot->lock);
	return busy;
}

/*
 * Whether the dump devcoredump holds is still in its class, so unread:
 * the user has not discarded it.  devcoredump tells a driver nothing
 * between a discard and the free callback, but takes a discarded dump out
 * of its class first (the dump loses its "subsystem" link).  Looked at
 * once, only while the slot is held.
 */
static bool vortex_dump_held_unread(struct vortex_device *vdev)
{
	struct kernfs_node *dir = vdev->drm.dev->kobj.sd, *link, *subsys = NULL;

	link = dir ? kernfs_find_and_get(dir, "devcoredump") : NULL;
	if (!link)
		return false;
	/* the link holds its target, and we hold the link */
	if (kernfs_type(link) == KERNFS_LINK)
		subsys = kernfs_find_and_get(link->symlink.target_kn, "subsystem");
	kernfs_put(subsys);
	kernfs_put(link);
	return subsys;
}

/**
 * vortex_dump_devcd() - which devcoredump device holds the card's dump
 * @vdev: the device
 *
 * The card's ``devcoredump`` link names it (devcoredump's own, to
 * ``devcdN``).  Called right after vortex_dump_publish() succeeded, while
 * the slot is held: no other dump of the card can be linked then.
 *
 * Return: N, or -1 if devcoredump took none (disabled, or out of memory).
 */
int vortex_dump_devcd(struct vortex_device *vdev)
{
	struct kernfs_node *dir = vdev->drm.dev->kobj.sd, *link;
	const char *name;
	char path[128];
	int n = -1;

	link = dir ? kernfs_find_and_get(dir, "devcoredump") : NULL;
	if (!link)
		return -1;
	/* kernfs_name() is not exported; its path is ".../devcoredump/devcdN" */
	if (kernfs_type(link) == KERNFS_LINK &&
	    kernfs_path_from_node(link->symlink.target_kn, NULL, path, sizeof(path)) > 0) {
		name = strrchr(path, '/');
		if (!name || sscanf(name, "/devcd%d", &n) != 1)
			n = -1;
	}
	kernfs_put(link);
	return n;
}

/*
 * The uevent, and the slot's listeners (an attached debugger queues a DUMP
 * event for its target's dumps: vortex_debug.c).
 */
static void vortex_dump_announce(struct vortex_device *vdev,
				 const struct vortex_dump *d)
{
	static char *envp[] = { "VORTEX_CRASH_DUMP=1", NULL };
	struct vortex_dump_note note = {
		.owner = d->owner, .job = d->job,
		.bytes = min_t(size_t, d->text_len, U32_MAX),
	};

	kobject_uevent_env(&vdev->drm.dev->kobj, KOBJ_CHANGE, envp);
	atomic_notifier_call_chain(&vdev->dump.listeners, VORTEX_DUMP_PUBLISHED,
				   &note);
}

static void vortex_dump_render_work(struct work_struct *work)
{
	struct vortex_dump *d = container_of(work, struct vortex_dump, render_work);
	struct vortex_device *vdev = d->vdev;
	u64 t = ktime_get_ns();

	vortex_dump_render(d);
	vdev->last_dump.render_ns = ktime_get_ns() - t;
	vdev->last_dump.bytes = d->text_len;
	complete_all(&d->rendered);
	if (!d->text)
		dev_warn_ratelimited(vdev->drm.dev, "crash dump of job %llu: no memory to render it\n",
				     d->job);
	else if (!READ_ONCE(d->gone))	/* else devcoredump refused it */
		drm_info(&vdev->drm, "crash dump of job %llu: %zu bytes in /sys/class/devcoredump\n",
			 d->job, d->text_len);
	if (!READ_ONCE(d->gone))
		vortex_dump_announce(vdev, d);
	vortex_dump_put(d);
	drm_dev_put(&vdev->drm);
}

/**
 * vortex_dump_offer() - leave a captured dump for vortex_dump_publish()
 * @d: the dump; the slot takes the caller's reference
 */
void vortex_dump_offer(struct vortex_dump *d)
{
	struct vortex_device *vdev = d->vdev;
	struct vortex_dump_slot *slot = &vdev->dump;
	bool taken;

	INIT_WORK(&d->render_work, vortex_dump_render_work);
	spin_lock(&slot->lock);
	taken = slot->pending || slot->closed;
	if (!taken)
		slot->pending = d;
	spin_unlock(&slot->lock);
	if (taken) {
		vortex_dump_dropped(vdev);
		vortex_dump_put(d);
	}
}

/**
 * vortex_dump_publish() - publish the dump the last capture left pending
 * @vdev: the device, DM lock not held: the card need not be frozen now
 * @rendered: wait until it is rendered and announced, too
 *
 * Hands the snapshot to devcoredump and queues its rendering.  If the
 * slot is held by a dump its user has discarded, waits for devcoredump to
 * let it go: the user made room for this one.  That release is work items
 * of devcoredump's and the slot's, which wait for nothing of the card's;
 * it takes milliseconds, and seconds on a debug kernel under load (a 7 MB
 * dump's took over 200 ms, the old bound, in make check's debug lane:
 * issue 39), so the wait is bounded only against a release that never
 * comes (%VORTEX_DUMP_RELEASE_MAX_MS).
 *
 * Return: 0, -ENOENT if nothing was pending, -EBUSY if an unread dump
 * kept this one out (it is dropped and counted).
 */
int vortex_dump_publish(struct vortex_device *vdev, bool rendered)
{
	struct vortex_dump_slot *slot = &vdev->dump;
	struct vortex_dump *d;
	int ret = 0;

	mutex_lock(&slot->publish_lock);
	spin_lock(&slot->lock);
	d = slot->pending;
	slot->pending = NULL;
	spin_unlock(&slot->lock);
	if (!d) {
		mutex_unlock(&slot->publish_lock);
		return -ENOENT;
	}
	if (vortex_dump_busy(slot) && !vortex_dump_held_unread(vdev))
		wait_event_timeout(slot->idle, !vortex_dump_busy(slot),
				   msecs_to_jiffies(VORTEX_DUMP_RELEASE_MAX_MS));
	spin_lock(&slot->lock);
	if (slot->busy || slot->closed)
		ret = -EBUSY;
	else
		slot->busy = true;
	spin_unlock(&slot->lock);
	if (ret) {
		mutex_unlock(&slot->publish_lock);
		vortex_dump_dropped(vdev);
		vortex_dump_put(d);
		return ret;
	}

	drm_dev_get(&vdev->drm);	/* put by vortex_dump_unlink_work() */
	kref_get(&d->ref);		/* devcoredump's, put by vortex_dump_free() */
	dev_coredumpm_timeout(vdev->drm.dev, NULL, d, 0, VORTEX_DUMP_GFP,
			      vortex_dump_read, vortex_dump_free,
			      (unsigned long)vortex_dump_keep_s * HZ);
	vdev->last_dump.publish_ns = ktime_get_ns() - d->start_ns;
	/* The render work takes the capture's reference, and one on the device. */
	drm_dev_get(&vdev->drm);
	if (rendered)
		kref_get(&d->ref);
	queue_work(slot->wq, &d->render_work);
	mutex_unlock(&slot->publish_lock);
	if (rendered) {
		flush_work(&d->render_work);
		vortex_dump_put(d);
	}
	return 0;
}

/**
 * vortex_dump_slot_init() - the card's dump slot, empty
 * @vdev: the device
 *
 * Return: 0 or -ENOMEM.
 */
int vortex_dump_slot_init(struct vortex_device *vdev)
{
	struct vortex_dump_slot *slot = &vdev->dump;

	spin_lock_init(&slot->lock);
	mutex_init(&slot->publish_lock);
	init_waitqueue_head(&slot->idle);
	INIT_DELAYED_WORK(&slot->unlink, vortex_dump_unlink_work);
	ATOMIC_INIT_NOTIFIER_HEAD(&slot->listeners);
	slot->wq = alloc_ordered_workqueue("vortex-dump", 0);
	return slot->wq ? 0 : -ENOMEM;
}

/**
 * vortex_dump_slot_fini() - the card is going: no more dumps
 * @vdev: the device, unplugged
 *
 * Drops a dump not yet published, discards the published one, waits
 * until devcoredump has let it go and for every rendering, so no code of
 * the module runs for a dump after it is unloaded.
 */
void vortex_dump_slot_fini(struct vortex_device *vdev)
{
	struct vortex_dump_slot *slot = &vdev->dump;
	struct vortex_dump *d;

	/* A publication under way ends first; later ones see @closed. */
	mutex_lock(&slot->publish_lock);
	spin_lock(&slot->lock);
	slot->closed = true;
	d = slot->pending;
	slot->pending = NULL;
	spin_unlock(&slot->lock);
	mutex_unlock(&slot->publish_lock);
	vortex_dump_put(d);

	dev_coredump_put(vdev->drm.dev);
	wait_event(slot->idle, !vortex_dump_busy(slot));
	flush_delayed_work(&slot->unlink);
	destroy_workqueue(slot->wq);
}
