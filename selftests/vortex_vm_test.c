// SPDX-License-Identifier: GPL-2.0
/*
 * Per-file GPU address spaces (issue 13): every open file of the node has
 * its own Sv32 page tables, and a buffer is mapped in a file's space, at
 * its dev_addr, exactly while that file holds a handle to it (and, after
 * the handle is closed, until the file's jobs in flight have ended).
 *
 * What a hostile client tries, from a process of its own: its kernel
 * loads from, stores to and jumps into another process's live buffer, a
 * buffer another process freed, and the driver's ring.  Each must be a
 * page fault with the right cause and the exact virtual address (in the
 * crash dump, and in the driver's log line where the rate limit allows),
 * the victim's bytes must be unchanged, and the card must go on working.
 * What an honest client needs: every page of its own buffers (4 KiB pages
 * and 4 MiB megapages), buffers shared through PRIME at their own
 * address, and buffers it closes while a job still uses them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/dma-heap.h>

#include "vortex_accel.h"
#include "vortex_test_ioctl.h"
#include "vx_asm.h"
#include "kselftest_harness.h"
#include "vortex_vm_progs.h"

#define JALR(rd, rs1, imm)	RV_I(imm, rs1, 0, rd, 0x67)

/* Each program at its own offset of the code buffer (vortex_vm_progs.h: load, store). */
enum { PROG_JUMP = 128, PROG_PAGES = 192, PROG_SPIN = 320 };

/* goto target */
static const uint32_t prog_jump[] = {
	LW(A1, A0, 4 * ARG_TARGET),
	JALR(X0, A1, 0),
	TMC(X0),
};

/*
 * For every page from target to end: first and last word += 1.  The
 * CPU checks both (the kernel read what the CPU wrote, and its store
 * landed) and a word in between (nothing else was touched).
 */
static const uint32_t prog_pages[] = {
	LW(T0, A0, 4 * ARG_TARGET),
	LW(T1, A0, 4 * ARG_END),
	LUI(A2, 1),			/* 4096 */
	LW(T2, T0, 0),			/* loop: */
	ADDI(T2, T2, 1),
	SW(T2, T0, 0),
	ADDI(A1, T0, 2046),
	LW(T2, A1, 2046),		/* the page's last word */
	ADDI(T2, T2, 1),
	SW(T2, A1, 2046),
	ADD(T0, T0, A2),
	BNE(T0, T1, -32),
	TMC(X0),
};

/*
 * On a cell { go, started, in, out } at a0: started = 1, spins until go,
 * then out = in + 1.
 */
static const uint32_t prog_spin[] = {
	ADDI(T0, X0, 1),
	SW(T0, A0, 4),
	LW(T1, A0, 0),
	BEQ(T1, X0, -4),
	LW(T2, A0, 8),
	ADDI(T2, T2, 1),
	SW(T2, A0, 12),
	TMC(X0),
};

/* ------------------------------------------------------------ a client */

static const struct vm_prog vm_progs[] = {
	VM_PROG(PROG_JUMP, prog_jump),
	VM_PROG(PROG_PAGES, prog_pages),
	VM_PROG(PROG_SPIN, prog_spin),
};

/* A client (vortex_vm_progs.h) with this suite's programs too. */
static int vm_client_open(struct vx_client *c)
{
	return vm_client_open_with(c, vm_progs, sizeof(vm_progs) / sizeof(vm_progs[0]));
}

/*
 * Lists buffer @handle as the job's third (0: none), for the jobs that
 * use a buffer of their own beyond code and arguments.
 */
static void vm_use_bo(struct vx_client *c, uint32_t handle)
{
	c->bos[2] = (struct drm_vortex_submit_bo){ handle,
		DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_WRITE };
	c->sub.bo_count = handle ? 3 : 2;
}

/* Loads @c's last argument word, @value, in a job of @c: 0 if it did. */
static int vm_load_own(struct vx_client *c, uint32_t value)
{
	c->data_map[ARG_WORDS - 1] = value;
	if (vm_run(c, PROG_LOAD, c->data_addr + 4 * (ARG_WORDS - 1), 0))
		return -1;
	return c->data_map[ARG_OUT] == value ? 0 : -1;
}

/* ------------------------------------------------ the kernel's log */

/* Writes @mark to the kernel log, so a later search starts after it. */
static void klog_mark(const char *mark)
{
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, mark, strlen(mark)) < 0)
			perror("kmsg");
		close(fd);
	}
}

/* Whether the log after the last @mark holds @a and, after it, @b. */
static bool klog_has_after(const char *mark, const char *a, const char *b)
{
	int n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *log = n > 0 ? calloc(1, n + 1) : NULL;
	const char *p = NULL, *q;
	bool found = false;

	if (log && klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, n) > 0) {
		for (q = strstr(log, mark); q; q = strstr(q + 1, mark))
			p = q;
		p = p ? strstr(p, a) : NULL;
		found = p && strstr(p, b);
	}
	free(log);
	return found;
}

/* ------------------------------------------------------------- faults */

struct vm_fault {
	unsigned int cause;
	uint64_t pc, addr;
};

static const char *const fault_names[] = {
	[VX_ERR_FETCH_PAGE_FAULT] = "page fault on fetch",
	[VX_ERR_LOAD_PAGE_FAULT] = "page fault on load",
	[VX_ERR_STORE_PAGE_FAULT] = "page fault on store",
};

/*
 * Runs @prog on @target, which must fault as @want says: WAIT status
 * -EIO, the dump's fault-info with the cause, PC and virtual address,
 * and with @log, the driver's log line (rate-limited to 10 lines in 5 s:
 * only tests that sleep the window out first ask for it); the job's
 * output word keeps the marker vm_run() put there.  Then a normal
 * job must run on the recovered card.  Returns the dump's text (free it).
 */
static char *vm_expect_fault(struct __test_metadata *_metadata,
			     struct vx_client *c, unsigned int prog,
			     uint64_t target, const struct vm_fault *want,
			     bool log)
{
	static int marks;
	char mark[64], a[96], b[64], *text;

	vx_dump_discard();
	snprintf(mark, sizeof(mark), "vortex_vm_test: fault %d.%d\n", getpid(), ++marks);
	klog_mark(mark);
	EXPECT_EQ(-EIO, vm_run(c, prog, target, 0x5a5a5a5au))
		TH_LOG("program +%u on 0x%llx", prog, (unsigned long long)target);
	text = vx_dump_read(5000);
	EXPECT_NE(NULL, text) TH_LOG("no crash dump of the fault (%d in sysfs)",
				     vx_dump_each(NULL, NULL));
	EXPECT_EQ(want->cause, vx_dump_num(text, "fault-info", "cause"));
	EXPECT_EQ(want->addr, vx_dump_num(text, "fault-info", "address"));
	EXPECT_EQ(want->pc, vx_dump_num(text, "fault-info", "pc"));
	/* The space it was looked up in: the file's, never ASID 0. */
	EXPECT_LE(1, vx_dump_num(text, "pgtable-fault-info", "asid"));
	EXPECT_GE(511, vx_dump_num(text, "pgtable-fault-info", "asid"));
	EXPECT_LE(0x80000000ull, vx_dump_num(text, "pgtable-fault-info", "root"));
	/* A faulting access commits nothing: no data reached the kernel. */
	EXPECT_EQ(0xdeadbeefu, c->data_map[ARG_OUT]) TH_LOG("the faulting job returned data");
	if (log) {
		snprintf(a, sizeof(a), "failed: %s (cause %u) in warp",
			 fault_names[want->cause], want->cause);
		snprintf(b, sizeof(b), "at pc 0x%08llx, addr 0x%08llx,",
			 (unsigned long long)want->pc, (unsigned long long)want->addr);
		EXPECT_TRUE(vx_poll_ms(klog_has_after(mark, a, b), 2000))
			TH_LOG("no \"%s ... %s\" in the log", a, b);
	}

	/* The card was recovered: a job of the same file runs. */
	EXPECT_EQ(0, vm_load_own(c, 0x600dd00du)) TH_LOG("no job ran after the fault");
	return text;
}

