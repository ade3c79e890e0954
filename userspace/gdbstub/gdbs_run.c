// SPDX-License-Identifier: MIT
/*
 * DOC: resuming, stepping, and what a stop reply says
 *
 * All-stop.  A continue of everything resumes the device and waits for a
 * card event in GDBS_WAIT_MS slices, looking at the client between them
 * (0x03 interrupts, EOF ends the session; the simulator only runs while
 * someone waits, so the waits are also what moves it).  When a warp
 * halts or the card freezes on an exception the whole device is
 * suspended before the reply, so every thread is stopped.
 *
 * A resume that names one thread only (vCont;c:TID: gdb stepping a
 * thread over a breakpoint, everything else held) runs that thread's warp
 * alone, by single-stepping it in chunks until it stands on a breakpoint;
 * vCont;s and 's' step its warp one instruction.  Lanes of a warp move
 * together: resuming one thread moves its siblings too.
 *
 * The stop reply names a thread of the warp that stopped: the one gdb
 * last resumed if it belongs to that warp, otherwise the warp's lowest
 * lane.  When several warps stand on breakpoints at once, the lowest is
 * reported and the others are reported by the next continues, one each,
 * before anything runs (so no hit is lost).
 *
 * Signals (gdb's numbering, which is not Linux's for SIGBUS): the shared
 * cause table, hw/vortex_causes.h, and docs/debugging.md.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gdbs.h"
#include "vortex_causes.h"

#define GDB_SIGINT	2
#define GDB_SIGKILL	9

/* Instructions a lone warp runs between looks at the client. */
#define GDBS_RUN_CHUNK	64

int gdbs_signal_of(uint32_t cause)
{
	return vx_cause_gdb_signal(cause);
}

static uint32_t nwarps_total(const struct gdbs *s)
{
	return s->nsm * s->nwarps;
}

void gdbs_forget_state(struct gdbs *s, int64_t only_gw)
{
	s->warps_fresh = false;
	for (uint32_t gw = 0; gw < nwarps_total(s); gw++)
		if (only_gw < 0 || gw == only_gw)
			s->reported_pc[gw] = ~0ull;
}

/* One line of the kernels' output as an 'O' packet: gdb prints it. */
static void console_packet(void *arg, uint32_t hart, const char *text, size_t len)
{
	char line[256], hex[2 * sizeof(line) + 1];
	int n = snprintf(line, sizeof(line), "[console] hart %u: %.*s\n", hart, (int)len, text);

	if (n >= (int)sizeof(line))
		n = sizeof(line) - 1;
	rsp_hex_encode(line, n, hex);
	gdbs_reply(arg, "O%s", hex);
}

/*
 * A stop reply; gdb takes its thread as the one Hg selects from now on.
 * Before it, what the kernels printed so far, as 'O' packets (gdb's
 * RSP documentation, "Stop Reply Packets": "O XX..." may come in
 * response to a continue or step before the stop reply).
 */
static int stop_reply(struct gdbs *s, int sig, uint32_t tid, bool swbreak)
{
	uint64_t skipped;

	vxdbg_console_lines(s->d, 0, console_packet, s, &skipped);
	if (tid)
		s->g_tid = tid;
	if (tid)
		snprintf(s->last_stop, sizeof(s->last_stop), "T%02xthread:%x;%s", sig, tid,
			 swbreak ? "swbreak:;" : "");
	else
		snprintf(s->last_stop, sizeof(s->last_stop), "S%02x", sig);
	return gdbs_reply(s, "%s", s->last_stop);
}

/* The thread to name for warp @gw: gdb's resumed thread if it is in it. */
static uint32_t thread_in_warp(struct gdbs *s, uint32_t gw)
{
	uint32_t t = s->resume_tid;

	if (t && (t - 1) / s->nlanes == gw && gdbs_thread_alive(s, t))
		return t;
	return gdbs_first_thread(s, gw);
}

/* A thread for a stop no warp caused (interrupt): gdb's, else any. */
static uint32_t any_thread(struct gdbs *s)
{
	if (s->resume_tid && gdbs_thread_alive(s, s->resume_tid))
		return s->resume_tid;
	return gdbs_resolve_tid(s, 0);
}

/*
 * A warp on a breakpoint whose hit no reply named yet: the resumed
 * thread's warp first, then the lowest.  -1 if none.
 */
static int64_t unreported_hit(struct gdbs *s)
{
	const struct gdbs_warp *w = gdbs_snapshot(s);
	int64_t first = -1;

	for (uint32_t gw = 0; gw < nwarps_total(s); gw++) {
		if (!w[gw].valid || !w[gw].broken || s->reported_pc[gw] == w[gw].pc ||
		    !gdbs_bp_is_set(s, w[gw].pc))
			continue;
		if (s->resume_tid && (s->resume_tid - 1) / s->nlanes == gw)
			return gw;
		if (first < 0)
			first = gw;
	}
	return first;
}

