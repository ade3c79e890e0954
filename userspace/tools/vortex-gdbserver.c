// SPDX-License-Identifier: MIT
/*
 * vortex-gdbserver: a GDB remote stub for kernels on the Vortex card.
 *
 * Input: one gdb (or any Remote Serial Protocol client) connecting to
 * --listen WHERE: a TCP port, HOST:PORT, or the guest's virtio-serial port
 * vport:NAME, which is how gdb-multiarch on the host reaches a server in
 * the test guest.  The target is a program the server starts after `--`
 * (its first job's warps all halt before their first instruction) or a
 * process already using the card (-p PID).  Built for the host
 * (vortex-gdbserver-sim), the target is a kernel ELF run on the simulator
 * in-process, halted at its start, with a sample kernel's real arguments
 * for -n N elements.
 *
 * One client, then the server leaves: when the job ends (W/X sent), on
 * detach, kill or disconnect, or on SIGINT/SIGTERM/SIGHUP.  Leaving
 * always removes every breakpoint and resumes every warp (a spawned
 * program then runs to its end and is waited for; on the simulator the
 * kernel is run to its end), except after kill, which kills a spawned
 * program (or just stops the simulator).  With --on-connect the target is
 * started (or attached to) only when the client has come, so a server
 * waiting for its client holds no debug session: the guest's debug modes
 * restart it for every session (scripts/guest/init).
 *
 * A virtio-serial port keeps what the host sent while the server was not
 * reading, e.g. the packets of a gdb that gave up before the server was
 * there: a new client starts clean, what came before it is discarded
 * (gdb resends a packet it got no '+' for), and a host side that has gone
 * by then is waited for again.  A target that cannot be started once the
 * client is there is told to it: every packet gets "E.<why>", which gdb
 * prints, instead of silence.
 *
 * stderr: "vortex-gdbserver: listening on tcp 127.0.0.1:PORT" (or the
 * virtio port) once ready, then a line for how the session ended.
 * Exit status: 0; 1 usage or setup error (the program could not be
 * started, or ended or failed before its first job halted: said at once).
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gdbs.h"
#include "vx_conn.h"
#include "vxdbg.h"
#include "vxdbg_backend.h"
#include "vxdbg_tool.h"
#ifdef VXDBG_SIM
#include "vxdbg_sim_start.h"
#define PROG	"vortex-gdbserver-sim"
#else
#define PROG	"vortex-gdbserver"
#endif

/* Quiet the line must be before a new virtio-port client's session begins. */
#define RESYNC_QUIET_MS		200
/* How long a client is told why its target did not start. */
#define REFUSE_MS		5000

/* After the session, the simulated kernel runs to its end: at most this long. */
#define SIM_FINISH_MS		10000
#define SIM_FINISH_SLICE	(1u << 22)	/* slots between looks at the clock */

static volatile sig_atomic_t quit_signal;

static void on_signal(int sig)
{
	quit_signal = sig;
}

#ifdef VXDBG_SIM
#define ON_SIM		1
#define start_target	vxdbg_tool_start_sim
#else
#define ON_SIM		0
#define start_target	vxdbg_tool_start_program
#endif

static void usage(FILE *f)
{
	fputs(ON_SIM ?
	      "usage: " PROG " [options] KERNEL.elf\n"
	      "Runs KERNEL.elf on the simulated card, its warps halted before their\n"
	      "first instruction, and serves one gdb.\n" :
	      "usage: " PROG " [options] -p PID\n"
	      "       " PROG " [options] -- PROGRAM [ARGS...]\n"
	      "Serves one gdb debugging the card work of process PID, or of PROGRAM,\n"
	      "started with its first job halted before its first instruction.\n", f);
	vxdbg_tool_usage(f, ON_SIM);
	fputs("  -l, --listen WHERE      PORT, HOST:PORT or vport:NAME (127.0.0.1:0)\n"
	      "  -B, --base ADDR         device address of the ELF's address 0, for\n"
	      "                          qOffsets when no code object is known\n"
	      "  -w, --wait MS           how long to wait for the job's first halt (30000)\n"
	      "      --on-connect        start the target only once a client has come\n"
	      "  -h, --help              this text\n", f);
}

