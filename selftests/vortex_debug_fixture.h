/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The debugger suites' fixture: a file with a code and a data buffer,
 * hand-assembled kernels whose every PC and register value the tests
 * know, and one helper per session ioctl.
 *
 * Together the suites drive the debugger interface of vortex.ko
 * (uapi/vortex_accel.h, "The debugger interface") with plain ioctl()s:
 * breakpoints, stepping
 * across a branch and a split/join, register and memory writes that
 * change the output as predicted, halt-at-start, the timeout standing
 * still while halted, exceptions held for the debugger, permissions,
 * events, detaching, every validation path with its errno, and a fuzz.
 *
 * The test process is usually its own target (it attaches through its own
 * file); the permission tests fork debuggers that get the file with
 * pidfd_getfd(2), as a real debugger does.
 */
#ifndef VORTEX_DEBUG_FIXTURE_H
#define VORTEX_DEBUG_FIXTURE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <linux/userfaultfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vortex_accel.h"
#include "vortex_test_ioctl.h"
#include "vortex_client.h"
#include "vx_asm.h"
#include "kselftest_harness.h"

enum { X0 = 0, T0 = 5, T1 = 6, T2 = 7, S1 = 9, A0 = 10, A1 = 11, A2 = 12,
       T3 = 28, T4 = 29 };

#define CODE_SIZE	4096
#define DATA_SIZE	(64 * 1024)
#define IN_OFF		1024	/* input words the kernels load, in data */

/*
 * out[lane] = in + lane, with a breakpoint spot at +20 where t0 = in,
 * t1 = lane, t2 = in + lane, t3 = &out[lane].
 */
static const uint32_t prog_store[] __maybe_unused = {
	LW(T0, A0, IN_OFF),		/* 0x00 */
	CSRR(T1, VX_CSR_THREAD_ID),	/* 0x04 */
	ADD(T2, T0, T1),		/* 0x08 */
	SLLI(T3, T1, 2),		/* 0x0c */
	ADD(T3, T3, A0),		/* 0x10 */
	SW(T2, T3, 0),			/* 0x14: the breakpoint */
	TMC(X0),			/* 0x18 */
};
#define STORE_BP	0x14

/* Faults at +8 with t0 = 42, t1 = 7 in every lane. */
static const uint32_t prog_fault[] __maybe_unused = {
	ADDI(T0, X0, 42),
	ADDI(T1, X0, 7),
	ILLEGAL,
	TMC(X0),
};

/* ------------------------------------------------------------ helpers */

static __maybe_unused int dbg_attach(int fd)
{
	struct drm_vortex_debug_attach a = { .version = DRM_VORTEX_DEBUG_VERSION };
	int ret = vx_ioctl(fd, DRM_IOCTL_VORTEX_DEBUG_ATTACH, &a);

	return ret ?: a.fd;
}

static __maybe_unused int dbg_ioctl(int sfd, unsigned long req, void *arg)
{
	return ioctl(sfd, req, arg) ? -errno : 0;
}

/* Reads events until one of @type (any type if 0); 0 or -ETIME. */
static __maybe_unused int dbg_event(int sfd, uint16_t type, int ms,
		     struct drm_vortex_debug_event *out)
{
	struct drm_vortex_debug_event ev;
	int64_t end = vx_now() + (int64_t)ms * MS;
	struct pollfd p = { .fd = sfd, .events = POLLIN };

	for (;;) {
		int left = (int)((end - vx_now()) / MS);

		if (left < 0 || poll(&p, 1, left) <= 0)
			return -ETIME;
		if (read(sfd, &ev, sizeof(ev)) != sizeof(ev))
			return -EIO;
		if (!type || ev.type == type) {
			if (out)
				*out = ev;
			return 0;
		}
	}
}

static __maybe_unused int dbg_warps(int sfd, uint32_t op, uint32_t flags, const uint32_t *mask,
		     uint32_t words)
{
	struct drm_vortex_debug_warps w = {
		.op = op, .flags = flags, .mask = (uintptr_t)mask,
		.mask_words = words,
	};

	return dbg_ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_WARPS, &w);
}

static __maybe_unused int dbg_status(int sfd, uint32_t warp, struct drm_vortex_debug_warp_state *st)
{
	struct drm_vortex_debug_status s = {
		.states = (uintptr_t)st, .first = warp, .count = 1,
		.stride = sizeof(*st),
	};

	return dbg_ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_STATUS, &s);
}

/* Register @reg of the first @lanes lanes of @warp into @vals. */
static __maybe_unused int dbg_reg(int sfd, uint32_t warp, uint32_t reg, uint32_t lanes,
		   uint32_t *vals, bool write)
{
	struct drm_vortex_debug_reg_op op = {
		.warp = warp, .reg = reg, .values = (uintptr_t)vals,
		.flags = write ? DRM_VORTEX_DEBUG_REG_WRITE : 0,
	};
	struct drm_vortex_debug_regs r = { .ops = (uintptr_t)&op, .count = 1,
		.stride = sizeof(op) };
	uint32_t l;

	for (l = 0; l < lanes; l++)
		op.lanes[l / 32] |= 1u << (l % 32);
	return dbg_ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_REGS, &r);
}

