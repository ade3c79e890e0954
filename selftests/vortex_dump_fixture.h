/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The crash-dump suites' fixture: a file with a code and a data buffer,
 * the small programs that end in a hang, a fault or an assert, and the
 * readers of a dump's text and CUDA ELF.
 *
 * Together the suites check that a hang or a device exception leaves one new
 * devcoredump whose MSM-style text parses and holds the real state: the
 * ring's packets, each buffer's bytes (trailing zero words left out), the
 * warps' PCs and every register of every active lane, the fault and an
 * assert's message.  A second failure while the first dump is unread is
 * counted as dropped and the card still recovers; writing to the dump's
 * data discards it.
 *
 * The dumps are decoded here with an ascii85 decoder of the test's own, so
 * the bytes are compared against what the test uploaded, not against the
 * driver's idea of them.
 */
#ifndef VORTEX_DUMP_FIXTURE_H
#define VORTEX_DUMP_FIXTURE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <sched.h>
#include <sys/klog.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "vortex_accel.h"
#include "vortex_test_ioctl.h"
#include "vortex_client.h"
#include "vx_asm.h"
#include "kselftest_harness.h"

#define CODE_SIZE	4096
/*
 * The dump's worker publishes a failure's dump after the job's fence has
 * signalled (vortex_dump_publish.c): a test waits this long for it (the
 * worker may first render the dump before it, which took 57 s on a loaded
 * host, and then wait up to 10 s for that dump's release).
 */
#define DUMP_WAIT_MS	60000
#define DATA_SIZE	16384

enum { X0 = 0, T0 = 5, T1 = 6, T2 = 7, A0 = 10, A1 = 11, A2 = 12, A3 = 13 };

/* t0 = 3 * lane + 1, f3 = its bits, then loops at +20 forever. */
static const uint32_t prog_hang[] __maybe_unused = {
	CSRR(T0, VX_CSR_THREAD_ID),
	ADD(T2, T0, T0),
	ADD(T0, T0, T2),
	ADDI(T0, T0, 1),
	FMV_W_X(3, T0),
	JSELF,				/* +20 */
};

#define HANG_PC		20

/* Faults at +12 after t1 = 0xc0ffee... */
static const uint32_t prog_fault[] __maybe_unused = {
	LUI(T1, 0xc1),			/* 0xc1000 */
	ADDI(T1, T1, -0x12),		/* 0xc0fee */
	ADDI(T0, X0, 7),
	ILLEGAL,			/* +12 */
};

#define FAULT_PC	12

/* jalr t1, 18(t0) with t0 = its own code: target +18, misaligned */
static const uint32_t prog_jump[] __maybe_unused = {
	RV32_AUIPC(T0, 0),		/* auipc t0, 0 */
	ADDI(T1, X0, 0x55),
	RV_I(18, T0, 0, T1, 0x67),	/* +8: jalr t1, 18(t0) */
	TMC(X0),
};

#define JUMP_PC		8

/* The hex words (up to 3) of a "ptes:" value, to its line's end; how many. */
static __maybe_unused int ptes_of(const char *v, unsigned int *out)
{
	char line[64];

	snprintf(line, sizeof(line), "%.*s", (int)strcspn(v, "\n"), v);
	return sscanf(line, "%x %x %x", &out[0], &out[1], &out[2]);
}

/* t0 = arg[0], then a store through it at +8 */
static const uint32_t prog_store[] __maybe_unused = {
	LW(T0, A0, 0),
	ADDI(T1, X0, 0x77),
	SW(T1, T0, 0),			/* +8 */
	JSELF,
};

#define STORE_PC	8

/* t0 = arg[0], then a load through it at +4 */
static const uint32_t prog_load[] __maybe_unused = {
	LW(T0, A0, 0),
	LW(T1, T0, 0),			/* +4 */
	JSELF,
};

/* vx_trap_assert with a0..a3 from the argument block */
static const uint32_t prog_assert[] __maybe_unused = {
	LW(A1, A0, 4),			/* file */
	LW(A2, A0, 8),			/* line */
	LW(A3, A0, 12),			/* function */
	LW(A0, A0, 0),			/* expression */
	RV_R(0, 0, 0, VX_F3_TRAP_ASSERT, 0, VX_OPCODE_CUSTOM1),
};

/* ------------------------------------------------------------ dumps */

/* The lines after the section header "\n<name>:\n", or NULL. */
static __maybe_unused const char *section(const char *text, const char *name)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\n%s:\n", name);
	p = strstr(text, pat);
	return p ? p + strlen(pat) : NULL;
}

