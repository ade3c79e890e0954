/* SPDX-License-Identifier: MIT */
/*
 * A tiny RV32 + Vortex encoder for hand-assembled device programs.
 *
 * Shared by the host tests (through qemu-device/tests/uncore_util.h) and
 * the guest selftests (through BAR0 or the driver), so every side encodes
 * instructions the same way.  Registers are plain numbers (x0..x31);
 * expressions only, no types, nothing host specific.
 */
#ifndef VX_ASM_H
#define VX_ASM_H

#include <stdint.h>

#include "vortex_regs.h"

#define RV_R(f7, rs2, rs1, f3, rd, op) \
    ((uint32_t)(f7) << 25 | (rs2) << 20 | (rs1) << 15 | (f3) << 12 | \
     (rd) << 7 | (op))
#define RV_I(imm, rs1, f3, rd, op) \
    (((uint32_t)(imm) & 0xfff) << 20 | (rs1) << 15 | (f3) << 12 | \
     (rd) << 7 | (op))
#define RV_S(imm, rs2, rs1, f3, op) \
    ((((uint32_t)(imm) >> 5) & 0x7f) << 25 | (rs2) << 20 | (rs1) << 15 | \
     (f3) << 12 | ((uint32_t)(imm) & 0x1f) << 7 | (op))

#define ADDI(rd, rs1, imm)  RV_I(imm, rs1, 0, rd, 0x13)
#define NOP                 ADDI(0, 0, 0)
#define ADD(rd, rs1, rs2)   RV_R(0, rs2, rs1, 0, rd, 0x33)
#define SUB(rd, rs1, rs2)   RV_R(0x20, rs2, rs1, 0, rd, 0x33)
#define MUL(rd, rs1, rs2)   RV_R(1, rs2, rs1, 0, rd, 0x33)
#define LUI(rd, imm20)      ((uint32_t)(imm20) << 12 | (rd) << 7 | 0x37)
#define LW(rd, rs1, imm)    RV_I(imm, rs1, 2, rd, 0x03)
#define SW(rs2, rs1, imm)   RV_S(imm, rs2, rs1, 2, 0x23)
#define SB(rs2, rs1, imm)   RV_S(imm, rs2, rs1, 0, 0x23)
#define ANDI(rd, rs1, imm)  RV_I(imm, rs1, 7, rd, 0x13)
#define SLLI(rd, rs1, sh)   RV_I(sh, rs1, 1, rd, 0x13)
#define CSRRW(rd, csr, rs1) RV_I(csr, rs1, 1, rd, 0x73)
#define CSRR(rd, csr)       RV_I(csr, 0, 2, rd, 0x73)
#define CSRW(csr, rs1)      CSRRW(0, csr, rs1)
/* bits hi..lo of an immediate, at bit 0 */
#define IMM_BITS(v, hi, lo) \
    ((((uint32_t)(v)) >> (lo)) & ((1u << ((hi) - (lo) + 1)) - 1))
#define JAL(rd, off) \
    (IMM_BITS(off, 20, 20) << 31 | IMM_BITS(off, 10, 1) << 21 | \
     IMM_BITS(off, 11, 11) << 20 | IMM_BITS(off, 19, 12) << 12 | \
     (rd) << 7 | 0x6f)
#define RV_B(off, rs2, rs1, f3) \
    (IMM_BITS(off, 12, 12) << 31 | IMM_BITS(off, 10, 5) << 25 | \
     (rs2) << 20 | (rs1) << 15 | (f3) << 12 | \
     IMM_BITS(off, 4, 1) << 8 | IMM_BITS(off, 11, 11) << 7 | 0x63)
#define BEQ(rs1, rs2, off)  RV_B(off, rs2, rs1, 0)
#define BNE(rs1, rs2, off)  RV_B(off, rs2, rs1, 1)
#define JSELF               JAL(0, 0)       /* loop forever */
#define EBREAK              0x00100073u
#define ECALL               0x00000073u
#define TMC(rs1)            RV_R(0, 0, rs1, VX_F3_TMC, 0, VX_OPCODE_CUSTOM0)
#define FMV_X_W(rd, fs1)    RV_R(0x70, 0, fs1, 0, rd, 0x53)
#define FMV_W_X(fd, rs1)    RV_R(0x78, 0, rs1, 0, fd, 0x53)
#define ILLEGAL             0x00000000u
#define OR(rd, rs1, rs2)    RV_R(0, rs2, rs1, 6, rd, 0x33)
#define SLTU(rd, rs1, rs2)  RV_R(0, rs2, rs1, 3, rd, 0x33)
#define FDIV_S(fd, fs1, fs2) RV_R(0x0c, fs2, fs1, 0, fd, 0x53)  /* rne */
/* A extension, .W (funct5 in funct7's top bits, aq = rl = 0) */
#define AMO_W(f5, rd, rs1, rs2) RV_R((f5) << 2, rs2, rs1, 2, rd, 0x2f)
#define LR_W(rd, rs1)       AMO_W(0x02, rd, rs1, 0)
#define SC_W(rd, rs1, rs2)  AMO_W(0x03, rd, rs1, rs2)
#define AMOADD_W(rd, rs1, rs2)  AMO_W(0x00, rd, rs1, rs2)
#define AMOSWAP_W(rd, rs1, rs2) AMO_W(0x01, rd, rs1, rs2)
#define AMOXOR_W(rd, rs1, rs2)  AMO_W(0x04, rd, rs1, rs2)
#define AMOOR_W(rd, rs1, rs2)   AMO_W(0x08, rd, rs1, rs2)
#define AMOAND_W(rd, rs1, rs2)  AMO_W(0x0c, rd, rs1, rs2)
#define AMOMIN_W(rd, rs1, rs2)  AMO_W(0x10, rd, rs1, rs2)
#define AMOMAX_W(rd, rs1, rs2)  AMO_W(0x14, rd, rs1, rs2)
#define AMOMINU_W(rd, rs1, rs2) AMO_W(0x18, rd, rs1, rs2)
#define AMOMAXU_W(rd, rs1, rs2) AMO_W(0x1c, rd, rs1, rs2)
/* Zicond */
#define CZERO_EQZ(rd, rs1, rs2) RV_R(0x07, rs2, rs1, 5, rd, 0x33)
#define CZERO_NEZ(rd, rs1, rs2) RV_R(0x07, rs2, rs1, 7, rd, 0x33)

#endif /* VX_ASM_H */
