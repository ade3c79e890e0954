# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the bench scripts (sourced, not run).

VX_CACHE=${VX_CACHE:-$HOME/.cache/vortex-bench}
VX_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

vx_log() { printf '[%s] %s\n' "${VX_STAGE:-bench}" "$*" >&2; }
vx_die() { vx_log "error: $*"; exit 1; }

# vx_stage NAME CMD...: run a stage and print how long it took.
vx_stage() {
	local name=$1 start ms rc
	shift
	start=$(date +%s%3N)
	VX_STAGE=$name "$@"
	rc=$?
	ms=$(( $(date +%s%3N) - start ))
	printf '[time] %-14s %4d.%d s\n' "$name" $((ms / 1000)) $((ms % 1000 / 100)) >&2
	return $rc
}

# vx_publish TMPDIR DEST: make a fully written cache entry visible at once.
# Entries are built in a temporary directory beside DEST and renamed, so a
# half-written entry is never mistaken for a good one.
vx_publish() {
	local tmp=$1 dest=$2
	touch "$tmp/.complete"
	rm -rf "$dest.old"
	[ -e "$dest" ] && mv "$dest" "$dest.old"
	mv "$tmp" "$dest"
	rm -rf "$dest.old"
}

vx_cached() { [ -f "$1/.complete" ]; }
