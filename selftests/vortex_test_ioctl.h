/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver's ioctls as plain ioctl() calls, for the guest tests that
 * must see exactly what the kernel returns (no libdrm, no libvortex).
 * Each returns 0 or -errno.
 */
#ifndef VORTEX_TEST_IOCTL_H
#define VORTEX_TEST_IOCTL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "vortex_accel.h"
#include "vortex_test_hooks.h"

/* For the suites' fixture headers: a helper not every suite calls. */
#ifndef __maybe_unused
#define __maybe_unused	__attribute__((unused))
#endif

#define VX_NODE		"/dev/accel/accel0"
/* Returns 0 or -errno; restarts on EINTR/EAGAIN like drmIoctl(). */
static inline int vx_ioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret == -1 ? -errno : 0;
}

/* Busy-waits @us microseconds: race windows, where sleeps are too coarse. */
static inline void vx_spin_us(uint64_t us)
{
	int64_t end = vx_now() + (int64_t)us * 1000;

	while (vx_now() < end)
		;
}

/* Steps the 64-bit LCG @rng (Knuth's MMIX constants); its new state. */
static inline uint64_t vx_lcg(uint64_t *rng)
{
	return *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
}

static inline int _vx_get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_vortex_get_param gp = { .param = param };
	int ret = vx_ioctl(fd, DRM_IOCTL_VORTEX_GET_PARAM, &gp);

	if (!ret && value)
		*value = gp.value;
	return ret;
}

static inline int _vx_bo_create(int fd, uint64_t size, uint32_t flags,
				uint32_t *handle, uint64_t *dev_addr)
{
	struct drm_vortex_bo_create c = { .size = size, .flags = flags };
	int ret = vx_ioctl(fd, DRM_IOCTL_VORTEX_BO_CREATE, &c);

	if (!ret) {
		*handle = c.handle;
		if (dev_addr)
			*dev_addr = c.dev_addr;
	}
	return ret;
}

static inline int _vx_bo_close(int fd, uint32_t handle)
{
	struct drm_gem_close gc = { .handle = handle };

	return vx_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc);
}

/* Maps a whole buffer; NULL on failure. */
static inline void *vx_bo_map(int fd, uint32_t handle, uint64_t *size)
{
	struct drm_vortex_bo_info info = { .handle = handle };
	void *p;

	if (vx_ioctl(fd, DRM_IOCTL_VORTEX_BO_INFO, &info))
		return NULL;
	p = mmap(NULL, info.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 info.mmap_offset);
	if (p == MAP_FAILED)
		return NULL;
	if (size)
		*size = info.size;
	return p;
}

/*
 * @s launches one block of @threads threads at @entry with argument @arg
 * and the @n buffers at @bos; every other field is zero.
 */
static inline void vx_submit_init(struct drm_vortex_submit *s, uint64_t entry,
				  uint64_t arg, uint32_t threads,
				  struct drm_vortex_submit_bo *bos, uint32_t n)
{
	memset(s, 0, sizeof(*s));
	s->entry_pc = entry;
	s->arg_addr = arg;
	s->grid[0] = s->grid[1] = s->grid[2] = 1;
	s->block[0] = threads;
	s->block[1] = s->block[2] = 1;
	s->bos = (uintptr_t)bos;
	s->bo_count = n;
	s->bo_stride = sizeof(*bos);
}

static inline int _vx_submit(int fd, struct drm_vortex_submit *s)
{
	return vx_ioctl(fd, DRM_IOCTL_VORTEX_SUBMIT, s);
}

/* DRM_IOCTL_VORTEX_VM_BIND: @op of [@va, @va + @range), from @handle's @offset. */
static inline int _vx_vm_bind(int fd, uint32_t op, uint32_t handle,
			      uint64_t offset, uint64_t va, uint64_t range,
			      uint32_t flags)
{
	struct drm_vortex_vm_bind b = {
		.op = op, .flags = flags, .handle = handle,
		.bo_offset = offset, .va = va, .range = range,
	};

	return vx_ioctl(fd, DRM_IOCTL_VORTEX_VM_BIND, &b);
}

/* Waits up to @rel_ns from now; 0 polls. */
static inline int _vx_wait(int fd, uint64_t seqno, int64_t rel_ns, int32_t *status)
{
	struct drm_vortex_wait w = {
		.seqno = seqno,
		.timeout_ns = rel_ns ? vx_now() + rel_ns : 0,
	};
	int ret = vx_ioctl(fd, DRM_IOCTL_VORTEX_WAIT, &w);

	if (!ret && status)
		*status = w.status;
	return ret;
}

