// SPDX-License-Identifier: GPL-2.0
/*
 * Vortex host programs through the driver (issue 24): programs written the
 * way Vortex's regression tests' main.cpp are (github vortexgpgpu/vortex,
 * tests/regression/vecadd/main.cpp: vx_dev_open, vx_mem_alloc,
 * vx_copy_to_dev, vx_upload_kernel_file, vx_upload_bytes, vx_start,
 * vx_ready_wait, vx_copy_from_dev), against libvortexrt's <vortex.h>, run
 * Vortex-style kernels (one thread per core at STARTUP_ADDR, the
 * project's spawn library, stacks below STACK_BASE_ADDR) and check every
 * element against a host reference.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <vortex.h>		/* libvortexrt's: Vortex's API */

#include "kselftest_harness.h"
#include "vortex_accel.h"
#include "vortex_kernels.h"
#include "vx_elf.h"
#include "vx_file.h"
#include "vx_tls_check.h"

static const char *kdir(void)
{
	const char *d = getenv("VX_KERNEL_DIR");

	return d ? d : "/vortex/kernels";
}

static char *kpath(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", kdir(), name);
	return path;
}

/* The bytes of kernel file @name (malloc'ed), their count in *@size; NULL if unreadable. */
static char *kread(const char *name, long *size)
{
	size_t n;
	char *buf = vx_file_read(kpath(name), &n);

	*size = n;
	return buf;
}

FIXTURE(vxrt) {
	vx_device_h dev;
};

FIXTURE_SETUP(vxrt)
{
	ASSERT_EQ(0, vx_dev_open(&self->dev)) TH_LOG("vx_dev_open: %s", strerror(errno));
}

FIXTURE_TEARDOWN(vxrt)
{
	vx_dev_close(self->dev);
}

/* What upstream's caps say of an RV32 card with local memory. */
TEST_F(vxrt, caps)
{
	uint64_t v;

	ASSERT_EQ(0, vx_dev_caps(self->dev, VX_CAPS_NUM_CORES, &v));
	EXPECT_LE(1, v);
	ASSERT_EQ(0, vx_dev_caps(self->dev, VX_CAPS_ISA_FLAGS, &v));
	EXPECT_EQ(32, VX_ISA_ARCH(v));
	EXPECT_NE(0, v & VX_ISA_STD_A);
	EXPECT_NE(0, v & VX_ISA_STD_F);
	EXPECT_NE(0, v & VX_ISA_EXT_LMEM);
	EXPECT_NE(0, v & VX_ISA_EXT_ZICOND);
	ASSERT_EQ(0, vx_dev_caps(self->dev, VX_CAPS_LOCAL_MEM_SIZE, &v));
	EXPECT_EQ(16384, v);	/* LMEM_LOG_SIZE 14, hw/rtl/VX_config.vh */
	/* upstream's ids at fe8168b9: ISA_FLAGS 7, banks 8 and 9 */
	EXPECT_EQ(7, VX_CAPS_ISA_FLAGS);
	ASSERT_EQ(0, vx_dev_caps(self->dev, VX_CAPS_NUM_MEM_BANKS, &v));
	EXPECT_EQ(1, v);
	ASSERT_EQ(0, vx_dev_caps(self->dev, VX_CAPS_MEM_BANK_SIZE, &v));
	EXPECT_LT(0, v);
	/* f6795901's VX_CAPS_TC_NUM, for programs of that header */
	ASSERT_EQ(0, vx_dev_caps(self->dev, 0xB, &v));
	EXPECT_EQ(0, v);
	EXPECT_NE(0, vx_dev_caps(self->dev, 0x77, &v));
}

/*
 * The counters a kernel leaves at IO_MPM_ADDR when it ends reach the host:
 * upstream's kernel library stores them from its exit path
 * (kernel/src/vx_perf.c, vx_start.S) and its host programs read them with
 * vx_mpm_query() and print them at vx_dev_close() (runtime/stub).  Needs
 * the I/O page at address 0: before the fix it sat at 0x10000 and every
 * kernel's store to 0x80 was a page fault (the job -EIO).
 */
