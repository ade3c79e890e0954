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

#include "vx_samples.h"
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
 * struct vxdbg_sim_staged - a kernel loaded on a new card, not launched yet
 * @launch: the job vxdbg_sim_start() queues (entry, argument block, dims)
 * @sample: the sample kernel @path is when @n was given, else NULL
 * @job: the sample's buffers (vx_sample_layout())
 * @addr: their device addresses
 * @buf: their host views, in the card's VRAM
 */
struct vxdbg_sim_staged {
	struct vxdbg_sim_launch launch;
	const struct vx_sample *sample;
	struct vx_sample_job job;
	uint32_t addr[VX_SAMPLE_MAX_BUFS];
	uint32_t *buf[VX_SAMPLE_MAX_BUFS];
};

/**
 * vxdbg_sim_stage() - the first half of vxdbg_sim_start(): a new card
 * with @path loaded and its arguments written, no session, nothing queued
 * @sim: receives the card (vxdbg_sim_free() it)
 * @st: receives the job to launch and the sample's buffers
 *
 * For a program that attaches and launches later (vortex-dmserver-sim).
 * Return: 0 or -errno; the reason is printed on stderr.
 */
int vxdbg_sim_stage(const char *path, struct vxdbg_sim_start *o, struct vxdbg_sim **sim,
		    struct vxdbg_sim_staged *st);

/**
 * vxdbg_sim_stage_vxbin() - a Vortex binary on a new card, laid out and
 * launched as vortex-run runs one on the driver (libvortexrt's memory map:
 * the image at its load address, the argument block in the heap, every
 * hart's stack below STACK_BASE_ADDR, the I/O range at 0, in an address
 * space of its own), no session, nothing queued
 * @path: the .vxbin
 * @argfile: its argument block's bytes, NULL for one zero word
 * @o: @topo only; @base is set to 0
 * @st: receives the job: VX_LAUNCH_FLAG_CORES (warp 0 lane 0 of every
 *	core at the load address, mscratch = the argument block), no sample
 *
 * Return: 0 or -errno; the reason is printed on stderr.
 */
int vxdbg_sim_stage_vxbin(const char *path, const char *argfile, struct vxdbg_sim_start *o,
			  struct vxdbg_sim **sim, struct vxdbg_sim_staged *st);

/**
 * vxdbg_sim_start() - start @path on a new card with a session attached
 * @sim: receives the card (vxdbg_sim_free() it after closing @be)
 * @be: receives the session
 * Return: 0 or -errno; the reason is printed on stderr.
 */
int vxdbg_sim_start(const char *path, struct vxdbg_sim_start *o, struct vxdbg_sim **sim,
		    struct vxdbg_backend **be);

#endif /* VXDBG_SIM_START_H */
