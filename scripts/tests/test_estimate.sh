#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The estimate make check, demo and bench print on a cold cache
# (scripts/estimate.sh), in a scratch checkout top whose host-deps.sh and
# debug-kernel.sh are stubs and whose cache holds only what a case says:
#  - make check on a fresh machine: the debug kernel's build (24 min) and
#    its lane are the longest path, QEMU, the kernels, the newest kernel's
#    build root and a warm run's boots beside it, but the CPU of it all
#    bounds the run: 33 to 43 minutes (a fresh clone on an empty cache
#    took 36);
#  - make check with the debug kernel cached: the set-up then a warm run;
#  - make check with everything cached: nothing;
#  - make demo on a fresh machine: its set-up only.
# Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source-path=SCRIPTDIR/../.. source=scripts/lib.sh
. "$top/scripts/lib.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/scripts"
# shellcheck source=scripts/tests/tap-lib.sh
. "$top/scripts/tests/tap-lib.sh"

# estimate CHECK MISSING-PACKAGES DEBUG-CACHED CACHED...: vx_estimate's
# lines for make check (CHECK=1) or demo, with CACHED (qemu, kernel,
# ksft, buildroot) in the cache.
estimate() {
	local check=$1 pkgs=$2 dbg=$3 c
	shift 3
	local -A entry=([qemu]=qemu/q/bin/qemu-system-x86_64 [ksft]=ksft/k/.complete
		[kernel]=kernel/6.12.1+deb12-amd64/.complete
		[buildroot]=buildroot/7.3.4+deb13-amd64/.complete)
	rm -rf "$scratch/cache"
	for c; do
		mkdir -p "$(dirname "$scratch/cache/${entry[$c]}")"
		touch "$scratch/cache/${entry[$c]}"
	done
	printf '#!/bin/sh\necho %s\n' "$pkgs" > "$scratch/scripts/host-deps.sh"
	printf '#!/bin/sh\nexit %s\n' "$((1 - dbg))" > "$scratch/scripts/debug-kernel.sh"
	chmod +x "$scratch"/scripts/*.sh
	# shellcheck source=scripts/estimate.sh
	# Not the tag of the stage that runs this test (make check's host-tests).
	(unset VX_STAGE; cd "$scratch" && . "$top/scripts/estimate.sh" &&
	 VX_CACHE=$scratch/cache vx_estimate_check=${check/0/} vx_estimate 2>&1)
}
# minutes LINE: the "about N min" of LINE.
minutes() { sed -n 's/.*about \([0-9]*\) min.*/\1/p' <<<"$1"; }

echo "TAP version 13"
echo "1..4"
out=$(estimate 1 20 0)
m=$(minutes "$(head -n 1 <<<"$out")")
longest=$(grep 'the longest path' <<<"$out")
beside=$(grep 'beside it:' <<<"$out")
[ -n "$m" ] && [ "$m" -ge 33 ] && [ "$m" -le 43 ] &&
	grep -q "the CPUs bound it: ~4100 s of work on" <<<"$longest" &&
	grep -q "packages ~60 s, then the debug kernel's build.* ~24 min, then its vortex.ko and boot" <<<"$longest" &&
	grep -q 'QEMU build' <<<"$beside" && grep -q "newest kernel and its build root" <<<"$beside" &&
	grep -q "a warm run's builds and boots ~[0-9]* min" <<<"$beside"
ok $? "make check, fresh machine: about $m min, bound by the CPUs, the debug kernel's build on the longest path" "$out"

out=$(estimate 1 20 1)
m=$(minutes "$(head -n 1 <<<"$out")")
[ -n "$m" ] && [ "$m" -ge 20 ] && [ "$m" -le 30 ] && ! grep -q 'debug kernel' <<<"$out" &&
	grep -q "the longest path: packages.*QEMU build.*newest kernel.*a warm run's builds and boots" <<<"$out"
ok $? "make check, debug kernel cached: about $m min, the set-up then a warm run" "$out"

out=$(estimate 1 0 1 qemu kernel ksft buildroot)
[ -z "$out" ]
ok $? "make check, everything cached: no estimate" "$out"

out=$(estimate 0 20 0)
grep -q '^\[bench\] empty cache: about [0-9]* min of set-up ahead (packages ~60 s, QEMU build' <<<"$out" &&
	! grep -q 'debug kernel\|newest\|warm run' <<<"$out"
ok $? "make demo, fresh machine: its own set-up only" "$out"
[ $fails -eq 0 ]
