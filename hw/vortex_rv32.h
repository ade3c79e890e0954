/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Copyright 2026 The Vortex driver authors */
/**
 * DOC: RV32 instruction encoders and field decoders
 *
 * The instructions the host has a warp execute, encoded in one place:
 * the Debug Module sequences inject them into a halted warp
 * (vortex_dmseq_warp.c: the DSCRATCH borrow and restore, the register
 * paths of one lane or of a whole warp), the crash dump's register stub
 * is written with them (driver/vortex_dump_regs.c), and the tests'
 * hand-assembled device programs use them through testlib/vx_asm.h.
 *
 * The field positions are the RISC-V unprivileged ISA's, chapter "RV32I
 * Base Integer Instruction Set", sections "Base Instruction Formats" (R,
 * I, S, U) and "Immediate Encoding Variants" (B, J: the immediate's bits
 * scattered); opcodes and funct fields are those of its "RV32/64G
 * Instruction Set Listings" (RV32I, RV32M, RV32F, Zicsr).  Vortex's
 * vx_tmc is custom-0 (hw/vortex_regs.h).  userspace/debug/tests/
 * test_vortex_rv32.c checks every encoder against words an assembler
 * gives.
 *
 * Like vortex_regs.h: nothing that depends on who includes it (the
 * kernel, QEMU, the host tools and the guest tests), no types of its own.
 * Each encoder is a constant expression of type unsigned int, so it can
 * fill a static table; every field is masked to its width, so an
 * immediate may be negative.  Registers are plain numbers, x0..x31 or
 * f0..f31.
 *
 * The decoders beside them read the same fields back: the simulator's
 * executors (qemu-device/sim/vx_exec.h, its hot path) and the
 * disassembler (userspace/debug/vx_disasm.c) use them.  A field is a
 * constant expression; an immediate is a static inline function over
 * unsigned int, since it is sign-extended (an arithmetic shift of int,
 * which every compiler here does), and comes back as two's complement in
 * an unsigned int: the executors add it to a register as it is, the
 * disassembler prints it as an int.  Both compile to the shifts the
 * simulator's executors had written themselves.
 */
#ifndef VORTEX_RV32_H
#define VORTEX_RV32_H

#include "vortex_regs.h"

/* ------------------------------------------------------- the formats */

/* R-type: funct7 | rs2 | rs1 | funct3 | rd | opcode */
#define RV32_R(f7, rs2, rs1, f3, rd, op) \
	(VX_PUT(f7, 31, 25) | VX_PUT(rs2, 24, 20) | VX_PUT(rs1, 19, 15) | \
	 VX_PUT(f3, 14, 12) | VX_PUT(rd, 11, 7) | VX_PUT(op, 6, 0))

/* I-type: imm[11:0] | rs1 | funct3 | rd | opcode */
#define RV32_I(imm, rs1, f3, rd, op) \
	(VX_PUT(imm, 31, 20) | VX_PUT(rs1, 19, 15) | VX_PUT(f3, 14, 12) | \
	 VX_PUT(rd, 11, 7) | VX_PUT(op, 6, 0))

/* S-type: imm[11:5] | rs2 | rs1 | funct3 | imm[4:0] | opcode */
#define RV32_S(imm, rs2, rs1, f3, op) \
	(VX_PUT(VX_GET(imm, 11, 5), 31, 25) | VX_PUT(rs2, 24, 20) | \
	 VX_PUT(rs1, 19, 15) | VX_PUT(f3, 14, 12) | \
	 VX_PUT(VX_GET(imm, 4, 0), 11, 7) | VX_PUT(op, 6, 0))

/* B-type (opcode BRANCH): imm[12|10:5] | rs2 | rs1 | funct3 | imm[4:1|11] */
#define RV32_B(imm, rs2, rs1, f3) \
	(VX_PUT(VX_GET(imm, 12, 12), 31, 31) | VX_PUT(VX_GET(imm, 10, 5), 30, 25) | \
	 VX_PUT(rs2, 24, 20) | VX_PUT(rs1, 19, 15) | VX_PUT(f3, 14, 12) | \
	 VX_PUT(VX_GET(imm, 4, 1), 11, 8) | VX_PUT(VX_GET(imm, 11, 11), 7, 7) | \
	 0x63u)

/* U-type: imm[31:12] (given as the 20-bit value) | rd | opcode */
#define RV32_U(imm20, rd, op) \
	(VX_PUT(imm20, 31, 12) | VX_PUT(rd, 11, 7) | VX_PUT(op, 6, 0))

/* J-type (JAL): imm[20|10:1|11|19:12] | rd | opcode */
#define RV32_J(imm, rd) \
	(VX_PUT(VX_GET(imm, 20, 20), 31, 31) | VX_PUT(VX_GET(imm, 10, 1), 30, 21) | \
	 VX_PUT(VX_GET(imm, 11, 11), 20, 20) | VX_PUT(VX_GET(imm, 19, 12), 19, 12) | \
	 VX_PUT(rd, 11, 7) | 0x6fu)

/* ------------------------------------------------------- the decoders */

