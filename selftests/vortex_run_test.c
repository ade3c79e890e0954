// SPDX-License-Identifier: GPL-2.0
/*
 * Sample kernels on the real driver stack, through libvortex.
 *
 * Runs in the guest against /dev/accel/accel0 with the kernel ELFs in
 * /vortex/kernels (VX_KERNEL_DIR overrides).  Every output element is
 * compared with the reference of testlib/vx_samples.c (the one the host
 * test on the simulator uses); a hang ends in -ETIMEDOUT, not before the
 * driver's timeout, and the same fd then runs jobs correctly;
 * each device exception ends in -EIO and the context still works; several
 * processes at once all get correct results.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "libvortex.h"
#include "vortex_accel.h"
#include "vortex_test_hooks.h"
#include "vx_samples.h"

#define NODE		"/dev/accel/accel0"
#define MARGIN_MS	3000	/* on top of the driver's hang timeout */

static const char *kernel_dir(void)
{
	const char *d = getenv("VX_KERNEL_DIR");

	return d ? d : "/vortex/kernels";
}

static int load(struct vx_device *dev, const char *name, struct vx_kernel **k)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s.elf", kernel_dir(), name);
	return vx_kernel_load_file(dev, path, k);
}

/* A buffer of n words with its host copy. */
struct hbuf {
	struct vx_bo *bo;
	uint32_t *h;
	uint32_t n;
};

static int hbuf_new(struct vx_device *dev, struct hbuf *b, uint32_t n)
{
	b->n = n;
	b->h = calloc(n ? n : 1, 4);
	if (!b->h)
		return -ENOMEM;
	return vx_bo_alloc(dev, (uint64_t)(n ? n : 1) * 4, &b->bo);
}

static void hbuf_free(struct hbuf *b)
{
	vx_bo_free(b->bo);
	free(b->h);
	memset(b, 0, sizeof(*b));
}

static uint32_t hbuf_addr(const struct hbuf *b)
{
	return (uint32_t)vx_bo_dev_addr(b->bo);
}

static int hbuf_put(struct hbuf *b)
{
	return vx_bo_upload(b->bo, 0, b->h, (size_t)b->n * 4);
}

static int hbuf_get(struct hbuf *b)
{
	return vx_bo_download(b->bo, 0, b->h, (size_t)b->n * 4);
}

static void launch_set(struct vx_launch *l, const void *args, size_t size,
		       const struct vx_launch_bo *bos, unsigned int nbos)
{
	l->args = args;
	l->args_size = size;
	l->bos = bos;
	l->nbos = nbos;
}

/*
 * Sample kernel @k (sample @name) on @n elements as @grid blocks of @block
 * threads, inputs from @seed.  Returns the number of wrong elements (the
 * first in *d), or -errno / a negative job status.
 */
static int run_sample(struct vx_device *dev, struct vx_kernel *k, const char *name,
		      uint32_t n, uint32_t grid, uint32_t block, uint32_t seed,
		      int timeout_ms, struct vx_sample_diff *d)
{
	const struct vx_sample *s = vx_sample_find(name);
	struct vx_sample_job j = { .n = n, .grid = grid, .block = block };
	struct hbuf b[VX_SAMPLE_MAX_BUFS] = { 0 };
	struct vx_launch_bo bos[VX_SAMPLE_MAX_BUFS];
	struct vx_launch l = { .grid = { grid }, .block = { block } };
	uint32_t addr[VX_SAMPLE_MAX_BUFS], *host[VX_SAMPLE_MAX_BUFS], *want = NULL;
	uint32_t args[8];
	int ret = -ENOMEM;

	if (!s)
		return -ENOENT;
	vx_sample_layout(s, &j);
	for (unsigned int i = 0; i < j.nbufs; i++) {
		ret = hbuf_new(dev, &b[i], j.words[i]);
		if (ret)
			goto out;
		addr[i] = hbuf_addr(&b[i]);
		host[i] = b[i].h;
		bos[i] = (struct vx_launch_bo){ b[i].bo,
			(j.use[i] & VX_SAMPLE_IN ? VX_BO_READ : 0) |
			(j.use[i] & VX_SAMPLE_OUT ? VX_BO_WRITE | VX_BO_DUMP : 0) };
	}
	want = malloc((size_t)j.words[j.out] * 4 + 4);
	if (!want)
		goto out;
	vx_sample_fill(s, &j, host, seed);
	vx_sample_expect(s, &j, host, want);
	for (unsigned int i = 0; i < j.nbufs && !ret; i++)
		if (j.use[i] & VX_SAMPLE_IN)
			ret = hbuf_put(&b[i]);
	if (ret)
		goto out;
	launch_set(&l, args, vx_sample_args(s, &j, addr, args, sizeof(args)), bos,
		   j.nbufs);
	ret = vx_run(k, &l, timeout_ms) ?: hbuf_get(&b[j.out]);
	if (!ret)
		ret = vx_sample_check(s, &j, want, b[j.out].h, d);
out:
	free(want);
	for (unsigned int i = 0; i < j.nbufs; i++)
		hbuf_free(&b[i]);
	return ret;
}

