// SPDX-License-Identifier: GPL-2.0
/*
 * User-chosen GPU virtual addresses (issue 24): DRM_IOCTL_VORTEX_VM_BIND
 * maps pages of a buffer where the client says and unmaps virtual ranges
 * of its file's space (uapi/vortex_accel.h, "User-chosen virtual
 * addresses").
 *
 * What a Vortex runtime needs: its stack just below STACK_BASE_ADDR and
 * its I/O page at IO_BASE_ADDR, as upstream Vortex defines them for RV32
 * (vortexgpgpu/vortex hw/rtl/VX_config.vh:196 `STACK_BASE_ADDR
 * 32'hFFFF0000`, :208 `IO_BASE_ADDR 32'h00000040`, commit fe8168b9),
 * loaded from and stored to by a kernel, the values checked from the
 * host through the buffers, in a grid launch and in Vortex's own launch
 * model (SUBMIT_CORES).  Every error the uapi documents, each with
 * its errno and the space unchanged after it; another file's space
 * untouched; an unmap while a job of the file runs, which must not pull
 * the pages from under it; and a fuzz of map/unmap against a shadow
 * model of the space.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vortex_accel.h"
#include "vortex_test_ioctl.h"
#include "vx_asm.h"
#include "kselftest_harness.h"
#include "vortex_vm_progs.h"

#define MAP		DRM_VORTEX_VM_BIND_OP_MAP
#define UNMAP		DRM_VORTEX_VM_BIND_OP_UNMAP
#define RW		(DRM_VORTEX_VM_BIND_READ | DRM_VORTEX_VM_BIND_WRITE)

/* Vortex's RV32 memory map (VX_config.vh, see the top of the file). */
#define STACK_BASE	0xffff0000ull
#define STACK_PAGE	(STACK_BASE - PAGE)
#define IO_BASE		0x40ull
/*
 * IO_MPM_ADDR = IO_COUT_ADDR + IO_COUT_SIZE (VX_config.vh): ordinary
 * memory of the I/O page, where kernels leave their counters.  Byte
 * stores to IO_COUT (0x40..0x7f) go to the card's console instead and
 * wider ones fault (docs/hardware.md, "Console").
 */
#define IO_MPM		0x80ull
#define IO_PAGE		0x0ull

/* Where the fixture binds its probe buffer: low, clear of everything. */
#define PROBE_VA	0x10000000ull
#define PROBE_WORD	0x7e57da7au

/* Beside vortex_vm_progs.h's load and store. */
enum { PROG_GATE = 128, PROG_VORTEX = 256, PROG_CORES = 384 };

/*
 * A gate at cell = *target, { go, started, in, out }: started = 1, waits
 * for go, then out = in + 1.  The cell is read after the wait, so a cell
 * unmapped meanwhile faults the job.
 */
static const uint32_t prog_gate[] = {
	LW(A1, A0, 4 * ARG_TARGET),
	ADDI(T0, X0, 1),
	SW(T0, A1, 4),
	LW(T1, A1, 0),
	BEQ(T1, X0, -4),
	LW(T2, A1, 8),
	ADDI(T2, T2, 1),
	SW(T2, A1, 12),
	TMC(X0),
};

/*
 * What a Vortex kernel does with its memory map: sp = STACK_BASE, push
 * value and value + 1, store value + 2 at the stack page's first word,
 * read the I/O word at IO_MPM into out and store it + 2 at IO_MPM + 4.
 * The first access is the push at STACK_BASE - 16 (+12).
 */
static const uint32_t prog_vortex[] = {
	LUI(SP, STACK_BASE >> 12),
	ADDI(SP, SP, -16),
	LW(T0, A0, 4 * ARG_VALUE),
	SW(T0, SP, 0),
	LW(T1, SP, 0),
	ADDI(T1, T1, 1),
	SW(T1, SP, 4),
	LUI(T3, STACK_PAGE >> 12),
	ADDI(T2, T0, 2),
	SW(T2, T3, 0),
	LW(T2, X0, IO_MPM),
	SW(T2, A0, 4 * ARG_OUT),
	ADDI(T2, T2, 2),
	SW(T2, X0, IO_MPM + 4),
	TMC(X0),
};

#define VORTEX_PC	12	/* prog_vortex's first push */

/*
 * prog_vortex as Vortex starts it (SUBMIT_CORES): the argument comes in
 * mscratch, a0 is 0.
 */
static const uint32_t prog_cores_head[] = {
	CSRR(A0, VX_CSR_MSCRATCH),
};

/* ------------------------------------------------------------ a client */

static const struct vm_prog vb_progs[] = {
	VM_PROG(PROG_GATE, prog_gate),
	VM_PROG(PROG_VORTEX, prog_vortex),
	VM_PROG(PROG_CORES, prog_cores_head),
	VM_PROG(PROG_CORES + sizeof(prog_cores_head), prog_vortex),
};

/* A client (vortex_vm_progs.h) with this suite's programs too. */
static int vb_client_open(struct vx_client *c)
{
	return vm_client_open_with(c, vb_progs, sizeof(vb_progs) / sizeof(vb_progs[0]));
}

/* Submits @prog on @target and @value without waiting; its seqno, or 0. */
static uint64_t vb_start(struct vx_client *c, unsigned int prog,
			 uint64_t target, uint32_t value)
{
	c->data_map[ARG_TARGET] = (uint32_t)target;
	c->data_map[ARG_VALUE] = value;
	c->data_map[ARG_OUT] = 0xdeadbeefu;
	return vm_launch(c, prog, c->data_addr) ? 0 : c->sub.seqno;
}

/*
 * Runs @prog on @target, which must take page fault @cause at PC offset
 * @pc of @prog and virtual address @addr (the crash dump's fault-info).
 */
static void vb_expect_fault(struct __test_metadata *_metadata, struct vx_client *c,
			    unsigned int prog, uint64_t target, unsigned int cause,
			    unsigned int pc, uint64_t addr)
{
	char *text;

	vx_dump_discard();
	EXPECT_EQ(-EIO, vm_run(c, prog, target, 0x5a5a5a5au))
		TH_LOG("program +%u on 0x%llx did not fault", prog,
		       (unsigned long long)target);
	text = vx_dump_read(5000);
	EXPECT_NE(NULL, text) TH_LOG("no crash dump of the fault");
	EXPECT_EQ(cause, vx_dump_num(text, "fault-info", "cause"));
	EXPECT_EQ(addr, vx_dump_num(text, "fault-info", "address"));
	EXPECT_EQ(c->code_addr + prog + pc, vx_dump_num(text, "fault-info", "pc"));
	free(text);
	vx_dump_discard();
}

