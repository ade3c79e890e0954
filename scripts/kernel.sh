#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetches a Debian kernel image (and, for 6.12, its headers) into the cache
# (dpkg -x, nothing is installed on the host) and prints the cache entry.
#
#   kernel.sh [--series 6.12|newest]            fetch if needed, print the entry
#   kernel.sh [--series 6.12|newest] --version  print the version that would be used
#
# --series 6.12 (the default): the newest 6.12.N+deb12 for which the host's
# apt (bookworm-backports, scripts/apt-sources.sh) has both the image and
# the headers; VX_KERNEL_VERSION=6.12.N+deb12 pins one.
#
# --series newest: Debian's newest kernel, picked at run time (docs/kernels.md):
# of every linux-image-V+debN-amd64 (no -rt, -cloud, -dbg, -unsigned) in
# trixie-backports and sid that has its linux-headers-V+debN-amd64 in the
# same suite, the highest V+debN by `sort -V`.  Those suites are read with a
# private apt state in the cache ($VX_CACHE/apt-newest); the host's apt
# sources are left alone.  VX_NEWEST_VERSION=V+debN pins one.  Its headers
# need the suite's libc and gcc, so they live in a build root
# (scripts/buildroot.sh), not in this entry.
#
# Entry layout: vmlinuz, modules/ (lib/modules/<kver>), version, suite, and
# for 6.12 headers/ (a KDIR that runs on the host).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"

series=6.12 want_version=0
while [ $# -gt 0 ]; do
	case $1 in
	--series) series=$2; shift 2 ;;
	--version) want_version=1; shift ;;
	*) vx_die "usage: kernel.sh [--series 6.12|newest] [--version]" ;;
	esac
done

apt_cmd=(apt-get) cache_cmd=(apt-cache)
case $series in
6.12)
	pin=${VX_KERNEL_VERSION:-}
	ver_ere='6\.12\.[0-9]+\+deb12[.0-9]*'
	;;
newest)
	pin=${VX_NEWEST_VERSION:-}
	ver_ere='[0-9]+\.[0-9]+\.[0-9]+\+deb[0-9]+'
	# apt with its own sources, lists and (empty) dpkg status: the host's
	# sources and preferences play no part.
	adir=$VX_CACHE/apt-newest
	aopts=(-o "Dir::Etc::SourceList=$adir/sources.list" -o "Dir::Etc::SourceParts=$adir/empty"
		-o "Dir::Etc::Preferences=$adir/empty/none" -o "Dir::Etc::PreferencesParts=$adir/empty"
		-o "Dir::State=$adir/state" -o "Dir::State::status=$adir/status"
		-o "Dir::Cache=$adir/cache" -o APT::Architecture=amd64 -o APT::Architectures=amd64
		-o Acquire::Languages=none -o APT::Sandbox::User=root)
	apt_cmd=(apt-get "${aopts[@]}") cache_cmd=(apt-cache "${aopts[@]}")
	mkdir -p "$adir/empty" "$adir/state/lists/partial" "$adir/cache/archives/partial"
	touch "$adir/status"
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	sources=""
	for s in trixie-backports sid; do
		sources+="deb [signed-by=$key] http://deb.debian.org/debian $s main"$'\n'
	done
	if [ "$(cat "$adir/sources.list" 2>/dev/null)"$'\n' != "$sources" ]; then
		printf '%s' "$sources" > "$adir/sources.list"
		rm -f "$adir/stamp"
	fi
	# Refreshed at most once an hour, as scripts/apt-sources.sh does; not
	# at all for a pinned version already in the cache.
	if { [ -z "$pin" ] || ! vx_cached "$VX_CACHE/kernel/$pin-amd64"; } &&
	   [ -z "$(find "$adir/stamp" -mmin -60 2>/dev/null)" ]; then
		vx_run "$VX_LOGS/apt-newest.log" "reading trixie-backports and sid's package lists" \
			"${apt_cmd[@]}" update -q
		touch "$adir/stamp"
	fi
	;;
*)
	vx_die "unknown series $series (6.12 or newest)" ;;
esac

pick_version() {
	if [ -n "$pin" ]; then
		echo "$pin"
		return
	fi
	local images headers
	images=$("${cache_cmd[@]}" pkgnames linux-image- | sed -En "s/^linux-image-($ver_ere)-amd64$/\1/p")
	headers=$("${cache_cmd[@]}" pkgnames linux-headers- | sed -En "s/^linux-headers-($ver_ere)-amd64$/\1/p")
	comm -12 <(sort -u <<<"$images") <(sort -u <<<"$headers") | sort -V | tail -n 1
}