/* vecadd of @n elements, a thread per element: the everyday job. */
static int run_vecadd(struct vx_device *dev, struct vx_kernel *k, uint32_t n,
		      uint32_t seed, int timeout_ms)
{
	const struct vx_topology *t = vx_device_topology(dev);
	uint32_t bt = t->warps * t->threads;

	return run_sample(dev, k, "vecadd", n, (n + bt - 1) / bt, bt, seed,
			  timeout_ms, NULL);
}

FIXTURE(vx) {
	struct vx_device *dev;
	const struct vx_topology *t;
	struct vx_kernel *vecadd;
	uint32_t core;		/* threads per core */
	uint32_t ncores;
	int timeout_ms;		/* for jobs that must complete */
	/* job_timeout_ms before a test lowered it (vx_hang_begin()), or 0 */
	long old_timeout_ms;
};

FIXTURE_SETUP(vx)
{
	int ret;

	if (access(NODE, F_OK))
		SKIP(return, "no " NODE);
	ASSERT_EQ(0, vx_device_open_path(NODE, &self->dev));
	self->t = vx_device_topology(self->dev);
	self->core = self->t->warps * self->t->threads;
	self->ncores = self->t->clusters * self->t->cores;
	self->timeout_ms = self->t->job_timeout_ms + MARGIN_MS;
	ret = load(self->dev, "vecadd", &self->vecadd);
	ASSERT_EQ(0, ret) TH_LOG("loading vecadd.elf from %s", kernel_dir());
}

FIXTURE_TEARDOWN(vx)
{
	vx_hang_restore(&self->old_timeout_ms);
	vx_kernel_free(self->vecadd);
	vx_device_close(self->dev);
}

static const uint32_t sizes[] = VX_SAMPLE_SIZES;
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/*
 * Sample @name for every size; @grid and @block are expressions of n (the
 * size) and i (its index).  Inputs from @seed + i.
 */
#define SAMPLE_SIZES(name, grid, block, seed) do {			\
	struct vx_kernel *k_;						\
									\
	ASSERT_EQ(0, load(self->dev, name, &k_));			\
	for (size_t i = 0; i < NSIZES; i++) {				\
		uint32_t n = sizes[i];					\
		struct vx_sample_diff d_ = { 0 };			\
									\
		ASSERT_EQ(0, run_sample(self->dev, k_, name, n, grid, block, \
					(seed) + i, self->timeout_ms, &d_)) \
			TH_LOG("%s n = %u: first wrong element %u", name, n, d_.first); \
	}								\
	vx_kernel_free(k_);						\
} while (0)

TEST_F(vx, vecadd_sizes)
{
	SAMPLE_SIZES("vecadd", (n + self->core - 1) / self->core, self->core, 17);
}

/* Fewer threads than elements: the kernel's grid-stride loop. */
TEST_F(vx, saxpy_sizes)
{
	SAMPLE_SIZES("saxpy", self->ncores + 1,
		     self->core / 2 ? self->core / 2 : 1, 23);
}

/* Every other size, half-core blocks: two share each core. */
TEST_F(vx, reduce_sizes)
{
	SAMPLE_SIZES("reduce", 2 * self->ncores + 1,
		     i % 2 && self->core > 1 ? self->core / 2 : self->core, 5);
}

TEST_F(vx, diverge_sizes)
{
	SAMPLE_SIZES("diverge", (n + self->core - 1) / self->core, self->core, 3);
}

