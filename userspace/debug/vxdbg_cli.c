// SPDX-License-Identifier: MIT
/*
 * vxdbg's commands, over libvortex-debug.  All-stop, like cuda-gdb: when a
 * warp halts (breakpoint, step, exception) the whole card is suspended and
 * the halted warp becomes the current one, so what the user inspects holds
 * still.  Warps are named SM.WP (core, warp in core) or by global id,
 * locations by address, symbol[+offset] of the current code object, or
 * $register of the current lane.
 *
 * Every command prints its result to the output stream and any failure,
 * one line saying what and why, to the error stream; nothing else prints.
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "vortex_accel.h"
#include "vortex_causes.h"
#include "vx_disasm.h"
#include "vx_fault.h"
#include "vx_elf.h"
#include "vxdbg_cli.h"

#define MAX_ARGS	8
#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#define WAIT_SLICE_MS	200
#define STEP_EVENT_MS	50	/* how long a step's events take to arrive */
#define BT_SCAN		64	/* prologue instructions bt reads */
#define BT_MAX_FRAMES	32

struct vxdbg_cli {
	struct vxdbg *d;
	FILE *out, *err;
	uint32_t sms, warps, threads;
	uint32_t sm, wp, ln;		/* the current warp and lane */
	bool have_warp;
	int timeout_ms;
	volatile sig_atomic_t interrupted;
	int (*poll)(void *arg);		/* vxdbg_cli_set_poll() */
	void *poll_arg;
	bool target_gone;
	char last[64];			/* what an empty line repeats */
};

struct cmd {
	const char *name, *alias;
	int (*fn)(struct vxdbg_cli *c, int argc, char **argv);
	const char *usage, *help;
};

static int fail(struct vxdbg_cli *c, const char *fmt, ...)
{
	va_list ap;

	fputs("vxdbg: ", c->err);
	va_start(ap, fmt);
	vfprintf(c->err, fmt, ap);
	va_end(ap);
	fputc('\n', c->err);
	fflush(c->err);
	return VXDBG_CLI_ERROR;
}

/* Every result as a person should read it. */
static const char *sentence(vxdbg_result r)
{
	switch (r) {
	case VXDBG_SUCCESS: return "done";
	case VXDBG_ERROR_RUNNING_DEVICE: return "the warp is running: 'halt' first";
	case VXDBG_ERROR_SUSPENDED_DEVICE: return "the card is halted: 'continue' first";
	case VXDBG_ERROR_INVALID_WARP: return "no such warp, or it has no context";
	case VXDBG_ERROR_INVALID_LANE: return "no such lane";
	case VXDBG_ERROR_INVALID_SM: return "no such SM (core)";
	case VXDBG_ERROR_INVALID_ADDRESS: return "bad address, or no breakpoint there";
	case VXDBG_ERROR_INVALID_MEMORY_ACCESS: return "outside device memory";
	case VXDBG_ERROR_INVALID_MEMORY_SEGMENT: return "no such memory segment";
	case VXDBG_ERROR_MEMORY_MAPPING_FAILED: return "the memory could not be mapped";
	case VXDBG_ERROR_UNKNOWN_FUNCTION: return "no such symbol";
	case VXDBG_ERROR_INVALID_MODULE: return "no code object known yet: 'wait' for a launch";
	case VXDBG_ERROR_NO_EVENT_AVAILABLE: return "no event in time";
	case VXDBG_ERROR_NOT_SUPPORTED: return "not supported here";
	case VXDBG_ERROR_INVALID_ARGS: return "a value out of range";
	case VXDBG_ERROR_BUFFER_TOO_SMALL: return "more than fits in one request";
	case VXDBG_ERROR_UNINITIALIZED: return "no debugging session";
	case VXDBG_ERROR_INVALID_COORDINATES: return "no such warp or lane";
	case VXDBG_ERROR_INTERNAL: return "an internal error of the debugger";
	case VXDBG_ERROR_INVALID_DEVICE: return "the card is gone";
	case VXDBG_ERROR_INCOMPATIBLE_API: return "the driver is too old for this debugger";
	case VXDBG_ERROR_INITIALIZATION_FAILURE: return "the session could not be set up";
	case VXDBG_ERROR_INVALID_GRID: return "no such job";
	case VXDBG_ERROR_COMMUNICATION_FAILURE: return "the card did not answer (it was reset?)";
	case VXDBG_ERROR_OS_RESOURCES: return "out of memory or of a kernel resource";
	case VXDBG_ERROR_NO_DEVICE_AVAILABLE: return "no Vortex card";
	case VXDBG_ERROR_ATTACH_NOT_POSSIBLE: return "not allowed to debug that process";
	case VXDBG_ERROR_WARP_RESUME_NOT_POSSIBLE: return "the warp cannot resume";
	case VXDBG_ERROR_INVALID_WARP_MASK: return "no such warps";
	case VXDBG_ERROR_UNKNOWN: return "the driver refused it";
	}
	return "an error this debugger does not know";
}

static int fail_r(struct vxdbg_cli *c, vxdbg_result r, const char *what)
{
	return fail(c, "%s: %s", what, sentence(r));
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*v = *s == '-' ? (uint64_t)strtoll(s, &end, 0) : strtoull(s, &end, 0);
	return !*end && !errno;
}

static bool need_warp(struct vxdbg_cli *c)
{
	if (!c->have_warp)
		fail(c, "no current warp: 'warps' lists them, 'warp SM.WP' picks one");
	return c->have_warp;
}

/* "0x80000010 <vx_kernel_main+0x10>" */
static const char *loc_str(struct vxdbg_cli *c, uint64_t addr, char *buf, size_t n)
{
	char sym[96];
	int len = snprintf(buf, n, "0x%08llx", (unsigned long long)addr);

	if (!vxdbg_symbolize(c->d, addr, sym, sizeof(sym)))
		snprintf(buf + len, n - len, " <%s>", sym);
	return buf;
}

static int read_reg(struct vxdbg_cli *c, uint32_t ln, int reg, uint32_t *v)
{
	vxdbg_result r = vxdbg_read_register(c->d, 0, c->sm, c->wp, ln, reg, v);

	return r ? fail_r(c, r, "reading a register") : 0;
}

