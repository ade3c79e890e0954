// SPDX-License-Identifier: MIT
/*
 * RV32IMF + Zicsr + Vortex disassembler: a decoder by opcode, then
 * funct3/funct7, printing llvm-objdump's spelling and aliases so its
 * output can be checked against llvm-objdump on the host
 * (test_vx_disasm).  Registers by ABI name; immediates in decimal, CSRs
 * by name where the card has one, targets as absolute addresses.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vortex_regs.h"
#include "vortex_rv32.h"
#include "vx_disasm.h"

static const char *const gpr_names[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
	"s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
	"a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char *const fpr_names[32] = {
	"ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7",
	"fs0", "fs1", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5",
	"fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7",
	"fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
};

/* mhpmcounterN and its high half mhpmcounterNh, as llvm-objdump names them */
#define HPM(n) { 0xb00 + (n), "mhpmcounter" #n }, { 0xb80 + (n), "mhpmcounter" #n "h" }

static const struct {
	unsigned int csr;
	const char *name;
} csrs[] = {
	{ 0x001, "fflags" }, { 0x002, "frm" }, { 0x003, "fcsr" },
	{ 0x301, "misa" }, { 0x340, "mscratch" },
	{ 0x7b2, "dscratch0" }, { 0x7b3, "dscratch1" },
	{ 0x7b4, "dscratch2" }, { 0x7b5, "dscratch3" },
	/* the machine counters a Vortex kernel stores at exit (vx_perf_dump) */
	{ 0xb00, "mcycle" }, { 0xb02, "minstret" },
	{ 0xb80, "mcycleh" }, { 0xb82, "minstreth" },
	HPM(3), HPM(4), HPM(5), HPM(6), HPM(7), HPM(8), HPM(9), HPM(10),
	HPM(11), HPM(12), HPM(13), HPM(14), HPM(15), HPM(16), HPM(17),
	HPM(18), HPM(19), HPM(20), HPM(21), HPM(22), HPM(23), HPM(24),
	HPM(25), HPM(26), HPM(27), HPM(28), HPM(29), HPM(30), HPM(31),
	{ 0xc00, "cycle" }, { 0xc01, "time" }, { 0xc02, "instret" },
	{ 0xc80, "cycleh" }, { 0xc81, "timeh" }, { 0xc82, "instreth" },
	{ 0xf14, "mhartid" },
	{ VX_CSR_THREAD_ID, "thread_id" }, { VX_CSR_WARP_ID, "warp_id" },
	{ VX_CSR_CORE_ID, "core_id" }, { VX_CSR_ACTIVE_WARPS, "active_warps" },
	{ VX_CSR_ACTIVE_THREADS, "thread_mask" },
	{ VX_CSR_NUM_THREADS, "num_threads" }, { VX_CSR_NUM_WARPS, "num_warps" },
	{ VX_CSR_NUM_CORES, "num_cores" },
	{ 0xcd0, "block_idx_x" }, { 0xcd1, "block_idx_y" }, { 0xcd2, "block_idx_z" },
	{ 0xcd3, "block_dim_x" }, { 0xcd4, "block_dim_y" }, { 0xcd5, "block_dim_z" },
	{ 0xcd6, "grid_dim_x" }, { 0xcd7, "grid_dim_y" }, { 0xcd8, "grid_dim_z" },
	{ 0xcd9, "thread_idx_x" }, { 0xcda, "thread_idx_y" }, { 0xcdb, "thread_idx_z" },
	{ VX_CSR_WARP_IN_BLOCK, "warp_in_block" },
};

const char *vx_reg_name(unsigned int n)
{
	return n < 32 ? gpr_names[n] : n < 64 ? fpr_names[n - 32] : "?";
}

const char *vx_csr_name(unsigned int csr)
{
	for (size_t i = 0; i < sizeof(csrs) / sizeof(csrs[0]); i++)
		if (csrs[i].csr == csr)
			return csrs[i].name;
	return NULL;
}

