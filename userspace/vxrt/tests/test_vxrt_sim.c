// SPDX-License-Identifier: MIT
/*
 * libvortexrt itself, unchanged, on the host simulator: vxrt_simdrv.c
 * plays the driver.  Each test runs a Vortex-style kernel the way a
 * Vortex host program does (vx_dev_open, vx_upload_kernel_file, vx_start,
 * vx_ready_wait, vx_mpm_query) on the topologies the guest boots.
 *
 * tls_*: thread-local data through tp, the blocks where upstream's start
 * code puts them, past the image (vortexgpgpu/vortex kernel/src/
 * vx_start.S at fe8168b9, lines 87-92), on a card whose blocks cross the
 * image's last page: a runtime that maps only [min_vma, max_vma) faults.
 * perf_*: the counters upstream's vx_perf_dump() stores (kernel/src/
 * vx_perf.c at fe8168b9, lines 28-37: 64-bit pairs, 8 bytes apart) read
 * back by vx_mpm_query() and vx_dump_perf() as upstream's runtime reads
 * them (runtime/simx/vortex.cpp at fe8168b9, mpm_query(), lines 381-393).
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vortex.h>		/* libvortexrt's: Vortex's API */

#include "kselftest_harness.h"
#include "vortex_accel.h"
#include "vortex_kernels.h"
#include "vortex_regs.h"
#include "vx_elf.h"
#include "vx_file.h"
#include "vx_tls_check.h"
#include "vxrt_simdrv.h"

#ifndef VX_KERNEL_DIR
#define VX_KERNEL_DIR "build/riscv"
#endif
#ifndef VX_ELF2VXBIN
#define VX_ELF2VXBIN "build/host/elf2vxbin"
#endif

#define STARTUP_ADDR	0x80000000u	/* where the runtime puts a PIE */

static char *kpath(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", VX_KERNEL_DIR, name);
	return path;
}

static void *kread(const char *name, size_t *len)
{
	return vx_file_read(kpath(name), len);
}

FIXTURE(rt) {
	vx_device_h dev;
	uint32_t harts, cores;
};

FIXTURE_VARIANT(rt) {
	uint32_t topo[4];
};

FIXTURE_VARIANT_ADD(rt, c1_k2_w4_t8) { { 1, 2, 4, 8 } };
FIXTURE_VARIANT_ADD(rt, c2_k1_w8_t4) { { 2, 1, 8, 4 } };
FIXTURE_VARIANT_ADD(rt, c1_k1_w2_t32) { { 1, 1, 2, 32 } };

/* A fresh card and device: the counters start from the card's reset. */
static int rt_open(const uint32_t topo[4], vx_device_h *dev)
{
	int ret = vxrt_simdrv_new(topo);

	if (ret)
		return ret;
	/* any node that opens: the wrapped ioctls never reach it */
	setenv("VORTEX_DEVICE", "/dev/null", 1);
	return vx_dev_open(dev) ? -errno : 0;
}

static void rt_close(vx_device_h dev)
{
	/* vx_dev_close() prints the PERF: lines, as upstream's does */
	vx_dev_close(dev);
	vxrt_simdrv_free();
}

FIXTURE_SETUP(rt)
{
	const uint32_t *t = variant->topo;

	ASSERT_EQ(0, rt_open(t, &self->dev));
	self->cores = t[0] * t[1];
	self->harts = self->cores * t[2] * t[3];
}

FIXTURE_TEARDOWN(rt)
{
	if (self->dev)
		rt_close(self->dev);
}

/* The job ran: else the fault as the card reported it. */
#define ASSERT_RAN(dev, what)							\
	do {									\
		const struct vxrt_simdrv_fault *f_;				\
		int r_ = vx_ready_wait(dev, 20000) ? errno : 0;			\
		f_ = vxrt_simdrv_fault();					\
		ASSERT_EQ(0, r_)						\
			TH_LOG("%s: %s: cause %u in warp %u lane %u at pc 0x%x, addr 0x%x", \
			       what, strerror(r_), f_->cause, f_->warp, f_->thread, \
			       f_->pc, f_->addr);				\
	} while (0)