/* The three attacks on @target: load, store and jump, each a page fault. */
static void vm_attack(struct __test_metadata *_metadata, struct vx_client *c,
		      uint64_t target, bool log)
{
	struct vm_fault load = { VX_ERR_LOAD_PAGE_FAULT, c->code_addr + PROG_LOAD + LOAD_PC, target };
	struct vm_fault store = { VX_ERR_STORE_PAGE_FAULT, c->code_addr + PROG_STORE + STORE_PC, target };
	struct vm_fault fetch = { VX_ERR_FETCH_PAGE_FAULT, target, target };

	free(vm_expect_fault(_metadata, c, PROG_LOAD, target, &load, log));
	free(vm_expect_fault(_metadata, c, PROG_STORE, target, &store, log));
	free(vm_expect_fault(_metadata, c, PROG_JUMP, target, &fetch, log));
}

/* ------------------------------------------------ another process */

/*
 * B: a child process with its own file.  It talks to the test through a
 * pair of pipes, one byte per command; its answers are bytes too, and its
 * exit status says which step failed (0: none).
 */
struct vm_peer {
	pid_t pid;
	int to, from;		/* the test's ends */
};

typedef int (*vm_peer_fn)(int in, int out, void *ctx);

static int vm_peer_start(struct vm_peer *p, vm_peer_fn fn, void *ctx)
{
	int down[2], up[2];

	if (pipe2(down, O_CLOEXEC) || pipe2(up, O_CLOEXEC))
		return -errno;
	p->pid = fork();
	if (p->pid < 0)
		return -errno;
	if (!p->pid) {
		close(down[1]);
		close(up[0]);
		_exit(fn(down[0], up[1], ctx));
	}
	close(down[0]);
	close(up[1]);
	p->to = down[1];
	p->from = up[0];
	return 0;
}

static bool vm_send(int fd, const void *buf, size_t len)
{
	return write(fd, buf, len) == (ssize_t)len;
}

static bool vm_recv(int fd, void *buf, size_t len)
{
	return read(fd, buf, len) == (ssize_t)len;
}

/* Sends @cmd, returns the one-byte answer ('?' if the peer is gone). */
static char vm_peer_cmd(struct vm_peer *p, char cmd)
{
	char r = '?';

	if (!vm_send(p->to, &cmd, 1) || !vm_recv(p->from, &r, 1))
		return '?';
	return r;
}

/* Closes the pipes and reaps B: its exit status, or -1. */
static int vm_peer_end(struct vm_peer *p)
{
	int st = 0;

	close(p->to);
	close(p->from);
	if (waitpid(p->pid, &st, 0) != p->pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static uint32_t pattern(uint32_t seed, uint32_t i)
{
	return (seed * 0x9e3779b9u) ^ (i * 0x85ebca6bu) ^ 0x5bd1e995u;
}

/* What the victim holds: @size bytes of pattern(@seed, word). */
struct victim {
	uint64_t size;
	uint32_t seed;
};

/*
 * B's side: creates a buffer full of the pattern, sends its dev_addr,
 * then obeys: 'c' compares every word ('y' all equal), 'f' frees it
 * (unmaps it and closes the handle), 'q' ends.
 */
static int victim_main(int in, int out, void *ctx)
{
	const struct victim *v = ctx;
	uint32_t handle, i, words = v->size / 4;
	volatile uint32_t *map;
	uint64_t addr;
	char cmd, r;
	int fd = open(VX_NODE, O_RDWR | O_CLOEXEC);

	if (fd < 0 || _vx_bo_create(fd, v->size, 0, &handle, &addr))
		return 1;
	map = vx_bo_map(fd, handle, NULL);
	if (!map)
		return 2;
	for (i = 0; i < words; i++)
		map[i] = pattern(v->seed, i);
	if (!vm_send(out, &addr, sizeof(addr)))
		return 3;
	while (vm_recv(in, &cmd, 1) && cmd != 'q') {
		r = 'y';
		if (cmd == 'c') {
			for (i = 0; i < words && map; i++)
				if (map[i] != pattern(v->seed, i))
					r = 'n';
		} else if (cmd == 'f') {
			munmap((void *)map, v->size);
			map = NULL;
			if (_vx_bo_close(fd, handle))
				r = 'n';
		}
		if (!vm_send(out, &r, 1))
			return 4;
	}
	close(fd);
	return 0;
}

/* ------------------------------------------------------------ fixture */

FIXTURE(vm) {
	struct vx_client a;
	struct vm_peer b;
	bool has_b;
};

FIXTURE_SETUP(vm)
{
	uint64_t caps = 0;

	self->a.fd = -1;
	ASSERT_EQ(0, vm_client_open(&self->a));
	vx_cmd(_vx_get_param(self->a.fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps));
	if (!(caps & DRM_VORTEX_CAP_VM))
		SKIP(return, "no per-file address spaces (DRM_VORTEX_CAP_VM clear)");
}

FIXTURE_TEARDOWN(vm)
{
	if (self->has_b) {
		vm_send(self->b.to, "q", 1);
		vm_peer_end(&self->b);
	}
	vx_client_close(&self->a);
	vx_dump_discard();
}

/* Starts B with a buffer of pattern @v; its address, 0 if B failed. */
static uint64_t start_victim(FIXTURE_DATA(vm) *self, struct victim *v)
{
	uint64_t addr = 0;

	if (vm_peer_start(&self->b, victim_main, v))
		return 0;
	self->has_b = true;
	return vm_recv(self->b.from, &addr, sizeof(addr)) ? addr : 0;
}

/* ----------------------------------------------------------- the tests */

TEST(capabilities_have_vm)
{
	uint64_t caps = 0;
	int fd = open(VX_NODE, O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, fd);
	vx_cmd(_vx_get_param(fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps));
	EXPECT_TRUE(caps & DRM_VORTEX_CAP_VM) TH_LOG("capabilities 0x%llx",
						     (unsigned long long)caps);
	close(fd);
}

/*
 * A's kernel loads from, stores to and jumps into B's live buffer (its
 * first word, a word inside its second page, its last word): each a page
 * fault at that address, in the dump and the log; B's 3 pages are
 * unchanged, word for word.
 */
TEST_F_TIMEOUT(vm, other_process_live_buffer_faults, 120)
{
	struct victim v = { 3 * PAGE, 1 };
	uint64_t addr = start_victim(self, &v);

	ASSERT_NE(0, addr);
	/* A fresh window of the driver's log rate limit for 9 lines. */
	vx_fail_log_fresh();
	vm_attack(_metadata, &self->a, addr, true);
	vm_attack(_metadata, &self->a, addr + PAGE + 0x124, false);
	vm_attack(_metadata, &self->a, addr + v.size - 4, false);
	EXPECT_EQ('y', vm_peer_cmd(&self->b, 'c')) TH_LOG("B's buffer changed");
	EXPECT_EQ('y', vm_peer_cmd(&self->b, 'c'));
}

/*
 * B fills a buffer, frees it; A's kernel attacks the freed address: page
 * faults, and the load returns nothing (checked in vm_attack).
 */
TEST_F_TIMEOUT(vm, other_process_freed_buffer_faults, 120)
{
	struct victim v = { 2 * PAGE, 2 };
	uint64_t addr = start_victim(self, &v);

	ASSERT_NE(0, addr);
	ASSERT_EQ('y', vm_peer_cmd(&self->b, 'f'));
	vm_attack(_metadata, &self->a, addr, false);
	vm_attack(_metadata, &self->a, addr + v.size - 4, false);
}

/* The value of BAR0 register @off in a dump's "registers:" section. */
static uint64_t dump_reg(const char *text, unsigned int off)
{
	char pat[48];
	const char *p;

	snprintf(pat, sizeof(pat), "  - { offset: 0x%04x, value: ", off);
	p = text ? strstr(text, pat) : NULL;
	return p ? strtoull(p + strlen(pat), NULL, 0) : ~0ull;
}

/*
 * The ring: its device address is VX_REG_RING_BASE, read here from the
 * registers in the dump of a first fault (a load from virtual address 0,
 * which no file maps), since BAR0 cannot be mapped while the driver holds
 * it (CONFIG_IO_STRICT_DEVMEM).  Loads, stores and jumps at its first and
 * last word fault, and jobs still run afterwards (the store did not land
 * in the ring: a corrupted packet would stop the card).
 */
TEST_F_TIMEOUT(vm, ring_address_faults, 120)
{
	struct vx_client *a = &self->a;
	struct vm_fault null = { VX_ERR_LOAD_PAGE_FAULT, a->code_addr + PROG_LOAD + LOAD_PC, 0 };
	uint64_t base, size;
	char *text;
	int i;

	text = vm_expect_fault(_metadata, a, PROG_LOAD, 0, &null, false);
	base = dump_reg(text, VX_REG_RING_BASE);
	size = dump_reg(text, VX_REG_RING_SIZE);
	EXPECT_EQ(base, vx_dump_num(text, "ringbuffer", "iova"));
	free(text);
	ASSERT_NE(~0ull, base);
	ASSERT_LE(4096, size);
	ASSERT_EQ(0, base & (size - 1)) TH_LOG("ring 0x%llx size 0x%llx",
					       (unsigned long long)base,
					       (unsigned long long)size);

	vm_attack(_metadata, a, base, false);
	vm_attack(_metadata, a, base + size - 4, false);
	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, vm_run(a, PROG_STORE, a->data_addr + 4 * (ARG_WORDS - 2), i));
		EXPECT_EQ(i, a->data_map[ARG_WORDS - 2]);
	}
}