/* A NO_MAP buffer of @size bytes and @flags, mapped by the CPU. */
static uint32_t *vb_bo(struct __test_metadata *_metadata, struct vx_client *c,
		       uint64_t size, uint32_t flags, uint32_t *handle)
{
	uint64_t addr = 1;
	uint32_t *map;

	vx_cmd(_vx_bo_create(c->fd, size, flags | DRM_VORTEX_BO_NO_MAP, handle, &addr));
	EXPECT_EQ(0, addr) TH_LOG("a NO_MAP buffer's VRAM address was told");
	map = vx_bo_map(c->fd, *handle, NULL);
	EXPECT_NE(NULL, map);
	return map;
}

/* ------------------------------------------------------------ fixture */

FIXTURE(vb) {
	struct vx_client a;
	uint32_t probe;
	uint32_t *probe_map;
};

FIXTURE_SETUP(vb)
{
	uint64_t caps = 0;

	self->a.fd = -1;
	ASSERT_EQ(0, vb_client_open(&self->a));
	vx_cmd(_vx_get_param(self->a.fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps));
	if (!(caps & DRM_VORTEX_CAP_VM_BIND))
		SKIP(return, "no VM_BIND (DRM_VORTEX_CAP_VM_BIND clear)");
	self->probe_map = vb_bo(_metadata, &self->a, PAGE, 0, &self->probe);
	ASSERT_NE(NULL, self->probe_map);
	self->probe_map[5] = PROBE_WORD;
	vx_cmd(_vx_vm_bind(self->a.fd, MAP, self->probe, 0, PROBE_VA, PAGE, RW));
}

FIXTURE_TEARDOWN(vb)
{
	if (self->probe_map)
		munmap(self->probe_map, PAGE);
	vx_client_close(&self->a);
	vx_dump_discard();
}

/*
 * After a refused call: the probe mapping still reads its word in a job,
 * and [@va, @va + @range), if it is a range VM_BIND may map and clear of
 * the probe, is still free: mapping it (from a fresh buffer) works, and
 * so does unmapping it again.
 */
static void vb_unchanged(struct __test_metadata *_metadata, FIXTURE_DATA(vb) *self,
			 uint64_t va, uint64_t range)
{
	struct vx_client *a = &self->a;
	uint32_t h;

	EXPECT_EQ(0, vm_run(a, PROG_LOAD, PROBE_VA + 20, 0));
	EXPECT_EQ(PROBE_WORD, a->data_map[ARG_OUT]) TH_LOG("the probe mapping changed");
	if (!range || range > (64u << 20) || (va | range) % PAGE ||
	    va + range > (1ull << 32) || va + range < va ||
	    (va < DRM_VORTEX_VM_RESERVED_END && va + range > DRM_VORTEX_VM_RESERVED_START) ||
	    (va < PROBE_VA + PAGE && va + range > PROBE_VA) ||
	    (va < a->code_addr + PAGE && va + range > a->code_addr) ||
	    (va < a->data_addr + PAGE && va + range > a->data_addr))
		return;
	vx_cmd(_vx_bo_create(a->fd, range, DRM_VORTEX_BO_NO_MAP, &h, NULL));
	EXPECT_EQ(0, _vx_vm_bind(a->fd, MAP, h, 0, va, range, RW))
		TH_LOG("0x%llx + 0x%llx was left mapped", (unsigned long long)va,
		       (unsigned long long)range);
	EXPECT_EQ(0, _vx_vm_bind(a->fd, UNMAP, 0, 0, va, range, 0));
	EXPECT_EQ(0, _vx_bo_close(a->fd, h));
}

/* One refused VM_BIND: @errnum, then the space as it was. */
#define vb_refused(errnum, op, h, off, va, range, flags) do {			\
	EXPECT_EQ(-(errnum), _vx_vm_bind(self->a.fd, op, h, off, va, range, flags)); \
	vb_unchanged(_metadata, self, va, range);				\
} while (0)

/* ------------------------------------------------------------ the ABI */

/*
 * The capability bit, and BO_CREATE's DRM_VORTEX_BO_NO_MAP: the buffer's
 * VRAM address is told neither at creation nor by BO_INFO; bit 2 stays
 * an unknown flag.
 */
TEST(capability_and_no_map_buffers)
{
	struct drm_vortex_bo_info info = { 0 };
	uint64_t caps = 0, addr = 1;
	int fd = open(VX_NODE, O_RDWR | O_CLOEXEC);
	uint32_t h;

	ASSERT_LE(0, fd);
	vx_cmd(_vx_get_param(fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps));
	ASSERT_TRUE(caps & DRM_VORTEX_CAP_VM_BIND) TH_LOG("capabilities 0x%llx",
							  (unsigned long long)caps);
	vx_cmd(_vx_bo_create(fd, PAGE, DRM_VORTEX_BO_NO_MAP, &h, &addr));
	EXPECT_EQ(0, addr);
	info.handle = h;
	vx_cmd(vx_ioctl(fd, DRM_IOCTL_VORTEX_BO_INFO, &info));
	EXPECT_EQ(0, info.dev_addr);
	EXPECT_EQ(DRM_VORTEX_BO_NO_MAP, info.flags);
	vx_err(EINVAL, _vx_bo_create(fd, PAGE, 1u << 2, &h, NULL));
	close(fd);
}

TEST_F(vb, err_unknown_op)
{
	vb_refused(EINVAL, 2, self->probe, 0, 0x20000000, PAGE, RW);
}

TEST_F(vb, err_unknown_flag)
{
	vb_refused(EINVAL, MAP, self->probe, 0, 0x20000000, PAGE, RW | (1u << 3));
}

TEST_F(vb, err_nonzero_pad)
{
	struct drm_vortex_vm_bind b = {
		.op = MAP, .flags = RW, .handle = self->probe, .pad = 1,
		.va = 0x20000000, .range = PAGE,
	};

	EXPECT_EQ(-EINVAL, vx_ioctl(self->a.fd, DRM_IOCTL_VORTEX_VM_BIND, &b));
	vb_unchanged(_metadata, self, 0x20000000, PAGE);
}

TEST_F(vb, err_no_access_or_write_without_read)
{
	vb_refused(EINVAL, MAP, self->probe, 0, 0x20000000, PAGE, 0);
	vb_refused(EINVAL, MAP, self->probe, 0, 0x20000000, PAGE,
		   DRM_VORTEX_VM_BIND_WRITE);
}