ver=$(pick_version)
[ -n "$ver" ] || vx_die "no linux-image-$series*-amd64 with matching headers in apt (run scripts/apt-sources.sh)"
if [ "$want_version" = 1 ]; then
	echo "$ver"
	exit 0
fi

kver=$ver-amd64
entry=$VX_CACHE/kernel/$kver
if vx_cached "$entry"; then
	echo "$entry"
	exit 0
fi

# The suite the image comes from ("bookworm-backports", "sid", ...).
suite=$("${cache_cmd[@]}" madison "linux-image-$kver" | awk -F'|' 'NR == 1 { split($3, a, " "); split(a[2], b, "/"); print b[1] }')

# Downloads the image (with, from 7.x on, the linux-binary, -modules and
# -base packages its meta package depends on) and, for 6.12, the headers
# with their -common half and the kbuild tools, and unpacks them into
# DIR/root.
fetch() {	# DIR
	local pkgs=("linux-image-$kver") kbuild common deb name
	mapfile -t -O 1 pkgs < <("${cache_cmd[@]}" depends "linux-image-$kver" |
		sed -En "s/^ *Depends: (linux-[a-z]+-${kver//+/\\+})$/\1/p" | sort -u)
	if [ "$series" = 6.12 ]; then
		kbuild=$("${cache_cmd[@]}" depends "linux-headers-$kver" | sed -n 's/.*Depends: \(linux-kbuild-6\.12[^ ]*\).*/\1/p' | head -n 1)
		common=$("${cache_cmd[@]}" depends "linux-headers-$kver" | sed -n 's/.*Depends: \(linux-headers-[^ ]*-common\).*/\1/p' | head -n 1)
		pkgs+=("linux-headers-$kver" "$common" "$kbuild")
	fi
	vx_apt_download "$1" "${apt_cmd[@]:1}" download "${pkgs[@]}"
	mkdir "$1/root"
	for deb in "$1"/*.deb; do
		name=${deb##*/}
		echo "vx: unpacking ${name%%_*}"
		dpkg -x "$deb" "$1/root"
	done
}

mkdir -p "$VX_CACHE/kernel"
tmp=$(mktemp -d "$VX_CACHE/kernel/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
vx_run "$VX_LOGS/kernel-$series.log" "fetching Debian kernel $kver ($suite)" fetch "$tmp"
r=$tmp/root
# Merged /usr (trixie on): the modules are in usr/lib/modules.  depmod and
# the entry want lib/modules.
if [ ! -d "$r/lib/modules/$kver" ] && [ -d "$r/usr/lib/modules/$kver" ]; then
	mkdir -p "$r/lib"
	ln -s ../usr/lib/modules "$r/lib/modules"
fi
[ -d "$r/lib/modules/$kver" ] || vx_die "no lib/modules/$kver in the $kver packages"
# boot/vmlinuz-<kver>, or from 7.x on the image beside its modules.
vmlinuz=boot/vmlinuz-$kver
[ -f "$r/$vmlinuz" ] || vmlinuz=lib/modules/$kver/vmlinuz
[ -f "$r/$vmlinuz" ] || vx_die "no vmlinuz in the $kver packages"
if [ "$series" = 6.12 ]; then
	hdr=usr/src/linux-headers-$kver
	common=$(cd "$r/usr/src" && ls -d linux-headers-*-common)
	# Debian's headers Makefile includes its -common half by absolute path;
	# make it relative (kbuild runs make with the headers as its directory)
	# so the entry works wherever the cache lives.
	sed -i "s|^include /usr/src/$common/|include ../$common/|" "$r/$hdr/Makefile"
	grep -q "^include ../$common/Makefile" "$r/$hdr/Makefile" ||
		vx_die "unexpected layout of $hdr/Makefile"
	if find "$r/usr/src" -lname '/*' | grep -q .; then
		vx_die "absolute symlinks in the headers: $(find "$r/usr/src" -lname '/*' | head -n 3)"
	fi
	ln -s "root/$hdr" "$tmp/headers"
fi
ln -s "root/lib/modules/$kver" "$tmp/modules"
ln -s "root/$vmlinuz" "$tmp/vmlinuz"
# The package leaves modules.dep to depmod at install time.
depmod -b "$r" "$kver"
rm -f "$r/lib/modules/$kver/build" "$r/lib/modules/$kver/source" "$tmp"/*.deb
echo "$ver" > "$tmp/version"
echo "$suite" > "$tmp/suite"
trap - EXIT
vx_publish "$tmp" "$entry"
echo "$entry"
