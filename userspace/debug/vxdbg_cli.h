/* SPDX-License-Identifier: MIT */
/*
 * vxdbg's command interpreter, apart from its main() so host tests drive
 * it on the simulator backend exactly as people drive it in the guest.
 * `help` lists the commands.
 */
#ifndef VXDBG_CLI_H
#define VXDBG_CLI_H

#include <stdio.h>

#include "vxdbg.h"

struct vxdbg_cli;

/**
 * vxdbg_cli_new() - an interpreter over an initialized session
 * @d: the session (not owned)
 * @out: where results go
 * @err: where error messages go
 * Return: the interpreter, or NULL without memory.
 */
struct vxdbg_cli *vxdbg_cli_new(struct vxdbg *d, FILE *out, FILE *err);
void vxdbg_cli_free(struct vxdbg_cli *c);

#define VXDBG_CLI_OK	0
#define VXDBG_CLI_ERROR	(-1)	/* the message went to @err */
#define VXDBG_CLI_QUIT	1

/** vxdbg_cli_exec() - run one command line; VXDBG_CLI_* */
int vxdbg_cli_exec(struct vxdbg_cli *c, const char *line);

/** vxdbg_cli_set_timeout() - how long `continue` and `wait` wait (ms) */
void vxdbg_cli_set_timeout(struct vxdbg_cli *c, int ms);

/** vxdbg_cli_interrupt() - from a signal handler: end the current wait */
void vxdbg_cli_interrupt(struct vxdbg_cli *c);

#endif /* VXDBG_CLI_H */
