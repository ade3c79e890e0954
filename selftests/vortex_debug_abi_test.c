// SPDX-License-Identifier: GPL-2.0
/*
 * The session ABI's shape: the ioctl type of its own, short, longer and
 * unwritable structs, batch strides, longer entries, unknown flags,
 * output-only done counts, a BREAKPOINT batch stopping at its first
 * failing entry, refusals logged, and a fuzz of every session ioctl.
 */
#include "vortex_debug_fixture.h"

/* ------------------------------------------------- the session ABI */

/*
 * The ABI's shape (uapi/vortex_accel.h, "Session ioctl sizes"; the kernel's
 * Documentation/process/botching-up-ioctls.rst): each error path below has
 * its own errno and changes nothing.
 */

/* A session timeout through a struct of @size bytes, its tail @tail. */
static int dbg_timeout_sized(int sfd, unsigned int dir, size_t size, uint32_t ms,
			     uint8_t tail, uint32_t *old)
{
	uint8_t buf[64] = {};
	struct drm_vortex_debug_timeout *t = (void *)buf;
	int ret;

	t->timeout_ms = ms;
	if (size > sizeof(*t))
		buf[size - 1] = tail;
	ret = dbg_ioctl(sfd, _IOC(dir, DRM_VORTEX_DEBUG_IOCTL_BASE,
				  _IOC_NR(DRM_VORTEX_DEBUG_IOCTL_TIMEOUT), size), buf);
	if (old)
		*old = t->old_timeout_ms;
	return ret;
}

static uint32_t dbg_timeout_now(struct __test_metadata *_metadata, int sfd)
{
	struct drm_vortex_debug_timeout t = {};
	uint32_t now;

	vx_cmd(dbg_ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_TIMEOUT, &t));
	now = t.old_timeout_ms;
	t.timeout_ms = now;
	vx_cmd(dbg_ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_TIMEOUT, &t));
	return now;
}

/*
 * 'V' is V4L2's and linux/vt.h's: the session's ioctls are type 0xBA, and
 * a 'V' number is nobody's here.
 */
TEST_F(dbg, session_ioctl_type_is_its_own)
{
	static const unsigned long reqs[] = {
		DRM_VORTEX_DEBUG_IOCTL_DM, DRM_VORTEX_DEBUG_IOCTL_WARPS,
		DRM_VORTEX_DEBUG_IOCTL_STEP, DRM_VORTEX_DEBUG_IOCTL_STATUS,
		DRM_VORTEX_DEBUG_IOCTL_REGS, DRM_VORTEX_DEBUG_IOCTL_MEM,
		DRM_VORTEX_DEBUG_IOCTL_BREAKPOINT, DRM_VORTEX_DEBUG_IOCTL_COREDUMP,
		DRM_VORTEX_DEBUG_IOCTL_TIMEOUT,
	};
	struct drm_vortex_debug_timeout t = { .timeout_ms = 1234 };
	unsigned int i;

	for (i = 0; i < 9; i++)
		EXPECT_EQ(0xBA, _IOC_TYPE(reqs[i]));
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	EXPECT_EQ(-ENOTTY, dbg_ioctl(self->sfd, _IOWR('V', 0x08, t), &t));
	EXPECT_EQ(0, dbg_timeout_now(_metadata, self->sfd));
}

/* Shorter than the struct's first version: refused, nothing set. */
TEST_F(dbg, session_ioctl_err_short_struct)
{
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	EXPECT_EQ(-EINVAL, dbg_timeout_sized(self->sfd, _IOC_READ | _IOC_WRITE, 8,
					     1234, 0, NULL));
	EXPECT_EQ(-EINVAL, dbg_timeout_sized(self->sfd, _IOC_READ | _IOC_WRITE, 0,
					     1234, 0, NULL));
	/* The right size in the wrong direction is not the command. */
	EXPECT_EQ(-ENOTTY, dbg_timeout_sized(self->sfd, _IOC_WRITE, 16, 1234, 0, NULL));
	EXPECT_EQ(0, dbg_timeout_now(_metadata, self->sfd));
}

/* Newer userspace's longer struct: accepted with a zero tail, else -E2BIG. */
TEST_F(dbg, session_ioctl_longer_struct)
{
	uint32_t old = 99;

	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	EXPECT_EQ(-E2BIG, dbg_timeout_sized(self->sfd, _IOC_READ | _IOC_WRITE, 24,
					    1234, 1, NULL));
	EXPECT_EQ(0, dbg_timeout_now(_metadata, self->sfd));
	vx_cmd(dbg_timeout_sized(self->sfd, _IOC_READ | _IOC_WRITE, 24, 1234, 0, &old));
	EXPECT_EQ(0, old);
	EXPECT_EQ(1234, dbg_timeout_now(_metadata, self->sfd));
}

