// SPDX-License-Identifier: GPL-2.0
/*
 * Crash dumps: a hang or a device exception leaves exactly one new
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
#include "vx_asm.h"
#include "kselftest_harness.h"

#define CODE_SIZE	4096
/*
 * The dump's worker publishes a failure's dump after the job's fence has
 * signalled (vortex_dump_publish.c): a test waits this long for it, and
 * for a dump to be counted dropped (the worker renders the dump before
 * it first, which took 57 s on a loaded host, then waits up to 10 s for
 * that dump to be let go).
 */
#define DUMP_WAIT_MS	60000
#define DROP_WAIT_MS	60000
#define DATA_SIZE	16384

enum { X0 = 0, T0 = 5, T1 = 6, T2 = 7, A0 = 10, A1 = 11, A2 = 12, A3 = 13 };

/* t0 = 3 * lane + 1, f3 = its bits, then loops at +20 forever. */
static const uint32_t prog_hang[] = {
	CSRR(T0, VX_CSR_THREAD_ID),
	ADD(T2, T0, T0),
	ADD(T0, T0, T2),
	ADDI(T0, T0, 1),
	FMV_W_X(3, T0),
	JSELF,				/* +20 */
};
#define HANG_PC		20

/* Faults at +12 after t1 = 0xc0ffee... */
static const uint32_t prog_fault[] = {
	LUI(T1, 0xc1),			/* 0xc1000 */
	ADDI(T1, T1, -0x12),		/* 0xc0fee */
	ADDI(T0, X0, 7),
	ILLEGAL,			/* +12 */
};
#define FAULT_PC	12

/* jalr t1, 18(t0) with t0 = its own code: target +18, misaligned */
static const uint32_t prog_jump[] = {
	RV32_AUIPC(T0, 0),		/* auipc t0, 0 */
	ADDI(T1, X0, 0x55),
	RV_I(18, T0, 0, T1, 0x67),	/* +8: jalr t1, 18(t0) */
	TMC(X0),
};
#define JUMP_PC		8

/* The hex words (up to 3) of a "ptes:" value, to its line's end; how many. */
static int ptes_of(const char *v, unsigned int *out)
{
	char line[64];

	snprintf(line, sizeof(line), "%.*s", (int)strcspn(v, "\n"), v);
	return sscanf(line, "%x %x %x", &out[0], &out[1], &out[2]);
}

/* t0 = arg[0], then a store through it at +8 */
static const uint32_t prog_store[] = {
	LW(T0, A0, 0),
	ADDI(T1, X0, 0x77),
	SW(T1, T0, 0),			/* +8 */
	JSELF,
};
#define STORE_PC	8

/* t0 = arg[0], then a load through it at +4 */
static const uint32_t prog_load[] = {
	LW(T0, A0, 0),
	LW(T1, T0, 0),			/* +4 */
	JSELF,
};

/* vx_trap_assert with a0..a3 from the argument block */
static const uint32_t prog_assert[] = {
	LW(A1, A0, 4),			/* file */
	LW(A2, A0, 8),			/* line */
	LW(A3, A0, 12),			/* function */
	LW(A0, A0, 0),			/* expression */
	RV_R(0, 0, 0, VX_F3_TRAP_ASSERT, 0, VX_OPCODE_CUSTOM1),
};

/* ------------------------------------------------------------ dumps */

/* The lines after the section header "\n<name>:\n", or NULL. */
static const char *section(const char *text, const char *name)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\n%s:\n", name);
	p = strstr(text, pat);
	return p ? p + strlen(pat) : NULL;
}

/* The value after "\n<key>: " from @from on, or NULL. */
static const char *field(const char *from, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "%s: ", key);
	for (p = strstr(from, pat); p; p = strstr(p + 1, pat))
		if (p == from || p[-1] == '\n' || p[-1] == ' ')
			return p + strlen(pat);
	return NULL;
}

static unsigned long long num(const char *from, const char *key)
{
	const char *v = field(from, key);

	return v ? strtoull(v, NULL, 0) : ~0ull;
}

/* How many times @pat occurs in @text. */
static unsigned int count(const char *text, const char *pat)
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
static uint32_t *ascii85_block(const char *p, int indent, size_t *n)
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
static bool elf_from_dump(const char *text, struct elf_view *e)
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

static int elf_index(const struct elf_view *e, const char *name)
{
	int i;

	for (i = 1; i < e->nsh; i++)
		if (!strcmp(e->str + e->sh[i].sh_name, name))
			return i;
	return -1;
}

static const void *elf_data(const struct elf_view *e, int idx)
{
	return e->buf + e->sh[idx].sh_offset;
}

#define CUDBG_SHT(n)	(0x80000000u + (n))

/* ------------------------------------------------------------ fixture */

FIXTURE(dump) {
	int fd;
	uint64_t threads, timeout_ms;
	uint32_t code, data;
	uint64_t code_addr, data_addr;
	uint32_t *code_map;
	volatile uint32_t *data_map;
	struct drm_vortex_submit_bo bos[2];
	struct drm_vortex_submit sub;
	char *text;
	/* job_timeout_ms before a test lowered it (vx_hang_begin()), or 0 */
	long old_timeout_ms;
};

FIXTURE_SETUP(dump)
{
	uint32_t i;

	vx_dump_discard();
	ASSERT_EQ(0, vx_dump_each(NULL, NULL));
	self->fd = open(VX_NODE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_THREADS, &self->threads));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_JOB_TIMEOUT_MS, &self->timeout_ms));
	vx_cmd(_vx_bo_create(self->fd, CODE_SIZE, 0, &self->code, &self->code_addr));
	vx_cmd(_vx_bo_create(self->fd, DATA_SIZE, 0, &self->data, &self->data_addr));
	self->code_map = vx_bo_map(self->fd, self->code, NULL);
	self->data_map = vx_bo_map(self->fd, self->data, NULL);
	ASSERT_NE(NULL, self->code_map);
	ASSERT_NE(NULL, self->data_map);
	/* A pattern with a zero tail, to see the tail left out. */
	for (i = 0; i < 1000; i++)
		self->data_map[i] = 0x1000000u * (i % 7) + i + 1;

	self->bos[0] = (struct drm_vortex_submit_bo){ self->code, DRM_VORTEX_SUBMIT_BO_READ };
	self->bos[1] = (struct drm_vortex_submit_bo){ self->data,
		DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_DUMP };
	vx_submit_init(&self->sub, self->code_addr, self->data_addr, self->threads,
		       self->bos, 2);
}

FIXTURE_TEARDOWN(dump)
{
	vx_hang_restore(&self->old_timeout_ms);
	free(self->text);
	close(self->fd);
	vx_dump_discard();
}

/*
 * Runs @prog to its end (a hang or a fault) and reads the dump.  A hang
 * (@hang) runs under a lowered job_timeout_ms (vx_hang_begin()), not so
 * low that the card might not reach the loop, whose registers the dumps
 * show, before it; the old limit is back before the capture.
 */
static int32_t run_to_dump(struct __test_metadata *_metadata,
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
	EXPECT_NE(NULL, self->text);
	EXPECT_EQ(1, vx_dump_each(NULL, NULL));
	return status;
}

#define run_and_dump(_metadata, self, prog, bytes) \
	run_to_dump(_metadata, self, prog, bytes, false)
#define hang_and_dump(_metadata, self, prog, bytes) \
	run_to_dump(_metadata, self, prog, bytes, true)

/* Where the buffer at @iova is described in the dump's "bos:" section. */
static const char *find_bo(const char *text, uint64_t iova)
{
	char pat[64];

	snprintf(pat, sizeof(pat), "  - iova: 0x%016llx\n", (unsigned long long)iova);
	return strstr(strstr(text, "\nbos:\n") ?: text, pat);
}

/* The CUDA ELF of a hang: identity, the tables' shape, the same registers. */
static void check_hang_elf(struct __test_metadata *_metadata,
			   FIXTURE_DATA(dump) *self)
{
	struct elf_view e;
	int dev, ctx, grid, sm, regs0, regs1, glob, i;
	const uint32_t *devrow, *r;
	const uint64_t *gridrow;
	char name[96];

	ASSERT_TRUE(elf_from_dump(self->text, &e));
	EXPECT_EQ(0, memcmp(e.eh->e_ident, ELFMAG, SELFMAG));
	EXPECT_EQ(ELFCLASS64, e.eh->e_ident[EI_CLASS]);
	EXPECT_EQ(0x33, e.eh->e_ident[EI_OSABI]);
	EXPECT_EQ(7, e.eh->e_ident[EI_ABIVERSION]);
	EXPECT_EQ(ET_CORE, e.eh->e_type);
	EXPECT_EQ(0xbe, e.eh->e_machine);
	EXPECT_STREQ(".strtab", e.str + e.sh[e.strndx].sh_name);
	EXPECT_EQ(SHT_STRTAB, e.sh[e.strndx].sh_type);

	dev = elf_index(&e, ".cudbg.devtbl");
	ASSERT_LT(0, dev);
	EXPECT_EQ(CUDBG_SHT(9), e.sh[dev].sh_type);
	EXPECT_EQ(80, e.sh[dev].sh_entsize);
	EXPECT_EQ(80, e.sh[dev].sh_size);
	devrow = elf_data(&e, dev);
	EXPECT_STREQ("Vortex", e.str + ((const uint64_t *)devrow)[0]);
	/* What cuda-gdb 12.4 parses (issue 38); the ISA is in the note. */
	EXPECT_STREQ("sm_75", e.str + ((const uint64_t *)devrow)[2]);
	EXPECT_EQ(self->threads, devrow[6 + 5]);	/* numLanesPerWarp */
	EXPECT_EQ(255, devrow[6 + 6]);			/* numRegsPerLane */
	EXPECT_EQ(7, devrow[6 + 8]);			/* smMajor */
	EXPECT_EQ(5, devrow[6 + 9]);			/* smMinor */
	EXPECT_EQ(4, devrow[6 + 10]);			/* instructionSize */
	i = elf_index(&e, ".note.vortex.isa");
	ASSERT_LT(0, i);
	ASSERT_EQ(32, e.sh[i].sh_size);
	r = elf_data(&e, i);
	EXPECT_EQ(3, r[2]);				/* type */
	EXPECT_EQ(0, memcmp(&r[3], "Vortex", 7));
	EXPECT_EQ(num(self->text, "revision"), r[5]);
	EXPECT_STREQ("rv32imf", (const char *)&r[6]);
	ctx = elf_index(&e, ".cudbg.ctxtbl.dev0");
	ASSERT_LT(0, ctx);
	EXPECT_EQ(CUDBG_SHT(10), e.sh[ctx].sh_type);
	EXPECT_EQ(dev, e.sh[ctx].sh_link);
	grid = elf_index(&e, ".cudbg.gridtbl.dev0");
	ASSERT_LT(0, grid);
	EXPECT_EQ(120, e.sh[grid].sh_entsize);
	EXPECT_EQ(dev, e.sh[grid].sh_link);
	gridrow = elf_data(&e, grid);
	EXPECT_EQ(self->sub.seqno, gridrow[0]);
	EXPECT_EQ(self->code_addr, gridrow[3]);		/* functionEntry */
	EXPECT_EQ(self->threads, ((const uint32_t *)(gridrow + 7))[7]);	/* blockDimX */
	/*
	 * The code object, whole, zero tail included: raw code, so not the
	 * module's image, which CUDA readers load as an ELF (issue 38): that
	 * is a bare RISC-V ELF header.
	 */
	i = elf_index(&e, ".vortex.code");
	ASSERT_LT(0, i);
	EXPECT_EQ(sizeof(prog_hang) + 8, e.sh[i].sh_size);
	EXPECT_EQ(0, memcmp(elf_data(&e, i), self->code_map, sizeof(prog_hang) + 8));
	i = elf_index(&e, ".cudbg.relfimg.dev0.ctx0");
	ASSERT_LT(0, i);
	EXPECT_EQ(CUDBG_SHT(7), e.sh[i].sh_type);
	ASSERT_EQ(sizeof(Elf32_Ehdr), e.sh[i].sh_size);
	EXPECT_EQ(0, memcmp(elf_data(&e, i), ELFMAG, SELFMAG));
	EXPECT_EQ(ELFCLASS32, ((const uint8_t *)elf_data(&e, i))[EI_CLASS]);
	EXPECT_EQ(EM_RISCV, ((const Elf32_Ehdr *)elf_data(&e, i))->e_machine);
	sm = elf_index(&e, ".cudbg.smtbl.dev0");
	ASSERT_LT(0, sm);
	EXPECT_EQ(dev, e.sh[sm].sh_link);
	EXPECT_EQ(8, e.sh[sm].sh_entsize);
	EXPECT_EQ(devrow[6 + 3] * 8, e.sh[sm].sh_size);	/* numSMs rows */

	/* The first warp's lane table and its lanes' registers. */
	for (regs0 = regs1 = -1, glob = 1; glob < e.nsh; glob++) {
		const char *n = e.str + e.sh[glob].sh_name;

		if (!strncmp(n, ".cudbg.regs.", 12) && strstr(n, ".ln0") &&
		    !strcmp(strstr(n, ".ln0"), ".ln0") && regs0 < 0)
			regs0 = glob;
		if (!strncmp(n, ".cudbg.regs.", 12) && strstr(n, ".ln1") &&
		    !strcmp(strstr(n, ".ln1"), ".ln1") && regs1 < 0)
			regs1 = glob;
	}
	ASSERT_LT(0, regs0);
	EXPECT_EQ(CUDBG_SHT(5), e.sh[regs0].sh_type);
	EXPECT_EQ(64 * 4, e.sh[regs0].sh_size);
	EXPECT_EQ(CUDBG_SHT(15), e.sh[e.sh[regs0].sh_link].sh_type);
	EXPECT_EQ(48, e.sh[e.sh[regs0].sh_link].sh_entsize);
	EXPECT_EQ(self->threads * 48, e.sh[e.sh[regs0].sh_link].sh_size);
	r = elf_data(&e, regs0);
	EXPECT_EQ(1, r[T0]);
	EXPECT_EQ(self->data_addr, r[A0]);
	if (self->threads > 1) {
		ASSERT_LT(0, regs1);
		EXPECT_EQ(4, ((const uint32_t *)elf_data(&e, regs1))[T0]);
	}
	/* The data buffer, at its device address, byte for byte. */
	for (glob = 0; glob < 8; glob++) {
		int g;

		snprintf(name, sizeof(name), ".cudbg.global.%d", glob);
		g = elf_index(&e, name);
		if (g < 0 || e.sh[g].sh_addr != self->data_addr)
			continue;
		EXPECT_EQ(CUDBG_SHT(2), e.sh[g].sh_type);
		EXPECT_EQ(4000, e.sh[g].sh_size);
		EXPECT_EQ(0, memcmp(elf_data(&e, g), (void *)self->data_map, 4000));
		break;
	}
	EXPECT_LT(glob, 8) TH_LOG("no .cudbg.global for the data buffer");
	free(e.buf);
}

