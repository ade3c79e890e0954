// SPDX-License-Identifier: GPL-2.0
/*
 * Vortex's own launch model through the driver (issue 24): the file's
 * DCRs (DRM_IOCTL_VORTEX_DCR) and SUBMIT with DRM_VORTEX_SUBMIT_CORES.
 *
 * What is expected comes from upstream Vortex (github vortexgpgpu/vortex
 * at fe8168b9, docs/hardware.md "Upstream Vortex: the one reference"):
 * - hw/rtl/VX_types.vh:23-37: the DCR numbers, STARTUP_ADDR0 0x001 .. ARG1
 *   0x004, MPM_CLASS 0x005 (classes NONE 0, CORE 1, MEM 2);
 * - sim/simx/emulator.cpp:99-133: at start, warp 0 of each core runs with
 *   thread mask 1 from STARTUP_ADDR, every register cleared (in its debug
 *   build; the card always clears them); kernel/src/vx_start.S
 *   and vx_spawn.c take the argument from mscratch.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vortex_accel.h"
#include "vortex_test_ioctl.h"
#include "vortex_client.h"
#include "vx_asm.h"
#include "kselftest_harness.h"

#define T0		5
#define T1		6
#define T2		7
#define T3		28
#define SP		2
#define A0		10
#define CODE_SIZE	4096
#define DATA_SIZE	65536

static int dcr(int fd, uint32_t addr, uint32_t flags, uint32_t *value)
{
	struct drm_vortex_dcr d = { .addr = addr, .flags = flags,
				    .value = value ? *value : 0 };
	int ret = vx_ioctl(fd, DRM_IOCTL_VORTEX_DCR, &d);

	if (!ret && value)
		*value = d.value;
	return ret;
}

static uint32_t dcr_read(int fd, uint32_t addr)
{
	uint32_t v = 0xdeadbeef;

	return dcr(fd, addr, 0, &v) ? 0xdeadbeef : v;
}

static int dcr_write(int fd, uint32_t addr, uint32_t v)
{
	return dcr(fd, addr, DRM_VORTEX_DCR_WRITE, &v);
}

FIXTURE(cores) {
	VX_CLIENT_MEMBERS;
	uint64_t clusters, cores, warps, threads;
	/* job_timeout_ms before a test lowered it (vx_hang_begin()), or 0 */
	long old_timeout_ms;
};

FIXTURE_SETUP(cores)
{
	uint64_t caps;

	vx_client_open(&self->client, CODE_SIZE, DATA_SIZE,
		       DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_WRITE);
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps));
	ASSERT_NE(0, caps & DRM_VORTEX_CAP_CORES);
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CLUSTERS, &self->clusters));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CORES, &self->cores));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_WARPS, &self->warps));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_THREADS, &self->threads));
	/* Vortex's launch model: no grid, no block, no entry of SUBMIT's own. */
	memset(&self->sub, 0, sizeof(self->sub));
	self->sub.flags = DRM_VORTEX_SUBMIT_CORES;
	self->sub.bos = (uintptr_t)self->bos;
	self->sub.bo_count = 2;
	self->sub.bo_stride = sizeof(self->bos[0]);
}

FIXTURE_TEARDOWN(cores)
{
	vx_hang_restore(&self->old_timeout_ms);
	vx_client_close(&self->client);
}

/* Every DCR reads 0 in a new file, and each holds what is written. */
TEST_F(cores, dcrs_start_zero_and_round_trip)
{
	uint32_t a;

	for (a = DRM_VORTEX_DCR_STARTUP_ADDR0; a <= DRM_VORTEX_DCR_MPM_CLASS; a++)
		EXPECT_EQ(0, dcr_read(self->fd, a)) TH_LOG("dcr 0x%x", a);
	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR0, 0x80001234));
	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ARG0, 0x80005678));
	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_MPM_CLASS, 2));
	EXPECT_EQ(0x80001234, dcr_read(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR0));
	EXPECT_EQ(0x80005678, dcr_read(self->fd, DRM_VORTEX_DCR_STARTUP_ARG0));
	EXPECT_EQ(2, dcr_read(self->fd, DRM_VORTEX_DCR_MPM_CLASS));
	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR1, 0));
	EXPECT_EQ(0, dcr_read(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR1));
}

