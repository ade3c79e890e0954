#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Collects TAP from host test binaries and guest boots into one verdict.

Inputs:
  --host NAME=FILE          TAP printed by one host test binary; FILE.rc holds
                            its exit status
  --guest NAME=RESULTS,CONSOLE
                            a guest boot: the framed results channel and the
                            console log (see scripts/guest/init)
  --expect SUITE            a suite the run must contain, named as the
                            verdict names it: host/NAME, a boot NAME, or a
                            boot's test program NAME/PROGRAM (repeatable).
                            One that reported nothing is a failure, so a
                            wrong test filter or a program that never
                            started cannot make a shorter run look green.
Prints every failure with its context, a line per suite, and closes with
'N passed, N failed, N skipped'.  Exit status 1 if anything failed.
"""
import argparse
import os
import re
import sys

RESULT = re.compile(r'^(not ok|ok)\s+\d+\s+(.*?)(?:\s+#\s*(SKIP|skip|TODO|XFAIL)\b.*)?$')
PLAN = re.compile(r'^1\.\.(\d+)')
# kselftest_harness.h's "# file.c:LINE:test:message" lines
ASSERTION = re.compile(r'^#\s+\S+\.c:\d+:')
DIAG_LINES = 8
# Any kernel report fails a boot.  The debug kernel's checkers
# (docs/debug-kernel.md) print theirs as "BUG: KASAN: ...", "BUG: sleeping
# function called from invalid context", lockdep's "WARNING: possible
# circular locking dependency detected" and the like, ODEBUG through WARN,
# a hung task or an RCU stall as "INFO: ..."; kmemleak's leaks come in a
# TAP section of their own (scripts/guest/init).
BAD_LOG = re.compile(r'WARNING:|BUG:|Oops|general protection|KASAN|Call Trace:|'
                     r'kernel BUG|UBSAN:|refcount_t:|unreferenced object|'
                     r'INFO: .*(blocked for more than|detected stall)|'
                     r'lockdep is turned off|Kernel panic')


class Verdict:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0
        self.failures = []
        self.suites = {}        # suite -> [passed, failed, skipped]

    def add(self, suite, name, ok, skip=False, why=''):
        counts = self.suites.setdefault(suite, [0, 0, 0])
        if skip:
            self.skipped += 1
            counts[2] += 1
        elif ok:
            self.passed += 1
            counts[0] += 1
        else:
            self.failed += 1
            counts[1] += 1
            self.failures.append(f'{suite}: {name}' + (f' ({why})' if why else ''))


def failure_context(diag):
    """What a failed test printed: the harness's file:line assertion and
    log lines if any, else its last diagnostics; a few lines at most."""
    where = [l for l in diag if ASSERTION.match(l)]
    return '\n    '.join((where or diag[-3:])[:DIAG_LINES])


def parse_tap(verdict, suite, lines, rc):
    """One program's TAP; a crash or a short plan counts as a failure."""
    planned, seen, failed, diag = None, 0, 0, []
    for line in lines:
        m = PLAN.match(line)
        if m and planned is None:
            planned = int(m.group(1))
            continue
        m = RESULT.match(line)
        if not m:
            if line.startswith('#'):
                diag.append(line)
            continue
        seen += 1
        ok = m.group(1) == 'ok'
        directive = (m.group(3) or '').upper()
        if not ok:
            failed += 1
        verdict.add(suite, m.group(2), ok or directive == 'TODO',
                    skip=ok and directive == 'SKIP',
                    why='' if ok else failure_context(diag))
        diag = []
    if planned is not None and seen < planned:
        verdict.add(suite, 'plan', False, why=f'{seen} of {planned} tests reported')
    elif seen == 0:
        verdict.add(suite, 'output', False, why='no TAP results')
    if rc not in (0, None) and failed == 0:
        verdict.add(suite, 'exit status', False, why=f'exited with {rc}')
    return seen


def host_suite(verdict, spec):
    name, path = spec.split('=', 1)
    try:
        with open(path, errors='replace') as f:
            lines = f.read().splitlines()
        with open(path + '.rc') as f:
            rc = int(f.read().strip() or 1)
    except OSError as e:
        verdict.add(name, 'run', False, why=str(e))
        return
    parse_tap(verdict, name, lines, rc)


