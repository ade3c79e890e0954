// SPDX-License-Identifier: MIT
/*
 * libvortex: the userspace runtime of the Vortex card.
 *
 * Thin over the uapi (uapi/vortex_accel.h): one ioctl wrapper, buffers that
 * remember their mapping, kernels loaded by vx_elf.c.  Two buffers belong
 * to the device handle and are shared by every launch: the stack area
 * (one slice per hardware thread, resized when a launch asks for a bigger
 * slice) and a ring of argument slots.  Sharing the stack between queued
 * jobs is safe because the card runs one LAUNCH at a time; an argument
 * slot is reused only after the job that used it has ended.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "drm.h"
#include "vortex_accel.h"
#include "libvortex.h"
#include "vx_elf.h"
#include "vx_fault.h"

#define VX_ARG_SLOTS		256
#define VX_ARG_SLOT_SIZE	VX_LAUNCH_MAX_ARGS

struct vx_bo {
	struct vx_device *dev;
	uint32_t handle;
	uint64_t size;
	uint64_t dev_addr;
	void *map;		/* NULL until vx_bo_map() */
};

struct vx_device {
	int fd;
	struct vx_topology topo;
	struct vx_bo *stack;		/* NULL until the first launch */
	uint32_t stack_size;		/* bytes per hardware thread in @stack */
	struct vx_bo *args;		/* VX_ARG_SLOTS slots */
	uint64_t arg_seqno[VX_ARG_SLOTS];	/* job using the slot + 1, 0 none */
	unsigned int arg_next;
};

struct vx_kernel {
	struct vx_device *dev;
	struct vx_bo *bo;
	struct vx_bo *elf_bo;		/* the ELF's bytes, for debuggers */
	uint32_t code_object;		/* its id, 0 if not registered */
	void *elf;
	size_t elf_len;
	struct vx_elf_layout layout;
};

int vx_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, request, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret == -1 ? -errno : 0;
}

int64_t vx_deadline_ms(int64_t ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + ms * 1000000;
}

const char *vx_status_name(int status)
{
	switch (status) {
	case 0:
		return "ok";
	case -ETIMEDOUT:
		return "timed out (hang, stopped by the driver)";
	case -EIO:
		return "device exception";
	case -ECANCELED:
		return "cancelled";
	case -ETIME:
		return "still running at the deadline";
	default:
		return "error";
	}
}

int vx_device_fault(struct vx_device *dev, uint64_t seqno,
		    struct drm_vortex_fault_info *f)
{
	return vx_fault_query(dev->fd, seqno, f);
}

/* ------------------------------------------------------------- device */
int vx_get_param(struct vx_device *dev, uint32_t param, uint64_t *value)
{
	struct drm_vortex_get_param gp = { .param = param };
	int ret = vx_ioctl(dev->fd, DRM_IOCTL_VORTEX_GET_PARAM, &gp);

	if (!ret)
		*value = gp.value;
	return ret;
}

static int vx_device_query(struct vx_device *dev)
{
	static const uint32_t params[] = {
		DRM_VORTEX_PARAM_NUM_CLUSTERS, DRM_VORTEX_PARAM_NUM_CORES,
		DRM_VORTEX_PARAM_NUM_WARPS, DRM_VORTEX_PARAM_NUM_THREADS,
		DRM_VORTEX_PARAM_VRAM_SIZE, DRM_VORTEX_PARAM_VRAM_DEVADDR,
		DRM_VORTEX_PARAM_CAPABILITIES, DRM_VORTEX_PARAM_JOB_TIMEOUT_MS,
		DRM_VORTEX_PARAM_DEVICE_VERSION,
	};
	uint64_t v[sizeof(params) / sizeof(params[0])];
	int ret;

	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		ret = vx_get_param(dev, params[i], &v[i]);
		if (ret)
			return ret;
	}
	dev->topo.clusters = v[0];
	dev->topo.cores = v[1];
	dev->topo.warps = v[2];
	dev->topo.threads = v[3];
	dev->topo.vram_size = v[4];
	dev->topo.vram_devaddr = v[5];
	dev->topo.caps = v[6];
	dev->topo.job_timeout_ms = v[7];
	dev->topo.device_version = v[8];
	if (!dev->topo.clusters || !dev->topo.cores || !dev->topo.warps ||
	    !dev->topo.threads)
		return -ENODEV;
	return 0;
}

