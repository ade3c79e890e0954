/* SPDX-License-Identifier: MIT */
/*
 * A tiny Sv32 page-table builder for tests and benchmarks: a root table
 * and the level-0 tables it needs, carved from a pool of VRAM, written
 * through the caller's VRAM accessors (VRAM offsets, not device
 * addresses).  Nothing here checks what it is asked to write: tests
 * build broken tables on purpose.
 */
#ifndef VX_SV32_H
#define VX_SV32_H

#include <stdint.h>

#include "vortex_regs.h"

#define VX_PTE_URWX	(VX_PTE_V | VX_PTE_R | VX_PTE_W | VX_PTE_X | \
			 VX_PTE_U | VX_PTE_A | VX_PTE_D)
/* code: readable and executable */
#define VX_PTE_URX	(VX_PTE_V | VX_PTE_R | VX_PTE_X | VX_PTE_U | VX_PTE_A)

struct vx_sv32 {
	uint32_t (*rd)(void *opaque, uint32_t off);
	void (*wr)(void *opaque, uint32_t off, uint32_t v);
	void *opaque;
	uint32_t root;		/* VRAM offset of the root table */
	uint32_t pool;		/* next free 4 KiB for a level-0 table */
};

static inline void vx_sv32_zero(struct vx_sv32 *pt, uint32_t off)
{
	for (uint32_t i = 0; i < 4096; i += 4)
		pt->wr(pt->opaque, off + i, 0);
}

/* An empty root at VRAM offset @root; level-0 tables from @pool upward. */
static inline void vx_sv32_init(struct vx_sv32 *pt, uint32_t root,
				uint32_t pool)
{
	pt->root = root;
	pt->pool = pool;
	vx_sv32_zero(pt, root);
}

/* The LAUNCH SATP dword for this table and @asid. */
static inline uint32_t vx_sv32_satp(const struct vx_sv32 *pt, uint32_t asid)
{
	return VX_SATP_MAKE(asid, (VX_VRAM_DEVADDR + pt->root) >> VX_PAGE_SHIFT);
}

/* VRAM offset of @va's root PTE. */
static inline uint32_t vx_sv32_pte1(const struct vx_sv32 *pt, uint32_t va)
{
	return pt->root + 4 * (va >> VX_MEGAPAGE_SHIFT);
}

/* VRAM offset of @va's level-0 PTE, giving it a table if it has none. */
static inline uint32_t vx_sv32_pte0(struct vx_sv32 *pt, uint32_t va)
{
	uint32_t p1 = vx_sv32_pte1(pt, va), pte = pt->rd(pt->opaque, p1), t;

	if (!(pte & VX_PTE_V)) {
		t = pt->pool;
		pt->pool += 4096;
		vx_sv32_zero(pt, t);
		pte = VX_PTE_MAKE((VX_VRAM_DEVADDR + t) >> VX_PAGE_SHIFT, VX_PTE_V);
		pt->wr(pt->opaque, p1, pte);
	}
	t = (VX_PTE_PPN(pte) << VX_PAGE_SHIFT) - VX_VRAM_DEVADDR;
	return t + 4 * ((va >> VX_PAGE_SHIFT) & 0x3ff);
}

/* Map the 4 KiB page at @va to device address @pa with PTE @flags. */
static inline void vx_sv32_map(struct vx_sv32 *pt, uint32_t va, uint32_t pa,
			       uint32_t flags)
{
	pt->wr(pt->opaque, vx_sv32_pte0(pt, va),
	       VX_PTE_MAKE(pa >> VX_PAGE_SHIFT, flags));
}

/* Map the 4 MiB megapage at @va to @pa with @flags. */
static inline void vx_sv32_map_mega(struct vx_sv32 *pt, uint32_t va,
				    uint32_t pa, uint32_t flags)
{
	pt->wr(pt->opaque, vx_sv32_pte1(pt, va),
	       VX_PTE_MAKE(pa >> VX_PAGE_SHIFT, flags));
}

/* Map @len bytes (4 KiB multiples) from @va to @pa, page by page. */
static inline void vx_sv32_map_range(struct vx_sv32 *pt, uint32_t va,
				     uint32_t pa, uint32_t len, uint32_t flags)
{
	for (uint32_t o = 0; o < len; o += 4096)
		vx_sv32_map(pt, va + o, pa + o, flags);
}

#endif /* VX_SV32_H */
