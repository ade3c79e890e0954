#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check`: from a fresh Debian 12 machine to a verdict.  Installs what
# is missing, builds QEMU with the card (cached), fetches the Debian kernel
# (cached), builds the module, tests and device kernels, runs the host
# tests, boots the guest once per topology and runs the kselftests there;
# then the same module and tests on Debian's newest kernel (a subset of the
# boots, see below and docs/kernels.md).
# Closes with 'N passed, N failed, N skipped'; non-zero exit on any failure.
#
# VX_TOPOLOGIES="C,K,W,T ..." overrides the guest topologies.
# Boots are admitted by measured CPU, not by a fixed count: up to the CPU
# count always, and one more whenever the host's CPUs were idle for at
# least 0.8 of a CPU over the last seconds (boots that wait, for a person
# or a hang's timeout, leave theirs idle), as many as memory allows (see
# guest_slot).  VX_GUEST_JOBS=N fixes the number of boots at N instead.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"
cd "$VX_TOP"
results=${O:-build}/results
topologies=${VX_TOPOLOGIES:-"1,2,4,8 2,1,8,4 1,1,2,32"}
total_start=$(date +%s)
rm -rf "$results"
mkdir -p "$results"

# The debug kernel (docs/debug-kernel.md): on an empty cache it builds
# from as soon as the packages are in (prepare.sh calls vx_after_deps),
# beside QEMU's build, the newest kernel's set-up, the host tests, lint
# and the other boots: the longest set-up step, first.  Out of the job
# table (disown), so that no boot waits for a free slot behind it;
# debug_lane waits for it.
# prepare.sh's estimate counts it, the newest kernel's set-up and the boots.
# shellcheck disable=SC2034  # read by scripts/estimate.sh
vx_estimate_check=1
# Its build is the longest path, so it runs at nice 0, ahead of the boots
# and tests beside it (nice $bg_nice), which wait on nothing it makes: at
# nice 10 it ran behind all of them and then, with its lane, alone, in a
# 45-minute run; at nice 0 a fresh clone's took 36, its CPUs 94% busy
# (docs/debug-kernel.md, issue 34).
vx_after_deps() {
	scripts/debug-kernel.sh --print > /dev/null ||
		vx_log "building the debug kernel in the background (log: ${VX_LOGS/#$HOME/\~}/debug-kernel.log)"
	(VX_DEBUG_KERNEL_NICE=0 scripts/debug-kernel.sh > "$results/debug-kernel.out" 2>&1
	 echo $? > "$results/debug-kernel.rc") &
	debug_kernel_pid=$!
	disown
}

. scripts/prepare.sh

# The cuda-gdb lane (scripts/cuda-gdb-lane.sh, issue 38): cuda-gdb 12.4
# from Debian 13's non-free, installed in its cached trixie root beside
# the boots (out of the job table, as the debug kernel's build), then run
# on the dumps the topologies' boots kept (run-guest.sh --keep-dumps)
# once those boots have ended (cuda_lane_ready).
(scripts/cuda-gdb.sh > "$results/cuda-gdb-root.out" 2>&1
 echo $? > "$results/cuda-gdb-root.rc") &
disown

# Debian's newest kernel (docs/kernels.md): picked at run time, the module
# built in that kernel's build root, its own initramfs with the same test
# programs.  Its boots (below, named "newest:...") are a subset, to keep
# `make check` short: one topology (the other two and the doorbell model
# vary the simulated card, not the kernel's API), unplug (DRM's device
# takedown), the slub_debug boot on two vCPUs (the scheduler, fences and
# gpuvm under use-after-free poison) and the debug servers (ptrace's
# checks, devcoredump).
newest_kernel='' newest_ko=''
# shellcheck disable=SC2016  # expanded by eval
vx_stage "kernel newest" eval 'newest_kernel=$(scripts/kernel.sh --series newest)'
# shellcheck disable=SC2016
vx_stage "module newest" eval 'newest_ko=$(scripts/build-module.sh --series newest)/vortex.ko'
newest_initrd=$O/guest/initramfs-newest.cpio
# shellcheck disable=SC2046  # one word per test and file
vx_stage "initramfs new" scripts/initramfs.sh "$newest_initrd" "$newest_kernel" "$newest_ko" \
	$(vx_make_var GUEST_TESTS) -- $(vx_make_var GUEST_FILES)
vx_log "newest kernel $(cat "$newest_kernel/version") ($(cat "$newest_kernel/suite"))"
# newest CMD...: CMD with the newest kernel and its initramfs.
newest() { VX_KERNEL=$newest_kernel VX_INITRD=$newest_initrd "$@"; }