/* ------------------------------------------------------------------ TLS */

struct tls_geometry {
	uint32_t end;		/* _end, where the runtime places the image */
	uint32_t block;		/* __tbss_size */
	uint32_t mapped_end;	/* the image's last page's end */
};

/* Where vxs_tls's blocks lie, from its ELF: they must cross the image's last page. */
static void tls_geometry(struct __test_metadata *_metadata, uint32_t harts,
			 struct tls_geometry *g)
{
	struct vx_elf_layout l;
	uint32_t end, block;
	size_t len;
	void *elf = kread("vxs_tls.elf", &len);

	ASSERT_NE(NULL, elf);
	ASSERT_EQ(0, vx_elf_parse(elf, len, &l));
	ASSERT_EQ(0, vx_elf_symbol(elf, len, "_end", &end));
	ASSERT_EQ(0, vx_elf_symbol(elf, len, "__tbss_size", &block));
	free(elf);
	EXPECT_EQ(VXS_TLS_BLOCK, block);
	EXPECT_EQ(VXS_TLS_BLOCK, l.tls_size);
	g->end = STARTUP_ADDR + end;
	g->block = block;
	g->mapped_end = STARTUP_ADDR + ((l.size + 4095) & ~4095u);
	/* the first block inside the image's last page, the last one past it */
	ASSERT_LE(g->end + block, g->mapped_end);
	ASSERT_GT(g->end + harts * block, g->mapped_end)
		TH_LOG("_end 0x%x, %u harts x %u bytes end inside the page", g->end, harts, block);
}

/* vxs_tls from @name, run twice on the same upload: the blocks are cleared at each start. */
static void tls_run(struct __test_metadata *_metadata, vx_device_h dev, uint32_t harts,
		    const char *name)
{
	struct tls_geometry g;
	struct vxs_tls_args a = { .n = 3 * harts + 5 };
	size_t bytes = 3 * a.n * sizeof(uint32_t);
	uint32_t *out = malloc(bytes);
	vx_buffer_h k, ob, ab;
	uint64_t addr;
	char why[160];

	ASSERT_NE(NULL, out);
	tls_geometry(_metadata, harts, &g);
	ASSERT_EQ(0, vx_upload_kernel_file(dev, kpath(name), &k)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, vx_mem_address(k, &addr));
	ASSERT_EQ(STARTUP_ADDR, addr);
	ASSERT_EQ(0, vx_mem_alloc(dev, bytes, VX_MEM_READ_WRITE, &ob));
	ASSERT_EQ(0, vx_mem_address(ob, &addr));
	a.out = addr;
	ASSERT_EQ(0, vx_upload_bytes(dev, &a, sizeof(a), &ab));
	for (int run = 0; run < 2; run++) {
		ASSERT_EQ(0, vx_start(dev, k, ab));
		ASSERT_RAN(dev, name);
		ASSERT_EQ(0, vx_copy_from_dev(out, ob, 0, bytes));
		ASSERT_EQ(0, vx_tls_check(out, a.n, harts, g.block, why, sizeof(why)))
			TH_LOG("%s, run %d: %s", name, run, why);
	}
	free(out);
	vx_mem_free(ab);
	vx_mem_free(ob);
	vx_mem_free(k);
}

/* The ELF: the runtime reads the block's size from PT_TLS. */
TEST_F(rt, tls_elf)
{
	tls_run(_metadata, self->dev, self->harts, "vxs_tls.elf");
}

/* The .vxbin, which carries no TLS size: the runtime's bound, VX_TLS_VXBIN_BOUND. */
TEST_F(rt, tls_vxbin)
{
	tls_run(_metadata, self->dev, self->harts, "vxs_tls.vxbin");
}

/* ---------------------------------------------------------- counters */

#define CORES_MAX	8
#define LOOP_N		1000u	/* vxs_count's iterations on core 0 */
#define LOOP_MORE	3000u	/* the second run's */
#define PER_CORE	100u	/* more on each next core */
#define EXIT_CODE	0x5au
#define DUMP_GAP	8u	/* vxs_perf_dump()'s instructions from mcycle to minstret */

