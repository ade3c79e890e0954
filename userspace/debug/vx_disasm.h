/* SPDX-License-Identifier: MIT */
/*
 * A small RV32IMF + Zicsr + Vortex disassembler, and the register and CSR
 * names the debugger prints and parses (the guest has no objdump).
 */
#ifndef VX_DISASM_H
#define VX_DISASM_H

#include <stddef.h>
#include <stdint.h>

/**
 * vx_disasm() - one instruction as text ("addi a0, a0, 1")
 * @insn: the 32-bit word
 * @pc: its address, for branch and jump targets
 * @buf: receives the text, NUL-terminated
 * @len: size of @buf
 * @target: if not NULL, receives the target of a branch or jal (else 0)
 *
 * Mnemonic and operands as llvm-objdump prints them, with its common
 * aliases (li, mv, j, ret, csrr, beqz, ...); Vortex's custom-0/1
 * instructions by their names (tmc, wspawn, split, join, bar, pred,
 * vx_assert).  Compressed encodings do not exist on this card.
 * Return: 0, or -1 for an unknown encoding (@buf then holds ".word 0x...").
 */
int vx_disasm(uint32_t insn, uint32_t pc, char *buf, size_t len, uint32_t *target);

/** vx_reg_name() - ABI name of x@n ("a0"), or of f@n - 32 ("fa0") for n 32..63. */
const char *vx_reg_name(unsigned int n);

/**
 * vx_reg_parse() - register number of a name
 *
 * "x5", "t0", "fp", "f3", "ft3", "fcsr" or a CSR name ("mhartid",
 * "thread_id", "csr0x7b2"); GPRs are 0-31, FPRs 32-63, CSRs
 * 0x1000 + number (the uapi's DRM_VORTEX_DEBUG_REG_* numbering).
 * Return: the number, or -1.
 */
int vx_reg_parse(const char *name);

/** vx_csr_name() - name of CSR @csr, NULL if it has none here. */
const char *vx_csr_name(unsigned int csr);

/** vx_csr_names() - the @i-th named CSR, for listings; NULL past the end. */
const char *vx_csr_names(unsigned int i, unsigned int *csr);

#endif /* VX_DISASM_H */
