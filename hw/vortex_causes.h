/* SPDX-License-Identifier: MIT */
/*
 * The card's error causes (VX_ERR_*, hw/vortex_regs.h), named once for
 * everything that shows them: the driver's log and crash dump, vxdbg, the
 * gdb stub's stop signals and vortex-coredump's summary and gdb core.
 * Plain C, no types beyond int and char: the kernel, the device model and
 * the tools include it alike.
 *
 * Each row: the cause, its name as docs/hardware.md spells it, what it
 * means in words, and the signal gdb reports for it (gdb's numbering,
 * include/gdb/signals.def: 4 SIGILL, 6 SIGABRT, 10 SIGBUS, 11 SIGSEGV; the
 * same on Linux but for SIGBUS, 7 there).  A job that timed out has no
 * cause (VX_ERR_NONE) and reports VX_GDB_SIGALRM; a halt without a fault
 * reports VX_GDB_SIGTRAP.
 */
#ifndef VORTEX_CAUSES_H
#define VORTEX_CAUSES_H

#include "vortex_regs.h"

#define VX_GDB_SIGILL	4
#define VX_GDB_SIGTRAP	5
#define VX_GDB_SIGABRT	6
#define VX_GDB_SIGBUS	10
#define VX_GDB_SIGSEGV	11
#define VX_GDB_SIGALRM	14

#define VX_CAUSES(X)							\
	X(VX_ERR_NONE, "NONE", "none", VX_GDB_SIGTRAP)			\
	X(VX_ERR_ILLEGAL_INSTR, "ILLEGAL_INSTR", "illegal instruction", VX_GDB_SIGILL) \
	X(VX_ERR_MISALIGNED_LOAD, "MISALIGNED_LOAD", "misaligned load", VX_GDB_SIGBUS) \
	X(VX_ERR_MISALIGNED_STORE, "MISALIGNED_STORE", "misaligned store", VX_GDB_SIGBUS) \
	X(VX_ERR_LOAD_FAULT, "LOAD_FAULT", "load outside device memory", VX_GDB_SIGSEGV) \
	X(VX_ERR_STORE_FAULT, "STORE_FAULT", "store outside device memory", VX_GDB_SIGSEGV) \
	X(VX_ERR_FETCH_FAULT, "FETCH_FAULT", "fetch outside device memory", VX_GDB_SIGSEGV) \
	X(VX_ERR_EBREAK, "EBREAK", "ebreak", VX_GDB_SIGILL)		\
	X(VX_ERR_ASSERT, "ASSERT", "device-side assert", VX_GDB_SIGABRT) \
	X(VX_ERR_ECALL, "ECALL", "ecall", VX_GDB_SIGILL)		\
	X(VX_ERR_DIVERGENCE, "DIVERGENCE", "divergence stack", VX_GDB_SIGSEGV) \
	X(VX_ERR_BAD_PACKET, "BAD_PACKET", "bad ring packet", VX_GDB_SIGSEGV) \
	X(VX_ERR_BARRIER, "BARRIER", "impossible barrier", VX_GDB_SIGILL) \
	X(VX_ERR_MISALIGNED_FETCH, "MISALIGNED_FETCH", "jump to a misaligned target", \
	  VX_GDB_SIGSEGV)						\
	X(VX_ERR_FETCH_PAGE_FAULT, "FETCH_PAGE_FAULT", "page fault on fetch", VX_GDB_SIGSEGV) \
	X(VX_ERR_LOAD_PAGE_FAULT, "LOAD_PAGE_FAULT", "page fault on load", VX_GDB_SIGSEGV) \
	X(VX_ERR_STORE_PAGE_FAULT, "STORE_PAGE_FAULT", "page fault on store", VX_GDB_SIGSEGV)

/** vx_cause_name() - "ILLEGAL_INSTR", ...; NULL for a cause this table lacks */
static inline const char *vx_cause_name(unsigned int cause)
{
	switch (cause) {
#define VX_CAUSE_NAME(c, name, text, sig) case c: return name;
	VX_CAUSES(VX_CAUSE_NAME)
#undef VX_CAUSE_NAME
	}
	return 0;
}

/** vx_cause_text() - "illegal instruction", ...; "unknown" for others */
static inline const char *vx_cause_text(unsigned int cause)
{
	switch (cause) {
#define VX_CAUSE_TEXT(c, name, text, sig) case c: return text;
	VX_CAUSES(VX_CAUSE_TEXT)
#undef VX_CAUSE_TEXT
	}
	return "unknown";
}

/** vx_cause_gdb_signal() - gdb's signal for a fault of @cause (SIGSEGV if unknown) */
static inline int vx_cause_gdb_signal(unsigned int cause)
{
	switch (cause) {
#define VX_CAUSE_SIG(c, name, text, sig) case c: return sig;
	VX_CAUSES(VX_CAUSE_SIG)
#undef VX_CAUSE_SIG
	}
	return VX_GDB_SIGSEGV;
}

#endif /* VORTEX_CAUSES_H */
