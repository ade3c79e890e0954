// SPDX-License-Identifier: MIT
/*
 * vxdbg as people use it, in script mode: a sample kernel (vecadd) started
 * halted at its first instruction, a breakpoint by symbol, registers
 * printed, a step, memory, disassembly, then run to completion; the test
 * reads vxdbg's output like a person would and checks the kernel's result.
 *
 * In the guest vxdbg starts vortex-run, which checks every element of the
 * result and exits 0 only if all are right; on the host vxdbg-sim runs the
 * same kernel on the simulator (with a zeroed argument block: n = 0).
 * Bad commands and a bad script must fail with a clear message and leave
 * nothing halted.
 */
#include <elf.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "vortex_accel.h"

#ifdef VXDBG_TEST_SIM
#define VXDBG		VXDBG_SIM_PATH
#define TARGET		VX_KERNEL_DIR "/vecadd.elf"
#else
#define VXDBG		"/vortex/bin/vxdbg"
#define TARGET		"--", "/vortex/bin/vortex-run", "-t", "300000", \
			"/vortex/kernels/vecadd.elf", "64"
#endif

static const char script[] =
	"# the first job halts before its first instruction\n"
	"wait\n"
	"wait\n"
	"wait\n"
	"warps\n"
	"break vx_kernel_main\n"
	"info break\n"
	"continue\n"
	"regs\n"
	"print thread_idx_x all\n"
	"print mhartid\n"
	"step\n"
	"print pc\n"
	"disas\n"
	"x $a0 16\n"
	"delete vx_kernel_main\n"
	"continue\n";

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Runs vxdbg -w 60000 -x @script_path (a file name, which need not exist)
 * on @tail, sending it SIGINT (a Ctrl-C) after @sigint_ms if > 0; returns
 * its output, @status and how long it ran.
 */
static char *run_vxdbg_int(const char *script_path, const char *text, char *const tail[],
			   int *status, double *secs, int sigint_ms)
{
	char path[] = "/tmp/vxdbg-script-XXXXXX", *argv[16] = { VXDBG, "-w", "60000", "-x" };
	int fd = -1, out[2], argc = 4;
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	double t0 = now_s();
	ssize_t n;
	pid_t pid;

	if (!script_path) {
		fd = mkstemp(path);
		if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
			return NULL;
		close(fd);
		script_path = path;
	}
	argv[argc++] = (char *)script_path;
	for (int i = 0; tail[i] && argc < 15; i++)
		argv[argc++] = tail[i];
	argv[argc] = NULL;
	if (!buf || pipe(out))
		return NULL;
	pid = fork();
	if (!pid) {
		dup2(out[1], 1);
		dup2(out[1], 2);
		close(out[0]);
		execv(VXDBG, argv);
		_exit(127);
	}
	close(out[1]);
	for (;;) {
		struct pollfd pf = { out[0], POLLIN, 0 };
		int left = sigint_ms > 0 ? sigint_ms - (int)((now_s() - t0) * 1000) : -1;

		if (sigint_ms > 0 && left <= 0) {
			kill(pid, SIGINT);
			sigint_ms = 0;
			continue;
		}
		if (poll(&pf, 1, left) <= 0)
			continue;
		n = read(out[0], buf + len, cap - len - 1);
		if (n <= 0)
			break;
		len += n;
		if (len + 1 == cap)
			buf = realloc(buf, cap *= 2);
	}
	buf[len] = 0;
	close(out[0]);
	waitpid(pid, status, 0);
	*secs = now_s() - t0;
	if (fd >= 0)
		unlink(path);
	return buf;
}

static char *run_vxdbg_on(const char *script_path, const char *text, char *const tail[],
			  int *status, double *secs)
{
	return run_vxdbg_int(script_path, text, tail, status, secs, 0);
}

/*
 * Runs vxdbg on @text as a script, on @opt @arg (-p PID) or else on the
 * usual target; returns its output (stdout + stderr).
 */
