#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""`make help` names every target a person can type, printing TAP.

The targets are the top-level Makefile's .PHONY ones (print-VAR is the
pattern rule print-%); each must have a "make TARGET" line in the help.
"""
import os
import re
import subprocess
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))


def main():
    mk = open(os.path.join(TOP, 'Makefile')).read()
    phony = []
    for m in re.finditer(r'^\.PHONY:(.*)$', mk, re.M):
        phony += m.group(1).split()
    phony.append('print-VAR')
    out = subprocess.run(['make', '-s', '-C', TOP, 'help'], capture_output=True,
                         text=True).stdout
    listed = set(re.findall(r'^[#\s]*make ([\w-]+)', out, re.M))
    print('TAP version 13')
    print(f'1..{len(phony)}')
    bad = 0
    for i, t in enumerate(phony, 1):
        ok = t in listed
        bad += not ok
        print(f'{"ok" if ok else "not ok"} {i} make help lists "make {t}"')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