/* Each file has its own DCRs: one file's writes change nothing of another's. */
TEST_F(cores, dcrs_are_per_file)
{
	int other = open(VX_NODE, O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, other);
	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR0, 0x80000040));
	EXPECT_EQ(0, dcr_read(other, DRM_VORTEX_DCR_STARTUP_ADDR0));
	vx_cmd(dcr_write(other, DRM_VORTEX_DCR_STARTUP_ARG0, 7));
	EXPECT_EQ(0, dcr_read(self->fd, DRM_VORTEX_DCR_STARTUP_ARG0));
	EXPECT_EQ(0x80000040, dcr_read(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR0));
	close(other);
}

/* Each bad request has its errno and changes nothing. */
TEST_F(cores, dcr_errors_change_nothing)
{
	struct drm_vortex_dcr d;
	uint32_t v;

	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR0, 0x80000100));
	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_MPM_CLASS, 1));
	/* addresses Vortex does not define */
	EXPECT_EQ(-EINVAL, dcr_write(self->fd, 0, 1));
	EXPECT_EQ(-EINVAL, dcr_write(self->fd, DRM_VORTEX_DCR_MPM_CLASS + 1, 1));
	EXPECT_EQ(-EINVAL, dcr_write(self->fd, 0xfff, 1));
	EXPECT_EQ(-EINVAL, dcr(self->fd, 0x1000, 0, &v));
	/* unknown flags, padding */
	v = 5;
	EXPECT_EQ(-EINVAL, dcr(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR0, 2, &v));
	d = (struct drm_vortex_dcr){ .addr = DRM_VORTEX_DCR_STARTUP_ADDR0,
				     .flags = DRM_VORTEX_DCR_WRITE, .value = 4, .pad = 1 };
	EXPECT_EQ(-EINVAL, vx_ioctl(self->fd, DRM_IOCTL_VORTEX_DCR, &d));
	/* values this RV32 card cannot hold */
	EXPECT_EQ(-ERANGE, dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR1, 1));
	EXPECT_EQ(-ERANGE, dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ARG1, 0x80000000));
	EXPECT_EQ(-ERANGE, dcr_write(self->fd, DRM_VORTEX_DCR_MPM_CLASS, 3));
	/* a bad pointer */
	EXPECT_EQ(-EFAULT, vx_ioctl(self->fd, DRM_IOCTL_VORTEX_DCR, (void *)8));

	EXPECT_EQ(0x80000100, dcr_read(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR0));
	EXPECT_EQ(0, dcr_read(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR1));
	EXPECT_EQ(0, dcr_read(self->fd, DRM_VORTEX_DCR_STARTUP_ARG1));
	EXPECT_EQ(1, dcr_read(self->fd, DRM_VORTEX_DCR_MPM_CLASS));
}

/* CORES takes everything from the DCRs: SUBMIT's own launch fields must be 0. */
TEST_F(cores, submit_cores_refuses_grid_fields)
{
	struct drm_vortex_submit s;
	int i;

	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR0, self->code_addr));
	for (i = 0; i < 6; i++) {
		s = self->sub;
		switch (i) {
		case 0: s.entry_pc = self->code_addr; break;
		case 1: s.arg_addr = self->data_addr; break;
		case 2: s.grid[0] = 1; break;
		case 3: s.block[2] = 1; break;
		case 4: s.stack_addr = self->data_addr; break;
		default: s.stack_size = 16; break;
		}
		EXPECT_EQ(-EINVAL, _vx_submit(self->fd, &s)) TH_LOG("field %d", i);
		EXPECT_EQ(0, s.seqno);
	}
	/* a STARTUP_ADDR outside the job's buffers, or not aligned */
	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR0, 0));
	EXPECT_EQ(-EINVAL, _vx_submit(self->fd, &self->sub));
	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR0, self->code_addr + 2));
	EXPECT_EQ(-EINVAL, _vx_submit(self->fd, &self->sub));
	EXPECT_EQ(0, self->sub.seqno);
}

/*
 * The job runs as Vortex starts its processor: on every core, warp 0
 * lane 0 and nothing else, at STARTUP_ADDR, with mscratch = STARTUP_ARG
 * and a0 = sp = 0.  Each writes what it sees at arg + core * 32; the
 * SUBMIT's own entry_pc and arg_addr stay 0 after the call.
 */