static char *run_vxdbg_args(const char *text, int *status, const char *opt, const char *arg)
{
	char *usual[] = { TARGET, NULL }, *given[] = { (char *)opt, (char *)arg, NULL };
	double secs;

	return run_vxdbg_on(NULL, text, opt ? given : usual, status, &secs);
}

static char *run_vxdbg(const char *text, int *status)
{
	return run_vxdbg_args(text, status, NULL, NULL);
}

#ifdef VXDBG_TEST_SIM
#define FAULT_ILLEGAL	VX_KERNEL_DIR "/fault_illegal.elf"
#define FAULT_BRANCH	VX_KERNEL_DIR "/fault_branch.elf"
#else
#define FAULT_ILLEGAL	"--", "/vortex/bin/vortex-run", "/vortex/kernels/fault_illegal.elf", "8"
#define FAULT_BRANCH	"--", "/vortex/bin/vortex-run", "/vortex/kernels/fault_branch.elf", "8"
#endif

/*
 * The lanes of warp 0 that run fault_illegal or fault_branch: the whole
 * warp, whatever the 8 threads vortex-run asks for (a launch runs whole
 * warps: 1,1,2,32's warp 0 faulted in lanes 0-31).  The guest's card says
 * how many lanes a warp has through GET_PARAM; the simulator's has 8.
 */
static unsigned int fault_illegal_lanes(void)
{
	unsigned int lanes = 8;
#ifndef VXDBG_TEST_SIM
	struct drm_vortex_get_param p = { .param = DRM_VORTEX_PARAM_NUM_THREADS };
	int fd = open("/dev/accel/accel0", O_RDWR | O_CLOEXEC);

	if (fd >= 0 && !ioctl(fd, DRM_IOCTL_VORTEX_GET_PARAM, &p))
		lanes = p.value;
	if (fd >= 0)
		close(fd);
#endif
	return lanes;
}

