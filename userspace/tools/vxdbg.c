// SPDX-License-Identifier: MIT
/*
 * vxdbg: a debugger for kernels on the Vortex card.
 *
 * Input: the commands come from the terminal (a line editor with history)
 * or from a script (-x FILE, no tty needed, each command echoed so the
 * output reads as a transcript).  The target is a process using the card:
 * one already running (-p PID; the debugger needs ptrace rights over it)
 * or a program vxdbg starts after `--`, whose first job's warps all halt
 * before their first instruction.  Built for the host (vxdbg-sim), the
 * target is a kernel ELF run on the simulator in-process instead.
 *
 * Whatever happens, the card is left running: leaving (quit, end of
 * script, a failed script command, SIGINT/SIGTERM/SIGHUP) removes every
 * breakpoint and resumes every warp; a debugger that dies outright has its
 * session closed by the kernel, which does the same.
 *
 * Exit status: 0; 1 usage or setup error; 2 a script command failed.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vx_lineedit.h"
#include "vxdbg.h"
#include "vxdbg_backend.h"
#include "vxdbg_cli.h"
#ifdef VXDBG_SIM
#include "vxdbg_sim_start.h"
#endif

static struct vxdbg_cli *the_cli;
static volatile sig_atomic_t quit_signal;

static void on_signal(int sig)
{
	if (sig != SIGINT)
		quit_signal = sig;
	if (the_cli)
		vxdbg_cli_interrupt(the_cli);
}

static void usage(FILE *f)
{
	fprintf(f,
#ifdef VXDBG_SIM
		"usage: vxdbg-sim [options] KERNEL.elf\n"
		"Runs KERNEL.elf on the simulated card (argument block zeroed), its\n"
		"warps halted before their first instruction, under the debugger.\n"
		"  -t, --topology C,K,W,T  clusters, cores, warps, threads (1,2,4,8)\n"
		"  -g, --grid N            blocks (1)\n"
		"  -b, --block N           threads per block (one warp)\n"
		"  -n, --elements N        a sample kernel's arguments for N elements\n"
		"                          (otherwise a zeroed argument block)\n"
#else
		"usage: vxdbg [options] -p PID\n"
		"       vxdbg [options] -- PROGRAM [ARGS...]\n"
		"Debugs the card work of process PID, or starts PROGRAM with its\n"
		"first job halted before its first instruction.\n"
		"  -p, --pid PID           attach to a running process\n"
		"  -d, --device NODE       accel node for PROGRAM (/dev/accel/accel0)\n"
#endif
		"  -x, --script FILE       run the commands in FILE, then leave\n"
		"  -w, --wait MS           how long continue/wait wait (30000)\n"
		"  -h, --help              this text; 'help' inside lists the commands\n");
}

struct opts {
	const char *script;
	int wait_ms;
	pid_t pid;
	const char *node;
	unsigned int topo[4], grid, block, n;
};

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lopts[] = {
		{ "script", required_argument, NULL, 'x' },
		{ "wait", required_argument, NULL, 'w' },
		{ "pid", required_argument, NULL, 'p' },
		{ "device", required_argument, NULL, 'd' },
		{ "topology", required_argument, NULL, 't' },
		{ "grid", required_argument, NULL, 'g' },
		{ "block", required_argument, NULL, 'b' },
		{ "elements", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "+x:w:p:d:t:g:b:n:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'x': o->script = optarg; break;
		case 'w': o->wait_ms = atoi(optarg); break;
		case 'p': o->pid = atoi(optarg); break;
		case 'd': o->node = optarg; break;
		case 'g': o->grid = atoi(optarg); break;
		case 'b': o->block = atoi(optarg); break;
		case 'n': o->n = atoi(optarg); break;
		case 't':
			if (sscanf(optarg, "%u,%u,%u,%u", &o->topo[0], &o->topo[1], &o->topo[2],
				   &o->topo[3]) != 4) {
				fprintf(stderr, "vxdbg: --topology wants C,K,W,T\n");
				return -1;
			}
			break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -1;
		}
	}
	return optind;
}

#ifdef VXDBG_SIM
/* The kernel on the simulator: loaded, launched, every warp halted at start. */
static int start_target(struct opts *o, char **rest, struct vxdbg_sim **sim,
			struct vxdbg_backend **be)
{
	struct vxdbg_sim_start st = { .topo = { o->topo[0], o->topo[1], o->topo[2], o->topo[3] },
				      .grid = o->grid, .block = o->block, .n = o->n };

