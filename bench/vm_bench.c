// SPDX-License-Identifier: GPL-2.0
/*
 * What a file's GPU address space costs a 64 MiB buffer:
 *
 *   vm_bo_create_64mib_ms    BO_CREATE: allocate, clear, map in the
 *                            file's page tables (4 MiB megapages where
 *                            aligned)
 *   vm_bo_close_64mib_ms     GEM_CLOSE: unmap, invalidate the TLB, free
 *                            (freed memory is cleared before reuse)
 *   vm_map_unmap_64mib_ms    the two together
 *
 * Medians of RUNS create/close pairs on an idle card, with their range.
 *
 * And the same 64 MiB at an address the client chooses (VM_BIND, with
 * DRM_VORTEX_CAP_VM_BIND), of a DRM_VORTEX_BO_NO_MAP buffer made once:
 *
 *   vm_bind_map_unmap_64mib_ms
 *                            VM_BIND MAP at 0x20000000 (16384 4 KiB
 *                            PTEs) then UNMAP (PTEs cleared, the ASID's
 *                            TLB entries invalidated); no memory cleared
 *   vm_bind_vs_bo_create_ratio
 *                            of each iteration, which runs a create/close
 *                            pair and a map/unmap pair back to back
 *
 * Medians of BIND_RUNS iterations with p10 and p90.
 *
 * And what sharing ASID 511 costs files past the 510 private ones: two
 * files take turns launching a job that loads a word from each of
 * WALK_PAGES pages, launch + wait each, µs:
 *
 *   vm_turns_private_us      the two files have ASIDs of their own, so
 *                            the card's TLB keeps both files' entries
 *   vm_turns_shared_us       two files opened after FILLER_FILES others
 *                            share ASID 511: before each job the driver
 *                            invalidates it, and the job refills the TLB
 *   vm_turns_shared_vs_private_ratio
 *                            of each iteration, which runs both pairs back
 *                            to back (the guest's vCPU speed drifts)
 *
 * Medians of TURNS iterations with p10 and p90.  Without DRM_VORTEX_CAP_VM
 * the same figures are printed (buffers without address spaces), and a
 * comment line says so.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vortex_accel.h"
#include "vortex_test_ioctl.h"
#include "vx_asm.h"

#ifndef DRM_VORTEX_CAP_VM
#define DRM_VORTEX_CAP_VM	(1ull << 5)
#endif

#define RUNS	9
#define SIZE	(64ull << 20)
#define BIND_RUNS	31
#define BIND_VA		0x20000000ull

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void report(const char *name, double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp);
	printf("%s: %.2f (median of %d, range %.2f .. %.2f)\n",
	       name, v[n / 2], n, v[0], v[n - 1]);
}

#define TURNS		300
#define TURNS_WARMUP	20
#define WALK_PAGES	16
#define FILLER_FILES	520	/* more than the card's private ASIDs */
#define PAGE		4096u

enum { X0 = 0, T0 = 5, T1 = 6, T2 = 7, A0 = 10 };

/* One word of each of WALK_PAGES pages from a0 on. */
static const uint32_t prog_walk[] = {
	ADDI(T0, X0, WALK_PAGES),
	LUI(T1, 1),			/* 4096 */
	LW(T2, A0, 0),			/* loop: */
	ADD(A0, A0, T1),
	ADDI(T0, T0, -1),
	BNE(T0, X0, -12),
	TMC(X0),
};

/* A file with the walk in a code page and WALK_PAGES pages to walk. */
struct turn_file {
	int fd;
	struct drm_vortex_submit_bo bos[2];
	struct drm_vortex_submit sub;
};

static int turn_file_open(struct turn_file *f)
{
	uint64_t code_addr, data_addr;
	uint32_t code, data, *map;

	f->fd = open(VX_NODE, O_RDWR | O_CLOEXEC);
	if (f->fd < 0)
		return -errno;
	if (_vx_bo_create(f->fd, PAGE, 0, &code, &code_addr) ||
	    _vx_bo_create(f->fd, WALK_PAGES * PAGE, 0, &data, &data_addr))
		return -ENOMEM;
	map = vx_bo_map(f->fd, code, NULL);
	if (!map)
		return -ENOMEM;
	memcpy(map, prog_walk, sizeof(prog_walk));
	munmap(map, PAGE);
	f->bos[0] = (struct drm_vortex_submit_bo){ code, DRM_VORTEX_SUBMIT_BO_READ };
	f->bos[1] = (struct drm_vortex_submit_bo){ data, DRM_VORTEX_SUBMIT_BO_READ };
	vx_submit_init(&f->sub, code_addr, data_addr, 1, f->bos, 2);
	return 0;
}

/* Launch + wait of @f's walk, µs; negative on failure. */
static double turn(struct turn_file *f)
{
	int64_t t0 = vx_now();
	int32_t status = 1;

	if (_vx_submit(f->fd, &f->sub) ||
	    _vx_wait(f->fd, f->sub.seqno, 10000000000ll, &status) || status)
		return -1;
	return (vx_now() - t0) / 1e3;
}

static void report_spread(const char *name, double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp);
	printf("%s: %.2f (p10 %.2f, p90 %.2f, %d samples)\n",
	       name, v[n / 2], v[n / 10], v[n - 1 - n / 10], n);
}

