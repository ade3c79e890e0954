// SPDX-License-Identifier: GPL-2.0
/*
 * One lane of a dump as a standard RISC-V (RV32) Linux ELF core, so that
 * `gdb-multiarch kernel.elf core` shows where it stopped with source
 * lines: NT_PRSTATUS with the lane's pc and x1-x31, NT_FPREGSET with its
 * f0-f31 and fcsr, NT_AUXV whose AT_ENTRY is the grid's entry (gdb
 * relocates the kernel, a PIE linked at 0, by AT_ENTRY - e_entry), and
 * each buffer of the job as a PT_LOAD segment at its device address.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vortex_causes.h"
#include "vxcd.h"

#define PRSTATUS_SIZE		204	/* struct elf_prstatus, rv32 (bfd's elf32-riscv) */
#define PRSTATUS_CURSIG		12
#define PRSTATUS_PID		24
#define PRSTATUS_REG		72
#define AUXV_SIZE		(2 * 2 * 4)
/*
 * NT_FPREGSET of RV32F as gdb 13 reads it (".reg2"): f0-f31 in 32-bit
 * slots, fcsr, then one more zero word; 132 bytes is "too small" to it.
 */
#define FPREGSET_WORDS		34

struct core_seg {
	uint64_t iova, size;
	uint8_t *data;
};

static size_t note(uint8_t *p, uint32_t type, const void *desc, uint32_t size)
{
	Elf32_Nhdr nh = { .n_namesz = 5, .n_descsz = size, .n_type = type };

	memcpy(p, &nh, sizeof(nh));
	memcpy(p + sizeof(nh), "CORE\0\0\0", 8);
	memcpy(p + sizeof(nh) + 8, desc, size);
	return sizeof(nh) + 8 + ((size + 3) & ~3u);
}

/* The lane's registers from the text: x0-x31, f0-f31, fcsr. */
static int core_lane_regs(const struct vxcd_node *warp, int lane, uint32_t *x,
			  uint32_t *f, uint32_t *fcsr, struct vxcd_err *err)
{
	const struct vxcd_node *it;
	uint64_t v;
	int i;

	for (i = 0; (it = vxcd_item(vxcd_get(warp, "threads"), i)); i++) {
		if (vxcd_u64(it, "lane", "lane", &v, err) || v != (uint64_t)lane)
			continue;
		vxcd_list_u32(vxcd_get(it, "x"), x, 32);
		vxcd_list_u32(vxcd_get(it, "f"), f, 32);
		return vxcd_u64(it, "fcsr", "fcsr", &v, err) ? 0 : (*fcsr = v, 0);
	}
	vxcd_error(err, warp->line, "warps", "lane %d has no registers in this warp", lane);
	return -ENOENT;
}

/* The signal gdb shows for the dump: the stub's for the same stop. */
static int core_signal(const struct vxcd_dump *d)
{
	const struct vxcd_node *f = vxcd_item(vxcd_get(d->root, "fault-info"), 0);
	const struct vxcd_node *e = vxcd_get(d->root, "error");
	uint64_t cause = 0;
	struct vxcd_err err;

	if (e && e->value && !strcmp(e->value, "timeout"))
		return VX_GDB_SIGALRM;
	if (!f || vxcd_u64(f, "cause", "", &cause, &err) || cause == VX_ERR_NONE)
		return VX_GDB_SIGTRAP;
	return vx_cause_gdb_signal(cause);
}

/* The job's buffers, decoded to their full size. */
static int core_segments(const struct vxcd_dump *d, struct core_seg *seg, int max,
			 struct vxcd_err *err)
{
	const struct vxcd_node *bo;
	char where[32];
	int n;

	for (n = 0; n < max && (bo = vxcd_item(vxcd_get(d->root, "bos"), n)); n++) {
		snprintf(where, sizeof(where), "bos[%d]", n);
		if (vxcd_u64(bo, "iova", where, &seg[n].iova, err) ||
		    vxcd_u64(bo, "size", where, &seg[n].size, err) ||
		    vxcd_blob(bo, where, seg[n].size, &seg[n].data, err))
			return -EINVAL;
	}
	return n;
}

