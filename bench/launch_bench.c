// SPDX-License-Identifier: MIT
/*
 * launch_bench: launch overhead and BO copy throughput, in the guest.
 *
 * Input: the card at /dev/accel/accel0 (--device overrides) and the empty
 * kernel /vortex/kernels/empty.elf (--kernel overrides).  Prints
 * "name: value" lines for scripts/bench.sh; a time is printed as
 * "name: MEDIAN (p10 A, p90 B, min C, N samples)", in µs of CLOCK_MONOTONIC.
 *
 * The vCPU of a TCG guest changes speed by 2x from one second to the next,
 * so figures meant to be compared are taken in one loop: each iteration
 * measures, back to back,
 *   noop_ioctl_us        one GET_PARAM ioctl (NUM_CORES) on the card's fd
 *   launch_wait_us       SUBMIT of the empty 1-thread kernel, then a blocking
 *                        WAIT until it ended: before SUBMIT to WAIT's return
 *   launch_submit_us     of that, the SUBMIT ioctl alone: before SUBMIT to
 *                        its return (the job may not have run yet)
 *   launch_poll_us       as launch_wait_us, but waiting by WAIT with a
 *                        deadline of 0 in a loop until the job has ended
 *   launch_dep_wait_us   as launch_wait_us, for a job whose SUBMIT names an
 *                        in_sync: the syncobj that received the previous
 *                        such job's fence as its out_sync (a chain).  That
 *                        job was waited for, so the in-fence has signalled:
 *                        this is the cost of the dependency path itself.
 * and, from the same iterations,
 *   launch_vs_noop_ratio launch_wait / noop_ioctl of each iteration; its
 *                        median is the goal figure (<= 5)
 * First 100 iterations are not recorded (first-use allocations, caches).
 * SUBMIT is issued here, not through vx_launch(), so that all figures share
 * one submit path; vx_launch() adds only a calloc()/free() of its list of
 * buffers.
 *
 * Then 8 processes, each with its own fd and kernel, start together and
 * each does launch + wait (as launch_wait_us) --iters times:
 *   launch_8clients_wait_us  every such launch + wait of every client
 *   launch_8clients_per_s    launches of all clients / time from the first
 *                            client's start to the last one's end
 * (On a one-vCPU guest the clients overlap only where one of them sleeps
 * in WAIT or is preempted.)
 * And the copy figures, best of a few runs:
 *   bo_upload_mbps / bo_download_mbps   memcpy into / out of a BO mapping
 *   memcpy_mbps              memcpy between two malloc'ed buffers
 *
 * Nothing is asserted about speed; a job that does not end with status 0
 * or an ioctl that fails makes the exit status EXIT_FAILURE.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "drm.h"
#include "vortex_accel.h"
#include "libvortex.h"
#include "bench_stats.h"

#define BENCH_WARMUP	100	/* iterations not recorded */
#define BENCH_CLIENTS	8
#define CLIENT_WARMUP	10

/*
 * One device's launches of the empty kernel: a SUBMIT request filled once
 * (kernel image and a stack area, as vx_launch() would list them), so the
 * timed part is the ioctl alone.
 */
struct bench_job {
	struct vx_device *dev;
	struct vx_bo *stack;
	struct drm_vortex_submit_bo bos[2];
	struct drm_vortex_submit req;
};

static int job_init(struct vx_device *dev, struct vx_kernel *k, struct bench_job *j)
{
	uint64_t threads = vx_topology_hw_threads(vx_device_topology(dev));
	int ret;

	memset(j, 0, sizeof(*j));
	j->dev = dev;
	ret = vx_bo_alloc(dev, threads * VX_DEFAULT_STACK_SIZE, &j->stack);
	if (ret)
		return ret;
	j->bos[0] = (struct drm_vortex_submit_bo){ vx_bo_handle(vx_kernel_bo(k)),
		DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_DUMP };
	j->bos[1] = (struct drm_vortex_submit_bo){ vx_bo_handle(j->stack),
		DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_WRITE };
	j->req.entry_pc = vx_kernel_entry(k);
	j->req.stack_addr = vx_bo_dev_addr(j->stack);
	j->req.stack_size = VX_DEFAULT_STACK_SIZE;
	j->req.grid[0] = j->req.grid[1] = j->req.grid[2] = 1;
	j->req.block[0] = j->req.block[1] = j->req.block[2] = 1;
	j->req.bos = (uintptr_t)j->bos;
	j->req.bo_count = 2;
	j->req.bo_stride = sizeof(j->bos[0]);
	return 0;
}

