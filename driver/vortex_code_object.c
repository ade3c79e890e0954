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
 *
 * A debugger of the file's process hears of each object as it is
 * registered and unregistered (CODE_LOADED, CODE_UNLOADED), and at attach
 * of every object registered before (vortex_code_object_replay()): each
 * object records the session it told, under the list's lock, so a
 * registration racing the attach is told once, and an unload is told
 * only to a session that heard of the load.
 */

#include <linux/overflow.h>
#include <linux/slab.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "vortex_accel.h"
#include "vortex_code_object.h"
#include "vortex_debug.h"
#include "vortex_device.h"
#include "vortex_gem.h"
#include "vortex_vm.h"

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
	/** @told: the debug session told of it (vortex_debug_code_object()) */
	u64 told;
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

/* The object @id of the file, or NULL; the list's lock held. */
static struct vortex_code_object *vortex_code_object_by_id(struct vortex_file *vfile,
							   u32 id)
{
	struct vortex_code_object *co;

	lockdep_assert_held(&vfile->code.lock);
	list_for_each_entry(co, &vfile->code.list, link)
		if (co->ref.id == id)
			return co;
	return NULL;
}

/* Drops an object off the list: the debugger told, its buffer let go. */
static void vortex_code_object_drop(struct vortex_file *vfile,
				    struct vortex_code_object *co)
{
	lockdep_assert_held(&vfile->code.lock);
	list_del(&co->link);
	vfile->code.count--;
	vortex_debug_code_object(vfile, &co->ref, &co->told, VORTEX_DEBUG_CODE_UNLOADED);
	drm_gem_object_put(co->bo);
	kfree(co);
}

static int vortex_code_object_unregister(struct vortex_file *vfile,
					 struct drm_vortex_code_object *args)
{
	struct vortex_code_object *co;
	int ret = -ENOENT;

	if (args->handle || args->offset || args->size || args->load_addr ||
	    args->load_size || args->pad || !args->id)
		return -EINVAL;
	mutex_lock(&vfile->code.lock);
	co = vortex_code_object_by_id(vfile, args->id);
	if (co) {
		vortex_code_object_drop(vfile, co);
		ret = 0;
	}
	mutex_unlock(&vfile->code.lock);
	return ret;
}

/**
 * vortex_code_object_ioctl() - DRM_IOCTL_VORTEX_CODE_OBJECT
 * @drm: the DRM device
 * @data: the ioctl's arguments (copied in and out by DRM)
 * @file: the caller's DRM file
 *
 * Records an ELF image in a buffer of the file, with where it loads,
 * for crash dumps and the debugger; or, with
 * DRM_VORTEX_CODE_OBJECT_UNREGISTER, forgets one.
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

	if (args->flags == DRM_VORTEX_CODE_OBJECT_UNREGISTER)
		return vortex_code_object_unregister(vfile, args);
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

	mutex_lock(&vfile->code.lock);
	if (vfile->code.count == DRM_VORTEX_MAX_CODE_OBJECTS) {
		mutex_unlock(&vfile->code.lock);
		ret = -E2BIG;
		goto err_put;
	}
	co->ref.id = atomic_inc_return(&vortex_code_object_ids);
	list_add_tail(&co->link, &vfile->code.list);
	vfile->code.count++;
	vortex_debug_code_object(vfile, &co->ref, &co->told, VORTEX_DEBUG_CODE_LOADED);
	mutex_unlock(&vfile->code.lock);

	args->id = co->ref.id;
	return 0;

err_put:
	drm_gem_object_put(co->bo);
err_free:
	kfree(co);
	return ret;
}

/**
 * vortex_code_object_init() - a new file's empty list
 * @vfile: the file
 */
void vortex_code_object_init(struct vortex_file *vfile)
{
	mutex_init(&vfile->code.lock);
	INIT_LIST_HEAD(&vfile->code.list);
}

/**
 * vortex_code_object_find() - the image a job's entry point lies in
 * @vfile: the file
 * @pc: device address
 * @out: receives the object's description, or zeroes if none holds @pc
 */
void vortex_code_object_find(struct vortex_file *vfile, u64 pc,
			     struct vortex_code_ref *out)
{
	struct vortex_code_object *co;

	memset(out, 0, sizeof(*out));
	mutex_lock(&vfile->code.lock);
	/* The newest wins: a reloaded image replaces an old one in place. */
	list_for_each_entry_reverse(co, &vfile->code.list, link) {
		if (pc >= co->ref.load_addr &&
		    pc - co->ref.load_addr < co->ref.load_size) {
			*out = co->ref;
			break;
		}
	}
	mutex_unlock(&vfile->code.lock);
}

/**
 * vortex_code_object_replay() - tell a new session of the file's objects
 * @vfile: a file of the session's target
 *
 * Each object the session was not told of yet, oldest first, as a
 * replayed CODE_LOADED (vortex_debug_code_object()).
 */
void vortex_code_object_replay(struct vortex_file *vfile)
{
	struct vortex_code_object *co;

	mutex_lock(&vfile->code.lock);
	list_for_each_entry(co, &vfile->code.list, link)
		vortex_debug_code_object(vfile, &co->ref, &co->told,
					 VORTEX_DEBUG_CODE_REPLAYED);
	mutex_unlock(&vfile->code.lock);
}

/**
 * vortex_code_object_fini() - drop a closing file's code objects
 * @vfile: the file; a debugger that heard of them hears of their unload
 */
void vortex_code_object_fini(struct vortex_file *vfile)
{
	struct vortex_code_object *co, *tmp;

	mutex_lock(&vfile->code.lock);
	list_for_each_entry_safe(co, tmp, &vfile->code.list, link)
		vortex_code_object_drop(vfile, co);
	mutex_unlock(&vfile->code.lock);
	mutex_destroy(&vfile->code.lock);
}