TEST_F(cores, submit_cores_starts_warp0_lane0_of_every_core)
{
	uint64_t ncores = self->clusters * self->cores, c;
	const uint32_t prog[] = {
		CSRR(T1, VX_CSR_MSCRATCH), CSRR(T0, VX_CSR_CORE_ID),
		SLLI(T2, T0, 5), ADD(T2, T2, T1),
		CSRR(T3, VX_CSR_MHARTID), SW(T3, T2, 0),
		CSRR(T3, VX_CSR_WARP_ID), SW(T3, T2, 4),
		CSRR(T3, VX_CSR_THREAD_ID), SW(T3, T2, 8),
		CSRR(T3, VX_CSR_ACTIVE_THREADS), SW(T3, T2, 12),
		SW(A0, T2, 16), SW(SP, T2, 20), SW(T1, T2, 24),
		ADDI(T3, 0, 1), SW(T3, T2, 28), TMC(0),
	};
	int32_t status = 1;
	uint32_t i;

	ASSERT_LE(ncores * 32, DATA_SIZE);
	memcpy(self->code_map, prog, sizeof(prog));
	for (i = 0; i < DATA_SIZE / 4; i++)
		self->data_map[i] = 0xdeadbeef;
	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR0, self->code_addr));
	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ARG0, self->data_addr));
	vx_cmd(_vx_submit(self->fd, &self->sub));
	EXPECT_EQ(0, self->sub.entry_pc);
	EXPECT_EQ(0, self->sub.arg_addr);
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
	ASSERT_EQ(0, status);
	for (c = 0; c < ncores; c++) {
		volatile uint32_t *r = self->data_map + c * 8;

		EXPECT_EQ(c * self->warps * self->threads, r[0]) TH_LOG("core %llu hart", (unsigned long long)c);
		EXPECT_EQ(0, r[1]) TH_LOG("core %llu warp", (unsigned long long)c);
		EXPECT_EQ(0, r[2]) TH_LOG("core %llu lane", (unsigned long long)c);
		EXPECT_EQ(1, r[3]) TH_LOG("core %llu thread mask", (unsigned long long)c);
		EXPECT_EQ(0, r[4]) TH_LOG("core %llu a0", (unsigned long long)c);
		EXPECT_EQ(0, r[5]) TH_LOG("core %llu sp", (unsigned long long)c);
		EXPECT_EQ((uint32_t)self->data_addr, r[6]) TH_LOG("core %llu mscratch", (unsigned long long)c);
		EXPECT_EQ(1, r[7]) TH_LOG("core %llu ran", (unsigned long long)c);
	}
	/* nothing past the last core's record was written */
	EXPECT_EQ(0xdeadbeef, self->data_map[ncores * 8]);
}

/*
 * A hang of a Vortex-model job leaves a dump that names its warps: one per
 * core, warp 0 of each, lane 0, at the STARTUP_ADDR the job started at.
 */
TEST_F_TIMEOUT(cores, hang_dump_of_a_vortex_model_job, 120)
{
	uint64_t ncores = self->clusters * self->cores, n = 0;
	const char *p;
	int32_t status = 1;
	char *text, pc[64];

	VX_NEED_GATES();
	memcpy(self->code_map, (uint32_t[]){ JSELF }, 4);
	vx_dump_discard();
	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR0, self->code_addr));
	/* j . from the first instruction: the dump shows it at any limit. */
	ASSERT_TRUE(vx_hang_begin(&self->old_timeout_ms, VX_HANG_MS));
	vx_cmd(_vx_submit(self->fd, &self->sub));
	ASSERT_TRUE(vx_hang_declared(&self->old_timeout_ms)) TH_LOG("no timeout");
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 60 * SEC, &status));
	ASSERT_EQ(-ETIMEDOUT, status);
	text = vx_dump_read(5000);
	ASSERT_NE(NULL, text);
	snprintf(pc, sizeof(pc), "    pc: 0x%08llx\n    thread-mask: 0x00000001\n",
		 (unsigned long long)self->code_addr);
	for (p = strstr(text, "\nwarps:\n"); p && (p = strstr(p, "    warp-in-core: ")); p++) {
		const char *next = strstr(p + 1, "    warp-in-core: "), *at = strstr(p, pc);

		EXPECT_EQ(0, strncmp(p, "    warp-in-core: 0\n", 20));
		/* this warp's own pc and mask, before the next warp's entry */
		EXPECT_TRUE(at && (!next || at < next)) TH_LOG("warp %llu", (unsigned long long)n);
		n++;
	}
	EXPECT_EQ(ncores, n);
	free(text);
	vx_dump_discard();
}

/* ------------------------------------------------------------ console */