static void job_fini(struct bench_job *j)
{
	vx_bo_free(j->stack);
}

/* Block in WAIT, or (poll) call it with a deadline of 0 until the job ends. */
static int job_wait(struct bench_job *j, uint64_t seq, int poll)
{
	int ret, status = 0;

	if (!poll)
		ret = vx_wait(j->dev, seq, vx_deadline_ms(10000), &status);
	else
		do {
			ret = vx_wait(j->dev, seq, 0, &status);
		} while (ret == -ETIME);
	if (ret) {
		fprintf(stderr, "launch_bench: WAIT of job %llu: %s\n",
			(unsigned long long)seq, strerror(-ret));
		return ret;
	}
	if (status)
		fprintf(stderr, "launch_bench: job %llu ended: %s\n",
			(unsigned long long)seq, vx_status_name(status));
	return status;
}

/*
 * SUBMIT (with syncobjs @in and @out, 0 for none) then wait for the job.
 * @submit_us: before SUBMIT to its return; @total_us: to the wait's end.
 */
static int job_run(struct bench_job *j, uint32_t in, uint32_t out, int poll,
		   double *submit_us, double *total_us)
{
	double t0, t1;
	int ret;

	j->req.in_sync = in;
	j->req.out_sync = out;
	t0 = now_us();
	ret = vx_ioctl(vx_device_fd(j->dev), DRM_IOCTL_VORTEX_SUBMIT, &j->req);
	t1 = now_us();
	if (ret) {
		fprintf(stderr, "launch_bench: SUBMIT: %s\n", strerror(-ret));
		return ret;
	}
	ret = job_wait(j, j->req.seqno, poll);
	*total_us = now_us() - t0;
	*submit_us = t1 - t0;
	return ret;
}

static int syncobj_create(int fd, uint32_t *handle)
{
	/* signalled: the chain's first job depends on a signalled stub */
	struct drm_syncobj_create c = { .flags = DRM_SYNCOBJ_CREATE_SIGNALED };
	int ret = vx_ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);

	*handle = c.handle;
	if (ret)
		fprintf(stderr, "launch_bench: SYNCOBJ_CREATE: %s\n", strerror(-ret));
	return ret;
}

static void syncobj_destroy(int fd, uint32_t handle)
{
	struct drm_syncobj_destroy d = { .handle = handle };

	if (handle)
		vx_ioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
}

/* Samples of the interleaved loop, one array of --iters per figure. */
enum { S_NOOP, S_WAIT, S_SUBMIT, S_POLL, S_DEP, S_RATIO, S_COUNT };

/*
 * One iteration: noop, launch + wait, launch + poll, dependent launch.
 * @i < 0 is warm-up.  The dependent job alternates between two syncobjs:
 * its in_sync holds the previous dependent job's fence, its out_sync
 * receives its own.
 */
static int bench_iteration(struct bench_job *j, const uint32_t *sync, int i,
			   double **s, int *nratio)
{
	double noop, wait, submit, poll, dep, unused;
	unsigned int d = i & 1;
	uint64_t v;
	int ret;

	noop = now_us();
	ret = vx_get_param(j->dev, DRM_VORTEX_PARAM_NUM_CORES, &v);
	noop = now_us() - noop;
	if (ret) {
		fprintf(stderr, "launch_bench: GET_PARAM: %s\n", strerror(-ret));
		return ret;
	}
	ret = job_run(j, 0, 0, 0, &submit, &wait);
	if (!ret)
		ret = job_run(j, 0, 0, 1, &unused, &poll);
	if (!ret)
		ret = job_run(j, sync[d], sync[!d], 0, &unused, &dep);
	if (ret || i < 0)
		return ret;
	s[S_NOOP][i] = noop;
	s[S_WAIT][i] = wait;
	s[S_SUBMIT][i] = submit;
	s[S_POLL][i] = poll;
	s[S_DEP][i] = dep;
	/* a clock too coarse to see the noop gives no ratio, not infinity */
	if (noop > 0)
		s[S_RATIO][(*nratio)++] = wait / noop;
	return 0;
}

