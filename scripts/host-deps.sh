#!/bin/bash
# Installs every Debian package the bench, the builds and the tests need.
# Idempotent: does nothing when all of them are present.  apt's output goes
# to a log in $VX_LOGS; the terminal gets one line per apt run saying what
# is installed and what for.
#   host-deps.sh          install what is missing
#   host-deps.sh --count  print how many packages are missing
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"

# "what for: packages", in the words of the install line.
groups=(
	# meson and pycotap come from backports: bpo_pkgs.
	"QEMU build: build-essential gcc-multilib ninja-build pkg-config
		python3 python3-venv libglib2.0-dev libpixman-1-dev flex bison xz-utils"
	"guest boot: seabios busybox-static cpio kmod"
	# BTF needs pahole (dwarves).
	"module build: dwarves libelf-dev linux-libc-dev"
	"kselftest: linux-source-6.12"
	# scripts/debug-kernel.sh, besides linux-source-6.12, the compilers,
	# flex, bison, xz-utils and libelf-dev above
	"debug kernel: bc"
	# The simulator's aarch64 cross-compile (no translator there) is
	# clang's, with this C library: bookworm's gcc-aarch64-linux-gnu
	# and gcc-multilib (QEMU build) remove each other.
	"lint: sparse libc6-dev-arm64-cross"
	"GPU kernels: clang lld llvm gcc-riscv64-unknown-elf qemu-user"
	"userspace: libdrm-dev"
	"compile cache (scripts/lib.sh): ccache"
	"crash dump decoder: zlib1g-dev gdb-multiarch"
	"debugger sessions at human speed: python3-pexpect"
	"packaging (make install, DKMS): dkms"
	"the newest kernel's build root: mmdebstrap"
)
bpo_pkgs=(meson python3-pycotap)

# Fills missing[] and why[] (the groups they belong to).
find_missing() {
	local g p n
	local -A ok=()
	for p in $(dpkg-query -W -f='${Package}=${Status}\n' 2>/dev/null |
		sed -n 's/=install ok installed$//p'); do
		ok[$p]=1
	done
	missing=() why=()
	for g in "${groups[@]}"; do
		n=${#missing[@]}
		for p in ${g#*:}; do
			[ -n "${ok[$p]:-}" ] || missing+=("$p")
		done
		[ ${#missing[@]} -eq "$n" ] || why+=("${g%%:*}")
	done
	need_bpo=0
	dpkg --compare-versions "$(dpkg-query -W -f='${Version}' meson 2>/dev/null || echo 0)" ge 1.5 || need_bpo=1
	[ -n "${ok[python3-pycotap]:-}" ] || need_bpo=1
}

# "cpio, kmod" or "23 packages", for the install line.
describe() {
	if [ $# -le 4 ]; then vx_join "$@"; else echo "$# packages"; fi
}

apt_install() {
	apt-get install -y -q --no-install-recommends -o APT::Status-Fd=1 "$@"
}

find_missing
if [ "${1:-}" = --count ]; then
	echo $(( ${#missing[@]} + need_bpo * ${#bpo_pkgs[@]} ))
	exit 0
fi

# kernel.sh and qemu.sh ask apt for versions (backports, deb-src), so the
# entries must be there even when every package already is.
[ "$(id -u)" -ne 0 ] || "$VX_TOP/scripts/apt-sources.sh"

[ ${#missing[@]} -eq 0 ] && [ $need_bpo -eq 0 ] && exit 0
[ "$(id -u)" -eq 0 ] ||
	vx_die "missing packages (${missing[*]} ${bpo_pkgs[*]}); run as root"
export DEBIAN_FRONTEND=noninteractive
if [ ${#missing[@]} -gt 0 ]; then
	vx_run "$VX_LOGS/deps-install.log" \
		"installing $(describe "${missing[@]}") for $(vx_join "${why[@]}")" \
		apt_install "${missing[@]}"
fi
if [ $need_bpo -ne 0 ]; then
	vx_run "$VX_LOGS/deps-backports.log" \
		"installing $(describe "${bpo_pkgs[@]}") from bookworm-backports for QEMU build (meson >= 1.5)" \
		apt_install -t bookworm-backports "${bpo_pkgs[@]}"
fi