/* address, symbol[+off], or $register of the current lane */
static int parse_loc(struct vxdbg_cli *c, const char *s, uint64_t *addr)
{
	char name[128], *plus;
	uint64_t off = 0;
	vxdbg_result r;

	if (parse_u64(s, addr))
		return 0;
	snprintf(name, sizeof(name), "%s", s);
	plus = strchr(name, '+');
	if (plus) {
		*plus = 0;
		if (!parse_u64(plus + 1, &off))
			return fail(c, "'%s': bad offset", s);
	}
	if (!strcmp(name, "$pc")) {
		if (!need_warp(c))
			return VXDBG_CLI_ERROR;
		r = vxdbg_read_virtual_pc(c->d, 0, c->sm, c->wp, c->ln, addr);
		if (r)
			return fail_r(c, r, "reading the PC");
		*addr += off;
		return 0;
	}
	if (name[0] == '$') {
		int reg = vx_reg_parse(name + 1);
		uint32_t v;

		if (reg < 0)
			return fail(c, "'%s': no such register", name + 1);
		if (!need_warp(c) || read_reg(c, c->ln, reg, &v))
			return VXDBG_CLI_ERROR;
		*addr = v + off;
		return 0;
	}
	r = vxdbg_lookup_symbol(c->d, name, addr);
	if (r)
		return fail_r(c, r, s);
	*addr += off;
	return 0;
}

/* "SM.WP" or a global warp id. */
static int parse_warp(struct vxdbg_cli *c, const char *s, uint32_t *sm, uint32_t *wp)
{
	unsigned int a, b;
	char tail;

	if (sscanf(s, "%u.%u%c", &a, &b, &tail) == 2) {
		*sm = a;
		*wp = b;
	} else if (sscanf(s, "%u%c", &a, &tail) == 1) {
		*sm = a / c->warps;
		*wp = a % c->warps;
	} else {
		return fail(c, "'%s': a warp is SM.WP or a global warp id", s);
	}
	if (*sm >= c->sms || *wp >= c->warps)
		return fail(c, "no warp %s on this card (%u SMs of %u warps)", s, c->sms, c->warps);
	return 0;
}

/* ------------------------------------------------------------ output */

static void print_insn(struct vxdbg_cli *c, uint64_t addr, bool current)
{
	char text[96], loc[128], tloc[128];
	uint32_t insn, target;

	if (vxdbg_read_global_memory(c->d, addr, &insn, 4)) {
		fprintf(c->out, "%s %s: (unreadable)\n", current ? "=>" : "  ",
			loc_str(c, addr, loc, sizeof(loc)));
		return;
	}
	vx_disasm(insn, addr, text, sizeof(text), &target);
	fprintf(c->out, "%s %s:  %08x  %s", current ? "=>" : "  ",
		loc_str(c, addr, loc, sizeof(loc)), insn, text);
	if (target && !vxdbg_symbolize(c->d, target, tloc, sizeof(tloc)))
		fprintf(c->out, " <%s>", tloc);
	fputc('\n', c->out);
}

/* Where the current warp stands. */
static void print_where(struct vxdbg_cli *c)
{
	uint64_t pc;

	if (vxdbg_read_virtual_pc(c->d, 0, c->sm, c->wp, c->ln, &pc))
		return;
	fprintf(c->out, "warp %u.%u lane %u\n", c->sm, c->wp, c->ln);
	print_insn(c, pc, true);
}

static const char *halt_name(uint32_t cause)
{
	static const char *const names[] = { "none", "breakpoint", "halt request", "step",
					     "halt at start" };

	return cause < 5 ? names[cause] : "?";
}

static const char *status_name(int32_t st)
{
	switch (st) {
	case 0: return "ok";
	case -ETIMEDOUT: return "timed out";
	case -EIO: return "device exception";
	case -ECANCELED: return "cancelled";
	default: return "?";
	}
}

/* "LOAD_PAGE_FAULT (page fault on load)", from the table every tool shares */
static const char *cause_str(uint32_t cause, char *buf, size_t n)
{
	const char *name = vx_cause_name(cause);

	if (name)
		snprintf(buf, n, "%s (%s)", name, vx_cause_text(cause));
	else
		snprintf(buf, n, "cause %u", cause);
	return buf;
}

static void select_warp(struct vxdbg_cli *c, uint32_t sm, uint32_t wp, uint32_t ln)
{
	c->sm = sm;
	c->wp = wp;
	c->ln = ln;
	c->have_warp = true;
}

/*
 * "lanes 0-3,7 faulted", or for a divergent branch "lanes 0-1 take it,
 * lanes 2-3 do not" (vx_fault.c writes lane sets the same way).
 */
static const char *exception_lanes(const struct vxdbg_event *ev, char *buf, size_t n)
{
	char a[160], b[160];

	if (ev->u.exception.cause == VX_ERR_DIVERGENT_BRANCH)
		snprintf(buf, n, "lanes %s take it, lanes %s do not",
			 vx_fault_lanes(ev->u.exception.taken.w, a, sizeof(a)),
			 vx_fault_lanes(ev->u.exception.not_taken.w, b, sizeof(b)));
	else
		snprintf(buf, n, "lanes %s faulted",
			 vx_fault_lanes(ev->u.exception.lanes.w, a, sizeof(a)));
	return buf;
}