/*
 * Runs prog_pages over every page of buffer @h (at @addr, @size bytes):
 * the CPU writes the first, middle and last word of each page, the kernel
 * adds 1 to the first and last; all three are then checked.
 */
static void walk_every_page(struct __test_metadata *_metadata,
			    struct vx_client *c, uint32_t h, uint64_t addr,
			    uint64_t size)
{
	uint64_t pages = size / PAGE, p, mapped = 0;
	volatile uint32_t *map = vx_bo_map(c->fd, h, &mapped);
	unsigned int bad = 0;

	ASSERT_NE(NULL, map);
	ASSERT_EQ(size, mapped);
	for (p = 0; p < pages; p++) {
		map[p * 1024] = pattern(3, 3 * p);
		map[p * 1024 + 512] = pattern(3, 3 * p + 1);
		map[p * 1024 + 1023] = pattern(3, 3 * p + 2);
	}
	vm_use_bo(c, h);
	c->data_map[ARG_END] = (uint32_t)(addr + size);
	EXPECT_EQ(0, vm_run(c, PROG_PAGES, addr, 0));
	vm_use_bo(c, 0);
	for (p = 0; p < pages && bad < 8; p++) {
		if (map[p * 1024] == pattern(3, 3 * p) + 1 &&
		    map[p * 1024 + 512] == pattern(3, 3 * p + 1) &&
		    map[p * 1024 + 1023] == pattern(3, 3 * p + 2) + 1)
			continue;
		bad++;
		TH_LOG("page %llu (0x%llx): first %08x last %08x middle %08x",
		       (unsigned long long)p, (unsigned long long)(addr + p * PAGE),
		       map[p * 1024], map[p * 1024 + 1023], map[p * 1024 + 512]);
	}
	EXPECT_EQ(0, bad);
	munmap((void *)map, size);
}

/* Every page of a 5-page buffer, then a fault, then every page again. */
TEST_F_TIMEOUT(vm, own_buffer_every_page, 120)
{
	struct vm_fault f = { VX_ERR_LOAD_PAGE_FAULT, self->a.code_addr + PROG_LOAD + LOAD_PC, 0 };
	uint64_t addr;
	uint32_t h;

	vx_cmd(_vx_bo_create(self->a.fd, 5 * PAGE, 0, &h, &addr));
	walk_every_page(_metadata, &self->a, h, addr, 5 * PAGE);
	free(vm_expect_fault(_metadata, &self->a, PROG_LOAD, 0, &f, false));
	walk_every_page(_metadata, &self->a, h, addr, 5 * PAGE);
	vx_cmd(_vx_bo_close(self->a.fd, h));
}

/*
 * A 12 MiB + 3 page buffer holds at least two whole 4 MiB-aligned
 * megapages wherever it lands, and 4 KiB pages at its ends: every page of
 * it, and its first word past the end faults.
 */
TEST_F_TIMEOUT(vm, own_large_buffer_every_page_megapages, 300)
{
	struct vx_client *a = &self->a;
	uint64_t size = (12u << 20) + 3 * PAGE, addr;
	struct vm_fault past = { VX_ERR_LOAD_PAGE_FAULT, a->code_addr + PROG_LOAD + LOAD_PC, 0 };
	uint32_t h;

	vx_cmd(_vx_bo_create(a->fd, size, 0, &h, &addr));
	walk_every_page(_metadata, a, h, addr, size);
	past.addr = addr + size;
	if (past.addr != a->code_addr && past.addr != a->data_addr)
		free(vm_expect_fault(_metadata, a, PROG_LOAD, past.addr, &past, false));
	walk_every_page(_metadata, a, h, addr, size);
	vx_cmd(_vx_bo_close(a->fd, h));
}

/*
 * B's side of the PRIME test: imports the dma-buf, sends its dev_addr,
 * then: 'r' its kernel reads word 0 and writes word 1 (answers 'y' if
 * word 0 was A's), 'a' its kernel reads word 2 ('y' if it is A's second
 * value), 'x' closes its handle, and 'l' runs a load of word 0 and
 * answers with the status ('F' for -EIO, 'y' for 0).
 */
#define PRIME_B_VALUE	0xb0b0b0b0u
#define PRIME_A_VALUE	0xa0a0a0a0u

struct prime_ctx {
	int dmabuf;
	uint32_t word0;
};

