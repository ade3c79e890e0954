// SPDX-License-Identifier: MIT
/*
 * hw/vortex_rv32.h, the RV32 encoders the driver injects and the crash
 * dump's stub is written with, against words an assembler gives.
 *
 * The fields are where the RISC-V unprivileged ISA puts them (chapter
 * "RV32I Base Integer Instruction Set": "Base Instruction Formats" for R,
 * I, S and U; "Immediate Encoding Variants" for B and J, whose immediates
 * are scattered), the opcodes and funct fields are its "RV32/64G
 * Instruction Set Listings".  Each expected word below is what
 * `llvm-mc -triple=riscv32 -mattr=+m,+f -show-encoding` prints for the
 * instruction in its comment, and GNU as (riscv64-unknown-elf-as
 * -march=rv32imf) agrees on every one but the branches and jumps (it
 * reads their number as an address); vx_tmc is Vortex's custom-0 R-type,
 * ".insn r 0x0b, 0, 0, x0, rs1, x0" as userspace/device/vx_intrinsics.h
 * writes it.  The cases are the ones the users need: negative and
 * extreme immediates (the stub's ``addi x5, x0, -1``, 12-bit offsets at
 * both ends), every bit of a B or J immediate, backward branches, and the
 * CSR moves through DSCRATCH.  x5/t0 and x6/t1 are the registers the DM
 * sequences and the stub borrow.
 */
#include <stdint.h>

#include "kselftest_harness.h"

#include "vortex_rv32.h"

#define T0	5
#define T1	6
#define SP	2
#define A0	10
#define A1	11
#define A2	12
#define A5	15
#define S11	27
#define RA	1
#define DSCRATCH0	0x7b2
#define MHARTID		0xf14

struct enc {
	uint32_t got, want;
	const char *insn;
};

#define E(expr, word, text)	{ (expr), (word), (text) }

static void check(struct __test_metadata *_metadata, const struct enc *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		EXPECT_EQ(e[i].want, e[i].got) TH_LOG("%s: 0x%08x, want 0x%08x", e[i].insn,
						      e[i].got, e[i].want);
	}
}

/* Loads, stores, immediates: I and S types, both ends of the 12 bits. */
TEST(i_and_s_types_match_the_assembler)
{
	static const struct enc e[] = {
		E(RV32_SW(A0, A0, 0), 0x00a52023, "sw a0, 0(a0)"),
		E(RV32_SW(T1, T0, 20), 0x0062aa23, "sw t1, 20(t0)"),
		E(RV32_SW(T1, SP, -4), 0xfe612e23, "sw t1, -4(sp)"),
		E(RV32_SW(S11, T0, 2044), 0x7fb2ae23, "sw s11, 2044(t0)"),
		E(RV32_FSW(31, T0, 252), 0x0ff2ae27, "fsw f31, 252(t0)"),
		E(RV32_FSW(0, A5, -2048), 0x8007a027, "fsw f0, -2048(a5)"),
		E(RV32_LW(T1, T1, -8), 0xff832303, "lw t1, -8(t1)"),
		E(RV32_LW(T1, T1, 1024), 0x40032303, "lw t1, 1024(t1)"),
		E(RV32_ADDI(T0, T0, 2040), 0x7f828293, "addi t0, t0, 2040"),
		E(RV32_ADDI(T0, 0, -1), 0xfff00293, "addi t0, zero, -1"),
		E(RV32_ADDI(A0, A1, -2048), 0x80058513, "addi a0, a1, -2048"),
		E(RV32_XORI(T0, T1, -1), 0xfff34293, "xori t0, t1, -1"),
		E(RV32_SLLI(T0, T0, 9), 0x00929293, "slli t0, t0, 9"),
		E(RV32_SLLI(T0, T0, 31), 0x01f29293, "slli t0, t0, 31"),
		E(RV32_SRLI(T0, T0, 27), 0x01b2d293, "srli t0, t0, 27"),
		E(RV32_ECALL, 0x00000073, "ecall"),
		E(RV32_EBREAK, 0x00100073, "ebreak"),
	};

	check(_metadata, e, sizeof(e) / sizeof(e[0]));
}