static void print_event(struct vxdbg_cli *c, const struct vxdbg_event *ev)
{
	char loc[128], cbuf[80], lanes[360];

	switch (ev->kind) {
	case VXDBG_EVENT_ELF_IMAGE_LOADED:
		fprintf(c->out, "[code object %llu: %llu bytes of ELF, image at 0x%08llx]\n",
			(unsigned long long)ev->u.elf_image_loaded.handle,
			(unsigned long long)ev->u.elf_image_loaded.size,
			(unsigned long long)ev->u.elf_image_loaded.load_addr);
		break;
	case VXDBG_EVENT_KERNEL_READY:
		if (!ev->u.kernel_ready.grid_dim.x) {	/* DRM_VORTEX_SUBMIT_CORES */
			fprintf(c->out, "[job %llu launched in Vortex's model: warp 0 lane 0 "
				"of every core, entry %s]\n", (unsigned long long)ev->grid_id,
				loc_str(c, ev->u.kernel_ready.function_entry, loc, sizeof(loc)));
			break;
		}
		fprintf(c->out, "[job %llu launched: grid %ux%ux%u, block %ux%ux%u, entry %s]\n",
			(unsigned long long)ev->grid_id, ev->u.kernel_ready.grid_dim.x,
			ev->u.kernel_ready.grid_dim.y, ev->u.kernel_ready.grid_dim.z,
			ev->u.kernel_ready.block_dim.x, ev->u.kernel_ready.block_dim.y,
			ev->u.kernel_ready.block_dim.z,
			loc_str(c, ev->u.kernel_ready.function_entry, loc, sizeof(loc)));
		break;
	case VXDBG_EVENT_KERNEL_FINISHED:
		fprintf(c->out, "[job %llu finished: %s]\n", (unsigned long long)ev->grid_id,
			status_name(ev->u.kernel_finished.status));
		c->have_warp = false;
		break;
	case VXDBG_EVENT_HALTED:
		fprintf(c->out, "[warp %u.%u halted (%s) at %s; %u warp%s halted]\n",
			ev->u.halted.sm, ev->u.halted.wp, halt_name(ev->u.halted.cause),
			loc_str(c, ev->u.halted.pc, loc, sizeof(loc)), ev->u.halted.count,
			ev->u.halted.count == 1 ? "" : "s");
		break;
	case VXDBG_EVENT_EXCEPTION:
		fprintf(c->out, "[job %llu: exception %s in warp %u.%u lane %u at %s, address 0x%08llx; %s]\n",
			(unsigned long long)ev->grid_id,
			cause_str(ev->u.exception.cause, cbuf, sizeof(cbuf)),
			ev->u.exception.sm, ev->u.exception.wp, ev->u.exception.ln,
			loc_str(c, ev->u.exception.pc, loc, sizeof(loc)),
			(unsigned long long)ev->u.exception.addr,
			exception_lanes(ev, lanes, sizeof(lanes)));
		break;
	case VXDBG_EVENT_KERNEL_TIMEOUT:
		fprintf(c->out, "[job %llu timed out after %u ms]\n",
			(unsigned long long)ev->grid_id, ev->u.kernel_timeout.ran_ms);
		break;
	case VXDBG_EVENT_INTERNAL_ERROR:
		fprintf(c->out, "[%u events lost]\n", ev->u.internal_error.dropped);
		break;
	default:
		fprintf(c->out, "[event 0x%x]\n", ev->kind);
	}
}

/* The lowest active lane of the current warp (lane 0 if none). */
static uint32_t first_active_lane(struct vxdbg_cli *c)
{
	struct vxdbg_lanes l;

	if (vxdbg_read_active_lanes(c->d, 0, c->sm, c->wp, &l))
		return 0;
	for (uint32_t i = 0; i < c->threads; i++)
		if (l.w[i / 32] >> i % 32 & 1)
			return i;
	return 0;
}

/* Lets the tool relay the program's output; true once the program is gone. */
static bool target_gone(struct vxdbg_cli *c)
{
	if (c->poll && !c->target_gone && c->poll(c->poll_arg))
		c->target_gone = true;
	return c->target_gone;
}

/* Ctrl-C: whatever the wait was doing, the card stops. */
static int interrupted(struct vxdbg_cli *c)
{
	vxdbg_result r = vxdbg_suspend_device(c->d, 0);

	c->interrupted = 0;
	if (r)
		return fail_r(c, r, "interrupted, halting the card");
	fprintf(c->out, "[interrupted: card halted]\n");
	return 0;
}

static void show_console_line(void *arg, uint32_t hart, const char *text, size_t len)
{
	struct vxdbg_cli *c = arg;

	fprintf(c->out, "[console] hart %u: %.*s\n", hart, (int)len, text);
}

/*
 * What the target's kernels printed since the last stop, before the
 * program's own runtime prints it at the job's end: "[console] hart H:
 * text", a line at a time.
 */
static void show_console(struct vxdbg_cli *c)
{
	uint64_t skipped;

	if (vxdbg_console_lines(c->d, 0, show_console_line, c, &skipped))
		return;		/* no console (the simulator) */
	if (skipped)
		fprintf(c->out, "[console: %llu bytes read by the program first]\n",
			(unsigned long long)skipped);
}

/* A halt or an exception: the card stands still at @ev's warp. */
static void stopped_at(struct vxdbg_cli *c, const struct vxdbg_event *ev)
{
	show_console(c);
	if (ev->kind == VXDBG_EVENT_HALTED) {
		vxdbg_suspend_device(c->d, 0);
		select_warp(c, ev->u.halted.sm, ev->u.halted.wp, 0);
		c->ln = first_active_lane(c);
	} else {
		select_warp(c, ev->u.exception.sm, ev->u.exception.wp, ev->u.exception.ln);
	}
	print_where(c);
}

/*
 * Prints events until something stops: a halt (the card is then
 * suspended and the warp selected), an exception, or the job's end.
 * @once: return after the first event whatever it is.
 */
static int wait_stop(struct vxdbg_cli *c, int timeout_ms, bool once)
{
	struct vxdbg_event ev;
	int waited = 0;
	vxdbg_result r;

	c->interrupted = 0;
	for (;;) {
		if (c->interrupted)
			return interrupted(c);
		r = vxdbg_get_next_event(c->d, &ev, WAIT_SLICE_MS);
		if (c->interrupted)	/* the signal may have cut the wait short */
			return interrupted(c);
		if (r == VXDBG_ERROR_NO_EVENT_AVAILABLE) {
			if (target_gone(c))
				return fail(c, "the program has exited: no more events ('quit' leaves)");
			waited += WAIT_SLICE_MS;
			if (timeout_ms >= 0 && waited >= timeout_ms)
				return fail(c, "nothing happened within %d ms (the card runs on; "
					    "'halt' stops it)", timeout_ms);
			continue;
		}
		if (r)
			return fail_r(c, r, "waiting for an event");
		print_event(c, &ev);
		if (ev.kind == VXDBG_EVENT_HALTED || ev.kind == VXDBG_EVENT_EXCEPTION) {
			stopped_at(c, &ev);
			return 0;
		}
		if (once || ev.kind == VXDBG_EVENT_KERNEL_FINISHED)
			return 0;
	}
}

/* ---------------------------------------------------------- commands */

static int cmd_continue(struct vxdbg_cli *c, int argc, char **argv)
{
	vxdbg_result r = vxdbg_resume_device(c->d, 0);

	if (r)
		return fail_r(c, r, "resuming");
	return wait_stop(c, c->timeout_ms, false);
}

static int cmd_resume(struct vxdbg_cli *c, int argc, char **argv)
{
	vxdbg_result r = vxdbg_resume_device(c->d, 0);

	return r ? fail_r(c, r, "resuming") : 0;
}

static int cmd_halt(struct vxdbg_cli *c, int argc, char **argv)
{
	vxdbg_result r = vxdbg_suspend_device(c->d, 0);

	if (r)
		return fail_r(c, r, "halting");
	fprintf(c->out, "card halted\n");
	return 0;
}

