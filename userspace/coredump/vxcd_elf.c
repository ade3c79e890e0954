// SPDX-License-Identifier: GPL-2.0
/*
 * The CUDA-format ELF of a dump's "cuda-coredump:" section
 * (driver/vortex_dump_elf.c, cudacoredump.h's r550 rows): taken out byte
 * for byte, checked enough to be walked, and rewritten with the r400 row
 * sizes older readers (cuda-gdb 11.8) need to step through tables of more
 * than one row: grid 104, CTA 24, warp 32 bytes, the r525 fields cut off.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "vxcd.h"

#define CUDBG_SHT_GRID_TABLE	0x8000000cu
#define CUDBG_SHT_CTA_TABLE	0x8000000du
#define CUDBG_SHT_WP_TABLE	0x8000000eu

/*
 * A zlib-compressed ELF ("encoding: zlib", DRM_VORTEX_DUMP_COMPRESS_ELF):
 * @e->buf holds "stored-size" bytes of stream; inflate them to @size.
 */
static int elf_inflate(const struct vxcd_node *sec, struct vxcd_elf *e,
		       uint64_t size, struct vxcd_err *err)
{
	uLongf out_len = size;
	uint8_t *out;
	int ret;

	out = malloc(size ? size : 1);
	if (!out)
		return -ENOMEM;
	ret = uncompress(out, &out_len, e->buf, e->len);
	if (ret != Z_OK || out_len != size) {
		vxcd_error(err, vxcd_get(sec, "data")->line, "cuda-coredump.data",
			   "zlib stream does not inflate to size (%s, %lu of %llu bytes)",
			   ret == Z_OK ? "short" : zError(ret), (unsigned long)out_len,
			   (unsigned long long)size);
		free(out);
		return -EINVAL;
	}
	free(e->buf);
	e->buf = out;
	e->len = size;
	return 0;
}

/**
 * vxcd_elf_get() - the ELF bytes of @d's cuda-coredump section
 * @d: the parsed dump
 * @e: receives the file, exactly "size" bytes (inflated if the section
 *     says "encoding: zlib")
 * @err: a missing section, a bad block, an unknown encoding, or a size
 *     mismatch
 */
int vxcd_elf_get(const struct vxcd_dump *d, struct vxcd_elf *e,
		 struct vxcd_err *err)
{
	const struct vxcd_node *sec = vxcd_get(d->root, "cuda-coredump");
	const struct vxcd_node *data = vxcd_get(sec, "data");
	const struct vxcd_node *enc = vxcd_get(sec, "encoding");
	uint64_t size, stored;
	size_t len;

	memset(e, 0, sizeof(*e));
	if (!sec) {
		vxcd_error(err, d->nlines, "cuda-coredump", "missing field");
		return -ENOENT;
	}
	if (vxcd_u64(sec, "size", "cuda-coredump", &size, err))
		return -EINVAL;
	if (enc && strcmp(enc->value, "zlib")) {
		vxcd_error(err, enc->line, "cuda-coredump.encoding",
			   "unknown encoding \"%s\"", enc->value);
		return -EINVAL;
	}
	stored = size;
	if (enc && vxcd_u64(sec, "stored-size", "cuda-coredump", &stored, err))
		return -EINVAL;
	if (!data) {
		vxcd_error(err, sec->line, "cuda-coredump.data", "missing field");
		return -EINVAL;
	}
	if (vxcd_a85_decode(data, "cuda-coredump.data", &e->buf, &len, err))
		return -EINVAL;
	/* Unlike buffers, the ELF keeps its trailing zeros: all of it is there. */
	if (len != (stored + 3) / 4 * 4) {
		vxcd_error(err, vxcd_get(sec, enc ? "stored-size" : "size")->line,
			   enc ? "cuda-coredump.stored-size" : "cuda-coredump.size",
			   "size mismatch: %zu bytes decoded, size says %llu", len,
			   (unsigned long long)stored);
		goto fail;
	}
	e->len = stored;
	if (enc && elf_inflate(sec, e, size, err))
		goto fail;
	return vxcd_elf_check(e, err);
fail:
	free(e->buf);
	e->buf = NULL;
	e->len = 0;
	return -EINVAL;
}

static const Elf64_Shdr *elf_shdrs(const struct vxcd_elf *e)
{
	return (const Elf64_Shdr *)(e->buf + ((const Elf64_Ehdr *)e->buf)->e_shoff);
}

/*
 * The section count and the string table's index.  Past SHN_LORESERVE
 * sections (a 4,8,32,32 card's ELF has 66640) ELF's extended numbering
 * keeps them in section 0's sh_size and sh_link (e_shnum 0, e_shstrndx
 * SHN_XINDEX).  Section 0 must be in the file (vxcd_elf_check()).
 */
static uint64_t elf_shnum(const struct vxcd_elf *e)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)e->buf;

	return eh->e_shnum ?: elf_shdrs(e)[0].sh_size;
}

static uint32_t elf_shstrndx(const struct vxcd_elf *e)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)e->buf;

	return eh->e_shstrndx == SHN_XINDEX ? elf_shdrs(e)[0].sh_link : eh->e_shstrndx;
}

