/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a guest test reaches of vortex.ko besides its ioctls: the module's
 * parameters (/sys/module/vortex/parameters), the card's debugfs files
 * and the test gates there (driver/vortex_gate.c), and the hang helpers
 * built on them.  No ioctl and no libvortex: both vortex_test_ioctl.h's
 * suites and libvortex's (vortex_run_test) include it.
 */
#ifndef VORTEX_TEST_HOOKS_H
#define VORTEX_TEST_HOOKS_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MS		1000000ll
#define SEC		1000000000ll

static inline int64_t vx_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * SEC + ts.tv_nsec;
}

/*
 * How long a test waits for what must happen (a job starting, a gate
 * reached): a bound on the card's and the driver's progress, not on their
 * speed.  Far beyond the slowest boot's needs (the debug kernel beside
 * other boots on two CPUs); a test that needs it shorter measures speed.
 */
#define VX_LIVE_MS	60000

/* Polls @cond for up to @ms milliseconds; true once it holds. */
#define vx_poll_ms(cond, ms) ({						\
	int64_t __end = vx_now() + (int64_t)(ms) * MS;			\
	int __ok;							\
	while (!(__ok = !!(cond)) && vx_now() < __end)			\
		usleep(1000);						\
	__ok;								\
})

/*
 * Sets vortex.ko's module parameter @name (root, /sys/module); returns its
 * old value, or -1 if there is no such parameter.
 */
static inline long vx_param_set(const char *name, long value)
{
	char path[128], buf[32];
	long old = -1;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/module/vortex/parameters/%s", name);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = 0;
		old = strtol(buf, NULL, 0);
	}
	n = snprintf(buf, sizeof(buf), "%ld", value);
	if (pwrite(fd, buf, n, 0) != n)
		old = -1;
	close(fd);
	return old;
}

/*
 * Opens the card's debugfs file @name: the directory is named after the
 * card's PCI device, /sys/kernel/debug/accel/<pci name>/.
 */
static inline int vx_debugfs_open(const char *name, int flags)
{
	char link[256], path[400], *pci;
	ssize_t n;

	n = readlink("/sys/class/accel/accel0/device", link, sizeof(link) - 1);
	if (n < 0)
		return -1;
	link[n] = 0;
	pci = strrchr(link, '/');
	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/%s",
		 pci ? pci + 1 : link, name);
	return open(path, flags | O_CLOEXEC);
}

/* Reads the card's debugfs file @name into @buf, NUL-terminated. */
static inline bool vx_debugfs_read(const char *name, char *buf, size_t size)
{
	int fd = vx_debugfs_open(name, O_RDONLY);
	ssize_t n = -1;

	if (fd >= 0) {
		n = read(fd, buf, size - 1);
		close(fd);
	}
	if (n < 0)
		return false;
	buf[n] = 0;
	return true;
}

/*
 * The number a one-number debugfs file of the card holds (fast_jobs,
 * dumps_dropped), or @missing.
 */
static inline long long vx_debugfs_value(const char *name, long long missing)
{
	char buf[32];

	return vx_debugfs_read(name, buf, sizeof(buf)) && *buf ? atoll(buf) : missing;
}

/*
 * The number on the line "@key: N" of the card's debugfs file @name
 * (last_dump, jobs: driver/vortex_debugfs.c), or @missing.
 */
static inline long long vx_debugfs_num(const char *name, const char *key,
				       long long missing)
{
	char buf[1024];
	size_t len = strlen(key);

	if (!vx_debugfs_read(name, buf, sizeof(buf)))
		return missing;
	for (char *p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, len) && p[len] == ':')
			return atoll(p + len + 1);
	return missing;
}

/*
 * A test gate of the driver (driver/vortex_debugfs.c: recover_gate,
 * run_gate, ran_gate, pop_gate, release_gate, hang_gate): writes @cmd ("arm",
 * "open") to it; true if written.
 */
static inline bool vx_gate_write(const char *gate, const char *cmd)
{
	int fd = vx_debugfs_open(gate, O_WRONLY);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, cmd, strlen(cmd)) == (ssize_t)strlen(cmd);
	close(fd);
	return ok;
}

/*
 * A fresh window of the driver's rate limit on its failure lines (10 per
 * 5 s, the kernel's DEFAULT_RATELIMIT_*), for a test that reads its own
 * lines in the log: debugfs fail_log's reset, in a build with the test
 * hooks; without them, by waiting the window out.
 */
