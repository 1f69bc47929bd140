"""Write docs/scripts.md: the one input language of event scripts and the simulator, and the
choice ids (`choose ID`) of every prompt of every game, found by playing each registered game.

Usage: python tools/make_script_doc.py           rewrite it
       python tools/make_script_doc.py --check   exit 1 if it is out of date

The language comes from engine.core.script (its words, buttons and limits); the prompts
from playing each game from its start, many times over, each time taking the legal events
in another fixed order (no randomness: the file is the same on every run). A choice that
is a player's name is written NAME, a card id CARD, a run of numbers as FIRST..LAST.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
import seeds  # noqa: E402
from device.ui.paging import PAGE_SECONDS  # noqa: E402
from engine import Accepted  # noqa: E402
from engine.core.registry import built_in  # noqa: E402
from engine.core.script import BUTTONS, HELD_SECONDS, HOLDABLE, WORDS  # noqa: E402
from engine.core.spec import GameSpec  # noqa: E402
from engine.core.step import candidate_events, step  # noqa: E402
from engine.core.text import render  # noqa: E402

DOC = ROOT / "docs" / "scripts.md"
PLAYERS = ("Ann", "Bob", "Cy", "Dee")
PLAYOUTS = 12                  # games played per game: enough to meet every prompt
LONGEST = 800                  # events a playout goes to, if the game has not ended
STRIDES = (1, 3, 7, 11, 13, 17)

HEAD = """# Scripts and the simulator: one input language

