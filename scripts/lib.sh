# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034  # sourced; the scripts use the variables
# Shared helpers for the bench scripts (sourced, not run).

VX_CACHE=${VX_CACHE:-$HOME/.cache/vortex-bench}
VX_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Each quiet step's full output, kept after success too.
VX_LOGS=${VX_LOGS:-$VX_CACHE/logs}
# Compiles go through ccache when it is installed (scripts/host-deps.sh),
# the Makefile's compilers and the module's (build-module.sh): its cache
# sits beside the others, and paths under the checkout are hashed relative
# to it, so a fresh clone compiles only what no clone compiled before
# (issue 34: the warm run's build was 173 CPU-s of a fresh clone's
# 1751).  VX_CCACHE= (empty) turns it off.
if [ -z "${VX_CCACHE+set}" ]; then
	VX_CCACHE=$(command -v ccache || true)
fi
export VX_CCACHE CCACHE_DIR=${CCACHE_DIR:-$VX_CACHE/ccache}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$VX_TOP} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}

vx_log() { printf '[%s] %s\n' "${VX_STAGE:-bench}" "$*" >&2; }
vx_die() { vx_log "error: $*"; exit 1; }

# vx_usage MIN "$@": each script's first step.  -h or --help as the first
# argument prints the script's header comment (vx_help) and exits 0;
# fewer than MIN arguments print it to stderr and exit 1.  So neither
# starts the script's work or dies on an unset "$1".
vx_usage() {
	local min=$1
	shift
	case ${1:-} in
	-h|--help) vx_help; exit 0 ;;
	esac
	[ $# -ge "$min" ] || { vx_help >&2; exit 1; }
}

