// SPDX-License-Identifier: MIT
/*
 * The backends' raw Debug Module op (vxdbg_backend_ops.dm, the driver's
 * DRM_VORTEX_DEBUG_IOCTL_DM) on the simulator backend: a running kernel
 * (hang: every warp loops, lane 0 of warp 0 counts) halted and resumed by
 * raw DCTRL writes in one batch, DPC/WSTATUS/DCTRL read back, every error
 * path with the driver's errno, the session's own operations still
 * right after raw writes moved DSELECT and WMASK behind its shadows, the
 * client's selection kept across the session's own (the HALTED work), and
 * a raw ndmreset cancelling the job as the driver does.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"

#include "vortex_kernels.h"
#include "vortex_regs.h"
#include "vxdbg_sim_start.h"

#define WARPS		8		/* 2 blocks of 32 threads on 1,2,4,8 */
#define ALL_WARPS	0xffu
#define SLICE		200000

#define RD(r)		{ .reg = (r) }
#define WR(r, v)	{ .reg = (r), .flags = DRM_VORTEX_DEBUG_DM_WRITE, .value = (v) }

FIXTURE(dm) {
	struct vxdbg_sim *sim;
	struct vxdbg_backend *be;
	struct vxdbg_sim_staged st;
	volatile uint32_t *count;
	uint64_t base;
	uint64_t seqno;
};

FIXTURE_SETUP(dm)
{
	struct vxdbg_sim_start o = { .grid = 2, .block = 32 };
	struct hang_args *args;
	uint64_t count;

	ASSERT_EQ(0, vxdbg_sim_stage(VX_KERNEL_DIR "/hang.elf", &o, &self->sim, &self->st));
	self->base = o.base;
	ASSERT_EQ(0, vxdbg_sim_alloc(self->sim, 4, &count));
	self->count = vxdbg_sim_ptr(self->sim, count);
	args = vxdbg_sim_ptr(self->sim, self->st.launch.arg);
	*args = (struct hang_args){ .count = count };
	ASSERT_EQ(0, vxdbg_sim_attach(self->sim, &self->be));
	ASSERT_EQ(0, vxdbg_sim_launch(self->sim, &self->st.launch, &self->seqno));
	ASSERT_EQ(SLICE, vxdbg_sim_run(self->sim, SLICE));
	ASSERT_NE(0, *self->count);
}

FIXTURE_TEARDOWN(dm)
{
	if (self->be)
		self->be->ops->close(self->be);
	vxdbg_sim_free(self->sim);
}

static int dm(struct vxdbg_backend *be, struct drm_vortex_debug_dm_op *ops, uint32_t n)
{
	struct drm_vortex_debug_dm a = { .ops = (uintptr_t)ops, .count = n };

	return be->ops->dm(be, &a);
}

/* Halt every warp, then look at warp 0, all in one batch. */
TEST_F(dm, halt_and_resume_by_dctrl)
{
	struct drm_vortex_debug_dm_op ops[] = {
		WR(VX_DM_DSELECT, VX_DSELECT_MAKE(0, 0, 0)),
		WR(VX_DM_WMASK, ALL_WARPS),
		WR(VX_DM_DCTRL, VX_DCTRL_DMACTIVE | VX_DCTRL_HALTREQ),
		RD(VX_DM_WACTIVE), RD(VX_DM_WSTATUS), RD(VX_DM_DPC), RD(VX_DM_DCTRL),
		RD(VX_DM_DPC), RD(VX_DM_PLATFORM),
	};
	struct drm_vortex_debug_dm_op resume[] = {
		WR(VX_DM_DCTRL, VX_DCTRL_DMACTIVE | VX_DCTRL_RESUMEREQ),
		RD(VX_DM_WSTATUS), RD(VX_DM_DCTRL),
	};
	uint32_t before;

	ASSERT_EQ(0, dm(self->be, ops, 9));
	EXPECT_EQ(ALL_WARPS, ops[3].value);		/* WACTIVE */
	EXPECT_EQ(ALL_WARPS, ops[4].value);		/* WSTATUS: all halted */
	EXPECT_GE(ops[5].value, self->base);		/* DPC inside the image */
	EXPECT_LT(ops[5].value, self->base + 0x10000);
	EXPECT_EQ(0, ops[5].value & 3);
	EXPECT_EQ(ops[5].value, ops[7].value);		/* halted: it stays */
	EXPECT_EQ(VX_HACAUSE_HALTREQ, VX_DCTRL_HACAUSE(ops[6].value));
	EXPECT_TRUE(ops[6].value & VX_DCTRL_ALLHALTED);
	EXPECT_FALSE(ops[6].value & VX_DCTRL_ANYRUNNING);
	EXPECT_EQ(VX_PLATFORM_MAKE(3, 4, 2, 1), ops[8].value);

	/* Halted: the card has nothing to run and the counter stands still. */
	before = *self->count;
	EXPECT_EQ(0, vxdbg_sim_run(self->sim, SLICE));
	EXPECT_EQ(before, *self->count);

	ASSERT_EQ(0, dm(self->be, resume, 3));
	EXPECT_EQ(0, resume[1].value);
	EXPECT_TRUE(resume[2].value & VX_DCTRL_ALLRUNNING);
	EXPECT_EQ(SLICE, vxdbg_sim_run(self->sim, SLICE));
	EXPECT_NE(before, *self->count);
}

