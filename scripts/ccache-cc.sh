#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Makefile's compiler prefix when ccache is in use (VX_CCACHE, set by
# scripts/lib.sh): a compile goes to ccache as it is; a command that
# compiles and links at once (`gcc FLAGS -o prog a.c b.c lib.a -lm`,
# most of the project's programs) is split into one `-c` per source,
# through ccache, and the link of those objects.  ccache caches compiles
# only: it runs such a command uncached ("called for link"), and those
# were 116 of the 198 compiler calls of `make host-all`, 130 of its
# 132 CPU-s, in a fresh clone whose every compile ccache had seen
# (issue 34).  gcc itself compiles each source of such a command
# alone, so the program is the same.
#
#   ccache-cc.sh CC ARG...
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
vx_usage 1 "$@"
cc=$1
shift
ccache=${VX_CCACHE:-ccache}

compile=() link=() srcs=() out=
linking=1
for a in "$@"; do
	case $a in
	-c|-S|-E|-M|-MM) linking=0 ;;
	esac
done
[ "$linking" = 1 ] || exec "$ccache" "$cc" "$@"
orig=("$@")
while [ $# -gt 0 ]; do
	a=$1
	shift
	case $a in
	-o) out=$1; shift ;;
	-T|-L|-l) link+=("$a" "$1"); shift ;;
	# What only the link reads, kept from the compiles (clang warns of
	# an argument unused during compilation).
	-l*|-L*|-Wl,*|-fuse-ld=*|-static|-shared|-rdynamic|-nostartfiles|*.o|*.a|*.so)
		link+=("$a") ;;
	*.c|*.S|*.s) srcs+=("$a"); link+=("@src${#srcs[@]}") ;;
	*) compile+=("$a"); link+=("$a") ;;
	esac
done
# A link of objects alone: as it was.
if [ ${#srcs[@]} = 0 ] || [ -z "$out" ]; then
	exec "$cc" "${orig[@]}"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vx-cc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
args=()
for a in "${link[@]}"; do
	case $a in
	@src*)
		i=${a#@src}
		src=${srcs[$((i - 1))]}
		obj=$tmp/$i-$(basename "${src%.*}").o
		"$ccache" "$cc" "${compile[@]}" -c -o "$obj" "$src"
		args+=("$obj")
		;;
	*) args+=("$a") ;;
	esac
done
"$cc" "${args[@]}" -o "$out"