static int report_hit(struct gdbs *s, uint32_t gw)
{
	s->reported_pc[gw] = s->warps[gw].pc;
	return stop_reply(s, VX_GDB_SIGTRAP, thread_in_warp(s, gw), true);
}

/* Suspends the card (all-stop) and re-reads it. */
static void suspend(struct gdbs *s)
{
	vxdbg_suspend_device(s->d, 0);
	s->warps_fresh = false;
}

static int on_halted(struct gdbs *s, const struct vxdbg_event *ev)
{
	int64_t gw;

	suspend(s);
	gw = unreported_hit(s);
	if (gw >= 0)
		return report_hit(s, gw);
	/* a halt that is no breakpoint hit (someone else's suspend, a step) */
	gdbs_snapshot(s);
	return stop_reply(s, VX_GDB_SIGTRAP,
			  thread_in_warp(s, ev->u.halted.sm * s->nwarps + ev->u.halted.wp), false);
}

static int on_exception(struct gdbs *s, const struct vxdbg_event *ev)
{
	uint32_t tid = gdbs_tid(s, ev->u.exception.sm, ev->u.exception.wp, ev->u.exception.ln);

	suspend(s);
	s->exc = ev->u.exception.cause;
	s->exc_seen = true;
	if (!gdbs_thread_alive(s, tid))
		tid = thread_in_warp(s, ev->u.exception.sm * s->nwarps + ev->u.exception.wp);
	return stop_reply(s, gdbs_signal_of(s->exc), tid, false);
}

/* The job's end: W00, or X and the signal that ended it. */
static int on_finished(struct gdbs *s, int32_t status)
{
	int sig;

	s->end = GDBS_END_EXITED;
	if (!status && !s->timed_out)
		return gdbs_reply(s, "W00");
	if (status == -ETIMEDOUT || s->timed_out)
		sig = VX_GDB_SIGALRM;
	else if (status == -EIO)
		sig = s->exc_seen ? gdbs_signal_of(s->exc) : VX_GDB_SIGSEGV;
	else
		sig = GDB_SIGKILL;
	return gdbs_reply(s, "X%02x", sig);
}

/*
 * One event: a stop reply sent (return 1, or <0 on a send error), or 0
 * to go on waiting.
 */
static int on_event(struct gdbs *s, const struct vxdbg_event *ev)
{
	switch (ev->kind) {
	case VXDBG_EVENT_HALTED:
		return on_halted(s, ev) ?: 1;
	case VXDBG_EVENT_EXCEPTION:
		return on_exception(s, ev) ?: 1;
	case VXDBG_EVENT_KERNEL_FINISHED:
		return on_finished(s, ev->u.kernel_finished.status) ?: 1;
	case VXDBG_EVENT_KERNEL_TIMEOUT:
		s->timed_out = true;
		return 0;
	case VXDBG_EVENT_INTERNAL_ERROR:
		fprintf(stderr, "vortex-gdbserver: %u card events were lost\n",
			ev->u.internal_error.dropped);
		return 0;
	default:
		return 0;
	}
}

/* The client while the card runs: 1 interrupted, -1 gone, 0 nothing. */
static int client_poll(struct gdbs *s, int timeout_ms)
{
	size_t len;

	if (s->stop && *s->stop) {
		s->end = GDBS_END_SIGNAL;
		return -1;
	}
	switch (gdbs_io_next(&s->io, timeout_ms, s->pkt, &len)) {
	case GDBS_IO_INTERRUPT:
		return 1;
	case GDBS_IO_EOF:
		s->end = GDBS_END_DISCONNECTED;
		return -1;
	default:
		return 0;	/* a packet while running: all-stop has none */
	}
}

static int interrupted(struct gdbs *s)
{
	suspend(s);
	return stop_reply(s, GDB_SIGINT, any_thread(s), false);
}

/* Waits for the card to stop, the client to interrupt or to go. */
static int wait_stop(struct gdbs *s)
{
	struct vxdbg_event ev;
	vxdbg_result r;
	int ret;

	for (;;) {
		ret = client_poll(s, 0);
		if (ret)
			return ret > 0 ? interrupted(s) : 0;
		r = vxdbg_get_next_event(s->d, &ev, GDBS_WAIT_MS);
		if (r == VXDBG_ERROR_NO_EVENT_AVAILABLE)
			continue;
		if (r) {
			fprintf(stderr, "vortex-gdbserver: waiting for the card: %s\n",
				vxdbg_result_name(r));
			s->end = GDBS_END_ERROR;
			return gdbs_reply(s, "X%02x", GDB_SIGKILL);
		}
		ret = on_event(s, &ev);
		if (ret)
			return ret < 0 ? ret : 0;
	}
}

