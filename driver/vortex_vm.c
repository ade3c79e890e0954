// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: GPU address spaces
 *
 * Every open file has its own GPU address space: Sv32 page tables in VRAM
 * and an ASID (docs/hardware.md, "Address translation"), named by the SATP
 * dword of the LAUNCH packet of each of the file's jobs.  A kernel reaches
 * exactly the buffers its file has handles to.  Other files' buffers, freed
 * VRAM, the ring, the page tables themselves and every other driver
 * structure are mapped in no space, and a kernel touching them takes a
 * page fault (-EIO, the cause and virtual address in the log and the dump).
 *
 * A buffer is mapped when a file gets a handle to it (BO_CREATE, or a PRIME
 * import) and unmapped when that handle goes: the GEM object's open and
 * close callbacks.  It is mapped at the virtual address equal to its
 * device address, so a buffer has one address in every space that maps
 * it, and the address fields of the uapi keep their meaning.  Leaves allow
 * read, and write and execute unless the buffer's DRM_VORTEX_BO_GPU_*
 * flags forbid them; the card never sets A or D, so both are set.
 * Buffers of 4 MiB or more start on a 4 MiB boundary (vortex_gem.c) and
 * their aligned 4 MiB pieces are megapages.  &drm_gpuvm keeps the
 * mappings: one &drm_gpuva each, linked to its object through a
 * &drm_gpuvm_bo, which holds a reference on the object.
 *
 * DRM_VORTEX_BO_NO_MAP buffers get no such mapping; VM_BIND
 * (vortex_vm_bind.c) maps pages of any buffer at addresses the client
 * chooses, beside the handle mappings, in the same &drm_gpuvm and tables.
 *
 * A handle closed while the file has jobs keeps its mapping until every
 * job made before the close has left the card for good (a job may use any
 * buffer of its file, not only those it lists); jobs made after it do not
 * hold it up: the next job made, the next job put on the card, or the
 * release of an ended one does the unmapping, so no job made after the
 * close runs with the buffer mapped.
 * Unmapping clears the PTEs and invalidates the card's TLB before the
 * mapping lets go of the object, and an object's memory is cleared before
 * it is freed (vortex_gem.c), so no space ever maps memory another client
 * may get.
 *
 * Page tables are VRAM nodes outside every buffer, taken from the top of
 * VRAM.  A level-0 table is freed when its last PTE is cleared, after the
 * TLB invalidation.  ASIDs come from an IDA, 1 to %VORTEX_VM_MAX_ASID - 1,
 * and a file's ASID is invalidated before it is given to another file.
 * Files opened while those are all taken share the last ASID,
 * %VORTEX_VM_SHARED_ASID: a launch of such a file whose space is not the
 * one that last ran under it first drops every translation of that ASID
 * (vortex_vm_switch(), the card idle between jobs), so the TLB never
 * serves one file another's translations.  The number of open files is
 * thus bounded by VRAM for the tables only; the files past the first
 * %VORTEX_VM_MAX_ASID - 1 pay a TLB refill when they take turns.
 *
 * The only other mapping is the dump window: while a recovery dump holds
 * the card frozen, warps store their registers through it into driver
 * VRAM (vortex_warp_dump_regs()).  It lies below VRAM, reserved in the
 * &drm_gpuvm, and is unmapped and invalidated before the card runs again.
 */

#include <linux/dma-resv.h>
#include <linux/idr.h>
#include <linux/io.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gpuvm.h>
#include <drm/drm_managed.h>
#include <drm/drm_mm.h>
#include <drm/drm_print.h>

#include "vortex_compat.h"
#include "vortex_accel.h"
#include "vortex_device.h"
#include "vortex_gem.h"
#include "vortex_regs.h"
#include "vortex_vm.h"
#include "vortex_vm_internal.h"

#define VORTEX_VM_MAX_ASID	511		/* 9 bits; 0 is never used */
#define VORTEX_VM_SHARED_ASID	VORTEX_VM_MAX_ASID
/* The dump window: one level-0 table's worth, below VRAM. */
#define VORTEX_VM_WINDOW	DRM_VORTEX_VM_RESERVED_START
/* Unmapping more pages than this invalidates the ASID, not each page. */
#define VORTEX_VM_INVAL_PAGES	16

#define VORTEX_PTE_LEAF		(VX_PTE_V | VX_PTE_R | VX_PTE_W | VX_PTE_X | \
				 VX_PTE_U | VX_PTE_A | VX_PTE_D)

