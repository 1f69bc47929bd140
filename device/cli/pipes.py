"""Output into a pipe the reader closed early (`tabletop status | head`) ends the command
quietly, as a shell's own tools end: killed by SIGPIPE, status 141 in the shell. The
console script (device.cli.command) does it; main() itself raises, as a library call should.

Only standard output ends so: Python ignores SIGPIPE so that a socket whose peer has gone
raises (the fleet's link, the dashboard) instead of killing the table, and that stays."""
from __future__ import annotations

import os
import sys

TYPE_CHECKING = False               # as typing's, which costs --version its start-up to import
if TYPE_CHECKING:
    from typing import TextIO


class EndsWithItsReader:
    """Standard output that ends the process by SIGPIPE when its reader has gone: the write
    that finds the pipe closed never reaches a command's own `except OSError`."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            die_of_sigpipe()
            raise

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            die_of_sigpipe()
            raise

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def die_of_sigpipe() -> None:
    """Restore SIGPIPE's default action and raise it. Nothing more reaches stdout: what is
    buffered for the closed pipe is dropped first."""
    if sys.__stdout__ is not None:                   # None: the process was started without one
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.__stdout__.fileno())   # its last flush
        except (OSError, ValueError):
            pass                                     # no file behind it to point elsewhere
    import signal  # here: only a reader gone needs it, not every command's start
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGPIPE)
