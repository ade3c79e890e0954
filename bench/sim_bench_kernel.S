/* SPDX-License-Identifier: MIT */
/*
 * Kernel of bench/sim_bench.c: c[i] = 3 * a[i] + b[i] over n words.
 * The inner loop (vec_loop, 11 instructions per element) is shared by the
 * simulator entry, where every thread takes a strided share, and the
 * Linux user-mode entry, where one thread does all n, so both runs
 * execute the same instructions per element.
 */
#define TMC(rs1)    .insn r 0x0b, 0, 0, x0, rs1, x0

    .text
/* a1 = a, a2 = b, a3 = c, a4 = count (> 0), s4 = stride in bytes */
vec_loop:
1:  lw      t0, 0(a1)
    lw      t1, 0(a2)
    slli    t2, t0, 1
    add     t0, t0, t2
    add     t0, t0, t1
    sw      t0, 0(a3)
    add     a1, a1, s4
    add     a2, a2, s4
    add     a3, a3, s4
    addi    a4, a4, -1
    bnez    a4, 1b
    ret

/* LAUNCH entry, a0 = { n, iters, a, b, c }; 1-D grid of 1-D blocks. */
    .globl vec_sim_entry
vec_sim_entry:
    csrr    t0, 0xcd0               /* block x */
    csrr    t1, 0xcd3               /* block dim x */
    csrr    t2, 0xcd9               /* thread x */
    csrr    t3, 0xcd6               /* grid x */
    mul     t0, t0, t1
    add     s8, t0, t2              /* global thread id */
    mul     s9, t3, t1              /* threads */
    lw      s5, 0(a0)
    lw      s6, 4(a0)
    divu    s7, s5, s9              /* elements per thread */
    slli    s4, s9, 2
    slli    s8, s8, 2
    lw      s1, 8(a0)
    lw      s2, 12(a0)
    lw      s3, 16(a0)
    add     s1, s1, s8
    add     s2, s2, s8
    add     s3, s3, s8
2:  mv      a1, s1
    mv      a2, s2
    mv      a3, s3
    mv      a4, s7
    call    vec_loop
    addi    s6, s6, -1
    bnez    s6, 2b
    TMC(zero)

/* Linux user mode: ./prog ITERS over VEC_N words in .bss. */
#define VEC_N 65536
    .globl _start
_start:
    lw      t0, 0(sp)               /* argc */
    li      s6, 1
    li      t1, 2
    blt     t0, t1, 4f
    lw      t0, 8(sp)               /* argv[1] */
    li      s6, 0
3:  lbu     t1, 0(t0)
    beqz    t1, 4f
    addi    t1, t1, -48
    li      t2, 10
    mul     s6, s6, t2
    add     s6, s6, t1
    addi    t0, t0, 1
    j       3b
4:  li      s4, 4
5:  la      a1, vec_a
    la      a2, vec_b
    la      a3, vec_c
    li      a4, VEC_N
    call    vec_loop
    addi    s6, s6, -1
    bnez    s6, 5b
    li      a0, 0
    li      a7, 93
    ecall

    .bss
    .balign 64
vec_a: .space 4 * VEC_N
vec_b: .space 4 * VEC_N
vec_c: .space 4 * VEC_N