TEST_F_TIMEOUT(dump, hang_dump_holds_ring_buffers_warps_registers, 120)
{
	const char *p, *bo, *w;
	uint32_t *words, lane, x[32];
	size_t n, i;
	bool launch = false;
	char comm[32], kline[96];
	struct utsname uts;

	/* The "image" ends in two zero words: the dump must keep them. */
	struct drm_vortex_code_object co = {
		.handle = self->code, .size = sizeof(prog_hang) + 8,
		.load_addr = self->code_addr, .load_size = CODE_SIZE,
	};

	vx_cmd(vx_ioctl(self->fd, DRM_IOCTL_VORTEX_CODE_OBJECT, &co));
	ASSERT_EQ(-ETIMEDOUT, hang_and_dump(_metadata, self, prog_hang, sizeof(prog_hang)));
	p = self->text;
	ASSERT_NE(NULL, p);
	/* The running kernel's release, whichever (docs/kernels.md). */
	ASSERT_EQ(0, uname(&uts));
	snprintf(kline, sizeof(kline), "kernel: %s\n", uts.release);
	EXPECT_EQ(0, strncmp(p, kline, strlen(kline))) TH_LOG("%.40s", p);
	EXPECT_EQ(0, strncmp(field(p, "module"), "vortex\n", 7));
	EXPECT_NE(NULL, field(p, "time"));
	snprintf(comm, sizeof(comm), "%.15s\n", "vortex_dump_test");
	EXPECT_EQ(0, strncmp(field(p, "comm"), comm, strlen(comm)));
	EXPECT_EQ(0, strncmp(field(p, "error"), "timeout\n", 8));
	EXPECT_EQ(self->sub.seqno, num(p, "job"));
	EXPECT_EQ(NULL, section(p, "fault-info"));
	EXPECT_EQ(NULL, field(p, "not-captured"));

	/* The ring holds this job's LAUNCH: header, entry, argument, dims. */
	p = strstr(self->text, "\nringbuffer:\n");
	ASSERT_NE(NULL, p);
	EXPECT_EQ(num(p, "last-fence"), num(p, "retired-fence") + 1);
	words = ascii85_block(field(p, "data"), 4, &n);
	ASSERT_NE(NULL, words);
	for (i = 0; i + 8 < n; i++)
		if (words[i] == VX_PKT_HDR(VX_PKT_LAUNCH, VX_LAUNCH_NDW) &&
		    words[i + 1 + VX_LAUNCH_ENTRY] == self->code_addr &&
		    words[i + 1 + VX_LAUNCH_ARG] == self->data_addr &&
		    words[i + 1 + VX_LAUNCH_BLOCK_X] == self->threads)
			launch = true;
	EXPECT_TRUE(launch) TH_LOG("no LAUNCH of this job in the ring");
	free(words);

	/* Each buffer, byte for byte, without the zero tail. */
	bo = find_bo(self->text, self->data_addr);
	ASSERT_NE(NULL, bo);
	EXPECT_EQ(DATA_SIZE, num(bo, "size"));
	EXPECT_EQ(DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_DUMP, num(bo, "flags"));
	words = ascii85_block(field(bo, "data"), 4, &n);
	EXPECT_EQ(1000, n);
	for (i = 0; i < n && i < 1000; i++)
		ASSERT_EQ(self->data_map[i], words[i]) TH_LOG("word %zu", i);
	free(words);
	bo = find_bo(self->text, self->code_addr);
	ASSERT_NE(NULL, bo);
	words = ascii85_block(field(bo, "data"), 4, &n);
	ASSERT_EQ(sizeof(prog_hang) / 4, n);
	EXPECT_EQ(0, memcmp(words, prog_hang, sizeof(prog_hang)));
	free(words);

	/* One warp, in its loop, every lane's t0 = 3 * lane + 1. */
	w = strstr(self->text, "\nwarps:\n  - id: ");
	ASSERT_NE(NULL, w);
	EXPECT_EQ(self->code_addr + HANG_PC, num(w, "pc"));
	EXPECT_EQ(0, strncmp(field(w, "halted"), "yes", 3));
	for (lane = 0; lane < self->threads; lane++) {
		char pat[32];
		const char *l, *v;

		snprintf(pat, sizeof(pat), "- lane: %u\n", lane);
		l = strstr(w, pat);
		ASSERT_NE(NULL, l) TH_LOG("lane %u missing", lane);
		v = field(l, "x");
		ASSERT_NE(NULL, v);
		for (i = 0, v++; i < 32; i++) {
			x[i] = strtoul(v, (char **)&v, 0);
			v += 2;
		}
		EXPECT_EQ(0, x[0]);
		EXPECT_EQ(3 * lane + 1, x[T0]) TH_LOG("lane %u", lane);
		EXPECT_EQ(self->data_addr, x[A0]);
		/* f3 holds the same bits; fcsr is 0 */
		v = field(l, "f");
		ASSERT_NE(NULL, v);
		for (i = 0, v++; i <= 3; i++) {
			x[i] = strtoul(v, (char **)&v, 0);
			v += 2;
		}
		EXPECT_EQ(3 * lane + 1, x[3]) TH_LOG("lane %u", lane);
		EXPECT_EQ(0, num(l, "fcsr"));
	}
	check_hang_elf(_metadata, self);

	/* The registers section has the card's STATUS. */
	EXPECT_NE(NULL, strstr(self->text, "\nregisters:\n  - { offset: 0x0000, value: 0x"));
	EXPECT_NE(NULL, strstr(self->text, "\ndebug-module:\n  - { reg: 0x0, name: platform"));
}

/* The CUDA ELF of a fault: the warp's errorPC, lane 0's exception code. */
static void check_fault_elf(struct __test_metadata *_metadata,
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

TEST_F_TIMEOUT(dump, exception_dump_has_fault_info, 60)
{
	const char *f, *w;

	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_fault, sizeof(prog_fault)));
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(0, strncmp(field(self->text, "error"), "exception\n", 10));
	f = section(self->text, "fault-info");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(VX_ERR_ILLEGAL_INSTR, num(f, "cause"));
	EXPECT_EQ(self->code_addr + FAULT_PC, num(f, "pc"));
	EXPECT_EQ(0, num(f, "thread"));
	w = strstr(self->text, "\nwarps:\n  - id: ");
	ASSERT_NE(NULL, w);
	EXPECT_EQ(num(f, "warp"), num(w, "id"));
	EXPECT_EQ(self->code_addr + FAULT_PC, num(w, "pc"));

	check_fault_elf(_metadata, self);
}

TEST_F_TIMEOUT(dump, assert_dump_has_message_file_line, 60)
{
	static const char expr[] = "n < 4", file[] = "kernels/check.c", fn[] = "check";
	const char *f;

	memcpy((char *)self->data_map + 1024, expr, sizeof(expr));
	memcpy((char *)self->data_map + 1088, file, sizeof(file));
	memcpy((char *)self->data_map + 1152, fn, sizeof(fn));
	self->data_map[0] = self->data_addr + 1024;
	self->data_map[1] = self->data_addr + 1088;
	self->data_map[2] = 42;
	self->data_map[3] = self->data_addr + 1152;
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_assert, sizeof(prog_assert)));
	ASSERT_NE(NULL, self->text);
	f = section(self->text, "fault-info");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(VX_ERR_ASSERT, num(f, "cause"));
	EXPECT_EQ(0, strncmp(field(f, "assert"), "\"n < 4\"\n", 8));
	EXPECT_EQ(0, strncmp(field(f, "file"), "\"kernels/check.c\"\n", 18));
	EXPECT_EQ(42, num(f, "line"));
	EXPECT_EQ(0, strncmp(field(f, "function"), "\"check\"\n", 8));
}

/*
 * A jump to a misaligned target faults on the jump: ERR_PC is the jalr,
 * ERR_ADDR the target, t1 (its rd) still 0x55 in the dump, and the
 * driver's log line names the jump's PC.
 */
