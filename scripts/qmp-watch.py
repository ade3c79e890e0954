#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Acts on requests a guest test makes of the host, through QMP.

A guest test that needs something only the host can do prints a line
'@@vx-host REQUEST' on the results channel, e.g. '@@vx-host unplug vx0' to
hot-unplug the card (QMP device_del).  This watcher follows the results file
while QEMU runs and carries the requests out; it exits when the guest is
done or QEMU's QMP socket goes away.

usage: qmp-watch.py RESULTS_FILE QMP_SOCKET
"""
import json
import os
import sys
import time

from vx_qmp import connect


def handle(qmp, request):
    words = request.split()
    if words[:1] == ['unplug'] and len(words) == 2:
        reply = qmp.command('device_del', id=words[1])
    else:
        reply = {'error': 'unknown request'}
    print(f'qmp-watch: {request}: {json.dumps(reply)}', file=sys.stderr)


def main():
    if sys.argv[1:2] in (['-h'], ['--help']):
        print(__doc__.strip())
        return 0
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 1
    results, qmp_path = sys.argv[1:3]
    qmp = connect(qmp_path, time.time() + 30)
    if not qmp:
        return 0
    while not os.path.exists(results):
        time.sleep(0.1)
    with open(results, errors='replace') as f:
        buf = ''
        while True:
            chunk = f.readline()
            if not chunk:
                if not os.path.exists(qmp_path):
                    return 0
                time.sleep(0.1)
                continue
            buf += chunk
            if not buf.endswith('\n'):
                continue
            line, buf = buf.strip(), ''
            if line.startswith('@@vx-host '):
                try:
                    handle(qmp, line[len('@@vx-host '):])
                except (OSError, ValueError):
                    return 0
            elif line == '@@vx-done':
                return 0


if __name__ == '__main__':
    sys.exit(main())
