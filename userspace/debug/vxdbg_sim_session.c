// SPDX-License-Identifier: MIT
/*
 * The simulator backend's session: the driver's debug ioctls
 * (driver/vortex_debug.c, vortex_debug_regs.c) redone over the simulated
 * Debug Module, with the same validation order and errnos, so the API
 * layer above cannot tell the backends apart.  Registers move as the
 * driver moves them: injected csrw/csrr through each lane's DSCRATCH, a
 * whole warp at a time (DCTRL.injectwarp), up to four GPR reads sharing
 * one pass over the lanes, borrowed DSCRATCHes and x5 put back; the PC
 * (DRM_VORTEX_DEBUG_REG_PC) through DPC, alone in its round of the batch.
 *
 * What the sim cannot see, it approximates: a user pointer of 0 (or
 * below 4096) is -EFAULT.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vx_asm.h"
#include "vxdbg_sim_internal.h"

#define TMP		5	/* the GPR borrowed for FPRs and CSRs */
#define TMP_SAVE	3	/* ...kept meanwhile in DSCRATCH3 */
#define GROUP		4	/* GPR reads sharing one pass */
#define NO_WARP		(~0u)

static struct sim_session *to_session(struct vxdbg_backend *be)
{
	return (struct sim_session *)be;
}

static bool bad_ptr(uint64_t p)
{
	return p < 4096;
}

/* A batch's stride, by the driver's rule (uapi, "Session ioctl sizes"). */
static int check_stride(uint32_t stride, size_t size)
{
	return stride < size || stride > 4096 || stride % 8 ? -EINVAL : 0;
}

/*
 * A REGS, MEM or BREAKPOINT header checked and its entries gathered at
 * @size bytes each, as the driver's vortex_debug_batch_in() does: no
 * flags, 1..@max entries, the stride checked, every byte past @size zero
 * (-E2BIG).  Returns the array (free() it) or NULL with *@err set.
 */
static void *copy_entries(uint64_t uptr, uint32_t count, uint32_t flags, uint32_t stride,
			  uint32_t max, size_t size, int *err)
{
	const uint8_t *src = (const uint8_t *)(uintptr_t)uptr;
	uint8_t *ents;

	*err = flags || !count ? -EINVAL : count > max ? -E2BIG : check_stride(stride, size);
	if (*err)
		return NULL;
	if (bad_ptr(uptr)) {
		*err = -EFAULT;
		return NULL;
	}
	for (uint32_t i = 0; i < count; i++)
		for (size_t b = size; b < stride; b++)
			if (src[(size_t)i * stride + b]) {
				*err = -E2BIG;
				return NULL;
			}
	ents = malloc((size_t)count * size);
	if (!ents) {
		*err = -ENOMEM;
		return NULL;
	}
	for (uint32_t i = 0; i < count; i++)
		memcpy(ents + i * size, src + (size_t)i * stride, size);
	return ents;
}

static bool on_card(struct sim_session *d)
{
	return d->s->active != NULL;
}

struct sim_bp *sim_bp_find(struct sim_session *d, uint64_t addr)
{
	for (uint32_t i = 0; i < d->nbps; i++)
		if (d->bps[i].addr == addr)
			return &d->bps[i];
	return NULL;
}

static uint32_t *vram_word(struct sim_session *d, uint64_t addr)
{
	return vxdbg_sim_ptr(d->s, addr);
}

static int check_warp(struct sim_session *d, uint32_t warp, bool halted)
{
	if (warp >= sim_total_warps(d->s))
		return -ERANGE;
	if (halted && !(sim_dm_window(d->s, VX_DM_WSTATUS, warp / 32) & 1u << warp % 32))
		return -EBUSY;
	return 0;
}

static bool card_failed(struct sim_session *d)
{
	return vx_sim_mmio_read(d->s->sim, VX_REG_STATUS) & VX_STATUS_ERROR;
}

