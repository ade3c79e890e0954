/* SPDX-License-Identifier: MIT */
/*
 * Entry of a Vortex-style kernel (vx_spawn.h): the card starts warp 0
 * lane 0 of every core here (LAUNCH CORES, docs/hardware.md "Launch ABI")
 * with mscratch = the argument and every other register 0, as upstream
 * Vortex starts its processor.  The thread takes its stack at Vortex's
 * place, VX_STACK_BASE_ADDR down, VXS_STACK_SIZE bytes per hardware thread
 * (hart h's is the h-th below the base), points tp at the hart's
 * thread-local block and clears the blocks of the core's harts, calls
 * main(arg), stores the core's counters at IO_MPM_ADDR (vxs_perf.c) and
 * main's return value at IO_MPM_EXITCODE, as upstream's start code does,
 * and ends its core's warps with ecall.  Upstream's _Exit does not: it
 * ends its own warp with tmc 0 (kernel/src/vx_start.S:64-69 at fe8168b9,
 * the tmc at 69), as every other warp ended its own.
 *
 * The thread-local blocks are upstream's (kernel/src/vx_start.S at
 * fe8168b9: init_regs, lines 87-92; __init_tls for every hart, lines
 * 34-42 and init_tls_all, 105-113): hart h's tp is _end + h *
 * __tbss_size (kernel.ld), past the image, where the runtime maps them
 * (docs/runtime.md).
 */
#include "vx_spawn_abi.h"

/* tp = _end + mhartid * __tbss_size; clobbers t0 and t1. */
.macro vxs_set_tp
	csrr	t0, 0xf14		/* mhartid */
	lui	t1, %hi(__tbss_size)	/* absolute: the same wherever the image is */
	addi	t1, t1, %lo(__tbss_size)
	mul	t0, t0, t1
	lla	t1, _end
	add	tp, t1, t0
.endm

	.section .text.vx_start, "ax", @progbits
	.globl _start
	.type _start, @function
_start:
	csrr	t0, 0xf14		/* mhartid */
	li	t1, VXS_STACK_SIZE
	mul	t0, t0, t1
	li	sp, VXS_STACK_TOP
	sub	sp, sp, t0
	vxs_set_tp
	call	vxs_clear_tls
	csrr	a0, 0x340		/* mscratch: the argument */
	call	main			/* int main(void *arg) */
	mv	s0, a0
	call	vxs_perf_dump		/* the counters, for vx_mpm_query() */
	li	t0, VXS_IO_MPM_EXITCODE	/* as upstream's _Exit, vx_start.S:64-69 at fe8168b9 */
	sw	s0, 0(t0)
	fence
	ecall				/* the core's warps end */
1:	j	1b
	.size _start, . - _start

/*
 * Zeroes the thread-local blocks of every hart of this core: what
 * upstream's __init_tls does on each hart (kernel/src/vx_syscalls.c:56-66
 * at fe8168b9; .tdata is empty here, kernel.ld),
 * here by warp 0 lane 0 before any other warp starts.
 */
	.text
	.type vxs_clear_tls, @function
vxs_clear_tls:
	csrr	t0, 0xfc1		/* warps per core */
	csrr	t1, 0xfc0		/* threads per warp */
	mul	t0, t0, t1		/* harts per core */
	lui	t1, %hi(__tbss_size)
	addi	t1, t1, %lo(__tbss_size)
	mul	t2, t0, t1		/* the core's bytes */
	csrr	t0, 0xcc2		/* core */
	mul	t0, t0, t2
	lla	t1, _end
	add	t0, t1, t0		/* the core's first block */
	add	t2, t0, t2
	j	2f
1:	sw	zero, 0(t0)
	addi	t0, t0, 4
2:	bltu	t0, t2, 1b
	ret
	.size vxs_clear_tls, . - vxs_clear_tls

/*
 * Where the warps vxs_spawn_tasks() starts begin: all lanes on, each with
 * its own stack, then the C body, which ends every warp but warp 0.
 */
	.text
	.globl vxs_warp_entry
	.type vxs_warp_entry, @function
vxs_warp_entry:
	li	t0, -1
	.insn r 0x0b, 0, 0, x0, t0, x0	/* tmc: every lane */
	csrr	t0, 0xf14
	li	t1, VXS_STACK_SIZE
	mul	t0, t0, t1
	li	sp, VXS_STACK_TOP
	sub	sp, sp, t0
	vxs_set_tp
	call	vxs_warp_body
	.insn r 0x0b, 0, 0, x0, x0, x0	/* not reached: tmc 0 */
	.size vxs_warp_entry, . - vxs_warp_entry

/*
 * Warp 0's way into the same body, called on lane 0 alone: lane 0 keeps
 * its stack (main's frames are on it), the other lanes take fresh ones,
 * chosen without a branch (the lanes differ); each lane's tp is its
 * hart's, lane 0's unchanged.  The body comes back on lane 0 alone.
 */
	.globl vxs_run_warp0
	.type vxs_run_warp0, @function
vxs_run_warp0:
	addi	sp, sp, -16
	sw	ra, 12(sp)
	li	t0, -1
	.insn r 0x0b, 0, 0, x0, t0, x0	/* tmc: every lane */
	csrr	t0, 0xcc0		/* lane */
	snez	t0, t0
	neg	t0, t0			/* all ones but on lane 0 */
	csrr	t1, 0xf14
	li	t2, VXS_STACK_SIZE
	mul	t1, t1, t2
	li	t2, VXS_STACK_TOP
	sub	t1, t2, t1		/* a fresh stack */
	and	t1, t1, t0
	not	t0, t0
	and	t2, sp, t0
	or	sp, t1, t2
	vxs_set_tp
	call	vxs_warp_body
	lw	ra, 12(sp)
	addi	sp, sp, 16
	ret
	.size vxs_run_warp0, . - vxs_run_warp0
