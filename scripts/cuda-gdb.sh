#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# NVIDIA's cuda-gdb as Debian ships it (package nvidia-cuda-gdb, in the
# non-free component, which is part of Debian's archive), installed in a
# Debian root of its release made by scripts/buildroot.sh --packages:
# nothing is installed on the host.  Cached by package version in
# $VX_CACHE/cuda-gdb/<version>; made again when missing.
#
#   cuda-gdb.sh [--suite SUITE]            make it if needed, print the root
#   cuda-gdb.sh [--suite SUITE] --version  print the version that would be used
#
# SUITE: trixie (the default: cuda-gdb 12.4) or bookworm (11.8).  The
# version is read from SUITE's non-free index with a private apt state in
# $VX_CACHE/cuda-gdb/apt (the host's sources are left alone), refreshed at
# most once an hour.  A suite without the package is an error: the caller
# says so and fails.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"

suite=trixie want_version=0
while [ $# -gt 0 ]; do
	case $1 in
	--suite) suite=$2; shift 2 ;;
	--version) want_version=1; shift ;;
	*) vx_die "usage: cuda-gdb.sh [--suite SUITE] [--version]" ;;
	esac
done

adir=$VX_CACHE/cuda-gdb/apt/$suite
aopts=(-o "Dir::Etc::SourceList=$adir/sources.list" -o "Dir::Etc::SourceParts=$adir/empty"
	-o "Dir::Etc::Preferences=$adir/empty/none" -o "Dir::Etc::PreferencesParts=$adir/empty"
	-o "Dir::State=$adir/state" -o "Dir::State::status=$adir/status"
	-o "Dir::Cache=$adir/cache" -o APT::Architecture=amd64 -o APT::Architectures=amd64
	-o Acquire::Languages=none -o APT::Sandbox::User=root)
mkdir -p "$adir/empty" "$adir/state/lists/partial" "$adir/cache/archives/partial"
touch "$adir/status"
key=/usr/share/keyrings/debian-archive-keyring.gpg
sources="deb [signed-by=$key] http://deb.debian.org/debian $suite non-free"
if [ "$(cat "$adir/sources.list" 2>/dev/null)" != "$sources" ]; then
	printf '%s\n' "$sources" > "$adir/sources.list"
	rm -f "$adir/stamp"
fi
if [ -z "$(find "$adir/stamp" -mmin -60 2>/dev/null)" ]; then
	vx_run "$VX_LOGS/cuda-gdb-apt-$suite.log" "reading $suite non-free's package list" \
		apt-get "${aopts[@]}" update -q
	touch "$adir/stamp"
fi
ver=$(apt-cache "${aopts[@]}" show nvidia-cuda-gdb 2>/dev/null |
	sed -n 's/^Version: //p' | sort -V | tail -n 1)
[ -n "$ver" ] || vx_die "no nvidia-cuda-gdb in Debian $suite non-free (apt: $adir)"
if [ "$want_version" = 1 ]; then
	echo "$ver"
	exit 0
fi
# cuda-gdb runs from the root (buildroot.sh --run); the toolkit's docs,
# which it recommends, are left out.
root=$("$VX_TOP/scripts/buildroot.sh" --packages "$VX_CACHE/cuda-gdb/$ver" "$suite" \
	"main contrib non-free" "nvidia-cuda-gdb=$ver")
[ -x "$root/usr/bin/cuda-gdb" ] || vx_die "no /usr/bin/cuda-gdb in $root"
echo "$root"
