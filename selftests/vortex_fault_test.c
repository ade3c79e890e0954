// SPDX-License-Identifier: GPL-2.0
/*
 * A failed job's fault, for its program: DRM_IOCTL_VORTEX_FAULT gives
 * exactly what the card's error registers said (the values the crash
 * dump's fault-info holds) and which devcdN holds the dump; each bad input
 * has its own errno; vortex-run prints the same values as upstream's
 * simulator prints its abort ("Error: ...", fe8168b9
 * sim/simx/processor.cpp:230, sim/simx/execute.cpp:446).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vortex_accel.h"
#include "vortex_test_ioctl.h"
#include "vortex_client.h"
#include "vx_asm.h"
#include "kselftest_harness.h"

enum { X0 = 0, T0 = 5, T1 = 6, T2 = 7, A0 = 10, T3 = 28 };

#define BAD_ADDR	0x00001000u	/* mapped in no file's space */

/*
 * Every lane of a block of two warps stores its block index; the one
 * whose index is arg[2] stores to arg[0] + arg[1] (BAD_ADDR), the others
 * to arg[0].  No branch: Zicond picks the address.
 */
static const uint32_t prog_lane_store[] = {
	LW(T2, A0, 0),				/* the good address */
	LW(T3, A0, 4),				/* bad - good */
	CSRR(T0, VX_CSR_THREAD_IDX(0)),
	LW(T1, A0, 8),				/* the faulting index */
	SUB(T1, T0, T1),
	CZERO_NEZ(T3, T3, T1),			/* bad - good only there */
	ADD(T2, T2, T3),
	SW(T0, T2, 0),				/* +28 */
	TMC(X0),
};
#define STORE_PC	28

FIXTURE(fault) {
	VX_CLIENT_MEMBERS;
	uint64_t threads, clusters, cores, warps;
	struct drm_vortex_fault_info info;
	char *text;
};

FIXTURE_SETUP(fault)
{
	vx_dump_discard();
	vx_client_open(&self->client, 4096, 4096,
		       DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_WRITE);
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_THREADS, &self->threads));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CLUSTERS, &self->clusters));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_CORES, &self->cores));
	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_NUM_WARPS, &self->warps));
	memcpy(self->code_map, prog_lane_store, sizeof(prog_lane_store));
	/* two warps, so the faulting lane is in the block's second warp */
	self->sub.block[0] = self->warps > 1 ? 2 * self->threads : self->threads;
}

FIXTURE_TEARDOWN(fault)
{
	free(self->text);
	vx_client_close(&self->client);
	vx_dump_discard();
}

static int _vx_fault(int fd, uint64_t job, void *info, uint32_t size, uint32_t flags,
		     uint64_t pad)
{
	struct drm_vortex_fault q = { .job = job, .info = (uintptr_t)info, .info_size = size,
				      .flags = flags, .pad = pad };
	int ret = vx_ioctl(fd, DRM_IOCTL_VORTEX_FAULT, &q);

	return ret ?: (int)q.info_size;
}

/* Runs the program with block index @idx faulting; the job's status. */
static int32_t run_faulting(struct __test_metadata *_metadata, FIXTURE_DATA(fault) *self,
			    uint32_t idx)
{
	int32_t status = 1;

	self->data_map[0] = self->data_addr + 64;
	self->data_map[1] = BAD_ADDR - (self->data_addr + 64);
	self->data_map[2] = idx;
	vx_cmd(_vx_submit(self->fd, &self->sub));
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 30 * SEC, &status));
	return status;
}

/* The dump the record names, read from its own devcdN. */
static void read_named_dump(struct __test_metadata *_metadata, FIXTURE_DATA(fault) *self,
			    int devcd)
{
	char path[96];

	ASSERT_LE(0, devcd);
	snprintf(path, sizeof(path), VX_DEVCD "/devcd%d/data", devcd);
	ASSERT_EQ(0, access(path, R_OK)) TH_LOG("%s", path);
	vx_dump_slurp(path, &self->text);
	ASSERT_NE(NULL, self->text);
}

