// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: VM_BIND: mappings at addresses the client chooses
 *
 * DRM_IOCTL_VORTEX_VM_BIND maps pages of a buffer at a virtual address of
 * the caller's choosing and unmaps virtual ranges, beside the mappings a
 * buffer's handles make at its device address (vortex_vm.c).  &drm_gpuvm
 * does the interval work: drm_gpuvm_sm_map() and drm_gpuvm_sm_unmap()
 * split the request into map, remap (a mapping cut in two or shortened)
 * and unmap steps, which land in the vortex_vm_bind_step_*() callbacks, as
 * in panthor and xe.  A map over anything mapped is refused before
 * drm_gpuvm sees it (-EEXIST), so a map is always one MAP step.
 *
 * VM_BIND mappings use 4 KiB pages only: an unmap may then cut any page
 * of one out without splitting a megapage, so unmapping never allocates
 * and never fails half-way.  The Sv32 TLB caches a megapage a page at a
 * time anyway (docs/hardware.md), so megapages would only save walks.
 *
 * An unmap does not clear PTEs at once: the part unmapped becomes a
 * mapping of its own, off the client's hands, which the closed-handle
 * rule unmaps once the jobs made before it have ended (vortex_vm.c,
 * vortex_vm_defer_locked()).  Until then it stays in the &drm_gpuvm, so
 * nothing else is mapped over its pages (-EBUSY) and the debugger and the
 * dump of those older jobs still find the buffer behind it.
 */

#include <linux/dma-resv.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gpuvm.h>
#include <drm/drm_print.h>

#include "vortex_compat.h"
#include "vortex_accel.h"
#include "vortex_device.h"
#include "vortex_gem.h"
#include "vortex_regs.h"
#include "vortex_vm.h"
#include "vortex_vm_internal.h"

/* Mappings one unmap may make: both ends of the range cut a mapping in two. */
#define VORTEX_VM_BIND_VMAS	4

/**
 * struct vortex_vm_bind_ctx - what one VM_BIND call hands its steps
 */
struct vortex_vm_bind_ctx {
	/** @vm: the space, locked */
	struct vortex_vm *vm;
	/** @leaf: MAP: the PTE bits of the new mapping */
	u32 leaf;
	/** @vmas: preallocated mappings, taken from the end */
	struct vortex_vma *vmas[VORTEX_VM_BIND_VMAS];
	/** @nvmas: entries left in @vmas */
	unsigned int nvmas;
};

static struct vortex_vma *vortex_vm_bind_take(struct vortex_vm_bind_ctx *ctx)
{
	struct vortex_vma *vma;

	if (drm_WARN_ON(&ctx->vm->vdev->drm, !ctx->nvmas))
		return NULL;
	vma = ctx->vmas[--ctx->nvmas];
	ctx->vmas[ctx->nvmas] = NULL;
	vma->bound = true;
	INIT_LIST_HEAD(&vma->deferred);
	return vma;
}

static int vortex_vm_bind_prealloc(struct vortex_vm_bind_ctx *ctx, unsigned int n)
{
	while (ctx->nvmas < n) {
		ctx->vmas[ctx->nvmas] = kzalloc(sizeof(*ctx->vmas[ctx->nvmas]),
						GFP_KERNEL_ACCOUNT);
		if (!ctx->vmas[ctx->nvmas])
			return -ENOMEM;
		ctx->nvmas++;
	}
	return 0;
}

static void vortex_vm_bind_ctx_fini(struct vortex_vm_bind_ctx *ctx)
{
	while (ctx->nvmas)
		kfree(ctx->vmas[--ctx->nvmas]);
}

/* Links @vma to its buffer in @vm: the link holds the buffer. */
static int vortex_vm_bind_link(struct vortex_vm *vm, struct vortex_vma *vma,
			       struct drm_gpuvm_bo *vm_bo)
{
	struct drm_gem_object *obj = vma->va.gem.obj;

	dma_resv_lock(obj->resv, NULL);
	if (!vm_bo) {
		vm_bo = drm_gpuvm_bo_obtain_locked(&vm->base, obj);
		if (IS_ERR(vm_bo)) {
			dma_resv_unlock(obj->resv);
			return PTR_ERR(vm_bo);
		}
		drm_gpuva_link(&vma->va, vm_bo);
		drm_gpuvm_bo_put(vm_bo);	/* the link holds it */
	} else {
		drm_gpuva_link(&vma->va, vm_bo);
	}
	dma_resv_unlock(obj->resv);
	return 0;
}

