// SPDX-License-Identifier: GPL-2.0
/*
 * The card's PCI side from the guest: what vortex-pci.c adds to the
 * simulator core.  The host tests (test_regs, test_cp, test_dm) prove the
 * registers, the ring and the Debug Module on the core alone; this test
 * keeps what only a real guest shows: config space and BAR sizes, the
 * access sizes the MMIO region accepts, VRAM through BAR2, and requests
 * made from a vCPU while the run thread executes the warps.
 *
 * The test takes the card from vortex.ko for the length of each test: it
 * unbinds the driver (with CONFIG_IO_STRICT_DEVMEM a claimed BAR cannot be
 * mapped), maps BAR0 and the start of VRAM (BAR2) through sysfs, and gives
 * the card back afterwards with a RESET, a Debug Module reset and a bind,
 * because the tests that run after this one in the same boot need the
 * driver.  The teardown runs in the harness's parent process, so a test
 * that crashes still gives the card back; a test killed by the harness's
 * timeout is covered by an exit handler in main().
 *
 * Without the driver there are no interrupts: the test never sets
 * IRQ_ENABLE (an INTx nobody handles would be a kernel complaint) and polls
 * IRQ_STATUS, which records causes either way.  Every wait is a bounded
 * poll.  Device programs are hand-assembled with testlib/vx_asm.h and the
 * ring and Debug Module are driven by testlib/vx_card_io.h, the code the
 * host tests use on the simulator.  The expected topology comes from the
 * kernel command line (vxtest.topology=C,K,W,T vxtest.vram=BYTES); the
 * other tests size themselves from PLATFORM.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "vortex_regs.h"
#include "vx_card_io.h"
#include "vortex_test_cmdline.h"

#define PCI_DEVICES	"/sys/bus/pci/devices"
#define VX_DRIVER	"/sys/bus/pci/drivers/vortex"
#define VX_NODE		"/dev/accel/accel0"

#define POLL_MS		10000	/* any wait; the harness timeout is far above */
#define QUIET_MS	50	/* how long a stopped counter must stay still */

/* ABI names the programs use */
enum { X0 = 0, T0 = 5, T1 = 6, T2 = 7, A0 = 10, T3 = 28, T4 = 29 };

/* VRAM layout (offsets into BAR2) */
#define RING_OFF	0x00000u	/* aligned to its size */
#define RING_SIZE	0x1000u
#define CODE_OFF	0x10000u
#define SCRATCH_OFF	0x18000u	/* memory the DM reaches by injection */
#define DATA_OFF	0x20000u	/* launch argument: results, counters */
#define VRAM_MAP_MIN	0x100000u

#define ENTRY		VX_DEV(CODE_OFF)
#define POISON		0xdeadbeefu
#define ID_MAGIC	0x5a000000u

/* ------------------------------------------------------- device programs */

/*
 * Every warp counts in t2 and stores the count to counter[gwarp] (a0 + 4 *
 * gwarp) forever.
 */
#define LOOP_PC		(ENTRY + 4 * 7)
static const uint32_t prog_count[] = {
	CSRR(T0, VX_CSR_CORE_ID),
	CSRR(T1, VX_CSR_NUM_WARPS),
	MUL(T0, T0, T1),
	CSRR(T1, VX_CSR_WARP_ID),
	ADD(T0, T0, T1),
	SLLI(T0, T0, 2),
	ADD(T1, T0, A0),
	ADDI(T2, T2, 1),		/* LOOP_PC */
	SW(T2, T1, 0),
	JAL(0, -8),
};

/* ((u32 *)a0)[mhartid] = ID_MAGIC + mhartid */
static const uint32_t prog_ids[] = {
	CSRR(T0, VX_CSR_MHARTID),
	SLLI(T1, T0, 2),
	ADD(T1, T1, A0),
	LUI(T2, ID_MAGIC >> 12),
	ADD(T2, T2, T0),
	SW(T2, T1, 0),
	TMC(X0),
};

/* t2 = 5; ebreak; t2 += 1; end */
static const uint32_t prog_ebreak[] = {
	ADDI(T2, X0, 5),
	EBREAK,
	ADDI(T2, T2, 1),
	TMC(X0),
};

/* ----------------------------------------------------------- sysfs, PCI */

static int sysfs_write(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		n = -errno;
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : n < 0 ? n : -EIO;
}

