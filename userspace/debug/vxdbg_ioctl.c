// SPDX-License-Identifier: MIT
/*
 * The driver backend of libvortex-debug: each operation is the session
 * ioctl of the same name (uapi/vortex_accel.h), and events are read()
 * from the session fd.  Getting hold of the target's accel file is the
 * only work here: pidfd_getfd(2) on one of its descriptors (which needs
 * ptrace permission, as the ABI intends), or, for a program vxdbg starts,
 * a file the child opens before it execs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libvortex.h"
#include "vxdbg_backend.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

struct vxdbg_ioctl {
	struct vxdbg_backend be;
	int accel_fd;		/* our duplicate of the target's file */
	int sfd;		/* the session */
	char dm_path[128];	/* debugfs dm_accesses, "" if unknown */
	/* events read but not yet handed out */
	char buf[64 * sizeof(struct drm_vortex_debug_event)] __attribute__((aligned(8)));
	size_t off, len;
};

static struct vxdbg_ioctl *to_ioctl(struct vxdbg_backend *be)
{
	return (struct vxdbg_ioctl *)be;
}

#define VXDBG_IOCTL_OP(fn, type, req)					\
static int fn(struct vxdbg_backend *be, type *args)			\
{									\
	return vx_ioctl(to_ioctl(be)->sfd, req, args);			\
}

VXDBG_IOCTL_OP(ioctl_dm, struct drm_vortex_debug_dm, DRM_VORTEX_DEBUG_IOCTL_DM)
VXDBG_IOCTL_OP(ioctl_warps, struct drm_vortex_debug_warps, DRM_VORTEX_DEBUG_IOCTL_WARPS)
VXDBG_IOCTL_OP(ioctl_step, struct drm_vortex_debug_step, DRM_VORTEX_DEBUG_IOCTL_STEP)
VXDBG_IOCTL_OP(ioctl_status, struct drm_vortex_debug_status, DRM_VORTEX_DEBUG_IOCTL_STATUS)
VXDBG_IOCTL_OP(ioctl_regs, struct drm_vortex_debug_regs, DRM_VORTEX_DEBUG_IOCTL_REGS)
VXDBG_IOCTL_OP(ioctl_mem, struct drm_vortex_debug_mem, DRM_VORTEX_DEBUG_IOCTL_MEM)
VXDBG_IOCTL_OP(ioctl_breakpoint, struct drm_vortex_debug_breakpoint,
	       DRM_VORTEX_DEBUG_IOCTL_BREAKPOINT)
VXDBG_IOCTL_OP(ioctl_coredump, struct drm_vortex_debug_coredump,
	       DRM_VORTEX_DEBUG_IOCTL_COREDUMP)
VXDBG_IOCTL_OP(ioctl_console, struct drm_vortex_debug_console,
	       DRM_VORTEX_DEBUG_IOCTL_CONSOLE)

/*
 * read() gives whole events, as many as fit: keep the rest for the next
 * call.  Events are skipped by their own @size, so a newer driver's longer
 * events are cut to the part this library knows.
 */
static int ioctl_event(struct vxdbg_backend *be, struct drm_vortex_debug_event *ev,
		       int timeout_ms)
{
	struct vxdbg_ioctl *b = to_ioctl(be);
	struct pollfd p = { .fd = b->sfd, .events = POLLIN };
	struct drm_vortex_debug_event *next;
	ssize_t n;
	int ret;

	while (b->off >= b->len) {
		do {
			ret = poll(&p, 1, timeout_ms);
		} while (ret < 0 && errno == EINTR && timeout_ms < 0);
		if (ret < 0)
			return -errno;
		if (!ret)
			return -ETIME;
		n = read(b->sfd, b->buf, sizeof(b->buf));
		if (n < 0)
			return errno == EAGAIN ? -ETIME : -errno;
		b->off = 0;
		b->len = n;
	}
	next = (struct drm_vortex_debug_event *)(b->buf + b->off);
	if (b->len - b->off < 8 || next->size < 8 || next->size > b->len - b->off) {
		b->off = b->len;	/* malformed: drop what is left */
		return -EIO;
	}
	memset(ev, 0, sizeof(*ev));
	memcpy(ev, next, next->size < sizeof(*ev) ? next->size : sizeof(*ev));
	b->off += next->size;
	return 0;
}

static int ioctl_dm_accesses(struct vxdbg_backend *be, uint64_t *count)
{
	struct vxdbg_ioctl *b = to_ioctl(be);
	FILE *f;
	int ok;

	if (!b->dm_path[0])
		return -EOPNOTSUPP;
	f = fopen(b->dm_path, "r");
	if (!f)
		return -errno;
	ok = fscanf(f, "%" SCNu64, count) == 1;
	fclose(f);
	return ok ? 0 : -EIO;
}

