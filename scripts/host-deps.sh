#!/bin/bash
# Installs every Debian package the bench, the builds and the tests need.
# Idempotent: does nothing when all of them are present.
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")

pkgs=(
	# QEMU build (meson and pycotap must come from backports, see below)
	build-essential gcc-multilib ninja-build pkg-config python3 python3-venv
	libglib2.0-dev libpixman-1-dev flex bison xz-utils
	# guest boot: firmware, initramfs
	seabios busybox-static cpio kmod
	# out-of-tree module against Debian's headers (BTF needs pahole)
	dwarves libelf-dev linux-libc-dev
	# kselftest harness
	linux-source-6.12
	# GPU kernels and their differential tests
	clang lld llvm gcc-riscv64-unknown-elf qemu-user
	# userspace
	libdrm-dev
)
bpo_pkgs=(meson python3-pycotap)

# kernel.sh and qemu.sh ask apt for versions (backports, deb-src), so the
# entries must be there even when every package already is.
[ "$(id -u)" -ne 0 ] || "$here/apt-sources.sh"

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
need_bpo=0
if ! dpkg --compare-versions "$(dpkg-query -W -f='${Version}' meson 2>/dev/null || echo 0)" ge 1.5; then
	need_bpo=1
fi
dpkg-query -W -f='${Status}' python3-pycotap 2>/dev/null | grep -q 'ok installed' || need_bpo=1

[ ${#missing[@]} -eq 0 ] && [ $need_bpo -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "host-deps: missing packages (${missing[*]} ${bpo_pkgs[*]}); run as root" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
[ ${#missing[@]} -eq 0 ] || apt-get install -y -qq --no-install-recommends "${missing[@]}"
[ $need_bpo -eq 0 ] || apt-get install -y -qq --no-install-recommends -t bookworm-backports "${bpo_pkgs[@]}"
