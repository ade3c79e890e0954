// SPDX-License-Identifier: GPL-2.0
/*
 * Running under the debugger: stepping across a branch and a split/join,
 * a step count stopped by a breakpoint, halt-at-start of every warp (and
 * of Vortex's own launch model), and a session that leaves other
 * clients' jobs alone.
 */
#include "vortex_debug_fixture.h"

#define SPLIT(rd, rs1)		RV_R(0, 0, rs1, VX_F3_SPLIT, rd, VX_OPCODE_CUSTOM0)
#define JOIN(rs1)		RV_R(0, 0, rs1, VX_F3_JOIN, 0, VX_OPCODE_CUSTOM0)

/* Control flow to step through: a split/join on odd lanes, a loop. */
static const uint32_t prog_flow[] = {
	CSRR(T0, VX_CSR_THREAD_ID),	/* 0x00 */
	ANDI(A1, T0, 1),		/* 0x04 */
	SPLIT(A2, A1),			/* 0x08 */
	BEQ(A1, X0, 12),		/* 0x0c */
	ADDI(S1, X0, 1),		/* 0x10: odd lanes */
	JAL(X0, 8),			/* 0x14 */
	ADDI(S1, X0, 2),		/* 0x18: even lanes */
	JOIN(A2),			/* 0x1c */
	ADDI(T1, X0, 2),		/* 0x20 */
	ADDI(T1, T1, -1),		/* 0x24 */
	BNE(T1, X0, -4),		/* 0x28 */
	SLLI(T2, T0, 2),		/* 0x2c */
	ADD(T2, T2, A0),		/* 0x30 */
	SW(S1, T2, 0),			/* 0x34 */
	TMC(X0),			/* 0x38 */
};

/* ------------------------------------------------------------ stepping */

TEST_F_TIMEOUT(dbg, step_follows_branch_and_split_join, 60)
{
	static const uint32_t divergent[] = {
		0x04, 0x08, 0x0c, 0x10, 0x14, 0x1c, 0x0c, 0x18, 0x1c,
		0x20, 0x24, 0x28, 0x24, 0x28, 0x2c, 0x30, 0x34, 0x38,
	};
	static const uint32_t uniform[] = {
		0x04, 0x08, 0x0c, 0x18, 0x1c,
		0x20, 0x24, 0x28, 0x24, 0x28, 0x2c, 0x30, 0x34, 0x38,
	};
	const uint32_t *path = self->threads > 1 ? divergent : uniform;
	size_t n = self->threads > 1 ? 18 : 14, i;
	struct drm_vortex_debug_step s;
	int32_t status = 1;
	uint32_t l;

	load(self, prog_flow, sizeof(prog_flow));
	ATTACH_SUBMIT_HALTED();
	for (i = 0; i < n; i++) {
		vx_cmd(dbg_step(self->sfd, self->warp, 1, &s));
		EXPECT_EQ(1, s.done);
		EXPECT_EQ(self->code_addr + path[i], s.pc) TH_LOG("step %zu", i + 1);
		EXPECT_EQ(DRM_VORTEX_DEBUG_WARP_ACTIVE | DRM_VORTEX_DEBUG_WARP_HALTED,
			  s.state);
	}
	/* The last step is over tmc 0: the warp ends, the job with it. */
	vx_cmd(dbg_step(self->sfd, self->warp, 1, &s));
	EXPECT_EQ(0, s.state);
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, VX_LIVE_MS * MS, &status));
	EXPECT_EQ(0, status);
	for (l = 0; l < self->threads; l++)
		EXPECT_EQ(l & 1 ? 1 : 2, self->data_map[l]);
}

/* Several steps in one call stop at a breakpoint. */
TEST_F_TIMEOUT(dbg, step_count_stops_at_breakpoint, 60)
{
	struct drm_vortex_debug_step s;

	ATTACH_SUBMIT_HALTED();
	vx_cmd(dbg_bp(self->sfd, self->code_addr + STORE_BP, DRM_VORTEX_DEBUG_BP_SET));
	vx_cmd(dbg_step(self->sfd, self->warp, 100, &s));
	EXPECT_EQ(STORE_BP / 4, s.done);
	EXPECT_EQ(self->code_addr + STORE_BP, s.pc);
	EXPECT_TRUE(s.state & DRM_VORTEX_DEBUG_WARP_ON_BREAKPOINT);
	/* From the breakpoint, one step runs the original store once. */
	vx_cmd(dbg_step(self->sfd, self->warp, 1, &s));
	EXPECT_EQ(self->code_addr + STORE_BP + 4, s.pc);
	EXPECT_EQ(100, self->data_map[0]);
	EXPECT_EQ(EBREAK, self->code_map[STORE_BP / 4]);
	vx_cmd(dbg_warps(self->sfd, DRM_VORTEX_DEBUG_WARPS_RESUME,
			 DRM_VORTEX_DEBUG_WARPS_ALL, NULL, 0));
}

