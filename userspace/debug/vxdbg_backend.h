/* SPDX-License-Identifier: MIT */
/*
 * The one interface under libvortex-debug: what a debug session can do to
 * a card.  Each operation is one of the driver's session ioctls, with the
 * uapi's own argument structs (uapi/vortex_accel.h, "The debugger
 * interface"), so the ioctl backend is a pass-through and the simulator
 * backend re-implements exactly that contract in-process.
 *
 * Every operation returns 0 or a negative errno, as the ioctl would.
 */
#ifndef VXDBG_BACKEND_H
#define VXDBG_BACKEND_H

#include <stdint.h>
#include <sys/types.h>

#include "vortex_accel.h"

struct vxdbg_backend;

/**
 * struct vxdbg_topology - the card a backend debugs
 * @clusters: clusters
 * @cores: cores per cluster
 * @warps: warps per core
 * @threads: lanes per warp
 * @vram_devaddr: device address of VRAM byte 0
 * @vram_size: bytes of VRAM
 */
struct vxdbg_topology {
	uint32_t clusters;
	uint32_t cores;
	uint32_t warps;
	uint32_t threads;
	uint64_t vram_devaddr;
	uint64_t vram_size;
};

/**
 * struct vxdbg_backend_ops - the session ioctls, and two helpers
 * @name: "ioctl" or "sim"
 * @dm: DRM_VORTEX_DEBUG_IOCTL_DM: raw Debug Module accesses, run in order
 *	under the DM lock (CAP_SYS_ADMIN on the driver; the simulator has no
 *	permissions); a register past 0xc is -ERANGE and ends the batch, the
 *	accesses before it done.  Afterwards the backend rereads what it
 *	shadows of the DM, as the driver does
 * @warps: DRM_VORTEX_DEBUG_IOCTL_WARPS
 * @step: DRM_VORTEX_DEBUG_IOCTL_STEP
 * @status: DRM_VORTEX_DEBUG_IOCTL_STATUS
 * @regs: DRM_VORTEX_DEBUG_IOCTL_REGS
 * @mem: DRM_VORTEX_DEBUG_IOCTL_MEM
 * @breakpoint: DRM_VORTEX_DEBUG_IOCTL_BREAKPOINT
 * @coredump: DRM_VORTEX_DEBUG_IOCTL_COREDUMP
 * @console: DRM_VORTEX_DEBUG_IOCTL_CONSOLE; NULL where the backend has no
 *	console (the simulator's: -EOPNOTSUPP)
 * @event: read() of one event, waiting up to @timeout_ms (-1 for ever, 0
 *	polls); -ETIME when none came
 * @dm_accesses: Debug Module register accesses so far (debugfs on the
 *	driver); -EOPNOTSUPP where unknown
 * @close: detach and free
 */
struct vxdbg_backend_ops {
	const char *name;
	int (*dm)(struct vxdbg_backend *be, struct drm_vortex_debug_dm *args);
	int (*warps)(struct vxdbg_backend *be, struct drm_vortex_debug_warps *args);
	int (*step)(struct vxdbg_backend *be, struct drm_vortex_debug_step *args);
	int (*status)(struct vxdbg_backend *be, struct drm_vortex_debug_status *args);
	int (*regs)(struct vxdbg_backend *be, struct drm_vortex_debug_regs *args);
	int (*mem)(struct vxdbg_backend *be, struct drm_vortex_debug_mem *args);
	int (*breakpoint)(struct vxdbg_backend *be,
			  struct drm_vortex_debug_breakpoint *args);
	int (*coredump)(struct vxdbg_backend *be, struct drm_vortex_debug_coredump *args);
	int (*console)(struct vxdbg_backend *be, struct drm_vortex_debug_console *args);
	int (*event)(struct vxdbg_backend *be, struct drm_vortex_debug_event *ev,
		     int timeout_ms);
	int (*dm_accesses)(struct vxdbg_backend *be, uint64_t *count);
	void (*close)(struct vxdbg_backend *be);
};

/**
 * struct vxdbg_backend - embedded first in each backend's own state
 * @ops: its operations
 * @topo: the card
 */
struct vxdbg_backend {
	const struct vxdbg_backend_ops *ops;
	struct vxdbg_topology topo;
};

static inline uint32_t vxdbg_topology_warps(const struct vxdbg_topology *t)
{
	return t->clusters * t->cores * t->warps;
}

/* ------------------------------------------------ the driver backend */

/**
 * vxdbg_ioctl_attach_fd() - a session on the target that opened @accel_fd
 * @accel_fd: an accel file of the target (its own, or one pidfd_getfd(2)
 *	got); duplicated, the caller keeps its own
 * @out: receives the backend
 *
 * Return: 0, or the ATTACH errno (-EBUSY another debugger, -EOPNOTSUPP
 * debugging disabled, ...).
 */
int vxdbg_ioctl_attach_fd(int accel_fd, struct vxdbg_backend **out);

/**
 * vxdbg_ioctl_attach_pid() - a session on process @pid's card work
 *
 * Finds an accel file among @pid's descriptors and gets it with
 * pidfd_getfd(2), which needs ptrace permission over @pid.
 * Return: 0; -ENOENT @pid has no accel file open; -EPERM; ATTACH errnos.
 */
int vxdbg_ioctl_attach_pid(pid_t pid, struct vxdbg_backend **out);

/**
 * vxdbg_ioctl_spawn() - start a program whose first job halts at its start
 * @node: accel node the program will use, e.g. "/dev/accel/accel0"
 * @argv: the program and its arguments (PATH searched)
 * @out_fd: the program's stdout and stderr, or -1 for the caller's
 * @pid: receives the child's pid
 * @out: receives the backend, attached, halt-at-start armed
 *
 * The child opens @node, the parent attaches through that file and arms
 * halt-at-start, then the child execs @argv: its first job's warps all
 * halt before their first instruction.  The program runs in a process
 * group of its own, so the debugger's terminal signals (Ctrl-C) are the
 * debugger's alone.
 * Return: 0 or -errno; the exec's -errno (-ENOENT: no such program) if the
 * program could not start.
 */
int vxdbg_ioctl_spawn(const char *node, char *const argv[], int out_fd, pid_t *pid,
		      struct vxdbg_backend **out);

#endif /* VXDBG_BACKEND_H */
