"""Input a command refuses, told in one line on stderr: `tabletop: FILE: where: reason`, however
long or many-lined the reason (a value may be a whole file)."""
from __future__ import annotations

import json
import sys

from device.config.problems import one_line, os_reason
from device.texts import say
from engine.core.text import render

REFUSAL = 200                   # characters of a refusal's line: the file, where, and why


def refuse(language: str, problem: object, code: int = 2) -> int:
    """Print `problem` as the command's one line; return the exit status, 2 bad input."""
    print(say(language, "cli.problem", problem=one_line(problem, REFUSAL)), file=sys.stderr)
    return code


def first_and_more(language: str, problems: list[str], more: str, **where: object) -> str:
    """The first of `problems` on one line, and how many more there are: `more` is the catalog
    key that says so (its `problem` and `n`; `where` fills the rest, such as the file the command
    that lists them all takes)."""
    first = one_line(problems[0], REFUSAL)
    if len(problems) == 1:
        return first
    return say(language, more, problem=first, n=len(problems) - 1, **where)


def unreadable(language: str, path: object, exc: Exception) -> int:
    """A file that cannot be opened or is not UTF-8 text: exit 2."""
    why = say(language, "cli.not_utf8") if isinstance(exc, UnicodeDecodeError) else \
        render(os_reason(exc), language)
    print(say(language, "cli.cannot_read", path=path, why=why), file=sys.stderr)
    return 2


def unwritable(language: str, state_dir: object, exc: OSError) -> int:
    """A state dir that is full, read-only or failing: nothing was changed; exit 1."""
    print(say(language, "cli.cannot_write", path=exc.filename or state_dir,
              why=render(os_reason(exc), language)), file=sys.stderr)
    return 1


def failed_json(message: object, code: int = 2, **where: object) -> int:
    """A command asked for --json that cannot do what it was asked: one JSON object on stdout,
    `{"error": message, ...where}`, so a script reading it never gets text instead."""
    print(json.dumps({"error": one_line(message, REFUSAL), **where}, ensure_ascii=False))
    return code
