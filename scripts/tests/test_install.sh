#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# README's "Installing" commands, run exactly as written (the block is read
# from README.md), as root on a machine whose kernel headers are Debian's
# 6.12 (the cached ones): in a private mount namespace whose /usr/local,
# /usr/src, /var/lib/dkms, /lib/modules and /etc/udev/rules.d are empty
# tmpfs, so nothing reaches the host.  Then what a user relies on:
#  - the tools, libraries, headers and pkg-config files under /usr/local,
#    and the crash dump collector's udev rule;
#  - a Vortex host program (upstream tests/regression/*/main.cpp includes
#    <vortex.h>) built with `pkg-config --cflags --libs vortexrt`;
#  - vortex.ko in /lib/modules/RELEASE/updates, known to depmod, with the
#    headers' vermagic, and without the test gates (no vortex_gate_*
#    symbol: make install builds it with CONFIG_DRM_ACCEL_VORTEX_DEBUG=n);
#  - DKMS (dkms.conf) builds and installs it for the kernel with headers,
#    and `dkms status` says so;
#  - `make -C CHECKOUT install DESTDIR=STAGE` from another directory, as a
#    package build runs it: everything under STAGE, and the paths it names
#    are those.
# Prints TAP.  Needs root and unshare (util-linux); skips without them.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null || ! command -v dkms >/dev/null; then
	printf 'TAP version 13\n1..0 # SKIP needs root, unshare and dkms\n'
	exit 0
fi
if [ -z "${VX_INSTALL_NS:-}" ]; then
	# The mount points must exist to be covered.
	mkdir -p /lib/modules /usr/src /var/lib/dkms /usr/local /etc/udev/rules.d
	export VX_INSTALL_NS=1
	exec unshare --mount --propagation private "$0" "$@"
fi

echo "TAP version 13"
# shellcheck source=tap-lib.sh
. "$top/scripts/tests/tap-lib.sh"
ko_ok=1

kentry=$("$top/scripts/kernel.sh") || { echo "1..0 # SKIP no cached kernel"; exit 0; }
hdrs=$(readlink -f "$kentry/headers")
rel=$(make -s --no-print-directory -C "$hdrs" kernelrelease)
for d in /usr/local /usr/src /var/lib/dkms /lib/modules /etc/udev/rules.d; do
	mount -t tmpfs none "$d" || { echo "1..0 # SKIP cannot mount tmpfs on $d"; exit 0; }
done
# A machine with Debian's 6.12 headers: its modules' metadata, build links.
mkdir -p "/lib/modules/$rel" "/lib/modules/$(uname -r)"
cp "$kentry"/modules/modules.{order,builtin,builtin.modinfo} "/lib/modules/$rel/" 2>/dev/null
ln -s "$hdrs" "/lib/modules/$rel/build"
ln -s "$hdrs" "/lib/modules/$(uname -r)/build"

# README's block, comments and blank lines dropped.
cmds=$(awk '/^## Installing/ { f = 1 } f && /^```sh/ { b = 1; next } b && /^```/ { exit }
	b { sub(/[ \t]+#.*/, ""); if ($0 != "") print }' "$top/README.md")
echo "1..$((6 + $(echo "$cmds" | grep -c .)))"
[ -n "$cmds" ]
ok $? "README has an Installing block of commands"
work=$(mktemp -d)
# A Vortex host program, as upstream's regression programs are written.
cat > "$work/main.cpp" <<'CPP'
#include <vortex.h>
#include <cstdio>
int main() {
	vx_device_h device = nullptr;
	if (vx_dev_open(&device) != 0) { std::printf("no device\n"); return 1; }
	vx_dev_close(device);
	return 0;
}
CPP
while IFS= read -r c; do
	# make in the checkout, the rest where the program is
	case $c in make*) dir=$top ;; *) dir=$work ;; esac
	out=$(cd "$dir" && bash -c "$c" 2>&1)
	ok $? "README: $c" "$out"
	if [ "$c" = "make install" ]; then
		vm=$(modinfo -F vermagic "/lib/modules/$rel/updates/vortex.ko" 2>&1)
		# without the test hooks (CONFIG_DRM_ACCEL_VORTEX_DEBUG): no gate code
		gates=$(nm "/lib/modules/$rel/updates/vortex.ko" 2>&1 | grep -c ' vortex_gate_')
		vm="$vm; gate symbols: $gates"
		[ "${vm%% *}" = "$rel" ] && grep -q "^updates/vortex.ko:" "/lib/modules/$rel/modules.dep" &&
			[ "$gates" = 0 ]
		ko_ok=$?
	fi
done <<<"$cmds"

for f in bin/vortex-run bin/vxdbg bin/vortex-coredump bin/vortex-dump-collector bin/elf2vxbin lib/libvortexrt.a \
	include/vortex/vortex.h include/drm/vortex_accel.h lib/pkgconfig/vortexrt.pc \
	share/vortex/kernels/vxs_hello.vxbin; do
	[ -e "/usr/local/$f" ] || missing="${missing:-} $f"
done
grep -qx 'ACTION=="add", SUBSYSTEM=="devcoredump", RUN+="/usr/local/bin/vortex-dump-collector --save /sys%p"' \
	/etc/udev/rules.d/70-vortex-coredump.rules || missing="${missing:-} the collector's udev rule"
[ -z "${missing:-}" ]
ok $? "make install: tools, libraries, headers, pkg-config, kernels under /usr/local, the collector's udev rule" \
	"missing:${missing:-}"
# nm's whole output first: under pipefail, `nm | grep -q` fails when grep
# quits at its match while nm still writes (SIGPIPE), as a fresh clone's
# make check saw once vecadd carried libvortex too.
syms=$(nm "$work/vecadd" 2>&1)
[ -x "$work/vecadd" ] && grep -q ' T vx_dev_open$' <<<"$syms"
ok $? "the Vortex host program links libvortexrt through pkg-config"
# (checked before make install-dkms replaced it)
ok $ko_ok "make install: vortex.ko for $rel, without the test gates, in depmod's modules.dep" "$vm"
# Staged for a package, from outside the checkout (make -C).
stage=$work/stage
out=$(cd "$work" && make -C "$top" install DESTDIR="$stage" 2>&1) && [ -e "$stage/usr/local/bin/vortex-run" ] &&
	[ -e "$stage/lib/modules/$rel/updates/vortex.ko" ] &&
	grep -qxF "installed the tools and libraries under $stage/usr/local" <<<"$out" &&
	grep -qxF "installed vortex.ko for $rel under $stage/lib/modules/$rel/updates" <<<"$out"
ok $? "make -C DIR install DESTDIR=STAGE: under STAGE, and says where" "$out"
st=$(dkms status vortex 2>&1)
dko=$(ls /lib/modules/"$rel"/updates/dkms/vortex.ko* 2>/dev/null | head -1)
[ ! -e "/lib/modules/$rel/updates/vortex.ko" ] || dko=
echo "$st" | grep -qx "vortex/0.1.0, $rel, x86_64: installed" && [ -n "$dko" ] &&
	[ "$(modinfo -F vermagic "$dko" | cut -d' ' -f1)" = "$rel" ]
ok $? "make install-dkms: DKMS built and installed vortex.ko for $rel, the only copy" \
	"$st; $dko; $(ls -R /lib/modules/$rel/updates)"
rm -rf "$work"
[ $fails -eq 0 ]
