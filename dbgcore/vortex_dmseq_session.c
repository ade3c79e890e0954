// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: A debugger session's batches
 *
 * The session ioctls' Debug Module work (DRM_VORTEX_DEBUG_IOCTL_REGS,
 * _STATUS, _STEP, _WARPS's resume, halt at start, the HALTED event's
 * data), over the registers (vortex_dmseq.c) and the warp sequences
 * (vortex_dmseq_warp.c), and the session's event queue with its OVERFLOW
 * rule.  The host has checked the header (vortex_dmseq_check.c), copied
 * user memory in, holds its DM lock and knows the target's job is on the
 * card; the breakpoints stepped over are the session's table
 * (&vortex_dmseq_session.bps, vortex_dmseq_bp.c), and the card's error
 * and reset come through &struct vortex_dmseq_session_ops.
 */

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <string.h>
#endif

#include "vortex_dmseq.h"

#define NO_WARP		(~0u)
#define GROUP		VORTEX_WARP_GROUP

static u32 lowest_bit(u32 bits)
{
	u32 n = 0;

	while (!(bits & 1)) {
		bits >>= 1;
		n++;
	}
	return n;
}

static u32 count_bits(u32 bits)
{
	u32 n = 0;

	for (; bits; bits &= bits - 1)
		n++;
	return n;
}

/* -------------------------------------------------- session batches */

/**
 * vortex_dmseq_reg_op_check() - validates one register op of a REGS batch
 * @dm: the DM
 * @op: the op
 * @n: out: the number of lanes it names
 *
 * Return: 0, -EINVAL (flags, pad, no lane) or -ERANGE (register, warp or
 * lane past the card's).
 */
int vortex_dmseq_reg_op_check(const struct vortex_dmseq *dm,
			      const struct drm_vortex_debug_reg_op *op, u32 *n)
{
	u32 l;

	if (op->pad || op->flags & ~DRM_VORTEX_DEBUG_REG_WRITE)
		return -EINVAL;
	if (op->reg >= DRM_VORTEX_DEBUG_REG_F(32) &&
	    (op->reg < DRM_VORTEX_DEBUG_REG_CSR(0) ||
	     op->reg > DRM_VORTEX_DEBUG_REG_CSR(0xfff)) &&
	    op->reg != DRM_VORTEX_DEBUG_REG_PC)
		return -ERANGE;
	if (op->warp >= vortex_dmseq_total_warps(dm))
		return -ERANGE;
	*n = 0;
	for (l = 0; l < VX_DM_MAX_THREADS; l++) {
		if (!vortex_dmseq_lane_set(op->lanes, l))
			continue;
		if (l >= dm->threads)
			return -ERANGE;
		++*n;
	}
	return *n ? 0 : -EINVAL;
}

/* How many ops from @ops[0] read GPRs of the same warp (at most GROUP). */
static u32 regs_group_len(const struct drm_vortex_debug_reg_op *ops, u32 n)
{
	u32 i;

	if (ops[0].flags & DRM_VORTEX_DEBUG_REG_WRITE ||
	    ops[0].reg == DRM_VORTEX_DEBUG_REG_PC)
		return 1;
	for (i = 1; i < n && i < GROUP; i++)
		if (ops[i].warp != ops[0].warp || !vortex_dmseq_reg_is_gpr(ops[i].reg) ||
		    !vortex_dmseq_reg_is_gpr(ops[0].reg) ||
		    ops[i].flags & DRM_VORTEX_DEBUG_REG_WRITE)
			break;
	return i;
}

/**
 * vortex_dmseq_regs() - runs checked register ops (DRM_VORTEX_DEBUG_IOCTL_REGS)
 * @ctx: a context, nothing borrowed; restored on return
 * @ops: @n ops, each passed by vortex_dmseq_reg_op_check()
 * @n: how many
 * @vals: one row per op: written values in, read values out
 * @nlanes: lanes of each op, from vortex_dmseq_reg_op_check()
 * @ran: out: ops that took effect (a group that failed did not)
 *
 * One warp borrowed at a time: its DSCRATCHes go back when the batch moves
 * to another warp or ends.  Up to VORTEX_WARP_GROUP GPR reads of one warp
 * share one pass; a write or the PC (through DPC) goes alone.
 *
 * Return: 0 or a negative errno (vortex_dmseq_warp_borrow(), -EIO).
 */