TEST_F(vxrt, counters_reach_vx_mpm_query)
{
	struct vxs_hello_args arg = { .n = 0 };
	uint64_t cores, cycles, instrs;
	char *text = NULL;
	size_t len = 0;
	vx_buffer_h k, ab;
	FILE *f;

	ASSERT_EQ(0, vx_dev_caps(self->dev, VX_CAPS_NUM_CORES, &cores));
	ASSERT_EQ(0, vx_upload_kernel_file(self->dev, kpath("vxs_hello.elf"), &k));
	ASSERT_EQ(0, vx_upload_bytes(self->dev, &arg, sizeof(arg), &ab));
	ASSERT_EQ(0, vx_start(self->dev, k, ab));
	ASSERT_EQ(0, vx_ready_wait(self->dev, 20000)) TH_LOG("%s", strerror(errno));
	for (uint32_t c = 0; c < cores; c++) {
		ASSERT_EQ(0, vx_mpm_query(self->dev, 0xb00, c, &cycles));	/* mcycle */
		ASSERT_EQ(0, vx_mpm_query(self->dev, 0xb02, c, &instrs));	/* minstret */
		EXPECT_LT(0, cycles) TH_LOG("core %u", c);
		EXPECT_LT(0, instrs) TH_LOG("core %u", c);
		EXPECT_LE(instrs, cycles * 64) TH_LOG("core %u", c);
	}
	f = open_memstream(&text, &len);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, vx_dump_perf(self->dev, f));
	fclose(f);
	EXPECT_NE(NULL, strstr(text, "PERF: instrs=")) TH_LOG("%s", text);
	EXPECT_EQ(NULL, strstr(text, "PERF: instrs=0,")) TH_LOG("%s", text);
	free(text);
	vx_mem_free(ab);
	vx_mem_free(k);
}

/*
 * A reservation in the I/O range, as upstream's io_addr regression program
 * makes one (vx_mem_reserve(IO_MPM_ADDR, 64 bytes)): accepted at its
 * unaligned address, and a window onto the I/O page, so what it holds is
 * what vx_mpm_query() reads there.
 */
TEST_F(vxrt, reserve_in_the_io_range_is_a_window)
{
	uint32_t words[16], back[16];
	uint64_t addr, v;
	vx_buffer_h b;

	for (int i = 0; i < 16; i++)
		words[i] = 0x10101010u * (i + 1);
	ASSERT_EQ(0, vx_mem_reserve(self->dev, 0x80, sizeof(words), VX_MEM_READ, &b))
		TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, vx_mem_address(b, &addr));
	EXPECT_EQ(0x80, addr);
	ASSERT_EQ(0, vx_copy_to_dev(b, words, 0, sizeof(words)));
	ASSERT_EQ(0, vx_copy_from_dev(back, b, 0, sizeof(back)));
	EXPECT_EQ(0, memcmp(words, back, sizeof(words)));
	/* counter 3 of core 0: the pair at IO_MPM + 24 (upstream's vx_perf.c layout) */
	ASSERT_EQ(0, vx_mpm_query(self->dev, 0xb03, 0, &v));
	EXPECT_EQ((uint64_t)words[7] << 32 | words[6], v);
	EXPECT_NE(0, vx_copy_to_dev(b, words, 8, sizeof(words)));	/* past its end */
	EXPECT_EQ(0, vx_mem_free(b));
}

/* fe8168b9's vx_copy_dev_to_dev(): bytes from one buffer to another, bounds checked. */
TEST_F(vxrt, copy_dev_to_dev)
{
	uint32_t words[4] = { 1, 2, 3, 4 }, back[4] = { 0 };
	vx_buffer_h a, b;

	ASSERT_EQ(0, vx_mem_alloc(self->dev, sizeof(words), VX_MEM_READ_WRITE, &a));
	ASSERT_EQ(0, vx_mem_alloc(self->dev, 2 * sizeof(words), VX_MEM_READ_WRITE, &b));
	ASSERT_EQ(0, vx_copy_to_dev(a, words, 0, sizeof(words)));
	ASSERT_EQ(0, vx_copy_dev_to_dev(b, 4, a, 4, 8));
	ASSERT_EQ(0, vx_copy_from_dev(back, b, 4, sizeof(back)));
	EXPECT_EQ(2, back[0]);
	EXPECT_EQ(3, back[1]);
	/* A buffer spans whole 4 KiB pages: 8 bytes at 4092 run past a's end. */
	EXPECT_NE(0, vx_copy_dev_to_dev(a, 4096 - 4, b, 0, 8));
	EXPECT_NE(0, vx_copy_dev_to_dev(b, 0, a, 4096 - 4, 8));
	vx_mem_free(b);
	vx_mem_free(a);
}

