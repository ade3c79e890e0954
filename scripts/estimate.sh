# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by prepare.sh (and scripts/tests/test_estimate.sh): what the
# set-up of an empty cache will cost, said before it starts (vx_estimate).
# Run from the checkout's top, as prepare.sh is.

# What an empty cache costs, in seconds: every figure the estimate uses,
# measured on this project's 2-core machines with a fast mirror and other
# work beside (README, "The two commands"; docs/debug-kernel.md).
vx_est_packages=60
vx_est_qemu=$((640 / $(nproc)))	# 633 s of CPU: ~5 min on two cores
vx_est_kernel=20		# Debian's 6.12 kernel and headers
vx_est_ksft=10			# the kselftest headers
# make check only (check.sh sets vx_estimate_check):
vx_est_newest=180		# the newest kernel, its build root, vortex.ko there
vx_est_debug_kernel=1980	# the debug kernel: -j2 under nice, beside the rest
vx_est_debug_lane=370		# then its vortex.ko and initramfs (55 s), its boot (316 s)
vx_est_warm_check=880	# a warm make check of a fresh clone (876 s, AVX2-only host)

# vx_estimate: on a cold cache, say up front what lies ahead.  make
# check's debug kernel builds from the packages on, beside everything
# else, so its run takes the longer of two paths: the set-up and then a
# warm run's builds and boots, or the debug kernel and then its lane.
vx_estimate() {
	local pre=() main=() debug=() crit side
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
	vx_log "empty cache: about $(vx_est_sum "${pre[@]}" "${crit[@]}") to the verdict, a rough" \
		"estimate (a warm run: ~$(vx_duration $vx_est_warm_check)); later runs reuse ${VX_CACHE/#$HOME/\~}"
	vx_log "  the longest path: $(vx_est_list ', then ' "${pre[@]}" "${crit[@]}")"
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