/**
 * vortex_vm_bind_step_map() - &drm_gpuvm_ops.sm_step_map: write the PTEs
 * @op: the mapping to make, over nothing
 * @priv: the &struct vortex_vm_bind_ctx
 *
 * Return: 0, or -ENOMEM with nothing mapped.
 */
int vortex_vm_bind_step_map(struct drm_gpuva_op *op, void *priv)
{
	struct vortex_vm_bind_ctx *ctx = priv;
	struct vortex_vm *vm = ctx->vm;
	struct vortex_bo *bo = to_vortex_bo(op->map.gem.obj);
	u64 va = op->map.va.addr, size = op->map.va.range;
	struct vortex_vma *vma;
	int ret;

	vma = vortex_vm_bind_take(ctx);
	if (!vma)
		return -EINVAL;
	ret = vortex_vm_map_range(vm, va, vortex_bo_devaddr(bo) + op->map.gem.offset,
				  size, ctx->leaf, false);
	if (ret)
		goto err_free;
	drm_gpuva_map(&vm->base, &vma->va, &op->map);
	ret = vortex_vm_bind_link(vm, vma, NULL);
	if (ret)
		goto err_remove;
	return 0;

err_remove:
	drm_gpuva_remove(&vma->va);
	vortex_vm_unmap_range(vm, va, va + size);
err_free:
	kfree(vma);
	return ret;
}

/**
 * vortex_vm_bind_step_remap() - &drm_gpuvm_ops.sm_step_remap
 * @op: a mapping partly inside the range unmapped
 * @priv: the &struct vortex_vm_bind_ctx
 *
 * The parts kept become mappings of their own, their PTEs untouched; the
 * part unmapped too, deferred until the jobs made so far have ended.
 *
 * Return: 0.
 */
int vortex_vm_bind_step_remap(struct drm_gpuva_op *op, void *priv)
{
	struct vortex_vm_bind_ctx *ctx = priv;
	struct vortex_vm *vm = ctx->vm;
	struct drm_gpuva *old = op->remap.unmap->va;
	struct vortex_vma *prev = NULL, *next = NULL, *gone;
	struct drm_gem_object *obj = old->gem.obj;
	struct drm_gpuva_op_map map = {};
	u64 start, range;

	/* Unmapped already, its unmapping waits for jobs. */
	if (!list_empty(&to_vortex_vma(old)->deferred))
		return 0;
	drm_gpuva_op_remap_to_unmap_range(&op->remap, &start, &range);
	if (op->remap.prev)
		prev = vortex_vm_bind_take(ctx);
	if (op->remap.next)
		next = vortex_vm_bind_take(ctx);
	gone = vortex_vm_bind_take(ctx);
	if (!gone || (op->remap.prev && !prev) || (op->remap.next && !next))
		return -EINVAL;	/* cannot be: vortex_vm_bind_unmap() counted */

	drm_gpuva_remap(prev ? &prev->va : NULL, next ? &next->va : NULL,
			&op->remap);
	map.va.addr = start;
	map.va.range = range;
	map.gem.obj = obj;
	map.gem.offset = old->gem.offset + (start - old->va.addr);
	drm_gpuva_init_from_op(&gone->va, &map);
	drm_WARN_ON(&vm->vdev->drm, drm_gpuva_insert(&vm->base, &gone->va));

	/* The buffer stays linked throughout: new links before the old goes. */
	drm_gem_object_get(obj);
	dma_resv_lock(obj->resv, NULL);
	if (prev)
		drm_gpuva_link(&prev->va, old->vm_bo);
	if (next)
		drm_gpuva_link(&next->va, old->vm_bo);
	drm_gpuva_link(&gone->va, old->vm_bo);
	drm_gpuva_unlink(old);
	dma_resv_unlock(obj->resv);
	drm_gem_object_put(obj);
	kfree(to_vortex_vma(old));

	vortex_vm_defer_locked(vm, gone);
	return 0;
}