host_tests=$(vx_make_var HOST_TESTS)
guest_tests=$(vx_make_var GUEST_TESTS)

# What the verdict must find (tap.py --expect): every host test, every
# boot, and in each boot every test program it was to run.  A wrong
# vx.tests filter or a program that never starts is then a failure, not a
# shorter run that still looks green.
expect=()
for s in $(scripts/run-host-tests.sh --list $host_tests); do
	expect+=(--expect "$s")
done

guest_args=()
# The floor: this many boots run whatever the load (one per CPU: a TCG
# guest with one vCPU keeps at most one host CPU busy).  The ceiling:
# what memory allows, a boot being QEMU with 512 MiB of guest RAM, the
# card's VRAM (256 MiB, more on the large cards) and QEMU's own; 1.5 GiB
# each, out of what is available now, never more than twice the CPUs.
guest_floor=${VX_GUEST_JOBS:-$(nproc)}
guest_ceiling=$(awk -v cpus="$(nproc)" '/^MemAvailable:/ {
	n = int($2 / (1536 * 1024)); if (n > 2 * cpus) n = 2 * cpus; print n }' /proc/meminfo)
[ -z "${VX_GUEST_JOBS:-}" ] || guest_ceiling=$VX_GUEST_JOBS
[ "$guest_ceiling" -ge "$guest_floor" ] || guest_ceiling=$guest_floor
vx_log "boots: $guest_floor at a time, up to $guest_ceiling while the CPUs have room"
# The person-paced boots (the debug servers, below) spend their time
# waiting for their person: they take no slot.
light=()
# guest_slot: returns once another boot (or the host tests) may start:
# fewer than $guest_floor are running (the light ones not counted), or
# fewer than $guest_ceiling and the CPUs were idle for 0.8 of a CPU
# over the last 3 s (vx_idle_cpus).  First, the debug kernel's lane
# starts as soon as its kernel is built (debug_lane_ready), ahead of
# any boot still waiting here.
guest_peak=0 guest_extra=0
# The jobs beside the debug kernel's boot (the other boots, the host tests
# and lint, the cuda-gdb lane) run under nice $bg_nice: that boot is the
# longest job, and its two vCPUs spin on each other's locks whenever the
# host preempts one that holds a lock (queued_spin_lock_slowpath was 12%
# of its samples beside the other boots, issue 34).  The person-paced
# debug servers' boots keep the default: they wait, and a person's pace
# is theirs to keep.
bg_nice=5
guest_slot() {
	local p n idle
	while :; do
		debug_lane_ready
		cuda_lane_ready
		n=$(jobs -rp | wc -l)
		for p in "${light[@]}"; do
			! kill -0 "$p" 2> /dev/null || n=$((n - 1))
		done
		if [ "$n" -lt "$guest_floor" ]; then
			break
		elif [ "$n" -ge "$guest_ceiling" ]; then
			wait -n || true
			continue
		fi
		idle=$(vx_idle_cpus 3)
		if [ "$idle" -ge 80 ]; then
			guest_extra=$((guest_extra + 1))
			break
		fi
	done
	[ $((n + 1)) -le "$guest_peak" ] || guest_peak=$((n + 1))
}
# guest_boot NAME PROGRAMS RUN-GUEST-ARGS...: one boot, in the background
# (guest_slot), and what it must report.
guest_boot() {
	local name=$1 programs=$2 dir=$results/guest-${1//,/-}
	shift 2
	guest_slot
	VX_NO_TICKER=1 vx_stage "guest $name" nice -n $bg_nice scripts/run-guest.sh --out "$dir" "$@" &
	case " $* " in
	*" --keep-dumps "*) cuda_boots+=($!) cuda_dumps+=("$dir/dumps.log") ;;
	esac
	guest_args+=(--guest "guest[$name]=$dir/results.log,$dir/console.log")
	expect+=(--expect "guest[$name]")
	for t in $programs; do
		expect+=(--expect "guest[$name]/$(basename "$t")")
	done
}