TEST_F_TIMEOUT(dump, misaligned_jump_faults_on_the_jump, 60)
{
	char pat[96], *log;
	const char *f, *w, *l, *v;
	uint32_t x = 0;
	int i, n;

	/*
	 * The driver rate-limits its failure lines (10 per 5 s, the kernel's
	 * DEFAULT_RATELIMIT_*); the faults of the tests before this one must
	 * not use up the window this line is printed in.
	 */
	usleep(5500 * 1000);
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_jump, sizeof(prog_jump)));
	ASSERT_NE(NULL, self->text);
	f = section(self->text, "fault-info");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(VX_ERR_MISALIGNED_FETCH, num(f, "cause"));
	EXPECT_EQ(self->code_addr + JUMP_PC, num(f, "pc"));
	EXPECT_EQ(self->code_addr + 18, num(f, "address"));
	w = strstr(self->text, "\nwarps:\n  - id: ");
	ASSERT_NE(NULL, w);
	EXPECT_EQ(self->code_addr + JUMP_PC, num(w, "pc"));
	l = strstr(w, "- lane: 0\n");
	ASSERT_NE(NULL, l);
	v = field(l, "x") + 1;
	for (i = 0; i <= T1; i++) {
		x = strtoul(v, (char **)&v, 0);
		v += 2;
	}
	EXPECT_EQ(0x55, x);

	n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	ASSERT_LT(0, n);
	log = calloc(1, n + 1);
	ASSERT_NE(NULL, log);
	ASSERT_LT(0, klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, n));
	snprintf(pat, sizeof(pat), "jump to a misaligned target (cause %d) in warp",
		 VX_ERR_MISALIGNED_FETCH);
	v = strstr(log, pat);
	ASSERT_NE(NULL, v);
	snprintf(pat, sizeof(pat), "at pc 0x%08llx, addr 0x%08llx",
		 (unsigned long long)self->code_addr + JUMP_PC,
		 (unsigned long long)self->code_addr + 18);
	EXPECT_NE(NULL, strstr(v, pat)) TH_LOG("no \"%s\" in the log", pat);
	free(log);
}

/*
 * A store to a read-only buffer is a STORE_PAGE_FAULT (docs/hardware.md,
 * "Page tables": a store needs W).  The dump walks its address through the
 * file's tables as the card did and prints each level's PTE, level 1
 * first, as msm's pgtable-fault-info prints its walk: level 1 a pointer
 * (V, no R/W/X) to a level-0 table in VRAM, level 0 the leaf the driver
 * built for a GPU_READ_ONLY buffer at its own address (vortex_vm.c: R, X,
 * U, A, D, no W; PPN the buffer's VRAM page).  The CUDA ELF's faulting
 * lane holds CUDBG_EXCEPTION_LANE_ILLEGAL_ADDRESS (1, cudadebugger.h), as
 * libvortex-debug's exception event says for the same fault
 * (hw/vortex_causes.h, the one map).
 */
TEST_F_TIMEOUT(dump, page_fault_dump_walks_the_page_tables, 60)
{
	uint64_t ro_addr, vram_base, vram_size, leaf;
	unsigned int l1, l0, pte[3];
	const char *f, *pt, *v;
	struct elf_view e;
	int i, nexc = 0;
	uint32_t ro;

	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_VRAM_DEVADDR, &vram_base));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_VRAM_SIZE, &vram_size));
	vx_cmd(_vx_bo_create(self->fd, 4096, DRM_VORTEX_BO_GPU_READ_ONLY, &ro, &ro_addr));
	self->data_map[0] = ro_addr;
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_store, sizeof(prog_store)));
	ASSERT_NE(NULL, self->text);
	f = section(self->text, "fault-info");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(VX_ERR_STORE_PAGE_FAULT, num(f, "cause"));
	EXPECT_EQ(ro_addr, num(f, "address"));
	EXPECT_EQ(self->code_addr + STORE_PC, num(f, "pc"));

	pt = section(self->text, "pgtable-fault-info");
	ASSERT_NE(NULL, pt);
	EXPECT_EQ(ro_addr, num(pt, "va"));
	v = field(pt, "ptes");
	ASSERT_NE(NULL, v);
	ASSERT_EQ(2, ptes_of(v, pte)) TH_LOG("ptes: %.40s", v);
	l1 = pte[0];
	l0 = pte[1];
	EXPECT_EQ(VX_PTE_V, l1 & (VX_PTE_V | VX_PTE_R | VX_PTE_W | VX_PTE_X));
	EXPECT_LE(vram_base, (uint64_t)VX_PTE_PPN(l1) << VX_PAGE_SHIFT);
	EXPECT_GT(vram_base + vram_size, (uint64_t)VX_PTE_PPN(l1) << VX_PAGE_SHIFT);
	EXPECT_EQ(0, num(pt, "root") & 0xfff);
	leaf = VX_PTE_MAKE(ro_addr >> VX_PAGE_SHIFT, VX_PTE_V | VX_PTE_R | VX_PTE_X |
			   VX_PTE_U | VX_PTE_A | VX_PTE_D);
	EXPECT_EQ(leaf, l0);

	/* Exactly one lane of the ELF faulted: the card's ERR_THREAD. */
	ASSERT_TRUE(elf_from_dump(self->text, &e));
	for (i = 1; i < e.nsh; i++) {
		const uint32_t *row = elf_data(&e, i);
		size_t r;

		if (e.sh[i].sh_type != CUDBG_SHT(15))
			continue;
		for (r = 0; r < e.sh[i].sh_size / 48; r++, row += 12) {
			if (!row[8])
				continue;
			EXPECT_EQ(1, row[8]);	/* CUDBG_EXCEPTION_LANE_ILLEGAL_ADDRESS */
			EXPECT_EQ(num(f, "thread"), row[4]);	/* ln */
			nexc++;
		}
	}
	EXPECT_EQ(1, nexc);
	free(e.buf);
	_vx_bo_close(self->fd, ro);
}

/*
 * A buffer of 4 MiB is mapped with a megapage (vortex_vm.c: 4 MiB aligned,
 * a level-1 leaf): the walk of a store into its read-only middle ends at
 * level 1, on that leaf, "ptes:" one entry.
 */
TEST_F_TIMEOUT(dump, page_fault_dump_walks_a_megapage, 60)
{
	unsigned int pte[3];
	const char *pt, *v;
	uint64_t addr;
	uint32_t bo;

	vx_cmd(_vx_bo_create(self->fd, 4 << 20, DRM_VORTEX_BO_GPU_READ_ONLY, &bo, &addr));
	ASSERT_EQ(0, addr & ((4 << 20) - 1));
	self->data_map[0] = addr + 0x123450;
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_store, sizeof(prog_store)));
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(VX_ERR_STORE_PAGE_FAULT, num(section(self->text, "fault-info"), "cause"));
	pt = section(self->text, "pgtable-fault-info");
	ASSERT_NE(NULL, pt);
	EXPECT_EQ(addr + 0x123450, num(pt, "va"));
	v = field(pt, "ptes");
	ASSERT_NE(NULL, v);
	ASSERT_EQ(1, ptes_of(v, pte)) TH_LOG("ptes: %.40s", v);
	EXPECT_EQ(VX_PTE_MAKE(addr >> VX_PAGE_SHIFT, VX_PTE_V | VX_PTE_R | VX_PTE_X |
			      VX_PTE_U | VX_PTE_A | VX_PTE_D), pte[0]);
	_vx_bo_close(self->fd, bo);
}

/*
 * Use after unmap: a buffer whose handle the program closed (no job of
 * the file running, so its mapping goes at once, vortex_vm.c) and a kernel
 * that loads from it.  The dump's vm-log (msm's format, "op:job:
 * first-end", oldest first) ends with the unmap of exactly that range,
 * after its map; both before the file's first job (job 0).  The walk of
 * the address finds no valid leaf.
 */
TEST_F_TIMEOUT(dump, vm_log_shows_the_unmap_before_the_fault, 60)
{
	char map[96], unmap[96];
	const char *log, *m, *u, *f, *v, *end;
	unsigned int pte[3];
	uint64_t addr;
	uint32_t bo;
	int n;

	vx_cmd(_vx_bo_create(self->fd, 8192, 0, &bo, &addr));
	vx_cmd(_vx_bo_close(self->fd, bo));
	self->data_map[0] = addr + 4;
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_load, sizeof(prog_load)));
	ASSERT_NE(NULL, self->text);
	f = section(self->text, "fault-info");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(VX_ERR_LOAD_PAGE_FAULT, num(f, "cause"));
	EXPECT_EQ(addr + 4, num(f, "address"));

	log = section(self->text, "vm-log");
	ASSERT_NE(NULL, log);
	snprintf(map, sizeof(map), "  - map:0: 0x%016llx-0x%016llx\n",
		 (unsigned long long)addr, (unsigned long long)addr + 8192);
	snprintf(unmap, sizeof(unmap), "  - unmap:0: 0x%016llx-0x%016llx\n",
		 (unsigned long long)addr, (unsigned long long)addr + 8192);
	m = strstr(log, map);
	u = strstr(log, unmap);
	ASSERT_NE(NULL, m) TH_LOG("no \"%s\" in vm-log", map);
	ASSERT_NE(NULL, u) TH_LOG("no \"%s\" in vm-log", unmap);
	EXPECT_LT(m, u);
	/* The unmap is the log's last entry. */
	end = u + strlen(unmap);
	EXPECT_NE(0, strncmp(end, "  - ", 4)) TH_LOG("after the unmap: %.60s", end);

	v = field(section(self->text, "pgtable-fault-info"), "ptes");
	ASSERT_NE(NULL, v);
	n = ptes_of(v, pte);
	ASSERT_LE(1, n);
	EXPECT_EQ(0, pte[n - 1] & VX_PTE_V);	/* the walk ends on an invalid PTE */
}

/*
 * The same through VM_BIND: a page of the data buffer mapped at a chosen
 * address and unmapped again (no job of the file yet, so at once), then a
 * load from it.  The vm-log's last two entries are that map and unmap.
 */
TEST_F_TIMEOUT(dump, vm_log_shows_a_vm_bind_unmap_before_the_fault, 60)
{
	const uint64_t va = 0x10000000;
	char map[160], unmap[96];
	const char *log, *u;

	vx_cmd(_vx_vm_bind(self->fd, DRM_VORTEX_VM_BIND_OP_MAP, self->data, 0, va, 4096,
			   DRM_VORTEX_VM_BIND_READ | DRM_VORTEX_VM_BIND_WRITE));
	vx_cmd(_vx_vm_bind(self->fd, DRM_VORTEX_VM_BIND_OP_UNMAP, 0, 0, va, 4096, 0));
	self->data_map[0] = va + 8;
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_load, sizeof(prog_load)));
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(VX_ERR_LOAD_PAGE_FAULT, num(section(self->text, "fault-info"), "cause"));
	EXPECT_EQ(va + 8, num(section(self->text, "fault-info"), "address"));
	log = section(self->text, "vm-log");
	ASSERT_NE(NULL, log);
	snprintf(map, sizeof(map), "  - map:0: 0x%016llx-0x%016llx\n  - unmap:0: 0x%016llx-0x%016llx\n",
		 (unsigned long long)va, (unsigned long long)va + 4096,
		 (unsigned long long)va, (unsigned long long)va + 4096);
	snprintf(unmap, sizeof(unmap), "  - unmap:0: 0x%016llx-0x%016llx\n",
		 (unsigned long long)va, (unsigned long long)va + 4096);
	u = strstr(log, map);
	ASSERT_NE(NULL, u) TH_LOG("no \"%s\" in vm-log", map);
	u = strstr(u, unmap);
	ASSERT_NE(NULL, u);
	EXPECT_NE(0, strncmp(u + strlen(unmap), "  - ", 4));	/* the last entry */
}

static int set_label(int fd, uint32_t handle, const char *label)
{
	struct drm_vortex_bo_set_label l = {
		.handle = handle, .label = (uintptr_t)label,
	};

	return vx_ioctl(fd, DRM_IOCTL_VORTEX_BO_SET_LABEL, &l);
}

/*
 * BO_SET_LABEL (as panthor's): the label names the buffer in the dump's
 * bos: entry ('"' and '\' escaped) and in the ELF's .note.vortex.bo (name
 * "Vortex", type 1, desc iova, size, label); a label removed (0) leaves
 * no trace.  Refused: flags, pad, a handle the file lacks, an unreadable
 * pointer, a label past DRM_VORTEX_BO_LABEL_MAX - 1 bytes or not
 * printable ASCII, each with its errno and the label left as it was.
 */
