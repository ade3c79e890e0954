// SPDX-License-Identifier: MIT
/*
 * A rank sort in Vortex's style, with divergence on every comparison:
 * out[rank(i)] = in[i], rank(i) = the elements before in[i] in the
 * sorted order (ties by index), so the result is a stable sort.  Each
 * comparison is a per-lane decision, so it is bracketed by split/join
 * (VX_IF), as Vortex's compiler brackets divergent branches.
 */
#include "vortex_kernels.h"
#include "vx_intrinsics.h"
#include "vx_spawn.h"

static void rank_one(uint32_t i, void *p)
{
	const struct vxs_sort_args *arg = p;
	int32_t v = arg->in[i];
	uint32_t rank = 0;

	for (uint32_t j = 0; j < arg->n; j++) {
		int32_t w = arg->in[j];

		VX_IF ((w < v) | ((w == v) & (j < i))) {
			rank++;
		} VX_ENDIF;
	}
	arg->out[rank] = v;
}

int main(void *p)
{
	const struct vxs_sort_args *arg = p;

	vxs_spawn_tasks(arg->n, rank_one, p);
	return 0;
}
