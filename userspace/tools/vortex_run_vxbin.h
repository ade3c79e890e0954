/* SPDX-License-Identifier: MIT */
/*
 * vortex-run's two halves share its exit codes; the Vortex binary half
 * (vortex_run_vxbin.c) is built against libvortexrt's <vortex.h>, the other
 * against libvortex's, so neither header may see the other.
 */
#ifndef VORTEX_RUN_VXBIN_H
#define VORTEX_RUN_VXBIN_H

/* Exit codes besides EXIT_SUCCESS / EXIT_FAILURE (usage, setup). */
#define EXIT_WRONG	2	/* the job ran but its results are wrong */
#define EXIT_TIMEDOUT	3	/* the job hung and the driver stopped it */
#define EXIT_FAULT	4	/* the job raised a device exception */

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
