// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: The kernels' console
 *
 * Vortex kernels print with vx_putchar()/vx_printf(), which store bytes to
 * IO_COUT; the card keeps each as a record (the byte and the mhartid of
 * the lane) in a ring in VRAM the driver gives it (docs/hardware.md,
 * "Console").  The driver runs one job at a time, so the records between
 * two drains are the job last put on the card: the driver drains the ring
 * before it puts the next job on, before a RESET and when a client asks,
 * and appends the records to the console of the file that job came from.
 * DRM_IOCTL_VORTEX_CONSOLE reads them, oldest first; a crash dump carries
 * the failing file's unread ones.
 *
 * Bounds: the card's ring holds %VORTEX_CONSOLE_RING / 4 - 1 records, a
 * file's console %VORTEX_CONSOLE_FILE records.  Records past either are
 * dropped and counted; CONSOLE reports the count, so output is never lost
 * without a word.  The card's ring is drained whenever a job ends and the
 * next starts, so the first bound is per job between drains.
 *
 * Locking: the card's ring and @vortex_console_state.owner under the DM
 * lock, a file's console under its own spinlock (taken inside the DM
 * lock).
 */

#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "vortex_accel.h"
#include "vortex_console.h"
#include "vortex_device.h"
#include "vortex_dm.h"

static void vortex_console_release(struct drm_device *drm, void *arg)
{
	struct vortex_device *vdev = arg;

	if (vdev->console.owner)
		vortex_file_put(vdev->console.owner);
	mutex_lock(&vdev->mm_lock);
	drm_mm_remove_node(&vdev->console.node);
	mutex_unlock(&vdev->mm_lock);
}

/**
 * vortex_console_init() - VRAM for the card's console ring
 * @vdev: the device, VRAM allocator ready
 *
 * A card without VX_CAPS_CONSOLE gets none, and its files read nothing.
 *
 * Return: 0 or a negative errno.
 */
int vortex_console_init(struct vortex_device *vdev)
{
	int ret;

	if (!(vdev->caps & VX_CAPS_CONSOLE))
		return 0;
	mutex_lock(&vdev->mm_lock);
	ret = drm_mm_insert_node_in_range(&vdev->mm, &vdev->console.node,
					  VORTEX_CONSOLE_RING, VORTEX_CONSOLE_RING,
					  0, 0, vdev->vram_size, DRM_MM_INSERT_HIGH);
	mutex_unlock(&vdev->mm_lock);
	if (ret)
		return ret;
	return drmm_add_action_or_reset(&vdev->drm, vortex_console_release, vdev);
}

/**
 * vortex_console_start() - point the card at its ring and turn it on
 * @vdev: the device, just reset (RESET turns the console off)
 */
void vortex_console_start(struct vortex_device *vdev)
{
	if (!drm_mm_node_allocated(&vdev->console.node))
		return;
	vortex_write(vdev, VX_REG_CONS_BASE, vdev->devaddr + vdev->console.node.start);
	vortex_write(vdev, VX_REG_CONS_SIZE, VORTEX_CONSOLE_RING);
	vortex_write(vdev, VX_REG_CONS_CTRL, VX_CONS_CTRL_ENABLE);
	vdev->console.dropped = 0;
	vdev->console.head = 0;		/* enabling empties the ring */
	vdev->console.empty = false;
}

/* Appends @n records to @vfile's console, counting what does not fit. */
static void vortex_console_append(struct vortex_file *vfile, const u32 *rec, u32 n,
				  u32 dropped)
{
	struct vortex_console_buf *c = &vfile->console;
	u32 room, i;

	spin_lock(&c->lock);
	room = VORTEX_CONSOLE_FILE - (c->tail - c->head);
	for (i = 0; i < n && i < room; i++)
		c->rec[(c->tail + i) % VORTEX_CONSOLE_FILE] = rec[i];
	c->tail += i;
	c->dropped += dropped + (n - i);
	spin_unlock(&c->lock);
}

/*
 * The drain, with CONS_TAIL from the register or, when @known_tail is
 * not NULL, as the fence record of the job that just ended has it.
 */
