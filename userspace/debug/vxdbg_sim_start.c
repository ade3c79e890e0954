// SPDX-License-Identifier: MIT
/*
 * A kernel ELF started on a new simulated card under a debug session, and
 * a Vortex binary staged on one in Vortex's launch model
 * (vxdbg_sim_start.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vx_samples.h"
#include "vx_sv32.h"
#include "vxdbg_sim_start.h"
/* libvortexrt's memory map, so a Vortex binary is laid out as vortex-run lays it */
#include "vxrt_internal.h"

static void *read_file(const char *path, long *len)
{
	void *buf = NULL;
	FILE *f = fopen(path, "rb");

	*len = 0;
	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (*len = ftell(f)) > 0 && (buf = malloc(*len))) {
		rewind(f);
		if (fread(buf, 1, *len, f) != (size_t)*len) {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

/* A sample's buffers in VRAM, filled, and its argument block at @st->launch.arg. */
static int sample_args(struct vxdbg_sim *sim, struct vxdbg_sim_staged *st, uint32_t n)
{
	struct vx_sample_job *j = &st->job;
	uint64_t a;

	*j = (struct vx_sample_job){ .n = n, .grid = st->launch.grid[0],
				     .block = st->launch.block[0] };
	vx_sample_layout(st->sample, j);
	for (unsigned int i = 0; i < j->nbufs; i++) {
		if (vxdbg_sim_alloc(sim, (uint64_t)j->words[i] * 4, &a))
			return -ENOMEM;
		st->addr[i] = a;
		st->buf[i] = vxdbg_sim_ptr(sim, a);
	}
	vx_sample_fill(st->sample, j, st->buf, 1);
	if (!vx_sample_args(st->sample, j, st->addr, vxdbg_sim_ptr(sim, st->launch.arg), 4096))
		return -EINVAL;
	return 0;
}

/* The card @o asks for: 1,2,4,8 unless it says, 64 MiB of VRAM. */
static struct vxdbg_topology sim_topology(const struct vxdbg_sim_start *o)
{
	struct vxdbg_topology t = { 1, 2, 4, 8, 0, 64u << 20 };

	if (o->topo[0]) {
		t.clusters = o->topo[0];
		t.cores = o->topo[1];
		t.warps = o->topo[2];
		t.threads = o->topo[3];
	}
	return t;
}

int vxdbg_sim_stage(const char *path, struct vxdbg_sim_start *o, struct vxdbg_sim **sim,
		    struct vxdbg_sim_staged *st)
{
	struct vxdbg_topology t = sim_topology(o);
	long len;
	void *elf = read_file(path, &len);
	int ret;

	*sim = NULL;
	memset(st, 0, sizeof(*st));
	if (!elf) {
		fprintf(stderr, "cannot read %s\n", path);
		return -ENOENT;
	}
	st->launch.grid[0] = o->grid ?: 1;
	st->launch.block[0] = o->block ?: t.threads;
	st->sample = o->n ? vx_sample_find_path(path) : NULL;
	ret = vxdbg_sim_new(&t, sim);
	if (!ret)
		ret = vxdbg_sim_load(*sim, elf, len, &o->base, &st->launch.entry);
	free(elf);
	if (!ret)
		ret = vxdbg_sim_alloc(*sim, 4096, &st->launch.arg);
	if (!ret && st->sample)
		ret = sample_args(*sim, st, o->n);
	if (ret) {
		fprintf(stderr, "%s on the simulator: %s\n", path, strerror(-ret));
		vxdbg_sim_free(*sim);
		*sim = NULL;
	}
	return ret;
}

/* ------------------------------------------------- Vortex binaries */

/* The Sv32 builder's VRAM accessors, by VRAM offset. */
static uint32_t sv32_rd(void *opaque, uint32_t off)
{
	uint32_t v;

	memcpy(&v, vxdbg_sim_ptr(opaque, VX_VRAM_DEVADDR + off), 4);
	return v;
}

static void sv32_wr(void *opaque, uint32_t off, uint32_t v)
{
	memcpy(vxdbg_sim_ptr(opaque, VX_VRAM_DEVADDR + off), &v, 4);
}

/* @len bytes at @va, backed by fresh VRAM; its address in @pa. */
static int vortex_map(struct vxdbg_sim *sim, struct vx_sv32 *pt, uint32_t va, uint64_t len,
		      uint32_t flags, uint64_t *pa)
{
	len = (len + VXRT_PAGE - 1) & ~(uint64_t)(VXRT_PAGE - 1);
	if (vxdbg_sim_alloc(sim, len, pa))
		return -ENOMEM;
	vx_sv32_map_range(pt, va, *pa, len, flags);
	return 0;
}

/*
 * The image as vx_upload_kernel_bytes() binds it: the pages the file's
 * bytes fill read-only, the rest (bss) read-write.
 */
static int vortex_image(struct vxdbg_sim *sim, struct vx_sv32 *pt, const uint8_t *bin,
			uint64_t len, uint32_t min_vma, uint32_t max_vma)
{
	uint64_t pa;
	uint32_t off;

	if (vortex_map(sim, pt, min_vma, max_vma - min_vma, VX_PTE_URWX, &pa))
		return -ENOMEM;
	memcpy(vxdbg_sim_ptr(sim, pa), bin, len);
	for (off = 0; off + VXRT_PAGE <= len; off += VXRT_PAGE)
		vx_sv32_map(pt, min_vma + off, pa + off, VX_PTE_URX);
	return 0;
}

/*
 * libvortexrt's device (vx_dev_open()): every hart's stack below
 * STACK_BASE_ADDR and the I/O range, read-write; then the image, and the
 * argument block where vx_upload_file() puts the first buffer of the heap.
 */
static int vortex_space(struct vxdbg_sim *sim, const struct vxdbg_topology *t,
			const uint8_t *vxbin, uint64_t len, const void *args, uint64_t nargs,
			struct vxdbg_sim_launch *l)
{
	uint64_t harts = (uint64_t)vxdbg_topology_warps(t) * t->threads;
	uint64_t stack = harts << VXRT_STACK_LOG2, min_vma, max_vma, root, pool, pa;
	struct vx_sv32 pt = { .rd = sv32_rd, .wr = sv32_wr, .opaque = sim };

	memcpy(&min_vma, vxbin, 8);
	memcpy(&max_vma, vxbin + 8, 8);
	/* between the heap's first buffer and the stacks, as a vx_mem_reserve() */
	if (max_vma < min_vma || len - 16 > max_vma - min_vma || max_vma > VXRT_STACK_BASE ||
	    min_vma % VXRT_PAGE || min_vma < VXRT_HEAP_BASE + nargs ||
	    stack > VXRT_STACK_BASE - max_vma)
		return -ENOEXEC;
	/* a level-0 table per 4 MiB a region touches, and one more at each end */
	if (vxdbg_sim_alloc(sim, VXRT_PAGE, &root) ||
	    vxdbg_sim_alloc(sim, VXRT_PAGE * (((max_vma - min_vma + stack) >> 22) + 8), &pool))
		return -ENOMEM;
	vx_sv32_init(&pt, root - VX_VRAM_DEVADDR, pool - VX_VRAM_DEVADDR);
	if (vortex_map(sim, &pt, VXRT_STACK_BASE - stack, stack, VX_PTE_URWX, &pa) ||
	    vortex_map(sim, &pt, VXRT_IO_BASE, VXRT_IO_SIZE, VX_PTE_URWX, &pa) ||
	    vortex_image(sim, &pt, vxbin + 16, len - 16, min_vma, max_vma) ||
	    vortex_map(sim, &pt, VXRT_HEAP_BASE, nargs, VX_PTE_URWX, &pa))
		return -ENOMEM;
	memcpy(vxdbg_sim_ptr(sim, pa), args, nargs);
	*l = (struct vxdbg_sim_launch){ .entry = min_vma, .arg = VXRT_HEAP_BASE,
					.flags = VX_LAUNCH_FLAG_CORES,
					.satp = vx_sv32_satp(&pt, 1) };
	return 0;
}

int vxdbg_sim_stage_vxbin(const char *path, const char *argfile, struct vxdbg_sim_start *o,
			  struct vxdbg_sim **sim, struct vxdbg_sim_staged *st)
{
	struct vxdbg_topology t = sim_topology(o);
	static const uint32_t no_args;
	long len, nargs = sizeof(no_args);
	uint8_t *vxbin = read_file(path, &len);
	void *args = argfile ? read_file(argfile, &nargs) : NULL;
	int ret = -ENOENT;

	*sim = NULL;
	memset(st, 0, sizeof(*st));
	o->base = 0;
	if (!vxbin || (argfile && !args))
		fprintf(stderr, "cannot read %s\n", vxbin ? argfile : path);
	else if (len <= 16)
		ret = -ENOEXEC;
	else
		ret = vxdbg_sim_new(&t, sim) ?:
		      vortex_space(*sim, &t, vxbin, len, args ?: &no_args, nargs, &st->launch);
	free(vxbin);
	free(args);
	if (ret && ret != -ENOENT)
		fprintf(stderr, "%s on the simulator: %s\n", path, strerror(-ret));
	if (ret) {
		vxdbg_sim_free(*sim);
		*sim = NULL;
	}
	return ret;
}

int vxdbg_sim_start(const char *path, struct vxdbg_sim_start *o, struct vxdbg_sim **sim,
		    struct vxdbg_backend **be)
{
	struct drm_vortex_debug_warps w = { .op = DRM_VORTEX_DEBUG_WARPS_HALT_AT_START,
					    .flags = DRM_VORTEX_DEBUG_WARPS_ALL };
	struct vxdbg_sim_staged st;
	int ret;

	*be = NULL;
	ret = vxdbg_sim_stage(path, o, sim, &st);
	if (ret)
		return ret;
	ret = vxdbg_sim_attach(*sim, be);
	if (!ret && !o->run)
		ret = (*be)->ops->warps(*be, &w);
	if (!ret)
		ret = vxdbg_sim_launch(*sim, &st.launch, &o->seqno);
	if (ret) {
		fprintf(stderr, "%s on the simulator: %s\n", path, strerror(-ret));
		if (*be)
			(*be)->ops->close(*be);
		vxdbg_sim_free(*sim);
		*sim = NULL;
		*be = NULL;
	}
	return ret;
}