/*
 * launch [run|next|every]: whether the target's launches halt at their
 * first instruction (vxdbg_set_launch_halt()); "every" lets a person set
 * breakpoints in each launch's code before it runs.
 */
static int cmd_launch(struct vxdbg_cli *c, int argc, char **argv)
{
	static const char *const modes[] = { "run", "next", "every" };
	static const char *const said[] = {
		"launches run at once",
		"the next launch halts at its first instruction",
		"every launch halts at its first instruction",
	};
	unsigned int m;
	vxdbg_result r;

	if (argc < 2)
		return fprintf(c->out, "%s\n", said[vxdbg_get_launch_halt(c->d)]), 0;
	for (m = 0; m < 3 && strcmp(argv[1], modes[m]); m++)
		;
	if (m == 3)
		return fail(c, "'%s': launch takes run, next or every", argv[1]);
	r = vxdbg_set_launch_halt(c->d, 0, (enum vxdbg_launch_halt)m);
	if (r)
		return fail_r(c, r, "setting what launches do");
	fprintf(c->out, "%s\n", said[m]);
	return 0;
}

static int cmd_wait(struct vxdbg_cli *c, int argc, char **argv)
{
	uint64_t ms = c->timeout_ms;

	if (argc > 1 && !parse_u64(argv[1], &ms))
		return fail(c, "'%s': wait takes milliseconds", argv[1]);
	return wait_stop(c, (int)ms, true);
}

static int cmd_until(struct vxdbg_cli *c, int argc, char **argv)
{
	uint64_t addr;
	vxdbg_result r;

	if (argc != 2)
		return fail(c, "usage: until LOCATION");
	if (!need_warp(c) || parse_loc(c, argv[1], &addr))
		return VXDBG_CLI_ERROR;
	r = vxdbg_resume_warps_until_pc(c->d, 0, c->sm, 1ull << c->wp, addr);
	if (r)
		return fail_r(c, r, "resuming until");
	return wait_stop(c, c->timeout_ms, false);
}

/*
 * After a step: the step's own halt is expected and says nothing new; an
 * exception (the instruction faulted), a breakpoint of another warp or
 * the job's end is reported as `continue` reports it.  Returns whether
 * the card stopped somewhere else than the step's end.
 */
static bool step_events(struct vxdbg_cli *c, uint32_t sm, uint32_t wp)
{
	struct vxdbg_event ev;
	bool stopped = false;

	while (!vxdbg_get_next_event(c->d, &ev, STEP_EVENT_MS)) {
		/* the step's end, or the halt that follows a fault in all-stop */
		if (ev.kind == VXDBG_EVENT_HALTED && ev.u.halted.sm == sm && ev.u.halted.wp == wp &&
		    (ev.u.halted.cause == VXDBG_HALT_STEP || stopped))
			continue;
		print_event(c, &ev);
		if (!stopped && ev.kind == VXDBG_EVENT_EXCEPTION) {
			stopped_at(c, &ev);
			stopped = true;
		}
		if (ev.kind == VXDBG_EVENT_KERNEL_FINISHED)
			stopped = true;
	}
	return stopped;
}

static int cmd_step(struct vxdbg_cli *c, int argc, char **argv)
{
	struct vxdbg_warp_state ws;
	uint64_t n = 1, moved;
	vxdbg_result r;

	if (argc > 1 && (!parse_u64(argv[1], &n) || !n || n > DRM_VORTEX_DEBUG_MAX_STEPS))
		return fail(c, "'%s': step takes a count from 1 to %u", argv[1], DRM_VORTEX_DEBUG_MAX_STEPS);
	if (!need_warp(c))
		return VXDBG_CLI_ERROR;
	r = vxdbg_single_step_warp(c->d, 0, c->sm, c->wp, (uint32_t)n, &moved);
	if (r)
		return fail_r(c, r, "stepping");
	if (step_events(c, c->sm, c->wp))
		return 0;
	if (!vxdbg_read_warp_state(c->d, 0, c->sm, c->wp, &ws) && !ws.valid) {
		fprintf(c->out, "[warp %u.%u ended]\n", c->sm, c->wp);
		c->have_warp = false;
		return 0;
	}
	print_where(c);
	return 0;
}

/* next: a step that runs a call (jal/jalr linking ra) to its return. */
static int cmd_next(struct vxdbg_cli *c, int argc, char **argv)
{
	uint64_t pc;
	uint32_t insn;
	vxdbg_result r;

	if (argc > 1)
		return fail(c, "usage: next");
	if (!need_warp(c))
		return VXDBG_CLI_ERROR;
	r = vxdbg_read_virtual_pc(c->d, 0, c->sm, c->wp, c->ln, &pc);
	if (!r)
		r = vxdbg_read_global_memory(c->d, pc, &insn, 4);
	if (r)
		return fail_r(c, r, "reading the instruction");
	if (((insn & 0x7f) != 0x6f && (insn & 0x707f) != 0x67) || (insn >> 7 & 0x1f) != 1)
		return cmd_step(c, 1, argv);
	r = vxdbg_resume_warps_until_pc(c->d, 0, c->sm, 1ull << c->wp, pc + 4);
	if (r)
		return fail_r(c, r, "running the call");
	return wait_stop(c, c->timeout_ms, false);
}

static int cmd_warps(struct vxdbg_cli *c, int argc, char **argv)
{
	struct vxdbg_warp_state ws;
	uint64_t valid;
	char loc[128];
	int n = 0;

	for (uint32_t sm = 0; sm < c->sms; sm++) {
		vxdbg_result r = vxdbg_read_valid_warps(c->d, 0, sm, &valid);

		if (r)
			return fail_r(c, r, "listing warps");
		for (uint32_t wp = 0; wp < c->warps; wp++) {
			if (!(valid >> wp & 1) || vxdbg_read_warp_state(c->d, 0, sm, wp, &ws))
				continue;
			n++;
			fprintf(c->out, "%c %u.%u  ", c->have_warp && c->sm == sm && c->wp == wp ?
				'*' : ' ', sm, wp);
			if (!ws.halted) {
				fprintf(c->out, "running\n");
				continue;
			}
			fprintf(c->out, "halted (%s)  %s  lanes 0x%08x  block (%u,%u,%u) warp %u\n",
				halt_name(ws.halt_cause),
				loc_str(c, ws.virtual_pc, loc, sizeof(loc)), ws.active_lanes.w[0],
				ws.block_idx.x, ws.block_idx.y, ws.block_idx.z, ws.warp_in_block);
		}
	}
	if (!n)
		fprintf(c->out, "no warps on the card\n");
	return 0;
}