static int console_read(int fd, uint32_t *rec, uint32_t *n, uint64_t *dropped)
{
	struct drm_vortex_console c = { .data = (uintptr_t)rec, .count = *n };
	int ret = vx_ioctl(fd, DRM_IOCTL_VORTEX_CONSOLE, &c);

	*n = c.count;
	if (dropped)
		*dropped = c.dropped;
	return ret;
}

/*
 * Every hart stores @reps x (its letter, then a newline) to IO_COUT, as
 * upstream's vx_putchar() does: IO_COUT_ADDR + (mhartid & 63), a byte
 * store (kernel/src/vx_print.S; hw/rtl/VX_config.vh IO_COUT_ADDR).
 */
static void console_kernel(FIXTURE_DATA(cores) *self, uint32_t reps)
{
	const uint32_t prog[] = {
		CSRR(T0, VX_CSR_MHARTID), ANDI(T1, T0, 63), ADDI(T1, T1, 0x40),
		ANDI(T2, T0, 15), ADDI(T2, T2, 'a'), ADDI(T3, 0, '\n'),
		ADDI(8, 0, reps),
		SB(T2, T1, 0), SB(T3, T1, 0), ADDI(8, 8, -1), BNE(8, 0, -12),
		TMC(0),
	};

	memcpy(self->code_map, prog, sizeof(prog));
	vx_submit_init(&self->sub, self->code_addr, self->data_addr, 1, self->bos, 2);
	self->sub.grid[0] = self->clusters * self->cores;
	self->sub.block[0] = self->warps * self->threads;
}

/*
 * What each hardware thread printed reaches its file, in the order it
 * printed it, with the printing thread's mhartid, and nothing twice.
 */
TEST_F(cores, console_from_every_hart_in_order)
{
	uint64_t harts = self->clusters * self->cores * self->warps * self->threads;
	uint32_t *rec, n = 1 << 16, i, *seen;
	uint64_t dropped = 1;
	int32_t status = 1;

	console_kernel(self, 3);
	vx_cmd(_vx_submit(self->fd, &self->sub));
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
	ASSERT_EQ(0, status);
	rec = calloc(n, 4);
	seen = calloc(harts, 4);
	ASSERT_TRUE(rec && seen);
	ASSERT_EQ(0, console_read(self->fd, rec, &n, &dropped));
	EXPECT_EQ(0, dropped);
	EXPECT_EQ(harts * 6, n);
	for (i = 0; i < n; i++) {
		uint32_t h = DRM_VORTEX_CONSOLE_HART(rec[i]);
		uint8_t ch = DRM_VORTEX_CONSOLE_CHAR(rec[i]);

		ASSERT_LT(h, harts);
		EXPECT_EQ(seen[h] % 2 ? '\n' : 'a' + h % 16, ch) TH_LOG("hart %u, byte %u", h, seen[h]);
		seen[h]++;
	}
	for (i = 0; i < harts; i++)
		EXPECT_EQ(6, seen[i]) TH_LOG("hart %u", i);
	/* read: gone */
	n = 16;
	ASSERT_EQ(0, console_read(self->fd, rec, &n, NULL));
	EXPECT_EQ(0, n);
	free(seen);
	free(rec);
}

/* Another file's output is not this one's; errors consume nothing. */
TEST_F(cores, console_is_per_file_and_errors_keep_it)
{
	uint64_t harts = self->clusters * self->cores * self->warps * self->threads;
	struct drm_vortex_console c = { 0 };
	int other = open(VX_NODE, O_RDWR | O_CLOEXEC);
	uint32_t *rec = calloc(1 << 16, 4), n;
	int32_t status = 1;

	ASSERT_LE(0, other);
	ASSERT_NE(NULL, rec);
	console_kernel(self, 1);
	vx_cmd(_vx_submit(self->fd, &self->sub));
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
	ASSERT_EQ(0, status);
	n = 1 << 16;
	ASSERT_EQ(0, console_read(other, rec, &n, NULL));
	EXPECT_EQ(0, n);
	c.count = 1 << 16;
	c.data = (uintptr_t)rec;
	c.flags = 1;
	EXPECT_EQ(-EINVAL, vx_ioctl(self->fd, DRM_IOCTL_VORTEX_CONSOLE, &c));
	c.flags = 0;
	c.pad = 1;
	EXPECT_EQ(-EINVAL, vx_ioctl(self->fd, DRM_IOCTL_VORTEX_CONSOLE, &c));
	c.pad = 0;
	c.data = 8;
	EXPECT_EQ(-EFAULT, vx_ioctl(self->fd, DRM_IOCTL_VORTEX_CONSOLE, &c));
	/* all of it is still there */
	n = 1 << 16;
	ASSERT_EQ(0, console_read(self->fd, rec, &n, NULL));
	EXPECT_EQ(harts * 2, n);
	EXPECT_EQ('a' + DRM_VORTEX_CONSOLE_HART(rec[0]) % 16, DRM_VORTEX_CONSOLE_CHAR(rec[0]));
	free(rec);
	close(other);
}