/* The transcript goes into the test log, a comment line each. */
static void show(const char *out)
{
	for (const char *p = out; *p;) {
		size_t n = strcspn(p, "\n");

		printf("# | %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

#define EXPECT_OUTPUT(out, text) \
	EXPECT_NE(NULL, strstr(out, text)) TH_LOG("no '%s' in vxdbg's output", text)

TEST(script_breakpoint_by_symbol_registers_step_and_completion)
{
	int status = -1;
	char *out = run_vxdbg(script, &status);

	ASSERT_NE(NULL, out);
	show(out);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_OUTPUT(out, "[code object ");
	EXPECT_OUTPUT(out, " launched: grid ");
	EXPECT_OUTPUT(out, "halted (halt at start) at 0x");
	EXPECT_OUTPUT(out, " <vx_kernel_main>\n");
	EXPECT_OUTPUT(out, "halted (breakpoint) at 0x");
	EXPECT_OUTPUT(out, "=> 0x");
	EXPECT_OUTPUT(out, " <vx_kernel_main>:  cd0025f3  csrr    a1, block_idx_x");
	EXPECT_OUTPUT(out, "zero 0x00000000");
	EXPECT_OUTPUT(out, "a0   0x8");
	EXPECT_OUTPUT(out, "thread_idx_x[lane 1] = 0x00000001 (1)");
	EXPECT_OUTPUT(out, "mhartid = 0x");
	EXPECT_OUTPUT(out, " <vx_kernel_main+0x4>:  cd302673  csrr    a2, block_dim_x");
	EXPECT_OUTPUT(out, "pc = 0x");
	EXPECT_OUTPUT(out, "finished: ok]");
	EXPECT_EQ(NULL, strstr(out, "vxdbg: "));
#ifndef VXDBG_TEST_SIM
	/* vortex-run checked all 64 elements of the kernel's result. */
	EXPECT_OUTPUT(out, "[/vortex/bin/vortex-run exited with status 0]");
#endif
	free(out);
}

/* A bad command stops the script with a message; the card runs on. */
TEST(script_bad_command_fails_clearly_and_resumes)
{
	int status = -1;
	char *out = run_vxdbg("wait\nwait\nwait\nfrobnicate 3\nregs\n", &status);

	ASSERT_NE(NULL, out);
	show(out);
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(2, WEXITSTATUS(status));
	EXPECT_OUTPUT(out, "vxdbg: 'frobnicate': unknown command ('help' lists them)");
	EXPECT_EQ(NULL, strstr(out, "(vxdbg) regs"));
#ifndef VXDBG_TEST_SIM
	/* Left halted at its start, the job would never end: it did. */
	EXPECT_OUTPUT(out, "[/vortex/bin/vortex-run exited with status 0]");
#endif
	free(out);
}

TEST(bad_arguments_get_a_clear_message)
{
	static const struct {
		const char *script, *message;
	} cases[] = {
		{ "wait\nwait\nwait\nbreak no_such_function\n", "no such symbol" },
		{ "wait\nwait\nwait\nprint q7\n", "'q7': no such register" },
		{ "wait\nwait\nwait\nwarp 99.99\n", "no warp 99.99 on this card" },
		{ "wait\nwait\nwait\nx 0x10 4\n", "outside device memory" },
		{ "step\n", "no current warp" },
		{ "launch sometimes\n", "'sometimes': launch takes run, next or every" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int status = -1;
		char *out = run_vxdbg(cases[i].script, &status);

		ASSERT_NE(NULL, out);
		EXPECT_EQ(2, WEXITSTATUS(status));
		EXPECT_OUTPUT(out, cases[i].message);
		if (!strstr(out, cases[i].message))
			show(out);
		free(out);
	}
}

/*
 * `launch` says and sets what the target's launches do (issue 36): every
 * one halting at its start, then none; the job halted at its start then
 * runs to its end.
 */
TEST(launch_every_then_run)
{
	int status = -1;
	char *out = run_vxdbg("wait\nwait\nwait\nlaunch\nlaunch every\nlaunch\nlaunch run\n"
			      "continue\n", &status);

	ASSERT_NE(NULL, out);
	show(out);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_OUTPUT(out, "(vxdbg) launch\nlaunches run at once\n");
	EXPECT_OUTPUT(out, "(vxdbg) launch every\nevery launch halts at its first instruction\n"
		      "(vxdbg) launch\nevery launch halts at its first instruction\n");
	EXPECT_OUTPUT(out, "(vxdbg) launch run\nlaunches run at once\n");
	EXPECT_OUTPUT(out, "finished: ok]");
	EXPECT_EQ(NULL, strstr(out, "vxdbg: "));
	free(out);
}

/* @script on the target @tail names; the transcript, also in the log. */
static char *run_shown(char **tail, const char *script)
{
	int status = -1;
	double secs;
	char *out = run_vxdbg_on(NULL, script, tail, &status, &secs);

	if (out)
		show(out);
	return out;
}

/*
 * A step onto a faulting instruction reports the exception as `continue`
 * does (fault_illegal runs the all-zero word at vx_kernel_main+0x10).
 */
TEST(step_onto_a_fault_reports_the_exception)
{
	char *tail[] = { FAULT_ILLEGAL, NULL };
	char want[128];
	char *out = run_shown(tail, "wait\nwait\nwait\nstep 100\nwarps\n");

	ASSERT_NE(NULL, out);
	EXPECT_OUTPUT(out, "(vxdbg) step 100\n[job 1: exception ILLEGAL_INSTR (illegal instruction) "
		      "in warp 0.0 lane 0 at 0x");
	snprintf(want, sizeof(want), " <vx_kernel_main+0x10>, address 0x00000000; lanes 0-%u "
		 "faulted]\nwarp 0.0 lane 0\n=> 0x", fault_illegal_lanes() - 1);
	EXPECT_OUTPUT(out, want);
	EXPECT_OUTPUT(out, " <vx_kernel_main+0x10>:  00000000  .word 0x00000000\n(vxdbg) warps");
	free(out);
}

/*
 * A branch whose lanes disagree, without split/join, stops the job with
 * its own cause, named from the one table (hw/vortex_causes.h), at the
 * branch, its target as the address; `warps` shows the warp frozen there.
 */
TEST(divergent_branch_is_named)
{
	char *tail[] = { FAULT_BRANCH, NULL };
	char *out = run_shown(tail, "wait\nwait\nwait\ncontinue\nwarps\n");
	char odd[160] = "", even[160] = "", want[400];
	unsigned int lane, lanes = fault_illegal_lanes();

	/* fault_branch's odd lanes jump over v = 2 (ERR_INFO), the even ones do not */
	for (lane = 0; lane < lanes; lane++) {
		char *side = lane & 1 ? odd : even;

		snprintf(side + strlen(side), 160 - strlen(side), "%s%u", *side ? "," : "", lane);
	}
	snprintf(want, sizeof(want), "; lanes %s take it, lanes %s do not]", odd, even);
	ASSERT_NE(NULL, out);
	EXPECT_OUTPUT(out, "(vxdbg) continue\n[job 1: exception DIVERGENT_BRANCH (divergent branch) "
		      "in warp 0.0 lane 0 at 0x");
	EXPECT_OUTPUT(out, " <vx_kernel_main+0x");
	EXPECT_OUTPUT(out, want);
	EXPECT_OUTPUT(out, "bnez");
	free(out);
}

/* `x $pc`, a step count past the driver's limit, unique prefixes. */
TEST(pc_as_a_location_step_limit_and_prefixes)
{
	static const char text[] = "wait\nwait\nwait\nbr vx_kernel_main\ncont\nx $pc 4\nbt\n"
				   "s 1\nstep 65537\n";
	char *tail[] = { TARGET, NULL };
	int status = -1;
	double secs;
	char *out = run_vxdbg_on(NULL, text, tail, &status, &secs);

	ASSERT_NE(NULL, out);
	show(out);
	EXPECT_OUTPUT(out, "(vxdbg) br vx_kernel_main\nbreakpoint at 0x");
	EXPECT_OUTPUT(out, "(vxdbg) cont\n[warp 0.0 halted (breakpoint) at 0x");
	/* csrr a1, block_idx_x = 0xcd0025f3, little-endian */
	EXPECT_OUTPUT(out, ": f3 25 00 cd ");
	/* a leaf: its caller is in ra, the instruction after _start's call */
	EXPECT_OUTPUT(out, "(vxdbg) bt\n#0  0x");
	EXPECT_OUTPUT(out, " <vx_kernel_main>\n#1  0x");
	EXPECT_OUTPUT(out, " <_start+0x8>\n(vxdbg) s 1\n");
	EXPECT_OUTPUT(out, "vxdbg: 's' is ambiguous: step, set, sym");
	EXPECT_EQ(NULL, strstr(out, "(vxdbg) step 65537"));
	free(out);
	out = run_vxdbg_on(NULL, "wait\nwait\nwait\nstep 65537\n", tail, &status, &secs);
	ASSERT_NE(NULL, out);
	EXPECT_OUTPUT(out, "vxdbg: '65537': step takes a count from 1 to 65536");
	EXPECT_EQ(NULL, strstr(out, "VXDBG_"));
	free(out);
}

/* next at _start's call of vx_kernel_main runs the call to its return. */
TEST(next_runs_a_call_to_its_return)
{
	char *tail[] = { TARGET, NULL };
	int status = -1;
	double secs;
	char *out = run_vxdbg_on(NULL, "wait\nwait\nwait\nstep\nnext\nnext\n", tail, &status,
				 &secs);

	ASSERT_NE(NULL, out);
	show(out);
	EXPECT_OUTPUT(out, " <_start+0x4>:  0b0080e7  jalr    176(ra)\n"
		      "(vxdbg) next\n[warp 0.0 halted (breakpoint) at 0x");
	EXPECT_OUTPUT(out, " <_start+0x8>; ");
	EXPECT_EQ(NULL, strstr(out, "vxdbg: "));
	free(out);
}

#ifdef VXDBG_TEST_SIM
/*
 * bt through frames that keep ra on the stack (tests/bt_calls.c): each
 * caller's line is the instruction after its call, as llvm-objdump -d of
 * bt_calls.elf shows them (outer calls inner at +0x18 and +0x28,
 * vx_kernel_main calls outer at +0x18, _start vx_kernel_main at +0x4).
 */
TEST(bt_unwinds_frames_from_prologues)
{
	char *tail[] = { VX_KERNEL_DIR "/bt_calls.elf", NULL };
	int status = -1;
	double secs;
	char *out = run_vxdbg_on(NULL, "wait\nwait\nwait\nbreak inner\ncontinue\ncontinue\n"
				 "step 3\nbt\n", tail, &status, &secs);

	ASSERT_NE(NULL, out);
	show(out);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_OUTPUT(out, "(vxdbg) bt\n#0  0x");
	EXPECT_OUTPUT(out, " <inner+0xc>\n#1  0x");
	EXPECT_OUTPUT(out, " <outer+0x2c>\n#2  0x");
	EXPECT_OUTPUT(out, " <vx_kernel_main+0x1c>\n#3  0x");
	EXPECT_OUTPUT(out, " <_start+0x8>\n");
	free(out);
}
#endif

/* -x with a file that is not there: said before anything runs. */
TEST(missing_script_is_refused_before_the_target_starts)
{
#ifdef VXDBG_TEST_SIM
	char *tail[] = { TARGET, NULL };
#else
	char *tail[] = { "--", "/bin/sh", "-c", "echo ran > /tmp/vxdbg-ran", NULL };
#endif
	int status = -1;
	double secs;
	char *out;

	unlink("/tmp/vxdbg-ran");
	out = run_vxdbg_on("/nonexistent/commands.txt", NULL, tail, &status, &secs);
	ASSERT_NE(NULL, out);
	show(out);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1);
	EXPECT_OUTPUT(out, "vxdbg: /nonexistent/commands.txt: No such file or directory\n");
	EXPECT_EQ(-1, access("/tmp/vxdbg-ran", F_OK));
	free(out);
}

#ifndef VXDBG_TEST_SIM
/* A program that cannot start is a setup error, said at once. */
TEST(no_such_program_fails_at_once)
{
	char *tail[] = { "--", "/nonexistent/prog", NULL };
	int status = -1;
	double secs;
	char *out = run_vxdbg_on(NULL, "wait\n", tail, &status, &secs);

	ASSERT_NE(NULL, out);
	show(out);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) TH_LOG("status 0x%x", status);
	EXPECT_OUTPUT(out, "vxdbg: starting /nonexistent/prog: No such file or directory\n");
	EXPECT_EQ(NULL, strstr(out, "(vxdbg)"));
	EXPECT_GT(5.0, secs);
	free(out);
}

/* Deletes the card's unread crash dumps (devcoredump: any write). */
static void delete_dumps(void)
{
	DIR *d = opendir("/sys/class/devcoredump");
	struct dirent *de;
	char path[300];
	int fd;

	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "devcd", 5))
			continue;
		snprintf(path, sizeof(path), "/sys/class/devcoredump/%s/data", de->d_name);
		fd = open(path, O_WRONLY);
		if (fd >= 0 && write(fd, "1", 1) < 0)
			perror(path);
		if (fd >= 0)
			close(fd);
	}
	if (d)
		closedir(d);
}