def guest_sections(lines):
    """Split the results channel into (name, lines, rc) and the dmesg text."""
    sections, dmesg, cur, body, done = [], [], None, [], False
    in_dmesg = False
    for raw in lines:
        line = raw.rstrip('\r')
        if line.startswith('@@vx-begin '):
            cur, body = line.split(' ', 1)[1], []
        elif line.startswith('@@vx-end ') and cur:
            m = re.search(r'rc=(\d+)', line)
            sections.append((cur, body, int(m.group(1)) if m else 1))
            cur = None
        elif line == '@@vx-dmesg-begin':
            in_dmesg = True
        elif line == '@@vx-dmesg-end':
            in_dmesg = False
        elif line == '@@vx-done':
            done = True
        elif in_dmesg:
            dmesg.append(line)
        elif cur is not None:
            body.append(line)
    if cur is not None:
        sections.append((cur, body, None))
    return sections, dmesg, done


def unfinished_why(results, lines, console_lines):
    """What a boot without @@vx-done left: run-guest.sh's and QEMU's last
    words (qemu.log beside results.log), the guest's last line on each
    channel.  Printed with the failure, at the end of the run: a CI log
    may show nothing else."""
    why = ['no @@vx-done: guest crashed or timed out']
    try:
        with open(os.path.join(os.path.dirname(results), 'qemu.log'),
                  errors='replace') as f:
            why += [f'qemu.log: {l}' for l in f.read().splitlines()[-4:] if l.strip()]
    except OSError:
        why.append('qemu.log: none (QEMU never started?)')
    for what, text in (('results', lines), ('console', console_lines)):
        last = [l.strip() for l in text if l.strip()]
        why.append(f'last {what} line: {last[-1][:200] if last else "(empty)"}')
    return '\n    '.join(why)


def guest_suite(verdict, spec):
    name, paths = spec.split('=', 1)
    results, console = paths.split(',', 1)
    try:
        with open(results, errors='replace') as f:
            lines = f.read().splitlines()
    except OSError:
        lines = []
    try:
        with open(console, errors='replace') as f:
            console_lines = f.read().splitlines()
    except OSError:
        console_lines = []
    sections, dmesg, done = guest_sections(lines)
    verdict.add(name, 'guest finished', done,
                why='' if done else unfinished_why(results, lines, console_lines))
    reported = {sec for sec, _, _ in sections}
    for sec, what in (('modules', 'modules loaded'), ('unload', 'module unloads cleanly')):
        if sec not in reported:
            verdict.add(name, what, False, why='never reported')
    for sec, body, rc in sections:
        if sec in ('modules', 'unload'):
            what = 'modules loaded' if sec == 'modules' else 'module unloads cleanly'
            verdict.add(name, what, rc == 0, why='\n    '.join(body[-5:]))
            continue
        if sec == 'demo':
            continue
        if rc is None:
            verdict.add(f'{name}/{sec}', 'finished', False, why='cut off')
        parse_tap(verdict, f'{name}/{sec}', body, rc)
    bad = [l for l in dmesg + console_lines if BAD_LOG.search(l)]
    verdict.add(name, 'kernel log clean', not bad, why='\n    '.join(bad[:10]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--host', action='append', default=[])
    ap.add_argument('--guest', action='append', default=[])
    ap.add_argument('--expect', action='append', default=[])
    args = ap.parse_args()
    verdict = Verdict()
    for spec in args.host:
        host_suite(verdict, spec)
    for spec in args.guest:
        guest_suite(verdict, spec)
    for suite in args.expect:
        if suite not in verdict.suites:
            verdict.add(suite, 'expected', False, why='never reported: not run, or never started')
    for suite, (p, f, sk) in verdict.suites.items():
        print(f'{suite:48} {p:4} passed {f:4} failed {sk:4} skipped')
    for f in verdict.failures:
        print(f'FAIL {f}')
    print(f'{verdict.passed} passed, {verdict.failed} failed, {verdict.skipped} skipped')
    return 1 if verdict.failed else 0


if __name__ == '__main__':
    sys.exit(main())