static int sysfs_read_ul(const char *dir, const char *name, unsigned long *v)
{
	char path[PATH_MAX], buf[64];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (!ok)
		return -EIO;
	*v = strtoul(buf, NULL, 0);
	return 0;
}

/* Finds the card's PCI address; false when there is no card. */
static bool vx_card_find(char *bdf, size_t len)
{
	DIR *d = opendir(PCI_DEVICES);
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		char dir[PATH_MAX];
		unsigned long vendor, device;

		if (e->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), PCI_DEVICES "/%s", e->d_name);
		if (sysfs_read_ul(dir, "vendor", &vendor) ||
		    sysfs_read_ul(dir, "device", &device))
			continue;
		if (vendor == VX_PCI_VENDOR_ID && device == VX_PCI_DEVICE_ID) {
			snprintf(bdf, len, "%.31s", e->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/* True when vortex.ko drives the card at @bdf. */
static bool vx_card_bound(const char *bdf)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/driver", bdf);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = 0;
	return !strcmp(strrchr(target, '/') ? strrchr(target, '/') + 1 : target,
		       "vortex");
}

static void *vx_map(const char *bdf, int bar, size_t len)
{
	char path[PATH_MAX];
	void *p;
	int fd;

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/resource%d", bdf, bar);
	fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

/*
 * Leaves the card as the driver expects to find it: the Debug Module
 * reset first (it survives a card RESET, and a reset-halt latch left
 * armed would halt the driver's jobs), then the card.
 */
static int vx_card_quiesce(const char *bdf)
{
	volatile uint32_t *regs = vx_map(bdf, VX_BAR_MMIO, VX_MMIO_SIZE);

	if (!regs)
		return -errno;
	regs[VX_DM_REG(VX_DM_DCTRL) / 4] = 0;
	regs[VX_REG_IRQ_ENABLE / 4] = 0;
	regs[VX_REG_RESET / 4] = VX_RESET_KEY;
	regs[VX_REG_IRQ_STATUS / 4] = VX_IRQ_ALL;
	munmap((void *)regs, VX_MMIO_SIZE);
	return 0;
}

/* Binds vortex.ko to @bdf and waits for its device node. */
static int vx_card_bind(const char *bdf)
{
	struct stat st;
	int ret, i;

	ret = sysfs_write(VX_DRIVER "/bind", bdf);
	if (ret)
		return ret;
	for (i = 0; i < 500 && stat(VX_NODE, &st); i++)
		usleep(10 * 1000);
	return stat(VX_NODE, &st) ? -ENODEV : 0;
}

/*
 * The harness kills a timed-out test's whole process group, teardown
 * included: main() gives the card back at exit if nobody else did.
 */
static char vx_rescue_bdf[32];
static bool vx_rescue_needed;

static void vx_rescue(void)
{
	if (!vx_rescue_needed || vx_card_bound(vx_rescue_bdf))
		return;
	vx_card_quiesce(vx_rescue_bdf);
	sysfs_write(VX_DRIVER "/bind", vx_rescue_bdf);
	printf("# vortex_bar_test: gave %s back to vortex after an aborted test (%s)\n",
	       vx_rescue_bdf, vx_card_bound(vx_rescue_bdf) ? "bound" : "NOT bound");
}

/* ---------------------------------------------------------- the fixture */

FIXTURE(bar) {
	char bdf[32];
	bool unbound;		/* we unbound vortex.ko: bind it back */
	bool enabled;		/* we enabled the function: disable it */
	volatile uint32_t *regs;
	volatile uint32_t *vram;
	size_t vram_map;	/* bytes of BAR2 mapped */
	uint64_t vram_size;	/* BAR2 size */
	uint32_t clusters, cores, warps, threads;
	uint32_t ncores, nwarps, nthreads;
	struct vx_card_io io;
	struct vx_ring ring;
};

/* The accessors of struct vx_card_io: BAR0 and BAR2 as mapped. */
static uint32_t rd(void *opaque, uint32_t off)
{
	FIXTURE_DATA(bar) *self = opaque;

	return self->regs[off / 4];
}

static void wr(void *opaque, uint32_t off, uint32_t v)
{
	FIXTURE_DATA(bar) *self = opaque;

	self->regs[off / 4] = v;
}

static void vram_wr(void *opaque, uint32_t off, uint32_t v)
{
	FIXTURE_DATA(bar) *self = opaque;

	self->vram[off / 4] = v;
}

static uint32_t vram_rd(FIXTURE_DATA(bar) *self, uint32_t off)
{
	return self->vram[off / 4];
}

static void vram_fill(FIXTURE_DATA(bar) *self, uint32_t off, uint32_t words,
		      uint32_t v)
{
	for (uint32_t i = 0; i < words; i++)
		vram_wr(self, off + 4 * i, v);
}

#define PUT_CODE(self, prog)	\
	vx_put_code(&(self)->io, CODE_OFF, prog, sizeof(prog) / sizeof(prog[0]))

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ll + ts.tv_nsec / 1000000;
}

/* Evaluates @cond until it holds or @ms went by; its last value. */
#define POLL(cond, ms) ({						\
	int64_t _end = now_ms() + (ms);					\
	bool _ok;							\
	while (!(_ok = (cond)) && now_ms() < _end)			\
		usleep(1000);						\
	_ok;								\
})