/*
 * `dump` captures the job; a second one, with the first still unread, is
 * refused in a sentence that says what is in the way (the driver's -EBUSY
 * is the API's RUNNING_DEVICE, which means something else to a person).
 */
TEST(dump_then_dump_again_says_an_unread_dump_is_in_the_way)
{
	char *tail[] = { TARGET, NULL };
	int status = -1;
	double secs;
	char *out;

	delete_dumps();
	out = run_vxdbg_on(NULL, "wait\nwait\nwait\ndump\ndump\n", tail, &status, &secs);
	delete_dumps();
	ASSERT_NE(NULL, out);
	show(out);
	EXPECT_OUTPUT(out, "(vxdbg) dump\ncrash dump captured: /sys/class/devcoredump/devcd*/data");
	EXPECT_OUTPUT(out, "vxdbg: dump: the card's last crash dump is still unread");
	EXPECT_EQ(NULL, strstr(out, "RUNNING_DEVICE"));
	free(out);
}

/*
 * A program that exits before any job (vortex-run on a missing kernel):
 * its exit is reported, and `wait` says so at once instead of waiting out
 * its 60 s.
 */
TEST(program_exit_is_reported_and_ends_a_wait)
{
	char *tail[] = { "--", "/vortex/bin/vortex-run", "/nonexistent.elf", NULL };
	int status = -1;
	double secs;
	char *out = run_vxdbg_on(NULL, "wait\nquit\n", tail, &status, &secs);

	ASSERT_NE(NULL, out);
	show(out);
	EXPECT_OUTPUT(out, "[/vortex/bin/vortex-run exited with status 1]\n");
	EXPECT_OUTPUT(out, "vxdbg: the program has exited: no more events ('quit' leaves)\n");
	EXPECT_GT(10.0, secs);
	free(out);
}
#endif