# The cuda-gdb lane (scripts/cuda-gdb-lane.sh): one job, on the dumps the
# boots run with --keep-dumps kept, once those boots have ended and
# cuda-gdb's root is installed: beside the boots still running, not after
# the last of them (317 CPU-s in 184 s at the end of a warm run, issue 34).
# cuda_queued: 1 once the last of those boots has started.
cuda_boots=() cuda_dumps=() cuda_queued=0 cuda_lane_started=0
cuda_lane_ready() {
	local p running
	[ $cuda_lane_started = 0 ] && [ $cuda_queued = 1 ] &&
		[ -e "$results/cuda-gdb-root.rc" ] || return 0
	running=" $(jobs -rp | paste -sd ' ') "
	for p in "${cuda_boots[@]}"; do
		[[ $running != *" $p "* ]] || return 0
	done
	cuda_lane_started=1
	VX_NO_TICKER=1 vx_stage cuda-gdb nice -n $bg_nice scripts/cuda-gdb-lane.sh "$results/cuda-gdb.tap" \
		"${cuda_dumps[@]}" &
}

# The debug kernel lane (scripts/debug-lane.sh): one job, the kernel (if
# it is still building), vortex.ko and the initramfs for it, then the two
# boots.
. scripts/debug-lane.sh
debug_lane() {
	local i=$O/debug/initramfs.cpio
	while [ ! -e "$results/debug-kernel.rc" ]; do sleep 5; done
	if [ "$(cat "$results/debug-kernel.rc")" != 0 ] ||
	   ! vx_stage "debug guest" scripts/debug-guest.sh "$O/debug" > /dev/null; then
		tail -n 20 "$results/debug-kernel.out" >&2
		vx_log "no debug kernel lane (full output: $results/debug-kernel.out)"
		return 1
	fi
	vx_debug_lane_boots "$results" "$(scripts/debug-kernel.sh --print)" "$i"
}
# debug_lane_ready: starts the lane once its kernel's build has ended,
# once.  Its boot goes first (guest_slot calls this before it admits
# anything).
debug_lane_started=0
debug_lane_ready() {
	[ $debug_lane_started = 0 ] || return 0
	if [ ! -e "$results/debug-kernel.rc" ]; then
		# A build killed from outside writes no exit status: the lane
		# fails rather than the run waiting for it for ever.  The status
		# is written before the job ends, so it is looked for again.
		! kill -0 "$debug_kernel_pid" 2>/dev/null || return 0
		[ -e "$results/debug-kernel.rc" ] || {
			echo "the debug kernel's build ended without an exit status (killed?)" \
				>> "$results/debug-kernel.out"
			echo 1 > "$results/debug-kernel.rc"
		}
	fi
	debug_lane_started=1
	VX_NO_TICKER=1 debug_lane &
	mapfile -t -O "${#expect[@]}" expect < <(vx_debug_lane_tap_args "$results")
}

# The debug servers in a guest, driven from the host: gdb-multiarch against
# vortex-gdbserver, the scripted client against vortex-dmserver.  The
# longest boot (a person's pace), so it starts first, beside the rest.
VX_NO_TICKER=1 vx_stage "guest debug" scripts/debug-e2e.sh "$results/guest-debug" \
	> "$results/debug.args" &
light+=($!)
expect+=(--expect gdb_guest --expect gdb_readme --expect dmserver_guest --expect gdb_vortex_model
	 --expect "guest[debug]"
	 --expect "guest[debug]/debug-servers")
# The same on the newest kernel, its suites' names prefixed with "newest:".
VX_NO_TICKER=1 newest vx_stage "guest newest:debug" scripts/debug-e2e.sh "$results/guest-newest-debug" \
	> "$results/debug-newest.args" &
light+=($!)
expect+=(--expect newest:gdb_guest --expect newest:gdb_readme --expect newest:dmserver_guest
	 --expect newest:gdb_vortex_model --expect "guest[newest:debug]"
	 --expect "guest[newest:debug]/debug-servers")

# The host tests, then the driver and uapi/ checked as upstream checks
# them (scripts/lint.sh: a finding not waived in scripts/lint-waivers.txt
# is printed and fails): one job, in a slot of its own.
guest_slot
(
	VX_NO_TICKER=1 vx_stage host-tests nice -n $bg_nice scripts/run-host-tests.sh \
		"$results/host" $host_tests > "$results/host.args" || true
	VX_NO_TICKER=1 vx_stage lint nice -n $bg_nice scripts/lint.sh "$results/lint.tap" || true
) &
expect+=(--expect lint)

# The debug kernel's boots are the next longest: next, if it is built
# (guest_slot starts them).

# The person-paced vxdbg session (a minute of a person's pauses) checks
# the CLI against a person, not the card: it runs in the first
# topology's boot of each kernel; the other card variants run the rest.
paced=vortex_vxdbg_pty_test
card_tests=$(for t in $guest_tests; do [ "$(basename "$t")" = $paced ] || echo "$t"; done)
card_list=$(for t in $card_tests; do basename "$t"; done | paste -sd,)
read -ra topos <<< "$topologies"
guest_boot "${topos[0]}" "$guest_tests" --topology "${topos[0]}" --keep-dumps
for topo in "${topos[@]:1}"; do
	guest_boot "$topo" "$card_tests" --topology "$topo" --tests "$card_list" --keep-dumps