static void vortex_console_drain_to(struct vortex_device *vdev,
				    const u32 *known_tail)
{
	struct vortex_console_state *s = &vdev->console;
	u32 head, tail, n, dropped, chunk[64];

	if (!drm_mm_node_allocated(&s->node))
		return;
	/*
	 * Every job start drains, so the common case is an empty ring: one
	 * read says so (none with the fence record).  TAIL equal to the HEAD
	 * the driver wrote means no record came, and none was dropped
	 * either: the card drops only into a full ring, whose TAIL is one
	 * record behind HEAD, and only the driver moves HEAD
	 * (docs/hardware.md, "Console").
	 */
	if (s->empty)
		return;		/* nothing ran since vortex_console_job_end() */
	tail = known_tail ? *known_tail : vortex_read(vdev, VX_REG_CONS_TAIL);
	if (tail == s->head)
		return;
	head = vortex_read(vdev, VX_REG_CONS_HEAD);
	dropped = vortex_read(vdev, VX_REG_CONS_DROPPED);
	if (head >= VORTEX_CONSOLE_RING || tail >= VORTEX_CONSOLE_RING)
		return;		/* a card that is gone reads all ones */
	while (head != tail) {
		n = (tail > head ? tail - head : VORTEX_CONSOLE_RING - head) / 4;
		n = min_t(u32, n, ARRAY_SIZE(chunk));
		memcpy_fromio(chunk, vdev->vram + s->node.start + head, n * 4);
		if (s->owner)
			vortex_console_append(s->owner, chunk, n, 0);
		head = (head + n * 4) % VORTEX_CONSOLE_RING;
	}
	vortex_write(vdev, VX_REG_CONS_HEAD, head);
	s->head = head;
	if (s->owner && dropped != s->dropped)
		vortex_console_append(s->owner, NULL, 0, dropped - s->dropped);
	s->dropped = dropped;
}

/**
 * vortex_console_drain() - move the card's records to their file
 * @vdev: the device, DM lock held (or nothing else running: probe)
 *
 * The records since the last drain belong to the console's owner, the
 * file whose job was last put on the card.
 */
void vortex_console_drain(struct vortex_device *vdev)
{
	vortex_console_drain_to(vdev, NULL);
}

/**
 * vortex_console_job_start() - the card's next records are @vfile's
 * @vdev: the device, DM lock held
 * @vfile: the file of the job about to go on the card
 */
void vortex_console_job_start(struct vortex_device *vdev, struct vortex_file *vfile)
{
	struct vortex_console_state *s = &vdev->console;

	lockdep_assert_held(&vdev->dm.lock);
	vortex_console_drain(vdev);
	s->empty = false;	/* the job may print from now on */
	if (s->owner == vfile)
		return;
	kref_get(&vfile->ref);
	if (s->owner)
		vortex_file_put(s->owner);
	s->owner = vfile;
}

/**
 * vortex_console_job_end() - whether the job that just ended left output
 * @vdev: the device, DM lock held, the ended job's file the owner
 * @tail: CONS_TAIL as the job's FENCE wrote it to the fence record
 *	(vortex_fence_wb.c), or NULL to read the register
 *
 * Drains the card's ring into the owner's console (with @tail, no
 * register access when the job printed nothing; else one read).
 *
 * Return: whether the owner has records to read, or lost some.
 */
bool vortex_console_job_end(struct vortex_device *vdev, const u32 *tail)
{
	struct vortex_file *owner = vdev->console.owner;
	struct vortex_console_buf *c;
	bool unread;

	lockdep_assert_held(&vdev->dm.lock);
	if (!owner)
		return false;
	vortex_console_drain_to(vdev, tail);
	/* The card is idle until the next job: the next drain has nothing. */
	vdev->console.empty = true;
	c = &owner->console;
	spin_lock(&c->lock);
	unread = c->tail != c->head || c->dropped;
	spin_unlock(&c->lock);
	return unread;
}

/**
 * vortex_console_file_close() - a closing file prints no more
 * @vfile: the file, its jobs off the card
 *
 * What its last job left on the card goes nowhere; the next drain then
 * has no owner until a job goes on.
 */
void vortex_console_file_close(struct vortex_file *vfile)
{
	struct vortex_device *vdev = vfile->vdev;
	int idx;

	mutex_lock(&vdev->dm.lock);
	if (vdev->console.owner == vfile) {
		if (drm_dev_enter(&vdev->drm, &idx)) {
			vortex_console_drain(vdev);
			drm_dev_exit(idx);
		}
		vdev->console.owner = NULL;
		vortex_file_put(vfile);
	}
	mutex_unlock(&vdev->dm.lock);
}

/**
 * vortex_console_file_open() - a new file's empty console
 * @vfile: the file
 *
 * Return: 0 or -ENOMEM.
 */
int vortex_console_file_open(struct vortex_file *vfile)
{
	struct vortex_console_buf *c = &vfile->console;

	spin_lock_init(&c->lock);
	c->rec = kvmalloc_array(VORTEX_CONSOLE_FILE, sizeof(u32), GFP_KERNEL_ACCOUNT);
	return c->rec ? 0 : -ENOMEM;
}

/**
 * vortex_console_file_release() - free a file's console
 * @vfile: the file, no longer anybody's
 */
