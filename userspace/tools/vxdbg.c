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
 * A program vxdbg starts runs in a process group of its own (Ctrl-C is
 * vxdbg's: it halts the card) and, on a terminal, writes to a pty of
 * vxdbg's, whose output vxdbg puts above its prompt; its exit is reported
 * when it happens.
 *
 * Whatever happens, the card is left running: leaving (quit, end of
 * script, a failed script command, SIGTERM/SIGHUP) removes every
 * breakpoint and resumes every warp; a debugger that dies outright has its
 * session closed by the kernel, which does the same.
 *
 * Exit status: 0; 1 usage or setup error (a program that cannot start);
 * 2 a script command failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
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

/* The program vxdbg started: its name, pid, and the pty it writes to. */
struct program {
	const char *name;
	pid_t pid;
	int pty;		/* master, -1 if none (not a terminal, or gone) */
	bool exited;
	char pend[4096];	/* output after its last newline, held back */
	size_t npend;
};

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

/* Reports the program's end, once; true if it has ended. */
static bool program_reap(struct program *p, bool block)
{
	int st;

	if (!p->pid || p->exited)
		return p->exited;
	if (waitpid(p->pid, &st, block ? 0 : WNOHANG) != p->pid)
		return false;
	p->exited = true;
	if (WIFEXITED(st))
		printf("[%s exited with status %d]\n", p->name, WEXITSTATUS(st));
	else
		printf("[%s killed by signal %d]\n", p->name, WTERMSIG(st));
	fflush(stdout);
	return true;
}

/* Writes the held-back output up to its last newline (all of it if @all). */
static void program_write(struct program *p, bool all)
{
	size_t n = p->npend;

	if (!all)
		while (n && p->pend[n - 1] != '\n')
			n--;
	if (n && write(1, p->pend, n) < 0)
		n = p->npend;		/* the terminal is gone: drop it */
	memmove(p->pend, p->pend + n, p->npend - n);
	p->npend -= n;
}

/*
 * Copies what the program wrote to its pty, whole lines only (the line
 * editor redraws the prompt after each copy; half a line would be drawn
 * over); 1 once the pty is hung up.
 */
static int program_relay(void *arg)
{
	struct program *p = arg;
	ssize_t n;

	if (p->pty < 0)
		return 1;
	fflush(stdout);
	for (;;) {
		n = read(p->pty, p->pend + p->npend, sizeof(p->pend) - p->npend);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			program_write(p, false);
			return 0;
		}
		if (n <= 0)
			break;
		p->npend += n;
		program_write(p, p->npend == sizeof(p->pend));
	}
	program_write(p, true);
	close(p->pty);		/* EIO: every writer is gone, the program ended */
	p->pty = -1;
	program_reap(p, true);
	return 1;
}

/* vxdbg_cli's poll: the program's output, and whether it is gone. */
static int program_poll(void *arg)
{
	struct program *p = arg;

	if (p->pty >= 0)
		program_relay(p);
	return program_reap(p, false);
}

/* A pty for the program's output when vxdbg talks to a terminal; -1 if not. */
static int program_pty(int *slave)
{
	struct winsize ws;
	int m;

	*slave = -1;
	if (!isatty(1))
		return -1;
	m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0 || grantpt(m) || unlockpt(m) ||
	    (*slave = open(ptsname(m), O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0) {
		if (m >= 0)
			close(m);
		return -1;
	}
	if (!ioctl(1, TIOCGWINSZ, &ws))
		ioctl(*slave, TIOCSWINSZ, &ws);
	fcntl(m, F_SETFL, O_NONBLOCK);
	return m;
}

static void complete(void *arg, const char *line, size_t pos,
		     void (*add)(void *ctx, const char *word), void *ctx)
{
	vxdbg_cli_complete(arg, line, pos, add, ctx);
}

/* Runs @f (a script), or the terminal; returns the exit status. */
static int run(struct vxdbg_cli *cli, FILE *f, struct program *p)
{
	struct vx_lineedit *le = NULL;
	const char *line;
	char *buf = NULL;
	size_t cap = 0;
	int ret = 0;

	if (!f) {
		le = vx_lineedit_new(0, 1);
		if (!le)
			return 1;
		vx_lineedit_set_complete(le, complete, cli);
		if (p->pty >= 0)
			vx_lineedit_watch(le, p->pty, program_relay, p);
	}
	while (!quit_signal) {
		if (p->pid)
			program_poll(p);
		if (f) {
			if (getline(&buf, &cap, f) < 0)
				break;
			buf[strcspn(buf, "\r\n")] = 0;
			line = buf + strspn(buf, " \t");
			if (!*line || *line == '#')
				continue;
			printf("(vxdbg) %s\n", line);
			fflush(stdout);
		} else {
			if (p->pty < 0)
				vx_lineedit_watch(le, -1, NULL, NULL);
			if (!(line = vx_lineedit_read(le, "(vxdbg) ")))
				break;
		}
		ret = vxdbg_cli_exec(cli, line);
		if (ret == VXDBG_CLI_QUIT || (f && ret == VXDBG_CLI_ERROR))
			break;
	}
	free(buf);
	vx_lineedit_free(le);
	return f && ret == VXDBG_CLI_ERROR ? 2 : 0;
}

int main(int argc, char **argv)
{
	struct vxdbg_tool_target t = VXDBG_TOOL_TARGET_INIT;
	struct sigaction sa = { .sa_handler = on_signal };
	struct program p = { .pty = -1 };
	const char *script = NULL;
	struct vxdbg_backend *be;
	FILE *f = NULL;
	struct vxdbg *d;
	int first, status = 0, slave = -1;

	first = parse_opts(argc, argv, &script, &t);
	if (first < 0)
		return 1;
	if (script && !(f = fopen(script, "r"))) {	/* before anything runs */
		fprintf(stderr, "vxdbg: %s: %s\n", script, strerror(errno));
		return 1;
	}
	if (!VXDBG_ON_SIM && argv[first])
		p.pty = program_pty(&slave);
	t.child_out = slave;
	if (start_target(&t, argv + first, "vxdbg", &be))
		return 1;
	if (slave >= 0)
		close(slave);
	p.name = argv[first];
	p.pid = t.child;
	if (vxdbg_initialize(be, &d))
		return 1;
	the_cli = vxdbg_cli_new(d, stdout, stderr);
	if (!the_cli)
		return 1;
	vxdbg_cli_set_timeout(the_cli, t.wait_ms);
	if (p.pid)
		vxdbg_cli_set_poll(the_cli, program_poll, &p);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	status = run(the_cli, f, &p);
	if (f)
		fclose(f);
	vxdbg_cli_free(the_cli);
	the_cli = NULL;
	vxdbg_finalize(d);		/* breakpoints out, every warp resumed */
	if (quit_signal)
		fprintf(stderr, "vxdbg: signal %d: detached, the card runs on\n", quit_signal);
#ifdef VXDBG_SIM
	vxdbg_sim_free(t.sim);
#else
	/* the program runs on to its end; its output still comes through */
	while (p.pty >= 0) {
		struct pollfd pf = { p.pty, POLLIN, 0 };

		if (poll(&pf, 1, -1) < 0 && errno != EINTR)
			break;
		program_relay(&p);
	}
	program_reap(&p, true);
#endif
	return status;
}
