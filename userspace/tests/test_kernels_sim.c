// SPDX-License-Identifier: MIT
/*
 * The sample kernels on the simulator core, with no guest and no driver.
 *
 * Each test loads kernel ELFs from $(O)/riscv with the runtime's own loader
 * (vx_elf.c) into a VRAM buffer, submits LAUNCH + FENCE through a ring in
 * VRAM exactly as the driver does (docs/hardware.md, "What the driver
 * does"), runs the simulator until the fence or an error, and compares
 * every output element with the reference of testlib/vx_samples.c, the
 * one the guest tests and vortex-run use.  Topologies are fixture
 * variants; fault kernels check ERR_*; the hang kernel must still be
 * running, error-free, after millions of slots.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "vortex_regs.h"
#include "vx_sim.h"
#include "vx_elf.h"
#include "vx_samples.h"
#include "vx_sv32.h"
#include "vx_spawn_abi.h"

#ifndef VX_KERNEL_DIR
#define VX_KERNEL_DIR "build/riscv"
#endif

#define VRAM_SIZE	(16u << 20)
#define RING_SIZE	0x1000u
#define STACK_SIZE	1024u
#define RUN_BUDGET	(400ull << 20)	/* slots before a job counts as hung */

struct card {
	struct vx_sim *sim;
	uint8_t *vram;
	struct vx_sim_config cfg;
	uint32_t brk;		/* bump allocator, VRAM offset */
	uint32_t tail;		/* ring tail, bytes */
	uint32_t seqno;
	uint32_t stack;		/* device address of the stack area */
	uint64_t slots;		/* used by the last job */
	unsigned int irq_edges;	/* rising edges of the interrupt line */
	bool irq_level;
	/* last loaded kernel */
	void *elf;
	size_t elf_len;
	uint32_t base, entry;
	uint32_t vortex_satp;	/* the Vortex-shaped space, 0 until built */
};

static uint32_t dev_addr(uint32_t off)
{
	return VX_VRAM_DEVADDR + off;
}

static void *host_ptr(struct card *c, uint32_t addr)
{
	return c->vram + (addr - VX_VRAM_DEVADDR);
}

/* Page-aligned VRAM allocation; returns the device address. */
static uint32_t card_alloc(struct card *c, uint32_t bytes)
{
	uint32_t off = c->brk;

	c->brk = (c->brk + bytes + 4095) & ~4095u;
	if (c->brk > VRAM_SIZE) {
		fprintf(stderr, "test VRAM exhausted\n");
		abort();
	}
	memset(c->vram + off, 0, bytes);
	return dev_addr(off);
}

static void card_set_irq(void *opaque, bool level)
{
	struct card *c = opaque;

	c->irq_edges += level && !c->irq_level;
	c->irq_level = level;
}

static const struct vx_sim_hooks card_hooks = {
	.set_irq = card_set_irq,
};

