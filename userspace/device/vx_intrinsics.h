/* SPDX-License-Identifier: MIT */
/*
 * Vortex device-side intrinsics: SIMT control instructions and CSRs.
 *
 * The instructions are spelled with `.insn` so that a stock clang/binutils
 * assembles them; encodings and semantics are in docs/hardware.md ("Cores")
 * and hw/vortex_regs.h.  Every asm here is volatile with a memory clobber:
 * they change which lanes run, so the compiler must neither move memory
 * accesses across them nor drop or merge them.
 *
 * Divergence.  A conditional branch whose outcome differs between the
 * active lanes stops the card with DIVERGENT_BRANCH (as upstream's
 * simulator stops; a card with rtl-branch=on follows the highest active
 * lane, as upstream's RTL), so any `if` on a per-lane value must be
 * bracketed by split/join.  Use VX_IF():
 *
 *	VX_IF (i < n) {
 *		c[i] = a[i] + b[i];
 *	} VX_ELSE {
 *		...
 *	} VX_ENDIF;
 *
 * split (on bit 0 of the condition) runs the larger of the two lane sets
 * first, the true one on a tie; the first join switches to the other set
 * and jumps back just after the split, where the same test now goes the
 * other way; the second join restores the full mask.  A split whose lanes
 * all agree changes nothing and its join does nothing.  The condition is
 * evaluated once, before the split, into a per-lane register, so
 * re-running the test is harmless.
 * A loop whose trip count differs between lanes needs a uniform bound with
 * VX_IF on the per-lane condition inside.  Every split must be joined
 * before the kernel returns.
 */
#ifndef VX_INTRINSICS_H
#define VX_INTRINSICS_H

#include <stdint.h>

#include "vortex_regs.h"	/* CSR numbers: the one register map */

/* Read a CSR given as a constant number. */
#define vx_csr_read(csr) ({						\
	uint32_t __v;							\
	__asm__ volatile ("csrr %0, %1" : "=r"(__v) : "i"(csr));	\
	__v;								\
})

static inline uint32_t vx_thread_id(void)  { return vx_csr_read(VX_CSR_THREAD_ID); }
static inline uint32_t vx_warp_id(void)    { return vx_csr_read(VX_CSR_WARP_ID); }
static inline uint32_t vx_core_id(void)    { return vx_csr_read(VX_CSR_CORE_ID); }
static inline uint32_t vx_hart_id(void)    { return vx_csr_read(VX_CSR_MHARTID); }
static inline uint32_t vx_thread_mask(void) { return vx_csr_read(VX_CSR_ACTIVE_THREADS); }
static inline uint32_t vx_num_threads(void) { return vx_csr_read(VX_CSR_NUM_THREADS); }
static inline uint32_t vx_num_warps(void)  { return vx_csr_read(VX_CSR_NUM_WARPS); }
static inline uint32_t vx_num_cores(void)  { return vx_csr_read(VX_CSR_NUM_CORES); }
static inline uint32_t vx_warp_in_block(void) { return vx_csr_read(VX_CSR_WARP_IN_BLOCK); }

static inline uint32_t vx_block_idx_x(void) { return vx_csr_read(VX_CSR_BLOCK_IDX(0)); }
static inline uint32_t vx_block_idx_y(void) { return vx_csr_read(VX_CSR_BLOCK_IDX(1)); }
static inline uint32_t vx_block_idx_z(void) { return vx_csr_read(VX_CSR_BLOCK_IDX(2)); }
static inline uint32_t vx_block_dim_x(void) { return vx_csr_read(VX_CSR_BLOCK_DIM(0)); }
static inline uint32_t vx_block_dim_y(void) { return vx_csr_read(VX_CSR_BLOCK_DIM(1)); }
static inline uint32_t vx_block_dim_z(void) { return vx_csr_read(VX_CSR_BLOCK_DIM(2)); }
static inline uint32_t vx_grid_dim_x(void)  { return vx_csr_read(VX_CSR_GRID_DIM(0)); }
static inline uint32_t vx_grid_dim_y(void)  { return vx_csr_read(VX_CSR_GRID_DIM(1)); }
static inline uint32_t vx_grid_dim_z(void)  { return vx_csr_read(VX_CSR_GRID_DIM(2)); }
static inline uint32_t vx_thread_idx_x(void) { return vx_csr_read(VX_CSR_THREAD_IDX(0)); }
static inline uint32_t vx_thread_idx_y(void) { return vx_csr_read(VX_CSR_THREAD_IDX(1)); }
static inline uint32_t vx_thread_idx_z(void) { return vx_csr_read(VX_CSR_THREAD_IDX(2)); }