#ifndef VXDBG_TEST_SIM
#include "libvortex.h"
#include "vortex_kernels.h"

/*
 * -p PID: vxdbg attaches to a process already running a kernel (this
 * test, with hang on the card), halts it, and leaves it running again.
 */
TEST(attach_by_pid_halts_a_running_kernel_and_leaves_it_running)
{
	struct hang_args ha = { 0, 0 };
	struct vx_launch l = { .grid = { 1, 1, 1 }, .block = { 1, 1, 1 }, .args = &ha,
			       .args_size = sizeof(ha) };
	char script[128], pid[16];
	struct vx_device *dev;
	struct vx_kernel *k;
	int status = -1, st;
	uint64_t seqno;
	char *out;

	ASSERT_EQ(0, vx_device_open_path("/dev/accel/accel0", &dev));
	ASSERT_EQ(0, vx_kernel_load_file(dev, "/vortex/kernels/hang.elf", &k));
	ASSERT_EQ(0, vx_launch(k, &l, &seqno));
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	snprintf(script, sizeof(script), "halt\nwarps\nquit\n");
	out = run_vxdbg_args(script, &status, "-p", pid);
	ASSERT_NE(NULL, out);
	show(out);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_OUTPUT(out, "card halted");
	EXPECT_OUTPUT(out, "halted (halt request)");
	/* Detached: the kernel runs on (until the driver's timeout stops it). */
	EXPECT_EQ(-ETIME, vx_wait(dev, seqno, 0, &st));
	free(out);
	vx_kernel_free(k);
	vx_device_close(dev);
}

