#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The tools as a person runs them in the guest's busybox shell, printing TAP:
#  - vortex-gdbserver with a program that cannot start, or that ends
#    before its first job, says so at once (well before its 30 s wait for
#    the first halt) and exits 1 (setup error, vortex-gdbserver.c);
#  - the README's command that discards a crash dump works as written in
#    busybox sh (no globbing of a redirection's target there): the line
#    below is copied from README.md by the build (@README_DISCARD@).
PATH=/bin:/vortex/bin:$PATH
n=0 fails=0
ok() {	# cond-status name [diag]
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		fails=$((fails + 1))
		[ -n "$3" ] && echo "$3" | sed 's/^/# /'
	fi
}
echo "TAP version 13"
echo "1..5"

# gdbserver PROGRAM...: runs it, sets rc, secs, err
gdbserver() {
	t0=$(date +%s)
	err=$(vortex-gdbserver --listen 127.0.0.1:0 -- "$@" 2>&1)
	rc=$?
	secs=$(($(date +%s) - t0))
}
gdbserver /vortex/nosuchprog
echo "$err" | grep -q "starting /vortex/nosuchprog: No such file or directory"
ok $(( $? || rc != 1 || secs > 5 )) \
	"gdbserver: a program that cannot be run is said at once, exit 1 (rc $rc, ${secs}s)" "$err"
gdbserver true
echo "$err" | grep -q "the program exited with status 0 before its first job halted"
ok $(( $? || rc != 1 || secs > 5 )) \
	"gdbserver: a program that ends without a job is said at once, exit 1 (rc $rc, ${secs}s)" "$err"

# A dump to discard: hang.elf times out (the guest's job timeout is 2 s).
for d in /sys/class/devcoredump/devcd*/data; do [ -e "$d" ] && echo 1 > "$d"; done
vortex-run /vortex/kernels/hang.elf > /tmp/hang.log 2>&1
ls /sys/class/devcoredump/ | grep -q devcd
ok $? "a hung job left a crash dump" "$(cat /tmp/hang.log)"
out=$(sh -c '@README_DISCARD@' 2>&1)
ok $? "README's discard command runs in busybox sh" "$out"
sleep 0.5
left=$(ls /sys/class/devcoredump/ | grep devcd)
[ -z "$left" ]
ok $? "... and discards the dump" "$left"
[ $fails -eq 0 ]
