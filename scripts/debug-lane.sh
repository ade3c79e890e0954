#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel lane's two boots (docs/debug-kernel.md), sourced by
# check.sh and soak-debug-lane.sh so both run them alike: the driver's
# suites under KASAN, lockdep, might_sleep checks, debugobjects and
# kmemleak (whose verdict after rmmod is each boot's kmemleak section), on
# two vCPUs; then the hot-unplug.
#
#   vx_debug_lane_boots RESULTS KERNEL INITRD
# boots them, at the same time (the unplug boot is short, and the lane is
# the longest job of make check), into RESULTS/guest-debug-kernel and
# RESULTS/guest-debug-unplug;
#   vx_debug_lane_tap_args
# prints tap.py's --guest and --expect arguments for them, one a line.

# shellcheck disable=SC2034  # used by the scripts that source this file
# The debugger and crash-dump suites (selftests/selftests.mk,
# VX_DEBUG_TESTS and VX_DUMP_TESTS).
vx_dbg_tests="vortex_debug_attach_test vortex_debug_state_test vortex_debug_run_test vortex_debug_dm_test vortex_debug_timeout_test vortex_debug_events_test vortex_debug_errno_test vortex_debug_abi_test vortex_debug_space_test"
vx_dump_tests="vortex_dump_content_test vortex_dump_vm_test vortex_dump_config_test vortex_dump_card_test vortex_dump_slot_test vortex_dump_debugger_test"
vx_debug_tests="vortex_reliability_test $vx_dbg_tests $vx_dump_tests vortex_vm_test vortex_vmbind_test vortex_driver_test"

vx_debug_lane_boots() {
	local results=$1 k=$2 i=$3 unplug
	VX_KERNEL=$k VX_INITRD=$i vx_stage "guest debug-unplug" scripts/run-guest.sh \
		--out "$results/guest-debug-unplug" --tests vortex_driver_test \
		--append "vxtest.unplug=1 vx.args=-t,unplug_with_open_client" &
	unplug=$!
	# run-guest.sh's 900 s bound is a hang's, not the machine's pace: on an
	# AVX2-only AMD EPYC (Zen 3) this boot took 732 s of a warm make check
	# (2026-11-30), twice what the Zen 4 hosts take
	VX_KERNEL=$k VX_INITRD=$i vx_stage "guest debug-kernel" scripts/run-guest.sh \
		--out "$results/guest-debug-kernel" --smp 2 --timeout 1800 \
		--tests "${vx_debug_tests// /,}" || true
	wait "$unplug" || true
}

vx_debug_lane_tap_args() {
	local results=$1 b t
	for b in debug-kernel debug-unplug; do
		echo "--guest=guest[$b]=$results/guest-$b/results.log,$results/guest-$b/console.log"
		echo "--expect=guest[$b]"
		echo "--expect=guest[$b]/kmemleak"
	done
	for t in $vx_debug_tests; do
		echo "--expect=guest[debug-kernel]/$t"
	done
	echo "--expect=guest[debug-unplug]/vortex_driver_test"
}