`tabletop replay SCRIPT` and `tabletop run --sim` read the same lines. A script starts with
directives (the setup wizard's answers), then input lines; the simulator reads input lines
only (its setup is `--game`, `--players`, `--first`, `--option`, or the menus).
This file is written by `python tools/make_script_doc.py`; a test checks it is current.

## Directives (scripts only, before the first input line)

| line | meaning |
|---|---|
| `game GAME` | the game: {games}, or the id of a game installed from elsewhere |
| `players NAME NAME ...` | seat order, clockwise; names are single words |
| `first NAME` | who starts, where the table decides; default the first listed |
| `option KEY=VALUE ...` | house rules (docs/rules.md); an unknown key is an error |

Input lines start at the game's first prompt, past its deal instruction.

## Input lines (both)

| line | meaning |
|---|---|
{words}

`BUTTON` is one of {buttons}; only {holdable} have a long press. `hold up|down [SECONDS]`
is UP or DOWN held ({held:g} s unless said), repeating faster and faster as the table's
buttons do, each repeat one more step. `#` starts a comment
(a `#` inside a word, as in `clam#3`, is part of it). A line that is not one of these is
refused with its reason: a replay stops with `line N: reason` (exit 2), the simulator says
`input line N: reason` and goes on, the line changing nothing.

In a script of only `tap`, `choose`, `select`, `back`, `undo` and `redo` lines, each goes
to the game as it is (a raw `uid:HEX` is a card the game does not know). `place`, `lift`,
`press`, `hold` and `wait` go through the table's reader, buttons and clock: a script
holding any of them is replayed on
a simulated table, every line as the simulator takes it (a tap through its reader; a line
takes 1.6 seconds of the table's time, `wait` its own), so a press meets the screen the
line before left, a message included. A number on screen (a Flouk white number, a house rule) is set
tens first, then units: UP/DOWN on a digit, SELECT to the next, BACK to the tens and from
there away, the number left as it was; `choose 47` sets it at once.

A text longer than the screen shows a page at a time, a `v` at the end of a page that more
follows and a `^` on a page that follows another (small triangles on the OLED): a page turns by itself every
{page:g} seconds (`wait {page:g}`), round to the first again, and at `press down` where no
menu is under the text (on its last page DOWN does what it does without one: the scores).
A message of several pages that says what to do with the cards stays on each page until a
press turns it. `press up` on a play screen, or on the first line of its menu, shows the
turn's last instructions again.

## Choice ids of every prompt

`choose ID` answers the prompt on screen with one of its ids. NAME is a player's name,
CARD a card id (docs/cards.md), FIRST..LAST any whole number between. Prompts not listed
take taps, `select` or `back` only. These are this project's games; a game installed from
elsewhere takes the keys of its prompts' `Option(key, label)` (docs/adding-a-game.md).
"""


def house_rules(spec: GameSpec) -> list[dict]:
    """The defaults, then each other value of each on/off or choice house rule alone: some
    prompts are only asked under a house rule (Flouk's order of a white tie)."""
    return [{}] + [{o.key: str(value)} for o in spec.options if o.kind in ("bool", "choice")
                   for value in o.menu_values()[1:]]


def config(spec: GameSpec, options: dict, data: object):
    low, high = spec.player_range(tuple((o.key, o.default) for o in spec.options))
    players = () if spec.joins_by_tap else PLAYERS[:max(3, low) if high >= 3 else high]
    return engine.make_config(spec, players, None, options, data)


def choice_word(key: str, spec: GameSpec, names: frozenset[str]) -> str:
    """A choice id as the table writes it: NAME, CARD, `hand:NAME`, or as it is."""
    place, _, name = key.rpartition(":")
    if name in names:
        return f"{place}:NAME" if place else "NAME"
    return "CARD" if key in spec.card_ids() else key


def choices(keys: tuple[str, ...], spec: GameSpec, names: frozenset[str]) -> list[str]:
    """The prompt's ids as the table writes them: a run of numbers as FIRST..LAST."""
    if len(keys) > 2 and all(k.isdigit() for k in keys):
        return [f"{keys[0]}..{keys[-1]}"]
    return list(dict.fromkeys(choice_word(k, spec, names) for k in keys))


def prompts_of(spec: GameSpec) -> dict[str, tuple[str, list[str]]]:
    """Prompt id -> (its words the first time met, in English; every choice id met)."""
    found: dict[str, tuple[str, list[str]]] = {}
    met: set[tuple] = set()         # (prompt id, its ids, the names seated): its choices are in
    variants = house_rules(spec)
    data = seeds.game_data(spec.id, spec.deck)
    for playout in range(max(PLAYOUTS, 3 * len(variants))):
        # a third of the games tap first, a third answer first, a third change every turn
        way = playout % 3
        state = spec.initial(config(spec, variants[playout % len(variants)], data))
        stride = STRIDES[playout % len(STRIDES)]
        for turn in range(min(spec.max_events, LONGEST)):
            prompt = spec.prompt(state)
            if prompt.id not in found:      # its words the first time met
                found[prompt.id] = (" / ".join(render(prompt.text, "en").splitlines()), [])
            keys = prompt.keys()
            if keys:
                names = frozenset(p.name for p in spec.tally(state).players)
                if (prompt.id, keys, names) not in met:
                    met.add((prompt.id, keys, names))
                    seen = found[prompt.id][1]
                    seen += [c for c in choices(keys, spec, names) if c not in seen]
            if spec.result(state) is not None:
                break
            start = turn * stride + playout
            answer = next_answer(spec, state, prompt, start, way == 1 or (way == 2 and start % 2 == 1))
            if answer is None:
                break
            state = answer
    return found


class Asked:
    """`spec`, the prompt of `state` already worked out: the candidates to try ask it again
    (engine.core.step.candidate_events), and a prompt costs as much as a step."""

    def __init__(self, spec: GameSpec, state, prompt) -> None:
        self.spec, self.state, self.asked = spec, state, prompt

    def __getattr__(self, name: str):
        return getattr(self.spec, name)

    def prompt(self, state):
        return self.asked if state is self.state else self.spec.prompt(state)


def next_answer(spec: GameSpec, state, prompt, start: int, backwards: bool):
    """The state after the first event the game takes, trying the candidates from `start` on
    (round), backwards (the answers before the taps) if asked; None when it takes none."""
    events = candidate_events(Asked(spec, state, prompt), state)   # type: ignore[arg-type]
    if backwards:
        events.reverse()
    allowed = spec.allowed(state)       # step refuses any other kind first: not worth asking
    at = start % len(events)
    for event in [e for e in events[at:] + events[:at] if type(e) in allowed]:
        answer = step(spec, state, event)
        if isinstance(answer, Accepted):
            return answer.state
    return None


def section(spec: GameSpec) -> list[str]:
    lines = [f"### {spec.title} (`game {spec.id}`)", "", "| prompt | it asks | choose |",
             "|---|---|---|"]
    for prompt_id, (text, ids) in sorted(prompts_of(spec).items()):
        if ids:
            shown = " ".join(f"`{i}`" for i in ids)
            lines.append(f"| `{prompt_id}` | {text.replace('|', '/')} | {shown} |")
    return lines + [""]


def wanted() -> str:
    specs = sorted(built_in(), key=lambda spec: spec.order)
    words = "\n".join(f"| `{f'{verb} {arg}'.strip()}` | {meaning} |"
                      for verb, (arg, meaning) in WORDS.items())
    head = HEAD.format(games=" ".join(f"`{s.id}`" for s in specs), words=words,
                       buttons=", ".join(BUTTONS), holdable=" and ".join(HOLDABLE),
                       held=HELD_SECONDS, page=PAGE_SECONDS)
    body = [line for spec in specs for line in section(spec)]
    return head + "\n" + "\n".join(body)


def main(argv: list[str]) -> int:
    text = wanted()
    if "--check" in argv:
        current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
        if current != text:
            print(f"{DOC.relative_to(ROOT)} is out of date: run python tools/make_script_doc.py")
            return 1
        return 0
    DOC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
