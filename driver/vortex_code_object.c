// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Code objects
 *
 * The runtime tells the driver where each kernel image it loaded lives
 * (DRM_IOCTL_VORTEX_CODE_OBJECT): the ELF file's bytes in one of the
 * file's buffers, and the device range the image occupies.  SUBMIT looks
 * up the object whose range holds the job's entry point and copies what a
 * debugger needs into the job, so debug events (and later crash dumps)
 * name the image without chasing a buffer that may be gone.
 */

#include <linux/overflow.h>
#include <linux/slab.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "vortex_accel.h"
#include "vortex_code_object.h"
#include "vortex_device.h"
#include "vortex_gem.h"
#include "vortex_vm.h"

#define VORTEX_MAX_CODE_OBJECTS	256

/**
 * struct vortex_code_object - one registered image
 */
struct vortex_code_object {
	/** @link: in &vortex_file.code_objects */
	struct list_head link;
	/** @bo: the buffer with the ELF bytes, referenced */
	struct drm_gem_object *bo;
	/** @ref: what jobs copy */
	struct vortex_code_ref ref;
};

static atomic_t vortex_code_object_ids = ATOMIC_INIT(0);

/*
 * Where a debugger reads the ELF bytes: a buffer's address in every space,
 * or, for a DRM_VORTEX_BO_NO_MAP buffer, the virtual address of the
 * VM_BIND mapping that holds them (its VRAM address is never told).
 */
static int vortex_code_object_elf_addr(struct vortex_file *vfile,
				       struct drm_gem_object *obj, u64 offset,
				       u64 size, u32 *addr)
{
	struct vortex_bo *bo = to_vortex_bo(obj);
	u64 va, range, bo_off;

	if (!vortex_bo_no_map(bo)) {
		*addr = vortex_bo_devaddr(bo) + offset;
		return 0;
	}
	if (!vortex_vm_bo_va(vfile->vm, obj, &va, &range, &bo_off) ||
	    offset < bo_off || offset + size > bo_off + range) {
		drm_dbg(obj->dev, "code object: ELF bytes of a NO_MAP buffer not bound\n");
		return -ENXIO;
	}
	*addr = va + (offset - bo_off);
	return 0;
}

/**
 * vortex_code_object_ioctl() - DRM_IOCTL_VORTEX_CODE_OBJECT
 * @drm: the DRM device
 * @data: the ioctl's arguments (copied in and out by DRM)
 * @file: the caller's DRM file
 *
 * Records an ELF image in a buffer of the file, with where it loads,
 * for crash dumps and the debugger.
 *
 * Return: 0, or a negative errno.
 */
int vortex_code_object_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct vortex_file *vfile = file->driver_priv;
	struct drm_vortex_code_object *args = data;
	struct vortex_code_object *co;
	u64 end;
	int ret;

	if (args->flags || args->pad || !args->size || !args->load_size)
		return -EINVAL;
	if (check_add_overflow(args->offset, args->size, &end) ||
	    check_add_overflow(args->load_addr, args->load_size, &end) ||
	    end > SZ_4G)
		return -EINVAL;

	co = kzalloc(sizeof(*co), GFP_KERNEL_ACCOUNT);
	if (!co)
		return -ENOMEM;
	co->bo = drm_gem_object_lookup(file, args->handle);
	if (!co->bo) {
		ret = -ENOENT;
		goto err_free;
	}
	if (args->offset + args->size > co->bo->size) {
		ret = -ERANGE;
		goto err_put;
	}
	ret = vortex_code_object_elf_addr(vfile, co->bo, args->offset, args->size,
					  &co->ref.elf_addr);
	if (ret)
		goto err_put;
	co->ref.elf_size = args->size;
	co->ref.load_addr = args->load_addr;
	co->ref.load_size = args->load_size;

	mutex_lock(&vfile->lock);
	if (vfile->num_code_objects == VORTEX_MAX_CODE_OBJECTS) {
		mutex_unlock(&vfile->lock);
		ret = -E2BIG;
		goto err_put;
	}
	co->ref.id = atomic_inc_return(&vortex_code_object_ids);
	list_add_tail(&co->link, &vfile->code_objects);
	vfile->num_code_objects++;
	mutex_unlock(&vfile->lock);

	args->id = co->ref.id;
	return 0;

err_put:
	drm_gem_object_put(co->bo);
err_free:
	kfree(co);
	return ret;
}

/**
 * vortex_code_object_find() - the image a job's entry point lies in
 * @vfile: the file, its lock held
 * @pc: device address
 * @out: receives the object's description, or zeroes if none holds @pc
 */
void vortex_code_object_find(struct vortex_file *vfile, u64 pc,
			     struct vortex_code_ref *out)
{
	struct vortex_code_object *co;

	lockdep_assert_held(&vfile->lock);
	memset(out, 0, sizeof(*out));
	/* The newest wins: a reloaded image replaces an old one in place. */
	list_for_each_entry_reverse(co, &vfile->code_objects, link) {
		if (pc >= co->ref.load_addr &&
		    pc - co->ref.load_addr < co->ref.load_size) {
			*out = co->ref;
			return;
		}
	}
}

/**
 * vortex_code_object_fini() - drop a closing file's code objects
 * @vfile: the file
 */
void vortex_code_object_fini(struct vortex_file *vfile)
{
	struct vortex_code_object *co, *tmp;

	list_for_each_entry_safe(co, tmp, &vfile->code_objects, link) {
		list_del(&co->link);
		drm_gem_object_put(co->bo);
		kfree(co);
	}
	vfile->num_code_objects = 0;
}
