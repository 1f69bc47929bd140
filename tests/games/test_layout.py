"""Every game package here reads in one order, the order of its rules: metadata, the state,
each phase's prompt with its hint, the result, and registration last.

The layout is held by the files each package has, the section headers of its three main
modules (`# ---- <section>`, in the same words and the same order in every game), what is
defined under which header, and the package docstring that says where each part is.
"""
from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

import engine.games

GAMES_DIR = Path(engine.games.__file__).parent
GAMES = sorted(p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").is_file())

FILES = {"__init__.py", "state.py", "prompts.py", "texts_en.py", "texts_fr.py", "rules.md", "demo.script"}

# The sections each module has, in order; "+" marks one that may repeat (one per phase, or
# the state's helpers grouped by what they read), "?" one a game may leave out.
SECTIONS = {
    "state.py": ("metadata", "the state", "helpers+"),
    "prompts.py": ("phase by phase: the prompt and the hint", "the tally and the result"),
    "rules": ("helpers?", "setup", "phase+", "the phase table", "invariants", "registration"),
}

# Where the names every game has are defined: module, section.
HOMES = {
    "OPTIONS": ("state.py", "metadata"),
    "State": ("state.py", "the state"),
    "PHASE_TEXTS": ("prompts.py", "phase by phase: the prompt and the hint"),
    "prompt": ("prompts.py", "phase by phase: the prompt and the hint"),
    "hint": ("prompts.py", "phase by phase: the prompt and the hint"),
    "tally": ("prompts.py", "the tally and the result"),
    "initial": ("rules", "setup"),
    "TABLE": ("rules", "the phase table"),
    "invariants": ("rules", "invariants"),
    "GAME": ("rules", "registration"),
}

HEADER = re.compile(r"^# ---- (.+?) -*$")


def source(game: str, module: str) -> str:
    name = f"{game}.py" if module == "rules" else module
    return (GAMES_DIR / game / name).read_text(encoding="utf-8")


def section(title: str) -> str:
    """A header's section: "phase: flip (§1.5)" is a phase, "helpers: seats" helpers."""
    for kind in ("phase", "helpers"):
        if title.startswith((f"{kind}:", f"{kind} (")) or title == kind:
            return kind
    return re.sub(r" \(.*\)$", "", title)


def sections(text: str) -> list[tuple[int, str]]:
    """(line number, section) for each header, in the order they come."""
    return [(n, section(m.group(1))) for n, line in enumerate(text.splitlines(), 1)
            if (m := HEADER.match(line))]


def matches(found: list[str], expected: tuple[str, ...]) -> bool:
    pattern = "".join(
        f"(?:{re.escape(s[:-1])};)+" if s.endswith("+") else
        f"(?:{re.escape(s[:-1])};)?" if s.endswith("?") else f"{re.escape(s)};"
        for s in expected)
    return re.fullmatch(pattern, "".join(f"{s};" for s in found)) is not None


def defined_in(text: str, name: str) -> int | None:
    """The line a top-level def, class or assignment of `name` starts on."""
    for node in ast.parse(text).body:
        assigned = getattr(node, "targets", None) or [getattr(node, "target", None)]
        targets = [t.id for t in assigned if isinstance(t, ast.Name)]
        if getattr(node, "name", None) == name or name in targets:
            return node.lineno
    return None


def test_the_games_here_are_the_five():
    assert GAMES == ["auberge", "flouk", "palourde", "tamalou", "tribord"]


@pytest.mark.parametrize("game", GAMES)
def test_a_game_package_has_every_part_in_a_file_of_the_same_name(game):
    files = {p.name for p in (GAMES_DIR / game).iterdir()}
    assert FILES | {f"{game}.py"} <= files


@pytest.mark.parametrize("game", GAMES)
def test_a_game_that_owns_its_deck_keeps_its_manifest_in_its_folder(game):
    """A tribord! plays L'Auberge's deck and says so in its GameSpec, so it has no deck.toml."""
    owns_deck = not importlib.import_module(f"engine.games.{game}.{game}").GAME.manifest_from
    assert (GAMES_DIR / game / "deck.toml").is_file() == owns_deck


@pytest.mark.parametrize("module", SECTIONS)
@pytest.mark.parametrize("game", GAMES)
def test_the_section_headers_come_in_the_same_order_in_every_game(game, module):
    found = [s for _, s in sections(source(game, module))]
    assert matches(found, SECTIONS[module]), f"{game} {module}: {found}"


@pytest.mark.parametrize("name", HOMES)
@pytest.mark.parametrize("game", GAMES)
def test_each_part_is_defined_under_its_header(game, name):
    module, wanted = HOMES[name]
    text = source(game, module)
    line = defined_in(text, name)
    assert line is not None, f"{game}: no {name} in {module}"
    above = [s for n, s in sections(text) if n < line]
    assert above and above[-1] == wanted, f"{game}: {name} is under {above[-1:]}, not {wanted}"


@pytest.mark.parametrize("game", GAMES)
def test_each_phase_has_its_prompt_and_its_hint_in_one_table_in_play_order(game):
    """PHASE_TEXTS pairs each phase's prompt with its hint, for every phase of the phase table
    and in its order."""
    prompts = importlib.import_module(f"engine.games.{game}.prompts")
    rules = importlib.import_module(f"engine.games.{game}.{game}")
    assert list(prompts.PHASE_TEXTS) == list(rules.TABLE.handlers)
    assert all(callable(ask) and isinstance(hint, str) for ask, hint in prompts.PHASE_TEXTS.values())


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_module_ends_with_its_registration(game):
    last = ast.parse(source(game, "rules")).body[-1]
    assert isinstance(last, ast.Assign) and [t.id for t in last.targets if isinstance(t, ast.Name)] == ["GAME"]
    assert isinstance(last.value, ast.Call) and getattr(last.value.func, "id", None) == "GameSpec"


def layout_words(game: str) -> str:
    """The package docstring's layout paragraph, with the game's own names taken out."""
    doc = " ".join((ast.get_docstring(ast.parse(source(game, "__init__.py"))) or "").split())
    start, end = doc.find("state.py holds"), doc.find("demo.script")
    assert start >= 0 and end > start, f"{game}: the docstring does not say where each part is"
    return doc[start:end].replace(f"{game}.py", "<game>.py")


def test_every_package_docstring_says_where_each_part_is_in_the_same_words():
    words = {game: layout_words(game) for game in GAMES}
    assert len(set(words.values())) == 1, words
