#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make lint`: the driver and the uapi header checked as upstream checks a
# driver, with the tools of the kernel the module is built for (Debian's
# linux-source-6.12, extracted into the cache keyed by its version):
#   checkpatch   scripts/checkpatch.pl --strict on driver/, uapi/ and the
#                module's shared source (dbgcore/*.[ch])
#   sparse       make C=2 (every file checked, whether rebuilt or not)
#   W=1          the module's build with W=1: no warnings, with the test
#                hooks (CONFIG_DRM_ACCEL_VORTEX_DEBUG=y, sparse too) and
#                without them (W=1 only)
#   kernel-doc   scripts/kernel-doc -Wall on uapi/, every driver file and
#                dbgcore/*.[ch]
#   kconfig      the Kconfig resolves in the kernel's tree as
#                drivers/accel/vortex, with what the module uses
#                (scripts/kconfig-check.sh)
#   aarch64      the simulator library (qemu-device/sim/) compiles for
#                aarch64 with its host flags and -Werror: the sources
#                qemu-device/sim.mk picks for that machine, the
#                translator's stub instead of the x86-64 translator
#                (clang --target, libc6-dev-arm64-cross's headers: gcc's
#                cross compiler and gcc-multilib exclude each other)
# Each finding is printed as FILE:LINE: TOOL:KIND: MESSAGE and fails the
# run unless scripts/lint-waivers.txt waives it (with a reason); a waiver
# that matches nothing fails too, so the list never outlives its finding.
# Prints TAP, one test per tool; the findings go to stderr as well.
#   lint.sh [TAPFILE]   TAP to TAPFILE (and TAPFILE.rc) instead of stdout
# A clean result is remembered for the exact inputs (sources, waivers,
# tools and their versions, this script) in the cache beside the kernels
# ($VX_CACHE/lint-clean), so an unchanged tree is not checked twice, nor
# in a fresh clone of it (a warm make check).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"
cd "$VX_TOP"
out=${1:-}
waivers=scripts/lint-waivers.txt

# The kernel's own checkers, from the source package, cached by version.
tools() {
	echo "$(vx_linux_source lint "checkpatch and kernel-doc" --strip-components=1 \
		linux-source-6.12/scripts/checkpatch.pl \
		linux-source-6.12/scripts/spelling.txt \
		linux-source-6.12/scripts/const_structs.checkpatch \
		linux-source-6.12/scripts/kernel-doc)/scripts"
}

command -v sparse > /dev/null || vx_die "sparse is not installed (scripts/host-deps.sh)"
cross=(clang --target=aarch64-linux-gnu)
[ -d /usr/aarch64-linux-gnu/include ] ||
	vx_die "libc6-dev-arm64-cross is not installed (scripts/host-deps.sh)"
