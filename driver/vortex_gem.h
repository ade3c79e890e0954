/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_GEM_H__
#define __VORTEX_GEM_H__

#include <drm/drm_gem.h>
#include <linux/spinlock.h>
#include <drm/drm_mm.h>

#include "vortex_accel.h"

struct drm_device;
struct drm_file;
struct vortex_device;

/**
 * struct vortex_bo - a buffer object: one contiguous range of VRAM
 */
struct vortex_bo {
	/** @base: the GEM object */
	struct drm_gem_object base;
	/** @node: VRAM range, byte offsets */
	struct drm_mm_node node;
	/** @flags: DRM_VORTEX_BO_GPU_*, fixed at creation */
	u32 flags;
	/** @label_lock: guards @label (a crash dump copies it in recovery) */
	spinlock_t label_lock;
	/** @label: DRM_IOCTL_VORTEX_BO_SET_LABEL's, "" for none */
	char label[DRM_VORTEX_BO_LABEL_MAX];
};

static inline struct vortex_bo *to_vortex_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct vortex_bo, base);
}

/* Whether only VM_BIND maps it (DRM_VORTEX_BO_NO_MAP): no handle mapping. */
static inline bool vortex_bo_no_map(const struct vortex_bo *bo)
{
	return bo->flags & DRM_VORTEX_BO_NO_MAP;
}

/* Device address of the buffer's first byte. */
u64 vortex_bo_devaddr(struct vortex_bo *bo);

int vortex_gem_init(struct vortex_device *vdev);
void vortex_gem_unplug(struct vortex_device *vdev);

int vortex_gem_bo_create_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *file);
int vortex_gem_bo_info_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file);
int vortex_gem_bo_set_label_ioctl(struct drm_device *drm, void *data,
				  struct drm_file *file);
void vortex_bo_label(struct vortex_bo *bo, char *out);

#endif /* __VORTEX_GEM_H__ */
