// SPDX-License-Identifier: MIT
/*
 * sgemm with local memory, in Vortex's style (upstream's sgemm2 keeps its
 * tiles in local memory): each core's first thread copies B into the
 * core's local memory, at the address CSR VX_CSR_LOCAL_MEM_BASE gives
 * (upstream's __local_mem()), then the core's tasks, one row of C each,
 * read B from there.  C = A x B, n x n floats, summed in k order.
 */
#include "vortex_kernels.h"
#include "vx_intrinsics.h"
#include "vx_spawn.h"

static float *local_mem(void)
{
	return (float *)(uintptr_t)vx_csr_read(VX_CSR_LOCAL_MEM_BASE);
}

static void row(uint32_t i, void *p)
{
	const struct vxs_sgemm_args *arg = p;
	const float *b = local_mem();
	uint32_t n = arg->n;

	for (uint32_t j = 0; j < n; j++) {
		float sum = 0.0f;

		for (uint32_t k = 0; k < n; k++)
			sum += arg->a[i * n + k] * b[k * n + j];
		arg->c[i * n + j] = sum;
	}
}

int main(void *p)
{
	const struct vxs_sgemm_args *arg = p;
	float *b = local_mem();

	for (uint32_t k = 0; k < arg->n * arg->n; k++)
		b[k] = arg->b[k];
	vxs_spawn_tasks(arg->n, row, p);
	return 0;
}
