/* SPDX-License-Identifier: MIT */
/*
 * Kernel ELF parsing, without a device: used by libvortex and by the host
 * tests that load kernels straight into the simulator's VRAM.
 */
#ifndef VX_ELF_H
#define VX_ELF_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct vx_elf_layout - what a kernel binary needs in VRAM
 * @vaddr_lo: lowest PT_LOAD address (0 for the project's binaries)
 * @size: bytes from @vaddr_lo to the end of the highest PT_LOAD (memsz)
 * @filesz: bytes from @vaddr_lo to the end of the last file-backed byte: what
 *	a .vxbin holds, the rest up to @size being bss
 * @align: largest PT_LOAD alignment, at most 4096
 * @entry: e_entry - @vaddr_lo
 * @pie: ET_DYN: can be loaded anywhere; ET_EXEC only at @vaddr_lo
 * @nrela: R_RISCV_RELATIVE relocations that will be applied
 */
struct vx_elf_layout {
	uint32_t vaddr_lo;
	uint32_t size;
	uint32_t filesz;
	uint32_t align;
	uint32_t entry;
	int pie;
	uint32_t nrela;
};

/**
 * vx_elf_parse() - check a kernel ELF and compute its layout
 * @elf: file bytes
 * @len: file size
 * @out: layout
 *
 * Return: 0 or -ENOEXEC (not ELF32 little-endian RISC-V, segments outside
 * the file, overlapping or wrapping, relocations other than RELATIVE).
 */
int vx_elf_parse(const void *elf, size_t len, struct vx_elf_layout *out);

/**
 * vx_elf_build() - the image as it must appear in VRAM at @base
 * @elf: file bytes (already accepted by vx_elf_parse())
 * @len: file size
 * @l: its layout
 * @base: device address of the image's first byte
 * @dst: l->size bytes of host memory, filled completely (bss zeroed)
 *
 * Return: 0, -EADDRNOTAVAIL for a non-PIE not linked at @base, -ENOEXEC.
 */
int vx_elf_build(const void *elf, size_t len, const struct vx_elf_layout *l,
		 uint32_t base, void *dst);

/**
 * vx_elf_symbol() - address of a symbol in the ELF (not relocated)
 * Return: 0 and *value, or -ENOENT.
 */
int vx_elf_symbol(const void *elf, size_t len, const char *name, uint32_t *value);

/**
 * vx_elf_symbol_at() - the symbol that names ELF address @addr
 * @name: receives a pointer into @elf's string table
 * @value: receives the symbol's address (so @addr - *@value is the offset)
 *
 * Prefers a symbol whose extent (st_size) holds @addr, then the nearest
 * one below it; section, file and local-label (".L") symbols never match.
 * Return: 0, or -ENOENT.
 */
int vx_elf_symbol_at(const void *elf, size_t len, uint32_t addr,
		     const char **name, uint32_t *value);

/* Called by vx_elf_symbols(); @type is STT_*.  Non-zero stops the walk. */
typedef int (*vx_elf_symbol_fn)(void *opaque, const char *name, uint32_t value,
				uint32_t size, unsigned int type);

/**
 * vx_elf_symbols() - every named symbol of the ELF's symbol tables
 * Return: the first non-zero value @fn returned, or 0.
 */
int vx_elf_symbols(const void *elf, size_t len, vx_elf_symbol_fn fn, void *opaque);

#endif /* VX_ELF_H */
