"""Event scripts: plain text in, directives and events out. Pure."""
from __future__ import annotations

from dataclasses import dataclass, field

from .events import Cancel, Choose, Confirm, Event, Tap


class ScriptError(ValueError):
    """A directive or syntax error, with the line it is on."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class ScriptStep:
    """One event line: an input event, or `undo` / `redo` (then `event` is None)."""

    line: int
    kind: str           # "event" | "undo" | "redo"
    event: Event | None = None


@dataclass
class Script:
    game: str | None = None
    players: list[str] = field(default_factory=list)
    first: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    option_lines: dict[str, int] = field(default_factory=dict)
    steps: list[ScriptStep] = field(default_factory=list)
    directive_lines: dict[str, int] = field(default_factory=dict)


_DIRECTIVES = ("game", "players", "first", "option")
SHOWN = 40          # a word longer than this is cut in a message


def shown(word: str) -> str:
    """A word as a message quotes it: repr'd, and cut when huge (a whole file on one line)."""
    return repr(word) if len(word) <= SHOWN else repr(word[:SHOWN]) + f"... ({len(word)} characters)"


def parse_script(text: str) -> Script:
    """Parse a whole script; raises ScriptError for the first malformed line."""
    script = Script()
    for number, raw in enumerate(text.split("\n"), 1):     # numbered as an editor numbers them
        if "\0" in raw:
            raise ScriptError(number, "a NUL byte")
        words = _strip_comment(raw)
        if not words:
            continue
        if words[0] in _DIRECTIVES:
            if script.steps:
                raise ScriptError(number, f"directive {shown(words[0])} after the first event")
            _directive(script, number, words)
        else:
            script.steps.append(_step(number, words))
    if script.game is None:
        raise ScriptError(1, "missing 'game' directive")
    return script


def _strip_comment(raw: str) -> list[str]:
    """The words before the first one starting with '#' (card ids hold '#' inside a word)."""
    words = []
    for word in raw.split():
        if word.startswith("#"):
            break
        words.append(word)
    return words


def _directive(script: Script, number: int, words: list[str]) -> None:
    name, args = words[0], words[1:]
    if name in ("game", "first") and len(args) != 1:
        raise ScriptError(number, f"'{name}' takes one word")
    if name == "game":
        script.game = args[0]
    elif name == "first":
        script.first = args[0]
    elif name == "players":
        if not args:
            raise ScriptError(number, "'players' needs at least one name")
        script.players = args
    else:
        for item in args or [""]:
            key, sep, value = item.partition("=")
            if not sep or not key or not value:
                raise ScriptError(number, f"option must be key=value, not {shown(item)}")
            script.options[key] = value
            script.option_lines[key] = number
    script.directive_lines[name] = number


def _step(number: int, words: list[str]) -> ScriptStep:
    verb, args = words[0], words[1:]
    if verb in ("tap", "choose"):
        if len(args) != 1:
            raise ScriptError(number, f"'{verb}' takes one argument")
        return ScriptStep(number, "event", Tap(args[0]) if verb == "tap" else Choose(args[0]))
    simple: dict[str, Event] = {"select": Confirm(), "back": Cancel()}
    if verb not in simple and verb not in ("undo", "redo"):
        raise ScriptError(number, f"unknown word {shown(verb)}")
    if args:
        raise ScriptError(number, f"'{verb}' takes no argument")
    if verb in simple:
        return ScriptStep(number, "event", simple[verb])
    return ScriptStep(number, verb)