TEST_F(vb, err_unmap_with_handle_flags_or_offset)
{
	vb_refused(EINVAL, UNMAP, self->probe, 0, PROBE_VA, PAGE, 0);
	vb_refused(EINVAL, UNMAP, 0, 0, PROBE_VA, PAGE, RW);
	vb_refused(EINVAL, UNMAP, 0, PAGE, PROBE_VA, PAGE, 0);
}

TEST_F(vb, err_unaligned_va_range_offset)
{
	uint32_t h;

	vx_cmd(_vx_bo_create(self->a.fd, 4 * PAGE, DRM_VORTEX_BO_NO_MAP, &h, NULL));
	vb_refused(EINVAL, MAP, h, 0, 0x20000800, PAGE, RW);
	vb_refused(EINVAL, MAP, h, 0, 0x20000000, PAGE + 4, RW);
	vb_refused(EINVAL, MAP, h, 16, 0x20000000, PAGE, RW);
	vb_refused(EINVAL, MAP, h, 0, 0x20000000, 0, RW);
	vb_refused(EINVAL, UNMAP, 0, 0, PROBE_VA + 4, PAGE, 0);
	vb_refused(EINVAL, UNMAP, 0, 0, PROBE_VA, 100, 0);
}

TEST_F(vb, err_wrapping_or_past_4gib)
{
	uint32_t h;

	vx_cmd(_vx_bo_create(self->a.fd, 4 * PAGE, DRM_VORTEX_BO_NO_MAP, &h, NULL));
	vb_refused(ERANGE, MAP, h, 0, 0xffffe000ull, 4 * PAGE, RW);
	vb_refused(ERANGE, MAP, h, 0, 1ull << 32, PAGE, RW);
	vb_refused(ERANGE, MAP, h, 0, ~0ull - PAGE + 1, 2 * PAGE, RW);
	vb_refused(ERANGE, UNMAP, 0, 0, 0xfffff000ull, 2 * PAGE, 0);
	vb_refused(ERANGE, UNMAP, 0, 0, PROBE_VA, ~0ull - PAGE + 1, 0);
	/* The last page of the space is the space's. */
	EXPECT_EQ(0, _vx_vm_bind(self->a.fd, MAP, h, 0, 0xfffff000ull, PAGE, RW));
	EXPECT_EQ(0, _vx_vm_bind(self->a.fd, UNMAP, 0, 0, 0xfffff000ull, PAGE, 0));
}

TEST_F(vb, err_reserved_range)
{
	uint32_t h;

	vx_cmd(_vx_bo_create(self->a.fd, 2 * PAGE, DRM_VORTEX_BO_NO_MAP, &h, NULL));
	vb_refused(EPERM, MAP, h, 0, DRM_VORTEX_VM_RESERVED_START, PAGE, RW);
	vb_refused(EPERM, MAP, h, 0, DRM_VORTEX_VM_RESERVED_START - PAGE, 2 * PAGE, RW);
	vb_refused(EPERM, MAP, h, 0, DRM_VORTEX_VM_RESERVED_END - PAGE, 2 * PAGE, RW);
	vb_refused(EPERM, UNMAP, 0, 0, DRM_VORTEX_VM_RESERVED_START, PAGE, 0);
	/* Right next to it is fine. */
	EXPECT_EQ(0, _vx_vm_bind(self->a.fd, MAP, h, 0,
				 DRM_VORTEX_VM_RESERVED_START - 2 * PAGE, 2 * PAGE, RW));
	EXPECT_EQ(0, _vx_vm_bind(self->a.fd, MAP, h, 0, DRM_VORTEX_VM_RESERVED_END,
				 2 * PAGE, RW));
}

/* A buffer's handle mapping (BO_CREATE's, at dev_addr) goes with its handle. */
TEST_F(vb, err_unmap_of_a_handle_mapping)
{
	struct vx_client *a = &self->a;

	vb_refused(EPERM, UNMAP, 0, 0, a->data_addr, PAGE, 0);
	vb_refused(EPERM, UNMAP, 0, 0, a->code_addr - 16 * PAGE, 32 * PAGE, 0);
	EXPECT_EQ(0, vm_run(a, PROG_LOAD, a->data_addr + 4 * (ARG_WORDS - 1), 0));
}

TEST_F(vb, err_bad_handle)
{
	vb_refused(ENOENT, MAP, 0xdead, 0, 0x20000000, PAGE, RW);
	vb_refused(ENOENT, MAP, 0, 0, 0x20000000, PAGE, RW);
}

TEST_F(vb, err_range_beyond_the_buffer)
{
	uint32_t h;

	vx_cmd(_vx_bo_create(self->a.fd, 2 * PAGE, DRM_VORTEX_BO_NO_MAP, &h, NULL));
	vb_refused(EINVAL, MAP, h, 0, 0x20000000, 3 * PAGE, RW);
	vb_refused(EINVAL, MAP, h, PAGE, 0x20000000, 2 * PAGE, RW);
	vb_refused(EINVAL, MAP, h, 2 * PAGE, 0x20000000, PAGE, RW);
	vb_refused(EINVAL, MAP, h, ~0ull - PAGE + 1, 0x20000000, 2 * PAGE, RW);
}

TEST_F(vb, err_access_beyond_the_buffer_flags)
{
	uint32_t ro, nx;

	vx_cmd(_vx_bo_create(self->a.fd, PAGE, DRM_VORTEX_BO_NO_MAP |
			     DRM_VORTEX_BO_GPU_READ_ONLY, &ro, NULL));
	vx_cmd(_vx_bo_create(self->a.fd, PAGE, DRM_VORTEX_BO_NO_MAP |
			     DRM_VORTEX_BO_GPU_NO_EXEC, &nx, NULL));
	vb_refused(EACCES, MAP, ro, 0, 0x20000000, PAGE, RW);
	vb_refused(EACCES, MAP, nx, 0, 0x20000000, PAGE,
		   DRM_VORTEX_VM_BIND_READ | DRM_VORTEX_VM_BIND_EXEC);
	/* What the buffer allows maps. */
	EXPECT_EQ(0, _vx_vm_bind(self->a.fd, MAP, ro, 0, 0x20000000, PAGE,
				 DRM_VORTEX_VM_BIND_READ | DRM_VORTEX_VM_BIND_EXEC));
	EXPECT_EQ(0, _vx_vm_bind(self->a.fd, MAP, nx, 0, 0x20001000, PAGE, RW));
}

