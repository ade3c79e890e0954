// SPDX-License-Identifier: MIT
/*
 * DOC: the client's byte stream
 *
 * Bytes are read as they come (poll, then one read()) and fed to the
 * packet parser; nothing ever blocks past the caller's timeout, so a
 * client that stops talking mid-packet cannot hang the server, and the
 * run loop can look for a Ctrl-C between waits on the card.  Replies are
 * not held until acknowledged: a '-' resends the last one, a '+' is
 * noted and dropped.  A failed read or write marks the client gone for
 * good.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gdbs.h"
#include "vx_conn.h"

void gdbs_io_init(struct gdbs_io *io, int fd)
{
	memset(io, 0, sizeof(*io));
	io->fd = fd;
	rsp_parser_init(&io->parser);
}

static void put_raw(struct gdbs_io *io, const void *b, size_t len)
{
	if (!io->gone && vx_conn_write_all(io->fd, b, len))
		io->gone = true;
}

/* Reads what is there, waiting at most @timeout_ms; false if nothing came. */
static bool fill(struct gdbs_io *io, int timeout_ms)
{
	struct pollfd p = { .fd = io->fd, .events = POLLIN };
	ssize_t n;
	int ret;

	ret = poll(&p, 1, timeout_ms);
	if (ret <= 0)
		return false;		/* timeout, or EINTR: the caller decides */
	n = read(io->fd, io->in, sizeof(io->in));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return false;
	if (n <= 0) {
		io->gone = true;
		return false;
	}
	io->in_pos = 0;
	io->in_len = n;
	return true;
}

/* A complete packet: acknowledge it and decode it into @pkt. */
static enum gdbs_io_ev take_packet(struct gdbs_io *io, uint8_t *pkt, size_t *len)
{
	ssize_t n;

	if (!io->noack)
		put_raw(io, "+", 1);
	n = rsp_decode(io->parser.buf, io->parser.len, pkt, RSP_PACKET_MAX + 1);
	if (n < 0 || n > RSP_PACKET_MAX)
		return GDBS_IO_MALFORMED;
	pkt[n] = 0;
	*len = n;
	return GDBS_IO_PACKET;
}

/* Handles one byte; returns what it completed for the caller, NONE if nothing. */
static enum gdbs_io_ev byte_in(struct gdbs_io *io, uint8_t c, uint8_t *pkt, size_t *len)
{
	switch (rsp_parser_feed(&io->parser, c)) {
	case RSP_EV_PACKET:
		return take_packet(io, pkt, len);
	case RSP_EV_BAD_CHECKSUM:
	case RSP_EV_OVERSIZE:
		io->rejected++;
		if (!io->noack)
			put_raw(io, "-", 1);
		return GDBS_IO_NONE;
	case RSP_EV_NAK:
		if (!io->noack && io->last_len)
			put_raw(io, io->last, io->last_len);
		return GDBS_IO_NONE;
	case RSP_EV_INTERRUPT:
		return GDBS_IO_INTERRUPT;
	default:
		return GDBS_IO_NONE;
	}
}

enum gdbs_io_ev gdbs_io_next(struct gdbs_io *io, int timeout_ms, uint8_t *pkt,
			     size_t *len)
{
	enum gdbs_io_ev ev;

	for (;;) {
		while (io->in_pos < io->in_len) {
			ev = byte_in(io, io->in[io->in_pos++], pkt, len);
			if (ev != GDBS_IO_NONE)
				return ev;
		}
		if (io->gone)
			return GDBS_IO_EOF;
		if (!fill(io, timeout_ms))
			return io->gone ? GDBS_IO_EOF : GDBS_IO_NONE;
	}
}

int gdbs_io_send(struct gdbs_io *io, const void *data, size_t len)
{
	ssize_t n = rsp_frame(data, len, true, io->last, sizeof(io->last));

	if (n < 0) {
		io->last_len = 0;
		return -E2BIG;
	}
	io->last_len = n;
	put_raw(io, io->last, n);
	return io->gone ? -EPIPE : 0;
}