static void ioctl_close(struct vxdbg_backend *be)
{
	struct vxdbg_ioctl *b = to_ioctl(be);

	close(b->sfd);
	close(b->accel_fd);
	free(b);
}

static const struct vxdbg_backend_ops vxdbg_ioctl_ops = {
	.name = "ioctl",
	.dm = ioctl_dm,
	.warps = ioctl_warps,
	.step = ioctl_step,
	.status = ioctl_status,
	.regs = ioctl_regs,
	.mem = ioctl_mem,
	.breakpoint = ioctl_breakpoint,
	.coredump = ioctl_coredump,
	.console = ioctl_console,
	.event = ioctl_event,
	.dm_accesses = ioctl_dm_accesses,
	.close = ioctl_close,
};

static int ioctl_param(int fd, uint32_t param, uint64_t *v)
{
	struct drm_vortex_get_param gp = { .param = param };
	int ret = vx_ioctl(fd, DRM_IOCTL_VORTEX_GET_PARAM, &gp);

	*v = gp.value;
	return ret;
}

static int ioctl_topology(int fd, struct vxdbg_topology *t)
{
	uint64_t v[6];
	static const uint32_t params[6] = {
		DRM_VORTEX_PARAM_NUM_CLUSTERS, DRM_VORTEX_PARAM_NUM_CORES,
		DRM_VORTEX_PARAM_NUM_WARPS, DRM_VORTEX_PARAM_NUM_THREADS,
		DRM_VORTEX_PARAM_VRAM_DEVADDR, DRM_VORTEX_PARAM_VRAM_SIZE,
	};
	int i, ret;

	for (i = 0; i < 6; i++) {
		ret = ioctl_param(fd, params[i], &v[i]);
		if (ret)
			return ret == -EINVAL || ret == -ENOTTY ? -ENODEV : ret;
	}
	*t = (struct vxdbg_topology){ v[0], v[1], v[2], v[3], v[4], v[5] };
	return 0;
}

/*
 * The device's debugfs directory is named after its parent device (the
 * PCI address, DRM's dev->unique): find it through sysfs.
 */
static void dm_path_of(dev_t rdev, char *path, size_t len)
{
	char link[64], target[PATH_MAX], *name;
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/device", major(rdev), minor(rdev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = 0;
	name = strrchr(target, '/');
	snprintf(path, len, "/sys/kernel/debug/accel/%.64s/dm_accesses", name ? name + 1 : target);
}

/*
 * A person who continues into a hang needs time to interrupt it: the
 * target's jobs may run as long as the session may let them, no limit for
 * a privileged debugger, else the driver's debug_timeout_max_ms (uapi:
 * DRM_VORTEX_DEBUG_IOCTL_TIMEOUT).  Halted time never counts, and another
 * client waiting for the card still bounds the hold (debug_hold_ms).
 * Nothing changes on a driver without the ioctl.
 */
static void vxdbg_ioctl_raise_timeout(int sfd)
{
	struct drm_vortex_debug_timeout t = { .timeout_ms = DRM_VORTEX_DEBUG_TIMEOUT_NONE };
	char buf[32] = "";
	ssize_t n;
	int fd;

	if (vx_ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_TIMEOUT, &t) != -EPERM)
		return;
	fd = open("/sys/module/vortex/parameters/debug_timeout_max_ms", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	t.timeout_ms = strtoul(buf, NULL, 10);
	if (t.timeout_ms)
		vx_ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_TIMEOUT, &t);
}

int vxdbg_ioctl_attach_fd(int accel_fd, struct vxdbg_backend **out)
{
	struct drm_vortex_debug_attach a = { .version = DRM_VORTEX_DEBUG_VERSION };
	struct vxdbg_ioctl *b;
	struct stat st;
	int ret;

	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->be.ops = &vxdbg_ioctl_ops;
	b->accel_fd = fcntl(accel_fd, F_DUPFD_CLOEXEC, 3);
	if (b->accel_fd < 0) {
		ret = -errno;
		goto err_free;
	}
	ret = ioctl_topology(b->accel_fd, &b->be.topo);
	if (ret)
		goto err_close;
	ret = vx_ioctl(b->accel_fd, DRM_IOCTL_VORTEX_DEBUG_ATTACH, &a);
	if (ret)
		goto err_close;
	b->sfd = a.fd;
	vxdbg_ioctl_raise_timeout(b->sfd);
	if (!fstat(b->accel_fd, &st))
		dm_path_of(st.st_rdev, b->dm_path, sizeof(b->dm_path));
	*out = &b->be;
	return 0;

err_close:
	close(b->accel_fd);
err_free:
	free(b);
	return ret;
}

