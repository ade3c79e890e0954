/* SPDX-License-Identifier: MIT */
/*
 * vx_conn: where a debug server (vortex-gdbserver, vortex-dmserver) meets
 * its one client, as a plain byte stream on a file descriptor.
 *
 * Two kinds of place:
 *  - a TCP port: "1234" (127.0.0.1), "HOST:1234" ("0.0.0.0:1234" for every
 *    interface); port 0 picks a free one (vx_conn_describe() names it);
 *  - a virtio-serial port of the guest: "vport:NAME" (the name QEMU gave
 *    the virtserialport, found in /sys/class/virtio-ports) or its device,
 *    "/dev/vportNpM".  QEMU connects it to a socket chardev on the host,
 *    which is how the host reaches a server in the test guest
 *    (scripts/run-guest.sh --mode debug).  A client "connects" when the
 *    host side of the chardev gets one, and "disconnects" when it goes:
 *    read() then returns 0, exactly as for a TCP peer.
 *
 * One client at a time: vx_conn_accept() again after the last one left.
 */
#ifndef VX_CONN_H
#define VX_CONN_H

#include <stddef.h>

struct vx_conn;

/**
 * vx_conn_open() - start listening at @where
 * @out: receives the listener
 * Return: 0, or -errno (-EINVAL for a @where that names nothing, -ENOENT
 * for an unknown virtio port, -EADDRINUSE, ...).
 */
int vx_conn_open(const char *where, struct vx_conn **out);

/**
 * vx_conn_accept() - wait for the next client
 * @timeout_ms: how long; -1 for ever
 * Return: a descriptor of the connection (close it with
 * vx_conn_hangup()), -ETIME when none came in time, or -errno.
 */
int vx_conn_accept(struct vx_conn *c, int timeout_ms);

/**
 * vx_conn_hangup() - end the connection @fd got from vx_conn_accept()
 *
 * For a virtio port, what the client sent and nobody read is discarded.
 */
void vx_conn_hangup(struct vx_conn *c, int fd);

/** vx_conn_describe() - "tcp 127.0.0.1:40123" or "virtio-serial vortex.gdb (/dev/vport1p1)" */
const char *vx_conn_describe(const struct vx_conn *c);

/** vx_conn_close() - stop listening; NULL is fine */
void vx_conn_close(struct vx_conn *c);

/**
 * vx_conn_write_all() - write all of @len bytes of @buf to @fd
 * Return: 0, or -errno (-EPIPE when the client has gone).
 */
int vx_conn_write_all(int fd, const void *buf, size_t len);

#endif /* VX_CONN_H */
