/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vortex-coredump's library: the crash dump text (driver/vortex_dump.c) as a
 * tree of "key: value" nodes, its ascii85 blocks, the CUDA-format ELF it
 * ends with, and the files made from them.  Functions return 0 or -errno
 * and never print; what is malformed is described in struct vxcd_err.
 */
#ifndef VXCD_H
#define VXCD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Where and why the input is malformed. */
struct vxcd_err {
	int line;		/* 1-based, 0 if none */
	char field[64];		/* e.g. "bos[1].data" */
	char msg[160];
};

/*
 * One line of the text: "key: value", "key:" opening a section, or "- "
 * opening a list entry (key "-", the entry's first field its first child).
 * An ascii85 block's lines hang off its "data" node.
 */
struct vxcd_node {
	char *key;
	char *value;		/* "" for a section or a list entry */
	int line;
	int indent;
	struct vxcd_node *parent, *child, *next;
	int block_line;		/* first line of the block, 0 if none */
	char *block;		/* the block's characters, lines joined by '\n' */
	size_t block_len, block_cap;
};

struct vxcd_dump {
	char *text;
	struct vxcd_node *root;
	int nlines;
};

/* vxcd_text.c: the text */
int vxcd_parse(struct vxcd_dump *d, char *text, struct vxcd_err *err);
void vxcd_free(struct vxcd_dump *d);
const struct vxcd_node *vxcd_get(const struct vxcd_node *n, const char *key);
int vxcd_count(const struct vxcd_node *n);
const struct vxcd_node *vxcd_item(const struct vxcd_node *n, int i);
int vxcd_u64(const struct vxcd_node *n, const char *key, const char *where,
	     uint64_t *out, struct vxcd_err *err);
int vxcd_list_u32(const struct vxcd_node *n, uint32_t *out, int max);
int vxcd_validate(const struct vxcd_dump *d, struct vxcd_err *err);
void vxcd_error(struct vxcd_err *err, int line, const char *field,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* vxcd_a85.c: ascii85 blocks (a 32-bit little-endian word per group) */
int vxcd_a85_decode(const struct vxcd_node *data, const char *where,
		    uint8_t **out, size_t *len, struct vxcd_err *err);
int vxcd_blob(const struct vxcd_node *sec, const char *where, uint64_t size,
	      uint8_t **out, struct vxcd_err *err);

/* vxcd_elf.c: the CUDA-format ELF */
struct vxcd_elf {
	uint8_t *buf;
	size_t len;
};
int vxcd_elf_get(const struct vxcd_dump *d, struct vxcd_elf *e,
		 struct vxcd_err *err);
int vxcd_elf_check(const struct vxcd_elf *e, struct vxcd_err *err);
const void *vxcd_elf_section(const struct vxcd_elf *e, const char *name,
			     size_t *size, uint64_t *addr);
int vxcd_elf_r400(const struct vxcd_elf *in, struct vxcd_elf *out);
const char *vxcd_elf_symbol(const uint8_t *img, size_t len, uint64_t addr,
			    uint64_t *off);
bool vxcd_elf_compat(struct vxcd_elf *e);
const char *vxcd_elf_isa(const struct vxcd_elf *e, const char **smtype,
			 uint32_t *revision);

/* vxcd_core.c: a RISC-V ELF core of one lane, for gdb */
int vxcd_core(const struct vxcd_dump *d, const struct vxcd_elf *e, int warp,
	      int lane, uint8_t **out, size_t *len, struct vxcd_err *err);

/* vxcd_regs.c: every listed lane's registers, a line each (--registers) */
void vxcd_registers(const struct vxcd_dump *d, FILE *f);

/* vxcd_summary.c: what a person reads first */
void vxcd_summary(const struct vxcd_dump *d, const struct vxcd_elf *e,
		  void (*emit)(void *ctx, const char *line), void *ctx);
int vxcd_fault_buffer(const struct vxcd_node *root, uint64_t addr, bool *inside);

/* vxcd_json.c: the same facts for programs (--json) */
void vxcd_json(const struct vxcd_dump *d, FILE *f);

#endif