TEST_F(vb, err_overlap)
{
	struct vx_client *a = &self->a;
	uint32_t h;

	vx_cmd(_vx_bo_create(a->fd, 4 * PAGE, DRM_VORTEX_BO_NO_MAP, &h, NULL));
	vb_refused(EEXIST, MAP, h, 0, PROBE_VA, PAGE, RW);
	vb_refused(EEXIST, MAP, h, 0, PROBE_VA - PAGE, 2 * PAGE, RW);
	vb_refused(EEXIST, MAP, h, 0, PROBE_VA - 2 * PAGE, 4 * PAGE, RW);
	/* Over a buffer's handle mapping too. */
	vb_refused(EEXIST, MAP, h, 0, a->code_addr, PAGE, RW);
	vb_refused(EEXIST, MAP, h, 0, a->data_addr - PAGE, 2 * PAGE, RW);
}

/*
 * A handle to a buffer whose dev_addr range this file has bound something
 * else at cannot map it there: the import is -EEXIST and makes no handle;
 * once the range is unmapped the import works, at dev_addr.
 */
TEST_F(vb, import_over_a_bound_range_is_refused)
{
	struct vx_client *a = &self->a;
	struct drm_prime_handle prime = { .flags = DRM_CLOEXEC };
	int fd2 = open(VX_NODE, O_RDWR | O_CLOEXEC);
	uint64_t y_addr;
	uint32_t y, h;
	uint32_t *y_map;

	ASSERT_LE(0, fd2);
	vx_cmd(_vx_bo_create(fd2, PAGE, 0, &y, &y_addr));
	y_map = vx_bo_map(fd2, y, NULL);
	ASSERT_NE(NULL, y_map);
	y_map[3] = 0x1234abcdu;
	prime.handle = y;
	vx_cmd(vx_ioctl(fd2, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime));

	vx_cmd(_vx_bo_create(a->fd, PAGE, DRM_VORTEX_BO_NO_MAP, &h, NULL));
	vx_cmd(_vx_vm_bind(a->fd, MAP, h, 0, y_addr, PAGE, RW));
	prime.handle = 0;
	EXPECT_EQ(-EEXIST, vx_ioctl(a->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &prime));
	vx_cmd(_vx_vm_bind(a->fd, UNMAP, 0, 0, y_addr, PAGE, 0));
	vx_cmd(vx_ioctl(a->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &prime));
	EXPECT_EQ(0, vm_run(a, PROG_LOAD, y_addr + 12, 0));
	EXPECT_EQ(0x1234abcdu, a->data_map[ARG_OUT]);
	close(prime.fd);
	munmap(y_map, PAGE);
	close(fd2);
}

/* ------------------------------------------------- Vortex's memory map */

/*
 * A stack page at 0xFFFEF000..0xFFFF0000 and the I/O page holding
 * IO_BASE_ADDR, both DRM_VORTEX_BO_NO_MAP buffers bound there: the kernel
 * pushes on the stack and reads and writes the I/O words; the host sees
 * every store in the buffers.  Another file's space has neither: the
 * same kernel of the other file faults on its first push, and A's pages
 * are unchanged by it.
 */
TEST_F_TIMEOUT(vb, stack_and_io_pages_at_vortex_addresses, 120)
{
	struct vx_client *a = &self->a, b;
	uint32_t stack, io, *stack_map, *io_map;

	stack_map = vb_bo(_metadata, a, PAGE, DRM_VORTEX_BO_GPU_NO_EXEC, &stack);
	io_map = vb_bo(_metadata, a, PAGE, DRM_VORTEX_BO_GPU_NO_EXEC, &io);
	ASSERT_NE(NULL, stack_map);
	ASSERT_NE(NULL, io_map);
	io_map[IO_MPM / 4] = 0xc0ffee00u;
	vx_cmd(_vx_vm_bind(a->fd, MAP, stack, 0, STACK_PAGE, PAGE, RW));
	vx_cmd(_vx_vm_bind(a->fd, MAP, io, 0, IO_PAGE, PAGE, RW));

	ASSERT_EQ(0, vm_run(a, PROG_VORTEX, 0, 0x1000));
	EXPECT_EQ(0x1000, stack_map[(PAGE - 16) / 4]);
	EXPECT_EQ(0x1001, stack_map[(PAGE - 12) / 4]);
	EXPECT_EQ(0x1002, stack_map[0]);
	EXPECT_EQ(0xc0ffee00u, a->data_map[ARG_OUT]);
	EXPECT_EQ(0xc0ffee02u, io_map[IO_MPM / 4 + 1]);
	EXPECT_EQ(0, io_map[0]) TH_LOG("a store landed below IO_BASE_ADDR");

	/* B: the same program, nothing bound: a fault at its first push. */
	ASSERT_EQ(0, vb_client_open(&b));
	vb_expect_fault(_metadata, &b, PROG_VORTEX, 0, VX_ERR_STORE_PAGE_FAULT,
			VORTEX_PC, STACK_BASE - 16);
	EXPECT_EQ(0x1000, stack_map[(PAGE - 16) / 4]);
	EXPECT_EQ(0xc0ffee02u, io_map[IO_MPM / 4 + 1]);
	/* Nor do A's mappings show through B's own addresses. */
	vb_expect_fault(_metadata, &b, PROG_LOAD, PROBE_VA + 20, VX_ERR_LOAD_PAGE_FAULT,
			LOAD_PC, PROBE_VA + 20);
	vx_client_close(&b);

	/* A's again, a second time: the mappings are A's for good. */
	ASSERT_EQ(0, vm_run(a, PROG_VORTEX, 0, 0x2000));
	EXPECT_EQ(0x2002, stack_map[0]);
	munmap(stack_map, PAGE);
	munmap(io_map, PAGE);
}

static int vb_dcr_write(int fd, uint32_t addr, uint32_t value)
{
	struct drm_vortex_dcr d = { .addr = addr, .flags = DRM_VORTEX_DCR_WRITE,
				    .value = value };

	return vx_ioctl(fd, DRM_IOCTL_VORTEX_DCR, &d);
}

/*
 * The same pages used by a job launched in Vortex's own model
 * (DRM_VORTEX_SUBMIT_CORES, STARTUP_ADDR/ARG in the file's DCRs): warp 0
 * lane 0 of every core pushes on the stack below 0xFFFF0000 and reads and
 * writes the I/O words at 0x40, all of them the same values.
 */
