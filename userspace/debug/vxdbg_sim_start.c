// SPDX-License-Identifier: MIT
/*
 * A kernel ELF started on a new simulated card under a debug session
 * (vxdbg_sim_start.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vx_samples.h"
#include "vxdbg_sim_start.h"

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

/* The sample kernel @path is, by its file name; NULL for others. */
static const struct vx_sample *sample_of(const char *path)
{
	const char *base = strrchr(path, '/');
	char name[32];
	size_t len;

	base = base ? base + 1 : path;
	len = strcspn(base, ".");
	if (len >= sizeof(name))
		return NULL;
	memcpy(name, base, len);
	name[len] = 0;
	return vx_sample_find(name);
}

/* A sample's buffers in VRAM, filled, and its argument block at @l->arg. */
static int sample_args(struct vxdbg_sim *sim, const struct vx_sample *s,
		       struct vxdbg_sim_start *o, struct vxdbg_sim_launch *l)
{
	struct vx_sample_job j = { .n = o->n, .grid = l->grid[0], .block = l->block[0] };
	uint32_t addr[VX_SAMPLE_MAX_BUFS], *buf[VX_SAMPLE_MAX_BUFS];
	uint32_t seed = 1;
	uint64_t a;

	vx_sample_layout(s, &j);
	for (unsigned int i = 0; i < j.nbufs; i++) {
		if (vxdbg_sim_alloc(sim, (uint64_t)j.words[i] * 4, &a))
			return -ENOMEM;
		addr[i] = a;
		buf[i] = vxdbg_sim_ptr(sim, a);
	}
	vx_sample_fill(s, &j, buf, seed);
	if (!vx_sample_args(s, &j, addr, vxdbg_sim_ptr(sim, l->arg), 4096))
		return -EINVAL;
	return 0;
}

int vxdbg_sim_start(const char *path, struct vxdbg_sim_start *o, struct vxdbg_sim **sim,
		    struct vxdbg_backend **be)
{
	struct vxdbg_topology t = { 1, 2, 4, 8, 0, 64u << 20 };
	struct drm_vortex_debug_warps w = { .op = DRM_VORTEX_DEBUG_WARPS_HALT_AT_START,
					    .flags = DRM_VORTEX_DEBUG_WARPS_ALL };
	struct vxdbg_sim_launch l = { .grid = { o->grid ?: 1 } };
	const struct vx_sample *s = sample_of(path);
	long len;
	void *elf = read_file(path, &len);
	int ret;

	*sim = NULL;
	*be = NULL;
	if (!elf) {
		fprintf(stderr, "cannot read %s\n", path);
		return -ENOENT;
	}
	if (o->topo[0]) {
		t.clusters = o->topo[0];
		t.cores = o->topo[1];
		t.warps = o->topo[2];
		t.threads = o->topo[3];
	}
	ret = vxdbg_sim_new(&t, sim);
	if (!ret)
		ret = vxdbg_sim_load(*sim, elf, len, &o->base, &l.entry);
	free(elf);
	l.block[0] = o->block ?: t.threads;
	if (!ret)
		ret = vxdbg_sim_alloc(*sim, 4096, &l.arg);
	if (!ret && s && o->n)
		ret = sample_args(*sim, s, o, &l);
	if (!ret)
		ret = vxdbg_sim_attach(*sim, be);
	if (!ret && !o->run)
		ret = (*be)->ops->warps(*be, &w);
	if (!ret)
		ret = vxdbg_sim_launch(*sim, &l, &o->seqno);
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