static void vx_topology(FIXTURE_DATA(bar) *self)
{
	uint32_t p = vx_dm_rd(&self->io, VX_DM_PLATFORM);

	self->threads = 1u << VX_PLATFORM_NUMTHREADS_LOG2(p);
	self->warps = VX_PLATFORM_NUMWARPS(p);
	self->cores = VX_PLATFORM_NUMCORES(p);
	self->clusters = VX_PLATFORM_NUMCLUSTERS(p);
	self->ncores = self->clusters * self->cores;
	self->nwarps = self->ncores * self->warps;
	self->nthreads = self->nwarps * self->threads;
}

/* ------------------------------------------------------ jobs and warps */

/* LAUNCH of @grid blocks of @block threads at ENTRY, a0 = DATA_OFF; FENCE. */
static void launch(FIXTURE_DATA(bar) *self, uint32_t grid, uint32_t block,
		   uint32_t seqno)
{
	vx_ring_launch_1d(&self->io, &self->ring, ENTRY, VX_DEV(DATA_OFF), grid,
			  block);
	vx_ring_fence(&self->io, &self->ring, seqno, VX_FENCE_FLAG_IRQ);
	vx_ring_kick(&self->io, &self->ring);
}

/* Every warp of the card runs prog_count; counters start at 0. */
static void start_counting(FIXTURE_DATA(bar) *self)
{
	vram_fill(self, DATA_OFF, self->nwarps, 0);
	PUT_CODE(self, prog_count);
	launch(self, self->ncores, self->warps * self->threads, 1);
}

static uint32_t counter(FIXTURE_DATA(bar) *self, uint32_t gwarp)
{
	return vram_rd(self, DATA_OFF + 4 * gwarp);
}

/* The warp's counter changes within POLL_MS. */
static bool counter_moves(FIXTURE_DATA(bar) *self, uint32_t gwarp)
{
	uint32_t c = counter(self, gwarp);

	return POLL(counter(self, gwarp) != c, POLL_MS);
}

/* The warp's counter holds still for QUIET_MS. */
static bool counter_still(FIXTURE_DATA(bar) *self, uint32_t gwarp)
{
	uint32_t c = counter(self, gwarp);

	usleep(QUIET_MS * 1000);
	return counter(self, gwarp) == c;
}

static bool halted(FIXTURE_DATA(bar) *self, uint32_t warp)
{
	return vx_dm_halted(&self->io, warp);
}

/* haltreq on @warp alone (or VX_DM_ALL_WARPS); true once it is halted. */
static bool dm_halt(FIXTURE_DATA(bar) *self, uint32_t warp)
{
	vx_dm_wmask(&self->io, self->nwarps, warp);
	vx_dm_ctrl(&self->io, VX_DCTRL_HALTREQ);
	return POLL(halted(self, warp == VX_DM_ALL_WARPS ? 0 : warp), POLL_MS);
}

/* Starts prog_count everywhere and waits until warps 0 and last count. */
#define START_COUNTING(self) do {					\
	start_counting(self);						\
	ASSERT_TRUE(POLL(counter(self, 0) && counter(self, (self)->nwarps - 1), \
			 POLL_MS))					\
		TH_LOG("counting kernel did not start: counters %u, %u, STATUS 0x%x", \
		       counter(self, 0), counter(self, (self)->nwarps - 1), \
		       rd(self, VX_REG_STATUS));			\
} while (0)

#define DM_HALT(self, warp)						\
	ASSERT_TRUE(dm_halt(self, warp))				\
		TH_LOG("warp %d did not halt: WSTATUS 0x%x DCTRL 0x%x",	\
		       (int)(warp), vx_dm_rd(&(self)->io, VX_DM_WSTATUS),	\
		       vx_dm_rd(&(self)->io, VX_DM_DCTRL))

