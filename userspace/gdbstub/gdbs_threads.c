// SPDX-License-Identifier: MIT
/*
 * DOC: gdb threads are lanes
 *
 * Every lane holding a thread of a block, of every warp with a context,
 * is a gdb thread; its id is 1 + its global lane index, i.e. mhartid + 1:
 * stable for the whole job, positive, and decodable without a table.
 * All lanes of a warp share its PC; registers are per lane.
 *
 * Which lanes exist is read once per stop into a snapshot (one STATUS
 * call per SM, then the state of each valid warp), since gdb asks for the
 * thread list, thread liveness and names many times while stopped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbs.h"

uint32_t gdbs_tid(const struct gdbs *s, uint32_t sm, uint32_t wp, uint32_t ln)
{
	return 1 + (sm * s->nwarps + wp) * s->nlanes + ln;
}

bool gdbs_tid_split(const struct gdbs *s, uint32_t tid, uint32_t *sm, uint32_t *wp,
		    uint32_t *ln)
{
	uint64_t g = (uint64_t)tid - 1;

	if (!tid || g >= (uint64_t)s->nsm * s->nwarps * s->nlanes)
		return false;
	*ln = g % s->nlanes;
	*wp = g / s->nlanes % s->nwarps;
	*sm = g / s->nlanes / s->nwarps;
	return true;
}

static void read_warp(struct gdbs *s, uint32_t sm, uint32_t wp, struct gdbs_warp *w)
{
	struct vxdbg_warp_state ws;

	memset(w, 0, sizeof(*w));
	if (vxdbg_read_warp_state(s->d, 0, sm, wp, &ws))
		return;
	w->valid = ws.valid;
	w->halted = ws.halted;
	w->broken = ws.broken;
	w->pc = ws.virtual_pc;
	w->lanes = ws.valid_lanes;
}

const struct gdbs_warp *gdbs_snapshot(struct gdbs *s)
{
	uint64_t valid;

	if (s->warps_fresh)
		return s->warps;
	for (uint32_t sm = 0; sm < s->nsm; sm++) {
		struct gdbs_warp *w = s->warps + sm * s->nwarps;

		memset(w, 0, s->nwarps * sizeof(*w));
		if (vxdbg_read_valid_warps(s->d, 0, sm, &valid))
			valid = ~0ull;		/* cannot tell: ask each warp */
		for (uint32_t wp = 0; wp < s->nwarps; wp++)
			if (wp >= 64 || valid >> wp & 1)
				read_warp(s, sm, wp, &w[wp]);
	}
	s->warps_fresh = true;
	return s->warps;
}

static bool lane_set(const struct vxdbg_lanes *l, uint32_t ln)
{
	return l->w[ln / 32] >> ln % 32 & 1;
}

bool gdbs_thread_alive(struct gdbs *s, uint32_t tid)
{
	const struct gdbs_warp *w = gdbs_snapshot(s);
	uint32_t sm, wp, ln;

	if (!gdbs_tid_split(s, tid, &sm, &wp, &ln))
		return false;
	w += sm * s->nwarps + wp;
	return w->valid && w->halted && lane_set(&w->lanes, ln);
}

/* The first live thread at or after global lane @from, 0 if none. */
static uint32_t next_thread(struct gdbs *s, uint64_t from)
{
	uint64_t total = (uint64_t)s->nsm * s->nwarps * s->nlanes;

	for (uint64_t g = from; g < total; g++) {
		if (gdbs_thread_alive(s, g + 1))
			return g + 1;
		if (g % s->nlanes == 0 && !s->warps[g / s->nlanes].valid)
			g += s->nlanes - 1;	/* skip an empty warp whole */
	}
	return 0;
}

uint32_t gdbs_first_thread(struct gdbs *s, int64_t gw)
{
	uint32_t tid;

	if (gw < 0)
		return next_thread(s, 0);
	tid = next_thread(s, (uint64_t)gw * s->nlanes);
	return tid && (tid - 1) / s->nlanes == (uint64_t)gw ? tid : 0;
}

uint32_t gdbs_resolve_tid(struct gdbs *s, int64_t tid)
{
	if (tid > 0 && tid <= UINT32_MAX && gdbs_thread_alive(s, tid))
		return tid;
	if (tid > 0)
		return 0;
	/* any thread: the current one if it lives, else the first */
	if (s->g_tid && gdbs_thread_alive(s, s->g_tid))
		return s->g_tid;
	return gdbs_first_thread(s, -1);
}

/*
 * qfThreadInfo / qsThreadInfo: GDBS_TIDS_PER_REPLY ids at a time, so a
 * card of thousands of lanes never needs a reply past PacketSize.
 */
int gdbs_thread_info(struct gdbs *s, bool first)
{
	size_t o = 0;
	uint32_t tid, n = 0;

	if (first)
		s->list_cursor = 0;
	s->out[o++] = 'm';
	while (n < GDBS_TIDS_PER_REPLY && (tid = next_thread(s, s->list_cursor))) {
		o += snprintf(s->out + o, sizeof(s->out) - o, "%s%x", n ? "," : "", tid);
		s->list_cursor = tid;
		n++;
	}
	if (!n)
		return gdbs_reply(s, "l");
	return gdbs_reply_bin(s, s->out, o);
}

static void thread_name(const struct gdbs *s, uint32_t tid, char *buf, size_t len)
{
	uint32_t sm = 0, wp = 0, ln = 0;

	gdbs_tid_split(s, tid, &sm, &wp, &ln);
	snprintf(buf, len, "core %u warp %u lane %u", sm, wp, ln);
}

int gdbs_thread_extra_info(struct gdbs *s, const char *args)
{
	char name[64], hex[2 * sizeof(name) + 1];
	uint64_t tid;

	if (!rsp_parse_hex(&args, &tid) || *args || !gdbs_thread_alive(s, tid))
		return gdbs_error(s, 1);
	thread_name(s, tid, name, sizeof(name));
	rsp_hex_encode(name, strlen(name), hex);
	return gdbs_reply(s, "%s", hex);
}

/* qXfer:threads:read: every live thread, named, with its core. */
int gdbs_threads_xfer(struct gdbs *s, const char *args)
{
	char *doc = NULL, name[64];
	size_t len = 0;
	uint32_t tid = 0, sm = 0, wp = 0, ln = 0;
	FILE *f;
	int ret;

	f = open_memstream(&doc, &len);
	if (!f)
		return gdbs_error(s, 12);
	fputs("<?xml version=\"1.0\"?>\n<threads>\n", f);
	while ((tid = next_thread(s, tid))) {
		gdbs_tid_split(s, tid, &sm, &wp, &ln);
		thread_name(s, tid, name, sizeof(name));
		fprintf(f, "<thread id=\"%x\" core=\"%u\" name=\"%u.%u.%u\">%s</thread>\n",
			tid, sm, sm, wp, ln, name);
	}
	fputs("</threads>\n", f);
	if (fclose(f)) {
		free(doc);
		return gdbs_error(s, 12);
	}
	ret = gdbs_reply_xfer(s, doc, len, args);
	free(doc);
	return ret;
}