const char *vx_csr_names(unsigned int i, unsigned int *csr)
{
	if (i >= sizeof(csrs) / sizeof(csrs[0]))
		return NULL;
	*csr = csrs[i].csr;
	return csrs[i].name;
}

/* "x12"/"f3" style, 0..31; -1 otherwise. */
static int parse_numbered(const char *s, char prefix)
{
	char *end;
	long n;

	if (s[0] != prefix || s[1] < '0' || s[1] > '9')
		return -1;
	n = strtol(s + 1, &end, 10);
	return *end || n > 31 ? -1 : (int)n;
}

int vx_reg_parse(const char *name)
{
	int n;

	if ((n = parse_numbered(name, 'x')) >= 0)
		return n;
	if ((n = parse_numbered(name, 'f')) >= 0)
		return 32 + n;
	if (!strcmp(name, "fp"))
		return 8;
	for (n = 0; n < 32; n++) {
		if (!strcmp(name, gpr_names[n]))
			return n;
		if (!strcmp(name, fpr_names[n]))
			return 32 + n;
	}
	for (size_t i = 0; i < sizeof(csrs) / sizeof(csrs[0]); i++)
		if (!strcmp(name, csrs[i].name))
			return 0x1000 + csrs[i].csr;
	if (!strncmp(name, "csr", 3) && name[3]) {
		char *end;
		long c = strtol(name + 3, &end, 0);

		if (!*end && c >= 0 && c <= 0xfff)
			return 0x1000 + (int)c;
	}
	return -1;
}

/* ------------------------------------------------------------ decode */

/* Short names for hw/vortex_rv32.h's decoders; immediates as ints. */
#define OPC(i)		RV32_OPCODE(i)
#define RD(i)		RV32_RD(i)
#define F3(i)		RV32_FUNCT3(i)
#define RS1(i)		RV32_RS1(i)
#define RS2(i)		RV32_RS2(i)
#define RS3(i)		RV32_RS3(i)
#define F7(i)		RV32_FUNCT7(i)
#define imm_i(i)	((int32_t)rv32_imm_i(i))
#define imm_s(i)	((int32_t)rv32_imm_s(i))
#define imm_b(i)	((int32_t)rv32_imm_b(i))
#define imm_j(i)	((int32_t)rv32_imm_j(i))

struct out {
	char *buf;
	size_t len;
	uint32_t *target;
};

static int emit(struct out *o, const char *mn, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(o->buf, o->len, "%s", mn);

	if (fmt && n >= 0 && (size_t)n < o->len) {
		n += snprintf(o->buf + n, o->len - n, "%*s", n < 8 ? 8 - n : 1, "");
		va_start(ap, fmt);
		vsnprintf(o->buf + n, o->len - n, fmt, ap);
		va_end(ap);
	}
	return 0;
}

#define X(n)	gpr_names[n]
#define F(n)	fpr_names[n]

static int dis_branch(struct out *o, uint32_t i, uint32_t pc)
{
	static const char *const mn[8] = { "beq", "bne", 0, 0, "blt", "bge", "bltu", "bgeu" };
	uint32_t t = pc + imm_b(i);

	if (!mn[F3(i)])
		return -1;
	*o->target = t;
	/* beqz, bnez, bltz, bgez against x0; blez, bgtz with x0 first. */
	if (RS2(i) == 0 && F3(i) != 6 && F3(i) != 7) {
		char a[8];

		snprintf(a, sizeof(a), "%sz", mn[F3(i)]);
		return emit(o, a, "%s, 0x%x", X(RS1(i)), t);
	}
	if (RS1(i) == 0 && (F3(i) == 4 || F3(i) == 5))
		return emit(o, F3(i) == 4 ? "bgtz" : "blez", "%s, 0x%x", X(RS2(i)), t);
	return emit(o, mn[F3(i)], "%s, %s, 0x%x", X(RS1(i)), X(RS2(i)), t);
}