TEST_F_TIMEOUT(dump, buffer_labels_round_trip, 60)
{
	static const char label[] = "input \"A\" \\ 1";
	char longest[DRM_VORTEX_BO_LABEL_MAX], too_long[DRM_VORTEX_BO_LABEL_MAX + 1];
	struct drm_vortex_bo_set_label l;
	const char *b, *c, *note;
	uint64_t caps;
	struct elf_view e;
	int idx;

	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps));
	ASSERT_TRUE(caps & DRM_VORTEX_CAP_BO_LABEL);
	memset(longest, 'x', sizeof(longest) - 1);
	longest[sizeof(longest) - 1] = 0;
	memset(too_long, 'y', sizeof(too_long) - 1);
	too_long[sizeof(too_long) - 1] = 0;

	vx_cmd(set_label(self->fd, self->code, longest));
	vx_cmd(set_label(self->fd, self->code, NULL));		/* removed */
	vx_cmd(set_label(self->fd, self->data, longest));
	vx_cmd(set_label(self->fd, self->data, label));
	vx_err(EINVAL, set_label(self->fd, self->data, too_long));
	vx_err(EINVAL, set_label(self->fd, self->data, "tab\there"));
	vx_err(EINVAL, set_label(self->fd, self->data, "\xc3\xa9t\xc3\xa9"));
	vx_err(ENOENT, set_label(self->fd, 0xdead, label));
	vx_err(EFAULT, set_label(self->fd, self->data, (const char *)8));
	l = (struct drm_vortex_bo_set_label){ .handle = self->data,
		.label = (uintptr_t)"x", .flags = 1 };
	vx_err(EINVAL, vx_ioctl(self->fd, DRM_IOCTL_VORTEX_BO_SET_LABEL, &l));
	l = (struct drm_vortex_bo_set_label){ .handle = self->data,
		.label = (uintptr_t)"x", .pad = 1 };
	vx_err(EINVAL, vx_ioctl(self->fd, DRM_IOCTL_VORTEX_BO_SET_LABEL, &l));

	ASSERT_EQ(-ETIMEDOUT, hang_and_dump(_metadata, self, prog_hang, sizeof(prog_hang)));
	ASSERT_NE(NULL, self->text);
	b = find_bo(self->text, self->data_addr);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(0, strncmp(field(b, "label"), "\"input \\\"A\\\" \\\\ 1\"\n", 19))
		TH_LOG("label: %.40s", field(b, "label"));
	c = find_bo(self->text, self->code_addr);
	ASSERT_NE(NULL, c);
	/* The code buffer's entry ends at the next "  - " without a label. */
	EXPECT_TRUE(!field(c, "label") || field(c, "label") > strstr(c + 4, "\n  - "));

	ASSERT_TRUE(elf_from_dump(self->text, &e));
	idx = elf_index(&e, ".note.vortex.bo");
	ASSERT_LT(0, idx);
	EXPECT_EQ(SHT_NOTE, e.sh[idx].sh_type);
	note = elf_data(&e, idx);
	EXPECT_EQ(7, ((const uint32_t *)note)[0]);			/* namesz */
	EXPECT_EQ(16 + 16, ((const uint32_t *)note)[1]);		/* descsz */
	EXPECT_EQ(1, ((const uint32_t *)note)[2]);			/* type */
	EXPECT_STREQ("Vortex", note + 12);
	EXPECT_EQ(self->data_addr, *(const uint64_t *)(note + 20));
	EXPECT_EQ(DATA_SIZE, *(const uint64_t *)(note + 28));
	EXPECT_STREQ(label, note + 36);
	EXPECT_EQ(12 + 8 + 32, e.sh[idx].sh_size);			/* one note only */
	free(e.buf);
}

/*
 * The header names the process (pid, as xe and amdgpu do), the job both
 * as its file counts (job:) and as the card does (card-job:, the ring's
 * fence seqno, card-wide), and the format's version.  Two files' first
 * jobs are both "job: 1", with card-wide numbers that grow.
 */
TEST_F_TIMEOUT(dump, header_names_pid_card_job_and_version, 60)
{
	unsigned long long first;
	int fd2;

	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_fault, sizeof(prog_fault)));
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(2, num(self->text, "dump-version"));
	EXPECT_EQ(getpid(), num(self->text, "pid"));
	EXPECT_EQ(1, num(self->text, "job"));
	first = num(self->text, "card-job");
	EXPECT_LE(1, first);
	EXPECT_NE(~0ull, first);

	/* The same program from a second file of this process. */
	vx_dump_discard();
	free(self->text);
	self->text = NULL;
	fd2 = self->fd;
	self->fd = open(VX_NODE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	vx_cmd(_vx_bo_create(self->fd, CODE_SIZE, 0, &self->code, &self->code_addr));
	self->code_map = vx_bo_map(self->fd, self->code, NULL);
	ASSERT_NE(NULL, self->code_map);
	self->bos[0].handle = self->code;
	self->bos[1].handle = 0;
	vx_submit_init(&self->sub, self->code_addr, 0, self->threads, self->bos, 1);
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_fault, sizeof(prog_fault)));
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(1, num(self->text, "job"));
	EXPECT_LT(first, num(self->text, "card-job"));
	close(fd2);
}

/*
 * DRM_VORTEX_BO_NO_DUMP: the buffer is listed (address, size, flags) but
 * its bytes are in neither the text nor the ELF, and not-captured: says
 * why; as the job's argument block, its bytes are not the ELF's
 * .cudbg.param either.  The other buffers' bytes are dumped as before.
 */
TEST_F_TIMEOUT(dump, no_dump_buffer_is_listed_without_its_bytes, 60)
{
	struct drm_vortex_submit_bo bos[3];
	const char *b, *next, *nc;
	volatile uint32_t *map;
	struct elf_view e;
	uint64_t addr, caps;
	uint32_t bo, i;
	int k;

	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps));
	ASSERT_TRUE(caps & DRM_VORTEX_CAP_BO_NO_DUMP);
	vx_cmd(_vx_bo_create(self->fd, 4096, DRM_VORTEX_BO_NO_DUMP, &bo, &addr));
	map = vx_bo_map(self->fd, bo, NULL);
	ASSERT_NE(NULL, map);
	for (i = 0; i < 1024; i++)
		map[i] = 0x5ec0000u + i;
	bos[0] = self->bos[0];
	bos[1] = self->bos[1];
	bos[2] = (struct drm_vortex_submit_bo){ bo, DRM_VORTEX_SUBMIT_BO_READ |
		DRM_VORTEX_SUBMIT_BO_DUMP };
	vx_submit_init(&self->sub, self->code_addr, addr, self->threads, bos, 3);
	ASSERT_EQ(-ETIMEDOUT, hang_and_dump(_metadata, self, prog_hang, sizeof(prog_hang)));
	ASSERT_NE(NULL, self->text);

	b = find_bo(self->text, addr);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(4096, num(b, "size"));
	next = strstr(b + 4, "\n  - ") ?: strstr(b, "\nregisters:");
	ASSERT_NE(NULL, next);
	EXPECT_TRUE(!strstr(b, "data: ") || strstr(b, "data: ") > next);
	b = find_bo(self->text, self->data_addr);
	ASSERT_NE(NULL, b);
	EXPECT_NE(NULL, strstr(b, "    data: !!ascii85"));
	nc = field(self->text, "not-captured");
	ASSERT_NE(NULL, nc);
	EXPECT_NE(NULL, strstr(nc, "buffer contents (DRM_VORTEX_BO_NO_DUMP)"));

	ASSERT_TRUE(elf_from_dump(self->text, &e));
	for (k = 1; k < e.nsh; k++) {
		EXPECT_NE(addr, e.sh[k].sh_addr) TH_LOG("section %s", e.str + e.sh[k].sh_name);
		EXPECT_NE(CUDBG_SHT(18), e.sh[k].sh_type);	/* no .cudbg.param */
	}
	free(e.buf);
	munmap((void *)map, 4096);
}

/*
 * Every captured byte is in the ELF's CUDBG_SHT_GLOBAL_MEM sections, a
 * buffer's zero tail too: the data buffer (1000 words of pattern, then
 * zeros to DATA_SIZE) is covered from its first byte to its last by
 * .cudbg.global sections (cuda-gdb reads global memory only where a
 * section holds it), their bytes those the test wrote.
 */
TEST_F_TIMEOUT(dump, elf_global_sections_keep_the_zero_tail, 60)
{
	static uint8_t seen[DATA_SIZE];
	struct elf_view e;
	uint64_t lo, hi, a;
	int k, covered = 0;

	ASSERT_EQ(-ETIMEDOUT, hang_and_dump(_metadata, self, prog_hang, sizeof(prog_hang)));
	ASSERT_NE(NULL, self->text);
	ASSERT_TRUE(elf_from_dump(self->text, &e));
	memset(seen, 0, sizeof(seen));
	for (k = 1; k < e.nsh; k++) {
		if (e.sh[k].sh_type != CUDBG_SHT(2))
			continue;
		lo = e.sh[k].sh_addr;
		hi = lo + e.sh[k].sh_size;
		if (hi <= self->data_addr || lo >= self->data_addr + DATA_SIZE)
			continue;
		ASSERT_LE(self->data_addr, lo);
		ASSERT_GE(self->data_addr + DATA_SIZE, hi);
		ASSERT_GE(e.len, e.sh[k].sh_offset + e.sh[k].sh_size);
		EXPECT_EQ(0, memcmp(elf_data(&e, k),
				    (const uint8_t *)self->data_map + (lo - self->data_addr),
				    hi - lo)) TH_LOG("section %s", e.str + e.sh[k].sh_name);
		for (a = lo; a < hi; a++)
			seen[a - self->data_addr] = 1;
	}
	for (a = 0; a < DATA_SIZE; a++)
		covered += seen[a];
	EXPECT_EQ(DATA_SIZE, covered);
	free(e.buf);
}

/* ------------------------------------------------ what a file chooses */

static int dump_config(int fd, uint32_t flags, uint32_t *old)
{
	struct drm_vortex_dump_config c = { .flags = flags };
	int ret = vx_ioctl(fd, DRM_IOCTL_VORTEX_DUMP_CONFIG, &c);

	if (!ret && old)
		*old = c.old_flags;
	return ret;
}

TEST_F(dump, config_flags_and_errors)
{
	uint32_t old = 99;

	vx_cmd(dump_config(self->fd, DRM_VORTEX_DUMP_SKIP_LOCAL, &old));
	EXPECT_EQ(0, old);
	vx_cmd(dump_config(self->fd, 0, &old));
	EXPECT_EQ(DRM_VORTEX_DUMP_SKIP_LOCAL, old);
	vx_err(EINVAL, dump_config(self->fd, DRM_VORTEX_DUMP_FLAGS + 1, NULL));
	vx_err(EINVAL, dump_config(self->fd, 1u << 31, NULL));
	vx_cmd(dump_config(self->fd, 0, &old));
	EXPECT_EQ(0, old);	/* the refused calls changed nothing */
}

/*
 * Bits 1, 3 and 4 were SKIP_SHARED, SKIP_ELF_IMAGE and FAULTED_ONLY, which
 * did nothing (the card has no shared memory, the ELF no unrelocated image,
 * a dump one context): the uapi dropped them, and the driver refuses them.
 */
