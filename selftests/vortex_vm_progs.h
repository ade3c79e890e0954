/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The address-space suites' programs (vortex_vm_test, vortex_vmbind_test)
 * on the one test client (vortex_client.h): its code buffer holds a load
 * and a store at an address the argument block names, its data buffer is
 * that argument block.  Include after kselftest_harness.h.
 */
#ifndef VORTEX_VM_PROGS_H
#define VORTEX_VM_PROGS_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vortex_accel.h"
#include "vortex_test_ioctl.h"
#include "vortex_client.h"
#include "vx_asm.h"

#define PAGE		4096u

enum { X0 = 0, SP = 2, T0 = 5, T1 = 6, T2 = 7, A0 = 10, A1 = 11, A2 = 12, T3 = 28 };

/*
 * The argument block every program gets in a0: the address it attacks or
 * walks, a value, what it read, the end of a walk.
 */
enum { ARG_TARGET, ARG_VALUE, ARG_OUT, ARG_END, ARG_WORDS = 16 };

/* The two programs every client has, at these offsets of its code buffer. */
enum { PROG_LOAD = 0, PROG_STORE = 64 };

/* out = *target  (the load is at +4) */
static const uint32_t prog_load[] = {
	LW(A1, A0, 4 * ARG_TARGET),
	LW(T0, A1, 0),
	SW(T0, A0, 4 * ARG_OUT),
	TMC(X0),
};

/* *target = value  (the store is at +8) */
static const uint32_t prog_store[] = {
	LW(A1, A0, 4 * ARG_TARGET),
	LW(T0, A0, 4 * ARG_VALUE),
	SW(T0, A1, 0),
	TMC(X0),
};

#define LOAD_PC		4	/* offset of prog_load's faulting load */
#define STORE_PC	8	/* offset of prog_store's faulting store */

static void vm_put_prog(struct vx_client *c, unsigned int off,
			const uint32_t *prog, size_t bytes)
{
	memcpy((char *)c->code_map + off, prog, bytes);
}

/* A suite's own program and its offset in the code buffer. */
struct vm_prog {
	unsigned int off;
	const uint32_t *code;
	size_t bytes;
};

#define VM_PROG(off, prog)	{ (off), (prog), sizeof(prog) }

/*
 * Opens a client, a page of code and a page of arguments, with the load,
 * the store and the @n programs at @progs: 0 or -errno.
 */
static int vm_client_open_with(struct vx_client *c, const struct vm_prog *progs,
			       size_t n)
{
	int ret = _vx_client_open(c, PAGE, PAGE,
				  DRM_VORTEX_SUBMIT_BO_READ | DRM_VORTEX_SUBMIT_BO_WRITE);

	if (ret)
		return ret;
	vm_put_prog(c, PROG_LOAD, prog_load, sizeof(prog_load));
	vm_put_prog(c, PROG_STORE, prog_store, sizeof(prog_store));
	while (n--)
		vm_put_prog(c, progs[n].off, progs[n].code, progs[n].bytes);
	return 0;
}

/* Submits program @prog with argument @arg: 0 or -errno. */
static int vm_launch(struct vx_client *c, unsigned int prog, uint64_t arg)
{
	c->sub.entry_pc = c->code_addr + prog;
	c->sub.arg_addr = arg;
	return _vx_submit(c->fd, &c->sub);
}

/*
 * Runs program @prog on @target (and @value) to its end: the WAIT status,
 * or a negative errno of SUBMIT/WAIT offset by -1000 (never a status).
 */
static int vm_run(struct vx_client *c, unsigned int prog, uint64_t target,
		  uint32_t value)
{
	int32_t status = 1;
	int ret;

	c->data_map[ARG_TARGET] = (uint32_t)target;
	c->data_map[ARG_VALUE] = value;
	c->data_map[ARG_OUT] = 0xdeadbeefu;
	ret = vm_launch(c, prog, c->data_addr);
	if (!ret)
		ret = _vx_wait(c->fd, c->sub.seqno, 30 * SEC, &status);
	return ret ? ret - 1000 : status;
}

#endif /* VORTEX_VM_PROGS_H */