/*
 * -p PID, Ctrl-C (SIGINT) during `continue` on a kernel that never ends:
 * the card halts, as docs/debugging.md says, and the script goes on.
 */
TEST(attach_by_pid_ctrl_c_during_continue_halts_the_card)
{
	struct hang_args ha = { 0, 0 };
	struct vx_launch l = { .grid = { 1, 1, 1 }, .block = { 1, 1, 1 }, .args = &ha,
			       .args_size = sizeof(ha) };
	char pid[16], *tail[] = { "-p", pid, NULL };
	struct vx_device *dev;
	struct vx_kernel *k;
	int status = -1, st;
	uint64_t seqno;
	double secs;
	char *out;

	ASSERT_EQ(0, vx_device_open_path("/dev/accel/accel0", &dev));
	ASSERT_EQ(0, vx_kernel_load_file(dev, "/vortex/kernels/hang.elf", &k));
	ASSERT_EQ(0, vx_launch(k, &l, &seqno));
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	/*
	 * The Ctrl-C must come within the driver's 2 s job timeout, which
	 * counts while the hang runs even under a debugger; vxdbg attaches
	 * and continues in a few ms.
	 */
	out = run_vxdbg_int(NULL, "continue\nwarps\nquit\n", tail, &status, &secs, 700);
	ASSERT_NE(NULL, out);
	show(out);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_OUTPUT(out, "(vxdbg) continue\n");
	EXPECT_OUTPUT(out, "[interrupted: card halted]\n(vxdbg) warps\n");
	EXPECT_OUTPUT(out, "halted (halt request)");
	EXPECT_EQ(NULL, strstr(out, "VXDBG_"));
	EXPECT_EQ(-ETIME, vx_wait(dev, seqno, 0, &st));
	free(out);
	vx_kernel_free(k);
	vx_device_close(dev);
}
#endif

