#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/ccache-cc.sh, the Makefile's compiler prefix under ccache, with
# a ccache that logs what it is given and runs it:
#  - a compile-and-link of two sources, an archive and -lm gives the
#    program the plain command gives (same output, same code), through
#    one `-c` per source in ccache, none of them with what only the link
#    reads;
#  - a compile goes to ccache exactly as written;
#  - a link of objects alone and a query (-dumpmachine) run the compiler
#    as written, without ccache;
#  - a source that does not compile fails the command and writes no
#    program; the objects it made are removed either way.
# Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
echo "TAP version 13"
# shellcheck source=tap-lib.sh
. "$top/scripts/tests/tap-lib.sh"
command -v gcc > /dev/null || { echo "1..0 # SKIP no gcc"; exit 0; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$t" || exit 1

cat > fake-ccache <<EOF
#!/bin/bash
printf '%s\n' "\$*" >> $t/ccache.log
exec "\$@"
EOF
chmod +x fake-ccache
export VX_CCACHE=$t/fake-ccache TMPDIR=$t/tmp
mkdir "$TMPDIR"
cc=$top/scripts/ccache-cc.sh

cat > main.c <<'EOF'
#include <math.h>
#include <stdio.h>
int twice(int);
int lib(void);
int main(void) { printf("%d %d %.3f\n", twice(21), lib(), sqrt(2.0)); return 0; }
EOF
echo 'int twice(int x) { return 2 * x; }' > twice.c
echo 'int lib(void) { return 7; }' > lib.c
gcc -c -o lib.o lib.c && ar rcs lib.a lib.o

flags=(-O2 -g -Wall -DWHO=1 -I "$t")
gcc "${flags[@]}" -static -o plain main.c twice.c lib.a -lm
"$cc" gcc "${flags[@]}" -static -o split main.c twice.c lib.a -lm
rc=$?
ok $rc "a compile-and-link exits 0"
out=$(./split 2>&1)
ok "$([ "$out" = "42 7 1.414" ] && echo 0 || echo 1)" "the program it links runs as written" "$out"
ok "$([ "$out" = "$(./plain)" ] && echo 0 || echo 1)" "it prints what the plain command's program prints"
code() { objdump -d --no-show-raw-insn "$1" | awk '/<(main|twice|lib)>:/,/^$/' | sed 's/^ *[0-9a-f]*://'; }
d=$(diff <(code plain) <(code split))
ok "$([ -z "$d" ] && echo 0 || echo 1)" "main, twice and lib are the same code" "$d"
log=$(cat ccache.log)
ok "$([ "$(grep -c -- ' -c ' ccache.log)" = 2 ] && [ "$(wc -l < ccache.log)" = 2 ] && echo 0 || echo 1)" \
	"ccache is given two compiles, nothing else" "$log"
ok "$(grep -q -- '-c -o .*main\.o main\.c$' ccache.log && grep -q -- '-c -o .*twice\.o twice\.c$' ccache.log &&
	echo 0 || echo 1)" "one source each, to an object of its own" "$log"
ok "$(grep -qE -- ' (-lm|-static|lib\.a)( |$)' ccache.log && echo 1 || echo 0)" \
	"no compile is given what only the link reads" "$log"
ok "$(grep -c -- '-O2 -g -Wall -DWHO=1 -I '"$t"' -c' ccache.log | grep -qx 2 && echo 0 || echo 1)" \
	"each compile keeps the flags, in order" "$log"

: > ccache.log
"$cc" gcc -O2 -c -o twice.o twice.c
ok "$([ "$(cat ccache.log)" = "gcc -O2 -c -o twice.o twice.c" ] && [ -s twice.o ] && echo 0 || echo 1)" \
	"a compile goes to ccache as written" "$(cat ccache.log)"
: > ccache.log
gcc -c -o main.o main.c
"$cc" gcc -o linked main.o twice.o lib.a -lm
ok "$([ "$(./linked)" = "42 7 1.414" ] && [ ! -s ccache.log ] && echo 0 || echo 1)" \
	"a link of objects runs the compiler alone" "$(cat ccache.log)"
m=$("$cc" gcc -dumpmachine)
ok "$([ "$m" = "$(gcc -dumpmachine)" ] && [ ! -s ccache.log ] && echo 0 || echo 1)" \
	"-dumpmachine answers as the compiler does" "$m"

echo 'int broken(void) { return }' > broken.c
"$cc" gcc -o bad main.c broken.c 2> err.log
rc=$?
ok "$([ $rc -ne 0 ] && [ ! -e bad ] && echo 0 || echo 1)" \
	"a source that does not compile fails it, with no program" "rc=$rc"
left=$(ls -A "$TMPDIR")
ok "$([ -z "$left" ] && echo 0 || echo 1)" "its objects are gone, after a failure too" "$left"
echo "1..$n"
[ "$fails" -eq 0 ]
