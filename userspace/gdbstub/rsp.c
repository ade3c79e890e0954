// SPDX-License-Identifier: MIT
/*
 * rsp: framing, checksums, escapes, run-length encoding and hex of the
 * GDB Remote Serial Protocol (rsp.h).  Pure functions over buffers, so the
 * unit test drives them byte by byte, hostile input included.
 */
#include <string.h>

#include "rsp.h"

enum { ST_IDLE, ST_DATA, ST_CSUM1, ST_CSUM2 };

#define RLE_MIN		4	/* a run shorter than this is cheaper as it is */
#define RLE_BASE	29	/* count character = repeats + RLE_BASE */
#define RLE_MAXREP	('~' - RLE_BASE)

static const char hexdig[] = "0123456789abcdef";

void rsp_parser_init(struct rsp_parser *p)
{
	p->state = ST_IDLE;
	p->len = 0;
	p->over = false;
	p->sum = 0;
}

static void start_packet(struct rsp_parser *p)
{
	p->state = ST_DATA;
	p->len = 0;
	p->over = false;
	p->sum = 0;
}

static enum rsp_event idle_byte(struct rsp_parser *p, uint8_t c)
{
	switch (c) {
	case '$':
		start_packet(p);
		return RSP_EV_NONE;
	case '+':
		return RSP_EV_ACK;
	case '-':
		return RSP_EV_NAK;
	case RSP_INTERRUPT_BYTE:
		return RSP_EV_INTERRUPT;
	default:
		return RSP_EV_NONE;	/* junk between packets */
	}
}

/* The packet's end: is the checksum right, and did it fit? */
static enum rsp_event end_packet(struct rsp_parser *p, char lo)
{
	int hi = rsp_hex_digit(p->csum), l = rsp_hex_digit(lo);

	p->state = ST_IDLE;
	p->buf[p->len] = 0;
	if (hi < 0 || l < 0 || (uint8_t)(hi << 4 | l) != p->sum)
		return RSP_EV_BAD_CHECKSUM;
	return p->over ? RSP_EV_OVERSIZE : RSP_EV_PACKET;
}

enum rsp_event rsp_parser_feed(struct rsp_parser *p, uint8_t c)
{
	switch (p->state) {
	case ST_DATA:
		if (c == '$') {			/* truncated: start over */
			start_packet(p);
		} else if (c == '#') {
			p->state = ST_CSUM1;
		} else {
			p->sum += c;
			if (p->len < RSP_PACKET_MAX)
				p->buf[p->len++] = c;
			else
				p->over = true;
		}
		return RSP_EV_NONE;
	case ST_CSUM1:
		p->csum = c;
		p->state = ST_CSUM2;
		return RSP_EV_NONE;
	case ST_CSUM2:
		return end_packet(p, c);
	default:
		return idle_byte(p, c);
	}
}

/* Run-length expansion of the raw bytes; -1 if malformed or too long. */
static ssize_t rle_expand(const char *in, size_t len, uint8_t *out, size_t cap)
{
	size_t o = 0, n;

	for (size_t i = 0; i < len; i++) {
		if (in[i] != '*') {
			if (o >= cap)
				return -1;
			out[o++] = in[i];
			continue;
		}
		if (!o || i + 1 >= len || in[i + 1] < ' ' || in[i + 1] > '~')
			return -1;
		n = in[++i] - RLE_BASE;
		if (o + n > cap)
			return -1;
		memset(out + o, out[o - 1], n);
		o += n;
	}
	return o;
}

ssize_t rsp_decode(const char *in, size_t len, uint8_t *out, size_t cap)
{
	ssize_t n = rle_expand(in, len, out, cap);
	size_t o = 0;

	if (n < 0)
		return -1;
	for (ssize_t i = 0; i < n; i++) {
		if (out[i] != '}') {
			out[o++] = out[i];
			continue;
		}
		if (++i >= n)
			return -1;
		out[o++] = out[i] ^ 0x20;
	}
	if (o < cap)
		out[o] = 0;
	return o;
}

uint8_t rsp_checksum(const void *data, size_t len)
{
	const uint8_t *b = data;
	uint8_t sum = 0;

	while (len--)
		sum += *b++;
	return sum;
}

static bool needs_escape(uint8_t c)
{
	return c == '$' || c == '#' || c == '}' || c == '*';
}

/* How many times @b[0] repeats at the start of @b (at most @len). */
static size_t run_length(const uint8_t *b, size_t len)
{
	size_t n = 1;

	while (n < len && b[n] == b[0])
		n++;
	return n;
}

/*
 * One run of @c, @n long, as "c" plus "*" and a count.  The counts that
 * would be '#' or '$' are not allowed: such runs are sent one shorter.
 * Return: bytes of the run consumed.
 */
static size_t put_run(uint8_t c, size_t n, char *out, size_t *o)
{
	size_t rep = n - 1;

	out[(*o)++] = c;
	if (n < RLE_MIN)
		return 1;
	if (rep > RLE_MAXREP)
		rep = RLE_MAXREP;
	while (rep + RLE_BASE == '#' || rep + RLE_BASE == '$')
		rep--;
	out[(*o)++] = '*';
	out[(*o)++] = rep + RLE_BASE;
	return rep + 1;
}

ssize_t rsp_frame(const void *data, size_t len, bool rle, char *out, size_t cap)
{
	const uint8_t *b = data;
	size_t o = 0, i = 0;
	uint8_t sum;

	if (cap < 4)
		return -1;
	out[o++] = '$';
	while (i < len) {
		if (o + 3 + 3 > cap)		/* the widest step, then "#cs" */
			return -1;
		if (needs_escape(b[i])) {
			out[o++] = '}';
			out[o++] = b[i++] ^ 0x20;
		} else if (rle) {
			i += put_run(b[i], run_length(b + i, len - i), out, &o);
		} else {
			out[o++] = b[i++];
		}
	}
	sum = rsp_checksum(out + 1, o - 1);
	out[o++] = '#';
	out[o++] = hexdig[sum >> 4];
	out[o++] = hexdig[sum & 15];
	if (o < cap)
		out[o] = 0;
	return o;
}

/* ------------------------------------------------------------- hex */

int rsp_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void rsp_hex_encode(const void *bytes, size_t len, char *out)
{
	const uint8_t *b = bytes;

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = hexdig[b[i] >> 4];
		out[2 * i + 1] = hexdig[b[i] & 15];
	}
	out[2 * len] = 0;
}

ssize_t rsp_hex_decode(const char *hex, size_t n, uint8_t *out)
{
	for (size_t i = 0; i < n; i++) {
		int hi = rsp_hex_digit(hex[2 * i]);
		int lo = hi < 0 ? -1 : rsp_hex_digit(hex[2 * i + 1]);

		if (lo < 0)
			return -1;
		out[i] = hi << 4 | lo;
	}
	return n;
}

bool rsp_parse_hex(const char **s, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0;
	int d, n = 0;

	while ((d = rsp_hex_digit(*p)) >= 0) {
		if (++n > 16)
			return false;
		x = x << 4 | d;
		p++;
	}
	if (!n)
		return false;
	*v = x;
	*s = p;
	return true;
}

void rsp_hex_u32le(uint32_t v, char *out)
{
	uint8_t b[4] = { v, v >> 8, v >> 16, v >> 24 };

	rsp_hex_encode(b, 4, out);
}

bool rsp_parse_u32le(const char *s, uint32_t *v)
{
	uint8_t b[4];

	if (rsp_hex_decode(s, 4, b) < 0)
		return false;
	*v = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
	return true;
}