static int card_init(struct card *c, const struct vx_sim_config *cfg)
{
	uint64_t hw = (uint64_t)cfg->clusters * cfg->cores * cfg->warps * cfg->threads;

	memset(c, 0, sizeof(*c));
	c->cfg = *cfg;
	c->cfg.vram_size = VRAM_SIZE;
	/* the host harness runs this suite once per executor VX_SIM_EXEC names */
	if (vx_sim_exec_parse(getenv("VX_SIM_EXEC"), &c->cfg.exec, NULL, 0))
		return -EINVAL;
	c->vram = calloc(1, VRAM_SIZE);
	if (!c->vram)
		return -ENOMEM;
	c->sim = vx_sim_new(&c->cfg, c->vram, &card_hooks, c);
	if (!c->sim)
		return -EINVAL;
	/* the ring first: it must be aligned to its size */
	card_alloc(c, RING_SIZE);
	c->stack = card_alloc(c, hw * STACK_SIZE);
	vx_sim_mmio_write(c->sim, VX_REG_RING_BASE, dev_addr(0));
	vx_sim_mmio_write(c->sim, VX_REG_RING_SIZE, RING_SIZE);
	vx_sim_mmio_write(c->sim, VX_REG_RING_CTRL, VX_RING_CTRL_ENABLE);
	vx_sim_mmio_write(c->sim, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
	return 0;
}

static void card_fini(struct card *c)
{
	if (c->sim)
		vx_sim_free(c->sim);
	free(c->vram);
	free(c->elf);
}

static int read_file(const char *path, void **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -errno;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	*data = malloc(n);
	if (!*data || fread(*data, 1, n, f) != (size_t)n) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*len = n;
	return 0;
}

/* Load NAME.elf with the runtime's loader at a fresh VRAM address. */
static int card_load(struct card *c, const char *name)
{
	struct vx_elf_layout l;
	char path[512];
	int ret;

	free(c->elf);
	c->elf = NULL;
	snprintf(path, sizeof(path), "%s/%s.elf", VX_KERNEL_DIR, name);
	ret = read_file(path, &c->elf, &c->elf_len);
	if (ret)
		return ret;
	ret = vx_elf_parse(c->elf, c->elf_len, &l);
	if (ret)
		return ret;
	c->base = card_alloc(c, l.size);
	c->entry = c->base + l.entry;
	return vx_elf_build(c->elf, c->elf_len, &l, c->base, host_ptr(c, c->base));
}

static void ring_put(struct card *c, uint32_t dw)
{
	memcpy(c->vram + c->tail, &dw, 4);	/* the ring is at VRAM offset 0 */
	c->tail = (c->tail + 4) % RING_SIZE;
}

/*
 * Submit one LAUNCH (payload @p) + FENCE and run until the fence, an
 * error, or @budget slots.  Returns 0 (fence reached), -EIO (ERROR),
 * -ETIMEDOUT.
 */
static int card_run_launch(struct card *c, const uint32_t p[VX_LAUNCH_NDW],
			   uint64_t budget)
{
	uint32_t seq = ++c->seqno;
	uint64_t used = 0;

	ring_put(c, VX_PKT_HDR(VX_PKT_LAUNCH, VX_LAUNCH_NDW));
	for (int i = 0; i < VX_LAUNCH_NDW; i++)
		ring_put(c, p[i]);
	ring_put(c, VX_PKT_HDR(VX_PKT_FENCE, VX_FENCE_NDW));
	ring_put(c, seq);
	ring_put(c, VX_FENCE_FLAG_IRQ);
	vx_sim_mmio_write(c->sim, VX_REG_RING_TAIL, c->tail);
	vx_sim_mmio_write(c->sim, VX_REG_DOORBELL, 1);

	c->slots = 0;
	while (used < budget) {
		uint64_t n = vx_sim_run(c->sim, 1 << 16);

		used += n;
		c->slots = used;
		if (vx_sim_mmio_read(c->sim, VX_REG_STATUS) & VX_STATUS_ERROR)
			return -EIO;
		if (vx_sim_mmio_read(c->sim, VX_REG_FENCE_SEQNO) == seq)
			return 0;
		if (!n)
			return -EIO;	/* idle without the fence: nothing to run */
	}
	return -ETIMEDOUT;
}

/* A grid launch of the loaded kernel, untranslated, with the card's stacks. */
static int card_launch(struct card *c, uint32_t arg, const uint32_t grid[3],
		       const uint32_t block[3], uint64_t budget)
{
	const uint32_t p[VX_LAUNCH_NDW] = {
		[VX_LAUNCH_ENTRY] = c->entry, [VX_LAUNCH_ARG] = arg,
		[VX_LAUNCH_GRID_X] = grid[0], [VX_LAUNCH_GRID_Y] = grid[1],
		[VX_LAUNCH_GRID_Z] = grid[2], [VX_LAUNCH_BLOCK_X] = block[0],
		[VX_LAUNCH_BLOCK_Y] = block[1], [VX_LAUNCH_BLOCK_Z] = block[2],
		[VX_LAUNCH_STACK_BASE] = c->stack, [VX_LAUNCH_STACK_SIZE] = STACK_SIZE,
	};

	return card_run_launch(c, p, budget);
}

/* What the driver does after an error: reset, reprogram the ring. */
static void card_recover(struct card *c)
{
	vx_sim_mmio_write(c->sim, VX_REG_RESET, VX_RESET_KEY);
	vx_sim_mmio_write(c->sim, VX_REG_RING_BASE, dev_addr(0));
	vx_sim_mmio_write(c->sim, VX_REG_RING_SIZE, RING_SIZE);
	vx_sim_mmio_write(c->sim, VX_REG_RING_CTRL, VX_RING_CTRL_ENABLE);
	vx_sim_mmio_write(c->sim, VX_REG_IRQ_ENABLE, VX_IRQ_ALL);
	c->tail = 0;
	c->seqno = 0;
}

static uint32_t card_args(struct card *c, const void *args, size_t len)
{
	uint32_t a = card_alloc(c, len);

	memcpy(host_ptr(c, a), args, len);
	return a;
}

/*
 * Vortex-style kernels (vx_spawn.h) run in a translated space laid out as
 * Vortex's: VRAM where the card has it (VA = device address, megapages)
 * each hart's stack below VX_STACK_BASE_ADDR, backed by VRAM, and the I/O
 * page at 0.
 */
static uint32_t sv32_rd(void *opaque, uint32_t off)
{
	uint32_t v;

	memcpy(&v, ((struct card *)opaque)->vram + off, 4);
	return v;
}

static void sv32_wr(void *opaque, uint32_t off, uint32_t v)
{
	memcpy(((struct card *)opaque)->vram + off, &v, 4);
}

/* Built once per card: every Vortex-style launch runs in the same space. */
static uint32_t card_vortex_space(struct card *c)
{
	uint32_t harts = c->cfg.clusters * c->cfg.cores * c->cfg.warps * c->cfg.threads;
	uint32_t stack = harts * VXS_STACK_SIZE, root, pool, mem, io;
	struct vx_sv32 pt = { .rd = sv32_rd, .wr = sv32_wr, .opaque = c };

	if (c->vortex_satp)
		return c->vortex_satp;

	stack = (stack + 4095) & ~4095u;
	root = card_alloc(c, 4096) - VX_VRAM_DEVADDR;
	pool = card_alloc(c, 4096 * (2 + stack / (4096 * 1024) + 1)) - VX_VRAM_DEVADDR;
	mem = card_alloc(c, stack);
	io = card_alloc(c, 4096);
	vx_sv32_init(&pt, root, pool);
	for (uint32_t o = 0; o < VRAM_SIZE; o += 1u << VX_MEGAPAGE_SHIFT)
		vx_sv32_map_mega(&pt, VX_VRAM_DEVADDR + o, VX_VRAM_DEVADDR + o, VX_PTE_URWX);
	vx_sv32_map_range(&pt, VXS_STACK_TOP - stack, mem, stack, VX_PTE_URWX);
	/* the I/O page: the kernels store their counters at IO_MPM_ADDR (0x80) */
	vx_sv32_map_range(&pt, 0, io, 4096, VX_PTE_URWX);
	c->vortex_satp = vx_sv32_satp(&pt, 1);
	return c->vortex_satp;
}

/* Vortex's start for the loaded kernel: LAUNCH CORES in that space. */
static int card_launch_cores(struct card *c, uint32_t arg, uint64_t budget)
{
	const uint32_t p[VX_LAUNCH_NDW] = {
		[VX_LAUNCH_ENTRY] = c->entry, [VX_LAUNCH_ARG] = arg,
		[VX_LAUNCH_FLAGS] = VX_LAUNCH_FLAG_CORES,
		[VX_LAUNCH_SATP] = card_vortex_space(c),
	};

	return card_run_launch(c, p, budget);
}

#define GUARD		0x5a5a5a5au	/* past each buffer: must survive */

/*
 * Runs the loaded sample kernel @name on @n elements as @grid blocks of
 * @block threads, inputs from @seed, and checks every output element and
 * the guard word past every buffer.
 */
static void run_sample_as(struct __test_metadata *_metadata, struct card *c,
			  const char *name, uint32_t n, uint32_t grid, uint32_t block,
			  uint32_t seed, bool cores);

static void run_sample(struct __test_metadata *_metadata, struct card *c,
		       const char *name, uint32_t n, uint32_t grid, uint32_t block,
		       uint32_t seed)
{
	run_sample_as(_metadata, c, name, n, grid, block, seed, false);
}

/* As run_sample(), or with Vortex's start (@cores: grid and block unused). */
static void run_sample_as(struct __test_metadata *_metadata, struct card *c,
			  const char *name, uint32_t n, uint32_t grid, uint32_t block,
			  uint32_t seed, bool cores)
{
	const struct vx_sample *s = vx_sample_find(name);
	struct vx_sample_job j = { .n = n, .grid = grid, .block = block };
	uint32_t addr[VX_SAMPLE_MAX_BUFS], *buf[VX_SAMPLE_MAX_BUFS], *want;
	uint32_t g[3] = { grid, 1, 1 }, b[3] = { block, 1, 1 }, args[8];
	struct vx_sample_diff d;
	char w[32], h[32];
	size_t len;

	ASSERT_NE(NULL, s);
	vx_sample_layout(s, &j);
	for (unsigned int i = 0; i < j.nbufs; i++) {
		addr[i] = card_alloc(c, j.words[i] * 4 + 4);
		buf[i] = host_ptr(c, addr[i]);
		buf[i][j.words[i]] = GUARD;
	}
	want = malloc(j.words[j.out] * 4 + 4);
	ASSERT_NE(NULL, want);
	vx_sample_fill(s, &j, buf, seed);
	vx_sample_expect(s, &j, buf, want);
	len = vx_sample_args(s, &j, addr, args, sizeof(args));
	ASSERT_NE(0, len);
	if (cores) {
		ASSERT_EQ(0, card_launch_cores(c, card_args(c, args, len), RUN_BUDGET))
			TH_LOG("%s n %u, Vortex's start: cause %u at pc 0x%x, addr 0x%x", name, n,
			       vx_sim_mmio_read(c->sim, VX_REG_ERR_CAUSE),
			       vx_sim_mmio_read(c->sim, VX_REG_ERR_PC),
			       vx_sim_mmio_read(c->sim, VX_REG_ERR_ADDR));
	} else {
		ASSERT_EQ(0, card_launch(c, card_args(c, args, len), g, b, RUN_BUDGET))
			TH_LOG("%s n %u: %u x %u threads", name, n, grid, block);
	}
	vx_sample_check(s, &j, want, buf[j.out], &d);
	vx_sample_word_str(s, buf[j.out][d.first], h, sizeof(h));
	vx_sample_word_str(s, want[d.first], w, sizeof(w));
	free(want);
	ASSERT_EQ(0, d.bad)
		TH_LOG("%s n %u, %u x %u threads: %u wrong, first [%u] = %s, expected %s",
		       name, n, grid, block, d.bad, d.first, h, w);
	for (unsigned int i = 0; i < j.nbufs; i++) {
		ASSERT_EQ(GUARD, buf[i][j.words[i]]) TH_LOG("%s: past buffer %u", name, i);
	}
}

/* ----------------------------------------------------------------- fixture */
FIXTURE(card) {
	struct card c;
	uint32_t core_threads;	/* warps x threads */
	uint32_t ncores;
};

FIXTURE_VARIANT(card) {
	uint32_t clusters, cores, warps, threads;
};

FIXTURE_VARIANT_ADD(card, c1_k2_w4_t8) { 1, 2, 4, 8 };
FIXTURE_VARIANT_ADD(card, c2_k2_w8_t4) { 2, 2, 8, 4 };
FIXTURE_VARIANT_ADD(card, c1_k1_w2_t32) { 1, 1, 2, 32 };

FIXTURE_SETUP(card)
{
	struct vx_sim_config cfg = {
		.clusters = variant->clusters, .cores = variant->cores,
		.warps = variant->warps, .threads = variant->threads,
	};

	ASSERT_EQ(0, card_init(&self->c, &cfg));
	self->core_threads = variant->warps * variant->threads;
	self->ncores = variant->clusters * variant->cores;
}

FIXTURE_TEARDOWN(card)
{
	card_fini(&self->c);
}

static const uint32_t sizes[] = VX_SAMPLE_SIZES;
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

TEST_F(card, vecadd)
{
	uint32_t bt = self->core_threads;

	ASSERT_EQ(0, card_load(&self->c, "vecadd"));
	for (size_t s = 0; s < NSIZES; s++)
		run_sample(_metadata, &self->c, "vecadd", sizes[s],
			   (sizes[s] + bt - 1) / bt, bt, 7 + s);
}

/* Fewer threads than elements: the kernel's grid-stride loop. */
TEST_F(card, saxpy)
{
	uint32_t bt = self->core_threads / 2 ? self->core_threads / 2 : 1;

	ASSERT_EQ(0, card_load(&self->c, "saxpy"));
	for (size_t s = 0; s < NSIZES; s++)
		run_sample(_metadata, &self->c, "saxpy", sizes[s], self->ncores + 1,
			   bt, 11 + s);
}

/*
 * Blocks of a whole core, one thread less, and a half and a quarter of a
 * core: then several blocks share a core and each must wait at its own
 * barriers only.
 */
TEST_F(card, reduce)
{
	const uint32_t ct = self->core_threads;
	const uint32_t bts[] = { ct, ct - 1, ct / 2, ct / 4 };

	ASSERT_EQ(0, card_load(&self->c, "reduce"));
	for (size_t s = 0; s < NSIZES; s++)
		for (size_t k = 0; k < sizeof(bts) / sizeof(bts[0]); k++)
			if (bts[k])
				run_sample(_metadata, &self->c, "reduce", sizes[s],
					   2 * self->ncores + 1, bts[k], 5 + s);
}

TEST_F(card, diverge)
{
	uint32_t bt = self->core_threads;

	ASSERT_EQ(0, card_load(&self->c, "diverge"));
	for (size_t s = 0; s < NSIZES; s++)
		run_sample(_metadata, &self->c, "diverge", sizes[s],
			   (sizes[s] + bt - 1) / bt, bt, 3 + s);
}

/*
 * Vortex-style kernels: the card starts one thread per core, as upstream
 * Vortex does (sim/simx/emulator.cpp: warp 0, thread mask 1, at
 * STARTUP_ADDR), and the project's spawn library (userspace/device/
 * vx_spawn.c) starts the warps with wspawn, turns the lanes on with tmc,
 * gives each hart a stack below STACK_BASE_ADDR (hw/rtl/VX_config.vh) and
 * spreads the tasks.  It relies on wspawn keeping registers and waiting
 * for the caller, the local barrier over the core's warps and ecall ending
 * the core: the same results as the grid launch, on every topology.
 */
TEST_F(card, vxstyle_vecadd)
{
	ASSERT_EQ(0, card_load(&self->c, "vxs_vecadd"));
	for (size_t s = 0; s < NSIZES; s++)
		run_sample_as(_metadata, &self->c, "vecadd", sizes[s], 0, 0, 7 + s, true);
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* A rank sort whose every comparison diverges: a stable sort's result. */
TEST_F(card, vxstyle_sort)
{
	struct card *c = &self->c;
	const uint32_t ns[] = { 1, 37, 200 };

	ASSERT_EQ(0, card_load(c, "vxs_sort"));
	for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		uint32_t n = ns[k], x = 12345 + n;
		struct vxs_sort_args a = { .n = n };
		int32_t *in, *out, *want;

		a.in = card_alloc(c, 4 * n);
		a.out = card_alloc(c, 4 * n + 4);
		in = host_ptr(c, a.in);
		out = host_ptr(c, a.out);
		want = malloc(4 * n);
		ASSERT_NE(NULL, want);
		for (uint32_t i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			in[i] = (int32_t)(x >> 8) % 50 - 25;	/* with ties */
		}
		out[n] = GUARD;
		memcpy(want, in, 4 * n);
		qsort(want, n, 4, cmp_i32);
		ASSERT_EQ(0, card_launch_cores(c, card_args(c, &a, sizeof(a)), RUN_BUDGET))
			TH_LOG("n %u: cause %u at pc 0x%x", n,
			       vx_sim_mmio_read(c->sim, VX_REG_ERR_CAUSE),
			       vx_sim_mmio_read(c->sim, VX_REG_ERR_PC));
		for (uint32_t i = 0; i < n; i++) {
			ASSERT_EQ(want[i], out[i]) TH_LOG("n %u: [%u]", n, i);
		}
		ASSERT_EQ((int32_t)GUARD, out[n]);
		free(want);
	}
}

/* Several launches on one ring, with a recovery from a fault in between. */
TEST_F(card, fault_then_vecadd)
{
	struct card *c = &self->c;
	uint32_t n = 300, bt = self->core_threads;
	struct fault_args fargs = { 0, 0 };
	uint32_t grid[3] = { (n + bt - 1) / bt, 1, 1 }, block[3] = { bt, 1, 1 };

	ASSERT_EQ(0, card_load(c, "fault_badaddr"));
	ASSERT_EQ(-EIO, card_launch(c, card_args(c, &fargs, sizeof(fargs)), grid, block,
				    RUN_BUDGET));
	card_recover(c);
	ASSERT_EQ(0, card_load(c, "vecadd"));
	for (int rep = 0; rep < 3; rep++)
		run_sample(_metadata, c, "vecadd", n, grid[0], bt, rep + 1);
}

/* Run a fault kernel; check the cause, the faulting PC is in the image. */
static void run_fault(struct __test_metadata *_metadata, struct card *c, const char *name,
		      uint32_t n, uint32_t nblocks, uint32_t bt, uint32_t cause)
{
	struct fault_args fargs = { 0, n };
	uint32_t grid[3] = { nblocks, 1, 1 }, block[3] = { bt, 1, 1 };
	uint32_t pc;

	ASSERT_EQ(0, card_load(c, name));
	fargs.out = card_alloc(c, 4);
	ASSERT_EQ(-EIO, card_launch(c, card_args(c, &fargs, sizeof(fargs)), grid, block,
				    RUN_BUDGET));
	ASSERT_EQ(cause, vx_sim_mmio_read(c->sim, VX_REG_ERR_CAUSE));
	pc = vx_sim_mmio_read(c->sim, VX_REG_ERR_PC);
	ASSERT_GE(pc, c->base);
	ASSERT_LT(pc, c->base + 0x10000);
}

TEST_F(card, fault_badaddr)
{
	run_fault(_metadata, &self->c, "fault_badaddr", 0, 2, self->core_threads,
		  VX_ERR_LOAD_FAULT);
	ASSERT_EQ(FAULT_BADADDR_ADDR, vx_sim_mmio_read(self->c.sim, VX_REG_ERR_ADDR));
	ASSERT_EQ(0, vx_sim_mmio_read(self->c.sim, VX_REG_ERR_THREAD));
}

TEST_F(card, fault_misaligned)
{
	run_fault(_metadata, &self->c, "fault_misaligned", 0, 2, self->core_threads,
		  VX_ERR_MISALIGNED_LOAD);
	ASSERT_EQ(1, vx_sim_mmio_read(self->c.sim, VX_REG_ERR_ADDR) & 3);
}

TEST_F(card, fault_illegal)
{
	run_fault(_metadata, &self->c, "fault_illegal", 0, 2, self->core_threads,
		  VX_ERR_ILLEGAL_INSTR);
	ASSERT_EQ(FAULT_ILLEGAL_WORD, vx_sim_mmio_read(self->c.sim, VX_REG_ERR_ADDR));
	/* the marker store before the bad word happened */
}

/* The call faults on the jalr itself, before ra or the PC change. */
TEST_F(card, fault_jump)
{
	uint32_t pc, addr;

	run_fault(_metadata, &self->c, "fault_jump", 0, 2, self->core_threads,
		  VX_ERR_MISALIGNED_FETCH);
	pc = vx_sim_mmio_read(self->c.sim, VX_REG_ERR_PC);
	addr = vx_sim_mmio_read(self->c.sim, VX_REG_ERR_ADDR);
	ASSERT_EQ(2, addr & 3);
	ASSERT_EQ(0x67, *(uint32_t *)host_ptr(&self->c, pc) & 0x7f);	/* a jalr */
	ASSERT_NE(pc, addr);
}

/*
 * A per-lane branch without split/join stops at the branch: every lane
 * of the warp in ERR_TMASK, the odd ones, which take it, in ERR_INFO,
 * its target in ERR_ADDR; the store after it never happens.
 */
TEST_F(card, fault_branch)
{
	uint32_t pc, insn, full = variant->threads == 32 ? ~0u : (1u << variant->threads) - 1;

	run_fault(_metadata, &self->c, "fault_branch", 0, 2, self->core_threads,
		  VX_ERR_DIVERGENT_BRANCH);
	pc = vx_sim_mmio_read(self->c.sim, VX_REG_ERR_PC);
	insn = *(uint32_t *)host_ptr(&self->c, pc);
	ASSERT_EQ(0x63, insn & 0x7f);					/* a branch */
	EXPECT_EQ(full, vx_sim_mmio_read(self->c.sim, VX_REG_ERR_TMASK(0)));
	EXPECT_EQ(0xaaaaaaaau & full, vx_sim_mmio_read(self->c.sim, VX_REG_ERR_INFO(0)));
	EXPECT_EQ(0, vx_sim_mmio_read(self->c.sim, VX_REG_ERR_THREAD));
	EXPECT_NE(pc + 4, vx_sim_mmio_read(self->c.sim, VX_REG_ERR_ADDR));
}

TEST_F(card, fault_assert)
{
	struct card *c = &self->c;
	uint32_t n = 3, lane, line;
	const char *expr, *file, *func;
	uint32_t sym;

	/* one warp: lanes 0..2 pass, lane 3 is the lowest failing one */
	run_fault(_metadata, c, "fault_assert", n, 1, variant->threads, VX_ERR_ASSERT);
	lane = vx_sim_mmio_read(c->sim, VX_REG_ERR_THREAD);
	ASSERT_EQ(n, lane);
	ASSERT_EQ(~0u << n & (variant->threads == 32 ? ~0u : (1u << variant->threads) - 1),
		  vx_sim_mmio_read(c->sim, VX_REG_ERR_TMASK(0)));
	expr = host_ptr(c, vx_sim_mmio_read(c->sim, VX_REG_ERR_INFO(0)));
	file = host_ptr(c, vx_sim_mmio_read(c->sim, VX_REG_ERR_INFO(1)));
	line = vx_sim_mmio_read(c->sim, VX_REG_ERR_INFO(2));
	func = host_ptr(c, vx_sim_mmio_read(c->sim, VX_REG_ERR_INFO(3)));
	EXPECT_STREQ("i < arg->n", expr);
	EXPECT_NE(NULL, strstr(file, "fault_assert.c"));
	EXPECT_STREQ("vx_kernel_main", func);
	EXPECT_GT(line, 0);
	/* the strings are in the image: ELF address = device address - base */
	ASSERT_EQ(0, vx_elf_symbol(c->elf, c->elf_len, "vx_kernel_main", &sym));
	EXPECT_LT(sym, vx_sim_mmio_read(c->sim, VX_REG_ERR_PC) - c->base);
}

TEST_F(card, hang)
{
	struct card *c = &self->c;
	uint32_t count = card_alloc(c, 4);
	struct hang_args args = { count, 0 };
	uint32_t grid[3] = { self->ncores, 1, 1 }, block[3] = { self->core_threads, 1, 1 };
	volatile uint32_t *hcount = host_ptr(c, count);
	uint32_t before;

	ASSERT_EQ(0, card_load(c, "hang"));
	ASSERT_EQ(-ETIMEDOUT, card_launch(c, card_args(c, &args, sizeof(args)), grid, block,
					  4ull << 20));
	before = *hcount;
	EXPECT_GT(before, 0);
	/* still running, no error, and still making progress */
	EXPECT_GT(vx_sim_run(c->sim, 1 << 20), 0);
	EXPECT_GT(*hcount, before);
	EXPECT_EQ(0, vx_sim_mmio_read(c->sim, VX_REG_STATUS) & VX_STATUS_ERROR);
	EXPECT_NE(0, vx_sim_mmio_read(c->sim, VX_REG_STATUS) & VX_STATUS_CP_BUSY);
	card_recover(c);
	EXPECT_EQ(0, vx_sim_mmio_read(c->sim, VX_REG_STATUS) & VX_STATUS_CP_BUSY);
}

TEST_F(card, empty_many)
{
	struct card *c = &self->c;
	uint32_t grid[3] = { 3, 1, 1 }, block[3] = { self->core_threads, 1, 1 };

	ASSERT_EQ(0, card_load(c, "empty"));
	/* more jobs than the ring holds: the tail wraps */
	for (int i = 0; i < 200; i++) {
		unsigned int edges = c->irq_edges;

		ASSERT_EQ(0, card_launch(c, 0, grid, block, RUN_BUDGET)) TH_LOG("job %d", i);
		/* the driver's view: one FENCE interrupt per job, acked by W1C */
		ASSERT_EQ(edges + 1, c->irq_edges);
		ASSERT_EQ(VX_IRQ_FENCE, vx_sim_mmio_read(c->sim, VX_REG_IRQ_STATUS));
		vx_sim_mmio_write(c->sim, VX_REG_IRQ_STATUS, VX_IRQ_FENCE);
		ASSERT_FALSE(c->irq_level);
	}
}

/* The relocated pointer tables work wherever the image lands. */
TEST_F(card, reloc_two_bases)
{
	uint32_t n = 257, bt = self->core_threads;

	for (int load = 0; load < 2; load++) {
		card_alloc(&self->c, 4096 * (load + 1));	/* move the next image */
		ASSERT_EQ(0, card_load(&self->c, "reloc"));
		run_sample(_metadata, &self->c, "reloc", n, (n + bt - 1) / bt, bt, 1);
	}
}

/* The loader refuses what it cannot load, without touching memory. */
TEST(elf_rejects_malformed)
{
	struct vx_elf_layout l;
	void *elf;
	size_t len;
	uint8_t *bad;

	ASSERT_EQ(0, read_file(VX_KERNEL_DIR "/reloc.elf", &elf, &len));
	ASSERT_EQ(0, vx_elf_parse(elf, len, &l));
	EXPECT_EQ(3, l.nrela);
	EXPECT_EQ(1, l.pie);
	EXPECT_EQ(0, l.entry);
	bad = malloc(len);
	ASSERT_NE(NULL, bad);

	EXPECT_EQ(-ENOEXEC, vx_elf_parse(elf, 10, &l));		/* short header */
	memcpy(bad, elf, len);
	bad[0] = 0;						/* magic */
	EXPECT_EQ(-ENOEXEC, vx_elf_parse(bad, len, &l));
	memcpy(bad, elf, len);
	bad[EI_CLASS] = ELFCLASS64;
	EXPECT_EQ(-ENOEXEC, vx_elf_parse(bad, len, &l));
	memcpy(bad, elf, len);
	((Elf32_Ehdr *)bad)->e_machine = EM_X86_64;
	EXPECT_EQ(-ENOEXEC, vx_elf_parse(bad, len, &l));
	memcpy(bad, elf, len);
	((Elf32_Ehdr *)bad)->e_entry = 2;			/* misaligned entry */
	EXPECT_EQ(-ENOEXEC, vx_elf_parse(bad, len, &l));
	/* segments past the end of a truncated file */
	EXPECT_EQ(-ENOEXEC, vx_elf_parse(elf, 0x200, &l));
	/* a relocation type the loader does not know */
	memcpy(bad, elf, len);
	{
		Elf32_Ehdr *eh = (Elf32_Ehdr *)bad;
		Elf32_Shdr *sh = (Elf32_Shdr *)(bad + eh->e_shoff);
		int found = 0;

		for (int i = 0; i < eh->e_shnum; i++) {
			if (sh[i].sh_type == SHT_RELA) {
				Elf32_Rela *r = (Elf32_Rela *)(bad + sh[i].sh_offset);

				r->r_info = ELF32_R_INFO(0, 1 /* R_RISCV_32 */);
				found = 1;
			}
		}
		ASSERT_TRUE(found);
		ASSERT_EQ(0, vx_elf_parse(bad, len, &l));
		uint8_t *img = malloc(l.size);

		ASSERT_NE(NULL, img);
		EXPECT_EQ(-ENOEXEC, vx_elf_build(bad, len, &l, 0x80010000, img));
		free(img);
	}
	free(bad);
	free(elf);
}

TEST_HARNESS_MAIN
