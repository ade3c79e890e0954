// SPDX-License-Identifier: MIT
/*
 * DOC: packet dispatch and the queries
 *
 * One packet at a time, one reply each (none for 'k').  Whatever a
 * client sends, the server answers or ignores it: unknown packets get the
 * empty reply, malformed ones "E01", and nothing is acted on that did not
 * arrive whole with a right checksum.  Error codes: E01 malformed
 * packet, E02 no such thread or register, E03 the card refused (a
 * libvortex-debug error), E0c no memory.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbs.h"

#define SUPPORTED "PacketSize=%x;qXfer:features:read+;qXfer:threads:read+;" \
		  "QStartNoAckMode+;swbreak+;vContSupported+"

int gdbs_reply_bin(struct gdbs *s, const void *data, size_t len)
{
	return gdbs_io_send(&s->io, data, len);
}

int gdbs_reply(struct gdbs *s, const char *fmt, ...)
{
	char buf[RSP_PACKET_MAX + 1];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof(buf))
		return -E2BIG;
	return gdbs_reply_bin(s, buf, n);
}

int gdbs_error(struct gdbs *s, unsigned int code)
{
	return gdbs_reply(s, "E%02x", code & 0xff);
}

int gdbs_reply_xfer(struct gdbs *s, const char *doc, size_t doc_len, const char *args)
{
	uint64_t off, len;

	if (!rsp_parse_hex(&args, &off) || *args++ != ',' || !rsp_parse_hex(&args, &len) ||
	    *args)
		return gdbs_error(s, 1);
	if (off >= doc_len)
		return gdbs_reply(s, "l");
	if (len > RSP_PACKET_MAX - 1)
		len = RSP_PACKET_MAX - 1;
	if (len > doc_len - off)
		len = doc_len - off;
	s->out[0] = off + len < doc_len ? 'm' : 'l';
	memcpy(s->out + 1, doc + off, len);
	return gdbs_reply_bin(s, s->out, len + 1);
}

static bool starts(const char *p, const char *prefix)
{
	return !strncmp(p, prefix, strlen(prefix));
}

/* "Hg TID" / "Hc TID": 0 any thread, -1 all (for c). */
static int set_thread(struct gdbs *s, const char *p)
{
	char which = *p++;
	uint64_t v;
	uint32_t tid;

	if (!strcmp(p, "-1")) {
		tid = (uint32_t)-1;
	} else if (rsp_parse_hex(&p, &v) && !*p && v <= UINT32_MAX) {
		tid = v;
		if (tid && !gdbs_thread_alive(s, tid))
			return gdbs_error(s, 2);
	} else {
		return gdbs_error(s, 1);
	}
	if (which == 'g')
		s->g_tid = tid == (uint32_t)-1 ? 0 : tid;
	else if (which == 'c')
		s->c_tid = tid;
	else
		return gdbs_error(s, 1);
	return gdbs_reply(s, "OK");
}

static int thread_alive(struct gdbs *s, const char *p)
{
	uint64_t v;

	if (!rsp_parse_hex(&p, &v) || *p)
		return gdbs_error(s, 1);
	return v <= UINT32_MAX && gdbs_thread_alive(s, v) ? gdbs_reply(s, "OK") :
							     gdbs_error(s, 2);
}

static int offsets(struct gdbs *s)
{
	unsigned long long b = s->base;

	if (!s->base_known)
		return gdbs_reply(s, "%s", "");
	return gdbs_reply(s, "Text=%llx;Data=%llx;Bss=%llx", b, b, b);
}

static int xfer(struct gdbs *s, const char *p)
{
	if (starts(p, "features:read:target.xml:"))
		return gdbs_reply_xfer(s, s->tdesc, s->tdesc_len, p + 25);
	if (starts(p, "features:read:"))
		return gdbs_error(s, 0);	/* no other annex */
	if (starts(p, "threads:read::"))
		return gdbs_threads_xfer(s, p + 14);
	return gdbs_reply(s, "%s", "");
}

static int query(struct gdbs *s, const char *p)
{
	if (starts(p, "qSupported"))
		return gdbs_reply(s, SUPPORTED, RSP_PACKET_MAX);
	if (!strcmp(p, "qAttached"))
		return gdbs_reply(s, "1");
	if (!strcmp(p, "qC"))
		return gdbs_reply(s, "QC%x", gdbs_resolve_tid(s, s->g_tid));
	if (!strcmp(p, "qfThreadInfo") || !strcmp(p, "qsThreadInfo"))
		return gdbs_thread_info(s, p[1] == 'f');
	if (starts(p, "qThreadExtraInfo,"))
		return gdbs_thread_extra_info(s, p + 17);
	if (!strcmp(p, "qOffsets"))
		return offsets(s);
	if (starts(p, "qSymbol:"))
		return gdbs_reply(s, "OK");
	if (starts(p, "qRcmd,"))
		return gdbs_monitor(s, p + 6);
	if (starts(p, "qXfer:"))
		return xfer(s, p + 6);
	return gdbs_reply(s, "%s", "");
}