/*
 * More than the card's ring holds between two drains: the newest bytes
 * are dropped and counted (docs/hardware.md, "Console"), so what was kept
 * plus what was dropped is what was printed.
 */
TEST_F(cores, console_past_its_bound_counts_the_dropped)
{
	uint64_t harts = self->clusters * self->cores * self->warps * self->threads;
	uint32_t reps = (1 << 16) / 4 / harts + 8, *rec, n, total = 0;
	uint64_t dropped = 0, d;
	int32_t status = 1;

	console_kernel(self, reps);
	vx_cmd(_vx_submit(self->fd, &self->sub));
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 60 * SEC, &status));
	ASSERT_EQ(0, status);
	rec = calloc(1 << 16, 4);
	ASSERT_NE(NULL, rec);
	do {
		n = 1 << 16;
		ASSERT_EQ(0, console_read(self->fd, rec, &n, &d));
		total += n;
		dropped += d;
	} while (n);
	EXPECT_EQ(harts * reps * 2, total + dropped);
	EXPECT_LT(0, dropped);
	EXPECT_EQ((1 << 16) / 4 - 1, total);
	free(rec);
}

/* ------------------------------------------- SUBMIT says the job ended */

/* Whether SUBMIT may run a job itself here (the card's fast doorbell). */
static bool fast_lane(int fd)
{
	uint64_t caps = 0;

	return !_vx_get_param(fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps) &&
	       (caps & DRM_VORTEX_CAP_FAST_LANE);
}

/*
 * SUBMITs @self->sub with garbage in its out fields (they are output
 * only), until SUBMIT runs the job itself: a job the scheduler still holds
 * from a test before keeps the fast lane shut until it is freed.  Every
 * job is waited for.  Returns SUBMIT's out_flags.
 */
static uint32_t submit_until_inline(struct __test_metadata *_metadata,
				    FIXTURE_DATA(cores) *self)
{
	int64_t end = vx_now() + VX_LIVE_MS * MS;
	int32_t status;

	do {
		self->sub.out_flags = 0xffffffff;
		self->sub.status = 77;
		vx_cmd(_vx_submit(self->fd, &self->sub));
		if (self->sub.out_flags & DRM_VORTEX_SUBMIT_OUT_ENDED)
			break;
		EXPECT_EQ(0, self->sub.out_flags);
		EXPECT_EQ(0, self->sub.status);
		vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
		EXPECT_EQ(0, status);
		usleep(1000);
	} while (vx_now() < end);
	return self->sub.out_flags;
}

/*
 * SUBMITs @self->sub, which must not end within SUBMIT: SUBMIT reports
 * nothing (out fields cleared of the garbage passed in), and WAIT gives
 * its outcome, 0.
 */
static void submit_not_ended(struct __test_metadata *_metadata, FIXTURE_DATA(cores) *self)
{
	int32_t status = 1;

	self->sub.out_flags = 0xffffffff;
	self->sub.status = 77;
	vx_cmd(_vx_submit(self->fd, &self->sub));
	EXPECT_EQ(0, self->sub.out_flags);
	EXPECT_EQ(0, self->sub.status);
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
	EXPECT_EQ(0, status);
}

/*
 * A job that ends within SUBMIT (the fast lane: docs/driver.md) is
 * reported ended by SUBMIT, with WAIT's status, and whether the file then
 * has console to read: a Vortex runtime's vx_start() + vx_ready_wait()
 * then needs one ioctl, not three.  WAIT on its seqno still answers at
 * once.  Without the fast lane SUBMIT reports nothing, and a client WAITs
 * as before.
 */
