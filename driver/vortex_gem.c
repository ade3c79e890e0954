// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Buffer objects in VRAM
 *
 * A buffer object is one contiguous, page-aligned range of the card's VRAM,
 * handed out by a &drm_mm over BAR2 (the card has no MMU, so a kernel sees
 * exactly these addresses: device address = VRAM_DEVADDR + offset).  There
 * is no system-memory backing and no eviction: a full VRAM is -ENOMEM at
 * create time, before a handle exists.  Buffers are zero-filled when they
 * are freed and again when they are created, so no client reads data
 * another left behind (what a running kernel can reach is another matter:
 * see docs/security.md).
 *
 * The CPU maps a buffer straight through BAR2, write-combined.  Pages are
 * inserted by the fault handler.  On hot-unplug the mappings die before the
 * device node does: drm_dev_unplug() removes the node first and zaps the
 * mappings only at its end, so a process that saw the node go could still
 * read VRAM through a PTE it had (on real PCIe that page is gone).  So
 * vortex_gem_unplug() runs before drm_dev_unplug(): it shuts the fault
 * handler out (&vortex_device.maps_cut, read under vortex_gem_fault_srcu),
 * waits for the faults under way, then zaps every mapping of the device;
 * from then on a fault raises SIGBUS.
 */

#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/srcu.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_vma_manager.h>

#include "vortex_compat.h"
#include "vortex_accel.h"
#include "vortex_device.h"
#include "vortex_gem.h"
#include "vortex_vm.h"

/* Faults that may be inserting PTEs; vortex_gem_unplug() waits for them. */
DEFINE_STATIC_SRCU(vortex_gem_fault_srcu);

/**
 * vortex_bo_devaddr() - where a buffer sits in the card's memory
 * @bo: the buffer
 *
 * Return: the buffer's device address.
 */
u64 vortex_bo_devaddr(struct vortex_bo *bo)
{
	struct vortex_device *vdev = to_vortex_device(bo->base.dev);

	return vdev->devaddr + bo->node.start;
}

/*
 * The address a client learns: a DRM_VORTEX_BO_NO_MAP buffer's client
 * places it with VM_BIND and is not told where it sits in VRAM.
 */
static u64 vortex_bo_user_addr(struct vortex_bo *bo)
{
	return vortex_bo_no_map(bo) ? 0 : vortex_bo_devaddr(bo);
}

/*
 * Zero a buffer, a slice at a time: a buffer may be 2 GiB.  Done when it is
 * freed, so freed data is not left for the next job, and again when it is
 * created, because any kernel can write anywhere in VRAM, free parts too,
 * until the card has per-context address spaces.
 */
static void vortex_bo_clear(struct vortex_device *vdev, struct vortex_bo *bo)
{
	u64 off, len;

	for (off = 0; off < bo->base.size; off += len) {
		len = min_t(u64, bo->base.size - off, SZ_1M);
		memset_io(vdev->vram + bo->node.start + off, 0, len);
		cond_resched();
	}
}

static void vortex_gem_free(struct drm_gem_object *obj)
{
	struct vortex_bo *bo = to_vortex_bo(obj);
	struct vortex_device *vdev = to_vortex_device(obj->dev);
	int idx;

	if (drm_mm_node_allocated(&bo->node)) {
		/* Freed data must not be left for the next job to read. */
		if (drm_dev_enter(obj->dev, &idx)) {
			vortex_bo_clear(vdev, bo);
			drm_dev_exit(idx);
		}
		mutex_lock(&vdev->mm_lock);
		vdev->bo_bytes -= bo->node.size;
		drm_mm_remove_node(&bo->node);
		mutex_unlock(&vdev->mm_lock);
	}
	drm_gem_object_release(obj);
	kfree(bo);
}

static enum drm_gem_object_status vortex_gem_status(struct drm_gem_object *obj)
{
	/* VRAM buffers are resident from create to free. */
	return DRM_GEM_OBJECT_RESIDENT;
}

static vm_fault_t vortex_gem_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct drm_gem_object *obj = vma->vm_private_data;
	struct vortex_device *vdev = to_vortex_device(obj->dev);
	unsigned long first, pages, addr, pfn;
	vm_fault_t ret = VM_FAULT_NOPAGE;
	int idx;

	/*
	 * The VMA's first page is page @first of the buffer: vm_pgoff holds
	 * the buffer's fake offset plus the page the mapping starts at, and
	 * the mm keeps it right across munmap, mprotect and mremap of parts
	 * of the mapping (a dma-buf mmap may also start past page 0).
	 */
	first = vma->vm_pgoff - drm_vma_node_start(&obj->vma_node);
	pages = obj->size >> PAGE_SHIFT;
	if (first >= pages || vma_pages(vma) > pages - first)
		return VM_FAULT_SIGBUS;

	/* Unplug has begun: the BAR is going, and so is this mapping. */
	idx = srcu_read_lock(&vortex_gem_fault_srcu);
	if (READ_ONCE(vdev->maps_cut)) {
		srcu_read_unlock(&vortex_gem_fault_srcu, idx);
		return VM_FAULT_SIGBUS;
	}

	/*
	 * Map the whole VMA now: faults are costly and a buffer is usually
	 * filled or read from end to end.
	 */
	pfn = ((vdev->vram_bus + to_vortex_bo(obj)->node.start) >> PAGE_SHIFT) +
	      first;
	for (addr = vma->vm_start; addr < vma->vm_end; addr += PAGE_SIZE, pfn++) {
		ret = vmf_insert_pfn(vma, addr, pfn);
		if (ret & VM_FAULT_ERROR)
			break;
	}

	srcu_read_unlock(&vortex_gem_fault_srcu, idx);
	return ret;
}