TEST_HARNESS_MAIN

#ifndef VXDBG_TEST_SIM
/* vxs_hello's argument file: one word, the number of tasks. */
static int write_argfile(const char *path, uint32_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, &n, 4) == 4;
	return close(fd) || !ok ? -1 : 0;
}

/*
 * A job in Vortex's launch model (vortex-run PROGRAM.vxbin ARGFILE, issue
 * 24): halted at its first instruction, which is Vortex's STARTUP_ADDR
 * (hw/rtl/VX_config.vh STARTUP_ADDR 0x80000000), on warp 0 lane 0 of a
 * core, with mscratch = the argument block (upstream sim/simx/emulator.cpp
 * sets each warp's mscratch from the STARTUP_ARG DCRs); then it runs to
 * the end and its console output (every task's printf) reaches the
 * person at the debugger, through vortex-run's stdout.
 */
TEST(script_halts_a_vortex_model_job_at_startup_addr)
{
	static const char vx_script[] =
		"wait\n"
		"wait\n"
		"print pc\n"
		"print mscratch\n"
		"warps\n"
		"step\n"
		"print pc\n"
		"continue\n";
	char *tail[] = { "--", "/vortex/bin/vortex-run", "-t", "300000",
			 "/vortex/kernels/vxs_hello.vxbin", "/tmp/vxdbg-n8", NULL };
	char want[64], *at;
	unsigned long long args = 0;
	int status = -1;
	double secs;
	char *out;

	ASSERT_EQ(0, write_argfile("/tmp/vxdbg-n8", 8));
	out = run_vxdbg_on(NULL, vx_script, tail, &status, &secs);
	ASSERT_NE(NULL, out);
	show(out);
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_OUTPUT(out, " launched in Vortex's model: warp 0 lane 0 of every core, "
		      "entry 0x80000000]");
	EXPECT_OUTPUT(out, "halted (halt at start) at 0x80000000");
	EXPECT_OUTPUT(out, "pc = 0x80000000");
	/* warp 0 of the core, one lane: what Vortex's processor starts */
	EXPECT_OUTPUT(out, "* 0.0  halted (halt at start)  0x80000000  lanes 0x00000001");
	/* and no other warp of it yet (a second core's warp 0 is "1.0") */
	EXPECT_EQ(NULL, strstr(out, "  0.1  halted (halt at start)  0x80000000"));
	at = strstr(out, "argument block of 4 bytes at 0x");
	ASSERT_NE(NULL, at);
	args = strtoull(at + strlen("argument block of 4 bytes at "), NULL, 16);
	snprintf(want, sizeof(want), "mscratch = 0x%08llx", args);
	EXPECT_OUTPUT(out, want);
	EXPECT_OUTPUT(out, "pc = 0x80000004");
	for (int i = 0; i < 8; i++) {
		snprintf(want, sizeof(want), ": task %04d\n", i);
		EXPECT_OUTPUT(out, want);
	}
	EXPECT_OUTPUT(out, "[/vortex/bin/vortex-run exited with status 0]");
	EXPECT_EQ(NULL, strstr(out, "vxdbg: "));
	unlink("/tmp/vxdbg-n8");
	free(out);
}