bin=$(tools)
kdir=${KDIR:-$("$VX_TOP/scripts/kernel.sh")/headers}
mapfile -t files < <(ls driver/*.[ch] uapi/*.h dbgcore/*.[ch] hw/vortex_rv32.h)
mapfile -t sim_srcs < <(vx_make_var SIM_SRCS_AARCH64 | tr ' ' '\n' | grep .)

# The inputs of a verdict; a clean one is kept under their hash.
state=$VX_CACHE/lint-clean
mkdir -p "$state"
key=$( (cat "${files[@]}" hw/*.h Kbuild Kconfig "$waivers" "$0" "$bin"/* \
	scripts/kconfig-check.sh qemu-device/sim/* qemu-device/sim.mk;
	readlink -f "$kdir"; sparse --version; "${cross[@]}" --version;
	gcc --version) |
	sha256sum | cut -c1-16)
emit() { if [ -n "$out" ]; then cat > "$out"; else cat; fi; }
if [ -f "$state/clean.$key" ]; then
	vx_log "clean: the same sources, waivers and tools as a clean run before"
	emit < "$state/clean.$key"
	[ -z "$out" ] || echo 0 > "$out.rc"
	exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/vx-lint.XXXXXX")
trap 'rm -rf "$work"' EXIT

# checkpatch runs in a directory of ours: it keeps a cache of the kernel
# headers' CamelCase names (Elf64_Shdr, zlib_deflateInit) in its working
# directory, read from --root's include/ (Debian's -common headers half).
# --no-tree: the driver is not inside a kernel tree; --file: whole files.
# Its exit status says whether it found something: the output tells.
checkpatch() {
	local rel common
	rel=$(sed -n 's|^include \(.*\)/Makefile$|\1|p' "$kdir/Makefile" | head -n 1)
	common=$(cd "$kdir" && cd "${rel:-.}" && pwd)
	[ -d "$common/include/linux" ] || vx_die "no include/linux in $common"
	mkdir -p "$state/checkpatch"
	(cd "$state/checkpatch" && perl "$bin/checkpatch.pl" --no-tree --root="$common" \
		--strict --file --terse --show-types --no-summary --color=never \
		"${files[@]/#/$VX_TOP/}" || true) |
		sed -n "s|^$VX_TOP/\([^:]*:[0-9]*\): \([A-Z]*\):\([A-Z_0-9]*\): |\1: checkpatch:\3: |p"
}

# sparse and W=1 in one build of a fresh copy of the sources, so that every
# file is compiled (W=1 warnings come only from a compile) and the module
# built by `make module` is left alone.
# build DEBUG [C=2]: with CONFIG_DRM_ACCEL_VORTEX_DEBUG=DEBUG (y or n).
build() {
	local src=$work/src-$1 log=$work/build-$1.log extra=("${@:2}")
	mkdir -p "$src"
	cp --parents Kbuild driver/*.[ch] uapi/*.h hw/*.h dbgcore/*.[ch] "$src"/
	if ! make -C "$kdir" M="$src" W=1 "${extra[@]}" CONFIG_DRM_ACCEL_VORTEX_DEBUG="$1" \
		modules > "$log" 2>&1; then
		echo "Kbuild:1: W=1:error: the module did not build (make W=1 ${extra[*]}, CONFIG_DRM_ACCEL_VORTEX_DEBUG=$1):"
		sed "s|$src/||g; s/^/    /" "$log"
	fi
	sed "s|$src/||g" "$log" | awk '
		/^[^ :]+:[0-9]+:[0-9]+: (warning|error):/ {
			split($0, p, ":")
			msg = $0
			sub(/^[^ :]+:[0-9]+:[0-9]+: /, "", msg)
			tool = msg ~ /\[-W[^]]*\]$/ || msg ~ /^error:/ ? "W=1" : "sparse"
			kind = msg
			sub(/:.*/, "", kind)
			sub(/^(warning|error): /, "", msg)
			printf "%s:%s: %s:%s: %s\n", p[1], p[2], tool, kind, msg
		}
		/^WARNING: modpost:/ { printf "Kbuild:1: W=1:modpost: %s\n", $0 }'
}

# The simulator for aarch64, where the translator is not built: each
# source the Makefile picks for that machine compiles with the host flags
# and -Werror (findings as FILE:LINE: aarch64:warning|error: ...).
aarch64() {
	local f log=$work/aarch64.log
	for f in "${sim_srcs[@]}"; do
		"${cross[@]}" $(vx_make_var HOST_CFLAGS) -Werror -Ihw -Iqemu-device/sim \
			-c -o /dev/null "$f" || true
	done > "$log" 2>&1
	awk '/^[^ :]+:[0-9]+:[0-9]+: (warning|error):/ {
			split($0, p, ":")
			msg = $0
			sub(/^[^ :]+:[0-9]+:[0-9]+: /, "", msg)
			kind = msg
			sub(/:.*/, "", kind)
			sub(/^(warning|error): /, "", msg)
			printf "%s:%s: aarch64:%s: %s\n", p[1], p[2], kind, msg
		}
		/error: / && !/^[^ :]+:[0-9]+:[0-9]+: / { printf "qemu-device/sim.mk:1: aarch64:error: %s\n", $0 }' "$log"
}

