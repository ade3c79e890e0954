#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The README's gdb-multiarch session, typed at human speed, printing TAP.

Reads the session from README.md ("From the host: gdb-multiarch and the
Debug Module bridge"): the `$ gdb-multiarch ...` command line, then each
`(gdb) COMMAND` with the lines the README shows after it.  Runs that
command line (the port replaced by --port) in a pseudo-terminal, as a
person does, against the guest's vortex-gdbserver, waits --pause seconds
(longer than the guest's 2 s job timeout) before every command, and checks
that the lines the README shows appear, in order, in what gdb printed.
Hex numbers are compared as "0x..." (load addresses depend on the build
and on where the driver maps the code); everything else is compared as
written, whitespace runs as one space.  A README line "QUESTION? (y or n) y"
is a question gdb asks: it is expected and answered with the letter.

Before the session a client that gives up connects: it sends gdb's opening
packets and hangs up without reading (a gdb started before the server was
there, or killed).  The session after it must still work: the server
restarts for every client and a new client starts clean (docs/debugging.md).

    readme_gdb.py --readme README.md --top DIR --elf BUILD/riscv/vecadd.elf --port N
"""
import argparse
import os
import re
import shlex
import socket
import sys
import tempfile
import time

import pexpect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_gdb import check, report  # noqa: E402  (one TAP writer for both)

PROMPT = '(gdb) '


def readme_session(path):
    """(command line, [first output lines], [(command, [lines])]) from README.md."""
    text = open(path).read()
    sec = text.split('### From the host: gdb-multiarch and the Debug Module bridge', 1)[1]
    block = re.search(r'```\n(\$ gdb-multiarch .*?)```', sec, re.S).group(1)
    lines = block.rstrip('\n').split('\n')
    cmdline, steps, first = lines[0][2:], [], []
    for line in lines[1:]:
        if line.startswith(PROMPT):
            steps.append((line[len(PROMPT):], []))
        else:
            (steps[-1][1] if steps else first).append(line)
    return cmdline, first, steps


def norm(line):
    line = line.replace('\r', '')
    line = re.sub(r'0x[0-9a-f]+', '0x...', line)
    return ' '.join(line.split())


def missing(expected, got):
    """Expected lines not found, in order, among the lines of got."""
    have = [norm(x) for x in got.split('\n')]
    pos, miss = 0, []
    for e in expected:
        e = norm(e)
        for i in range(pos, len(have)):
            if have[i] == e or (e and have[i].endswith(e)):
                pos = i + 1
                break
        else:
            miss.append(e)
    return miss


def give_up_client(port):
    """gdb's first packets, then a hang-up before any answer."""
    s = socket.create_connection(('127.0.0.1', port), timeout=10)
    s.sendall(b'+')
    for p in (b'qSupported:multiprocess+;swbreak+;hwbreak+;qRelocInsn+;vContSupported+',
              b'vMustReplyEmpty', b'QStartNoAckMode', b'Hg0',
              b'qXfer:features:read:target.xml:0,ffb'):
        s.sendall(b'$%s#%02x' % (p, sum(p) & 0xff))
    s.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--readme', required=True)
    ap.add_argument('--top', required=True, help='where the README command line runs')
    ap.add_argument('--elf', required=True, help='the vecadd.elf the server runs')
    ap.add_argument('--port', type=int, required=True)
    ap.add_argument('--pause', type=float, default=3.5,
                    help='seconds before each command (the guest job timeout is 2 s)')
    ap.add_argument('--no-give-up', action='store_true',
                    help='skip the client that gives up first')
    ap.add_argument('--log', help='write the terminal transcript here')
    o = ap.parse_args()

    cmdline, first, steps = readme_session(o.readme)
    argv = shlex.split(cmdline)
    argv = [o.elf if a.endswith('/vecadd.elf') else a for a in argv]
    argv = [re.sub(r'127\.0\.0\.1:\d+', f'127.0.0.1:{o.port}', a) for a in argv]
    check('README: the session has its command line and commands',
          argv[0] == 'gdb-multiarch' and len(steps) >= 5, cmdline)

    if not o.no_give_up:
        give_up_client(o.port)
        time.sleep(o.pause)

    # A person's terminal: no ~/.gdbinit of this machine, no debuginfod question.
    env = dict(os.environ, HOME=tempfile.mkdtemp(), TERM='dumb')
    env.pop('DEBUGINFOD_URLS', None)
    gdb = pexpect.spawn(argv[0], argv[1:], cwd=o.top, env=env, encoding='utf-8',
                        codec_errors='replace', dimensions=(200, 250), timeout=60)
    if o.log:
        gdb.logfile_read = open(o.log, 'w')
    log = []

    def until_prompt(timeout=60):
        try:
            gdb.expect_exact(PROMPT, timeout=timeout)
            out = gdb.before
        except (pexpect.TIMEOUT, pexpect.EOF) as e:
            out = (gdb.before or '') + f'\n<<{type(e).__name__}>>'
        log.append(out)
        return out

    out = until_prompt()
    miss = missing(first, out)
    check('README: gdb-multiarch connects and shows the initial stop', not miss,
          out + '\nmissing: ' + repr(miss))
    for cmd, want in steps:
        time.sleep(o.pause)
        gdb.sendline(cmd)
        out = ''
        for line in want:
            m = re.match(r'(.*\(y or n\) )(\w)$', line)
            if m:
                try:
                    gdb.expect_exact(m.group(1).rstrip(), timeout=30)
                    out += gdb.before + m.group(1)
                    time.sleep(o.pause)
                    gdb.sendline(m.group(2))
                except (pexpect.TIMEOUT, pexpect.EOF):
                    pass
        done = cmd == 'continue' and any('exited' in w for w in want)
        out += until_prompt()
        miss = missing(want, out)
        check(f'README: (gdb) {cmd}', not miss, out + '\nmissing: ' + repr(miss))
    gdb.sendline('quit')
    gdb.expect(pexpect.EOF, timeout=30)
    gdb.close()
    check('README: gdb-multiarch quits', gdb.exitstatus == 0 and done,
          ''.join(log)[-3000:])
    return report()


if __name__ == '__main__':
    sys.exit(main())
