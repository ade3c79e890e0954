/* SPDX-License-Identifier: MIT */
/*
 * Printing from a kernel, as Vortex's vx_putchar() does: a byte store to
 * IO_COUT + (mhartid & 63) (upstream kernel/src/vx_print.S; hw/rtl/
 * VX_config.vh IO_COUT_ADDR).  The card records each byte with the lane's
 * mhartid (docs/hardware.md, "Console"); every lane prints its own bytes,
 * so a whole warp may print at once without diverging, as long as the
 * strings have the same length.
 */
#ifndef VX_PRINT_H
#define VX_PRINT_H

#include <stdint.h>

#include "vortex_regs.h"
#include "vx_intrinsics.h"

static inline void vx_putchar(int c)
{
	volatile uint8_t *cout = (volatile uint8_t *)(uintptr_t)
		(VX_IO_COUT_ADDR + (vx_hart_id() & (VX_IO_COUT_SIZE - 1)));

	*cout = (uint8_t)c;
}

static inline void vx_putstr(const char *s)
{
	while (*s)
		vx_putchar(*s++);
}

/* @v in decimal, @width digits, zero padded: the same length on every lane. */
static inline void vx_putdec(uint32_t v, int width)
{
	uint32_t div = 1;

	for (int i = 1; i < width; i++)
		div *= 10;
	for (int i = 0; i < width; i++, div /= 10)
		vx_putchar('0' + v / div % 10);
}

#endif /* VX_PRINT_H */