static int prime_b_main(int in, int out, void *ctx)
{
	struct prime_ctx *pc = ctx;
	struct drm_prime_handle ph = { .fd = pc->dmabuf };
	struct drm_vortex_bo_info info = { 0 };
	struct vx_client b;
	int status;
	char cmd, r;

	if (vm_client_open(&b))
		return 1;
	if (vx_ioctl(b.fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph))
		return 2;
	close(pc->dmabuf);
	info.handle = ph.handle;
	if (vx_ioctl(b.fd, DRM_IOCTL_VORTEX_BO_INFO, &info) ||
	    !vm_send(out, &info.dev_addr, sizeof(info.dev_addr)))
		return 3;
	vm_use_bo(&b, ph.handle);
	while (vm_recv(in, &cmd, 1) && cmd != 'q') {
		r = 'n';
		if (cmd == 'r')
			r = !vm_run(&b, PROG_LOAD, info.dev_addr, 0) &&
			    b.data_map[ARG_OUT] == pc->word0 &&
			    !vm_run(&b, PROG_STORE, info.dev_addr + 4, PRIME_B_VALUE) ? 'y' : 'n';
		else if (cmd == 'a')
			r = !vm_run(&b, PROG_LOAD, info.dev_addr + 8, 0) &&
			    b.data_map[ARG_OUT] == PRIME_A_VALUE ? 'y' : 'n';
		else if (cmd == 'x') {
			vm_use_bo(&b, 0);
			r = _vx_bo_close(b.fd, ph.handle) ? 'n' : 'y';
		} else if (cmd == 'l') {
			vx_dump_discard();
			status = vm_run(&b, PROG_LOAD, info.dev_addr, 0);
			r = status == -EIO ? 'F' : status == 0 ? 'y' : 'n';
		}
		if (!vm_send(out, &r, 1))
			return 4;
	}
	vx_client_close(&b);
	return 0;
}

/*
 * A exports a buffer, B (another process) imports it: both have it at
 * the same dev_addr, each kernel reads what the other's wrote.  After B
 * closes its handle, B's kernel faults on it and A's still works.
 */
TEST_F_TIMEOUT(vm, prime_shared_buffer_both_ways, 120)
{
	struct vx_client *a = &self->a;
	struct drm_prime_handle ph = { .flags = DRM_CLOEXEC };
	struct prime_ctx pc;
	volatile uint32_t *map;
	uint64_t addr, b_addr = 0;
	uint32_t h;
	char *text;

	vx_cmd(_vx_bo_create(a->fd, 2 * PAGE, 0, &h, &addr));
	map = vx_bo_map(a->fd, h, NULL);
	ASSERT_NE(NULL, map);
	map[0] = pc.word0 = pattern(4, 0);
	ph.handle = h;
	vx_cmd(vx_ioctl(a->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph));
	pc.dmabuf = ph.fd;

	ASSERT_EQ(0, vm_peer_start(&self->b, prime_b_main, &pc));
	self->has_b = true;
	close(pc.dmabuf);
	ASSERT_TRUE(vm_recv(self->b.from, &b_addr, sizeof(b_addr)));
	EXPECT_EQ(addr, b_addr) TH_LOG("the import is at another address");

	ASSERT_EQ('y', vm_peer_cmd(&self->b, 'r')) TH_LOG("B's kernel did not read A's word");
	EXPECT_EQ(PRIME_B_VALUE, map[1]);
	vm_use_bo(a, h);
	EXPECT_EQ(0, vm_run(a, PROG_LOAD, addr + 4, 0));
	EXPECT_EQ(PRIME_B_VALUE, a->data_map[ARG_OUT]);
	EXPECT_EQ(0, vm_run(a, PROG_STORE, addr + 8, PRIME_A_VALUE));
	EXPECT_EQ('y', vm_peer_cmd(&self->b, 'a')) TH_LOG("B's kernel did not read A's write");

	ASSERT_EQ('y', vm_peer_cmd(&self->b, 'x'));
	EXPECT_EQ('F', vm_peer_cmd(&self->b, 'l')) TH_LOG("B's kernel still reached the buffer");
	text = vx_dump_read(5000);
	EXPECT_EQ(VX_ERR_LOAD_PAGE_FAULT, vx_dump_num(text, "fault-info", "cause"));
	EXPECT_EQ(addr, vx_dump_num(text, "fault-info", "address"));
	free(text);

	EXPECT_EQ(0, vm_run(a, PROG_LOAD, addr + 8, 0)) TH_LOG("A lost the buffer");
	EXPECT_EQ(PRIME_A_VALUE, a->data_map[ARG_OUT]);
	EXPECT_EQ(0, vm_run(a, PROG_STORE, addr + 2 * PAGE - 4, PRIME_A_VALUE + 1));
	EXPECT_EQ(PRIME_A_VALUE + 1, map[2 * PAGE / 4 - 1]);
	vm_use_bo(a, 0);
	munmap((void *)map, 2 * PAGE);
}

/* --------------------------------------- close while a job uses it */

struct close_call {
	int fd;
	uint32_t handle;
	int ret;
	volatile bool done;
};

static void *close_thread(void *arg)
{
	struct close_call *cc = arg;

	cc->ret = _vx_bo_close(cc->fd, cc->handle);
	cc->done = true;
	return NULL;
}

/*
 * GEM_CLOSE of a buffer a running job spins on (its cell { go, started,
 * in, out } is in that buffer): the close may return at once or wait for
 * the job, but the job keeps its buffer: it is still spinning 300 ms
 * later, and once let go it reads and writes the buffer correctly.  After
 * it ended, a new job touching the address faults.  The close runs in a
 * thread, so a close that waits for the job cannot deadlock the test.
 */
TEST_F_TIMEOUT(vm, close_while_job_runs_keeps_buffer, 120)
{
	struct vx_client *a = &self->a;
	struct vm_fault load = { VX_ERR_LOAD_PAGE_FAULT, a->code_addr + PROG_LOAD + LOAD_PC, 0 };
	struct vm_fault store = { VX_ERR_STORE_PAGE_FAULT, a->code_addr + PROG_STORE + STORE_PC, 0 };
	struct close_call cc = { .fd = a->fd };
	volatile uint32_t *cell;
	int32_t status = 1;
	uint64_t addr, job;
	pthread_t t;

	vx_cmd(_vx_bo_create(a->fd, PAGE, 0, &cc.handle, &addr));
	cell = vx_bo_map(a->fd, cc.handle, NULL);
	ASSERT_NE(NULL, cell);
	cell[2] = 41;
	vm_use_bo(a, cc.handle);
	vx_cmd(vm_launch(a, PROG_SPIN, addr));
	job = a->sub.seqno;
	vm_use_bo(a, 0);
	ASSERT_TRUE(vx_poll_ms(cell[1] == 1, VX_LIVE_MS)) TH_LOG("the job did not start");

	ASSERT_EQ(0, pthread_create(&t, NULL, close_thread, &cc));
	vx_poll_ms(cc.done, 300);
	usleep(300 * 1000);
	vx_err(ETIME, _vx_wait(a->fd, job, 0, &status));
	EXPECT_EQ(0, cell[3]);
	cell[0] = 1;
	__sync_synchronize();
	vx_cmd(_vx_wait(a->fd, job, VX_LIVE_MS * MS, &status));
	EXPECT_EQ(0, status);
	EXPECT_EQ(42, cell[3]) TH_LOG("the job lost its buffer");
	pthread_join(t, NULL);
	EXPECT_EQ(0, cc.ret);

	/* The buffer lives on (the CPU mapping holds it), unmapped on the card. */
	load.addr = store.addr = addr + 12;
	free(vm_expect_fault(_metadata, a, PROG_LOAD, addr + 12, &load, false));
	free(vm_expect_fault(_metadata, a, PROG_STORE, addr + 12, &store, false));
	EXPECT_EQ(42, cell[3]);
	munmap((void *)cell, PAGE);
}

