// SPDX-License-Identifier: MIT
/*
 * Kernel ELF loader core (docs/hardware.md, "Kernel binaries").
 *
 * Plain <elf.h>, no libelf: the binaries are small and the loader only
 * needs program headers and one relocation type.  It is a tolerant reader
 * of everything it skips (sections, notes, symbols) and strict about what
 * it uses: every offset and size is checked against the file before use.
 */
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "vx_elf.h"

#ifndef R_RISCV_RELATIVE
#define R_RISCV_RELATIVE 3
#endif

static int vx_elf_range_ok(size_t len, uint64_t off, uint64_t size)
{
	return off <= len && size <= len - off;
}

static const Elf32_Ehdr *vx_elf_header(const void *elf, size_t len)
{
	const Elf32_Ehdr *eh = elf;

	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS32 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_machine != EM_RISCV ||
	    (eh->e_type != ET_EXEC && eh->e_type != ET_DYN) ||
	    eh->e_phentsize != sizeof(Elf32_Phdr) ||
	    !vx_elf_range_ok(len, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf32_Phdr)))
		return NULL;
	return eh;
}

static const Elf32_Phdr *vx_elf_phdrs(const void *elf)
{
	const Elf32_Ehdr *eh = elf;

	return (const Elf32_Phdr *)((const char *)elf + eh->e_phoff);
}

/* Find the relocation table through PT_DYNAMIC; image-relative offsets. */
static int vx_elf_rela(const void *elf, size_t len, uint32_t vaddr_lo, uint32_t size,
		       uint32_t *rela_off, uint32_t *rela_size)
{
	const Elf32_Ehdr *eh = elf;
	const Elf32_Phdr *ph = vx_elf_phdrs(elf);
	uint32_t rela = 0, relasz = 0, relaent = sizeof(Elf32_Rela);
	int have = 0;

	*rela_off = *rela_size = 0;
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		const Elf32_Dyn *d;
		size_t n;

		if (ph[i].p_type != PT_DYNAMIC)
			continue;
		if (!vx_elf_range_ok(len, ph[i].p_offset, ph[i].p_filesz))
			return -ENOEXEC;
		d = (const Elf32_Dyn *)((const char *)elf + ph[i].p_offset);
		n = ph[i].p_filesz / sizeof(*d);
		for (size_t j = 0; j < n && d[j].d_tag != DT_NULL; j++) {
			switch (d[j].d_tag) {
			case DT_RELA:
				rela = d[j].d_un.d_ptr;
				have = 1;
				break;
			case DT_RELASZ:
				relasz = d[j].d_un.d_val;
				break;
			case DT_RELAENT:
				relaent = d[j].d_un.d_val;
				break;
			case DT_REL:
			case DT_JMPREL:
				return -ENOEXEC;	/* never produced for RISC-V PIEs */
			}
		}
	}
	if (!have || !relasz)
		return 0;
	if (relaent != sizeof(Elf32_Rela) || relasz % sizeof(Elf32_Rela) ||
	    rela < vaddr_lo || !vx_elf_range_ok(size, rela - vaddr_lo, relasz))
		return -ENOEXEC;
	*rela_off = rela - vaddr_lo;
	*rela_size = relasz;
	return 0;
}

int vx_elf_parse(const void *elf, size_t len, struct vx_elf_layout *out)
{
	const Elf32_Ehdr *eh = vx_elf_header(elf, len);
	const Elf32_Phdr *ph;
	uint64_t lo = UINT64_MAX, hi = 0, fhi = 0;
	uint32_t align = 4, roff, rsize, tls = 0;
	int ret, have_tls = 0;

	if (!eh)
		return -ENOEXEC;
	ph = vx_elf_phdrs(elf);
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_TLS) {
			if (have_tls || ph[i].p_memsz > VX_TLS_MAX)
				return -ENOEXEC;
			have_tls = 1;
			tls = ph[i].p_memsz;
			continue;
		}
		if (ph[i].p_type != PT_LOAD || !ph[i].p_memsz)
			continue;
		if (ph[i].p_filesz > ph[i].p_memsz ||
		    !vx_elf_range_ok(len, ph[i].p_offset, ph[i].p_filesz) ||
		    (uint64_t)ph[i].p_vaddr + ph[i].p_memsz > UINT32_MAX)
			return -ENOEXEC;
		if (ph[i].p_vaddr < lo)
			lo = ph[i].p_vaddr;
		if ((uint64_t)ph[i].p_vaddr + ph[i].p_memsz > hi)
			hi = (uint64_t)ph[i].p_vaddr + ph[i].p_memsz;
		if (ph[i].p_filesz && (uint64_t)ph[i].p_vaddr + ph[i].p_filesz > fhi)
			fhi = (uint64_t)ph[i].p_vaddr + ph[i].p_filesz;
		if (ph[i].p_align > align)
			align = ph[i].p_align;
	}
	/* 64 MiB is far beyond any kernel and keeps sizes sane */
	if (lo == UINT64_MAX || hi - lo > (64u << 20) ||
	    eh->e_entry < lo || eh->e_entry >= hi || (eh->e_entry & 3))
		return -ENOEXEC;

	memset(out, 0, sizeof(*out));
	out->vaddr_lo = lo;
	out->size = hi - lo;
	out->filesz = fhi > lo ? fhi - lo : 0;
	out->align = align > 4096 ? 4096 : align;
	out->entry = eh->e_entry - lo;
	out->pie = eh->e_type == ET_DYN;
	out->tls_size = tls;

	ret = vx_elf_rela(elf, len, lo, out->size, &roff, &rsize);
	if (ret)
		return ret;
	out->nrela = rsize / sizeof(Elf32_Rela);
	return 0;
}