/* One instruction of a warp, stepping over a breakpoint under it. */
static int step_one(struct sim_session *d, uint32_t warp)
{
	struct sim_bp *bp;
	int ret;

	sim_dm_select(d->s, warp, 0);
	bp = sim_bp_find(d, sim_dm_read(d->s, VX_DM_DPC));
	if (bp)
		*vram_word(d, bp->addr) = bp->orig;
	ret = sim_dm_request(d->s, VX_DCTRL_STEPREQ, NULL);
	if (bp)
		*vram_word(d, bp->addr) = SIM_EBREAK;
	return ret;
}

/* --------------------------------------------------------------- DM */

/* vortex_debug_dm_ioctl(): in order, stopping at the first bad entry. */
static int sim_dm(struct vxdbg_backend *be, struct drm_vortex_debug_dm *a)
{
	struct drm_vortex_debug_dm_op *ops = (void *)(uintptr_t)a->ops;
	struct vxdbg_sim *s = to_session(be)->s;
	int ret = 0;

	if (a->flags || !a->count)
		return -EINVAL;
	if (a->count > DRM_VORTEX_DEBUG_DM_MAX_OPS)
		return -E2BIG;
	if (bad_ptr(a->ops))
		return -EFAULT;
	sim_dm_raw_begin(s);
	for (uint32_t i = 0; i < a->count && !ret; i++) {
		if (ops[i].pad || ops[i].flags & ~DRM_VORTEX_DEBUG_DM_WRITE)
			ret = -EINVAL;
		else if (ops[i].reg >= VX_DM_NREGS)
			ret = -ERANGE;
		else if (!(ops[i].flags & DRM_VORTEX_DEBUG_DM_WRITE))
			ops[i].value = sim_dm_read(s, ops[i].reg);
		else if (sim_dm_raw_write(s, ops[i].reg, ops[i].value))
			sim_ndmreset(s);
	}
	sim_dm_raw_end(s);
	return ret;
}

/* ------------------------------------------------------------ WARPS */

