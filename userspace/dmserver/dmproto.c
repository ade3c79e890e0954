// SPDX-License-Identifier: MIT
/*
 * dmproto: the DM line protocol, parsed and answered (dmproto.h).  The
 * grammar is strict on purpose: a line is either exactly a command or it
 * is answered "-" and has no effect, so a confused client never writes a
 * DM register it did not mean to.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dmproto.h"
#include "vortex_regs.h"

size_t dmproto_lines_feed(struct dmproto_lines *l, const char *data, size_t n,
			  const char **line, size_t *len)
{
	const char *nl = memchr(data, '\n', n);
	size_t take = nl ? (size_t)(nl - data) : n;

	if (!l->overlong && take > sizeof(l->buf) - l->len)
		l->overlong = true;
	if (!l->overlong) {
		memcpy(l->buf + l->len, data, take);
		l->len += take;
	}
	if (!nl)
		return n;
	*line = l->overlong ? NULL : l->buf;
	*len = l->len;
	l->len = 0;
	l->overlong = false;
	return take + 1;
}

/* The server never calls setlocale(): isxdigit() is exactly [0-9a-fA-F]. */
static int hex_digit(char c)
{
	if (!isxdigit((unsigned char)c))
		return -1;
	return isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10;
}

/* 1..8 hex digits at @p; returns the first byte after them, or NULL. */
static const char *parse_hex(const char *p, const char *end, uint32_t *v)
{
	const char *start = p;
	int d;

	*v = 0;
	while (p < end && (d = hex_digit(*p)) >= 0) {
		if (p - start == 8)
			return NULL;
		*v = *v << 4 | d;
		p++;
	}
	return p == start ? NULL : p;
}

/* NUM{,NUM}: up to DMPROTO_MAX_REGS numbers into @v, their count in @n. */
static const char *parse_list(const char *p, const char *end, uint32_t *v,
			      unsigned int *n)
{
	for (*n = 0;; p++) {
		if (*n == DMPROTO_MAX_REGS)
			return NULL;
		p = parse_hex(p, end, &v[(*n)++]);
		if (!p || p == end || *p != ',')
			return p;
	}
}

static bool regs_ok(const struct dmproto_req *req)
{
	for (unsigned int i = 0; i < req->count; i++)
		if (req->reg[i] >= VX_DM_NREGS)
			return false;
	return true;
}

/* The part after a r/R/w/W letter; @many: a list, else one number. */
static int parse_access(const char *p, const char *end, bool many,
			struct dmproto_req *req)
{
	unsigned int nvals;

	p = parse_list(p, end, req->reg, &req->count);
	if (!p || (!many && req->count != 1) || !regs_ok(req))
		return -EINVAL;
	if (req->op == DMPROTO_READ)
		return p == end ? 0 : -EINVAL;
	if (p == end || *p != ':')
		return -EINVAL;
	p = parse_list(p + 1, end, req->value, &nvals);
	if (!p || p != end || nvals != req->count)
		return -EINVAL;
	return 0;
}

static int parse_line(const char *line, size_t len, struct dmproto_req *req)
{
	const char *end = line + len;

	if (len && line[len - 1] == '\r')
		end--;
	if (end == line)
		return -EINVAL;
	switch (line[0]) {
	case 'p':
		req->op = DMPROTO_HELLO;
		break;
	case 's':
		req->op = DMPROTO_START;
		break;
	case 'q':
		req->op = DMPROTO_QUIT;
		break;
	case 'r':
	case 'R':
		req->op = DMPROTO_READ;
		return parse_access(line + 1, end, line[0] == 'R', req);
	case 'w':
	case 'W':
		req->op = DMPROTO_WRITE;
		return parse_access(line + 1, end, line[0] == 'W', req);
	default:
		return -EINVAL;
	}
	return end == line + 1 ? 0 : -EINVAL;
}

int dmproto_parse(const char *line, size_t len, struct dmproto_req *req)
{
	int ret;

	memset(req, 0, sizeof(*req));
	ret = line ? parse_line(line, len, req) : -EINVAL;
	if (ret)
		memset(req, 0, sizeof(*req));	/* op DMPROTO_BAD */
	return ret;
}

size_t dmproto_reply(const struct dmproto_req *req, int err, char buf[DMPROTO_REPLY_MAX])
{
	size_t n = 1;

	if (req->op == DMPROTO_QUIT)
		return 0;
	if (err || req->op == DMPROTO_BAD)
		return (size_t)sprintf(buf, "-\n");
	buf[0] = '+';
	if (req->op == DMPROTO_HELLO)
		buf[n++] = 'P';
	for (unsigned int i = 0; req->op == DMPROTO_READ && i < req->count; i++)
		n += sprintf(buf + n, "%s%08x", i ? "," : "", req->value[i]);
	buf[n++] = '\n';
	buf[n] = 0;
	return n;
}