/*
 * The unmap of a closed buffer waits for the jobs that were in flight at
 * the close, not for jobs submitted after it: job 1 spins on buffer X,
 * X's handle is closed, job 2 (spinning on a cell elsewhere) and job 3 (a
 * load from X) are submitted.  Job 1 ends, then job 2: job 3, which runs
 * after both and was submitted without X, must take a page fault.  A
 * driver that unmaps only once the file has no job at all lets job 3 read
 * X, and a file that always has a job in flight never unmaps anything.
 */
TEST_F_TIMEOUT(vm, closed_buffer_unmapped_once_older_jobs_end, 120)
{
	struct vx_client *a = &self->a;
	volatile uint32_t *x, *cell = a->data_map + 8;
	uint64_t addr, job1, job2, job3;
	int32_t status = 1;
	uint32_t h;
	char *text;

	vx_cmd(_vx_bo_create(a->fd, PAGE, 0, &h, &addr));
	x = vx_bo_map(a->fd, h, NULL);
	ASSERT_NE(NULL, x);
	x[2] = 7;
	x[3] = 0x11111111u;
	vm_use_bo(a, h);
	vx_cmd(vm_launch(a, PROG_SPIN, addr));
	job1 = a->sub.seqno;
	vm_use_bo(a, 0);
	ASSERT_TRUE(vx_poll_ms(x[1] == 1, VX_LIVE_MS)) TH_LOG("job 1 did not start");
	vx_cmd(_vx_bo_close(a->fd, h));

	memset((void *)cell, 0, 16);
	vx_cmd(vm_launch(a, PROG_SPIN, a->data_addr + 32));
	job2 = a->sub.seqno;
	a->data_map[ARG_TARGET] = (uint32_t)addr + 12;
	a->data_map[ARG_OUT] = 0xdeadbeefu;
	vx_dump_discard();
	vx_cmd(vm_launch(a, PROG_LOAD, a->data_addr));
	job3 = a->sub.seqno;

	x[0] = 1;
	__sync_synchronize();
	vx_cmd(_vx_wait(a->fd, job1, VX_LIVE_MS * MS, &status));
	EXPECT_EQ(0, status);
	EXPECT_EQ(8, x[3]) TH_LOG("job 1 lost its buffer");
	ASSERT_TRUE(vx_poll_ms(cell[1] == 1, VX_LIVE_MS)) TH_LOG("job 2 did not start");
	cell[0] = 1;
	__sync_synchronize();
	vx_cmd(_vx_wait(a->fd, job2, VX_LIVE_MS * MS, &status));
	EXPECT_EQ(0, status);
	vx_cmd(_vx_wait(a->fd, job3, VX_LIVE_MS * MS, &status));
	EXPECT_EQ(-EIO, status) TH_LOG("job 3 reached the closed buffer");
	EXPECT_EQ(0xdeadbeefu, a->data_map[ARG_OUT]);
	text = vx_dump_read(5000);
	EXPECT_EQ(VX_ERR_LOAD_PAGE_FAULT, vx_dump_num(text, "fault-info", "cause"));
	EXPECT_EQ(addr + 12, vx_dump_num(text, "fault-info", "address"));
	free(text);
	munmap((void *)x, PAGE);
}

/*
 * PRIME import as a second file of the same process sees it: a non-dma-buf
 * or closed fd is refused; before the import the buffer is not in the
 * importer's space; importing twice gives one handle and one mapping, so
 * one close unmaps; importing again maps it again.
 */
TEST_F_TIMEOUT(vm, prime_import_errors_and_reimport, 120)
{
	struct drm_prime_handle p = { .flags = DRM_CLOEXEC };
	struct vx_client *a = &self->a, b;
	uint32_t h, hb, *map;
	struct vm_fault load;
	uint64_t addr;
	int nullfd;

	ASSERT_EQ(0, vm_client_open(&b));
	vx_cmd(_vx_bo_create(a->fd, PAGE, 0, &h, &addr));
	map = vx_bo_map(a->fd, h, NULL);
	ASSERT_NE(NULL, map);
	map[5] = 0x1234abcdu;
	load = (struct vm_fault){ VX_ERR_LOAD_PAGE_FAULT,
				  b.code_addr + PROG_LOAD + LOAD_PC, addr + 20 };

	nullfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, nullfd);
	p.fd = nullfd;
	EXPECT_EQ(-EINVAL, vx_ioctl(b.fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p));
	close(nullfd);
	EXPECT_EQ(-EBADF, vx_ioctl(b.fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p));
	free(vm_expect_fault(_metadata, &b, PROG_LOAD, addr + 20, &load, false));

	p.handle = h;
	vx_cmd(vx_ioctl(a->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p));
	p.handle = 0;
	vx_cmd(vx_ioctl(b.fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p));
	hb = p.handle;
	p.handle = 0;
	vx_cmd(vx_ioctl(b.fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p));
	EXPECT_EQ(hb, p.handle);
	EXPECT_EQ(0, vm_run(&b, PROG_LOAD, addr + 20, 0));
	EXPECT_EQ(0x1234abcdu, b.data_map[ARG_OUT]);

	vx_cmd(_vx_bo_close(b.fd, hb));
	EXPECT_EQ(-EINVAL, _vx_bo_close(b.fd, hb));
	free(vm_expect_fault(_metadata, &b, PROG_LOAD, addr + 20, &load, false));
	/* A's mapping is its own: untouched by B's close. */
	EXPECT_EQ(0, vm_run(a, PROG_LOAD, addr + 20, 0));
	EXPECT_EQ(0x1234abcdu, a->data_map[ARG_OUT]);

	p.handle = 0;
	vx_cmd(vx_ioctl(b.fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p));
	EXPECT_EQ(0, vm_run(&b, PROG_LOAD, addr + 20, 0));
	EXPECT_EQ(0x1234abcdu, b.data_map[ARG_OUT]);

	close(p.fd);
	munmap(map, PAGE);
	vx_client_close(&b);
}

/*
 * The CPU side of the same isolation: another file's mmap() at a
 * buffer's offset is refused (-EACCES) until that file holds a handle
 * (a PRIME import), and after the last handle is closed the offset maps
 * nothing in any file.
 */
TEST_F_TIMEOUT(vm, other_file_mmap_of_a_buffer_offset_is_refused, 60)
{
	struct drm_prime_handle p = { .flags = DRM_CLOEXEC };
	struct drm_vortex_bo_info info;
	struct vx_client *a = &self->a, b;
	uint32_t h, *cpu;
	uint64_t addr;

	ASSERT_EQ(0, vm_client_open(&b));
	vx_cmd(_vx_bo_create(a->fd, PAGE, 0, &h, &addr));
	info = (struct drm_vortex_bo_info){ .handle = h };
	vx_cmd(vx_ioctl(a->fd, DRM_IOCTL_VORTEX_BO_INFO, &info));
	cpu = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, b.fd, info.mmap_offset);
	EXPECT_EQ(MAP_FAILED, cpu);
	EXPECT_EQ(EACCES, errno);

	p.handle = h;
	vx_cmd(vx_ioctl(a->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p));
	p.handle = 0;
	vx_cmd(vx_ioctl(b.fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p));
	close(p.fd);
	cpu = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, b.fd, info.mmap_offset);
	ASSERT_NE(MAP_FAILED, cpu) TH_LOG("the importer cannot map: %s", strerror(errno));
	cpu[2] = 0x5eedu;
	munmap(cpu, PAGE);
	EXPECT_EQ(0, vm_run(a, PROG_LOAD, addr + 8, 0));
	EXPECT_EQ(0x5eedu, a->data_map[ARG_OUT]);

	vx_cmd(_vx_bo_close(b.fd, p.handle));
	vx_cmd(_vx_bo_close(a->fd, h));
	cpu = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, a->fd, info.mmap_offset);
	EXPECT_EQ(MAP_FAILED, cpu) TH_LOG("a freed buffer's offset still maps");
	cpu = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, b.fd, info.mmap_offset);
	EXPECT_EQ(MAP_FAILED, cpu) TH_LOG("a freed buffer's offset still maps");
	vx_client_close(&b);
}