TEST_F(vxrt, dcrs)
{
	uint32_t v = 0;

	ASSERT_EQ(0, vx_dcr_write(self->dev, 0x003, 0x12340000));	/* STARTUP_ARG0 */
	ASSERT_EQ(0, vx_dcr_read(self->dev, 0x003, &v));
	EXPECT_EQ(0x12340000, v);
	EXPECT_NE(0, vx_dcr_write(self->dev, 0x002, 1));	/* ADDR1 on RV32 */
	EXPECT_EQ(ERANGE, errno);
	EXPECT_NE(0, vx_dcr_write(self->dev, 0x0ff, 1));
	EXPECT_EQ(EINVAL, errno);
}

/* Reserved ranges are exact, do not overlap, and come back when freed. */
TEST_F(vxrt, reserve_and_alloc)
{
	vx_buffer_h a, b, c;
	uint64_t addr;

	ASSERT_EQ(0, vx_mem_reserve(self->dev, 0x20000000, 8192, 0, &a));
	ASSERT_EQ(0, vx_mem_address(a, &addr));
	EXPECT_EQ(0x20000000, addr);
	EXPECT_NE(0, vx_mem_reserve(self->dev, 0x20001000, 4096, 0, &b));
	EXPECT_EQ(EEXIST, errno);
	ASSERT_EQ(0, vx_mem_alloc(self->dev, 100, VX_MEM_READ_WRITE, &c));
	ASSERT_EQ(0, vx_mem_address(c, &addr));
	EXPECT_EQ(0, addr % 4096);
	EXPECT_TRUE(addr + 4096 <= 0x20000000 || addr >= 0x20002000);
	EXPECT_EQ(0, vx_mem_access(a, 100, 5000, VX_MEM_READ));
	EXPECT_NE(0, vx_mem_access(a, 8000, 500, VX_MEM_READ));
	EXPECT_EQ(EINVAL, errno);
	vx_mem_free(a);
	ASSERT_EQ(0, vx_mem_reserve(self->dev, 0x20001000, 4096, 0, &b));
	vx_mem_free(b);
	vx_mem_free(c);
}

/* A vecadd host program, as Vortex's regression/vecadd/main.cpp writes it. */
static void vecadd(struct __test_metadata *_metadata, vx_device_h dev,
		   vx_buffer_h kernel, uint32_t n)
{
	vx_buffer_h a_buf, b_buf, c_buf, arg_buf;
	int32_t *a = malloc(4 * n), *b = malloc(4 * n), *c = malloc(4 * n);
	struct vecadd_args arg = { .n = n };
	uint64_t addr;
	uint32_t i;

	ASSERT_TRUE(a && b && c);
	for (i = 0; i < n; i++) {
		a[i] = (int32_t)(i * 2654435761u);
		b[i] = (int32_t)(n - i) * 7;
	}
	ASSERT_EQ(0, vx_mem_alloc(dev, 4 * n, VX_MEM_READ, &a_buf));
	ASSERT_EQ(0, vx_mem_alloc(dev, 4 * n, VX_MEM_READ, &b_buf));
	ASSERT_EQ(0, vx_mem_alloc(dev, 4 * n, VX_MEM_WRITE, &c_buf));
	ASSERT_EQ(0, vx_mem_address(a_buf, &addr));
	arg.a = addr;
	ASSERT_EQ(0, vx_mem_address(b_buf, &addr));
	arg.b = addr;
	ASSERT_EQ(0, vx_mem_address(c_buf, &addr));
	arg.c = addr;
	ASSERT_EQ(0, vx_copy_to_dev(a_buf, a, 0, 4 * n));
	ASSERT_EQ(0, vx_copy_to_dev(b_buf, b, 0, 4 * n));
	ASSERT_EQ(0, vx_upload_bytes(dev, &arg, sizeof(arg), &arg_buf));
	ASSERT_EQ(0, vx_start(dev, kernel, arg_buf));
	ASSERT_EQ(0, vx_ready_wait(dev, VX_MAX_TIMEOUT));
	ASSERT_EQ(0, vx_copy_from_dev(c, c_buf, 0, 4 * n));
	for (i = 0; i < n; i++) {
		ASSERT_EQ((int32_t)((uint32_t)a[i] + (uint32_t)b[i]), c[i]) TH_LOG("n %u: [%u]", n, i);
	}
	vx_mem_free(arg_buf);
	vx_mem_free(c_buf);
	vx_mem_free(b_buf);
	vx_mem_free(a_buf);
	free(a);
	free(b);
	free(c);
}

