#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""`make -C DIR check|demo|bench|debug-shell` from another directory: the
make variables the scripts read come out clean, printing TAP.

Under `make -C DIR`, make's -w (print the directory) reaches every nested
make through MAKEFLAGS, so a script's `$(make -s print-GUEST_FILES)` read
"make[1]: Entering directory ..." as a file name.  Each capture of a make
variable written in scripts/*.sh is run as written, with lib.sh sourced
and the checkout as its directory as in the scripts, under a parent
`make -C CHECKOUT` started from a scratch directory, and must print what
`make print-VAR` prints alone.  Every other capture of make's output in
scripts/*.sh (kernelrelease, ...), which needs a kernel tree to run, must
say --no-print-directory.
"""
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
SCRIPTS = os.path.join(TOP, 'scripts')
# A capture of a make variable, as the scripts write it.
VAR_CAPTURE = re.compile(r'vx_make_var ([A-Z_]+)|make\s[^|)]*\bprint-([A-Z_]+)')
# Any make whose output a command substitution or a pipe takes.
MAKE_CAPTURE = re.compile(r'\$\((?:nice (?:-n ?\d+ )?)?make\s[^)]*\)|^\s*make\s[^|]*\|')
# A person's shell: none of the flags of a make this test may run under.
ENV = {k: v for k, v in os.environ.items()
       if k not in ('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'MAKEOVERRIDES')}


def script_lines():
    for name in sorted(os.listdir(SCRIPTS)):
        if name.endswith('.sh'):
            with open(os.path.join(SCRIPTS, name)) as f:
                for n, line in enumerate(f, 1):
                    if not line.lstrip().startswith('#'):
                        yield f'scripts/{name}:{n}', line


def plain_value(var):
    return subprocess.run(['make', '-s', '--no-print-directory', '-C', TOP, f'print-{var}'],
                          env=ENV, capture_output=True, text=True, check=True).stdout


def under_make_c(cmd, scratch):
    """CMD's output as a script run by `make -C TOP` from SCRATCH sees it."""
    probe = os.path.join(scratch, 'probe.sh')
    with open(probe, 'w') as f:
        f.write(f'set -e\n. "{SCRIPTS}/lib.sh"\ncd "$VX_TOP"\n{cmd}\n')
    return subprocess.run(['make', '-C', TOP, '--eval', f'vx-probe: ; @bash {probe}',
                           'vx-probe'], cwd=scratch, env=ENV, capture_output=True, text=True)


def main():
    captures = {}
    unflagged = []
    for where, line in script_lines():
        for m in VAR_CAPTURE.finditer(line):
            captures.setdefault(m.group(0).strip(), (where, m.group(1) or m.group(2)))
        for m in MAKE_CAPTURE.finditer(line):
            if '--no-print-directory' not in m.group(0) and not VAR_CAPTURE.search(m.group(0)):
                unflagged.append(f'{where}: {m.group(0).strip()}')
    print('TAP version 13')
    print(f'1..{len(captures) + 1}')
    bad = 0
    with tempfile.TemporaryDirectory() as scratch:
        for i, (cmd, (where, var)) in enumerate(sorted(captures.items()), 1):
            want = plain_value(var)
            got = under_make_c(cmd, scratch)
            # make -C's own lines are on its stdout around the probe's.
            lines = [ln for ln in got.stdout.splitlines(True)
                     if not re.match(r"make: (Entering|Leaving) directory '", ln)]
            ok = got.returncode == 0 and ''.join(lines) == want
            bad += not ok
            print(f'{"ok" if ok else "not ok"} {i} make -C: {cmd} ({where}) reads {var} clean')
            if not ok:
                for ln in (got.stdout + got.stderr).splitlines()[:8]:
                    print(f'# {ln}')
    ok = not unflagged
    bad += not ok
    print(f'{"ok" if ok else "not ok"} {len(captures) + 1} every other capture of make\'s '
          'output in scripts/ has --no-print-directory')
    for u in unflagged:
        print(f'# {u}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