/* The value after "\n<key>: " from @from on, or NULL. */
static __maybe_unused const char *field(const char *from, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "%s: ", key);
	for (p = strstr(from, pat); p; p = strstr(p + 1, pat))
		if (p == from || p[-1] == '\n' || p[-1] == ' ')
			return p + strlen(pat);
	return NULL;
}

static __maybe_unused unsigned long long num(const char *from, const char *key)
{
	const char *v = field(from, key);

	return v ? strtoull(v, NULL, 0) : ~0ull;
}

/* How many times @pat occurs in @text. */
static __maybe_unused unsigned int count(const char *text, const char *pat)
{
	unsigned int n = 0;

	for (text = strstr(text, pat); text; text = strstr(text + 1, pat))
		n++;
	return n;
}

/*
 * Decodes the ascii85 block that follows "data: !!ascii85 |" at @p (the
 * block runs while lines are indented deeper than @indent): 'z' is a zero
 * word, five characters are one word, most significant digit first.
 * Returns the words, *n their count.
 */
static __maybe_unused uint32_t *ascii85_block(const char *p, int indent, size_t *n)
{
	uint32_t *out = NULL, v;
	size_t cap = 0;
	int i, k;

	*n = 0;
	p = strchr(p, '\n');
	while (p && p[1] == ' ') {
		for (i = 0; p[1 + i] == ' '; i++)
			;
		if (i <= indent)
			break;
		p += 1 + i;
		while (*p && *p != '\n') {
			if (*n == cap) {
				cap = cap * 2 + 256;
				out = realloc(out, cap * 4);
			}
			if (*p == 'z') {
				out[(*n)++] = 0;
				p++;
				continue;
			}
			for (v = 0, k = 0; k < 5; k++)
				v = v * 85 + (uint32_t)(p[k] - '!');
			out[(*n)++] = v;
			p += 5;
		}
	}
	return out;
}

/* ------------------------------------------------------ the CUDA ELF */

struct elf_view {
	uint8_t *buf;
	size_t len;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;
	uint32_t nsh;		/* sections, past 0xff00 in section 0 (ELF's extended numbering) */
	uint32_t strndx;	/* the string table's, past 0xff00 in section 0 too */
	const char *str;
};

/*
 * The ELF of the dump's "cuda-coredump:" section, inflated if the section
 * says "encoding: zlib"; false if malformed.
 */
static __maybe_unused bool elf_from_dump(const char *text, struct elf_view *e)
{
	const char *sec = strstr(text, "\ncuda-coredump:\n");
	size_t n, size, stored;
	const char *enc;
	uint32_t *words;
	bool zlib;

	memset(e, 0, sizeof(*e));
	if (!sec)
		return false;
	size = strtoull(field(sec, "size"), NULL, 0);
	enc = field(sec, "encoding");
	zlib = enc && !strncmp(enc, "zlib\n", 5);
	stored = zlib ? strtoull(field(sec, "stored-size"), NULL, 0) : size;
	words = ascii85_block(field(sec, "data"), 2, &n);
	if (!words || n * 4 < stored || size < sizeof(Elf64_Ehdr))
		return false;
	e->buf = (uint8_t *)words;
	if (zlib) {
		uLongf len = size;

		e->buf = malloc(size);
		if (uncompress(e->buf, &len, (uint8_t *)words, stored) != Z_OK || len != size)
			return false;
		free(words);
	}
	e->len = size;
	e->eh = (Elf64_Ehdr *)e->buf;
	if (e->eh->e_shoff + sizeof(Elf64_Shdr) > size)
		return false;
	e->sh = (Elf64_Shdr *)(e->buf + e->eh->e_shoff);
	e->nsh = e->eh->e_shnum ?: e->sh[0].sh_size;
	e->strndx = e->eh->e_shstrndx == SHN_XINDEX ? e->sh[0].sh_link : e->eh->e_shstrndx;
	if (e->eh->e_shoff + (uint64_t)e->nsh * sizeof(Elf64_Shdr) > size ||
	    e->strndx >= e->nsh)
		return false;
	if (e->sh[e->strndx].sh_offset + e->sh[e->strndx].sh_size > size)
		return false;
	e->str = (const char *)e->buf + e->sh[e->strndx].sh_offset;
	return true;
}

static __maybe_unused int elf_index(const struct elf_view *e, const char *name)
{
	int i;

	for (i = 1; i < e->nsh; i++)
		if (!strcmp(e->str + e->sh[i].sh_name, name))
			return i;
	return -1;
}

static __maybe_unused const void *elf_data(const struct elf_view *e, int idx)
{
	return e->buf + e->sh[idx].sh_offset;
}

#define CUDBG_SHT(n)	(0x80000000u + (n))

/* ------------------------------------------------------------ fixture */

