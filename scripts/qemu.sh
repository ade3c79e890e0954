#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds qemu-system-x86_64 from Debian's bookworm-backports qemu source
# with the Vortex device (qemu-device/) compiled in, and prints the cache
# entry: bin/qemu-system-x86_64 and share/ (firmware for -L).
#
# The source tree is unpacked, wired up and configured once per QEMU
# version and recipe; an entry without its .complete marker is redone.  The device sources stay in this repository: the tree's
# hw/misc/vortex and hw/misc/vortex-hw are symlinks to qemu-device/ and hw/,
# re-pointed at every run, and ninja rebuilds only what changed.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"

QEMU_PKG=qemu
QEMU_SUITE=bookworm-backports
CONFIGURE_ARGS=(
	--target-list=x86_64-softmmu --without-default-features
	--disable-fdt --disable-download --disable-install-blobs --disable-docs
	--disable-debug-info
	--disable-werror --disable-user --disable-tools --disable-guest-agent
	--python=/usr/bin/python3
	--without-default-devices --with-devices-x86_64=vortex
)
# No debug info (-g): the build's compiles take a fifth less CPU without
# it (translate.c 9.4 s against 11.7, cputlb.c 4.2 against 5.3, pci.c 1.8
# against 2.0), on the empty cache's longest path; the symbols stay, for
# perf and a crash's backtrace (issue 34).
# The devices the guests use (scripts/run-guest.sh: -machine pc -nodefaults,
# its ISA serial ports, virtio-serial for the debug servers and the kept
# dumps, the card) and what the pc machine selects itself (ACPI with PCI
# hot-unplug, the PIT, RTC, fw_cfg for -kernel).  QEMU's default devices
# (some 150 more: NICs, USB, sound, displays, storage) would add 227 of
# the build's 1553 steps.  The HPET is the guests' clock source as on a
# default pc machine.
DEVICES=(
	CONFIG_I440FX=y
	CONFIG_HPET=y
	CONFIG_VIRTIO_PCI=y
	CONFIG_VIRTIO_SERIAL=y
	CONFIG_VORTEX_GPU=y
)
# Bump when the way the tree is prepared changes.
RECIPE=3

orig_version() {
	apt-cache showsrc -t "$QEMU_SUITE" "$QEMU_PKG" 2>/dev/null |
		sed -n 's/^Version: \(1:\)\{0,1\}\([0-9.]*\)+ds.*/\2/p' | sort -V | tail -n 1
}

ver=$(orig_version)
[ -n "$ver" ] || vx_die "no $QEMU_PKG source in $QEMU_SUITE (scripts/apt-sources.sh adds deb-src)"
key=$(printf '%s\n' "$RECIPE" "${CONFIGURE_ARGS[@]}" "${DEVICES[@]}" | sha256sum | cut -c1-12)
entry=$VX_CACHE/qemu/$ver-$key

dl=$VX_CACHE/dl
tarball=$dl/${QEMU_PKG}_$ver+ds.orig.tar.xz

fetch_source() {
	# Only the orig tarball is published for the backport; apt-get
	# reports the missing .dsc, which is expected.
	vx_apt_download "$dl" source --download-only -t "$QEMU_SUITE" "$QEMU_PKG" || true
	ls "$tarball"
}

configure_tree() {
	# Configure records absolute paths, so the tree is prepared in place;
	# .complete is written last and anything without it is started over.
	rm -rf "$entry"
	mkdir -p "$entry"
	echo "vx: unpacking ${tarball##*/}"
	tar -C "$entry" -xf "$tarball"
	mv "$entry/qemu-$ver" "$entry/src"
	local src=$entry/src
	# The +ds tarball strips the edk2 blobs the build would unpack.
	sed -i 's/^\( *unpack_edk2_blobs = \).*/\1false/' "$src/meson.build"
	echo "subdir('vortex')" >> "$src/hw/misc/meson.build"
	echo "source vortex/Kconfig" >> "$src/hw/misc/Kconfig"
	# Generate the device's trace events (qemu-device/trace-events).
	sed -i "s|^    'hw/misc',\$|&\n    'hw/misc/vortex',|" "$src/meson.build"
	grep -q "^    'hw/misc/vortex',$" "$src/meson.build" || vx_die "could not register trace events"
	printf '%s\n' "${DEVICES[@]}" > "$src/configs/devices/x86_64-softmmu/vortex.mak"
	link_device "$src"
	echo "vx: configuring"
	mkdir "$src/build"
	(cd "$src/build" && ../configure "${CONFIGURE_ARGS[@]}")
	touch "$entry/.complete"
}

