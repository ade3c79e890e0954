// SPDX-License-Identifier: GPL-2.0
/*
 * CPU mappings of buffers that do not start at the buffer's first page:
 * a dma-buf mapped at an offset, and the pieces left by munmap, mprotect
 * and mremap of part of a mapping.  Every page of the buffer holds its own
 * pattern, and every mapped page is compared byte for byte with the page
 * it must show.  The mappings are not touched before they are cut, so the
 * first fault happens on the piece (the driver maps a whole VMA per fault).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vortex_accel.h"
#include "vortex_test_ioctl.h"
#include "kselftest_harness.h"

#define PAGES	4
#define PAGE	4096u

FIXTURE(map) {
	int fd;
	uint32_t bo;
	uint64_t offset;
	uint8_t *expect;	/* what the whole buffer holds */
};

FIXTURE_SETUP(map)
{
	struct drm_vortex_bo_info info = { 0 };
	uint8_t *fill;
	uint32_t i;

	self->fd = open(VX_NODE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	vx_cmd(_vx_bo_create(self->fd, PAGES * PAGE, 0, &self->bo, NULL));
	info.handle = self->bo;
	vx_cmd(vx_ioctl(self->fd, DRM_IOCTL_VORTEX_BO_INFO, &info));
	self->offset = info.mmap_offset;

	/* Page n: bytes n*16 + (i % 13), distinct in every page and byte. */
	self->expect = malloc(PAGES * PAGE);
	ASSERT_NE(NULL, self->expect);
	for (i = 0; i < PAGES * PAGE; i++)
		self->expect[i] = (uint8_t)((i / PAGE) * 16 + i % 13 + 1);

	/* Filled through a mapping of its own, gone before the test maps. */
	fill = vx_bo_map(self->fd, self->bo, NULL);
	ASSERT_NE(NULL, fill);
	memcpy(fill, self->expect, PAGES * PAGE);
	munmap(fill, PAGES * PAGE);
}

FIXTURE_TEARDOWN(map)
{
	free(self->expect);
	close(self->fd);
}

/* Maps the whole buffer, untouched. */
static uint8_t *map_all(FIXTURE_DATA(map) *self)
{
	void *p = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
		       self->fd, self->offset);

	return p == MAP_FAILED ? NULL : p;
}

/* Page @addr of a mapping shows buffer page @page, byte for byte. */
#define EXPECT_PAGE(addr, page)						\
	EXPECT_EQ(0, memcmp((addr), self->expect + (page) * PAGE, PAGE))	\
		TH_LOG("mapping shows the wrong data for buffer page %d", (page))

TEST_F(map, whole_mapping_every_page)
{
	uint8_t *p = map_all(self);
	int i;

	ASSERT_NE(NULL, p);
	for (i = 0; i < PAGES; i++)
		EXPECT_PAGE(p + i * PAGE, i);
	munmap(p, PAGES * PAGE);
}

TEST_F(map, dmabuf_mapped_at_offset)
{
	struct drm_prime_handle prime = {
		.handle = self->bo,
		.flags = DRM_CLOEXEC | DRM_RDWR,
	};
	uint8_t *p;

	vx_cmd(vx_ioctl(self->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime));
	p = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, prime.fd, 2 * PAGE);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_PAGE(p + PAGE, 3);	/* the second page faults first */
	EXPECT_PAGE(p, 2);
	munmap(p, 2 * PAGE);

	/* One page in, one page long. */
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, prime.fd, PAGE);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_PAGE(p, 1);
	munmap(p, PAGE);
	close(prime.fd);
}

TEST_F(map, munmap_of_the_first_page)
{
	uint8_t *p = map_all(self);
	int i;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, munmap(p, PAGE));
	for (i = 1; i < PAGES; i++)
		EXPECT_PAGE(p + i * PAGE, i);
	munmap(p + PAGE, (PAGES - 1) * PAGE);
}

TEST_F(map, mprotect_split_in_three)
{
	uint8_t *p = map_all(self);
	int i;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, mprotect(p + 2 * PAGE, PAGE, PROT_READ));
	/* From the last piece to the first, each piece's first fault. */
	for (i = PAGES - 1; i >= 0; i--)
		EXPECT_PAGE(p + i * PAGE, i);
	munmap(p, PAGES * PAGE);
}

TEST_F(map, mremap_of_the_tail)
{
	uint8_t *p = map_all(self), *q, *dest;

	ASSERT_NE(NULL, p);
	/* A free range to move to. */
	dest = mmap(NULL, 2 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, dest);
	q = mremap(p + 2 * PAGE, 2 * PAGE, 2 * PAGE,
		   MREMAP_MAYMOVE | MREMAP_FIXED, dest);
	ASSERT_EQ(dest, q);
	EXPECT_PAGE(q, 2);
	EXPECT_PAGE(q + PAGE, 3);
	EXPECT_PAGE(p + PAGE, 1);
	EXPECT_PAGE(p, 0);
	munmap(p, 2 * PAGE);
	munmap(q, 2 * PAGE);
}

/* Writes land in the page they were written to. */
TEST_F(map, write_through_a_piece)
{
	uint8_t *p = map_all(self), *check;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, munmap(p, 3 * PAGE));
	memset(p + 3 * PAGE, 0x5c, PAGE);
	memset(self->expect + 3 * PAGE, 0x5c, PAGE);
	check = map_all(self);
	ASSERT_NE(NULL, check);
	EXPECT_PAGE(check, 0);
	EXPECT_PAGE(check + 3 * PAGE, 3);
	munmap(check, PAGES * PAGE);
	munmap(p + 3 * PAGE, PAGE);
}

TEST_HARNESS_MAIN