struct count_run {
	uint64_t instrs[CORES_MAX], cycles[CORES_MAX];
	uint32_t seen[2 * CORES_MAX];	/* minstret, mcycle as main read them */
	uint64_t exit_code;
	char *perf;			/* what vx_dump_perf() printed */
};

/* vxs_count with @n iterations on a fresh card, and what the host reads of its counters. */
static void count_run(struct __test_metadata *_metadata, const uint32_t topo[4],
		      uint32_t cores, uint32_t n, struct count_run *r)
{
	struct vxs_count_args a = { .n = n, .per_core = PER_CORE, .exit_code = EXIT_CODE };
	vx_buffer_h k, sb, ab;
	vx_device_h dev;
	uint64_t addr;
	size_t len = 0;
	FILE *f;

	ASSERT_GE(CORES_MAX, cores);
	ASSERT_EQ(0, rt_open(topo, &dev));
	ASSERT_EQ(0, vx_upload_kernel_file(dev, kpath("vxs_count.elf"), &k));
	ASSERT_EQ(0, vx_mem_alloc(dev, sizeof(r->seen), VX_MEM_READ_WRITE, &sb));
	ASSERT_EQ(0, vx_mem_address(sb, &addr));
	a.seen = addr;
	ASSERT_EQ(0, vx_upload_bytes(dev, &a, sizeof(a), &ab));
	ASSERT_EQ(0, vx_start(dev, k, ab));
	ASSERT_RAN(dev, "vxs_count");
	ASSERT_EQ(0, vx_copy_from_dev(r->seen, sb, 0, sizeof(r->seen)));
	for (uint32_t c = 0; c < cores; c++) {
		ASSERT_EQ(0, vx_mpm_query(dev, VX_CSR_MINSTRET, c, &r->instrs[c]));
		ASSERT_EQ(0, vx_mpm_query(dev, VX_CSR_MCYCLE, c, &r->cycles[c]));
	}
	/* counter 1's slot of core 0: upstream's IO_MPM_EXITCODE */
	ASSERT_EQ(0, vx_mpm_query(dev, VX_CSR_MPM_BASE + 1, 0, &r->exit_code));
	f = open_memstream(&r->perf, &len);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, vx_dump_perf(dev, f));
	fclose(f);
	rt_close(dev);
}

/*
 * Two runs of a loop of 2 instructions an iteration, on fresh cards:
 * minstret from vx_mpm_query() moves by exactly the loop's length between
 * them and between cores, stays a fixed few instructions past what main
 * read itself, mcycle keeps up with it, and vx_dump_perf() prints the
 * sums.  With the layout the runtime had (low halves at +4i, high halves
 * at +4i + 128) minstret came from the exit code's word: instrs=90.
 * The kernel stays loaded at vx_dev_close(), as a Vortex program may
 * leave it.
 */
TEST_F(rt, perf_counters)
{
	struct count_run *r = calloc(2, sizeof(*r));
	uint64_t tail = 0, sum, max;
	char want[128];

	ASSERT_NE(NULL, r);
	/* one card at a time: each run opens its own */
	rt_close(self->dev);
	self->dev = NULL;
	count_run(_metadata, variant->topo, self->cores, LOOP_N, &r[0]);
	count_run(_metadata, variant->topo, self->cores, LOOP_MORE, &r[1]);
	for (int i = 0; i < 2; i++) {
		EXPECT_EQ(EXIT_CODE, (uint32_t)r[i].exit_code);
		sum = max = 0;
		for (uint32_t c = 0; c < self->cores; c++) {
			uint64_t instrs = r[i].instrs[c], cycles = r[i].cycles[c];

			ASSERT_LE(2 * LOOP_N, instrs) TH_LOG("run %d core %u", i, c);
			/*
			 * A cycle a warp instruction at least; the dump reads
			 * mcycle a few instructions before minstret.
			 */
			EXPECT_LE(r[i].seen[2 * c], cycles) TH_LOG("run %d core %u", i, c);
			EXPECT_LE(r[i].seen[2 * c + 1], cycles) TH_LOG("run %d core %u", i, c);
			EXPECT_LE(instrs, cycles + DUMP_GAP) TH_LOG("run %d core %u", i, c);
			EXPECT_LE(2ull * (LOOP_MORE - LOOP_N), r[1].cycles[c] - r[0].cycles[c]);
			/* the same instructions lie between main's read and the dump's */
			ASSERT_LT(r[i].seen[2 * c], instrs) TH_LOG("run %d core %u", i, c);
			if (!tail)
				tail = instrs - r[i].seen[2 * c];
			EXPECT_EQ(tail, instrs - r[i].seen[2 * c]) TH_LOG("run %d core %u", i, c);
			EXPECT_EQ(2ull * c * PER_CORE, instrs - r[i].instrs[0]) TH_LOG("core %u", c);
			EXPECT_EQ(2ull * (LOOP_MORE - LOOP_N), r[1].instrs[c] - r[0].instrs[c]);
			sum += instrs;
			max = cycles > max ? cycles : max;
		}
		EXPECT_GT(100, tail) TH_LOG("%llu instructions after main's read", (unsigned long long)tail);
		snprintf(want, sizeof(want), "PERF: instrs=%llu, cycles=%llu, IPC=",
			 (unsigned long long)sum, (unsigned long long)max);
		EXPECT_NE(NULL, strstr(r[i].perf, want)) TH_LOG("want %s in:\n%s", want, r[i].perf);
		free(r[i].perf);
	}
	free(r);
}