/* Threads in this block, and this thread's linear index within it. */
static inline uint32_t vx_block_threads(void)
{
	return vx_block_dim_x() * vx_block_dim_y() * vx_block_dim_z();
}

static inline uint32_t vx_thread_linear(void)
{
	return vx_thread_idx_x() + vx_block_dim_x() *
	       (vx_thread_idx_y() + vx_block_dim_y() * vx_thread_idx_z());
}

/* CUDA's blockIdx.x * blockDim.x + threadIdx.x. */
static inline uint32_t vx_global_id_x(void)
{
	return vx_block_idx_x() * vx_block_dim_x() + vx_thread_idx_x();
}

/* ------------------------------------------- custom-0: SIMT control */
/* tmc: thread mask <- mask; 0 ends the warp. */
static inline void vx_tmc(uint32_t mask)
{
	__asm__ volatile (".insn r 0x0b, 0, 0, x0, %0, x0" :: "r"(mask) : "memory");
}

/*
 * wspawn: start warps 0..n-1 of this core but the caller at pc, lane 0,
 * keeping their registers, once the caller is the core's only active
 * warp (it waits until then).
 */
static inline void vx_wspawn(uint32_t n, void (*pc)(void))
{
	__asm__ volatile (".insn r 0x0b, 1, 0, x0, %0, %1" :: "r"(n), "r"(pc) : "memory");
}

/* split on bit 0 of a per-lane predicate; returns the token join needs. */
static inline uint32_t vx_split(uint32_t pred)
{
	uint32_t tok;

	__asm__ volatile (".insn r 0x0b, 2, 0, %0, %1, x0" : "=r"(tok) : "r"(pred) : "memory");
	return tok;
}

/*
 * split on the negated predicate: the rs2 *field* is x1, whatever x1
 * holds (upstream's vx_split_n).
 */
static inline uint32_t vx_split_n(uint32_t pred)
{
	uint32_t tok;

	__asm__ volatile (".insn r 0x0b, 2, 0, %0, %1, x1"
			  : "=r"(tok) : "r"(pred) : "memory");
	return tok;
}

static inline void vx_join(uint32_t tok)
{
	__asm__ volatile (".insn r 0x0b, 3, 0, x0, %0, x0" :: "r"(tok) : "memory");
}

/*
 * bar: wait until count arrived at barrier id.  Ids with bit 31 clear are
 * per core (per block under a LAUNCH) and count warps; with bit 31 set
 * the barrier is device wide and counts cores, a core arriving once all
 * its active warps have.  A count below 2 does not wait.
 */
static inline void vx_barrier(uint32_t id, uint32_t count)
{
	__asm__ volatile (".insn r 0x0b, 4, 0, x0, %0, %1" :: "r"(id), "r"(count) : "memory");
}

/*
 * pred: mask <- the active lanes with bit 0 of cond set, or, if there are
 * none, fallback (the highest active lane's).
 */
static inline void vx_pred(uint32_t cond, uint32_t fallback)
{
	__asm__ volatile (".insn r 0x0b, 5, 0, x0, %0, %1" :: "r"(cond), "r"(fallback) : "memory");
}

/* pred on the negated condition: the rd field is x1 (upstream's vx_pred_n). */
static inline void vx_pred_n(uint32_t cond, uint32_t fallback)
{
	__asm__ volatile (".insn r 0x0b, 5, 0, x1, %0, %1" :: "r"(cond), "r"(fallback) : "memory");
}

