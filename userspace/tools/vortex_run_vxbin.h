/* SPDX-License-Identifier: MIT */
/*
 * vortex-run's two halves share its exit codes; the Vortex binary half
 * (vortex_run_vxbin.c) is built against libvortexrt's <vortex.h>, the other
 * against libvortex's, so neither header may see the other.
 */
#ifndef VORTEX_RUN_VXBIN_H
#define VORTEX_RUN_VXBIN_H

#include <stddef.h>

/* Exit codes besides EXIT_SUCCESS / EXIT_FAILURE (usage, setup). */
#define EXIT_WRONG	2	/* the job ran but its results are wrong */
#define EXIT_TIMEDOUT	3	/* the job hung and the driver stopped it */
#define EXIT_FAULT	4	/* the job raised a device exception */

/* A Vortex binary staged on the card as vortex-run stages it, not yet started. */
struct vortex_vxbin;

/**
 * vortex_vxbin_stage() - the card opened, @prog and its argument block uploaded
 * @prog: the .vxbin (or a kernel ELF) to upload at its load address
 * @argfile: file whose bytes are the argument block, or NULL for an empty one
 * @out: receives the staged binary (vortex_vxbin_free() it)
 *
 * The card is $VORTEX_DEVICE or the first Vortex node; it is the only
 * accel file the process opens for it.
 *
 * Return: EXIT_SUCCESS, or EXIT_FAILURE with the reason on stderr.
 */
int vortex_vxbin_stage(const char *prog, const char *argfile, struct vortex_vxbin **out);

/**
 * vortex_vxbin_start() - start the staged binary (vx_start())
 * Warp 0 lane 0 of every core starts at its load address with mscratch =
 * the argument block, memory as the last run left it.
 * Return: EXIT_SUCCESS, or EXIT_FAILURE with the reason on stderr.
 */
int vortex_vxbin_start(struct vortex_vxbin *r);

/**
 * vortex_vxbin_wait() - wait for the started job (vx_ready_wait())
 * @timeout_ms: how long, < 0 for Vortex's VX_MAX_TIMEOUT, 0 to look only
 * @status: receives how the job ended: 0, or the -errno WAIT gave it
 *
 * What the kernel printed is shown as Vortex's runtime shows it.
 *
 * Return: 0 when the job has ended, -ETIME while it runs, or the -errno
 * of the wait itself.
 */
int vortex_vxbin_wait(struct vortex_vxbin *r, int timeout_ms, int *status);

/** vortex_vxbin_describe() - one line: the binary, its entry and argument block */
void vortex_vxbin_describe(struct vortex_vxbin *r, char *buf, size_t len);

/** vortex_vxbin_free() - the buffers and the card; NULL ok */
void vortex_vxbin_free(struct vortex_vxbin *r);

/**
 * vortex_run_vxbin() - run a Vortex binary as Vortex's runtime does
 * @prog: the .vxbin (or a kernel ELF) to upload at its load address
 * @argfile: file whose bytes are the argument block (mscratch points at
 *	it), or NULL for an empty one
 * @outfile: where to write the argument block back after the job, or NULL
 * @timeout_ms: how long to wait, < 0 for Vortex's VX_MAX_TIMEOUT
 *
 * The card is $VORTEX_DEVICE or the first Vortex node.  What the kernel
 * printed is shown as Vortex's runtime shows it (vx_ready_wait()).
 *
 * Return: an exit status: EXIT_SUCCESS, EXIT_FAILURE (setup),
 * EXIT_TIMEDOUT or EXIT_FAULT.
 */
int vortex_run_vxbin(const char *prog, const char *argfile, const char *outfile,
		     int timeout_ms);

#endif /* VORTEX_RUN_VXBIN_H */
