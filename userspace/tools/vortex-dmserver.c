// SPDX-License-Identifier: MIT
/*
 * vortex-dmserver: the Debug Module line-protocol bridge (docs/debugging.md,
 * "DM line-protocol bridge"), as Vortex's RTL-simulation and FPGA runtimes
 * serve their DM to host debug tools.
 *
 * Input: one client at a time on --listen (a TCP port, or vport:NAME, the
 * guest's virtio-serial port), speaking the protocol of
 * userspace/dmserver/dmproto.h; and the target, named on the command line:
 *   - a kernel ELF, loaded at start-up and launched at the client's `s`,
 *     with a sample kernel's arguments for -n elements (testlib/
 *     vx_samples.c, as vortex-run);
 *   - a Vortex binary (PROGRAM.vxbin [ARGFILE]), staged at start-up and
 *     launched at `s` as vortex-run runs one: Vortex's launch model;
 *   - (driver build) -p PID, a process using the card, or `-- PROGRAM
 *     [ARGS]`, a program started with its first job halted before its
 *     first instruction, as vortex-gdbserver takes them.
 * For a staged target the server is debugger and target in one process:
 * it attaches a debug session to its own accel file while a client is
 * connected.  The client's DM accesses go through the driver's raw DM
 * ioctl, which needs CAP_SYS_ADMIN.  Built for the host
 * (vortex-dmserver-sim), the card is the simulator in-process.
 *
 * Exit status: 0; 1 usage or setup error, (--once) the job failed or its
 * result was wrong, or the target process exited other than with 0.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmserver.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vortex-dmserver [options] KERNEL.elf\n"
		"       vortex-dmserver [options] PROGRAM.vxbin [ARGFILE]\n"
#ifndef VXDBG_SIM
		"       vortex-dmserver [options] -p PID\n"
		"       vortex-dmserver [options] -- PROGRAM [ARGS...]\n"
#endif
		"Serves the card's Debug Module over a line protocol; `s` launches KERNEL.elf,\n"
		"or PROGRAM.vxbin as vortex-run runs it (warp 0 lane 0 of every core at its\n"
		"load address, mscratch = ARGFILE's bytes).\n"
		"  -l, --listen WHERE      PORT, HOST:PORT (port 0: any free one) or\n"
		"                          vport:NAME (virtio-serial); default 127.0.0.1:0\n"
		"  -H, --halt-at-start     every warp of a launched job halts before its first\n"
		"                          instruction (-p, --: the target's next job, at\n"
		"                          each client)\n"
		"  -n, --elements N        a sample kernel's arguments for N elements, and its\n"
		"                          result checked (otherwise a zeroed argument block)\n"
#ifdef VXDBG_SIM
		"  -t, --topology C,K,W,T  the simulated card (1,2,4,8)\n"
#else
		"  -d, --device NODE       the accel node (/dev/accel/accel0)\n"
		"  -p, --pid PID           debug the card work of process PID\n"
#endif
		"  -1, --once              serve one client, wait for its job, then leave\n"
		"  -h, --help              this text\n");
}

static int parse_opts(int argc, char **argv, struct dmtarget_opts *t,
		      struct dmserver_opts *s, const char **where)
{
	static const struct option lopts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "halt-at-start", no_argument, NULL, 'H' },
		{ "elements", required_argument, NULL, 'n' },
#ifdef VXDBG_SIM
		{ "topology", required_argument, NULL, 't' },
#else
		{ "device", required_argument, NULL, 'd' },
		{ "pid", required_argument, NULL, 'p' },
#endif
		{ "once", no_argument, NULL, '1' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char *end;
	int c;

#ifdef VXDBG_SIM
	static const char sopts[] = "l:Hn:t:1h";
#else
	static const char sopts[] = "l:Hn:d:p:1h";
#endif

	while ((c = getopt_long(argc, argv, sopts, lopts, NULL)) != -1) {
		switch (c) {
		case 'l': *where = optarg; break;
		case 'H': s->halt_at_start = true; break;
		case '1': s->once = true; break;
		case 'd': t->device = optarg; break;
		case 'p':
			t->pid = strtol(optarg, &end, 0);
			if (*end || t->pid <= 0)
				goto bad;
			break;
		case 'n':
			t->n = strtoul(optarg, &end, 0);
			if (*end || !t->n || t->n > (1u << 26))
				goto bad;
			break;
		case 't':
			if (sscanf(optarg, "%u,%u,%u,%u", &t->topo[0], &t->topo[1],
				   &t->topo[2], &t->topo[3]) != 4)
				goto bad;
			break;
		case 'h': usage(stdout); exit(EXIT_SUCCESS);
		default: goto bad;
		}
	}
	/* -- PROGRAM: everything after it is the program's */
	if (!t->pid && optind < argc && !strcmp(argv[optind - 1], "--")) {
		t->argv = argv + optind;
		return 0;
	}
	if (t->pid) {
		if (optind != argc)
			goto bad;
		return 0;
	}
	if (optind >= argc || argc - optind > 2)
		goto bad;
	t->kernel = argv[optind];
	t->argfile = argv[optind + 1];
	/* an argument file is a Vortex binary's */
	if (t->argfile && !dmtarget_is_vxbin(t->kernel))
		goto bad;
	return 0;
bad:
	usage(stderr);
	return -1;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct dmserver_opts so = { .stop = &stop };
	struct dmtarget_opts to = { 0 };
	const char *where = "127.0.0.1:0";
	struct dmtarget *t;
	struct vx_conn *conn;
	int ret;

	if (parse_opts(argc, argv, &to, &so, &where))
		return EXIT_FAILURE;
	/* No SA_RESTART: a signal ends the poll the server is waiting in. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (dmtarget_open(&to, &t))
		return EXIT_FAILURE;
	ret = vx_conn_open(where, &conn);
	if (ret) {
		fprintf(stderr, "vortex-dmserver: cannot listen on %s: %s\n", where, strerror(-ret));
		dmtarget_close(t);
		return EXIT_FAILURE;
	}
	fprintf(stderr, "vortex-dmserver: listening on %s\n", vx_conn_describe(conn));
	ret = dmserver_run(conn, t, &so);
	if (stop)
		fprintf(stderr, "vortex-dmserver: signal %d: leaving\n", (int)stop);
	vx_conn_close(conn);
	dmtarget_close(t);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}