/* Whether @fd of process @pid is an accel node. */
static bool is_accel_fd(pid_t pid, const char *fd)
{
	char path[64], target[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/fd/%s", (int)pid, fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = 0;
	return !strncmp(target, "/dev/accel/accel", 16);
}

static int pidfd_getfd_of(pid_t pid, int fd)
{
	int pidfd = syscall(SYS_pidfd_open, pid, 0), ret;

	if (pidfd < 0)
		return -errno;
	ret = syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	ret = ret < 0 ? -errno : ret;
	close(pidfd);
	return ret;
}

int vxdbg_ioctl_attach_pid(pid_t pid, struct vxdbg_backend **out)
{
	char dir[32];
	struct dirent *de;
	int fd = -ENOENT, ret;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] != '.' && is_accel_fd(pid, de->d_name)) {
			fd = pidfd_getfd_of(pid, atoi(de->d_name));
			break;
		}
	}
	closedir(d);
	if (fd < 0)
		return fd;
	ret = vxdbg_ioctl_attach_fd(fd, out);
	close(fd);
	return ret;
}

/*
 * The child: its own process group (a Ctrl-C at the debugger's terminal is
 * the debugger's, which halts the card, not a kill of the program), @out
 * as stdout and stderr if >= 0; open the node, report the fd (or -errno),
 * wait for the go, exec; if exec fails, report its -errno too.
 */
static void spawn_child(const char *node, char *const argv[], int out, int report, int go)
{
	int fd = open(node, O_RDWR | O_CLOEXEC), err;
	char c;

	setpgid(0, 0);
	if (out >= 0 && (dup2(out, 1) < 0 || dup2(out, 2) < 0))
		_exit(126);
	if (fd < 0)
		fd = -errno;
	if (write(report, &fd, sizeof(fd)) != sizeof(fd) || fd < 0)
		_exit(126);
	if (read(go, &c, 1) != 1)
		_exit(126);
	close(go);
	execvp(argv[0], argv);
	err = -errno;
	if (write(report, &err, sizeof(err)) != sizeof(err))
		_exit(126);
	_exit(127);
}

int vxdbg_ioctl_spawn(const char *node, char *const argv[], int out_fd, pid_t *pid,
		      struct vxdbg_backend **out)
{
	struct drm_vortex_debug_warps w = {
		.op = DRM_VORTEX_DEBUG_WARPS_HALT_AT_START,
		.flags = DRM_VORTEX_DEBUG_WARPS_ALL,
	};
	int report[2], go[2], child_fd, fd, ret, err;
	pid_t child;

	if (pipe2(report, O_CLOEXEC))
		return -errno;
	if (pipe2(go, O_CLOEXEC)) {
		ret = -errno;
		goto out_report;
	}
	child = fork();
	if (child < 0) {
		ret = -errno;
		goto out_go;
	}
	if (!child)
		spawn_child(node, argv, out_fd, report[1], go[0]);
	setpgid(child, child);		/* before any Ctrl-C, whoever runs first */
	close(report[1]);		/* EOF on report[0]: the exec happened */
	report[1] = -1;

	ret = -EIO;
	if (read(report[0], &child_fd, sizeof(child_fd)) != sizeof(child_fd))
		goto err_kill;
	if (child_fd < 0) {
		ret = child_fd;		/* the child could not open the node */
		goto err_kill;
	}
	fd = pidfd_getfd_of(child, child_fd);
	if (fd < 0) {
		ret = fd;
		goto err_kill;
	}
	ret = vxdbg_ioctl_attach_fd(fd, out);
	close(fd);
	if (ret)
		goto err_kill;
	ret = (*out)->ops->warps(*out, &w);
	if (ret || write(go[1], "g", 1) != 1) {
		ret = ret ?: -EIO;
		goto err_close;
	}
	if (read(report[0], &err, sizeof(err)) == sizeof(err)) {
		ret = err;		/* no such program, not executable, ... */
		goto err_close;
	}
	*pid = child;
	ret = 0;
	goto out_go;

err_close:
	(*out)->ops->close(*out);
err_kill:
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
out_go:
	close(go[0]);
	close(go[1]);
out_report:
	close(report[0]);
	if (report[1] >= 0)
		close(report[1]);
	return ret;
}