TEST_F(vxrt, vecadd)
{
	const uint32_t ns[] = { 1, 257, 4096 };
	vx_buffer_h k;
	uint64_t addr;

	ASSERT_EQ(0, vx_upload_kernel_file(self->dev, kpath("vxs_vecadd.elf"), &k));
	ASSERT_EQ(0, vx_mem_address(k, &addr));
	EXPECT_EQ(0x80000000, addr);	/* STARTUP_ADDR */
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		vecadd(_metadata, self->dev, k, ns[i]);
	vx_mem_free(k);
}

/*
 * A kernel uploaded from an ELF is a code object for debuggers: the job's
 * LAUNCHED event (uapi struct drm_vortex_debug_event) names an object
 * whose image is the kernel at STARTUP_ADDR and whose ELF is the file's
 * bytes, read back through the session at the address the event gives.
 * A debugger attached from another file of this process sees the job.
 */
TEST_F(vxrt, elf_kernel_is_a_code_object_for_debuggers)
{
	struct drm_vortex_debug_attach at = { .version = DRM_VORTEX_DEBUG_VERSION };
	struct drm_vortex_debug_event ev = { 0 };
	struct pollfd p = { .events = POLLIN };
	char head[64], *elf = NULL;
	struct drm_vortex_debug_mem_op op = { .buf = (uintptr_t)head, .len = sizeof(head) };
	struct drm_vortex_debug_mem m = { .ops = (uintptr_t)&op, .count = 1, .stride = sizeof(op) };
	uint32_t n = 0;
	vx_buffer_h k, ab;
	long size;
	int fd;

	elf = kread("vxs_hello.elf", &size);
	ASSERT_NE(NULL, elf);
	fd = open(getenv("VORTEX_DEVICE") ?: "/dev/accel/accel0", O_RDWR);
	ASSERT_LE(0, fd);
	if (ioctl(fd, DRM_IOCTL_VORTEX_DEBUG_ATTACH, &at)) {
		close(fd);
		free(elf);
		SKIP(return, "no debug session: %s", strerror(errno));
	}
	p.fd = at.fd;
	ASSERT_EQ(0, vx_upload_kernel_file(self->dev, kpath("vxs_hello.elf"), &k));
	ASSERT_EQ(0, vx_upload_bytes(self->dev, &n, sizeof(n), &ab));
	ASSERT_EQ(0, vx_start(self->dev, k, ab));
	while (ev.type != DRM_VORTEX_DEBUG_EVENT_LAUNCHED) {
		ASSERT_EQ(1, poll(&p, 1, 10000)) TH_LOG("no LAUNCHED event");
		ASSERT_EQ(sizeof(ev), read(at.fd, &ev, sizeof(ev)));
	}
	EXPECT_NE(0, ev.data[7]) TH_LOG("the job names no code object");
	EXPECT_EQ(size, ev.data[9]);
	EXPECT_EQ(0x80000000u, ev.data[10]);
	op.addr = ev.data[8];
	EXPECT_EQ(0, ioctl(at.fd, DRM_VORTEX_DEBUG_IOCTL_MEM, &m)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, memcmp(head, elf, sizeof(head))) TH_LOG("not the ELF's bytes");
	close(at.fd);
	EXPECT_EQ(0, vx_ready_wait(self->dev, 20000));
	vx_mem_free(ab);
	vx_mem_free(k);
	close(fd);
	free(elf);
}

/*
 * The kernel as Vortex ships it, a .vxbin: min_vma, max_vma, the image
 * (upstream runtime/stub/utils.cpp, vx_upload_kernel_bytes()).
 */
