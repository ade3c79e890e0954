// SPDX-License-Identifier: MIT
/*
 * vxs_spawn_tasks(): the project's own spawning for Vortex-style kernels
 * (vx_spawn.h).  It relies on the card behaving as upstream Vortex
 * (docs/hardware.md, "Cores"): wspawn starts the core's other warps at a
 * PC with lane 0 on and their registers kept, once the caller is the
 * core's only active warp; tmc sets the mask from the highest active
 * lane's operand; bar with a local id counts the core's warps; a
 * device-wide bar (id bit 31) counts cores.
 */
#include "vx_intrinsics.h"
#include "vx_spawn.h"
#include "vx_spawn_abi.h"

/* What the core's warps run, set by warp 0 before it spawns them. */
struct vxs_share {
	vxs_task_fn fn;
	void *arg;
	uint32_t first, count;
};

static struct vxs_share vxs_shares[VXS_MAX_CORES];

void vxs_warp_entry(void);
void vxs_run_warp0(void);
void vxs_warp_body(void);

/* Every lane of every warp of the core: its tasks, lane after lane. */
void vxs_warp_body(void)
{
	struct vxs_share *s = &vxs_shares[vx_core_id()];
	uint32_t nw = vx_num_warps(), nt = vx_num_threads();
	uint32_t stride = nw * nt, me = vx_warp_id() * nt + vx_thread_id();
	uint32_t rounds = (s->count + stride - 1) / stride;

	for (uint32_t r = 0; r < rounds; r++) {
		uint32_t k = r * stride + me;

		VX_IF (k < s->count) {
			s->fn(s->first + k, s->arg);
		} VX_ENDIF;
	}
	/* The core's warps meet; then all but warp 0 end. */
	vx_barrier(0, nw);
	if (vx_warp_id() != 0)
		vx_tmc(0);
	vx_tmc(1);
}

void vxs_spawn_tasks(uint32_t n, vxs_task_fn fn, void *arg)
{
	uint32_t cores = vx_num_cores(), core = vx_core_id();
	uint32_t per = (n + cores - 1) / cores;
	uint32_t first = core * per;
	struct vxs_share *s = &vxs_shares[core];

	s->fn = fn;
	s->arg = arg;
	s->first = first;
	s->count = first >= n ? 0 : (n - first < per ? n - first : per);
	/* The other warps start at vxs_warp_entry; this one runs the body too. */
	vx_wspawn(vx_num_warps(), vxs_warp_entry);
	vxs_run_warp0();
}

void vxs_barrier_cores(void)
{
	vx_barrier(0x80000000u, vx_num_cores());
}