# Every simulator source must be in the device's meson.build, or QEMU
# fails to link long after the host build (which globs them) passed.
check_meson_sources() {
	local f
	for f in "$VX_TOP"/qemu-device/sim/*.c; do
		grep -q "'sim/${f##*/}'" "$VX_TOP/qemu-device/meson.build" ||
			vx_die "qemu-device/meson.build does not list sim/${f##*/}"
	done
}

link_device() {
	local src=$1 old
	check_meson_sources
	old=$(readlink "$src/hw/misc/vortex" 2>/dev/null || true)
	ln -sfn "$VX_TOP/qemu-device" "$src/hw/misc/vortex"
	ln -sfn "$VX_TOP/hw" "$src/hw/misc/vortex-hw"
	# Another checkout's objects may be newer than this one's sources, and
	# its build.ninja newer than this one's meson.build, which may list
	# other files: make ninja rebuild both.
	if [ -n "$old" ] && [ "$old" != "$VX_TOP/qemu-device" ] && [ -d "$src/build" ]; then
		find "$src/build" -path '*hw_misc_vortex*' -name '*.o' -delete
		touch "$VX_TOP/qemu-device/meson.build"
	fi
}

if ! vx_cached "$entry"; then
	mkdir -p "$dl" "$VX_CACHE/qemu"
	[ -f "$tarball" ] ||
		vx_run "$VX_LOGS/qemu-source.log" "downloading qemu $ver source" fetch_source
	vx_run "$VX_LOGS/qemu-configure.log" "unpacking and configuring qemu $ver" configure_tree
fi
# Entries of other versions or recipes are dead weight (a few GiB each).
find "$VX_CACHE/qemu" -mindepth 1 -maxdepth 1 ! -name "$ver-$key" -exec rm -rf {} +
src=$entry/src
# device_sources: what the device's meson.build compiles and reads, by
# content: a checkout whose device is the one the binary was built from
# (a fresh clone of the same commit) takes the binary as it is.  Else
# link_device points the tree at it, and the device's objects, built from
# another checkout, are rebuilt (34 s, 43 CPU-s of a warm make check).
device_sources() {
	(cd "$VX_TOP" && { printf '%s\n' qemu-device/meson.build qemu-device/Kconfig qemu-device/trace-events
	  find qemu-device -maxdepth 1 -name '*.[ch]'; find qemu-device/sim hw -name '*.[ch]'; } |
		LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)
}
built=$(cat "$entry/device.sha" 2> /dev/null || true)
device=$(device_sources)
if [ "$built" != "$device" ] || [ ! -x "$src/build/qemu-system-x86_64" ]; then
	rm -f "$entry/device.sha"
	link_device "$src"
	# ninja's "[N/M]" is what vx_run shows as progress.  Nothing is said
	# when the binary is up to date (ninja's dry run has no work to do).
	if ! ninja -C "$src/build" -n qemu-system-x86_64 2>/dev/null | grep -q '^ninja: no work to do'; then
		VX_FAIL_ERE='error:|FAILED:' vx_run "$VX_LOGS/qemu-build.log" "building qemu-system-x86_64" \
			env NINJA_STATUS='[%f/%t] ' ninja -C "$src/build" qemu-system-x86_64
	fi
	echo "$device" > "$entry/device.sha"
fi
# -kernel needs the linuxboot_dma option ROM and the pc machine loads
# kvmvapic.bin; the tarball ships neither.
roms=(linuxboot_dma.bin kvmvapic.bin)
for rom in "${roms[@]}"; do
	[ -f "$src/build/pc-bios/optionrom/$rom" ] && continue
	vx_run "$VX_LOGS/qemu-optionrom.log" "building the option ROMs" \
		make -C "$src/build/pc-bios/optionrom" "${roms[@]}"
done
mkdir -p "$entry/bin" "$entry/share"
ln -sfn "$src/build/qemu-system-x86_64" "$entry/bin/qemu-system-x86_64"
for rom in "${roms[@]}"; do
	ln -sfn "$src/build/pc-bios/optionrom/$rom" "$entry/share/$rom"
done
ln -sfn /usr/share/seabios/bios-256k.bin "$entry/share/bios-256k.bin"
echo "$entry"