static int dis_op_imm(struct out *o, uint32_t i)
{
	static const char *const mn[8] = { "addi", "slli", "slti", "sltiu", "xori", 0, "ori", "andi" };
	int32_t imm = imm_i(i);

	if (F3(i) == 0 && RS1(i) == 0 && RD(i) == 0 && imm == 0)
		return emit(o, "nop", NULL);
	if (F3(i) == 0 && RS1(i) == 0)
		return emit(o, "li", "%s, %d", X(RD(i)), imm);
	if (F3(i) == 0 && imm == 0)
		return emit(o, "mv", "%s, %s", X(RD(i)), X(RS1(i)));
	if (F3(i) == 3 && imm == 1)
		return emit(o, "seqz", "%s, %s", X(RD(i)), X(RS1(i)));
	if (F3(i) == 4 && imm == -1)
		return emit(o, "not", "%s, %s", X(RD(i)), X(RS1(i)));
	if (F3(i) == 1 && F7(i) == 0)
		return emit(o, "slli", "%s, %s, %d", X(RD(i)), X(RS1(i)), RS2(i));
	if (F3(i) == 5 && (F7(i) == 0 || F7(i) == 0x20))
		return emit(o, F7(i) ? "srai" : "srli", "%s, %s, %d", X(RD(i)), X(RS1(i)),
			    RS2(i));
	if (F3(i) == 1 || F3(i) == 5)
		return -1;
	return emit(o, mn[F3(i)], "%s, %s, %d", X(RD(i)), X(RS1(i)), imm);
}

static int dis_op(struct out *o, uint32_t i)
{
	static const char *const base[8] = { "add", "sll", "slt", "sltu", "xor", "srl", "or", "and" };
	static const char *const mul[8] = { "mul", "mulh", "mulhsu", "mulhu",
					    "div", "divu", "rem", "remu" };
	const char *mn;

	if (F7(i) == 1)
		mn = mul[F3(i)];
	else if (F7(i) == 0)
		mn = base[F3(i)];
	else if (F7(i) == 0x20 && (F3(i) == 0 || F3(i) == 5))
		mn = F3(i) ? "sra" : "sub";
	else
		return -1;
	if (F7(i) == 0x20 && F3(i) == 0 && RS1(i) == 0)
		return emit(o, "neg", "%s, %s", X(RD(i)), X(RS2(i)));
	if (F7(i) == 0 && F3(i) == 3 && RS1(i) == 0)
		return emit(o, "snez", "%s, %s", X(RD(i)), X(RS2(i)));
	if (F7(i) == 0 && F3(i) == 2 && RS2(i) == 0)
		return emit(o, "sltz", "%s, %s", X(RD(i)), X(RS1(i)));
	if (F7(i) == 0 && F3(i) == 2 && RS1(i) == 0)
		return emit(o, "sgtz", "%s, %s", X(RD(i)), X(RS2(i)));
	return emit(o, mn, "%s, %s, %s", X(RD(i)), X(RS1(i)), X(RS2(i)));
}

/* A CSR by name where it has one, else its number in decimal (llvm's way). */
static const char *csr_str(uint32_t csr, char *tmp, size_t n)
{
	const char *name = vx_csr_name(csr);

	if (name)
		return name;
	snprintf(tmp, n, "%u", csr);
	return tmp;
}

