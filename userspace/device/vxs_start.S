/* SPDX-License-Identifier: MIT */
/*
 * Entry of a Vortex-style kernel (vx_spawn.h): the card starts warp 0
 * lane 0 of every core here (LAUNCH CORES, docs/hardware.md "Launch ABI")
 * with mscratch = the argument and every other register 0, as upstream
 * Vortex starts its processor.  The thread takes its stack at Vortex's
 * place, VX_STACK_BASE_ADDR down, VXS_STACK_SIZE bytes per hardware thread
 * (hart h's is the h-th below the base), calls main(arg), stores the
 * core's counters at IO_MPM_ADDR (vxs_perf.c) and main's return value at
 * IO_MPM_EXITCODE, and ends its core's warps with ecall, as upstream's
 * start code does.
 */
#include "vx_spawn_abi.h"

	.section .text.vx_start, "ax", @progbits
	.globl _start
	.type _start, @function
_start:
	csrr	t0, 0xf14		/* mhartid */
	li	t1, VXS_STACK_SIZE
	mul	t0, t0, t1
	li	sp, VXS_STACK_TOP
	sub	sp, sp, t0
	csrr	a0, 0x340		/* mscratch: the argument */
	call	main			/* int main(void *arg) */
	mv	s0, a0
	call	vxs_perf_dump		/* the counters, for vx_mpm_query() */
	li	t0, VXS_IO_MPM_EXITCODE	/* as upstream's _Exit, vx_start.S:69-74 */
	sw	s0, 0(t0)
	fence
	ecall				/* the core's warps end */
1:	j	1b
	.size _start, . - _start

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
	call	vxs_warp_body
	.insn r 0x0b, 0, 0, x0, x0, x0	/* not reached: tmc 0 */
	.size vxs_warp_entry, . - vxs_warp_entry

/*
 * Warp 0's way into the same body, called on lane 0 alone: lane 0 keeps
 * its stack (main's frames are on it), the other lanes take fresh ones,
 * chosen without a branch (the lanes differ).  The body comes back on
 * lane 0 alone.
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
	call	vxs_warp_body
	lw	ra, 12(sp)
	addi	sp, sp, 16
	ret
	.size vxs_run_warp0, . - vxs_run_warp0
