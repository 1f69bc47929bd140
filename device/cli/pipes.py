"""Output into a pipe the reader closed early (`tabletop status | head`) ends the command
quietly, as a shell's own tools end: killed by SIGPIPE, status 141 in the shell. The
console script (device.cli.command) does it; main() itself raises, as a library call should."""
from __future__ import annotations

import os
import signal
import sys


def die_of_sigpipe() -> None:
    """Python ignores SIGPIPE (so a write raises instead); restore its default and raise it.
    Nothing more reaches stdout: what is buffered for the closed pipe is dropped first."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())     # the interpreter's last flush has no reader
    except (OSError, ValueError):
        pass                                     # stdout is no file (a test's capture)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGPIPE)
