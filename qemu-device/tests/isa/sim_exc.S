/* SPDX-License-Identifier: MIT */
/*
 * One exception per scenario (exc_select, set by the host), each at a
 * global label exc_pc_NAME so the host can check ERR_PC.  Lanes differ
 * where the cause can be per lane, so ERR_THREAD/ERR_TMASK are checked
 * too.  t6 (x31) is preset to 0x1234 in every lane: a faulting load must
 * not have written it in any lane.
 */
#define TMC(rs1)        .insn r 0x0b, 0, 0, x0, rs1, x0
#define JOIN(rs1)       .insn r 0x0b, 3, 0, x0, rs1, x0
#define SPLIT(rd, rs1)  .insn r 0x0b, 2, 0, rd, rs1, x0
#define BAR(rs1, rs2)   .insn r 0x0b, 4, 0, x0, rs1, rs2
#define ASSERT_TRAP     .insn r 0x2b, 0, 0, x0, x0, x0

    .text
    .globl test_main
test_main:
    la      t0, exc_select
    lw      t0, 0(t0)
    csrr    s0, 0xcc0               /* lane */
    la      s1, exc_data
    li      t6, 0x1234
    slli    t0, t0, 2
    la      t1, table
    add     t1, t1, t0
    lw      t1, 0(t1)
    jr      t1

case_illegal:
    .globl exc_pc_illegal
exc_pc_illegal:
    .word   0xffffffff

case_misld:                         /* lanes 5 and 6 misaligned */
    addi    t1, s0, -5
    sltiu   t1, t1, 2
    add     t2, s1, t1
    .globl exc_pc_misld
exc_pc_misld:
    lw      t6, 0(t2)
    j       done

case_misst:                         /* lanes 5 and 6: +2 */
    addi    t1, s0, -5
    sltiu   t1, t1, 2
    slli    t1, t1, 1
    add     t2, s1, t1
    .globl exc_pc_misst
exc_pc_misst:
    sw      t6, 0(t2)
    j       done

case_ldfault:                       /* lane 7 loads from 0x10 */
    addi    t1, s0, -7              /* branch-free: a branch would follow */
    seqz    t1, t1                  /* the lowest lane only */
    neg     t1, t1
    li      t3, 0x10
    xor     t3, t3, s1
    and     t3, t3, t1
    xor     t2, s1, t3
    .globl exc_pc_ldfault
exc_pc_ldfault:
    lw      t6, 0(t2)
    j       done

case_ldfault_lane:                  /* only lane 7 differs: by data */
    slli    t1, s0, 2
    add     t1, s1, t1
    lw      t2, 64(t1)              /* exc_data + 64: pointer table */
    .globl exc_pc_ldfault2
exc_pc_ldfault2:
    lw      t6, 0(t2)
    j       done

case_stfault:                       /* just past 16 MiB of VRAM */
    li      t2, 0x81000000
    .globl exc_pc_stfault
exc_pc_stfault:
    sb      t6, 0(t2)
    j       done

case_fetch:
    li      t1, 0x10
    .globl exc_pc_fetch
exc_pc_fetch:
    jr      t1

case_ebreak:
    .globl exc_pc_ebreak
exc_pc_ebreak:
    ebreak
    j       done

case_ecall:
    .globl exc_pc_ecall
exc_pc_ecall:
    ecall
    j       done

case_assert:
    li      a0, 0x11
    li      a1, 0x22
    li      a2, 0x33
    mv      a3, s0
    .globl exc_pc_assert
exc_pc_assert:
    ASSERT_TRAP
    j       done

case_join:                          /* join without a split */
    li      t1, 1                   /* 0 would close a uniform split */
    .globl exc_pc_join
exc_pc_join:
    JOIN(t1)
    j       done

case_join_token:                    /* wrong token */
    SPLIT(t1, s0)
    addi    t1, t1, 3
    .globl exc_pc_join_token
exc_pc_join_token:
    JOIN(t1)
    j       done

case_bar:                           /* more warps than the core has */
    li      t1, 1
    li      t2, 3
    .globl exc_pc_bar
exc_pc_bar:
    BAR(t1, t2)
    j       done

case_csr_ro:
    .globl exc_pc_csr_ro
exc_pc_csr_ro:
    csrw    0xcc0, t1
    j       done

case_csr_unknown:
    .globl exc_pc_csr_unknown
exc_pc_csr_unknown:
    csrr    t1, 0x7c0
    j       done

case_frm:                           /* the warp's frm is invalid */
    li      t1, 5                   /* (one frm per warp, as upstream's) */
    csrw    frm, t1
    .globl exc_pc_frm
exc_pc_frm:
    fadd.s  ft0, ft1, ft2
    j       done

case_split_overflow:                /* 8 divergent splits, never joined */
    li      t2, 8
    li      t3, 0xf0
    .globl exc_pc_split_overflow
exc_pc_split_overflow:
    SPLIT(t1, s0)
    TMC(t3)                         /* all 4 lanes again */
    addi    t2, t2, -1
    bnez    t2, exc_pc_split_overflow
    j       done

/*
 * Jumps and a taken branch to pc + 6: each faults on itself, and its link
 * register (t6) keeps 0x1234 in every lane.
 */
case_jalr_misaligned:
    la      t0, exc_pc_jalr_misaligned + 4
    .globl exc_pc_jalr_misaligned
exc_pc_jalr_misaligned:
    jalr    t6, 2(t0)
    j       done
case_jal_misaligned:
    .globl exc_pc_jal_misaligned
exc_pc_jal_misaligned:
    .word   0x00600fef              /* jal t6, .+6 */
    j       done
case_beq_misaligned:
    .globl exc_pc_beq_misaligned
exc_pc_beq_misaligned:
    .word   0x00000363              /* beq x0, x0, .+6 */
    j       done

/* No fault: jalr clears bit 0, and a branch not taken goes nowhere. */
case_jalr_bit0:
    la      t0, 1f
    jalr    t6, 1(t0)
1:  j       done
case_branch_not_taken:
    .word   0x00001363              /* bne x0, x0, .+6 */
    j       done

done:
    li      a0, 0
    ret

    .data
    .balign 4
table:
    .word   case_illegal, case_misld, case_misst, case_ldfault
    .word   case_ldfault_lane, case_stfault, case_fetch, case_ebreak
    .word   case_ecall, case_assert, case_join, case_join_token
    .word   case_bar, case_csr_ro, case_csr_unknown, case_frm
    .word   case_split_overflow, case_jalr_misaligned, case_jal_misaligned
    .word   case_beq_misaligned, case_jalr_bit0, case_branch_not_taken
    .globl exc_select
exc_select:
    .word   0
    .balign 64
    .globl exc_data
exc_data:
    .space  64
    .word   exc_data, exc_data, exc_data, exc_data
    .word   exc_data, exc_data, exc_data, 0x7ffffffc