static int vx_device_is_vortex(int fd)
{
	char name[32] = "";
	struct drm_version v = {
		.name = name,
		.name_len = sizeof(name) - 1,
	};

	if (vx_ioctl(fd, DRM_IOCTL_VERSION, &v))
		return 0;
	return !strcmp(name, "vortex");
}

int vx_device_open_path(const char *path, struct vx_device **out)
{
	struct vx_device *dev;
	int ret;

	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	dev->fd = open(path, O_RDWR | O_CLOEXEC);
	if (dev->fd < 0) {
		ret = -errno;
		free(dev);
		return ret;
	}
	ret = vx_device_is_vortex(dev->fd) ? vx_device_query(dev) : -ENODEV;
	if (ret) {
		close(dev->fd);
		free(dev);
		return ret;
	}
	*out = dev;
	return 0;
}

int vx_device_open_index(int index, struct vx_device **out)
{
	char path[64];

	if (index < 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "/dev/accel/accel%d", index);
	return vx_device_open_path(path, out);
}

void vx_device_close(struct vx_device *dev)
{
	if (!dev)
		return;
	vx_bo_free(dev->stack);
	vx_bo_free(dev->args);
	close(dev->fd);
	free(dev);
}

int vx_device_fd(const struct vx_device *dev)
{
	return dev->fd;
}

const struct vx_topology *vx_device_topology(const struct vx_device *dev)
{
	return &dev->topo;
}

/* ------------------------------------------------------------ buffers */
int vx_bo_alloc(struct vx_device *dev, uint64_t size, struct vx_bo **out)
{
	return vx_bo_alloc_flags(dev, size, 0, out);
}

int vx_bo_alloc_flags(struct vx_device *dev, uint64_t size, uint32_t flags,
		      struct vx_bo **out)
{
	struct drm_vortex_bo_create req = { .size = size, .flags = flags };
	struct vx_bo *bo;
	int ret;

	bo = calloc(1, sizeof(*bo));
	if (!bo)
		return -ENOMEM;
	ret = vx_ioctl(dev->fd, DRM_IOCTL_VORTEX_BO_CREATE, &req);
	if (ret) {
		free(bo);
		return ret;
	}
	bo->dev = dev;
	bo->handle = req.handle;
	bo->dev_addr = req.dev_addr;
	/* the driver rounds up to pages; BO_INFO would tell, map asks anyway */
	bo->size = (size + 4095) & ~(uint64_t)4095;
	*out = bo;
	return 0;
}

/*
 * BO_CREATE flags for what kernels only read: the argument slots and the
 * ELF copy for debuggers, so a kernel's stray store or jump there faults
 * rather than corrupting them; none on a driver without the flags.
 */
static uint32_t vx_data_only(const struct vx_device *dev)
{
	if (!(dev->topo.caps & DRM_VORTEX_CAP_BO_ACCESS))
		return 0;
	return DRM_VORTEX_BO_GPU_READ_ONLY | DRM_VORTEX_BO_GPU_NO_EXEC;
}

void vx_bo_free(struct vx_bo *bo)
{
	struct drm_gem_close req;

	if (!bo)
		return;
	if (bo->map)
		munmap(bo->map, bo->size);
	req = (struct drm_gem_close){ .handle = bo->handle };
	vx_ioctl(bo->dev->fd, DRM_IOCTL_GEM_CLOSE, &req);
	free(bo);
}

uint64_t vx_bo_dev_addr(const struct vx_bo *bo)
{
	return bo->dev_addr;
}

uint64_t vx_bo_size(const struct vx_bo *bo)
{
	return bo->size;
}

uint32_t vx_bo_handle(const struct vx_bo *bo)
{
	return bo->handle;
}

