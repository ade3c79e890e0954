# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by check.sh, demo.sh and bench.sh: every set-up and build stage up
# to a bootable initramfs.  Sets VX_QEMU, VX_KERNEL, VX_INITRD.
cd "$VX_TOP" || exit
O=${O:-build}

# shellcheck source=estimate.sh
. scripts/estimate.sh
vx_estimate
vx_stage deps scripts/host-deps.sh
# What the caller can start with the packages alone (check.sh: the debug
# kernel's build, the longest set-up step).
if [ "$(type -t vx_after_deps)" = function ]; then
	vx_after_deps
fi
export VX_QEMU VX_KERNEL VX_INITRD
# VX_QEMU set: that QEMU (e.g. a private copy while other checkouts build
# the cached one), as run-guest.sh takes it.
if [ -n "${VX_QEMU:-}" ]; then
	vx_log "using VX_QEMU=$VX_QEMU (not built from this checkout's qemu-device/)"
else
	# shellcheck disable=SC2016  # expanded by eval
	vx_stage qemu eval 'VX_QEMU=$(scripts/qemu.sh)'
fi
# shellcheck disable=SC2016
vx_stage kernel eval 'VX_KERNEL=$(scripts/kernel.sh)'
vx_stage kselftest scripts/ksft.sh > /dev/null
vx_stage build make -s --no-print-directory -j"$(nproc)" all
VX_INITRD=$O/guest/initramfs.cpio
# shellcheck disable=SC2046  # one word per test and file
vx_stage initramfs scripts/initramfs.sh "$VX_INITRD" "$VX_KERNEL" vortex.ko \
	$(vx_make_var GUEST_TESTS) -- $(vx_make_var GUEST_FILES)
vx_log "kernel $(cat "$VX_KERNEL/version"), qemu $(basename "$VX_QEMU")"
