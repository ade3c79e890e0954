// SPDX-License-Identifier: MIT
/*
 * DOC: memory and breakpoints
 *
 * Addresses are device addresses, as the card's PCs are.  A read that
 * fails whole is retried word by word so that a range running off the end
 * of VRAM still returns its readable start (gdb reads ahead for
 * disassembly and prologue analysis); nothing readable is E03.
 * Breakpoints are the library's (software ebreaks, invisible to memory
 * reads); Z0/z0 are idempotent as the protocol asks.  Z2 is a write
 * watchpoint the stub keeps itself (gdbs_watch.c); Z1, Z3 and Z4 get the
 * empty reply: the card has no hardware breakpoints or data triggers.
 */
#include <stdlib.h>
#include <string.h>

#include "gdbs.h"

/* "ADDR,LEN" then @end; false if malformed. */
static bool parse_range(const char **args, uint64_t *addr, uint64_t *len, char end)
{
	return rsp_parse_hex(args, addr) && *(*args)++ == ',' &&
	       rsp_parse_hex(args, len) && *(*args)++ == end;
}

/* Bytes of @len at @addr that can be read, from the start. */
static uint32_t read_some(struct gdbs *s, uint64_t addr, uint8_t *buf, uint32_t len)
{
	uint32_t done = 0, n;

	if (!vxdbg_read_global_memory(s->d, addr, buf, len))
		return len;
	while (done < len) {
		n = 4 - (addr + done) % 4;
		if (n > len - done)
			n = len - done;
		if (vxdbg_read_global_memory(s->d, addr + done, buf + done, n))
			break;
		done += n;
	}
	return done;
}

int gdbs_read_memory(struct gdbs *s, const char *args)
{
	uint8_t buf[RSP_PACKET_MAX / 2];
	uint64_t addr, len;
	uint32_t got;

	if (!parse_range(&args, &addr, &len, 0))
		return gdbs_error(s, 1);
	if (len > sizeof(buf))
		len = sizeof(buf);	/* a short read: gdb asks again for the rest */
	if (!len)
		return gdbs_reply(s, "%s", "");
	got = read_some(s, addr, buf, len);
	if (!got)
		return gdbs_error(s, 3);
	rsp_hex_encode(buf, got, s->out);
	return gdbs_reply_bin(s, s->out, 2 * got);
}

/*
 * M (hex) and X (binary, already unescaped by the packet layer): @len is
 * the length of the whole packet, since binary data may hold NULs.
 */
int gdbs_write_memory(struct gdbs *s, const char *args, size_t len, bool binary)
{
	const char *start = args;
	uint64_t addr, n;
	uint8_t *buf;
	size_t have;
	int ret;

	if (!parse_range(&args, &addr, &n, ':'))
		return gdbs_error(s, 1);
	have = len - (args - start);
	if (n > RSP_PACKET_MAX || have != (binary ? n : 2 * n))
		return gdbs_error(s, 1);
	if (!n)
		return gdbs_reply(s, "OK");	/* gdb's probe for X */
	buf = malloc(n);
	if (!buf)
		return gdbs_error(s, 12);
	if (binary)
		memcpy(buf, args, n);
	if (!binary && rsp_hex_decode(args, n, buf) < 0)
		ret = gdbs_error(s, 1);
	else if (vxdbg_write_global_memory(s->d, addr, buf, n))
		ret = gdbs_error(s, 3);
	else
		ret = gdbs_reply(s, "OK");
	free(buf);
	return ret;
}

bool gdbs_bp_is_set(struct gdbs *s, uint64_t addr)
{
	uint64_t bps[VXDBG_MAX_BREAKPOINTS];
	uint32_t n = vxdbg_breakpoints(s->d, bps, VXDBG_MAX_BREAKPOINTS);

	for (uint32_t i = 0; i < n && i < VXDBG_MAX_BREAKPOINTS; i++)
		if (bps[i] == addr)
			return true;
	return false;
}

/* Z0,ADDR,KIND / z0,ADDR,KIND (a condition list after KIND is ignored). */
int gdbs_breakpoint(struct gdbs *s, const char *args, bool set)
{
	uint64_t addr, kind;
	vxdbg_result r;

	if (args[0] == '2')
		return gdbs_watchpoint(s, args + 1, set);
	if (args[0] != '0')
		return gdbs_reply(s, "%s", "");	/* Z1, Z3, Z4: not supported */
	args++;
	if (*args++ != ',' || !rsp_parse_hex(&args, &addr) || *args++ != ',' ||
	    !rsp_parse_hex(&args, &kind) || (*args && *args != ';'))
		return gdbs_error(s, 1);
	if (set == gdbs_bp_is_set(s, addr))
		return gdbs_reply(s, "OK");
	r = set ? vxdbg_set_breakpoint(s->d, 0, addr) : vxdbg_unset_breakpoint(s->d, 0, addr);
	if (r)
		return gdbs_error(s, 3);
	/*
	 * Which warps stand on a breakpoint changed.  One set again where a
	 * reported warp stands is a new stop for it: gdb stepping a lane
	 * whose warp a sibling's step-over already moved there.
	 */
	s->warps_fresh = false;
	for (uint32_t gw = 0; set && gw < s->nsm * s->nwarps; gw++)
		if (s->reported_pc[gw] == addr)
			s->reported_pc[gw] = ~0ull;
	return gdbs_reply(s, "OK");
}
