// SPDX-License-Identifier: GPL-2.0
/*
 * What a crash dump costs, on a card whose every warp hangs in a loop
 * (so every lane's registers are captured):
 *
 *   dump_publish_ms_T     from the failure's handling to the published
 *                         dump (the driver's own measure, debugfs
 *                         last_dump), T the topology
 *   dump_frozen_ms_T      how long the capture held the card frozen in
 *                         recovery (last_dump's frozen_ns)
 *   dump_render_ms_T      how long rendering the text and ELF took, after
 *                         recovery (render_ns)
 *   dump_read_mb_s_T      reading the whole dump from sysfs, 64 KiB reads,
 *                         after it is rendered
 *   dump_ready_ms_T       from the failed job's WAIT to its dump read whole
 *   dump_in_hand_ms_T     from the failure's handling (last_dump's
 *                         start_ns) to the dump read whole: what a client
 *                         that wants its dump waits for in all, whether
 *                         the dump is published before the job's fence or
 *                         after it
 *   dump_mmio_per_reg_T   Debug Module accesses per lane register captured
 *   dump_bytes_vs_state_T text bytes over the bytes of state they hold
 *
 * then the first and last again with the ELF zlib-compressed
 * (DRM_VORTEX_DUMP_COMPRESS_ELF), as dump_*_zlib_T.
 *
 * Medians of several dumps, with their range.  Each dump waits for the
 * job timeout first.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vortex_accel.h"
#include "vortex_test_ioctl.h"

#define RUNS	5

static void discard_dumps(void)
{
	DIR *d = opendir("/sys/class/devcoredump");
	struct dirent *e;
	char path[300];
	int fd, i;

	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "devcd", 5))
			continue;
		snprintf(path, sizeof(path), "/sys/class/devcoredump/%s/data", e->d_name);
		fd = open(path, O_WRONLY);
		if (fd >= 0 && write(fd, "1", 1) < 0)
			perror("discard");
		if (fd >= 0)
			close(fd);
	}
	if (d)
		closedir(d);
	/* devcoredump deletes from a work item */
	for (i = 0; i < 500; i++) {
		d = opendir("/sys/class/devcoredump");
		fd = 0;
		while (d && (e = readdir(d)))
			fd |= !strncmp(e->d_name, "devcd", 5);
		if (d)
			closedir(d);
		if (!fd)
			return;
		usleep(10000);
	}
}