FIXTURE(dump) {
	VX_CLIENT_MEMBERS;
	uint64_t threads, timeout_ms;
	char *text;
	/* job_timeout_ms before a test lowered it (vx_hang_begin()), or 0 */
	long old_timeout_ms;
};

FIXTURE_SETUP(dump)
{
	uint32_t i;

	vx_dump_discard();
	ASSERT_EQ(0, vx_dump_each(NULL, NULL));
	vx_client_open(&self->client, CODE_SIZE, DATA_SIZE,
		       DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_DUMP);
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_THREADS, &self->threads));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_JOB_TIMEOUT_MS, &self->timeout_ms));
	/* A pattern with a zero tail, to see the tail left out. */
	for (i = 0; i < 1000; i++)
		self->data_map[i] = 0x1000000u * (i % 7) + i + 1;
	self->sub.block[0] = self->threads;	/* a whole warp */
}

FIXTURE_TEARDOWN(dump)
{
	vx_hang_restore(&self->old_timeout_ms);
	free(self->text);
	vx_client_close(&self->client);
	vx_dump_discard();
}

/*
 * Runs @prog to its end (a hang or a fault) and reads the dump.  A hang
 * (@hang) runs under a lowered job_timeout_ms (vx_hang_begin()), not so
 * low that the card might not reach the loop, whose registers the dumps
 * show, before it; the old limit is back before the capture.
 */
static __maybe_unused int32_t run_to_dump(struct __test_metadata *_metadata,
			   FIXTURE_DATA(dump) *self, const uint32_t *prog,
			   size_t bytes, bool hang)
{
	int32_t status = 1;

	memcpy(self->code_map, prog, bytes);
	if (hang)
		vx_cmd(!vx_hang_begin(&self->old_timeout_ms, VX_HANG_PREFIX_MS));
	vx_cmd(_vx_submit(self->fd, &self->sub));
	if (hang)
		EXPECT_TRUE(vx_hang_declared(&self->old_timeout_ms)) TH_LOG("no timeout");
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
	self->text = vx_dump_read(DUMP_WAIT_MS);
	EXPECT_EQ(1, vx_dump_each(NULL, NULL));
	EXPECT_NE(NULL, self->text);
	return status;
}

#define run_and_dump(_metadata, self, prog, bytes) \
	run_to_dump(_metadata, self, prog, bytes, false)

#define hang_and_dump(_metadata, self, prog, bytes) \
	run_to_dump(_metadata, self, prog, bytes, true)

/* Where the buffer at @iova is described in the dump's "bos:" section. */
static __maybe_unused const char *find_bo(const char *text, uint64_t iova)
{
	char pat[64];

	snprintf(pat, sizeof(pat), "  - iova: 0x%016llx\n", (unsigned long long)iova);
	return strstr(strstr(text, "\nbos:\n") ?: text, pat);
}

/* The CUDA ELF of a fault: the warp's errorPC, lane 0's exception code. */
static __maybe_unused void check_fault_elf(struct __test_metadata *_metadata,
			    FIXTURE_DATA(dump) *self)
{
	struct elf_view e;
	int i, wp = -1, ln = -1;

	ASSERT_TRUE(elf_from_dump(self->text, &e));
	for (i = 1; i < e.nsh; i++) {
		if (e.sh[i].sh_type == CUDBG_SHT(14) && wp < 0)
			wp = i;
		if (e.sh[i].sh_type == CUDBG_SHT(15) && ln < 0)
			ln = i;
	}
	ASSERT_LT(0, wp);
	ASSERT_LT(0, ln);
	EXPECT_EQ(self->code_addr + FAULT_PC, *(const uint64_t *)elf_data(&e, wp));
	EXPECT_EQ(1, ((const uint32_t *)elf_data(&e, wp))[6]);	/* errorPCValid */
	EXPECT_EQ(4, ((const uint32_t *)elf_data(&e, ln))[8]);	/* WARP_ILLEGAL_INSTRUCTION */
	EXPECT_EQ(self->code_addr + FAULT_PC, *(const uint64_t *)elf_data(&e, ln));
	free(e.buf);
}

/* ------------------------------------------------ what a file chooses */

static __maybe_unused int dump_config(int fd, uint32_t flags, uint32_t *old)
{
	struct drm_vortex_dump_config c = { .flags = flags };
	int ret = vx_ioctl(fd, DRM_IOCTL_VORTEX_DUMP_CONFIG, &c);

	if (!ret && old)
		*old = c.old_flags;
	return ret;
}

/* A number in debugfs last_dump, after "@key: ", or -1. */
static __maybe_unused long long last_dump_num(const char *key)
{
	return vx_debugfs_num("last_dump", key, -1);
}

#endif /* VORTEX_DUMP_FIXTURE_H */
