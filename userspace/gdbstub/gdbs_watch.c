// SPDX-License-Identifier: MIT
/*
 * DOC: write watchpoints
 *
 * The card has no data triggers, and gdb's remote target cannot be told
 * so: whether a `watch` is a hardware one is decided in gdb from `set
 * remote hardware-watchpoint-limit` alone (gdb manual, "Remote
 * Configuration"), never from the stub's replies, and a Z2 answered with
 * the empty reply ("not supported", gdb manual, "Packets": z type 2 write
 * watchpoint) only turns into "Could not insert hardware watchpoint" at the
 * next continue.  So the stub keeps Z2's promise itself: it remembers the
 * watched bytes, and a continue with watchpoints set runs the card by
 * single steps (gdbs_run.c), comparing them after every step; a change
 * stops with "watch:ADDR" (gdb manual, "Stop Reply Packets").  Read and
 * access watchpoints (Z3, Z4) cannot be had by comparing bytes: they get
 * the empty reply, and gdb says it cannot set them.
 */
#include <string.h>

#include "gdbs.h"

static int find(struct gdbs *s, uint64_t addr, uint64_t len)
{
	for (uint32_t i = 0; i < s->nwatch; i++)
		if (s->watch[i].addr == addr && s->watch[i].len == len)
			return i;
	return -1;
}

/* ",ADDR,KIND" of Z2/z2 (KIND is the length in bytes). */
int gdbs_watchpoint(struct gdbs *s, const char *args, bool set)
{
	uint64_t addr, len;
	int i;

	if (*args++ != ',' || !rsp_parse_hex(&args, &addr) || *args++ != ',' ||
	    !rsp_parse_hex(&args, &len) || (*args && *args != ';') || !len)
		return gdbs_error(s, 1);
	i = find(s, addr, len);
	if (!set) {
		if (i >= 0)
			s->watch[i] = s->watch[--s->nwatch];
		return gdbs_reply(s, "OK");
	}
	if (i >= 0)
		return gdbs_reply(s, "OK");
	if (len > GDBS_WATCH_MAX_LEN || s->nwatch == GDBS_MAX_WATCH)
		return gdbs_error(s, 0x1c);	/* ENOSPC: gdb says too many */
	if (vxdbg_read_global_memory(s->d, addr, s->watch[s->nwatch].old, len))
		return gdbs_error(s, 3);
	s->watch[s->nwatch].addr = addr;
	s->watch[s->nwatch].len = len;
	s->nwatch++;
	return gdbs_reply(s, "OK");
}

void gdbs_watch_refresh(struct gdbs *s)
{
	for (uint32_t i = 0; i < s->nwatch; i++)
		vxdbg_read_global_memory(s->d, s->watch[i].addr, s->watch[i].old,
					 s->watch[i].len);
}

int gdbs_watch_changed(struct gdbs *s, uint64_t *addr)
{
	uint8_t now[GDBS_WATCH_MAX_LEN];
	int hit = -1;

	for (uint32_t i = 0; i < s->nwatch; i++) {
		struct gdbs_watch *w = &s->watch[i];

		if (vxdbg_read_global_memory(s->d, w->addr, now, w->len) ||
		    !memcmp(now, w->old, w->len))
			continue;
		memcpy(w->old, now, w->len);
		if (hit < 0) {
			hit = i;
			*addr = w->addr;
		}
	}
	return hit;
}