/*
 * A struct the caller cannot write back is refused before anything
 * happens: a MEM write from a read-only struct leaves memory alone.
 */
TEST_F(dbg, session_ioctl_err_unwritable_struct_changes_nothing)
{
	uint32_t word = 0xfeedf00d;
	struct drm_vortex_debug_mem_op op = {
		.addr = self->data_addr, .buf = (uintptr_t)&word, .len = 4,
		.flags = DRM_VORTEX_DEBUG_MEM_WRITE,
	};
	struct drm_vortex_debug_mem *m;

	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, m);
	*m = (struct drm_vortex_debug_mem){ .ops = (uintptr_t)&op, .count = 1,
		.stride = sizeof(op) };
	ASSERT_EQ(0, mprotect(m, 4096, PROT_READ));
	self->data_map[0] = 0x11111111;
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	EXPECT_EQ(-EFAULT, dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_MEM, m));
	EXPECT_EQ(0x11111111, self->data_map[0]);
	munmap(m, 4096);
}

/* Writes @n words of @vals at data + 4i through one MEM batch of @stride. */
static int dbg_mem_strided(int sfd, uint64_t addr, const uint32_t *vals, uint32_t n,
			   uint32_t stride, uint8_t tail, uint32_t *done)
{
	uint8_t ents[4 * 4096] = {};
	struct drm_vortex_debug_mem m = { .ops = (uintptr_t)ents, .count = n,
		.stride = stride, .done = 77 };
	uint32_t i;
	int ret;

	for (i = 0; i < n; i++) {
		struct drm_vortex_debug_mem_op op = {
			.addr = addr + 4 * i, .buf = (uintptr_t)&vals[i], .len = 4,
			.flags = DRM_VORTEX_DEBUG_MEM_WRITE,
		};

		memcpy(ents + (size_t)i * stride, &op,
		       stride < sizeof(op) ? stride : sizeof(op));
	}
	if (stride > sizeof(struct drm_vortex_debug_mem_op) && n)
		ents[(size_t)(n - 1) * stride + stride - 1] = tail;
	ret = dbg_ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_MEM, &m);
	*done = m.done;
	return ret;
}

/* Strides: too short, unaligned, too long are -EINVAL; nothing written. */
TEST_F(dbg, batch_err_bad_stride)
{
	static const uint32_t vals[2] = { 0xaaaa0001, 0xaaaa0002 };
	/* none, one word short, not a multiple of 8, past 4096: of each size */
#define BAD_STRIDE(i, size) \
	((uint32_t[]){ 0, (size) - 8, (size) + 4, 4096 + 8 }[i])
	struct drm_vortex_debug_reg_op rop = { .reg = T0, .lanes = { 1 } };
	struct drm_vortex_debug_regs r = { .ops = (uintptr_t)&rop, .count = 1 };
	struct drm_vortex_debug_bp_op bop = { .addr = self->code_addr };
	struct drm_vortex_debug_breakpoint b = { .ops = (uintptr_t)&bop, .count = 1 };
	uint32_t done, i;

	self->data_map[0] = self->data_map[1] = 0;
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(-EINVAL, dbg_mem_strided(self->sfd, self->data_addr, vals, 2,
						   BAD_STRIDE(i, sizeof(struct drm_vortex_debug_mem_op)),
						   0, &done)) TH_LOG("stride case %u", i);
		EXPECT_EQ(0, done);
		r.stride = BAD_STRIDE(i, sizeof(rop));
		EXPECT_EQ(-EINVAL, dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_REGS, &r));
		b.stride = BAD_STRIDE(i, sizeof(bop));
		EXPECT_EQ(-EINVAL, dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_BREAKPOINT, &b));
	}
#undef BAD_STRIDE
	EXPECT_EQ(0, self->data_map[0]);
	EXPECT_EQ(0, self->data_map[1]);
	EXPECT_EQ(prog_store[0], self->code_map[0]);	/* no breakpoint set */
}

/*
 * Entries longer than the kernel's (newer userspace) are read at their
 * stride; a non-zero byte past the known struct fails the whole batch
 * before any entry runs.
 */
TEST_F(dbg, batch_longer_entries)
{
	static const uint32_t vals[2] = { 0xbbbb0001, 0xbbbb0002 };
	const uint32_t stride = sizeof(struct drm_vortex_debug_mem_op) + 16;
	uint32_t done;

	self->data_map[0] = self->data_map[1] = 0;
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	EXPECT_EQ(-E2BIG, dbg_mem_strided(self->sfd, self->data_addr, vals, 2, stride,
					  1, &done));
	EXPECT_EQ(0, done);
	EXPECT_EQ(0, self->data_map[0]);	/* the first entry did not run either */
	EXPECT_EQ(0, self->data_map[1]);
	vx_cmd(dbg_mem_strided(self->sfd, self->data_addr, vals, 2, stride, 0, &done));
	EXPECT_EQ(2, done);
	EXPECT_EQ(0xbbbb0001, self->data_map[0]);
	EXPECT_EQ(0xbbbb0002, self->data_map[1]);
}

