/* SPDX-License-Identifier: MIT */
/*
 * The target of the libvortex-debug tests, one interface over two
 * worlds, so the same tests run on the host and in the guest:
 *
 *   VXDBG_TEST_SIM   the simulator backend: the card in-process, kernels
 *                    loaded from $(O)/riscv, time passes as the test waits;
 *   otherwise        the guest: libvortex on /dev/accel/accel0, the test
 *                    process is its own target and attaches through its
 *                    own file.
 *
 * Each helper returns 0 or -errno.
 */
#ifndef VXDBG_TARGET_H
#define VXDBG_TARGET_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vxdbg.h"
#include "vxdbg_backend.h"

#define TARGET_MAX_BUFS	8

#ifdef VXDBG_TEST_SIM
#include "vxdbg_sim.h"

#ifndef VX_KERNEL_DIR
#define VX_KERNEL_DIR "build/riscv"
#endif

struct target {
	struct vxdbg_sim *sim;
	struct vxdbg_topology topo;
	uint64_t entry, base;
};

static inline int target_open(struct target *t, uint32_t clusters, uint32_t cores,
			      uint32_t warps, uint32_t threads)
{
	memset(t, 0, sizeof(*t));
	t->topo = (struct vxdbg_topology){ .clusters = clusters, .cores = cores,
		.warps = warps, .threads = threads, .vram_size = 16u << 20 };
	return vxdbg_sim_new(&t->topo, &t->sim);
}

static inline void target_close(struct target *t)
{
	vxdbg_sim_free(t->sim);
}

static inline int target_load(struct target *t, const char *name)
{
	char path[512];
	void *elf;
	long n;
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/%s.elf", VX_KERNEL_DIR, name);
	f = fopen(path, "rb");
	if (!f)
		return -errno;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	elf = malloc(n);
	ret = elf && fread(elf, 1, n, f) == (size_t)n ? 0 : -EIO;
	fclose(f);
	if (!ret)
		ret = vxdbg_sim_load(t->sim, elf, n, &t->base, &t->entry);
	free(elf);
	return ret;
}

/* Unregisters the last loaded kernel's code object, as vx_kernel_free(). */
static inline int target_unload(struct target *t)
{
	return vxdbg_sim_unload(t->sim, t->entry);
}

static inline int target_alloc(struct target *t, uint64_t bytes, uint64_t *addr,
			       void **ptr)
{
	int ret = vxdbg_sim_alloc(t->sim, bytes, addr);

	if (!ret)
		*ptr = vxdbg_sim_ptr(t->sim, *addr);
	return ret;
}

/* Launches the last loaded kernel with a copy of @args. */
static inline int target_launch(struct target *t, const void *args, size_t len,
				const uint32_t grid[3], const uint32_t block[3],
				uint64_t *seqno)
{
	struct vxdbg_sim_launch l = { .entry = t->entry };
	void *p;
	int ret = target_alloc(t, len, &l.arg, &p);

	if (ret)
		return ret;
	memcpy(p, args, len);
	memcpy(l.grid, grid, sizeof(l.grid));
	memcpy(l.block, block, sizeof(l.block));
	return vxdbg_sim_launch(t->sim, &l, seqno);
}

static inline int target_wait(struct target *t, uint64_t seqno, int *status)
{
	return vxdbg_sim_wait(t->sim, seqno, 1ull << 30, status);
}

static inline int target_attach(struct target *t, struct vxdbg_backend **be)
{
	return vxdbg_sim_attach(t->sim, be);
}

#else /* the guest */
#include "libvortex.h"

struct target {
	struct vx_device *dev;
	struct vx_kernel *k;
	struct vx_bo *bufs[TARGET_MAX_BUFS];
	int nbufs;
	struct vxdbg_topology topo;
	uint64_t entry, base;
};

static inline int target_open(struct target *t, uint32_t clusters, uint32_t cores,
			      uint32_t warps, uint32_t threads)
{
	const struct vx_topology *vt;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = vx_device_open_path("/dev/accel/accel0", &t->dev);
	if (ret)
		return ret;
	vt = vx_device_topology(t->dev);
	t->topo = (struct vxdbg_topology){ vt->clusters, vt->cores, vt->warps, vt->threads,
					   vt->vram_devaddr, vt->vram_size };
	return 0;
}

static inline void target_close(struct target *t)
{
	for (int i = 0; i < t->nbufs; i++)
		vx_bo_free(t->bufs[i]);
	vx_kernel_free(t->k);
	vx_device_close(t->dev);
}

static inline int target_load(struct target *t, const char *name)
{
	char path[256];
	int ret;

	vx_kernel_free(t->k);
	t->k = NULL;
	snprintf(path, sizeof(path), "/vortex/kernels/%s.elf", name);
	ret = vx_kernel_load_file(t->dev, path, &t->k);
	if (!ret) {
		t->base = vx_kernel_base(t->k);
		t->entry = vx_kernel_entry(t->k);
	}
	return ret;
}

static inline int target_unload(struct target *t)
{
	vx_kernel_free(t->k);
	t->k = NULL;
	return 0;
}

static inline int target_alloc(struct target *t, uint64_t bytes, uint64_t *addr,
			       void **ptr)
{
	struct vx_bo *bo;
	int ret;

	if (t->nbufs == TARGET_MAX_BUFS)
		return -ENOSPC;
	ret = vx_bo_alloc(t->dev, bytes, &bo);
	if (ret)
		return ret;
	t->bufs[t->nbufs++] = bo;
	*addr = vx_bo_dev_addr(bo);
	return vx_bo_map(bo, ptr);
}

static inline int target_launch(struct target *t, const void *args, size_t len,
				const uint32_t grid[3], const uint32_t block[3],
				uint64_t *seqno)
{
	struct vx_launch l = { .args = args, .args_size = len };

	memcpy(l.grid, grid, sizeof(l.grid));
	memcpy(l.block, block, sizeof(l.block));
	return vx_launch(t->k, &l, seqno);
}

static inline int target_wait(struct target *t, uint64_t seqno, int *status)
{
	return vx_wait(t->dev, seqno, vx_deadline_ms(20000), status);
}

static inline int target_attach(struct target *t, struct vxdbg_backend **be)
{
	return vxdbg_ioctl_attach_fd(vx_device_fd(t->dev), be);
}
#endif

#endif /* VXDBG_TARGET_H */
