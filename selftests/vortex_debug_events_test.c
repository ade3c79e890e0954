// SPDX-License-Identifier: GPL-2.0
/*
 * The session's events: the console reaching the debugger while halted,
 * a mid-job attach reporting the launch, version 2's 72-byte events,
 * launch and finish naming the code object, a WAIT after FINISHED, and
 * a full queue's overflow.
 */
#include "vortex_debug_fixture.h"

/* ------------------------------------------------------------ console */

static int dbg_console(int sfd, uint32_t *rec, uint32_t *n, uint64_t *skipped)
{
	struct drm_vortex_debug_console c = { .data = (uintptr_t)rec, .count = *n };
	int ret = dbg_ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_CONSOLE, &c);

	*n = c.count;
	if (skipped)
		*skipped = c.skipped;
	return ret;
}

/*
 * Each lane prints "h\n" (a byte store to IO_COUT, as upstream's
 * vx_putchar(): kernel/src/vx_print.S), then "o\n"; the test stops it
 * between the two.
 */
static const uint32_t prog_print[] = {
	CSRR(T0, VX_CSR_MHARTID), ANDI(T0, T0, 63), ADDI(T0, T0, 0x40),
	ADDI(T1, X0, 'h'), SB(T1, T0, 0), ADDI(T1, X0, '\n'), SB(T1, T0, 0),
	ADDI(T1, X0, 'o'),		/* 0x1c: the breakpoint */
	SB(T1, T0, 0), ADDI(T1, X0, '\n'), SB(T1, T0, 0),
	TMC(X0),
};

/*
 * The debugger sees what the job printed while it stands halted, each
 * record once; the target still reads all of it, and what the target
 * read first the session counts as skipped.  A bad buffer loses nothing.
 */
TEST_F_TIMEOUT(dbg, console_reaches_the_debugger_while_halted, 60)
{
	struct drm_vortex_debug_console bad = { 0 };
	uint32_t rec[1024], n, i, seen[128] = { 0 };
	struct drm_vortex_console own = { 0 };
	uint64_t skipped = 1;

	ASSERT_LE(self->threads * 4, 1024);
	load(self, prog_print, sizeof(prog_print));
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	/* nothing yet: no job of the target ran */
	n = 1024;
	vx_cmd(dbg_console(self->sfd, rec, &n, &skipped));
	EXPECT_EQ(0, n);
	EXPECT_EQ(0, skipped);

	vx_cmd(dbg_bp(self->sfd, self->code_addr + 0x1c, DRM_VORTEX_DEBUG_BP_SET));
	vx_cmd(_vx_submit(self->fd, &self->sub));
	self->warp = halted_warp(_metadata, self->sfd);

	bad.count = 1024;
	bad.data = 8;
	EXPECT_EQ(-EFAULT, dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_CONSOLE, &bad));
	bad.data = (uintptr_t)rec;
	bad.flags = 1;
	EXPECT_EQ(-EINVAL, dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_CONSOLE, &bad));
	bad.flags = 0;
	bad.pad = 1;
	EXPECT_EQ(-EINVAL, dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_CONSOLE, &bad));

	n = 1024;
	vx_cmd(dbg_console(self->sfd, rec, &n, &skipped));
	EXPECT_EQ(0, skipped);
	ASSERT_EQ(self->threads * 2, n);
	for (i = 0; i < n; i++) {
		uint32_t h = DRM_VORTEX_CONSOLE_HART(rec[i]);

		/* one warp's lanes: mhartid = warp's first + lane */
		ASSERT_EQ(DRM_VORTEX_CONSOLE_HART(rec[0]) / self->threads, h / self->threads);
		h %= self->threads;
		EXPECT_EQ(seen[h]++ ? '\n' : 'h', DRM_VORTEX_CONSOLE_CHAR(rec[i]))
			TH_LOG("record %u, lane %u", i, h);
	}
	for (i = 0; i < self->threads; i++)
		EXPECT_EQ(2, seen[i]) TH_LOG("lane %u", i);
	n = 1024;
	vx_cmd(dbg_console(self->sfd, rec, &n, &skipped));
	EXPECT_EQ(0, n) TH_LOG("a record given twice");

	EXPECT_EQ(0, resume_and_wait(_metadata, self));
	/* the target reads all four bytes of every lane */
	own.data = (uintptr_t)rec;
	own.count = 1024;
	vx_cmd(vx_ioctl(self->fd, DRM_IOCTL_VORTEX_CONSOLE, &own));
	EXPECT_EQ(self->threads * 4, own.count);
	/* and the session learns that it missed the last two of each */
	n = 1024;
	vx_cmd(dbg_console(self->sfd, rec, &n, &skipped));
	EXPECT_EQ(0, n);
	EXPECT_EQ(self->threads * 2, skipped);
}