/* ------------------------------------------------------ a failed job */

/*
 * vxs_count with its counters' buffer at an address the runtime mapped
 * nowhere: core 0 (the shortest loop: PER_CORE more iterations a core)
 * stores first, to seen[0], and faults there, in warp 0 lane 0.
 * vx_ready_wait() fails with EIO and prints what the driver recorded, as
 * simx prints its abort; vx_dev_last_fault() gives the same record, its
 * values the card's error registers (the simulated driver's copy of
 * them).  Before the record existed the program said only "raised a
 * device exception (Input/output error)".
 */
TEST_F(rt, failed_job_names_its_fault)
{
	struct vxs_count_args a = { .n = 1, .per_core = 100000, .exit_code = EXIT_CODE };
	const uint32_t bad = 0x30000000;	/* inside the heap, unmapped */
	struct drm_vortex_fault_info f;
	char *out = NULL, want[160];
	vx_buffer_h k, ab;
	size_t len = 0;
	FILE *mem;
	int err, saved;

	a.seen = bad;
	ASSERT_EQ(0, vx_upload_kernel_file(self->dev, kpath("vxs_count.elf"), &k));
	ASSERT_EQ(0, vx_upload_bytes(self->dev, &a, sizeof(a), &ab));
	ASSERT_EQ(-1, vx_dev_last_fault(self->dev, &f));
	EXPECT_EQ(ENOENT, errno);
	ASSERT_EQ(0, vx_start(self->dev, k, ab));
	/* stderr into memory, for the lines vx_ready_wait() prints */
	fflush(stderr);
	saved = dup(2);
	mem = tmpfile();
	ASSERT_NE(NULL, mem);
	dup2(fileno(mem), 2);
	err = vx_ready_wait(self->dev, 20000) ? errno : 0;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	len = ftell(mem);
	out = calloc(1, len + 1);
	rewind(mem);
	ASSERT_EQ(len, fread(out, 1, len, mem));
	fclose(mem);
	ASSERT_EQ(EIO, err);

	ASSERT_EQ(0, vx_dev_last_fault(self->dev, &f));
	EXPECT_EQ(-EIO, f.status);
	EXPECT_EQ(VX_ERR_STORE_PAGE_FAULT, f.cause);
	EXPECT_EQ(bad, f.addr);
	EXPECT_EQ(0, f.warp);
	EXPECT_EQ(0, f.lane);
	EXPECT_EQ(0, f.cluster);
	EXPECT_EQ(0, f.core);
	EXPECT_EQ(1, f.lanes[0]);
	EXPECT_EQ(-1, f.dump);
	EXPECT_EQ(vxrt_simdrv_fault()->pc, f.pc);
	EXPECT_LE(STARTUP_ADDR, f.pc);
	snprintf(want, sizeof(want), "vortex: Error: device exception STORE_PAGE_FAULT "
		 "(page fault on store) at PC=0x%08x, address=0x%08x\n", f.pc, bad);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("want %s in:\n%s", want, out);
	EXPECT_NE(NULL, strstr(out, "vortex:   in warp 0 (cluster 0 core 0 warp 0), lane 0\n"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "vortex:   faulting lanes: 0\n")) TH_LOG("%s", out);
	free(out);
	vx_mem_free(ab);
	vx_mem_free(k);
}