/* Two pairs of files take turns: one pair with private ASIDs, one sharing. */
static int bench_turns(void)
{
	static double priv[2 * TURNS], shared[2 * TURNS], ratio[TURNS];
	static int fillers[FILLER_FILES];
	struct turn_file f[4];	/* 0, 1 private; 2, 3 past the fillers */
	int i, j, ret = 0, nfill = 0;
	double t[4];

	for (j = 0; j < 4; j++)
		f[j].fd = -1;
	for (j = 0; j < 2 && !ret; j++)
		ret = turn_file_open(&f[j]);
	while (!ret && nfill < FILLER_FILES) {
		fillers[nfill] = open(VX_NODE, O_RDWR | O_CLOEXEC);
		ret = fillers[nfill] < 0 ? -errno : 0;
		nfill += !ret;
	}
	for (j = 2; j < 4 && !ret; j++)
		ret = turn_file_open(&f[j]);
	for (i = -TURNS_WARMUP; !ret && i < TURNS; i++) {
		for (j = 0; j < 4 && !ret; j++) {
			t[j] = turn(&f[j]);
			ret = t[j] < 0 ? -EIO : 0;
		}
		if (ret || i < 0)
			continue;
		priv[2 * i] = t[0];
		priv[2 * i + 1] = t[1];
		shared[2 * i] = t[2];
		shared[2 * i + 1] = t[3];
		ratio[i] = (t[2] + t[3]) / (t[0] + t[1]);
	}
	if (ret) {
		fprintf(stderr, "vm_bench: turns: %s\n", strerror(-ret));
	} else {
		report_spread("vm_turns_private_us", priv, 2 * TURNS);
		report_spread("vm_turns_shared_us", shared, 2 * TURNS);
		report_spread("vm_turns_shared_vs_private_ratio", ratio, TURNS);
	}
	while (nfill)
		close(fillers[--nfill]);
	for (j = 0; j < 4; j++)
		if (f[j].fd >= 0)
			close(f[j].fd);
	return ret;
}

/* The whole cost of one 64 MiB BO_CREATE + GEM_CLOSE, ms; negative on failure. */
static double create_close(int fd)
{
	int64_t t0 = vx_now();
	uint32_t h;

	if (_vx_bo_create(fd, SIZE, 0, &h, NULL) || _vx_bo_close(fd, h))
		return -1;
	return (vx_now() - t0) / 1e6;
}

/* VM_BIND map + unmap of 64 MiB against BO_CREATE + GEM_CLOSE, interleaved. */
static int bench_bind(int fd)
{
	static double bind[BIND_RUNS], ratio[BIND_RUNS];
	int64_t t0, t1;
	double cc;
	uint32_t h;
	int i, ret = 0;

	if (_vx_bo_create(fd, SIZE, DRM_VORTEX_BO_NO_MAP, &h, NULL))
		return -ENOMEM;
	for (i = 0; !ret && i < BIND_RUNS; i++) {
		cc = create_close(fd);
		t0 = vx_now();
		ret = _vx_vm_bind(fd, DRM_VORTEX_VM_BIND_OP_MAP, h, 0, BIND_VA, SIZE,
				  DRM_VORTEX_VM_BIND_READ | DRM_VORTEX_VM_BIND_WRITE);
		if (!ret)
			ret = _vx_vm_bind(fd, DRM_VORTEX_VM_BIND_OP_UNMAP, 0, 0,
					  BIND_VA, SIZE, 0);
		t1 = vx_now();
		if (cc < 0)
			ret = -EIO;
		bind[i] = (t1 - t0) / 1e6;
		ratio[i] = bind[i] / cc;
	}
	_vx_bo_close(fd, h);
	if (ret) {
		fprintf(stderr, "vm_bench: VM_BIND: %s\n", strerror(-ret));
		return ret;
	}
	report_spread("vm_bind_map_unmap_64mib_ms", bind, BIND_RUNS);
	report_spread("vm_bind_vs_bo_create_ratio", ratio, BIND_RUNS);
	return 0;
}

int main(void)
{
	double create[RUNS], close_[RUNS], both[RUNS];
	int64_t t0, t1, t2;
	uint64_t caps = 0;
	uint32_t h;
	int fd, i;

	fd = open(VX_NODE, O_RDWR | O_CLOEXEC);
	if (fd < 0 || _vx_get_param(fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps)) {
		perror("vm_bench: " VX_NODE);
		return 1;
	}
	if (!(caps & DRM_VORTEX_CAP_VM))
		printf("# vm_bench: no DRM_VORTEX_CAP_VM: buffers without address spaces\n");
	for (i = 0; i < RUNS; i++) {
		t0 = vx_now();
		if (_vx_bo_create(fd, SIZE, 0, &h, NULL)) {
			perror("vm_bench: BO_CREATE 64 MiB");
			return 1;
		}
		t1 = vx_now();
		if (_vx_bo_close(fd, h)) {
			perror("vm_bench: GEM_CLOSE");
			return 1;
		}
		t2 = vx_now();
		create[i] = (t1 - t0) / 1e6;
		close_[i] = (t2 - t1) / 1e6;
		both[i] = (t2 - t0) / 1e6;
	}
	report("vm_map_unmap_64mib_ms", both, RUNS);
	report("vm_bo_create_64mib_ms", create, RUNS);
	report("vm_bo_close_64mib_ms", close_, RUNS);
	if (caps & DRM_VORTEX_CAP_VM_BIND && bench_bind(fd))
		return 1;
	close(fd);
	return bench_turns() ? 1 : 0;
}