static int bench_interleaved(struct vx_device *dev, struct vx_kernel *k, int iters)
{
	static const char *const names[S_COUNT] = {
		"noop_ioctl_us", "launch_wait_us", "launch_submit_us",
		"launch_poll_us", "launch_dep_wait_us", "launch_vs_noop_ratio",
	};
	double *buf = calloc((size_t)S_COUNT * iters, sizeof(*buf)), *s[S_COUNT];
	uint32_t sync[2] = { 0, 0 };
	struct bench_job j;
	int ret, nratio = 0, fd = vx_device_fd(dev);

	if (!buf)
		return -ENOMEM;
	for (int f = 0; f < S_COUNT; f++)
		s[f] = buf + (size_t)f * iters;
	ret = job_init(dev, k, &j);
	if (ret) {
		fprintf(stderr, "launch_bench: stack buffer: %s\n", strerror(-ret));
		free(buf);
		return ret;
	}
	ret = syncobj_create(fd, &sync[0]);
	if (!ret)
		ret = syncobj_create(fd, &sync[1]);
	for (int i = -BENCH_WARMUP; !ret && i < iters; i++)
		ret = bench_iteration(&j, sync, i, s, &nratio);
	for (int f = 0; !ret && f < S_COUNT; f++)
		ret = print_stats(names[f], s[f], f == S_RATIO ? nratio : iters);
	syncobj_destroy(fd, sync[0]);
	syncobj_destroy(fd, sync[1]);
	job_fini(&j);
	free(buf);
	return ret;
}

/* What one client of bench_clients() leaves in shared memory. */
struct client_out {
	double start, end;	/* CLOCK_MONOTONIC µs around the timed loop */
};

/*
 * One client, in its own process: open, load, warm up, tell the parent it
 * is ready (a byte on @ready), wait for @go to reach EOF, then time @iters
 * launch + wait into @t.
 */
static int client_main(const char *device, const char *kpath, int iters,
		       int ready, int go, struct client_out *out, double *t)
{
	struct vx_device *dev = NULL;
	struct vx_kernel *k = NULL;
	struct bench_job j = { 0 };
	double unused;
	char c = 'r';
	int ret;

	ret = vx_device_open_path(device, &dev);
	if (!ret)
		ret = vx_kernel_load_file(dev, kpath, &k);
	if (!ret)
		ret = job_init(dev, k, &j);
	if (ret)
		fprintf(stderr, "launch_bench: client %d: set-up: %s\n",
			(int)getpid(), strerror(-ret));
	for (int i = 0; !ret && i < CLIENT_WARMUP; i++)
		ret = job_run(&j, 0, 0, 0, &unused, &unused);
	if (!ret && write(ready, &c, 1) != 1)
		ret = -errno;
	close(ready);
	while (!ret && read(go, &c, 1) < 0 && errno == EINTR)
		;
	out->start = now_us();
	for (int i = 0; !ret && i < iters; i++)
		ret = job_run(&j, 0, 0, 0, &unused, &t[i]);
	out->end = now_us();
	job_fini(&j);
	vx_kernel_free(k);
	vx_device_close(dev);
	return ret;
}

/* Fork the clients; each child runs client_main() and exits 0 or 1. */
static int clients_start(const char *device, const char *kpath, int iters,
			 int *ready, int *go, struct client_out *out, double *t,
			 pid_t *pid)
{
	fflush(NULL);
	for (int c = 0; c < BENCH_CLIENTS; c++) {
		pid[c] = fork();
		if (pid[c] < 0)
			return -errno;
		if (pid[c] == 0) {
			close(ready[0]);
			close(go[1]);
			_exit(client_main(device, kpath, iters, ready[1], go[0],
					  &out[c], t + (size_t)c * iters) ?
			      EXIT_FAILURE : EXIT_SUCCESS);
		}
	}
	return 0;
}

