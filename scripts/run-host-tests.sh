#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs host test binaries, each under a timeout, saving its TAP to
# $OUT/NAME.tap and its exit status to $OUT/NAME.tap.rc.  Prints the
# --host arguments for scripts/tap.py.
#
# The simulator suites (make's SIM_EXEC_TESTS) run once per executor,
# with VX_SIM_EXEC=ref, burst, avx2 and jit (qemu-device/sim/vx_sim.h), as
# NAME[EXEC] in $OUT/NAME.EXEC.tap; on a host whose CPU has no AVX2 the
# avx2 and jit runs are reported as skipped, with the reason.
#   run-host-tests.sh OUTDIR BINARY...
#   run-host-tests.sh --list BINARY...   the suite names a run reports
set -uo pipefail
. "$(dirname "$0")/lib.sh"
vx_usage 1 "$@"
out=$1
shift
[ "$out" = --list ] || mkdir -p "$out"
execs=(ref burst avx2 jit)
per_exec=" $(vx_make_var SIM_EXEC_TESTS 2>/dev/null |
	tr ' ' '\n' | sed 's|.*/||' | tr '\n' ' ') "
grep -qw avx2 /proc/cpuinfo && has_avx2=1 || has_avx2=

# run NAME TAPFILE CMD...: one suite.
run() {
	local name=$1 tap=$2
	shift 2
	timeout --kill-after=5 "${VX_HOST_TEST_TIMEOUT:-600}" "$@" > "$tap" 2>&1
	echo $? > "$tap.rc"
	printf -- '--host=host/%s=%s\n' "$name" "$tap"
}

# skip NAME TAPFILE WHY: a suite this host cannot run, one skipped test.
skip() {
	printf 'TAP version 13\n1..1\nok 1 %s # SKIP %s\n' "$1" "$3" > "$2"
	echo 0 > "$2.rc"
	printf -- '--host=host/%s=%s\n' "$1" "$2"
}

for t in "$@"; do
	name=$(basename "$t")
	if [ "$out" = --list ]; then
		if [[ $per_exec != *" $name "* ]]; then
			echo "host/$name"
		else
			printf "host/$name[%s]\n" "${execs[@]}"
		fi
		continue
	fi
	if [[ $per_exec != *" $name "* ]]; then
		run "$name" "$out/$name.tap" "$t"
		continue
	fi
	for e in "${execs[@]}"; do
		if [[ $e = avx2 || $e = jit ]] && [ -z "$has_avx2" ]; then
			skip "$name[$e]" "$out/$name.$e.tap" "this host's CPU has no AVX2"
		else
			run "$name[$e]" "$out/$name.$e.tap" env VX_SIM_EXEC="$e" "$t"
		fi
	done
done