static int no_ack_mode(struct gdbs *s)
{
	int ret = gdbs_reply(s, "OK");

	s->io.noack = true;
	return ret;
}

static int vpacket(struct gdbs *s, const char *p)
{
	if (!strcmp(p, "vCont?"))
		return gdbs_reply(s, "vCont;c;C;s;S");
	if (starts(p, "vCont;"))
		return gdbs_vcont(s, p + 5);
	if (starts(p, "vKill")) {
		s->end = GDBS_END_KILLED;
		return gdbs_reply(s, "OK");
	}
	return gdbs_reply(s, "%s", "");	/* vMustReplyEmpty and the rest */
}

static int dispatch(struct gdbs *s)
{
	const char *p = (const char *)s->pkt;

	switch (p[0]) {
	case '?': return gdbs_stop_reason(s);
	case 'g': return gdbs_read_registers(s);
	case 'G': return gdbs_write_registers(s, p + 1);
	case 'p': return gdbs_read_register(s, p + 1);
	case 'P': return gdbs_write_register(s, p + 1);
	case 'm': return gdbs_read_memory(s, p + 1);
	case 'M': return gdbs_write_memory(s, p + 1, s->pkt_len - 1, false);
	case 'X': return gdbs_write_memory(s, p + 1, s->pkt_len - 1, true);
	case 'Z': return gdbs_breakpoint(s, p + 1, true);
	case 'z': return gdbs_breakpoint(s, p + 1, false);
	case 'c': case 'C': return gdbs_continue(s, p);
	case 's': case 'S': return gdbs_step(s, p);
	case 'H': return set_thread(s, p + 1);
	case 'T': return thread_alive(s, p + 1);
	case 'q': return query(s, p);
	case 'Q':
		if (!strcmp(p, "QStartNoAckMode"))
			return no_ack_mode(s);
		return gdbs_reply(s, "%s", "");
	case 'v': return vpacket(s, p);
	case 'D':
		s->end = GDBS_END_DETACHED;
		return gdbs_reply(s, "OK");
	case 'k':
		s->end = GDBS_END_KILLED;
		return 0;
	default:
		return gdbs_reply(s, "%s", "");
	}
}

enum gdbs_end gdbs_serve(struct gdbs *s)
{
	while (s->end == GDBS_END_NONE) {
		if (s->stop && *s->stop) {
			s->end = GDBS_END_SIGNAL;
			break;
		}
		switch (gdbs_io_next(&s->io, 200, s->pkt, &s->pkt_len)) {
		case GDBS_IO_PACKET:
			dispatch(s);
			break;
		case GDBS_IO_MALFORMED:
			gdbs_error(s, 1);
			break;
		case GDBS_IO_EOF:
			s->end = GDBS_END_DISCONNECTED;
			break;
		default:
			break;	/* nothing, or a ^C while already stopped */
		}
		if (s->io.gone && s->end == GDBS_END_NONE)
			s->end = GDBS_END_DISCONNECTED;
	}
	return s->end;
}

int gdbs_init(struct gdbs *s, struct vxdbg *d, int fd, volatile sig_atomic_t *stop)
{
	const void *elf;
	uint64_t size;
	uint32_t n;

	memset(s, 0, sizeof(*s));
	s->d = d;
	s->stop = stop;
	gdbs_io_init(&s->io, fd);
	if (vxdbg_get_num_sms(d, 0, &s->nsm) || vxdbg_get_num_warps(d, 0, &s->nwarps) ||
	    vxdbg_get_num_lanes(d, 0, &s->nlanes))
		return -ENODEV;
	s->base_known = !vxdbg_get_elf_image(d, &elf, &size, &s->base);
	n = s->nsm * s->nwarps;
	s->warps = calloc(n, sizeof(*s->warps));
	s->reported_pc = malloc(n * sizeof(*s->reported_pc));
	s->tdesc = gdbs_target_xml(&s->tdesc_len);
	if (!s->warps || !s->reported_pc || !s->tdesc) {
		gdbs_fini(s);
		return -ENOMEM;
	}
	memset(s->reported_pc, 0xff, n * sizeof(*s->reported_pc));
	return 0;
}

void gdbs_fini(struct gdbs *s)
{
	free(s->warps);
	free(s->reported_pc);
	free(s->tdesc);
	s->warps = NULL;
	s->reported_pc = NULL;
	s->tdesc = NULL;
}
