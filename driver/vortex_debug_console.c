// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: The target's console, for its debugger
 *
 * What a kernel prints reaches the file whose job printed it
 * (vortex_console.c), and the target's runtime prints it when the job
 * ends. A debugger wants it sooner: while the job stands halted at a
 * breakpoint, as gdb shows an inferior's output before the stop. So the
 * session follows the console of the target's file whose job went on the
 * card last (@console_file, set as the job starts) and DEBUG_IOCTL_CONSOLE
 * hands it the records it has not had yet (@console_next, a record number
 * of that file), leaving them for the target: the session's view and the
 * target's reads are independent.
 *
 * The fields are under the DM lock, as the drain that takes a running
 * job's records off the card must be; @console_gen tells a CONSOLE call
 * that copied out without it whether the session followed another file
 * meanwhile.  The records go to userspace with no lock held (a fault on
 * @data may take mmap_lock, which comes before the DM lock).
 */

#include <linux/slab.h>
#include <linux/uaccess.h>

#include "vortex_compat.h"
#include "vortex_accel.h"
#include "vortex_console.h"
#include "vortex_debug.h"
#include "vortex_device.h"
#include "vortex_dm.h"

/**
 * vortex_debug_console_follow() - the target's job of @vfile goes on the card
 * @dbg: the session
 * @vfile: the job's file
 *
 * DM lock held.  The session follows @vfile's console from its oldest
 * unread record, unless it follows it already.
 */
void vortex_debug_console_follow(struct vortex_debug *dbg, struct vortex_file *vfile)
{
	lockdep_assert_held(&dbg->vdev->dm.lock);
	if (dbg->console_file == vfile)
		return;
	kref_get(&vfile->ref);
	if (dbg->console_file)
		vortex_file_put(dbg->console_file);
	dbg->console_file = vfile;
	dbg->console_next = vortex_console_first_unread(vfile);
	dbg->console_gen++;
}

/**
 * vortex_debug_console_release() - the session lets go of the console
 * @dbg: the session, detached
 */
void vortex_debug_console_release(struct vortex_debug *dbg)
{
	if (dbg->console_file)
		vortex_file_put(dbg->console_file);
	dbg->console_file = NULL;
}

/**
 * vortex_debug_console_ioctl() - DRM_VORTEX_DEBUG_IOCTL_CONSOLE
 * @dbg: the session
 * @data: struct drm_vortex_debug_console, copied in
 *
 * Return: 0, or a negative errno; nothing is taken on an error.
 */
int vortex_debug_console_ioctl(struct vortex_debug *dbg, void *data)
{
	struct drm_vortex_debug_console *args = data;
	struct vortex_device *vdev = dbg->vdev;
	u64 next = 0, skipped = 0, gen;
	u32 *tmp, n = 0, max;

	if (args->flags || args->pad)
		return vortex_debug_reject(dbg, -EINVAL, "CONSOLE: flags 0x%x, pad 0x%llx",
					   args->flags, args->pad);
	max = min_t(u32, args->count, VORTEX_CONSOLE_FILE);
	tmp = kvmalloc_array(max ?: 1, sizeof(u32), GFP_KERNEL_ACCOUNT);
	if (!tmp)
		return -ENOMEM;

	mutex_lock(&vdev->dm.lock);
	gen = dbg->console_gen;
	if (dbg->console_file) {
		/* What the job printed so far may still be on the card. */
		if (vdev->console.owner == dbg->console_file)
			vortex_console_drain(vdev);
		next = dbg->console_next;
		n = vortex_console_read_from(dbg->console_file, &next, tmp, max, &skipped);
	}
	mutex_unlock(&vdev->dm.lock);

	if (n && copy_to_user(u64_to_user_ptr(args->data), tmp, n * sizeof(u32))) {
		kvfree(tmp);
		return vortex_debug_reject(dbg, -EFAULT, "CONSOLE: data 0x%llx not writable",
					   args->data);
	}
	kvfree(tmp);
	mutex_lock(&vdev->dm.lock);
	if (dbg->console_gen == gen && next > dbg->console_next)
		dbg->console_next = next;
	mutex_unlock(&vdev->dm.lock);
	args->count = n;
	args->skipped = skipped;
	return 0;
}
