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

int vxdbg_sim_stage(const char *path, struct vxdbg_sim_start *o, struct vxdbg_sim **sim,
		    struct vxdbg_sim_staged *st)
{
	struct vxdbg_topology t = { 1, 2, 4, 8, 0, 64u << 20 };
	long len;
	void *elf = read_file(path, &len);
	int ret;

	*sim = NULL;
	memset(st, 0, sizeof(*st));
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