/* The image works wherever it lands: two loads, relocated differently. */
TEST_F(vx, reloc_two_loads)
{
	struct vx_kernel *k[2];
	uint32_t n = 1000, bt = self->core;

	ASSERT_EQ(0, load(self->dev, "reloc", &k[0]));
	ASSERT_EQ(0, load(self->dev, "reloc", &k[1]));
	ASSERT_NE(vx_kernel_base(k[0]), vx_kernel_base(k[1]));
	for (int j = 0; j < 2; j++) {
		ASSERT_EQ(0, run_sample(self->dev, k[j], "reloc", n, (n + bt - 1) / bt,
					bt, 1, self->timeout_ms, NULL))
			TH_LOG("load %d", j);
	}
	vx_kernel_free(k[0]);
	vx_kernel_free(k[1]);
}

/* The empty kernel on every thread slot of the card, and with no arguments. */
TEST_F(vx, empty_whole_card)
{
	struct vx_kernel *k;
	struct vx_launch l = { .grid = { self->ncores * 3 }, .block = { self->core } };

	ASSERT_EQ(0, load(self->dev, "empty", &k));
	ASSERT_EQ(0, vx_run(k, &l, self->timeout_ms));
	l.grid[0] = 1;
	l.block[0] = 1;
	ASSERT_EQ(0, vx_run(k, &l, self->timeout_ms));
	vx_kernel_free(k);
}

/* The runtime refuses a file that is not a kernel binary, and leaks nothing. */
TEST_F(vx, load_rejects_non_elf)
{
	static const char junk[256] = "\177ELF but not really";
	struct vx_kernel *k = NULL;

	ASSERT_EQ(-ENOEXEC, vx_kernel_load(self->dev, junk, sizeof(junk), &k));
	ASSERT_EQ(NULL, k);
	ASSERT_EQ(-ENOENT, load(self->dev, "no_such_kernel", &k));
	ASSERT_EQ(0, run_vecadd(self->dev, self->vecadd, 100, 1, self->timeout_ms));
}

/* Many jobs queued before the first wait, each with its own buffers. */
TEST_F(vx, vecadd_queued)
{
	enum { JOBS = 32, N = 777 };
	struct hbuf a[JOBS], c[JOBS];
	uint64_t seq[JOBS];
	uint32_t bt = self->core;

	for (int j = 0; j < JOBS; j++) {
		struct vecadd_args args;
		struct vx_launch_bo bos[2];
		struct vx_launch l = { .grid = { (N + bt - 1) / bt }, .block = { bt } };

		ASSERT_EQ(0, hbuf_new(self->dev, &a[j], N));
		ASSERT_EQ(0, hbuf_new(self->dev, &c[j], N));
		for (uint32_t i = 0; i < N; i++)
			a[j].h[i] = i * (j + 1);
		ASSERT_EQ(0, hbuf_put(&a[j]));
		args = (struct vecadd_args){ hbuf_addr(&a[j]), hbuf_addr(&a[j]),
					     hbuf_addr(&c[j]), N };
		bos[0] = (struct vx_launch_bo){ a[j].bo, VX_BO_READ };
		bos[1] = (struct vx_launch_bo){ c[j].bo, VX_BO_WRITE };
		launch_set(&l, &args, sizeof(args), bos, 2);
		ASSERT_EQ(0, vx_launch(self->vecadd, &l, &seq[j]));
	}
	for (int j = JOBS - 1; j >= 0; j--) {
		int status = 1;

		ASSERT_EQ(0, vx_wait(self->dev, seq[j], vx_deadline_ms(self->timeout_ms * 4),
				     &status));
		ASSERT_EQ(0, status);
		ASSERT_EQ(0, hbuf_get(&c[j]));
		for (uint32_t i = 0; i < N; i++) {
			ASSERT_EQ(2 * i * (j + 1), c[j].h[i]) TH_LOG("job %d", j);
		}
		hbuf_free(&a[j]);
		hbuf_free(&c[j]);
	}
}

/*
 * IGT's pan-reset shape: the looping job times out, the next one runs.
 * The hang is declared under a lowered job_timeout_ms (vx_hang_begin():
 * vx.hang_times_out_then_next_job_runs is the one test that waits out the
 * default), never before it; the vecadd after it runs under the default.
 */