int vortex_dmseq_regs(struct vortex_dmseq_warp *ctx,
		      const struct drm_vortex_debug_reg_op *ops, u32 n,
		      u32 vals[][VX_DM_MAX_THREADS], const u32 *nlanes,
		      u32 *ran)
{
	u32 i, g;
	int ret = 0;

	for (i = 0; i < n && !ret; i += g) {
		g = regs_group_len(&ops[i], n - i);
		ret = vortex_dmseq_warp_borrow(ctx, ops[i].warp);
		if (ret)
			break;
		if (ops[i].reg == DRM_VORTEX_DEBUG_REG_PC)
			vortex_dmseq_warp_pc(ctx, &ops[i], vals[i], nlanes[i]);
		else if (ops[i].flags & DRM_VORTEX_DEBUG_REG_WRITE)
			ret = vortex_dmseq_warp_write(ctx, &ops[i], vals[i]);
		else
			ret = vortex_dmseq_warp_read_group(ctx, &ops[i], g, &vals[i]);
	}
	*ran = ret ? i : n;
	vortex_dmseq_warp_restore(ctx);
	return ret;
}

/**
 * vortex_dmseq_status() - warps' states (DRM_VORTEX_DEBUG_IOCTL_STATUS)
 * @s: the session
 * @first: first global warp id, on the card
 * @count: warps, all on the card
 * @sts: out: @count states
 * @filled: out: states filled before an error
 *
 * WACTIVE and WSTATUS a window at a time; a halted warp's status through
 * injection (vortex_dmseq_warp_status()).
 *
 * Return: 0 or a negative errno.
 */
int vortex_dmseq_status(struct vortex_dmseq_session *s, u32 first, u32 count,
			struct drm_vortex_debug_warp_state *sts, u32 *filled)
{
	struct vortex_dmseq *dm = s->dm;
	u32 per_cluster = dm->cores * dm->warps, active = 0, halted = 0, i;
	int ret = 0;

	for (i = 0; i < count; i++) {
		struct drm_vortex_debug_warp_state *st = &sts[i];
		u32 w = first + i;

		if (i == 0 || w % 32 == 0) {
			active = vortex_dmseq_window(dm, VX_DM_WACTIVE, w / 32);
			halted = vortex_dmseq_window(dm, VX_DM_WSTATUS, w / 32);
		}
		memset(st, 0, sizeof(*st));
		st->warp = w;
		st->cluster = w / per_cluster;
		st->core = w % per_cluster / dm->warps;
		st->warp_in_core = w % dm->warps;
		if (active & VX_BIT(w % 32))
			st->state |= DRM_VORTEX_DEBUG_WARP_ACTIVE;
		if (halted & VX_BIT(w % 32)) {
			st->state |= DRM_VORTEX_DEBUG_WARP_HALTED;
			ret = vortex_dmseq_warp_status(dm, st);
			if (ret)
				break;
			if (vortex_dmseq_bp_find(s->bps, st->pc))
				st->state |= DRM_VORTEX_DEBUG_WARP_ON_BREAKPOINT;
		}
	}
	*filled = i;
	return ret;
}

/**
 * vortex_dmseq_step_one() - one instruction of a warp, a breakpoint under it stepped over
 * @s: the session
 * @warp: global warp id, halted
 *
 * The original word goes back for the step and ebreak returns after it.
 *
 * Return: 0 or a negative errno (vortex_dmseq_request()).
 */
int vortex_dmseq_step_one(struct vortex_dmseq_session *s, u32 warp)
{
	const struct vortex_dmseq_bp_ops *ops = s->bps->ops;
	struct vortex_dmseq_bp *bp;
	int ret;

	vortex_dmseq_select(s->dm, warp, 0);
	bp = vortex_dmseq_bp_find(s->bps, vortex_dmseq_read(s->dm, VX_DM_DPC));
	if (bp)
		ops->write_word(s->bps->priv, bp->where, bp->orig);
	ret = vortex_dmseq_request(s->dm, VX_DCTRL_STEPREQ, NULL);
	if (bp)
		ops->write_word(s->bps->priv, bp->where, VORTEX_EBREAK);
	return ret;
}

/**
 * vortex_dmseq_step_off_breakpoints() - steps warps off the breakpoints they stand on
 * @s: the session
 * @mask: the warps to look at, vortex_dmseq_windows() words
 *
 * Every halted warp of @mask whose PC holds a breakpoint steps once.
 * Nothing is accessed when the session has no breakpoint.
 *
 * Return: 0 or a negative errno.
 */
