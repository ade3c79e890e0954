/* SPDX-License-Identifier: MIT */
/*
 * dmtarget: the card vortex-dmserver serves and the kernel it stages
 * there, loaded at start-up and launched at a client's `s`.  Two
 * implementations, one per build: dmtarget_drv.c (libvortex on the accel
 * node, the driver's debug session on that same file: the process debugs
 * itself) and dmtarget_sim.c (the simulator in-process, which only runs
 * when dmtarget_tick() lets it).  dmtarget_sample.c is what both do for a
 * sample kernel of testlib/vx_samples.c: inputs, expected result, check.
 */
#ifndef DMTARGET_H
#define DMTARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vx_samples.h"
#include "vxdbg_backend.h"

struct dmtarget;

/**
 * struct dmtarget_opts - what to stage
 * @kernel: the kernel ELF
 * @device: the accel node (driver build), NULL for /dev/accel/accel0
 * @n: elements, for a sample kernel (by file name, as vortex-run): its
 *	buffers, inputs and argument block; 0, or another kernel: a zeroed
 *	argument block of VX_LAUNCH_MAX_ARGS bytes
 * @topo: clusters, cores, warps, threads of the simulated card (all 0: 1,2,4,8)
 */
struct dmtarget_opts {
	const char *kernel;
	const char *device;
	uint32_t n;
	uint32_t topo[4];
};

/* What dmtarget_tick() found. */
enum dmtarget_state {
	DMTARGET_IDLE,		/* no job running */
	DMTARGET_BUSY,		/* running, and will make progress if ticked again */
	DMTARGET_WAITING,	/* running, nothing to do now (halted, or on the card) */
	DMTARGET_ENDED,		/* the job ended during this tick */
};

/**
 * dmtarget_open() - open the card and load the kernel
 * Return: 0 or -errno; the reason is printed on stderr.
 */
int dmtarget_open(const struct dmtarget_opts *o, struct dmtarget **out);

/** dmtarget_close() - free everything; a job still running is the card's. NULL ok. */
void dmtarget_close(struct dmtarget *t);

/**
 * dmtarget_attach() - a debug session on the target's own card file
 * Return: 0, or the ATTACH errno (-EBUSY: another debugger holds the card).
 */
int dmtarget_attach(struct dmtarget *t, struct vxdbg_backend **be);

/**
 * dmtarget_launch() - inputs filled afresh, the job queued
 * Return: 0; -EBUSY while the previous job runs; -errno of the launch.
 */
int dmtarget_launch(struct dmtarget *t);

/**
 * dmtarget_tick() - let time pass and see whether the job ended
 * @status: set for DMTARGET_ENDED: the job's status as WAIT reports it
 */
enum dmtarget_state dmtarget_tick(struct dmtarget *t, int *status);

/**
 * dmtarget_describe() - the last job: kernel, dims, its arguments' address
 * @buf: receives one line of text (no newline)
 */
void dmtarget_describe(struct dmtarget *t, char *buf, size_t len);

/**
 * dmtarget_check() - the ended job's output against the sample's reference
 * @buf: receives the verdict, e.g. "vecadd result checked: 64 of 64 elements exact"
 * Return: 0 it checked out, 1 it did not, -ENOENT not a sample (nothing
 * to check), or -errno reading the output.
 */
int dmtarget_check(struct dmtarget *t, char *buf, size_t len);

/* ------------------------------------------------- dmtarget_sample.c */

/**
 * struct dmtarget_sample - a sample kernel's run, shared by both builds
 * @s: the sample, NULL if the kernel is none (or @job.n is 0)
 * @job: its elements, dims and buffers
 * @addr: device addresses of the buffers
 * @buf: host views: copies to upload (driver) or VRAM itself (simulator)
 * @want: the expected output, from the inputs of the last launch
 */
struct dmtarget_sample {
	const struct vx_sample *s;
	struct vx_sample_job job;
	uint32_t addr[VX_SAMPLE_MAX_BUFS];
	uint32_t *buf[VX_SAMPLE_MAX_BUFS];
	uint32_t *want;
};

/**
 * dmtarget_sample_prepare() - fresh buffers for the next launch
 * @args: receives the argument block
 * @max: its room
 *
 * Zeroes every buffer (as a new one is), fills the inputs (seed 1),
 * computes @want and writes the argument block.
 * Return: the argument block's size, 0 when it does not fit or @want
 * cannot be allocated.
 */
size_t dmtarget_sample_prepare(struct dmtarget_sample *ds, void *args, size_t max);

/** dmtarget_sample_check() - as dmtarget_check(), on @ds->buf[out] */
int dmtarget_sample_check(struct dmtarget_sample *ds, char *buf, size_t len);

#endif /* DMTARGET_H */