/*
 * Crash dumps (/sys/class/devcoredump/devcdN/data).  The card keeps one
 * dump while it is unread and drops later ones, so a test that reads the
 * dump of its own failure discards any earlier one first.
 */
#define VX_DEVCD	"/sys/class/devcoredump"

/* Calls @fn with the data file of every dump; the number of dumps. */
static inline int vx_dump_each(void (*fn)(const char *data, void *ctx), void *ctx)
{
	DIR *d = opendir(VX_DEVCD);
	struct dirent *e;
	char path[300];
	int n = 0;

	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "devcd", 5))
			continue;
		snprintf(path, sizeof(path), VX_DEVCD "/%s/data", e->d_name);
		if (fn)
			fn(path, ctx);
		n++;
	}
	if (d)
		closedir(d);
	return n;
}

static inline void vx_dump_discard_one(const char *data, void *ctx)
{
	int fd = open(data, O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, "1", 1) != 1)
			perror("discard dump");
		close(fd);
	}
}

/* Discards every dump; devcoredump deletes from a work item: 5 s at most. */
static inline void vx_dump_discard(void)
{
	vx_dump_each(vx_dump_discard_one, NULL);
	for (int i = 0; i < 500 && vx_dump_each(NULL, NULL); i++)
		usleep(10000);
}

static inline void vx_dump_slurp(const char *data, void *ctx)
{
	char **text = ctx;
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap + 1);
	int fd = open(data, O_RDONLY | O_CLOEXEC);
	ssize_t n = 0;

	while (buf && fd >= 0 && (n = read(fd, buf + len, cap - len)) > 0) {
		len += n;
		if (len == cap)
			buf = realloc(buf, (cap *= 2) + 1);
	}
	if (fd >= 0)
		close(fd);
	if (buf)
		buf[len] = 0;
	free(*text);
	*text = buf;
}

/*
 * A copy of each dump a test reads, for the host: with vxtest.keep_dumps=1
 * on the guest's command line, scripts/guest/init makes this directory and
 * sends what is in it to the host after the tests (results.log, each dump
 * between "@@vx-dump NAME" and "@@vx-dump-end"), where
 * scripts/cuda-gdb-lane.sh opens them with cuda-gdb.
 */
#define VX_DUMP_KEEP_DIR	"/tmp/vx-dumps"

static inline void vx_dump_keep(const char *text, size_t len)
{
	static int n;
	char path[300];
	FILE *f;

	if (access(VX_DUMP_KEEP_DIR, W_OK))
		return;
	/* The harness runs each test in a child of its own: the pid tells them apart. */
	snprintf(path, sizeof(path), VX_DUMP_KEEP_DIR "/%s-%d-%d.devcd",
		 program_invocation_short_name, (int)getpid(), n++);
	f = fopen(path, "w");
	if (!f)
		return;
	fwrite(text, 1, len, f);
	fclose(f);
}

/*
 * The text of the one dump there is, waiting up to @ms for it to be
 * published; NULL if none came (or several are there).  Free it.
 */
static inline void vx_dump_ready_one(const char *data, void *ctx)
{
	if (!access(data, R_OK))
		++*(int *)ctx;
}

/*
 * Dumps whose data file is there.  devcoredump's device enters
 * /sys/class/devcoredump (device_add_class_symlinks()) before its data
 * file is made (device_add_attrs(), drivers/base/core.c: device_add()),
 * and the driver publishes a dump after the failed job's fence: a reader
 * that lists the class right after its WAIT can see the dump half made.
 */
static inline int vx_dump_ready(void)
{
	int n = 0;

	vx_dump_each(vx_dump_ready_one, &n);
	return n;
}

static inline char *vx_dump_read(int ms)
{
	char *text = NULL;
	int n;

	while ((n = vx_dump_ready()) == 0 && ms-- > 0)
		usleep(1000);
	if (n == 1)
		vx_dump_each(vx_dump_slurp, &text);
	if (text)
		vx_dump_keep(text, strlen(text));
	return text;
}

/*
 * The number after "<key>: " in the section "\n<section>:\n" of a dump
 * (the first such key after the header), or ~0ull.
 */
static inline unsigned long long vx_dump_num(const char *text,
					     const char *section, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\n%s:\n", section);
	p = text ? strstr(text, pat) : NULL;
	snprintf(pat, sizeof(pat), " %s: ", key);
	p = p ? strstr(p, pat) : NULL;
	return p ? strtoull(p + strlen(pat), NULL, 0) : ~0ull;
}

/* For kselftest_harness.h tests: the call must succeed / fail with errnum. */
#define vx_cmd(expr)		ASSERT_EQ(0, (expr))
#define vx_err(errnum, expr)	ASSERT_EQ(-(errnum), (expr))

#endif /* VORTEX_TEST_IOCTL_H */