TEST_F(vxrt, vxbin_upload)
{
	struct vx_elf_layout l;
	uint64_t hdr[2], filesz;
	long size;
	vx_buffer_h k;
	char *elf, *bin;

	elf = kread("vxs_vecadd.elf", &size);
	ASSERT_NE(NULL, elf);
	ASSERT_EQ(0, vx_elf_parse(elf, size, &l));
	bin = calloc(1, 16 + l.size);
	ASSERT_NE(NULL, bin);
	ASSERT_EQ(0, vx_elf_build(elf, size, &l, 0x80000000, bin + 16));
	/* The file's bytes (read only once loaded), then the bss (read-write). */
	filesz = l.filesz;
	ASSERT_LT(0, filesz);
	ASSERT_LT(filesz, l.size);
	hdr[0] = 0x80000000;
	hdr[1] = 0x80000000 + l.size;
	memcpy(bin, hdr, 16);
	ASSERT_EQ(0, vx_upload_kernel_bytes(self->dev, bin, 16 + filesz, &k));
	vecadd(_metadata, self->dev, k, 300);
	vx_mem_free(k);
	/* a header that does not hold its image */
	hdr[1] = hdr[0] + 8;
	memcpy(bin, hdr, 16);
	EXPECT_NE(0, vx_upload_kernel_bytes(self->dev, bin, 16 + filesz, &k));
	free(bin);
	free(elf);
}

/*
 * Thread-local data through tp, each hart's block past the image where
 * upstream's start code puts it (kernel/src/vx_start.S at fe8168b9, lines
 * 87-92), from the ELF (PT_TLS) and from the .vxbin (the runtime's bound).
 * On a card of 64 harts the blocks cross the image's last page: before
 * the runtime mapped them (issue 33) those harts' stores faulted.  The
 * host test on the simulator is userspace/vxrt/tests/test_vxrt_sim.c.
 */
TEST_F(vxrt, tls_blocks_past_the_image)
{
	static const char *const names[] = { "vxs_tls.elf", "vxs_tls.vxbin" };
	uint64_t cores, warps, threads, addr;
	struct vxs_tls_args a;
	vx_buffer_h k, ob, ab;
	uint32_t harts, block, *out;
	char *elf, why[160];
	long size;

	ASSERT_EQ(0, vx_dev_caps(self->dev, VX_CAPS_NUM_CORES, &cores));
	ASSERT_EQ(0, vx_dev_caps(self->dev, VX_CAPS_NUM_WARPS, &warps));
	ASSERT_EQ(0, vx_dev_caps(self->dev, VX_CAPS_NUM_THREADS, &threads));
	harts = cores * warps * threads;
	elf = kread("vxs_tls.elf", &size);
	ASSERT_NE(NULL, elf);
	ASSERT_EQ(0, vx_elf_symbol(elf, size, "__tbss_size", &block));
	free(elf);
	a.n = 3 * harts + 5;
	out = calloc(3 * a.n, sizeof(*out));
	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, vx_mem_alloc(self->dev, 12 * a.n, VX_MEM_READ_WRITE, &ob));
	ASSERT_EQ(0, vx_mem_address(ob, &addr));
	a.out = addr;
	ASSERT_EQ(0, vx_upload_bytes(self->dev, &a, sizeof(a), &ab));
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(0, vx_upload_kernel_file(self->dev, kpath(names[i]), &k));
		ASSERT_EQ(0, vx_start(self->dev, k, ab));
		ASSERT_EQ(0, vx_ready_wait(self->dev, 20000)) TH_LOG("%s: %s", names[i], strerror(errno));
		ASSERT_EQ(0, vx_copy_from_dev(out, ob, 0, 12 * a.n));
		ASSERT_EQ(0, vx_tls_check(out, a.n, harts, block, why, sizeof(why)))
			TH_LOG("%s: %s", names[i], why);
		vx_mem_free(k);
	}
	vx_mem_free(ab);
	vx_mem_free(ob);
	free(out);
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* A sort with divergence on every comparison, against qsort(). */
TEST_F(vxrt, sort)
{
	const uint32_t n = 300;
	int32_t in[300], out[300], want[300];
	struct vxs_sort_args arg = { .n = n };
	vx_buffer_h k, ib, ob, ab;
	uint64_t addr;
	uint32_t x = 99, i;

	for (i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		in[i] = (int32_t)(x >> 8) % 100 - 50;
	}
	memcpy(want, in, sizeof(in));
	qsort(want, n, 4, cmp_i32);
	ASSERT_EQ(0, vx_upload_kernel_file(self->dev, kpath("vxs_sort.elf"), &k));
	ASSERT_EQ(0, vx_mem_alloc(self->dev, sizeof(in), VX_MEM_READ, &ib));
	ASSERT_EQ(0, vx_mem_alloc(self->dev, sizeof(out), VX_MEM_READ_WRITE, &ob));
	ASSERT_EQ(0, vx_mem_address(ib, &addr));
	arg.in = addr;
	ASSERT_EQ(0, vx_mem_address(ob, &addr));
	arg.out = addr;
	ASSERT_EQ(0, vx_copy_to_dev(ib, in, 0, sizeof(in)));
	ASSERT_EQ(0, vx_upload_bytes(self->dev, &arg, sizeof(arg), &ab));
	ASSERT_EQ(0, vx_start(self->dev, k, ab));
	ASSERT_EQ(0, vx_ready_wait(self->dev, VX_MAX_TIMEOUT));
	ASSERT_EQ(0, vx_copy_from_dev(out, ob, 0, sizeof(out)));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(want[i], out[i]) TH_LOG("[%u]", i);
	}
	vx_mem_free(ab);
	vx_mem_free(ob);
	vx_mem_free(ib);
	vx_mem_free(k);
}