int vx_bo_map(struct vx_bo *bo, void **ptr)
{
	struct drm_vortex_bo_info info = { .handle = bo->handle };
	void *p;
	int ret;

	if (!bo->map) {
		ret = vx_ioctl(bo->dev->fd, DRM_IOCTL_VORTEX_BO_INFO, &info);
		if (ret)
			return ret;
		if (info.size > SIZE_MAX)
			return -ENOMEM;
		p = mmap(NULL, info.size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 bo->dev->fd, info.mmap_offset);
		if (p == MAP_FAILED)
			return -errno;
		bo->map = p;
		bo->size = info.size;
	}
	*ptr = bo->map;
	return 0;
}

static int vx_bo_range(struct vx_bo *bo, uint64_t offset, size_t len, char **p)
{
	void *map;
	int ret;

	ret = vx_bo_map(bo, &map);
	if (ret)
		return ret;
	if (offset > bo->size || len > bo->size - offset)
		return -ERANGE;
	*p = (char *)map + offset;
	return 0;
}

int vx_bo_upload(struct vx_bo *bo, uint64_t offset, const void *src, size_t len)
{
	char *p;
	int ret = vx_bo_range(bo, offset, len, &p);

	if (!ret)
		memcpy(p, src, len);
	return ret;
}

int vx_bo_download(struct vx_bo *bo, uint64_t offset, void *dst, size_t len)
{
	char *p;
	int ret = vx_bo_range(bo, offset, len, &p);

	if (!ret)
		memcpy(dst, p, len);
	return ret;
}

/* ------------------------------------------------------------ kernels */
/* Relocate in host memory, then one sequential write through the WC map. */
static int vx_kernel_upload(struct vx_kernel *k)
{
	void *img;
	int ret;

	img = malloc(k->layout.size);
	if (!img)
		return -ENOMEM;
	ret = vx_elf_build(k->elf, k->elf_len, &k->layout, k->bo->dev_addr, img);
	if (!ret)
		ret = vx_bo_upload(k->bo, 0, img, k->layout.size);
	free(img);
	return ret;
}

/*
 * Tells the driver where the image is and gives it the ELF's bytes in a
 * buffer of this file, so debug events name the code object and debuggers
 * map PCs to symbols (DRM_IOCTL_VORTEX_CODE_OBJECT).  Best effort: a
 * driver without it, or a file with DRM_VORTEX_MAX_CODE_OBJECTS objects
 * already, loads anyway.  vx_kernel_free() unregisters it.
 */
static void vx_kernel_register(struct vx_kernel *k)
{
	struct drm_vortex_code_object co = {
		.size = k->elf_len, .load_addr = k->bo->dev_addr,
		.load_size = k->layout.size,
	};

	if (vx_bo_alloc_flags(k->dev, k->elf_len, vx_data_only(k->dev), &k->elf_bo))
		return;
	co.handle = k->elf_bo->handle;
	if (vx_bo_upload(k->elf_bo, 0, k->elf, k->elf_len) ||
	    vx_ioctl(k->dev->fd, DRM_IOCTL_VORTEX_CODE_OBJECT, &co)) {
		vx_bo_free(k->elf_bo);
		k->elf_bo = NULL;
		return;
	}
	k->code_object = co.id;
}

int vx_code_object_unregister(int fd, uint32_t id)
{
	struct drm_vortex_code_object co = {
		.flags = DRM_VORTEX_CODE_OBJECT_UNREGISTER, .id = id,
	};

	return id ? vx_ioctl(fd, DRM_IOCTL_VORTEX_CODE_OBJECT, &co) : 0;
}

int vx_kernel_load(struct vx_device *dev, const void *elf, size_t len,
		   struct vx_kernel **out)
{
	struct vx_kernel *k;
	int ret;

	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->dev = dev;
	ret = vx_elf_parse(elf, len, &k->layout);
	if (ret)
		goto err_free;
	k->elf = malloc(len);
	if (!k->elf) {
		ret = -ENOMEM;
		goto err_free;
	}
	memcpy(k->elf, elf, len);
	k->elf_len = len;
	/* BOs are page aligned, which covers any PT_LOAD alignment we accept */
	ret = vx_bo_alloc(dev, k->layout.size, &k->bo);
	if (!ret)
		ret = vx_kernel_upload(k);
	if (ret)
		goto err_free;
	vx_kernel_register(k);
	*out = k;
	return 0;

err_free:
	vx_kernel_free(k);
	return ret;
}

