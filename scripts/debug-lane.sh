#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel lane's boot (docs/debug-kernel.md), sourced by check.sh
# and soak-debug-lane.sh so both run it alike: the driver's suites under
# KASAN, lockdep, might_sleep checks, debugobjects and kmemleak (whose
# verdict after rmmod is the boot's kmemleak section), on two vCPUs; then,
# last, the hot-unplug under an open client (vx.last, scripts/guest/init).
# One boot, not one more for the unplug: each boot of this kernel spends
# some 100 CPU-s on its own start, its module's load and kmemleak's scans
# (2026-11-30, an AVX2-only AMD EPYC: 178 CPU-s for the unplug boot, 19 s
# of it the test).
#
#   vx_debug_lane_boots RESULTS KERNEL INITRD
# boots it into RESULTS/guest-debug-kernel;
#   vx_debug_lane_tap_args
# prints tap.py's --guest and --expect arguments for it, one a line.

# shellcheck disable=SC2034  # used by the scripts that source this file
# The debugger and crash-dump suites (selftests/selftests.mk,
# VX_DEBUG_TESTS and VX_DUMP_TESTS).
vx_dbg_tests="vortex_debug_attach_test vortex_debug_state_test vortex_debug_run_test vortex_debug_dm_test vortex_debug_timeout_test vortex_debug_events_test vortex_debug_errno_test vortex_debug_abi_test vortex_debug_space_test"
vx_dump_tests="vortex_dump_content_test vortex_dump_vm_test vortex_dump_config_test vortex_dump_card_test vortex_dump_slot_test vortex_dump_debugger_test"
vx_debug_tests="vortex_reliability_test $vx_dbg_tests $vx_dump_tests vortex_vm_test vortex_vmbind_test vortex_driver_test"

vx_debug_lane_boots() {
	local results=$1 k=$2 i=$3
	# run-guest.sh's 900 s bound is a hang's, not the machine's pace: on an
	# AVX2-only AMD EPYC (Zen 3) this boot took 732 s of a warm make check
	# (2026-11-30), twice what the Zen 4 hosts take
	VX_KERNEL=$k VX_INITRD=$i vx_stage "guest debug-kernel" scripts/run-guest.sh \
		--out "$results/guest-debug-kernel" --smp 2 --timeout 1800 \
		--tests "${vx_debug_tests// /,}" \
		--append "vx.last=vortex_driver_test,-t,unplug_with_open_client" || true
}

vx_debug_lane_tap_args() {
	local results=$1 b=debug-kernel t
	echo "--guest=guest[$b]=$results/guest-$b/results.log,$results/guest-$b/console.log"
	echo "--expect=guest[$b]"
	echo "--expect=guest[$b]/kmemleak"
	for t in $vx_debug_tests vortex_driver_test+last; do
		echo "--expect=guest[$b]/$t"
	done
}