/*
 * A step's own halts are no HALTED events: STEP answers for them (as
 * CUDA's cudbgSingleStepWarp() does, synchronously).  The 7.3 guest once
 * showed why: an event raised by a step and read after it described the
 * card mid-step ("3 warps halted (halt at start)" while the stepped warp
 * had faulted), and vxdbg printed it as a new stop.  Before the fix every
 * STEP was followed by a HALTED event.
 */
TEST_F_TIMEOUT(dbg, step_posts_no_halted_event_of_its_own, 60)
{
	struct drm_vortex_debug_event ev = { 0 };
	struct drm_vortex_debug_step s;

	ATTACH_SUBMIT_HALTED();
	vx_cmd(dbg_step(self->sfd, self->warp, 1, &s));
	vx_cmd(dbg_step(self->sfd, self->warp, 3, &s));
	EXPECT_EQ(3, s.done);
	EXPECT_EQ(self->code_addr + 16, s.pc);
	EXPECT_EQ(-ETIME, dbg_event(self->sfd, DRM_VORTEX_DEBUG_EVENT_HALTED, 1000, &ev))
		TH_LOG("HALTED event: cause %u, %u warps, first %u at 0x%x",
		       ev.data[0], ev.data[1], ev.data[2], ev.data[3]);
	EXPECT_EQ(0, resume_and_wait(_metadata, self));
}

/* -------------------------------------------------------- halt at start */

TEST_F_TIMEOUT(dbg, halt_at_start_every_warp_at_entry, 120)
{
	struct drm_vortex_debug_warp_state *st;
	struct drm_vortex_debug_status s = { .stride = sizeof(*st) };
	struct drm_vortex_debug_dm_op ops[3];
	struct drm_vortex_debug_dm dm = { .ops = (uintptr_t)ops, .count = 3 };
	uint64_t w, n;
	int32_t status = 1;

	/* Every warp of the card busy: one full block per core. */
	self->sub.grid[0] = self->clusters * self->cores;
	self->sub.block[0] = self->warps * self->threads;
	n = self->sub.grid[0] * self->sub.block[0];
	ASSERT_LE(n * 4, IN_OFF);

	st = calloc(self->total, sizeof(*st));
	ASSERT_NE(NULL, st);
	ATTACH_SUBMIT_HALTED();
	s.states = (uintptr_t)st;
	s.count = self->total;
	vx_cmd(dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_STATUS, &s));
	ASSERT_EQ(self->total, s.count);
	for (w = 0; w < self->total; w++) {
		EXPECT_EQ(w, st[w].warp);
		EXPECT_EQ(DRM_VORTEX_DEBUG_WARP_ACTIVE | DRM_VORTEX_DEBUG_WARP_HALTED,
			  st[w].state) TH_LOG("warp %lu", w);
		EXPECT_EQ(VX_HACAUSE_RESETHALTREQ, st[w].cause);
		EXPECT_EQ(self->code_addr, st[w].pc);
		EXPECT_EQ(w / (self->cores * self->warps), st[w].cluster);
		EXPECT_EQ(w % self->warps, st[w].warp_in_core);
		EXPECT_EQ(w % self->warps, st[w].warp_in_block);
	}
	/* STATUS agrees with the card's WSTATUS (raw DM, window 0). */
	ops[0] = (struct drm_vortex_debug_dm_op){ .reg = VX_DM_DSELECT,
		.flags = DRM_VORTEX_DEBUG_DM_WRITE, .value = 0 };
	ops[1] = (struct drm_vortex_debug_dm_op){ .reg = VX_DM_WSTATUS };
	ops[2] = (struct drm_vortex_debug_dm_op){ .reg = VX_DM_WACTIVE };
	vx_cmd(dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_DM, &dm));
	EXPECT_EQ(self->total >= 32 ? ~0u : (1u << self->total) - 1, ops[1].value);
	EXPECT_EQ(ops[1].value, ops[2].value);

	vx_cmd(dbg_warps(self->sfd, DRM_VORTEX_DEBUG_WARPS_RESUME,
			 DRM_VORTEX_DEBUG_WARPS_ALL, NULL, 0));
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 20 * SEC, &status));
	EXPECT_EQ(0, status);
	free(st);
}

/*
 * A job in Vortex's launch model (SUBMIT_CORES: upstream starts warp 0,
 * thread mask 1, of each core at STARTUP_ADDR, sim/simx emulator.cpp)
 * halts at its first instruction as a grid job does: one warp per core,
 * warp 0 of its core, lane 0 only, at the STARTUP_ADDR the file's DCR
 * named, the other warps without a context; resumed, it ends.
 */