	if (!rest[0] || rest[1])
		return fprintf(stderr, "vxdbg: one KERNEL.elf, please\n"), -EINVAL;
	return vxdbg_sim_start(rest[0], &st, sim, be);
}
#else
static int start_target(struct opts *o, char **rest, pid_t *child, struct vxdbg_backend **be)
{
	int ret;

	if (o->pid && rest[0])
		return fprintf(stderr, "vxdbg: -p or a program, not both\n"), -EINVAL;
	if (o->pid) {
		ret = vxdbg_ioctl_attach_pid(o->pid, be);
		if (ret)
			fprintf(stderr, "vxdbg: attaching to %d: %s%s\n", (int)o->pid,
				strerror(-ret), ret == -ENOENT ? " (it has no accel node open)" : "");
		return ret;
	}
	if (!rest[0])
		return usage(stderr), -EINVAL;
	ret = vxdbg_ioctl_spawn(o->node ?: "/dev/accel/accel0", rest, child, be);
	if (ret)
		fprintf(stderr, "vxdbg: starting %s: %s\n", rest[0], strerror(-ret));
	return ret;
}
#endif

/* Runs @script, or the terminal; returns the exit status. */
static int run(struct vxdbg_cli *cli, const char *script)
{
	struct vx_lineedit *le = NULL;
	const char *line;
	char *buf = NULL;
	size_t cap = 0;
	FILE *f = NULL;
	int ret = 0;

	if (script) {
		f = fopen(script, "r");
		if (!f)
			return fprintf(stderr, "vxdbg: %s: %s\n", script, strerror(errno)), 1;
	} else {
		le = vx_lineedit_new(0, 1);
		if (!le)
			return 1;
	}
	while (!quit_signal) {
		if (f) {
			if (getline(&buf, &cap, f) < 0)
				break;
			buf[strcspn(buf, "\r\n")] = 0;
			line = buf + strspn(buf, " \t");
			if (!*line || *line == '#')
				continue;
			printf("(vxdbg) %s\n", line);
			fflush(stdout);
		} else if (!(line = vx_lineedit_read(le, "(vxdbg) "))) {
			break;
		}
		ret = vxdbg_cli_exec(cli, line);
		if (ret == VXDBG_CLI_QUIT || (f && ret == VXDBG_CLI_ERROR))
			break;
	}
	if (f)
		fclose(f);
	free(buf);
	vx_lineedit_free(le);
	return f && ret == VXDBG_CLI_ERROR ? 2 : 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .wait_ms = 30000, .topo = { 1, 2, 4, 8 } };
	struct sigaction sa = { .sa_handler = on_signal };
	struct vxdbg_backend *be;
	struct vxdbg *d;
	int first, status = 0;
#ifdef VXDBG_SIM
	struct vxdbg_sim *target = NULL;
#else
	pid_t target = 0;
#endif

	first = parse_opts(argc, argv, &o);
	if (first < 0)
		return 1;
	if (start_target(&o, argv + first, &target, &be))
		return 1;
	if (vxdbg_initialize(be, &d))
		return 1;
	the_cli = vxdbg_cli_new(d, stdout, stderr);
	if (!the_cli)
		return 1;
	vxdbg_cli_set_timeout(the_cli, o.wait_ms);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	status = run(the_cli, o.script);
	vxdbg_cli_free(the_cli);
	the_cli = NULL;
	vxdbg_finalize(d);		/* breakpoints out, every warp resumed */
	if (quit_signal)
		fprintf(stderr, "vxdbg: signal %d: detached, the card runs on\n", quit_signal);
#ifdef VXDBG_SIM
	vxdbg_sim_free(target);
#else
	if (target) {
		int st;

		if (waitpid(target, &st, 0) == target) {
			if (WIFEXITED(st))
				printf("[%s exited with status %d]\n", argv[first], WEXITSTATUS(st));
			else
				printf("[%s killed by signal %d]\n", argv[first], WTERMSIG(st));
		}
	}
#endif
	return status;
}
