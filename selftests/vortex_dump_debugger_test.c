// SPDX-License-Identifier: GPL-2.0
/*
 * Dumps a debugger asks for (DEBUG_OP_COREDUMP): a halted job's dump
 * equals what the debugger reads, and a running job is halted for the
 * capture only and finishes normally.
 */
#include "vortex_dump_fixture.h"

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
	int64_t end = vx_now() + VX_LIVE_MS * MS;

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

	VX_NEED_GATES();
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
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, VX_LIVE_MS * MS, &status));
	EXPECT_EQ(0, status);
	EXPECT_EQ(99, self->data_map[17]);
	close(sfd);
}

TEST_HARNESS_MAIN