/**
 * vortex_vm_leaf() - the leaf bits of a buffer's mapping
 * @bo: the buffer
 *
 * Return: the PTE bits its DRM_VORTEX_BO_GPU_* flags allow.
 */
u32 vortex_vm_leaf(const struct vortex_bo *bo)
{
	u32 leaf = VORTEX_PTE_LEAF;

	if (bo->flags & DRM_VORTEX_BO_GPU_READ_ONLY)
		leaf &= ~VX_PTE_W;
	if (bo->flags & DRM_VORTEX_BO_GPU_NO_EXEC)
		leaf &= ~VX_PTE_X;
	return leaf;
}

static u64 vortex_vm_node_pa(struct vortex_device *vdev, struct drm_mm_node *node)
{
	return vdev->devaddr + node->start;
}

static u32 vortex_pte(u64 pa, u32 flags)
{
	return VX_PTE_MAKE(pa >> VX_PAGE_SHIFT, flags);
}

/* Entry @i of the table @node; the caller is inside drm_dev_enter(). */
static void vortex_vm_set(struct vortex_vm *vm, struct drm_mm_node *node,
			  u32 i, u32 pte)
{
	writel(pte, vm->vdev->vram + node->start + i * sizeof(u32));
}

static int vortex_vm_table_alloc(struct vortex_vm *vm, struct drm_mm_node *node)
{
	struct vortex_device *vdev = vm->vdev;
	int ret;

	mutex_lock(&vdev->mm_lock);
	ret = drm_mm_insert_node_generic(&vdev->mm, node, SZ_4K, SZ_4K, 0,
					 DRM_MM_INSERT_HIGH);
	mutex_unlock(&vdev->mm_lock);
	if (ret)
		return -ENOMEM;
	memset_io(vdev->vram + node->start, 0, SZ_4K);
	return 0;
}

static void vortex_vm_table_free(struct vortex_vm *vm, struct drm_mm_node *node)
{
	struct vortex_device *vdev = vm->vdev;

	if (!drm_mm_node_allocated(node))
		return;
	mutex_lock(&vdev->mm_lock);
	drm_mm_remove_node(node);
	mutex_unlock(&vdev->mm_lock);
}

/*
 * Whether the 4 MiB piece of [@va, @end) at @va may be a megapage: a
 * handle's mapping, where the address is its own physical address, is
 * mapped with one wherever this holds; VM_BIND's never are.
 */
static bool vortex_vm_mega(u64 va, u64 end)
{
	return IS_ALIGNED(va, SZ_4M) && end - va >= SZ_4M;
}

/*
 * Unmaps [@va, @end): PTEs only, and only the counts while the card is
 * gone (@hw false); the caller invalidates, then sweeps.
 */
static void vortex_vm_clear_range(struct vortex_vm *vm, u64 va, u64 end, bool hw)
{
	vortex_vm_log(vm, VORTEX_VM_LOG_UNMAP, va, end - va);
	while (va < end) {
		u32 l1 = va >> 22;
		u64 next = min_t(u64, end, ALIGN_DOWN(va, SZ_4M) + SZ_4M);
		u32 n = (next - va) >> VX_PAGE_SHIFT;

		/* A 4 MiB slot with a level-0 table holds no megapage. */
		if (vortex_vm_mega(va, end) && !vm->tables[l1]) {
			if (hw)
				vortex_vm_set(vm, &vm->root, l1, 0);
		} else if (vm->tables[l1]) {
			if (hw)
				memset_io(vm->vdev->vram + vm->tables[l1]->start +
					  ((va >> VX_PAGE_SHIFT) & 1023) * sizeof(u32),
					  0, n * sizeof(u32));
			vm->used[l1] -= n;
			if (!vm->used[l1] && hw)
				vortex_vm_set(vm, &vm->root, l1, 0);
		}
		va = next;
	}
}

/* Frees the level-0 tables of [@va, @end) left empty, after invalidation. */
static void vortex_vm_sweep(struct vortex_vm *vm, u64 va, u64 end)
{
	u32 l1;

	for (l1 = va >> 22; l1 <= (end - 1) >> 22; l1++) {
		if (vm->tables[l1] && !vm->used[l1]) {
			vortex_vm_table_free(vm, vm->tables[l1]);
			kfree(vm->tables[l1]);
			vm->tables[l1] = NULL;
		}
	}
}