/**
 * vortex_vm_bind_step_unmap() - &drm_gpuvm_ops.sm_step_unmap
 * @op: a mapping wholly inside the range unmapped
 * @priv: the &struct vortex_vm_bind_ctx
 *
 * Return: 0.
 */
int vortex_vm_bind_step_unmap(struct drm_gpuva_op *op, void *priv)
{
	struct vortex_vm_bind_ctx *ctx = priv;
	struct vortex_vma *vma = to_vortex_vma(op->unmap.va);

	if (list_empty(&vma->deferred))
		vortex_vm_defer_locked(ctx->vm, vma);
	return 0;
}

/* Whether [@start, @end) touches the driver's reserved range. */
static bool vortex_vm_bind_reserved(u64 start, u64 end)
{
	return start < DRM_VORTEX_VM_RESERVED_END &&
	       end > DRM_VORTEX_VM_RESERVED_START;
}

/* The checks every op shares; -EINVAL, -ERANGE, -EPERM. */
static int vortex_vm_bind_check_range(struct drm_device *drm,
				      const struct drm_vortex_vm_bind *args)
{
	if (!args->range ||
	    !IS_ALIGNED(args->va | args->range | args->bo_offset, SZ_4K)) {
		drm_dbg(drm, "VM_BIND: va 0x%llx range 0x%llx offset 0x%llx not in whole pages\n",
			args->va, args->range, args->bo_offset);
		return -EINVAL;
	}
	if (args->va + args->range < args->va || args->va + args->range > SZ_4G) {
		drm_dbg(drm, "VM_BIND: 0x%llx + 0x%llx past 4 GiB\n",
			args->va, args->range);
		return -ERANGE;
	}
	if (vortex_vm_bind_reserved(args->va, args->va + args->range)) {
		drm_dbg(drm, "VM_BIND: 0x%llx + 0x%llx over the reserved range\n",
			args->va, args->range);
		return -EPERM;
	}
	return 0;
}

/* The PTE bits of a MAP, within what the buffer allows; or an errno. */
static int vortex_vm_bind_leaf(struct drm_device *drm, u32 flags,
			       const struct vortex_bo *bo, u32 *leaf)
{
	if (!(flags & (DRM_VORTEX_VM_BIND_READ | DRM_VORTEX_VM_BIND_EXEC)) ||
	    (flags & DRM_VORTEX_VM_BIND_WRITE && !(flags & DRM_VORTEX_VM_BIND_READ))) {
		drm_dbg(drm, "VM_BIND: access 0x%x cannot be mapped\n", flags);
		return -EINVAL;
	}
	if ((flags & DRM_VORTEX_VM_BIND_WRITE && bo->flags & DRM_VORTEX_BO_GPU_READ_ONLY) ||
	    (flags & DRM_VORTEX_VM_BIND_EXEC && bo->flags & DRM_VORTEX_BO_GPU_NO_EXEC)) {
		drm_dbg(drm, "VM_BIND: access 0x%x beyond the BO's 0x%x\n",
			flags, bo->flags);
		return -EACCES;
	}
	*leaf = VX_PTE_V | VX_PTE_U | VX_PTE_A;
	if (flags & DRM_VORTEX_VM_BIND_READ)
		*leaf |= VX_PTE_R;
	if (flags & DRM_VORTEX_VM_BIND_WRITE)
		*leaf |= VX_PTE_W | VX_PTE_D;
	if (flags & DRM_VORTEX_VM_BIND_EXEC)
		*leaf |= VX_PTE_X;
	return 0;
}

