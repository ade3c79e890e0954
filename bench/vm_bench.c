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
 * Without DRM_VORTEX_CAP_VM the same figures are printed (buffers without
 * address spaces), and a comment line says so.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "vortex_accel.h"
#include "vortex_test_ioctl.h"

#ifndef DRM_VORTEX_CAP_VM
#define DRM_VORTEX_CAP_VM	(1ull << 5)
#endif

#define RUNS	9
#define SIZE	(64ull << 20)

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
	close(fd);
	return 0;
}
