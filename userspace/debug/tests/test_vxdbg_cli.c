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
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

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

/*
 * Runs vxdbg on @text as a script, on @opt @arg (-p PID) or else on the
 * usual target; returns its output (stdout + stderr).
 */
static char *run_vxdbg_args(const char *text, int *status, const char *opt, const char *arg)
{
	char path[] = "/tmp/vxdbg-script-XXXXXX";
	int fd = mkstemp(path), out[2];
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	ssize_t n;
	pid_t pid;

	if (fd < 0 || !buf || write(fd, text, strlen(text)) != (ssize_t)strlen(text) ||
	    pipe(out))
		return NULL;
	close(fd);
	pid = fork();
	if (!pid) {
		dup2(out[1], 1);
		dup2(out[1], 2);
		close(out[0]);
		if (opt)
			execl(VXDBG, VXDBG, "-w", "60000", "-x", path, opt, arg, (char *)NULL);
		else
			execl(VXDBG, VXDBG, "-w", "60000", "-x", path, TARGET, (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	while ((n = read(out[0], buf + len, cap - len - 1)) > 0) {
		len += n;
		if (len + 1 == cap)
			buf = realloc(buf, cap *= 2);
	}
	buf[len] = 0;
	close(out[0]);
	waitpid(pid, status, 0);
	unlink(path);
	return buf;
}

static char *run_vxdbg(const char *text, int *status)
{
	return run_vxdbg_args(text, status, NULL, NULL);
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

#ifndef VXDBG_TEST_SIM
#include "vortex.h"
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
#endif

TEST_HARNESS_MAIN