static int cmd_warp(struct vxdbg_cli *c, int argc, char **argv)
{
	uint32_t sm = 0, wp = 0;

	if (argc == 1) {
		if (!need_warp(c))
			return VXDBG_CLI_ERROR;
		print_where(c);
		return 0;
	}
	if (parse_warp(c, argv[1], &sm, &wp))
		return VXDBG_CLI_ERROR;
	select_warp(c, sm, wp, 0);
	c->ln = first_active_lane(c);
	print_where(c);
	return 0;
}

static int cmd_lane(struct vxdbg_cli *c, int argc, char **argv)
{
	uint64_t ln;

	if (argc != 2 || !parse_u64(argv[1], &ln))
		return fail(c, "usage: lane N");
	if (ln >= c->threads)
		return fail(c, "no lane %llu: warps have %u lanes", (unsigned long long)ln,
			    c->threads);
	c->ln = ln;
	fprintf(c->out, "lane %u\n", c->ln);
	return 0;
}

/* Values of registers @first.. of the current lane, or of every lane. */
static int print_regs(struct vxdbg_cli *c, uint32_t first, bool all)
{
	uint32_t vals[32 * VXDBG_MAX_LANES], nl = all ? c->threads : 1, i, l;
	struct vxdbg_lanes lanes = { { 0 } };
	vxdbg_result r;

	if (!need_warp(c))
		return VXDBG_CLI_ERROR;
	for (l = 0; l < c->threads; l++)
		if (all || l == c->ln)
			lanes.w[l / 32] |= 1u << l % 32;
	r = vxdbg_read_warp_registers(c->d, 0, c->sm, c->wp, &lanes, first, 32, vals);
	if (r)
		return fail_r(c, r, "reading registers");
	if (all) {
		fprintf(c->out, "warp %u.%u    ", c->sm, c->wp);
		for (l = 0; l < nl; l++)
			fprintf(c->out, " lane %-5u", l);
		fputc('\n', c->out);
	}
	for (i = 0; i < 32; i++) {
		const char *name = vx_reg_name(first + i);

		if (all) {
			fprintf(c->out, "%-13s", name);
			for (l = 0; l < nl; l++)
				fprintf(c->out, " 0x%08x", vals[i * nl + l]);
			fputc('\n', c->out);
			continue;
		}
		fprintf(c->out, "%-4s 0x%08x%s", name, vals[i], i % 4 == 3 ? "\n" : "   ");
	}
	return 0;
}

/* regs [all] and fregs [all] */
static int cmd_regs(struct vxdbg_cli *c, int argc, char **argv)
{
	bool all = argc > 1 && !strcmp(argv[1], "all");

	if (argc > 2 || (argc == 2 && !all))
		return fail(c, "usage: %s [all]", argv[0]);
	if (!all && c->have_warp)
		fprintf(c->out, "warp %u.%u lane %u\n", c->sm, c->wp, c->ln);
	return print_regs(c, argv[0][0] == 'f' ? 32 : 0, all);
}

static void print_value(struct vxdbg_cli *c, const char *name, int reg, uint32_t v)
{
	fprintf(c->out, "%s = 0x%08x (%d)", name, v, (int32_t)v);
	if (reg >= 32 && reg < 64) {
		float f;

		memcpy(&f, &v, 4);
		fprintf(c->out, " %g", f);
	}
	fputc('\n', c->out);
}

static int cmd_print(struct vxdbg_cli *c, int argc, char **argv)
{
	const char *name = argc > 1 ? (argv[1][0] == '$' ? argv[1] + 1 : argv[1]) : "";
	bool all = argc > 2 && !strcmp(argv[2], "all");
	int reg = vx_reg_parse(name);
	uint32_t v;
	uint64_t pc;
	vxdbg_result r;

	if (argc < 2 || argc > 3 || (argc == 3 && !all))
		return fail(c, "usage: print REGISTER [all]   (x0-x31, ABI names, f0-f31, CSRs, pc)");
	if (!need_warp(c))
		return VXDBG_CLI_ERROR;
	if (!strcmp(name, "pc")) {
		r = vxdbg_read_virtual_pc(c->d, 0, c->sm, c->wp, c->ln, &pc);
		if (r)
			return fail_r(c, r, "reading the PC");
		fprintf(c->out, "pc = %s\n", loc_str(c, pc, (char[128]){ 0 }, 128));
		return 0;
	}
	if (reg < 0)
		return fail(c, "'%s': no such register (x0-x31, ABI names, f0-f31, CSR names "
			    "such as mhartid or thread_id, csr0xNNN, pc)", name);
	for (uint32_t l = 0; l < c->threads; l++) {
		char label[64];

		if (!all && l != c->ln)
			continue;
		if (read_reg(c, l, reg, &v))
			return VXDBG_CLI_ERROR;
		snprintf(label, sizeof(label), all ? "%s[lane %u]" : "%s", name, l);
		print_value(c, label, reg, v);
	}
	return 0;
}

/* set REGISTER [=] VALUE [all] */
static int cmd_set(struct vxdbg_cli *c, int argc, char **argv)
{
	int a = argc > 2 && !strcmp(argv[2], "=") ? 3 : 2, reg;
	const char *name = argc > 1 ? (argv[1][0] == '$' ? argv[1] + 1 : argv[1]) : "";
	bool all = argc == a + 2 && !strcmp(argv[a + 1], "all");
	uint64_t v;
	vxdbg_result r;

	if (argc < a + 1 || argc > a + 2 || (argc == a + 2 && !all))
		return fail(c, "usage: set REGISTER [=] VALUE [all]");
	reg = vx_reg_parse(name);
	if (reg < 0)
		return fail(c, "'%s': no such register", name);
	if (strchr(argv[a], '.') && reg >= 32 && reg < 64) {
		float f = strtof(argv[a], NULL);
		uint32_t bits;

		memcpy(&bits, &f, 4);
		v = bits;
	} else if (!parse_u64(argv[a], &v)) {
		return fail(c, "'%s': not a number", argv[a]);
	}
	if (!need_warp(c))
		return VXDBG_CLI_ERROR;
	for (uint32_t l = 0; l < c->threads; l++) {
		if (!all && l != c->ln)
			continue;
		r = vxdbg_write_register(c->d, 0, c->sm, c->wp, l, reg, (uint32_t)v);
		if (r)
			return fail_r(c, r, "writing the register");
	}
	return cmd_print(c, 2 + all, (char *[]){ "print", (char *)name, "all", NULL });
}

