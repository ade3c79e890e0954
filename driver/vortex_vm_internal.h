/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
/*
 * The inside of a GPU address space, shared by vortex_vm.c (spaces, page
 * tables, handle mappings) and vortex_vm_bind.c (VM_BIND) only.
 */
#ifndef __VORTEX_VM_INTERNAL_H__
#define __VORTEX_VM_INTERNAL_H__

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <drm/drm_gpuvm.h>
#include <drm/drm_mm.h>

#include "vortex_vm.h"

#define VORTEX_VM_PTES		1024		/* entries of a table */

struct vortex_bo;
struct vortex_device;

/**
 * struct vortex_vma - one buffer range mapped in one address space
 */
struct vortex_vma {
	/** @va: the mapping, in the space's &drm_gpuvm */
	struct drm_gpuva va;
	/** @handles: the file's handles to the buffer (one, in practice) */
	unsigned int handles;
	/**
	 * @bound: made by VM_BIND (4 KiB pages, any address), not by a
	 * handle (at the buffer's device address, megapages where they fit)
	 */
	bool bound;
	/** @deferred: on &vortex_vm.deferred while unmapping waits for jobs */
	struct list_head deferred;
	/** @last_job: the space's newest job when it was unmapped (handle closed) */
	u64 last_job;
};

/**
 * struct vortex_vm - one file's GPU address space
 */
struct vortex_vm {
	/** @base: VA ranges, mappings and buffer links */
	struct drm_gpuvm base;
	/** @vdev: the card */
	struct vortex_device *vdev;
	/** @lock: protects the mappings, the page tables and @deferred */
	struct mutex lock;
	/** @jobs_lock: protects @jobs and @job_seq (process context) */
	spinlock_t jobs_lock;
	/** @jobs: the file's jobs not yet freed, oldest first */
	struct list_head jobs;
	/** @job_seq: number of the newest job */
	u64 job_seq;
	/**
	 * @deferred: mappings unmapped while jobs of the file may use them,
	 * by &vortex_vma.last_job: each is unmapped once every job up to its
	 * last_job has ended
	 */
	struct list_head deferred;
	/** @asid: the space's ASID */
	u32 asid;
	/** @id: unique on the card, never reused (the shared ASID's owner) */
	u64 id;
	/** @root: the level-1 table */
	struct drm_mm_node root;
	/** @window: the level-0 table of the dump window */
	struct drm_mm_node window;
	/** @tables: level-0 tables, by level-1 index, or NULL */
	struct drm_mm_node *tables[VORTEX_VM_PTES];
	/** @used: valid PTEs in each of @tables */
	u16 used[VORTEX_VM_PTES];
	/** @log_lock: guards @log and @log_count (recovery reads them) */
	spinlock_t log_lock;
	/** @log: the last maps and unmaps, a ring (vortex_vm_log.c) */
	struct vortex_vm_log_entry log[VORTEX_VM_LOG];
	/** @log_count: operations ever logged */
	u64 log_count;
};

static inline struct vortex_vm *to_vortex_vm(struct drm_gpuvm *gpuvm)
{
	return container_of(gpuvm, struct vortex_vm, base);
}

static inline struct vortex_vma *to_vortex_vma(struct drm_gpuva *va)
{
	return container_of(va, struct vortex_vma, va);
}

u32 vortex_vm_leaf(const struct vortex_bo *bo);
int vortex_vm_map_range(struct vortex_vm *vm, u64 va, u64 pa, u64 size,
			u32 leaf, bool mega);
void vortex_vm_unmap_range(struct vortex_vm *vm, u64 va, u64 end);
void vortex_vm_unmap_locked(struct vortex_vm *vm, struct vortex_vma *vma);
void vortex_vm_defer_locked(struct vortex_vm *vm, struct vortex_vma *vma);
void vortex_vm_reap_locked(struct vortex_vm *vm);
int vortex_vm_range_free(struct vortex_vm *vm, u64 start, u64 end);
void vortex_vm_log(struct vortex_vm *vm, u8 op, u64 va, u64 range);

/* vortex_vm_bind.c: drm_gpuvm's split/merge steps */
int vortex_vm_bind_step_map(struct drm_gpuva_op *op, void *priv);
int vortex_vm_bind_step_remap(struct drm_gpuva_op *op, void *priv);
int vortex_vm_bind_step_unmap(struct drm_gpuva_op *op, void *priv);

#endif /* __VORTEX_VM_INTERNAL_H__ */