/* frcsr, fscsr, rdcycle, ... as llvm prints them; false if none applies. */
static bool csr_alias(struct out *o, uint32_t i)
{
	static const char *const rd_fp[4] = { 0, "frflags", "frrm", "frcsr" };
	static const char *const wr_fp[4] = { 0, "fsflags", "fsrm", "fscsr" };
	uint32_t csr = i >> 20, f3 = F3(i);

	if (csr >= 1 && csr <= 3 && f3 == 2 && RS1(i) == 0)
		return !emit(o, rd_fp[csr], "%s", X(RD(i)));
	if (csr >= 1 && csr <= 3 && f3 == 1 && RD(i) == 0)
		return !emit(o, wr_fp[csr], "%s", X(RS1(i)));
	if (csr >= 1 && csr <= 3 && f3 == 1)
		return !emit(o, wr_fp[csr], "%s, %s", X(RD(i)), X(RS1(i)));
	if (f3 == 2 && RS1(i) == 0 && (csr & ~0x83u) == 0xc00 && (csr & 3) != 3) {
		static const char *const rd[3] = { "rdcycle", "rdtime", "rdinstret" };
		char mn[16];

		snprintf(mn, sizeof(mn), "%s%s", rd[csr & 3], csr & 0x80 ? "h" : "");
		return !emit(o, mn, "%s", X(RD(i)));
	}
	return false;
}

static int dis_system(struct out *o, uint32_t i)
{
	static const char *const mn[8] = { 0, "csrrw", "csrrs", "csrrc", 0,
					   "csrrwi", "csrrsi", "csrrci" };
	uint32_t csr = i >> 20, f3 = F3(i);
	char tmp[16];
	const char *c = csr_str(csr, tmp, sizeof(tmp));

	if (f3 == 0) {
		if (i == 0x00000073)
			return emit(o, "ecall", NULL);
		if (i == 0x00100073)
			return emit(o, "ebreak", NULL);
		if (i == 0x10500073)
			return emit(o, "wfi", NULL);
		if (i == 0x30200073)
			return emit(o, "mret", NULL);
		return -1;
	}
	if (!mn[f3])
		return -1;
	if (csr_alias(o, i))
		return 0;
	if (f3 == 2 && RS1(i) == 0)
		return emit(o, "csrr", "%s, %s", X(RD(i)), c);
	if (f3 <= 3 && RD(i) == 0)
		return emit(o, f3 == 1 ? "csrw" : f3 == 2 ? "csrs" : "csrc", "%s, %s", c,
			    X(RS1(i)));
	if (f3 >= 5 && RD(i) == 0)
		return emit(o, f3 == 5 ? "csrwi" : f3 == 6 ? "csrsi" : "csrci", "%s, %u", c,
			    RS1(i));
	if (f3 >= 5)
		return emit(o, mn[f3], "%s, %s, %u", X(RD(i)), c, RS1(i));
	return emit(o, mn[f3], "%s, %s, %s", X(RD(i)), c, X(RS1(i)));
}

/* A static rounding mode is printed after the operands; dynamic is not. */
static int with_rm(struct out *o, int ret, uint32_t rm)
{
	static const char *const names[8] = { "rne", "rtz", "rdn", "rup", "rmm", 0, 0, 0 };
	size_t n = strlen(o->buf);

	if (ret || rm == 7)
		return ret;
	if (!names[rm])
		return -1;
	snprintf(o->buf + n, o->len - n, ", %s", names[rm]);
	return 0;
}

