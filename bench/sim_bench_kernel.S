/* SPDX-License-Identifier: MIT */
/*
 * Kernels of bench/sim_bench.c, over n words of a, b and c:
 *   vec_loop  c[i] = 3 * a[i] + b[i]                     (integer)
 *   fp_loop   c[i] = fma(a[i] * b[i] + a[i], b[i], a[i])  (fmul, fadd, fmadd)
 * Both are 11 instructions per element.  They are shared by the
 * simulator entries, where every thread takes a strided share, and the
 * Linux user-mode entry, where one thread does all n, so both runs
 * execute the same instructions per element.
 */
#define TMC(rs1)        .insn r 0x0b, 0, 0, x0, rs1, x0
#define SPLIT(rd, rs1)  .insn r 0x0b, 2, 0, rd, rs1, x0
#define JOIN(rs1)       .insn r 0x0b, 3, 0, x0, rs1, x0

/* The loops' last 5 instructions: next element, back to @top while any. */
.macro NEXT top
    add     a1, a1, s4
    add     a2, a2, s4
    add     a3, a3, s4
    addi    a4, a4, -1
    bnez    a4, \top
.endm

    .text
/* a1 = a, a2 = b, a3 = c, a4 = count (> 0), s4 = stride in bytes */
vec_loop:
1:  lw      t0, 0(a1)
    lw      t1, 0(a2)
    slli    t2, t0, 1
    add     t0, t0, t2
    add     t0, t0, t1
    sw      t0, 0(a3)
    NEXT    1b
    ret

fp_loop:
1:  flw     ft0, 0(a1)
    flw     ft1, 0(a2)
    fmul.s  ft2, ft0, ft1
    fadd.s  ft2, ft2, ft0
    fmadd.s ft2, ft2, ft1, ft0
    fsw     ft2, 0(a3)
    NEXT    1b
    ret

/*
 * LAUNCH entries, a0 = { n, iters, a, b, c }; 1-D grid of 1-D blocks.
 * Thread t of T takes elements t, t + T, ...: a full warp's loads and
 * stores are consecutive words.
 */
    .globl vec_sim_entry
vec_sim_entry:
    call    sim_setup
2:  call    sim_args
    call    vec_loop
    addi    s6, s6, -1
    bnez    s6, 2b
    TMC(zero)

    .globl fp_sim_entry
fp_sim_entry:
    call    sim_setup
2:  call    sim_args
    call    fp_loop
    addi    s6, s6, -1
    bnez    s6, 2b
    TMC(zero)

/*
 * vec_loop on the even lanes only: split on the lane's parity, the odd
 * lanes' turn skips the loop, join.  Half of each warp is masked off
 * while the loop runs, and its accesses are strided, not consecutive.
 */
    .globl div_sim_entry
div_sim_entry:
    call    sim_setup
    csrr    s10, 0xcc0              /* lane */
    andi    s10, s10, 1
    seqz    s10, s10                /* 1 on even lanes */
2:  call    sim_args
    SPLIT(s11, s10)
    beqz    s10, 3f
    call    vec_loop
3:  JOIN(s11)
    addi    s6, s6, -1
    bnez    s6, 2b
    TMC(zero)

/* s1..s3 = this thread's a, b, c; s4 = stride; s6 = iters; s7 = count */
sim_setup:
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
    ret

/* a1..a4: the loop's arguments for one pass */
sim_args:
    mv      a1, s1
    mv      a2, s2
    mv      a3, s3
    mv      a4, s7
    ret

/*
 * Linux user mode: ./prog ITERS [fp] over VEC_N words in .bss, filled as
 * sim_bench.c fills the simulator's (a[i] = 1.0f + a bit of i, b[i] =
 * 1.5f + a bit of i, as raw words) so that both run on the same numbers.
 */
#define VEC_N 65536
    .globl _start
_start:
    lw      s0, 0(sp)               /* argc */
    li      s6, 1
    li      s10, 0                  /* 0: vec_loop, else fp_loop */
    li      t1, 2
    blt     s0, t1, 4f
    lw      t0, 8(sp)               /* argv[1]: iterations */
    li      s6, 0
3:  lbu     t1, 0(t0)
    beqz    t1, 4f
    addi    t1, t1, -48
    li      t2, 10
    mul     s6, s6, t2
    add     s6, s6, t1
    addi    t0, t0, 1
    j       3b
4:  li      t1, 3
    blt     s0, t1, 5f
    li      s10, 1                  /* argv[2] present: fp */
5:  la      a1, vec_a
    la      a2, vec_b
    li      t0, 0
    li      t3, VEC_N
    li      t4, 0x3f800000          /* 1.0f */
    li      t5, 0x3fc00000          /* 1.5f */
6:  slli    t1, t0, 8
    add     t1, t1, t4
    sw      t1, 0(a1)
    slli    t1, t0, 4
    add     t1, t1, t5
    sw      t1, 0(a2)
    addi    a1, a1, 4
    addi    a2, a2, 4
    addi    t0, t0, 1
    bne     t0, t3, 6b
    li      s4, 4
7:  la      a1, vec_a
    la      a2, vec_b
    la      a3, vec_c
    li      a4, VEC_N
    bnez    s10, 8f
    call    vec_loop
    j       9f
8:  call    fp_loop
9:  addi    s6, s6, -1
    bnez    s6, 7b
    li      a0, 0
    li      a7, 93
    ecall

    .bss
    .balign 64
vec_a: .space 4 * VEC_N
vec_b: .space 4 * VEC_N
vec_c: .space 4 * VEC_N