static inline void vx_fail_log_fresh(void)
{
	if (!vx_gate_write("fail_log", "reset"))
		usleep(5500 * 1000);
}

/*
 * The gates exist only in a vortex.ko built with CONFIG_DRM_ACCEL_VORTEX_DEBUG
 * (docs/driver.md, "Test hooks"), which the project's guest builds have and
 * `make install`'s has not: true if the card's debugfs directory is there
 * without them.  (No debugfs at all is not that: the gate helpers then
 * fail, as they always did.)
 */
static inline bool vx_gates_missing(void)
{
	int fd = vx_debugfs_open("fast_jobs", O_RDONLY);

	if (fd < 0)
		return false;
	close(fd);
	fd = vx_debugfs_open("hang_gate", O_RDONLY);
	if (fd >= 0)
		close(fd);
	return fd < 0 && errno == ENOENT;
}

/* First in a test that arms a gate, or hangs a job (vx_hang_begin()). */
#define VX_NEED_GATES()							\
	do {								\
		if (vx_gates_missing())					\
			SKIP(return, "vortex.ko without CONFIG_DRM_ACCEL_VORTEX_DEBUG: no test gates in debugfs"); \
	} while (0)

/* Whether @gate reads @state ("off", "armed", "waiting"). */
static inline bool vx_gate_is(const char *gate, const char *state)
{
	char buf[16];

	return vx_debugfs_read(gate, buf, sizeof(buf)) && *buf &&
	       !strncmp(buf, state, strlen(state));
}

/*
 * Hangs in milliseconds (issue 34, item 4).  A test whose job hangs, but
 * which is not about the default job_timeout_ms (2 s; only
 * vx.hang_times_out_then_next_job_runs is), lowers it for the hang:
 *
 *	vx_hang_begin(&self->old_timeout_ms, VX_HANG_MS);  before the submit
 *	...the hanging job, and nothing that must end in time...
 *	vx_hang_declared(&self->old_timeout_ms);           before the WAIT
 *	vx_hang_restore(&self->old_timeout_ms);            in the teardown
 *
 * The driver's hang_gate holds the timeout once it is found due, before
 * recovery: vx_hang_declared() puts the old value back there, then lets
 * recovery go on.  So the dump's copy budget (half the timeout in force)
 * and every job after the hang are measured against the default, and
 * however slow the guest, only the hanging job ever runs under the
 * lowered limit.  A job that must reach its loop before the timeout (a
 * dump that checks the registers it set first) takes VX_HANG_PREFIX_MS:
 * the card must only get a little CPU in that time.
 */
#define VX_HANG_MS		20
#define VX_HANG_PREFIX_MS	250

/*
 * Puts job_timeout_ms back if a test lowered it (or raised it: *@old holds
 * the value before) and opens hang_gate if armed; idempotent, for
 * teardowns.  (Opening flushes the reset workqueue: not while another
 * gate holds a recovery there.)
 */
static inline void vx_hang_restore(long *old)
{
	if (*old > 0)
		vx_param_set("job_timeout_ms", *old);
	*old = 0;
	if (!vx_gate_is("hang_gate", "off"))
		vx_gate_write("hang_gate", "open");
}

/*
 * Sets job_timeout_ms to @ms; *@old keeps the value from before the first
 * change, for vx_hang_restore().  False if it cannot.
 */
static inline bool vx_timeout_set(long *old, long ms)
{
	long was = vx_param_set("job_timeout_ms", ms);

	if (*old <= 0)
		*old = was;
	return was > 0;
}

/* vx_timeout_set() to @ms, with hang_gate armed for vx_hang_declared(). */
static inline bool vx_hang_begin(long *old, long ms)
{
	return vx_gate_write("hang_gate", "arm") && vx_timeout_set(old, ms);
}

/*
 * Waits for the hang's timeout to reach hang_gate (VX_LIVE_MS at most),
 * puts the old job_timeout_ms back and lets recovery go on; returns once
 * recovery has finished.  False if no timeout came.
 */
static inline bool vx_hang_declared(long *old)
{
	bool held = vx_poll_ms(vx_gate_is("hang_gate", "waiting"), VX_LIVE_MS);

	vx_hang_restore(old);
	return held;
}

#endif /* VORTEX_TEST_HOOKS_H */