TEST_F_TIMEOUT(vb, vortex_model_launch_uses_stack_and_io_pages, 120)
{
	struct vx_client *a = &self->a;
	struct drm_vortex_submit sub = a->sub;
	uint32_t stack, io, *stack_map, *io_map;
	int32_t status = 1;
	uint64_t caps = 0;

	vx_cmd(_vx_get_param(a->fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps));
	if (!(caps & DRM_VORTEX_CAP_CORES))
		SKIP(return, "no Vortex launch model (DRM_VORTEX_CAP_CORES clear)");
	stack_map = vb_bo(_metadata, a, PAGE, 0, &stack);
	io_map = vb_bo(_metadata, a, PAGE, 0, &io);
	ASSERT_NE(NULL, stack_map);
	ASSERT_NE(NULL, io_map);
	io_map[IO_MPM / 4] = 0xc0ffee10u;
	vx_cmd(_vx_vm_bind(a->fd, MAP, stack, 0, STACK_PAGE, PAGE, RW));
	vx_cmd(_vx_vm_bind(a->fd, MAP, io, 0, IO_PAGE, PAGE, RW));
	vx_cmd(vb_dcr_write(a->fd, DRM_VORTEX_DCR_STARTUP_ADDR0, a->code_addr + PROG_CORES));
	vx_cmd(vb_dcr_write(a->fd, DRM_VORTEX_DCR_STARTUP_ARG0, a->data_addr));
	a->data_map[ARG_VALUE] = 0x3000;
	a->data_map[ARG_OUT] = 0xdeadbeefu;
	sub.flags = DRM_VORTEX_SUBMIT_CORES;
	sub.entry_pc = sub.arg_addr = 0;
	memset(sub.grid, 0, sizeof(sub.grid));
	memset(sub.block, 0, sizeof(sub.block));
	vx_cmd(_vx_submit(a->fd, &sub));
	vx_cmd(_vx_wait(a->fd, sub.seqno, 30 * SEC, &status));
	EXPECT_EQ(0, status);
	EXPECT_EQ(0x3000, stack_map[(PAGE - 16) / 4]);
	EXPECT_EQ(0x3001, stack_map[(PAGE - 12) / 4]);
	EXPECT_EQ(0x3002, stack_map[0]);
	EXPECT_EQ(0xc0ffee10u, a->data_map[ARG_OUT]);
	EXPECT_EQ(0xc0ffee12u, io_map[IO_MPM / 4 + 1]);
	munmap(stack_map, PAGE);
	munmap(io_map, PAGE);
}

/*
 * Access flags as bound: a store to a read-only binding of a writable
 * buffer is a store page fault, the buffer unchanged; the same pages
 * bound writable elsewhere take the store.  One buffer, two addresses.
 */
TEST_F_TIMEOUT(vb, access_flags_and_aliases, 120)
{
	struct vx_client *a = &self->a;
	uint32_t h, *map = vb_bo(_metadata, a, 2 * PAGE, 0, &h);

	ASSERT_NE(NULL, map);
	vx_cmd(_vx_vm_bind(a->fd, MAP, h, PAGE, 0x30000000, PAGE,
			   DRM_VORTEX_VM_BIND_READ));
	vx_cmd(_vx_vm_bind(a->fd, MAP, h, 0, 0x30100000, 2 * PAGE, RW));
	vb_expect_fault(_metadata, a, PROG_STORE, 0x30000010, VX_ERR_STORE_PAGE_FAULT,
			STORE_PC, 0x30000010);
	EXPECT_EQ(0, map[PAGE / 4 + 4]);
	EXPECT_EQ(0, vm_run(a, PROG_STORE, 0x30101010, 0xabcd));
	EXPECT_EQ(0xabcd, map[PAGE / 4 + 4]);
	EXPECT_EQ(0, vm_run(a, PROG_LOAD, 0x30000010, 0));
	EXPECT_EQ(0xabcd, a->data_map[ARG_OUT]);
	/* The buffer outlives its handle while bound. */
	vx_cmd(_vx_bo_close(a->fd, h));
	EXPECT_EQ(0, vm_run(a, PROG_LOAD, 0x30000010, 0));
	EXPECT_EQ(0xabcd, a->data_map[ARG_OUT]);
	munmap(map, 2 * PAGE);
}

/* ------------------------------------------------- unmap under a job */

/*
 * A job of A waits at a gate in page 2 of a 3-page binding.  Page 2 is
 * unmapped meanwhile (a split: pages 1 and 3 stay), and mapping over it
 * is -EBUSY while the job is in flight.  Released, the job reads and
 * writes the cell: it completes with the right answer, no fault.  Then
 * page 2 is gone for the next job (a load page fault there), pages 1 and
 * 3 still read, and page 2's range maps again.
 */
TEST_F_TIMEOUT(vb, unmap_while_a_job_runs_keeps_its_pages, 120)
{
	struct vx_client *a = &self->a;
	const uint64_t va = 0x50000000;
	uint32_t h, h2, *map = vb_bo(_metadata, a, 3 * PAGE, 0, &h);
	volatile uint32_t *cell;
	int32_t status = 1;
	uint64_t job;

	ASSERT_NE(NULL, map);
	cell = map + PAGE / 4;
	map[1] = 0x11;
	map[2 * PAGE / 4 + 1] = 0x33;
	cell[2] = 41;
	vx_cmd(_vx_vm_bind(a->fd, MAP, h, 0, va, 3 * PAGE, RW));
	job = vb_start(a, PROG_GATE, va + PAGE, 0);
	ASSERT_NE(0, job);
	ASSERT_TRUE(vx_poll_ms(cell[1] == 1, VX_LIVE_MS)) TH_LOG("the job did not start");

	vx_cmd(_vx_vm_bind(a->fd, UNMAP, 0, 0, va + PAGE, PAGE, 0));
	vx_cmd(_vx_bo_create(a->fd, PAGE, DRM_VORTEX_BO_NO_MAP, &h2, NULL));
	EXPECT_EQ(-EBUSY, _vx_vm_bind(a->fd, MAP, h2, 0, va + PAGE, PAGE, RW));
	/* Over the pages kept, it is the plain overlap. */
	EXPECT_EQ(-EEXIST, _vx_vm_bind(a->fd, MAP, h, 0, va, 3 * PAGE, RW));
	/* Unmapping it again is nothing. */
	EXPECT_EQ(0, _vx_vm_bind(a->fd, UNMAP, 0, 0, va + PAGE, PAGE, 0));
	vx_err(ETIME, _vx_wait(a->fd, job, 0, &status));

	cell[0] = 1;
	__sync_synchronize();
	vx_cmd(_vx_wait(a->fd, job, VX_LIVE_MS * MS, &status));
	EXPECT_EQ(0, status) TH_LOG("the job lost its page");
	EXPECT_EQ(42, cell[3]);

	vb_expect_fault(_metadata, a, PROG_LOAD, va + PAGE + 8, VX_ERR_LOAD_PAGE_FAULT,
			LOAD_PC, va + PAGE + 8);
	EXPECT_EQ(0, vm_run(a, PROG_LOAD, va + 4, 0));
	EXPECT_EQ(0x11, a->data_map[ARG_OUT]);
	EXPECT_EQ(0, vm_run(a, PROG_LOAD, va + 2 * PAGE + 4, 0));
	EXPECT_EQ(0x33, a->data_map[ARG_OUT]);
	EXPECT_EQ(0, _vx_vm_bind(a->fd, MAP, h2, 0, va + PAGE, PAGE, RW));
	EXPECT_EQ(0, vm_run(a, PROG_LOAD, va + PAGE + 8, 0));
	EXPECT_EQ(0, a->data_map[ARG_OUT]) TH_LOG("the new page is not the new buffer's");
	munmap(map, 3 * PAGE);
}