TEST_F_TIMEOUT(vx, hang_then_vecadd, 60)
{
	struct vx_kernel *k;
	struct hbuf count = { 0 };
	struct hang_args args;
	struct vx_launch_bo bo;
	struct vx_launch l = { .grid = { self->ncores }, .block = { self->core } };
	int64_t t0, elapsed;
	uint64_t seq;
	int status = 0;

	VX_NEED_GATES();
	ASSERT_EQ(0, load(self->dev, "hang", &k));
	ASSERT_EQ(0, hbuf_new(self->dev, &count, 1));
	args = (struct hang_args){ hbuf_addr(&count), 0 };
	bo = (struct vx_launch_bo){ count.bo, VX_BO_WRITE };
	launch_set(&l, &args, sizeof(args), &bo, 1);
	/* Long enough for the kernel to count before it is stopped. */
	ASSERT_TRUE(vx_hang_begin(&self->old_timeout_ms, VX_HANG_PREFIX_MS));
	t0 = vx_now();
	ASSERT_EQ(0, vx_launch(k, &l, &seq));
	ASSERT_TRUE(vx_hang_declared(&self->old_timeout_ms))
		TH_LOG("the hang was never declared");
	ASSERT_EQ(0, vx_wait(self->dev, seq, vx_deadline_ms(self->timeout_ms), &status));
	elapsed = (vx_now() - t0) / MS;
	ASSERT_EQ(-ETIMEDOUT, status);
	EXPECT_GE(elapsed, VX_HANG_PREFIX_MS)
		TH_LOG("timed out after %lld ms", (long long)elapsed);
	ASSERT_EQ(0, hbuf_get(&count));
	EXPECT_GT(count.h[0], 0) TH_LOG("the hang kernel never ran");
	/* same fd, same kernel objects: the context survived the reset */
	ASSERT_EQ(0, run_vecadd(self->dev, self->vecadd, 1000, 99, self->timeout_ms));
	hbuf_free(&count);
	vx_kernel_free(k);
}

/* Each exception kernel fails with -EIO and the context still works. */
static void fault_then_ok(struct __test_metadata *_metadata, FIXTURE_DATA(vx) *self,
			  const char *name)
{
	struct vx_kernel *k;
	struct hbuf out = { 0 };
	struct fault_args args;
	struct vx_launch_bo bo;
	struct vx_launch l = { .grid = { 2 }, .block = { self->core } };

	ASSERT_EQ(0, load(self->dev, name, &k));
	ASSERT_EQ(0, hbuf_new(self->dev, &out, 1));
	/* fault_assert: only the grid's last thread fails */
	args = (struct fault_args){ hbuf_addr(&out), 2 * self->core - 1 };
	bo = (struct vx_launch_bo){ out.bo, VX_BO_WRITE };
	launch_set(&l, &args, sizeof(args), &bo, 1);
	ASSERT_EQ(-EIO, vx_run(k, &l, self->timeout_ms));
	ASSERT_EQ(0, run_vecadd(self->dev, self->vecadd, 333, 7, self->timeout_ms));
	/* twice: recovery must not be a one-off */
	ASSERT_EQ(-EIO, vx_run(k, &l, self->timeout_ms));
	ASSERT_EQ(0, run_vecadd(self->dev, self->vecadd, 4099, 8, self->timeout_ms));
	hbuf_free(&out);
	vx_kernel_free(k);
}

TEST_F(vx, fault_badaddr_then_ok)
{
	fault_then_ok(_metadata, self, "fault_badaddr");
}

TEST_F(vx, fault_misaligned_then_ok)
{
	fault_then_ok(_metadata, self, "fault_misaligned");
}

TEST_F(vx, fault_illegal_then_ok)
{
	fault_then_ok(_metadata, self, "fault_illegal");
}

TEST_F(vx, fault_jump_then_ok)
{
	fault_then_ok(_metadata, self, "fault_jump");
}

/* A branch whose lanes disagree, without split/join: DIVERGENT_BRANCH. */
TEST_F(vx, fault_branch_then_ok)
{
	fault_then_ok(_metadata, self, "fault_branch");
}

TEST_F(vx, fault_assert_then_ok)
{
	fault_then_ok(_metadata, self, "fault_assert");
}