/* Release the ready clients together, reap every started one. */
static int clients_finish(int *ready, int *go, const pid_t *pid)
{
	char buf[BENCH_CLIENTS];
	int got = 0, ret = 0, st;
	ssize_t r;

	/* EOF once every client has said ready or died */
	close(ready[1]);
	while (got < BENCH_CLIENTS) {
		r = read(ready[0], buf, sizeof(buf));
		if (r == 0 || (r < 0 && errno != EINTR))
			break;
		got += r > 0 ? r : 0;
	}
	close(go[1]);
	for (int c = 0; c < BENCH_CLIENTS && pid[c] > 0; c++) {
		while (waitpid(pid[c], &st, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			ret = -ECHILD;
	}
	if (ret)
		fprintf(stderr, "launch_bench: a client failed (%d of %d were ready)\n",
			got, BENCH_CLIENTS);
	return ret;
}

static int bench_clients(const char *device, const char *kpath, int iters)
{
	size_t n = (size_t)BENCH_CLIENTS * iters;
	size_t bytes = BENCH_CLIENTS * sizeof(struct client_out) + n * sizeof(double);
	pid_t pid[BENCH_CLIENTS] = { 0 };
	int ready[2], go[2], ret;
	struct client_out *out;
	double *t, first, last;

	out = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (out == MAP_FAILED)
		return -errno;
	t = (double *)(out + BENCH_CLIENTS);
	if (pipe(ready) || pipe(go)) {
		ret = -errno;
		munmap(out, bytes);
		return ret;
	}
	ret = clients_start(device, kpath, iters, ready, go, out, t, pid);
	if (clients_finish(ready, go, pid))
		ret = -ECHILD;
	close(ready[0]);
	close(go[0]);
	if (!ret) {
		first = out[0].start;
		last = out[0].end;
		for (int c = 1; c < BENCH_CLIENTS; c++) {
			first = out[c].start < first ? out[c].start : first;
			last = out[c].end > last ? out[c].end : last;
		}
		ret = print_stats("launch_8clients_wait_us", t, n);
		if (last > first)
			printf("launch_8clients_per_s: %.0f\n", n / ((last - first) / 1e6));
	}
	munmap(out, bytes);
	return ret;
}

/* MB/s of memcpy(dst, src, len), best of @reps. */
static double copy_mbps(void *dst, const void *src, size_t len, int reps)
{
	double best = 1e30;

	for (int r = 0; r < reps; r++) {
		double t0 = now_us(), dt;

		memcpy(dst, src, len);
		__asm__ volatile ("" ::: "memory");
		dt = now_us() - t0;
		if (dt < best)
			best = dt;
	}
	return len / best;	/* bytes per µs = MB/s */
}

static int bench_copy(struct vx_device *dev, size_t len)
{
	struct vx_bo *bo;
	char *a, *b;
	void *map;
	int ret;

	a = malloc(len);
	b = malloc(len);
	if (!a || !b) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	memset(a, 0x5a, len);
	memset(b, 0xa5, len);
	ret = vx_bo_alloc(dev, len, &bo);
	if (!ret)
		ret = vx_bo_map(bo, &map);
	if (!ret) {
		printf("bo_copy_bytes: %zu\n", len);
		printf("bo_upload_mbps: %.1f\n", copy_mbps(map, a, len, 5));
		printf("bo_download_mbps: %.1f\n", copy_mbps(b, map, len, 3));
		printf("memcpy_mbps: %.1f\n", copy_mbps(b, a, len, 5));
	}
	vx_bo_free(bo);
	free(a);
	free(b);
	return ret;
}

static void usage(FILE *f, const char *argv0)
{
	fprintf(f, "Usage: %s [--device PATH] [--kernel EMPTY.elf] [--iters N] [--mib M]\n"
		"Print launch overhead and BO copy throughput as 'name: value' lines.\n"
		"  --iters N  recorded iterations, and launches per client (default 1000)\n"
		"  --mib M    bytes copied for the BO copy figures (default 16 MiB)\n",
		argv0);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "iters", required_argument, NULL, 'n' },
		{ "mib", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *device = "/dev/accel/accel0", *kpath = "/vortex/kernels/empty.elf";
	int iters = 1000, mib = 16, c, ret;
	struct vx_device *dev;
	struct vx_kernel *k;

	while ((c = getopt_long(argc, argv, "d:k:n:m:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			device = optarg;
			break;
		case 'k':
			kpath = optarg;
			break;
		case 'n':
			iters = atoi(optarg);
			break;
		case 'm':
			mib = atoi(optarg);
			break;
		case 'h':
			usage(stdout, argv[0]);
			return EXIT_SUCCESS;
		default:
			usage(stderr, argv[0]);
			return EXIT_FAILURE;
		}
	}
	if (iters < 1 || mib < 1) {
		usage(stderr, argv[0]);
		return EXIT_FAILURE;
	}
	ret = vx_device_open_path(device, &dev);
	if (ret) {
		fprintf(stderr, "launch_bench: %s: %s\n", device, strerror(-ret));
		return EXIT_FAILURE;
	}
	ret = vx_kernel_load_file(dev, kpath, &k);
	if (ret) {
		fprintf(stderr, "launch_bench: %s: %s\n", kpath, strerror(-ret));
		vx_device_close(dev);
		return EXIT_FAILURE;
	}
	ret = bench_interleaved(dev, k, iters);
	if (!ret)
		ret = bench_clients(device, kpath, iters);
	/* the copy figures do not depend on the launch path working */
	c = bench_copy(dev, (size_t)mib << 20);
	if (c)
		fprintf(stderr, "launch_bench: BO copy: %s\n", strerror(-c));
	ret = ret ? ret : c;
	vx_kernel_free(k);
	vx_device_close(dev);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}
