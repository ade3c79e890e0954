// SPDX-License-Identifier: GPL-2.0
/*
 * Debugger sessions: ATTACH and its errors (a second debugger, flags,
 * pad, version), who may attach (another uid, an inherited or passed
 * file without ptrace rights, a target that is not dumpable: debuggers
 * forked here get the file with pidfd_getfd(2), as a real one does), a
 * debugger killed mid-session, and DETACH restoring and resuming.
 */
#include "vortex_debug_fixture.h"

/* ------------------------------------------------------------ attach */

TEST_F(dbg, attach_gives_a_session_and_cap_bit)
{
	uint64_t caps;

	vx_cmd(_vx_get_param(self->fd, DRM_VORTEX_PARAM_CAPABILITIES, &caps));
	EXPECT_TRUE(caps & DRM_VORTEX_CAP_DEBUG);
	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	EXPECT_EQ(FD_CLOEXEC, fcntl(self->sfd, F_GETFD) & FD_CLOEXEC);
}

TEST_F(dbg, attach_err_second_debugger_ebusy)
{
	int other = open(VX_NODE, O_RDWR | O_CLOEXEC);

	self->sfd = dbg_attach(self->fd);
	ASSERT_LE(0, self->sfd);
	EXPECT_EQ(-EBUSY, dbg_attach(self->fd));
	EXPECT_EQ(-EBUSY, dbg_attach(other));
	/* Detaching frees the card for the next debugger. */
	close(self->sfd);
	self->sfd = dbg_attach(other);
	EXPECT_LE(0, self->sfd);
	close(other);
}

TEST_F(dbg, attach_err_flags)
{
	struct drm_vortex_debug_attach a = { .version = DRM_VORTEX_DEBUG_VERSION, .flags = 1 };

	vx_err(EINVAL, vx_ioctl(self->fd, DRM_IOCTL_VORTEX_DEBUG_ATTACH, &a));
}

TEST_F(dbg, attach_err_pad)
{
	struct drm_vortex_debug_attach a = { .version = DRM_VORTEX_DEBUG_VERSION, .pad = 1 };

	vx_err(EINVAL, vx_ioctl(self->fd, DRM_IOCTL_VORTEX_DEBUG_ATTACH, &a));
}

TEST_F(dbg, attach_err_version)
{
	struct drm_vortex_debug_attach a = { .version = DRM_VORTEX_DEBUG_VERSION + 1 };

	vx_err(EINVAL, vx_ioctl(self->fd, DRM_IOCTL_VORTEX_DEBUG_ATTACH, &a));
	/* Version 1's debuggers spoke the 'V' ioctls: refused at attach. */
	a.version = 1;
	vx_err(EINVAL, vx_ioctl(self->fd, DRM_IOCTL_VORTEX_DEBUG_ATTACH, &a));
	a.version = 0;
	vx_err(EINVAL, vx_ioctl(self->fd, DRM_IOCTL_VORTEX_DEBUG_ATTACH, &a));
}

/* Closes every fd but the std ones: a forked debugger must not inherit. */
static void close_inherited(void)
{
	for (int fd = 3; fd < 256; fd++)
		close(fd);
}

/*
 * A process of another uid without CAP_SYS_PTRACE cannot get the target's
 * file (pidfd_getfd is -EPERM), so it cannot attach to its work.
 */
