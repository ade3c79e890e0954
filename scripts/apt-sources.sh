#!/bin/bash
# Adds the Debian entries the bench needs: bookworm-backports (meson, qemu
# source, newer kernels) with deb-src, and bookworm-security when the machine
# lacks it.  Refreshes apt's lists at most once an hour.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"
key=/usr/share/keyrings/debian-archive-keyring.gpg
file=/etc/apt/sources.list.d/vortex-bench.sources
entry() {	# types uri suite
	printf 'Types: %s\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n\n' \
		"$1" "$2" "$3" "$key"
}
want=$(entry "deb deb-src" http://deb.debian.org/debian bookworm-backports)
# Every entry but our own.
others=(/etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources)
if ! grep -qs 'bookworm-security' "${others[@]/"$file"}"; then
	# deb822 stanzas need a blank line between them.
	want+=$'\n\n'$(entry deb http://deb.debian.org/debian-security bookworm-security)
fi
stamp=/var/lib/apt/vortex-bench.stamp
if [ ! -f "$file" ] || [ "$(cat "$file")" != "$want" ]; then
	printf '%s\n' "$want" > "$file"
	rm -f "$stamp"
fi
if [ -z "$(find "$stamp" -mmin -60 2>/dev/null)" ]; then
	vx_run "$VX_LOGS/apt-update.log" "refreshing apt's package lists" \
		apt-get update -q -o APT::Status-Fd=1
	touch "$stamp"
fi