static __maybe_unused int dbg_mem(int sfd, uint64_t addr, void *buf, uint32_t len, bool write)
{
	struct drm_vortex_debug_mem_op op = {
		.addr = addr, .buf = (uintptr_t)buf, .len = len,
		.flags = write ? DRM_VORTEX_DEBUG_MEM_WRITE : 0,
	};
	struct drm_vortex_debug_mem m = { .ops = (uintptr_t)&op, .count = 1,
		.stride = sizeof(op) };

	return dbg_ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_MEM, &m);
}

static __maybe_unused int dbg_bp(int sfd, uint64_t addr, uint32_t op)
{
	struct drm_vortex_debug_bp_op o = { .addr = addr, .op = op };
	struct drm_vortex_debug_breakpoint b = { .ops = (uintptr_t)&o, .count = 1,
		.stride = sizeof(o) };

	return dbg_ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_BREAKPOINT, &b);
}

static __maybe_unused int dbg_step(int sfd, uint32_t warp, uint32_t count,
		    struct drm_vortex_debug_step *out)
{
	struct drm_vortex_debug_step s = { .warp = warp, .count = count };
	int ret = dbg_ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_STEP, &s);

	if (out)
		*out = s;
	return ret;
}

/* ------------------------------------------------------------ fixture */

FIXTURE(dbg) {
	VX_CLIENT_MEMBERS;
	int sfd;
	uint32_t warp;		/* the warp running the test's block */
	uint64_t clusters, cores, warps, threads, timeout_ms, total;
	/* job_timeout_ms before a test lowered it (vx_timeout_set()), or 0 */
	long old_timeout_ms;
	/* debug_hold_ms before a test set it, or -1 */
	long old_hold_ms;
	/* a debugger process of the test's, killed if still there, or -1 */
	pid_t debugger;
};

FIXTURE_SETUP(dbg)
{
	self->sfd = -1;
	self->old_hold_ms = -1;
	self->debugger = -1;
	vx_client_open(&self->client, CODE_SIZE, DATA_SIZE,
		       DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_WRITE);
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CLUSTERS, &self->clusters));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CORES, &self->cores));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_WARPS, &self->warps));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_THREADS, &self->threads));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_JOB_TIMEOUT_MS, &self->timeout_ms));
	self->total = self->clusters * self->cores * self->warps;

	memcpy(self->code_map, prog_store, sizeof(prog_store));
	self->data_map[IN_OFF / 4] = 100;
	/* One block, one warp: warp 0 of the card. */
	self->sub.block[0] = self->threads;
}

FIXTURE_TEARDOWN(dbg)
{
	vx_gate_write("ran_gate", "open");	/* whatever a test left held */
	vx_gate_write("recover_gate", "open");
	if (self->sfd >= 0)
		close(self->sfd);
	vx_client_close(&self->client);
	vx_hang_restore(&self->old_timeout_ms);
	if (self->debugger > 0) {
		kill(self->debugger, SIGKILL);
		waitpid(self->debugger, NULL, 0);
	}
	if (self->old_hold_ms >= 0)
		vx_param_set("debug_hold_ms", self->old_hold_ms);
}

static __maybe_unused void load(FIXTURE_DATA(dbg) *self, const uint32_t *prog, size_t bytes)
{
	memcpy(self->code_map, prog, bytes);
}

/* Waits for warps to halt; returns the first that did. */
static __maybe_unused uint32_t halted_warp(struct __test_metadata *_metadata, int sfd)
{
	struct drm_vortex_debug_event ev = { 0 };

	EXPECT_EQ(0, dbg_event(sfd, DRM_VORTEX_DEBUG_EVENT_HALTED, VX_LIVE_MS, &ev));
	return ev.data[2];
}

/* Resumes every warp and waits for the job; returns its status. */
static __maybe_unused int32_t resume_and_wait(struct __test_metadata *_metadata,
			       FIXTURE_DATA(dbg) *self)
{
	int32_t status = 1;

	EXPECT_EQ(0, dbg_warps(self->sfd, DRM_VORTEX_DEBUG_WARPS_RESUME,
			       DRM_VORTEX_DEBUG_WARPS_ALL, NULL, 0));
	EXPECT_EQ(0, _vx_wait(self->fd, self->sub.seqno, VX_LIVE_MS * MS, &status));
	return status;
}

