// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Crash dump publication
 *
 * The card keeps one crash dump (struct vortex_dump_slot), as xe does
 * (drivers/gpu/drm/xe/xe_devcoredump.c):
 *
 * - Recovery captures a snapshot with the DM lock held, offers it
 *   (vortex_dump_offer()) and returns: it neither allocates for
 *   devcoredump nor waits for it, so the failed job's fence signals
 *   without waiting on either.
 * - The slot's worker (@work, on the dump workqueue) hands the snapshot to
 *   devcoredump with dev_coredumpm_timeout(), names it in the failed
 *   job's fault record, renders it (vortex_dump_render()) and announces
 *   it.  A read of /sys/class/devcoredump/devcdN/data waits for the
 *   rendering, then copies from the rendered text.
 * - The announcement tells clients the dump is there: a uevent on the
 *   card (VORTEX_CRASH_DUMP=1, beside devcoredump's own for devcdN) and,
 *   to a debugger attached to the dumped job's process, a DUMP event with
 *   its size.  A job's fence may signal before that: a program that wants
 *   its dump waits for one of them, or for the file.
 * - @captured holds the slot from the publication until devcoredump's
 *   free callback: one dump per card.  devcoredump keeps it for
 *   ``dump_keep_s`` seconds (default an hour; devcoredump's own default
 *   is five minutes) or until its user writes to the data file.
 * - Whether a failure leaves a dump is decided when it happens, in
 *   recovery, from what the slot holds then (vortex_dump_refused(),
 *   vortex_dump_offer()): a dump still unread, or a snapshot still
 *   pending, drops the new one at once (counted in debugfs
 *   ``dumps_dropped`` and logged, rate limited), as xe drops it.  A dump
 *   its user has discarded does not: the new snapshot waits in the worker
 *   for the release, %VORTEX_DUMP_RELEASE_MAX_MS at most.  So a dump is
 *   never published late in place of a newer failure's: a failure that
 *   found the slot full stays dropped when its user discards later.
 * - devcoredump tells a driver nothing between its user's discard and
 *   the free callback.  sysfs does: the discard removes devcoredump's
 *   device (device_del()), whose first step removes the device's
 *   ``subsystem`` link and then its entry in /sys/class/devcoredump
 *   (device_remove_class_symlinks(), drivers/base/core.c), marking the
 *   link KERNFS_REMOVING before anyone can see the dump gone.  The worker
 *   keeps a reference on that link (@devcd of the held dump) from the
 *   publication to ->free, and recovery reads its flag under the slot's
 *   spinlock: no lock of kernfs, no allocation, no wait.
 *
 * devcoredump calls the free callback before it deletes the card's
 * ``devcoredump`` link to the dump (devcd_dev_release(),
 * drivers/base/devcoredump.c; the fix is patches/devcoredump-0001-*); a
 * dump published in between would collide with that link (a
 * duplicate-name warning, and a dump without its link).  On such a
 * kernel (vortex_compat.h) the hold ends one work item after the free
 * callback, queued from the release's own work on the same CPU.  That
 * normally runs once the release has returned; but the release can sleep
 * in kernfs before it deletes the link, and the pool then runs the work
 * item first (seen in vm.other_process_freed_buffer_faults on 6.12), so
 * the work item looks again a jiffy later while the card's link is still
 * there, %VORTEX_DUMP_RELEASE_MAX_MS at most.
 *
 * A published dump holds a reference on the DRM device, which its
 * callbacks use; unbinding the driver discards it (vortex_dump_slot_fini()).
 */

#include <linux/debugfs.h>
#include <linux/devcoredump.h>
#include <linux/kernfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include "vortex_compat.h"
#include "vortex_debugfs.h"
#include "vortex_device.h"
#include "vortex_dump.h"
#include "vortex_dump_state.h"
#include "vortex_fault.h"

/*
 * The longest the worker waits for the dump before it to be let go: a
 * discarded dump's release takes milliseconds, and seconds on a debug
 * kernel under load (a 7 MB dump's took over 200 ms in make check's
 * debug lane: issue 39).  Past it the held dump counts as unread.
 */
#define VORTEX_DUMP_RELEASE_MAX_MS	10000

static unsigned int vortex_dump_keep_s = 3600;
module_param_named(dump_keep_s, vortex_dump_keep_s, uint, 0644);
MODULE_PARM_DESC(dump_keep_s,
		 "Seconds an unread crash dump is kept before devcoredump discards it (default 3600)");

static struct vortex_device *slot_to_vdev(struct vortex_dump_slot *slot)
{
	return container_of(slot, struct vortex_device, dump);
}

/*
 * Whether the dump devcoredump holds is still there for its user: not let
 * go, and its device not being removed by a discard.  A dump the worker
 * has just handed over counts as unread until it has looked for its
 * ``subsystem`` link.
 */
static bool vortex_dump_unread_locked(struct vortex_dump_slot *slot)
{
	struct vortex_dump *held = slot->held;

	lockdep_assert_held(&slot->lock);
	if (!held)
		return false;
	if (!held->devcd_known)
		return true;
	return held->devcd && !(READ_ONCE(held->devcd->flags) & KERNFS_REMOVING);
}

static bool vortex_dump_refused_locked(struct vortex_dump_slot *slot)
{
	return slot->pending || slot->closed || vortex_dump_unread_locked(slot);
}

/**
 * vortex_dump_refused() - whether a capture now would only be dropped
 * @vdev: the device
 *
 * A snapshot is pending, the card is going, or the last dump is unread.
 * Safe in recovery: takes only the slot's spinlock.
 *
 * Return: true if the caller should not capture.
 */
bool vortex_dump_refused(struct vortex_device *vdev)
{
	struct vortex_dump_slot *slot = &vdev->dump;
	bool refused;

	spin_lock(&slot->lock);
	refused = vortex_dump_refused_locked(slot);
	spin_unlock(&slot->lock);
	return refused;
}

/**
 * vortex_dump_dropped() - count and log a dump that found the slot taken
 * @vdev: the device
 */
void vortex_dump_dropped(struct vortex_device *vdev)
{
	atomic_inc(&vdev->dump.dropped);
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

/* devcoredump has let the dump go, its link to the card included. */
static void vortex_dump_released(struct vortex_dump_slot *slot)
{
	struct vortex_device *vdev = slot_to_vdev(slot);

	/* A test holds the release here, as a slow kernel stretches it. */
	vortex_gate_pass(&vdev->unlink_gate);
	spin_lock(&slot->lock);
	slot->captured = false;
	spin_unlock(&slot->lock);
	wake_up_all(&slot->idle);
	drm_dev_put(&vdev->drm);	/* the published dump's */
}

/* The card's ``devcoredump`` link (devcoredump's own), a reference, or NULL. */
static struct kernfs_node *vortex_dump_card_link(struct vortex_device *vdev)
{
	struct kernfs_node *card = vdev->drm.dev->kobj.sd;

	return card ? kernfs_find_and_get(card, "devcoredump") : NULL;
}

static void vortex_dump_released_work(struct work_struct *work)
{
	struct vortex_dump_slot *slot =
		container_of(to_delayed_work(work), struct vortex_dump_slot, released);
	struct kernfs_node *link = vortex_dump_card_link(slot_to_vdev(slot));

	kernfs_put(link);
	if (link &&
	    ++slot->release_looks < msecs_to_jiffies(VORTEX_DUMP_RELEASE_MAX_MS)) {
		queue_delayed_work(system_wq, &slot->released, 1);
		return;
	}
	vortex_dump_released(slot);
}

/* devcoredump is done with the dump (its ->free). */
static void vortex_dump_free(void *data)
{
	struct vortex_dump *d = data;
	struct vortex_dump_slot *slot = &d->vdev->dump;
	struct kernfs_node *devcd;

	WRITE_ONCE(d->gone, true);
	spin_lock(&slot->lock);
	if (slot->held == d)
		slot->held = NULL;
	devcd = d->devcd;
	d->devcd = NULL;
	d->devcd_known = true;
	spin_unlock(&slot->lock);
	kernfs_put(devcd);
	vortex_dump_put(d);
	if (VORTEX_DEVCD_FREES_BEFORE_UNLINK) {
		/* The link goes after this returns: one work item later. */
		slot->release_looks = 0;
		queue_delayed_work(system_wq, &slot->released, 0);
	} else {
		vortex_dump_released(slot);
	}
}

/*
 * Which devcoredump device holds the card's dump: the card's
 * ``devcoredump`` link (devcoredump's own) names it, ``devcdN``.  Called
 * by the worker right after it published, while the slot is held: no
 * other dump of the card can be linked then.  Returns N, or -1 if
 * devcoredump took none (disabled, out of memory, or already discarded);
 * *@subsys gets a reference on the ``subsystem`` link in the device's
 * directory, or NULL.
 */
static int vortex_dump_devcd(struct vortex_device *vdev, struct kernfs_node **subsys)
{
	struct kernfs_node *link = vortex_dump_card_link(vdev), *target;
	const char *name;
	char path[128];
	int n = -1;

	*subsys = NULL;
	if (!link)
		return -1;
	if (kernfs_type(link) == KERNFS_LINK) {
		target = link->symlink.target_kn;
		/* kernfs_name() is not exported; the path is ".../devcoredump/devcdN" */
		if (kernfs_path_from_node(target, NULL, path, sizeof(path)) > 0) {
			name = strrchr(path, '/');
			if (!name || sscanf(name, "/devcd%d", &n) != 1)
				n = -1;
		}
		/* A discard removes it first (vortex_dump_unread_locked()). */
		*subsys = kernfs_find_and_get(target, "subsystem");
	}
	kernfs_put(link);
	return n;
}

/*
 * Keeps @subsys, the published @d's ``subsystem`` link, for
 * vortex_dump_unread_locked(), unless devcoredump has let @d go already.
 */
static void vortex_dump_hold_devcd(struct vortex_dump_slot *slot,
				   struct vortex_dump *d, struct kernfs_node *subsys)
{
	spin_lock(&slot->lock);
	if (!d->devcd_known) {
		d->devcd = subsys;
		d->devcd_known = true;
		subsys = NULL;
	}
	spin_unlock(&slot->lock);
	kernfs_put(subsys);
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

static void vortex_dump_render_published(struct vortex_device *vdev,
					 struct vortex_dump *d)
{
	u64 t = ktime_get_ns();

	vortex_dump_render(d);
	vdev->dump.last.render_ns = ktime_get_ns() - t;
	vdev->dump.last.bytes = d->text_len;
	complete_all(&d->rendered);
	if (!d->text)
		dev_warn_ratelimited(vdev->drm.dev, "crash dump of job %llu: no memory to render it\n",
				     d->job);
	else if (!READ_ONCE(d->gone))	/* else devcoredump refused it */
		drm_info(&vdev->drm, "crash dump of job %llu: %zu bytes in /sys/class/devcoredump\n",
			 d->job, d->text_len);
	if (!READ_ONCE(d->gone))
		vortex_dump_announce(vdev, d);
}

/* Whether the dump before has been let go (or nothing more is published). */
static bool vortex_dump_room(struct vortex_dump_slot *slot)
{
	bool room;

	spin_lock(&slot->lock);
	room = !slot->captured || slot->closed;
	spin_unlock(&slot->lock);
	return room;
}

/*
 * Hands @d to devcoredump once the dump before it is gone, names it in
 * its job's fault record and renders it.  Takes the caller's reference.
 * Return: 0, or -EBUSY if the dump before kept it out (dropped, counted).
 */
static int vortex_dump_publish(struct vortex_device *vdev, struct vortex_dump *d)
{
	struct vortex_dump_slot *slot = &vdev->dump;
	struct kernfs_node *subsys;
	int ret = 0, devcd;

	wait_event_timeout(slot->idle, vortex_dump_room(slot),
			   msecs_to_jiffies(VORTEX_DUMP_RELEASE_MAX_MS));
	spin_lock(&slot->lock);
	if (slot->captured || slot->closed) {
		ret = -EBUSY;
	} else {
		slot->captured = true;
		slot->held = d;
	}
	spin_unlock(&slot->lock);
	if (ret) {
		vortex_dump_dropped(vdev);
		vortex_dump_put(d);
		return ret;
	}

	drm_dev_get(&vdev->drm);	/* put once devcoredump let it go */
	kref_get(&d->ref);		/* devcoredump's, put by vortex_dump_free() */
	dev_coredumpm_timeout(vdev->drm.dev, NULL, d, 0, VORTEX_RECOVERY_GFP,
			      vortex_dump_read, vortex_dump_free,
			      (unsigned long)vortex_dump_keep_s * HZ);
	slot->last.publish_ns = ktime_get_ns() - d->start_ns;
	slot->last.start_ns = d->start_ns;
	devcd = vortex_dump_devcd(vdev, &subsys);
	vortex_dump_hold_devcd(slot, d, subsys);
	if (d->vfile) {
		vortex_fault_dump_published(d->vfile, d->job, devcd);
		vortex_file_put(d->vfile);
		d->vfile = NULL;
	}
	vortex_dump_render_published(vdev, d);
	vortex_dump_put(d);
	return 0;
}

static void vortex_dump_work(struct work_struct *work)
{
	struct vortex_dump_slot *slot = container_of(work, struct vortex_dump_slot, work);
	struct vortex_dump *d;

	spin_lock(&slot->lock);
	d = slot->pending;
	slot->pending = NULL;
	spin_unlock(&slot->lock);
	if (d)
		WRITE_ONCE(slot->last_ret, vortex_dump_publish(slot_to_vdev(slot), d));
}

/**
 * vortex_dump_offer() - leave a captured dump for the slot's worker
 * @d: the dump; the slot takes the caller's reference
 *
 * Return: 0, or -EBUSY if a dump is still pending or unread (@d is
 * dropped, counted).
 */
int vortex_dump_offer(struct vortex_dump *d)
{
	struct vortex_device *vdev = d->vdev;
	struct vortex_dump_slot *slot = &vdev->dump;
	bool taken;

	spin_lock(&slot->lock);
	taken = vortex_dump_refused_locked(slot);
	if (!taken) {
		slot->pending = d;
		queue_work(slot->wq, &slot->work);
	}
	spin_unlock(&slot->lock);
	if (taken) {
		vortex_dump_dropped(vdev);
		vortex_dump_put(d);
		return -EBUSY;
	}
	return 0;
}

/**
 * vortex_dump_wait_published() - wait for the worker to publish what was offered
 * @vdev: the device; a capture of the caller's was offered
 *
 * For a debugger's COREDUMP, which returns once the dump is readable and
 * its DUMP event posted.
 *
 * Return: 0, or -EBUSY if the dump before kept it out.
 */
int vortex_dump_wait_published(struct vortex_device *vdev)
{
	flush_work(&vdev->dump.work);
	return READ_ONCE(vdev->dump.last_ret);
}

/* debugfs last_dump: what the last published crash dump cost. */
static int vortex_last_dump_show(struct seq_file *m, void *unused)
{
	struct vortex_device *vdev = m->private;
	const struct vortex_dump_cost *c = &vdev->dump.last;

	seq_printf(m, "publish_ns: %llu\ndm_accesses: %llu\nlane_regs: %llu\nbytes: %llu\nstate_bytes: %llu\nfrozen_ns: %llu\nrender_ns: %llu\nstart_ns: %llu\n",
		   c->publish_ns, c->dm_accesses, c->lane_regs, c->bytes,
		   c->state_bytes, c->frozen_ns, c->render_ns, c->start_ns);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vortex_last_dump);

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
	init_waitqueue_head(&slot->idle);
	INIT_WORK(&slot->work, vortex_dump_work);
	INIT_DELAYED_WORK(&slot->released, vortex_dump_released_work);
	ATOMIC_INIT_NOTIFIER_HEAD(&slot->listeners);
	slot->wq = alloc_ordered_workqueue("vortex-dump", 0);
	if (!slot->wq)
		return -ENOMEM;
	debugfs_create_atomic_t("dumps_dropped", 0400, vdev->drm.debugfs_root,
				&slot->dropped);
	debugfs_create_file("last_dump", 0400, vdev->drm.debugfs_root, vdev,
			    &vortex_last_dump_fops);
	return 0;
}

/**
 * vortex_dump_slot_fini() - the card is going: no more dumps
 * @vdev: the device, unplugged
 *
 * Drops a dump not yet published, lets a publication under way end,
 * discards the published dump and waits until devcoredump has let it go,
 * so no code of the module runs for a dump after it is unloaded.
 */
void vortex_dump_slot_fini(struct vortex_device *vdev)
{
	struct vortex_dump_slot *slot = &vdev->dump;
	struct vortex_dump *d;

	spin_lock(&slot->lock);
	slot->closed = true;
	d = slot->pending;
	slot->pending = NULL;
	spin_unlock(&slot->lock);
	wake_up_all(&slot->idle);	/* a worker waiting for room gives up */
	vortex_dump_put(d);
	flush_work(&slot->work);

	dev_coredump_put(vdev->drm.dev);
	wait_event(slot->idle, !READ_ONCE(slot->captured));
	flush_delayed_work(&slot->released);
	destroy_workqueue(slot->wq);
}