struct opts {
	const char *listen;
	long long base;
	bool on_connect;
};

/* Returns the index of the first operand, or -1. */
static int parse_opts(int argc, char **argv, struct opts *o, struct vxdbg_tool_target *t)
{
	static const struct option lopts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "base", required_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{ "on-connect", no_argument, NULL, 'O' },
		VXDBG_TOOL_LONGOPTS,
		{ 0 }
	};
	int c, ret;

	while ((c = getopt_long(argc, argv, "+l:B:h" VXDBG_TOOL_SHORTOPTS, lopts, NULL)) != -1) {
		switch (c) {
		case 'l': o->listen = optarg; continue;
		case 'B': o->base = strtoll(optarg, NULL, 0); continue;
		case 'h': usage(stdout); exit(0);
		case 'O': o->on_connect = true; continue;
		}
		ret = vxdbg_tool_opt(t, c, optarg, PROG);
		if (ret < 0)
			return -1;
		if (!ret) {
			usage(stderr);
			return -1;
		}
	}
	return optind;
}

/* Any warp halted now? (attach: a job may be on the card already) */
static bool some_warp_halted(struct vxdbg *d)
{
	uint32_t nsm = 0, nw = 0;
	struct vxdbg_warp_state ws;

	vxdbg_get_num_sms(d, 0, &nsm);
	vxdbg_get_num_warps(d, 0, &nw);
	for (uint32_t sm = 0; sm < nsm; sm++)
		for (uint32_t wp = 0; wp < nw; wp++)
			if (!vxdbg_read_warp_state(d, 0, sm, wp, &ws) && ws.halted)
				return true;
	return false;
}

/*
 * Until the job's warps are halted at their start: its launch (and code
 * object) come first.  On attach, a job already running is suspended;
 * without one, the next job halts at its start.
 */
static bool child_gone(struct vxdbg_tool_target *t, const char *when);

static int wait_first_halt(struct vxdbg *d, struct vxdbg_tool_target *t, int wait_ms)
{
	struct vxdbg_event ev;
	int waited = 0;

	if (t->pid) {	/* attached: a job may be on the card already */
		vxdbg_halt_at_start(d, 0, true);
		vxdbg_suspend_device(d, 0);
		if (some_warp_halted(d))
			return 0;
	}
	while (waited < wait_ms && !quit_signal) {
		vxdbg_result r = vxdbg_get_next_event(d, &ev, 100);

		waited += 100;
		if (r == VXDBG_ERROR_NO_EVENT_AVAILABLE) {
			if (child_gone(t, "before its first job halted"))
				return -ESRCH;
			continue;
		}
		if (r)
			return fprintf(stderr, PROG ": %s\n", vxdbg_result_name(r)), -EIO;
		if (ev.kind == VXDBG_EVENT_HALTED)
			return 0;
		if (ev.kind == VXDBG_EVENT_KERNEL_FINISHED)
			return fprintf(stderr, PROG ": the job ended before halting\n"), -ESRCH;
	}
	fprintf(stderr, PROG ": no job halted within %d ms\n", wait_ms);
	return -ETIME;
}

/*
 * Has the program we started ended?  Said at once, with the status a shell
 * would show: 127 is an exec that failed (a missing program).
 */
static bool child_gone(struct vxdbg_tool_target *t, const char *when)
{
	int st;

	if (!t->child || waitpid(t->child, &st, WNOHANG) != t->child)
		return false;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		fprintf(stderr, PROG ": the program could not be run (exit status 127)\n");
	else if (WIFEXITED(st))
		fprintf(stderr, PROG ": the program exited with status %d %s\n",
			WEXITSTATUS(st), when);
	else
		fprintf(stderr, PROG ": the program was killed by signal %d %s\n",
			WTERMSIG(st), when);
	t->child = 0;
	return true;
}