int vortex_dmseq_step_off_breakpoints(struct vortex_dmseq_session *s,
				      const u32 *mask)
{
	struct vortex_dmseq *dm = s->dm;
	u32 win, bits, warp;
	int ret;

	if (!s->bps->count)
		return 0;
	for (win = 0; win < vortex_dmseq_windows(dm); win++) {
		bits = mask[win] & vortex_dmseq_window(dm, VX_DM_WSTATUS, win);
		while (bits) {
			warp = win * 32 + lowest_bit(bits);
			bits &= bits - 1;
			vortex_dmseq_select(dm, warp, 0);
			if (!vortex_dmseq_bp_find(s->bps, vortex_dmseq_read(dm, VX_DM_DPC)))
				continue;
			ret = vortex_dmseq_step_one(s, warp);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/**
 * vortex_dmseq_resume() - resumes warps (DRM_VORTEX_DEBUG_WARPS_RESUME)
 * @s: the session
 * @mask: the warps, vortex_dmseq_windows() words
 * @resumed: out: whether the resume request was made
 *
 * Warps on a breakpoint step off it first.  If that step faulted, nothing
 * is resumed: the exception is the card's news.  Either way the last
 * STEP's halts are news again.
 *
 * Return: 0 or a negative errno.
 */
int vortex_dmseq_resume(struct vortex_dmseq_session *s, const u32 *mask,
			bool *resumed)
{
	int ret;

	*resumed = false;
	vortex_dmseq_forget_step(s->dm);
	ret = vortex_dmseq_step_off_breakpoints(s, mask);
	if (ret || s->ops->card_failed(s->priv))
		return ret;
	vortex_dmseq_set_mask(s->dm, mask);
	*resumed = true;
	return vortex_dmseq_request(s->dm, VX_DCTRL_RESUMEREQ, NULL);
}

/**
 * vortex_dmseq_halt() - halts warps (DRM_VORTEX_DEBUG_WARPS_HALT)
 * @s: the session
 * @mask: the warps, vortex_dmseq_windows() words
 *
 * Warps already halted keep their causes (vortex_dmseq_halt_running()):
 * a debugger suspending the card after a breakpoint still sees it.
 *
 * Return: 0 or a negative errno (vortex_dmseq_request()).
 */
int vortex_dmseq_halt(struct vortex_dmseq_session *s, const u32 *mask)
{
	return vortex_dmseq_halt_running(s->dm, mask);
}

/**
 * vortex_dmseq_step() - steps one warp (DRM_VORTEX_DEBUG_IOCTL_STEP)
 * @s: the session
 * @args: @warp and @count in (checked by the caller); @done, @state and
 *	@pc out
 *
 * Stops early when a step fails, the card fails, the warp ends or it
 * reaches a breakpoint; the warp's state is read in every case but the
 * first two errors.
 *
 * Return: 0, -ERANGE, -EBUSY (the warp is not halted), or the step's
 * error (-EIO, -ENODEV).
 */
int vortex_dmseq_step(struct vortex_dmseq_session *s,
		      struct drm_vortex_debug_step *args)
{
	struct vortex_dmseq *dm = s->dm;
	u32 warp = args->warp, data[4];
	int ret;

	ret = vortex_dmseq_warp_check(dm, warp, true);
	if (ret)
		return ret;
	for (args->done = 0; args->done < args->count;) {
		ret = vortex_dmseq_step_one(s, warp);
		if (ret)
			break;
		args->done++;
		if (s->ops->card_failed(s->priv))
			break;
		if (!vortex_dmseq_warp_bit(dm, VX_DM_WACTIVE, warp))
			break;
		vortex_dmseq_select(dm, warp, 0);
		if (vortex_dmseq_bp_find(s->bps, vortex_dmseq_read(dm, VX_DM_DPC)))
			break;
	}
	args->state = 0;
	args->pc = 0;
	if (vortex_dmseq_warp_bit(dm, VX_DM_WACTIVE, warp))
		args->state |= DRM_VORTEX_DEBUG_WARP_ACTIVE;
	if (vortex_dmseq_warp_bit(dm, VX_DM_WSTATUS, warp)) {
		args->state |= DRM_VORTEX_DEBUG_WARP_HALTED;
		vortex_dmseq_select(dm, warp, 0);
		args->pc = vortex_dmseq_read(dm, VX_DM_DPC);
		if (vortex_dmseq_bp_find(s->bps, args->pc))
			args->state |= DRM_VORTEX_DEBUG_WARP_ON_BREAKPOINT;
	}
	/*
	 * Each step halted the warp and interrupted: news to nobody, STEP
	 * answers for it (as CUDA's cudbgSingleStepWarp() does).  An
	 * interrupt the host serves after STEP returned must not describe the
	 * card as it stands now (the stepped warp faulted, say) as if warps
	 * had just halted.
	 */
	dm->stepped_halted = vortex_dmseq_halted(dm, data);
	dm->stepped_first = dm->stepped_halted ? data[2] : NO_WARP;
	dm->stepped = true;
	return ret;
}

/**
 * vortex_dmseq_halt_at_start() - arms every warp to halt at its first instruction
 * @s: the session; the card idle, its next job not yet started
 *
 * Latched warps are armed by a reset (resethaltreq); then the latch is
 * cleared.  Warps the next job does not launch stay armed until the next
 * reset.
 */
void vortex_dmseq_halt_at_start(struct vortex_dmseq_session *s)
{
	vortex_dmseq_set_mask_all(s->dm, true);
	vortex_dmseq_request(s->dm, VX_DCTRL_RESETHALTREQ, NULL);
	s->ops->card_reset(s->priv);
	vortex_dmseq_set_mask_all(s->dm, false);
	vortex_dmseq_request(s->dm, VX_DCTRL_RESETHALTREQ, NULL);
}

/**
 * vortex_dmseq_set_launch_halt() - a HALT_AT_START call: what launches do
 * @s: the session
 * @flags: the call's, checked (vortex_dmseq_warps_check()): ALL halts the
 *	next launch, ALL with PERSIST every launch until the next call;
 *	neither runs them
 */
void vortex_dmseq_set_launch_halt(struct vortex_dmseq_session *s, u32 flags)
{
	if (!(flags & DRM_VORTEX_DEBUG_WARPS_ALL))
		s->launch_halt = VORTEX_DMSEQ_LAUNCH_RUN;
	else if (flags & DRM_VORTEX_DEBUG_WARPS_PERSIST)
		s->launch_halt = VORTEX_DMSEQ_LAUNCH_HALT_EVERY;
	else
		s->launch_halt = VORTEX_DMSEQ_LAUNCH_HALT_NEXT;
}

/**
 * vortex_dmseq_launch() - the target's job is going on the card
 * @s: the session; the card idle, the job not yet started
 *
 * Arms the card's warps to halt at their first instruction if the
 * session asked for it (vortex_dmseq_set_launch_halt()); a request for
 * the next launch only is used up.
 *
 * Return: true if the warps were armed: those the job does not launch
 * stay armed until the next reset (vortex_dmseq_halt_at_start()).
 */
bool vortex_dmseq_launch(struct vortex_dmseq_session *s)
{
	if (s->launch_halt == VORTEX_DMSEQ_LAUNCH_RUN)
		return false;
	vortex_dmseq_halt_at_start(s);
	if (s->launch_halt == VORTEX_DMSEQ_LAUNCH_HALT_NEXT)
		s->launch_halt = VORTEX_DMSEQ_LAUNCH_RUN;
	return true;
}

/**
 * vortex_dmseq_halted() - the data of a HALTED event
 * @dm: the DM
 * @data: out: the first halted warp's cause, the number halted, the first
 *	halted warp, its PC (DRM_VORTEX_DEBUG_EVENT_HALTED)
 *
 * Return: the number of halted warps; @data is filled only if not 0.
 */
u32 vortex_dmseq_halted(struct vortex_dmseq *dm, u32 data[4])
{
	u32 win, bits, halted = 0, first = NO_WARP;

	for (win = 0; win < vortex_dmseq_windows(dm); win++) {
		bits = vortex_dmseq_window(dm, VX_DM_WSTATUS, win);
		halted += count_bits(bits);
		if (bits && first == NO_WARP)
			first = win * 32 + lowest_bit(bits);
	}
	if (!halted)
		return 0;
	vortex_dmseq_select(dm, first, 0);
	data[0] = VX_DCTRL_HACAUSE(vortex_dmseq_read(dm, VX_DM_DCTRL));
	data[1] = halted;
	data[2] = first;
	data[3] = vortex_dmseq_read(dm, VX_DM_DPC);
	return halted;
}

/**
 * vortex_dmseq_halted_news() - the data of a HALTED event, if one is due
 * @s: the session
 * @data: as vortex_dmseq_halted()'s
 *
 * A DEBUG interrupt says warps halted, not which: the event reports the
 * card as it stands.  What the last STEP left halted, unchanged since, is
 * no news (&vortex_dmseq.stepped).
 *
 * Return: the number of halted warps, or 0 when no event is due.
 */
u32 vortex_dmseq_halted_news(struct vortex_dmseq_session *s, u32 data[4])
{
	struct vortex_dmseq *dm = s->dm;
	u32 halted = vortex_dmseq_halted(dm, data);

	if (dm->stepped && halted == dm->stepped_halted &&
	    (!halted || data[2] == dm->stepped_first))
		return 0;
	vortex_dmseq_forget_step(dm);
	return halted;
}

/* ------------------------------------------------------------ events */

static struct drm_vortex_debug_event *event_append(struct vortex_dmseq_events *q,
						   u16 type, u64 job)
{
	struct drm_vortex_debug_event *ev;

	ev = &q->ev[(q->head + q->count++) % VORTEX_DEBUG_EVENTS];
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->version = 1;
	ev->size = sizeof(*ev);
	ev->seqno = ++q->seqno;
	ev->job = job;
	return ev;
}

/**
 * vortex_dmseq_event_post() - queue an event
 * @q: the session's queue
 * @type: DRM_VORTEX_DEBUG_EVENT_*
 * @job: the target file's job seqno, or 0
 * @data: payload words
 * @n: how many
 *
 * The last slot of the queue is kept for an OVERFLOW event: when the
 * others are full, the event is dropped, and the first drop queues an
 * OVERFLOW that later drops count in, for as long as it is the newest
 * event queued.
 */
void vortex_dmseq_event_post(struct vortex_dmseq_events *q, u16 type, u64 job,
			     const u32 *data, unsigned int n)
{
	struct drm_vortex_debug_event *ev;

	if (q->count >= VORTEX_DEBUG_EVENTS - 1) {
		if (!q->dropped++)
			event_append(q, DRM_VORTEX_DEBUG_EVENT_OVERFLOW, 0);
		ev = &q->ev[(q->head + q->count - 1) % VORTEX_DEBUG_EVENTS];
		ev->data[0] = q->dropped;
		return;
	}
	q->dropped = 0;
	ev = event_append(q, type, job);
	if (n > ARRAY_SIZE(ev->data))
		n = ARRAY_SIZE(ev->data);
	memcpy(ev->data, data, n * sizeof(u32));
	/* From version 2 it carries the lanes on each side of a branch. */
	if (type == DRM_VORTEX_DEBUG_EVENT_EXCEPTION)
		ev->version = 2;
}

/**
 * vortex_dmseq_exception_sides() - an EXCEPTION's lanes on each side of a branch
 * @data: the event's words, [0] cause and [5..8] the lanes ERR_TMASK gave
 * @info: ERR_INFO0-3: for DIVERGENT_BRANCH the lanes that take the branch
 *
 * Fills [9..12] with the lanes that take it and [13..16] with the active
 * lanes that do not; leaves them zero for any other cause.
 */
void vortex_dmseq_exception_sides(u32 *data, const u32 info[4])
{
	int w;

	if (data[0] != VX_ERR_DIVERGENT_BRANCH)
		return;
	for (w = 0; w < 4; w++) {
		data[9 + w] = info[w];
		data[13 + w] = data[5 + w] & ~info[w];
	}
}

/**
 * vortex_dmseq_event_cut() - an event as a reader of an older layout reads it
 * @ev: the event, whole
 * @size: the bytes that reader's events have (%DRM_VORTEX_DEBUG_EVENT_SIZE_V2
 *	for a version-2 debugger), at most sizeof(*@ev)
 *
 * Sets @size and, for an EXCEPTION cut before the lanes of a branch's two
 * sides, the layout version that reader knows (1).
 */
void vortex_dmseq_event_cut(struct drm_vortex_debug_event *ev, u32 size)
{
	if (size >= sizeof(*ev))
		return;
	ev->size = size;
	if (ev->type == DRM_VORTEX_DEBUG_EVENT_EXCEPTION)
		ev->version = 1;
}

/**
 * vortex_dmseq_event_pop() - the oldest queued event, dequeued
 * @q: the session's queue
 * @ev: out: the event
 *
 * Return: false if the queue is empty.
 */
bool vortex_dmseq_event_pop(struct vortex_dmseq_events *q,
			    struct drm_vortex_debug_event *ev)
{
	if (!q->count)
		return false;
	*ev = q->ev[q->head];
	q->head = (q->head + 1) % VORTEX_DEBUG_EVENTS;
	q->count--;
	return true;
}
