/* SPDX-License-Identifier: MIT */
/*
 * dmtarget: the card vortex-dmserver serves and what runs there.  Each
 * kind of target is a struct dmtarget_ops:
 *   - a kernel ELF staged by the server, launched at a client's `s`:
 *     dmtarget_drv.c (libvortex on the accel node) and dmtarget_sim.c (the
 *     simulator in-process, which only runs when dmtarget_tick() lets it);
 *   - a Vortex binary (.vxbin) and its argument file staged the way
 *     vortex-run stages it, launched in Vortex's model at `s`:
 *     dmtarget_vxbin.c (libvortexrt, vortex_run_vxbin.c) and dmtarget_sim.c
 *     (vxdbg_sim_stage_vxbin());
 *   - another process's card work (-p PID, or a program started after
 *     `--`), which launches its own jobs: dmtarget_proc.c, driver only.
 * The debug session is always on the accel file the jobs run on: the
 * server's own (it debugs itself) or the other process's (pidfd_getfd).
 * dmtarget_sample.c is what the staged kinds do for a sample kernel of
 * testlib/vx_samples.c: inputs, expected result, check.
 */
#ifndef DMTARGET_H
#define DMTARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>
#include <sys/types.h>

#include "vx_samples.h"
#include "vxdbg_backend.h"

/**
 * struct dmtarget_opts - what to stage, or whom to attach to
 * @kernel: the kernel ELF, or a Vortex binary (name ending in .vxbin)
 * @argfile: a Vortex binary's argument block, its bytes (NULL: one zero word)
 * @device: the accel node (driver build), NULL for /dev/accel/accel0
 * @n: elements, for a sample kernel (by file name, as vortex-run): its
 *	buffers, inputs and argument block; 0, or another kernel: a zeroed
 *	argument block of VX_LAUNCH_MAX_ARGS bytes
 * @topo: clusters, cores, warps, threads of the simulated card (all 0: 1,2,4,8)
 * @pid: -p: a process using the card, instead of @kernel (driver build)
 * @argv: `--`: a program to start with its first job halted at its start,
 *	instead of @kernel (driver build); NULL-terminated
 */
struct dmtarget_opts {
	const char *kernel;
	const char *argfile;
	const char *device;
	uint32_t n;
	uint32_t topo[4];
	pid_t pid;
	char **argv;
};

/* What dmtarget_tick() found. */
enum dmtarget_state {
	DMTARGET_IDLE,		/* no job running */
	DMTARGET_BUSY,		/* running, and will make progress if ticked again */
	DMTARGET_WAITING,	/* running, nothing to do now (halted, or on the card) */
	DMTARGET_ENDED,		/* the job ended during this tick */
	DMTARGET_GONE,		/* the target process has ended (-p, --) */
};

struct dmtarget;

/**
 * struct dmtarget_ops - one kind of target
 * @close: free everything; a job still running is the card's
 * @attach: a debug session on the file the target's jobs run on; 0, or
 *	the ATTACH errno (-EBUSY: another debugger holds the card)
 * @launch: inputs filled afresh, the job queued: 0; -EBUSY while the
 *	previous job runs; -errno of the launch.  NULL: the target launches
 *	its own jobs (`s` is refused, ndmreset only resets)
 * @tick: let time pass and see whether the job ended; @status is set for
 *	DMTARGET_ENDED (the job's status as WAIT reports it) and
 *	DMTARGET_GONE (the process's exit status, 128 + signal if killed)
 * @describe: one line of text (no newline): the last job, or the process
 * @check: the ended job's output against the sample's reference, e.g.
 *	"vecadd result checked: 64 of 64 elements exact"; 0 it checked out,
 *	1 it did not, -ENOENT nothing to check, or -errno reading the output
 */
struct dmtarget_ops {
	void (*close)(struct dmtarget *t);
	int (*attach)(struct dmtarget *t, struct vxdbg_backend **be);
	int (*launch)(struct dmtarget *t);
	enum dmtarget_state (*tick)(struct dmtarget *t, int *status);
	void (*describe)(struct dmtarget *t, char *buf, size_t len);
	int (*check)(struct dmtarget *t, char *buf, size_t len);
};

/* Every kind's state starts with this. */
struct dmtarget {
	const struct dmtarget_ops *ops;
};

/**
 * dmtarget_open() - open the card and stage the kernel, or find the process
 * Each build has its own (dmtarget_drv.c, dmtarget_sim.c).
 * Return: 0 or -errno; the reason is printed on stderr.
 */
int dmtarget_open(const struct dmtarget_opts *o, struct dmtarget **out);

/* Whether @path names a Vortex binary, by its name as vortex-run decides. */
static inline bool dmtarget_is_vxbin(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	return n > 6 && !strcmp(path + n - 6, ".vxbin");
}

/* NULL ok */
static inline void dmtarget_close(struct dmtarget *t)
{
	if (t)
		t->ops->close(t);
}

static inline int dmtarget_attach(struct dmtarget *t, struct vxdbg_backend **be)
{
	return t->ops->attach(t, be);
}

/* Whether the target has a kernel of its own that `s` launches. */
static inline bool dmtarget_stages(const struct dmtarget *t)
{
	return t->ops->launch;
}

static inline int dmtarget_launch(struct dmtarget *t)
{
	return t->ops->launch ? t->ops->launch(t) : -EOPNOTSUPP;
}

static inline enum dmtarget_state dmtarget_tick(struct dmtarget *t, int *status)
{
	return t->ops->tick(t, status);
}

static inline void dmtarget_describe(struct dmtarget *t, char *buf, size_t len)
{
	t->ops->describe(t, buf, len);
}

static inline int dmtarget_check(struct dmtarget *t, char *buf, size_t len)
{
	return t->ops->check ? t->ops->check(t, buf, len) : -ENOENT;
}

/*
 * A tick of a staged job on the card: @ret is what a WAIT with a zero
 * deadline gave (-ETIME: it runs on); the job ends with its status, or
 * with WAIT's own error, when the job is lost to us.
 */
static inline enum dmtarget_state dmtarget_waited(bool *running, int ret, int *status)
{
	if (ret == -ETIME)
		return DMTARGET_WAITING;
	if (ret)
		*status = ret;
	*running = false;
	return DMTARGET_ENDED;
}

/* The driver build's kinds, which its dmtarget_open() chooses among. */
int dmtarget_elf_open(const struct dmtarget_opts *o, struct dmtarget **out);
int dmtarget_vxbin_open(const struct dmtarget_opts *o, struct dmtarget **out);
int dmtarget_proc_open(const struct dmtarget_opts *o, struct dmtarget **out);

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