/* The one client's descriptor, or -1 (signal, program gone, error). */
static int accept_client(struct vx_conn *conn, struct vxdbg_tool_target *t)
{
	int fd;

	while (!quit_signal && !child_gone(t, "before a client came")) {
		fd = vx_conn_accept(conn, 500);
		if (fd >= 0)
			return fd;
		if (fd != -ETIME && fd != -EINTR) {
			fprintf(stderr, PROG ": accept: %s\n", strerror(-fd));
			return -1;
		}
	}
	return -1;
}

static bool is_vport(const struct vx_conn *conn)
{
	return !strncmp(vx_conn_describe(conn), "virtio-serial", 13);
}

/*
 * A new client on a virtio port starts clean: drop what is there until the
 * line has been quiet for RESYNC_QUIET_MS (gdb resends an unacknowledged
 * packet after its 2 s remotetimeout).  Return: 0, or -EPIPE when the
 * host side has gone meanwhile (the bytes were a departed client's).
 */
static int resync(int fd)
{
	char buf[4096];
	size_t dropped = 0;
	ssize_t n;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int ret = poll(&p, 1, RESYNC_QUIET_MS);

		if (ret < 0 && errno == EINTR && !quit_signal)
			continue;
		if (ret <= 0)
			break;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return -EPIPE;
		dropped += n;
	}
	if (dropped)
		fprintf(stderr, PROG ": %zu bytes sent before this client discarded\n", dropped);
	return 0;
}

/* The next client with a clean line, or -1 (signal, program gone, error). */
static int accept_clean(struct vx_conn *conn, struct vxdbg_tool_target *t)
{
	int fd;

	while ((fd = accept_client(conn, t)) >= 0) {
		if (!is_vport(conn) || !resync(fd))
			return fd;
		fprintf(stderr, PROG ": the host side went away before the session began\n");
		vx_conn_hangup(conn, fd);
	}
	return -1;
}

/*
 * The client came, the target did not start: answer its packets with
 * "E.<why>" (gdb prints the text) for a few seconds, instead of silence.
 */
static void refuse_client(int fd, const char *why)
{
	struct gdbs_io *io = malloc(sizeof(*io));
	uint8_t *pkt = malloc(RSP_PACKET_MAX + 1);
	char msg[200];
	size_t len;

	snprintf(msg, sizeof(msg), "E." PROG ": %s", why);
	if (io && pkt) {
		gdbs_io_init(io, fd);
		for (int waited = 0; waited < REFUSE_MS && !quit_signal && !io->gone;
		     waited += 100)
			if (gdbs_io_next(io, 100, pkt, &len) == GDBS_IO_PACKET)
				gdbs_io_send(io, msg, strlen(msg));
	}
	free(pkt);
	free(io);
}

/* One session with the client on @fd; hangs it up. */
static void serve(struct vxdbg *d, struct vx_conn *conn, int fd, const struct opts *o,
		  enum gdbs_end *end)
{
	static const char *const why[] = {
		[GDBS_END_NONE] = "no client", [GDBS_END_EXITED] = "the job ended",
		[GDBS_END_DETACHED] = "detached", [GDBS_END_KILLED] = "killed",
		[GDBS_END_DISCONNECTED] = "the client went away",
		[GDBS_END_SIGNAL] = "signalled", [GDBS_END_ERROR] = "the card failed",
	};
	struct gdbs *s = malloc(sizeof(*s));

	*end = GDBS_END_NONE;
	if (s && !gdbs_init(s, d, fd, &quit_signal)) {
		if (o->base >= 0) {
			s->base = o->base;
			s->base_known = true;
		}
		*end = gdbs_serve(s);
		if (s->io.rejected)
			fprintf(stderr, PROG ": %u malformed packets refused\n", s->io.rejected);
		gdbs_fini(s);
	}
	free(s);
	vx_conn_hangup(conn, fd);
	fprintf(stderr, PROG ": session over: %s\n", why[*end]);
}

