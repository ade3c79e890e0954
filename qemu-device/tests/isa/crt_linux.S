/* SPDX-License-Identifier: MIT */
/*
 * Start-up for test programs under qemu-riscv32 (Linux user mode): run
 * test_main(result_buf) and write the words it produced to stdout.  A
 * program that defines test_nlanes = N is run N times, test_lane()
 * returning 0..N-1, to play the N lanes the simulator runs at once.
 */
    .text
    .globl _start
_start:
    li      s1, 1
    la      t0, test_nlanes
    beqz    t0, 1f
    lw      s1, 0(t0)
1:  li      s0, 0               /* lane */
2:  la      t0, vx_lane_id
    sw      s0, 0(t0)
    la      a0, result_buf
    call    test_main
    mv      s2, a0
    addi    s0, s0, 1
    blt     s0, s1, 2b

    slli    a2, s2, 2           /* bytes */
    la      a1, result_buf
3:  beqz    a2, 4f
    li      a0, 1
    li      a7, 64              /* write */
    ecall
    bltz    a0, 5f
    add     a1, a1, a0
    sub     a2, a2, a0
    j       3b
4:  li      a0, 0
    li      a7, 93              /* exit */
    ecall
5:  li      a0, 1
    li      a7, 93
    ecall

    .globl test_lane
test_lane:
    la      t0, vx_lane_id
    lw      a0, 0(t0)
    ret

    .weak   test_nlanes
    .bss
    .balign 16
vx_lane_id:
    .space  16
result_buf:
    .space  4 * 256 * 1024
