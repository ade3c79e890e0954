/* SPDX-License-Identifier: MIT */
/*
 * Vortex kernel entry.
 *
 * The card starts every thread here with a0 = mscratch = the argument
 * pointer and sp at the top of the thread's own stack slice (docs/
 * hardware.md, "Launch ABI"); every other register is zero.  There is
 * nothing to set up: the loader has already zeroed .bss and applied the
 * relocations, so call the kernel and end the warp.
 *
 * A warp reaches the tmc with the thread mask it started with (kernels
 * must join every split they make), so tmc 0 ends all of its lanes.
 */
	.section .text.vx_start, "ax", @progbits
	.globl _start
	.type _start, @function
_start:
	call	vx_kernel_main		/* void vx_kernel_main(void *arg) */
	.insn r 0x0b, 0, 0, x0, x0, x0	/* tmc zero: the warp ends */
1:	j	1b			/* not reached */
	.size _start, . - _start