/*
 * Lane L of the block's second warp stores to an unmapped address: the
 * record holds STORE_PAGE_FAULT, the store's PC, the address, that lane
 * alone, and the warp as cluster/core/warp, and names the devcdN whose
 * fault-info says the same.
 */
TEST_F_TIMEOUT(fault, record_is_the_cards_and_the_dumps, 60)
{
	uint32_t lane = self->threads - 1, in_block = (self->warps > 1) * self->threads + lane;
	struct drm_vortex_fault_info *f = &self->info;
	uint64_t w;

	ASSERT_EQ(-EIO, run_faulting(_metadata, self, in_block));
	ASSERT_EQ(sizeof(*f), _vx_fault(self->fd, 0, f, sizeof(*f), 0, 0));
	EXPECT_EQ(self->sub.seqno, f->job);
	EXPECT_EQ(-EIO, f->status);
	EXPECT_EQ(VX_ERR_STORE_PAGE_FAULT, f->cause);
	EXPECT_EQ(self->code_addr + STORE_PC, f->pc);
	EXPECT_EQ(BAD_ADDR, f->addr);
	EXPECT_EQ(lane, f->lane);
	for (w = 0; w < 4; w++)
		EXPECT_EQ(w == lane / 32 ? 1u << lane % 32 : 0, f->lanes[w]) TH_LOG("word %llu",
										     (unsigned long long)w);
	EXPECT_EQ(f->warp, ((uint64_t)f->cluster * self->cores + f->core) * self->warps +
		  f->warp_in_core);
	EXPECT_GT(self->clusters, f->cluster);
	EXPECT_GT(self->cores, f->core);
	EXPECT_GT(self->warps, f->warp_in_core);

	read_named_dump(_metadata, self, f->dump);
	EXPECT_EQ(f->cause, vx_dump_num(self->text, "fault-info", "cause"));
	EXPECT_EQ(f->warp, vx_dump_num(self->text, "fault-info", "warp"));
	EXPECT_EQ(f->lane, vx_dump_num(self->text, "fault-info", "thread"));
	EXPECT_EQ(f->pc, vx_dump_num(self->text, "fault-info", "pc"));
	EXPECT_EQ(f->addr, vx_dump_num(self->text, "fault-info", "address"));

	/* asked by its job number: the same; another number: -ENOENT */
	EXPECT_EQ(sizeof(*f), _vx_fault(self->fd, self->sub.seqno, f, sizeof(*f), 0, 0));
	EXPECT_EQ(-ENOENT, _vx_fault(self->fd, self->sub.seqno + 1, f, sizeof(*f), 0, 0));
}

/* A larger struct (newer userspace) gets the kernel's bytes, the rest zeroed. */
TEST_F_TIMEOUT(fault, larger_info_is_zero_extended, 60)
{
	uint8_t buf[sizeof(struct drm_vortex_fault_info) + 16];
	struct drm_vortex_fault_info f;
	size_t i;

	ASSERT_EQ(-EIO, run_faulting(_metadata, self, 0));
	memset(buf, 0xa5, sizeof(buf));
	ASSERT_EQ(sizeof(f), _vx_fault(self->fd, 0, buf, sizeof(buf), 0, 0));
	ASSERT_EQ(sizeof(f), _vx_fault(self->fd, 0, &f, sizeof(f), 0, 0));
	EXPECT_EQ(0, memcmp(buf, &f, sizeof(f)));
	for (i = sizeof(f); i < sizeof(buf); i++)
		EXPECT_EQ(0, buf[i]) TH_LOG("byte %zu", i);
}

/* A file none of whose jobs failed has no record; a completed job leaves none. */
TEST_F(fault, err_no_failed_job)
{
	vx_err(ENOENT, _vx_fault(self->fd, 0, &self->info, sizeof(self->info), 0, 0));
}

