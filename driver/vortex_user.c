// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Bounds per user
 *
 * A file bounds its own jobs (%VORTEX_MAX_JOBS_IN_FLIGHT), but a client
 * may open as many files as it likes: 33 files with 256 jobs of 4096
 * buffer references each took the slab from 15 to 441 MB, 5,000 open
 * files cost 260 MB, and 1.5 M syncobjs 391 MB, each ending in the OOM
 * killer.  What the driver allocates for a client is charged to its memory
 * cgroup (GFP_KERNEL_ACCOUNT), which bounds a client that runs in one; the
 * syncobjs and DRM's own per-file state are not, and a machine need not
 * limit its users' memory at all.  So the driver also counts, per user
 * (real uid, as RLIMIT_NPROC does), what a client can multiply:
 *
 * - open files of the node, at most ``user_max_files`` (default 1024):
 *   open() past it is -EMFILE;
 * - jobs submitted and not yet freed, at most ``user_max_jobs`` (default
 *   16384), and the buffer references they hold, at most
 *   ``user_max_bo_refs`` (default 1048576): SUBMIT past either is -EBUSY,
 *   as a file's own bound is;
 * - syncobjs made through the node (SYNCOBJ_CREATE, and FD_TO_HANDLE when
 *   it makes a handle), at most ``user_max_syncobjs`` (default 65536):
 *   past it, -ENOSPC.
 *
 * The module parameters may be changed at run time; a lower bound applies
 * to what comes next.  Counts live in a &struct vortex_user per uid, made
 * by the first file of that uid and freed with the last thing (a file, or
 * a job that outlives it) that counts on it.
 */

#include <linux/cred.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include <linux/xarray.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "vortex_device.h"
#include "vortex_user.h"

static unsigned int vortex_user_max_files = 1024;
module_param_named(user_max_files, vortex_user_max_files, uint, 0644);
MODULE_PARM_DESC(user_max_files, "Open files of the node per user (default 1024)");

static unsigned int vortex_user_max_jobs = 16384;
module_param_named(user_max_jobs, vortex_user_max_jobs, uint, 0644);
MODULE_PARM_DESC(user_max_jobs, "Jobs in flight per user, over all files (default 16384)");

static unsigned int vortex_user_max_bo_refs = 1 << 20;
module_param_named(user_max_bo_refs, vortex_user_max_bo_refs, uint, 0644);
MODULE_PARM_DESC(user_max_bo_refs,
		 "Buffer references held by jobs in flight per user (default 1048576)");

static unsigned int vortex_user_max_syncobjs = 65536;
module_param_named(user_max_syncobjs, vortex_user_max_syncobjs, uint, 0644);
MODULE_PARM_DESC(user_max_syncobjs, "Syncobjs made through the node per user (default 65536)");

/* Adds @n to @count unless that passes @max; true if it did. */
static bool vortex_user_charge(atomic_t *count, unsigned int n, unsigned int max)
{
	if (atomic_add_return(n, count) > READ_ONCE(max)) {
		atomic_sub(n, count);
		return false;
	}
	return true;
}

/**
 * vortex_user_get() - the counts of the calling process's user
 * @vdev: the device
 *
 * Return: a reference, to vortex_user_put(), or an ERR_PTR (-ENOMEM).
 */
struct vortex_user *vortex_user_get(struct vortex_device *vdev)
{
	u32 key = from_kuid(&init_user_ns, current_uid());
	struct vortex_user *user, *old;

	mutex_lock(&vdev->users_lock);
	user = xa_load(&vdev->users, key);
	if (user) {
		kref_get(&user->ref);
		goto out_unlock;
	}
	user = kzalloc(sizeof(*user), GFP_KERNEL_ACCOUNT);
	if (!user) {
		user = ERR_PTR(-ENOMEM);
		goto out_unlock;
	}
	kref_init(&user->ref);
	user->vdev = vdev;
	user->key = key;
	old = xa_store(&vdev->users, key, user, GFP_KERNEL_ACCOUNT);
	if (xa_is_err(old)) {
		kfree(user);
		user = ERR_PTR(xa_err(old));
	}
out_unlock:
	mutex_unlock(&vdev->users_lock);
	return user;
}

