/* SPDX-License-Identifier: MIT */
/*
 * Nested split/join, three levels deep, every level divergent in a
 * different set of lanes (lane bits 0, 1, 2), plus a uniform fourth level.
 * Each lane records the path it took (one bit per level), how often the
 * outer body ran (must be once), the thread mask after the last join
 * (must be the full mask again) and the split tokens it saw.
 */
#define SPLIT(rd, rs1)  .insn r 0x0b, 2, 0, rd, rs1, x0
#define JOIN(rs1)       .insn r 0x0b, 3, 0, x0, rs1, x0

    .text
    .globl test_main
test_main:
    csrr    t0, 0xcc0           /* lane */
    li      s1, 0               /* path */
    li      s2, 0               /* body count */

    andi    a1, t0, 1
    SPLIT(a2, a1)
    beqz    a1, 1f
    slli    s1, s1, 1
    addi    s1, s1, 1
    j       2f
1:  slli    s1, s1, 1
2:  addi    s2, s2, 1

    andi    a3, t0, 2
    snez    a3, a3              /* split tests bit 0 */
    SPLIT(a4, a3)
    beqz    a3, 3f
    slli    s1, s1, 1
    addi    s1, s1, 1
    j       4f
3:  slli    s1, s1, 1
4:
    andi    a5, t0, 4
    snez    a5, a5
    SPLIT(a6, a5)
    beqz    a5, 5f
    slli    s1, s1, 1
    addi    s1, s1, 1
    j       6f
5:  slli    s1, s1, 1
6:
    li      t1, 1
    SPLIT(a7, t1)               /* uniform */
    addi    s1, s1, 0x100
    JOIN(a7)
    JOIN(a6)
    JOIN(a4)
    JOIN(a2)

    slli    t2, t0, 2
    add     t2, a0, t2
    sw      s1, 0(t2)
    csrr    t3, 0xcc4
    sw      t3, 32(t2)
    sw      s2, 64(t2)
    slli    a4, a4, 8
    slli    a6, a6, 16
    slli    a7, a7, 24
    or      a2, a2, a4
    or      a2, a2, a6
    or      a2, a2, a7
    sw      a2, 96(t2)
    li      a0, 32
    ret