/* The fields, as constant expressions like the encoders */
#define RV32_OPCODE(insn)	((insn) & 0x7f)
#define RV32_RD(insn)		(((insn) >> 7) & 31)
#define RV32_FUNCT3(insn)	(((insn) >> 12) & 7)
#define RV32_RS1(insn)		(((insn) >> 15) & 31)
#define RV32_RS2(insn)		(((insn) >> 20) & 31)
/* R4-type (fused multiply-add): rs3 | fmt | rs2 | rs1 | rm | rd | opcode */
#define RV32_RS3(insn)		((insn) >> 27)
#define RV32_FUNCT7(insn)	((insn) >> 25)

static inline unsigned int rv32_imm_i(unsigned int insn)
{
	return (unsigned int)((int)insn >> 20);
}

static inline unsigned int rv32_imm_s(unsigned int insn)
{
	return (unsigned int)(((int)insn >> 20) & ~31) | RV32_RD(insn);
}

/* imm[12|10:5] from bits 31:25, imm[4:1|11] from bits 11:7 */
static inline unsigned int rv32_imm_b(unsigned int insn)
{
	return (unsigned int)(((int)insn >> 19) & ~0xfff) |
	       ((insn << 4) & 0x800) | ((insn >> 20) & 0x7e0) |
	       ((insn >> 7) & 0x1e);
}

/* imm[20|10:1|11|19:12] from bits 31:12 */
static inline unsigned int rv32_imm_j(unsigned int insn)
{
	return (unsigned int)(((int)insn >> 11) & ~0xfffff) |
	       (insn & 0xff000) | ((insn >> 9) & 0x800) |
	       ((insn >> 20) & 0x7fe);
}

/* The U-type's immediate in place: imm[31:12] << 12 */
static inline unsigned int rv32_imm_u(unsigned int insn)
{
	return insn & 0xfffff000u;
}

/* ------------------------------------------------------ instructions */

/* RV32I */
#define RV32_LUI(rd, imm20)		RV32_U(imm20, rd, 0x37)
#define RV32_AUIPC(rd, imm20)		RV32_U(imm20, rd, 0x17)
#define RV32_JAL(rd, off)		RV32_J(off, rd)
#define RV32_BEQ(rs1, rs2, off)		RV32_B(off, rs2, rs1, 0)
#define RV32_BNE(rs1, rs2, off)		RV32_B(off, rs2, rs1, 1)
#define RV32_BEQZ(rs1, off)		RV32_BEQ(rs1, 0, off)
#define RV32_LW(rd, rs1, off)		RV32_I(off, rs1, 2, rd, 0x03)
#define RV32_SB(rs2, rs1, off)		RV32_S(off, rs2, rs1, 0, 0x23)
#define RV32_SW(rs2, rs1, off)		RV32_S(off, rs2, rs1, 2, 0x23)
#define RV32_ADDI(rd, rs1, imm)		RV32_I(imm, rs1, 0, rd, 0x13)
#define RV32_XORI(rd, rs1, imm)		RV32_I(imm, rs1, 4, rd, 0x13)
#define RV32_ANDI(rd, rs1, imm)		RV32_I(imm, rs1, 7, rd, 0x13)
#define RV32_SLLI(rd, rs1, sh)		RV32_I(sh, rs1, 1, rd, 0x13)
#define RV32_SRLI(rd, rs1, sh)		RV32_I(sh, rs1, 5, rd, 0x13)
#define RV32_ADD(rd, rs1, rs2)		RV32_R(0, rs2, rs1, 0, rd, 0x33)
#define RV32_SUB(rd, rs1, rs2)		RV32_R(0x20, rs2, rs1, 0, rd, 0x33)
#define RV32_SLTU(rd, rs1, rs2)		RV32_R(0, rs2, rs1, 3, rd, 0x33)
#define RV32_OR(rd, rs1, rs2)		RV32_R(0, rs2, rs1, 6, rd, 0x33)
#define RV32_ECALL			0x00000073u
#define RV32_EBREAK			0x00100073u

/* RV32M */
#define RV32_MUL(rd, rs1, rs2)		RV32_R(1, rs2, rs1, 0, rd, 0x33)

/* Zicsr; csrr and csrw are the spec's pseudoinstructions */
#define RV32_CSRRW(rd, csr, rs1)	RV32_I(csr, rs1, 1, rd, 0x73)
#define RV32_CSRRS(rd, csr, rs1)	RV32_I(csr, rs1, 2, rd, 0x73)
#define RV32_CSRR(rd, csr)		RV32_CSRRS(rd, csr, 0)
#define RV32_CSRW(csr, rs1)		RV32_CSRRW(0, csr, rs1)
#define RV32_CSR_FCSR			0x003

/* RV32F: the moves between an FPR and a GPR, and the store */
#define RV32_FMV_X_W(rd, fs1)		RV32_R(0x70, 0, fs1, 0, rd, 0x53)
#define RV32_FMV_W_X(fd, rs1)		RV32_R(0x78, 0, rs1, 0, fd, 0x53)
#define RV32_FSW(fs2, rs1, off)		RV32_S(off, fs2, rs1, 2, 0x27)

/* Vortex: vx_tmc rs1, the warp's thread mask from rs1 (custom-0) */
#define VX_INSN_TMC(rs1)	RV32_R(0, 0, rs1, VX_F3_TMC, 0, VX_OPCODE_CUSTOM0)

#endif /* VORTEX_RV32_H */