/* R type: RV32I, RV32M, the FPR moves, and Vortex's vx_tmc. */
TEST(r_types_match_the_assembler)
{
	static const struct enc e[] = {
		E(RV32_ADD(T0, T0, T1), 0x006282b3, "add t0, t0, t1"),
		E(RV32_SUB(A0, A1, A2), 0x40c58533, "sub a0, a1, a2"),
		E(RV32_MUL(T0, T0, T1), 0x026282b3, "mul t0, t0, t1"),
		E(RV32_FMV_X_W(T0, 31), 0xe00f82d3, "fmv.x.w t0, f31"),
		E(RV32_FMV_X_W(T0, 0), 0xe00002d3, "fmv.x.w t0, f0"),
		E(RV32_FMV_W_X(7, T0), 0xf00283d3, "fmv.w.x f7, t0"),
		E(VX_INSN_TMC(T0), 0x0002800b, "vx_tmc t0"),
	};

	check(_metadata, e, sizeof(e) / sizeof(e[0]));
}

/* The CSR moves the DM sequences inject: through DSCRATCH, fcsr, mhartid. */
TEST(csr_moves_match_the_assembler)
{
	static const struct enc e[] = {
		E(RV32_CSRW(0x7b5, T0), 0x7b529073, "csrrw zero, 0x7b5, t0"),
		E(RV32_CSRRW(A0, DSCRATCH0, A1), 0x7b259573, "csrrw a0, dscratch0, a1"),
		E(RV32_CSRR(T0, DSCRATCH0), 0x7b2022f3, "csrrs t0, dscratch0, zero"),
		E(RV32_CSRRS(T0, DSCRATCH0, 0), 0x7b2022f3, "csrrs t0, dscratch0, zero"),
		E(RV32_CSRR(T0, RV32_CSR_FCSR), 0x003022f3, "csrrs t0, fcsr, zero"),
		E(RV32_CSRR(T0, MHARTID), 0xf14022f3, "csrrs t0, mhartid, zero"),
	};

	check(_metadata, e, sizeof(e) / sizeof(e[0]));
}

/* U type: the upper 20 bits, the sign bit among them. */
TEST(u_types_match_the_assembler)
{
	static const struct enc e[] = {
		E(RV32_LUI(T1, 0x80000), 0x80000337, "lui t1, 0x80000"),
		E(RV32_LUI(T1, 0xfffff), 0xfffff337, "lui t1, 0xfffff"),
		E(RV32_LUI(T1, 0x12345), 0x12345337, "lui t1, 0x12345"),
		E(RV32_AUIPC(T1, 0), 0x00000317, "auipc t1, 0"),
		E(RV32_AUIPC(RA, 0xfffff), 0xfffff097, "auipc ra, 0xfffff"),
	};

	check(_metadata, e, sizeof(e) / sizeof(e[0]));
}

/*
 * B and J: every bit of the scattered immediate lands where the spec's
 * figure puts it, forward and back, at the ends of the range.
 */
TEST(branches_and_jumps_match_the_assembler)
{
	static const struct enc e[] = {
		E(RV32_BEQZ(T0, 56), 0x02028c63, "beqz t0, 56"),
		E(RV32_BEQZ(T0, 4094), 0x7e028fe3, "beqz t0, 4094"),
		E(RV32_BEQZ(T0, -4096), 0x80028063, "beqz t0, -4096"),
		E(RV32_BNE(S11, 0, -4), 0xfe0d9ee3, "bnez s11, -4"),
		E(RV32_BEQ(A0, A1, -8), 0xfeb50ce3, "beq a0, a1, -8"),
		E(RV32_JAL(0, -4), 0xffdff06f, "jal zero, -4"),
		E(RV32_JAL(RA, 0x100), 0x100000ef, "jal ra, 0x100"),
		E(RV32_JAL(0, 1048574), 0x7ffff06f, "jal zero, 1048574"),
		E(RV32_JAL(0, -1048576), 0x8000006f, "jal zero, -1048576"),
	};

	check(_metadata, e, sizeof(e) / sizeof(e[0]));
}

/* Values past a field's width stay in their field (the stub passes u32s). */
TEST(fields_are_masked_to_their_width)
{
	EXPECT_EQ(RV32_ADDI(T0, 0, -1), RV32_ADDI(T0, 0, 0xffffffffu));
	EXPECT_EQ(RV32_LW(T1, T1, -8), RV32_LW(T1, T1, 0xfffffff8u));
	EXPECT_EQ(RV32_SW(T1, SP, -4), RV32_SW(T1, SP, 0xfffffffcu));
	EXPECT_EQ(RV32_LUI(T1, 0xfffff), RV32_LUI(T1, 0xffffffffu));
}