/*
 * Several processes, each with its own fd and many jobs, all correct.  Each
 * process needs a stack area for every hardware thread of the card, so a
 * large card with little VRAM runs fewer of them (at least two).
 */
TEST_F_TIMEOUT(vx, multi_process, 120)
{
	enum { PROCS = 4, ROUNDS = 8 };
	const struct vx_topology *t = vx_device_topology(self->dev);
	uint64_t stack = vx_topology_hw_threads(t) * VX_DEFAULT_STACK_SIZE;
	/* Half of VRAM for stacks, one of them already this fixture's. */
	uint64_t fit = t->vram_size / 2 / stack;
	int procs = fit > PROCS ? PROCS : (int)fit - 1;
	pid_t pids[PROCS];

	if (procs < 2)
		SKIP(return, "%llu MiB of VRAM hold too few %llu MiB stack areas",
		     (unsigned long long)(t->vram_size >> 20),
		     (unsigned long long)(stack >> 20));
	for (int p = 0; p < procs; p++) {
		pids[p] = fork();
		ASSERT_GE(pids[p], 0);
		if (!pids[p]) {
			struct vx_device *dev;
			struct vx_kernel *k;
			int bad = 0;

			if (vx_device_open_path(NODE, &dev) || load(dev, "vecadd", &k))
				_exit(2);
			for (int r = 0; r < ROUNDS; r++)
				bad |= run_vecadd(dev, k, 500 + 97 * r + p, p * 1000 + r,
						  self->timeout_ms * procs) != 0;
			vx_kernel_free(k);
			vx_device_close(dev);
			_exit(bad);
		}
	}
	for (int p = 0; p < procs; p++) {
		int st;

		ASSERT_EQ(pids[p], waitpid(pids[p], &st, 0));
		EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
			TH_LOG("process %d: status 0x%x", p, st);
	}
}

/* The runtime's argument ring wraps (256 slots) without mixing up jobs. */
/*
 * The runtime's copy of the ELF for debuggers is read-only and no-exec
 * for kernels: vecadd told to write its sums there faults on the first
 * store, and the debugger's bytes stay the ELF's.
 */
TEST_F(vx, elf_copy_for_debuggers_is_read_only_for_kernels)
{
	const uint32_t flags = DRM_VORTEX_BO_GPU_READ_ONLY | DRM_VORTEX_BO_GPU_NO_EXEC;
	struct vx_bo *eb = vx_kernel_elf_bo(self->vecadd);
	struct drm_vortex_bo_info info = {};
	struct vecadd_args args;
	struct vx_launch_bo bo;
	struct vx_launch l = { .grid = { 1 }, .block = { self->core } };
	struct hbuf in = { 0 };
	const uint8_t *elf;
	uint8_t now[256];
	size_t len;

	ASSERT_NE(NULL, eb);
	info.handle = vx_bo_handle(eb);
	ASSERT_EQ(0, vx_ioctl(vx_device_fd(self->dev), DRM_IOCTL_VORTEX_BO_INFO, &info));
	EXPECT_EQ(flags, info.flags);

	ASSERT_EQ(0, hbuf_new(self->dev, &in, self->core));
	args = (struct vecadd_args){ hbuf_addr(&in), hbuf_addr(&in),
				     vx_bo_dev_addr(eb), self->core };
	bo = (struct vx_launch_bo){ in.bo, VX_BO_READ };
	launch_set(&l, &args, sizeof(args), &bo, 1);
	EXPECT_EQ(-EIO, vx_run(self->vecadd, &l, self->timeout_ms));
	elf = vx_kernel_elf(self->vecadd, &len);
	ASSERT_LE(sizeof(now), len);
	ASSERT_EQ(0, vx_bo_download(eb, 0, now, sizeof(now)));
	EXPECT_EQ(0, memcmp(elf, now, sizeof(now)));
	/* and the runtime's argument slots did not stop the next job */
	EXPECT_EQ(0, run_vecadd(self->dev, self->vecadd, 100, 3, self->timeout_ms));
	hbuf_free(&in);
}

TEST_F(vx, arg_slots_wrap)
{
	for (int r = 0; r < 300; r++) {
		ASSERT_EQ(0, run_vecadd(self->dev, self->vecadd, 65, r + 1, self->timeout_ms))
			TH_LOG("round %d", r);
	}
}

TEST_HARNESS_MAIN
