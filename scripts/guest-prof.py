#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where a guest's vCPUs spend their time: a sampling profile through QMP.

  guest-prof.py sample QMP_SOCKET RESULTS_LOG OUT [HZ]
  guest-prof.py report OUT [--symbols FILE] [--top N] [--by-test]

`sample` (run-guest.sh --profile OUT starts it) asks QEMU for every vCPU's
registers (HMP "info registers -a") HZ times a second (default 100) until
the socket goes away, and writes a line per vCPU and sample to OUT: the
time, the vCPU, its privilege level (CPL), RIP, and the test program the
guest was running then (the last "@@vx-begin NAME" of RESULTS_LOG; else
(boot), (between) programs and after the last, which sends the kept
dumps, (kallsyms), (dmesg), (poweroff)).  A halted vCPU (HLT=1: idle) is
written as such.

`report` counts the samples per program (per test with --by-test: the
slow test of a slow program) and, for each, where the vCPUs
were: idle, user space (CPL 3), or the kernel or module function a RIP
falls in, by the guest's /proc/kallsyms that run-guest.sh --profile has
the guest send to the results log beside OUT at its end (else --symbols:
`nm -n vmlinux` output).  TCG's vCPU threads run a vCPU's code only while
it is not halted, so the busy samples share out the host CPU the guest
used.
"""
import argparse
import bisect
import collections
import os
import re
import sys
import time

from vx_qmp import connect


# What the guest is doing, by the last of these lines of its results log
# (scripts/guest/init); None: the program the line names.
MARKERS = (('@@vx-begin ', None), ('@@vx-end ', '(between)'),
           ('@@vx-kallsyms-begin', '(kallsyms)'), ('@@vx-kallsyms-end', '(end)'),
           ('@@vx-dmesg-begin', '(dmesg)'), ('@@vx-done', '(poweroff)'))


def sample(args):
    qmp = connect(args.qmp, time.time() + 30)
    if not qmp:
        return 1
    period, section, test, pos = 1.0 / args.hz, '(boot)', '-', 0
    cpu_re = re.compile(r'CPU#(\d+)(.*?)(?=CPU#|\Z)', re.S)
    with open(args.out, 'w') as out:
        while True:
            try:
                with open(args.results, 'rb') as r:
                    r.seek(pos)
                    for raw in r:
                        if not raw.endswith(b'\n'):
                            break       # the guest is still writing it
                        pos += len(raw)
                        line = raw.decode(errors='replace')
                        for marker, name in MARKERS:
                            if line.startswith(marker):
                                section, test = name or line.split()[1], '-'
                        if line.startswith('#  RUN ') and len(line.split()) > 2:
                            test = line.split()[2]
            except OSError:
                pass
            try:
                regs = qmp.command('human-monitor-command',
                                   **{'command-line': 'info registers -a'})
            except (OSError, ValueError):
                return 0
            now = time.time()
            for cpu, body in cpu_re.findall(regs.get('return', '')):
                rip = re.search(r'[RE]IP=([0-9a-f]+)', body)
                cpl = re.search(r'CPL=(\d)', body)
                hlt = re.search(r'HLT=(\d)', body)
                if rip:
                    out.write(f'{now:.3f} {cpu} {cpl[1] if cpl else "?"} '
                              f'{"H" if hlt and hlt[1] == "1" else rip[1]} {section} {test}\n')
            out.flush()
            time.sleep(period)


def load_symbols(lines):
    """(addresses, names) of the text symbols of `nm -n` or kallsyms lines,
    sorted; a module's are named MODULE:function."""
    syms = []
    for line in lines:
        f = line.split()
        if len(f) >= 3 and f[1] in ('t', 'T', 'w', 'W'):
            mod = f[3].strip('[]') + ':' if len(f) > 3 else ''
            syms.append((int(f[0], 16), mod + f[2]))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def kallsyms(results):
    """The guest's /proc/kallsyms text lines in its results log."""
    out, inside = [], False
    for line in open(results, errors='replace'):
        if line.startswith('@@vx-kallsyms-begin'):
            inside = True
        elif line.startswith('@@vx-kallsyms-end'):
            break
        elif inside:
            out.append(line)
    return out


def report(args):
    results = os.path.join(os.path.dirname(os.path.abspath(args.out)), 'results.log')
    lines = kallsyms(results) if os.path.exists(results) else []
    if not lines and args.symbols:
        lines = open(args.symbols, errors='replace').readlines()
    if not lines:
        print('# no symbols: the guest sent no kallsyms (vx.kallsyms=1) and no --symbols')
    addrs, names = load_symbols(lines)
    per = collections.defaultdict(collections.Counter)
    total = collections.Counter()
    for line in open(args.out):
        f = line.split()
        if len(f) < 5:
            continue
        cpl, rip, section = f[2], f[3], f[4]
        if args.by_test and len(f) > 5 and f[5] != '-':
            section += '/' + f[5]
        if rip == 'H':
            where = '(idle)'
        elif cpl == '3':
            where = '(user)'
        else:
            pc = int(rip, 16)
            i = bisect.bisect_right(addrs, pc) - 1
            where = names[i] if i >= 0 and pc - addrs[i] < 0x10000 else '(kernel ?)'
        per[section][where] += 1
        total[section] += 1
    for section, n in total.most_common():
        busy = n - per[section]['(idle)']
        print(f'{section}: {n} vCPU samples, {busy} busy')
        for where, k in per[section].most_common(args.top):
            print(f'  {k:7d} {100.0 * k / n:5.1f}%  {where}')
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    s = sub.add_parser('sample')
    s.add_argument('qmp')
    s.add_argument('results')
    s.add_argument('out')
    s.add_argument('hz', nargs='?', type=float, default=100)
    r = sub.add_parser('report')
    r.add_argument('out')
    r.add_argument('--symbols')
    r.add_argument('--top', type=int, default=15)
    r.add_argument('--by-test', action='store_true',
                   help="count each harness test (#  RUN) of a program apart")
    args = ap.parse_args()
    return sample(args) if args.cmd == 'sample' else report(args)


if __name__ == '__main__':
    sys.exit(main())