int vx_kernel_load_file(struct vx_device *dev, const char *path,
			struct vx_kernel **out)
{
	struct stat st;
	void *buf;
	ssize_t n;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto out_close;
	}
	if (st.st_size <= 0 || st.st_size > (64 << 20)) {
		ret = -ENOEXEC;
		goto out_close;
	}
	buf = malloc(st.st_size);
	if (!buf) {
		ret = -ENOMEM;
		goto out_close;
	}
	n = pread(fd, buf, st.st_size, 0);
	if (n != st.st_size)
		ret = n < 0 ? -errno : -EIO;
	else
		ret = vx_kernel_load(dev, buf, st.st_size, out);
	free(buf);
out_close:
	close(fd);
	return ret;
}

void vx_kernel_free(struct vx_kernel *k)
{
	if (!k)
		return;
	/* Gone for the debugger too (CODE_UNLOADED), and the ELF's buffer freed. */
	vx_code_object_unregister(k->dev->fd, k->code_object);
	vx_bo_free(k->bo);
	vx_bo_free(k->elf_bo);
	free(k->elf);
	free(k);
}

uint64_t vx_kernel_base(const struct vx_kernel *k)
{
	return k->bo->dev_addr;
}

uint64_t vx_kernel_entry(const struct vx_kernel *k)
{
	return k->bo->dev_addr + k->layout.entry;
}

struct vx_bo *vx_kernel_bo(const struct vx_kernel *k)
{
	return k->bo;
}

struct vx_bo *vx_kernel_elf_bo(const struct vx_kernel *k)
{
	return k->elf_bo;
}

uint32_t vx_kernel_code_object(const struct vx_kernel *k)
{
	return k->code_object;
}

const void *vx_kernel_elf(const struct vx_kernel *k, size_t *len)
{
	if (len)
		*len = k->elf_len;
	return k->elf;
}

/* ------------------------------------------------------------ launches */
static int vx_launch_stack(struct vx_device *dev, uint32_t stack_size)
{
	uint64_t bytes = vx_topology_hw_threads(&dev->topo) * stack_size;
	struct vx_bo *bo;
	int ret;

	if (dev->stack && dev->stack_size >= stack_size)
		return 0;
	ret = vx_bo_alloc(dev, bytes, &bo);
	if (ret)
		return ret;
	/* queued jobs keep the old buffer alive through their own reference */
	vx_bo_free(dev->stack);
	dev->stack = bo;
	dev->stack_size = stack_size;
	return 0;
}

/* A free argument slot: waits for the job that last used it, if any. */
static int vx_launch_arg_slot(struct vx_device *dev, unsigned int *slot)
{
	unsigned int s = dev->arg_next;
	int ret, status;

	if (!dev->args) {
		ret = vx_bo_alloc_flags(dev, VX_ARG_SLOTS * VX_ARG_SLOT_SIZE,
					vx_data_only(dev), &dev->args);
		if (ret)
			return ret;
	}
	if (dev->arg_seqno[s]) {
		ret = vx_wait(dev, dev->arg_seqno[s] - 1, INT64_MAX, &status);
		/* -ENOENT: so old the driver forgot it, so it has ended */
		if (ret && ret != -ENOENT)
			return ret;
		dev->arg_seqno[s] = 0;
	}
	dev->arg_next = (s + 1) % VX_ARG_SLOTS;
	*slot = s;
	return 0;
}

static int vx_launch_check(const struct vx_launch *l, uint32_t *grid, uint32_t *block)
{
	for (int d = 0; d < 3; d++) {
		grid[d] = l->grid[d] ? l->grid[d] : (d ? 1 : 0);
		block[d] = l->block[d] ? l->block[d] : (d ? 1 : 0);
	}
	if (!grid[0] || !block[0])
		return -EINVAL;
	if (l->args_size > VX_LAUNCH_MAX_ARGS)
		return -E2BIG;
	if ((l->args_size && !l->args) || (l->nbos && !l->bos) ||
	    l->nbos > 4096 - 3 || (l->stack_size & 15))
		return -EINVAL;
	return 0;
}