static void vortex_user_release(struct kref *ref)
{
	struct vortex_user *user = container_of(ref, struct vortex_user, ref);

	xa_erase(&user->vdev->users, user->key);
	mutex_unlock(&user->vdev->users_lock);
	kfree(user);
}

/**
 * vortex_user_put() - drop a reference to a user's account
 * @user: the user's account
 */
void vortex_user_put(struct vortex_user *user)
{
	kref_put_mutex(&user->ref, vortex_user_release, &user->vdev->users_lock);
}

/**
 * vortex_user_open() - a file of the user opens
 * @user: the user's account
 *
 * Return: 0, or -EMFILE past user_max_files.
 */
int vortex_user_open(struct vortex_user *user)
{
	if (vortex_user_charge(&user->files, 1, vortex_user_max_files))
		return 0;
	drm_dbg(&user->vdev->drm, "open: uid %u has %u files open already\n",
		user->key, vortex_user_max_files);
	return -EMFILE;
}

/**
 * vortex_user_close() - a file of the user closes
 * @user: the user's account
 */
void vortex_user_close(struct vortex_user *user)
{
	atomic_dec(&user->files);
}

/**
 * vortex_user_job_add() - charge a job to the user
 * @user: the user's account
 * @bo_refs: its buffer references
 *
 * Return: 0, or -EBUSY past user_max_jobs or user_max_bo_refs.
 */
int vortex_user_job_add(struct vortex_user *user, u32 bo_refs)
{
	if (!vortex_user_charge(&user->jobs, 1, vortex_user_max_jobs)) {
		drm_dbg(&user->vdev->drm, "SUBMIT: uid %u has %u jobs in flight\n",
			user->key, vortex_user_max_jobs);
		return -EBUSY;
	}
	if (!vortex_user_charge(&user->bo_refs, bo_refs, vortex_user_max_bo_refs)) {
		atomic_dec(&user->jobs);
		drm_dbg(&user->vdev->drm, "SUBMIT: uid %u holds %u buffer references in jobs\n",
			user->key, vortex_user_max_bo_refs);
		return -EBUSY;
	}
	return 0;
}

/**
 * vortex_user_job_del() - a job charged to the user is freed
 * @user: the user's account
 * @bo_refs: its buffer references, as charged
 */
void vortex_user_job_del(struct vortex_user *user, u32 bo_refs)
{
	atomic_sub(bo_refs, &user->bo_refs);
	atomic_dec(&user->jobs);
}

/**
 * vortex_user_syncobj_add() - charge syncobjs about to be made
 * @user: the user's account
 * @n: how many
 *
 * Return: 0, or -ENOSPC past user_max_syncobjs.
 */
int vortex_user_syncobj_add(struct vortex_user *user, u32 n)
{
	if (vortex_user_charge(&user->syncobjs, n, vortex_user_max_syncobjs))
		return 0;
	drm_dbg(&user->vdev->drm, "SYNCOBJ: uid %u has %u syncobjs\n",
		user->key, vortex_user_max_syncobjs);
	return -ENOSPC;
}

/**
 * vortex_user_syncobj_del() - syncobjs charged to the user are gone
 * @user: the user's account
 * @n: how many
 */
void vortex_user_syncobj_del(struct vortex_user *user, u32 n)
{
	atomic_sub(n, &user->syncobjs);
}

/**
 * vortex_user_init() - the device's table of users
 * @vdev: the device
 *
 * Empty once every file is gone.
 *
 * Return: 0, or a negative errno.
 */
int vortex_user_init(struct vortex_device *vdev)
{
	xa_init(&vdev->users);
	return drmm_mutex_init(&vdev->drm, &vdev->users_lock);
}
