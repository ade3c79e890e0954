// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: One halted warp through the Debug Module
 *
 * The DM has no register file port: a register is read by injecting
 * ``csrw dscratchN, xR`` into the warp and reading the lane's DSCRATCHN,
 * and written the other way round (the spec's intended use).  FPRs and
 * CSRs go through x5, which is saved in DSCRATCH3 first and restored last.
 * To stay cheap on whole warps, the injections use DCTRL.injectwarp (every
 * lane at once), and up to four consecutive GPR reads of one warp share
 * one pass over its lanes, one DSCRATCH each.  Injecting into every lane
 * clobbers every lane's DSCRATCH0-3, so the first access to a warp borrows
 * it (vortex_dmseq_warp_borrow() saves all of them) and
 * vortex_dmseq_warp_restore() gives them back: a debugger never sees a
 * borrowed value.
 *
 * Part of the Debug Module sequencing written once (vortex_dmseq.c).
 */

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <string.h>
#endif

#include "vortex_dmseq.h"
#include "vortex_rv32.h"

/* The GPR borrowed to move FPRs and CSRs, and where it is kept meanwhile. */
#define TMP		5
#define TMP_SAVE	3
#define NO_WARP		(~0u)
#define GROUP		VORTEX_WARP_GROUP

/* ---------------------------------------------------- a halted warp */

/**
 * vortex_dmseq_warp_check() - a warp id that exists, and (if @halted) is halted
 * @dm: the DM
 * @warp: global warp id
 * @halted: the warp must be debug-halted
 *
 * Return: 0, -ERANGE or -EBUSY.
 */
int vortex_dmseq_warp_check(struct vortex_dmseq *dm, u32 warp, bool halted)
{
	if (warp >= vortex_dmseq_total_warps(dm))
		return -ERANGE;
	if (halted && !vortex_dmseq_warp_bit(dm, VX_DM_WSTATUS, warp))
		return -EBUSY;
	return 0;
}

/**
 * vortex_dmseq_warp_init() - a context to borrow warps with, none borrowed
 * @ctx: the context (the host allocates it: it is 4 KiB)
 * @dm: the DM
 */
void vortex_dmseq_warp_init(struct vortex_dmseq_warp *ctx,
			    struct vortex_dmseq *dm)
{
	ctx->dm = dm;
	ctx->warp = NO_WARP;
	ctx->scratch_lost = false;
}

/**
 * vortex_dmseq_warp_restore() - gives the borrowed warp its DSCRATCHes back
 * @ctx: the context
 */
void vortex_dmseq_warp_restore(struct vortex_dmseq_warp *ctx)
{
	u32 lane, k;

	if (ctx->warp == NO_WARP)
		return;
	for (lane = 0; lane < ctx->dm->threads && !ctx->scratch_lost; lane++) {
		vortex_dmseq_select(ctx->dm, ctx->warp, lane);
		for (k = 0; k < 4; k++)
			vortex_dmseq_write(ctx->dm, VX_DM_DSCRATCH(k), ctx->saved[lane][k]);
	}
	ctx->warp = NO_WARP;
}

/**
 * vortex_dmseq_warp_borrow() - saves the DSCRATCHes of @warp, restoring the last one's
 * @ctx: the context
 * @warp: global warp id, which must exist and be halted
 *
 * Return: 0, -ERANGE or -EBUSY (vortex_dmseq_warp_check()).
 */
int vortex_dmseq_warp_borrow(struct vortex_dmseq_warp *ctx, u32 warp)
{
	u32 lane, k;
	int ret;

	if (ctx->warp == warp)
		return 0;
	ret = vortex_dmseq_warp_check(ctx->dm, warp, true);
	if (ret)
		return ret;
	vortex_dmseq_warp_restore(ctx);
	for (lane = 0; lane < ctx->dm->threads && !ctx->scratch_lost; lane++) {
		vortex_dmseq_select(ctx->dm, warp, lane);
		for (k = 0; k < 4; k++)
			ctx->saved[lane][k] = vortex_dmseq_read(ctx->dm, VX_DM_DSCRATCH(k));
	}
	ctx->warp = warp;
	return 0;
}

/* Injects @insn into every lane of the selected warp. */
static int inject_all(struct vortex_dmseq *dm, u32 insn)
{
	return vortex_dmseq_inject(dm, insn, true);
}

/* x5 of every lane to DSCRATCH3, then the FPR or CSR into x5. */
static int tmp_load(struct vortex_dmseq *dm, u32 reg)
{
	int ret = inject_all(dm, RV32_CSRW(VX_CSR_DSCRATCH(TMP_SAVE), TMP));

	if (ret || vortex_dmseq_reg_is_gpr(reg))
		return ret;
	if (reg < DRM_VORTEX_DEBUG_REG_CSR(0))
		return inject_all(dm, RV32_FMV_X_W(TMP, reg - DRM_VORTEX_DEBUG_REG_F(0)));
	return inject_all(dm, RV32_CSRR(TMP, reg - DRM_VORTEX_DEBUG_REG_CSR(0)));
}

/* Puts x5 back from DSCRATCH3; keeps the first error. */
static int tmp_restore(struct vortex_dmseq *dm, int ret)
{
	int r = inject_all(dm, RV32_CSRR(TMP, VX_CSR_DSCRATCH(TMP_SAVE)));

	return ret ?: r;
}

/* Copies register @reg of every lane into each lane's DSCRATCH @k. */
static int to_scratch(struct vortex_dmseq *dm, u32 reg, u32 k)
{
	int ret;

	if (vortex_dmseq_reg_is_gpr(reg))
		return inject_all(dm, RV32_CSRW(VX_CSR_DSCRATCH(k), reg));
	ret = tmp_load(dm, reg);
	if (!ret)
		ret = inject_all(dm, RV32_CSRW(VX_CSR_DSCRATCH(k), TMP));
	return tmp_restore(dm, ret);
}

/* Register @reg of every lane from each lane's DSCRATCH0. */
static int from_scratch(struct vortex_dmseq *dm, u32 reg)
{
	int ret;

	if (vortex_dmseq_reg_is_gpr(reg))
		return inject_all(dm, RV32_CSRR(reg, VX_CSR_DSCRATCH(0)));
	ret = inject_all(dm, RV32_CSRW(VX_CSR_DSCRATCH(TMP_SAVE), TMP));
	if (ret)
		return ret;
	ret = inject_all(dm, RV32_CSRR(TMP, VX_CSR_DSCRATCH(0)));
	if (!ret) {
		if (reg < DRM_VORTEX_DEBUG_REG_CSR(0))
			ret = inject_all(dm, RV32_FMV_W_X(reg - DRM_VORTEX_DEBUG_REG_F(0), TMP));
		else
			ret = inject_all(dm, RV32_CSRW(reg - DRM_VORTEX_DEBUG_REG_CSR(0), TMP));
	}
	return tmp_restore(dm, ret);
}

/**
 * vortex_dmseq_warp_read_group() - reads up to VORTEX_WARP_GROUP registers at once
 * @ctx: the context, the ops' warp borrowed
 * @ops: the reads, all of the borrowed warp, GPRs if more than one
 * @n: how many, 1..VORTEX_WARP_GROUP
 * @vals: out: row i holds op i's values, lowest lane first
 *
 * Register i goes through DSCRATCH i, then one pass over the lanes
 * collects them all.  x0 reads 0 without an injection.
 *
 * Return: 0 or -EIO (an injection faulted or timed out).
 */
int vortex_dmseq_warp_read_group(struct vortex_dmseq_warp *ctx,
				 const struct drm_vortex_debug_reg_op *ops,
				 u32 n, u32 vals[][VX_DM_MAX_THREADS])
{
	u32 i, lane, used[GROUP] = { 0 };
	int ret;

	for (i = 0; i < n; i++) {
		if (ops[i].reg == DRM_VORTEX_DEBUG_REG_X(0))
			continue;
		ret = to_scratch(ctx->dm, ops[i].reg, i);
		if (ret)
			return ret;
	}
	for (lane = 0; lane < ctx->dm->threads; lane++) {
		bool selected = false;

		for (i = 0; i < n; i++) {
			if (!vortex_dmseq_lane_set(ops[i].lanes, lane))
				continue;
			if (ops[i].reg == DRM_VORTEX_DEBUG_REG_X(0)) {
				vals[i][used[i]++] = 0;
				continue;
			}
			if (!selected) {
				vortex_dmseq_select(ctx->dm, ctx->warp, lane);
				selected = true;
			}
			vals[i][used[i]++] = vortex_dmseq_read(ctx->dm, VX_DM_DSCRATCH(i));
		}
	}
	return 0;
}

/**
 * vortex_dmseq_warp_write() - writes one register of some lanes of the borrowed warp
 * @ctx: the context, the op's warp borrowed
 * @op: the register and lanes
 * @vals: one value per lane in @op->lanes, lowest lane first
 *
 * The other lanes keep their values.
 *
 * Return: 0 or -EIO.
 */
int vortex_dmseq_warp_write(struct vortex_dmseq_warp *ctx,
			    const struct drm_vortex_debug_reg_op *op,
			    const u32 *vals)
{
	u32 lane, used = 0;
	int ret;

	if (op->reg == DRM_VORTEX_DEBUG_REG_X(0))
		return 0;
	/* Lanes not written get their own value back. */
	ret = to_scratch(ctx->dm, op->reg, 0);
	if (ret)
		return ret;
	for (lane = 0; lane < ctx->dm->threads; lane++) {
		if (!vortex_dmseq_lane_set(op->lanes, lane))
			continue;
		vortex_dmseq_select(ctx->dm, ctx->warp, lane);
		vortex_dmseq_write(ctx->dm, VX_DM_DSCRATCH(0), vals[used++]);
	}
	return from_scratch(ctx->dm, op->reg);
}

/**
 * vortex_dmseq_warp_pc() - the warp's PC, read into every lane's value or written
 * @ctx: the context
 * @op: the warp, and DRM_VORTEX_DEBUG_REG_WRITE for a write
 * @vals: @nlanes values: out for a read; a write takes the first
 * @nlanes: lanes in @op
 *
 * The PC is the warp's, through DPC (the DM takes it while the warp is
 * halted).
 */
void vortex_dmseq_warp_pc(struct vortex_dmseq_warp *ctx,
			  const struct drm_vortex_debug_reg_op *op, u32 *vals,
			  u32 nlanes)
{
	u32 i, pc;

	vortex_dmseq_select(ctx->dm, op->warp, 0);
	if (op->flags & DRM_VORTEX_DEBUG_REG_WRITE) {
		vortex_dmseq_write(ctx->dm, VX_DM_DPC, vals[0]);
		return;
	}
	pc = vortex_dmseq_read(ctx->dm, VX_DM_DPC);
	for (i = 0; i < nlanes; i++)
		vals[i] = pc;
}

/**
 * vortex_dmseq_warp_status() - what only injection can read of a halted warp
 * @dm: the DM
 * @st: @st->warp names the warp; fills cause, PC, thread mask, block
 *
 * Reads lane 0; the DSCRATCH0/3 and x5 it borrows are restored.
 *
 * Return: 0 or a negative errno.
 */
int vortex_dmseq_warp_status(struct vortex_dmseq *dm,
			     struct drm_vortex_debug_warp_state *st)
{
	static const u32 csrs[] = {
		VX_CSR_ACTIVE_THREADS, VX_CSR_BLOCK_IDX(0), VX_CSR_BLOCK_IDX(1),
		VX_CSR_BLOCK_IDX(2), VX_CSR_WARP_IN_BLOCK,
	};
	u32 vals[ARRAY_SIZE(csrs)], save0, save3, i;
	int ret, r;

	vortex_dmseq_select(dm, st->warp, 0);
	st->cause = VX_DCTRL_HACAUSE(vortex_dmseq_read(dm, VX_DM_DCTRL));
	st->pc = vortex_dmseq_read(dm, VX_DM_DPC);

	save0 = vortex_dmseq_read(dm, VX_DM_DSCRATCH(0));
	save3 = vortex_dmseq_read(dm, VX_DM_DSCRATCH(TMP_SAVE));
	ret = vortex_dmseq_inject(dm, RV32_CSRW(VX_CSR_DSCRATCH(TMP_SAVE), TMP), false);
	if (ret)
		goto out;
	for (i = 0; i < ARRAY_SIZE(csrs) && !ret; i++) {
		ret = vortex_dmseq_inject(dm, RV32_CSRR(TMP, csrs[i]), false) ?:
		      vortex_dmseq_inject(dm, RV32_CSRW(VX_CSR_DSCRATCH(0), TMP), false);
		vals[i] = vortex_dmseq_read(dm, VX_DM_DSCRATCH(0));
	}
	r = vortex_dmseq_inject(dm, RV32_CSRR(TMP, VX_CSR_DSCRATCH(TMP_SAVE)), false);
	ret = ret ?: r;
	if (!ret) {
		/* The CSR holds lanes 0-31; wider warps' upper lanes read 0. */
		st->thread_mask[0] = vals[0];
		memcpy(st->block_idx, &vals[1], sizeof(st->block_idx));
		st->warp_in_block = vals[4];
	}
out:
	vortex_dmseq_write(dm, VX_DM_DSCRATCH(0), save0);
	vortex_dmseq_write(dm, VX_DM_DSCRATCH(TMP_SAVE), save3);
	return ret;
}

/*
 * Reads f@first .. f@first + @n - 1 (n <= 3; register 32 is fcsr) of every
 * lane, with x5 already saved in DSCRATCH3: each goes through x5 into
 * DSCRATCH k, then one pass over the lanes collects them.
 */
static int read_fp_group(struct vortex_dmseq_warp *ctx, u32 first, u32 n,
			 u32 *out)
{
	u32 k, lane, threads = ctx->dm->threads;
	int ret;

	for (k = 0; k < n; k++) {
		u32 f = first + k;

		ret = inject_all(ctx->dm, f == 32 ? RV32_CSRR(TMP, RV32_CSR_FCSR) :
				 RV32_FMV_X_W(TMP, f)) ?:
		      inject_all(ctx->dm, RV32_CSRW(VX_CSR_DSCRATCH(k), TMP));
		if (ret)
			return ret;
	}
	for (lane = 0; lane < threads; lane++) {
		vortex_dmseq_select(ctx->dm, ctx->warp, lane);
		for (k = 0; k < n; k++)
			out[k * threads + lane] =
				vortex_dmseq_read(ctx->dm, VX_DM_DSCRATCH(k));
	}
	return 0;
}

/**
 * vortex_dmseq_warp_read_regs() - every register of every lane of a halted warp
 * @ctx: a context, nothing borrowed (@ctx->scratch_lost set if the card
 *	is reset right after: the DSCRATCHes are then not saved nor restored)
 * @warp: global warp id, halted
 * @out: VORTEX_WARP_REGS x threads words: x0-x31, f0-f31, fcsr, each for
 *	lane 0 up
 *
 * GPRs four at a time through DSCRATCH0-3, then FPRs and fcsr three at a
 * time through x5, kept in DSCRATCH3.
 *
 * Return: 0 or a negative errno.
 */
int vortex_dmseq_warp_read_regs(struct vortex_dmseq_warp *ctx, u32 warp,
				u32 *out)
{
	u32 threads = ctx->dm->threads, i, n, r = 0;
	struct drm_vortex_debug_reg_op ops[GROUP];
	int ret;

	memset(ops, 0, sizeof(ops));
	for (i = 0; i < GROUP; i++)
		for (n = 0; n < threads; n++)
			ops[i].lanes[n / 32] |= VX_BIT(n % 32);

	ret = vortex_dmseq_warp_borrow(ctx, warp);
	for (; !ret && r < 32; r += GROUP) {
		for (i = 0; i < GROUP; i++)
			ops[i].reg = r + i;
		ret = vortex_dmseq_warp_read_group(ctx, ops, GROUP, ctx->rows);
		for (i = 0; !ret && i < GROUP; i++)
			memcpy(out + (r + i) * threads, ctx->rows[i], threads * sizeof(u32));
	}
	if (!ret)
		ret = inject_all(ctx->dm, RV32_CSRW(VX_CSR_DSCRATCH(TMP_SAVE), TMP));
	if (!ret) {
		for (n = 0; !ret && n < 33; n += 3)
			ret = read_fp_group(ctx, n, 33 - n < 3 ? 33 - n : 3,
					    out + (32 + n) * threads);
		/* x5 back from DSCRATCH3, where it was saved */
		ret = tmp_restore(ctx->dm, ret);
	}
	vortex_dmseq_warp_restore(ctx);
	return ret;
}

/*
 * The store path of a whole warp (vortex_warp.c, "Registers of a whole warp
 * for a crash dump"): every lane stores its registers to its slot of a
 * memory area, x5 the pointer and x6 a temporary, kept in DSCRATCH3/2.
 */
#define BULK_PTR	5
#define BULK_TMP	6
#define BULK_SLOT_SHIFT	9	/* 512 bytes per lane: 65 words, padded */
#define BULK_FCSR	(2 * 32)

/**
 * vortex_dmseq_warp_store_size() - bytes of memory the store path needs
 * @threads: lanes per warp
 *
 * Return: the size of the store area for a warp of @threads lanes.
 */
u32 vortex_dmseq_warp_store_size(u32 threads)
{
	return threads << BULK_SLOT_SHIFT;
}

/**
 * vortex_dmseq_warp_store_regs() - every lane of @warp stores its registers
 * @dm: the DM
 * @warp: global warp id, halted
 * @area: virtual address, in the warp's space, of the area
 *
 * About 75 injections whatever the warp's width.  Clobbers x5, x6 and
 * DSCRATCH2-3 of every lane: only for a card reset next.
 *
 * Return: 0 or a negative errno.
 */
int vortex_dmseq_warp_store_regs(struct vortex_dmseq *dm, u32 warp, u32 area)
{
	u32 hi = (area + 0x800) >> 12, lo = area - (hi << 12), r;
	const u32 setup[] = {
		RV32_CSRW(VX_CSR_DSCRATCH(3), BULK_PTR),
		RV32_CSRW(VX_CSR_DSCRATCH(2), BULK_TMP),
		RV32_CSRR(BULK_PTR, VX_CSR_THREAD_ID),
		RV32_SLLI(BULK_PTR, BULK_PTR, BULK_SLOT_SHIFT),
		RV32_LUI(BULK_TMP, hi & 0xfffff),
		RV32_ADDI(BULK_TMP, BULK_TMP, lo),
		RV32_ADD(BULK_PTR, BULK_PTR, BULK_TMP),
	};
	int ret;

	ret = vortex_dmseq_warp_check(dm, warp, true);
	if (ret)
		return ret;
	vortex_dmseq_select(dm, warp, 0);
	for (r = 0; !ret && r < ARRAY_SIZE(setup); r++)
		ret = inject_all(dm, setup[r]);
	for (r = 1; !ret && r < 32; r++)
		if (r != BULK_PTR && r != BULK_TMP)
			ret = inject_all(dm, RV32_SW(r, BULK_PTR, 4 * r));
	/* the pointer and the temporary, from where they were kept */
	if (!ret)
		ret = inject_all(dm, RV32_CSRR(BULK_TMP, VX_CSR_DSCRATCH(3))) ?:
		      inject_all(dm, RV32_SW(BULK_TMP, BULK_PTR, 4 * BULK_PTR)) ?:
		      inject_all(dm, RV32_CSRR(BULK_TMP, VX_CSR_DSCRATCH(2))) ?:
		      inject_all(dm, RV32_SW(BULK_TMP, BULK_PTR, 4 * BULK_TMP));
	for (r = 0; !ret && r < 32; r++)
		ret = inject_all(dm, RV32_FSW(r, BULK_PTR, 4 * (32 + r)));
	if (!ret)
		ret = inject_all(dm, RV32_CSRR(BULK_TMP, RV32_CSR_FCSR)) ?:
		      inject_all(dm, RV32_SW(BULK_TMP, BULK_PTR, 4 * BULK_FCSR));
	return ret;
}

/**
 * vortex_dmseq_warp_unpack() - the store area in vortex_dmseq_warp_read_regs()'s layout
 * @slots: the area, as vortex_dmseq_warp_store_regs() left it
 * @threads: lanes per warp
 * @out: as for vortex_dmseq_warp_read_regs()
 */
void vortex_dmseq_warp_unpack(const u32 *slots, u32 threads, u32 *out)
{
	u32 lane, r;

	for (lane = 0; lane < threads; lane++) {
		const u32 *slot = slots + (lane << (BULK_SLOT_SHIFT - 2));

		out[lane] = 0;	/* x0 */
		for (r = 1; r < VORTEX_WARP_REGS; r++)
			out[r * threads + lane] = slot[r];
	}
}
