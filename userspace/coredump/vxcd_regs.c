// SPDX-License-Identifier: GPL-2.0
/*
 * Every lane the text lists, a line each, for programs that check what
 * another reader (cuda-gdb, scripts/cuda-gdb-check.py) shows against the
 * text: "WARP LANE PC x0 .. x31 f0 .. f31 fcsr", the warp by its id in the
 * dump, the numbers in hex.
 */
#include <inttypes.h>
#include <stdio.h>

#include "vxcd.h"

static void regs_line(FILE *f, const struct vxcd_node *w, const struct vxcd_node *t)
{
	uint32_t x[32] = { 0 }, fp[32] = { 0 };
	struct vxcd_err err;
	uint64_t id = 0, lane = 0, pc = 0, fcsr = 0;
	int i;

	vxcd_u64(w, "id", "warps", &id, &err);
	vxcd_u64(w, "pc", "warps", &pc, &err);
	vxcd_u64(t, "lane", "threads", &lane, &err);
	vxcd_u64(t, "fcsr", "threads", &fcsr, &err);
	vxcd_list_u32(vxcd_get(t, "x"), x, 32);
	vxcd_list_u32(vxcd_get(t, "f"), fp, 32);
	fprintf(f, "%" PRIu64 " %" PRIu64 " 0x%08" PRIx64, id, lane, pc);
	for (i = 0; i < 32; i++)
		fprintf(f, " 0x%x", x[i]);
	for (i = 0; i < 32; i++)
		fprintf(f, " 0x%x", fp[i]);
	fprintf(f, " 0x%" PRIx64 "\n", fcsr);
}

/**
 * vxcd_registers() - the registers of every lane @d lists
 * @d: the validated dump
 * @f: where the lines go
 */
void vxcd_registers(const struct vxcd_dump *d, FILE *f)
{
	const struct vxcd_node *w, *t;
	int i, j;

	for (i = 0; (w = vxcd_item(vxcd_get(d->root, "warps"), i)); i++)
		for (j = 0; (t = vxcd_item(vxcd_get(w, "threads"), j)); j++)
			regs_line(f, w, t);
}
