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
#include "vxdbg_tool.h"
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

#ifdef VXDBG_SIM
#define VXDBG_ON_SIM	1
#define start_target	vxdbg_tool_start_sim
#else
#define VXDBG_ON_SIM	0
#define start_target	vxdbg_tool_start_program
#endif

static void usage(FILE *f)
{
	fputs(VXDBG_ON_SIM ?
	      "usage: vxdbg-sim [options] KERNEL.elf\n"
	      "Runs KERNEL.elf on the simulated card, its warps halted before their\n"
	      "first instruction, under the debugger.\n" :
	      "usage: vxdbg [options] -p PID\n"
	      "       vxdbg [options] -- PROGRAM [ARGS...]\n"
	      "Debugs the card work of process PID, or starts PROGRAM with its\n"
	      "first job halted before its first instruction.\n", f);
	vxdbg_tool_usage(f, VXDBG_ON_SIM);
	fputs("  -x, --script FILE       run the commands in FILE, then leave\n"
	      "  -w, --wait MS           how long continue/wait wait (30000)\n"
	      "  -h, --help              this text; 'help' inside lists the commands\n", f);
}

/* Returns the index of the first operand, or -1. */
static int parse_opts(int argc, char **argv, const char **script,
		      struct vxdbg_tool_target *t)
{
	static const struct option lopts[] = {
		{ "script", required_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		VXDBG_TOOL_LONGOPTS,
		{ 0 }
	};
	int c, ret;

	while ((c = getopt_long(argc, argv, "+x:h" VXDBG_TOOL_SHORTOPTS, lopts, NULL)) != -1) {
		if (c == 'x') {
			*script = optarg;
			continue;
		}
		if (c == 'h') {
			usage(stdout);
			exit(0);
		}
		ret = vxdbg_tool_opt(t, c, optarg, "vxdbg");
		if (ret < 0)
			return -1;
		if (!ret) {
			usage(stderr);
			return -1;
		}
	}
	return optind;
}

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
	struct vxdbg_tool_target t = VXDBG_TOOL_TARGET_INIT;
	struct sigaction sa = { .sa_handler = on_signal };
	const char *script = NULL;
	struct vxdbg_backend *be;
	struct vxdbg *d;
	int first, status = 0;

	first = parse_opts(argc, argv, &script, &t);
	if (first < 0)
		return 1;
	if (start_target(&t, argv + first, "vxdbg", &be))
		return 1;
	if (vxdbg_initialize(be, &d))
		return 1;
	the_cli = vxdbg_cli_new(d, stdout, stderr);
	if (!the_cli)
		return 1;
	vxdbg_cli_set_timeout(the_cli, t.wait_ms);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	status = run(the_cli, script);
	vxdbg_cli_free(the_cli);
	the_cli = NULL;
	vxdbg_finalize(d);		/* breakpoints out, every warp resumed */
	if (quit_signal)
		fprintf(stderr, "vxdbg: signal %d: detached, the card runs on\n", quit_signal);
#ifdef VXDBG_SIM
	vxdbg_sim_free(t.sim);
#else
	if (t.child) {
		int st;

		if (waitpid(t.child, &st, 0) == t.child) {
			if (WIFEXITED(st))
				printf("[%s exited with status %d]\n", argv[first], WEXITSTATUS(st));
			else
				printf("[%s killed by signal %d]\n", argv[first], WTERMSIG(st));
		}
	}
#endif
	return status;
}