/* The level-0 table of @l1, made if needed. */
static int vortex_vm_table_get(struct vortex_vm *vm, u32 l1)
{
	struct drm_mm_node *node;
	int ret;

	if (vm->tables[l1])
		return 0;
	node = kzalloc(sizeof(*node), GFP_KERNEL_ACCOUNT);
	if (!node)
		return -ENOMEM;
	ret = vortex_vm_table_alloc(vm, node);
	if (ret) {
		kfree(node);
		return ret;
	}
	vm->tables[l1] = node;
	vortex_vm_set(vm, &vm->root, l1,
		      vortex_pte(vortex_vm_node_pa(vm->vdev, node), VX_PTE_V));
	return 0;
}

static void vortex_vm_tlb_inval(struct vortex_vm *vm, u64 va, u64 size);

/**
 * vortex_vm_unmap_range() - undo a mapping that never got to a job
 * @vm: the address space
 * @va: its start
 * @end: its end
 *
 * A job of the file may still have touched it meanwhile, so it is
 * invalidated like any.
 */
void vortex_vm_unmap_range(struct vortex_vm *vm, u64 va, u64 end)
{
	vortex_vm_clear_range(vm, va, end, true);
	vortex_vm_tlb_inval(vm, va, end - va);
	vortex_vm_sweep(vm, va, end);
}

/**
 * vortex_vm_map_range() - map a range onto device addresses
 * @vm: the address space
 * @va: the start
 * @pa: the device address @va maps to
 * @size: bytes
 * @leaf: the PTE bits (vortex_vm_leaf())
 * @mega: a handle's mapping (@pa == @va): megapages where they fit
 *
 * Maps [@va, @va + @size); undone in full on failure.
 *
 * Return: 0, or a negative errno.
 */
int vortex_vm_map_range(struct vortex_vm *vm, u64 va, u64 pa, u64 size,
			u32 leaf, bool mega)
{
	u64 start = va, end = va + size;
	int ret;

	while (va < end) {
		u32 l1 = va >> 22;
		u64 next = min_t(u64, end, ALIGN_DOWN(va, SZ_4M) + SZ_4M);

		if (mega && vortex_vm_mega(va, end)) {
			vortex_vm_set(vm, &vm->root, l1, vortex_pte(pa, leaf));
			pa += next - va;
			va = next;
			continue;
		}
		ret = vortex_vm_table_get(vm, l1);
		if (ret) {
			if (va > start)
				vortex_vm_unmap_range(vm, start, va);
			return ret;
		}
		for (; va < next; va += SZ_4K, pa += SZ_4K) {
			vortex_vm_set(vm, vm->tables[l1], (va >> VX_PAGE_SHIFT) & 1023,
				      vortex_pte(pa, leaf));
			vm->used[l1]++;
		}
	}
	/* In VRAM before a doorbell can start a job that uses them. */
	wmb();
	vortex_vm_log(vm, VORTEX_VM_LOG_MAP, start, size);
	return 0;
}

/* Drops the card's cached translations of [@va, @va + @size) in @vm. */
static void vortex_vm_tlb_inval(struct vortex_vm *vm, u64 va, u64 size)
{
	struct vortex_device *vdev = vm->vdev;
	unsigned long flags;
	u64 off;

	/* The cleared PTEs out of the write-combining buffer first. */
	wmb();
	spin_lock_irqsave(&vdev->tlb_lock, flags);
	vortex_write(vdev, VX_REG_TLB_ASID, vm->asid);
	if (size >> VX_PAGE_SHIFT > VORTEX_VM_INVAL_PAGES) {
		vortex_write(vdev, VX_REG_TLB_INVAL, VX_TLB_INVAL_ASID);
	} else {
		for (off = 0; off < size; off += SZ_4K) {
			vortex_write(vdev, VX_REG_TLB_VA, va + off);
			vortex_write(vdev, VX_REG_TLB_INVAL, VX_TLB_INVAL_PAGE);
		}
	}
	spin_unlock_irqrestore(&vdev->tlb_lock, flags);
}

/**
 * vortex_vm_unmap_locked() - remove a mapping
 * @vm: the address space
 * @vma: the mapping
 *
 * The PTEs are cleared and the TLB invalidated (if the card is still
 * there) before the link, and so the object, is let go.
 */
