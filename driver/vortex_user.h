/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_USER_H__
#define __VORTEX_USER_H__

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/types.h>

struct vortex_device;

/**
 * struct vortex_user - what one user holds on the card (vortex_user.c)
 */
struct vortex_user {
	/** @ref: files, and jobs through their file, hold one each */
	struct kref ref;
	/** @vdev: the device */
	struct vortex_device *vdev;
	/** @key: the real uid, in the initial namespace */
	u32 key;
	/** @files: open files of the node */
	atomic_t files;
	/** @jobs: jobs submitted and not yet freed */
	atomic_t jobs;
	/** @bo_refs: buffer references those jobs hold */
	atomic_t bo_refs;
	/** @syncobjs: syncobjs made through the node and not destroyed */
	atomic_t syncobjs;
};

int vortex_user_init(struct vortex_device *vdev);
struct vortex_user *vortex_user_get(struct vortex_device *vdev);
void vortex_user_put(struct vortex_user *user);
int vortex_user_open(struct vortex_user *user);
void vortex_user_close(struct vortex_user *user);
int vortex_user_job_add(struct vortex_user *user, u32 bo_refs);
void vortex_user_job_del(struct vortex_user *user, u32 bo_refs);
int vortex_user_syncobj_add(struct vortex_user *user, u32 n);
void vortex_user_syncobj_del(struct vortex_user *user, u32 n);

#endif /* __VORTEX_USER_H__ */
