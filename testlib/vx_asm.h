/* SPDX-License-Identifier: MIT */
/*
 * RV32 + Vortex instructions for hand-assembled device programs.
 *
 * Shared by the host tests (through qemu-device/tests/uncore_util.h) and
 * the guest selftests (through BAR0 or the driver).  The encoders are the
 * driver's own (hw/vortex_rv32.h), so the tests, the Debug Module
 * sequences and the crash dump's stub encode instructions one way; this
 * file gives them the tests' short names and adds what only tests write.
 * Registers are plain numbers (x0..x31); expressions only, no types,
 * nothing host specific.
 */
#ifndef VX_ASM_H
#define VX_ASM_H

#include <stdint.h>

#include "vortex_regs.h"
#include "vortex_rv32.h"

/*
 * The formats and the instructions the driver injects are
 * hw/vortex_rv32.h's, under the short names the tests use.
 */
#define RV_R(f7, rs2, rs1, f3, rd, op)	RV32_R(f7, rs2, rs1, f3, rd, op)
#define RV_I(imm, rs1, f3, rd, op)	RV32_I(imm, rs1, f3, rd, op)
#define RV_S(imm, rs2, rs1, f3, op)	RV32_S(imm, rs2, rs1, f3, op)
#define RV_B(off, rs2, rs1, f3)		RV32_B(off, rs2, rs1, f3)

#define ADDI(rd, rs1, imm)  RV32_ADDI(rd, rs1, imm)
#define NOP                 ADDI(0, 0, 0)
#define ADD(rd, rs1, rs2)   RV32_ADD(rd, rs1, rs2)
#define SUB(rd, rs1, rs2)   RV32_SUB(rd, rs1, rs2)
#define MUL(rd, rs1, rs2)   RV32_MUL(rd, rs1, rs2)
#define LUI(rd, imm20)      RV32_LUI(rd, imm20)
#define LW(rd, rs1, imm)    RV32_LW(rd, rs1, imm)
#define SW(rs2, rs1, imm)   RV32_SW(rs2, rs1, imm)
#define SB(rs2, rs1, imm)   RV32_SB(rs2, rs1, imm)
#define ANDI(rd, rs1, imm)  RV32_ANDI(rd, rs1, imm)
#define SLLI(rd, rs1, sh)   RV32_SLLI(rd, rs1, sh)
#define CSRRW(rd, csr, rs1) RV32_CSRRW(rd, csr, rs1)
#define CSRR(rd, csr)       RV32_CSRR(rd, csr)
#define CSRW(csr, rs1)      RV32_CSRW(csr, rs1)
#define JAL(rd, off)        RV32_JAL(rd, off)
#define BEQ(rs1, rs2, off)  RV32_BEQ(rs1, rs2, off)
#define BNE(rs1, rs2, off)  RV32_BNE(rs1, rs2, off)
#define JSELF               JAL(0, 0)       /* loop forever */
#define EBREAK              RV32_EBREAK
#define ECALL               RV32_ECALL
#define TMC(rs1)            VX_INSN_TMC(rs1)
#define FMV_X_W(rd, fs1)    RV32_FMV_X_W(rd, fs1)
#define FMV_W_X(fd, rs1)    RV32_FMV_W_X(fd, rs1)
#define ILLEGAL             0x00000000u
#define OR(rd, rs1, rs2)    RV32_OR(rd, rs1, rs2)
#define SLTU(rd, rs1, rs2)  RV32_SLTU(rd, rs1, rs2)
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