/*
 * The decoders read back what the encoders wrote, on the assembler's
 * words above: each field, and each immediate sign-extended, at the ends
 * of its range and with every scattered bit of B and J set.
 */
TEST(decoders_read_back_the_assembler_words)
{
	static const struct {
		uint32_t word;
		unsigned int rd, rs1, rs2, f3, f7;
		int32_t imm;
		char type;
		const char *insn;
	} d[] = {
		{ 0x0062aa23, 20, T0, T1, 2, 0, 20, 'S', "sw t1, 20(t0)" },
		{ 0xffc12303, T1, SP, 28, 2, 0x7f, -4, 'I', "lw t1, -4(sp)" },
		{ 0x7ff50513, A0, A0, 31, 0, 0x3f, 2047, 'I', "addi a0, a0, 2047" },
		{ 0x80050513, A0, A0, 0, 0, 0x40, -2048, 'I', "addi a0, a0, -2048" },
		{ 0xfe62ae23, 28, T0, T1, 2, 0x7f, -4, 'S', "sw t1, -4(t0)" },
		{ 0x7e028fe3, 31, T0, 0, 0, 0x3f, 4094, 'B', "beqz t0, 4094" },
		{ 0x80028063, 0, T0, 0, 0, 0x40, -4096, 'B', "beqz t0, -4096" },
		{ 0xfeb50ce3, 25, A0, A1, 0, 0x7f, -8, 'B', "beq a0, a1, -8" },
		{ 0x7ffff06f, 0, 31, 31, 7, 0x3f, 1048574, 'J', "jal zero, 1048574" },
		{ 0x8000006f, 0, 0, 0, 0, 0x40, -1048576, 'J', "jal zero, -1048576" },
		{ 0x100000ef, RA, 0, 0, 0, 0x08, 0x100, 'J', "jal ra, 0x100" },
		{ 0xfffff097, RA, 31, 31, 7, 0x7f, (int32_t)0xfffff000, 'U', "auipc ra, 0xfffff" },
		{ 0x02b50533, A0, A0, A1, 0, 1, 0, 'R', "mul a0, a0, a1" },
	};

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		uint32_t w = d[i].word;
		int32_t imm = d[i].type == 'I' ? (int32_t)rv32_imm_i(w) :
			      d[i].type == 'S' ? (int32_t)rv32_imm_s(w) :
			      d[i].type == 'B' ? (int32_t)rv32_imm_b(w) :
			      d[i].type == 'J' ? (int32_t)rv32_imm_j(w) :
			      d[i].type == 'U' ? (int32_t)rv32_imm_u(w) : 0;

		EXPECT_EQ(d[i].rd, RV32_RD(w)) TH_LOG("%s: rd", d[i].insn);
		EXPECT_EQ(d[i].rs1, RV32_RS1(w)) TH_LOG("%s: rs1", d[i].insn);
		EXPECT_EQ(d[i].rs2, RV32_RS2(w)) TH_LOG("%s: rs2", d[i].insn);
		EXPECT_EQ(d[i].f3, RV32_FUNCT3(w)) TH_LOG("%s: funct3", d[i].insn);
		EXPECT_EQ(d[i].f7, RV32_FUNCT7(w)) TH_LOG("%s: funct7", d[i].insn);
		EXPECT_EQ(d[i].imm, imm) TH_LOG("%s: immediate %d", d[i].insn, imm);
	}
	/* A word from each encoder decodes to its arguments. */
	EXPECT_EQ(-1, (int32_t)rv32_imm_i(RV32_ADDI(T0, 0, -1)));
	EXPECT_EQ(-4096, (int32_t)rv32_imm_b(RV32_BEQZ(T0, -4096)));
	EXPECT_EQ(1048574, (int32_t)rv32_imm_j(RV32_JAL(0, 1048574)));
	EXPECT_EQ(0x7b2u, rv32_imm_i(RV32_CSRR(T0, DSCRATCH0)));
	EXPECT_EQ(0x33u, RV32_OPCODE(RV32_ADD(A0, A0, A1)));
	EXPECT_EQ(0x0bu >> 0, RV32_OPCODE(VX_INSN_TMC(T0)));
}

TEST_HARNESS_MAIN
