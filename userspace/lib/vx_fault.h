/* SPDX-License-Identifier: MIT */
/*
 * A failed job's fault, for the program that ran it: the driver's record
 * (DRM_IOCTL_VORTEX_FAULT) and the lines both runtimes print from it, as
 * upstream's simulator prints its abort.  Compiled into libvortex and
 * libvortexrt alike.
 */
#ifndef VX_FAULT_H
#define VX_FAULT_H

#include <stdint.h>
#include <stdio.h>

#include "vortex_accel.h"

/*
 * The record of job @job of the file @fd (0: its last failed job).
 * Returns 0, -ENOENT if there is none, -ENOTTY from a driver without
 * the ioctl, or another -errno.
 */
int vx_fault_query(int fd, uint64_t job, struct drm_vortex_fault_info *f);

/* "0-3,7" of a lane mask (bit l of word l / 32); "none" if empty. */
const char *vx_fault_lanes(const uint32_t lanes[4], char *buf, size_t len);

/*
 * The fault as upstream's simx reports its abort ("Error: ..."), one fact
 * a line, each line starting with "@who: ": the cause by its name in
 * hw/vortex_causes.h, PC, address, where (warp, core, lane), the faulting
 * lanes or a divergent branch's two sides, and the crash dump's path.
 */
void vx_fault_print(FILE *out, const char *who, const struct drm_vortex_fault_info *f);

#endif /* VX_FAULT_H */
