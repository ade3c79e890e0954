// SPDX-License-Identifier: GPL-2.0
/*
 * Loading vortex.ko with module parameters: a job_timeout_ms outside
 * 10..60000 refuses the load itself (-EINVAL), rather than loading a
 * module whose device never binds; values at the bounds load and bind.
 * debug=0 loads a card that refuses debuggers (-EOPNOTSUPP, no cap bit).
 *
 * Unloads and reloads the module, so it runs when no other test has the
 * device open, and always leaves vortex.ko loaded with its defaults.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vortex_accel.h"
#include "vortex_test_ioctl.h"
#include "vx_asm.h"
#include "kselftest_harness.h"

#define MODULE_PATH	"/lib/modules/vortex.ko"

static int module_load(const char *params)
{
	int fd = open(MODULE_PATH, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

static int module_unload(void)
{
	return syscall(SYS_delete_module, "vortex", O_NONBLOCK) ? -errno : 0;
}

static bool module_loaded(void)
{
	return access("/sys/module/vortex", F_OK) == 0;
}

/* The device node appears once the driver has bound the card. */
static bool node_appears(void)
{
	int64_t end = vx_now() + VX_LIVE_MS * MS;

	while (access(VX_NODE, F_OK) && vx_now() < end)
		usleep(10000);
	return access(VX_NODE, F_OK) == 0;
}

