/* SPDX-License-Identifier: MIT */
/*
 * A kernel ELF started on a new simulated card under a debug session, as
 * the host builds of the debug tools (vxdbg-sim, vortex-gdbserver-sim,
 * vortex-dmserver-sim) run their target: loaded, launched, and every warp
 * halted before its first instruction (or not, see @run).
 */
#ifndef VXDBG_SIM_START_H
#define VXDBG_SIM_START_H

#include <stdbool.h>
#include <stdint.h>

#include "vxdbg_sim.h"

/**
 * struct vxdbg_sim_start - what to run, and how
 * @topo: clusters, cores, warps, threads (all zero: 1,2,4,8)
 * @grid: blocks (0 counts as 1)
 * @block: threads per block (0: one warp)
 * @n: elements, for a sample kernel of testlib/vx_samples.c (recognised
 *	by its file name: vecadd.elf, saxpy.elf, ...): its buffers are
 *	allocated and filled (seed 1) and its argument block written.  0, or
 *	another kernel: a zeroed 4 KiB argument block.
 * @run: launch without halting at start
 * @seqno: out: the job's number
 * @base: out: device address of the ELF's address 0
 */
struct vxdbg_sim_start {
	uint32_t topo[4];
	uint32_t grid;
	uint32_t block;
	uint32_t n;
	bool run;
	uint64_t seqno;
	uint64_t base;
};

/**
 * vxdbg_sim_start() - start @path on a new card with a session attached
 * @sim: receives the card (vxdbg_sim_free() it after closing @be)
 * @be: receives the session
 * Return: 0 or -errno; the reason is printed on stderr.
 */
int vxdbg_sim_start(const char *path, struct vxdbg_sim_start *o, struct vxdbg_sim **sim,
		    struct vxdbg_backend **be);

#endif /* VXDBG_SIM_START_H */
