#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The tools as a person runs them in the guest's busybox shell, printing TAP:
#  - vortex-gdbserver with a program that cannot start, or that ends
#    before its first job, says so at once (well before its 30 s wait for
#    the first halt) and exits 1 (setup error, vortex-gdbserver.c);
#  - the README's command that discards a crash dump works as written in
#    busybox sh (no globbing of a redirection's target there): the line
#    below is copied from README.md by the build (@README_DISCARD@);
#  - vortex-run runs a Vortex binary with an argument file as Vortex's
#    runtime does (issue 24): every task's printf, as "#slot: line"
#    (upstream runtime prints per IO_COUT slot), the argument block written
#    back byte for byte with --out, and clear failures for a missing or
#    malformed binary;
#  - the reference collector (vortex-dump-collector, issue 26): started as
#    the README says (the line is copied from README.md by the build,
#    @README_COLLECT@) it saves a hang's dump whole in /var/crash/vortex
#    and frees the card's slot; the command its udev rule runs (copied
#    from the rule file the build installs, %p the dump's devpath as udev
#    gives it) does the same with the next failure's dump.
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
# until CMD...: true once CMD succeeds, polled every 0.1 s for 30 s at most.
until_true() {
	i=0
	while [ $i -lt 300 ]; do
		"$@" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# Hangs in milliseconds (issue 34 §4), made as selftests/vortex_test_hooks.h's
# vx_hang_begin() and vx_hang_declared() make them: no check here is about
# the driver's default job timeout (2 s), so a hung vortex-run's job runs
# under 20 ms, and hang_gate holds its timeout, once due, while the old
# value goes back, before the capture: the dump's copy budget (half the
# timeout in force) and every job after it are the default's, as in a
# person's hang.  A module without the test gates
# (CONFIG_DRM_ACCEL_VORTEX_DEBUG) waits the default out.
hang_gate=/sys/kernel/debug/accel/$(basename "$(readlink /sys/class/accel/accel0/device)")/hang_gate
timeout_ms=/sys/module/vortex/parameters/job_timeout_ms
old_timeout_ms=
gate_is() { [ "$(cat "$hang_gate" 2> /dev/null)" = "$1" ]; }
# Puts job_timeout_ms back if lowered and opens hang_gate if armed
# (vx_hang_restore()); also on exit, so no later program inherits 20 ms.
hang_restore() {
	[ -n "$old_timeout_ms" ] && echo "$old_timeout_ms" > $timeout_ms
	old_timeout_ms=
	[ -e "$hang_gate" ] && ! gate_is off && echo open > "$hang_gate"
}
trap hang_restore EXIT
# hang_run ARG...: vortex-run ARG..., whose job hangs; returns once the
# card has recovered.
hang_run() {
	if ! [ -e "$hang_gate" ] || ! echo arm > "$hang_gate"; then
		vortex-run "$@"
		return
	fi
	old_timeout_ms=$(cat $timeout_ms)
	echo 20 > $timeout_ms
	vortex-run "$@" &
	run_pid=$!
	until_true gate_is waiting
	hang_restore
	wait $run_pid
}

echo "TAP version 13"
echo "1..16"

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

# A dump to discard: hang.elf times out.
for d in /sys/class/devcoredump/devcd*/data; do [ -e "$d" ] && echo 1 > "$d"; done
hang_run /vortex/kernels/hang.elf > /tmp/hang.log 2>&1
ls /sys/class/devcoredump/ | grep -q devcd
ok $? "a hung job left a crash dump" "$(cat /tmp/hang.log)"
out=$(sh -c '@README_DISCARD@' 2>&1)
ok $? "README's discard command runs in busybox sh" "$out"
sleep 0.5
left=$(ls /sys/class/devcoredump/ | grep devcd)
[ -z "$left" ]
ok $? "... and discards the dump" "$left"

# A Vortex binary with an argument file: vxs_hello's block is one word, n.
printf '\100\000\000\000' > /tmp/n64
vortex-run -o /tmp/n64.out /vortex/kernels/vxs_hello.vxbin /tmp/n64 > /tmp/hello.log 2>&1
rc=$?
tasks=$(grep -o '^#[0-9]*: task [0-9]*$' /tmp/hello.log | sed 's/.*task //' | sort -u)
[ $rc -eq 0 ] && [ "$(echo "$tasks" | wc -l)" -eq 64 ] &&
	[ "$(echo "$tasks" | head -1)" = 0000 ] && [ "$(echo "$tasks" | tail -1)" = 0063 ]
ok $? "vortex-run PROGRAM.vxbin ARGFILE: 64 tasks print, each once (rc $rc)" "$(cat /tmp/hello.log)"
grep -q '^/vortex/kernels/vxs_hello.vxbin: started at 0x80000000, argument block of 4 bytes at 0x' /tmp/hello.log
ok $? "... it starts at Vortex's STARTUP_ADDR with the argument block" "$(head -3 /tmp/hello.log)"
cmp /tmp/n64 /tmp/n64.out
ok $? "... and --out writes the argument block back"
err=$(vortex-run /vortex/kernels/nosuch.vxbin 2>&1)
rc=$?
echo "$err" | grep -q 'cannot upload /vortex/kernels/nosuch.vxbin: No such file'
ok $(( $? || rc != 1 )) "vortex-run: a missing Vortex binary is named, exit 1 (rc $rc)" "$err"
# max_vma below min_vma: not a Vortex binary
printf '\000\000\000\200\000\000\000\000\000\000\000\000\000\000\000\000\023\000\000\000' > /tmp/bad.vxbin
err=$(vortex-run /tmp/bad.vxbin 2>&1)
rc=$?
echo "$err" | grep -q 'cannot upload /tmp/bad.vxbin: '
ok $(( $? || rc != 1 )) "vortex-run: a malformed Vortex binary is refused, exit 1 (rc $rc)" "$err"

no_dump() { ! ls /sys/class/devcoredump/ 2> /dev/null | grep -q devcd; }
# one_file DIR: the only dump file saved in DIR, or nothing
one_file() { [ "$(ls "$1" | wc -l)" -eq 1 ] && ls "$1"/vortex-*-devcd*.devcd; }

for d in /sys/class/devcoredump/devcd*/data; do [ -e "$d" ] && echo 1 > "$d"; done
until_true no_dump
rm -rf /var/crash/vortex
# README's command as written; its output kept, its pid taken from $!.
(
	@README_COLLECT@
	echo $! > /tmp/coll.pid
) > /tmp/coll.out 2> /tmp/coll.err
until_true grep -q 'watching for crash dumps' /tmp/coll.err
ok $? "README's collector command starts it watching" "$(cat /tmp/coll.err)"
hang_run /vortex/kernels/hang.elf > /tmp/hang.log 2>&1
saved() { f=$(one_file /var/crash/vortex) && no_dump; }
until_true saved
[ -n "$f" ] && grep -q '^error: timeout$' "$f" && vortex-coredump --check "$f" > /dev/null
ok $? "... it saves a hang's dump whole in /var/crash/vortex, named vortex-CARD-TIME-devcdN" \
	"$(ls -l /var/crash/vortex; cat /tmp/coll.err)"
no_dump
ok $? "... and frees the card's slot" "$(ls /sys/class/devcoredump/)"
kill "$(cat /tmp/coll.pid)"
rm -rf /var/crash/vortex

# The udev rule's command, as written in the rule the build installs.
cmd=$(sed -n 's/^ACTION=="add", SUBSYSTEM=="devcoredump", RUN+="\(.*\)"$/\1/p' /vortex/70-vortex-coredump.rules)
[ -n "$cmd" ]
ok $? "the udev rule runs: $cmd" "$(cat /vortex/70-vortex-coredump.rules)"
hang_run /vortex/kernels/hang.elf > /tmp/hang.log 2>&1
devcd=$(ls -d /sys/class/devcoredump/devcd* 2> /dev/null | head -1)
devpath=$(readlink -f "$devcd")
devpath=${devpath#/sys}
out=$(sh -c "$(echo "$cmd" | sed "s|%p|$devpath|")" 2>&1)
rc=$?
f=$(one_file /var/crash/vortex)
[ -n "$devcd" ] && [ $rc -eq 0 ] && [ -n "$f" ] && [ "$out" = "$f" ] &&
	grep -q '^error: timeout$' "$f" && vortex-coredump --check "$f" > /dev/null
ok $? "... for the next failure's dump ($devpath): saved in /var/crash/vortex (rc $rc)" \
	"$out; $(ls -l /var/crash/vortex)"
until_true no_dump
ok $? "... and the slot is free again" "$(ls /sys/class/devcoredump/)"
[ $fails -eq 0 ]