/*
 * sgemm with B in each core's local memory (upstream's sgemm2 does its
 * tiles so): 0xffff0000, 16 KiB a core (hw/rtl/VX_config.vh LMEM_LOG_SIZE
 * 14), every element equal to the host's sum in the same order.
 */
TEST_F(vxrt, sgemm_with_local_memory)
{
	const uint32_t n = 32;	/* B: 4 KiB of a core's 16 */
	static float a[32 * 32], b[32 * 32], c[32 * 32];
	struct vxs_sgemm_args arg = { .n = n };
	vx_buffer_h k, ab, bb, cb, argb;
	uint64_t addr;
	uint32_t i, j, m;

	for (i = 0; i < n * n; i++) {
		a[i] = (float)((i * 7) % 13) - 6.0f;
		b[i] = (float)((i * 5) % 11) * 0.5f;
	}
	ASSERT_EQ(0, vx_upload_kernel_file(self->dev, kpath("vxs_sgemm_lmem.elf"), &k));
	ASSERT_EQ(0, vx_mem_alloc(self->dev, sizeof(a), VX_MEM_READ, &ab));
	ASSERT_EQ(0, vx_mem_alloc(self->dev, sizeof(b), VX_MEM_READ, &bb));
	ASSERT_EQ(0, vx_mem_alloc(self->dev, sizeof(c), VX_MEM_WRITE, &cb));
	ASSERT_EQ(0, vx_mem_address(ab, &addr));
	arg.a = addr;
	ASSERT_EQ(0, vx_mem_address(bb, &addr));
	arg.b = addr;
	ASSERT_EQ(0, vx_mem_address(cb, &addr));
	arg.c = addr;
	ASSERT_EQ(0, vx_copy_to_dev(ab, a, 0, sizeof(a)));
	ASSERT_EQ(0, vx_copy_to_dev(bb, b, 0, sizeof(b)));
	ASSERT_EQ(0, vx_upload_bytes(self->dev, &arg, sizeof(arg), &argb));
	ASSERT_EQ(0, vx_start(self->dev, k, argb));
	ASSERT_EQ(0, vx_ready_wait(self->dev, VX_MAX_TIMEOUT));
	ASSERT_EQ(0, vx_copy_from_dev(c, cb, 0, sizeof(c)));
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			float sum = 0.0f;

			for (m = 0; m < n; m++)
				sum += a[i * n + m] * b[m * n + j];
			ASSERT_EQ(sum, c[i * n + j]) TH_LOG("c[%u][%u]", i, j);
		}
	vx_mem_free(argb);
	vx_mem_free(cb);
	vx_mem_free(bb);
	vx_mem_free(ab);
	vx_mem_free(k);
}

/*
 * Sends stdout to a new file (@path, a mkstemp() template): returns its
 * fd, or -1, and the old stdout in @saved.
 */
static int capture_stdout(char *path, int *saved)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	fflush(stdout);
	*saved = dup(1);
	dup2(fd, 1);
	return fd;
}

/* Puts stdout back: what was printed meanwhile, from its start (or NULL). */
static FILE *captured(int fd, int saved)
{
	FILE *f;

	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	f = fdopen(fd, "r");
	if (f)
		rewind(f);
	return f;
}