/* Attaching while the target's job runs reports it as launched. */
TEST_F_TIMEOUT(dbg, attach_mid_job_reports_the_launch, 60)
{
	static const uint32_t prog_wait[] = {
		LW(T1, A0, 64),
		BEQ(T1, X0, -4),
		TMC(X0),
	};
	struct drm_vortex_debug_event ev;
	int32_t status = 1;

	load(self, prog_wait, sizeof(prog_wait));
	vx_cmd(_vx_submit(self->fd, &self->sub));
	usleep(50 * 1000);
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	ASSERT_EQ(0, dbg_event(self->sfd, 0, VX_LIVE_MS, &ev));
	EXPECT_EQ(DRM_VORTEX_DEBUG_EVENT_LAUNCHED, ev.type);
	EXPECT_EQ(self->sub.seqno, ev.job);
	EXPECT_EQ(self->code_addr, ev.data[6]);
	self->data_map[16] = 1;
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, VX_LIVE_MS * MS, &status));
	EXPECT_EQ(0, status);
}

/*
 * A debugger built against version 2 of this header attaches with
 * version 2 and reads events of 72 bytes, as before the events grew
 * (issue 33): each read of 72 bytes is one whole event, its @size 72,
 * EXCEPTION's layout version 1, and a buffer for one event is enough.
 */
TEST_F_TIMEOUT(dbg, version_2_session_reads_72_byte_events, 60)
{
	struct drm_vortex_debug_attach a = { .version = 2 };
	struct pollfd p = { .events = POLLIN };
	struct drm_vortex_debug_event ev;
	int32_t status = 1;
	int seen = 0;

	ASSERT_EQ(72, DRM_VORTEX_DEBUG_EVENT_SIZE_V2);
	load(self, prog_fault, sizeof(prog_fault));
	vx_cmd(vx_ioctl(self->fd, DRM_IOCTL_VORTEX_DEBUG_ATTACH, &a));
	self->sfd = a.fd;
	p.fd = a.fd;
	vx_cmd(_vx_submit(self->fd, &self->sub));
	while (poll(&p, 1, 10000) == 1) {
		memset(&ev, 0xa5, sizeof(ev));
		ASSERT_EQ(DRM_VORTEX_DEBUG_EVENT_SIZE_V2,
			  read(a.fd, &ev, DRM_VORTEX_DEBUG_EVENT_SIZE_V2));
		EXPECT_EQ(DRM_VORTEX_DEBUG_EVENT_SIZE_V2, ev.size);
		EXPECT_EQ(0xa5a5a5a5u, ev.data[12]);	/* nothing past 72 bytes */
		if (ev.type == DRM_VORTEX_DEBUG_EVENT_EXCEPTION) {
			EXPECT_EQ(1, ev.version);
			EXPECT_EQ(VX_ERR_ILLEGAL_INSTR, ev.data[0]);
			seen = 1;
			break;
		}
	}
	EXPECT_EQ(1, seen);
	/* a buffer shorter than a version-2 event is still -EINVAL */
	EXPECT_EQ(-1, read(a.fd, &ev, DRM_VORTEX_DEBUG_EVENT_SIZE_V2 - 8));
	EXPECT_EQ(EINVAL, errno);
	vx_cmd(dbg_warps(self->sfd, DRM_VORTEX_DEBUG_WARPS_RESUME,
			 DRM_VORTEX_DEBUG_WARPS_ALL, NULL, 0));
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, VX_LIVE_MS * MS, &status));
	EXPECT_EQ(-EIO, status);
}

/* ------------------------------------------------------------ events */

