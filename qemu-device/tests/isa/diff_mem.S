/* SPDX-License-Identifier: MIT */
/*
 * Loads and stores of every width with sign extension, branches of every
 * kind in both directions, jal/jalr links (as PC-relative differences, so
 * the simulator and Linux builds agree), auipc, x0 writes, fence.
 * unsigned test_main(unsigned *out): a0 = out, returns the word count.
 */
    .text
    .globl test_main
test_main:
    mv      t6, a0                  /* t6: output cursor */
    la      s0, scratch             /* s0: scratch (nothing is saved) */

    /* store a pattern with sw, sh, sb and read it back every way */
    li      t0, 0x8081f2f3
    sw      t0, 0(s0)
    li      t0, 0x1234
    sh      t0, 4(s0)
    li      t0, 0x9abc
    sh      t0, 6(s0)
    li      t0, 0x7f
    sb      t0, 8(s0)
    li      t0, 0x80
    sb      t0, 9(s0)
    li      t0, 0xfff
    sb      t0, 10(s0)
    sb      zero, 11(s0)
    li      t1, 0
1:  add     t2, s0, t1
    lb      t0, 0(t2)
    sw      t0, 0(t6)
    lbu     t0, 0(t2)
    sw      t0, 4(t6)
    addi    t6, t6, 8
    andi    t3, t1, 1
    bnez    t3, 2f
    lh      t0, 0(t2)
    sw      t0, 0(t6)
    lhu     t0, 0(t2)
    sw      t0, 4(t6)
    addi    t6, t6, 8
2:  andi    t3, t1, 3
    bnez    t3, 3f
    lw      t0, 0(t2)
    sw      t0, 0(t6)
    addi    t6, t6, 4
3:  addi    t1, t1, 1
    li      t3, 12
    blt     t1, t3, 1b
    /* negative offsets */
    addi    t2, s0, 12
    lw      t0, -12(t2)
    sw      t0, 0(t6)
    lh      t0, -6(t2)
    sw      t0, 4(t6)
    lb      t0, -3(t2)
    sw      t0, 8(t6)
    addi    t6, t6, 12

    /* branches: record 1 for taken, 0 for not, for each operand pair */
    la      s1, bvals
    li      s2, 0                   /* i */
4:  li      s3, 0                   /* j */
5:  slli    t0, s2, 2
    add     t0, s1, t0
    lw      a1, 0(t0)
    slli    t0, s3, 2
    add     t0, s1, t0
    lw      a2, 0(t0)
    li      t0, 0
    beq     a1, a2, 6f
    ori     t0, t0, 1
6:  bne     a1, a2, 7f
    ori     t0, t0, 2
7:  blt     a1, a2, 8f
    ori     t0, t0, 4
8:  bge     a1, a2, 9f
    ori     t0, t0, 8
9:  bltu    a1, a2, 10f
    ori     t0, t0, 16
10: bgeu    a1, a2, 11f
    ori     t0, t0, 32
11: sw      t0, 0(t6)
    addi    t6, t6, 4
    addi    s3, s3, 1
    li      t1, 6
    blt     s3, t1, 5b
    addi    s2, s2, 1
    blt     s2, t1, 4b

    /* jal/jalr: link values relative to auipc */
12: auipc   t1, 0
    jal     t0, 13f
13: sub     t0, t0, t1
    sw      t0, 0(t6)
    la      t2, 14f
    jalr    t3, 0(t2)
14: sub     t3, t3, t1
    sw      t3, 4(t6)
    la      t2, 15f
    addi    t2, t2, 1               /* jalr clears bit 0 */
    jalr    t4, -1(t2)
    j       16f
15: li      t4, 0x55
16: sw      t4, 8(t6)
    /* jalr with rd == rs1 */
    la      t2, 17f
    jalr    t2, 0(t2)
17: sub     t2, t2, t1
    sw      t2, 12(t6)
    /* x0 is never written */
    addi    zero, zero, 5
    lw      zero, 0(s0)
    sw      zero, 16(t6)
    fence
    fence.i
    li      t0, 0x600dc0de
    sw      t0, 20(t6)
    addi    t6, t6, 24

    sub     a0, t6, a0
    srli    a0, a0, 2
    ret

    .data
    .balign 4
bvals:
    .word   0, 1, -1, 0x7fffffff, 0x80000000, 1
    .bss
    .balign 16
scratch:
    .space  64
