/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_VM_H__
#define __VORTEX_VM_H__

#include <linux/list.h>
#include <linux/types.h>

struct drm_device;
struct drm_file;
struct drm_gem_object;
struct vortex_device;
struct vortex_vm;

int vortex_vm_init(struct vortex_device *vdev);

/* Operations each space's VM log keeps (vortex_vm_log.c). */
#define VORTEX_VM_LOG		32
#define VORTEX_VM_LOG_MAP	1
#define VORTEX_VM_LOG_UNMAP	2

/**
 * struct vortex_vm_log_entry - one map or unmap of a space
 */
struct vortex_vm_log_entry {
	/** @va: first address */
	u64 va;
	/** @range: bytes */
	u64 range;
	/** @job: the file's newest job number then (0: none yet) */
	u64 job;
	/** @op: VORTEX_VM_LOG_MAP or VORTEX_VM_LOG_UNMAP */
	u8 op;
};

u32 vortex_vm_log_copy(struct vortex_vm *vm, struct vortex_vm_log_entry *out);

struct vortex_vm *vortex_vm_create(struct vortex_device *vdev);
void vortex_vm_destroy(struct vortex_vm *vm);
u32 vortex_vm_satp(const struct vortex_vm *vm);
u32 vortex_vm_asid(const struct vortex_vm *vm);
void vortex_vm_switch(struct vortex_vm *vm);

/**
 * struct vortex_vm_ticket - a job, as its address space counts it
 */
struct vortex_vm_ticket {
	/** @link: in the space's list of jobs, oldest first */
	struct list_head link;
	/** @seq: the job's number in the space */
	u64 seq;
	/** @ended: the job has left the card for good (vortex_vm_job_end()) */
	bool ended;
};

/* A job of the space's file exists: handles closed now keep their mapping. */
void vortex_vm_job_get(struct vortex_vm *vm, struct vortex_vm_ticket *t);
void vortex_vm_job_end(struct vortex_vm *vm, struct vortex_vm_ticket *t);
void vortex_vm_job_put(struct vortex_vm *vm, struct vortex_vm_ticket *t);

/* &drm_gem_object_funcs.open and .close: a handle maps, its close unmaps. */
int vortex_vm_gem_open(struct drm_gem_object *obj, struct drm_file *file);
void vortex_vm_gem_close(struct drm_gem_object *obj, struct drm_file *file);

struct drm_gem_object *vortex_vm_get_bo(struct vortex_vm *vm, u64 addr,
					u64 *avail, u64 *vram);

int vortex_vm_bind_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file);

bool vortex_vm_bo_va(struct vortex_vm *vm, struct drm_gem_object *obj,
		     u64 *va, u64 *range, u64 *offset);
u64 vortex_vm_window_map(struct vortex_vm *vm, u64 vram_offset, u64 size);
void vortex_vm_window_unmap(struct vortex_vm *vm, u64 size);

#endif /* __VORTEX_VM_H__ */