static int step_off_breakpoints(struct sim_session *d, const uint32_t *mask)
{
	struct vxdbg_sim *s = d->s;
	uint32_t bits, warp;
	int ret;

	if (!d->nbps)
		return 0;
	for (uint32_t win = 0; win < s->windows; win++) {
		bits = mask[win] & sim_dm_window(s, VX_DM_WSTATUS, win);
		while (bits) {
			warp = win * 32 + __builtin_ctz(bits);
			bits &= bits - 1;
			sim_dm_select(s, warp, 0);
			if (!sim_bp_find(d, sim_dm_read(s, VX_DM_DPC)))
				continue;
			ret = step_one(d, warp);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int sim_warps(struct vxdbg_backend *be, struct drm_vortex_debug_warps *a)
{
	struct sim_session *d = to_session(be);
	struct vxdbg_sim *s = d->s;
	uint32_t mask[VX_DM_MAX_WARPS / 32] = { 0 }, total = sim_total_warps(s);
	int ret;

	if (a->pad || a->flags & ~DRM_VORTEX_DEBUG_WARPS_ALL ||
	    a->op > DRM_VORTEX_DEBUG_WARPS_HALT_AT_START)
		return -EINVAL;
	if (!(a->flags & DRM_VORTEX_DEBUG_WARPS_ALL) && a->mask_words > s->windows)
		return -E2BIG;
	if (a->flags & DRM_VORTEX_DEBUG_WARPS_ALL) {
		for (uint32_t win = 0; win < s->windows; win++)
			mask[win] = total - win * 32 >= 32 ? ~0u :
				    (1u << (total - win * 32)) - 1;
	} else if (a->mask_words) {
		if (bad_ptr(a->mask))
			return -EFAULT;
		memcpy(mask, (void *)(uintptr_t)a->mask, a->mask_words * 4);
		if (total % 32 && a->mask_words == s->windows &&
		    mask[s->windows - 1] >> (total % 32))
			return -ERANGE;
	}
	if (a->op == DRM_VORTEX_DEBUG_WARPS_HALT_AT_START) {
		d->halt_at_start = a->flags & DRM_VORTEX_DEBUG_WARPS_ALL;
		return 0;
	}
	if (!on_card(d))
		return -ESRCH;
	if (a->op == DRM_VORTEX_DEBUG_WARPS_HALT) {
		sim_dm_set_mask(s, mask);
		return sim_dm_request(s, VX_DCTRL_HALTREQ, NULL);
	}
	/* RESUME: a frozen card ends the job instead. */
	if (d->frozen) {
		sim_job_end(s, -EIO);
		sim_card_reset(s);
		return 0;
	}
	ret = step_off_breakpoints(d, mask);
	if (ret || card_failed(d))
		return ret;
	sim_dm_set_mask(s, mask);
	return sim_dm_request(s, VX_DCTRL_RESUMEREQ, NULL);
}

/* ------------------------------------------------------------- STEP */

static bool warp_bit(struct sim_session *d, uint32_t reg, uint32_t warp)
{
	return sim_dm_window(d->s, reg, warp / 32) & 1u << warp % 32;
}

static int sim_step(struct vxdbg_backend *be, struct drm_vortex_debug_step *a)
{
	struct sim_session *d = to_session(be);
	int ret;

	if (a->flags || !a->count)
		return -EINVAL;
	if (a->count > DRM_VORTEX_DEBUG_MAX_STEPS)
		return -E2BIG;
	if (!on_card(d))
		return -ESRCH;
	ret = check_warp(d, a->warp, true);
	if (ret)
		return ret;
	for (a->done = 0; a->done < a->count;) {
		ret = step_one(d, a->warp);
		if (ret)
			return ret;
		a->done++;
		if (card_failed(d) || !warp_bit(d, VX_DM_WACTIVE, a->warp))
			break;
		sim_dm_select(d->s, a->warp, 0);
		if (sim_bp_find(d, sim_dm_read(d->s, VX_DM_DPC)))
			break;
	}
	a->state = a->pc = 0;
	if (warp_bit(d, VX_DM_WACTIVE, a->warp))
		a->state |= DRM_VORTEX_DEBUG_WARP_ACTIVE;
	if (warp_bit(d, VX_DM_WSTATUS, a->warp)) {
		a->state |= DRM_VORTEX_DEBUG_WARP_HALTED;
		sim_dm_select(d->s, a->warp, 0);
		a->pc = sim_dm_read(d->s, VX_DM_DPC);
		if (sim_bp_find(d, a->pc))
			a->state |= DRM_VORTEX_DEBUG_WARP_ON_BREAKPOINT;
	}
	return 0;
}

/* ----------------------------------------------------------- STATUS */

/* What only injection can read, from lane 0 of a halted warp. */
static int status_halted(struct sim_session *d, struct drm_vortex_debug_warp_state *st)
{
	static const uint32_t csrs[] = {
		VX_CSR_ACTIVE_THREADS, VX_CSR_BLOCK_IDX(0), VX_CSR_BLOCK_IDX(1),
		VX_CSR_BLOCK_IDX(2), VX_CSR_WARP_IN_BLOCK,
	};
	struct vxdbg_sim *s = d->s;
	uint32_t vals[5], save0, save3;
	int ret, r;

	sim_dm_select(s, st->warp, 0);
	st->cause = VX_DCTRL_HACAUSE(sim_dm_read(s, VX_DM_DCTRL));
	st->pc = sim_dm_read(s, VX_DM_DPC);
	save0 = sim_dm_read(s, VX_DM_DSCRATCH(0));
	save3 = sim_dm_read(s, VX_DM_DSCRATCH(TMP_SAVE));
	ret = sim_dm_inject(s, CSRW(VX_CSR_DSCRATCH(TMP_SAVE), TMP), false);
	if (ret)
		goto out;
	for (uint32_t i = 0; i < 5 && !ret; i++) {
		ret = sim_dm_inject(s, CSRR(TMP, csrs[i]), false) ?:
		      sim_dm_inject(s, CSRW(VX_CSR_DSCRATCH(0), TMP), false);
		vals[i] = sim_dm_read(s, VX_DM_DSCRATCH(0));
	}
	r = sim_dm_inject(s, CSRR(TMP, VX_CSR_DSCRATCH(TMP_SAVE)), false);
	ret = ret ?: r;
	if (!ret) {
		st->thread_mask[0] = vals[0];
		memcpy(st->block_idx, &vals[1], sizeof(st->block_idx));
		st->warp_in_block = vals[4];
	}
out:
	sim_dm_write(s, VX_DM_DSCRATCH(0), save0);
	sim_dm_write(s, VX_DM_DSCRATCH(TMP_SAVE), save3);
	return ret;
}

static int sim_status(struct vxdbg_backend *be, struct drm_vortex_debug_status *a)
{
	struct sim_session *d = to_session(be);
	struct vxdbg_sim *s = d->s;
	struct drm_vortex_debug_warp_state st;
	uint32_t total = sim_total_warps(s), per_cluster = s->topo.cores * s->topo.warps;
	uint32_t i, active = 0, halted = 0;
	int ret = 0;

	if (a->flags || check_stride(a->stride, sizeof(st)) || !a->count)
		return -EINVAL;
	if (a->count > DRM_VORTEX_DEBUG_STATUS_MAX)
		return -E2BIG;
	if (a->first >= total)
		return -ERANGE;
	a->count = a->count < total - a->first ? a->count : total - a->first;
	if (!on_card(d))
		return -ESRCH;
	if (bad_ptr(a->states))
		return -EFAULT;
	for (i = 0; i < a->count; i++) {
		uint32_t w = a->first + i;
		char *rec = (char *)(uintptr_t)a->states + (uint64_t)i * a->stride;

		if (i == 0 || w % 32 == 0) {
			active = sim_dm_window(s, VX_DM_WACTIVE, w / 32);
			halted = sim_dm_window(s, VX_DM_WSTATUS, w / 32);
		}
		memset(&st, 0, sizeof(st));
		st.warp = w;
		st.cluster = w / per_cluster;
		st.core = w % per_cluster / s->topo.warps;
		st.warp_in_core = w % s->topo.warps;
		if (active & 1u << w % 32)
			st.state |= DRM_VORTEX_DEBUG_WARP_ACTIVE;
		if (halted & 1u << w % 32) {
			st.state |= DRM_VORTEX_DEBUG_WARP_HALTED;
			ret = status_halted(d, &st);
			if (ret)
				break;
			if (sim_bp_find(d, st.pc))
				st.state |= DRM_VORTEX_DEBUG_WARP_ON_BREAKPOINT;
		}
		memcpy(rec, &st, sizeof(st));
		memset(rec + sizeof(st), 0, a->stride - sizeof(st));
	}
	a->count = i;
	return ret;
}

/* ------------------------------------------------------------- REGS */

struct regs_ctx {
	struct vxdbg_sim *s;
	uint32_t warp;		/* whose DSCRATCHes are in @saved */
	uint32_t threads;
	uint32_t saved[VX_DM_MAX_THREADS][4];
};

static void regs_restore(struct regs_ctx *c)
{
	if (c->warp == NO_WARP)
		return;
	for (uint32_t lane = 0; lane < c->threads; lane++) {
		sim_dm_select(c->s, c->warp, lane);
		for (uint32_t k = 0; k < 4; k++)
			sim_dm_write(c->s, VX_DM_DSCRATCH(k), c->saved[lane][k]);
	}
	c->warp = NO_WARP;
}

static int regs_borrow(struct sim_session *d, struct regs_ctx *c, uint32_t warp)
{
	int ret;

	if (c->warp == warp)
		return 0;
	ret = check_warp(d, warp, true);
	if (ret)
		return ret;
	regs_restore(c);
	for (uint32_t lane = 0; lane < c->threads; lane++) {
		sim_dm_select(c->s, warp, lane);
		for (uint32_t k = 0; k < 4; k++)
			c->saved[lane][k] = sim_dm_read(c->s, VX_DM_DSCRATCH(k));
	}
	c->warp = warp;
	return 0;
}

static bool lane_set(const uint32_t *lanes, uint32_t lane)
{
	return lanes[lane / 32] & 1u << lane % 32;
}

static bool is_gpr(uint32_t reg)
{
	return reg < DRM_VORTEX_DEBUG_REG_F(0);
}

static int regs_check(struct regs_ctx *c, const struct drm_vortex_debug_reg_op *op,
		      uint32_t *n)
{
	if (op->pad || op->flags & ~DRM_VORTEX_DEBUG_REG_WRITE)
		return -EINVAL;
	if (op->reg >= DRM_VORTEX_DEBUG_REG_F(32) &&
	    (op->reg < DRM_VORTEX_DEBUG_REG_CSR(0) || op->reg > DRM_VORTEX_DEBUG_REG_CSR(0xfff)) &&
	    op->reg != DRM_VORTEX_DEBUG_REG_PC)
		return -ERANGE;
	if (op->warp >= sim_total_warps(c->s))
		return -ERANGE;
	*n = 0;
	for (uint32_t l = 0; l < VX_DM_MAX_THREADS; l++) {
		if (!lane_set(op->lanes, l))
			continue;
		if (l >= c->threads)
			return -ERANGE;
		++*n;
	}
	return *n ? 0 : -EINVAL;
}

/* FPR or CSR @reg of every lane into x5, x5 saved in DSCRATCH3. */
static int regs_tmp_load(struct regs_ctx *c, uint32_t reg)
{
	int ret = sim_dm_inject(c->s, CSRW(VX_CSR_DSCRATCH(TMP_SAVE), TMP), true);

	if (ret || is_gpr(reg))
		return ret;
	if (reg < DRM_VORTEX_DEBUG_REG_CSR(0))
		return sim_dm_inject(c->s, FMV_X_W(TMP, reg - DRM_VORTEX_DEBUG_REG_F(0)), true);
	return sim_dm_inject(c->s, CSRR(TMP, reg - DRM_VORTEX_DEBUG_REG_CSR(0)), true);
}

static int regs_tmp_restore(struct regs_ctx *c, int ret)
{
	int r = sim_dm_inject(c->s, CSRR(TMP, VX_CSR_DSCRATCH(TMP_SAVE)), true);

	return ret ?: r;
}

static int regs_to_scratch(struct regs_ctx *c, uint32_t reg, uint32_t k)
{
	int ret;

	if (is_gpr(reg))
		return sim_dm_inject(c->s, CSRW(VX_CSR_DSCRATCH(k), reg), true);
	ret = regs_tmp_load(c, reg);
	if (!ret)
		ret = sim_dm_inject(c->s, CSRW(VX_CSR_DSCRATCH(k), TMP), true);
	return regs_tmp_restore(c, ret);
}

static int regs_from_scratch(struct regs_ctx *c, uint32_t reg)
{
	int ret;

	if (is_gpr(reg))
		return sim_dm_inject(c->s, CSRR(reg, VX_CSR_DSCRATCH(0)), true);
	ret = sim_dm_inject(c->s, CSRW(VX_CSR_DSCRATCH(TMP_SAVE), TMP), true);
	if (ret)
		return ret;
	ret = sim_dm_inject(c->s, CSRR(TMP, VX_CSR_DSCRATCH(0)), true);
	if (!ret)
		ret = sim_dm_inject(c->s, reg < DRM_VORTEX_DEBUG_REG_CSR(0) ?
				    FMV_W_X(reg - DRM_VORTEX_DEBUG_REG_F(0), TMP) :
				    CSRW(reg - DRM_VORTEX_DEBUG_REG_CSR(0), TMP), true);
	return regs_tmp_restore(c, ret);
}

/* Up to GROUP reads of one warp: register i through DSCRATCH i, one pass. */
static int regs_read_group(struct regs_ctx *c, const struct drm_vortex_debug_reg_op *ops,
			   uint32_t n)
{
	uint32_t used[GROUP] = { 0 };
	int ret;

	for (uint32_t i = 0; i < n; i++) {
		if (ops[i].reg == 0)
			continue;
		ret = regs_to_scratch(c, ops[i].reg, i);
		if (ret)
			return ret;
	}
	for (uint32_t lane = 0; lane < c->threads; lane++) {
		bool selected = false;

		for (uint32_t i = 0; i < n; i++) {
			uint32_t *vals = (uint32_t *)(uintptr_t)ops[i].values;

			if (!lane_set(ops[i].lanes, lane))
				continue;
			if (ops[i].reg == 0) {
				vals[used[i]++] = 0;
				continue;
			}
			if (!selected) {
				sim_dm_select(c->s, c->warp, lane);
				selected = true;
			}
			vals[used[i]++] = sim_dm_read(c->s, VX_DM_DSCRATCH(i));
		}
	}
	return 0;
}

static int regs_write(struct regs_ctx *c, const struct drm_vortex_debug_reg_op *op)
{
	const uint32_t *vals = (const uint32_t *)(uintptr_t)op->values;
	uint32_t used = 0;
	int ret;

	if (op->reg == 0)
		return 0;
	ret = regs_to_scratch(c, op->reg, 0);	/* lanes not written keep theirs */
	if (ret)
		return ret;
	for (uint32_t lane = 0; lane < c->threads; lane++) {
		if (!lane_set(op->lanes, lane))
			continue;
		sim_dm_select(c->s, c->warp, lane);
		sim_dm_write(c->s, VX_DM_DSCRATCH(0), vals[used++]);
	}
	return regs_from_scratch(c, op->reg);
}

/*
 * The PC is the warp's, through DPC: every lane reads it, a write takes
 * the first lane's value (the DM takes it while the warp is halted, which
 * regs_borrow() made sure of).
 */
static void regs_pc(struct regs_ctx *c, const struct drm_vortex_debug_reg_op *op,
		    uint32_t nlanes)
{
	uint32_t *vals = (uint32_t *)(uintptr_t)op->values, pc;

	sim_dm_select(c->s, op->warp, 0);
	if (op->flags & DRM_VORTEX_DEBUG_REG_WRITE) {
		sim_dm_write(c->s, VX_DM_DPC, vals[0]);
		return;
	}
	pc = sim_dm_read(c->s, VX_DM_DPC);
	for (uint32_t i = 0; i < nlanes; i++)
		vals[i] = pc;
}

static uint32_t regs_group_len(const struct drm_vortex_debug_reg_op *ops, uint32_t n)
{
	uint32_t i;

	if (ops[0].flags & DRM_VORTEX_DEBUG_REG_WRITE ||
	    ops[0].reg == DRM_VORTEX_DEBUG_REG_PC)
		return 1;
	for (i = 1; i < n && i < GROUP; i++)
		if (ops[i].warp != ops[0].warp || !is_gpr(ops[i].reg) ||
		    !is_gpr(ops[0].reg) || ops[i].flags & DRM_VORTEX_DEBUG_REG_WRITE)
			break;
	return i;
}

static int regs_batch(struct sim_session *d, struct regs_ctx *c,
		      struct drm_vortex_debug_regs *a,
		      const struct drm_vortex_debug_reg_op *uops)
{
	uint32_t nlanes[GROUP], n, i, g;
	int ret = 0;

	while (a->done < a->count) {
		const struct drm_vortex_debug_reg_op *ops = &uops[a->done];

		n = a->count - a->done < GROUP ? a->count - a->done : GROUP;
		for (i = 0; i < n; i++) {
			ret = regs_check(c, &ops[i], &nlanes[i]);
			if (!ret && bad_ptr(ops[i].values))
				ret = -EFAULT;
			if (ret)
				break;
		}
		if (!i)
			return ret;
		g = regs_group_len(ops, i);
		ret = regs_borrow(d, c, ops[0].warp);
		if (ret)
			return ret;
		if (ops[0].reg == DRM_VORTEX_DEBUG_REG_PC) {
			regs_pc(c, ops, nlanes[0]);
			a->done++;
			continue;
		}
		ret = ops[0].flags & DRM_VORTEX_DEBUG_REG_WRITE ? regs_write(c, ops) :
		      regs_read_group(c, ops, g);
		if (ret)
			return ret;
		a->done += ops[0].flags & DRM_VORTEX_DEBUG_REG_WRITE ? 1 : g;
	}
	return 0;
}

static int sim_regs(struct vxdbg_backend *be, struct drm_vortex_debug_regs *a)
{
	struct sim_session *d = to_session(be);
	struct drm_vortex_debug_reg_op *ops;
	struct regs_ctx *c;
	int ret;

	a->done = 0;
	ops = copy_entries(a->ops, a->count, a->flags, a->stride, DRM_VORTEX_DEBUG_MAX_REG_OPS,
			   sizeof(*ops), &ret);
	if (!ops)
		return ret;
	c = on_card(d) ? malloc(sizeof(*c)) : NULL;
	if (!c) {
		free(ops);
		return on_card(d) ? -ENOMEM : -ESRCH;
	}
	c->s = d->s;
	c->warp = NO_WARP;
	c->threads = d->s->topo.threads;
	ret = regs_batch(d, c, a, ops);
	regs_restore(c);
	free(c);
	free(ops);
	return ret;
}

/* -------------------------------------------------------------- MEM */

/* Breakpoints are invisible: reads see, writes change, the kept word. */
static void mem_hide_bps(struct sim_session *d, uint64_t addr, uint8_t *buf,
			 uint32_t n, bool write)
{
	static const uint32_t ebreak = SIM_EBREAK;

	for (uint32_t i = 0; i < d->nbps; i++) {
		struct sim_bp *bp = &d->bps[i];

		for (uint32_t b = 0; b < 4; b++) {
			uint64_t at = bp->addr + b;

			if (at < addr || at >= addr + n)
				continue;
			if (write) {
				((uint8_t *)&bp->orig)[b] = buf[at - addr];
				buf[at - addr] = ((const uint8_t *)&ebreak)[b];
			} else {
				buf[at - addr] = ((uint8_t *)&bp->orig)[b];
			}
		}
	}
}

static int mem_op(struct sim_session *d, const struct drm_vortex_debug_mem_op *op)
{
	uint8_t *vram = vxdbg_sim_ptr(d->s, op->addr);
	uint8_t *buf = (uint8_t *)(uintptr_t)op->buf;

	if (op->pad || op->flags & ~DRM_VORTEX_DEBUG_MEM_WRITE ||
	    op->space != DRM_VORTEX_DEBUG_SPACE_DEVICE || !op->len)
		return -EINVAL;
	if (op->len > DRM_VORTEX_DEBUG_MAX_MEM_LEN)
		return -E2BIG;
	if (!sim_in_vram(d->s, op->addr, op->len))
		return -ENXIO;
	if (bad_ptr(op->buf))
		return -EFAULT;
	if (op->flags & DRM_VORTEX_DEBUG_MEM_WRITE) {
		uint8_t *tmp = malloc(op->len);

		if (!tmp)
			return -ENOMEM;
		memcpy(tmp, buf, op->len);
		mem_hide_bps(d, op->addr, tmp, op->len, true);
		memcpy(vram, tmp, op->len);
		free(tmp);
	} else {
		memcpy(buf, vram, op->len);
		mem_hide_bps(d, op->addr, buf, op->len, false);
	}
	return 0;
}

static int sim_mem(struct vxdbg_backend *be, struct drm_vortex_debug_mem *a)
{
	struct drm_vortex_debug_mem_op *ops;
	int ret = 0;

	a->done = 0;
	ops = copy_entries(a->ops, a->count, a->flags, a->stride, DRM_VORTEX_DEBUG_MAX_MEM_OPS,
			   sizeof(*ops), &ret);
	if (!ops)
		return ret;
	for (; a->done < a->count; a->done++) {
		ret = mem_op(to_session(be), &ops[a->done]);
		if (ret)
			break;
	}
	free(ops);
	return ret;
}

/* ------------------------------------------------------- BREAKPOINT */

static int bp_op(struct sim_session *d, const struct drm_vortex_debug_bp_op *a)
{
	struct sim_bp *bp;
	uint32_t *word;

	if (a->op > DRM_VORTEX_DEBUG_BP_CLEAR || a->flags || a->pad ||
	    a->space != DRM_VORTEX_DEBUG_SPACE_DEVICE || a->addr & 3)
		return -EINVAL;
	if (!sim_in_vram(d->s, a->addr, 4))
		return -ENXIO;
	word = vram_word(d, a->addr);
	bp = sim_bp_find(d, a->addr);
	if (a->op == DRM_VORTEX_DEBUG_BP_SET) {
		if (bp)
			return -EEXIST;
		if (d->nbps == DRM_VORTEX_DEBUG_MAX_BREAKPOINTS)
			return -ENOSPC;
		d->bps[d->nbps++] = (struct sim_bp){ a->addr, *word };
		*word = SIM_EBREAK;
		return 0;
	}
	if (!bp)
		return -ENOENT;
	if (*word == SIM_EBREAK)
		*word = bp->orig;
	*bp = d->bps[--d->nbps];
	return 0;
}

static int sim_breakpoint(struct vxdbg_backend *be, struct drm_vortex_debug_breakpoint *a)
{
	struct drm_vortex_debug_bp_op *ops;
	int ret = 0;

	a->done = 0;
	ops = copy_entries(a->ops, a->count, a->flags, a->stride,
			   DRM_VORTEX_DEBUG_MAX_BREAKPOINTS, sizeof(*ops), &ret);
	if (!ops)
		return ret;
	for (; a->done < a->count; a->done++) {
		ret = bp_op(to_session(be), &ops[a->done]);
		if (ret)
			break;
	}
	free(ops);
	return ret;
}

/* --------------------------------------------------- the rest */

static int sim_coredump(struct vxdbg_backend *be, struct drm_vortex_debug_coredump *a)
{
	return a->flags || a->pad ? -EINVAL : -EOPNOTSUPP;
}

static int sim_event(struct vxdbg_backend *be, struct drm_vortex_debug_event *ev,
		     int timeout_ms)
{
	struct sim_session *d = to_session(be);
	int ret = sim_wait_event(d->s, timeout_ms);

	if (ret)
		return ret;
	*ev = d->ev[d->ev_head];
	d->ev_head = (d->ev_head + 1) % SIM_EVENTS;
	d->ev_count--;
	return 0;
}

static int sim_dm_accesses(struct vxdbg_backend *be, uint64_t *count)
{
	*count = to_session(be)->s->dm_accesses;
	return 0;
}

static void sim_close(struct vxdbg_backend *be)
{
	sim_session_detach(to_session(be));
}

const struct vxdbg_backend_ops sim_session_ops = {
	.name = "sim",
	.dm = sim_dm,
	.warps = sim_warps,
	.step = sim_step,
	.status = sim_status,
	.regs = sim_regs,
	.mem = sim_mem,
	.breakpoint = sim_breakpoint,
	.coredump = sim_coredump,
	.event = sim_event,
	.dm_accesses = sim_dm_accesses,
	.close = sim_close,
};
