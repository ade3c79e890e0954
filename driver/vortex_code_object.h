/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_CODE_OBJECT_H__
#define __VORTEX_CODE_OBJECT_H__

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct drm_device;
struct drm_file;
struct vortex_file;

/**
 * struct vortex_code_objects - a file's registered images (vortex_code_object.c)
 */
struct vortex_code_objects {
	/** @lock: protects @list and @count (vortex_device.h, "Lock order") */
	struct mutex lock;
	/** @list: the objects, oldest first */
	struct list_head list;
	/** @count: entries in @list, at most DRM_VORTEX_MAX_CODE_OBJECTS */
	u32 count;
};

/**
 * struct vortex_code_ref - a code object as jobs and events name it
 */
struct vortex_code_ref {
	/** @id: the object's id, 0 for none */
	u32 id;
	/** @elf_addr: where a debugger reads the ELF file's bytes (virtual) */
	u32 elf_addr;
	/** @elf_size: bytes of the ELF file */
	u32 elf_size;
	/** @load_addr: device address of the loaded image */
	u32 load_addr;
	/** @load_size: bytes the image spans */
	u32 load_size;
};

int vortex_code_object_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file);
void vortex_code_object_init(struct vortex_file *vfile);
void vortex_code_object_find(struct vortex_file *vfile, u64 pc,
			     struct vortex_code_ref *out);
void vortex_code_object_replay(struct vortex_file *vfile);
void vortex_code_object_fini(struct vortex_file *vfile);

#endif /* __VORTEX_CODE_OBJECT_H__ */