/* A DPC write takes only while the warp is halted (docs/hardware.md). */
TEST_F(dm, dpc_write_moves_a_halted_warp)
{
	struct drm_vortex_debug_dm_op ops[] = {
		WR(VX_DM_DSELECT, VX_DSELECT_MAKE(0, 3, 0)),
		WR(VX_DM_WMASK, 1u << 3),
		WR(VX_DM_DCTRL, VX_DCTRL_DMACTIVE | VX_DCTRL_HALTREQ),
		RD(VX_DM_DPC), RD(VX_DM_WSTATUS),
	};
	struct drm_vortex_debug_dm_op move[] = {
		WR(VX_DM_DPC, 0), RD(VX_DM_DPC),
	};

	ASSERT_EQ(0, dm(self->be, ops, 5));
	EXPECT_EQ(1u << 3, ops[4].value);		/* only warp 3 */
	move[0].value = self->st.launch.entry;
	ASSERT_EQ(0, dm(self->be, move, 2));
	EXPECT_EQ(self->st.launch.entry, move[1].value);
}

TEST_F(dm, err_flags_count_e2big)
{
	struct drm_vortex_debug_dm_op ops[DRM_VORTEX_DEBUG_DM_MAX_OPS + 1];
	struct drm_vortex_debug_dm a = { .ops = (uintptr_t)ops, .count = 1, .flags = 1 };

	for (int i = 0; i <= DRM_VORTEX_DEBUG_DM_MAX_OPS; i++)
		ops[i] = (struct drm_vortex_debug_dm_op)RD(VX_DM_PLATFORM);
	EXPECT_EQ(-EINVAL, self->be->ops->dm(self->be, &a));
	a.flags = 0;
	a.count = 0;
	EXPECT_EQ(-EINVAL, self->be->ops->dm(self->be, &a));
	a.count = DRM_VORTEX_DEBUG_DM_MAX_OPS + 1;
	EXPECT_EQ(-E2BIG, self->be->ops->dm(self->be, &a));
	a.count = DRM_VORTEX_DEBUG_DM_MAX_OPS;
	EXPECT_EQ(0, self->be->ops->dm(self->be, &a));
	EXPECT_EQ(VX_PLATFORM_MAKE(3, 4, 2, 1), ops[DRM_VORTEX_DEBUG_DM_MAX_OPS - 1].value);
	a.count = 1;
	a.ops = 0;
	EXPECT_EQ(-EFAULT, self->be->ops->dm(self->be, &a));
}

/* A bad entry ends the batch: the ones before it took effect, not after. */
TEST_F(dm, err_bad_entry_stops_the_batch)
{
	struct drm_vortex_debug_dm_op ops[] = {
		WR(VX_DM_WMASK, 0x5), RD(VX_DM_NREGS), WR(VX_DM_WMASK, 0x6),
	};
	struct drm_vortex_debug_dm_op check[] = { RD(VX_DM_WMASK) };

	ASSERT_EQ(0, dm(self->be, (struct drm_vortex_debug_dm_op[]){
		WR(VX_DM_DSELECT, 0) }, 1));
	EXPECT_EQ(-ERANGE, dm(self->be, ops, 3));
	ASSERT_EQ(0, dm(self->be, check, 1));
	EXPECT_EQ(0x5, check[0].value);

	ops[1] = (struct drm_vortex_debug_dm_op)RD(VX_DM_DSCRATCH(3));
	ops[1].pad = 1;
	EXPECT_EQ(-EINVAL, dm(self->be, ops, 3));
	ops[1].pad = 0;
	ops[1].flags = 2;
	EXPECT_EQ(-EINVAL, dm(self->be, ops, 3));
	ASSERT_EQ(0, dm(self->be, check, 1));
	EXPECT_EQ(0x5, check[0].value);
	ops[1].flags = 0;
	EXPECT_EQ(0, dm(self->be, ops, 3));		/* 0xc is DSCRATCH3: fine */
	ASSERT_EQ(0, dm(self->be, check, 1));
	EXPECT_EQ(0x6, check[0].value);
}

/*
 * Raw writes move DSELECT and WMASK behind the backend's shadows; its own
 * operations must notice, or they select the wrong warp and mask.
 */