/* Unknown batch flags, and a breakpoint entry's flags and pad: -EINVAL. */
TEST_F(dbg, batch_err_unknown_flags)
{
	struct drm_vortex_debug_bp_op bop = { .addr = self->code_addr };
	struct drm_vortex_debug_breakpoint b = { .ops = (uintptr_t)&bop, .count = 1,
		.stride = sizeof(bop), .flags = 1 };

	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	EXPECT_EQ(-EINVAL, dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_BREAKPOINT, &b));
	b.flags = 0;
	bop.flags = 1;
	EXPECT_EQ(-EINVAL, dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_BREAKPOINT, &b));
	EXPECT_EQ(0, b.done);
	bop.flags = 0;
	bop.pad = 1;
	EXPECT_EQ(-EINVAL, dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_BREAKPOINT, &b));
	EXPECT_EQ(prog_store[0], self->code_map[0]);
	EXPECT_EQ(-ENOENT, dbg_bp(self->sfd, self->code_addr, DRM_VORTEX_DEBUG_BP_CLEAR));
}

/*
 * @done is output only: whatever it holds on entry, it comes back as the
 * number of entries done (it used to double as a must-be-zero input).
 */
TEST_F(dbg, batch_done_is_output_only)
{
	uint32_t word = 0;
	struct drm_vortex_debug_mem_op op = { .addr = self->data_addr,
		.buf = (uintptr_t)&word, .len = 4 };
	struct drm_vortex_debug_mem m = { .ops = (uintptr_t)&op, .count = 1,
		.stride = sizeof(op), .done = 7 };

	self->data_map[0] = 0x12345678;
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	vx_cmd(dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_MEM, &m));
	EXPECT_EQ(1, m.done);
	EXPECT_EQ(0x12345678, word);
}

/* Breakpoints come in batches: in order, stopping at the first failure. */
TEST_F(dbg, breakpoint_batch_stops_at_first_failing_entry)
{
	struct drm_vortex_debug_bp_op ops[3] = {
		{ .addr = self->code_addr, .op = DRM_VORTEX_DEBUG_BP_SET },
		{ .addr = self->code_addr + 4, .op = DRM_VORTEX_DEBUG_BP_SET },
		{ .addr = 0x1000, .op = DRM_VORTEX_DEBUG_BP_SET },	/* unmapped */
	};
	struct drm_vortex_debug_breakpoint b = { .ops = (uintptr_t)ops, .count = 3,
		.stride = sizeof(ops[0]), .done = 99 };

	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	EXPECT_EQ(-ENXIO, dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_BREAKPOINT, &b));
	EXPECT_EQ(2, b.done);
	EXPECT_EQ(EBREAK, self->code_map[0]);
	EXPECT_EQ(EBREAK, self->code_map[1]);
	ops[0].op = ops[1].op = DRM_VORTEX_DEBUG_BP_CLEAR;
	b.count = 2;
	vx_cmd(dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_BREAKPOINT, &b));
	EXPECT_EQ(2, b.done);
	EXPECT_EQ(prog_store[0], self->code_map[0]);
	EXPECT_EQ(prog_store[1], self->code_map[1]);
}

/* Whether the kernel log holds @what (the whole ring, as klogctl gives it). */
static bool dbg_log_has(const char *what)
{
	int n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *log = n > 0 ? calloc(1, n + 1) : NULL;
	bool found = log && klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, n) > 0 &&
		     strstr(log, what);

	free(log);
	return found;
}

/* With drm.debug's DRIVER category on, a refused call says why. */
TEST_F(dbg, session_refusals_are_logged)
{
	const char *param = "/sys/module/drm/parameters/debug";
	struct drm_vortex_debug_step st = { .count = 1, .flags = 0x5a5 };
	char old[32] = "0";
	int pfd = open(param, O_RDWR), n;

	if (pfd < 0)
		SKIP(return, "no %s", param);
	n = read(pfd, old, sizeof(old) - 1);
	old[n > 0 ? n : 0] = 0;
	ASSERT_EQ(3, pwrite(pfd, "0x2", 3, 0));
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	EXPECT_EQ(-EINVAL, dbg_ioctl(self->sfd, DRM_VORTEX_DEBUG_IOCTL_STEP, &st));
	EXPECT_EQ(-ENOTTY, dbg_ioctl(self->sfd, _IOWR(DRM_VORTEX_DEBUG_IOCTL_BASE, 0x3e,
						      int), &n));
	pwrite(pfd, old, strlen(old), 0);
	close(pfd);
	EXPECT_TRUE(dbg_log_has("debug session: STEP: flags 0x5a5 (-22)"));
	EXPECT_TRUE(dbg_log_has("debug session: unknown session ioctl 0xc004ba3e (-25)"));
}

