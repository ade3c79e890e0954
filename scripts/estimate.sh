# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by prepare.sh (and scripts/tests/test_estimate.sh): what the
# set-up of an empty cache will cost, said before it starts (vx_estimate).
# Run from the checkout's top, as prepare.sh is.

# What an empty cache costs, in seconds: every figure the estimate uses,
# measured on this project's 2-core machines with a fast mirror and other
# work beside (README, "The two commands"; docs/debug-kernel.md).
vx_est_packages=60
vx_est_qemu=$((528 / $(nproc)))	# 528 s of CPU (no debug info): ~4.5 min on two cores
vx_est_kernel=20		# Debian's 6.12 kernel and headers
vx_est_ksft=10			# the kselftest headers
# make check only (check.sh sets vx_estimate_check):
vx_est_newest=180		# the newest kernel, its build root, vortex.ko there
vx_est_debug_kernel=1440	# the debug kernel: -j2 at nice 0, beside QEMU's build and the rest
vx_est_debug_lane=370		# then its vortex.ko and initramfs (55 s), its boot (316 s)
vx_est_warm_check=880	# a warm make check of a fresh clone (876 s, AVX2-only host)
# A fresh machine's make check is bound by its CPUs, not by one path:
# QEMU's build, the debug kernel's and everything else share both cores
# from the start.  A fresh clone on an empty cache took 4101 s of CPU,
# the CPUs 94% busy, 2159 s in all (2026-11-30, AVX2-only AMD EPYC).
vx_est_cpu_fresh=4100 vx_est_cpu_busy=94

# vx_estimate: on a cold cache, say up front what lies ahead.  make
# check's debug kernel builds from the packages on, beside everything
# else, so its run takes the longer of two paths: the set-up and then a
# warm run's builds and boots, or the debug kernel and then its lane.
vx_estimate() {
	local pre=() main=() debug=() crit side bound=0
	[ "$(scripts/host-deps.sh --count)" -eq 0 ] || pre+=("packages:$vx_est_packages")
	compgen -G "$VX_CACHE/qemu/*/bin/qemu-system-x86_64" > /dev/null ||
		main+=("QEMU build:$vx_est_qemu")
	compgen -G "$VX_CACHE/kernel/6.12.*/.complete" > /dev/null ||
		main+=("Debian kernel:$vx_est_kernel")
	compgen -G "$VX_CACHE/ksft/*/.complete" > /dev/null || main+=("kselftest headers:$vx_est_ksft")
	if [ -n "${vx_estimate_check:-}" ]; then
		compgen -G "$VX_CACHE/buildroot/*/.complete" > /dev/null ||
			main+=("the newest kernel and its build root:$vx_est_newest")
		scripts/debug-kernel.sh --print > /dev/null 2>&1 ||
			debug+=("the debug kernel's build on two shared cores:$vx_est_debug_kernel"
				"its vortex.ko and boot:$vx_est_debug_lane")
	fi
	[ $((${#pre[@]} + ${#main[@]} + ${#debug[@]})) -gt 0 ] || return 0
	if [ -z "${vx_estimate_check:-}" ]; then
		vx_log "empty cache: about $(vx_est_sum "${pre[@]}" "${main[@]}") of set-up ahead" \
			"($(vx_est_list ', ' "${pre[@]}" "${main[@]}"), a rough estimate);" \
			"later runs reuse ${VX_CACHE/#$HOME/\~}"
		return 0
	fi
	main+=("a warm run's builds and boots:$vx_est_warm_check")
	crit=("${main[@]}") side=()
	if [ ${#debug[@]} -gt 0 ] &&
	   [ "$(vx_est_secs "${debug[@]}")" -gt "$(vx_est_secs "${main[@]}")" ]; then
		crit=("${debug[@]}") side=("${main[@]}")
	elif [ ${#debug[@]} -gt 0 ]; then
		side=("${debug[@]}")
	fi
	# With both big builds ahead, the run takes at least the CPU of it
	# all over the CPUs, when that is longer than its longest path.
	[ ${#debug[@]} -eq 0 ] || [[ " ${main[*]} " != *" QEMU build:"* ]] ||
		bound=$((vx_est_cpu_fresh * 100 / vx_est_cpu_busy / $(nproc)))
	local total=("${crit[@]}") path="the longest path:"
	if [ "$bound" -gt "$(vx_est_secs "${crit[@]}")" ]; then
		total=("cpu:$bound")
		path="the CPUs bound it: ~$vx_est_cpu_fresh s of work on $(nproc) of them; the longest path alone"
	fi
	vx_log "empty cache: about $(vx_est_sum "${pre[@]}" "${total[@]}") to the verdict, a rough" \
		"estimate (a warm run: ~$(vx_duration $vx_est_warm_check)); later runs reuse ${VX_CACHE/#$HOME/\~}"
	vx_log "  $path $(vx_est_list ', then ' "${pre[@]}" "${crit[@]}")"
	[ ${#side[@]} -eq 0 ] || vx_log "  beside it: $(vx_est_list ', then ' "${side[@]}")"
}
# vx_est_secs WHAT:SECONDS...: their total; vx_est_sum: as a duration.
vx_est_secs() {
	local s=0 i
	for i; do s=$((s + ${i##*:})); done
	echo $s
}
vx_est_sum() { vx_duration "$(vx_est_secs "$@")"; }
# vx_est_list SEP WHAT:SECONDS...: "WHAT ~DURATION" each, SEP between.
vx_est_list() {
	local sep=$1 i s=''
	shift
	for i; do s+="${s:+$sep}${i%:*} ~$(vx_duration "${i##*:}")"; done
	echo "$s"
}
vx_duration() { if [ "$1" -lt 90 ]; then echo "$1 s"; else echo "$(( ($1 + 30) / 60 )) min"; fi; }
