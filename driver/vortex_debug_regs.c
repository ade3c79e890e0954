// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Registers of halted warps
 *
 * The Debug Module has no register file port: a register is read by
 * injecting ``csrw dscratchN, xR`` into the warp and reading the lane's
 * DSCRATCHN through the DM, and written the other way round (the spec's
 * intended use).  FPRs and CSRs go through x5, which is saved in
 * DSCRATCH3 first and restored last.
 *
 * To stay cheap on whole warps, the injections use DCTRL.injectwarp (every
 * lane at once), and up to four consecutive GPR reads of one warp share
 * one pass over its lanes, one DSCRATCH each.  Injecting into every lane
 * clobbers every lane's DSCRATCH0-3, so the first access to a warp in a
 * batch saves all of them and the end of the batch (or the switch to
 * another warp) restores them: a debugger never sees a borrowed value.
 */

#include <linux/slab.h>
#include <linux/uaccess.h>

#include "vortex_accel.h"
#include "vortex_debug.h"
#include "vortex_device.h"
#include "vortex_dm.h"
#include "vortex_dump.h"

/* RV32 encodings the driver injects. */
#define RV_CSRRW(rd, csr, rs1) \
	((u32)(csr) << 20 | (rs1) << 15 | 1 << 12 | (rd) << 7 | 0x73)
#define RV_CSRRS(rd, csr, rs1) \
	((u32)(csr) << 20 | (rs1) << 15 | 2 << 12 | (rd) << 7 | 0x73)
#define RV_CSRR(rd, csr)	RV_CSRRS(rd, csr, 0)
#define RV_CSRW(csr, rs1)	RV_CSRRW(0, csr, rs1)
#define RV_FMV_X_W(rd, fs)	(0x70u << 25 | (fs) << 15 | (rd) << 7 | 0x53)
#define RV_FMV_W_X(fd, rs)	(0x78u << 25 | (rs) << 15 | (fd) << 7 | 0x53)
#define RV_ITYPE(op, f3, rd, rs1, imm) \
	(((u32)(imm) & 0xfff) << 20 | (rs1) << 15 | (f3) << 12 | (rd) << 7 | (op))