kerneldoc() {
	local f
	for f in "${files[@]}"; do
		perl "$bin/kernel-doc" -Wall -none "$f" 2>&1
	done | sed -n -E 's#^([^:]*:[0-9]*): (warning|error): #\1: kernel-doc:\2: #p'
}

# waive FINDINGS: drop the findings a waiver names; prints the rest, then
# "unused waiver ..." for each waiver that matched nothing.  A waiver line:
#   FILE TOOL:KIND [TEXT...] -- REASON
# matches the findings in FILE of that tool and kind whose message holds TEXT.
waive() {
	awk -v wfile="$waivers" '
		BEGIN {
			while ((getline l < wfile) > 0) {
				if (l ~ /^[ \t]*(#|$)/)
					continue
				if (index(l, " -- ") == 0 || l ~ / -- *$/) {
					printf "%s: lint:waiver: no \" -- reason\": %s\n", wfile, l
					continue
				}
				spec = substr(l, 1, index(l, " -- ") - 1)
				n++
				wf[n] = spec; sub(/[ \t].*/, "", wf[n])
				rest = spec; sub(/^[^ \t]+[ \t]+/, "", rest)
				wk[n] = rest; sub(/[ \t].*/, "", wk[n])
				wt[n] = ""
				if (rest ~ /[ \t]/) {
					wt[n] = rest; sub(/^[^ \t]+[ \t]+/, "", wt[n])
				}
				wl[n] = l
			}
		}
		{
			file = $0; sub(/:.*/, "", file)
			k = $0; sub(/^[^ ]+ /, "", k)
			msg = k; sub(/^[^ ]+ /, "", msg)
			sub(/: .*/, "", k)
			for (i = 1; i <= n; i++)
				if (wf[i] == file && wk[i] == k && index(msg, wt[i])) {
					used[i]++
					next
				}
			print
		}
		END {
			for (i = 1; i <= n; i++)
				if (!used[i])
					printf "%s: lint:waiver: matches no finding: %s\n", wfile, wl[i]
		}'
}

vx_log "checkpatch --strict, sparse, W=1 and kernel-doc -Wall on driver/ and uapi/"
checkpatch > "$work/all.txt"
build y C=2 >> "$work/all.txt"
build n >> "$work/all.txt"
kerneldoc >> "$work/all.txt"
scripts/kconfig-check.sh >> "$work/all.txt"
vx_log "the simulator for aarch64 (${#sim_srcs[@]} files, ${cross[*]})"
aarch64 >> "$work/all.txt"
waive < "$work/all.txt" > "$work/left.txt"

# TAP: one test per tool, its findings as diagnostics before it.
tap() {
	local t i=0 fail=0 lines
	echo "TAP version 13"
	echo "1..7"
	for t in checkpatch sparse W=1 kernel-doc kconfig aarch64 lint; do
		i=$((i + 1))
		lines=$(grep -E "^[^ ]+: $t:" "$work/left.txt" || true)
		if [ -z "$lines" ]; then
			echo "ok $i $t"
		else
			sed 's/^/# /' <<<"$lines"
			echo "not ok $i $t: $(wc -l <<<"$lines") finding(s)"
			fail=1
		fi
	done
	return $fail
}
rc=0
tap > "$work/tap" || rc=1
if [ -s "$work/left.txt" ]; then
	vx_log "$(wc -l < "$work/left.txt") finding(s):"
	cat "$work/left.txt" >&2
else
	cp "$work/tap" "$state/clean.$key"
	vx_log "clean, with $(grep -vc '^[ \t]*\(#\|$\)' "$waivers") waiver(s) in $waivers"
fi
emit < "$work/tap"
[ -z "$out" ] || echo "$rc" > "$out.rc"
exit $rc