void vortex_vm_unmap_locked(struct vortex_vm *vm, struct vortex_vma *vma)
{
	struct drm_gem_object *obj = vma->va.gem.obj;
	u64 va = vma->va.va.addr, size = vma->va.va.range;
	int idx;

	lockdep_assert_held(&vm->lock);
	if (drm_dev_enter(&vm->vdev->drm, &idx)) {
		vortex_vm_clear_range(vm, va, va + size, true);
		vortex_vm_tlb_inval(vm, va, size);
		drm_dev_exit(idx);
	} else {
		/* The card is gone: only the bookkeeping is left. */
		vortex_vm_clear_range(vm, va, va + size, false);
	}
	vortex_vm_sweep(vm, va, va + size);

	list_del(&vma->deferred);
	drm_gpuva_remove(&vma->va);
	/* The link may hold the last reference: keep one past the unlock. */
	drm_gem_object_get(obj);
	dma_resv_lock(obj->resv, NULL);
	drm_gpuva_unlink(&vma->va);
	dma_resv_unlock(obj->resv);
	drm_gem_object_put(obj);
	kfree(vma);
}

/* The mapping @obj's handles made, if any (not one VM_BIND made there). */
static struct vortex_vma *vortex_vm_find(struct vortex_vm *vm,
					 struct drm_gem_object *obj)
{
	struct drm_gpuva *va;

	va = drm_gpuva_find(&vm->base, vortex_bo_devaddr(to_vortex_bo(obj)),
			    obj->size);
	if (!va || va->gem.obj != obj || to_vortex_vma(va)->bound)
		return NULL;
	return to_vortex_vma(va);
}

/**
 * vortex_vm_range_free() - whether nothing is mapped in [@start, @end)
 * @vm: the space, locked, reaped
 * @start: first address
 * @end: past the last
 *
 * Return: 0; -EEXIST something is mapped there; -EBUSY only mappings
 * whose unmapping waits for older jobs.
 */
int vortex_vm_range_free(struct vortex_vm *vm, u64 start, u64 end)
{
	struct drm_gpuva *va;
	int ret = 0;

	lockdep_assert_held(&vm->lock);
	drm_gpuvm_for_each_va_range(va, &vm->base, start, end) {
		if (va == &vm->base.kernel_alloc_node ||
		    list_empty(&to_vortex_vma(va)->deferred))
			return -EEXIST;
		ret = -EBUSY;
	}
	return ret;
}

static int vortex_vm_map_locked(struct vortex_vm *vm, struct drm_gem_object *obj)
{
	u64 va = vortex_bo_devaddr(to_vortex_bo(obj));
	struct drm_gpuva_op_map map = {};
	struct drm_gpuvm_bo *vm_bo;
	struct vortex_vma *vma;
	int ret, idx;

	if (!drm_dev_enter(&vm->vdev->drm, &idx))
		return -ENODEV;
	vma = kzalloc(sizeof(*vma), GFP_KERNEL_ACCOUNT);
	if (!vma) {
		ret = -ENOMEM;
		goto out_exit;
	}
	INIT_LIST_HEAD(&vma->deferred);
	vma->handles = 1;
	map.va.addr = va;
	map.va.range = obj->size;
	map.gem.obj = obj;
	drm_gpuva_init_from_op(&vma->va, &map);
	/*
	 * Buffers never overlap, and none is in the reserved window; but
	 * VM_BIND may have put another buffer at this one's address.
	 */
	vortex_vm_reap_locked(vm);
	ret = vortex_vm_range_free(vm, va, va + obj->size);
	if (ret)
		goto out_free;
	ret = drm_gpuva_insert(&vm->base, &vma->va);
	if (drm_WARN_ON(&vm->vdev->drm, ret))
		goto out_free;
	ret = vortex_vm_map_range(vm, va, va, obj->size,
				  vortex_vm_leaf(to_vortex_bo(obj)), true);
	if (ret)
		goto out_remove;

	dma_resv_lock(obj->resv, NULL);
	vm_bo = drm_gpuvm_bo_obtain_locked(&vm->base, obj);
	if (IS_ERR(vm_bo)) {
		dma_resv_unlock(obj->resv);
		ret = PTR_ERR(vm_bo);
		goto out_unmap;
	}
	drm_gpuva_link(&vma->va, vm_bo);
	drm_gpuvm_bo_put(vm_bo);	/* the link holds it */
	dma_resv_unlock(obj->resv);
	drm_dev_exit(idx);
	return 0;

out_unmap:
	vortex_vm_unmap_range(vm, va, va + obj->size);
out_remove:
	drm_gpuva_remove(&vma->va);
out_free:
	kfree(vma);
out_exit:
	drm_dev_exit(idx);
	return ret;
}