struct last_dump {
	unsigned long long publish_ns, dm_accesses, lane_regs, bytes, state_bytes;
	unsigned long long frozen_ns, render_ns, start_ns;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Reads the failed job @job's dump twice: the first read waits for its
 * rendering; the second, timed, is what reading costs.  MB/s, or -1.  The
 * driver publishes the dump after the job's fence (docs/driver.md);
 * DRM_IOCTL_VORTEX_FAULT waits for its worker to name it, so a client
 * that wants its dump asks for its name rather than polling sysfs.
 * *@ready_ms: from the call, right after the job's WAIT, to the end of the
 * first read: when such a client has its dump whole; *@whole_s: that end,
 * CLOCK_MONOTONIC.
 */
static double read_dump(int dev, uint64_t job, double *ready_ms, double *whole_s)
{
	static char buf[1 << 16];
	struct drm_vortex_fault_info info = { 0 };
	struct drm_vortex_fault f = {
		.job = job, .info = (uintptr_t)&info, .info_size = sizeof(info),
	};
	double t = 0, mb = 0, t0 = now_s();
	char path[64];
	int pass;

	if (vx_ioctl(dev, DRM_IOCTL_VORTEX_FAULT, &f) || info.dump < 0)
		return -1;
	snprintf(path, sizeof(path), "/sys/class/devcoredump/devcd%d/data", info.dump);
	for (pass = 0; pass < 2; pass++) {
		size_t total = 0;
		ssize_t n;
		int fd = open(path, O_RDONLY);

		if (fd < 0)
			return -1;
		t = now_s();
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			total += n;
		t = now_s() - t;
		close(fd);
		mb = total / 1e6;
		if (!pass) {
			*whole_s = now_s();
			*ready_ms = (*whole_s - t0) * 1e3;
		}
	}
	return t > 0 ? mb / t : -1;
}

static int read_last_dump(struct last_dump *l)
{
	char buf[512];

	return vx_debugfs_read("last_dump", buf, sizeof(buf)) && sscanf(buf, "publish_ns: %llu dm_accesses: %llu lane_regs: %llu bytes: %llu state_bytes: %llu frozen_ns: %llu render_ns: %llu start_ns: %llu",
			       &l->publish_ns, &l->dm_accesses, &l->lane_regs,
			       &l->bytes, &l->state_bytes, &l->frozen_ns,
			       &l->render_ns, &l->start_ns) == 8 ? 0 : -1;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void report(const char *name, const char *topo, double *v, int n, const char *fmt)
{
	char line[160];

	qsort(v, n, sizeof(*v), cmp);
	snprintf(line, sizeof(line), "%s_%s: %s (median of %%d, range %s .. %s)\n",
		 name, topo, fmt, fmt, fmt);
	printf(line, v[n / 2], n, v[0], v[n - 1]);
}

/* RUNS dumps of @sub's hang with dump flags @flags; 0 if any were made. */
static int measure(int fd, struct drm_vortex_submit *sub, uint32_t flags,
		   const char *zlib, const char *topo)
{
	struct drm_vortex_dump_config cfg = { .flags = flags };
	double ms[RUNS], mmio[RUNS], ratio[RUNS], frozen[RUNS], render[RUNS];
	double mbs[RUNS], ready[RUNS], in_hand[RUNS], whole_s = 0;
	char name[64];
	struct last_dump l;
	int32_t status;
	int i, n = 0;

	if (vx_ioctl(fd, DRM_IOCTL_VORTEX_DUMP_CONFIG, &cfg)) {
		perror("dump_bench: DUMP_CONFIG");
		return -1;
	}
	for (i = 0; i < RUNS; i++) {
		discard_dumps();
		if (_vx_submit(fd, sub) ||
		    _vx_wait(fd, sub->seqno, 600 * SEC, &status) || status != -ETIMEDOUT ||
		    (mbs[n] = read_dump(fd, sub->seqno, &ready[n], &whole_s)) < 0 ||
		    read_last_dump(&l) || !l.lane_regs || !l.state_bytes) {
			fprintf(stderr, "dump_bench: run %d failed\n", i);
			continue;
		}
		ms[n] = l.publish_ns / 1e6;
		mmio[n] = (double)l.dm_accesses / l.lane_regs;
		ratio[n] = (double)l.bytes / l.state_bytes;
		frozen[n] = l.frozen_ns / 1e6;
		render[n] = l.render_ns / 1e6;
		in_hand[n] = whole_s * 1e3 - l.start_ns / 1e6;
		n++;
	}
	discard_dumps();
	if (!n)
		return -1;
	snprintf(name, sizeof(name), "dump_publish_ms%s", zlib);
	report(name, topo, ms, n, "%.1f");
	snprintf(name, sizeof(name), "dump_frozen_ms%s", zlib);
	report(name, topo, frozen, n, "%.1f");
	snprintf(name, sizeof(name), "dump_render_ms%s", zlib);
	report(name, topo, render, n, "%.1f");
	snprintf(name, sizeof(name), "dump_read_mb_s%s", zlib);
	report(name, topo, mbs, n, "%.1f");
	snprintf(name, sizeof(name), "dump_ready_ms%s", zlib);
	report(name, topo, ready, n, "%.1f");
	snprintf(name, sizeof(name), "dump_in_hand_ms%s", zlib);
	report(name, topo, in_hand, n, "%.1f");
	if (!*zlib)
		report("dump_mmio_per_reg", topo, mmio, n, "%.2f");
	snprintf(name, sizeof(name), "dump_bytes_vs_state%s", zlib);
	report(name, topo, ratio, n, "%.2f");
	return 0;
}

int main(void)
{
	uint64_t c, k, w, t;
	struct drm_vortex_submit_bo bo = { .flags = DRM_VORTEX_SUBMIT_BO_READ };
	struct drm_vortex_submit sub = { 0 };
	uint32_t *code;
	char topo[64];
	uint64_t addr;
	int fd;

	fd = open(VX_NODE, O_RDWR | O_CLOEXEC);
	if (fd < 0 ||
	    _vx_get_param(fd, DRM_VORTEX_PARAM_NUM_CLUSTERS, &c) ||
	    _vx_get_param(fd, DRM_VORTEX_PARAM_NUM_CORES, &k) ||
	    _vx_get_param(fd, DRM_VORTEX_PARAM_NUM_WARPS, &w) ||
	    _vx_get_param(fd, DRM_VORTEX_PARAM_NUM_THREADS, &t) ||
	    _vx_bo_create(fd, 4096, 0, &bo.handle, &addr)) {
		perror("dump_bench: card");
		return 1;
	}
	snprintf(topo, sizeof(topo), "%llux%llux%llux%llu", (unsigned long long)c,
		 (unsigned long long)k, (unsigned long long)w, (unsigned long long)t);
	code = vx_bo_map(fd, bo.handle, NULL);
	if (!code)
		return 1;
	code[0] = 0x0000006f;		/* jal x0, 0: every warp loops */
	sub.entry_pc = addr;
	sub.grid[0] = c * k;		/* a full block per core */
	sub.grid[1] = sub.grid[2] = 1;
	sub.block[0] = w * t;
	sub.block[1] = sub.block[2] = 1;
	sub.bos = (uintptr_t)&bo;
	sub.bo_count = 1;
	sub.bo_stride = sizeof(bo);

	if (measure(fd, &sub, 0, "", topo) ||
	    measure(fd, &sub, DRM_VORTEX_DUMP_COMPRESS_ELF, "_zlib", topo))
		return 1;
	return 0;
}
