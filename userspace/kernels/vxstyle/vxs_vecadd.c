// SPDX-License-Identifier: MIT
/*
 * vecadd in Vortex's style: one thread per core starts here (main), and
 * vxs_spawn_tasks() spreads the elements over every warp and lane, as a
 * Vortex regression kernel's main() does with vx_spawn_threads().
 */
#include "vortex_kernels.h"
#include "vx_spawn.h"

static void add(uint32_t i, void *p)
{
	const struct vecadd_args *arg = p;

	arg->c[i] = (int32_t)((uint32_t)arg->a[i] + (uint32_t)arg->b[i]);
}

int main(void *p)
{
	const struct vecadd_args *arg = p;

	vxs_spawn_tasks(arg->n, add, p);
	return 0;
}