/* Whether the headers and every section lie inside the file. */
int vxcd_elf_check(const struct vxcd_elf *e, struct vxcd_err *err)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)e->buf;
	const Elf64_Shdr *sh;
	uint64_t i;

	if (e->len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(*sh) ||
	    eh->e_shoff > e->len || e->len - eh->e_shoff < sizeof(*sh) ||
	    elf_shnum(e) > (e->len - eh->e_shoff) / sizeof(*sh) ||
	    elf_shstrndx(e) >= elf_shnum(e)) {
		vxcd_error(err, 0, "cuda-coredump", "not a 64-bit ELF with section headers");
		return -EINVAL;
	}
	sh = elf_shdrs(e);
	for (i = 1; i < elf_shnum(e); i++)
		if (sh[i].sh_offset > e->len || sh[i].sh_size > e->len - sh[i].sh_offset) {
			vxcd_error(err, 0, "cuda-coredump", "section %llu runs past the file",
				   (unsigned long long)i);
			return -EINVAL;
		}
	return 0;
}

/* The bytes of the section called @name, or NULL. */
const void *vxcd_elf_section(const struct vxcd_elf *e, const char *name,
			     size_t *size, uint64_t *addr)
{
	const Elf64_Shdr *sh = elf_shdrs(e), *strtab = &sh[elf_shstrndx(e)];
	const char *str = (const char *)e->buf + strtab->sh_offset;
	uint64_t i, n = elf_shnum(e);

	for (i = 1; i < n; i++) {
		if (sh[i].sh_name >= strtab->sh_size ||
		    strcmp(str + sh[i].sh_name, name))
			continue;
		if (size)
			*size = sh[i].sh_size;
		if (addr)
			*addr = sh[i].sh_addr;
		return e->buf + sh[i].sh_offset;
	}
	return NULL;
}

/* The r400 row size of a table section, or its own entsize. */
static uint64_t r400_entsize(const Elf64_Shdr *sh)
{
	switch (sh->sh_type) {
	case CUDBG_SHT_GRID_TABLE:
		return 104;
	case CUDBG_SHT_CTA_TABLE:
		return 24;
	case CUDBG_SHT_WP_TABLE:
		return 32;
	default:
		return sh->sh_entsize;
	}
}

/**
 * vxcd_elf_r400() - @in with the grid, CTA and warp rows cut to r400 sizes
 * @in: a checked CUDA ELF
 * @out: receives the rewritten file: the same sections in the same order,
 *	data 8-byte aligned after the ELF header, section headers last (sections
 *	that shared bytes in @in each get their own)
 */
int vxcd_elf_r400(const struct vxcd_elf *in, struct vxcd_elf *out)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)in->buf;
	const Elf64_Shdr *sh = elf_shdrs(in);
	uint64_t off = sizeof(*eh), ent, rows, r, i, n = elf_shnum(in);
	Elf64_Shdr *nsh;

	/* Sections may share bytes (the driver's zero tails): size by sections. */
	for (i = 1, r = off; i < n; i++)
		if (sh[i].sh_type != SHT_NOBITS)
			r = ((r + 7) & ~7ull) + sh[i].sh_size;
	out->buf = calloc(1, r + 8 + n * sizeof(*nsh));
	if (!out->buf)
		return -ENOMEM;
	memcpy(out->buf, eh, sizeof(*eh));
	/* Section 0 is copied as it is: with its extended numbering, if any. */
	nsh = calloc(n, sizeof(*nsh));
	for (i = 0; i < n; i++) {
		nsh[i] = sh[i];
		if (!i || sh[i].sh_type == SHT_NOBITS)
			continue;
		ent = r400_entsize(&sh[i]);
		rows = sh[i].sh_entsize ? sh[i].sh_size / sh[i].sh_entsize : 0;
		off = (off + 7) & ~7ull;
		nsh[i].sh_offset = off;
		if (ent != sh[i].sh_entsize && rows) {
			for (r = 0; r < rows; r++)
				memcpy(out->buf + off + r * ent,
				       in->buf + sh[i].sh_offset + r * sh[i].sh_entsize, ent);
			nsh[i].sh_entsize = ent;
			nsh[i].sh_size = rows * ent;
		} else {
			memcpy(out->buf + off, in->buf + sh[i].sh_offset, sh[i].sh_size);
		}
		off += nsh[i].sh_size;
	}
	off = (off + 7) & ~7ull;
	((Elf64_Ehdr *)out->buf)->e_shoff = off;
	memcpy(out->buf + off, nsh, n * sizeof(*nsh));
	out->len = off + n * sizeof(*nsh);
	free(nsh);
	return 0;
}

/**
 * vxcd_elf_symbol() - the function of the kernel image @img at @addr
 * @img: the job's kernel ELF (32-bit, linked at 0)
 * @len: its bytes
 * @addr: an address in the image's own terms
 * @off: receives @addr's offset into the function
 *
 * Return: the function's name, or NULL.
 */