/* Attaches and submits with every warp halting at its first instruction. */
#define ATTACH_SUBMIT_HALTED() do {					\
	self->sfd = dbg_attach(self->fd);				\
	ASSERT_LE(0, self->sfd);					\
	vx_cmd(dbg_warps(self->sfd, DRM_VORTEX_DEBUG_WARPS_HALT_AT_START, \
			 DRM_VORTEX_DEBUG_WARPS_ALL, NULL, 0));		\
	vx_cmd(_vx_submit(self->fd, &self->sub));			\
	self->warp = halted_warp(_metadata, self->sfd);			\
} while (0)

static __maybe_unused int wait_exit_code(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* ------------------------------------------- other clients of the card */

/* What another process's job did: its status and how long it took. */
struct other_result {
	int32_t status;
	int32_t submit_err;
	int64_t ns;
};

/*
 * Another process's job on a file of its own (so not the session's
 * target), from other_client_start() to other_client_end().
 * @submit_ns: vx_now() as its SUBMIT was called and as it returned, so a
 * test can bound what the driver saw in between.
 */
struct other_client {
	pid_t pid;
	int pipe;
	int32_t submit_err;
	int64_t submit_ns[2];
};

/* The child's first report, once its SUBMIT has returned. */
struct other_submitted {
	int32_t err;
	int64_t ns[2];
};

static __maybe_unused void other_client_child(int out, const uint32_t *prog, size_t bytes,
			       uint32_t blocks, uint32_t threads, int wait_ms)
{
	struct drm_vortex_submit_bo bo = { 0, DRM_VORTEX_SUBMIT_BO_READ };
	struct other_result r = { .status = 1, .submit_err = -1 };
	struct other_submitted s = { .err = -1 };
	struct drm_vortex_submit sub;
	uint64_t addr;
	uint32_t *map;
	int fd;

	fd = open(VX_NODE, O_RDWR | O_CLOEXEC);
	if (fd < 0 || _vx_bo_create(fd, 4096, 0, &bo.handle, &addr))
		_exit(1);
	map = vx_bo_map(fd, bo.handle, NULL);
	if (!map)
		_exit(2);
	memcpy(map, prog, bytes);
	vx_submit_init(&sub, addr, 0, threads, &bo, 1);
	sub.grid[0] = blocks;
	s.ns[0] = vx_now();
	s.err = r.submit_err = _vx_submit(fd, &sub);
	s.ns[1] = vx_now();
	if (write(out, &s, sizeof(s)) != sizeof(s))
		_exit(3);
	if (!r.submit_err)
		r.submit_err = _vx_wait(fd, sub.seqno, (int64_t)wait_ms * MS,
					&r.status);
	r.ns = vx_now() - s.ns[0];
	_exit(write(out, &r, sizeof(r)) == sizeof(r) ? 0 : 3);
}

/*
 * Starts @prog in a new process, @blocks blocks of @threads lanes, and
 * returns once its SUBMIT has: @c says how that went.  Its WAIT waits up
 * to @wait_ms.  False if the process could not be started.
 */
static __maybe_unused bool other_client_start(struct other_client *c,
					      const uint32_t *prog, size_t bytes,
					      uint32_t blocks, uint32_t threads,
					      int wait_ms)
{
	struct other_submitted s;
	int p[2];

	c->pid = -1;
	c->pipe = -1;
	if (pipe(p))
		return false;
	c->pid = fork();
	if (!c->pid) {
		close(p[0]);
		other_client_child(p[1], prog, bytes, blocks, threads, wait_ms);
	}
	close(p[1]);
	c->pipe = p[0];
	if (c->pid < 0 || read(c->pipe, &s, sizeof(s)) != sizeof(s))
		return false;
	c->submit_err = s.err;
	memcpy(c->submit_ns, s.ns, sizeof(s.ns));
	return true;
}

/* Waits for the job and its process: what happened to the job. */
static __maybe_unused struct other_result other_client_end(struct other_client *c)
{
	struct other_result r = { .status = 1, .submit_err = -100 };

	if (c->pipe >= 0 && read(c->pipe, &r, sizeof(r)) != sizeof(r))
		r.submit_err = -100;
	if (c->pipe >= 0)
		close(c->pipe);
	if (c->pid > 0)
		waitpid(c->pid, NULL, 0);
	c->pipe = c->pid = -1;
	return r;
}

/*
 * Runs @prog in another process (other_client_start()) and waits for it.
 * Returns what happened; the child's exit code is 0 if it could run.
 */
static __maybe_unused struct other_result other_client_run(const uint32_t *prog, size_t bytes,
					    uint32_t blocks, uint32_t threads,
					    int wait_ms)
{
	struct other_client c;

	other_client_start(&c, prog, bytes, blocks, threads, wait_ms);
	return other_client_end(&c);
}

static const uint32_t prog_exit[] __maybe_unused = { TMC(X0) };

/* ------------------------------------------------------------ validation */

/* A session with the target's job halted, for the paths that need one. */
#define HALTED_SESSION()	ATTACH_SUBMIT_HALTED()

#endif /* VORTEX_DEBUG_FIXTURE_H */
