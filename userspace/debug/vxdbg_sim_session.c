// SPDX-License-Identifier: MIT
/*
 * The simulator backend's session: the driver's debug ioctls
 * (driver/vortex_debug.c, vortex_debug_regs.c) over the simulated Debug
 * Module, with the same validation order and errnos, so the API layer
 * above cannot tell the backends apart.  Every Debug Module sequence is
 * the driver's own (dbgcore/vortex_dmseq.c, compiled into this library too):
 * what this file adds is what the driver adds around them, user memory
 * in and out, whether the target's job is on the card, breakpoints in
 * VRAM and the events.
 *
 * What the sim cannot see, it approximates: a user pointer of 0 (or
 * below 4096) is -EFAULT.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vxdbg_sim_internal.h"

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

static bool card_failed(struct sim_session *d)
{
	return vx_sim_mmio_read(d->s->sim, VX_REG_STATUS) & VX_STATUS_ERROR;
}

/* ------------------------------------- hooks of the DM sequences */

static bool seq_any_bp(void *priv)
{
	return ((struct sim_session *)priv)->nbps;
}

static void *seq_find_bp(void *priv, uint32_t pc)
{
	return sim_bp_find(priv, pc);
}

/* A step over a breakpoint: the original word for the step, then ebreak. */
static void seq_poke_bp(void *priv, void *bp, bool orig)
{
	struct sim_bp *b = bp;

	*vram_word(priv, b->addr) = orig ? b->orig : VORTEX_EBREAK;
}

static bool seq_card_failed(void *priv)
{
	return card_failed(priv);
}

static void seq_card_reset(void *priv)
{
	sim_card_reset(((struct sim_session *)priv)->s);
}

const struct vortex_dmseq_session_ops sim_session_seq_ops = {
	.any_bp = seq_any_bp,
	.find_bp = seq_find_bp,
	.poke_bp = seq_poke_bp,
	.card_failed = seq_card_failed,
	.card_reset = seq_card_reset,
};

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
	vortex_dmseq_raw_begin(&s->dm);
	for (uint32_t i = 0; i < a->count && !ret; i++) {
		if (ops[i].pad || ops[i].flags & ~DRM_VORTEX_DEBUG_DM_WRITE)
			ret = -EINVAL;
		else if (ops[i].reg >= VX_DM_NREGS)
			ret = -ERANGE;
		else if (!(ops[i].flags & DRM_VORTEX_DEBUG_DM_WRITE))
			ops[i].value = vortex_dmseq_read(&s->dm, ops[i].reg);
		else if (vortex_dmseq_raw_write(&s->dm, ops[i].reg, ops[i].value))
			sim_ndmreset(s);
	}
	vortex_dmseq_raw_end(&s->dm);
	return ret;
}

/* ------------------------------------------------------------ WARPS */

static int sim_warps(struct vxdbg_backend *be, struct drm_vortex_debug_warps *a)
{
	struct sim_session *d = to_session(be);
	struct vxdbg_sim *s = d->s;
	uint32_t mask[VX_DM_MAX_WARPS / 32] = { 0 };
	bool resumed;
	int ret;

	if (a->pad || a->flags & ~DRM_VORTEX_DEBUG_WARPS_ALL ||
	    a->op > DRM_VORTEX_DEBUG_WARPS_HALT_AT_START)
		return -EINVAL;
	if (!(a->flags & DRM_VORTEX_DEBUG_WARPS_ALL) &&
	    a->mask_words > vortex_dmseq_windows(&s->dm))
		return -E2BIG;
	if (a->flags & DRM_VORTEX_DEBUG_WARPS_ALL) {
		vortex_dmseq_mask_all(&s->dm, mask, true);
	} else if (a->mask_words) {
		if (bad_ptr(a->mask))
			return -EFAULT;
		memcpy(mask, (void *)(uintptr_t)a->mask, a->mask_words * 4);
		ret = vortex_dmseq_mask_check(&s->dm, mask, a->mask_words);
		if (ret)
			return ret;
	}
	if (a->op == DRM_VORTEX_DEBUG_WARPS_HALT_AT_START) {
		d->halt_at_start = a->flags & DRM_VORTEX_DEBUG_WARPS_ALL;
		return 0;
	}
	if (!on_card(d))
		return -ESRCH;
	if (a->op == DRM_VORTEX_DEBUG_WARPS_HALT)
		return vortex_dmseq_halt(&d->seq, mask);
	/* RESUME: a frozen card ends the job instead. */
	if (d->frozen) {
		sim_job_end(s, -EIO);
		sim_card_reset(s);
		return 0;
	}
	return vortex_dmseq_resume(&d->seq, mask, &resumed);
}

