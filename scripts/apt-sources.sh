#!/bin/bash
# Adds the Debian entries the bench needs: bookworm-backports (meson, qemu
# source, newer kernels) with deb-src, and bookworm-security when the machine
# lacks it.  Refreshes apt's lists at most once an hour.
set -euo pipefail
key=/usr/share/keyrings/debian-archive-keyring.gpg
file=/etc/apt/sources.list.d/vortex-bench.sources
entry() {	# types uri suite
	printf 'Types: %s\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n\n' \
		"$1" "$2" "$3" "$key"
}
want=$(entry "deb deb-src" http://deb.debian.org/debian bookworm-backports)
if ! grep -rqs 'bookworm-security' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
	$(ls /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v vortex-bench); then
	# deb822 stanzas need a blank line between them.
	want+=$'\n\n'$(entry deb http://deb.debian.org/debian-security bookworm-security)
fi
stamp=/var/lib/apt/vortex-bench.stamp
if [ ! -f "$file" ] || [ "$(cat "$file")" != "$want" ]; then
	printf '%s\n' "$want" > "$file"
	rm -f "$stamp"
fi
if [ -z "$(find "$stamp" -mmin -60 2>/dev/null)" ]; then
	apt-get update -qq
	touch "$stamp"
fi
