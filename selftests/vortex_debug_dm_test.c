// SPDX-License-Identifier: GPL-2.0
/*
 * The raw Debug Module through the session: a raw client's selection
 * kept across the driver's own sequences, ndmreset cancelling the job,
 * and the DM batch's errors and capability.
 */
#include "vortex_debug_fixture.h"

/* One raw DM access in a batch of its own, as a line client sends it. */
static uint32_t dm1(struct __test_metadata *_metadata, int sfd, uint32_t reg,
		    bool write, uint32_t value)
{
	struct drm_vortex_debug_dm_op op = { .reg = reg, .value = value,
		.flags = write ? DRM_VORTEX_DEBUG_DM_WRITE : 0 };
	struct drm_vortex_debug_dm dm = { .ops = (uintptr_t)&op, .count = 1 };

	EXPECT_EQ(0, dbg_ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_DM, &dm));
	return op.value;
}

/*
 * A raw client keeps its selection ("All subsequent step and instruction
 * injection commands then use the selected warp/thread pair",
 * vxdebug-spec.md): halt-at-start selects every warp and the HALTED work
 * after a step selects the lowest halted warp, lane 0, but the client's
 * next access finds its own DSELECT and WMASK.  Before the fix DSELECT read
 * 0 after the step and WMASK 0 after the start.
 */
TEST_F_TIMEOUT(dbg, dm_raw_selection_kept_across_start_and_step, 120)
{
	uint32_t warp, lane, sel, mask, pc, dctrl;

	if (self->total < 2)
		SKIP(return, "a card of one warp: only warp 0 to select");
	self->sub.grid[0] = self->clusters * self->cores;
	self->sub.block[0] = self->warps * self->threads;
	ASSERT_LE(self->sub.grid[0] * self->sub.block[0] * 4, IN_OFF);
	warp = self->total > 3 ? 3 : self->total - 1;
	lane = self->threads > 3 ? 3 : self->threads - 1;
	sel = VX_DSELECT_MAKE(0, warp, lane);
	mask = 1u << warp | 1;

	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	dm1(_metadata, self->sfd, VX_DM_WMASK, true, mask);
	dm1(_metadata, self->sfd, VX_DM_DSELECT, true, sel);
	vx_cmd(dbg_warps(self->sfd, DRM_VORTEX_DEBUG_WARPS_HALT_AT_START,
			 DRM_VORTEX_DEBUG_WARPS_ALL, NULL, 0));
	vx_cmd(_vx_submit(self->fd, &self->sub));
	halted_warp(_metadata, self->sfd);
	EXPECT_EQ(sel, dm1(_metadata, self->sfd, VX_DM_DSELECT, false, 0));
	EXPECT_EQ(mask, dm1(_metadata, self->sfd, VX_DM_WMASK, false, 0));
	pc = dm1(_metadata, self->sfd, VX_DM_DPC, false, 0);
	EXPECT_EQ(self->code_addr, pc);

	/* What came from the start, then a step of the client's warp. */
	while (!dbg_event(self->sfd, 0, 200, NULL))
		;
	dctrl = dm1(_metadata, self->sfd, VX_DM_DCTRL, false, 0);
	dm1(_metadata, self->sfd, VX_DM_DCTRL, true, dctrl | VX_DCTRL_STEPREQ);
	ASSERT_EQ(0, dbg_event(self->sfd, DRM_VORTEX_DEBUG_EVENT_HALTED, VX_LIVE_MS, NULL));
	EXPECT_EQ(sel, dm1(_metadata, self->sfd, VX_DM_DSELECT, false, 0));
	EXPECT_EQ(pc + 4, dm1(_metadata, self->sfd, VX_DM_DPC, false, 0));
	dctrl = dm1(_metadata, self->sfd, VX_DM_DCTRL, false, 0);
	EXPECT_EQ(VX_HACAUSE_STEP, VX_DCTRL_HACAUSE(dctrl));
	EXPECT_EQ(mask, dm1(_metadata, self->sfd, VX_DM_WMASK, false, 0));
	EXPECT_EQ(0, resume_and_wait(_metadata, self));
}

/*
 * A raw ndmreset resets the card the driver's way: the halted job ends at
 * once with -ECANCELED (before the fix the card's reset took the ring with
 * it and the job ended only by timing out, -ETIMEDOUT, with a crash dump),
 * and the next job runs.
 */
TEST_F_TIMEOUT(dbg, dm_raw_ndmreset_cancels_the_job, 60)
{
	int32_t status = 1;

	ATTACH_SUBMIT_HALTED();
	dm1(_metadata, self->sfd, VX_DM_DCTRL, true, VX_DCTRL_DMACTIVE | VX_DCTRL_NDMRESET);
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 20 * SEC, &status));
	EXPECT_EQ(-ECANCELED, status);
	vx_cmd(_vx_submit(self->fd, &self->sub));
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 20 * SEC, &status));
	EXPECT_EQ(0, status);
	for (uint32_t l = 0; l < self->threads; l++)
		EXPECT_EQ(100 + l, self->data_map[l]);
}

/* --- DM */
#define DM_CALL(count_, flags_, ops_) ({				\
	struct drm_vortex_debug_dm __d = { .ops = (uintptr_t)(ops_),	\
		.count = (count_), .flags = (flags_) };			\
	dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_DM, &__d);		\
})

TEST_F(dbg, dm_err_bad_batches)
{
	struct drm_vortex_debug_dm_op op = { .reg = VX_DM_PLATFORM };

	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	EXPECT_EQ(-EINVAL, DM_CALL(1, 1, &op));
	EXPECT_EQ(-EINVAL, DM_CALL(0, 0, &op));
	EXPECT_EQ(-E2BIG, DM_CALL(DRM_VORTEX_DEBUG_DM_MAX_OPS + 1, 0, &op));
	EXPECT_EQ(-EFAULT, DM_CALL(1, 0, 16));
	op.pad = 1;
	EXPECT_EQ(-EINVAL, DM_CALL(1, 0, &op));
	op.pad = 0;
	op.flags = 2;
	EXPECT_EQ(-EINVAL, DM_CALL(1, 0, &op));
	op.flags = 0;
	op.reg = VX_DM_NREGS;
	EXPECT_EQ(-ERANGE, DM_CALL(1, 0, &op));
	op.reg = VX_DM_PLATFORM;
	EXPECT_EQ(0, DM_CALL(1, 0, &op));
	EXPECT_EQ(self->threads, 1u << VX_PLATFORM_NUMTHREADS_LOG2(op.value));
}

TEST_F(dbg, dm_err_needs_cap_sys_admin)
{
	int status;
	pid_t child;

	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		struct drm_vortex_debug_dm_op op = { .reg = VX_DM_PLATFORM };

		if (setresuid(65534, 65534, 65534))
			_exit(10);
		_exit(DM_CALL(1, 0, &op) == -EPERM ? 0 : 11);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