TEST_F(dump, config_err_removed_flags)
{
	static const uint32_t gone[] = { 1u << 1, 1u << 3, 1u << 4 };
	uint32_t old = 99, i;

	vx_cmd(dump_config(self->fd, DRM_VORTEX_DUMP_SKIP_LOCAL, NULL));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(0, gone[i] & DRM_VORTEX_DUMP_FLAGS);
		vx_err(EINVAL, dump_config(self->fd, gone[i], NULL));
	}
	vx_cmd(dump_config(self->fd, 0, &old));
	EXPECT_EQ(DRM_VORTEX_DUMP_SKIP_LOCAL, old);	/* unchanged by the refusals */
}

/* SKIP_GLOBAL: the buffers are listed, without their contents. */
TEST_F_TIMEOUT(dump, skip_global_leaves_buffer_contents_out, 60)
{
	const char *bo;

	vx_cmd(dump_config(self->fd, DRM_VORTEX_DUMP_SKIP_GLOBAL, NULL));
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_fault, sizeof(prog_fault)));
	ASSERT_NE(NULL, self->text);
	bo = find_bo(self->text, self->data_addr);
	ASSERT_NE(NULL, bo);
	EXPECT_EQ(DATA_SIZE, num(bo, "size"));
	EXPECT_NE(0, strncmp(strchr(strstr(bo, "name: "), '\n') + 1, "    data:", 9));
	EXPECT_EQ(NULL, strstr(self->text, "\n    data: !!ascii85 |\n      !!!")) ;
	EXPECT_NE(NULL, strstr(field(self->text, "not-captured"), "SKIP_GLOBAL"));
}

/*
 * Issue 22, item 7: a hang that lists a 64 MiB buffer.  A dump takes about
 * three times the buffer bytes it holds (the copy, the ELF's copy, the
 * ascii85 text): one such hang made a 163 MiB dump in a 512 MiB guest and
 * held recovery 7.3 s.  A dump now holds at most a thirty-second of RAM in
 * buffer bytes, and says so in not-captured; the whole text stays under an
 * eighth of RAM.
 */
TEST_F_TIMEOUT(dump, buffer_bytes_of_a_dump_are_bounded_by_ram, 120)
{
	const uint64_t big = 64ull << 20;
	struct drm_vortex_submit_bo bos[3];
	uint64_t ram = (uint64_t)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE);
	uint64_t addr;
	uint32_t h, *map;
	size_t i, len;

	vx_cmd(_vx_bo_create(self->fd, big, 0, &h, &addr));
	map = vx_bo_map(self->fd, h, NULL);
	ASSERT_NE(NULL, map);
	/* No zero tail to leave out: every word counts. */
	for (i = 0; i < big / 4; i += 1024)
		map[i + 1023] = 0x5a5a0000u | (uint32_t)i;
	munmap(map, big);
	bos[0] = self->bos[0];
	bos[1] = self->bos[1];
	bos[2] = (struct drm_vortex_submit_bo){ h,
		DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_DUMP };
	self->sub.bos = (uintptr_t)bos;
	self->sub.bo_count = 3;
	ASSERT_EQ(-ETIMEDOUT, hang_and_dump(_metadata, self, prog_hang, sizeof(prog_hang)));
	ASSERT_NE(NULL, self->text);
	len = strlen(self->text);
	EXPECT_NE(NULL, strstr(field(self->text, "not-captured"), "thirty-second of RAM"));
	EXPECT_LT(len, ram / 8) TH_LOG("a %zu-byte dump in %llu bytes of RAM", len,
					 (unsigned long long)ram);
	vx_cmd(_vx_bo_close(self->fd, h));
}

/* A number in debugfs last_dump, after "@key: ", or -1. */
static long long last_dump_num(const char *key)
{
	char buf[512] = "", pat[32];
	const char *p;
	int fd = vx_debugfs_open("last_dump", O_RDONLY);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = 0;
	close(fd);
	snprintf(pat, sizeof(pat), "%s: ", key);
	p = strstr(buf, pat);
	return p ? atoll(p + strlen(pat)) : -1;
}

/*
 * Issue 22, "the card must not be held past the hang timeout for a
 * dump": recovery captures, and the dump is rendered after it.  A fault
 * with a large buffer of incompressible words and the ELF zlib-compressed
 * makes rendering cost a second or more in the guest; the faulting job
 * ends before its dump is rendered, and the card runs the next job within
 * one hang timeout of the submission.  Before the snapshot/render split
 * (f3b85bf) recovery rendered the ELF, its zlib stream and the text with
 * the card frozen: the job ended only after all of it.
 */
TEST_F_TIMEOUT(dump, recovery_holds_the_card_only_for_the_capture, 120)
{
	uint64_t ram = (uint64_t)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE);
	uint64_t big, addr, x = 0x9e3779b97f4a7c15ull;
	struct drm_vortex_submit_bo bos[3];
	int64_t t0, t_fault, t_next;
	int32_t status = 1;
	uint32_t h, *map;
	size_t i;

	/* Under dump_max_mb and a thirty-second of RAM: captured whole. */
	big = ((ram / 32 - (1 << 20)) & ~((1ull << 20) - 1));
	if (big > 32ull << 20)
		big = 32ull << 20;
	ASSERT_LE(1ull << 20, big);
	vx_cmd(_vx_bo_create(self->fd, big, 0, &h, &addr));
	map = vx_bo_map(self->fd, h, NULL);
	ASSERT_NE(NULL, map);
	for (i = 0; i < big / 4; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		map[i] = (uint32_t)x | 1;
	}
	munmap(map, big);
	bos[0] = self->bos[0];
	bos[1] = self->bos[1];
	bos[2] = (struct drm_vortex_submit_bo){ h, DRM_VORTEX_SUBMIT_BO_READ };
	self->sub.bos = (uintptr_t)bos;
	self->sub.bo_count = 3;
	vx_cmd(dump_config(self->fd, DRM_VORTEX_DUMP_COMPRESS_ELF, NULL));

	memcpy(self->code_map, prog_fault, sizeof(prog_fault));
	t0 = vx_now();
	vx_cmd(_vx_submit(self->fd, &self->sub));
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 60 * SEC, &status));
	t_fault = vx_now() - t0;
	EXPECT_EQ(-EIO, status);
	/* The card is free: a job after it runs at once. */
	self->sub.bo_count = 2;
	memcpy(self->code_map, (uint32_t[]){ SW(A0, A0, 0), TMC(X0) }, 8);
	vx_cmd(_vx_submit(self->fd, &self->sub));
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 60 * SEC, &status));
	t_next = vx_now() - t0;
	EXPECT_EQ(0, status);
	EXPECT_LT(t_next, (int64_t)self->timeout_ms * 1000000)
		TH_LOG("fault ended after %lld ms, next job after %lld ms (timeout %llu ms)",
		       (long long)(t_fault / 1000000), (long long)(t_next / 1000000),
		       (unsigned long long)self->timeout_ms);
	EXPECT_LT(last_dump_num("frozen_ns"), (long long)self->timeout_ms * 1000000);

	/* ...and the dump, published and rendered after, holds the buffer whole. */
	self->text = vx_dump_read(DUMP_WAIT_MS);
	/* Rendering took longer than the whole failure took to handle. */
	EXPECT_LT(t_fault, last_dump_num("render_ns"));
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(NULL, field(self->text, "not-captured"));
	EXPECT_NE(NULL, find_bo(self->text, addr));
	EXPECT_GT(strlen(self->text), big);
	EXPECT_EQ((long long)strlen(self->text), last_dump_num("bytes"));
	TH_LOG("%llu-byte buffer: frozen %lld ms, rendered in %lld ms, %zu bytes",
	       (unsigned long long)big, last_dump_num("frozen_ns") / 1000000,
	       last_dump_num("render_ns") / 1000000, strlen(self->text));
	vx_cmd(_vx_bo_close(self->fd, h));
}

/*
 * Every lane of every warp of the card: x_r = r << 24 + hart << 8 (r =
 * 2..30), x31 = hart << 8 + 31, f_r = (0x40 + r) << 16 + hart << 8, fcsr
 * 0x65, then (with @tmc) x1 = the mask and vx_tmc(x1), and a jump to
 * itself: a hang.  Returns the program's length in words; *@mask receives
 * the lanes of the first 32 it keeps on: with @tmc those of 0x5a5 | 1 (a
 * 32-bit register has no bits for the lanes past them, which vx_tmc turns
 * off), without it all of them (x1 = 0).
 */
static uint32_t all_registers_prog(uint32_t *prog, uint64_t threads, bool tmc,
				   uint32_t *mask)
{
	uint32_t all = threads >= 32 ? ~0u : (1u << threads) - 1, n = 0, r;

	*mask = tmc ? (0x5a5 & all) | 1 : all;
	/* x31 = hart << 8; f_f = (0x40 + f) << 16 + x31; fcsr = 0x65 */
	prog[n++] = CSRR(31, VX_CSR_MHARTID);
	prog[n++] = SLLI(31, 31, 8);
	for (r = 0; r < 32; r++) {
		prog[n++] = LUI(1, (0x40 + r) << 4);
		prog[n++] = ADD(1, 1, 31);
		prog[n++] = FMV_W_X(r, 1);
	}
	prog[n++] = ADDI(1, X0, 0x65);
	prog[n++] = CSRW(0x003, 1);
	/* x_r = r << 24 + x31, x31 += 31, x1 = the mask the warp goes on with */
	for (r = 2; r < 31; r++) {
		prog[n++] = LUI(r, r << 12);
		prog[n++] = ADD(r, r, 31);
	}
	prog[n++] = ADDI(31, 31, 31);
	prog[n++] = ADDI(1, X0, tmc ? *mask : 0);
	prog[n++] = tmc ? TMC(1) : ADDI(X0, X0, 0);
	prog[n++] = JSELF;
	return n;
}

/* all_registers_prog() on every warp of the card, hung and dumped. */
static void hang_all_registers(struct __test_metadata *_metadata,
			       FIXTURE_DATA(dump) *self, bool tmc, uint32_t *n,
			       uint32_t *mask)
{
	uint64_t clusters, cores, warps;
	uint32_t prog[192];

	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CLUSTERS, &clusters));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CORES, &cores));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_WARPS, &warps));
	*n = all_registers_prog(prog, self->threads, tmc, mask);
	ASSERT_LE(*n, sizeof(prog) / 4);
	self->sub.grid[0] = clusters * cores;
	self->sub.block[0] = warps * self->threads;
	ASSERT_EQ(-ETIMEDOUT, hang_and_dump(_metadata, self, prog, *n * 4));
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(NULL, field(self->text, "not-captured"));
}

/*
 * A hang of every warp of the card, each lane with its own value in every
 * register, some lanes masked off by vx_tmc: the dump holds each listed
 * lane's x0-x31, f0-f31 and fcsr exactly, the warp's own thread mask, and
 * only the lanes of that mask.  A recovery dump has the warps store their
 * registers themselves (driver/vortex_dump_regs.c, a stub they run: DPC is
 * "RW", shared/specs/vxdebug-spec.md), so the Debug Module sees a handful
 * of accesses per warp, not three per injected instruction (some 270 per
 * warp, which on a 4,8,32,32 card kept it frozen for 270 ms).
 */