/* ------------------------------------------------ setup and teardown */

/* Unbinds the driver, maps the BARs; 0 or -errno with *what set. */
static int vx_card_take(FIXTURE_DATA(bar) *self, const char **what)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	unsigned long enabled;
	struct stat st;
	int ret;

	self->io = (struct vx_card_io){
		.rd = rd, .wr = wr, .vram_wr = vram_wr, .opaque = self,
	};
	snprintf(dir, sizeof(dir), PCI_DEVICES "/%s", self->bdf);
	if (vx_card_bound(self->bdf)) {
		*what = "unbind vortex";
		ret = sysfs_write(VX_DRIVER "/unbind", self->bdf);
		if (ret)
			return ret;
		self->unbound = true;
	}
	*what = "enable";
	ret = sysfs_read_ul(dir, "enable", &enabled);
	if (!ret && !enabled) {
		snprintf(path, sizeof(path), "%s/enable", dir);
		ret = sysfs_write(path, "1");
		self->enabled = !ret;
	}
	if (ret)
		return ret;

	*what = "stat resource2";
	snprintf(path, sizeof(path), "%s/resource2", dir);
	if (stat(path, &st))
		return -errno;
	self->vram_size = st.st_size;

	*what = "map BAR0";
	self->regs = vx_map(self->bdf, VX_BAR_MMIO, VX_MMIO_SIZE);
	if (!self->regs)
		return -errno;
	vx_topology(self);
	self->vram_map = DATA_OFF + 4ull * self->nthreads;
	self->vram_map = (self->vram_map + VRAM_MAP_MIN - 1) & ~(VRAM_MAP_MIN - 1);
	if (self->vram_map > self->vram_size)
		self->vram_map = self->vram_size;
	*what = "map BAR2";
	self->vram = vx_map(self->bdf, VX_BAR_VRAM, self->vram_map);
	return self->vram ? 0 : -errno;
}

/* Undoes vx_card_take() in reverse; the card is left reset. */
static int vx_card_give_back(FIXTURE_DATA(bar) *self)
{
	char path[PATH_MAX];
	int ret = 0;

	if (self->vram)
		munmap((void *)self->vram, self->vram_map);
	if (self->regs)
		munmap((void *)self->regs, VX_MMIO_SIZE);
	self->vram = self->regs = NULL;
	vx_card_quiesce(self->bdf);
	if (self->enabled) {
		snprintf(path, sizeof(path), PCI_DEVICES "/%s/enable", self->bdf);
		sysfs_write(path, "0");
		self->enabled = false;
	}
	if (self->unbound) {
		ret = vx_card_bind(self->bdf);
		self->unbound = false;
	}
	return ret;
}

FIXTURE_SETUP(bar)
{
	const char *what = "";
	uint32_t busy;
	int ret;

	if (!vx_card_find(self->bdf, sizeof(self->bdf)))
		SKIP(return, "no Vortex card (%04x:%04x) in " PCI_DEVICES,
		     VX_PCI_VENDOR_ID, VX_PCI_DEVICE_ID);
	ret = vx_card_take(self, &what);
	if (ret) {
		/* no teardown after a failed setup: undo here */
		vx_card_give_back(self);
		ASSERT_EQ(0, ret) TH_LOG("%s %s: %s", what, self->bdf, strerror(-ret));
	}
	vx_dm_wr(&self->io, VX_DM_DCTRL, 0);
	wr(self, VX_REG_RESET, VX_RESET_KEY);
	wr(self, VX_REG_IRQ_STATUS, VX_IRQ_ALL);
	busy = rd(self, VX_REG_STATUS) | rd(self, VX_REG_IRQ_ENABLE) |
	       rd(self, VX_REG_IRQ_STATUS);
	if (busy)
		vx_card_give_back(self);
	ASSERT_EQ(0, busy) TH_LOG("card not idle after RESET: STATUS, IRQ_* 0x%x", busy);
	vx_ring_setup(&self->io, &self->ring, RING_OFF, RING_SIZE);
}

/*
 * In the harness's parent: runs even when the test process died, and its
 * mappings are gone with it (quiesce maps BAR0 afresh).
 */
