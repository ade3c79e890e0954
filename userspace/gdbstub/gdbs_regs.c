// SPDX-License-Identifier: MIT
/*
 * DOC: g, G, p, P on the thread Hg selected
 *
 * 'g' carries x0-x31 and pc only (one REGS batch for the x registers, one
 * STATUS for the PC): gdb then learns the packet's size and fetches f
 * registers and CSRs with 'p' when it needs them, which keeps each stop
 * cheap on the card, where every register is read by injection.  A
 * register the card cannot give is "xxxxxxxx" in 'g', an error for 'p'.
 * The PC is the warp's: writing it through any thread ('P', 'G': gdb's
 * `set $pc`, `jump`) moves every lane of the warp, so the stub forgets
 * what it knew of that warp (its PC in the snapshot, the breakpoint hit
 * it reported there): a warp put onto a breakpoint stops there again at
 * the next continue, before anything runs, as gdb expects of `jump`.
 */
#include <string.h>

#include "gdbs.h"

/* The lane of the Hg thread; false (and an error sent) if it has none. */
static bool g_lane(struct gdbs *s, uint32_t *sm, uint32_t *wp, uint32_t *ln)
{
	uint32_t tid = gdbs_resolve_tid(s, s->g_tid);

	if (!tid || !gdbs_tid_split(s, tid, sm, wp, ln)) {
		gdbs_error(s, 2);
		return false;
	}
	return true;
}

static vxdbg_result read_one(struct gdbs *s, uint32_t sm, uint32_t wp, uint32_t ln,
			     int64_t reg, uint32_t *val)
{
	uint64_t pc;
	vxdbg_result r;

	if (reg != VXDBG_REG_PC)
		return vxdbg_read_register(s->d, 0, sm, wp, ln, reg, val);
	r = vxdbg_read_virtual_pc(s->d, 0, sm, wp, ln, &pc);
	*val = pc;
	return r;
}

static vxdbg_result write_one(struct gdbs *s, uint32_t sm, uint32_t wp, uint32_t ln,
			      int64_t reg, uint32_t val)
{
	vxdbg_result r = vxdbg_write_register(s->d, 0, sm, wp, ln, reg, val);

	if (!r && reg == VXDBG_REG_PC)
		gdbs_forget_state(s, sm * s->nwarps + wp);
	return r;
}

vxdbg_result gdbs_write_pc(struct gdbs *s, uint32_t tid, uint32_t pc)
{
	uint32_t sm, wp, ln;

	if (!gdbs_tid_split(s, tid, &sm, &wp, &ln))
		return VXDBG_ERROR_INVALID_ARGS;
	return write_one(s, sm, wp, ln, VXDBG_REG_PC, pc);
}

int gdbs_read_registers(struct gdbs *s)
{
	uint32_t sm, wp, ln, x[32], pc;
	char *o = s->out;
	bool have_x;

	if (!g_lane(s, &sm, &wp, &ln))
		return 0;
	have_x = !vxdbg_read_register_range(s->d, 0, sm, wp, ln, VXDBG_REG_X(0), 32, x);
	for (int i = 0; i < 32; i++, o += 8) {
		if (have_x)
			rsp_hex_u32le(x[i], o);
		else
			memcpy(o, "xxxxxxxx", 8);
	}
	if (!read_one(s, sm, wp, ln, VXDBG_REG_PC, &pc))
		rsp_hex_u32le(pc, o);
	else
		memcpy(o, "xxxxxxxx", 8);
	o += 8;
	return gdbs_reply_bin(s, s->out, o - s->out);
}

/* 'G': only registers whose value changes are written (one injection each). */
int gdbs_write_registers(struct gdbs *s, const char *hex)
{
	uint32_t sm, wp, ln, v, cur;
	size_t n = strlen(hex) / 8;

	if (strlen(hex) % 8 || n > GDBS_NUM_GREGS)
		return gdbs_error(s, 1);
	if (!g_lane(s, &sm, &wp, &ln))
		return 0;
	for (uint32_t i = 1; i < n; i++) {
		if (!rsp_parse_u32le(hex + 8 * i, &v))
			return gdbs_error(s, 1);
		if (read_one(s, sm, wp, ln, gdbs_regnum(i), &cur) || cur == v)
			continue;
		if (write_one(s, sm, wp, ln, gdbs_regnum(i), v))
			return gdbs_error(s, 3);
	}
	return gdbs_reply(s, "OK");
}

/*
 * "N" then @end: register N of the Hg lane.  False (and the error sent)
 * for a malformed number, a register the target has not, or no lane.
 */
static bool reg_lane(struct gdbs *s, const char **args, char end, int64_t *reg,
		     uint32_t *sm, uint32_t *wp, uint32_t *ln)
{
	uint64_t n;

	if (!rsp_parse_hex(args, &n) || *(*args)++ != end || n > UINT32_MAX)
		return gdbs_error(s, 1), false;
	*reg = gdbs_regnum(n);
	if (*reg < 0)
		return gdbs_error(s, 2), false;
	return g_lane(s, sm, wp, ln);
}

int gdbs_read_register(struct gdbs *s, const char *args)
{
	uint32_t sm, wp, ln, v;
	int64_t reg;
	char hex[9];

	if (!reg_lane(s, &args, 0, &reg, &sm, &wp, &ln))
		return 0;
	if (read_one(s, sm, wp, ln, reg, &v))
		return gdbs_error(s, 3);
	rsp_hex_u32le(v, hex);
	return gdbs_reply(s, "%s", hex);
}

int gdbs_write_register(struct gdbs *s, const char *args)
{
	uint32_t sm, wp, ln, v;
	int64_t reg;

	if (!reg_lane(s, &args, '=', &reg, &sm, &wp, &ln))
		return 0;
	if (strlen(args) != 8 || !rsp_parse_u32le(args, &v))
		return gdbs_error(s, 1);
	if (write_one(s, sm, wp, ln, reg, v))
		return gdbs_error(s, 3);
	return gdbs_reply(s, "OK");
}