/* --------------------------------------------------------- the debugger */

static int vb_dbg_mem(int sfd, uint64_t addr, void *buf, uint32_t len, bool write)
{
	struct drm_vortex_debug_mem_op op = {
		.addr = addr, .buf = (uintptr_t)buf, .len = len,
		.flags = write ? DRM_VORTEX_DEBUG_MEM_WRITE : 0,
	};
	struct drm_vortex_debug_mem m = {
		.ops = (uintptr_t)&op, .count = 1, .stride = sizeof(op),
	};

	return ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_MEM, &m) ? -errno : 0;
}

static int vb_dbg_bp(int sfd, uint64_t addr, uint32_t op)
{
	struct drm_vortex_debug_bp_op o = { .addr = addr, .op = op };
	struct drm_vortex_debug_breakpoint b = {
		.ops = (uintptr_t)&o, .count = 1, .stride = sizeof(o),
	};

	return ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_BREAKPOINT, &b) ? -errno : 0;
}

/*
 * The debugger speaks the space's virtual addresses: MEM at a bound
 * address reads and writes the buffer bound there, across two bindings
 * of different buffers side by side; an unbound address is -ENXIO; a
 * breakpoint set at a bound alias of the code buffer puts ebreak into
 * that buffer (and MEM hides it); clearing it puts the word back.
 */
TEST_F_TIMEOUT(vb, debugger_speaks_bound_addresses, 120)
{
	struct vx_client *a = &self->a;
	const uint64_t va = 0x70000000, code_va = 0x71000000;
	struct drm_vortex_debug_attach at = { .version = DRM_VORTEX_DEBUG_VERSION };
	uint32_t d, e, *dm = vb_bo(_metadata, a, 2 * PAGE, 0, &d);
	uint32_t *em = vb_bo(_metadata, a, PAGE, 0, &e);
	uint32_t buf[4], w = 0x600dcafe, orig = ((uint32_t *)a->code_map)[PROG_LOAD / 4];
	uint64_t caps = 0;
	int sfd;

	vx_cmd(_vx_get_param(a->fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps));
	if (!(caps & DRM_VORTEX_CAP_DEBUG))
		SKIP(return, "debugging disabled");
	ASSERT_NE(NULL, dm);
	ASSERT_NE(NULL, em);
	dm[PAGE / 4 + 1] = 0xd1d1d1d1u;
	em[0] = 0xe0e0e0e0u;
	vx_cmd(_vx_vm_bind(a->fd, MAP, d, PAGE, va, PAGE, RW));
	vx_cmd(_vx_vm_bind(a->fd, MAP, e, 0, va + PAGE, PAGE, RW));
	vx_cmd(_vx_vm_bind(a->fd, MAP, a->code, 0, code_va, PAGE,
			   DRM_VORTEX_VM_BIND_READ | DRM_VORTEX_VM_BIND_EXEC));
	vx_cmd(vx_ioctl(a->fd, DRM_IOCTL_VORTEX_DEBUG_ATTACH, &at));
	sfd = at.fd;

	memset(buf, 0, sizeof(buf));
	EXPECT_EQ(0, vb_dbg_mem(sfd, va + PAGE - 4, buf, 8, false));
	EXPECT_EQ(dm[2 * PAGE / 4 - 1], buf[0]);
	EXPECT_EQ(0xe0e0e0e0u, buf[1]) TH_LOG("MEM did not cross into the next binding");
	EXPECT_EQ(0, vb_dbg_mem(sfd, va + 4, buf, 4, false));
	EXPECT_EQ(0xd1d1d1d1u, buf[0]);
	EXPECT_EQ(0, vb_dbg_mem(sfd, va + 8, &w, 4, true));
	EXPECT_EQ(0x600dcafe, dm[PAGE / 4 + 2]);
	EXPECT_EQ(0, dm[2]) TH_LOG("MEM wrote page 0 of the buffer, not the bound page");
	EXPECT_EQ(-ENXIO, vb_dbg_mem(sfd, va + 2 * PAGE, buf, 4, false));

	EXPECT_EQ(0, vb_dbg_bp(sfd, code_va + PROG_LOAD, DRM_VORTEX_DEBUG_BP_SET));
	EXPECT_EQ(EBREAK, ((uint32_t *)a->code_map)[PROG_LOAD / 4]);
	EXPECT_EQ(0, vb_dbg_mem(sfd, code_va + PROG_LOAD, buf, 4, false));
	EXPECT_EQ(orig, buf[0]) TH_LOG("MEM showed the breakpoint");
	EXPECT_EQ(0, vb_dbg_bp(sfd, code_va + PROG_LOAD, DRM_VORTEX_DEBUG_BP_CLEAR));
	EXPECT_EQ(orig, ((uint32_t *)a->code_map)[PROG_LOAD / 4]);
	close(sfd);
	munmap(dm, 2 * PAGE);
	munmap(em, PAGE);
}