/*
 * Warp votes and shuffles (custom-0, funct7 1), encoded as upstream's
 * vx_intrinsics.h: over the active lanes only, predicates on bit 0.
 */
#define __VX_VOTE(f3, pred) ({						\
	uint32_t __r;							\
	__asm__ volatile (".insn r 0x0b, " #f3 ", 1, %0, %1, x0"	\
			  : "=r"(__r) : "r"(pred));			\
	__r;								\
})
static inline uint32_t vx_vote_all(uint32_t p)    { return __VX_VOTE(0, p); }
static inline uint32_t vx_vote_any(uint32_t p)    { return __VX_VOTE(1, p); }
static inline uint32_t vx_vote_uni(uint32_t p)    { return __VX_VOTE(2, p); }
static inline uint32_t vx_vote_ballot(uint32_t p) { return __VX_VOTE(3, p); }

/*
 * Shuffles: lane t reads @v of lane t - b (up), t + b (down), t ^ b
 * (bfly) or the segment's lane b (idx), within t's segment of lanes:
 * @mask selects the lane bits that name the segment, @c the last lane in
 * it; a source outside the segment is t itself.
 */
#define __VX_SHFL(f3, v, b, c, mask) ({					\
	uint32_t __r, __bc = (uint32_t)(mask) << 12 | (uint32_t)(c) << 6 | (b); \
	__asm__ volatile (".insn r 0x0b, " #f3 ", 1, %0, %1, %2"	\
			  : "=r"(__r) : "r"(v), "r"(__bc));		\
	__r;								\
})
#define vx_shfl_up(v, b, c, mask)	__VX_SHFL(4, v, b, c, mask)
#define vx_shfl_down(v, b, c, mask)	__VX_SHFL(5, v, b, c, mask)
#define vx_shfl_bfly(v, b, c, mask)	__VX_SHFL(6, v, b, c, mask)
#define vx_shfl_idx(v, b, c, mask)	__VX_SHFL(7, v, b, c, mask)

/*
 * Barrier over the warps of this block.  Local barrier ids belong to the
 * block, so blocks that share a core do not release each other.
 */
static inline void vx_barrier_block(uint32_t id)
{
	uint32_t nt = vx_num_threads();

	vx_barrier(id, (vx_block_threads() + nt - 1) / nt);
}

/* ----------------------------------------------- divergent control flow */
/*
 * VX_IF (cond) { ... } VX_ELSE { ... } VX_ENDIF, or without VX_ELSE.
 *
 * The branches are `asm goto`, not C: a stock compiler treats a C `if`
 * between two volatile asms as pure control flow and is free to flatten it
 * into a select and lower that to a branch after the join (seen with clang
 * 14), which would run a per-lane decision under the full mask.  An
 * asm goto is a terminator the compiler can neither flatten, duplicate nor
 * move across the split and join.  The layout is
 *
 *	tok = split(c)
 *	beqz c, ELSE	<- "the instruction after the split"
 *	THEN ...
 *	j END
 * ELSE:
 *	ELSE ...
 * END:
 *	join tok
 *
 * so the else lanes, resumed after the split, take the branch.  Rules:
 * no break, continue, return or goto out of either body; keep `cond`
 * free of && and || (use & and |), since a short-circuit is itself a
 * branch on a per-lane value before the split.
 */
#define VX_IF(cond) do {						\
	__label__ __vx_else, __vx_end;					\
	uint32_t __vx_c = !!(cond);					\
	uint32_t __vx_t = vx_split(__vx_c);				\
	__asm__ goto ("beqz %0, %l[__vx_else]"				\
		      :: "r"(__vx_c) : "memory" : __vx_else);		\
	{

/* Inside the else body __vx_else names a fresh label VX_ENDIF defines. */
#define VX_ELSE }							\
	__asm__ goto ("j %l[__vx_end]" ::: "memory" : __vx_end);	\
	__vx_else: {							\
		__label__ __vx_else;

#define VX_ENDIF							\
		__vx_else: __attribute__((unused));			\
	}								\
	__vx_end: __attribute__((unused));				\
	vx_join(__vx_t);						\
} while (0)

#endif /* VX_INTRINSICS_H */
