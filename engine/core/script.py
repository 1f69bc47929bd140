"""Event scripts, and the one input language they share with the simulator. Pure.

A script is directives (the setup) then input lines; the simulator reads input
lines only. Every input line means the same in both (docs/scripts.md):

    tap CARD | tap uid:HEX     a card (or a raw tag) on the reader, then off it
    place CARD | place uid:HEX a card held on the reader;  lift   takes it off
    press BUTTON               up, down, select or back, a short press
    hold BUTTON                select or back, a long press
    hold up|down [SECONDS]     held down (2 s unless said): it repeats, faster and faster
    wait SECONDS               time passes (virtual): timers fire
    choose ID                  answer the prompt: an option's id or a player's name
    select | back              confirm an instruction screen | cancel a sub-prompt
    undo | redo

`tap CARD`, `choose`, `select`, `back`, `undo` and `redo` go to the game as they are;
the others are played through the device (its reader, its buttons, its clock).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .events import Cancel, Choose, Confirm, Event, Tap

BUTTONS = ("up", "down", "select", "back")
HOLDABLE = ("select", "back")      # as on the table: only these two have a long press
REPEATING = ("up", "down")         # these two repeat while held instead
HELD_SECONDS = 2.0                 # `hold up` with no time: long enough to see the repeats
LONGEST_WAIT = 86400.0             # a day: longer than any timer the device sets
WORDS = {                          # each input word, what it takes, what it does
    "tap": ("CARD", "a card on the reader, then off it (CARD: an id, or uid:HEX)"),
    "place": ("CARD", "a card held on the reader"),
    "lift": ("", "the card held on the reader taken off"),
    "press": ("BUTTON", "a short press: up, down, select or back"),
    "hold": ("BUTTON", "a long press: select or back; up or down [SECONDS] held, repeating"),
    "wait": ("SECONDS", f"time passes, from 0 to {LONGEST_WAIT:g} seconds: timers fire"),
    "choose": ("ID", "answer the prompt: an option's id or a player's name"),
    "select": ("", "confirm the prompt (an instruction screen, Done)"),
    "back": ("", "cancel the current sub-prompt"),
    "undo": ("", "take back the last input"),
    "redo": ("", "play again an input taken back"),
}


class InputError(ValueError):
    """An input line that is no line of the language, and why."""


@dataclass(frozen=True)
class InputLine:
    """One input line, checked: `verb` one of WORDS, `arg` its word (a card, a button, an id,
    lowercase for a button), `seconds` a wait's or how long UP or DOWN is held."""

    verb: str
    arg: str = ""
    seconds: float = 0.0

    @property
    def on_device(self) -> bool:
        """Played through the device's reader, buttons or clock, not given to the game as is."""
        return self.verb in ("place", "lift", "press", "hold", "wait")

    def event(self) -> Event | None:
        """The game event this line is, when it goes to the game as it is."""
        if self.on_device:
            return None
        if self.verb in ("tap", "choose"):
            return Tap(self.arg) if self.verb == "tap" else Choose(self.arg)
        answers: dict[str, Event] = {"select": Confirm(), "back": Cancel()}
        return answers.get(self.verb)


def is_uid(word: str) -> bool:
    return word.lower().startswith("uid:")


def input_line(words: list[str]) -> InputLine:
    """The input line these words make; InputError saying what is wrong."""
    verb, args = words[0].lower(), words[1:]
    if verb not in WORDS:
        raise InputError(f"unknown word {shown(words[0])}")
    takes = WORDS[verb][0]
    if not takes:
        if args:
            raise InputError(f"'{verb}' takes no argument")
        return InputLine(verb)
    if verb == "hold" and args and args[0].lower() in REPEATING and len(args) <= 2:
        return InputLine(verb, args[0].lower(), _seconds(args[1], 'hold') if args[1:] else HELD_SECONDS)
    if len(args) != 1:
        raise InputError(f"'{verb}' takes one {_ONE[takes]}")
    if takes == "BUTTON":
        return InputLine(verb, _button(verb, args[0]))
    if takes == "SECONDS":
        return InputLine(verb, args[0], _seconds(args[0], verb))
    if takes == "CARD" and is_uid(args[0]):
        return InputLine(verb, "uid:" + _uid(args[0]))
    return InputLine(verb, args[0])


_ONE = {"CARD": "card id or uid:HEX", "BUTTON": "button: " + ", ".join(BUTTONS),
        "SECONDS": "number of seconds", "ID": "option id or player name"}


def _button(verb: str, word: str) -> str:
    name = word.lower()
    if name not in BUTTONS:
        raise InputError(f"'{verb}' takes one button: {', '.join(BUTTONS)}, not {shown(word)}")
    if verb == "hold" and name not in HOLDABLE:         # a repeating button held is read above
        raise InputError(f"{name} has no long press: hold {' or '.join(HOLDABLE)}, or press {name}")
    return name


def _seconds(word: str, verb: str) -> float:
    try:
        seconds = float(word)
    except ValueError:
        seconds = math.nan
    if not 0 <= seconds <= LONGEST_WAIT:       # nan, inf, negative, or past a day
        raise InputError(f"{verb} takes seconds from 0 to {LONGEST_WAIT:g}, not {shown(word)}")
    return seconds


def _uid(word: str) -> str:
    uid = word[4:].upper()
    if len(uid) not in (8, 14, 20) or any(c not in "0123456789ABCDEF" for c in uid):
        raise InputError(f"{shown(word)}: a UID is 8, 14 or 20 hex digits")
    return uid


def line_words(raw: str) -> list[str]:
    """The words before the first one starting with '#' (card ids hold '#' inside a word);
    InputError for a control character, which no person types into a line."""
    odd = next((c for c in raw if not (c.isprintable() or c in " \t")), None)
    if odd is not None:
        raise InputError(f"the line holds a control character (U+{ord(odd):04X})")
    words = []
    for word in raw.split():
        if word.startswith("#"):
            break
        words.append(word)
    return words


class ScriptError(ValueError):
    """A directive or syntax error, with the line it is on."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class ScriptStep:
    """One input line: a game event, `undo` / `redo` (then `event` is None), or a line the
    device plays (`kind` "device", `input` the line)."""

    line: int
    kind: str           # "event" | "undo" | "redo" | "device"
    event: Event | None = None
    input: InputLine | None = None
    text: str = ""      # the line's words, without its comment


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
        try:
            words = line_words(raw.removesuffix("\r"))
        except InputError as exc:
            raise ScriptError(number, str(exc)) from None
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
    try:
        line = input_line(words)
    except InputError as exc:
        raise ScriptError(number, str(exc)) from None
    text = " ".join(words)
    if line.on_device:
        return ScriptStep(number, "device", input=line, text=text)
    if line.verb in ("undo", "redo"):
        return ScriptStep(number, line.verb, text=text)
    return ScriptStep(number, "event", line.event(), line, text)
