"""A real pseudo-terminal pair whose slave end looks like a USB serial adapter to the driver.

The driver opens a stable path, as it would open /dev/serial/by-id/... on a
box: a symlink to the slave end. Unplugging closes the master (the driver's
next read fails with EIO, as when a USB adapter goes) and removes the link;
replugging makes a new pair and points the same link at it, as udev does.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
import tty


class PtyPort:
    def __init__(self, link_name: str, directory: str | None = None) -> None:
        self._own_dir = directory is None
        self.directory = directory or tempfile.mkdtemp(prefix="tablectl-sim-")
        os.makedirs(self.directory, exist_ok=True)
        self.path = os.path.join(self.directory, link_name)
        self.master: int | None = None
        self._slave: int | None = None
        self.tty_name: str | None = None

    @property
    def plugged(self) -> bool:
        return self.master is not None

    def plug(self) -> None:
        if self.master is not None:
            return
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing: the driver gets bytes as sent
        flags = fcntl.fcntl(master, fcntl.F_GETFL)
        fcntl.fcntl(master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        self.master, self._slave = master, slave  # keeping the slave open: the master never sees EIO
        self.tty_name = os.ttyname(slave)
        tmp = f"{self.path}.tmp{os.getpid()}"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(self.tty_name, tmp)
        os.replace(tmp, self.path)

    def unplug(self) -> None:
        if os.path.lexists(self.path):
            os.unlink(self.path)
        for fd in (self.master, self._slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.master = self._slave = None
        self.tty_name = None

    def close(self) -> None:
        self.unplug()
        if self._own_dir:
            shutil.rmtree(self.directory, ignore_errors=True)
