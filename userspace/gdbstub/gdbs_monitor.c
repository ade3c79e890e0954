// SPDX-License-Identifier: MIT
/*
 * DOC: monitor commands (qRcmd)
 *
 * The command comes hex-encoded; its output goes back in 'O' packets
 * (hex text), then "OK".  `halt` and `resume` act on a subset of one SM's
 * warps through the backend's WARPS operation: the library has calls for
 * the whole device and for resume-until-PC only.  Warps resumed that way
 * run while gdb believes everything stopped; the next continue or stop
 * takes them back into all-stop.  `dm` reads the Debug Module registers
 * that a read leaves unchanged through the backend's raw DM operation
 * (CAP_SYS_ADMIN on the driver), then the per-warp STATUS records.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbs.h"
#include "vortex_regs.h"
#include "vxdbg_backend.h"

#define OUT_CHUNK	512	/* text bytes per 'O' packet */

static void say(struct gdbs *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct gdbs *s, const char *fmt, ...)
{
	char text[OUT_CHUNK + 1], hex[2 * OUT_CHUNK + 2];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > OUT_CHUNK)
		n = OUT_CHUNK;
	hex[0] = 'O';
	rsp_hex_encode(text, n, hex + 1);
	gdbs_reply_bin(s, hex, 1 + 2 * n);
}

static void help(struct gdbs *s)
{
	say(s, "vortex-gdbserver monitor commands:\n"
	       "  help              this text\n"
	       "  warps             each SM's valid/halted/broken warp masks and PCs\n"
	       "  halt SM MASK      halt the warps of SM in MASK\n"
	       "  resume SM MASK    resume them (they run until the next stop)\n"
	       "  dm                raw Debug Module registers, and each warp's STATUS\n"
	       "  coredump          ask the driver for a crash dump of the job\n");
}

static void warps(struct gdbs *s)
{
	char sym[96];

	for (uint32_t sm = 0; sm < s->nsm; sm++) {
		uint64_t valid = 0, halted = 0, broken = 0;
		struct vxdbg_warp_state ws[64];
		uint32_t n = s->nwarps < 64 ? s->nwarps : 64;

		for (uint32_t wp = 0; wp < n; wp++) {
			if (vxdbg_read_warp_state(s->d, 0, sm, wp, &ws[wp]))
				memset(&ws[wp], 0, sizeof(ws[wp]));
			valid |= (uint64_t)ws[wp].valid << wp;
			halted |= (uint64_t)ws[wp].halted << wp;
			broken |= (uint64_t)ws[wp].broken << wp;
		}
		say(s, "core %u: valid 0x%llx halted 0x%llx broken 0x%llx\n", sm,
		    (unsigned long long)valid, (unsigned long long)halted,
		    (unsigned long long)broken);
		for (uint32_t wp = 0; wp < n; wp++) {
			if (!ws[wp].halted)
				continue;
			if (vxdbg_symbolize(s->d, ws[wp].virtual_pc, sym, sizeof(sym)))
				strcpy(sym, "?");
			say(s, "  warp %u: pc 0x%08llx <%s> lanes 0x%x block %u warp %u\n", wp,
			    (unsigned long long)ws[wp].virtual_pc, sym, ws[wp].valid_lanes.w[0],
			    ws[wp].block_idx.x, ws[wp].warp_in_block);
		}
	}
}

/* halt/resume SM MASK through the backend; all-stop state is re-read after. */
static void warps_op(struct gdbs *s, const char *args, uint32_t op)
{
	struct vxdbg_backend *be = vxdbg_backend_of(s->d);
	uint32_t words = (s->nsm * s->nwarps + 31) / 32, *mask;
	struct drm_vortex_debug_warps w = { .op = op };
	unsigned long long wm;
	unsigned int sm;
	int ret;

	if (sscanf(args, "%u %lli", &sm, &wm) != 2 || sm >= s->nsm || !wm ||
	    (s->nwarps < 64 && wm >> s->nwarps)) {
		say(s, "usage: %s SM MASK (SM < %u, MASK a non-empty mask of %u warps)\n",
		    op == DRM_VORTEX_DEBUG_WARPS_HALT ? "halt" : "resume", s->nsm, s->nwarps);
		return;
	}
	mask = calloc(words, sizeof(*mask));
	if (!mask)
		return;
	for (uint32_t wp = 0; wp < s->nwarps && wp < 64; wp++) {
		uint32_t g = sm * s->nwarps + wp;

		if (wm >> wp & 1)
			mask[g / 32] |= 1u << g % 32;
	}
	w.mask = (uintptr_t)mask;
	w.mask_words = words;
	ret = be->ops->warps(be, &w);
	free(mask);
	s->warps_fresh = false;
	say(s, "%s\n", ret ? strerror(-ret) : "done");
}