# vx_help: the running script's header comment, its usage among it,
# without the '#'s and the SPDX and shellcheck lines.
vx_help() {
	awk 'NR == 1 || /SPDX-License|shellcheck/ { next } !/^#/ { exit }
		{ sub(/^# ?/, "") } $0 != "" || n { print; n++ }' "$0"
}

# vx_stage NAME CMD...: run a stage and print how long it took.  On a
# terminal a ticker shows the stage's elapsed time meanwhile; vx_run stops
# it while drawing a step's own progress.
vx_stage() {
	local name=$1 start ms rc cpu tick='' errexit=+e
	shift
	[[ $- != *e* ]] || errexit=-e
	start=$(date +%s%3N)
	vx_child_cpu
	cpu=$vx_cpu_ms
	# Stages run side by side (VX_NO_TICKER=1) share the terminal: no ticker.
	if [ -t 2 ] && [ -z "${VX_NO_TICKER:-}" ]; then
		VX_STAGE=$name vx_watch '' "$name" > /dev/null &
		tick=$!
	fi
	# A failed stage still stops its ticker and reports its time.
	set +e
	VX_STAGE=$name VX_TICKER=$tick "$@"
	rc=$?
	set "$errexit"
	[ -z "$tick" ] || vx_unwatch "$tick"
	ms=$(( $(date +%s%3N) - start ))
	vx_child_cpu
	cpu=$((vx_cpu_ms - cpu))
	printf '[time] %-14s %4d.%d s (cpu %d s)\n' "$name" $((ms / 1000)) $((ms % 1000 / 100)) \
		$((cpu / 1000)) >&2
	return $rc
}

# vx_child_cpu: sets vx_cpu_ms to the milliseconds of CPU (user and
# system) used so far by this shell's ended children: bash's `times`,
# second line, run in this shell (a command substitution's subshell
# would count its own).
vx_child_cpu() {
	local f=${TMPDIR:-/tmp}/vx-times.$BASHPID
	times > "$f"
	read -r vx_cpu_ms < <(awk 'NR == 2 {
		t = 0
		for (i = 1; i <= 2; i++) {
			split($i, a, /[ms]/)
			t += a[1] * 60 + a[2]
		}
		printf "%d\n", t * 1000
	}' "$f")
	rm -f "$f"
}

# vx_idle_cpus SECONDS: prints how much of the host's CPUs was idle
# over the next SECONDS, in hundredths of a CPU (150: one and a half
# CPUs), from /proc/stat's idle and iowait columns.
vx_idle_cpus() {
	local a b
	a=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
	sleep "$1"
	b=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
	awk -v a="$a" -v b="$b" -v cpus="$(nproc)" 'BEGIN {
		split(a, x, " "); split(b, y, " ")
		t = y[2] - x[2]
		print (t > 0) ? int(100 * cpus * (y[1] - x[1]) / t) : 100 * cpus
	}'
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

# vx_make_var NAME: make variable NAME of this checkout (`make print-NAME`),
# from any directory.  Under `make -C DIR check` make's -w reaches every
# nested make through MAKEFLAGS, and its "Entering directory" lines would
# be read as part of the value without --no-print-directory.
vx_make_var() { make -s --no-print-directory -C "$VX_TOP" "print-$1"; }

# vx_join WORD...: "a, b, c".
vx_join() {
	local s
	s=$(printf '%s, ' "$@")
	echo "${s%, }"
}

# vx_run LOG WHAT CMD...: say WHAT and where LOG is, run CMD (a command or a
# function, under set -e) with all its output in LOG, showing its progress
# meanwhile (vx_watch).  On failure: vx_fail, with $VX_FAIL_ERE if set.
vx_run() {
	local log=$1 what=$2 rc wpid errexit=+e
	shift 2
	[[ $- != *e* ]] || errexit=-e
	mkdir -p "${log%/*}"
	: > "$log"
	if [ -n "${VX_TICKER:-}" ]; then
		kill -STOP "$VX_TICKER" 2>/dev/null || true
		[ ! -t 2 ] || printf '\r\033[K' >&2
	fi
	vx_log "$what (log: ${log/#$HOME/\~})"
	vx_watch "$log" "$what" > /dev/null &
	wpid=$!
	# set -e does not reach into a function called from a condition.
	set +e
	(set -e; "$@") > "$log" 2>&1 < /dev/null
	rc=$?
	set "$errexit"
	vx_unwatch "$wpid"
	[ "$rc" -eq 0 ] || vx_fail "$log" "$what failed (exit $rc)" "${VX_FAIL_ERE:-}"
	[ -z "${VX_TICKER:-}" ] || kill -CONT "$VX_TICKER" 2>/dev/null || true
}

# vx_linux_source KIND WHAT TAR-ARGS...: the files TAR-ARGS name, extracted
# from Debian's linux-source-6.12 (tar -xvf ... TAR-ARGS) into the cache as
# $VX_CACHE/KIND/<package version>, once; prints that directory.  WHAT
# says what is extracted; the log is $VX_LOGS/KIND.log.
vx_linux_source() {
	local kind=$1 what=$2 ver entry tmp
	shift 2
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) ||
		vx_die "linux-source-6.12 is not installed (scripts/host-deps.sh)"
	entry=$VX_CACHE/$kind/$ver
	if ! vx_cached "$entry"; then
		mkdir -p "$VX_CACHE/$kind"
		tmp=$(mktemp -d "$VX_CACHE/$kind/.tmp.XXXXXX")
		# shellcheck disable=SC2064  # $tmp is fixed now
		trap "rm -rf '$tmp'" EXIT
		vx_run "$VX_LOGS/$kind.log" "extracting $what from linux-source-6.12" \
			tar -C "$tmp" -xvf /usr/src/linux-source-6.12.tar.xz "$@"
		trap - EXIT
		vx_publish "$tmp" "$entry"
	fi
	echo "$entry"
}

# vx_fail LOG MSG [ERE]: show what a failure needs (LOG's lines matching ERE
# with their context, or else its last 40 lines), then LOG's path, and die.
vx_fail() {
	local log=$1 msg=$2 ere=${3:-}
	if [ -n "$ere" ] && grep -qE "$ere" "$log"; then
		vx_log "--- $log, lines matching '$ere' ---"
		grep -E -B2 -A8 "$ere" "$log" | head -n 60 >&2
	else
		vx_log "--- $log, last 40 lines ---"
		tail -n 40 "$log" >&2
	fi
	vx_die "$msg (full log: $log)"
}

# vx_watch LOG WHAT: until killed, show how the step writing LOG (if any)
# gets on.  On a terminal: one line redrawn every second with the elapsed
# time, so a long step never looks hung; the cursor is left at its start
# so that other output overwrites it.  Elsewhere (CI): a line at every
# tenth of a counted build, and nothing for apt, whose steps are short.
vx_watch() {
	local log=$1 what=$2 start=$SECONDS cols tenth=0 pct text t
	trap 'exit 0' TERM
	cols=$(stty size <&2 2>/dev/null | cut -d' ' -f2) || true
	# Checked after the sleep: never draw once the script is gone.
	while sleep 1 & wait $!; kill -0 $$ 2>/dev/null; do
		pct='' text=''
		[ -z "$log" ] || IFS='|' read -r pct text < <(vx_progress "$log") || true
		t=$((SECONDS - start))
		printf -v t '%d:%02d' $((t / 60)) $((t % 60))
		if [ -t 2 ]; then
			printf '\r\033[K%.*s\r' $((${cols:-80} - 1)) \
				"[${VX_STAGE:-bench}] ${pct:+$pct% }${text:+$text  }$t" >&2
		elif [ -n "$pct" ] && [ $((pct / 10)) -gt $tenth ]; then
			tenth=$((pct / 10))
			vx_log "$what: $pct% $text after $t"
		fi
	done
}

# vx_unwatch PID: stop a vx_watch (even a stopped one) and clear its line.
vx_unwatch() {
	kill -TERM "$1" 2>/dev/null || true
	kill -CONT "$1" 2>/dev/null || true
	wait "$1" || true
	[ ! -t 2 ] || printf '\r\033[K' >&2
}

# vx_progress LOG: "PCT|TEXT" from LOG's last progress line: ninja's
# "[N/M]", apt's -o APT::Status-Fd=1 lines, or a script's own "vx: TEXT".
# PCT stays empty for apt, whose percentage starts again with each phase
# (download, install).
vx_progress() {
	local line n m p
	line=$(tac "$1" 2>/dev/null | grep -m1 -E '^\[[0-9]+/[0-9]+\]|^(dl|pm)status:|^vx: ') || true
	case $line in
	vx:*)
		echo "|${line#vx: }" ;;
	\[*)
		n=${line#\[} m=${line#*/}
		n=${n%%/*} m=${m%%]*}
		printf '%d|[%d/%d]\n' $((n * 100 / m)) "$n" "$m" ;;
	*status:*)
		IFS=: read -r _ _ p line <<< "$line"
		printf '|%d%% %s\n' "${p%.*}" "$line" ;;
	esac
}

# vx_apt_download DEST ARGS...: apt-get ARGS (download, source ...) in a
# scratch directory that apt's sandbox user can write, then move what it
# fetched to DEST.  Root's cache is closed to _apt, and apt would warn that
# it downloads unsandboxed.
vx_apt_download() {
	local dest=$1 dir rc=0
	shift
	dir=$(mktemp -d /tmp/vx-apt.XXXXXX)
	if [ "$(id -u)" -eq 0 ] && id _apt > /dev/null 2>&1; then
		chown _apt "$dir"
	elif [ "$(id -u)" -eq 0 ]; then
		set -- -o APT::Sandbox::User=root "$@"
	fi
	(cd "$dir" && apt-get -q -o APT::Status-Fd=1 "$@") || rc=$?
	find "$dir" -maxdepth 1 -type f -exec mv -t "$dest" {} +
	rm -rf "$dir"
	return $rc
}
