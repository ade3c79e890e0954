// SPDX-License-Identifier: MIT
/*
 * Thread-local data in Vortex's style: a __thread block per hardware
 * thread, reached through tp as upstream's start code lays the blocks out
 * (hart h's at _end + h * __tbss_size: vxs_start.S, kernel.ld).  The
 * blocks lie past the image, so on a card of many harts they cross its
 * last page: a runtime that maps only the image faults here.
 */
#include "vortex_kernels.h"
#include "vx_intrinsics.h"
#include "vx_spawn.h"

extern char _end[];

/*
 * VXS_TLS_BLOCK bytes, volatile so that the compiler keeps them all: the
 * last word is written too, so a short map faults.
 */
static __thread volatile struct {
	uint32_t tasks, sum;
	uint32_t fill[VXS_TLS_BLOCK / 4 - 2];
} tl;

_Static_assert(sizeof(tl) == VXS_TLS_BLOCK, "one hart's block");

static void task(uint32_t i, void *p)
{
	const struct vxs_tls_args *arg = p;
	uint32_t tp, *out = &arg->out[3 * i];

	__asm__ volatile ("mv %0, tp" : "=r"(tp));
	out[1] = tl.sum;
	tl.tasks++;
	tl.sum += i;
	tl.fill[VXS_TLS_BLOCK / 4 - 3] = i;
	out[0] = vx_hart_id() << 16 | tl.tasks;
	out[2] = tp - (uint32_t)(uintptr_t)_end;
}

int main(void *p)
{
	const struct vxs_tls_args *arg = p;

	vxs_spawn_tasks(arg->n, task, p);
	return 0;
}
