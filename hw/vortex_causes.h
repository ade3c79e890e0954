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
 *
 * The last column is the cause's CUDA exception (CUDBGException_t,
 * cudadebugger.h; the value each lane's CudbgThreadTableEntry.exception
 * holds, ../shared/specs/cudacoredump.h.txt), the one map from card errors
 * to CUDA exceptions: the crash dump's ELF (driver/vortex_dump_elf.c) and
 * libvortex-debug's exception events (userspace/debug/vxdbg.c) both read
 * it.  The card reports the faulting lane and PC exactly (ERR_THREAD,
 * ERR_PC, docs/hardware.md "Errors"), and "all lane errors are precise;
 * the exact instruction and lane that caused the error are known" (CUDA
 * Debugger API, 2.4 Exception Reporting), so a data access outside memory
 * or through no mapping is LANE_ILLEGAL_ADDRESS (cuda-gdb's
 * CUDA_EXCEPTION_1, "a thread accesses an illegal (out of bounds) global
 * address"), a misaligned one LANE_MISALIGNED_ADDRESS (CUDA_EXCEPTION_11,
 * "a global address that is not correctly aligned").  A bad fetch is
 * WARP_INVALID_PC; an overflowing or mismatched IPDOM stack, which each
 * warp has its own of, WARP_HARDWARE_STACK_OVERFLOW (CUDA_EXCEPTION_9).
 * CUDA has no barrier exception: a bar whose count no warp set can meet
 * is an instruction the warp cannot execute, WARP_ILLEGAL_INSTRUCTION,
 * as are ecall and ebreak (RISC-V's mcause 8 and 3, privileged spec
 * 3.1.15, which the card raises as errors rather than traps), and a
 * conditional branch whose active lanes disagree outside split/join: a
 * warp has one PC, so it cannot execute that branch without the IPDOM
 * stack (upstream's simulator aborts there, "divergent branch!"); it is
 * the warp's instruction, not one lane's address, hence SIGILL and
 * CUDA_EXCEPTION_4, "any thread within a warp has executed an illegal
 * instruction".
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

/* CUDBGException_t (cudadebugger.h), the codes this card's causes map to */
#define VX_CUDA_EXCEPTION_NONE				0
#define VX_CUDA_EXCEPTION_LANE_ILLEGAL_ADDRESS		1
#define VX_CUDA_EXCEPTION_WARP_ILLEGAL_INSTRUCTION	4
#define VX_CUDA_EXCEPTION_WARP_INVALID_PC		8
#define VX_CUDA_EXCEPTION_WARP_HARDWARE_STACK_OVERFLOW	9
#define VX_CUDA_EXCEPTION_LANE_MISALIGNED_ADDRESS	11
#define VX_CUDA_EXCEPTION_WARP_ASSERT			12
#define VX_CUDA_EXCEPTION_UNKNOWN			0xffffffffu

#define VX_CAUSES(X)							\
	X(VX_ERR_NONE, "NONE", "none", VX_GDB_SIGTRAP,	\
	  VX_CUDA_EXCEPTION_NONE) \
	X(VX_ERR_ILLEGAL_INSTR, "ILLEGAL_INSTR", "illegal instruction", VX_GDB_SIGILL,	\
	  VX_CUDA_EXCEPTION_WARP_ILLEGAL_INSTRUCTION) \
	X(VX_ERR_MISALIGNED_LOAD, "MISALIGNED_LOAD", "misaligned load", VX_GDB_SIGBUS,	\
	  VX_CUDA_EXCEPTION_LANE_MISALIGNED_ADDRESS) \
	X(VX_ERR_MISALIGNED_STORE, "MISALIGNED_STORE", "misaligned store", VX_GDB_SIGBUS,	\
	  VX_CUDA_EXCEPTION_LANE_MISALIGNED_ADDRESS) \
	X(VX_ERR_LOAD_FAULT, "LOAD_FAULT", "load outside device memory", VX_GDB_SIGSEGV,	\
	  VX_CUDA_EXCEPTION_LANE_ILLEGAL_ADDRESS) \
	X(VX_ERR_STORE_FAULT, "STORE_FAULT", "store outside device memory", VX_GDB_SIGSEGV,	\
	  VX_CUDA_EXCEPTION_LANE_ILLEGAL_ADDRESS) \
	X(VX_ERR_FETCH_FAULT, "FETCH_FAULT", "fetch outside device memory", VX_GDB_SIGSEGV,	\
	  VX_CUDA_EXCEPTION_WARP_INVALID_PC) \
	X(VX_ERR_EBREAK, "EBREAK", "ebreak", VX_GDB_SIGILL,	\
	  VX_CUDA_EXCEPTION_WARP_ILLEGAL_INSTRUCTION) \
	X(VX_ERR_ASSERT, "ASSERT", "device-side assert", VX_GDB_SIGABRT,	\
	  VX_CUDA_EXCEPTION_WARP_ASSERT) \
	X(VX_ERR_ECALL, "ECALL", "ecall", VX_GDB_SIGILL,	\
	  VX_CUDA_EXCEPTION_WARP_ILLEGAL_INSTRUCTION) \
	X(VX_ERR_DIVERGENCE, "DIVERGENCE", "divergence stack", VX_GDB_SIGSEGV,	\
	  VX_CUDA_EXCEPTION_WARP_HARDWARE_STACK_OVERFLOW) \
	X(VX_ERR_BAD_PACKET, "BAD_PACKET", "bad ring packet", VX_GDB_SIGSEGV,	\
	  VX_CUDA_EXCEPTION_UNKNOWN) \
	X(VX_ERR_BARRIER, "BARRIER", "impossible barrier", VX_GDB_SIGILL,	\
	  VX_CUDA_EXCEPTION_WARP_ILLEGAL_INSTRUCTION) \
	X(VX_ERR_MISALIGNED_FETCH, "MISALIGNED_FETCH", "jump to a misaligned target", VX_GDB_SIGSEGV,	\
	  VX_CUDA_EXCEPTION_WARP_INVALID_PC) \
	X(VX_ERR_FETCH_PAGE_FAULT, "FETCH_PAGE_FAULT", "page fault on fetch", VX_GDB_SIGSEGV,	\
	  VX_CUDA_EXCEPTION_WARP_INVALID_PC) \
	X(VX_ERR_LOAD_PAGE_FAULT, "LOAD_PAGE_FAULT", "page fault on load", VX_GDB_SIGSEGV,	\
	  VX_CUDA_EXCEPTION_LANE_ILLEGAL_ADDRESS) \
	X(VX_ERR_STORE_PAGE_FAULT, "STORE_PAGE_FAULT", "page fault on store", VX_GDB_SIGSEGV,	\
	  VX_CUDA_EXCEPTION_LANE_ILLEGAL_ADDRESS) \
	X(VX_ERR_DIVERGENT_BRANCH, "DIVERGENT_BRANCH", "divergent branch", VX_GDB_SIGILL,	\
	  VX_CUDA_EXCEPTION_WARP_ILLEGAL_INSTRUCTION)

/** vx_cause_name() - "ILLEGAL_INSTR", ...; NULL for a cause this table lacks */
static inline const char *vx_cause_name(unsigned int cause)
{
	switch (cause) {
#define VX_CAUSE_NAME(c, name, text, sig, cuda) case c: return name;
	VX_CAUSES(VX_CAUSE_NAME)
#undef VX_CAUSE_NAME
	}
	return 0;
}

/** vx_cause_text() - "illegal instruction", ...; "unknown" for others */
static inline const char *vx_cause_text(unsigned int cause)
{
	switch (cause) {
#define VX_CAUSE_TEXT(c, name, text, sig, cuda) case c: return text;
	VX_CAUSES(VX_CAUSE_TEXT)
#undef VX_CAUSE_TEXT
	}
	return "unknown";
}

/** vx_cause_gdb_signal() - gdb's signal for a fault of @cause (SIGSEGV if unknown) */
static inline int vx_cause_gdb_signal(unsigned int cause)
{
	switch (cause) {
#define VX_CAUSE_SIG(c, name, text, sig, cuda) case c: return sig;
	VX_CAUSES(VX_CAUSE_SIG)
#undef VX_CAUSE_SIG
	}
	return VX_GDB_SIGSEGV;
}

/**
 * vx_cause_cuda_exception() - the CUDBGException_t of a fault of @cause
 * (VX_CUDA_EXCEPTION_UNKNOWN for a cause this table lacks)
 */
static inline unsigned int vx_cause_cuda_exception(unsigned int cause)
{
	switch (cause) {
#define VX_CAUSE_CUDA(c, name, text, sig, cuda) case c: return cuda;
	VX_CAUSES(VX_CAUSE_CUDA)
#undef VX_CAUSE_CUDA
	}
	return VX_CUDA_EXCEPTION_UNKNOWN;
}

/**
 * vx_cuda_exception_name() - cuda-gdb's words for a CUDBGException_t this
 * table uses ("Lane Illegal Address", ...); "Unknown" for others
 */
static inline const char *vx_cuda_exception_name(unsigned int exception)
{
	switch (exception) {
	case VX_CUDA_EXCEPTION_NONE:
		return "None";
	case VX_CUDA_EXCEPTION_LANE_ILLEGAL_ADDRESS:
		return "Lane Illegal Address";
	case VX_CUDA_EXCEPTION_WARP_ILLEGAL_INSTRUCTION:
		return "Warp Illegal Instruction";
	case VX_CUDA_EXCEPTION_WARP_INVALID_PC:
		return "Warp Invalid PC";
	case VX_CUDA_EXCEPTION_WARP_HARDWARE_STACK_OVERFLOW:
		return "Warp Hardware Stack Overflow";
	case VX_CUDA_EXCEPTION_LANE_MISALIGNED_ADDRESS:
		return "Lane Misaligned Address";
	case VX_CUDA_EXCEPTION_WARP_ASSERT:
		return "Warp Assert";
	}
	return "Unknown";
}

#endif /* VORTEX_CAUSES_H */