static int vortex_vm_bind_map(struct drm_device *drm, struct drm_file *file,
			      const struct drm_vortex_vm_bind *args)
{
	struct vortex_file *vfile = file->driver_priv;
	struct vortex_vm_bind_ctx ctx = { .vm = vfile->vm };
	struct vortex_vm *vm = vfile->vm;
	struct drm_gpuvm_map_req req = {
		.map.va.addr = args->va,
		.map.va.range = args->range,
		.map.gem.offset = args->bo_offset,
	};
	struct drm_gem_object *obj;
	int ret, idx;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj) {
		drm_dbg(drm, "VM_BIND: no handle %u\n", args->handle);
		return -ENOENT;
	}
	req.map.gem.obj = obj;
	if (args->bo_offset > obj->size || args->range > obj->size - args->bo_offset) {
		drm_dbg(drm, "VM_BIND: 0x%llx + 0x%llx beyond the BO's %zu bytes\n",
			args->bo_offset, args->range, obj->size);
		ret = -EINVAL;
		goto out_put;
	}
	ret = vortex_vm_bind_leaf(drm, args->flags, to_vortex_bo(obj), &ctx.leaf);
	if (ret)
		goto out_put;
	ret = vortex_vm_bind_prealloc(&ctx, 1);
	if (ret)
		goto out_put;
	if (!drm_dev_enter(drm, &idx)) {
		ret = -ENODEV;
		goto out_fini;
	}

	mutex_lock(&vm->lock);
	vortex_vm_reap_locked(vm);
	ret = vortex_vm_range_free(vm, args->va, args->va + args->range);
	if (ret)
		drm_dbg(drm, "VM_BIND: 0x%llx + 0x%llx overlaps a mapping (%d)\n",
			args->va, args->range, ret);
	else
		ret = drm_gpuvm_sm_map(&vm->base, &ctx, &req);
	mutex_unlock(&vm->lock);
	drm_dev_exit(idx);
out_fini:
	vortex_vm_bind_ctx_fini(&ctx);
out_put:
	drm_gem_object_put(obj);
	return ret;
}

static int vortex_vm_bind_unmap(struct drm_device *drm, struct drm_file *file,
				const struct drm_vortex_vm_bind *args)
{
	struct vortex_file *vfile = file->driver_priv;
	struct vortex_vm_bind_ctx ctx = { .vm = vfile->vm };
	struct vortex_vm *vm = vfile->vm;
	u64 end = args->va + args->range;
	struct drm_gpuva *va;
	int ret, idx;

	ret = vortex_vm_bind_prealloc(&ctx, VORTEX_VM_BIND_VMAS);
	if (ret)
		goto out_fini;
	if (!drm_dev_enter(drm, &idx)) {
		ret = -ENODEV;
		goto out_fini;
	}

	mutex_lock(&vm->lock);
	/* A handle's mapping goes with the handle; a closed one's is unmapped. */
	drm_gpuvm_for_each_va_range(va, &vm->base, args->va, end) {
		struct vortex_vma *vma = to_vortex_vma(va);

		if (!vma->bound && list_empty(&vma->deferred)) {
			drm_dbg(drm, "VM_BIND: UNMAP over the handle mapping at 0x%llx\n",
				va->va.addr);
			ret = -EPERM;
			goto out_unlock;
		}
	}
	ret = drm_gpuvm_sm_unmap(&vm->base, &ctx, args->va, args->range);
	drm_WARN_ON(drm, ret);
	vortex_vm_reap_locked(vm);
out_unlock:
	mutex_unlock(&vm->lock);
	drm_dev_exit(idx);
out_fini:
	vortex_vm_bind_ctx_fini(&ctx);
	return ret;
}

/**
 * vortex_vm_bind_ioctl() - DRM_IOCTL_VORTEX_VM_BIND
 * @drm: the device
 * @data: the &struct drm_vortex_vm_bind
 * @file: the caller's file, whose space changes
 *
 * Return: 0 or the errno the uapi documents; a failure changes nothing.
 */
int vortex_vm_bind_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct drm_vortex_vm_bind *args = data;
	int ret;

	if (args->pad || args->op > DRM_VORTEX_VM_BIND_OP_UNMAP ||
	    args->flags & ~DRM_VORTEX_VM_BIND_FLAGS) {
		drm_dbg(drm, "VM_BIND: op %u flags 0x%x pad %u\n",
			args->op, args->flags, args->pad);
		return -EINVAL;
	}
	if (args->op == DRM_VORTEX_VM_BIND_OP_UNMAP &&
	    (args->handle || args->flags || args->bo_offset)) {
		drm_dbg(drm, "VM_BIND: UNMAP with a handle, flags or offset\n");
		return -EINVAL;
	}
	ret = vortex_vm_bind_check_range(drm, args);
	if (ret)
		return ret;
	if (args->op == DRM_VORTEX_VM_BIND_OP_MAP)
		return vortex_vm_bind_map(drm, file, args);
	return vortex_vm_bind_unmap(drm, file, args);
}