FIXTURE_TEARDOWN_PARENT(bar)
{
	bool rebind = self->unbound;
	struct stat st;
	int ret;

	self->regs = NULL;
	self->vram = NULL;
	if (!self->bdf[0])
		return;
	/*
	 * Not EXPECT_*(): after a failed ASSERT in the test process the
	 * shared trigger is still set, and their handler would log here.
	 */
	ret = vx_card_give_back(self);
	if (ret || (rebind && stat(VX_NODE, &st))) {
		TH_LOG("could not give %s back to vortex: %s", self->bdf,
		       ret ? strerror(-ret) : VX_NODE " is missing");
		_metadata->exit_code = KSFT_FAIL;
	}
}

/* ------------------------------------------------------ identification */

/* Config space, BAR sizes and the ID registers agree with each other. */
TEST_F_TIMEOUT(bar, identification_registers, 60)
{
	char dir[PATH_MAX];
	unsigned long class, rev;

	EXPECT_EQ(VX_ID_MAGIC, rd(self, VX_REG_ID));
	EXPECT_EQ(VX_VERSION_CURRENT, rd(self, VX_REG_VERSION));
	/* FAST_DOORBELL follows the fast-doorbell property */
	EXPECT_EQ(VX_CAPS_DM | VX_CAPS_RING | VX_CAPS_FPU | VX_CAPS_MMU |
		  VX_CAPS_CONSOLE | VX_CAPS_LMEM | VX_CAPS_FENCE_WB,
		  rd(self, VX_REG_CAPS) & ~VX_CAPS_FAST_DOORBELL);
	EXPECT_EQ(VX_VRAM_DEVADDR, rd(self, VX_REG_VRAM_DEVADDR));
	EXPECT_EQ(self->vram_size, rd(self, VX_REG_VRAM_SIZE_LO) |
		  (uint64_t)rd(self, VX_REG_VRAM_SIZE_HI) << 32);

	snprintf(dir, sizeof(dir), PCI_DEVICES "/%s", self->bdf);
	ASSERT_EQ(0, sysfs_read_ul(dir, "class", &class));
	EXPECT_EQ(VX_PCI_CLASS, class >> 8);
	ASSERT_EQ(0, sysfs_read_ul(dir, "revision", &rev));
	EXPECT_EQ(VX_PCI_REVISION, rev);
}

/* The QEMU properties (-device vortex,...) reach the card's registers. */
TEST_F_TIMEOUT(bar, properties_match_cmdline, 60)
{
	struct vx_expect e;
	uint32_t p = vx_dm_rd(&self->io, VX_DM_PLATFORM);

	if (!vx_cmdline_expect(&e))
		SKIP(return, "no vxtest.topology/vxtest.vram on the kernel command line");
	EXPECT_EQ(e.vram, rd(self, VX_REG_VRAM_SIZE_LO) |
		  (uint64_t)rd(self, VX_REG_VRAM_SIZE_HI) << 32);
	EXPECT_EQ(e.vram, self->vram_size);
	EXPECT_EQ(e.threads, 1u << VX_PLATFORM_NUMTHREADS_LOG2(p));
	EXPECT_EQ(e.warps, VX_PLATFORM_NUMWARPS(p));
	EXPECT_EQ(e.cores, VX_PLATFORM_NUMCORES(p));
	EXPECT_EQ(e.clusters, VX_PLATFORM_NUMCLUSTERS(p));
	EXPECT_EQ(VX_PLATFORM_ID_VORTEX, VX_PLATFORM_ID(p));
}

/* ------------------------------------------------------ the MMIO region */

/*
 * docs/hardware.md: only aligned 32-bit accesses; others read 0 and write
 * nothing.  That is the MemoryRegionOps of vortex-pci.c, which the host
 * tests never go through; so is the BAR0 space past the simulator's
 * registers.
 */
TEST_F_TIMEOUT(bar, narrow_wide_and_unknown_accesses, 60)
{
	const uint32_t unknown[] = { 0x800, 0x1ffc, 0x8000, VX_MMIO_SIZE - 4 };
	volatile uint8_t *b = (volatile uint8_t *)self->regs;
	volatile uint16_t *h = (volatile uint16_t *)self->regs;
	volatile uint64_t *q = (volatile uint64_t *)self->regs;

	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		EXPECT_EQ(0, rd(self, unknown[i]))
			TH_LOG("offset 0x%x", unknown[i]);
	}
	EXPECT_EQ(0, b[VX_REG_ID]);
	EXPECT_EQ(0, b[VX_REG_ID + 1]);
	EXPECT_EQ(0, h[VX_REG_ID / 2]);
	EXPECT_EQ(0, q[VX_REG_ID / 8]);
	EXPECT_EQ(VX_ID_MAGIC, rd(self, VX_REG_ID));

	/* narrow writes do nothing: RING_TAIL keeps its value */
	b[VX_REG_RING_TAIL] = 0x40;
	h[VX_REG_RING_TAIL / 2] = 0x40;
	EXPECT_EQ(0, rd(self, VX_REG_RING_TAIL));
}

