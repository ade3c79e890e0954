/* SPDX-License-Identifier: MIT */
/*
 * The command ring and the Debug Module as a test drives them, written once
 * over whatever reaches the card: the simulator core in the host tests
 * (qemu-device/tests/uncore_util.h) or a sysfs mapping of BAR0 and BAR2 in
 * the guest (selftests/vortex_bar_test.c).  The caller fills a struct
 * vx_card_io with its accessors; nothing here knows which card it has.
 *
 * Offsets are BAR0 register offsets (hw/vortex_regs.h) and VRAM byte
 * offsets (device address - VX_VRAM_DEVADDR).
 */
#ifndef VX_CARD_IO_H
#define VX_CARD_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vortex_regs.h"
#include "vx_asm.h"

/* How the helpers reach a card. */
struct vx_card_io {
	uint32_t (*rd)(void *opaque, uint32_t off);		/* BAR0 */
	void (*wr)(void *opaque, uint32_t off, uint32_t v);	/* BAR0 */
	void (*vram_wr)(void *opaque, uint32_t off, uint32_t v);
	void *opaque;
};

/* A command ring in VRAM, as the test filled it so far. */
struct vx_ring {
	uint32_t off;		/* VRAM offset, aligned to @size */
	uint32_t size;		/* bytes, a power of two */
	uint32_t tail;		/* offset of the next dword to write */
};

#define VX_DEV(off)		(VX_VRAM_DEVADDR + (uint32_t)(off))

/* What a GPR read returns when the injection failed. */
#define VX_DM_POISON		0xdeadbeefu

static inline uint32_t vx_rd(const struct vx_card_io *io, uint32_t off)
{
	return io->rd(io->opaque, off);
}

static inline void vx_wr(const struct vx_card_io *io, uint32_t off, uint32_t v)
{
	io->wr(io->opaque, off, v);
}

/* Copies @n instruction words to VRAM at @off; returns the device address. */
static inline uint32_t vx_put_code(const struct vx_card_io *io, uint32_t off,
				   const uint32_t *insns, size_t n)
{
	for (size_t i = 0; i < n; i++)
		io->vram_wr(io->opaque, off + 4 * i, insns[i]);
	return VX_DEV(off);
}

/* ------------------------------------------------------------------ ring */

/* Programs and enables the ring at VRAM offset @off; the tail starts at 0. */
static inline void vx_ring_setup(const struct vx_card_io *io, struct vx_ring *r,
				 uint32_t off, uint32_t size)
{
	vx_wr(io, VX_REG_RING_BASE, VX_DEV(off));
	vx_wr(io, VX_REG_RING_SIZE, size);
	vx_wr(io, VX_REG_RING_CTRL, VX_RING_CTRL_ENABLE);
	r->off = off;
	r->size = size;
	r->tail = 0;
}

static inline void vx_ring_put(const struct vx_card_io *io, struct vx_ring *r,
			       uint32_t dw)
{
	io->vram_wr(io->opaque, r->off + r->tail, dw);
	r->tail = (r->tail + 4) & (r->size - 1);
}

/*
 * Hands everything written so far to the CP.  The doorbell carries the
 * tail too, which a card with VX_CAPS_FAST_DOORBELL takes and any other
 * ignores, so this works on both without asking.
 */
static inline void vx_ring_kick(const struct vx_card_io *io, struct vx_ring *r)
{
	__sync_synchronize();	/* the packets reach VRAM before TAIL */
	vx_wr(io, VX_REG_RING_TAIL, r->tail);
	vx_wr(io, VX_REG_DOORBELL, r->tail);
}

static inline void vx_ring_fence(const struct vx_card_io *io, struct vx_ring *r,
				 uint32_t seqno, uint32_t flags)
{
	vx_ring_put(io, r, VX_PKT_HDR(VX_PKT_FENCE, VX_FENCE_NDW));
	vx_ring_put(io, r, seqno);
	vx_ring_put(io, r, flags);
}

/* A LAUNCH packet; @p is indexed by VX_LAUNCH_ENTRY .. VX_LAUNCH_RSVD. */
static inline void vx_ring_launch(const struct vx_card_io *io, struct vx_ring *r,
				  const uint32_t p[VX_LAUNCH_NDW])
{
	vx_ring_put(io, r, VX_PKT_HDR(VX_PKT_LAUNCH, VX_LAUNCH_NDW));
	for (int i = 0; i < VX_LAUNCH_NDW; i++)
		vx_ring_put(io, r, p[i]);
}