/* ------------------------------------------------------ the TLS bound */

/*
 * The bound a .vxbin is given, and what is refused: PT_TLS past
 * VX_TLS_MAX at parse, and past VX_TLS_VXBIN_BOUND by elf2vxbin, which
 * says so rather than write a .vxbin whose harts would fault.
 */
TEST(tls_bounds)
{
	char path[] = "/tmp/vxs_tls_big_XXXXXX", cmd[1024];
	struct vx_elf_layout l;
	Elf32_Ehdr *eh;
	Elf32_Phdr *ph;
	size_t len;
	uint8_t *elf = kread("vxs_tls.elf", &len);
	int fd, i;

	ASSERT_NE(NULL, elf);
	EXPECT_EQ(0, vx_tls_span(0, 4096));
	EXPECT_EQ(VX_TLS_SLACK + 64 * 28, vx_tls_span(28, 64));	/* upstream's spawn library */
	EXPECT_EQ(VX_TLS_SLACK + 64 * 32, vx_tls_span(29, 64));
	EXPECT_LE(VXS_TLS_BLOCK, VX_TLS_VXBIN_BOUND);
	eh = (Elf32_Ehdr *)elf;
	ph = (Elf32_Phdr *)(elf + eh->e_phoff);
	for (i = 0; i < eh->e_phnum && ph[i].p_type != PT_TLS; i++)
		;
	ASSERT_LT(i, eh->e_phnum);
	ph[i].p_memsz = VX_TLS_MAX + 1;
	EXPECT_EQ(-ENOEXEC, vx_elf_parse(elf, len, &l));
	ph[i].p_memsz = VX_TLS_VXBIN_BOUND + 4;
	ASSERT_EQ(0, vx_elf_parse(elf, len, &l));
	EXPECT_EQ(VX_TLS_VXBIN_BOUND + 4, l.tls_size);
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)len, write(fd, elf, len));
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s %s %s.vxbin 2>&1 | grep -q 'past the %u a .vxbin is given'",
		 VX_ELF2VXBIN, path, path, VX_TLS_VXBIN_BOUND);
	EXPECT_EQ(0, system(cmd)) TH_LOG("%s", cmd);
	snprintf(cmd, sizeof(cmd), "%s.vxbin", path);
	EXPECT_NE(0, access(cmd, F_OK));
	unlink(path);
	free(elf);
}

/* The check itself: an uncleared block, a shared one, a misplaced tp. */
TEST(tls_check_finds_wrong_blocks)
{
	/* harts 0 and 1, tasks 0..3: 0 and 2 on hart 0, 1 and 3 on hart 1, block 64 */
	uint32_t out[] = { 0x00001, 0, 0, 0x10001, 0, 64, 0x00002, 0, 0, 0x10002, 1, 64 };
	char why[160];

	EXPECT_EQ(0, vx_tls_check(out, 4, 2, 64, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(-1, vx_tls_check(out, 4, 3, 64, why, sizeof(why)));	/* hart 2 idle */
	out[3 * 2] = 0x10003;		/* task 2 on hart 1's block too */
	EXPECT_EQ(-1, vx_tls_check(out, 4, 2, 64, why, sizeof(why)));
	out[3 * 2] = 0x00002;
	out[3 * 3 + 1] = 2;		/* hart 1's sum not cleared */
	EXPECT_EQ(-1, vx_tls_check(out, 4, 2, 64, why, sizeof(why)));
	out[3 * 3 + 1] = 1;
	out[3 * 1 + 2] = 60;		/* tp off its place */
	EXPECT_EQ(-1, vx_tls_check(out, 4, 2, 64, why, sizeof(why)));
}

TEST_HARNESS_MAIN