/* ----------------------------------------------------- the run thread */

static uint64_t clock64(FIXTURE_DATA(bar) *self)
{
	uint32_t lo = rd(self, VX_REG_CLOCK_LO);	/* latches HI */

	return (uint64_t)rd(self, VX_REG_CLOCK_HI) << 32 | lo;
}

/* The run thread advances CLOCK while it runs warps, and only then. */
TEST_F_TIMEOUT(bar, clock_runs_only_while_warps_run, 60)
{
	uint64_t idle = clock64(self), busy;

	usleep(QUIET_MS * 1000);
	EXPECT_EQ(idle, clock64(self));
	START_COUNTING(self);
	busy = clock64(self);
	EXPECT_LT(idle, busy);
	wr(self, VX_REG_RESET, VX_RESET_KEY);
	busy = clock64(self);
	EXPECT_LE(idle, busy);			/* RESET does not clear it */
	usleep(QUIET_MS * 1000);
	EXPECT_EQ(busy, clock64(self));
}

/* Ring in BAR2, doorbell in BAR0, every hardware thread on the run thread. */
TEST_F_TIMEOUT(bar, launch_stores_every_thread_then_fence, 120)
{
	uint32_t bad = 0;

	if (DATA_OFF + 4ull * (self->nthreads + 1) > self->vram_map)
		SKIP(return, "%u threads do not fit in %zu mapped bytes",
		     self->nthreads, self->vram_map);
	vram_fill(self, DATA_OFF, self->nthreads + 1, POISON);
	PUT_CODE(self, prog_ids);
	/* one full-core block per core: every hardware thread once */
	launch(self, self->ncores, self->warps * self->threads, 0x1234);

	ASSERT_TRUE(POLL(rd(self, VX_REG_FENCE_SEQNO) == 0x1234, POLL_MS))
		TH_LOG("no FENCE: SEQNO 0x%x STATUS 0x%x HEAD 0x%x ERR_CAUSE %u",
		       rd(self, VX_REG_FENCE_SEQNO), rd(self, VX_REG_STATUS),
		       rd(self, VX_REG_RING_HEAD), rd(self, VX_REG_ERR_CAUSE));
	/* A FENCE run inside a fast DOORBELL write raises no interrupt. */
	if (rd(self, VX_REG_CAPS) & VX_CAPS_FAST_DOORBELL) {
		EXPECT_EQ(0, rd(self, VX_REG_IRQ_STATUS) & ~VX_IRQ_FENCE);
	} else {
		EXPECT_EQ(VX_IRQ_FENCE, rd(self, VX_REG_IRQ_STATUS));
	}
	EXPECT_TRUE(POLL(rd(self, VX_REG_STATUS) == 0, POLL_MS))
		TH_LOG("STATUS 0x%x", rd(self, VX_REG_STATUS));
	EXPECT_EQ(self->ring.tail, rd(self, VX_REG_RING_HEAD));
	EXPECT_EQ(0, rd(self, VX_REG_ERR_CAUSE));

	for (uint32_t i = 0; i < self->nthreads; i++) {
		if (vram_rd(self, DATA_OFF + 4 * i) != ID_MAGIC + i && bad++ < 8)
			TH_LOG("thread %u stored 0x%08x", i,
			       vram_rd(self, DATA_OFF + 4 * i));
	}
	EXPECT_EQ(0, bad);
	EXPECT_EQ(POISON, vram_rd(self, DATA_OFF + 4 * self->nthreads));
}

/* --------------------------------------------- Debug Module, run thread */

/*
 * test_dm proves the Debug Module's semantics on the simulator alone; what
 * only the guest shows is the same requests through BAR0 while the run
 * thread executes the warps: a halt must stop a warp the other thread is
 * running, and a resume must wake that thread again.
 */
