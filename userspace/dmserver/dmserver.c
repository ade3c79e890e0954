// SPDX-License-Identifier: MIT
/*
 * dmserver: the serving loop of vortex-dmserver (dmserver.h).
 *
 * Single-threaded: the loop polls the client with a short timeout and
 * ticks the target between polls, so the simulator build advances only
 * here and the driver build notices the job's end within a tick.  Each
 * R/W line is one DM batch: one DRM_VORTEX_DEBUG_IOCTL_DM, run in order
 * under the driver's DM lock; after a DCTRL write with ndmreset the
 * bridge starts the staged kernel again (dms_reset()).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dmproto.h"
#include "dmserver.h"
#include "vortex_regs.h"

#define DMS_TICK_MS	20	/* poll timeout while nothing moves */
#define DMS_RX		512
#define DMS_RESET_MS	5000	/* a reset's job on the card, its warps halted */

struct dms {
	struct vx_conn *conn;
	struct dmtarget *t;
	const struct dmserver_opts *o;
	struct vxdbg_backend *be;	/* the session, NULL without one */
	int last;			/* verdict of the last job: 0 ok, 1 not */
	bool resethalt;			/* the client wrote resethaltreq since the last reset */
	bool gone;			/* the target process has ended */
};

#define dms_log(...)	fprintf(stderr, "vortex-dmserver: " __VA_ARGS__)

static bool stopping(const struct dms *s)
{
	return s->o->stop && *s->o->stop;
}

/* Ticks the target and logs a job's end, with the sample's verdict. */
static enum dmtarget_state dms_tick(struct dms *s)
{
	enum dmtarget_state st;
	char msg[256];
	int status = 0, ret;

	st = dmtarget_tick(s->t, &status);
	if (st == DMTARGET_GONE) {
		dmtarget_describe(s->t, msg, sizeof(msg));
		dms_log("%s has ended, exit status %d\n", msg, status);
		s->last = status != 0;
		s->gone = true;
	}
	if (st != DMTARGET_ENDED)
		return st;
	dms_log("job ended: %s\n", status ? strerror(-status) : "ok");
	ret = status ? 1 : dmtarget_check(s->t, msg, sizeof(msg));
	if (ret >= 0 && !status)
		dms_log("%s\n", msg);
	else if (ret < 0 && ret != -ENOENT)
		dms_log("cannot read the result: %s\n", strerror(-ret));
	s->last = ret > 0 || (ret < 0 && ret != -ENOENT);
	return st;
}

/* How long to wait for the client: not at all while the simulator runs. */
static int dms_timeout(struct dms *s)
{
	return dms_tick(s) == DMTARGET_BUSY ? 0 : DMS_TICK_MS;
}

/* @n raw accesses, in order; a read's value lands in @ops. */
static int dms_batch(struct dms *s, struct drm_vortex_debug_dm_op *ops, unsigned int n)
{
	struct drm_vortex_debug_dm args = { .ops = (uintptr_t)ops, .count = n };
	int ret;

	if (!n)
		return 0;
	ret = s->be->ops->dm(s->be, &args);
	if (ret)
		dms_log("DM access failed: %s\n", strerror(-ret));
	return ret;
}

/*
 * A DCTRL write that resets the platform: dmactive with ndmreset (one
 * without dmactive resets the Debug Module instead, and nothing else).
 * Notes a resethaltreq on the way, for the reset that follows.
 */
static bool dms_wants_reset(struct dms *s, const struct drm_vortex_debug_dm_op *op)
{
	if (op->reg != VX_DM_DCTRL || !(op->flags & DRM_VORTEX_DEBUG_DM_WRITE))
		return false;
	if (!(op->value & VX_DCTRL_DMACTIVE)) {
		s->resethalt = false;
		return false;
	}
	if (op->value & VX_DCTRL_RESETHALTREQ)
		s->resethalt = true;
	return op->value & VX_DCTRL_NDMRESET;
}

static int dms_reset(struct dms *s);

/*
 * One R or W line: a single DM batch, cut after each DCTRL write with
 * ndmreset (the driver resets the card its own way) for dms_reset().
 */