/* After the session: the card runs on; the job is seen to its end. */
static void finish_target(struct vxdbg_tool_target *t, enum gdbs_end end, const char *name)
{
#ifdef VXDBG_SIM
	struct timespec t0, now;
	int status, ret = -ETIME;

	if (!t->sim)
		return;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	now = t0;
	while (end != GDBS_END_EXITED && end != GDBS_END_KILLED && ret == -ETIME &&
	       !quit_signal && (now.tv_sec - t0.tv_sec) * 1000 +
	       (now.tv_nsec - t0.tv_nsec) / 1000000 < SIM_FINISH_MS) {
		ret = vxdbg_sim_wait(t->sim, t->seqno, SIM_FINISH_SLICE, &status);
		clock_gettime(CLOCK_MONOTONIC, &now);
	}
	if (!ret)
		fprintf(stderr, PROG ": kernel finished, status %d\n", status);
	else if (end != GDBS_END_EXITED && end != GDBS_END_KILLED)
		fprintf(stderr, PROG ": the kernel did not finish\n");
	vxdbg_sim_free(t->sim);
#else
	int st;

	if (!t->child)
		return;
	if (end == GDBS_END_KILLED)
		kill(t->child, SIGKILL);
	if (waitpid(t->child, &st, 0) != t->child)
		return;
	if (WIFEXITED(st))
		fprintf(stderr, PROG ": %s exited with status %d\n", name, WEXITSTATUS(st));
	else
		fprintf(stderr, PROG ": %s killed by signal %d\n", name, WTERMSIG(st));
#endif
}

/* The target halted at its start, with a session on it: 0, or -errno (said). */
static int setup(struct vxdbg_tool_target *t, char **argv, struct vxdbg **d)
{
	struct vxdbg_backend *be;
	int ret;

	ret = start_target(t, argv, PROG, &be);
	if (ret)
		return ret;
	if (vxdbg_initialize(be, d)) {
		fprintf(stderr, PROG ": no debug session on the card\n");
		return -EIO;
	}
	return wait_first_halt(*d, t, t->wait_ms);
}

int main(int argc, char **argv)
{
	struct opts o = { .listen = "127.0.0.1:0", .base = -1 };
	struct vxdbg_tool_target t = VXDBG_TOOL_TARGET_INIT;
	struct sigaction sa = { .sa_handler = on_signal };
	enum gdbs_end end = GDBS_END_NONE;
	struct vx_conn *conn = NULL;
	struct vxdbg *d = NULL;
	int first, ret, fd = -1;

	first = parse_opts(argc, argv, &o, &t);
	if (first < 0)
		return EXIT_FAILURE;
	signal(SIGPIPE, SIG_IGN);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	ret = o.on_connect ? 0 : setup(&t, argv + first, &d);
	if (!ret) {
		ret = vx_conn_open(o.listen, &conn);
		if (ret)
			fprintf(stderr, PROG ": listening on %s: %s\n", o.listen, strerror(-ret));
	}
	if (!ret) {
		fprintf(stderr, PROG ": listening on %s\n", vx_conn_describe(conn));
		fd = accept_clean(conn, &t);
		/* no client: a signal is no failure, a program gone is */
		if (fd < 0 && !quit_signal)
			ret = -ESRCH;
	}
	if (fd >= 0 && o.on_connect) {
		ret = setup(&t, argv + first, &d);
		if (ret) {
			char why[120];

			snprintf(why, sizeof(why), "the target did not start: %s",
				 ret == -ESRCH ? "it ended before its first job halted" :
				 ret == -ETIME ? "no job halted in time" : strerror(-ret));
			refuse_client(fd, why);
		} else if (is_vport(conn) && resync(fd)) {
			/* what came while the target started was a departed client's */
			vx_conn_hangup(conn, fd);
			fd = accept_clean(conn, &t);
		}
	}
	if (fd >= 0 && !ret)
		serve(d, conn, fd, &o, &end);
	else if (fd >= 0)
		vx_conn_hangup(conn, fd);
	vx_conn_close(conn);
	if (d)
		vxdbg_finalize(d);	/* breakpoints out, every warp resumed */
	finish_target(&t, end, argv[first]);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}
