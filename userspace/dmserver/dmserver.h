/* SPDX-License-Identifier: MIT */
/*
 * dmserver: vortex-dmserver's loop.  Serves one client at a time on a
 * vx_conn listener: attaches a debug session to the target when a client
 * connects, answers its DM line protocol (dmproto.h) through the
 * session's raw DM access, launches the staged kernel on `s`, and detaches
 * when the client leaves (the card resumes).  Meanwhile it keeps the
 * target ticking and logs on stderr when a job ends and whether its result
 * checked out.
 */
#ifndef DMSERVER_H
#define DMSERVER_H

#include <signal.h>
#include <stdbool.h>

#include "dmtarget.h"
#include "vx_conn.h"

/**
 * struct dmserver_opts - how to serve
 * @halt_at_start: arm HALT_AT_START before each launch
 * @once: leave after the first client, once its job (if any) has ended
 * @stop: set (by a signal handler) to leave as soon as possible
 */
struct dmserver_opts {
	bool halt_at_start;
	bool once;
	volatile sig_atomic_t *stop;
};

/**
 * dmserver_run() - serve clients until told to stop (or the first, @once)
 * Return: 0; 1 when the last job failed or its result was wrong; -errno
 * when the listener failed.
 */
int dmserver_run(struct vx_conn *conn, struct dmtarget *t, const struct dmserver_opts *o);

#endif /* DMSERVER_H */
