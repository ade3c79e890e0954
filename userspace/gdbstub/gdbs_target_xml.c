// SPDX-License-Identifier: MIT
/*
 * DOC: the target description, and gdb's register numbers
 *
 * gdb's own RISC-V numbering is used as the remote numbering, so one
 * table serves both: x0-x31 are 0-31 (ABI names, as gdb's
 * 32bit-cpu.xml), pc 32, f0-f31 33-64 (ieee_single: the card is
 * RV32IMF), CSR n is 65 + n (so fflags, frm, fcsr are 66-68, in the fpu
 * feature as gdb expects).  The csr feature lists every CSR the card has
 * (vx_disasm's table, docs/hardware.md) in the "vortex" register group:
 * `info registers vortex` shows them, plain `info registers` stays x0-x31
 * and pc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbs.h"
#include "vx_disasm.h"

#define GDB_FIRST_FPR		33
#define GDB_FIRST_CSR		65
#define FP_CSR_LAST		0x003	/* fflags, frm, fcsr: in the fpu feature */

int64_t gdbs_regnum(uint32_t n)
{
	unsigned int csr;

	if (n < 32)
		return VXDBG_REG_X(n);
	if (n == GDBS_REG_PC)
		return VXDBG_REG_PC;
	if (n < GDB_FIRST_CSR)
		return VXDBG_REG_F(n - GDB_FIRST_FPR);
	for (unsigned int i = 0; vx_csr_names(i, &csr); i++)
		if (n == GDB_FIRST_CSR + csr)
			return VXDBG_REG_CSR(csr);
	return -1;
}

static void put_reg(FILE *f, const char *name, const char *type, unsigned int regnum,
		    const char *group)
{
	fprintf(f, "    <reg name=\"%s\" bitsize=\"32\" type=\"%s\" regnum=\"%u\"%s%s%s/>\n",
		name, type, regnum, group ? " group=\"" : "", group ?: "", group ? "\"" : "");
}

static void cpu_feature(FILE *f)
{
	fputs("  <feature name=\"org.gnu.gdb.riscv.cpu\">\n", f);
	for (unsigned int i = 0; i < 32; i++) {
		const char *type = i == 1 ? "code_ptr" : i == 2 || i == 3 ? "data_ptr" : "int";

		put_reg(f, i == 8 ? "fp" : vx_reg_name(i), type, i, NULL);
	}
	put_reg(f, "pc", "code_ptr", GDBS_REG_PC, NULL);
	fputs("  </feature>\n", f);
}

static void fpu_feature(FILE *f)
{
	unsigned int csr;
	const char *name;

	fputs("  <feature name=\"org.gnu.gdb.riscv.fpu\">\n", f);
	for (unsigned int i = 0; i < 32; i++)
		put_reg(f, vx_reg_name(32 + i), "ieee_single", GDB_FIRST_FPR + i, NULL);
	for (unsigned int i = 0; (name = vx_csr_names(i, &csr)); i++)
		if (csr <= FP_CSR_LAST)
			put_reg(f, name, "int", GDB_FIRST_CSR + csr, NULL);
	fputs("  </feature>\n", f);
}

static void csr_feature(FILE *f)
{
	unsigned int csr;
	const char *name;

	fputs("  <feature name=\"org.gnu.gdb.riscv.csr\">\n", f);
	for (unsigned int i = 0; (name = vx_csr_names(i, &csr)); i++)
		if (csr > FP_CSR_LAST)
			put_reg(f, name, "int", GDB_FIRST_CSR + csr, "vortex");
	fputs("  </feature>\n", f);
}

char *gdbs_target_xml(size_t *len)
{
	char *doc = NULL;
	FILE *f = open_memstream(&doc, len);

	if (!f)
		return NULL;
	fputs("<?xml version=\"1.0\"?>\n"
	      "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
	      "<target version=\"1.0\">\n"
	      "  <architecture>riscv:rv32</architecture>\n", f);
	cpu_feature(f);
	fpu_feature(f);
	csr_feature(f);
	fputs("</target>\n", f);
	if (fclose(f)) {
		free(doc);
		return NULL;
	}
	return doc;
}
