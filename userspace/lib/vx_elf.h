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
 * @tls_size: PT_TLS's p_memsz (0 without one): one hart's thread-local
 *	block, which Vortex's start code puts past the image (vx_tls_span())
 */
struct vx_elf_layout {
	uint32_t vaddr_lo;
	uint32_t size;
	uint32_t filesz;
	uint32_t align;
	uint32_t entry;
	int pie;
	uint32_t nrela;
	uint32_t tls_size;
};

/*
 * Vortex's per-hart thread-local storage lies past the image, not in it:
 * upstream's start code sets hart h's tp to _end + h * __tbss_size and
 * clears the block there (vortexgpgpu/vortex kernel/src/vx_start.S at
 * fe8168b9, init_regs, lines 87-92; __init_tls, kernel/src/vx_syscalls.c
 * at fe8168b9, lines 56-66), and its simulator's memory is flat, so
 * nothing maps it.  A launcher maps vx_tls_span() bytes, read-write and
 * zeroed, from the image's end (max_vma, where _end is).  A hart's block
 * is at most PT_TLS's p_memsz rounded to 4 (__tbss_size is
 * ALIGN(SIZEOF(.tbss), 4): kernel/scripts/link32.ld at fe8168b9, lines
 * 95-110).  VX_TLS_SLACK is a margin: at fe8168b9 the start code adds
 * nothing to _end (tp = _end + mhartid * __tbss_size exactly), but an
 * older upstream start code added 63 to _end, and the 64 bytes keep
 * kernels built with it in bounds.  A .vxbin carries no TLS size:
 * it is given VX_TLS_VXBIN_BOUND bytes a hart, and elf2vxbin refuses a
 * kernel that needs more (upstream's own spawn library needs 28).
 */
#define VX_TLS_VXBIN_BOUND	256u
#define VX_TLS_SLACK		64u
/* Larger than any Vortex kernel's thread-locals; keeps the span's product sane. */
#define VX_TLS_MAX		(1u << 20)

/* Bytes from the image's end that @harts blocks of @per_hart bytes may touch. */
static inline uint64_t vx_tls_span(uint32_t per_hart, uint64_t harts)
{
	return per_hart ? VX_TLS_SLACK + harts * (((uint64_t)per_hart + 3) & ~3ull) : 0;
}

/**
 * vx_elf_parse() - check a kernel ELF and compute its layout
 * @elf: file bytes
 * @len: file size
 * @out: layout
 *
 * Return: 0 or -ENOEXEC (not ELF32 little-endian RISC-V, segments outside
 * the file, overlapping or wrapping, relocations other than RELATIVE, a
 * PT_TLS past VX_TLS_MAX).
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