done

# Hot-unplug of the card under a busy client, in a boot of its own since
# the card is gone afterwards (the test asks the host through qmp-watch).
guest_boot unplug vortex_driver_test --tests vortex_driver_test \
	--append "vxtest.unplug=1 vx.args=-t,unplug_with_open_client"

# The largest card make bench dumps (4 clusters x 8 cores x 32 warps x 32
# lanes): its 22 MB dump reads the same twice (issue 26).  One test: the
# other suites cover the capture on the smaller cards.
guest_boot 4,8,32,32 vortex_dump_slot_test --topology 4,8,32,32 --tests vortex_dump_slot_test --keep-dumps \
	--append "vx.args=-t,whole_card_dump_reads_the_same_twice"

# A card past cuda-gdb's limits (96 warps per core, 64 lanes per warp):
# its CUDA ELF is written as CUDA-sized SMs and warps, every lane in one
# row with its own registers (issue 26).
guest_boot 1,1,96,64 vortex_dump_card_test --topology 1,1,96,64 --tests vortex_dump_card_test --keep-dumps \
	--append "vx.args=-t,elf_rows_are_cuda_sized_and_hold_every_lane,-t,elf_rows_hold_lanes_past_31_while_they_run"
cuda_queued=1

# The card's old doorbell model (no fast doorbell, so no fast lane): every
# job through the scheduler and its FENCE interrupt.
guest_boot doorbell-off "$card_tests" --device-props fast-doorbell=off --tests "$card_list"

# The race and debugger tests again under slub_debug, on two vCPUs: a
# use-after-free in the driver then reads poison and oopses, which fails
# the boot, and the driver's work items really run beside the ioctls
# (some races, like a closed file's entity put back into the scheduler's
# run queue, were seen only with two CPUs).
# The dump suite too on 6.12: a reader halfway through a dump while the
# next failure happens or while it is discarded, a failure right after a
# discard, two at once.
guest_boot slub-smp2 "vortex_reliability_test $vx_dbg_tests vortex_vm_test vortex_vmbind_test $vx_dump_tests" \
	--smp 2 --tests "vortex_reliability_test,${vx_dbg_tests// /,},vortex_vm_test,vortex_vmbind_test,${vx_dump_tests// /,}" \
	--append "slub_debug=FZPU"

# The newest kernel's boots (see its set-up above).
newest guest_boot newest:1,2,4,8 "$guest_tests" --topology 1,2,4,8
newest guest_boot newest:unplug vortex_driver_test --tests vortex_driver_test \
	--append "vxtest.unplug=1 vx.args=-t,unplug_with_open_client"
newest guest_boot newest:slub-smp2 "vortex_reliability_test $vx_dbg_tests vortex_vm_test vortex_vmbind_test" \
	--smp 2 --tests "vortex_reliability_test,${vx_dbg_tests// /,},vortex_vm_test,vortex_vmbind_test" \
	--append "slub_debug=FZPU"

# A debug kernel still building: its lane starts when the build ends;
# the cuda-gdb lane, when its boots have.
while [ $debug_lane_started = 0 ] || [ $cuda_lane_started = 0 ]; do
	sleep 5
	debug_lane_ready
	cuda_lane_ready
done

# Every boot and lane has ended.
wait
expect+=(--expect cuda-gdb)
mapfile -t host_args < "$results/host.args"
host_args+=(--host="lint=$results/lint.tap" --host="cuda-gdb=$results/cuda-gdb.tap")
mapfile -t debug_args < "$results/debug.args"
mapfile -t -O "${#debug_args[@]}" debug_args < <(sed -e 's/^--host=/--host=newest:/' \
	-e 's/^--guest=guest\[/--guest=guest[newest:/' "$results/debug-newest.args")

vx_log "boots: at most $guest_peak at a time; $guest_extra started past the floor of $guest_floor while the CPUs had room"
vx_child_cpu
total=$(( $(date +%s) - total_start ))
printf '[time] %-14s %6d s (cpu %d s: %d%% of %d CPUs)\n' total $total $((vx_cpu_ms / 1000)) \
	$((vx_cpu_ms / 10 / (total > 0 ? total : 1) / $(nproc))) "$(nproc)" >&2
scripts/tap.py "${host_args[@]}" "${guest_args[@]}" "${debug_args[@]}" "${expect[@]}"
