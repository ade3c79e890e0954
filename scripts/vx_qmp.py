# SPDX-License-Identifier: GPL-2.0
"""A QMP client of a QEMU the bench started (run-guest.sh's -qmp sockets),
imported by scripts/qmp-watch.py and scripts/guest-prof.py."""
import json
import socket
import time


class Qmp:
    """One connection, its capabilities negotiated; events are skipped."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.file = self.sock.makefile('rw')
        self._read()                        # greeting
        self.command('qmp_capabilities')

    def _read(self):
        while True:
            line = self.file.readline()
            if not line:
                raise OSError('QMP closed')
            msg = json.loads(line)
            if 'event' not in msg:
                return msg

    def command(self, name, **args):
        self.file.write(json.dumps({'execute': name, 'arguments': args}) + '\n')
        self.file.flush()
        return self._read()


def connect(path, deadline):
    """A Qmp on @path, retried until time.time() reaches @deadline (QEMU
    creates the socket as it starts); None if it never answered."""
    while time.time() < deadline:
        try:
            return Qmp(path)
        except OSError:
            time.sleep(0.2)
    return None