/**
 * vortex_vm_gem_open() - map a buffer in the space of a file that got a handle
 * @obj: the buffer
 * @file: the file
 *
 * A buffer whose earlier handle is closed but still mapped (jobs were in
 * flight) takes that mapping back.
 *
 * A DRM_VORTEX_BO_NO_MAP buffer is mapped only by VM_BIND.
 *
 * Return: 0, -ENOMEM (no memory or VRAM for page tables), -ENODEV,
 * -EEXIST or -EBUSY (VM_BIND mapped something else there).
 */
int vortex_vm_gem_open(struct drm_gem_object *obj, struct drm_file *file)
{
	struct vortex_file *vfile = file->driver_priv;
	struct vortex_vm *vm = vfile->vm;
	struct vortex_vma *vma;
	int ret = 0;

	if (to_vortex_bo(obj)->flags & DRM_VORTEX_BO_NO_MAP)
		return 0;

	mutex_lock(&vm->lock);
	vma = vortex_vm_find(vm, obj);
	if (vma) {
		if (!vma->handles++)
			list_del_init(&vma->deferred);
	} else {
		ret = vortex_vm_map_locked(vm, obj);
	}
	mutex_unlock(&vm->lock);
	return ret;
}

/* Number of the oldest job that has not ended, or past the newest if none. */
static u64 vortex_vm_oldest_job(struct vortex_vm *vm)
{
	struct vortex_vm_ticket *t;
	u64 oldest;

	spin_lock(&vm->jobs_lock);
	oldest = vm->job_seq + 1;
	list_for_each_entry(t, &vm->jobs, link) {
		/* Pairs with vortex_vm_job_end()'s release. */
		if (!smp_load_acquire(&t->ended)) {
			oldest = t->seq;
			break;
		}
	}
	spin_unlock(&vm->jobs_lock);
	return oldest;
}

/**
 * vortex_vm_reap_locked() - unmap what waited for ended jobs
 * @vm: the address space
 *
 * The deferred mappings whose jobs have all ended.
 */
void vortex_vm_reap_locked(struct vortex_vm *vm)
{
	u64 oldest = vortex_vm_oldest_job(vm);
	struct vortex_vma *vma, *next;

	list_for_each_entry_safe(vma, next, &vm->deferred, deferred) {
		if (vma->last_job >= oldest)
			break;
		vortex_vm_unmap_locked(vm, vma);
	}
}

/**
 * vortex_vm_gem_close() - a file's handle to a buffer is gone
 * @obj: the buffer
 * @file: the file
 *
 * Unmaps the buffer from the file's space once the jobs the file has made
 * so far have ended (at once if there are none): any of them may use it.
 * Jobs made later cannot, and do not hold the mapping up.
 */
void vortex_vm_gem_close(struct drm_gem_object *obj, struct drm_file *file)
{
	struct vortex_file *vfile = file->driver_priv;
	struct vortex_vm *vm = vfile->vm;
	struct vortex_vma *vma;

	if (to_vortex_bo(obj)->flags & DRM_VORTEX_BO_NO_MAP)
		return;
	mutex_lock(&vm->lock);
	vma = vortex_vm_find(vm, obj);
	if (!drm_WARN_ON(obj->dev, !vma || !vma->handles) && !--vma->handles) {
		/*
		 * SUBMIT numbers its job before it looks handles up, and this
		 * handle is out of the table by now: a job that found it has
		 * a number up to this one.
		 */
		vortex_vm_defer_locked(vm, vma);
		vortex_vm_reap_locked(vm);
	}
	mutex_unlock(&vm->lock);
}

/**
 * vortex_vm_defer_locked() - unmap @vma once the jobs made so far have ended
 * @vm: the space, locked
 * @vma: a mapping no new job may use from now on
 *
 * The next vortex_vm_reap_locked() unmaps it if they have ended already.
 */
void vortex_vm_defer_locked(struct vortex_vm *vm, struct vortex_vma *vma)
{
	/*
	 * On the list before the reap's check, so that a job ending
	 * meanwhile either is seen gone there or has its successor or its
	 * release see the entry.  Numbers only grow: the list stays sorted.
	 */
	spin_lock(&vm->jobs_lock);
	vma->last_job = vm->job_seq;
	spin_unlock(&vm->jobs_lock);
	list_add_tail(&vma->deferred, &vm->deferred);
}

