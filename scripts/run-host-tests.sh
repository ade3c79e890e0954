#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs host test binaries, each under a timeout, saving its TAP to
# $OUT/NAME.tap and its exit status to $OUT/NAME.tap.rc.  Prints the
# --host arguments for scripts/tap.py.
#   run-host-tests.sh OUTDIR BINARY...
set -uo pipefail
. "$(dirname "$0")/lib.sh"
out=$1
shift
mkdir -p "$out"
for t in "$@"; do
	name=$(basename "$t")
	timeout --kill-after=5 "${VX_HOST_TEST_TIMEOUT:-600}" "$t" > "$out/$name.tap" 2>&1
	echo $? > "$out/$name.tap.rc"
	printf -- '--host=host/%s=%s\n' "$name" "$out/$name.tap"
done
