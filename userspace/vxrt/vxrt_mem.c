// SPDX-License-Identifier: MIT
/*
 * libvortexrt: device memory.  Every buffer is a GEM object the driver
 * maps nowhere (DRM_VORTEX_BO_NO_MAP), bound with DRM_IOCTL_VORTEX_VM_BIND
 * where the runtime puts it: vx_mem_alloc() first-fit in Vortex's heap
 * range (USER_BASE_ADDR up to the driver's reserved range), and
 * vx_mem_reserve() exactly where the caller asks, as upstream's reserve
 * does (a kernel image at STARTUP_ADDR).  Access rights are per page; a
 * page that vx_mem_access() splits takes the wider rights of its parts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "vortex_accel.h"
#include "vortex/vortex.h"
#include "vxrt_internal.h"

/* Upstream returns non-zero for errors; errno keeps the driver's word. */
int vxrt_fail(int err)
{
	errno = err < 0 ? -err : err;
	return -1;
}

static uint32_t vxrt_bind_flags(int access)
{
	/* Vortex has no execute right: whatever may be read may be run. */
	return DRM_VORTEX_VM_BIND_READ | DRM_VORTEX_VM_BIND_EXEC |
	       (access & VX_MEM_WRITE ? DRM_VORTEX_VM_BIND_WRITE : 0);
}

static int vxrt_bind(struct vxrt_buffer *b, uint64_t off, uint64_t len, int access)
{
	return vx_vm_bind(b->dev->vx, DRM_VORTEX_VM_BIND_OP_MAP, vxrt_bind_flags(access),
			  b->handle, off, b->va + off, len);
}

static int vxrt_unbind(struct vxrt_buffer *b, uint64_t off, uint64_t len)
{
	return vx_vm_bind(b->dev->vx, DRM_VORTEX_VM_BIND_OP_UNMAP, 0, 0, 0, b->va + off, len);
}

static void vxrt_gem_close(struct vxrt_device *dev, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	vx_ioctl(vxrt_fd(dev), DRM_IOCTL_GEM_CLOSE, &c);
}

/* Whether [va, va + size) meets a buffer of @dev; else where it goes in the list. */
static bool vxrt_overlaps(struct vxrt_device *dev, uint64_t va, uint64_t size,
			  struct vxrt_buffer ***link)
{
	struct vxrt_buffer **p = &dev->bufs;

	while (*p && (*p)->va + (*p)->size <= va)
		p = &(*p)->next;
	*link = p;
	return *p && (*p)->va < va + size;
}

/* The lowest heap address where @size bytes are free, or 0. */
static uint64_t vxrt_heap_fit(struct vxrt_device *dev, uint64_t size)
{
	uint64_t at = VXRT_HEAP_BASE;
	struct vxrt_buffer *b;

	for (b = dev->bufs; b; b = b->next) {
		if (b->va + b->size <= at)
			continue;
		if (b->va >= at + size)
			break;
		at = b->va + b->size;
	}
	return at + size <= VXRT_HEAP_END ? at : 0;
}

/**
 * vxrt_buffer_new() - a buffer of @size bytes bound at @va
 * @dev: the device
 * @va: its address, page aligned, or %VXRT_VA_ANY for the heap's first fit
 * @size: bytes (rounded up to pages)
 * @flags: VX_MEM_* of every page
 * @internal: the runtime's own (stacks, I/O page): not in vx_mem_info()
 * @out: the buffer
 *
 * Return: 0 or -errno (-EEXIST over another buffer, -ENOMEM without room).
 */
int vxrt_buffer_new(struct vxrt_device *dev, uint64_t va, uint64_t size,
		    int flags, bool internal, struct vxrt_buffer **out)
{
	struct drm_vortex_bo_create c = { .flags = DRM_VORTEX_BO_NO_MAP };
	struct vxrt_buffer *b, **link;
	int ret;

	if (!size || size > (1ull << 32) || (va != VXRT_VA_ANY && va % VXRT_PAGE) ||
	    !(flags & VX_MEM_READ_WRITE))
		return -EINVAL;
	size = (size + VXRT_PAGE - 1) & ~(uint64_t)(VXRT_PAGE - 1);
	if (va == VXRT_VA_ANY) {
		va = vxrt_heap_fit(dev, size);
		if (!va)
			return -ENOMEM;
	}
	if (va + size > (1ull << 32))
		return -ERANGE;
	if (vxrt_overlaps(dev, va, size, &link))
		return -EEXIST;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->access = malloc(size / VXRT_PAGE);
	if (!b->access) {
		free(b);
		return -ENOMEM;
	}
	memset(b->access, flags, size / VXRT_PAGE);
	c.size = size;
	ret = vx_ioctl(vxrt_fd(dev), DRM_IOCTL_VORTEX_BO_CREATE, &c);
	if (ret)
		goto err_free;
	b->dev = dev;
	b->handle = c.handle;
	b->va = va;
	b->size = size;
	b->internal = internal;
	ret = vxrt_bind(b, 0, size, flags);
	if (ret)
		goto err_close;
	b->next = *link;
	*link = b;
	if (!internal)
		dev->used += size;
	*out = b;
	return 0;

err_close:
	vxrt_gem_close(dev, b->handle);
err_free:
	free(b->access);
	free(b);
	return ret;
}