static int dms_access(struct dms *s, struct dmproto_req *req)
{
	struct drm_vortex_debug_dm_op ops[DMPROTO_MAX_REGS] = { 0 };
	unsigned int i, from = 0;
	int ret = 0;

	if (!s->be)
		return -ENODEV;
	for (i = 0; i < req->count; i++) {
		ops[i].reg = req->reg[i];
		if (req->op == DMPROTO_WRITE) {
			ops[i].flags = DRM_VORTEX_DEBUG_DM_WRITE;
			ops[i].value = req->value[i];
		}
	}
	for (i = 0; i < req->count && !ret; i++) {
		if (!dms_wants_reset(s, &ops[i]))
			continue;
		ret = dms_batch(s, ops + from, i + 1 - from) ?: dms_reset(s);
		from = i + 1;
	}
	if (!ret)
		ret = dms_batch(s, ops + from, req->count - from);
	for (i = 0; i < req->count; i++)
		req->value[i] = ops[i].value;
	return ret;
}

/* The next job's warps halt before their first instruction (@on), or not. */
static int dms_arm(struct dms *s, bool on)
{
	struct drm_vortex_debug_warps w = { .op = DRM_VORTEX_DEBUG_WARPS_HALT_AT_START,
					    .flags = on ? DRM_VORTEX_DEBUG_WARPS_ALL : 0 };
	int ret = s->be->ops->warps(s->be, &w);

	if (ret && on)
		dms_log("cannot arm halt-at-start: %s\n", strerror(-ret));
	return ret;
}

/* Launches the staged kernel, its warps armed to halt at start if @halt. */
static int dms_launch(struct dms *s, bool halt, const char *why)
{
	char msg[256];
	int ret;

	if (halt) {
		ret = dms_arm(s, true);
		if (ret)
			return ret;
	}
	ret = dmtarget_launch(s->t);
	if (ret) {
		dms_log("cannot start the kernel: %s\n", strerror(-ret));
		if (halt)
			dms_arm(s, false);
		return ret;
	}
	dmtarget_describe(s->t, msg, sizeof(msg));
	dms_log("%sstarted %s%s\n", why, msg, halt ? "; its warps halt at start" : "");
	return 0;
}

/* `s`: arm halt-at-start if asked, then launch (disarming if that fails). */
static int dms_start(struct dms *s)
{
	enum dmtarget_state st;

	if (!s->be)
		return -ENODEV;
	if (!dmtarget_stages(s->t)) {
		dms_log("s: the target launches its own jobs\n");
		return -EOPNOTSUPP;
	}
	st = dms_tick(s);	/* a job that just ended is not running */
	if (st == DMTARGET_BUSY || st == DMTARGET_WAITING) {
		dms_log("s: the last job is still running\n");
		return -EBUSY;
	}
	return dms_launch(s, s->o->halt_at_start, "");
}

/*
 * Waits until the job a reset launched is on the card (LAUNCHED) and, if
 * its warps were armed, one of them halted (HALTED): what a client polls
 * for after a reset then reads at once.  Earlier events were drained.
 */
static void dms_reset_wait(struct dms *s, bool halt)
{
	struct drm_vortex_debug_event ev;
	int left = DMS_RESET_MS, step = 100;
	bool launched = false;

	while (left > 0) {
		if (s->be->ops->event(s->be, &ev, step)) {
			left -= step;
			continue;
		}
		if (ev.type == DRM_VORTEX_DEBUG_EVENT_LAUNCHED)
			launched = true;
		else if (ev.type == DRM_VORTEX_DEBUG_EVENT_FINISHED && launched)
			return;
		if (launched && (!halt || ev.type == DRM_VORTEX_DEBUG_EVENT_HALTED))
			return;
	}
	dms_log("ndmreset: the new job %s within %d ms\n",
		launched ? "did not halt" : "was not on the card", DMS_RESET_MS);
}

/*
 * ndmreset, as Vortex's RTL debug server has it: the platform resets and
 * the staged kernel starts again from its entry, the warps a resethaltreq
 * selected halting before its first instruction (docs/debugging.md,
 * "ndmreset").  The driver has reset the card and is cancelling the job
 * that was on it (vortex_job_ndmreset()); once it has ended, the kernel is
 * launched again, with every warp armed to halt at start if the client
 * wrote resethaltreq since the last reset (once, as the RTL's resethaltreq
 * is).  A target process launches its own jobs: its job was cancelled,
 * and that is all.
 */