/* Events a step queued: a fault or the job's end is the stop; 0 if none. */
static int drain_events(struct gdbs *s)
{
	struct vxdbg_event ev;
	int ret;

	while (!vxdbg_get_next_event(s->d, &ev, 0)) {
		if (ev.kind == VXDBG_EVENT_HALTED)
			continue;	/* the step's own halt */
		ret = on_event(s, &ev);
		if (ret)
			return ret;
	}
	return 0;
}

/* A write watchpoint's stop: warp @gw's step changed the bytes at @addr. */
static int report_watch(struct gdbs *s, uint32_t gw, uint64_t addr)
{
	uint32_t tid = thread_in_warp(s, gw);

	s->g_tid = tid;
	snprintf(s->last_stop, sizeof(s->last_stop), "T%02xwatch:%llx;thread:%x;",
		 VX_GDB_SIGTRAP, (unsigned long long)addr, tid);
	return gdbs_reply(s, "%s", s->last_stop);
}

static int run_free(struct gdbs *s);

/*
 * With write watchpoints set (gdbs_watch.c): every halted warp in turn,
 * one instruction each, the watched bytes compared after every step.  A
 * change stops with watch:ADDR naming the warp that stepped; a breakpoint,
 * an exception or the job's end stop as in a free run.  Once no warp can
 * step (they ended, or wait on each other) the card runs freely.
 */
static int run_watched(struct gdbs *s)
{
	const struct gdbs_warp *w;
	uint64_t moved, addr;
	vxdbg_result r;
	bool any;
	int ret;

	gdbs_watch_refresh(s);
	do {
		any = false;
		for (uint32_t gw = 0; gw < nwarps_total(s); gw++) {
			w = gdbs_snapshot(s);
			if (!w[gw].valid || !w[gw].halted)
				continue;
			gdbs_forget_state(s, gw);
			r = vxdbg_single_step_warp(s->d, 0, gw / s->nwarps, gw % s->nwarps, 1,
						   &moved);
			ret = drain_events(s);
			if (ret)
				return ret < 0 ? ret : 0;
			if (r || !moved)
				continue;
			any = true;
			w = gdbs_snapshot(s);
			if (gdbs_watch_changed(s, &addr) >= 0)
				return report_watch(s, gw, addr);
			if (w[gw].valid && w[gw].broken && gdbs_bp_is_set(s, w[gw].pc))
				return report_hit(s, gw);
		}
		ret = client_poll(s, 0);
		if (ret)
			return ret > 0 ? interrupted(s) : 0;
	} while (any);
	return run_free(s);
}

static int run_all(struct gdbs *s)
{
	int64_t gw = unreported_hit(s);

	if (gw >= 0)
		return report_hit(s, gw);
	if (s->nwatch)
		return run_watched(s);
	return run_free(s);
}

/* Every warp resumed; waits for the card to stop. */
static int run_free(struct gdbs *s)
{
	vxdbg_result r;

	gdbs_forget_state(s, -1);
	r = vxdbg_resume_device(s->d, 0);
	if (r) {
		fprintf(stderr, "vortex-gdbserver: resume: %s\n", vxdbg_result_name(r));
		return gdbs_error(s, 3);
	}
	return wait_stop(s);
}

/*
 * Warp of @tid alone, by single steps: @max instructions at most (0: until
 * a breakpoint).  A warp that ends lets the rest of the card run.
 */
static int run_warp(struct gdbs *s, uint32_t tid, uint32_t max)
{
	uint32_t sm, wp, ln, gw, n = max ?: GDBS_RUN_CHUNK;
	uint64_t moved;
	vxdbg_result r;
	int ret;

	if (!gdbs_tid_split(s, tid, &sm, &wp, &ln) || !gdbs_thread_alive(s, tid))
		return gdbs_error(s, 2);
	gw = sm * s->nwarps + wp;
	s->resume_tid = tid;
	for (;;) {
		gdbs_forget_state(s, gw);
		r = vxdbg_single_step_warp(s->d, 0, sm, wp, n, &moved);
		ret = drain_events(s);
		if (ret)
			return ret < 0 ? ret : 0;
		if (!gdbs_snapshot(s)[gw].valid)
			return run_all(s);	/* it ended: the others go on */
		if (r || !moved)
			return stop_reply(s, VX_GDB_SIGTRAP, tid, false);
		if (s->warps[gw].broken && gdbs_bp_is_set(s, s->warps[gw].pc)) {
			if (!max)
				return report_hit(s, gw);
			s->reported_pc[gw] = s->warps[gw].pc;	/* a step is no hit */
		}
		if (max)
			return stop_reply(s, VX_GDB_SIGTRAP, tid, false);
		ret = client_poll(s, 0);
		if (ret)
			return ret > 0 ? interrupted(s) : 0;
	}
}

