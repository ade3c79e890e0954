// SPDX-License-Identifier: GPL-2.0
/*
 * The DRM core ioctls on the accel node: the ones that make no sense
 * there (authentication, master, flink, modesetting) are refused with
 * -EOPNOTSUPP before DRM sees them (on 6.12, GET_MAGIC and GET_UNIQUE
 * Oops on an accel file), the syncobj array ioctls refuse more than 1024
 * handles with -EINVAL (0xffffffff used to reach the page allocator's
 * WARN), and the core ioctls the runtime needs keep working.
 *
 * A test per ioctl: each refused ioctl is a variant of its own.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "vortex_accel.h"
#include "vortex_test_ioctl.h"
#include "kselftest_harness.h"

#define MAX_HANDLES	1024

/* An argument big enough for any core ioctl, zeroed. */
union core_arg {
	struct drm_unique unique;
	struct drm_auth auth;
	struct drm_client client;
	struct drm_stats stats;
	struct drm_set_version version;
	struct drm_gem_flink flink;
	struct drm_gem_open open;
	struct drm_set_client_cap cap;
	struct drm_mode_card_res res;
	struct drm_mode_create_dumb dumb;
	uint8_t bytes[256];
};

FIXTURE(core) {
	int fd;
};

FIXTURE_SETUP(core)
{
	self->fd = open(VX_NODE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(core)
{
	close(self->fd);
}

/* ----------------------------------------------- refused: -EOPNOTSUPP */

FIXTURE(refused) {
	int fd;
};

FIXTURE_VARIANT(refused) {
	unsigned long req;
};

#define REFUSED(name, request)						\
	FIXTURE_VARIANT_ADD(refused, name) { .req = request }

REFUSED(get_magic, DRM_IOCTL_GET_MAGIC);
REFUSED(get_unique, DRM_IOCTL_GET_UNIQUE);
REFUSED(auth_magic, DRM_IOCTL_AUTH_MAGIC);
REFUSED(get_client, DRM_IOCTL_GET_CLIENT);
REFUSED(get_stats, DRM_IOCTL_GET_STATS);
REFUSED(set_version, DRM_IOCTL_SET_VERSION);
REFUSED(set_unique, DRM_IOCTL_SET_UNIQUE);
REFUSED(set_master, DRM_IOCTL_SET_MASTER);
REFUSED(drop_master, DRM_IOCTL_DROP_MASTER);
REFUSED(set_client_cap, DRM_IOCTL_SET_CLIENT_CAP);
REFUSED(gem_flink, DRM_IOCTL_GEM_FLINK);
REFUSED(gem_open, DRM_IOCTL_GEM_OPEN);
REFUSED(mode_getresources, DRM_IOCTL_MODE_GETRESOURCES);
REFUSED(mode_create_dumb, DRM_IOCTL_MODE_CREATE_DUMB);
REFUSED(wait_vblank, DRM_IOCTL_WAIT_VBLANK);
REFUSED(crtc_get_sequence, DRM_IOCTL_CRTC_GET_SEQUENCE);

FIXTURE_SETUP(refused)
{
	self->fd = open(VX_NODE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(refused)
{
	close(self->fd);
}

TEST_F(refused, eopnotsupp)
{
	union core_arg arg;

	memset(&arg, 0, sizeof(arg));
	EXPECT_EQ(-EOPNOTSUPP, vx_ioctl(self->fd, variant->req, &arg));
	/* Nothing was written back. */
	EXPECT_EQ(0, memcmp(&arg, &(union core_arg){ 0 }, sizeof(arg)));
}

/* ------------------------------------ syncobj arrays: bounded counts */

/* Each array ioctl, with where its count and points sit in its struct. */
FIXTURE(syncobj_count) {
	int fd;
	uint32_t *handles;
	uint64_t *points;
};

FIXTURE_VARIANT(syncobj_count) {
	unsigned long req;
	size_t count_offset;
	size_t points_offset;	/* 0: no points array */
	int at_bound;		/* DRM's answer for MAX_HANDLES good handles */
};

FIXTURE_VARIANT_ADD(syncobj_count, wait) {
	.req = DRM_IOCTL_SYNCOBJ_WAIT,
	.count_offset = offsetof(struct drm_syncobj_wait, count_handles),
};
FIXTURE_VARIANT_ADD(syncobj_count, timeline_wait) {
	.req = DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT,
	.count_offset = offsetof(struct drm_syncobj_timeline_wait, count_handles),
	.points_offset = offsetof(struct drm_syncobj_timeline_wait, points),
	.at_bound = -EOPNOTSUPP,	/* no timeline syncobjs here */
};
FIXTURE_VARIANT_ADD(syncobj_count, reset) {
	.req = DRM_IOCTL_SYNCOBJ_RESET,
	.count_offset = offsetof(struct drm_syncobj_array, count_handles),
};
FIXTURE_VARIANT_ADD(syncobj_count, signal) {
	.req = DRM_IOCTL_SYNCOBJ_SIGNAL,
	.count_offset = offsetof(struct drm_syncobj_array, count_handles),
};
FIXTURE_VARIANT_ADD(syncobj_count, timeline_signal) {
	.req = DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
	.count_offset = offsetof(struct drm_syncobj_timeline_array, count_handles),
	.points_offset = offsetof(struct drm_syncobj_timeline_array, points),
	.at_bound = -EOPNOTSUPP,	/* no timeline syncobjs here */
};
FIXTURE_VARIANT_ADD(syncobj_count, query) {
	.req = DRM_IOCTL_SYNCOBJ_QUERY,
	.count_offset = offsetof(struct drm_syncobj_timeline_array, count_handles),
	.points_offset = offsetof(struct drm_syncobj_timeline_array, points),
	.at_bound = -EOPNOTSUPP,	/* no timeline syncobjs here */
};

FIXTURE_SETUP(syncobj_count)
{
	self->fd = open(VX_NODE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	self->handles = calloc(MAX_HANDLES + 1, sizeof(*self->handles));
	self->points = calloc(MAX_HANDLES + 1, sizeof(*self->points));
	ASSERT_NE(NULL, self->handles);
	ASSERT_NE(NULL, self->points);
}

FIXTURE_TEARDOWN(syncobj_count)
{
	free(self->handles);
	free(self->points);
	close(self->fd);
}

/* Calls the variant's ioctl on @count of the fixture's handles. */
static int syncobj_array_call(FIXTURE_DATA(syncobj_count) *self,
			      const FIXTURE_VARIANT(syncobj_count) *variant,
			      uint32_t count)
{
	union core_arg arg;
	uint64_t ptr;

	memset(&arg, 0, sizeof(arg));
	ptr = (uintptr_t)self->handles;
	memcpy(arg.bytes, &ptr, sizeof(ptr));		/* handles is first */
	if (variant->points_offset) {
		ptr = (uintptr_t)self->points;
		memcpy(arg.bytes + variant->points_offset, &ptr, sizeof(ptr));
	}
	memcpy(arg.bytes + variant->count_offset, &count, sizeof(count));
	return vx_ioctl(self->fd, variant->req, &arg);
}

TEST_F(syncobj_count, all_ones_is_einval)
{
	EXPECT_EQ(-EINVAL, syncobj_array_call(self, variant, 0xffffffffu));
}

TEST_F(syncobj_count, one_past_the_bound_is_einval)
{
	EXPECT_EQ(-EINVAL, syncobj_array_call(self, variant, MAX_HANDLES + 1));
}

/*
 * At the bound the call reaches DRM and gets DRM's own answer: success on
 * 1024 signalled binary syncobjs, or -EOPNOTSUPP from the timeline ioctls,
 * which DRM refuses on a driver without timeline syncobjs.
 */
TEST_F(syncobj_count, at_the_bound_reaches_drm)
{
	struct drm_syncobj_create create = { 0 };
	uint32_t i;
	int ret;

	for (i = 0; i < MAX_HANDLES; i++) {
		create.handle = 0;
		create.flags = DRM_SYNCOBJ_CREATE_SIGNALED;
		ASSERT_EQ(0, vx_ioctl(self->fd, DRM_IOCTL_SYNCOBJ_CREATE, &create));
		self->handles[i] = create.handle;
	}
	ret = syncobj_array_call(self, variant, MAX_HANDLES);
	EXPECT_EQ(variant->at_bound, ret) TH_LOG("ioctl 0x%lx on %u handles: %d", variant->req,
				 MAX_HANDLES, ret);
}

/* ------------------------------------------------------------- fuzz */

/* The core ioctls the node lets through (vortex_core_ioctl.c). */
static bool core_allowed(unsigned int nr)
{
	static const unsigned long allowed[] = {
		DRM_IOCTL_VERSION, DRM_IOCTL_GET_CAP, DRM_IOCTL_GEM_CLOSE,
		DRM_IOCTL_PRIME_HANDLE_TO_FD, DRM_IOCTL_PRIME_FD_TO_HANDLE,
		DRM_IOCTL_SYNCOBJ_CREATE, DRM_IOCTL_SYNCOBJ_DESTROY,
		DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE,
		DRM_IOCTL_SYNCOBJ_WAIT, DRM_IOCTL_SYNCOBJ_RESET,
		DRM_IOCTL_SYNCOBJ_SIGNAL, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT,
		DRM_IOCTL_SYNCOBJ_QUERY, DRM_IOCTL_SYNCOBJ_TRANSFER,
		DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
	};
	size_t i;

	/* DRM_IOCTL_SYNCOBJ_EVENTFD, newer than libdrm's drm.h here */
	if (nr == 0xcf)
		return true;
	for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		if (_IOC_NR(allowed[i]) == nr)
			return true;
	return false;
}

/*
 * Every refused core number, with random directions, sizes and payloads
 * (a fixed seed, so a failure repeats): always -EOPNOTSUPP.  The kernel
 * log must stay clean (the run checks it).
 */
TEST_F_TIMEOUT(core, fuzz_refused_numbers_any_payload, 300)
{
	unsigned int seed = 0x7658, i, j, nr, dir, size;
	union core_arg arg;

	for (i = 0; i < 20000; i++) {
		nr = rand_r(&seed) % 0x100;
		if ((nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END) ||
		    core_allowed(nr))
			continue;
		dir = rand_r(&seed) % 4;
		size = rand_r(&seed) % sizeof(arg);
		for (j = 0; j < sizeof(arg); j++)
			arg.bytes[j] = rand_r(&seed);
		ASSERT_EQ(-EOPNOTSUPP,
			  vx_ioctl(self->fd, _IOC(dir, DRM_IOCTL_BASE, nr, size), &arg))
			TH_LOG("nr 0x%x dir %u size %u", nr, dir, size);
	}
}

/*
 * The syncobj array ioctls with random counts over zeroed handles: above
 * the bound -EINVAL from the filter, at or below it DRM's answer for
 * handles that do not exist (-ENOENT, -EINVAL for a zero count, or
 * -EOPNOTSUPP for the timeline ioctls).  Never anything else.
 */
TEST_F_TIMEOUT(core, fuzz_syncobj_array_counts, 300)
{
	static const unsigned long reqs[] = {
		DRM_IOCTL_SYNCOBJ_WAIT, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT,
		DRM_IOCTL_SYNCOBJ_RESET, DRM_IOCTL_SYNCOBJ_SIGNAL,
		DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, DRM_IOCTL_SYNCOBJ_QUERY,
	};
	static uint32_t handles[MAX_HANDLES];
	static uint64_t points[MAX_HANDLES];
	struct drm_syncobj_timeline_wait w;
	unsigned int seed = 0xacce1, i;
	uint32_t count;
	int ret;

	for (i = 0; i < 6000; i++) {
		unsigned long req = reqs[i % 6];

		/* Half near the bound, half anywhere. */
		count = rand_r(&seed);
		if (i & 1)
			count = MAX_HANDLES - 8 + count % 16;
		memset(&w, 0, sizeof(w));
		w.handles = (uintptr_t)handles;
		w.points = (uintptr_t)points;
		w.count_handles = count;
		/* Each struct keeps count_handles at its own place. */
		if (req == DRM_IOCTL_SYNCOBJ_WAIT) {
			struct drm_syncobj_wait *sw = (void *)&w;

			memset(sw, 0, sizeof(*sw));
			sw->handles = (uintptr_t)handles;
			sw->count_handles = count;
		} else if (req != DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT) {
			struct drm_syncobj_timeline_array *ta = (void *)&w;

			memset(&w, 0, sizeof(w));
			ta->handles = (uintptr_t)handles;
			ta->points = (uintptr_t)points;
			ta->count_handles = count;
		}
		ret = vx_ioctl(self->fd, req, &w);
		if (count > MAX_HANDLES) {
			ASSERT_EQ(-EINVAL, ret) TH_LOG("count %u", count);
		} else {
			ASSERT_TRUE(ret == -ENOENT || ret == -EINVAL ||
				    ret == -EOPNOTSUPP)
				TH_LOG("ioctl 0x%lx count %u: %d", req, count, ret);
		}
	}
}

/* The argument of a syncobj array ioctl, and a thread that rewrites it. */
struct flipper {
	union core_arg arg;
	size_t count_offset;
	volatile int stop;
};

static void *flipper_run(void *p)
{
	struct flipper *f = p;
	volatile uint32_t *count = (volatile uint32_t *)(f->arg.bytes + f->count_offset);

	while (!f->stop)
		*count = *count == 1 ? 0xffffffffu : 1;
	return NULL;
}

/*
 * Issue 22, item 7: a second thread flips count_handles between 1 and
 * 0xffffffff while the first calls WAIT, RESET and SIGNAL on that very
 * argument.  A check made before drm_ioctl() copies the argument again
 * let 10,705 of 220,623 huge counts through to DRM's kmalloc_array(),
 * and the page allocator WARNed (the run fails on any kernel warning).
 * The driver now serves these from one copy: every call is 0 (count 1),
 * -EINVAL (the huge count) or, for WAIT on a reset syncobj, -EINVAL too.
 */
TEST_F_TIMEOUT(core, syncobj_count_flipped_by_another_thread, 300)
{
	static const struct { unsigned long req; size_t off; } calls[] = {
		{ DRM_IOCTL_SYNCOBJ_WAIT, offsetof(struct drm_syncobj_wait, count_handles) },
		{ DRM_IOCTL_SYNCOBJ_RESET, offsetof(struct drm_syncobj_array, count_handles) },
		{ DRM_IOCTL_SYNCOBJ_SIGNAL, offsetof(struct drm_syncobj_array, count_handles) },
	};
	struct drm_syncobj_create create = { .flags = DRM_SYNCOBJ_CREATE_SIGNALED };
	unsigned int c, i, ok[3] = { 0 }, huge[3] = { 0 };
	static struct flipper f;
	uint64_t ptr;
	pthread_t t;
	int ret;

	ASSERT_EQ(0, vx_ioctl(self->fd, DRM_IOCTL_SYNCOBJ_CREATE, &create));
	for (c = 0; c < 3; c++) {
		memset(&f, 0, sizeof(f));
		ptr = (uintptr_t)&create.handle;
		memcpy(f.arg.bytes, &ptr, sizeof(ptr));
		f.count_offset = calls[c].off;
		*(uint32_t *)(f.arg.bytes + f.count_offset) = 1;
		ASSERT_EQ(0, pthread_create(&t, NULL, flipper_run, &f));
		for (i = 0; i < 20000; i++) {
			ret = vx_ioctl(self->fd, calls[c].req, &f.arg);
			if (!ret)
				ok[c]++;
			else if (ret == -EINVAL)
				huge[c]++;
			else
				break;
		}
		f.stop = 1;
		pthread_join(t, NULL);
		EXPECT_EQ(20000, i) TH_LOG("ioctl 0x%lx: %d", calls[c].req, ret);
		TH_LOG("ioctl 0x%lx: %u done, %u refused", calls[c].req, ok[c], huge[c]);
	}
}

/* --------------------------------------------- what keeps working */

TEST_F(core, version_names_the_driver)
{
	char name[32] = "";
	struct drm_version v = {
		.name = name,
		.name_len = sizeof(name) - 1,
	};

	vx_cmd(vx_ioctl(self->fd, DRM_IOCTL_VERSION, &v));
	EXPECT_STREQ("vortex", name);
	EXPECT_EQ(1, v.version_major);
}

TEST_F(core, get_cap_syncobj)
{
	struct drm_get_cap cap = { .capability = DRM_CAP_SYNCOBJ };

	vx_cmd(vx_ioctl(self->fd, DRM_IOCTL_GET_CAP, &cap));
	EXPECT_EQ(1, cap.value);
}

TEST_F(core, gem_close_and_prime_round_trip)
{
	struct drm_prime_handle prime = { .flags = DRM_CLOEXEC };
	uint64_t addr;
	uint32_t h;

	vx_cmd(_vx_bo_create(self->fd, 4096, 0, &h, &addr));
	prime.handle = h;
	vx_cmd(vx_ioctl(self->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime));
	prime.handle = 0;
	vx_cmd(vx_ioctl(self->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &prime));
	/* The same file gets its own handle back for its own buffer. */
	EXPECT_EQ(h, prime.handle);
	close(prime.fd);
	vx_cmd(_vx_bo_close(self->fd, h));
	vx_err(EINVAL, _vx_bo_close(self->fd, h));
}

TEST_HARNESS_MAIN