static int dis_fp(struct out *o, uint32_t i)
{
	static const char *const arith[4] = { "fadd.s", "fsub.s", "fmul.s", "fdiv.s" };
	uint32_t f7 = F7(i), rm = F3(i);

	switch (f7) {
	case 0x00:
	case 0x04:
	case 0x08:
	case 0x0c:
		return with_rm(o, emit(o, arith[f7 >> 2], "%s, %s, %s", F(RD(i)), F(RS1(i)),
				       F(RS2(i))), rm);
	case 0x2c:
		return RS2(i) ? -1 : with_rm(o, emit(o, "fsqrt.s", "%s, %s", F(RD(i)),
						     F(RS1(i))), rm);
	case 0x10: {
		static const char *const mn[3] = { "fsgnj.s", "fsgnjn.s", "fsgnjx.s" };
		static const char *const al[3] = { "fmv.s", "fneg.s", "fabs.s" };

		if (rm > 2)
			return -1;
		if (RS1(i) == RS2(i))
			return emit(o, al[rm], "%s, %s", F(RD(i)), F(RS1(i)));
		return emit(o, mn[rm], "%s, %s, %s", F(RD(i)), F(RS1(i)), F(RS2(i)));
	}
	case 0x14:
		if (rm > 1)
			return -1;
		return emit(o, rm ? "fmax.s" : "fmin.s", "%s, %s, %s", F(RD(i)), F(RS1(i)),
			    F(RS2(i)));
	case 0x50: {
		static const char *const mn[3] = { "fle.s", "flt.s", "feq.s" };

		if (rm > 2)
			return -1;
		return emit(o, mn[rm], "%s, %s, %s", X(RD(i)), F(RS1(i)), F(RS2(i)));
	}
	case 0x60:
		if (RS2(i) > 1)
			return -1;
		return with_rm(o, emit(o, RS2(i) ? "fcvt.wu.s" : "fcvt.w.s", "%s, %s",
				       X(RD(i)), F(RS1(i))), rm);
	case 0x68:
		if (RS2(i) > 1)
			return -1;
		return with_rm(o, emit(o, RS2(i) ? "fcvt.s.wu" : "fcvt.s.w", "%s, %s",
				       F(RD(i)), X(RS1(i))), rm);
	case 0x70:
		if (RS2(i))
			return -1;
		if (rm == 0)
			return emit(o, "fmv.x.w", "%s, %s", X(RD(i)), F(RS1(i)));
		if (rm == 1)
			return emit(o, "fclass.s", "%s, %s", X(RD(i)), F(RS1(i)));
		return -1;
	case 0x78:
		return RS2(i) || rm ? -1 : emit(o, "fmv.w.x", "%s, %s", F(RD(i)), X(RS1(i)));
	}
	return -1;
}

static int dis_vortex(struct out *o, uint32_t i)
{
	if (F7(i))
		return -1;
	switch (F3(i)) {
	case VX_F3_TMC:	return emit(o, "vx_tmc", "%s", X(RS1(i)));
	case VX_F3_WSPAWN: return emit(o, "vx_wspawn", "%s, %s", X(RS1(i)), X(RS2(i)));
	case VX_F3_SPLIT: return emit(o, "vx_split", "%s, %s, %s", X(RD(i)), X(RS1(i)), X(RS2(i)));
	case VX_F3_JOIN: return emit(o, "vx_join", "%s", X(RS1(i)));
	case VX_F3_BAR:	return emit(o, "vx_bar", "%s, %s", X(RS1(i)), X(RS2(i)));
	case VX_F3_PRED: return emit(o, "vx_pred", "%s, %s", X(RS1(i)), X(RS2(i)));
	}
	return -1;
}

static int dis_load_store(struct out *o, uint32_t i)
{
	static const char *const ld[8] = { "lb", "lh", "lw", 0, "lbu", "lhu", 0, 0 };
	static const char *const st[8] = { "sb", "sh", "sw", 0, 0, 0, 0, 0 };

	switch (OPC(i)) {
	case 0x03:
		return ld[F3(i)] ? emit(o, ld[F3(i)], "%s, %d(%s)", X(RD(i)), imm_i(i), X(RS1(i))) : -1;
	case 0x23:
		return st[F3(i)] ? emit(o, st[F3(i)], "%s, %d(%s)", X(RS2(i)), imm_s(i), X(RS1(i))) : -1;
	case 0x07:
		return F3(i) == 2 ? emit(o, "flw", "%s, %d(%s)", F(RD(i)), imm_i(i), X(RS1(i))) : -1;
	case 0x27:
		return F3(i) == 2 ? emit(o, "fsw", "%s, %d(%s)", F(RS2(i)), imm_s(i), X(RS1(i))) : -1;
	}
	return -1;
}