static int dms_reset(struct dms *s)
{
	struct drm_vortex_debug_event ev;
	bool halt = s->resethalt;
	enum dmtarget_state st;
	int left;

	s->resethalt = false;
	if (!dmtarget_stages(s->t))
		return 0;
	for (left = DMS_RESET_MS; left > 0; left -= DMS_TICK_MS) {
		st = dms_tick(s);
		if (st == DMTARGET_IDLE || st == DMTARGET_ENDED)
			break;
		poll(NULL, 0, DMS_TICK_MS);
	}
	if (left <= 0) {
		dms_log("ndmreset: the job on the card did not end\n");
		return -EBUSY;
	}
	while (!s->be->ops->event(s->be, &ev, 0))
		;			/* what came before the reset */
	return dms_launch(s, halt, "ndmreset: ") ?: (dms_reset_wait(s, halt), 0);
}

/* One line: parse, do, answer.  Returns false when the client is done. */
static bool dms_line(struct dms *s, int fd, const char *line, size_t len)
{
	struct dmproto_req req;
	char reply[DMPROTO_REPLY_MAX];
	size_t n;
	int ret;

	ret = dmproto_parse(line, len, &req);
	if (!ret && (req.op == DMPROTO_READ || req.op == DMPROTO_WRITE))
		ret = dms_access(s, &req);
	else if (!ret && req.op == DMPROTO_START)
		ret = dms_start(s);
	n = dmproto_reply(&req, ret, reply);
	if (!n)
		return false;			/* q */
	return !vx_conn_write_all(fd, reply, n);
}

/* Reads what came; returns false when the client has gone or quit. */
static bool dms_receive(struct dms *s, int fd, struct dmproto_lines *lines)
{
	char rx[DMS_RX];
	const char *line;
	size_t off = 0, len;
	ssize_t n;

	n = read(fd, rx, sizeof(rx));
	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	while (off < (size_t)n) {
		line = rx;		/* unchanged: no line ended */
		off += dmproto_lines_feed(lines, rx + off, n - off, &line, &len);
		if (line != rx && !dms_line(s, fd, line, len))
			return false;
	}
	return n > 0;
}

static void dms_client(struct dms *s, int fd)
{
	struct dmproto_lines lines = { 0 };
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int ret;

	s->resethalt = false;	/* the last session's DM was reset with it */
	ret = dmtarget_attach(s->t, &s->be);
	if (ret) {
		s->be = NULL;
		dms_log("client connected, but no debug session: %s%s; DM commands get '-'\n",
			strerror(-ret), ret == -EBUSY ?
			" (another debugger, e.g. vortex-gdbserver, holds the card)" : "");
	} else {
		dms_log("client connected; debug session attached\n");
		if (s->o->halt_at_start && !dmtarget_stages(s->t))
			dms_arm(s, true);
	}
	while (!stopping(s)) {
		ret = poll(&p, 1, dms_timeout(s));
		if (ret < 0 && errno != EINTR)
			break;
		if (ret > 0 && !dms_receive(s, fd, &lines))
			break;
	}
	if (s->be) {
		s->be->ops->close(s->be);
		s->be = NULL;
		dms_log("client left; session detached, the card runs on\n");
	} else {
		dms_log("client left\n");
	}
}

int dmserver_run(struct vx_conn *conn, struct dmtarget *t, const struct dmserver_opts *o)
{
	struct dms s = { .conn = conn, .t = t, .o = o };
	enum dmtarget_state st;
	int fd;

	while (!stopping(&s) && !s.gone) {
		fd = vx_conn_accept(conn, dms_timeout(&s));
		if (fd == -ETIME || fd == -EINTR)
			continue;
		if (fd < 0) {
			dms_log("accept: %s\n", strerror(-fd));
			return fd;
		}
		dms_client(&s, fd);
		vx_conn_hangup(conn, fd);
		if (o->once)
			break;
	}
	/* --once: the job the client started still tells how it ended. */
	while (o->once && !stopping(&s) &&
	       (st = dms_tick(&s)) != DMTARGET_IDLE && st != DMTARGET_ENDED)
		if (st == DMTARGET_WAITING)
			poll(NULL, 0, DMS_TICK_MS);
	return s.last;
}