#define RV_ADDI(rd, rs1, imm)	RV_ITYPE(0x13, 0, rd, rs1, imm)
#define RV_SLLI(rd, rs1, sh)	RV_ITYPE(0x13, 1, rd, rs1, sh)
#define RV_LUI(rd, imm20)	((u32)(imm20) << 12 | (rd) << 7 | 0x37)
#define RV_ADD(rd, rs1, rs2)	((rs2) << 20 | (rs1) << 15 | (rd) << 7 | 0x33)
static inline u32 rv_stype(u32 op, u32 rs2, u32 rs1, u32 imm)
{
	return (imm >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | 2 << 12 |
	       (imm & 0x1f) << 7 | op;
}

#define RV_STYPE(op, rs2, rs1, imm)	rv_stype(op, rs2, rs1, imm)
#define RV_SW(rs2, rs1, imm)	RV_STYPE(0x23, rs2, rs1, imm)
#define RV_FSW(fs2, rs1, imm)	RV_STYPE(0x27, fs2, rs1, imm)

/* The GPR borrowed to move FPRs and CSRs, and where it is kept meanwhile. */
#define TMP		5
#define TMP_SAVE	3

#define NO_WARP		(~0u)
#define GROUP		4	/* DSCRATCH0-3: GPR reads sharing one pass */

/**
 * struct vortex_regs_ctx - a batch's borrowed warp
 */
struct vortex_regs_ctx {
	/** @vdev: the device */
	struct vortex_device *vdev;
	/** @warp: warp whose DSCRATCHes are saved in @saved, or NO_WARP */
	u32 warp;
	/** @threads: lanes per warp */
	u32 threads;
	/** @scratch_lost: the card is reset next, DSCRATCH need not survive */
	bool scratch_lost;
	/** @saved: DSCRATCH0-3 of each lane of @warp */
	u32 saved[VX_DM_MAX_THREADS][4];
};

/* A batch context and its value rows, or NULL. */
static struct vortex_regs_ctx *vortex_regs_ctx_alloc(struct vortex_device *vdev,
						     gfp_t gfp,
						     u32 (**vals)[VX_DM_MAX_THREADS])
{
	struct vortex_regs_ctx *ctx = kzalloc(sizeof(*ctx), gfp);

	*vals = kcalloc(GROUP, sizeof(**vals), gfp);
	if (!ctx || !*vals) {
		kfree(ctx);
		kfree(*vals);
		return NULL;
	}
	ctx->vdev = vdev;
	ctx->warp = NO_WARP;
	ctx->threads = vdev->num_threads;
	return ctx;
}

static void vortex_regs_restore(struct vortex_regs_ctx *ctx)
{
	u32 lane, k;

	if (ctx->warp == NO_WARP)
		return;
	for (lane = 0; lane < ctx->threads && !ctx->scratch_lost; lane++) {
		vortex_dm_select(ctx->vdev, ctx->warp, lane);
		for (k = 0; k < 4; k++)
			vortex_dm_write(ctx->vdev, VX_DM_DSCRATCH(k), ctx->saved[lane][k]);
	}
	ctx->warp = NO_WARP;
}

/* Saves the DSCRATCHes of @warp, which must exist and be halted. */
static int vortex_regs_borrow(struct vortex_regs_ctx *ctx, u32 warp)
{
	u32 lane, k;
	int ret;

	if (ctx->warp == warp)
		return 0;
	ret = vortex_debug_check_warp(ctx->vdev, warp, true);
	if (ret)
		return ret;
	vortex_regs_restore(ctx);
	for (lane = 0; lane < ctx->threads && !ctx->scratch_lost; lane++) {
		vortex_dm_select(ctx->vdev, warp, lane);
		for (k = 0; k < 4; k++)
			ctx->saved[lane][k] = vortex_dm_read(ctx->vdev, VX_DM_DSCRATCH(k));
	}
	ctx->warp = warp;
	return 0;
}

static bool lane_set(const u32 *lanes, u32 lane)
{
	return lanes[lane / 32] & BIT(lane % 32);
}

/* Validates one op; @n receives the number of lanes it names. */
static int vortex_regs_check(struct vortex_regs_ctx *ctx,
			     const struct drm_vortex_debug_reg_op *op, u32 *n)
{
	u32 w, i;

	if (op->pad || op->flags & ~DRM_VORTEX_DEBUG_REG_WRITE)
		return -EINVAL;
	if (op->reg >= DRM_VORTEX_DEBUG_REG_F(32) &&
	    (op->reg < DRM_VORTEX_DEBUG_REG_CSR(0) ||
	     op->reg > DRM_VORTEX_DEBUG_REG_CSR(0xfff)) &&
	    op->reg != DRM_VORTEX_DEBUG_REG_PC)
		return -ERANGE;
	if (op->warp >= vortex_device_total_warps(ctx->vdev))
		return -ERANGE;
	*n = 0;
	for (w = 0; w < 4; w++) {
		for (i = 0; i < 32; i++)
			if (op->lanes[w] & BIT(i) && w * 32 + i >= ctx->threads)
				return -ERANGE;
		*n += hweight32(op->lanes[w]);
	}
	return *n ? 0 : -EINVAL;
}

static bool is_gpr(u32 reg)
{
	return reg < DRM_VORTEX_DEBUG_REG_F(0);
}

/* x5 of every lane to DSCRATCH3, then the FPR or CSR into x5. */
static int vortex_regs_tmp_load(struct vortex_regs_ctx *ctx, u32 reg)
{
	int ret = vortex_dm_inject(ctx->vdev, RV_CSRW(VX_CSR_DSCRATCH(TMP_SAVE), TMP),
				   true);

	if (ret)
		return ret;
	if (is_gpr(reg))
		return 0;
	if (reg < DRM_VORTEX_DEBUG_REG_CSR(0))
		return vortex_dm_inject(ctx->vdev,
					RV_FMV_X_W(TMP, reg - DRM_VORTEX_DEBUG_REG_F(0)),
					true);
	return vortex_dm_inject(ctx->vdev,
				RV_CSRR(TMP, reg - DRM_VORTEX_DEBUG_REG_CSR(0)), true);
}

/* Puts x5 back from DSCRATCH3; keeps the first error. */
static int vortex_regs_tmp_restore(struct vortex_regs_ctx *ctx, int ret)
{
	int r = vortex_dm_inject(ctx->vdev, RV_CSRR(TMP, VX_CSR_DSCRATCH(TMP_SAVE)),
				 true);

	return ret ?: r;
}

/* Copies register @reg of every lane into each lane's DSCRATCH @k. */
static int vortex_regs_to_scratch(struct vortex_regs_ctx *ctx, u32 reg, u32 k)
{
	int ret;

	if (is_gpr(reg))
		return vortex_dm_inject(ctx->vdev, RV_CSRW(VX_CSR_DSCRATCH(k), reg),
					true);
	ret = vortex_regs_tmp_load(ctx, reg);
	if (!ret)
		ret = vortex_dm_inject(ctx->vdev,
				       RV_CSRW(VX_CSR_DSCRATCH(k), TMP), true);
	return vortex_regs_tmp_restore(ctx, ret);
}

/* Register @reg of every lane from each lane's DSCRATCH0. */
static int vortex_regs_from_scratch(struct vortex_regs_ctx *ctx, u32 reg)
{
	int ret;

	if (is_gpr(reg))
		return vortex_dm_inject(ctx->vdev, RV_CSRR(reg, VX_CSR_DSCRATCH(0)),
					true);
	ret = vortex_dm_inject(ctx->vdev, RV_CSRW(VX_CSR_DSCRATCH(TMP_SAVE), TMP),
			       true);
	if (ret)
		return ret;
	ret = vortex_dm_inject(ctx->vdev, RV_CSRR(TMP, VX_CSR_DSCRATCH(0)), true);
	if (!ret) {
		if (reg < DRM_VORTEX_DEBUG_REG_CSR(0))
			ret = vortex_dm_inject(ctx->vdev,
					       RV_FMV_W_X(reg - DRM_VORTEX_DEBUG_REG_F(0), TMP),
					       true);
		else
			ret = vortex_dm_inject(ctx->vdev,
					       RV_CSRW(reg - DRM_VORTEX_DEBUG_REG_CSR(0), TMP),
					       true);
	}
	return vortex_regs_tmp_restore(ctx, ret);
}

/*
 * Reads @n ops (at most GROUP, same warp, all reads): register i goes
 * through DSCRATCH i, then one pass over the lanes collects them all.
 * x0 reads 0 without an injection.
 */
static int vortex_regs_read_group(struct vortex_regs_ctx *ctx,
				  const struct drm_vortex_debug_reg_op *ops,
				  u32 n, u32 (*vals)[VX_DM_MAX_THREADS])
{
	u32 i, lane, used[GROUP] = {};
	int ret;

	for (i = 0; i < n; i++) {
		if (ops[i].reg == DRM_VORTEX_DEBUG_REG_X(0))
			continue;
		ret = vortex_regs_to_scratch(ctx, ops[i].reg, i);
		if (ret)
			return ret;
	}
	for (lane = 0; lane < ctx->threads; lane++) {
		bool selected = false;

		for (i = 0; i < n; i++) {
			if (!lane_set(ops[i].lanes, lane))
				continue;
			if (ops[i].reg == DRM_VORTEX_DEBUG_REG_X(0)) {
				vals[i][used[i]++] = 0;
				continue;
			}
			if (!selected) {
				vortex_dm_select(ctx->vdev, ctx->warp, lane);
				selected = true;
			}
			vals[i][used[i]++] = vortex_dm_read(ctx->vdev, VX_DM_DSCRATCH(i));
		}
	}
	return 0;
}

/* Writes one op's values into its lanes; the other lanes keep theirs. */
static int vortex_regs_write(struct vortex_regs_ctx *ctx,
			     const struct drm_vortex_debug_reg_op *op,
			     const u32 *vals)
{
	u32 lane, used = 0;
	int ret;

	if (op->reg == DRM_VORTEX_DEBUG_REG_X(0))
		return 0;
	/* Lanes not written get their own value back. */
	ret = vortex_regs_to_scratch(ctx, op->reg, 0);
	if (ret)
		return ret;
	for (lane = 0; lane < ctx->threads; lane++) {
		if (!lane_set(op->lanes, lane))
			continue;
		vortex_dm_select(ctx->vdev, ctx->warp, lane);
		vortex_dm_write(ctx->vdev, VX_DM_DSCRATCH(0), vals[used++]);
	}
	return vortex_regs_from_scratch(ctx, op->reg);
}

/*
 * The PC is the warp's, through DPC: every lane reads it, a write takes
 * the first lane's value (the DM takes it while the warp is halted).
 */
static void vortex_regs_pc(struct vortex_regs_ctx *ctx,
			   const struct drm_vortex_debug_reg_op *op, u32 *vals,
			   u32 nlanes)
{
	u32 i, pc;

	vortex_dm_select(ctx->vdev, op->warp, 0);
	if (op->flags & DRM_VORTEX_DEBUG_REG_WRITE) {
		vortex_dm_write(ctx->vdev, VX_DM_DPC, vals[0]);
		return;
	}
	pc = vortex_dm_read(ctx->vdev, VX_DM_DPC);
	for (i = 0; i < nlanes; i++)
		vals[i] = pc;
}

/* How many ops from @ops[0] read GPRs of the same warp (at most GROUP). */
static u32 vortex_regs_group_len(const struct drm_vortex_debug_reg_op *ops, u32 n)
{
	u32 i;

	if (ops[0].flags & DRM_VORTEX_DEBUG_REG_WRITE ||
	    ops[0].reg == DRM_VORTEX_DEBUG_REG_PC)
		return 1;
	for (i = 1; i < n && i < GROUP; i++)
		if (ops[i].warp != ops[0].warp || !is_gpr(ops[i].reg) ||
		    !is_gpr(ops[0].reg) || ops[i].flags & DRM_VORTEX_DEBUG_REG_WRITE)
			break;
	return i;
}

/**
 * vortex_debug_regs() - DRM_VORTEX_DEBUG_IOCTL_REGS
 * @dbg: the session
 * @args: the batch; @args->done is set
 *
 * Return: 0 or a negative errno (uapi/vortex_accel.h).
 */
int vortex_debug_regs(struct vortex_debug *dbg, struct drm_vortex_debug_regs *args)
{
	struct drm_vortex_debug_reg_op __user *uops = u64_to_user_ptr(args->ops);
	struct vortex_device *vdev = dbg->vdev;
	struct drm_vortex_debug_reg_op *ops;
	u32 (*vals)[VX_DM_MAX_THREADS], (*group_vals)[VX_DM_MAX_THREADS];
	struct vortex_regs_ctx *ctx;
	u32 i, g, good, ran, *nlanes;
	int ret = 0, bad = 0;

	if (!args->count || args->done)
		return -EINVAL;
	if (args->count > DRM_VORTEX_DEBUG_MAX_REG_OPS)
		return -E2BIG;

	/*
	 * User memory in and out outside the DM lock, which is the card's:
	 * the ops and written values are copied in first, read values out
	 * after.  A bad op stops the batch there; those before it run.
	 */
	ops = memdup_array_user(uops, args->count, sizeof(*ops));
	if (IS_ERR(ops))
		return PTR_ERR(ops);
	ctx = vortex_regs_ctx_alloc(vdev, GFP_KERNEL_ACCOUNT, &group_vals);
	vals = kvcalloc(args->count, sizeof(*vals), GFP_KERNEL_ACCOUNT);
	nlanes = kvcalloc(args->count, sizeof(*nlanes), GFP_KERNEL_ACCOUNT);
	if (!ctx || !vals || !nlanes) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (good = 0; good < args->count; good++) {
		bad = vortex_regs_check(ctx, &ops[good], &nlanes[good]);
		if (!bad && ops[good].flags & DRM_VORTEX_DEBUG_REG_WRITE &&
		    copy_from_user(vals[good], u64_to_user_ptr(ops[good].values),
				   nlanes[good] * sizeof(u32)))
			bad = -EFAULT;
		if (bad)
			break;
	}

	mutex_lock(&vdev->dm.lock);
	if (!vortex_debug_on_card(dbg)) {
		ret = -ESRCH;
		goto out_unlock;
	}
	for (ran = 0; ran < good && !ret; ran += g) {
		g = vortex_regs_group_len(&ops[ran], good - ran);
		ret = vortex_regs_borrow(ctx, ops[ran].warp);
		if (ret)
			break;
		if (ops[ran].reg == DRM_VORTEX_DEBUG_REG_PC)
			vortex_regs_pc(ctx, &ops[ran], vals[ran], nlanes[ran]);
		else if (ops[ran].flags & DRM_VORTEX_DEBUG_REG_WRITE)
			ret = vortex_regs_write(ctx, &ops[ran], vals[ran]);
		else
			ret = vortex_regs_read_group(ctx, &ops[ran], g, &vals[ran]);
	}
	if (ret)
		good = ran;	/* the group that failed did not take effect */
	vortex_regs_restore(ctx);
out_unlock:
	mutex_unlock(&vdev->dm.lock);
	if (ret == -ESRCH)
		goto out_free;

	for (i = 0; i < good; i++) {
		if (!(ops[i].flags & DRM_VORTEX_DEBUG_REG_WRITE) &&
		    copy_to_user(u64_to_user_ptr(ops[i].values), vals[i],
				 nlanes[i] * sizeof(u32))) {
			ret = -EFAULT;
			break;
		}
		args->done++;
	}
	if (!ret && good < args->count)
		ret = bad;
out_free:
	kvfree(nlanes);
	kvfree(vals);
	kfree(group_vals);
	kfree(ctx);
	kfree(ops);
	return ret;
}

/*
 * Reads f@first .. f@first + @n - 1 (n <= 3; register 32 is fcsr) of every
 * lane, with x5 already saved in DSCRATCH3: each goes through x5 into
 * DSCRATCH k, then one pass over the lanes collects them.
 */
static int vortex_regs_read_fp_group(struct vortex_regs_ctx *ctx, u32 first,
				     u32 n, u32 *out)
{
	u32 k, lane, threads = ctx->threads;
	int ret;

	for (k = 0; k < n; k++) {
		u32 f = first + k;

		ret = vortex_dm_inject(ctx->vdev, f == 32 ? RV_CSRR(TMP, 0x003) :
				       RV_FMV_X_W(TMP, f), true) ?:
		      vortex_dm_inject(ctx->vdev, RV_CSRW(VX_CSR_DSCRATCH(k), TMP),
				       true);
		if (ret)
			return ret;
	}
	for (lane = 0; lane < threads; lane++) {
		vortex_dm_select(ctx->vdev, ctx->warp, lane);
		for (k = 0; k < n; k++)
			out[k * threads + lane] =
				vortex_dm_read(ctx->vdev, VX_DM_DSCRATCH(k));
	}
	return 0;
}

/**
 * vortex_warp_read_regs() - every register of every lane of a halted warp
 * @vdev: the device, DM lock held
 * @warp: global warp id, halted
 * @out: VORTEX_WARP_REGS x threads words: x0-x31, f0-f31, fcsr, each for
 *	lane 0 up
 * @reset_next: the card is reset right after (a recovery dump): the
 *	lanes' DSCRATCH CSRs need not be saved and restored
 *
 * For crash dumps: it runs in recovery, and allocates accordingly.
 *
 * Return: 0 or a negative errno.
 */
int vortex_warp_read_regs(struct vortex_device *vdev, u32 warp, u32 *out,
			  bool reset_next)
{
	u32 threads = vdev->num_threads, i, n, r = 0;
	struct drm_vortex_debug_reg_op ops[GROUP] = {};
	u32 (*vals)[VX_DM_MAX_THREADS];
	struct vortex_regs_ctx *ctx;
	int ret;

	ctx = vortex_regs_ctx_alloc(vdev, VORTEX_DUMP_GFP, &vals);
	if (!ctx)
		return -ENOMEM;
	ctx->scratch_lost = reset_next;
	for (i = 0; i < GROUP; i++)
		for (n = 0; n < threads; n++)
			ops[i].lanes[n / 32] |= BIT(n % 32);

	ret = vortex_regs_borrow(ctx, warp);
	/* x0-x31, four at a time through DSCRATCH0-3 */
	for (; !ret && r < 32; r += GROUP) {
		for (i = 0; i < GROUP; i++)
			ops[i].reg = r + i;
		ret = vortex_regs_read_group(ctx, ops, GROUP, vals);
		for (i = 0; !ret && i < GROUP; i++)
			memcpy(out + (r + i) * threads, vals[i], threads * sizeof(u32));
	}
	/* f0-f31 and fcsr, three at a time through x5, kept in DSCRATCH3 */
	if (!ret)
		ret = vortex_dm_inject(vdev, RV_CSRW(VX_CSR_DSCRATCH(TMP_SAVE), TMP), true);
	if (!ret) {
		for (n = 0; !ret && n < 33; n += 3)
			ret = vortex_regs_read_fp_group(ctx, n, min(3u, 33 - n),
							out + (32 + n) * threads);
		/* x5 back from DSCRATCH3, where it was saved */
		ret = vortex_regs_tmp_restore(ctx, ret);
	}
	vortex_regs_restore(ctx);
	kfree(vals);
	kfree(ctx);
	return ret;
}

/**
 * DOC: Registers of a whole warp for a crash dump
 *
 * Reading a register through DSCRATCH costs two DM accesses per lane,
 * which on a large card (a 4,8,32,32 card has 2 million lane registers)
 * is seconds.  When the card is reset right after, the dump has the warp
 * store its own registers instead: every lane computes its slot in a
 * VRAM area the driver keeps for this (vortex_dump_init()) from its thread
 * id, and each injected ``sw``/``fsw`` writes
 * one register of every lane at once.  About 75 injections per warp,
 * whatever its width, then one copy out of the BAR.  x5 and x6 serve as
 * the pointer and a temporary (their values are kept in DSCRATCH3 and
 * DSCRATCH2 and stored from there); the lanes' DSCRATCHes and the two
 * registers are not given back, which is why this is only for reset_next.
 *
 * Injected stores go through the warp's translation, so the area is
 * reachable only while the dump maps it into the job's address space (the
 * dump window, vortex_vm_window_map()); no space maps it otherwise, and
 * the card is frozen under the driver's control all that time.
 */

#define BULK_PTR	5
#define BULK_TMP	6
#define BULK_SLOT_SHIFT	9	/* 512 bytes per lane: 65 words, padded */
#define BULK_FCSR	(2 * 32)

/**
 * vortex_warp_dump_regs_size() - bytes of VRAM the store path needs
 * @threads: lanes per warp
 *
 * Return: the size of the store area for a warp of @threads lanes.
 */
u32 vortex_warp_dump_regs_size(u32 threads)
{
	return threads << BULK_SLOT_SHIFT;
}

static int vortex_warp_store_regs(struct vortex_device *vdev, u32 area)
{
	u32 hi = (area + 0x800) >> 12, lo = area - (hi << 12), r;
	const u32 setup[] = {
		RV_CSRW(VX_CSR_DSCRATCH(3), BULK_PTR),
		RV_CSRW(VX_CSR_DSCRATCH(2), BULK_TMP),
		RV_CSRR(BULK_PTR, VX_CSR_THREAD_ID),
		RV_SLLI(BULK_PTR, BULK_PTR, BULK_SLOT_SHIFT),
		RV_LUI(BULK_TMP, hi & 0xfffff),
		RV_ADDI(BULK_TMP, BULK_TMP, lo),
		RV_ADD(BULK_PTR, BULK_PTR, BULK_TMP),
	};
	int ret = 0;

	for (r = 0; !ret && r < ARRAY_SIZE(setup); r++)
		ret = vortex_dm_inject(vdev, setup[r], true);
	for (r = 1; !ret && r < 32; r++)
		if (r != BULK_PTR && r != BULK_TMP)
			ret = vortex_dm_inject(vdev, RV_SW(r, BULK_PTR, 4 * r), true);
	/* the pointer and the temporary, from where they were kept */
	if (!ret)
		ret = vortex_dm_inject(vdev, RV_CSRR(BULK_TMP, VX_CSR_DSCRATCH(3)), true) ?:
		      vortex_dm_inject(vdev, RV_SW(BULK_TMP, BULK_PTR, 4 * BULK_PTR), true) ?:
		      vortex_dm_inject(vdev, RV_CSRR(BULK_TMP, VX_CSR_DSCRATCH(2)), true) ?:
		      vortex_dm_inject(vdev, RV_SW(BULK_TMP, BULK_PTR, 4 * BULK_TMP), true);
	for (r = 0; !ret && r < 32; r++)
		ret = vortex_dm_inject(vdev, RV_FSW(r, BULK_PTR, 4 * (32 + r)), true);
	if (!ret)
		ret = vortex_dm_inject(vdev, RV_CSRR(BULK_TMP, 0x003), true) ?:
		      vortex_dm_inject(vdev, RV_SW(BULK_TMP, BULK_PTR, 4 * BULK_FCSR), true);
	return ret;
}

/**
 * vortex_warp_dump_regs() - vortex_warp_read_regs() for a card reset next
 * @vdev: the device, DM lock held
 * @warp: global warp id, halted
 * @area: virtual address, in the warp's space, of the area
 * @vram_offset: VRAM offset of the same vortex_warp_dump_regs_size() bytes
 * @out: as for vortex_warp_read_regs()
 *
 * Clobbers x5, x6 and DSCRATCH2-3 of every lane (see the DOC above).
 *
 * Return: 0 or a negative errno.
 */
int vortex_warp_dump_regs(struct vortex_device *vdev, u32 warp, u32 area,
			  u64 vram_offset, u32 *out)
{
	u32 threads = vdev->num_threads, size = vortex_warp_dump_regs_size(threads);
	u32 lane, r, *slots;
	int ret;

	ret = vortex_debug_check_warp(vdev, warp, true);
	if (ret)
		return ret;
	slots = kvmalloc(size, VORTEX_DUMP_GFP);
	if (!slots)
		return -ENOMEM;
	vortex_dm_select(vdev, warp, 0);
	ret = vortex_warp_store_regs(vdev, area);
	if (!ret) {
		memcpy_fromio(slots, vdev->vram + vram_offset, size);
		for (lane = 0; lane < threads; lane++) {
			const u32 *slot = slots + (lane << (BULK_SLOT_SHIFT - 2));

			out[lane] = 0;	/* x0 */
			for (r = 1; r < VORTEX_WARP_REGS; r++)
				out[r * threads + lane] = slot[r];
		}
	}
	kvfree(slots);
	return ret;
}

/* ---------------------------------------------------------- status */

/**
 * vortex_warp_status() - what only injection can read of a halted warp
 * @vdev: the device, DM lock held
 * @st: @st->warp names the warp; fills cause, PC, thread mask, block
 *
 * Reads lane 0; the DSCRATCH0/3 and x5 it borrows are restored.
 *
 * Return: 0 or a negative errno.
 */
int vortex_warp_status(struct vortex_device *vdev,
		       struct drm_vortex_debug_warp_state *st)
{
	static const u32 csrs[] = {
		VX_CSR_ACTIVE_THREADS, VX_CSR_BLOCK_IDX(0), VX_CSR_BLOCK_IDX(1),
		VX_CSR_BLOCK_IDX(2), VX_CSR_WARP_IN_BLOCK,
	};
	u32 vals[ARRAY_SIZE(csrs)], save0, save3, i;
	int ret, r;

	vortex_dm_select(vdev, st->warp, 0);
	st->cause = VX_DCTRL_HACAUSE(vortex_dm_read(vdev, VX_DM_DCTRL));
	st->pc = vortex_dm_read(vdev, VX_DM_DPC);

	save0 = vortex_dm_read(vdev, VX_DM_DSCRATCH(0));
	save3 = vortex_dm_read(vdev, VX_DM_DSCRATCH(TMP_SAVE));
	ret = vortex_dm_inject(vdev, RV_CSRW(VX_CSR_DSCRATCH(TMP_SAVE), TMP), false);
	if (ret)
		goto out;
	for (i = 0; i < ARRAY_SIZE(csrs) && !ret; i++) {
		ret = vortex_dm_inject(vdev, RV_CSRR(TMP, csrs[i]), false) ?:
		      vortex_dm_inject(vdev, RV_CSRW(VX_CSR_DSCRATCH(0), TMP), false);
		vals[i] = vortex_dm_read(vdev, VX_DM_DSCRATCH(0));
	}
	r = vortex_dm_inject(vdev, RV_CSRR(TMP, VX_CSR_DSCRATCH(TMP_SAVE)), false);
	ret = ret ?: r;
	if (!ret) {
		/* The CSR holds lanes 0-31; wider warps' upper lanes read 0. */
		st->thread_mask[0] = vals[0];
		memcpy(st->block_idx, &vals[1], sizeof(st->block_idx));
		st->warp_in_block = vals[4];
	}
out:
	vortex_dm_write(vdev, VX_DM_DSCRATCH(0), save0);
	vortex_dm_write(vdev, VX_DM_DSCRATCH(TMP_SAVE), save3);
	return ret;
}

/**
 * vortex_debug_status() - DRM_VORTEX_DEBUG_IOCTL_STATUS
 * @dbg: the session
 * @args: the request; @args->count becomes the number filled
 *
 * Return: 0 or a negative errno (uapi/vortex_accel.h).
 */
int vortex_debug_status(struct vortex_debug *dbg,
			struct drm_vortex_debug_status *args)
{
	struct vortex_device *vdev = dbg->vdev;
	struct drm_vortex_debug_warp_state st, *sts;
	u32 total = vortex_device_total_warps(vdev), per_cluster, i = 0, n,
	    active = 0, halted = 0;
	int ret = 0;

	if (args->flags || args->stride < sizeof(st) || args->stride > SZ_4K)
		return -EINVAL;
	if (!args->count)
		return -EINVAL;
	if (args->count > DRM_VORTEX_DEBUG_STATUS_MAX)
		return -E2BIG;
	if (args->first >= total)
		return -ERANGE;
	args->count = min(args->count, total - args->first);
	per_cluster = vdev->num_cores * vdev->num_warps;
	/* Filled under the DM lock, copied out after: user memory may stall. */
	sts = kvcalloc(args->count, sizeof(*sts), GFP_KERNEL_ACCOUNT);
	if (!sts)
		return -ENOMEM;

	mutex_lock(&vdev->dm.lock);
	if (!vortex_debug_on_card(dbg)) {
		ret = -ESRCH;
		goto out_unlock;
	}

	for (i = 0; i < args->count; i++) {
		u32 w = args->first + i;

		if (i == 0 || w % 32 == 0) {
			active = vortex_dm_window(vdev, VX_DM_WACTIVE, w / 32);
			halted = vortex_dm_window(vdev, VX_DM_WSTATUS, w / 32);
		}
		memset(&st, 0, sizeof(st));
		st.warp = w;
		st.cluster = w / per_cluster;
		st.core = w % per_cluster / vdev->num_warps;
		st.warp_in_core = w % vdev->num_warps;
		if (active & BIT(w % 32))
			st.state |= DRM_VORTEX_DEBUG_WARP_ACTIVE;
		if (halted & BIT(w % 32)) {
			st.state |= DRM_VORTEX_DEBUG_WARP_HALTED;
			ret = vortex_warp_status(vdev, &st);
			if (ret)
				break;
			if (vortex_debug_on_breakpoint(dbg, st.pc))
				st.state |= DRM_VORTEX_DEBUG_WARP_ON_BREAKPOINT;
		}
		sts[i] = st;
	}
out_unlock:
	mutex_unlock(&vdev->dm.lock);
	n = ret == -ESRCH ? 0 : i;
	for (i = 0; i < n; i++) {
		void __user *rec = u64_to_user_ptr(args->states) + (u64)i * args->stride;

		/* Longer records from newer userspace: the tail is zeroed. */
		if (copy_to_user(rec, &sts[i], sizeof(st)) ||
		    clear_user(rec + sizeof(st), args->stride - sizeof(st))) {
			ret = -EFAULT;
			break;
		}
	}
	args->count = i;
	kvfree(sts);
	return ret;
}
