// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: A session's software breakpoints
 *
 * The breakpoint table of a debugger session and what a breakpoint means
 * (uapi/vortex_accel.h, struct drm_vortex_debug_bp_op): SET keeps the
 * word at an address and writes ebreak there, CLEAR puts the word back
 * unless the program or the debugger wrote over the ebreak meanwhile, and
 * memory access does not see them: a read shows the kept word, a write
 * over a breakpoint changes the kept word and leaves ebreak in memory.
 * The session's sequences (vortex_dmseq_session.c) find the breakpoint
 * under a PC here and step over it.
 *
 * The host says where an address of the target lies and reaches the word
 * there through &struct vortex_dmseq_bp_ops: the driver translates it in
 * the target's GPU address spaces to a VRAM offset, holding a reference on
 * the buffer so its memory stays the target's while a breakpoint is in
 * it; the simulator backend takes the device address as it is.  The
 * host's lock (the driver's DM lock) is held around every call here.
 */

#ifdef __KERNEL__
#include <linux/errno.h>
#else
#include <errno.h>
#endif

#include "vortex_dmseq.h"

/**
 * vortex_dmseq_bp_find() - the breakpoint at an address
 * @t: the table
 * @addr: an address of the target
 *
 * Return: the breakpoint set at @addr, or NULL.
 */
struct vortex_dmseq_bp *vortex_dmseq_bp_find(struct vortex_dmseq_bps *t,
					     u64 addr)
{
	u32 i;

	for (i = 0; i < t->count; i++)
		if (t->bp[i].addr == addr)
			return &t->bp[i];
	return NULL;
}

/*
 * The kept word back, unless the program or the debugger wrote over the
 * ebreak meanwhile (@restore: the memory is still there to write).
 */
static void bp_clear(struct vortex_dmseq_bps *t, struct vortex_dmseq_bp *bp,
		     bool restore)
{
	if (restore && t->ops->read_word(t->priv, bp->where) == VORTEX_EBREAK)
		t->ops->write_word(t->priv, bp->where, bp->orig);
	if (bp->ref)
		t->ops->release(t->priv, bp->ref);
	bp->ref = NULL;
}

static int bp_set(struct vortex_dmseq_bps *t, u64 addr)
{
	struct vortex_dmseq_bp *bp;
	void *ref = NULL;
	u64 where;
	int ret;

	ret = t->ops->resolve(t->priv, addr, &where, &ref);
	if (ret)
		return ret;
	if (vortex_dmseq_bp_find(t, addr))
		ret = -EEXIST;
	else if (t->count == DRM_VORTEX_DEBUG_MAX_BREAKPOINTS)
		ret = -ENOSPC;
	if (ret) {
		if (ref)
			t->ops->release(t->priv, ref);
		return ret;
	}
	bp = &t->bp[t->count++];
	bp->addr = addr;
	bp->where = where;
	bp->ref = ref;
	bp->orig = t->ops->read_word(t->priv, where);
	t->ops->write_word(t->priv, where, VORTEX_EBREAK);
	return 0;
}

/**
 * vortex_dmseq_bp_op() - one BREAKPOINT entry: checked, then SET or CLEAR
 * @t: the table
 * @op: the entry
 *
 * Return: 0, or -EINVAL (op, flags, pad, space, an address not 4-byte
 * aligned), -ENXIO (SET where the target maps nothing: @t's resolve),
 * -EEXIST (SET twice), -ENOSPC (the table is full) or -ENOENT (CLEAR of
 * an address without one).
 */
int vortex_dmseq_bp_op(struct vortex_dmseq_bps *t,
		       const struct drm_vortex_debug_bp_op *op)
{
	struct vortex_dmseq_bp *bp;

	if (op->op > DRM_VORTEX_DEBUG_BP_CLEAR || op->flags || op->pad ||
	    op->space != DRM_VORTEX_DEBUG_SPACE_DEVICE || op->addr & 3)
		return -EINVAL;
	if (op->op == DRM_VORTEX_DEBUG_BP_SET)
		return bp_set(t, op->addr);
	bp = vortex_dmseq_bp_find(t, op->addr);
	if (!bp)
		return -ENOENT;
	bp_clear(t, bp, true);
	*bp = t->bp[--t->count];
	return 0;
}

/**
 * vortex_dmseq_bp_clear_all() - every breakpoint cleared, at a session's end
 * @t: the table
 * @restore: put the kept words back (false: the card is gone, the holds
 *	on its memory are only dropped)
 */
void vortex_dmseq_bp_clear_all(struct vortex_dmseq_bps *t, bool restore)
{
	u32 i;

	for (i = 0; i < t->count; i++)
		bp_clear(t, &t->bp[i], restore);
	t->count = 0;
}

/**
 * vortex_dmseq_bp_hide() - breakpoints kept invisible to a write
 * @t: the table
 * @addr: the first byte written, an address of the target
 * @len: bytes written
 *
 * After the write, each byte of a breakpoint's word that it covered
 * becomes the kept word's byte, and memory gets ebreak's byte back.
 */
void vortex_dmseq_bp_hide(struct vortex_dmseq_bps *t, u64 addr, u64 len)
{
	static const u32 ebreak = VORTEX_EBREAK;
	struct vortex_dmseq_bp *bp;
	u32 i, b, word;

	for (i = 0; i < t->count; i++) {
		bp = &t->bp[i];
		if (bp->addr + 4 <= addr || bp->addr >= addr + len)
			continue;
		word = t->ops->read_word(t->priv, bp->where);
		for (b = 0; b < 4; b++) {
			if (bp->addr + b < addr || bp->addr + b >= addr + len)
				continue;
			((u8 *)&bp->orig)[b] = ((u8 *)&word)[b];
			((u8 *)&word)[b] = ((const u8 *)&ebreak)[b];
		}
		t->ops->write_word(t->priv, bp->where, word);
	}
}

/**
 * vortex_dmseq_bp_hidden() - the breakpoints a read must show the kept words of
 * @t: the table
 * @addr: the first byte read, an address of the target
 * @len: bytes read
 * @out: room for DRM_VORTEX_DEBUG_MAX_BREAKPOINTS: each breakpoint whose
 *	word overlaps the range, its address and kept word
 *
 * The host copies the range as memory holds it, then puts each byte
 * vortex_dmseq_hidden_byte() names over it.
 *
 * Return: how many were filled in @out.
 */
u32 vortex_dmseq_bp_hidden(const struct vortex_dmseq_bps *t, u64 addr, u64 len,
			   struct vortex_dmseq_hidden *out)
{
	u32 i, n = 0;

	for (i = 0; i < t->count; i++) {
		if (t->bp[i].addr + 4 <= addr || t->bp[i].addr >= addr + len)
			continue;
		out[n].addr = t->bp[i].addr;
		out[n].orig = t->bp[i].orig;
		n++;
	}
	return n;
}
