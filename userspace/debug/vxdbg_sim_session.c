// SPDX-License-Identifier: MIT
/*
 * The simulator backend's session: the driver's debug ioctls
 * (driver/vortex_debug.c, vortex_debug_regs.c) over the simulated Debug
 * Module, with the same validation order and errnos, so the API layer
 * above cannot tell the backends apart.  Every Debug Module sequence,
 * every check of a call's arguments and the breakpoint table are the
 * driver's own (dbgcore/, compiled into this library too): what this file
 * adds is what the driver adds around them, user memory in and out,
 * whether the target's job is on the card, where an address lies (VRAM,
 * at its device address) and the events.
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

/*
 * A REGS, MEM or BREAKPOINT header checked and its entries gathered at
 * @size bytes each, as the driver's vortex_debug_batch_in() does: the
 * header by vortex_dmseq_batch_check(), then every byte past @size zero
 * (-E2BIG).  Returns the array (free() it) or NULL with *@err set.
 */
static void *copy_entries(uint64_t uptr, uint32_t count, uint32_t flags, uint32_t stride,
			  uint32_t max, size_t size, int *err)
{
	const uint8_t *src = (const uint8_t *)(uintptr_t)uptr;
	uint8_t *ents;

	*err = vortex_dmseq_batch_check(flags, count, stride, max, size);
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

static bool card_failed(struct sim_session *d)
{
	return vx_sim_mmio_read(d->s->sim, VX_REG_STATUS) & VX_STATUS_ERROR;
}

/* ------------------------------------- hooks of the DM sequences */

static bool seq_card_failed(void *priv)
{
	return card_failed(priv);
}

static void seq_card_reset(void *priv)
{
	sim_card_reset(((struct sim_session *)priv)->s);
}

const struct vortex_dmseq_session_ops sim_session_seq_ops = {
	.card_failed = seq_card_failed,
	.card_reset = seq_card_reset,
};

/*
 * The breakpoints' memory: the target's addresses are the card's device
 * addresses, VRAM holds nobody else's buffers, so nothing is held.  The
 * dbgcore types (u64 is not uint64_t on every host).
 */
static int bp_resolve(void *priv, u64 addr, u64 *where, void **ref)
{
	if (!sim_in_vram(priv, addr, 4))
		return -ENXIO;
	*where = addr;
	*ref = NULL;
	return 0;
}

static void bp_release(void *priv, void *ref)
{
}

static u32 bp_read_word(void *priv, u64 where)
{
	uint32_t w;

	memcpy(&w, vxdbg_sim_ptr(priv, where), sizeof(w));
	return w;
}

static void bp_write_word(void *priv, u64 where, u32 word)
{
	memcpy(vxdbg_sim_ptr(priv, where), &word, sizeof(word));
}

const struct vortex_dmseq_bp_ops sim_session_bp_ops = {
	.resolve = bp_resolve,
	.release = bp_release,
	.read_word = bp_read_word,
	.write_word = bp_write_word,
};

/* --------------------------------------------------------------- DM */

/* vortex_debug_dm_ioctl(): in order, stopping at the first bad entry. */
static int sim_dm(struct vxdbg_backend *be, struct drm_vortex_debug_dm *a)
{
	struct drm_vortex_debug_dm_op *ops = (void *)(uintptr_t)a->ops;
	struct vxdbg_sim *s = to_session(be)->s;
	int ret = vortex_dmseq_dm_check(a);

	if (ret)
		return ret;
	if (bad_ptr(a->ops))
		return -EFAULT;
	vortex_dmseq_raw_begin(&s->dm);
	for (uint32_t i = 0; i < a->count && !ret; i++) {
		ret = vortex_dmseq_dm_op_check(&ops[i]);
		if (ret)
			break;
		if (!(ops[i].flags & DRM_VORTEX_DEBUG_DM_WRITE))
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
	int ret = vortex_dmseq_warps_check(&s->dm, a);

	if (ret)
		return ret;
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
		vortex_dmseq_set_launch_halt(&d->seq, a->flags);
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
	int ret = vortex_dmseq_step_check(a);

	if (ret)
		return ret;
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
	struct drm_vortex_debug_warp_state *sts;
	uint32_t i, n;
	int ret = vortex_dmseq_status_check(&d->s->dm, a);

	if (ret)
		return ret;
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

/*
 * One range, the breakpoints kept invisible as the driver keeps them
 * (vortex_dmseq_bp_hide(), vortex_dmseq_bp_hidden()).
 */
static int mem_op(struct sim_session *d, const struct drm_vortex_debug_mem_op *op)
{
	struct vortex_dmseq_hidden hidden[DRM_VORTEX_DEBUG_MAX_BREAKPOINTS];
	uint8_t *vram = vxdbg_sim_ptr(d->s, op->addr);
	uint8_t *buf = (uint8_t *)(uintptr_t)op->buf;
	int ret = vortex_dmseq_mem_op_check(op);
	uint32_t n;
	u64 off;

	if (ret)
		return ret;
	if (!sim_in_vram(d->s, op->addr, op->len))
		return -ENXIO;
	if (bad_ptr(op->buf))
		return -EFAULT;
	if (op->flags & DRM_VORTEX_DEBUG_MEM_WRITE) {
		memcpy(vram, buf, op->len);
		vortex_dmseq_bp_hide(&d->bps, op->addr, op->len);
		return 0;
	}
	memcpy(buf, vram, op->len);
	n = vortex_dmseq_bp_hidden(&d->bps, op->addr, op->len, hidden);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t b = 0; b < 4; b++)
			if (vortex_dmseq_hidden_byte(&hidden[i], b, op->addr, op->len, &off))
				buf[off] = ((const uint8_t *)&hidden[i].orig)[b];
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
		ret = vortex_dmseq_bp_op(&to_session(be)->bps, &ops[a->done]);
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
