// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Who may debug whom
 *
 * A debug session reads and writes every buffer of every file its target
 * process opened, and halts its jobs: it is ptrace over the target's GPU
 * work, and needs what ptrace needs.  Holding one of the target's files is
 * no proof of that: a file comes by fork(), by SCM_RIGHTS or by any fd leak
 * just as well as by pidfd_getfd(2), the only way that checks ptrace.
 *
 * ptrace_may_access() is not exported to modules, so the driver applies
 * the credential half of __ptrace_may_access() itself, with the caller's
 * real credentials (PTRACE_MODE_ATTACH_REALCREDS): a thread of the target
 * itself; or a caller whose real uid and gid equal each of the target's
 * real, effective and saved ids, and whose target is dumpable; or a caller
 * with CAP_SYS_PTRACE in the target's user namespace (and, for a
 * non-dumpable target, in its mm's).  What it cannot apply is the LSM half
 * (Yama's ptrace_scope, SELinux, AppArmor): a debugger that gets the file
 * through pidfd_getfd(2), as vxdbg and vortex-gdbserver do, has passed that
 * half in the kernel already.
 *
 * The check runs at DEBUG_ATTACH and again at every session ioctl, with
 * the credentials of whoever makes it: a target that has exec'd a setuid
 * program since, or a session fd handed to another process, is refused
 * from then on (-EPERM).
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

#include "vortex_compat.h"
#include "vortex_debug.h"

static bool vortex_debug_same_ids(const struct cred *me, const struct cred *t)
{
	return uid_eq(me->uid, t->euid) && uid_eq(me->uid, t->suid) &&
	       uid_eq(me->uid, t->uid) && gid_eq(me->gid, t->egid) &&
	       gid_eq(me->gid, t->sgid) && gid_eq(me->gid, t->gid);
}

/**
 * vortex_debug_may_access() - whether the caller may debug @target's work
 * @target: the target process (a TGID pid)
 *
 * Return: 0, -ESRCH if the process is gone, or -EPERM.
 */
int vortex_debug_may_access(struct pid *target)
{
	struct task_struct *task = get_pid_task(target, PIDTYPE_TGID);
	const struct cred *tcred;
	int ret = 0;

	if (!task)
		return -ESRCH;
	if (same_thread_group(task, current))
		goto out_put_task;

	tcred = get_task_cred(task);
	if (!vortex_debug_same_ids(current_cred(), tcred) &&
	    !ns_capable(tcred->user_ns, CAP_SYS_PTRACE))
		ret = -EPERM;
	put_cred(tcred);
	if (ret)
		goto out_put_task;

	if (!vortex_task_dump_allowed(task))
		ret = -EPERM;
out_put_task:
	put_task_struct(task);
	return ret;
}