TEST_F_TIMEOUT(dbg, launch_and_finish_events_name_the_code_object, 60)
{
	struct drm_vortex_code_object co = {
		.handle = self->code, .offset = 0, .size = sizeof(prog_store),
		.load_addr = self->code_addr, .load_size = CODE_SIZE,
	};
	struct drm_vortex_debug_event ev;
	int32_t status;

	vx_cmd(vx_ioctl(self->fd, DRM_IOCTL_VORTEX_CODE_OBJECT, &co));
	EXPECT_NE(0, co.id);
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	vx_cmd(_vx_submit(self->fd, &self->sub));
	ASSERT_EQ(0, dbg_event(self->sfd, DRM_VORTEX_DEBUG_EVENT_LAUNCHED, VX_LIVE_MS, &ev));
	EXPECT_EQ(1, ev.version);
	EXPECT_EQ(sizeof(ev), ev.size);
	EXPECT_EQ(self->sub.seqno, ev.job);
	EXPECT_EQ(1, ev.data[0]);
	EXPECT_EQ(self->threads, ev.data[3]);
	EXPECT_EQ(self->code_addr, ev.data[6]);
	EXPECT_EQ(co.id, ev.data[7]);
	EXPECT_EQ(self->code_addr, ev.data[8]);
	EXPECT_EQ(sizeof(prog_store), ev.data[9]);
	EXPECT_EQ(self->code_addr, ev.data[10]);
	EXPECT_EQ(CODE_SIZE, ev.data[11]);
	ASSERT_EQ(0, dbg_event(self->sfd, DRM_VORTEX_DEBUG_EVENT_FINISHED, VX_LIVE_MS, &ev));
	EXPECT_EQ(0, ev.data[0]);
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, 0, &status));
}

/* Registers the test's code as a code object; its id. */
static uint32_t code_object_add(struct __test_metadata *_metadata,
				FIXTURE_DATA(dbg) *self)
{
	struct drm_vortex_code_object co = {
		.handle = self->code, .size = sizeof(prog_store),
		.load_addr = self->code_addr, .load_size = CODE_SIZE,
	};

	EXPECT_EQ(0, vx_ioctl(self->fd, DRM_IOCTL_VORTEX_CODE_OBJECT, &co));
	return co.id;
}

static int code_object_del(FIXTURE_DATA(dbg) *self, uint32_t id)
{
	struct drm_vortex_code_object co = {
		.flags = DRM_VORTEX_CODE_OBJECT_UNREGISTER, .id = id,
	};

	return vx_ioctl(self->fd, DRM_IOCTL_VORTEX_CODE_OBJECT, &co);
}

/* The next event must be CODE_LOADED of @id (@replayed) or CODE_UNLOADED. */
#define EXPECT_CODE_EVENT(type_, id_, replayed_) do {					struct drm_vortex_debug_event _e = { 0 };															ASSERT_EQ(0, dbg_event(self->sfd, 0, VX_LIVE_MS, &_e));			EXPECT_EQ(type_, _e.type);							EXPECT_EQ(id_, _e.data[0]);							EXPECT_EQ(0, _e.job);								if ((type_) == DRM_VORTEX_DEBUG_EVENT_CODE_LOADED) {					EXPECT_EQ(self->code_addr, _e.data[1]);					EXPECT_EQ(sizeof(prog_store), _e.data[2]);					EXPECT_EQ(self->code_addr, _e.data[3]);					EXPECT_EQ(CODE_SIZE, _e.data[4]);						EXPECT_EQ(replayed_, _e.data[5]);					}									} while (0)

/*
 * Issue 36, item 1: a debugger hears of its target's code objects: at
 * attach, those registered before (replayed, data[5] = 1), in order; then
 * each registration and unregistration as it happens; an object that came
 * and went while no session was attached, never.  A job then names its
 * object in LAUNCHED, after the CODE_LOADED.  Closing the target's file
 * ends the rest: CODE_UNLOADED for each.  Before this the driver had no
 * CODE_LOADED, CODE_UNLOADED or UNREGISTER: a debugger attached between
 * jobs learnt of no code object, and an object lived as long as its file.
 */