/* The address of @name in the RV32 ELF @path, 0 if it has none. */
static uint32_t elf_symbol(const char *path, const char *name)
{
	FILE *f = fopen(path, "rb");
	uint32_t addr = 0;
	Elf32_Ehdr eh;
	Elf32_Shdr sh, strh;
	Elf32_Sym sym;
	char buf[64];

	if (!f)
		return 0;
	if (fread(&eh, sizeof(eh), 1, f) != 1)
		goto out;
	for (int i = 0; i < eh.e_shnum && !addr; i++) {
		if (fseek(f, eh.e_shoff + i * sizeof(sh), SEEK_SET) ||
		    fread(&sh, sizeof(sh), 1, f) != 1 || sh.sh_type != SHT_SYMTAB ||
		    fseek(f, eh.e_shoff + sh.sh_link * sizeof(strh), SEEK_SET) ||
		    fread(&strh, sizeof(strh), 1, f) != 1)
			continue;
		for (uint32_t k = 0; k < sh.sh_size / sizeof(sym) && !addr; k++) {
			if (fseek(f, sh.sh_offset + k * sizeof(sym), SEEK_SET) ||
			    fread(&sym, sizeof(sym), 1, f) != 1 ||
			    fseek(f, strh.sh_offset + sym.st_name, SEEK_SET) ||
			    !fgets(buf, sizeof(buf), f))
				continue;
			if (!strcmp(buf, name))	/* names end in NUL */
				addr = sym.st_value;
		}
	}
out:
	fclose(f);
	return addr;
}

/*
 * What a kernel printed before it stopped is shown at the stop, by the
 * debugger, before the program prints it at the job's end (issue 24: the
 * console "shown to its debugger"; DRM_VORTEX_DEBUG_IOCTL_CONSOLE).  The
 * job stops where each core's warp 0 has finished its tasks: vxs_start.S
 * calls vxs_perf_dump() after main(), as upstream's vx_start.S calls
 * vx_perf_dump().
 */
TEST(stop_shows_what_the_kernel_printed_so_far)
{
	char *tail[] = { "--", "/vortex/bin/vortex-run", "-t", "300000",
			 "/vortex/kernels/vxs_hello.vxbin", "/tmp/vxdbg-n8c", NULL };
	uint32_t bp = elf_symbol("/vortex/kernels/vxs_hello.elf", "vxs_perf_dump");
	char script[256], *out, *shown, *exited;
	uint64_t min_vma = 0;
	int status = -1, fd;
	double secs;

	/* The kernels are linked at 0; elf2vxbin places the image at min_vma. */
	ASSERT_NE(0, bp);
	fd = open("/vortex/kernels/vxs_hello.vxbin", O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(8, read(fd, &min_vma, 8));
	close(fd);
	bp += min_vma;
	/*
	 * The first continue may stop at the warps the kernel spawns (they
	 * halt at their start too), the second at the breakpoint: the output
	 * shows at whichever stop follows it.  Then the job runs on.
	 */
	snprintf(script, sizeof(script),
		 "wait\nwait\nbreak 0x%x\ncontinue\ncontinue\ndelete\nquit\n", bp);
	ASSERT_EQ(0, write_argfile("/tmp/vxdbg-n8c", 8));
	out = run_vxdbg_on(NULL, script, tail, &status, &secs);
	ASSERT_NE(NULL, out);
	show(out);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_OUTPUT(out, "halted (breakpoint) at 0x");
	shown = strstr(out, "[console] hart ");
	exited = strstr(out, "(vxdbg) quit");
	ASSERT_NE(NULL, shown) TH_LOG("the debugger showed no console at a stop");
	ASSERT_NE(NULL, exited);
	EXPECT_LT(shown, exited);
	EXPECT_NE(NULL, strstr(shown, ": task 000")) TH_LOG("no task line at the stop");
	EXPECT_EQ(NULL, strstr(out, "vxdbg: "));
	unlink("/tmp/vxdbg-n8c");
	free(out);
}
#endif