TEST_F(dm, session_ops_after_raw_writes)
{
	uint32_t one = 1, hartid = ~0u;
	struct drm_vortex_debug_warps halt = {
		.op = DRM_VORTEX_DEBUG_WARPS_HALT, .mask = (uintptr_t)&one, .mask_words = 1,
	};
	struct drm_vortex_debug_warps resume = halt;
	struct drm_vortex_debug_reg_op rop = {
		.warp = 0, .reg = DRM_VORTEX_DEBUG_REG_CSR(0xf14), .lanes = { 1 },
		.values = (uintptr_t)&hartid,
	};
	struct drm_vortex_debug_regs regs = {
		.ops = (uintptr_t)&rop, .count = 1, .stride = sizeof(rop),
	};
	struct drm_vortex_debug_dm_op raw[] = {
		WR(VX_DM_DSELECT, VX_DSELECT_MAKE(0, 5, 2)),
		WR(VX_DM_WMASK, ALL_WARPS),
		WR(VX_DM_DCTRL, VX_DCTRL_DMACTIVE | VX_DCTRL_RESUMEREQ),
	};
	struct drm_vortex_debug_dm_op status[] = {
		WR(VX_DM_DSELECT, 0), RD(VX_DM_WSTATUS),
	};

	resume.op = DRM_VORTEX_DEBUG_WARPS_RESUME;
	ASSERT_EQ(0, self->be->ops->warps(self->be, &halt));	/* WMASK shadow: 1 */
	ASSERT_EQ(0, self->be->ops->regs(self->be, &regs));	/* DSELECT shadow: warp 0 */
	EXPECT_EQ(0, hartid);
	ASSERT_EQ(0, dm(self->be, raw, 3));			/* behind their backs */
	ASSERT_EQ(SLICE, vxdbg_sim_run(self->sim, SLICE));

	ASSERT_EQ(0, self->be->ops->warps(self->be, &halt));
	ASSERT_EQ(0, dm(self->be, status, 2));
	EXPECT_EQ(1, status[1].value);				/* warp 0 only */
	hartid = ~0u;
	ASSERT_EQ(0, self->be->ops->regs(self->be, &regs));
	EXPECT_EQ(0, hartid);					/* warp 0 lane 0 */
	ASSERT_EQ(0, self->be->ops->warps(self->be, &resume));
}

/*
 * A raw client's selection survives the session's own sequence after a
 * step: the HALTED work selects the lowest halted warp, lane 0, to read
 * its cause ("All subsequent step and instruction injection commands then
 * use the selected warp/thread pair", vxdebug-spec.md).  Before the fix
 * DSELECT read 0 and the next step moved warp 0.
 */
TEST_F(dm, raw_selection_kept_across_a_step)
{
	const uint32_t sel = VX_DSELECT_MAKE(0, 3, 3);
	struct drm_vortex_debug_dm_op halt[] = {
		WR(VX_DM_WMASK, ALL_WARPS),
		WR(VX_DM_DCTRL, VX_DCTRL_DMACTIVE | VX_DCTRL_HALTREQ),
	};
	struct drm_vortex_debug_dm_op pick[] = { WR(VX_DM_DSELECT, sel), RD(VX_DM_DPC) };
	struct drm_vortex_debug_dm_op step[] = {
		WR(VX_DM_DCTRL, VX_DCTRL_DMACTIVE | VX_DCTRL_STEPREQ) };
	struct drm_vortex_debug_dm_op after[] = { RD(VX_DM_DSELECT), RD(VX_DM_DPC) };
	struct drm_vortex_debug_event ev;

	ASSERT_EQ(0, dm(self->be, halt, 2));
	while (!self->be->ops->event(self->be, &ev, 0))
		;
	ASSERT_EQ(0, dm(self->be, pick, 2));
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(0, dm(self->be, step, 1));
		/* The card's DEBUG interrupt, serviced: HALTED, warp 0 selected. */
		ASSERT_EQ(0, self->be->ops->event(self->be, &ev, 0));
		EXPECT_EQ(DRM_VORTEX_DEBUG_EVENT_HALTED, ev.type);
		EXPECT_EQ(0, ev.data[2]);
		ASSERT_EQ(0, dm(self->be, after, 2));
		EXPECT_EQ(sel, after[0].value);
		EXPECT_NE(pick[1].value, after[1].value);	/* warp 3 moved */
		pick[1].value = after[1].value;
	}
}

/*
 * A raw ndmreset is done the driver's way: the job ends with -ECANCELED
 * and the card, reset, runs the next one.  Before, the card's own reset
 * dropped the job and the ring, and it never ended.
 */
TEST_F(dm, raw_ndmreset_cancels_the_job)
{
	struct drm_vortex_debug_dm_op reset[] = {
		WR(VX_DM_DCTRL, VX_DCTRL_DMACTIVE | VX_DCTRL_NDMRESET) };
	uint32_t before;
	int status = 1;

	ASSERT_EQ(0, dm(self->be, reset, 1));
	ASSERT_EQ(0, vxdbg_sim_wait(self->sim, self->seqno, SLICE, &status));
	EXPECT_EQ(-ECANCELED, status);
	before = *self->count;
	ASSERT_EQ(0, vxdbg_sim_launch(self->sim, &self->st.launch, &self->seqno));
	EXPECT_EQ(SLICE, vxdbg_sim_run(self->sim, SLICE));
	EXPECT_NE(before, *self->count);
}

TEST_HARNESS_MAIN