/* ------------------------------------------------------------- STEP */

static int sim_step(struct vxdbg_backend *be, struct drm_vortex_debug_step *a)
{
	struct sim_session *d = to_session(be);
	struct drm_vortex_debug_step args = *a;
	int ret;

	if (a->flags || !a->count)
		return -EINVAL;
	if (a->count > DRM_VORTEX_DEBUG_MAX_STEPS)
		return -E2BIG;
	if (!on_card(d))
		return -ESRCH;
	ret = vortex_dmseq_step(&d->seq, &args);
	if (!ret)
		*a = args;
	return ret;
}

/* ----------------------------------------------------------- STATUS */

static int sim_status(struct vxdbg_backend *be, struct drm_vortex_debug_status *a)
{
	struct sim_session *d = to_session(be);
	struct vxdbg_sim *s = d->s;
	struct drm_vortex_debug_warp_state *sts;
	uint32_t total = sim_total_warps(s), i, n;
	int ret;

	if (a->flags || check_stride(a->stride, sizeof(*sts)) || !a->count)
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
	sts = calloc(a->count, sizeof(*sts));
	if (!sts)
		return -ENOMEM;
	ret = vortex_dmseq_status(&d->seq, a->first, a->count, sts, &n);
	for (i = 0; i < n; i++) {
		char *rec = (char *)(uintptr_t)a->states + (uint64_t)i * a->stride;

		memcpy(rec, &sts[i], sizeof(*sts));
		memset(rec + sizeof(*sts), 0, a->stride - sizeof(*sts));
	}
	free(sts);
	a->count = n;
	return ret;
}

/* ------------------------------------------------------------- REGS */

/*
 * vortex_debug_regs(): every op checked and the written values copied in
 * first, the batch run up to the first bad op, read values copied out.
 */
static int sim_regs(struct vxdbg_backend *be, struct drm_vortex_debug_regs *a)
{
	struct sim_session *d = to_session(be);
	struct drm_vortex_debug_reg_op *ops;
	uint32_t (*vals)[VX_DM_MAX_THREADS] = NULL, *nlanes = NULL, good, ran;
	struct vortex_dmseq_warp *ctx = NULL;
	int ret, bad = 0;

	a->done = 0;
	ops = copy_entries(a->ops, a->count, a->flags, a->stride, DRM_VORTEX_DEBUG_MAX_REG_OPS,
			   sizeof(*ops), &ret);
	if (!ops)
		return ret;
	ret = -ESRCH;
	if (!on_card(d))
		goto out;
	ctx = malloc(sizeof(*ctx));
	vals = calloc(a->count, sizeof(*vals));
	nlanes = calloc(a->count, sizeof(*nlanes));
	ret = -ENOMEM;
	if (!ctx || !vals || !nlanes)
		goto out;
	vortex_dmseq_warp_init(ctx, &d->s->dm);
	for (good = 0; good < a->count; good++) {
		const struct drm_vortex_debug_reg_op *op = &ops[good];

		bad = vortex_dmseq_reg_op_check(&d->s->dm, op, &nlanes[good]);
		if (!bad && bad_ptr(op->values))
			bad = -EFAULT;
		if (bad)
			break;
		if (op->flags & DRM_VORTEX_DEBUG_REG_WRITE)
			memcpy(vals[good], (void *)(uintptr_t)op->values, nlanes[good] * 4);
	}
	ret = vortex_dmseq_regs(ctx, ops, good, vals, nlanes, &ran);
	for (a->done = 0; a->done < ran; a->done++)
		if (!(ops[a->done].flags & DRM_VORTEX_DEBUG_REG_WRITE))
			memcpy((void *)(uintptr_t)ops[a->done].values, vals[a->done],
			       nlanes[a->done] * 4);
	if (!ret && ran < a->count)
		ret = bad;
out:
	free(nlanes);
	free(vals);
	free(ctx);
	free(ops);
	return ret;
}

/* -------------------------------------------------------------- MEM */

/* Breakpoints are invisible: reads see, writes change, the kept word. */
static void mem_hide_bps(struct sim_session *d, uint64_t addr, uint8_t *buf,
			 uint32_t n, bool write)
{
	static const uint32_t ebreak = VORTEX_EBREAK;

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
		*word = VORTEX_EBREAK;
		return 0;
	}
	if (!bp)
		return -ENOENT;
	if (*word == VORTEX_EBREAK)
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
	vortex_dmseq_event_pop(&d->evq, ev);
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