/* The CPU mapping of @b's pages, made on first use. */
int vxrt_map(struct vxrt_buffer *b)
{
	struct drm_vortex_bo_info info = { .handle = b->handle };
	void *p;
	int ret;

	if (b->map)
		return 0;
	ret = vx_ioctl(vxrt_fd(b->dev), DRM_IOCTL_VORTEX_BO_INFO, &info);
	if (ret)
		return ret;
	p = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, vxrt_fd(b->dev),
		 info.mmap_offset);
	if (p == MAP_FAILED)
		return -errno;
	b->map = p;
	return 0;
}

int vx_mem_alloc(vx_device_h hdevice, uint64_t size, int flags, vx_buffer_h *hbuffer)
{
	struct vxrt_buffer *b;
	int ret;

	if (!hdevice || !hbuffer)
		return vxrt_fail(-EINVAL);
	ret = vxrt_buffer_new(hdevice, VXRT_VA_ANY, size, flags & VX_MEM_READ_WRITE, false, &b);
	if (ret)
		return vxrt_fail(ret);
	*hbuffer = b;
	return 0;
}

/*
 * A reservation inside the runtime's I/O range (what upstream's io_addr
 * test does at IO_MPM_ADDR): a window onto the I/O buffer, which is
 * mapped read-write already.  Upstream's simx runtime reserves there
 * like anywhere else (runtime/simx/vortex.cpp mem_reserve()).
 */
static int vxrt_window(struct vxrt_device *dev, uint64_t address, uint64_t size,
		       struct vxrt_buffer **out)
{
	struct vxrt_buffer *io = dev->io, *b;

	if (address < io->va || address - io->va > io->size ||
	    size > io->size - (address - io->va))
		return -EEXIST;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->dev = dev;
	b->va = address;
	b->size = size;
	b->of = io;
	b->at = address - io->va;
	b->next = dev->views;
	dev->views = b;
	*out = b;
	return 0;
}

int vx_mem_reserve(vx_device_h hdevice, uint64_t address, uint64_t size, int flags,
		   vx_buffer_h *hbuffer)
{
	struct vxrt_device *dev = hdevice;
	struct vxrt_buffer *b;
	int ret;

	if (!dev || !hbuffer || !size)
		return vxrt_fail(-EINVAL);
	if (address < VXRT_IO_BASE + VXRT_IO_SIZE)
		ret = vxrt_window(dev, address, size, &b);
	else
		/* Upstream's reserve takes no rights: vx_mem_access() gives them. */
		ret = vxrt_buffer_new(dev, address, size,
				      flags & VX_MEM_READ_WRITE ?: VX_MEM_READ_WRITE, false, &b);
	if (ret)
		return vxrt_fail(ret);
	*hbuffer = b;
	return 0;
}

int vx_mem_free(vx_buffer_h hbuffer)
{
	struct vxrt_buffer *b = hbuffer, **p, *k;
	struct vxrt_device *dev;

	if (!b)
		return 0;
	dev = b->dev;
	/* a kernel's: the debugger hears of its end (CODE_UNLOADED) */
	vx_code_object_unregister(vxrt_fd(dev), b->code_object);
	vx_mem_free(b->elf);
	/* vx_dev_close() frees by address: a kernel may outlive its ELF's copy */
	for (k = dev->bufs; k; k = k->next)
		if (k->elf == b)
			k->elf = NULL;
	if (b->of) {
		for (p = &dev->views; *p && *p != b; p = &(*p)->next)
			;
		if (*p)
			*p = b->next;
		free(b);
		return 0;
	}
	for (p = &dev->bufs; *p && *p != b; p = &(*p)->next)
		;
	if (*p)
		*p = b->next;
	if (b->map)
		munmap(b->map, b->size);
	vxrt_unbind(b, 0, b->size);
	vxrt_gem_close(dev, b->handle);
	if (!b->internal)
		dev->used -= b->size;
	free(b->access);
	free(b);
	return 0;
}

