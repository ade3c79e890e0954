// SPDX-License-Identifier: MIT
/*
 * vxdbg's disassembler against llvm-objdump, instruction by instruction,
 * over every device program the build made (the sample kernels and the
 * ISA test programs), plus the Vortex instructions llvm does not know and
 * the register names the debugger parses.  Without llvm-objdump on the
 * host the comparison is skipped, the rest still runs.
 */
#include <dirent.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "vx_asm.h"
#include "vx_disasm.h"

#ifndef VX_KERNEL_DIR
#define VX_KERNEL_DIR "build/riscv"
#endif
#ifndef VX_TEST_RV_DIR
#define VX_TEST_RV_DIR "build/rv/isa"
#endif

/* Collapses whitespace, drops llvm's " <sym+off>" annotation. */
static void normalize(char *s)
{
	char *lt = strstr(s, " <"), *w = s;
	bool space = false;

	if (!lt)
		lt = strstr(s, "\t<");
	if (lt)
		*lt = 0;
	for (char *r = s; *r; r++) {
		if (*r == ' ' || *r == '\t') {
			space = w != s;
			continue;
		}
		if (space)
			*w++ = ' ';
		space = false;
		*w++ = *r;
	}
	*w = 0;
}

/* llvm-objdump knows no Vortex CSR (nor dscratch2/3): it prints numbers. */
static void csr_names_to_numbers(char *s, size_t len)
{
	unsigned int csr;
	const char *name;

	for (unsigned int i = 0; (name = vx_csr_names(i, &csr)); i++) {
		char *p = strstr(s, name);
		size_t n = strlen(name);
		char tail[128];

		if (!p || (p[n] && p[n] != ',') ||
		    !(csr == 0x7b4 || csr == 0x7b5 || (csr >= 0xcc0 && csr <= 0xcdc) ||
		      (csr >= 0xfc0 && csr <= 0xfc2)))
			continue;
		snprintf(tail, sizeof(tail), "%s", p + n);
		snprintf(p, len - (p - s), "%u%s", csr, tail);
	}
}

/* Compares every line llvm-objdump prints for @path; returns mismatches. */
static int compare_file(struct __test_metadata *_metadata, const char *path, int *lines)
{
	char cmd[1200], line[512], mine[128];
	int bad = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "llvm-objdump -d --mattr=+m,+f %s 2>/dev/null", path);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p)) {
		unsigned int addr, b[4];
		char *text;
		uint32_t insn;
		int n;

		if (sscanf(line, " %x: %x %x %x %x %n", &addr, &b[0], &b[1], &b[2], &b[3], &n) != 5)
			continue;
		text = line + n;
		text[strcspn(text, "\n")] = 0;
		if (strstr(text, "<unknown>"))
			continue;
		insn = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24;
		vx_disasm(insn, addr, mine, sizeof(mine), NULL);
		csr_names_to_numbers(mine, sizeof(mine));
		normalize(mine);
		normalize(text);
		++*lines;
		if (strcmp(mine, text) && bad++ < 10)
			TH_LOG("%s+0x%x %08x: llvm '%s', vxdbg '%s'", path, addr, insn, text, mine);
	}
	pclose(p);
	return bad;
}

static int compare_dir(struct __test_metadata *_metadata, const char *dir, const char *suffix,
		       int *lines)
{
	struct dirent *de;
	char path[1024];
	int bad = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name), m = strlen(suffix);

		if (n <= m || strcmp(de->d_name + n - m, suffix))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		bad += compare_file(_metadata, path, lines);
	}
	closedir(d);
	return bad;
}

TEST(matches_llvm_objdump_on_every_device_program)
{
	int lines = 0, bad;

	if (system("llvm-objdump --version >/dev/null 2>&1"))
		SKIP(return, "no llvm-objdump on this host");
	bad = compare_dir(_metadata, VX_KERNEL_DIR, ".elf", &lines) +
	      compare_dir(_metadata, VX_TEST_RV_DIR, ".sim.elf", &lines);
	TH_LOG("%d instructions compared, %d differ", lines, bad);
	EXPECT_LT(500, lines);
	EXPECT_EQ(0, bad);
}

TEST(vortex_instructions_by_name)
{
	static const struct {
		uint32_t insn;
		const char *text;
	} cases[] = {
		{ TMC(10), "vx_tmc a0" },
		{ RV_R(0, 12, 11, VX_F3_WSPAWN, 0, VX_OPCODE_CUSTOM0), "vx_wspawn a1, a2" },
		{ RV_R(0, 0, 11, VX_F3_SPLIT, 12, VX_OPCODE_CUSTOM0), "vx_split a2, a1, zero" },
		{ RV_R(0, 0, 12, VX_F3_JOIN, 0, VX_OPCODE_CUSTOM0), "vx_join a2" },
		{ RV_R(0, 6, 5, VX_F3_BAR, 0, VX_OPCODE_CUSTOM0), "vx_bar t0, t1" },
		{ RV_R(0, 6, 5, VX_F3_PRED, 0, VX_OPCODE_CUSTOM0), "vx_pred t0, t1" },
		{ VX_OPCODE_CUSTOM1, "vx_assert" },
		{ EBREAK, "ebreak" },
		{ CSRR(5, VX_CSR_THREAD_ID), "csrr t0, thread_id" },
		{ CSRW(VX_CSR_DSCRATCH(3), 5), "csrw dscratch3, t0" },
		{ ILLEGAL, ".word 0x00000000" },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		vx_disasm(cases[i].insn, 0, buf, sizeof(buf), NULL);
		normalize(buf);
		EXPECT_STREQ(cases[i].text, buf);
	}
}

TEST(branch_targets_are_absolute)
{
	char buf[64];
	uint32_t t;

	EXPECT_EQ(0, vx_disasm(BNE(5, 0, -8), 0x80001010, buf, sizeof(buf), &t));
	EXPECT_EQ(0x80001008, t);
	EXPECT_EQ(0, vx_disasm(JAL(1, 0x40), 0x80000000, buf, sizeof(buf), &t));
	EXPECT_EQ(0x80000040, t);
	EXPECT_EQ(0, vx_disasm(ADDI(1, 1, 1), 0, buf, sizeof(buf), &t));
	EXPECT_EQ(0, t);
}

TEST(register_names_parse)
{
	EXPECT_EQ(5, vx_reg_parse("x5"));
	EXPECT_EQ(5, vx_reg_parse("t0"));
	EXPECT_EQ(8, vx_reg_parse("fp"));
	EXPECT_EQ(8, vx_reg_parse("s0"));
	EXPECT_EQ(0, vx_reg_parse("zero"));
	EXPECT_EQ(32 + 3, vx_reg_parse("f3"));
	EXPECT_EQ(32 + 10, vx_reg_parse("fa0"));
	EXPECT_EQ(0x1003, vx_reg_parse("fcsr"));
	EXPECT_EQ(0x1f14, vx_reg_parse("mhartid"));
	EXPECT_EQ(0x1cc0, vx_reg_parse("thread_id"));
	EXPECT_EQ(0x17b2, vx_reg_parse("csr0x7b2"));
	EXPECT_EQ(-1, vx_reg_parse("x32"));
	EXPECT_EQ(-1, vx_reg_parse("f32"));
	EXPECT_EQ(-1, vx_reg_parse("csr0x1000"));
	EXPECT_EQ(-1, vx_reg_parse("pc"));
	EXPECT_STREQ("a0", vx_reg_name(10));
	EXPECT_STREQ("fa0", vx_reg_name(42));
}

TEST_HARNESS_MAIN