static const struct vm_operations_struct vortex_gem_vm_ops = {
	.fault = vortex_gem_fault,
	.open = drm_gem_vm_open,
	.close = drm_gem_vm_close,
};

static int vortex_gem_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	/* A private writable mapping of I/O memory cannot be copy-on-write. */
	if (vma_is_cow_mapping(vma))
		return -EINVAL;

	vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_page_prot = pgprot_writecombine(vm_get_page_prot(vma->vm_flags));
	vma->vm_page_prot = pgprot_decrypted(vma->vm_page_prot);
	return 0;
}

static const struct drm_gem_object_funcs vortex_gem_funcs = {
	.free = vortex_gem_free,
	.open = vortex_vm_gem_open,
	.close = vortex_vm_gem_close,
	.status = vortex_gem_status,
	.mmap = vortex_gem_mmap,
	.vm_ops = &vortex_gem_vm_ops,
};

static struct vortex_bo *vortex_bo_create(struct vortex_device *vdev, u64 size,
					  u32 flags)
{
	struct vortex_bo *bo;
	int ret, idx;

	if (!drm_dev_enter(&vdev->drm, &idx))
		return ERR_PTR(-ENODEV);

	bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	if (!bo) {
		ret = -ENOMEM;
		goto out_exit;
	}
	bo->base.funcs = &vortex_gem_funcs;
	bo->flags = flags;
	spin_lock_init(&bo->label_lock);
	drm_gem_private_object_init(&vdev->drm, &bo->base, size);

	/* Large buffers on 4 MiB boundaries: mapped with megapages. */
	mutex_lock(&vdev->mm_lock);
	if (size > vdev->bo_limit - vdev->bo_bytes)
		ret = -ENOSPC;
	else
		ret = drm_mm_insert_node_generic(&vdev->mm, &bo->node, size,
						 size >= SZ_4M ? SZ_4M : PAGE_SIZE,
						 0, DRM_MM_INSERT_BEST);
	if (!ret)
		vdev->bo_bytes += size;
	mutex_unlock(&vdev->mm_lock);
	if (ret) {
		/* drm_mm says -ENOSPC; the uapi promises -ENOMEM. */
		ret = -ENOMEM;
		goto out_put;
	}

	ret = drm_gem_create_mmap_offset(&bo->base);
	if (ret)
		goto out_put;

	vortex_bo_clear(vdev, bo);
	drm_dev_exit(idx);
	return bo;

out_put:
	drm_gem_object_put(&bo->base);
out_exit:
	drm_dev_exit(idx);
	return ERR_PTR(ret);
}

/**
 * vortex_gem_bo_create_ioctl() - DRM_IOCTL_VORTEX_BO_CREATE
 * @drm: the DRM device
 * @data: the ioctl's arguments (copied in and out by DRM)
 * @file: the caller's DRM file
 *
 * Return: 0, or a negative errno.
 */
int vortex_gem_bo_create_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct vortex_device *vdev = to_vortex_device(drm);
	struct drm_vortex_bo_create *args = data;
	struct vortex_bo *bo;
	u64 size;
	int ret;

	if (args->flags & ~DRM_VORTEX_BO_FLAGS) {
		drm_dbg(drm, "unknown BO flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	if (!args->size || args->size > vdev->vram_size) {
		drm_dbg(drm, "bad BO size %llu\n", args->size);
		return -EINVAL;
	}
	size = PAGE_ALIGN(args->size);

	bo = vortex_bo_create(vdev, size, args->flags);
	if (IS_ERR(bo))
		return PTR_ERR(bo);

	ret = drm_gem_handle_create(file, &bo->base, &args->handle);
	if (!ret)
		args->dev_addr = vortex_bo_user_addr(bo);
	/* The handle holds the object now, or it goes away here. */
	drm_gem_object_put(&bo->base);
	return ret;
}

/**
 * vortex_gem_bo_info_ioctl() - DRM_IOCTL_VORTEX_BO_INFO
 * @drm: the DRM device
 * @data: the ioctl's arguments (copied in and out by DRM)
 * @file: the caller's DRM file
 *
 * Return: 0, or a negative errno.
 */