/*
 * A code object (DRM_IOCTL_VORTEX_CODE_OBJECT) whose ELF bytes are in a
 * NO_MAP buffer: debuggers read them at the virtual address it is bound
 * at, so the LAUNCHED event names that address, never a VRAM one; a range
 * no mapping holds is -ENXIO (uapi kernel-doc).  Before the fix the event
 * carried the buffer's VRAM address.
 */
TEST_F_TIMEOUT(vb, code_object_of_a_no_map_buffer_names_its_virtual_address, 120)
{
	struct vx_client *a = &self->a;
	const uint64_t elf_va = 0x73000000;
	struct drm_vortex_debug_attach at = { .version = DRM_VORTEX_DEBUG_VERSION };
	struct drm_vortex_code_object co = {
		.offset = 0x100, .size = 0x200,
		.load_addr = 0, .load_size = PAGE,
	};
	struct drm_vortex_debug_event ev;
	struct pollfd p = { .events = POLLIN };
	uint32_t e, *em = vb_bo(_metadata, a, 2 * PAGE, 0, &e);
	uint64_t caps = 0, seq;
	int32_t status = 1;

	vx_cmd(_vx_get_param(a->fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps));
	if (!(caps & DRM_VORTEX_CAP_DEBUG))
		SKIP(return, "debugging disabled");
	ASSERT_NE(NULL, em);
	co.handle = e;
	co.load_addr = a->code_addr;
	EXPECT_EQ(-ENXIO, vx_ioctl(a->fd, DRM_IOCTL_VORTEX_CODE_OBJECT, &co))
		TH_LOG("an unbound NO_MAP buffer was taken");
	vx_cmd(_vx_vm_bind(a->fd, MAP, e, 0, elf_va, PAGE, DRM_VORTEX_VM_BIND_READ));
	co.offset = PAGE;	/* the unbound second page */
	EXPECT_EQ(-ENXIO, vx_ioctl(a->fd, DRM_IOCTL_VORTEX_CODE_OBJECT, &co));
	co.offset = PAGE - 0x100;	/* across the end of the mapping */
	EXPECT_EQ(-ENXIO, vx_ioctl(a->fd, DRM_IOCTL_VORTEX_CODE_OBJECT, &co));
	co.offset = 0x100;
	vx_cmd(vx_ioctl(a->fd, DRM_IOCTL_VORTEX_CODE_OBJECT, &co));
	EXPECT_NE(0, co.id);

	vx_cmd(vx_ioctl(a->fd, DRM_IOCTL_VORTEX_DEBUG_ATTACH, &at));
	p.fd = at.fd;
	seq = vb_start(a, PROG_LOAD, PROBE_VA + 20, 0);
	ASSERT_NE(0, seq);
	memset(&ev, 0, sizeof(ev));
	while (ev.type != DRM_VORTEX_DEBUG_EVENT_LAUNCHED) {
		ASSERT_EQ(1, poll(&p, 1, 10000)) TH_LOG("no LAUNCHED event");
		ASSERT_EQ(sizeof(ev), read(at.fd, &ev, sizeof(ev)));
	}
	EXPECT_EQ(co.id, ev.data[7]);
	EXPECT_EQ(elf_va + 0x100, ev.data[8]) TH_LOG("ELF at 0x%x", ev.data[8]);
	EXPECT_EQ(0x200, ev.data[9]);
	vx_cmd(_vx_wait(a->fd, seq, 20 * SEC, &status));
	EXPECT_EQ(0, status);
	close(at.fd);
	munmap(em, 2 * PAGE);
}

/* ------------------------------------------------------------- fuzz */

#define FUZZ_PAGES	64		/* the window the fuzz plays in */
#define FUZZ_VA		0x60000000ull
#define FUZZ_BOS	4
#define FUZZ_OPS	1500
#define FUZZ_RUNS	60		/* jobs that check a page */
#define FUZZ_FAULTS	6		/* of which on unmapped pages */

struct fuzz_bo {
	uint32_t handle, flags, pages;
	uint32_t *map;
};

/* The shadow: per page of the window, its buffer, page and access, or none. */
struct fuzz {
	uint64_t rng;
	struct fuzz_bo bo[FUZZ_BOS];
	int8_t page_bo[FUZZ_PAGES];
	uint32_t page_of[FUZZ_PAGES];
	uint32_t page_flags[FUZZ_PAGES];
	int runs, faults;
};

static uint32_t fuzz_rand(struct fuzz *f)
{
	return vx_lcg(&f->rng) >> 33;
}

/* The errno the uapi gives a MAP, from the shadow. */
static int fuzz_map_errno(struct fuzz *f, int b, uint64_t off, uint64_t va,
			  uint64_t range, uint32_t flags)
{
	struct fuzz_bo *bo = &f->bo[b];
	uint64_t p;

	if (!range || (va | range | off) % PAGE)
		return -EINVAL;
	if (va + range > (1ull << 32))
		return -ERANGE;
	if (off > bo->pages * PAGE || range > bo->pages * PAGE - off)
		return -EINVAL;
	if ((flags & DRM_VORTEX_VM_BIND_WRITE && !(flags & DRM_VORTEX_VM_BIND_READ)) ||
	    !(flags & (DRM_VORTEX_VM_BIND_READ | DRM_VORTEX_VM_BIND_EXEC)))
		return -EINVAL;
	if ((flags & DRM_VORTEX_VM_BIND_WRITE && bo->flags & DRM_VORTEX_BO_GPU_READ_ONLY) ||
	    (flags & DRM_VORTEX_VM_BIND_EXEC && bo->flags & DRM_VORTEX_BO_GPU_NO_EXEC))
		return -EACCES;
	for (p = (va - FUZZ_VA) / PAGE; p < (va + range - FUZZ_VA) / PAGE; p++)
		if (f->page_bo[p] >= 0)
			return -EEXIST;
	return 0;
}

