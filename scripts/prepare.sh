# SPDX-License-Identifier: GPL-2.0
# Sourced by check.sh, demo.sh and bench.sh: every set-up and build stage up
# to a bootable initramfs.  Sets VX_QEMU, VX_KERNEL, VX_INITRD.
cd "$VX_TOP"
O=${O:-build}
vx_stage deps scripts/host-deps.sh
export VX_QEMU VX_KERNEL VX_INITRD
vx_stage qemu eval 'VX_QEMU=$(scripts/qemu.sh)'
vx_stage kernel eval 'VX_KERNEL=$(scripts/kernel.sh)'
vx_stage kselftest scripts/ksft.sh > /dev/null
vx_stage build make -s -j"$(nproc)" all
VX_INITRD=$O/guest/initramfs.cpio.gz
vx_stage initramfs scripts/initramfs.sh "$VX_INITRD" "$VX_KERNEL" vortex.ko \
	$(make -s print-GUEST_TESTS) -- $(make -s print-GUEST_FILES)
vx_log "kernel $(cat "$VX_KERNEL/version"), qemu $(basename "$VX_QEMU")"