static void vortex_vm_reap(struct vortex_vm *vm)
{
	if (list_empty(&vm->deferred))
		return;
	mutex_lock(&vm->lock);
	vortex_vm_reap_locked(vm);
	mutex_unlock(&vm->lock);
}

/**
 * vortex_vm_job_get() - a job of the space's file is made
 * @vm: the space
 * @t: the job's ticket
 *
 * First unmaps the closed buffers whose jobs have ended, so the new job
 * finds them gone even if those jobs are not freed yet.  Until the job
 * ends (vortex_vm_job_end()), buffers whose handles close keep their
 * mapping.  Process context.
 */
void vortex_vm_job_get(struct vortex_vm *vm, struct vortex_vm_ticket *t)
{
	vortex_vm_reap(vm);
	t->ended = false;
	spin_lock(&vm->jobs_lock);
	t->seq = ++vm->job_seq;
	list_add_tail(&t->link, &vm->jobs);
	spin_unlock(&vm->jobs_lock);
}

/**
 * vortex_vm_job_end() - a job of the space's file has left the card for good
 * @vm: the space
 * @t: its ticket
 *
 * Any context, no lock: the ticket stays listed, marked, until the job is
 * freed.  The unmapping it allows happens in the next vortex_vm_job_get()
 * or vortex_vm_job_put().
 */
void vortex_vm_job_end(struct vortex_vm *vm, struct vortex_vm_ticket *t)
{
	/* Before the job's fence signals: whoever saw that sees this. */
	smp_store_release(&t->ended, true);
}

/**
 * vortex_vm_job_put() - a job of the space's file is freed
 * @vm: the space
 * @t: its ticket
 *
 * Ends the job if nothing did (one that never reached the card) and
 * unmaps the closed buffers no older job holds up.  Process context.
 */
void vortex_vm_job_put(struct vortex_vm *vm, struct vortex_vm_ticket *t)
{
	spin_lock(&vm->jobs_lock);
	list_del(&t->link);
	spin_unlock(&vm->jobs_lock);
	vortex_vm_reap(vm);
}

/**
 * vortex_vm_get_bo() - the buffer mapped at an address, with a reference
 * @vm: the space
 * @addr: a virtual address
 * @avail: out: bytes of the mapping from @addr on
 * @vram: out: the VRAM offset @addr translates to
 *
 * Return: the buffer, to drm_gem_object_put(), or NULL if @addr is not
 * mapped in @vm.
 */
struct drm_gem_object *vortex_vm_get_bo(struct vortex_vm *vm, u64 addr,
					u64 *avail, u64 *vram)
{
	struct drm_gem_object *obj = NULL;
	struct drm_gpuva *va;

	mutex_lock(&vm->lock);
	va = drm_gpuva_find_first(&vm->base, addr, 1);
	if (va && va->gem.obj && va != &vm->base.kernel_alloc_node) {
		obj = va->gem.obj;
		drm_gem_object_get(obj);
		*avail = va->va.addr + va->va.range - addr;
		*vram = to_vortex_bo(obj)->node.start + va->gem.offset +
			(addr - va->va.addr);
	}
	mutex_unlock(&vm->lock);
	return obj;
}

/**
 * vortex_vm_bo_va() - where a buffer is mapped in a space, lowest first
 * @vm: the space
 * @obj: the buffer
 * @va: out: the mapping's first virtual address
 * @range: out: its bytes
 * @offset: out: the buffer offset it starts at
 *
 * Return: true if @obj is mapped in @vm at all.
 */
bool vortex_vm_bo_va(struct vortex_vm *vm, struct drm_gem_object *obj,
		     u64 *va, u64 *range, u64 *offset)
{
	struct drm_gpuva *gva;
	bool found = false;

	mutex_lock(&vm->lock);
	drm_gpuvm_for_each_va(gva, &vm->base) {
		if (gva->gem.obj != obj || gva == &vm->base.kernel_alloc_node)
			continue;
		*va = gva->va.addr;
		*range = gva->va.range;
		*offset = gva->gem.offset;
		found = true;
		break;
	}
	mutex_unlock(&vm->lock);
	return found;
}

