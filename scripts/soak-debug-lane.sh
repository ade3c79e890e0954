#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel's lane, again and again, as make check runs it (issue
# 39): its boot (scripts/debug-lane.sh), while
# the 6.12 kernel's first topology boots beside it, over and over, the
# way check.sh's other boots keep the second CPU busy.  Each run's verdict
# is tap.py's; closes with "K of N runs failed" and exits non-zero if any
# did.  Run `make check` once first: it builds and caches what this boots.
#
#   soak-debug-lane.sh [N]    N runs (default 10)
#
# A run takes about 6 to 9 minutes on this project's 2-core machines.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"
# shellcheck source=debug-lane.sh
. "$VX_TOP/scripts/debug-lane.sh"
cd "$VX_TOP"

runs=${1:-10}
[[ $runs =~ ^[1-9][0-9]*$ ]] || vx_die "N must be a positive number, not '$runs'"
kernel=$(scripts/debug-kernel.sh --print) || vx_die "no debug kernel: run make check first"
# shellcheck source=prepare.sh
. scripts/prepare.sh
soak=$O/soak
rm -rf "$soak"
mkdir -p "$soak"
vx_stage "debug guest" scripts/debug-guest.sh "$O/debug" > /dev/null
initrd=$O/debug/initramfs.cpio

failed=0
for run in $(seq "$runs"); do
	dir=$soak/run-$run
	mkdir -p "$dir"
	touch "$dir/lane.running"
	# The load: the first topology's full suites, boot after boot.
	(
		n=0
		while [ -e "$dir/lane.running" ]; do
			n=$((n + 1))
			VX_NO_TICKER=1 scripts/run-guest.sh --out "$dir/load-$n" \
				> /dev/null 2>&1 || true
		done
	) &
	load=$!
	VX_NO_TICKER=1 vx_debug_lane_boots "$dir" "$kernel" "$initrd" 2> "$dir/stages.log"
	rm -f "$dir/lane.running"
	mapfile -t args < <(vx_debug_lane_tap_args "$dir")
	if scripts/tap.py "${args[@]}" > "$dir/verdict.log" 2>&1; then
		verdict=passed
	else
		verdict=FAILED
		failed=$((failed + 1))
		grep -E '^(not ok|#.*Expected|.*selftests/.*:[0-9]+:)' "$dir/verdict.log" | head -n 20 >&2 || true
	fi
	vx_log "run $run of $runs: $verdict, $(tail -n 1 "$dir/verdict.log") ($(grep -c . "$dir/stages.log") stages, load boots: $(find "$dir" -maxdepth 1 -name 'load-*' | wc -l))"
	wait "$load" || true
done
echo "$failed of $runs runs failed"
[ "$failed" = 0 ]
