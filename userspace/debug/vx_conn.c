// SPDX-License-Identifier: MIT
/*
 * vx_conn: a debug server's one client, on a TCP port or a virtio-serial
 * port (vx_conn.h).
 *
 * A virtio-serial port has no accept(): the guest keeps the port open and
 * the driver tells whether the host side is connected.  While it is not,
 * poll() reports POLLHUP and read() returns 0; when QEMU's socket chardev
 * gets a client, POLLHUP clears (drivers/char/virtio_console.c).  So
 * accepting is waiting for POLLHUP to clear, and a client leaving looks
 * like a TCP peer closing: read() returns 0.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "vx_conn.h"

#define VPORT_CLASS	"/sys/class/virtio-ports"
#define VPORT_POLL_MS	20
#define VX_CONN_WRITE_MS 10000	/* a client that reads nothing for this long has gone */

struct vx_conn {
	int fd;			/* the listening socket, or the port */
	bool vport;
	char desc[400];
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* "/dev/vportNpM" of the virtio port QEMU named @name. */
static int vport_find(const char *name, char *dev, size_t len)
{
	DIR *dir = opendir(VPORT_CLASS);
	struct dirent *e;
	int ret = -ENOENT;

	if (!dir)
		return -ENOENT;
	while (ret && (e = readdir(dir))) {
		char path[300], got[128] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), VPORT_CLASS "/%s/name", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(got, sizeof(got), f)) {
			got[strcspn(got, "\n")] = 0;
			if (!strcmp(got, name)) {
				snprintf(dev, len, "/dev/%s", e->d_name);
				ret = 0;
			}
		}
		fclose(f);
	}
	closedir(dir);
	return ret;
}

static int open_vport(struct vx_conn *c, const char *where)
{
	char dev[300];
	int ret;

	if (!strncmp(where, "vport:", 6)) {
		ret = vport_find(where + 6, dev, sizeof(dev));
		if (ret)
			return ret;
	} else {
		snprintf(dev, sizeof(dev), "%s", where);
	}
	c->fd = open(dev, O_RDWR | O_CLOEXEC);
	if (c->fd < 0)
		return -errno;
	c->vport = true;
	snprintf(c->desc, sizeof(c->desc), "virtio-serial %s (%s)",
		 strncmp(where, "vport:", 6) ? where : where + 6, dev);
	return 0;
}

static int open_tcp(struct vx_conn *c, const char *where)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	const char *colon = strrchr(where, ':');
	socklen_t salen = sizeof(sa);
	char host[64] = "127.0.0.1", *end;
	unsigned long port;
	int one = 1;

	if (colon) {
		if ((size_t)(colon - where) >= sizeof(host))
			return -EINVAL;
		memcpy(host, where, colon - where);
		host[colon - where] = 0;
		where = colon + 1;
	}
	port = strtoul(where, &end, 10);
	if (!*where || *end || port > 65535 || inet_pton(AF_INET, host, &sa.sin_addr) != 1)
		return -EINVAL;
	sa.sin_port = htons(port);
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -errno;
	setsockopt(c->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(c->fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(c->fd, 1) ||
	    getsockname(c->fd, (struct sockaddr *)&sa, &salen)) {
		int err = -errno;

		close(c->fd);
		return err;
	}
	snprintf(c->desc, sizeof(c->desc), "tcp %s:%u", host, ntohs(sa.sin_port));
	return 0;
}

int vx_conn_open(const char *where, struct vx_conn **out)
{
	struct vx_conn *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return -ENOMEM;
	if (!strncmp(where, "vport:", 6) || !strncmp(where, "/dev/", 5))
		ret = open_vport(c, where);
	else
		ret = open_tcp(c, where);
	if (ret) {
		free(c);
		return ret;
	}
	*out = c;
	return 0;
}

/* Waits until the host side of the port has a client. */
static int vport_accept(struct vx_conn *c, int timeout_ms)
{
	int64_t end = now_ms() + timeout_ms;
	struct pollfd p = { .fd = c->fd, .events = POLLOUT };

	int n;

	for (;;) {
		n = poll(&p, 1, VPORT_POLL_MS);

		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0 && !(p.revents & (POLLHUP | POLLERR | POLLNVAL)))
			break;
		if (timeout_ms >= 0 && now_ms() >= end)
			return -ETIME;
		if (n > 0)	/* POLLHUP does not wait: sleep instead */
			usleep(VPORT_POLL_MS * 1000);
	}
	n = fcntl(c->fd, F_DUPFD_CLOEXEC, 0);
	return n < 0 ? -errno : n;
}

int vx_conn_accept(struct vx_conn *c, int timeout_ms)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	int fd, one = 1, n;

	if (c->vport)
		return vport_accept(c, timeout_ms);
	do {
		n = poll(&p, 1, timeout_ms);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (!n)
		return -ETIME;
	fd = accept4(c->fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return -errno;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

void vx_conn_hangup(struct vx_conn *c, int fd)
{
	if (fd < 0)
		return;
	if (c->vport) {
		/* Drop what the old client left unread. */
		char buf[256];
		int fl = fcntl(c->fd, F_GETFL);

		fcntl(c->fd, F_SETFL, fl | O_NONBLOCK);
		while (read(c->fd, buf, sizeof(buf)) > 0)
			;
		fcntl(c->fd, F_SETFL, fl);
	}
	close(fd);
}

const char *vx_conn_describe(const struct vx_conn *c)
{
	return c->desc;
}

void vx_conn_close(struct vx_conn *c)
{
	if (!c)
		return;
	close(c->fd);
	free(c);
}

int vx_conn_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		struct pollfd pf = { .fd = fd, .events = POLLOUT };
		ssize_t n;

		/*
		 * A virtio port whose host side has gone blocks writers until
		 * a new client comes: that client is not ours.
		 */
		n = poll(&pf, 1, VX_CONN_WRITE_MS);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || (pf.revents & (POLLHUP | POLLERR | POLLNVAL)))
			return -EPIPE;
		n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == ENOTSOCK)
			n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!n)
			return -EPIPE;
		p += n;
		len -= n;
	}
	return 0;
}