TEST_F(dbg, attach_err_other_uid_cannot_get_the_file)
{
	int target_fd = self->fd, status;
	pid_t parent = getpid(), child;

	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		int pidfd, fd;

		close_inherited();
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(10);
		pidfd = syscall(SYS_pidfd_open, parent, 0);
		if (pidfd < 0)
			_exit(11);
		fd = syscall(SYS_pidfd_getfd, pidfd, target_fd, 0);
		if (fd >= 0)
			_exit(12);
		_exit(errno == EPERM ? 0 : 13);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* Drops to uid/gid 65534, which also drops every capability. */
static bool become_nobody(void)
{
	return !setresgid(65534, 65534, 65534) && !setresuid(65534, 65534, 65534);
}

/* Sends fd @fd over the unix socket @sock (SCM_RIGHTS). */
static int send_fd(int sock, int fd)
{
	char c = 'f', ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -errno;
}

static int recv_fd(int sock)
{
	char c, ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/*
 * What an unprivileged process holding @fd (one of root's accel files)
 * can do to root's secret at @secret: 0 if ATTACH is -EPERM; 12 if it
 * attached, 13 if it then also read the secret.
 */
static int nobody_attack(int fd, uint64_t secret)
{
	uint32_t word = 0;
	int sfd = dbg_attach(fd);

	if (sfd == -EPERM)
		return 0;
	if (sfd < 0)
		return 20;
	return dbg_mem(sfd, secret, &word, 4, false) == 0 && word == 0x5ec12e7 ?
	       13 : 12;
}

/*
 * Issue 22, item 3: holding one of a process's files is no permission to
 * debug it.  Root opens the node twice and keeps a secret in a buffer of
 * its other file (the fixture's).  A child that drops to uid 65534 keeps
 * an inherited fd of the first file; another unprivileged process gets it
 * over a unix socket; a third gets a session fd root made.  Each is
 * refused (-EPERM), and the secret stays root's.  Before the fix the
 * inherited fd attached and read the secret (exit 13), and so did the
 * passed one.  A child that stays root may attach (ptrace's uid rules).
 */
TEST_F(dbg, attach_err_inherited_or_passed_fd_without_ptrace_rights)
{
	int f1 = open(VX_NODE, O_RDWR | O_CLOEXEC), sv[2], sfd;
	uint64_t secret = self->data_addr + IN_OFF;
	struct drm_vortex_debug_status st = { 0 };
	pid_t pid;

	ASSERT_LE(0, f1);
	self->data_map[IN_OFF / 4] = 0x5ec12e7;

	/* Inherited across fork(). */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(become_nobody() ? nobody_attack(f1, secret) : 10);
	EXPECT_EQ(0, wait_exit_code(pid)) TH_LOG("an inherited fd gave a session");

	/* Passed over a unix socket to a process that never was root. */
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd;

		close(f1);
		close(self->fd);
		if (!become_nobody())
			_exit(10);
		fd = recv_fd(sv[1]);
		_exit(fd < 0 ? 11 : nobody_attack(fd, secret));
	}
	ASSERT_EQ(0, send_fd(sv[0], f1));
	EXPECT_EQ(0, wait_exit_code(pid)) TH_LOG("a passed fd gave a session");
	close(sv[0]);
	close(sv[1]);

	/* A session fd root made, used by an unprivileged process. */
	sfd = dbg_attach(f1);
	ASSERT_LE(0, sfd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		uint32_t word = 0;

		if (!become_nobody())
			_exit(10);
		if (dbg_mem(sfd, secret, &word, 4, false) != -EPERM)
			_exit(14);
		_exit(dbg_ioctl(sfd, DRM_VORTEX_DEBUG_IOCTL_STATUS, &st) == -EPERM ?
		      0 : 15);
	}
	EXPECT_EQ(0, wait_exit_code(pid)) TH_LOG("a handed-over session still worked");
	close(sfd);

	/* Same uid, as ptrace allows: the inherited fd attaches. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int s = dbg_attach(f1);

		_exit(s >= 0 ? 0 : 16);
	}
	EXPECT_EQ(0, wait_exit_code(pid));
	EXPECT_EQ(0x5ec12e7, self->data_map[IN_OFF / 4]);
	close(f1);
}

/*
 * A target that is not dumpable: ptrace's second half, which the driver
 * applies itself (vortex_task_dump_allowed(), whose state moved from the
 * mm to the task's exec state in 7.2: docs/kernels.md).  Root opens the
 * node and drops to uid 65534, which leaves it not dumpable (fs.
 * suid_dumpable is 0); a debugger of the same uid without CAP_SYS_PTRACE
 * holding its file is refused (-EPERM) while the target is not dumpable
 * (exit 21 if it attached) and attaches once the target made itself
 * dumpable again with PR_SET_DUMPABLE (exit 22 if it did not).  With
 * the dumpability check left out, the first attach succeeded (exit 21).
 */
static int attach_as_child(int fd)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		int sfd = dbg_attach(fd);

		_exit(sfd >= 0 ? 0 : sfd == -EPERM ? 1 : 2);
	}
	return wait_exit_code(pid);
}

