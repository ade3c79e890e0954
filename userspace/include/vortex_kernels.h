/* SPDX-License-Identifier: MIT */
/*
 * Argument blocks of the sample kernels in userspace/kernels/.
 *
 * Shared by the device code (where a VX_DPTR is a real 32-bit pointer) and
 * the host (where it is the uint32_t device address of the buffer), so the
 * two sides cannot disagree on the layout.  Every struct is made of 32-bit
 * fields only and has the same size on both sides.
 */
#ifndef VORTEX_KERNELS_H
#define VORTEX_KERNELS_H

#include <stdint.h>

#if defined(__riscv) && __riscv_xlen == 32
#define VX_DPTR(type)	type *
#else
#define VX_DPTR(type)	uint32_t
#endif

/* vecadd: c[i] = a[i] + b[i] for i < n (int32, wrapping). */
struct vecadd_args {
	VX_DPTR(const int32_t) a;
	VX_DPTR(const int32_t) b;
	VX_DPTR(int32_t) c;
	uint32_t n;
};

/* saxpy: y[i] = alpha * x[i] + y[i] for i < n (float, not fused). */
struct saxpy_args {
	VX_DPTR(const float) x;
	VX_DPTR(float) y;
	uint32_t n;
	float alpha;
};

/*
 * reduce: partial[b] = sum of in[i] over the elements block b owns
 * (i = b * block_threads + t + k * total_threads), wrapping int32.  The sum
 * of all partials is the sum of in[0..n).  scratch holds one int32 per
 * thread of the grid.  Any block size that fits a core works.
 */
struct reduce_args {
	VX_DPTR(const int32_t) in;
	VX_DPTR(int32_t) partial;	/* one per block */
	VX_DPTR(int32_t) scratch;	/* one per thread */
	uint32_t n;
};

/*
 * diverge: out[i] = diverge_ref(in[i]) for i < n, through nested splits
 * (the reference is in testlib/vx_samples.c).
 */
struct diverge_args {
	VX_DPTR(const int32_t) in;
	VX_DPTR(int32_t) out;
	uint32_t n;
	uint32_t pad;
};

/* reloc: out[i] = reloc_ref(i) through relocated pointer tables (testlib). */
struct reloc_args {
	VX_DPTR(int32_t) out;
	uint32_t n;
};

/* hang: loops forever.  count is incremented by lane 0 of warp 0. */
struct hang_args {
	VX_DPTR(volatile uint32_t) count;
	uint32_t pad;
};

/* fault_*: no input; out (may be 0) receives a marker before the fault. */
struct fault_args {
	VX_DPTR(volatile uint32_t) out;
	uint32_t n;	/* fault_assert: lanes with global id >= n fail */
};

/* Where the fault kernels fault: the host checks ERR_ADDR against these. */
#define FAULT_BADADDR_ADDR	0x00001000u	/* below VRAM: LOAD_FAULT */
#define FAULT_ILLEGAL_WORD	0x00000000u	/* all-zero word is illegal */

/* vxs_sort (Vortex-style): out = in sorted ascending, stable (int32). */
struct vxs_sort_args {
	VX_DPTR(const int32_t) in;
	VX_DPTR(int32_t) out;
	uint32_t n;
};

/* vxs_sgemm_lmem (Vortex-style): c = a x b, n x n floats, b in local memory. */
struct vxs_sgemm_args {
	VX_DPTR(const float) a;
	VX_DPTR(const float) b;
	VX_DPTR(float) c;
	uint32_t n;
};

/* vxs_hello (Vortex-style): task i prints "task %04u\n" to the console. */
struct vxs_hello_args {
	uint32_t n;
};

/*
 * vxs_tls (Vortex-style): thread-local data through tp.  Task i stores
 * three words at out[3i]: its hart << 16 | how many tasks that hart has
 * run (this one included), the sum of the ids of the hart's earlier
 * tasks, and tp - _end (hart * __tbss_size in upstream's layout).  Each
 * hart's block is VXS_TLS_BLOCK bytes, every one of them written.
 */
struct vxs_tls_args {
	VX_DPTR(uint32_t) out;
	uint32_t n;
};
#define VXS_TLS_BLOCK	64

/*
 * vxs_count (Vortex-style): on warp 0 lane 0 of core c, a loop of 2
 * instructions (addi, bnez) run n + c * per_core times, then minstret and
 * mcycle as that thread reads them into seen[2c] and seen[2c + 1]; main
 * returns exit_code, which the start code leaves at IO_MPM_EXITCODE.
 */
struct vxs_count_args {
	VX_DPTR(uint32_t) seen;
	uint32_t n;
	uint32_t per_core;
	uint32_t exit_code;
};

#endif /* VORTEX_KERNELS_H */