TEST_F_TIMEOUT(dump, full_card_hang_dump_has_every_register_in_few_dm_accesses, 120)
{
	uint64_t clusters, cores, warps;
	uint32_t n, mask, r, nwarps = 0, lane, g, hart, v[32];
	const char *w, *l, *p;
	char pat[32], *next;
	long long accesses;

	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CLUSTERS, &clusters));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CORES, &cores));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_WARPS, &warps));
	hang_all_registers(_metadata, self, true, &n, &mask);

	w = strstr(self->text, "\nwarps:\n");
	for (w = w ? strstr(w, "\n  - id: ") : NULL; w; w = next) {
		/* The warp's lines alone: its end is the next one's start. */
		next = strstr(w + 1, "\n  - id: ");
		if (next)
			*next = 0;
		g = num(w + 1, "id");
		nwarps++;
		EXPECT_EQ(0, strncmp(field(w, "halted"), "yes", 3));
		EXPECT_EQ(VX_HACAUSE_HALTREQ, num(w, "halt-cause")) TH_LOG("warp %u", g);
		EXPECT_EQ(self->code_addr + (n - 1) * 4, num(w, "pc")) TH_LOG("warp %u", g);
		EXPECT_EQ(mask, num(w, "thread-mask")) TH_LOG("warp %u", g);
		p = field(w, "block");
		ASSERT_NE(NULL, p);
		EXPECT_GT(self->sub.grid[0], strtoul(p + 1, NULL, 0)) TH_LOG("warp %u", g);
		for (lane = 0; lane < self->threads; lane++) {
			snprintf(pat, sizeof(pat), "- lane: %u\n", lane);
			l = strstr(w, pat);
			if (lane < 32 && !(mask & (1u << lane))) {
				EXPECT_EQ(NULL, l) TH_LOG("warp %u lane %u is masked off", g, lane);
				continue;
			}
			ASSERT_NE(NULL, l) TH_LOG("warp %u lane %u missing", g, lane);
			hart = g * self->threads + lane;
			p = field(l, "x");
			ASSERT_NE(NULL, p);
			for (r = 0, p++; r < 32; r++, p += 2)
				v[r] = strtoul(p, (char **)&p, 0);
			EXPECT_EQ(0, v[0]);
			EXPECT_EQ(mask, v[1]) TH_LOG("warp %u lane %u", g, lane);
			for (r = 2; r < 31; r++)
				ASSERT_EQ((r << 24) + (hart << 8), v[r])
					TH_LOG("warp %u lane %u x%u", g, lane, r);
			EXPECT_EQ((hart << 8) + 31, v[31]) TH_LOG("warp %u lane %u", g, lane);
			p = field(l, "f");
			ASSERT_NE(NULL, p);
			for (r = 0, p++; r < 32; r++, p += 2)
				v[r] = strtoul(p, (char **)&p, 0);
			for (r = 0; r < 32; r++)
				ASSERT_EQ(((0x40 + r) << 16) + (hart << 8), v[r])
					TH_LOG("warp %u lane %u f%u", g, lane, r);
			EXPECT_EQ(0x65, num(l, "fcsr")) TH_LOG("warp %u lane %u", g, lane);
		}
		if (next)
			*next = '\n';
	}
	EXPECT_EQ(clusters * cores * warps, nwarps);
	/*
	 * Per warp: its selection, DCTRL (the halt cause), DPC read and
	 * written (reading it through DSCRATCH cost some 270); the rest is
	 * the capture's own (the DM's registers, the windows, halting and
	 * resuming, and polling the batch, whose count depends on how soon
	 * the card's simulator gets the CPU: the constant).
	 */
	accesses = last_dump_num("dm_accesses");
	TH_LOG("%u warps: %lld DM accesses", nwarps, accesses);
	EXPECT_GE(256 + 32 * (long long)nwarps, accesses);
}

/*
 * The CUDA ELF of any card is one cuda-gdb can read: it stops at more
 * than 32 lanes per warp or 64 warps per SM ("internal-error: ...
 * m_num_lanes <= CUDBG_MAX_LANES", issue 26), so a wider card is written
 * as CUDA-sized SMs and warps, as .note.vortex.split says (docs/driver.md,
 * "The CUDA ELF"): part h of warp w of core c (lanes 32h..32h+31) is warp
 * v % 64 of SM c * S + v / 64, v = w * parts + h.  Every listed lane of
 * every warp is in exactly one lane row, with its own registers
 * (all_registers_prog()'s values), found through the tables' links as a
 * reader walks them: lane row -> warp row -> block -> SM.  Lanes 0-31 are
 * listed while on; lanes past 31 always (vortex_dump_lane_listed(): the
 * card's thread-mask CSR is 32 bits wide and injection runs on the
 * selected thread whether it is on or not, so nothing the Debug Module
 * reads tells which are on), in the ELF as in the text.  make check runs
 * these on a 1,1,96,64 card too (96 warps per core, 64 lanes per warp).
 */
static void check_cuda_sized_elf(struct __test_metadata *_metadata,
				 FIXTURE_DATA(dump) *self, bool tmc)
{
	uint64_t clusters, cores, warps;
	uint32_t n, mask, parts, lanes, per_sm, spc, k, r, rows = 0;
	const uint32_t *devrow, *note, *regs, *lnrow, *wprow;
	uint8_t *seen;
	struct elf_view e;
	int i;

	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CLUSTERS, &clusters));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CORES, &cores));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_WARPS, &warps));
	hang_all_registers(_metadata, self, tmc, &n, &mask);
	ASSERT_TRUE(elf_from_dump(self->text, &e));

	/* What a CUDA-sized card must be, from the limits alone. */
	parts = self->threads > 32 ? self->threads / 32 : 1;
	lanes = self->threads > 32 ? 32 : self->threads;
	per_sm = warps * parts > 64 ? 64 : warps * parts;
	spc = (warps * parts + 63) / 64;
	i = elf_index(&e, ".cudbg.devtbl");
	ASSERT_LE(0, i);
	devrow = elf_data(&e, i);
	EXPECT_EQ(clusters * cores * spc, devrow[9]);	/* numSMs */
	EXPECT_EQ(per_sm, devrow[10]);			/* numWarpsPerSM */
	EXPECT_EQ(lanes, devrow[11]);			/* numLanesPerWarp */
	EXPECT_GE(64, devrow[10]);
	EXPECT_GE(32, devrow[11]);
	i = elf_index(&e, ".note.vortex.split");
	ASSERT_LE(0, i);
	ASSERT_EQ(44, e.sh[i].sh_size);
	note = elf_data(&e, i);
	EXPECT_EQ(2, note[2]);				/* type */
	EXPECT_EQ(0, memcmp(&note[3], "Vortex", 7));
	EXPECT_EQ(parts, note[5]);
	EXPECT_EQ(lanes, note[6]);
	EXPECT_EQ(per_sm, note[7]);
	EXPECT_EQ(spc, note[8]);
	EXPECT_EQ(warps, note[9]);
	EXPECT_EQ(self->threads, note[10]);
	TH_LOG("%llu warps of %llu lanes per core: %u SMs per core of %u warps of %u lanes",
	       (unsigned long long)warps, (unsigned long long)self->threads, spc, per_sm,
	       lanes);

	seen = calloc(clusters * cores * warps * self->threads, 1);
	ASSERT_NE(NULL, seen);
	for (k = 1; k < e.nsh; k++) {
		uint32_t lnt, wpt, ctat, sm, v, lane, g, hart;

		if (e.sh[k].sh_type != CUDBG_SHT(5))	/* a lane's registers */
			continue;
		ASSERT_EQ(64 * 4, e.sh[k].sh_size);
		lnt = e.sh[k].sh_link;
		wpt = e.sh[lnt].sh_link;
		ctat = e.sh[wpt].sh_link;
		ASSERT_EQ(CUDBG_SHT(15), e.sh[lnt].sh_type);
		ASSERT_EQ(CUDBG_SHT(14), e.sh[wpt].sh_type);
		ASSERT_EQ(CUDBG_SHT(13), e.sh[ctat].sh_type);
		lnrow = (const uint32_t *)((const uint8_t *)elf_data(&e, lnt) +
					   48 * e.sh[k].sh_info);
		wprow = (const uint32_t *)((const uint8_t *)elf_data(&e, wpt) +
					   40 * e.sh[lnt].sh_info);
		sm = e.sh[ctat].sh_info;
		ASSERT_GT(lanes, lnrow[4]);			/* ln */
		ASSERT_GT(per_sm, wprow[2]);			/* warpId */
		EXPECT_TRUE(wprow[3] & (1u << lnrow[4]));	/* validLanes */
		v = sm % spc * per_sm + wprow[2];
		lane = v % parts * 32 + lnrow[4];
		g = (sm / spc) * warps + v / parts;
		ASSERT_GT(clusters * cores * warps, g) TH_LOG("sm %u warp %u", sm, wprow[2]);
		hart = g * self->threads + lane;
		regs = elf_data(&e, k);
		for (r = 2; r < 31; r++)
			ASSERT_EQ((r << 24) + (hart << 8), regs[r])
				TH_LOG("sm %u warp %u lane %u (warp %u lane %u): x%u", sm,
				       wprow[2], lnrow[4], g, lane, r);
		for (r = 0; r < 32; r++)
			ASSERT_EQ(((0x40 + r) << 16) + (hart << 8), regs[32 + r])
				TH_LOG("sm %u warp %u lane %u (warp %u lane %u): f%u", sm,
				       wprow[2], lnrow[4], g, lane, r);
		seen[hart]++;
		rows++;
	}
	for (k = 0; k < clusters * cores * warps * self->threads; k++) {
		uint32_t lane = k % self->threads;
		bool listed = lane >= 32 || mask & (1u << lane);

		ASSERT_EQ(listed ? 1 : 0, seen[k])
			TH_LOG("warp %llu lane %u", (unsigned long long)(k / self->threads), lane);
	}
	TH_LOG("%u lane rows", rows);
	/* The text lists the same lanes. */
	EXPECT_EQ(rows, count(self->text, "      - lane: "));
	free(seen);
	free(e.buf);
}

/* vx_tmc(0x5a5 | 1): lanes 0, 2, 5, 7, 8 and 10 stay on of the first 32. */
TEST_F_TIMEOUT(dump, elf_rows_are_cuda_sized_and_hold_every_lane, 300)
{
	check_cuda_sized_elf(_metadata, self, true);
}

/* No vx_tmc: every lane stays on and is listed. */
TEST_F_TIMEOUT(dump, elf_rows_hold_lanes_past_31_while_they_run, 300)
{
	check_cuda_sized_elf(_metadata, self, false);
}

/* The whole of a dump's data file, read @chunk bytes at a time. */
static char *read_whole(const char *path, size_t chunk, size_t *len)
{
	size_t cap = 1 << 20;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = 0;

	*len = 0;
	while (buf && fd >= 0 && (n = read(fd, buf + *len, chunk)) > 0) {
		*len += n;
		if (*len + chunk > cap)
			buf = realloc(buf, cap *= 2);
	}
	if (fd >= 0)
		close(fd);
	if (n < 0 || fd < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void first_dump_path(const char *data, void *ctx)
{
	snprintf(ctx, 300, "%s", data);
}

/*
 * A dump is rendered as it is read (dev_coredumpm()'s read callback
 * through a drm_coredump_printer, docs/driver.md): two whole reads of the
 * dump of a card whose every warp hangs give the same bytes, the second in
 * reads of an odd size that cut every line and section somewhere else
 * (issue 26: "a read of a 4,8,32,32 dump byte-equal across two reads";
 * make check runs this test on that card too).
 */
TEST_F_TIMEOUT(dump, whole_card_dump_reads_the_same_twice, 300)
{
	uint64_t clusters, cores, warps;
	char path[300] = "", *a, *b;
	uint32_t k, regs;
	struct elf_view e;
	size_t la, lb;
	int32_t status = 1;

	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CLUSTERS, &clusters));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CORES, &cores));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_WARPS, &warps));
	self->code_map[0] = JAL(X0, 0);			/* every warp loops */
	self->sub.grid[0] = clusters * cores;		/* a full block per core */
	self->sub.block[0] = warps * self->threads;
	ASSERT_TRUE(vx_hang_begin(&self->old_timeout_ms, VX_HANG_MS));
	vx_cmd(_vx_submit(self->fd, &self->sub));
	ASSERT_TRUE(vx_hang_declared(&self->old_timeout_ms)) TH_LOG("no timeout");
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 600 * SEC, &status));
	ASSERT_EQ(-ETIMEDOUT, status);
	for (int i = 0; i < 500 && !vx_dump_each(first_dump_path, path); i++)
		usleep(10000);
	ASSERT_NE(0, path[0]) TH_LOG("no dump");
	a = read_whole(path, 1 << 16, &la);
	b = read_whole(path, 4093, &lb);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	TH_LOG("%llu warps: %zu bytes", (unsigned long long)(clusters * cores * warps), la);
	EXPECT_LT(1000, la);
	ASSERT_EQ(la, lb);
	EXPECT_EQ(0, memcmp(a, b, la));
	vx_dump_keep(a, la);
	/*
	 * Its ELF has a section per lane and more: past 0xff00 of them (66640
	 * on a 4,8,32,32 card) ELF's extended numbering gives their count and
	 * the string table's index in section 0, which readers take.
	 */
	a[la - 1] = 0;
	ASSERT_TRUE(elf_from_dump(a, &e));
	for (k = 1, regs = 0; k < e.nsh; k++)
		regs += e.sh[k].sh_type == CUDBG_SHT(5);
	EXPECT_EQ(clusters * cores * warps * self->threads, regs);
	EXPECT_EQ(e.nsh >= SHN_LORESERVE ? 0 : e.nsh, e.eh->e_shnum);
	EXPECT_STREQ(".strtab", e.str + e.sh[e.strndx].sh_name);
	TH_LOG("%u ELF sections", e.nsh);
	free(e.buf);
	free(a);
	free(b);
}

