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

/**
 * vxdbg_cli_set_poll() - @fn runs before each command and while waiting
 * for events; it relays the program's output and returns non-zero once the
 * program is gone, so a wait ends at once instead of running out.
 */
void vxdbg_cli_set_poll(struct vxdbg_cli *c, int (*fn)(void *arg), void *arg);

/**
 * vxdbg_cli_complete() - the words that complete @line at @pos: commands
 * first on the line, registers after print/set or a `$`, else symbols of
 * the current code object; each goes to @add whole.
 */
void vxdbg_cli_complete(struct vxdbg_cli *c, const char *line, size_t pos,
			void (*add)(void *ctx, const char *word), void *ctx);

/** vxdbg_cli_interrupt() - from a signal handler: end the current wait */
void vxdbg_cli_interrupt(struct vxdbg_cli *c);

#endif /* VXDBG_CLI_H */