int vx_mem_access(vx_buffer_h hbuffer, uint64_t offset, uint64_t size, int flags)
{
	struct vxrt_buffer *b = hbuffer;
	uint64_t first, last, pg;
	int ret;

	if (!b || !(flags & VX_MEM_READ_WRITE) ||
	    flags & ~(VX_MEM_READ_WRITE | VX_MEM_PIN_MEMORY) ||
	    offset > b->size || size > b->size - offset)
		return vxrt_fail(-EINVAL);
	flags &= VX_MEM_READ_WRITE;
	/* a window's pages are the I/O buffer's, read-write for kernels */
	if (!size || b->of)
		return 0;
	first = offset / VXRT_PAGE;
	last = (offset + size - 1) / VXRT_PAGE;
	for (pg = first; pg <= last; pg++) {
		bool whole = pg * VXRT_PAGE >= offset &&
			     (pg + 1) * VXRT_PAGE <= offset + size;
		int want = whole ? flags : b->access[pg] | flags;

		if (want == b->access[pg])
			continue;
		ret = vxrt_unbind(b, pg * VXRT_PAGE, VXRT_PAGE);
		if (!ret)
			ret = vxrt_bind(b, pg * VXRT_PAGE, VXRT_PAGE, want);
		if (ret)
			return vxrt_fail(ret);
		b->access[pg] = want;
	}
	return 0;
}

int vx_mem_address(vx_buffer_h hbuffer, uint64_t *address)
{
	struct vxrt_buffer *b = hbuffer;

	if (!b || !address)
		return vxrt_fail(-EINVAL);
	*address = b->va;
	return 0;
}

int vx_mem_info(vx_device_h hdevice, uint64_t *mem_free, uint64_t *mem_used)
{
	struct vxrt_device *dev = hdevice;

	if (!dev)
		return vxrt_fail(-EINVAL);
	if (mem_used)
		*mem_used = dev->used;
	if (mem_free)
		*mem_free = dev->vram > dev->used ? dev->vram - dev->used : 0;
	return 0;
}

/* The CPU address of byte @off of @b (of its I/O buffer for a window). */
static int vxrt_copy_at(struct vxrt_buffer *b, uint64_t off, uint64_t size, uint8_t **p)
{
	int ret;

	if (!b || off > b->size || size > b->size - off)
		return -EINVAL;
	ret = vxrt_map(b->of ?: b);
	if (!ret)
		*p = b->of ? b->of->map + b->at + off : b->map + off;
	return ret;
}

int vx_copy_to_dev(vx_buffer_h hbuffer, const void *host_ptr, uint64_t dst_offset,
		   uint64_t size)
{
	uint8_t *p = NULL;
	int ret = vxrt_copy_at(hbuffer, dst_offset, size, &p);

	if (ret || (!host_ptr && size))
		return vxrt_fail(ret ?: -EINVAL);
	memcpy(p, host_ptr, size);
	return 0;
}

int vx_copy_from_dev(void *host_ptr, vx_buffer_h hbuffer, uint64_t src_offset,
		     uint64_t size)
{
	uint8_t *p = NULL;
	int ret = vxrt_copy_at(hbuffer, src_offset, size, &p);

	if (ret || (!host_ptr && size))
		return vxrt_fail(ret ?: -EINVAL);
	memcpy(host_ptr, p, size);
	return 0;
}

/* Both buffers of one device; memmove, as a window may overlap its buffer. */
int vx_copy_dev_to_dev(vx_buffer_h hdest_buffer, uint64_t dest_offset,
		       vx_buffer_h hsrc_buffer, uint64_t src_offset, uint64_t size)
{
	struct vxrt_buffer *d = hdest_buffer, *s = hsrc_buffer;
	uint8_t *dp = NULL, *sp = NULL;
	int ret;

	if (!d || !s || d->dev != s->dev)
		return vxrt_fail(-EINVAL);
	ret = vxrt_copy_at(d, dest_offset, size, &dp) ?: vxrt_copy_at(s, src_offset, size, &sp);
	if (ret)
		return vxrt_fail(ret);
	memmove(dp, sp, size);
	return 0;
}