/**
 * vortex_vm_window_map() - map driver VRAM into a space for a recovery dump
 * @vm: the space of the job on the card
 * @vram_offset: VRAM offset of the area, page aligned
 * @size: bytes, at most 4 MiB
 *
 * Only while the card is frozen under the driver's control (DM lock held,
 * the card reset before it runs a program again), and undone with
 * vortex_vm_window_unmap() before then.  The caller is inside
 * drm_dev_enter().
 *
 * Return: the area's virtual address in @vm.
 */
u64 vortex_vm_window_map(struct vortex_vm *vm, u64 vram_offset, u64 size)
{
	u64 pa = vm->vdev->devaddr + vram_offset, off;

	for (off = 0; off < size; off += SZ_4K)
		vortex_vm_set(vm, &vm->window, off >> VX_PAGE_SHIFT,
			      vortex_pte(pa + off, VORTEX_PTE_LEAF));
	/* In VRAM before the injected stores use them. */
	wmb();
	return VORTEX_VM_WINDOW;
}

/**
 * vortex_vm_window_unmap() - undo vortex_vm_window_map()
 * @vm: the space
 * @size: as mapped
 */
void vortex_vm_window_unmap(struct vortex_vm *vm, u64 size)
{
	memset_io(vm->vdev->vram + vm->window.start, 0,
		  (size >> VX_PAGE_SHIFT) * sizeof(u32));
	vortex_vm_tlb_inval(vm, VORTEX_VM_WINDOW, size);
}

/**
 * vortex_vm_satp() - the SATP dword of the space's launches
 * @vm: the space
 *
 * Return: Sv32, the space's ASID and root table.
 */
u32 vortex_vm_satp(const struct vortex_vm *vm)
{
	return VX_SATP_MAKE(vm->asid,
			    (vm->vdev->devaddr + vm->root.start) >> VX_PAGE_SHIFT);
}

/**
 * vortex_vm_switch() - make the TLB fit for a launch of @vm
 * @vm: the space of the job about to go on the ring
 *
 * Called with the DM lock held and the card idle (no job on it), before
 * the job's packets are written.  A space with an ASID of its own needs
 * nothing; one under the shared ASID drops the TLB's entries of that ASID
 * unless it was the last to run under it.
 */
void vortex_vm_switch(struct vortex_vm *vm)
{
	struct vortex_device *vdev = vm->vdev;

	lockdep_assert_held(&vdev->dm.lock);
	/*
	 * A buffer closed while an older job ran was left mapped for that
	 * job, which has ended by now (one job at a time) but may not be
	 * freed yet: unmap it before this job, made after the close, runs.
	 */
	vortex_vm_reap(vm);
	if (likely(vm->asid != VORTEX_VM_SHARED_ASID) ||
	    vdev->shared_asid_owner == vm->id)
		return;
	vortex_vm_tlb_inval(vm, 0, SZ_4G);
	vdev->shared_asid_owner = vm->id;
}

/**
 * vortex_vm_asid() - the space's ASID (logs and dumps)
 * @vm: the space
 *
 * Return: 1 .. %VORTEX_VM_MAX_ASID; %VORTEX_VM_MAX_ASID may be shared.
 */
u32 vortex_vm_asid(const struct vortex_vm *vm)
{
	return vm->asid;
}

static void vortex_vm_asid_free(struct vortex_vm *vm)
{
	if (vm->asid != VORTEX_VM_SHARED_ASID)
		ida_free(&vm->vdev->asids, vm->asid);
}

static void vortex_vm_free(struct drm_gpuvm *gpuvm)
{
	kvfree(to_vortex_vm(gpuvm));
}

static const struct drm_gpuvm_ops vortex_vm_ops = {
	.vm_free = vortex_vm_free,
	.sm_step_map = vortex_vm_bind_step_map,
	.sm_step_remap = vortex_vm_bind_step_remap,
	.sm_step_unmap = vortex_vm_bind_step_unmap,
};

/**
 * vortex_vm_create() - a new, empty address space (for a new file)
 * @vdev: the card
 *
 * Return: the space, or an ERR_PTR: -ENOMEM (also when VRAM has no room
 * for its tables), -ENODEV.
 */
struct vortex_vm *vortex_vm_create(struct vortex_device *vdev)
{
	struct drm_gem_object *r_obj;
	struct vortex_vm *vm;
	int ret, idx;