int gdbs_stop_reason(struct gdbs *s)
{
	if (!s->last_stop[0]) {
		uint32_t tid = any_thread(s);

		return stop_reply(s, VX_GDB_SIGTRAP, tid, false);
	}
	return gdbs_reply(s, "%s", s->last_stop);
}

/*
 * The ADDR of "c[ADDR]", "s[ADDR]", "Csig[;ADDR]", "Ssig[;ADDR]": with
 * one, the warp of @tid moves there before it resumes.  True to go on;
 * false once the error reply is sent, with what sending it returned in
 * *@ret.
 */
static bool resume_at(struct gdbs *s, const char *pkt, uint32_t tid, int *ret)
{
	const char *p = pkt + 1;
	uint64_t sig, addr;

	if ((pkt[0] == 'C' || pkt[0] == 'S') &&
	    (!rsp_parse_hex(&p, &sig) || sig > 0xff || (*p && *p++ != ';'))) {
		*ret = gdbs_error(s, 1);
		return false;
	}
	if (!*p)
		return true;
	if (!rsp_parse_hex(&p, &addr) || *p || addr > UINT32_MAX) {
		*ret = gdbs_error(s, 1);
		return false;
	}
	if (!tid || gdbs_write_pc(s, tid, addr)) {
		*ret = gdbs_error(s, 3);
		return false;
	}
	return true;
}

int gdbs_continue(struct gdbs *s, const char *pkt)
{
	int ret;

	if (s->c_tid && s->c_tid != (uint32_t)-1)
		s->resume_tid = s->c_tid;
	else
		s->resume_tid = s->g_tid;
	if (!resume_at(s, pkt, gdbs_resolve_tid(s, s->resume_tid), &ret))
		return ret;
	return run_all(s);
}

int gdbs_step(struct gdbs *s, const char *pkt)
{
	uint32_t tid = s->c_tid && s->c_tid != (uint32_t)-1 ? s->c_tid : s->g_tid;
	int ret;

	tid = gdbs_resolve_tid(s, tid ?: 0);
	if (!tid)
		tid = gdbs_resolve_tid(s, 0);
	if (!resume_at(s, pkt, tid, &ret))
		return ret;
	return run_warp(s, tid, 1);
}

/* One vCont action: "c", "Csig", "s", "Ssig", "t", then ":TID" or nothing. */
static bool parse_action(const char **p, char *act, int64_t *tid)
{
	uint64_t v;

	*act = *(*p)++;
	if ((*act == 'C' || *act == 'S') && !rsp_parse_hex(p, &v))
		return false;
	if (!strchr("cCsSt", *act))
		return false;
	*tid = -1;
	if (**p != ':')
		return true;
	(*p)++;
	if ((*p)[0] == '-' && (*p)[1] == '1') {
		*p += 2;
		return true;
	}
	if (!rsp_parse_hex(p, &v) || v > UINT32_MAX)
		return false;
	*tid = v;
	return true;
}

/*
 * vCont;ACTION[:TID]...: a step of one thread wins (the others stay
 * halted while it steps); then a continue of everything; then a continue
 * of one thread only (its warp alone).
 */
int gdbs_vcont(struct gdbs *s, const char *args)
{
	int64_t step_tid = 0, cont_tid = 0, tid;
	bool cont_all = false;
	char act;

	while (*args == ';') {
		args++;
		if (!parse_action(&args, &act, &tid))
			return gdbs_error(s, 1);
		if ((act == 's' || act == 'S') && !step_tid)
			step_tid = tid;
		else if ((act == 'c' || act == 'C') && tid < 0)
			cont_all = true;
		else if ((act == 'c' || act == 'C') && !cont_tid)
			cont_tid = tid;
	}
	if (*args)
		return gdbs_error(s, 1);
	if (step_tid)
		return run_warp(s, gdbs_resolve_tid(s, step_tid < 0 ? s->g_tid : step_tid), 1);
	if (cont_all) {
		s->resume_tid = cont_tid > 0 ? cont_tid : s->g_tid;
		return run_all(s);
	}
	if (cont_tid)
		return run_warp(s, gdbs_resolve_tid(s, cont_tid), 0);
	return gdbs_error(s, 1);
}