/* A random map or unmap inside (or just off) the window, checked. */
static void fuzz_op(struct __test_metadata *_metadata, struct fuzz *f, int fd)
{
	uint32_t r = fuzz_rand(f), first = fuzz_rand(f) % FUZZ_PAGES;
	uint32_t n = 1 + fuzz_rand(f) % (FUZZ_PAGES - first);
	uint64_t va = FUZZ_VA + (uint64_t)first * PAGE, range = (uint64_t)n * PAGE;
	int b = fuzz_rand(f) % FUZZ_BOS, want, got;
	uint64_t off = (uint64_t)(fuzz_rand(f) % 4) * PAGE;
	uint32_t flags = 1 + fuzz_rand(f) % 7, p;

	if (r % 16 == 0)
		va += 8;		/* unaligned */
	else if (r % 16 == 1)
		off = f->bo[b].pages * PAGE;	/* past the buffer */
	if (r % 2) {
		got = _vx_vm_bind(fd, UNMAP, 0, 0, va, range, 0);
		want = va % PAGE ? -EINVAL : 0;
		EXPECT_EQ(want, got) TH_LOG("UNMAP 0x%llx + 0x%llx",
					    (unsigned long long)va, (unsigned long long)range);
		for (p = first; !want && !got && p < first + n; p++)
			f->page_bo[p] = -1;
		return;
	}
	want = fuzz_map_errno(f, b, off, va, range, flags);
	got = _vx_vm_bind(fd, MAP, f->bo[b].handle, off, va, range, flags);
	EXPECT_EQ(want, got) TH_LOG("MAP bo %d +0x%llx at 0x%llx + 0x%llx flags %u",
				    b, (unsigned long long)off, (unsigned long long)va,
				    (unsigned long long)range, flags);
	for (p = first; !want && !got && p < first + n; p++) {
		f->page_bo[p] = b;
		f->page_of[p] = off / PAGE + (p - first);
		f->page_flags[p] = flags;
	}
}

/*
 * A job reads a random page of the window: the shadow's buffer page, or a
 * fault where nothing readable is mapped (execute-only is not readable).
 */
static void fuzz_check(struct __test_metadata *_metadata, struct fuzz *f,
		       struct vx_client *c)
{
	uint32_t p = fuzz_rand(f) % FUZZ_PAGES, v = fuzz_rand(f);
	uint64_t va = FUZZ_VA + (uint64_t)p * PAGE + 4 * (v % 1024);
	struct fuzz_bo *bo;
	int b = f->page_bo[p];

	if (b < 0 || !(f->page_flags[p] & DRM_VORTEX_VM_BIND_READ)) {
		if (f->faults++ < FUZZ_FAULTS)
			vb_expect_fault(_metadata, c, PROG_LOAD, va,
					VX_ERR_LOAD_PAGE_FAULT, LOAD_PC, va);
		return;
	}
	bo = &f->bo[b];
	bo->map[f->page_of[p] * PAGE / 4 + v % 1024] = v;
	EXPECT_EQ(0, vm_run(c, PROG_LOAD, va, 0)) TH_LOG("load at 0x%llx", (unsigned long long)va);
	EXPECT_EQ(v, c->data_map[ARG_OUT]) TH_LOG("page %u: not bo %d page %u", p, b,
						  f->page_of[p]);
}

/*
 * Random MAP and UNMAP over a 64-page window (splits, overlaps, ranges
 * off the buffers, unaligned ones, every access combination), each with
 * the errno the shadow model predicts, and jobs that read random pages
 * of the window against the shadow.  The seed is printed; the module's
 * clean unload at the end of the boot checks nothing leaked.
 */
TEST_F_TIMEOUT(vb, fuzz_map_unmap, 600)
{
	static const uint32_t bo_flags[FUZZ_BOS] = {
		0, DRM_VORTEX_BO_GPU_READ_ONLY, DRM_VORTEX_BO_GPU_NO_EXEC, 0,
	};
	struct fuzz f = { .rng = (uint64_t)vx_now() | 1 };
	int i;

	ksft_print_msg("fuzz seed 0x%llx\n", (unsigned long long)f.rng);
	memset(f.page_bo, -1, sizeof(f.page_bo));
	for (i = 0; i < FUZZ_BOS; i++) {
		f.bo[i].flags = bo_flags[i];
		f.bo[i].pages = 4 + 20 * i;
		f.bo[i].map = vb_bo(_metadata, &self->a, f.bo[i].pages * PAGE,
				    bo_flags[i], &f.bo[i].handle);
		ASSERT_NE(NULL, f.bo[i].map);
	}
	for (i = 0; i < FUZZ_OPS && !_metadata->exit_code; i++) {
		fuzz_op(_metadata, &f, self->a.fd);
		if (fuzz_rand(&f) % (FUZZ_OPS / FUZZ_RUNS) == 0)
			fuzz_check(_metadata, &f, &self->a);
	}
	EXPECT_EQ(0, _vx_vm_bind(self->a.fd, UNMAP, 0, 0, FUZZ_VA,
				 FUZZ_PAGES * PAGE, 0));
	vb_unchanged(_metadata, self, FUZZ_VA, FUZZ_PAGES * PAGE);
	for (i = 0; i < FUZZ_BOS; i++)
		munmap(f.bo[i].map, f.bo[i].pages * PAGE);
}

/*
 * A crash dump speaks the job's addresses: a NO_MAP buffer the job lists,
 * bound at PROBE_VA, is in `bos:` at PROBE_VA with its contents, never at
 * its VRAM placement (issue 24: "dumps ... keep speaking virtual
 * addresses"; a client does not learn where its buffers sit).  Before,
 * the dump printed the buffer's VRAM address.
 */
TEST_F_TIMEOUT(vb, dump_names_a_bound_buffer_by_its_address, 60)
{
	struct vx_client *a = &self->a;
	char pat[64], *text;
	uint32_t h, *map;

	map = vb_bo(_metadata, a, PAGE, 0, &h);
	ASSERT_NE(NULL, map);
	map[0] = 0x11223344u;
	map[1] = PROBE_WORD;
	vx_cmd(_vx_vm_bind(a->fd, MAP, h, 0, PROBE_VA + 16 * PAGE, PAGE, RW));
	a->bos[2] = (struct drm_vortex_submit_bo){ h, DRM_VORTEX_SUBMIT_BO_READ };
	a->sub.bo_count = 3;
	vx_dump_discard();
	/* the load at address 0 faults */
	EXPECT_EQ(-EIO, vm_run(a, PROG_LOAD, 0, 0));
	text = vx_dump_read(5000);
	ASSERT_NE(NULL, text);
	snprintf(pat, sizeof(pat), "  - iova: 0x%016llx\n    size: %u\n",
		 (unsigned long long)(PROBE_VA + 16 * PAGE), PAGE);
	EXPECT_NE(NULL, strstr(text, pat)) TH_LOG("no bos: entry at 0x%llx",
						 (unsigned long long)(PROBE_VA + 16 * PAGE));
	EXPECT_EQ(NULL, strstr(text, "  - iova: 0x0000000000000000\n"));
	free(text);
	vx_dump_discard();
	a->sub.bo_count = 2;
	munmap(map, PAGE);
}

TEST_HARNESS_MAIN