/*
 * Warp 0 of a two-warp block waits at a barrier warp 1 never reaches;
 * warp 1 loops.  A warp parked at a barrier does not run, so it cannot
 * run the dump's register stub (driver/vortex_dump_regs.c): it is halted
 * again, given its PC back and read the injecting way, while warp 1 stores
 * its own.  Both warps' registers are exact, and their PCs are where they
 * stopped (the parked warp's is past its bar, as the card keeps it).
 */
TEST_F_TIMEOUT(dump, warp_parked_at_a_barrier_is_read_too, 60)
{
	static const uint32_t prog[] = {
		CSRR(T0, VX_CSR_WARP_IN_BLOCK),
		CSRR(T1, VX_CSR_MHARTID),
		SLLI(T2, T1, 4),
		ADDI(A1, X0, 0),		/* barrier 0 ... */
		ADDI(A2, X0, 2),		/* ... of both warps */
		BNE(T0, X0, 8),
		RV_R(0, A2, A1, VX_F3_BAR, 0, VX_OPCODE_CUSTOM0),
		JSELF,				/* +28 */
	};
	uint64_t warps;
	uint32_t lane, g, x[32], i, n = 0;
	const char *w, *l, *v;
	char pat[32];

	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_WARPS, &warps));
	if (warps < 2)
		SKIP(return, "one warp per core: no barrier to wait at");
	self->sub.block[0] = 2 * self->threads;
	ASSERT_EQ(-ETIMEDOUT, hang_and_dump(_metadata, self, prog, sizeof(prog)));
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(NULL, field(self->text, "not-captured"));
	w = strstr(self->text, "\nwarps:\n");
	for (w = w ? strstr(w, "\n  - id: ") : NULL; w; w = strstr(w + 1, "\n  - id: ")) {
		g = num(w + 1, "id");
		n++;
		EXPECT_EQ(self->code_addr + 28, num(w, "pc")) TH_LOG("warp %u", g);
		for (lane = 0; lane < self->threads; lane++) {
			snprintf(pat, sizeof(pat), "- lane: %u\n", lane);
			l = strstr(w, pat);
			ASSERT_NE(NULL, l) TH_LOG("warp %u lane %u missing", g, lane);
			v = field(l, "x");
			ASSERT_NE(NULL, v);
			for (i = 0, v++; i < 32; i++, v += 2)
				x[i] = strtoul(v, (char **)&v, 0);
			EXPECT_EQ(g * self->threads + lane, x[T1]) TH_LOG("warp %u lane %u", g, lane);
			EXPECT_EQ((g * self->threads + lane) << 4, x[T2]);
			EXPECT_EQ(2, x[A2]);
			EXPECT_GE(1, x[T0]);
		}
	}
	EXPECT_EQ(2, n);
	TH_LOG("%lld DM accesses, frozen %lld us", last_dump_num("dm_accesses"),
	       last_dump_num("frozen_ns") / 1000);
}

/*
 * What the job printed before it faulted is in its dump: each hardware
 * thread's text (docs/driver.md, "The kernels' console"), whichever core
 * the block landed on.
 */
TEST_F_TIMEOUT(dump, console_output_is_in_the_dump, 60)
{
	const uint32_t prog[] = {
		CSRR(5, VX_CSR_MHARTID), ANDI(6, 5, 63), ADDI(6, 6, 0x40),
		ADDI(7, 0, 'o'), SB(7, 6, 0), ADDI(7, 0, 'k'), SB(7, 6, 0),
		LW(7, 0, 0x10),		/* a load fault */
	};
	const char *sec;

	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog, sizeof(prog)));
	ASSERT_NE(NULL, self->text);
	sec = strstr(self->text, "\nconsole:\n");
	ASSERT_NE(NULL, sec) TH_LOG("no console section");
	EXPECT_EQ(0, num(sec, "dropped"));
	EXPECT_NE(NULL, strstr(sec, "    - hart: ")) TH_LOG("%.300s", sec);
	EXPECT_NE(NULL, strstr(sec, "\n      text: \"ok\"\n")) TH_LOG("%.300s", sec);
}

/*
 * COMPRESS_ELF: the section says zlib, the stream is smaller than the ELF,
 * and it inflates to an ELF with the fault's rows.
 */
TEST_F_TIMEOUT(dump, compressed_elf_inflates_to_the_same_rows, 60)
{
	const char *sec;

	vx_cmd(dump_config(self->fd, DRM_VORTEX_DUMP_COMPRESS_ELF, NULL));
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_fault, sizeof(prog_fault)));
	ASSERT_NE(NULL, self->text);
	sec = strstr(self->text, "\ncuda-coredump:\n");
	ASSERT_NE(NULL, sec);
	ASSERT_NE(NULL, field(sec, "encoding"));
	EXPECT_EQ(0, strncmp(field(sec, "encoding"), "zlib\n", 5));
	EXPECT_GT(num(sec, "size") / 2, num(sec, "stored-size"));
	check_fault_elf(_metadata, self);
}

/* NONE: no dump; NO_EXCEPTION: none for a fault.  The card recovers. */
TEST_F_TIMEOUT(dump, none_and_no_exception_publish_nothing, 60)
{
	int32_t status;
	uint32_t flags[] = { DRM_VORTEX_DUMP_NONE, DRM_VORTEX_DUMP_NO_EXCEPTION };

	memcpy(self->code_map, prog_fault, sizeof(prog_fault));
	for (int i = 0; i < 2; i++) {
		vx_cmd(dump_config(self->fd, flags[i], NULL));
		vx_cmd(_vx_submit(self->fd, &self->sub));
		vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
		EXPECT_EQ(-EIO, status);
		EXPECT_EQ(0, vx_dump_each(NULL, NULL)) TH_LOG("flags 0x%x", flags[i]);
	}
}

/* A new dump is announced: a uevent on the card, a DUMP debug event. */
TEST_F_TIMEOUT(dump, new_dump_is_announced, 60)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	struct drm_vortex_debug_attach a = { .version = DRM_VORTEX_DEBUG_VERSION };
	struct drm_vortex_debug_event ev;
	char buf[4096];
	bool seen = false;
	ssize_t n;
	int nl, i;

	nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	ASSERT_LE(0, nl);
	ASSERT_EQ(0, bind(nl, (struct sockaddr *)&sa, sizeof(sa)));
	vx_cmd(vx_ioctl(self->fd, DRM_IOCTL_VORTEX_DEBUG_ATTACH, &a));
	/* Held for the debugger first; resumed, the job ends and is dumped. */
	memcpy(self->code_map, prog_fault, sizeof(prog_fault));
	vx_cmd(_vx_submit(self->fd, &self->sub));
	for (i = 0; i < 100; i++) {
		if (read(a.fd, &ev, sizeof(ev)) == sizeof(ev) &&
		    ev.type == DRM_VORTEX_DEBUG_EVENT_EXCEPTION)
			break;
	}
	{
		struct drm_vortex_debug_warps w = {
			.op = DRM_VORTEX_DEBUG_WARPS_RESUME,
			.flags = DRM_VORTEX_DEBUG_WARPS_ALL,
		};
		int32_t status = 0;

		ASSERT_EQ(0, ioctl(a.fd, DRM_VORTEX_DEBUG_IOCTL_WARPS, &w));
		vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
		EXPECT_EQ(-EIO, status);
	}
	self->text = vx_dump_read(DUMP_WAIT_MS);
	ASSERT_NE(NULL, self->text);
	for (i = 0; i < 50 && !seen; i++) {
		struct pollfd p = { .fd = nl, .events = POLLIN };

		if (poll(&p, 1, 100) <= 0)
			continue;
		n = recv(nl, buf, sizeof(buf) - 1, 0);
		for (ssize_t o = 0; n > 0 && o < n; o += strlen(buf + o) + 1)
			seen |= !strcmp(buf + o, "VORTEX_CRASH_DUMP=1");
	}
	EXPECT_TRUE(seen) TH_LOG("no VORTEX_CRASH_DUMP uevent");
	close(nl);
	fcntl(a.fd, F_SETFL, O_NONBLOCK);
	for (seen = false; read(a.fd, &ev, sizeof(ev)) == sizeof(ev);)
		if (ev.type == DRM_VORTEX_DEBUG_EVENT_DUMP) {
			seen = true;
			EXPECT_EQ(strlen(self->text), ev.data[0]);
		}
	EXPECT_TRUE(seen) TH_LOG("no DUMP event");
	close(a.fd);
}

/* Reads a debugfs number of the card, or -1. */
static long long debugfs_num(const char *name)
{
	char buf[32] = "";
	long long v = -1;
	int fd = vx_debugfs_open(name, O_RDONLY);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) > 0)
		v = atoll(buf);
	close(fd);
	return v;
}

/*
 * A second failure while the first dump is unread: dropped and counted,
 * the card recovers; writing to the dump discards it, and the next
 * failure leaves a dump again.
 */
TEST_F_TIMEOUT(dump, second_failure_while_unread_is_dropped, 120)
{
	long long dropped = debugfs_num("dumps_dropped");
	int32_t status;

	ASSERT_LE(0, dropped);
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_fault, sizeof(prog_fault)));
	vx_cmd(_vx_submit(self->fd, &self->sub));
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
	EXPECT_EQ(-EIO, status);
	EXPECT_TRUE(vx_poll_ms(debugfs_num("dumps_dropped") == dropped + 1, DROP_WAIT_MS));
	EXPECT_EQ(1, vx_dump_each(NULL, NULL));

	/* The card still works... */
	memcpy(self->code_map, (uint32_t[]){ SW(A0, A0, 0), TMC(X0) }, 8);
	vx_cmd(_vx_submit(self->fd, &self->sub));
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
	EXPECT_EQ(0, status);
	EXPECT_EQ(self->data_addr, self->data_map[0]);
	/* ...and a discarded dump makes room for the next. */
	vx_dump_discard();
	EXPECT_EQ(0, vx_dump_each(NULL, NULL));
	free(self->text);
	self->text = NULL;
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_fault, sizeof(prog_fault)));
}

/*
 * A failure right after its user discarded the last dump leaves a dump,
 * every time.  devcoredump removes the old one in a work item, its class
 * entry first and the card's link to it last; the driver must not take
 * that moment for an unread dump.  At real-time priority, polling in
 * short sleeps, the test makes the next failure while that work is still
 * halfway far more often than a user would (the guest has one CPU).
 */