/**
 * vxcd_core() - an ELF core of @lane of warp @warp (the dump's id)
 * @d: the validated dump
 * @e: its CUDA ELF, for the grid's entry
 * @warp: warp id, or -1 for the faulting warp (else the first)
 * @lane: lane in that warp
 * @out: receives the file
 * @len: its bytes
 * @err: what is missing
 */
int vxcd_core(const struct vxcd_dump *d, const struct vxcd_elf *e, int warp,
	      int lane, uint8_t **out, size_t *len, struct vxcd_err *err)
{
	const struct vxcd_node *w = NULL, *f = vxcd_item(vxcd_get(d->root, "fault-info"), 0);
	uint8_t prs[PRSTATUS_SIZE] = { 0 }, notes[512];
	uint32_t x[32] = { 0 }, fr[32] = { 0 }, fcsr = 0, auxv[4] = { AT_ENTRY, 0, AT_NULL, 0 };
	uint32_t fpregs[FPREGSET_WORDS] = { 0 };
	struct core_seg seg[64];
	uint64_t v, pc, off;
	const uint64_t *grid;
	Elf32_Ehdr *eh;
	Elf32_Phdr *ph;
	size_t nlen, total;
	int i, nseg;

	if (warp < 0 && f && !vxcd_u64(f, "warp", "", &v, err))
		warp = v;
	for (i = 0; (w = vxcd_item(vxcd_get(d->root, "warps"), i)); i++)
		if (warp < 0 || (!vxcd_u64(w, "id", "", &v, err) && v == (uint64_t)warp))
			break;
	if (!w) {
		vxcd_error(err, 0, "warps", "no warp %d in the dump", warp);
		return -ENOENT;
	}
	if (core_lane_regs(w, lane, x, fr, &fcsr, err) || vxcd_u64(w, "pc", "warp", &pc, err))
		return -ENOENT;
	grid = vxcd_elf_section(e, ".cudbg.gridtbl.dev0", NULL, NULL);
	auxv[1] = grid ? grid[3] : 0;	/* functionEntry */

	x[0] = pc;			/* the gregset's slot 0 is pc */
	memcpy(prs + PRSTATUS_REG, x, sizeof(x));
	i = core_signal(d);
	memcpy(prs + PRSTATUS_CURSIG, &i, 2);
	i = 1;
	memcpy(prs + PRSTATUS_PID, &i, 4);
	nlen = note(notes, NT_PRSTATUS, prs, sizeof(prs));
	memcpy(fpregs, fr, sizeof(fr));
	fpregs[32] = fcsr;
	nlen += note(notes + nlen, NT_FPREGSET, fpregs, sizeof(fpregs));
	nlen += note(notes + nlen, NT_AUXV, auxv, sizeof(auxv));

	nseg = core_segments(d, seg, 64, err);
	if (nseg < 0)
		return -EINVAL;
	off = sizeof(*eh) + (nseg + 1) * sizeof(*ph);
	total = off + nlen;
	for (i = 0; i < nseg; i++)
		total += seg[i].size;
	*out = calloc(1, total);
	eh = (Elf32_Ehdr *)*out;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS32;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_CORE;
	eh->e_machine = EM_RISCV;
	eh->e_version = EV_CURRENT;
	eh->e_flags = 0x2;		/* EF_RISCV_FLOAT_ABI_SINGLE, as the kernels */
	eh->e_ehsize = sizeof(*eh);
	eh->e_phoff = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = nseg + 1;
	ph = (Elf32_Phdr *)(*out + sizeof(*eh));
	ph[0] = (Elf32_Phdr){ .p_type = PT_NOTE, .p_offset = off, .p_filesz = nlen, .p_align = 4 };
	memcpy(*out + off, notes, nlen);
	off += nlen;
	for (i = 0; i < nseg; i++) {
		ph[i + 1] = (Elf32_Phdr){
			.p_type = PT_LOAD, .p_offset = off, .p_vaddr = seg[i].iova,
			.p_filesz = seg[i].size, .p_memsz = seg[i].size,
			.p_flags = PF_R | PF_W | PF_X, .p_align = 1,
		};
		memcpy(*out + off, seg[i].data, seg[i].size);
		off += seg[i].size;
		free(seg[i].data);
	}
	*len = total;
	return 0;
}