TEST_F(cores, submit_says_a_job_ended_within_it)
{
	const uint32_t quiet[] = { TMC(0) };
	/* each core's warp 0 lane 0 prints "x\n" (upstream's vx_putchar()) */
	const uint32_t print[] = {
		CSRR(T0, VX_CSR_MHARTID), ANDI(T1, T0, 63), ADDI(T1, T1, 0x40),
		ADDI(T2, 0, 'x'), SB(T2, T1, 0), ADDI(T2, 0, '\n'), SB(T2, T1, 0),
		TMC(0),
	};
	uint64_t ncores = self->clusters * self->cores;
	uint32_t rec[256], n, i;
	int32_t status = 1;

	ASSERT_LE(ncores * 2, 256);
	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR0, self->code_addr));
	memcpy(self->code_map, quiet, sizeof(quiet));
	if (!fast_lane(self->fd)) {
		submit_not_ended(_metadata, self);
		return;
	}

	ASSERT_EQ(DRM_VORTEX_SUBMIT_OUT_ENDED, submit_until_inline(_metadata, self));
	EXPECT_EQ(0, self->sub.status);
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 0, &status));
	EXPECT_EQ(0, status);

	memcpy(self->code_map, print, sizeof(print));
	EXPECT_EQ(DRM_VORTEX_SUBMIT_OUT_ENDED | DRM_VORTEX_SUBMIT_OUT_CONSOLE,
		  submit_until_inline(_metadata, self));
	EXPECT_EQ(0, self->sub.status);
	n = 256;
	ASSERT_EQ(0, console_read(self->fd, rec, &n, NULL));
	ASSERT_EQ(ncores * 2, n);
	for (i = 0; i < n; i++)
		EXPECT_EQ(i % 2 ? '\n' : 'x', DRM_VORTEX_CONSOLE_CHAR(rec[i])) TH_LOG("record %u", i);

	/* read: a quiet job after it has no console to report */
	memcpy(self->code_map, quiet, sizeof(quiet));
	EXPECT_EQ(DRM_VORTEX_SUBMIT_OUT_ENDED, submit_until_inline(_metadata, self));
}

/*
 * A job that is still running when the doorbell's budget runs out
 * (docs/hardware.md, "Fast doorbell") has not ended when SUBMIT returns:
 * no OUT flag, status 0, and WAIT gives its outcome.  The job waits for
 * the test (a gate word in its argument block, mscratch), so it cannot
 * end early however fast the card runs it.
 */
TEST_F(cores, submit_leaves_a_longer_job_to_wait)
{
	const uint32_t gate[] = {
		CSRR(T0, VX_CSR_MSCRATCH), LW(T1, T0, 0), BEQ(T1, 0, -4), TMC(0),
	};
	int32_t status = 1;

	memcpy(self->code_map, gate, sizeof(gate));
	self->data_map[0] = 0;
	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR0, self->code_addr));
	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ARG0, self->data_addr));
	self->sub.out_flags = 0xffffffff;
	self->sub.status = 77;
	vx_cmd(_vx_submit(self->fd, &self->sub));
	EXPECT_EQ(0, self->sub.out_flags);
	EXPECT_EQ(0, self->sub.status);
	self->data_map[0] = 1;		/* the gate opens */
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
	EXPECT_EQ(0, status);
}

/*
 * A client built before @out_flags existed passes the shorter struct
 * (its ioctl number says so): SUBMIT works, and writes nothing past it.
 */
TEST_F(cores, submit_of_the_older_struct_writes_nothing_past_it)
{
	const uint32_t quiet[] = { TMC(0) };
	const size_t old = offsetof(struct drm_vortex_submit, out_flags);
	unsigned long nr = _IOWR(DRM_IOCTL_BASE, DRM_COMMAND_BASE + DRM_VORTEX_SUBMIT,
				 char[offsetof(struct drm_vortex_submit, out_flags)]);
	unsigned char buf[sizeof(struct drm_vortex_submit) + 16];
	struct drm_vortex_submit s;
	int32_t status = 1;
	size_t i;

	memcpy(self->code_map, quiet, sizeof(quiet));
	vx_cmd(dcr_write(self->fd, DRM_VORTEX_DCR_STARTUP_ADDR0, self->code_addr));
	memset(buf, 0xa5, sizeof(buf));
	memcpy(buf, &self->sub, old);
	ASSERT_EQ(0, vx_ioctl(self->fd, nr, buf));
	for (i = old; i < sizeof(buf); i++)
		ASSERT_EQ(0xa5, buf[i]) TH_LOG("byte %zu written", i);
	memcpy(&s, buf, old);
	ASSERT_NE(0, s.seqno);
	vx_cmd(_vx_wait(self->fd, s.seqno, 30 * SEC, &status));
	EXPECT_EQ(0, status);
}

TEST_HARNESS_MAIN