TEST_F_TIMEOUT(dump, failure_right_after_a_discard_leaves_a_dump, 300)
{
	struct sched_param rt = { .sched_priority = 1 }, normal = {};
	long long dropped = debugfs_num("dumps_dropped");
	int i, j, kept = 0;
	int32_t status;
	char *text;

	ASSERT_LE(0, dropped);
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_fault, sizeof(prog_fault)));
	if (sched_setscheduler(0, SCHED_FIFO, &rt))
		TH_LOG("no real-time priority (%s): the window is hit less often",
		       strerror(errno));
	for (i = 0; i < 200; i++) {
		vx_dump_each(vx_dump_discard_one, NULL);
		for (j = 0; j < 100000 && vx_dump_each(NULL, NULL); j++)
			usleep(50);
		vx_cmd(_vx_submit(self->fd, &self->sub));
		vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
		EXPECT_EQ(-EIO, status);
		text = vx_dump_read(DUMP_WAIT_MS);
		if (!text || num(text, "job") != self->sub.seqno) {
			TH_LOG("round %d: job %llu's dump is not there", i,
			       (unsigned long long)self->sub.seqno);
			free(text);
			break;
		}
		free(text);
		kept++;
	}
	sched_setscheduler(0, SCHED_OTHER, &normal);
	EXPECT_EQ(200, kept);
	EXPECT_EQ(dropped, debugfs_num("dumps_dropped"));
}

/*
 * The same when devcoredump's release of the discarded dump is slow, as
 * on the debug kernel under load, where one took longer than the 200 ms
 * recovery used to wait for it, and the next failure's dump was dropped
 * (issue 39: recovery_holds_the_card_only_for_the_capture found no dump).
 * The driver's unlink_gate holds the release for a second while the next
 * failure's dump waits for it in the dump's worker; with the old bound
 * this fails every time.
 */
TEST_F_TIMEOUT(dump, failure_during_a_slow_discard_leaves_a_dump, 120)
{
	long long dropped = debugfs_num("dumps_dropped");
	int32_t status = 1;
	pid_t pid;
	int wst;

	ASSERT_LE(0, dropped);
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_fault, sizeof(prog_fault)));
	ASSERT_TRUE(vx_gate_write("unlink_gate", "arm"));
	vx_dump_each(vx_dump_discard_one, NULL);
	ASSERT_TRUE(vx_poll_ms(vx_gate_is("unlink_gate", "waiting"), 10000))
		TH_LOG("the discarded dump's release did not reach unlink_gate");

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		usleep(1000 * 1000);	/* five times the old bound */
		_exit(vx_gate_write("unlink_gate", "open") ? 0 : 1);
	}
	vx_cmd(_vx_submit(self->fd, &self->sub));
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
	EXPECT_EQ(-EIO, status);
	ASSERT_EQ(pid, waitpid(pid, &wst, 0));
	EXPECT_EQ(0, wst);
	free(self->text);
	self->text = vx_dump_read(DUMP_WAIT_MS);
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(self->sub.seqno, num(self->text, "job"));
	EXPECT_EQ(dropped, debugfs_num("dumps_dropped"));
}

/* ---------------------------------------------- dumps a debugger asks for */

static int attach(int fd)
{
	struct drm_vortex_debug_attach a = { .version = DRM_VORTEX_DEBUG_VERSION };
	int ret = vx_ioctl(fd, DRM_IOCTL_VORTEX_DEBUG_ATTACH, &a);

	return ret ?: a.fd;
}

static int request_dump(int sfd)
{
	struct drm_vortex_debug_coredump c = { 0 };

	return ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_COREDUMP, &c) ? -errno : 0;
}

/* Waits for a HALTED event; returns the first halted warp. */
static int halted_warp(int sfd)
{
	struct drm_vortex_debug_event ev;
	int64_t end = vx_now() + 10 * SEC;

	while (vx_now() < end)
		if (read(sfd, &ev, sizeof(ev)) == sizeof(ev) &&
		    ev.type == DRM_VORTEX_DEBUG_EVENT_HALTED)
			return ev.data[2];
	return -1;
}

/*
 * A dump of a kernel halted at a breakpoint says what the debugger reads:
 * the same PC and the same registers in every lane.  The job goes on.
 */
TEST_F_TIMEOUT(dump, requested_dump_equals_what_the_debugger_reads, 120)
{
	struct drm_vortex_debug_bp_op bop = {
		.addr = self->code_addr + HANG_PC, .op = DRM_VORTEX_DEBUG_BP_SET };
	struct drm_vortex_debug_breakpoint bp = {
		.ops = (uintptr_t)&bop, .count = 1, .stride = sizeof(bop) };
	struct drm_vortex_debug_reg_op op = { .reg = T0 };
	struct drm_vortex_debug_regs r = { .ops = (uintptr_t)&op, .count = 1,
		.stride = sizeof(op) };
	uint32_t vals[128], lane, x;
	const char *w, *l, *v;
	int sfd, warp, i;
	char pat[32];
	int32_t status;

	memcpy(self->code_map, prog_hang, sizeof(prog_hang));
	sfd = attach(self->fd);
	ASSERT_LE(0, sfd);
	ASSERT_EQ(0, ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_BREAKPOINT, &bp));
	/* Halted, the job outlives any limit; it must reach the breakpoint. */
	ASSERT_TRUE(vx_hang_begin(&self->old_timeout_ms, VX_HANG_PREFIX_MS));
	vx_cmd(_vx_submit(self->fd, &self->sub));
	warp = halted_warp(sfd);
	ASSERT_LE(0, warp);
	op.warp = warp;
	op.values = (uintptr_t)vals;
	for (lane = 0; lane < self->threads; lane++)
		op.lanes[lane / 32] |= 1u << (lane % 32);
	ASSERT_EQ(0, ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_REGS, &r));

	ASSERT_EQ(0, request_dump(sfd));
	self->text = vx_dump_read(0);
	ASSERT_NE(NULL, self->text);
	EXPECT_EQ(0, strncmp(field(self->text, "error"), "requested\n", 10));
	w = strstr(self->text, "\nwarps:\n  - id: ");
	ASSERT_NE(NULL, w);
	EXPECT_EQ(warp, num(w, "id"));
	EXPECT_EQ(self->code_addr + HANG_PC, num(w, "pc"));
	for (lane = 0; lane < self->threads; lane++) {
		snprintf(pat, sizeof(pat), "- lane: %u\n", lane);
		l = strstr(w, pat);
		ASSERT_NE(NULL, l);
		v = field(l, "x") + 1;
		for (i = 0; i <= T0; i++) {
			x = strtoul(v, (char **)&v, 0);
			v += 2;
		}
		EXPECT_EQ(vals[lane], x) TH_LOG("lane %u", lane);
	}
	/* Still halted, still this job: a second request meets the unread dump. */
	EXPECT_EQ(-EBUSY, request_dump(sfd));
	vx_err(ETIME, _vx_wait(self->fd, self->sub.seqno, 0, &status));
	close(sfd);
	vx_dump_discard();
	/* Detached, the loop runs on until the timeout. */
	ASSERT_TRUE(vx_hang_declared(&self->old_timeout_ms)) TH_LOG("no timeout");
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
	EXPECT_EQ(-ETIMEDOUT, status);
}

/* A running job is halted for the capture only, and finishes normally. */
TEST_F_TIMEOUT(dump, requested_dump_of_a_running_job_lets_it_run, 60)
{
	static const uint32_t prog_wait[] = {
		LW(T1, A0, 64),		/* while (!flag) */
		BEQ(T1, X0, -4),
		ADDI(T2, X0, 99),
		SW(T2, A0, 68),
		TMC(X0),
	};
	int sfd;
	int32_t status = 1;

	memcpy(self->code_map, prog_wait, sizeof(prog_wait));
	self->data_map[16] = 0;
	self->data_map[17] = 0;
	sfd = attach(self->fd);
	ASSERT_LE(0, sfd);
	EXPECT_EQ(-ESRCH, request_dump(sfd));
	vx_cmd(_vx_submit(self->fd, &self->sub));
	usleep(100 * 1000);
	ASSERT_EQ(0, request_dump(sfd));
	EXPECT_EQ(1, vx_dump_each(NULL, NULL));
	self->data_map[16] = 1;
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 10 * SEC, &status));
	EXPECT_EQ(0, status);
	EXPECT_EQ(99, self->data_map[17]);
	close(sfd);
}

/* ------------------------------------------- reads racing the slot */

/*
 * A failure's dump, opened and read 4 KiB into @first by a reader that
 * stops there: returns the reader's fd (or -1), the dump's path in @path.
 */
static int dump_read_halfway(struct __test_metadata *_metadata,
			     FIXTURE_DATA(dump) *self, char path[300], char *first)
{
	int fd;

	EXPECT_EQ(-EIO, run_and_dump(_metadata, self, prog_fault, sizeof(prog_fault)));
	path[0] = 0;
	vx_dump_each(first_dump_path, path);
	if (!path[0])
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && read(fd, first, 4096) != 4096) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * A reader stands halfway through a dump (its file open, 4 KiB read)
 * while the next failure happens: that dump is dropped and counted, and
 * the reader's rest is the bytes a whole read gives.  Runs under
 * slub_debug=FZPU in make check's slub-smp2 boot, where a dump freed or
 * re-rendered under the reader reads poison.
 */
#define MINE	(1 << 26)	/* room for a small card's dump */

TEST_F_TIMEOUT(dump, dump_read_while_the_next_failure_happens, 120)
{
	long long dropped = debugfs_num("dumps_dropped");
	size_t len, got = 4096;
	char path[300], *whole, *mine;
	int32_t status;
	ssize_t n;
	int fd;

	mine = malloc(MINE);
	ASSERT_NE(NULL, mine);
	fd = dump_read_halfway(_metadata, self, path, mine);
	ASSERT_LE(0, fd);

	vx_cmd(_vx_submit(self->fd, &self->sub));
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
	EXPECT_EQ(-EIO, status);
	EXPECT_TRUE(vx_poll_ms(debugfs_num("dumps_dropped") == dropped + 1, DROP_WAIT_MS));

	while (got <= MINE - (1 << 16) && (n = read(fd, mine + got, 1 << 16)) > 0)
		got += n;
	close(fd);
	whole = read_whole(path, 1 << 16, &len);
	ASSERT_NE(NULL, whole);
	ASSERT_EQ(len, got);
	EXPECT_EQ(0, memcmp(whole, mine, len));
	free(whole);
	free(mine);
}

/*
 * A reader stands halfway through a dump when its user discards it: the
 * reader gets the dump's own next bytes or an error, never other bytes,
 * and the next failure leaves a dump (the slot is free).  Under
 * slub_debug=FZPU too.
 */
TEST_F_TIMEOUT(dump, discard_while_a_reader_is_halfway, 120)
{
	char path[300], *whole, buf[4096];
	size_t len;
	ssize_t n;
	int fd;

	fd = dump_read_halfway(_metadata, self, path, buf);
	ASSERT_LE(0, fd);
	whole = read_whole(path, 1 << 16, &len);
	ASSERT_NE(NULL, whole);
	ASSERT_LT(8192, len);
	EXPECT_EQ(0, memcmp(buf, whole, 4096));

	vx_dump_discard();
	EXPECT_EQ(0, vx_dump_each(NULL, NULL));
	n = read(fd, buf, sizeof(buf));
	if (n > 0) {
		EXPECT_EQ(0, memcmp(buf, whole + 4096, n)) TH_LOG("%zd other bytes", n);
	} else {
		TH_LOG("the reader's next read: %zd (%s)", n, n ? strerror(errno) : "end");
	}
	close(fd);
	free(whole);

	free(self->text);
	self->text = NULL;
	ASSERT_EQ(-EIO, run_and_dump(_metadata, self, prog_fault, sizeof(prog_fault)));
}

TEST_HARNESS_MAIN
