/* SPDX-License-Identifier: MIT */
/*
 * What the debug tools (vxdbg, vortex-gdbserver) share on their command
 * line: how to name the target and start it.  The driver build debugs a
 * process (-p PID) or a program it starts after `--` (its first job halted
 * at its start, -d NODE); the host build runs a kernel ELF on the
 * in-process simulator (-t, -g, -b, -n).  Each tool adds its own options
 * and calls vxdbg_tool_opt() for the rest.
 */
#ifndef VXDBG_TOOL_H
#define VXDBG_TOOL_H

#include <getopt.h>
#include <stdio.h>
#include <sys/types.h>

#include "vxdbg_backend.h"

struct vxdbg_sim;

/**
 * struct vxdbg_tool_target - the target options, and what started
 * @wait_ms: -w: how long the tool waits for the target (30000)
 * @pid: -p: a running process to attach to
 * @node: -d: the accel node for a program (/dev/accel/accel0)
 * @topo: -t: the simulated card (1,2,4,8)
 * @grid: -g: blocks of the simulated launch
 * @block: -b: threads per block
 * @n: -n: a sample kernel's arguments for N elements
 * @child_out: the program's stdout and stderr (-1: the tool's own)
 * @child: out: the program the tool started, 0 if none
 * @sim: out: the simulated card (host build)
 * @seqno: out: its job
 */
struct vxdbg_tool_target {
	int wait_ms;
	pid_t pid;
	const char *node;
	unsigned int topo[4], grid, block, n;
	int child_out;
	pid_t child;
	struct vxdbg_sim *sim;
	uint64_t seqno;
};

#define VXDBG_TOOL_TARGET_INIT { .wait_ms = 30000, .topo = { 1, 2, 4, 8 }, .child_out = -1 }

/* The target options, for getopt_long(): append to the tool's own. */
#define VXDBG_TOOL_SHORTOPTS	"w:p:d:t:g:b:n:"
#define VXDBG_TOOL_LONGOPTS						\
	{ "wait", required_argument, NULL, 'w' },			\
	{ "pid", required_argument, NULL, 'p' },			\
	{ "device", required_argument, NULL, 'd' },			\
	{ "topology", required_argument, NULL, 't' },			\
	{ "grid", required_argument, NULL, 'g' },			\
	{ "block", required_argument, NULL, 'b' },			\
	{ "elements", required_argument, NULL, 'n' }

/**
 * vxdbg_tool_opt() - take getopt's option @c if it is a target option
 * Return: 1 taken, 0 not a target option, -1 a bad value (said on stderr).
 */
int vxdbg_tool_opt(struct vxdbg_tool_target *t, int c, const char *arg, const char *prog);

/** vxdbg_tool_usage() - the target options' help lines, for @sim or the driver */
void vxdbg_tool_usage(FILE *f, int sim);

/**
 * vxdbg_tool_start_program() - attach to -p, or start @argv halted at its start
 * Return: 0 or -errno (said on stderr, prefixed by @prog).
 */
int vxdbg_tool_start_program(struct vxdbg_tool_target *t, char **argv, const char *prog,
			     struct vxdbg_backend **be);

/**
 * vxdbg_tool_start_sim() - the kernel ELF @argv[0] on a new simulated card
 * Return: 0 or -errno (said on stderr).
 */
int vxdbg_tool_start_sim(struct vxdbg_tool_target *t, char **argv, const char *prog,
			 struct vxdbg_backend **be);

#endif /* VXDBG_TOOL_H */