/* ------------------------------------------------------------ fuzz */

/*
 * Random and boundary values into every session ioctl, with the target's
 * job halted so the deep paths run (fixed seed: a failure repeats).  Only
 * the answer's class is checked; the card must survive (the job is then
 * cancelled by closing the file, and a fresh job must run), and the
 * kernel log must stay clean (the run checks it).
 */
TEST_F_TIMEOUT(dbg, fuzz_session_ioctls, 300)
{
	static const unsigned long reqs[] = {
		DRM_VORTEX_DEBUG_IOCTL_WARPS, DRM_VORTEX_DEBUG_IOCTL_STEP,
		DRM_VORTEX_DEBUG_IOCTL_STATUS, DRM_VORTEX_DEBUG_IOCTL_REGS,
		DRM_VORTEX_DEBUG_IOCTL_MEM, DRM_VORTEX_DEBUG_IOCTL_BREAKPOINT,
		DRM_VORTEX_DEBUG_IOCTL_COREDUMP,
	};
	static const uint32_t edges[] = { 0, 1, 2, 3, 4, 31, 32, 33, 127, 128,
		0x3f, 0x40, 0xfff, 0x1000, 0x1fff, 0x2000, 65536, 0x7fffffff,
		0x80000000, 0xfffffffe, 0xffffffff };
	uint8_t arg[64], buf[4096];
	unsigned int seed = 0xdeb9, i, j;
	int ret, fd2;
	int32_t status;

	HALTED_SESSION();
	for (i = 0; i < 4000; i++) {
		unsigned long req = reqs[i % 7];

		for (j = 0; j < sizeof(arg); j += 4) {
			uint32_t v = rand_r(&seed) & 1 ? edges[rand_r(&seed) % 21]
						       : (uint32_t)rand_r(&seed);
			memcpy(arg + j, &v, 4);
		}
		/* Pointers at a real buffer half the time. */
		if (rand_r(&seed) & 1) {
			uint64_t p = (uintptr_t)buf;

			memcpy(arg, &p, 8);
		}
		/* Memory writes only into this test's data buffer. */
		if (req == DRM_VORTEX_DEBUG_IOCTL_MEM)
			memset(arg, 0, sizeof(arg));
		ret = dbg_ioctl(self->sfd, req, arg);
		ASSERT_TRUE(ret == 0 || ret == -EINVAL || ret == -ERANGE ||
			    ret == -E2BIG || ret == -EFAULT || ret == -EBUSY ||
			    ret == -ENXIO || ret == -EIO || ret == -EEXIST ||
			    ret == -ENOENT || ret == -ENOSPC || ret == -ESRCH ||
			    ret == -EOPNOTSUPP)
			TH_LOG("ioctl 0x%lx: %d", req, ret);
	}
	close(self->sfd);
	self->sfd = -1;
	/* The fuzzed job goes with its file; the card runs the next one. */
	close(self->fd);
	fd2 = open(VX_NODE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	self->fd = fd2;
	{
		uint32_t code, data, *c;
		uint64_t ca, da;
		struct drm_vortex_submit_bo bos[2];
		struct drm_vortex_submit s = self->sub;
		volatile uint32_t *d;

		vx_cmd(_vx_bo_create(fd2, CODE_SIZE, 0, &code, &ca));
		vx_cmd(_vx_bo_create(fd2, DATA_SIZE, 0, &data, &da));
		c = vx_bo_map(fd2, code, NULL);
		d = vx_bo_map(fd2, data, NULL);
		ASSERT_NE(NULL, c);
		ASSERT_NE(NULL, d);
		memcpy(c, prog_store, sizeof(prog_store));
		d[IN_OFF / 4] = 9;
		bos[0] = (struct drm_vortex_submit_bo){ code, DRM_VORTEX_SUBMIT_BO_READ };
		bos[1] = (struct drm_vortex_submit_bo){ data, DRM_VORTEX_SUBMIT_BO_WRITE };
		s.entry_pc = ca;
		s.arg_addr = da;
		s.bos = (uintptr_t)bos;
		vx_cmd(_vx_submit(fd2, &s));
		vx_cmd(_vx_wait(fd2, s.seqno, VX_LIVE_MS * MS, &status));
		EXPECT_EQ(0, status);
		EXPECT_EQ(9, d[0]);
	}
}

TEST_HARNESS_MAIN