static int get_param(uint32_t param, uint64_t *value)
{
	int fd = open(VX_NODE, O_RDWR | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = _vx_get_param(fd, param, value);
	close(fd);
	return ret;
}

/* What DEBUG_ATTACH answers on a fresh file (0 if it attached). */
static int try_attach(void)
{
	struct drm_vortex_debug_attach a = { .version = DRM_VORTEX_DEBUG_VERSION };
	int fd = open(VX_NODE, O_RDWR | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = vx_ioctl(fd, DRM_IOCTL_VORTEX_DEBUG_ATTACH, &a);
	if (!ret)
		close(a.fd);
	close(fd);
	return ret;
}

FIXTURE(mod) {
	int unused;
};

FIXTURE_VARIANT(mod) {
	const char *params;
	int expect;		/* what finit_module returns */
	uint64_t timeout_ms;	/* in force when it loads */
	bool no_debug;		/* debuggers refused */
};

FIXTURE_VARIANT_ADD(mod, timeout_zero) { .params = "job_timeout_ms=0", .expect = -EINVAL };
FIXTURE_VARIANT_ADD(mod, timeout_below_min) { .params = "job_timeout_ms=9", .expect = -EINVAL };
FIXTURE_VARIANT_ADD(mod, timeout_above_max) { .params = "job_timeout_ms=60001", .expect = -EINVAL };
FIXTURE_VARIANT_ADD(mod, timeout_u32_max) { .params = "job_timeout_ms=4294967295", .expect = -EINVAL };
FIXTURE_VARIANT_ADD(mod, timeout_negative) { .params = "job_timeout_ms=-1", .expect = -EINVAL };
FIXTURE_VARIANT_ADD(mod, timeout_not_a_number) { .params = "job_timeout_ms=soon", .expect = -EINVAL };
FIXTURE_VARIANT_ADD(mod, timeout_min) { .params = "job_timeout_ms=10", .timeout_ms = 10 };
FIXTURE_VARIANT_ADD(mod, timeout_max) { .params = "job_timeout_ms=60000", .timeout_ms = 60000 };
FIXTURE_VARIANT_ADD(mod, timeout_default) { .params = "", .timeout_ms = 2000 };
FIXTURE_VARIANT_ADD(mod, debug_disabled) {
	.params = "debug=0", .timeout_ms = 2000, .no_debug = true };
FIXTURE_VARIANT_ADD(mod, debug_not_a_bool) { .params = "debug=maybe", .expect = -EINVAL };

FIXTURE_SETUP(mod)
{
	int ret = module_unload();

	ASSERT_TRUE(ret == 0 || ret == -ENOENT)
		TH_LOG("vortex.ko still in use: %s", strerror(-ret));
	ASSERT_FALSE(module_loaded());
}

/* Whatever happened, vortex.ko is loaded with its defaults afterwards. */
FIXTURE_TEARDOWN(mod)
{
	if (module_loaded())
		module_unload();
	module_load("");
	node_appears();
}

TEST_F(mod, load)
{
	uint64_t ms = 0;

	ASSERT_EQ(variant->expect, module_load(variant->params));
	if (variant->expect) {
		EXPECT_FALSE(module_loaded());
		EXPECT_NE(0, access(VX_NODE, F_OK));
		return;
	}
	ASSERT_TRUE(node_appears()) TH_LOG("loaded, but the card did not bind");
	ASSERT_EQ(0, get_param(DRM_VORTEX_PARAM_JOB_TIMEOUT_MS, &ms));
	EXPECT_EQ(variant->timeout_ms, ms);
	ASSERT_EQ(0, get_param(DRM_VORTEX_PARAM_CAPABILITIES, &ms));
	EXPECT_EQ(!variant->no_debug, !!(ms & DRM_VORTEX_CAP_DEBUG));
	EXPECT_EQ(variant->no_debug ? -EOPNOTSUPP : 0, try_attach());
}

static int count_dumps(void)
{
	DIR *d = opendir("/sys/class/devcoredump");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += !strncmp(e->d_name, "devcd", 5);
	if (d)
		closedir(d);
	return n;
}

/*
 * Unloading with an unread crash dump: the dump goes with the card, and
 * the module unloads (devcoredump does not pin it).  The run's kernel log
 * check sees any Oops.  (It counted the dumps as soon as WAIT returned,
 * which the dump's worker may not have reached yet: 0 dumps once, in a
 * fresh clone's make check at 2671b2a, on the 1,1,2,32 card.)
 */
TEST(unload_with_a_dump_pending)
{
	struct drm_vortex_submit_bo bo = { 0 };
	struct drm_vortex_submit sub;
	uint64_t addr;
	uint32_t *code;
	int32_t status = 0;
	int fd = open(VX_NODE, O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, fd);
	vx_cmd(_vx_bo_create(fd, 4096, 0, &bo.handle, &addr));
	code = vx_bo_map(fd, bo.handle, NULL);
	ASSERT_NE(NULL, code);
	code[0] = ILLEGAL;
	munmap(code, 4096);
	vx_submit_init(&sub, addr, 0, 1, &bo, 1);
	vx_cmd(_vx_submit(fd, &sub));
	vx_cmd(_vx_wait(fd, sub.seqno, 30 * SEC, &status));
	EXPECT_EQ(-EIO, status);
	close(fd);
	/*
	 * The dump's worker publishes it after the job's fence
	 * (docs/driver.md): WAIT may return before the dump is there.
	 */
	ASSERT_TRUE(vx_poll_ms(vx_dump_ready() == 1, VX_LIVE_MS))
		TH_LOG("%d dumps", count_dumps());
	ASSERT_EQ(1, count_dumps());

	ASSERT_EQ(0, module_unload());
	EXPECT_EQ(0, count_dumps());
	ASSERT_EQ(0, module_load(""));
	EXPECT_TRUE(node_appears());
}

#define KILL_FILES	20

/*
 * The victim of kill_with_queued_jobs_then_rmmod: KILL_FILES files, the
 * first one with a job that loops forever, and every one with as many
 * jobs as a file may have, all queued behind that one.  Says 'r' on @ready once all is
 * submitted, then waits to be killed.
 */
static void queue_and_wait(int ready, uint64_t per_file)
{
	static const uint32_t prog_hang[] = { JSELF };
	static const uint32_t prog_exit[] = { TMC(0) };
	struct drm_vortex_submit_bo bo = { 0, DRM_VORTEX_SUBMIT_BO_READ };
	struct drm_vortex_submit sub;
	uint64_t addr;
	uint32_t *code;
	int f, fd;

	for (f = 0; f < KILL_FILES; f++) {
		uint64_t j;

		fd = open(VX_NODE, O_RDWR);
		if (fd < 0 || _vx_bo_create(fd, 4096, 0, &bo.handle, &addr))
			_exit(1);
		code = vx_bo_map(fd, bo.handle, NULL);
		if (!code)
			_exit(2);
		memcpy(code, prog_hang, sizeof(prog_hang));
		memcpy(code + 4, prog_exit, sizeof(prog_exit));
		munmap(code, 4096);
		vx_submit_init(&sub, f ? addr + 16 : addr, 0, 1, &bo, 1);
		for (j = 0; j < per_file; j++) {
			if (_vx_submit(fd, &sub))
				_exit(3);
			sub.entry_pc = addr + 16;	/* behind the hang: ends at once */
		}
	}
	if (write(ready, "r", 1) != 1)
		_exit(4);
	pause();
	_exit(0);
}

/*
 * Issue 22, item 2: a client with a hung job and KILL_FILES x (jobs in
 * flight) queued jobs is killed, and rmmod is retried until it succeeds.
 * The queued jobs end through gpu_sched's kill work, which calls the
 * driver's free_job; before the fix the module could be gone by then
 * ("unable to handle page fault ... instruction fetch" in
 * drm_sched_entity_kill_jobs_work within 40 ms), and the DRM device was
 * never released, so the reloaded card came back as accel1.  Now unbind
 * waits for every job, and the card comes back as accel0 and works.
 */
TEST(kill_with_queued_jobs_then_rmmod)
{
	struct drm_vortex_submit_bo bo = { 0 };
	struct drm_vortex_submit sub;
	uint64_t per_file = 0, addr;
	int p[2], ret, tries = 0;
	int32_t status = 1;
	uint32_t *code;
	char c;
	pid_t pid;
	int fd;

	ASSERT_EQ(0, get_param(DRM_VORTEX_PARAM_MAX_JOBS_IN_FLIGHT, &per_file));
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(p[0]);
		queue_and_wait(p[1], per_file);
	}
	close(p[1]);
	ASSERT_EQ(1, read(p[0], &c, 1)) TH_LOG("the victim could not queue its jobs");
	close(p[0]);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	do {
		ret = module_unload();
	} while ((ret == -EBUSY || ret == -EAGAIN) && ++tries < 1000000);
	ASSERT_EQ(0, ret) TH_LOG("rmmod: %s", strerror(-ret));
	ASSERT_FALSE(module_loaded());

	ASSERT_EQ(0, module_load(""));
	ASSERT_TRUE(node_appears()) TH_LOG("the card did not come back as accel0");
	EXPECT_NE(0, access("/dev/accel/accel1", F_OK));
	fd = open(VX_NODE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	vx_cmd(_vx_bo_create(fd, 4096, 0, &bo.handle, &addr));
	code = vx_bo_map(fd, bo.handle, NULL);
	ASSERT_NE(NULL, code);
	code[0] = TMC(0);
	munmap(code, 4096);
	vx_submit_init(&sub, addr, 0, 1, &bo, 1);
	vx_cmd(_vx_submit(fd, &sub));
	vx_cmd(_vx_wait(fd, sub.seqno, VX_LIVE_MS * MS, &status));
	EXPECT_EQ(0, status);
	close(fd);
}

TEST_HARNESS_MAIN