TEST_F_TIMEOUT(bar, dm_halt_one_warp_while_the_others_run, 120)
{
	vx_dm_ctrl(&self->io, 0);
	START_COUNTING(self);
	DM_HALT(self, 0);

	for (uint32_t g = 0; g < self->nwarps; g++) {
		EXPECT_EQ(g == 0, halted(self, g)) TH_LOG("warp %u", g);
	}
	vx_dm_select(&self->io, 0, 0);
	EXPECT_EQ(VX_HACAUSE_HALTREQ, vx_dm_hacause(&self->io));
	EXPECT_EQ(VX_IRQ_DEBUG, rd(self, VX_REG_IRQ_STATUS));
	EXPECT_TRUE(rd(self, VX_REG_STATUS) & VX_STATUS_HALTED);
	EXPECT_TRUE(counter_still(self, 0)) TH_LOG("a halted warp counts");
	if (self->nwarps > 1) {
		EXPECT_TRUE(counter_moves(self, self->nwarps - 1));
	}
}

TEST_F_TIMEOUT(bar, dm_halt_all_then_resume_wakes_the_run_thread, 120)
{
	vx_dm_ctrl(&self->io, 0);
	START_COUNTING(self);
	DM_HALT(self, VX_DM_ALL_WARPS);
	for (uint32_t g = 0; g < self->nwarps; g++) {
		EXPECT_TRUE(halted(self, g)) TH_LOG("warp %u", g);
	}
	EXPECT_TRUE(counter_still(self, 0));
	EXPECT_TRUE(counter_still(self, self->nwarps - 1));
	/* the launch is not over, the CP still waits for it */
	EXPECT_EQ(0, rd(self, VX_REG_FENCE_SEQNO));
	EXPECT_TRUE(rd(self, VX_REG_STATUS) & VX_STATUS_CP_BUSY);

	vx_dm_ctrl(&self->io, VX_DCTRL_RESUMEREQ);
	EXPECT_FALSE(halted(self, 0));
	EXPECT_EQ(0, rd(self, VX_REG_STATUS) & VX_STATUS_HALTED);
	EXPECT_TRUE(counter_moves(self, 0));
	EXPECT_TRUE(counter_moves(self, self->nwarps - 1));
}

/*
 * Steps warp 0 to LOOP_PC, then over addi, sw, j: one instruction each,
 * while the other warps keep running; then a store and a load injected
 * into the halted warp reach VRAM as BAR2 sees it.
 */
TEST_F_TIMEOUT(bar, dm_step_and_inject_on_a_halted_warp, 120)
{
	uint32_t t2, i;

	vx_dm_ctrl(&self->io, 0);
	START_COUNTING(self);
	DM_HALT(self, 0);
	vx_dm_select(&self->io, 0, 0);
	for (i = 0; i < 3 && vx_dm_rd(&self->io, VX_DM_DPC) != LOOP_PC; i++)
		vx_dm_ctrl(&self->io, VX_DCTRL_STEPREQ);
	ASSERT_EQ(LOOP_PC, vx_dm_rd(&self->io, VX_DM_DPC));
	t2 = vx_dm_read_gpr(&self->io, T2);
	ASSERT_EQ(t2, counter(self, 0));		/* sw done, addi next */
	wr(self, VX_REG_IRQ_STATUS, VX_IRQ_ALL);

	vx_dm_ctrl(&self->io, VX_DCTRL_STEPREQ);		/* addi t2, t2, 1 */
	EXPECT_EQ(LOOP_PC + 4, vx_dm_rd(&self->io, VX_DM_DPC));
	EXPECT_EQ(VX_HACAUSE_STEP, vx_dm_hacause(&self->io));
	EXPECT_EQ(VX_IRQ_DEBUG, rd(self, VX_REG_IRQ_STATUS));
	EXPECT_EQ(t2 + 1, vx_dm_read_gpr(&self->io, T2));
	EXPECT_EQ(t2, counter(self, 0));

	vx_dm_ctrl(&self->io, VX_DCTRL_STEPREQ);		/* sw t2, 0(t1) */
	EXPECT_EQ(LOOP_PC + 8, vx_dm_rd(&self->io, VX_DM_DPC));
	EXPECT_EQ(t2 + 1, counter(self, 0));

	vx_dm_ctrl(&self->io, VX_DCTRL_STEPREQ);		/* j LOOP_PC */
	EXPECT_EQ(LOOP_PC, vx_dm_rd(&self->io, VX_DM_DPC));
	EXPECT_TRUE(counter_still(self, 0));
	EXPECT_EQ(t2 + 1, counter(self, 0));

	vram_wr(self, SCRATCH_OFF + 8, 0);
	vram_wr(self, SCRATCH_OFF + 12, 0x55aa55aa);
	ASSERT_TRUE(vx_dm_write_gpr(&self->io, T3, VX_DEV(SCRATCH_OFF)));
	ASSERT_TRUE(vx_dm_write_gpr(&self->io, T4, 0xcafef00d));
	EXPECT_FALSE(vx_dm_inject(&self->io, SW(T4, T3, 8)));
	EXPECT_EQ(0xcafef00d, vram_rd(self, SCRATCH_OFF + 8));
	EXPECT_FALSE(vx_dm_inject(&self->io, LW(T4, T3, 12)));
	EXPECT_EQ(0x55aa55aa, vx_dm_read_gpr(&self->io, T4));
	EXPECT_TRUE(halted(self, 0));
	if (self->nwarps > 1) {
		EXPECT_TRUE(counter_moves(self, self->nwarps - 1));
	}
}