/* A dma-buf of the system heap: memory the card cannot reach. */
static int heap_dmabuf(size_t len)
{
	struct dma_heap_allocation_data a = {
		.len = len, .fd_flags = O_RDWR | O_CLOEXEC,
	};
	int heap = open("/dev/dma_heap/system", O_RDONLY | O_CLOEXEC), ret;

	if (heap < 0)
		return -errno;
	ret = ioctl(heap, DMA_HEAP_IOCTL_ALLOC, &a) ? -errno : (int)a.fd;
	close(heap);
	return ret;
}

/*
 * Another driver's dma-buf is not VRAM, so the card cannot map it: the
 * import is refused with -EINVAL and makes no handle, the file's next
 * buffer and job work, and the dma-buf stays usable by its owner.
 */
TEST_F_TIMEOUT(vm, foreign_dmabuf_import_is_refused, 60)
{
	struct drm_prime_handle p = { .flags = DRM_CLOEXEC };
	struct vx_client *a = &self->a;
	uint32_t h, *cpu;
	uint64_t addr;
	int buf;

	buf = heap_dmabuf(2 * PAGE);
	if (buf == -ENOENT)
		SKIP(return, "no /dev/dma_heap/system");
	ASSERT_LE(0, buf) TH_LOG("DMA_HEAP_IOCTL_ALLOC: %s", strerror(-buf));
	p.fd = buf;
	EXPECT_EQ(-EINVAL, vx_ioctl(a->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p));
	EXPECT_EQ(0u, p.handle);
	/* twice: no half-made object was cached for the dma-buf */
	EXPECT_EQ(-EINVAL, vx_ioctl(a->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p));

	cpu = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, buf, 0);
	ASSERT_NE(MAP_FAILED, cpu);
	cpu[1] = 0xfeedf00du;
	EXPECT_EQ(0xfeedf00du, cpu[1]);
	munmap(cpu, 2 * PAGE);
	close(buf);

	vx_cmd(_vx_bo_create(a->fd, PAGE, 0, &h, &addr));
	EXPECT_EQ(0, vm_load_own(a, 0x600d0001u));
	vx_cmd(_vx_bo_close(a->fd, h));
}

/* ------------------------------------------------- access flags */

struct access_bo {
	uint32_t flags, handle;
	uint64_t size, addr;
	uint32_t *map;
};

/*
 * In @c's space: @bo's word 8 loads as the CPU wrote it; a store to it
 * lands or, for a read-only buffer, is a store page fault that leaves the
 * word alone; a jump to its start (a TMC that ends the warp) runs or,
 * for a no-exec buffer, is a fetch page fault there.
 */
static void check_access(struct __test_metadata *_metadata, struct vx_client *c,
			 const struct access_bo *bo)
{
	uint64_t word = bo->addr + bo->size - 32;
	struct vm_fault store = { VX_ERR_STORE_PAGE_FAULT,
				  c->code_addr + PROG_STORE + STORE_PC, word };
	struct vm_fault fetch = { VX_ERR_FETCH_PAGE_FAULT, bo->addr, bo->addr };
	uint32_t *w = bo->map + (bo->size - 32) / 4;

	*w = 0x0dd0f00du;
	EXPECT_EQ(0, vm_run(c, PROG_LOAD, word, 0)) TH_LOG("flags 0x%x", bo->flags);
	EXPECT_EQ(0x0dd0f00du, c->data_map[ARG_OUT]);
	if (bo->flags & DRM_VORTEX_BO_GPU_READ_ONLY) {
		free(vm_expect_fault(_metadata, c, PROG_STORE, word, &store, false));
		EXPECT_EQ(0x0dd0f00du, *w) TH_LOG("a store to a read-only buffer landed");
	} else {
		EXPECT_EQ(0, vm_run(c, PROG_STORE, word, 0x5a5a0001u));
		EXPECT_EQ(0x5a5a0001u, *w);
	}
	bo->map[0] = TMC(X0);
	if (bo->flags & DRM_VORTEX_BO_GPU_NO_EXEC)
		free(vm_expect_fault(_metadata, c, PROG_JUMP, bo->addr, &fetch, false));
	else
		EXPECT_EQ(0, vm_run(c, PROG_JUMP, bo->addr, 0)) TH_LOG("flags 0x%x", bo->flags);
}

/*
 * Every combination of DRM_VORTEX_BO_GPU_READ_ONLY and _NO_EXEC, on a
 * page and on a 4 MiB megapage: loads always work, stores and fetches
 * fault exactly where the flags forbid them, in the creator's space and
 * in another file's that imported the buffer through PRIME (BO_INFO
 * reports the creator's flags there).  The CPU's mapping writes any.
 */
TEST_F_TIMEOUT(vm, bo_access_flags_hold_in_every_space, 300)
{
	struct drm_prime_handle p = { .flags = DRM_CLOEXEC };
	struct drm_vortex_bo_info info;
	struct vx_client *a = &self->a, b;
	struct access_bo bo, imp;
	uint64_t caps = 0;
	int i;

	vx_cmd(_vx_get_param(a->fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps));
	ASSERT_TRUE(caps & DRM_VORTEX_CAP_BO_ACCESS);
	ASSERT_EQ(0, vm_client_open(&b));
	for (i = 0; i < 8; i++) {
		bo = (struct access_bo){ .flags = i & 3, .size = i < 4 ? 2 * PAGE : 4u << 20 };
		vx_cmd(_vx_bo_create(a->fd, bo.size, bo.flags, &bo.handle, &bo.addr));
		bo.map = vx_bo_map(a->fd, bo.handle, NULL);
		ASSERT_NE(NULL, bo.map);
		info = (struct drm_vortex_bo_info){ .handle = bo.handle };
		vx_cmd(vx_ioctl(a->fd, DRM_IOCTL_VORTEX_BO_INFO, &info));
		EXPECT_EQ(bo.flags, info.flags);
		check_access(_metadata, a, &bo);

		p.handle = bo.handle;
		vx_cmd(vx_ioctl(a->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p));
		p.handle = 0;
		vx_cmd(vx_ioctl(b.fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p));
		close(p.fd);
		imp = bo;
		imp.handle = p.handle;
		info = (struct drm_vortex_bo_info){ .handle = imp.handle };
		vx_cmd(vx_ioctl(b.fd, DRM_IOCTL_VORTEX_BO_INFO, &info));
		EXPECT_EQ(bo.flags, info.flags) TH_LOG("imported");
		EXPECT_EQ(bo.addr, info.dev_addr);
		check_access(_metadata, &b, &imp);

		vx_cmd(_vx_bo_close(b.fd, imp.handle));
		munmap(bo.map, bo.size);
		vx_cmd(_vx_bo_close(a->fd, bo.handle));
	}
	vx_client_close(&b);
}

/* ------------------------------------------------------- close races */

