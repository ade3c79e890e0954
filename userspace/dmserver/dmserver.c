// SPDX-License-Identifier: MIT
/*
 * dmserver: the serving loop of vortex-dmserver (dmserver.h).
 *
 * Single-threaded: the loop polls the client with a short timeout and
 * ticks the target between polls, so the simulator build advances only
 * here and the driver build notices the job's end within a tick.  Each
 * R/W line is one DM batch: one DRM_VORTEX_DEBUG_IOCTL_DM, run in order
 * under the driver's DM lock.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dmproto.h"
#include "dmserver.h"

#define DMS_TICK_MS	20	/* poll timeout while nothing moves */
#define DMS_RX		512

struct dms {
	struct vx_conn *conn;
	struct dmtarget *t;
	const struct dmserver_opts *o;
	struct vxdbg_backend *be;	/* the session, NULL without one */
	int last;			/* verdict of the last job: 0 ok, 1 not */
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

/* One R or W line: a single DM batch. */
static int dms_access(struct dms *s, struct dmproto_req *req)
{
	struct drm_vortex_debug_dm_op ops[DMPROTO_MAX_REGS] = { 0 };
	struct drm_vortex_debug_dm args = { .ops = (uintptr_t)ops, .count = req->count };
	int ret;

	if (!s->be)
		return -ENODEV;
	for (unsigned int i = 0; i < req->count; i++) {
		ops[i].reg = req->reg[i];
		if (req->op == DMPROTO_WRITE) {
			ops[i].flags = DRM_VORTEX_DEBUG_DM_WRITE;
			ops[i].value = req->value[i];
		}
	}
	ret = s->be->ops->dm(s->be, &args);
	if (ret) {
		dms_log("DM access failed: %s\n", strerror(-ret));
		return ret;
	}
	for (unsigned int i = 0; i < req->count; i++)
		req->value[i] = ops[i].value;
	return 0;
}

/* `s`: arm halt-at-start if asked, then launch (disarming if that fails). */
static int dms_start(struct dms *s)
{
	struct drm_vortex_debug_warps w = { .op = DRM_VORTEX_DEBUG_WARPS_HALT_AT_START,
					    .flags = DRM_VORTEX_DEBUG_WARPS_ALL };
	enum dmtarget_state st;
	char msg[256];
	int ret;

	if (!s->be)
		return -ENODEV;
	st = dms_tick(s);	/* a job that just ended is not running */
	if (st == DMTARGET_BUSY || st == DMTARGET_WAITING) {
		dms_log("s: the last job is still running\n");
		return -EBUSY;
	}
	if (s->o->halt_at_start) {
		ret = s->be->ops->warps(s->be, &w);
		if (ret) {
			dms_log("cannot arm halt-at-start: %s\n", strerror(-ret));
			return ret;
		}
	}
	ret = dmtarget_launch(s->t);
	if (ret) {
		dms_log("cannot start the kernel: %s\n", strerror(-ret));
		w.flags = 0;
		if (s->o->halt_at_start)
			s->be->ops->warps(s->be, &w);
		return ret;
	}
	dmtarget_describe(s->t, msg, sizeof(msg));
	dms_log("started %s%s\n", msg, s->o->halt_at_start ? "; its warps halt at start" : "");
	return 0;
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

	ret = dmtarget_attach(s->t, &s->be);
	if (ret) {
		s->be = NULL;
		dms_log("client connected, but no debug session: %s%s; DM commands get '-'\n",
			strerror(-ret), ret == -EBUSY ?
			" (another debugger, e.g. vortex-gdbserver, holds the card)" : "");
	} else {
		dms_log("client connected; debug session attached\n");
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

	while (!stopping(&s)) {
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