int vortex_gem_bo_info_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct drm_vortex_bo_info *args = data;
	struct drm_gem_object *obj;

	if (args->flags) {
		drm_dbg(drm, "BO_INFO flags not zero\n");
		return -EINVAL;
	}

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj) {
		drm_dbg(drm, "BO_INFO: no handle %u\n", args->handle);
		return -ENOENT;
	}

	args->mmap_offset = drm_vma_node_offset_addr(&obj->vma_node);
	args->dev_addr = vortex_bo_user_addr(to_vortex_bo(obj));
	args->size = obj->size;
	args->flags = to_vortex_bo(obj)->flags;

	drm_gem_object_put(obj);
	return 0;
}

/**
 * vortex_gem_bo_set_label_ioctl() - DRM_IOCTL_VORTEX_BO_SET_LABEL
 * @drm: the device
 * @data: struct drm_vortex_bo_set_label
 * @file: the caller
 *
 * Return: 0, -EINVAL, -ENOENT or -EFAULT (see the uapi).
 */
int vortex_gem_bo_set_label_ioctl(struct drm_device *drm, void *data,
				  struct drm_file *file)
{
	struct drm_vortex_bo_set_label *args = data;
	char label[DRM_VORTEX_BO_LABEL_MAX] = "";
	struct drm_gem_object *obj;
	struct vortex_bo *bo;
	long len = 0, i;

	if (args->flags || args->pad) {
		drm_dbg(drm, "BO_SET_LABEL: flags or pad not zero\n");
		return -EINVAL;
	}
	if (args->label) {
		len = strncpy_from_user(label, u64_to_user_ptr(args->label),
					sizeof(label));
		if (len < 0)
			return len;
		if (len == sizeof(label)) {
			drm_dbg(drm, "BO_SET_LABEL: label longer than %d bytes\n",
				DRM_VORTEX_BO_LABEL_MAX - 1);
			return -EINVAL;
		}
	}
	for (i = 0; i < len; i++)
		if (label[i] < 0x20 || label[i] > 0x7e) {
			drm_dbg(drm, "BO_SET_LABEL: byte %ld not printable ASCII\n", i);
			return -EINVAL;
		}

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj) {
		drm_dbg(drm, "BO_SET_LABEL: no handle %u\n", args->handle);
		return -ENOENT;
	}
	bo = to_vortex_bo(obj);
	spin_lock(&bo->label_lock);
	memcpy(bo->label, label, sizeof(label));
	spin_unlock(&bo->label_lock);
	drm_gem_object_put(obj);
	return 0;
}

/**
 * vortex_bo_label() - a buffer's label, as it is now
 * @bo: the buffer
 * @out: receives it, DRM_VORTEX_BO_LABEL_MAX bytes ("" for none)
 */
void vortex_bo_label(struct vortex_bo *bo, char *out)
{
	spin_lock(&bo->label_lock);
	memcpy(out, bo->label, DRM_VORTEX_BO_LABEL_MAX);
	spin_unlock(&bo->label_lock);
}

/**
 * vortex_gem_unplug() - cut every CPU mapping of the device's buffers
 * @vdev: the device, being removed; called before drm_dev_unplug(), so
 *	the mappings are dead before the device node goes
 *
 * Later faults get SIGBUS.  May sleep.
 */
void vortex_gem_unplug(struct vortex_device *vdev)
{
	WRITE_ONCE(vdev->maps_cut, true);
	/* A fault that read maps_cut false has inserted its PTEs by now. */
	synchronize_srcu(&vortex_gem_fault_srcu);
	unmap_mapping_range(vdev->drm.anon_inode->i_mapping, 0, 0, 1);
}

static void vortex_gem_fini(struct drm_device *drm, void *arg)
{
	struct vortex_device *vdev = arg;

	/* Every buffer holds a file or a job, all gone by now. */
	drm_mm_takedown(&vdev->mm);
}

/**
 * vortex_gem_init() - set up the VRAM allocator
 * @vdev: the device, VRAM size known
 *
 * Undone by vortex_gem_fini() when the DRM device is released.
 *
 * Return: 0 or a negative errno.
 */
int vortex_gem_init(struct vortex_device *vdev)
{
	int ret;

	ret = drmm_mutex_init(&vdev->drm, &vdev->mm_lock);
	if (ret)
		return ret;

	drm_mm_init(&vdev->mm, 0, vdev->vram_size);
	/*
	 * VRAM for buffers is first come, first served; what buffers cannot
	 * take is a sixteenth of VRAM (1 to 16 MiB): the ring, the dump
	 * window and page tables, so that a client holding every buffer byte
	 * does not keep other users from opening the node.
	 */
	vdev->bo_limit = vdev->vram_size -
			 clamp_t(u64, vdev->vram_size / 16, SZ_1M, SZ_16M);
	return drmm_add_action_or_reset(&vdev->drm, vortex_gem_fini, vdev);
}