	vm = kvzalloc(sizeof(*vm), GFP_KERNEL_ACCOUNT);
	if (!vm)
		return ERR_PTR(-ENOMEM);
	vm->vdev = vdev;
	mutex_init(&vm->lock);
	spin_lock_init(&vm->jobs_lock);
	spin_lock_init(&vm->log_lock);
	INIT_LIST_HEAD(&vm->jobs);
	INIT_LIST_HEAD(&vm->deferred);

	ret = ida_alloc_range(&vdev->asids, 1, VORTEX_VM_SHARED_ASID - 1, GFP_KERNEL);
	if (ret == -ENOSPC)
		ret = VORTEX_VM_SHARED_ASID;
	if (ret < 0)
		goto err_free;
	vm->asid = ret;
	vm->id = atomic64_inc_return(&vdev->vm_ids);

	if (!drm_dev_enter(&vdev->drm, &idx)) {
		ret = -ENODEV;
		goto err_asid;
	}
	ret = vortex_vm_table_alloc(vm, &vm->root);
	if (!ret)
		ret = vortex_vm_table_alloc(vm, &vm->window);
	if (!ret)
		vortex_vm_set(vm, &vm->root, VORTEX_VM_WINDOW >> 22,
			      vortex_pte(vortex_vm_node_pa(vdev, &vm->window), VX_PTE_V));
	drm_dev_exit(idx);
	if (ret)
		goto err_tables;

	r_obj = drm_gpuvm_resv_object_alloc(&vdev->drm);
	if (!r_obj) {
		ret = -ENOMEM;
		goto err_tables;
	}
	/* Sv32 spans 4 GiB; the dump window is never a buffer's. */
	drm_gpuvm_init(&vm->base, "vortex", 0, &vdev->drm, r_obj, 0, SZ_4G,
		       VORTEX_VM_WINDOW, SZ_4M, &vortex_vm_ops);
	drm_gem_object_put(r_obj);
	return vm;

err_tables:
	vortex_vm_table_free(vm, &vm->window);
	vortex_vm_table_free(vm, &vm->root);
err_asid:
	vortex_vm_asid_free(vm);
err_free:
	mutex_destroy(&vm->lock);
	kvfree(vm);
	return ERR_PTR(ret);
}

/**
 * vortex_vm_destroy() - end a file's address space
 * @vm: the space; its file and every job of it are gone
 *
 * Unmaps what is left, invalidates the ASID, then frees the tables and
 * the ASID.
 */
void vortex_vm_destroy(struct vortex_vm *vm)
{
	struct vortex_device *vdev = vm->vdev;
	struct drm_gpuva *va, *next;
	u32 l1;
	int idx;

	mutex_lock(&vm->lock);
	drm_gpuvm_for_each_va_safe(va, next, &vm->base)
		if (va != &vm->base.kernel_alloc_node)
			vortex_vm_unmap_locked(vm, to_vortex_vma(va));
	if (drm_dev_enter(&vdev->drm, &idx)) {
		vortex_vm_tlb_inval(vm, 0, SZ_4G);
		drm_dev_exit(idx);
	}
	for (l1 = 0; l1 < VORTEX_VM_PTES; l1++)
		drm_WARN_ON(&vdev->drm, vm->tables[l1]);
	vortex_vm_table_free(vm, &vm->window);
	vortex_vm_table_free(vm, &vm->root);
	mutex_unlock(&vm->lock);
	mutex_destroy(&vm->lock);

	vortex_vm_asid_free(vm);
	drm_gpuvm_put(&vm->base);
}

static void vortex_vm_fini(struct drm_device *drm, void *arg)
{
	struct vortex_device *vdev = arg;

	ida_destroy(&vdev->asids);
}

/**
 * vortex_vm_init() - ASIDs and TLB invalidation of a card
 * @vdev: the device, registers mapped
 *
 * Return: 0, -ENODEV for a card without an MMU (this driver isolates
 * clients, so it needs one), or another negative errno.
 */
int vortex_vm_init(struct vortex_device *vdev)
{
	if (!(vdev->caps & VX_CAPS_MMU)) {
		drm_err(&vdev->drm, "card without an MMU (CAPS 0x%x): clients could not be isolated\n",
			vdev->caps);
		return -ENODEV;
	}
	ida_init(&vdev->asids);
	spin_lock_init(&vdev->tlb_lock);
	return drmm_add_action_or_reset(&vdev->drm, vortex_vm_fini, vdev);
}
