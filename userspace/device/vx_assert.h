/* SPDX-License-Identifier: MIT */
/*
 * Device-side assert: stops the warp with ERR_CAUSE = ASSERT.
 *
 * The custom-1 trap (opcode 0x2b, funct3 0) copies a0..a3 of the lowest
 * active lane into ERR_INFO0..3.  This header's ABI, which the runtime and
 * crash-dump decoders rely on: a0 = device address of the expression text,
 * a1 = of the file name, a2 = line number, a3 = of the function name.  All
 * three strings live in the kernel image, so a host tool maps them back
 * through the load base (docs/hardware.md, "Kernel binaries").
 */
#ifndef VX_ASSERT_H
#define VX_ASSERT_H

#include <stdint.h>

#include "vx_intrinsics.h"

static inline __attribute__((noreturn)) void
vx_trap_assert(const char *expr, const char *file, uint32_t line, const char *func)
{
	register const char *a0 __asm__("a0") = expr;
	register const char *a1 __asm__("a1") = file;
	register uint32_t a2 __asm__("a2") = line;
	register const char *a3 __asm__("a3") = func;

	__asm__ volatile (".insn r 0x2b, 0, 0, x0, x0, x0"
			  :: "r"(a0), "r"(a1), "r"(a2), "r"(a3) : "memory");
	__builtin_unreachable();
}

#ifdef NDEBUG
#define vx_assert(expr)	((void)0)
#else
/*
 * Only the lanes for which expr is false reach the trap, so it reports
 * the lowest failing lane, and a passing lowest lane cannot carry a
 * failing one past the test.
 */
#define vx_assert(expr) do {						\
	uint32_t __vx_ok = !!(expr);					\
	VX_IF (!__vx_ok) {						\
		vx_trap_assert(#expr, __FILE__, __LINE__, __func__);	\
	} VX_ENDIF;							\
} while (0)
#endif

#endif /* VX_ASSERT_H */