TEST_F_TIMEOUT(dbg, halt_at_start_vortex_model_job, 120)
{
	struct drm_vortex_debug_warp_state *st;
	struct drm_vortex_debug_status s = { .stride = sizeof(*st) };
	struct drm_vortex_dcr d = { .flags = DRM_VORTEX_DCR_WRITE };
	struct drm_vortex_submit sub = self->sub;
	uint64_t w, halted = 0;
	int32_t status = 1;

	memcpy(self->code_map, (uint32_t[]){ TMC(X0) }, 4);
	d.addr = DRM_VORTEX_DCR_STARTUP_ADDR0;
	d.value = (uint32_t)self->code_addr;
	vx_cmd(vx_ioctl(self->fd, DRM_IOCTL_VORTEX_DCR, &d));
	sub.flags = DRM_VORTEX_SUBMIT_CORES;
	sub.entry_pc = sub.arg_addr = 0;
	memset(sub.grid, 0, sizeof(sub.grid));
	memset(sub.block, 0, sizeof(sub.block));
	st = calloc(self->total, sizeof(*st));
	ASSERT_NE(NULL, st);
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	vx_cmd(dbg_warps(self->sfd, DRM_VORTEX_DEBUG_WARPS_HALT_AT_START,
			 DRM_VORTEX_DEBUG_WARPS_ALL, NULL, 0));
	vx_cmd(_vx_submit(self->fd, &sub));
	halted_warp(_metadata, self->sfd);
	s.states = (uintptr_t)st;
	s.count = self->total;
	vx_cmd(dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_STATUS, &s));
	for (w = 0; w < s.count; w++) {
		if (!(st[w].state & DRM_VORTEX_DEBUG_WARP_ACTIVE))
			continue;
		halted++;
		EXPECT_EQ(0, st[w].warp_in_core) TH_LOG("warp %lu", w);
		EXPECT_EQ(DRM_VORTEX_DEBUG_WARP_ACTIVE | DRM_VORTEX_DEBUG_WARP_HALTED,
			  st[w].state) TH_LOG("warp %lu", w);
		EXPECT_EQ(self->code_addr, st[w].pc) TH_LOG("warp %lu", w);
		EXPECT_EQ(1, st[w].thread_mask[0]) TH_LOG("warp %lu", w);
	}
	EXPECT_EQ(self->clusters * self->cores, halted);
	vx_cmd(dbg_warps(self->sfd, DRM_VORTEX_DEBUG_WARPS_RESUME,
			 DRM_VORTEX_DEBUG_WARPS_ALL, NULL, 0));
	vx_cmd(_vx_wait(self->fd, sub.seqno, 20 * SEC, &status));
	EXPECT_EQ(0, status);
	free(st);
}

static const uint32_t prog_ebreak[] = { EBREAK, TMC(X0) };

/*
 * Issue 22, item 5: an idle session changes nothing for other clients.
 * Another process's kernel that executes ebreak runs as without a
 * debugger: the ebreak ends its core's warps, as upstream Vortex's does
 * (docs/hardware.md, "SIMT control"), so the job completes at once, well
 * inside the hang timeout, and the session hears nothing of it.  Before
 * the fix DCONFIG.ebreakh was card-wide while any session existed: the
 * other job's warp halted, the job ended -ETIMEDOUT after the timeout,
 * and the session got a HALTED event with that job's warp and PC.  (Until
 * the card followed upstream, an ebreak without a debugger failed the job
 * with -EIO instead of ending it.)
 */
TEST_F_TIMEOUT(dbg, idle_session_leaves_other_clients_ebreak_alone, 60)
{
	struct drm_vortex_debug_event ev;
	struct other_result r;

	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	r = other_client_run(prog_ebreak, sizeof(prog_ebreak), 1, self->threads,
			     VX_LIVE_MS);
	ASSERT_EQ(0, r.submit_err);
	/* A warp the ebreak had halted would have ended it -ETIMEDOUT. */
	EXPECT_EQ(0, r.status) TH_LOG("the ebreak took %lld ms to end",
				      (long long)(r.ns / MS));
	EXPECT_EQ(-ETIME, dbg_event(self->sfd, 0, 500, &ev))
		TH_LOG("the session heard of another client's job: event %u",
		       ev.type);
}

/*
 * Issue 22, item 6: halt-at-start arms the card's warps for the target's
 * job only.  The target's one-warp job halts at start and is resumed; the
 * session stays open.  Another client's job on every warp of the card then
 * runs to its end.  Before the fix the warps the target's job did not
 * launch stayed armed, and the other job started halted and ended
 * -ETIMEDOUT (3 runs of 3).  The target's own next job, not armed, must
 * not halt either.
 */
TEST_F_TIMEOUT(dbg, halt_at_start_arms_the_targets_job_only, 120)
{
	struct other_result r;
	int32_t status = 1;

	ATTACH_SUBMIT_HALTED();
	EXPECT_EQ(0, resume_and_wait(_metadata, self));
	r = other_client_run(prog_exit, sizeof(prog_exit), self->total,
			     self->threads, VX_LIVE_MS);
	ASSERT_EQ(0, r.submit_err);
	/* A job that started halted would have ended -ETIMEDOUT. */
	EXPECT_EQ(0, r.status);

	self->sub.grid[0] = self->total;
	vx_cmd(_vx_submit(self->fd, &self->sub));
	EXPECT_EQ(0, _vx_wait(self->fd, self->sub.seqno, VX_LIVE_MS * MS, &status));
	EXPECT_EQ(0, status);
}

TEST_HARNESS_MAIN
