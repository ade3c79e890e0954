// SPDX-License-Identifier: GPL-2.0
/*
 * The kselftest harness, as the project builds its tests (Makefile,
 * KSFT_CFLAGS), runs a fixture's teardown after a failed ASSERT.
 *
 * In Debian's 6.12 harness a failed ASSERT longjmp()s back into the TEST_F
 * wrapper, which then decides by a variable set after its setjmp() whether
 * it is the test's process; GCC 12 at -O2 jumped past that decision, and no
 * teardown ran after a failed ASSERT (vortex_reliability_test's 18 fixture
 * tests among them: a test that failed left its gate armed and
 * job_timeout_ms lowered for the next).  Built with -O2 and without
 * -fno-tree-dominator-opts, "teardown ran after the failed ASSERT" fails.
 *
 * The harness runs two tests of a fixture in a child whose output comes
 * through a pipe: one whose ASSERT fails, one that passes.  Each teardown
 * prints a line; this test checks the harness's verdicts and both lines,
 * and prints its own TAP.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

FIXTURE(probe) {
	int unused;
};

FIXTURE_SETUP(probe)
{
}

FIXTURE_TEARDOWN(probe)
{
	printf("# teardown of %s\n", _metadata->name);
	fflush(stdout);
}

TEST_F(probe, assert_fails)
{
	ASSERT_EQ(0, 1);
}

TEST_F(probe, passes)
{
	ASSERT_EQ(1, 1);
}

static void check(int n, bool ok, const char *what)
{
	printf("%sok %d %s\n", ok ? "" : "not ", n, what);
}

int main(int argc, char **argv)
{
	static char out[1 << 16];
	size_t len = 0;
	int fds[2], status = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(fds))
		return 1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		_exit(test_harness_run(argc, argv));
	}
	close(fds[1]);
	while (len < sizeof(out) - 1 &&
	       (n = read(fds[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += n;
	close(fds[0]);
	waitpid(pid, &status, 0);

	printf("TAP version 13\n1..4\n");
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
		printf("# | %s\n", line);
	/* strtok cut the lines apart; memmem still finds each in the bytes. */
	check(1, WIFEXITED(status) && WEXITSTATUS(status) == KSFT_FAIL,
	      "the harness fails the run with a failed ASSERT");
	check(2, memmem(out, len, "not ok 1 probe.assert_fails", 27) != NULL,
	      "the failed ASSERT's test is reported not ok");
	check(3, memmem(out, len, "# teardown of assert_fails", 26) != NULL,
	      "teardown ran after the failed ASSERT");
	check(4, memmem(out, len, "# teardown of passes", 20) != NULL,
	      "teardown ran after the test that passed");
	return 0;
}