TEST_F_TIMEOUT(dbg, code_objects_replayed_at_attach_then_loaded_and_unloaded, 60)
{
	struct drm_vortex_debug_event ev;
	uint32_t gone, a, b, c;
	int32_t status = 1;

	gone = code_object_add(_metadata, self);
	EXPECT_EQ(0, code_object_del(self, gone));
	a = code_object_add(_metadata, self);
	b = code_object_add(_metadata, self);
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	EXPECT_CODE_EVENT(DRM_VORTEX_DEBUG_EVENT_CODE_LOADED, a, 1);
	EXPECT_CODE_EVENT(DRM_VORTEX_DEBUG_EVENT_CODE_LOADED, b, 1);
	EXPECT_EQ(-ETIME, dbg_event(self->sfd, 0, 0, &ev));
	c = code_object_add(_metadata, self);
	EXPECT_CODE_EVENT(DRM_VORTEX_DEBUG_EVENT_CODE_LOADED, c, 0);
	EXPECT_EQ(0, code_object_del(self, a));
	EXPECT_CODE_EVENT(DRM_VORTEX_DEBUG_EVENT_CODE_UNLOADED, a, 0);
	/* The job names the newest object holding its entry point. */
	vx_cmd(_vx_submit(self->fd, &self->sub));
	ASSERT_EQ(0, dbg_event(self->sfd, 0, VX_LIVE_MS, &ev));
	EXPECT_EQ(DRM_VORTEX_DEBUG_EVENT_LAUNCHED, ev.type);
	EXPECT_EQ(c, ev.data[7]);
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, VX_LIVE_MS * MS, &status));
	EXPECT_EQ(0, status);
	ASSERT_EQ(0, dbg_event(self->sfd, DRM_VORTEX_DEBUG_EVENT_FINISHED, VX_LIVE_MS, &ev));
	/* The target's file goes: its objects with it. */
	vx_client_close(&self->client);
	EXPECT_CODE_EVENT(DRM_VORTEX_DEBUG_EVENT_CODE_UNLOADED, b, 0);
	EXPECT_CODE_EVENT(DRM_VORTEX_DEBUG_EVENT_CODE_UNLOADED, c, 0);
	EXPECT_EQ(-ETIME, dbg_event(self->sfd, 0, 0, &ev));
}

/*
 * A WAIT after the FINISHED event finds the job done, also when the job
 * ends before gpu_sched has taken its fence from run_job, whose finished
 * fence (what WAIT waited on) signals only after that: ran_gate holds
 * run_job with the job on the card, the job ends there and the debugger
 * hears FINISHED; WAIT with its deadline already past must then report the
 * job's end, not -ETIME.  (The debug kernel's two vCPUs once hit this
 * window by chance in launch_and_finish_events_name_the_code_object.)
 */
TEST_F_TIMEOUT(dbg, wait_after_finished_finds_the_job_done, 60)
{
	struct drm_vortex_debug_event ev;
	int32_t status = 1;

	VX_NEED_GATES();
	load(self, prog_store, sizeof(prog_store));
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	ASSERT_TRUE(vx_gate_write("ran_gate", "arm"));
	vx_cmd(_vx_submit(self->fd, &self->sub));
	ASSERT_EQ(0, dbg_event(self->sfd, DRM_VORTEX_DEBUG_EVENT_FINISHED, VX_LIVE_MS, &ev));
	EXPECT_EQ(self->sub.seqno, ev.job);
	EXPECT_EQ(0, ev.data[0]);
	/* run_job is still held: the scheduler has not seen the fence. */
	EXPECT_TRUE(vx_gate_is("ran_gate", "waiting"));
	EXPECT_EQ(0, _vx_wait(self->fd, self->sub.seqno, 0, &status));
	EXPECT_EQ(0, status);
	ASSERT_TRUE(vx_gate_write("ran_gate", "open"));
	status = 1;
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, VX_LIVE_MS * MS, &status));
	EXPECT_EQ(0, status);
	for (uint32_t l = 0; l < self->threads; l++)
		EXPECT_EQ(100 + l, self->data_map[l]);	/* the setup's input word */
}

/* A full queue drops events, and says how many in an OVERFLOW event. */
TEST_F_TIMEOUT(dbg, full_event_queue_reports_overflow, 300)
{
	struct drm_vortex_debug_event ev, last = { 0 };
	uint64_t seqno = 0, dropped = 0, seen = 0;
	int32_t status;
	int i;

	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	/* Two events a job: 200 jobs queue 400 into a queue of 256. */
	for (i = 0; i < 200; i++) {
		vx_cmd(_vx_submit(self->fd, &self->sub));
		if (i % 100 == 99)
			vx_cmd(_vx_wait(self->fd, self->sub.seqno, 60 * SEC, &status));
	}
	usleep(200 * 1000);
	fcntl(self->sfd, F_SETFL, O_NONBLOCK);
	while (read(self->sfd, &ev, sizeof(ev)) == sizeof(ev)) {
		EXPECT_EQ(seqno + 1, ev.seqno);
		seqno = ev.seqno;
		if (ev.type == DRM_VORTEX_DEBUG_EVENT_OVERFLOW)
			dropped += ev.data[0];
		seen++;
		last = ev;
	}
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(256, seen);
	EXPECT_EQ(400 - 255, dropped);
	EXPECT_EQ(DRM_VORTEX_DEBUG_EVENT_OVERFLOW, last.type);
}

TEST_HARNESS_MAIN