static int vx_elf_relocate(const void *elf, size_t len, const struct vx_elf_layout *l,
			   uint32_t base, uint8_t *dst)
{
	uint32_t roff, rsize;
	Elf32_Rela r;
	int ret;

	ret = vx_elf_rela(elf, len, l->vaddr_lo, l->size, &roff, &rsize);
	if (ret)
		return ret;
	for (uint32_t o = 0; o < rsize; o += sizeof(r)) {
		uint32_t v;

		/* the table is part of the image: read it from the copy */
		memcpy(&r, dst + roff + o, sizeof(r));
		if (ELF32_R_TYPE(r.r_info) == R_RISCV_NONE)
			continue;
		if (ELF32_R_TYPE(r.r_info) != R_RISCV_RELATIVE ||
		    r.r_offset < l->vaddr_lo ||
		    !vx_elf_range_ok(l->size, r.r_offset - l->vaddr_lo, 4))
			return -ENOEXEC;
		v = base + (uint32_t)r.r_addend - l->vaddr_lo;
		memcpy(dst + (r.r_offset - l->vaddr_lo), &v, 4);
	}
	return 0;
}

int vx_elf_build(const void *elf, size_t len, const struct vx_elf_layout *l,
		 uint32_t base, void *dst)
{
	const Elf32_Ehdr *eh = vx_elf_header(elf, len);
	const Elf32_Phdr *ph;
	uint8_t *d = dst;

	if (!eh)
		return -ENOEXEC;
	if (!l->pie && base != l->vaddr_lo)
		return -EADDRNOTAVAIL;
	ph = vx_elf_phdrs(elf);
	memset(d, 0, l->size);
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD || !ph[i].p_memsz)
			continue;
		memcpy(d + (ph[i].p_vaddr - l->vaddr_lo),
		       (const char *)elf + ph[i].p_offset, ph[i].p_filesz);
	}
	return l->pie ? vx_elf_relocate(elf, len, l, base, d) : 0;
}

/*
 * Calls @fn for every named symbol of every SHT_SYMTAB until it returns
 * non-zero; returns that value, or 0.  Unterminated names are skipped.
 */
int vx_elf_symbols(const void *elf, size_t len, vx_elf_symbol_fn fn, void *opaque)
{
	const Elf32_Ehdr *eh = vx_elf_header(elf, len);
	const Elf32_Shdr *sh;

	if (!eh || eh->e_shentsize != sizeof(Elf32_Shdr) ||
	    !vx_elf_range_ok(len, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(*sh)))
		return 0;
	sh = (const Elf32_Shdr *)((const char *)elf + eh->e_shoff);
	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		const Elf32_Shdr *str;
		const Elf32_Sym *sym;
		const char *strtab;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		str = &sh[sh[i].sh_link];
		if (!vx_elf_range_ok(len, sh[i].sh_offset, sh[i].sh_size) ||
		    !vx_elf_range_ok(len, str->sh_offset, str->sh_size) || !str->sh_size)
			continue;
		sym = (const Elf32_Sym *)((const char *)elf + sh[i].sh_offset);
		strtab = (const char *)elf + str->sh_offset;
		for (size_t j = 0; j < sh[i].sh_size / sizeof(*sym); j++) {
			const char *name = strtab + sym[j].st_name;
			int ret;

			if (sym[j].st_name >= str->sh_size || !*name)
				continue;
			if (strnlen(name, str->sh_size - sym[j].st_name) ==
			    str->sh_size - sym[j].st_name)
				continue;	/* unterminated */
			ret = fn(opaque, name, sym[j].st_value, sym[j].st_size,
				 ELF32_ST_TYPE(sym[j].st_info));
			if (ret)
				return ret;
		}
	}
	return 0;
}

struct vx_elf_by_name {
	const char *name;
	uint32_t value;
};

static int vx_elf_match_name(void *opaque, const char *name, uint32_t value,
			     uint32_t size, unsigned int type)
{
	struct vx_elf_by_name *q = opaque;

	if (strcmp(name, q->name))
		return 0;
	q->value = value;
	return 1;
}

int vx_elf_symbol(const void *elf, size_t len, const char *name, uint32_t *value)
{
	struct vx_elf_by_name q = { .name = name };

	if (!vx_elf_symbols(elf, len, vx_elf_match_name, &q))
		return -ENOENT;
	*value = q.value;
	return 0;
}

struct vx_elf_by_addr {
	uint32_t addr;
	const char *name;
	uint32_t value;
	int exact;	/* the best candidate's extent holds @addr */
};

/* Local labels (.L*) and mapping symbols ($x) never name a PC. */
static int vx_elf_match_addr(void *opaque, const char *name, uint32_t value,
			     uint32_t size, unsigned int type)
{
	struct vx_elf_by_addr *q = opaque;
	int exact = size && q->addr - value < size;

	if (value > q->addr || name[0] == '.' || name[0] == '$' || type == STT_SECTION ||
	    type == STT_FILE)
		return 0;
	if (!q->name || exact > q->exact ||
	    (exact == q->exact && value > q->value)) {
		q->name = name;
		q->value = value;
		q->exact = exact;
	}
	return 0;
}

int vx_elf_symbol_at(const void *elf, size_t len, uint32_t addr,
		     const char **name, uint32_t *value)
{
	struct vx_elf_by_addr q = { .addr = addr };

	vx_elf_symbols(elf, len, vx_elf_match_addr, &q);
	if (!q.name)
		return -ENOENT;
	*name = q.name;
	*value = q.value;
	return 0;
}