static int cmd_examine(struct vxdbg_cli *c, int argc, char **argv)
{
	uint64_t addr, len = 64;
	uint8_t buf[4096];
	vxdbg_result r;

	if (argc < 2 || argc > 3 || (argc == 3 && !parse_u64(argv[2], &len)))
		return fail(c, "usage: x LOCATION [BYTES]");
	if (parse_loc(c, argv[1], &addr))
		return VXDBG_CLI_ERROR;
	if (!len || len > sizeof(buf))
		return fail(c, "x shows 1 to %zu bytes", sizeof(buf));
	r = vxdbg_read_global_memory(c->d, addr, buf, len);
	if (r)
		return fail_r(c, r, "reading memory");
	for (uint64_t off = 0; off < len; off += 16) {
		fprintf(c->out, "0x%08llx: ", (unsigned long long)(addr + off));
		for (uint64_t i = off; i < off + 16; i++)
			i < len ? fprintf(c->out, "%02x ", buf[i]) : fputs("   ", c->out);
		fputs(" |", c->out);
		for (uint64_t i = off; i < off + 16 && i < len; i++)
			fputc(isprint(buf[i]) ? buf[i] : '.', c->out);
		fputs("|\n", c->out);
	}
	return 0;
}

static int cmd_poke(struct vxdbg_cli *c, int argc, char **argv)
{
	uint64_t addr, v;
	uint32_t w;
	vxdbg_result r;

	if (argc != 3 || !parse_u64(argv[2], &v))
		return fail(c, "usage: poke LOCATION WORD");
	if (parse_loc(c, argv[1], &addr))
		return VXDBG_CLI_ERROR;
	w = v;
	r = vxdbg_write_global_memory(c->d, addr, &w, 4);
	return r ? fail_r(c, r, "writing memory") : 0;
}

static int cmd_break(struct vxdbg_cli *c, int argc, char **argv)
{
	uint64_t addr;
	char loc[128];
	vxdbg_result r;

	if (argc != 2)
		return fail(c, "usage: break LOCATION   (address, symbol[+offset], $register)");
	if (parse_loc(c, argv[1], &addr))
		return VXDBG_CLI_ERROR;
	r = vxdbg_set_breakpoint(c->d, 0, addr);
	if (r)
		return fail_r(c, r, "setting the breakpoint");
	fprintf(c->out, "breakpoint at %s\n", loc_str(c, addr, loc, sizeof(loc)));
	return 0;
}

static int cmd_delete(struct vxdbg_cli *c, int argc, char **argv)
{
	uint64_t addr, bps[VXDBG_MAX_BREAKPOINTS];
	uint32_t n;
	vxdbg_result r;

	if (argc > 2)
		return fail(c, "usage: delete [LOCATION]");
	if (argc == 1) {
		n = vxdbg_breakpoints(c->d, bps, VXDBG_MAX_BREAKPOINTS);
		for (uint32_t i = 0; i < n; i++)
			vxdbg_unset_breakpoint(c->d, 0, bps[i]);
		fprintf(c->out, "%u breakpoint%s deleted\n", n, n == 1 ? "" : "s");
		return 0;
	}
	if (parse_loc(c, argv[1], &addr))
		return VXDBG_CLI_ERROR;
	r = vxdbg_unset_breakpoint(c->d, 0, addr);
	if (r)
		return fail_r(c, r, "deleting the breakpoint");
	fprintf(c->out, "breakpoint at %s deleted\n", loc_str(c, addr, (char[128]){ 0 }, 128));
	return 0;
}

static int info_break(struct vxdbg_cli *c)
{
	uint64_t bps[VXDBG_MAX_BREAKPOINTS];
	uint32_t n = vxdbg_breakpoints(c->d, bps, VXDBG_MAX_BREAKPOINTS);
	char loc[128];

	if (!n)
		fprintf(c->out, "no breakpoints\n");
	for (uint32_t i = 0; i < n; i++)
		fprintf(c->out, "  %s\n", loc_str(c, bps[i], loc, sizeof(loc)));
	return 0;
}

static int cmd_disas(struct vxdbg_cli *c, int argc, char **argv)
{
	uint64_t pc = 0, start, n = 9;
	bool have_pc = c->have_warp &&
		       !vxdbg_read_virtual_pc(c->d, 0, c->sm, c->wp, c->ln, &pc);

	if (argc > 3 || (argc == 3 && (!parse_u64(argv[2], &n) || !n || n > 256)))
		return fail(c, "usage: disas [LOCATION [COUNT]]");
	if (argc > 1) {
		if (parse_loc(c, argv[1], &start))
			return VXDBG_CLI_ERROR;
	} else if (have_pc) {
		start = pc >= 16 ? pc - 16 : 0;		/* around the PC */
	} else {
		return fail(c, "no current PC: 'disas LOCATION'");
	}
	for (uint64_t i = 0; i < n; i++)
		print_insn(c, start + 4 * i, have_pc && start + 4 * i == pc);
	return 0;
}

static int cmd_info(struct vxdbg_cli *c, int argc, char **argv)
{
	char name[160];
	vxdbg_result r;

	if (argc > 1 && !strncmp(argv[1], "break", 5))
		return info_break(c);
	if (argc > 1 && !strcmp(argv[1], "warps"))
		return cmd_warps(c, 1, argv);
	if (argc > 1 && !strncmp(argv[1], "reg", 3))
		return cmd_regs(c, argc - 1, (char *[]){ "regs", argv[2], NULL });
	if (argc > 1)
		return fail(c, "usage: info [breakpoints|warps|registers]");
	r = vxdbg_get_device_name(c->d, 0, name, sizeof(name));
	if (r)
		return fail_r(c, r, "reading the device name");
	fprintf(c->out, "%s\n%u SMs, %u warps each, %u lanes per warp\n", name, c->sms,
		c->warps, c->threads);
	return 0;
}

static int cmd_sym(struct vxdbg_cli *c, int argc, char **argv)
{
	uint64_t addr;
	char loc[128];

	if (argc != 2)
		return fail(c, "usage: sym LOCATION");
	if (parse_loc(c, argv[1], &addr))
		return VXDBG_CLI_ERROR;
	fprintf(c->out, "%s\n", loc_str(c, addr, loc, sizeof(loc)));
	return 0;
}