int vx_launch(struct vx_kernel *k, const struct vx_launch *l, uint64_t *seqno)
{
	struct vx_device *dev = k->dev;
	struct drm_vortex_submit req = { 0 };
	struct drm_vortex_submit_bo *bos;
	uint32_t stack_size = l->stack_size ? l->stack_size : VX_DEFAULT_STACK_SIZE;
	unsigned int slot = 0, n = 0;
	int ret;

	ret = vx_launch_check(l, req.grid, req.block);
	if (ret)
		return ret;
	ret = vx_launch_stack(dev, stack_size);
	if (ret)
		return ret;
	if (l->args_size) {
		ret = vx_launch_arg_slot(dev, &slot);
		if (!ret)
			ret = vx_bo_upload(dev->args, (uint64_t)slot * VX_ARG_SLOT_SIZE,
					   l->args, l->args_size);
		if (ret)
			return ret;
		req.arg_addr = dev->args->dev_addr + (uint64_t)slot * VX_ARG_SLOT_SIZE;
	}

	bos = calloc(l->nbos + 3, sizeof(*bos));
	if (!bos)
		return -ENOMEM;
	bos[n++] = (struct drm_vortex_submit_bo){ k->bo->handle,
		DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_DUMP };
	bos[n++] = (struct drm_vortex_submit_bo){ dev->stack->handle,
		DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_WRITE };
	if (l->args_size)
		bos[n++] = (struct drm_vortex_submit_bo){ dev->args->handle,
			DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_DUMP };
	for (unsigned int i = 0; i < l->nbos; i++) {
		uint32_t f = l->bos[i].flags;

		if (!l->bos[i].bo) {
			free(bos);
			return -EINVAL;
		}
		bos[n++] = (struct drm_vortex_submit_bo){ l->bos[i].bo->handle,
			f ? f : DRM_VORTEX_SUBMIT_BO_FLAGS };
	}

	req.entry_pc = vx_kernel_entry(k);
	req.stack_addr = dev->stack->dev_addr;
	req.stack_size = stack_size;
	ret = vx_submit(dev, &req, bos, n);
	free(bos);
	if (ret)
		return ret;
	if (l->args_size)
		dev->arg_seqno[slot] = req.seqno + 1;
	*seqno = req.seqno;
	return 0;
}

int vx_submit(struct vx_device *dev, struct drm_vortex_submit *req,
	      const struct drm_vortex_submit_bo *bos, uint32_t n)
{
	req->bos = (uintptr_t)bos;
	req->bo_count = n;
	req->bo_stride = sizeof(*bos);
	return vx_ioctl(dev->fd, DRM_IOCTL_VORTEX_SUBMIT, req);
}

int vx_vm_bind(struct vx_device *dev, uint32_t op, uint32_t flags, uint32_t handle,
	       uint64_t offset, uint64_t va, uint64_t range)
{
	struct drm_vortex_vm_bind req = {
		.op = op, .flags = flags, .handle = handle, .bo_offset = offset,
		.va = va, .range = range,
	};

	return vx_ioctl(dev->fd, DRM_IOCTL_VORTEX_VM_BIND, &req);
}

int vx_wait(struct vx_device *dev, uint64_t seqno, int64_t deadline_ns, int *status)
{
	struct drm_vortex_wait req = {
		.seqno = seqno,
		.timeout_ns = deadline_ns,
	};
	int ret = vx_ioctl(dev->fd, DRM_IOCTL_VORTEX_WAIT, &req);

	if (!ret && status)
		*status = req.status;
	return ret;
}

int vx_run(struct vx_kernel *k, const struct vx_launch *l, int timeout_ms)
{
	uint64_t seqno;
	int ret, status = 0;

	ret = vx_launch(k, l, &seqno);
	if (ret)
		return ret;
	/* No deadline: the driver's job timeout ends a job nobody holds. */
	ret = vx_wait(k->dev, seqno, timeout_ms < 0 ? INT64_MAX : vx_deadline_ms(timeout_ms),
		      &status);
	return ret ? ret : status;
}