/* The closing thread's side: one handle at a time, published by the test. */
struct close_race {
	int fd;
	uint32_t handle;	/* to close; 0 when none (atomic) */
	bool stop;		/* atomic */
	uint32_t closed, errors;
	uint64_t rng;
};

static void *close_race_thread(void *arg)
{
	struct close_race *r = arg;
	uint32_t h;

	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		h = __atomic_exchange_n(&r->handle, 0, __ATOMIC_ACQ_REL);
		if (!h)
			continue;
		/* A window of 0-63 us: before, inside or after the SUBMIT. */
		vx_spin_us((vx_lcg(&r->rng) >> 33) % 64);
		if (_vx_bo_close(r->fd, h))
			r->errors++;
		r->closed++;
	}
	return NULL;
}

/*
 * A thread closes each buffer while the test submits a job that lists it
 * and loads from it: the close lands before the SUBMIT (-ENOENT), between
 * its job count and its handle lookup, while the job runs, or after.  A
 * SUBMIT that found the handle must run to the end with the buffer's own
 * value: its mapping stays until the job has left the card.
 */
TEST_F_TIMEOUT(vm, close_races_submit_that_lists_the_buffer, 300)
{
	struct close_race r = { .fd = self->a.fd, .rng = (uint64_t)vx_now() | 1 };
	struct vx_client *a = &self->a;
	uint32_t i, h, ran = 0, gone = 0, *map;
	uint64_t rng = (uint64_t)vx_now() * 3 + 1;
	const uint32_t rounds = 1500;
	int32_t status;
	uint64_t addr;
	pthread_t t;
	int ret;

	ASSERT_EQ(0, pthread_create(&t, NULL, close_race_thread, &r));
	for (i = 0; i < rounds; i++) {
		vx_cmd(_vx_bo_create(a->fd, PAGE, 0, &h, &addr));
		map = vx_bo_map(a->fd, h, NULL);
		ASSERT_NE(NULL, map);
		map[0] = 0xc0de0000u | i;
		munmap(map, PAGE);
		a->data_map[ARG_TARGET] = (uint32_t)addr;
		a->data_map[ARG_OUT] = 0xdeadbeefu;
		vm_use_bo(a, h);
		__atomic_store_n(&r.handle, h, __ATOMIC_RELEASE);
		/*
		 * And a window of 0-127 us on this side; on a guest with one
		 * CPU the closer runs while this thread sleeps in WAIT, or,
		 * every other round, first, when this thread yields to it.
		 */
		if (vx_lcg(&rng) >> 63)
			sched_yield();
		vx_spin_us((rng >> 33) % 128);
		ret = vm_launch(a, PROG_LOAD, a->data_addr);
		if (ret) {
			EXPECT_EQ(-ENOENT, ret) TH_LOG("round %u", i);
			gone++;
		} else {
			vx_cmd(_vx_wait(a->fd, a->sub.seqno, 30 * SEC, &status));
			EXPECT_EQ(0, status) TH_LOG("round %u: the job lost its buffer", i);
			EXPECT_EQ(0xc0de0000u | i, a->data_map[ARG_OUT]) TH_LOG("round %u", i);
			ran++;
		}
		/* Next round only once this buffer is closed. */
		ASSERT_TRUE(vx_poll_ms(!__atomic_load_n(&r.handle, __ATOMIC_ACQUIRE) &&
				       __atomic_load_n(&r.closed, __ATOMIC_ACQUIRE) == i + 1,
				       VX_LIVE_MS));
		if (_metadata->exit_code == KSFT_FAIL)
			break;
	}
	__atomic_store_n(&r.stop, true, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	vm_use_bo(a, 0);
	EXPECT_EQ(0, r.errors);
	ksft_print_msg("%u jobs ran, %u SUBMITs found the handle closed\n", ran, gone);
	/* The races ended with no mapping left behind: the last address faults. */
	{
		struct vm_fault load = { VX_ERR_LOAD_PAGE_FAULT,
					 a->code_addr + PROG_LOAD + LOAD_PC, addr };

		free(vm_expect_fault(_metadata, a, PROG_LOAD, addr, &load, false));
	}
}

/* ------------------------------------------------- the shared ASID */

#define SHARED_ASID	511	/* the last of the card's 9-bit ASIDs */
#define FILLER_FILES	520	/* more than the card's private ASIDs */

/*
 * Files opened while every private ASID is taken share the last one.
 * B and A are two such files.  Before each attack B's kernel reads its
 * own argument page and runs its own code, so the card's TLB holds B's
 * translations under the shared ASID; A's kernel, next on the card under
 * the same ASID, then loads from and stores to B's page and jumps into
 * B's code: each must be a page fault found in A's own tables, never B's
 * page served from the TLB.  B's word is unchanged, and jobs of B and A
 * taking turns keep reading their own values.
 */
TEST_F_TIMEOUT(vm, files_past_the_asids_share_one_and_stay_isolated, 300)
{
	static int fds[FILLER_FILES];
	struct vx_client cb, ca, *a = &ca, *b = &cb;
	uint64_t word;
	char *text;
	int i, n;

	for (n = 0; n < FILLER_FILES; n++) {
		fds[n] = open(VX_NODE, O_RDWR | O_CLOEXEC);
		ASSERT_LE(0, fds[n]) TH_LOG("open %d: %s", n, strerror(errno));
	}
	ASSERT_EQ(0, vm_client_open(b));
	ASSERT_EQ(0, vm_client_open(a));
	word = b->data_addr + 4 * (ARG_WORDS - 1);

	for (i = 0; i < 3; i++) {
		static const unsigned int progs[] = { PROG_LOAD, PROG_STORE, PROG_JUMP };
		struct vm_fault want[] = {
			{ VX_ERR_LOAD_PAGE_FAULT, a->code_addr + PROG_LOAD + LOAD_PC, word },
			{ VX_ERR_STORE_PAGE_FAULT, a->code_addr + PROG_STORE + STORE_PC, word },
			{ VX_ERR_FETCH_PAGE_FAULT, b->code_addr + PROG_LOAD,
			  b->code_addr + PROG_LOAD },
		};
		uint64_t target = want[i].addr;

		ASSERT_EQ(0, vm_load_own(b, 0xb0b00000u + i)) TH_LOG("B's own job");
		text = vm_expect_fault(_metadata, a, progs[i], target, &want[i], false);
		EXPECT_EQ(SHARED_ASID, vx_dump_num(text, "pgtable-fault-info", "asid"))
			TH_LOG("A is not a file under the shared ASID");
		free(text);
		EXPECT_EQ(0xb0b00000u + i, b->data_map[ARG_WORDS - 1]) TH_LOG("B's word changed");
	}
	for (i = 0; i < 20; i++) {
		EXPECT_EQ(0, vm_load_own(b, 0xb0000000u + i)) TH_LOG("round %d, B", i);
		EXPECT_EQ(0, vm_load_own(a, 0xa0000000u + i)) TH_LOG("round %d, A", i);
	}
	vx_client_close(a);
	vx_client_close(b);
	for (n = 0; n < FILLER_FILES; n++)
		close(fds[n]);
}

/* -------------------------------------------------------------- fuzz */

#define FUZZ_OPS	400
#define FUZZ_LIVE	32
#define FUZZ_FAULTS	6

struct fuzz_bo {
	uint32_t handle, flags;
	uint64_t addr, size;
};

struct fuzz {
	uint64_t rng, vram;
	struct fuzz_bo live[FUZZ_LIVE];
	int nlive;
	uint32_t stale[64];	/* closed handles */
	uint64_t stale_addr[64];
	int nstale, faults;
};

static uint64_t fuzz_rand(struct fuzz *f)
{
	f->rng ^= f->rng << 13;
	f->rng ^= f->rng >> 7;
	f->rng ^= f->rng << 17;
	return f->rng;
}

/* A size and flags for BO_CREATE, and the errno the uapi promises. */
static int fuzz_create_args(struct fuzz *f, uint64_t *size, uint32_t *flags)
{
	static const uint32_t bad_flags[] = { 4, 5, 0x80000000u, 0xffffffffu };
	uint64_t r = fuzz_rand(f);

	*flags = r % 8 ? (r >> 4) % 4 : bad_flags[(r >> 8) % 4];
	switch ((r >> 16) % 10) {
	case 0:
		*size = 0;
		break;
	case 1:
		*size = f->vram + 1 + (r >> 32) % (1u << 20);
		break;
	case 2:
		*size = ~0ull - (r >> 40);
		break;
	case 3:
		*size = f->vram;	/* nothing that big is free */
		break;
	default:
		*size = 1 + (r >> 24) % (2u << 20);
	}
	if (*flags & ~DRM_VORTEX_BO_FLAGS || !*size || *size > f->vram)
		return -EINVAL;
	return *size == f->vram ? -ENOMEM : 0;
}

static void fuzz_create(struct __test_metadata *_metadata, struct fuzz *f,
			struct vx_client *c)
{
	uint64_t size, addr = 0;
	uint32_t flags, h = 0;
	int want = fuzz_create_args(f, &size, &flags), ret;

	if (!want && f->nlive == FUZZ_LIVE)
		return;
	ret = _vx_bo_create(c->fd, size, flags, &h, &addr);
	EXPECT_EQ(want, ret) TH_LOG("BO_CREATE size %llu flags 0x%x",
				   (unsigned long long)size, flags);
	if (ret)
		return;
	EXPECT_EQ(0, addr & (PAGE - 1));
	/* DRM hands out the lowest free handle: a closed one comes back. */
	for (int i = 0; i < f->nstale; i++)
		if (f->stale[i] == h) {
			f->stale[i] = f->stale[--f->nstale];
			f->stale_addr[i] = f->stale_addr[f->nstale];
			break;
		}
	f->live[f->nlive++] = (struct fuzz_bo){ h, flags, addr,
						(size + PAGE - 1) & ~(uint64_t)(PAGE - 1) };
}

static void fuzz_close(struct __test_metadata *_metadata, struct fuzz *f,
		       struct vx_client *c)
{
	uint64_t r = fuzz_rand(f);
	int i, s;

	if (r % 3 || !f->nlive) {	/* a handle this file does not have */
		uint32_t h = r % 2 && f->nstale ? f->stale[(r >> 8) % f->nstale] :
			     r % 5 ? 0x10000u + (uint32_t)(r >> 32) % 0x7fff0000u : 0;

		EXPECT_EQ(-EINVAL, _vx_bo_close(c->fd, h)) TH_LOG("GEM_CLOSE %u", h);
		return;
	}
	i = (r >> 8) % f->nlive;
	EXPECT_EQ(0, _vx_bo_close(c->fd, f->live[i].handle));
	s = f->nstale < 64 ? f->nstale++ : (r >> 16) % 64;
	f->stale_addr[s] = f->live[i].addr;
	f->stale[s] = f->live[i].handle;
	f->live[i] = f->live[--f->nlive];
}

/* Whether @addr is in a buffer this file has. */
static bool fuzz_mapped(const struct fuzz *f, const struct vx_client *c,
			uint64_t addr)
{
	int i;

	if (addr - c->code_addr < PAGE || addr - c->data_addr < PAGE)
		return true;
	for (i = 0; i < f->nlive; i++)
		if (addr - f->live[i].addr < f->live[i].size)
			return true;
	return false;
}

/*
 * A job on a live buffer (a store and a load back at a random word), a
 * SUBMIT naming a closed handle (-ENOENT), or a job touching a closed
 * buffer's address that no live one took since (a page fault).
 */
static void fuzz_submit(struct __test_metadata *_metadata, struct fuzz *f,
			struct vx_client *c)
{
	uint64_t r = fuzz_rand(f), addr;
	struct fuzz_bo *bo;
	uint32_t v = (uint32_t)(r >> 32);
	int s;

	if (r % 4 == 0 && f->nstale) {
		s = (r >> 8) % f->nstale;
		if (!fuzz_mapped(f, c, f->stale_addr[s]) && f->faults < FUZZ_FAULTS) {
			struct vm_fault want = { VX_ERR_LOAD_PAGE_FAULT,
				c->code_addr + PROG_LOAD + LOAD_PC, f->stale_addr[s] };

			f->faults++;
			free(vm_expect_fault(_metadata, c, PROG_LOAD, want.addr, &want, false));
			return;
		}
		vm_use_bo(c, f->stale[s]);
		EXPECT_EQ(-ENOENT - 1000, vm_run(c, PROG_LOAD, c->data_addr, 0))
			TH_LOG("SUBMIT with closed handle %u", f->stale[s]);
		vm_use_bo(c, 0);
		return;
	}
	if (!f->nlive)
		return;
	bo = &f->live[(r >> 8) % f->nlive];
	addr = bo->addr + ((r >> 16) % (bo->size / 4)) * 4;
	vm_use_bo(c, bo->handle);
	if (bo->flags & DRM_VORTEX_BO_GPU_READ_ONLY) {
		/* Its memory stays as created: zero. */
		if (f->faults < FUZZ_FAULTS) {
			struct vm_fault want = { VX_ERR_STORE_PAGE_FAULT,
				c->code_addr + PROG_STORE + STORE_PC, addr };

			f->faults++;
			free(vm_expect_fault(_metadata, c, PROG_STORE, addr, &want, false));
		}
		v = 0;
	} else {
		EXPECT_EQ(0, vm_run(c, PROG_STORE, addr, v));
	}
	EXPECT_EQ(0, vm_run(c, PROG_LOAD, addr, 0));
	EXPECT_EQ(v, c->data_map[ARG_OUT]) TH_LOG("word 0x%llx", (unsigned long long)addr);
	vm_use_bo(c, 0);
}

/*
 * Random BO_CREATE sizes and flags, GEM_CLOSE of live, closed and
 * never-seen handles, and submits on live and closed buffers, each with
 * the errno the uapi gives.  The seed is printed; the module's clean
 * unload at the end of the boot checks nothing leaked.
 */
TEST_F_TIMEOUT(vm, fuzz_create_close_submit, 600)
{
	struct fuzz f = { .rng = (uint64_t)vx_now() | 1 };
	int i;

	ksft_print_msg("fuzz seed 0x%llx\n", (unsigned long long)f.rng);
	vx_cmd(_vx_get_param(self->a.fd, DRM_VORTEX_PARAM_VRAM_SIZE, &f.vram));
	for (i = 0; i < FUZZ_OPS && !_metadata->exit_code; i++) {
		switch (fuzz_rand(&f) % 3) {
		case 0:
			fuzz_create(_metadata, &f, &self->a);
			break;
		case 1:
			fuzz_close(_metadata, &f, &self->a);
			break;
		default:
			fuzz_submit(_metadata, &f, &self->a);
		}
	}
	while (f.nlive)
		EXPECT_EQ(0, _vx_bo_close(self->a.fd, f.live[--f.nlive].handle));
}

TEST_HARNESS_MAIN