/* A halt raised on the run thread (ebreak) and cleared through BAR0. */
TEST_F_TIMEOUT(bar, dm_ebreak_halts_then_resume_finishes_the_launch, 120)
{
	uint32_t w = 0;

	vx_dm_ctrl(&self->io, 0);
	vx_dm_wr(&self->io, VX_DM_DCONFIG, VX_DCONFIG_EBREAKH);
	PUT_CODE(self, prog_ebreak);
	launch(self, 1, self->threads, 2);
	ASSERT_TRUE(POLL(rd(self, VX_REG_STATUS) & VX_STATUS_HALTED, POLL_MS))
		TH_LOG("no halt: STATUS 0x%x ERR_CAUSE %u", rd(self, VX_REG_STATUS),
		       rd(self, VX_REG_ERR_CAUSE));

	/* one warp has a context; find it through the windows */
	while (w < self->nwarps && !halted(self, w))
		w++;
	ASSERT_LT(w, self->nwarps);
	vx_dm_select(&self->io, w, 0);
	EXPECT_EQ(VX_HACAUSE_EBREAK, vx_dm_hacause(&self->io));
	EXPECT_EQ(ENTRY + 4, vx_dm_rd(&self->io, VX_DM_DPC));
	EXPECT_EQ(5, vx_dm_read_gpr(&self->io, T2));
	EXPECT_EQ(VX_IRQ_DEBUG, rd(self, VX_REG_IRQ_STATUS));
	EXPECT_EQ(0, rd(self, VX_REG_FENCE_SEQNO));

	/* a debugger moves past the ebreak and lets it finish */
	vx_dm_wr(&self->io, VX_DM_DPC, ENTRY + 8);
	vx_dm_wmask(&self->io, self->nwarps, w);
	vx_dm_ctrl(&self->io, VX_DCTRL_RESUMEREQ);
	EXPECT_TRUE(POLL(rd(self, VX_REG_FENCE_SEQNO) == 2, POLL_MS))
		TH_LOG("FENCE_SEQNO %u STATUS 0x%x", rd(self, VX_REG_FENCE_SEQNO),
		       rd(self, VX_REG_STATUS));
	EXPECT_EQ(0, rd(self, VX_REG_ERR_CAUSE));
}

/*
 * DCTRL := 0 resumes what the DM halted: how this test, and the driver
 * after a debugger, hand the card back.
 */
TEST_F_TIMEOUT(bar, dm_deactivate_resumes_halted_warps, 120)
{
	vx_dm_ctrl(&self->io, 0);
	START_COUNTING(self);
	DM_HALT(self, VX_DM_ALL_WARPS);
	ASSERT_TRUE(counter_still(self, 0));

	vx_dm_wr(&self->io, VX_DM_DCTRL, 0);
	EXPECT_EQ(0, vx_dm_rd(&self->io, VX_DM_DCTRL));
	EXPECT_EQ(0, rd(self, VX_REG_STATUS) & VX_STATUS_HALTED);
	EXPECT_TRUE(counter_moves(self, 0)) TH_LOG("the halted warp was not resumed");
	EXPECT_TRUE(counter_moves(self, self->nwarps - 1));
}

int main(int argc, char **argv)
{
	vx_rescue_needed = vx_card_find(vx_rescue_bdf, sizeof(vx_rescue_bdf)) &&
			   vx_card_bound(vx_rescue_bdf);
	atexit(vx_rescue);
	return test_harness_run(argc, argv);
}
