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
topologies=${VX_TOPOLOGIES:-"1,2,4,8 2,1,8,4 1,1,2,32"}
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

# Hot-unplug of the card under a busy client, in a boot of its own since
# the card is gone afterwards (the test asks the host through qmp-watch).
dir=$results/guest-unplug
vx_stage "guest unplug" scripts/run-guest.sh --tests vortex_driver_test \
	--append "vxtest.unplug=1 vx.args=-t,unplug_with_open_client" --out "$dir" || true
guest_args+=(--guest "guest[unplug]=$dir/results.log,$dir/console.log")

# The race tests again under slub_debug: a use-after-free in the driver then
# reads poison and oopses, which fails the boot.
dir=$results/guest-slub
vx_stage "guest slub" scripts/run-guest.sh --tests vortex_reliability_test \
	--append "slub_debug=FZPU" --out "$dir" || true
guest_args+=(--guest "guest[slub]=$dir/results.log,$dir/console.log")

printf '[time] %-14s %6d s\n' total $(( $(date +%s) - total_start )) >&2
scripts/tap.py "${host_args[@]}" "${guest_args[@]}"
