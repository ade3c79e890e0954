// SPDX-License-Identifier: MIT
/*
 * printf from every hardware thread, in Vortex's style: each task prints
 * "task NNNN" and a newline through IO_COUT (vx_print.h), as a Vortex
 * regression kernel's vx_printf() does.
 */
#include "vortex_kernels.h"
#include "vx_print.h"
#include "vx_spawn.h"

static void hello(uint32_t i, void *p)
{
	(void)p;
	vx_putstr("task ");
	vx_putdec(i, 4);
	vx_putchar('\n');
}

int main(void *p)
{
	const struct vxs_hello_args *arg = p;

	vxs_spawn_tasks(arg->n, hello, p);
	return 0;
}