/*
 * The frame of the function holding @pc, from its prologue (RV32I, no
 * frame pointer, as -O2 builds kernels): how far it moved sp before @pc,
 * and where it stored ra (-1: ra is still in its register).  A function
 * past its epilogue's `addi sp, sp, N` has no frame left.
 */
static int frame_of(struct vxdbg_cli *c, uint64_t pc, int32_t *size, int32_t *ra_at)
{
	char sym[128], *plus;
	uint64_t start;
	uint32_t insn;

	*size = 0;
	*ra_at = -1;
	if (vxdbg_symbolize(c->d, pc, sym, sizeof(sym)))
		return -1;
	plus = strstr(sym, "+0x");
	start = pc - (plus ? strtoull(plus + 3, NULL, 16) : 0);
	for (uint64_t a = start; a < pc && a < start + 4 * BT_SCAN; a += 4) {
		if (vxdbg_read_global_memory(c->d, a, &insn, 4))
			return -1;
		if ((insn & 0xfffff) == 0x10113) {		/* addi sp, sp, imm */
			int32_t imm = (int32_t)insn >> 20;

			*size = imm < 0 ? -imm : 0;
			if (imm > 0)
				*ra_at = -1;
		} else if ((insn & 0x1fff07f) == 0x112023) {	/* sw ra, imm(sp) */
			*ra_at = ((int32_t)(insn & 0xfe000000) >> 20) | (insn >> 7 & 0x1f);
		}
	}
	return 0;
}

/* bt: the current lane's calls, innermost first, unwound by prologues. */
static int cmd_bt(struct vxdbg_cli *c, int argc, char **argv)
{
	uint32_t sp, ra, word;
	int32_t size, ra_at;
	uint64_t pc;
	char loc[128];
	vxdbg_result r;

	if (argc > 1)
		return fail(c, "usage: bt");
	if (!need_warp(c))
		return VXDBG_CLI_ERROR;
	r = vxdbg_read_virtual_pc(c->d, 0, c->sm, c->wp, c->ln, &pc);
	if (r)
		return fail_r(c, r, "reading the PC");
	if (read_reg(c, c->ln, 2, &sp) || read_reg(c, c->ln, 1, &ra))
		return VXDBG_CLI_ERROR;
	for (int n = 0; n < BT_MAX_FRAMES; n++) {
		fprintf(c->out, "#%-2d %s\n", n, loc_str(c, pc, loc, sizeof(loc)));
		if (frame_of(c, pc, &size, &ra_at))
			break;
		if (ra_at >= 0) {
			if (vxdbg_read_global_memory(c->d, sp + ra_at, &word, 4))
				break;
			ra = word;
		} else if (n) {
			break;		/* an outer frame that kept ra in its register */
		}
		sp += size;
		if (!ra || ra == pc || vxdbg_symbolize(c->d, ra, loc, sizeof(loc)))
			break;
		pc = ra;
	}
	return 0;
}

/* dump: a crash dump of the job as it stands, for vortex-coredump. */
static int cmd_dump(struct vxdbg_cli *c, int argc, char **argv)
{
	vxdbg_result r;

	if (argc > 1)
		return fail(c, "usage: dump");
	r = vxdbg_generate_coredump(c->d, "", 0);
	if (r == VXDBG_ERROR_RUNNING_DEVICE)
		return fail(c, "dump: the card's last crash dump is still unread: read it "
			    "(vortex-coredump /sys/class/devcoredump/devcd*/data) or delete it "
			    "(echo 1 > that file) first");
	if (r == VXDBG_ERROR_INVALID_WARP)
		return fail(c, "dump: no job of the program on the card");
	if (r)
		return fail_r(c, r, "dump");
	fprintf(c->out, "crash dump captured: /sys/class/devcoredump/devcd*/data "
		"(vortex-coredump reads it)\n");
	return 0;
}

static int cmd_echo(struct vxdbg_cli *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		fprintf(c->out, "%s%s", argv[i], i + 1 < argc ? " " : "");
	fputc('\n', c->out);
	return 0;
}

static int cmd_quit(struct vxdbg_cli *c, int argc, char **argv)
{
	return VXDBG_CLI_QUIT;
}

static int cmd_help(struct vxdbg_cli *c, int argc, char **argv);

static const struct cmd cmds[] = {
	{ "continue", "c", cmd_continue, "continue", "resume every warp, wait for the next stop" },
	{ "resume", NULL, cmd_resume, "resume", "resume every warp, do not wait" },
	{ "halt", NULL, cmd_halt, "halt", "halt every warp" },
	{ "step", "si", cmd_step, "step [N]", "execute N instructions of the current warp" },
	{ "next", "ni", cmd_next, "next", "one instruction, a call run to its return" },
	{ "until", NULL, cmd_until, "until LOC", "run the current warp until LOC" },
	{ "wait", NULL, cmd_wait, "wait [MS]", "wait for the next event and print it" },
	{ "launch", NULL, cmd_launch, "launch [run|next|every]",
	  "whether the target's launches halt at their first instruction" },
	{ "warps", NULL, cmd_warps, "warps", "list the warps on the card" },
	{ "warp", NULL, cmd_warp, "warp [SM.WP|ID]", "show or pick the current warp" },
	{ "lane", NULL, cmd_lane, "lane N", "pick the current lane" },
	{ "regs", NULL, cmd_regs, "regs [all]", "x0-x31 of the current lane (or all lanes)" },
	{ "fregs", NULL, cmd_regs, "fregs [all]", "f0-f31 of the current lane (or all lanes)" },
	{ "print", "p", cmd_print, "print REG [all]", "one register (x, f, CSR by name, pc)" },
	{ "set", NULL, cmd_set, "set REG [=] VALUE [all]", "write a register" },
	{ "x", NULL, cmd_examine, "x LOC [BYTES]", "dump device memory, hex and ASCII" },
	{ "poke", NULL, cmd_poke, "poke LOC WORD", "write a 32-bit word of device memory" },
	{ "break", "b", cmd_break, "break LOC", "set a breakpoint (address, symbol[+off])" },
	{ "delete", "d", cmd_delete, "delete [LOC]", "delete one breakpoint, or all" },
	{ "disas", NULL, cmd_disas, "disas [LOC [N]]", "disassemble around the PC, or at LOC" },
	{ "info", NULL, cmd_info, "info [breakpoints|warps|registers]", "the card, or a listing" },
	{ "sym", NULL, cmd_sym, "sym LOC", "the symbol of an address" },
	{ "bt", NULL, cmd_bt, "bt", "the calls that led to the PC (from function prologues)" },
	{ "dump", NULL, cmd_dump, "dump", "a crash dump of the job as it stands" },
	{ "echo", NULL, cmd_echo, "echo TEXT", "print TEXT" },
	{ "help", "h", cmd_help, "help", "this list" },
	{ "quit", "q", cmd_quit, "quit", "detach (every warp resumes) and leave" },
};