static int dis_jump(struct out *o, uint32_t i, uint32_t pc)
{
	uint32_t t = pc + imm_j(i);

	if (OPC(i) == 0x6f) {
		*o->target = t;
		if (RD(i) == 0)
			return emit(o, "j", "0x%x", t);
		if (RD(i) == 1)
			return emit(o, "jal", "0x%x", t);
		return emit(o, "jal", "%s, 0x%x", X(RD(i)), t);
	}
	if (F3(i))
		return -1;
	if (RD(i) == 0 && RS1(i) == 1 && !imm_i(i))
		return emit(o, "ret", NULL);
	if (RD(i) == 0 && !imm_i(i))
		return emit(o, "jr", "%s", X(RS1(i)));
	if (RD(i) == 0)
		return emit(o, "jr", "%d(%s)", imm_i(i), X(RS1(i)));
	if (RD(i) == 1 && !imm_i(i))
		return emit(o, "jalr", "%s", X(RS1(i)));
	if (RD(i) == 1)
		return emit(o, "jalr", "%d(%s)", imm_i(i), X(RS1(i)));
	if (!imm_i(i))
		return emit(o, "jalr", "%s, %s", X(RD(i)), X(RS1(i)));
	return emit(o, "jalr", "%s, %d(%s)", X(RD(i)), imm_i(i), X(RS1(i)));
}

static int dis_fence(struct out *o, uint32_t i)
{
	char pred[5], succ[5];
	int p = 0, q = 0;

	if (F3(i) == 1)
		return emit(o, "fence.i", NULL);
	if (F3(i))
		return -1;
	if (i >> 28 == 8)
		return emit(o, "fence.tso", NULL);
	for (int b = 3; b >= 0; b--) {
		if (i >> (24 + b) & 1)
			pred[p++] = "wroi"[b];
		if (i >> (20 + b) & 1)
			succ[q++] = "wroi"[b];
	}
	pred[p] = succ[q] = 0;
	if (p == 4 && q == 4)
		return emit(o, "fence", NULL);
	return emit(o, "fence", "%s, %s", p ? pred : "0", q ? succ : "0");
}

static int dis_fma(struct out *o, uint32_t i)
{
	static const char *const mn[4] = { "fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s" };

	if ((F7(i) & 3) != 0)
		return -1;
	return with_rm(o, emit(o, mn[(OPC(i) >> 2) & 3], "%s, %s, %s, %s", F(RD(i)),
			       F(RS1(i)), F(RS2(i)), F(RS3(i))), F3(i));
}

static int dis(struct out *o, uint32_t i, uint32_t pc)
{
	switch (OPC(i)) {
	case 0x37: return emit(o, "lui", "%s, %u", X(RD(i)), i >> 12);
	case 0x17: return emit(o, "auipc", "%s, %u", X(RD(i)), i >> 12);
	case 0x6f:
	case 0x67: return dis_jump(o, i, pc);
	case 0x63: return dis_branch(o, i, pc);
	case 0x03:
	case 0x23:
	case 0x07:
	case 0x27: return dis_load_store(o, i);
	case 0x13: return dis_op_imm(o, i);
	case 0x33: return dis_op(o, i);
	case 0x0f: return dis_fence(o, i);
	case 0x73: return dis_system(o, i);
	case 0x53: return dis_fp(o, i);
	case 0x43:
	case 0x47:
	case 0x4b:
	case 0x4f: return dis_fma(o, i);
	case VX_OPCODE_CUSTOM0: return dis_vortex(o, i);
	case VX_OPCODE_CUSTOM1:
		return i == (VX_OPCODE_CUSTOM1 | VX_F3_TRAP_ASSERT << 12) ?
		       emit(o, "vx_assert", NULL) : -1;
	}
	return -1;
}

int vx_disasm(uint32_t insn, uint32_t pc, char *buf, size_t len, uint32_t *target)
{
	uint32_t t = 0;
	struct out o = { buf, len, &t };
	int ret = dis(&o, insn, pc);

	if (ret)
		snprintf(buf, len, ".word 0x%08x", insn);
	if (target)
		*target = ret ? 0 : t;
	return ret;
}
