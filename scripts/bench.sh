#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: prints the benchmark figures.  Host benchmarks (BENCHES)
# run here; guest benchmarks (GUEST_FILES named *bench*) run in one boot.
# Benchmarks print 'name: value' lines; nothing here passes or fails on
# their values.
#
# VX_DEVICE_PROPS=K=V,... more properties of the card in both boots, e.g.
# avx512=off: the card of an AVX2-only host measured on an AVX-512 one
# (qemu-device/vortex-pci.c; sim_bench's --avx2 is the host's side).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"
. "$VX_TOP/scripts/prepare.sh"
for b in $(vx_make_var BENCHES); do
	vx_log "host: $(basename "$b")"
	"$b"
done
if vx_make_var GUEST_FILES | tr ' ' '\n' | grep -q 'bench[^/]*$'; then
	out=${O:-build}/bench
	vx_log "guest benchmarks"
	props=()
	if [ -n "${VX_DEVICE_PROPS:-}" ]; then
		props=(--device-props "$VX_DEVICE_PROPS")
		vx_log "card properties: $VX_DEVICE_PROPS"
	fi
	scripts/run-guest.sh --mode bench --out "$out" --timeout 900 "${props[@]}" || true
	awk '/^@@vx-begin /{on=1; next} /^@@vx-end /{on=0; next} on' "$out/results.log"
	# Crash dumps of a large card: 1024 warps of 32 lanes.
	vx_log "guest benchmarks: dumps of a 4,8,32,32 card"
	scripts/run-guest.sh --mode bench --topology 4,8,32,32 --tests dump_bench \
		--out "$out-large" --timeout 1800 "${props[@]}" || true
	awk '/^@@vx-begin /{on=1; next} /^@@vx-end /{on=0; next} on' "$out-large/results.log"
fi