/*
 * printf from every hart, printed by vx_ready_wait() as Vortex's runtime
 * prints a kernel's output: "#slot: line" per hardware thread (upstream
 * prints by IO_COUT slot, mhartid & 63).  Every task's line is there
 * exactly once.
 */
TEST_F(vxrt, printf_from_every_hart)
{
	uint64_t cores, warps, threads;
	struct vxs_hello_args arg;
	char *seen, line[64], path[] = "/tmp/vxrt-outXXXXXX";
	vx_buffer_h k, ab;
	int fd, saved;
	unsigned int slot, task;
	FILE *f;
	uint32_t i, n;

	ASSERT_EQ(0, vx_dev_caps(self->dev, VX_CAPS_NUM_CORES, &cores));
	ASSERT_EQ(0, vx_dev_caps(self->dev, VX_CAPS_NUM_WARPS, &warps));
	ASSERT_EQ(0, vx_dev_caps(self->dev, VX_CAPS_NUM_THREADS, &threads));
	n = arg.n = cores * warps * threads + 3;	/* a second round on some */
	seen = calloc(n, 1);
	ASSERT_NE(NULL, seen);
	ASSERT_EQ(0, vx_upload_kernel_file(self->dev, kpath("vxs_hello.elf"), &k));
	ASSERT_EQ(0, vx_upload_bytes(self->dev, &arg, sizeof(arg), &ab));
	fd = capture_stdout(path, &saved);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vx_start(self->dev, k, ab));
	i = vx_ready_wait(self->dev, VX_MAX_TIMEOUT);
	f = captured(fd, saved);
	ASSERT_EQ(0, i);
	ASSERT_NE(NULL, f);
	i = 0;
	while (fgets(line, sizeof(line), f)) {
		ASSERT_EQ(2, sscanf(line, "#%u: task %u", &slot, &task)) TH_LOG("line '%s'", line);
		ASSERT_LT(slot, 64);
		ASSERT_LT(task, n);
		EXPECT_EQ(0, seen[task]) TH_LOG("task %u twice", task);
		seen[task] = 1;
		i++;
	}
	EXPECT_EQ(n, i);
	fclose(f);
	unlink(path);
	free(seen);
	vx_mem_free(ab);
	vx_mem_free(k);
}

/*
 * A job short enough to end within vx_start()'s SUBMIT (the fast lane:
 * one task prints one line) still has its line printed by
 * vx_ready_wait(), once, and a quiet one after it prints nothing: the
 * runtime trusts SUBMIT's DRM_VORTEX_SUBMIT_OUT_CONSOLE, not a WAIT.
 */
TEST_F(vxrt, short_job_prints_without_a_wait)
{
	struct vxs_hello_args arg = { .n = 1 };
	char line[64], path[] = "/tmp/vxrt-outXXXXXX";
	unsigned int slot, task;
	vx_buffer_h k, ab;
	int fd, saved, r1, r2;
	FILE *f;

	ASSERT_EQ(0, vx_upload_kernel_file(self->dev, kpath("vxs_hello.elf"), &k));
	ASSERT_EQ(0, vx_upload_bytes(self->dev, &arg, sizeof(arg), &ab));
	fd = capture_stdout(path, &saved);
	ASSERT_LE(0, fd);
	r1 = vx_start(self->dev, k, ab) ?: vx_ready_wait(self->dev, VX_MAX_TIMEOUT);
	arg.n = 0;
	r2 = vx_copy_to_dev(ab, &arg, 0, sizeof(arg)) ?: vx_start(self->dev, k, ab) ?:
	     vx_ready_wait(self->dev, VX_MAX_TIMEOUT);
	f = captured(fd, saved);
	ASSERT_EQ(0, r1);
	ASSERT_EQ(0, r2);
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	ASSERT_EQ(2, sscanf(line, "#%u: task %u", &slot, &task)) TH_LOG("line '%s'", line);
	EXPECT_EQ(0, task);
	EXPECT_EQ(NULL, fgets(line, sizeof(line), f)) TH_LOG("more: '%s'", line);
	fclose(f);
	unlink(path);
	vx_mem_free(ab);
	vx_mem_free(k);
}

TEST_HARNESS_MAIN
