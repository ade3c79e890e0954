#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Extracts the kselftest harness headers from Debian's linux-source-6.12
# into the cache, keyed by the package version, and prints their directory.
#   ksft.sh          extract if needed, print the directory
#   ksft.sh --print  print the directory only if it is already there
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"
tarball=/usr/src/linux-source-6.12.tar.xz
ver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) ||
	vx_die "linux-source-6.12 is not installed (scripts/host-deps.sh)"
entry=$VX_CACHE/ksft/$ver
if ! vx_cached "$entry"; then
	[ "${1:-}" = --print ] && exit 1
	mkdir -p "$VX_CACHE/ksft"
	tmp=$(mktemp -d "$VX_CACHE/ksft/.tmp.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	# tar reads the whole archive for a few headers: ~10 s.
	vx_run "$VX_LOGS/ksft.log" "extracting the kselftest headers from linux-source-6.12" \
		tar -C "$tmp" -xvf "$tarball" --strip-components=4 --wildcards \
		'linux-source-6.12/tools/testing/selftests/kselftest*.h'
	[ -f "$tmp/kselftest_harness.h" ] || vx_die "no kselftest_harness.h in $tarball"
	trap - EXIT
	vx_publish "$tmp" "$entry"
fi
echo "$entry"