/* The DM registers a read leaves as they are: PLATFORM .. DPC. */
static void dm_registers(struct gdbs *s, struct vxdbg_backend *be)
{
	static const char *const names[] = {
		"PLATFORM", "DCONFIG", "DSELECT", "WMASK", "WACTIVE", "WSTATUS", "DCTRL", "DPC",
	};
	struct drm_vortex_debug_dm_op ops[8] = { 0 };
	struct drm_vortex_debug_dm a = { .ops = (uintptr_t)ops, .count = 8 };
	int ret;

	for (uint32_t i = 0; i < 8; i++)
		ops[i].reg = VX_DM_PLATFORM + i;
	ret = be->ops->dm ? be->ops->dm(be, &a) : -EOPNOTSUPP;
	if (ret) {
		say(s, "raw DM access (%s backend): %s\n", be->ops->name, strerror(-ret));
		return;
	}
	for (uint32_t i = 0; i < 8; i++)
		say(s, "  %-8s (0x%x) = 0x%08x\n", names[i], i, ops[i].value);
}

/* Raw DM registers, then each live warp's STATUS record. */
static void dm(struct gdbs *s)
{
	struct vxdbg_backend *be = vxdbg_backend_of(s->d);
	struct drm_vortex_debug_warp_state st;
	struct drm_vortex_debug_status a = { .states = (uintptr_t)&st, .stride = sizeof(st) };
	uint64_t acc;

	dm_registers(s, be);
	say(s, "STATUS of each warp with a context:\n");
	for (uint32_t g = 0; g < s->nsm * s->nwarps; g++) {
		a.first = g;
		a.count = 1;
		if (be->ops->status(be, &a) || !(st.state & DRM_VORTEX_DEBUG_WARP_ACTIVE))
			continue;
		say(s, "  warp %u (cluster %u core %u warp %u): state 0x%x cause %u pc 0x%08x"
		    " tmask 0x%x\n", g, st.cluster, st.core, st.warp_in_core, st.state,
		    st.cause, st.pc, st.thread_mask[0]);
	}
	if (be->ops->dm_accesses && !be->ops->dm_accesses(be, &acc))
		say(s, "DM register accesses so far: %llu\n", (unsigned long long)acc);
}

static void coredump(struct gdbs *s)
{
	vxdbg_result r = vxdbg_generate_coredump(s->d, "", 0);

	if (r == VXDBG_ERROR_NOT_SUPPORTED)
		say(s, "coredump: not supported by this backend (%s)\n",
		    vxdbg_backend_of(s->d)->ops->name);
	else if (r)
		say(s, "coredump: %s\n", vxdbg_result_name(r));
	else
		say(s, "coredump: written; see /sys/class/devcoredump\n");
}

int gdbs_monitor(struct gdbs *s, const char *hex)
{
	size_t n = strlen(hex) / 2;
	char cmd[RSP_PACKET_MAX / 2 + 1];
	const char *args;

	if (strlen(hex) % 2 || rsp_hex_decode(hex, n, (uint8_t *)cmd) < 0)
		return gdbs_error(s, 1);
	cmd[n] = 0;
	args = cmd + strcspn(cmd, " ");
	args += strspn(args, " ");
	if (!strcmp(cmd, "help") || !*cmd)
		help(s);
	else if (!strcmp(cmd, "warps"))
		warps(s);
	else if (!strncmp(cmd, "halt", 4) && (!cmd[4] || cmd[4] == ' '))
		warps_op(s, args, DRM_VORTEX_DEBUG_WARPS_HALT);
	else if (!strncmp(cmd, "resume", 6) && (!cmd[6] || cmd[6] == ' '))
		warps_op(s, args, DRM_VORTEX_DEBUG_WARPS_RESUME);
	else if (!strcmp(cmd, "dm"))
		dm(s);
	else if (!strcmp(cmd, "coredump"))
		coredump(s);
	else
		say(s, "unknown monitor command \"%.64s\"; try \"monitor help\"\n", cmd);
	return gdbs_reply(s, "OK");
}