static int cmd_help(struct vxdbg_cli *c, int argc, char **argv)
{
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(c->out, "  %-36s %s\n", cmds[i].usage, cmds[i].help);
	fprintf(c->out, "LOC: 0xADDRESS, symbol[+offset], $register.  Warps: SM.WP or a global id.\n");
	return 0;
}

/* ------------------------------------------------------------ public */

struct vxdbg_cli *vxdbg_cli_new(struct vxdbg *d, FILE *out, FILE *err)
{
	struct vxdbg_cli *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->d = d;
	c->out = out;
	c->err = err;
	c->timeout_ms = 30000;
	vxdbg_get_num_sms(d, 0, &c->sms);
	vxdbg_get_num_warps(d, 0, &c->warps);
	vxdbg_get_num_lanes(d, 0, &c->threads);
	return c;
}

void vxdbg_cli_free(struct vxdbg_cli *c)
{
	free(c);
}

void vxdbg_cli_set_timeout(struct vxdbg_cli *c, int ms)
{
	c->timeout_ms = ms;
}

void vxdbg_cli_interrupt(struct vxdbg_cli *c)
{
	c->interrupted = 1;
}

void vxdbg_cli_set_poll(struct vxdbg_cli *c, int (*fn)(void *arg), void *arg)
{
	c->poll = fn;
	c->poll_arg = arg;
}

/*
 * A command by its name, its alias, or a prefix of one name only
 * (gdb's habit: `br`, `cont`); NULL after saying why.
 */
static const struct cmd *find_cmd(struct vxdbg_cli *c, const char *name)
{
	const struct cmd *found = NULL;
	char many[256] = "";
	size_t len = strlen(name), at = 0;

	for (size_t i = 0; i < ARRAY_LEN(cmds); i++)
		if (!strcmp(name, cmds[i].name) || (cmds[i].alias && !strcmp(name, cmds[i].alias)))
			return &cmds[i];
	for (size_t i = 0; i < ARRAY_LEN(cmds); i++) {
		if (strncmp(name, cmds[i].name, len))
			continue;
		if (at < sizeof(many))
			at += snprintf(many + at, sizeof(many) - at, "%s%s", at ? ", " : "",
				       cmds[i].name);
		found = found ? &cmds[ARRAY_LEN(cmds)] : &cmds[i];
	}
	if (!found)
		fail(c, "'%s': unknown command ('help' lists them)", name);
	else if (found == &cmds[ARRAY_LEN(cmds)])
		fail(c, "'%s' is ambiguous: %s", name, many);
	return found == &cmds[ARRAY_LEN(cmds)] ? NULL : found;
}

/* Commands an empty line repeats, as in gdb. */
static bool repeats(const struct cmd *cmd)
{
	return cmd->fn == cmd_step || cmd->fn == cmd_next;
}

int vxdbg_cli_exec(struct vxdbg_cli *c, const char *line)
{
	char buf[1024], *argv[MAX_ARGS + 1], *save, *tok;
	const struct cmd *cmd;
	int argc = 0, ret;

	line += strspn(line, " \t");
	if (!*line)
		line = c->last;		/* Enter repeats a step */
	snprintf(buf, sizeof(buf), "%s", line);
	for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (tok[0] == '#')
			break;
		if (argc == MAX_ARGS)
			return fail(c, "too many arguments");
		argv[argc++] = tok;
	}
	argv[argc] = NULL;
	if (!argc)
		return VXDBG_CLI_OK;
	cmd = find_cmd(c, argv[0]);
	c->last[0] = 0;
	if (!cmd)
		return VXDBG_CLI_ERROR;
	if (repeats(cmd) && strlen(line) < sizeof(c->last))
		snprintf(c->last, sizeof(c->last), "%s", line);
	ret = cmd->fn(c, argc, argv);
	fflush(c->out);
	return ret;
}

/* ------------------------------------------------------- completion */

struct completion {
	const char *word;
	size_t len;
	const char *prefix;		/* "$" when completing $registers */
	void (*add)(void *ctx, const char *word);
	void *ctx;
};

static void offer(struct completion *k, const char *name)
{
	char buf[160];

	if (!name || strncmp(name, k->word, k->len))
		return;
	snprintf(buf, sizeof(buf), "%s%s", k->prefix, name);
	k->add(k->ctx, buf);
}

static int offer_symbol(void *opaque, const char *name, uint32_t value, uint32_t size,
			unsigned int type)
{
	if (type == STT_FUNC || type == STT_OBJECT)
		offer(opaque, name);
	return 0;
}

static void offer_registers(struct completion *k)
{
	unsigned int csr;
	const char *name;

	for (unsigned int i = 0; i < 64; i++)
		offer(k, vx_reg_name(i));
	for (unsigned int i = 0; (name = vx_csr_names(i, &csr)); i++)
		offer(k, name);
	offer(k, "pc");
}

void vxdbg_cli_complete(struct vxdbg_cli *c, const char *line, size_t pos,
			void (*add)(void *ctx, const char *word), void *ctx)
{
	struct completion k = { .add = add, .ctx = ctx, .prefix = "" };
	size_t start = pos, first_end = strcspn(line, " \t");
	const void *elf;
	uint64_t size, load;

	while (start && line[start - 1] != ' ' && line[start - 1] != '\t')
		start--;
	k.word = line + start;
	k.len = pos - start;
	if (start <= strspn(line, " \t")) {	/* the command */
		for (size_t i = 0; i < ARRAY_LEN(cmds); i++)
			offer(&k, cmds[i].name);
		return;
	}
	if (k.word[0] == '$') {
		k.word++;
		k.len--;
		k.prefix = "$";
		offer_registers(&k);
		return;
	}
	if ((first_end == 5 && !strncmp(line, "print", 5)) || (first_end == 1 && line[0] == 'p') ||
	    (first_end == 3 && !strncmp(line, "set", 3))) {
		offer_registers(&k);
		return;
	}
	if (!vxdbg_get_elf_image(c->d, &elf, &size, &load))
		vx_elf_symbols(elf, size, offer_symbol, &k);
}