const char *vxcd_elf_symbol(const uint8_t *img, size_t len, uint64_t addr,
			    uint64_t *off)
{
	const Elf32_Ehdr *eh = (const Elf32_Ehdr *)img;
	const Elf32_Shdr *sh;
	const Elf32_Sym *sym;
	const char *best = NULL;
	int i, k, n;

	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS32 || eh->e_shoff > len ||
	    eh->e_shnum > (len - eh->e_shoff) / sizeof(*sh))
		return NULL;
	sh = (const Elf32_Shdr *)(img + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum ||
		    sh[i].sh_offset + (uint64_t)sh[i].sh_size > len)
			continue;
		sym = (const Elf32_Sym *)(img + sh[i].sh_offset);
		n = sh[i].sh_size / sizeof(*sym);
		for (k = 0; k < n; k++)
			if (ELF32_ST_TYPE(sym[k].st_info) == STT_FUNC &&
			    addr >= sym[k].st_value &&
			    addr - sym[k].st_value < (sym[k].st_size ?: 1) &&
			    sym[k].st_name < sh[sh[i].sh_link].sh_size) {
				best = (const char *)img + sh[sh[i].sh_link].sh_offset +
				       sym[k].st_name;
				*off = addr - sym[k].st_value;
			}
	}
	return best;
}

/*
 * The device row (cudacoredump.h's CudbgDeviceTableEntry): smType's
 * string table index, numRegsPerLane, smMajor, smMinor.
 */
#define DEV_SM_TYPE		16
#define DEV_NUM_REGS		48
#define DEV_SM_MAJOR		56
#define DEV_SM_MINOR		60
#define DEV_ROW			80

static char *elf_string(const struct vxcd_elf *e, uint64_t at)
{
	const Elf64_Shdr *str = &elf_shdrs(e)[elf_shstrndx(e)];

	if (at >= str->sh_size || !memchr(e->buf + str->sh_offset + at, 0, str->sh_size - at))
		return NULL;
	return (char *)e->buf + str->sh_offset + at;
}

/**
 * vxcd_elf_compat() - an ELF of a driver before issue 38, as drivers write it now
 * @e: a checked CUDA ELF, rewritten in place
 *
 * Those drivers named the ISA as smType ("rv32imf") and gave 64 registers
 * per lane: cuda-gdb 12.4 stops on the first ("unknown sm_type") and on
 * `info registers` with the second.  Their device row gets what drivers
 * write now (driver/vortex_dump_elf.c, docs/driver.md): smType "sm_75",
 * which fits in the old string's bytes, smMajor 7, smMinor 5, 255
 * registers per lane (the lanes' sections keep their 64).  Any other ELF
 * is left as it is.
 *
 * Return: whether @e was rewritten.
 */
bool vxcd_elf_compat(struct vxcd_elf *e)
{
	size_t len;
	uint8_t *dev = (uint8_t *)vxcd_elf_section(e, ".cudbg.devtbl", &len, NULL);
	const uint32_t regs = 255, major = 7, minor = 5;
	uint64_t at;
	char *sm;

	if (!dev || len < DEV_ROW)
		return false;
	memcpy(&at, dev + DEV_SM_TYPE, sizeof(at));
	sm = elf_string(e, at);
	if (!sm || strcmp(sm, "rv32imf"))
		return false;
	memset(sm, 0, strlen(sm));
	memcpy(sm, "sm_75", 5);
	memcpy(dev + DEV_NUM_REGS, &regs, sizeof(regs));
	memcpy(dev + DEV_SM_MAJOR, &major, sizeof(major));
	memcpy(dev + DEV_SM_MINOR, &minor, sizeof(minor));
	return true;
}

/**
 * vxcd_elf_isa() - the card's ISA and revision the ELF names
 * @e: a checked CUDA ELF
 * @smtype: receives the device row's smType (what CUDA readers show), or NULL
 * @revision: receives the card's revision, 0 if the ELF does not say
 *
 * From ``.note.vortex.isa`` (driver/vortex_dump_elf.c); an ELF without it
 * is an older driver's, whose smType was the ISA.
 *
 * Return: the ISA, or NULL if the ELF names none.
 */
const char *vxcd_elf_isa(const struct vxcd_elf *e, const char **smtype, uint32_t *revision)
{
	/* 12-byte note header, "Vortex\0" padded to 8, revision, the ISA */
	const uint8_t *note, *dev;
	size_t len, dev_len;
	uint64_t at;
	const char *sm = NULL;

	*revision = 0;
	dev = vxcd_elf_section(e, ".cudbg.devtbl", &dev_len, NULL);
	if (dev && dev_len >= DEV_ROW) {
		memcpy(&at, dev + DEV_SM_TYPE, sizeof(at));
		sm = elf_string(e, at);
	}
	if (smtype)
		*smtype = sm;
	note = vxcd_elf_section(e, ".note.vortex.isa", &len, NULL);
	if (!note || len < 25 || !memchr(note + 24, 0, len - 24))
		return sm && strncmp(sm, "sm_", 3) ? sm : NULL;
	memcpy(revision, note + 20, sizeof(*revision));
	return (const char *)note + 24;
}