TEST_F(dbg, attach_err_target_not_dumpable)
{
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = open(VX_NODE, O_RDWR | O_CLOEXEC);

		if (fd < 0 || !become_nobody())
			_exit(10);
		if (prctl(PR_GET_DUMPABLE) != 0)
			_exit(11);
		if (attach_as_child(fd) != 1)
			_exit(21);
		if (prctl(PR_SET_DUMPABLE, 1) || attach_as_child(fd) != 0)
			_exit(22);
		_exit(0);
	}
	EXPECT_EQ(0, wait_exit_code(pid));
}

/*
 * A debugger allowed to ptrace the target gets its file and attaches to
 * its work, sets a breakpoint and sees the target's kernel halt there;
 * killed mid-session, it leaves no breakpoint behind and the kernel ends
 * correctly.
 */
TEST_F_TIMEOUT(dbg, debugger_killed_mid_session_card_recovers, 120)
{
	int target_fd = self->fd, to_parent[2], status;
	pid_t parent = getpid(), child;
	char c;
	int32_t st = 1;
	uint32_t l;

	ASSERT_EQ(0, pipe(to_parent));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		int pidfd, fd, sfd;

		pidfd = syscall(SYS_pidfd_open, parent, 0);
		fd = syscall(SYS_pidfd_getfd, pidfd, target_fd, 0);
		if (fd < 0)
			_exit(20);
		sfd = dbg_attach(fd);
		if (sfd < 0 || dbg_bp(sfd, self->code_addr + STORE_BP,
				       DRM_VORTEX_DEBUG_BP_SET))
			_exit(21);
		if (write(to_parent[1], "a", 1) != 1)
			_exit(22);
		if (dbg_event(sfd, DRM_VORTEX_DEBUG_EVENT_HALTED, VX_LIVE_MS, NULL))
			_exit(23);
		if (write(to_parent[1], "h", 1) != 1)
			_exit(24);
		pause();
		_exit(25);
	}
	ASSERT_EQ(1, read(to_parent[0], &c, 1));
	ASSERT_EQ('a', c);
	vx_cmd(_vx_submit(self->fd, &self->sub));
	ASSERT_EQ(1, read(to_parent[0], &c, 1)) TH_LOG("the debugger saw no halt");
	ASSERT_EQ('h', c);
	/* The kernel stands on the breakpoint: it cannot have stored. */
	EXPECT_EQ(0, self->data_map[0]);
	kill(child, SIGKILL);
	ASSERT_EQ(child, waitpid(child, &status, 0));

	vx_cmd(_vx_wait(self->fd, self->sub.seqno, VX_LIVE_MS * MS, &st));
	EXPECT_EQ(0, st);
	for (l = 0; l < self->threads; l++)
		EXPECT_EQ(100 + l, self->data_map[l]);
	EXPECT_EQ(prog_store[STORE_BP / 4], self->code_map[STORE_BP / 4]);
	/* And the card is free for the next debugger. */
	self->sfd = dbg_attach(self->fd);
	EXPECT_LE(0, self->sfd);
}

/* Detaching resumes halted warps and restores breakpoints. */
TEST_F_TIMEOUT(dbg, detach_restores_and_resumes, 60)
{
	int32_t status = 1;

	ATTACH_SUBMIT_HALTED();
	vx_cmd(dbg_bp(self->sfd, self->code_addr + STORE_BP, DRM_VORTEX_DEBUG_BP_SET));
	EXPECT_EQ(EBREAK, self->code_map[STORE_BP / 4]);
	close(self->sfd);
	self->sfd = -1;
	EXPECT_EQ(prog_store[STORE_BP / 4], self->code_map[STORE_BP / 4]);
	vx_cmd(_vx_wait(self->fd, self->sub.seqno, VX_LIVE_MS * MS, &status));
	EXPECT_EQ(0, status);
	for (uint32_t l = 0; l < self->threads; l++)
		EXPECT_EQ(100 + l, self->data_map[l]);
}

TEST_HARNESS_MAIN
