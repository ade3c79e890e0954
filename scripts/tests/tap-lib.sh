# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034  # sourced; the tests read fails
# Sourced by the shell tests of scripts/tests: their TAP lines.

n=0 fails=0
# ok STATUS NAME [DIAG]: "ok N NAME" when STATUS is 0, else "not ok N NAME"
# with DIAG's last 20 lines as comments.
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		fails=$((fails + 1))
		[ -z "${3:-}" ] || echo "$3" | tail -20 | sed 's/^/# /'
	fi
}