void vortex_console_file_release(struct vortex_file *vfile)
{
	kvfree(vfile->console.rec);
}

/*
 * Copies up to @max of @vfile's records from number *@from on (the oldest
 * unread one if that is later) to @out, leaving them unread; *@from
 * becomes one past the last copied, *@skipped how many from *@from on the
 * file's reader had consumed, and *@dropped (if @dropped) the file's
 * dropped count, all under one lock.
 */
static u32 vortex_console_copy(struct vortex_file *vfile, u64 *from, u32 *out,
			       u32 max, u64 *skipped, u64 *dropped)
{
	struct vortex_console_buf *c = &vfile->console;
	u64 at;
	u32 n, i;

	spin_lock(&c->lock);
	at = max(*from, c->head);
	*skipped = at - *from;
	n = min_t(u64, c->tail - min(at, c->tail), max);
	for (i = 0; i < n; i++)
		out[i] = c->rec[(at + i) % VORTEX_CONSOLE_FILE];
	*from = at + n;
	if (dropped)
		*dropped = c->dropped;
	spin_unlock(&c->lock);
	return n;
}

/**
 * vortex_console_peek() - copy @vfile's unread records, leaving them
 * @vfile: the file
 * @out: up to @max records
 * @max: room in @out
 * @dropped: receives the records dropped so far
 *
 * Return: records copied, the oldest first.
 */
u32 vortex_console_peek(struct vortex_file *vfile, u32 *out, u32 max, u64 *dropped)
{
	u64 from = 0, skipped;

	return vortex_console_copy(vfile, &from, out, max, &skipped, dropped);
}

/**
 * vortex_console_first_unread() - the number of @vfile's oldest unread record
 * @vfile: the file
 *
 * Return: that number (vortex_console_read_from()'s @from).
 */
u64 vortex_console_first_unread(struct vortex_file *vfile)
{
	struct vortex_console_buf *c = &vfile->console;
	u64 head;

	spin_lock(&c->lock);
	head = c->head;
	spin_unlock(&c->lock);
	return head;
}

/**
 * vortex_console_read_from() - copy @vfile's records from number @from on
 * @vfile: the file
 * @from: in: the first record wanted; out: one past the last one copied
 * @out: up to @max records
 * @max: room in @out
 * @skipped: receives how many from @from on the file's reader consumed
 *	already
 *
 * Leaves the records unread for the file: a debugger's view of them.
 *
 * Return: records copied, the oldest first.
 */
u32 vortex_console_read_from(struct vortex_file *vfile, u64 *from, u32 *out,
			     u32 max, u64 *skipped)
{
	return vortex_console_copy(vfile, from, out, max, skipped, NULL);
}

/**
 * vortex_console_ioctl() - DRM_IOCTL_VORTEX_CONSOLE
 * @drm: the DRM device
 * @data: the ioctl's arguments (copied in and out by DRM)
 * @file: the caller's DRM file
 *
 * Hands the file the console text its jobs printed.
 *
 * Return: 0, or a negative errno.
 */
int vortex_console_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vortex_device *vdev = to_vortex_device(drm);
	struct vortex_file *vfile = file->driver_priv;
	struct drm_vortex_console *args = data;
	struct vortex_console_buf *c = &vfile->console;
	u32 *tmp, n, max;
	u64 dropped;
	int ret = 0, idx;

	if (args->flags || args->pad) {
		drm_dbg(drm, "CONSOLE: flags 0x%x, pad 0x%llx\n", args->flags, args->pad);
		return -EINVAL;
	}
	max = min_t(u32, args->count, VORTEX_CONSOLE_FILE);
	tmp = kvmalloc_array(max ?: 1, sizeof(u32), GFP_KERNEL_ACCOUNT);
	if (!tmp)
		return -ENOMEM;
	/* What the file's last job printed may still be on the card. */
	if (drm_dev_enter(drm, &idx)) {
		mutex_lock(&vdev->dm.lock);
		if (vdev->console.owner == vfile)
			vortex_console_drain(vdev);
		mutex_unlock(&vdev->dm.lock);
		drm_dev_exit(idx);
	}
	n = vortex_console_peek(vfile, tmp, max, &dropped);
	if (n && copy_to_user(u64_to_user_ptr(args->data), tmp, n * sizeof(u32)))
		ret = -EFAULT;
	if (!ret) {
		/* Consumed only once copied out: a bad pointer loses nothing. */
		spin_lock(&c->lock);
		c->head += n;
		c->dropped -= dropped;
		spin_unlock(&c->lock);
		args->count = n;
		args->dropped = dropped;
	}
	kvfree(tmp);
	return ret;
}
