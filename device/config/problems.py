"""What is wrong with a configuration, as data: the key, the reason as a catalog message
(device.texts words it in the reader's language), and the file.

The config modules never build sentences, so `tabletop --language fr config --check` says
every reason in French: the command line words each problem in its language
(device.cli.config.problem_line); str() gives the English, for logs.
"""
from __future__ import annotations

import errno
import reprlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from device.paths import GIVEN_MOST
from engine.core.text import Msg, msg, render

SHOWN = 60      # characters of a value an error repeats; a file may hold megabytes in one string

# The reasons an OS gives that a person meets with a config's files, worded by the catalogs;
# any other is shown as the OS words it.
OS_REASONS = {errno.ENOENT: "cli.os.no_such_file", errno.EACCES: "cli.os.denied",
              errno.EPERM: "cli.os.denied", errno.EISDIR: "cli.os.is_a_folder",
              errno.ENOTDIR: "cli.os.not_a_folder", errno.ELOOP: "cli.os.loop",
              errno.ENAMETOOLONG: "cli.os.name_too_long", errno.EROFS: "cli.os.read_only",
              errno.ENOSPC: "cli.os.full", errno.EIO: "cli.os.io", errno.EFBIG: "cli.os.too_large"}


@dataclass(frozen=True)
class Problem:
    """One thing wrong: `key` the config key ("" for the file as a whole), `reason` why,
    `names` the other keys the reason speaks of (a rule between keys), `file` where."""

    key: str
    reason: Msg
    names: tuple[str, ...] = ()
    file: Path | None = None

    def where(self) -> str:
        """`FILE: key`, `FILE`, `key` or "": what the reason is about."""
        head = [str(self.file)] if self.file is not None else []
        return ": ".join([*head, *([self.key] if self.key else [])])

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {render(self.reason)}" if where else render(self.reason)

    def touches(self, keys: set[str]) -> bool:
        """Whether it is about one of `keys` (or a key of one of those sections)."""
        return any(name == key or name.startswith(f"{key}.")
                   for name in (self.key, *self.names) for key in keys)

    def in_file(self, path: Path) -> Problem:
        return replace(self, file=path)


class Refused(ValueError):
    """A value a key does not take; `reason` says why, the caller adds the key."""

    def __init__(self, key: str, **args: object) -> None:
        self.reason = msg(key, **args)
        super().__init__(key)


class ConfigFileError(ValueError):
    """A configuration the device cannot start with: every problem found at once (`problems`),
    so one pass of `tabletop config --check` fixes them all; `partial` the file read with
    defaults for its bad keys, when it parsed."""

    def __init__(self, problems: Problem | list[Problem], partial: Any = None) -> None:
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        self.partial = partial
        super().__init__(self.problems)

    def __str__(self) -> str:
        return "\n".join(map(str, self.problems))


def os_reason(exc: Exception) -> Msg:
    """Why a file could not be opened, as a message (a NUL in a path is a ValueError)."""
    number = getattr(exc, "errno", None)
    if number == errno.EFBIG:           # paths.TooLarge: the most a given file is read of, said
        return msg("cli.os.too_large", most=GIVEN_MOST // (1024 * 1024))
    if number in OS_REASONS:
        return msg(OS_REASONS[number])
    if isinstance(exc, ValueError):
        return msg("cli.os.nul")
    return msg("cli.os.other", why=cut(getattr(exc, "strerror", None) or str(exc)))


def one_line(text: object, limit: int = SHOWN) -> str:
    """`text` as one line of a message, log or screen: runs of white space made one space,
    other control characters escaped, at most `limit` characters of it (a value may be a
    whole file)."""
    flat = " ".join(str(text).split())
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in flat[:limit])
    return shown + ("..." if len(flat) > limit else "")


def cut(text: str) -> str:
    """A value as an error repeats it: one line, at most SHOWN characters."""
    return one_line(text)


def show_value(value: object) -> object:
    """A TOML value as an error repeats it: strings quoted, booleans as TOML writes them, cut."""
    if isinstance(value, str):
        return f'"{cut(value)}"'
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int) and value.bit_length() > 64:
        return msg("cli.config.huge_number")      # str() refuses past 4,300 digits
    if isinstance(value, (list, dict)):
        return cut(reprlib.repr(value))    # reprlib stops a few levels down: no deep recursion
    return cut(str(value))
