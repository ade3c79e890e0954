/* SPDX-License-Identifier: MIT */
/*
 * The project's spawn library for Vortex-style kernels.
 *
 * Vortex starts one thread per core (warp 0, lane 0) and leaves the rest
 * to software: its kernel library's start code and vx_spawn.c.  This is
 * our own small equivalent.  A kernel links vxs_start.S and vx_spawn.c
 * and provides
 *
 *	int main(void *arg);
 *
 * which the card runs once per core, on that one thread, with a stack.
 * main() spreads work over every hardware thread with vxs_spawn_tasks():
 *
 *	static void add(uint32_t i, void *arg) { ... }
 *	int main(void *arg) { vxs_spawn_tasks(n, add, arg); return 0; }
 *
 * Task i runs on core i / ceil(n / cores), so each core takes one
 * contiguous share, and within a core the warps and lanes take its tasks
 * in turn.  The task function runs under a partial thread mask where the
 * share does not fill the warps: any per-lane decision in it needs
 * VX_IF (vx_intrinsics.h).  vxs_spawn_tasks() returns on each core once
 * all of that core's tasks are done.
 */
#ifndef VX_SPAWN_H
#define VX_SPAWN_H

#include <stdint.h>

typedef void (*vxs_task_fn)(uint32_t task, void *arg);

void vxs_spawn_tasks(uint32_t n, vxs_task_fn fn, void *arg);

/* Waits until every core has called it (a device-wide barrier, id 0). */
void vxs_barrier_cores(void);

#endif /* VX_SPAWN_H */
