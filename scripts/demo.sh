#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make demo`: boots the guest with the simulated Vortex card and shows what
# happens there (scripts/guest/demo.sh), as a person would see it.
# VX_TOPOLOGY=C,K,W,T picks the card's topology (default 1,2,4,8).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"
. "$VX_TOP/scripts/prepare.sh"
out=${O:-build}/demo
topo=${VX_TOPOLOGY:-1,2,4,8}
vx_log "booting the guest with -device vortex topology $topo"
rc=0
scripts/run-guest.sh --mode demo --topology "$topo" --out "$out" --timeout 600 || rc=$?
# Show the guest's sections without the framing.
awk '/^@@vx-begin /{on=1; next} /^@@vx-end /{on=0; next} /^# guest: /{next} on' "$out/results.log"
if grep -E 'WARNING:|BUG:|Oops' "$out/console.log" >/dev/null; then
	vx_log "the guest kernel log has warnings: $out/console.log"
	rc=1
fi
exit $rc
