// SPDX-License-Identifier: MIT
/*
 * The debug tools' target options, and starting a target from a process
 * (vxdbg_tool.h).  The simulator's start is in vxdbg_tool_sim.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vxdbg_tool.h"

int vxdbg_tool_opt(struct vxdbg_tool_target *t, int c, const char *arg, const char *prog)
{
	switch (c) {
	case 'w': t->wait_ms = atoi(arg); return 1;
	case 'p': t->pid = atoi(arg); return 1;
	case 'd': t->node = arg; return 1;
	case 'g': t->grid = atoi(arg); return 1;
	case 'b': t->block = atoi(arg); return 1;
	case 'n': t->n = atoi(arg); return 1;
	case 't':
		if (sscanf(arg, "%u,%u,%u,%u", &t->topo[0], &t->topo[1], &t->topo[2],
			   &t->topo[3]) != 4) {
			fprintf(stderr, "%s: --topology wants C,K,W,T\n", prog);
			return -1;
		}
		return 1;
	}
	return 0;
}

void vxdbg_tool_usage(FILE *f, int sim)
{
	if (sim)
		fputs("  -t, --topology C,K,W,T  clusters, cores, warps, threads (1,2,4,8)\n"
		      "  -g, --grid N            blocks (1)\n"
		      "  -b, --block N           threads per block (one warp)\n"
		      "  -n, --elements N        a sample kernel's arguments for N elements\n"
		      "                          (otherwise a zeroed argument block)\n", f);
	else
		fputs("  -p, --pid PID           attach to a running process\n"
		      "  -d, --device NODE       accel node for PROGRAM (/dev/accel/accel0)\n", f);
}

int vxdbg_tool_start_program(struct vxdbg_tool_target *t, char **argv, const char *prog,
			     struct vxdbg_backend **be)
{
	int ret;

	if (t->pid && argv[0])
		return fprintf(stderr, "%s: -p or a program, not both\n", prog), -EINVAL;
	if (t->pid) {
		ret = vxdbg_ioctl_attach_pid(t->pid, be);
		if (ret)
			fprintf(stderr, "%s: attaching to %d: %s%s\n", prog, (int)t->pid,
				strerror(-ret),
				ret == -ENOENT ? " (it has no accel node open)" : "");
		return ret;
	}
	if (!argv[0])
		return fprintf(stderr, "%s: -p PID or -- PROGRAM, please\n", prog), -EINVAL;
	ret = vxdbg_ioctl_spawn(t->node ?: "/dev/accel/accel0", argv, t->child_out, &t->child,
				be);
	if (ret)
		fprintf(stderr, "%s: starting %s: %s\n", prog, argv[0], strerror(-ret));
	return ret;
}
