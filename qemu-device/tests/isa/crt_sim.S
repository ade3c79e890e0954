/* SPDX-License-Identifier: MIT */
/*
 * Start-up for test programs on the simulator: every lane gets its own
 * 4 KiB stack below __stack_top (by mhartid), runs test_main(result_buf),
 * stores the word count in result_count and ends its warp with tmc 0.
 * Warps started by wspawn enter at vx_warp_entry and run warp_main().
 */
    .section .text.start, "ax"
    .globl _start
_start:
    csrr    t0, 0xf14           /* mhartid */
    slli    t0, t0, 12
    la      sp, __stack_top
    sub     sp, sp, t0
    la      a0, result_buf
    call    test_main
    la      t0, result_count
    sw      a0, 0(t0)
    .insn r 0x0b, 0, 0, x0, x0, x0      /* tmc 0 */

    .globl vx_warp_entry
    .weak warp_main
vx_warp_entry:
    csrr    t0, 0xf14
    slli    t0, t0, 12
    la      sp, __stack_top
    sub     sp, sp, t0
    la      a0, result_buf
    call    warp_main
    .insn r 0x0b, 0, 0, x0, x0, x0

    .globl test_lane
test_lane:
    csrr    a0, 0xcc0
    ret

    .bss
    .balign 16
    .globl result_buf, result_count
result_count:
    .space  16
result_buf:
    .space  4 * 256 * 1024
