#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check`: from a fresh Debian 12 machine to a verdict.  Installs what
# is missing, builds QEMU with the card (cached), fetches the Debian kernel
# (cached), builds the module, tests and device kernels, runs the host
# tests, boots the guest once per topology and runs the kselftests there.
# Closes with 'N passed, N failed, N skipped'; non-zero exit on any failure.
#
# VX_TOPOLOGIES="C,K,W,T ..." overrides the guest topologies.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$VX_TOP"
results=${O:-build}/results
topologies=${VX_TOPOLOGIES:-"1,2,4,8 2,1,8,4"}
total_start=$(date +%s)

. scripts/prepare.sh

rm -rf "$results"
mkdir -p "$results"
mapfile -t host_args < <(vx_stage host-tests scripts/run-host-tests.sh "$results/host" $(make -s print-HOST_TESTS))

guest_args=()
for topo in $topologies; do
	dir=$results/guest-${topo//,/-}
	vx_stage "guest $topo" scripts/run-guest.sh --topology "$topo" --out "$dir" || true
	guest_args+=(--guest "guest[$topo]=$dir/results.log,$dir/console.log")
done

printf '[time] %-14s %6d s\n' total $(( $(date +%s) - total_start )) >&2
scripts/tap.py "${host_args[@]}" "${guest_args[@]}"
