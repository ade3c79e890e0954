// SPDX-License-Identifier: MIT
/*
 * vortex-dmserver's target in another process (the guest build): -p PID,
 * a process already using the card, or `-- PROGRAM ARGS`, a program the
 * server starts with its first job halted before its first instruction
 * (e.g. vortex-run PROGRAM.vxbin ARGFILE).  Both as vortex-gdbserver
 * finds its target (vxdbg_tool_start_program(): pidfd_getfd(2) on the
 * process's accel file, or a file the child opens before it execs).  The
 * session made at start-up is held for the first client (so a program's
 * first job waits there, halted); every later client attaches anew.  The
 * process launches its own jobs: `s` is refused, and a client's ndmreset
 * only resets (the driver ends the job on the card with -ECANCELED, which
 * the program sees).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "dmtarget.h"
#include "vxdbg_tool.h"

struct dmtarget_proc {
	struct dmtarget t;
	struct vxdbg_tool_target tt;
	struct vxdbg_backend *first;	/* the session the program started under */
	const char *name;
	bool gone;
};

static const struct dmtarget_ops dmtarget_proc_ops;

static struct dmtarget_proc *to_proc(struct dmtarget *t)
{
	return (struct dmtarget_proc *)t;
}

int dmtarget_proc_open(const struct dmtarget_opts *o, struct dmtarget **out)
{
	struct dmtarget_proc *t = calloc(1, sizeof(*t));
	int ret = 0;

	if (!t)
		return -ENOMEM;
	t->t.ops = &dmtarget_proc_ops;
	t->tt = (struct vxdbg_tool_target)VXDBG_TOOL_TARGET_INIT;
	t->tt.pid = o->pid;
	t->tt.node = o->device;
	t->name = o->argv ? o->argv[0] : "";
	ret = vxdbg_tool_start_program(&t->tt, o->argv ?: (char *[]){ NULL },
				       "vortex-dmserver", &t->first);
	if (ret) {
		free(t);
		return ret;
	}
	*out = &t->t;
	return 0;
}

/* A program we started is waited for: its job runs on once resumed. */
static void proc_close(struct dmtarget *tt)
{
	struct dmtarget_proc *t = to_proc(tt);

	if (t->first)
		t->first->ops->close(t->first);
	if (t->tt.child && !t->gone)
		waitpid(t->tt.child, NULL, 0);
	free(t);
}

static int proc_attach(struct dmtarget *tt, struct vxdbg_backend **be)
{
	struct dmtarget_proc *t = to_proc(tt);

	if (t->first) {
		*be = t->first;
		t->first = NULL;
		return 0;
	}
	return vxdbg_ioctl_attach_pid(t->tt.child ?: t->tt.pid, be);
}

static enum dmtarget_state proc_tick(struct dmtarget *tt, int *status)
{
	struct dmtarget_proc *t = to_proc(tt);
	int st;

	if (t->gone)
		return DMTARGET_IDLE;
	if (t->tt.child) {
		if (waitpid(t->tt.child, &st, WNOHANG) != t->tt.child)
			return DMTARGET_WAITING;
		*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	} else {
		if (!kill(t->tt.pid, 0) || errno != ESRCH)
			return DMTARGET_WAITING;
		*status = 0;		/* not our child: its status is its parent's */
	}
	t->gone = true;
	return DMTARGET_GONE;
}

static void proc_describe(struct dmtarget *tt, char *buf, size_t len)
{
	struct dmtarget_proc *t = to_proc(tt);

	if (t->tt.child)
		snprintf(buf, len, "process %d (%s)", (int)t->tt.child, t->name);
	else
		snprintf(buf, len, "process %d", (int)t->tt.pid);
}

static const struct dmtarget_ops dmtarget_proc_ops = {
	.close = proc_close,
	.attach = proc_attach,
	.tick = proc_tick,
	.describe = proc_describe,
};