TEST_F(fault, err_info_size_short)
{
	vx_err(EINVAL, _vx_fault(self->fd, 0, &self->info, 72, 0, 0));
}

TEST_F(fault, err_info_size_not_a_multiple_of_8)
{
	vx_err(EINVAL, _vx_fault(self->fd, 0, &self->info, sizeof(self->info) + 4, 0, 0));
}

TEST_F(fault, err_info_size_above_the_max)
{
	vx_err(EINVAL, _vx_fault(self->fd, 0, &self->info, DRM_VORTEX_FAULT_INFO_MAX + 8, 0, 0));
}

TEST_F(fault, err_unknown_flag)
{
	vx_err(EINVAL, _vx_fault(self->fd, 0, &self->info, sizeof(self->info), 1, 0));
}

TEST_F(fault, err_nonzero_pad)
{
	vx_err(EINVAL, _vx_fault(self->fd, 0, &self->info, sizeof(self->info), 0, 1));
}

TEST_F_TIMEOUT(fault, err_unwritable_info, 60)
{
	void *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, ro);
	ASSERT_EQ(-EIO, run_faulting(_metadata, self, 0));
	vx_err(EFAULT, _vx_fault(self->fd, 0, ro, sizeof(self->info), 0, 0));
	munmap(ro, 4096);
}

/* The capability says the ioctl is there. */
TEST_F(fault, capability)
{
	uint64_t caps;

	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps));
	EXPECT_TRUE(caps & DRM_VORTEX_CAP_FAULT);
}

/*
 * vortex-run on fault_badaddr prints the fault as simx prints its abort,
 * with the values of the dump it names (before: "device exception after
 * N ms (the driver logs the cause)" and nothing else).
 */
TEST_F_TIMEOUT(fault, vortex_run_prints_the_dumps_values, 60)
{
	unsigned int pc, addr, warp, cl, co, wc, lane;
	char out[4096], name[64];
	const char *p;
	size_t n;
	int devcd, st;
	FILE *f;

	if (access("/vortex/bin/vortex-run", X_OK))
		SKIP(return, "no /vortex/bin/vortex-run");
	f = popen("/vortex/bin/vortex-run /vortex/kernels/fault_badaddr.elf 2>&1", "r");
	ASSERT_NE(NULL, f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = 0;
	st = pclose(f);
	TH_LOG("%s", out);
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(4, WEXITSTATUS(st));
	p = strstr(out, "Error: device exception ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(3, sscanf(p, "Error: device exception %63s (%*[^)]) at PC=0x%x, address=0x%x",
			    name, &pc, &addr));
	p = strstr(p, "in warp ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(5, sscanf(p, "in warp %u (cluster %u core %u warp %u), lane %u",
			    &warp, &cl, &co, &wc, &lane));
	p = strstr(p, "crash dump: " VX_DEVCD "/devcd");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(1, sscanf(p, "crash dump: " VX_DEVCD "/devcd%d/data", &devcd));

	EXPECT_EQ(0x00001000u, addr);	/* FAULT_BADADDR_ADDR */
	read_named_dump(_metadata, self, devcd);
	EXPECT_EQ(pc, vx_dump_num(self->text, "fault-info", "pc"));
	EXPECT_EQ(addr, vx_dump_num(self->text, "fault-info", "address"));
	EXPECT_EQ(warp, vx_dump_num(self->text, "fault-info", "warp"));
	EXPECT_EQ(lane, vx_dump_num(self->text, "fault-info", "thread"));
	EXPECT_EQ(warp, ((uint64_t)cl * self->cores + co) * self->warps + wc);
	EXPECT_EQ(VX_ERR_LOAD_PAGE_FAULT, vx_dump_num(self->text, "fault-info", "cause"));
	EXPECT_STREQ("LOAD_PAGE_FAULT", name);
}

TEST_HARNESS_MAIN