/* The common LAUNCH: @grid blocks of @block threads, one dimension, no stack. */
static inline void vx_ring_launch_1d(const struct vx_card_io *io, struct vx_ring *r,
				     uint32_t entry, uint32_t arg, uint32_t grid,
				     uint32_t block)
{
	const uint32_t p[VX_LAUNCH_NDW] = {
		[VX_LAUNCH_ENTRY] = entry, [VX_LAUNCH_ARG] = arg,
		[VX_LAUNCH_GRID_X] = grid, [VX_LAUNCH_GRID_Y] = 1,
		[VX_LAUNCH_GRID_Z] = 1,
		[VX_LAUNCH_BLOCK_X] = block, [VX_LAUNCH_BLOCK_Y] = 1,
		[VX_LAUNCH_BLOCK_Z] = 1,
	};

	vx_ring_launch(io, r, p);
}

/* ---------------------------------------------------------- Debug Module */

static inline uint32_t vx_dm_rd(const struct vx_card_io *io, uint32_t reg)
{
	return vx_rd(io, VX_DM_REG(reg));
}

static inline void vx_dm_wr(const struct vx_card_io *io, uint32_t reg, uint32_t v)
{
	vx_wr(io, VX_DM_REG(reg), v);
}

/* DCTRL with the DM active and the request bits @bits. */
static inline void vx_dm_ctrl(const struct vx_card_io *io, uint32_t bits)
{
	vx_dm_wr(io, VX_DM_DCTRL, VX_DCTRL_DMACTIVE | bits);
}

static inline uint32_t vx_dm_hacause(const struct vx_card_io *io)
{
	return VX_DCTRL_HACAUSE(vx_dm_rd(io, VX_DM_DCTRL));
}

/* Selects global warp @warp and lane @thread, and @warp's window. */
static inline void vx_dm_select(const struct vx_card_io *io, uint32_t warp,
				uint32_t thread)
{
	vx_dm_wr(io, VX_DM_DSELECT, VX_DSELECT_MAKE(warp / 32, warp, thread));
}

#define VX_DM_ALL_WARPS		UINT32_MAX

/* The warp mask of a card with @nwarps warps := @warp alone, or every warp. */
static inline void vx_dm_wmask(const struct vx_card_io *io, uint32_t nwarps,
			       uint32_t warp)
{
	for (uint32_t w = 0; w < (nwarps + 31) / 32; w++) {
		uint32_t m = warp == VX_DM_ALL_WARPS ? ~0u :
			     warp / 32 == w ? VX_BIT(warp % 32) : 0;

		vx_dm_wr(io, VX_DM_DSELECT, VX_DSELECT_MAKE(w, 0, 0));
		vx_dm_wr(io, VX_DM_WMASK, m);
	}
}

/* @warp's bit in the window of @reg (WMASK, WACTIVE, WSTATUS). */
static inline bool vx_dm_warp_bit(const struct vx_card_io *io, uint32_t reg,
				  uint32_t warp)
{
	vx_dm_select(io, warp, 0);
	return vx_dm_rd(io, reg) & VX_BIT(warp % 32);
}

static inline bool vx_dm_halted(const struct vx_card_io *io, uint32_t warp)
{
	return vx_dm_warp_bit(io, VX_DM_WSTATUS, warp);
}

/* Injects @insn into the selected thread; returns DCTRL.injecterr. */
static inline bool vx_dm_inject(const struct vx_card_io *io, uint32_t insn)
{
	vx_dm_wr(io, VX_DM_INJECT, insn);
	vx_dm_ctrl(io, VX_DCTRL_INJECTREQ);
	return vx_dm_rd(io, VX_DM_DCTRL) & VX_DCTRL_INJECTERR;
}

/* A GPR of the selected thread, the way a debugger reads it: dscratch0. */
static inline uint32_t vx_dm_read_gpr(const struct vx_card_io *io, uint32_t r)
{
	if (vx_dm_inject(io, CSRW(VX_CSR_DSCRATCH(0), r)))
		return VX_DM_POISON;
	return vx_dm_rd(io, VX_DM_DSCRATCH(0));
}

/* Sets a GPR of the selected thread; false if the injection failed. */
static inline bool vx_dm_write_gpr(const struct vx_card_io *io, uint32_t r,
				   uint32_t v)
{
	vx_dm_wr(io, VX_DM_DSCRATCH(0), v);
	return !vx_dm_inject(io, CSRR(r, VX_CSR_DSCRATCH(0)));
}

#endif /* VX_CARD_IO_H */
