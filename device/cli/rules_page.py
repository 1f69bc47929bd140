"""A game's rules page as docs/rules.md prints it: its rules.md's prose, then a table of its
house rules (label in English and French, default, values, what each decides). One
rendering for the companion's docs (tools/make_docs.py) and for `tabletop guide rules`, so a
game installed from elsewhere reads as the companion's own do."""
from __future__ import annotations

import importlib
import os
import re

from engine.core.options import OptionSpec
from engine.core.spec import GameSpec
from engine.core.text import msg, render

HOUSE_RULES_MARK = "<!-- house rules"
MEANING_LINE = re.compile(r"^- `(\w+)`: (.+)$")


class RulesPageError(ValueError):
    """A rules.md the page cannot be made of; the text names the game and what is missing."""


def game_file(spec: GameSpec, name: str) -> str:
    """One of the files in a game's package (rules.md, deck.toml, demo.script): read from the
    package's folder, or through importlib.resources where it has none (a zip), whose
    imports (zipfile, tempfile...) `tabletop guide rules` would otherwise pay for every game."""
    package = importlib.import_module(spec.home)
    folders = package.__spec__.submodule_search_locations if package.__spec__ else None
    if folders:
        path = os.path.join(next(iter(folders)), name)
        if os.path.isdir(os.path.dirname(path)):
            with open(path, encoding="utf-8") as file:
                return file.read()
    from importlib import resources
    return resources.files(spec.home).joinpath(name).read_text(encoding="utf-8")


def label(key: str, language: str) -> str:
    return render(msg(key), language).replace("\u00a0", " ")


def value_text(option: OptionSpec, value: object) -> str:
    if option.kind == "bool":
        return "on" if value else "off"
    return f"`{value}`"


def values(option: OptionSpec) -> str:
    """Every value the house rule takes."""
    if option.kind == "int":
        return f"{option.minimum} or more" if option.maximum is None else \
            f"{option.minimum} to {option.maximum}"
    if option.kind == "choice":
        return ", ".join(f"`{c}`" for c in option.choices)
    if option.kind == "bool":
        return "on, off"
    # a text option takes whatever its check does: the menu offers a few, `--option` any other
    return ", ".join(f"`{p}`" for p in (option.default, *option.presets)) + \
        " on the menu; others by `--option`"


def options_table(spec: GameSpec, meanings: dict[str, str]) -> str:
    lines = ["| house rule | on the screen | default | values | what it decides |",
             "|---|---|---|---|---|"]
    for option in spec.options:
        meaning = meanings.get(option.key)
        if meaning is None:     # the table never shows an option nobody explained
            raise RulesPageError(f"{spec.id}/rules.md: no line says what option {option.key} decides")
        lines.append(f"| `{option.key}` | {label(f'opt.{option.key}', 'en')} / "
                     f"{label(f'opt.{option.key}', 'fr')} | {value_text(option, option.default)} | "
                     f"{values(option)} | {meaning} |")
    return "\n".join(lines) + "\n"


def rules_parts(spec: GameSpec) -> tuple[str, dict[str, str]]:
    """A game's rules.md: its prose, and what each house rule decides, by option key."""
    prose, mark, rest = game_file(spec, "rules.md").partition(HOUSE_RULES_MARK)
    if not mark:
        raise RulesPageError(f"{spec.id}/rules.md: no `{HOUSE_RULES_MARK}` line before the house rules")
    return prose, {m[1]: m[2] for line in rest.splitlines() if (m := MEANING_LINE.match(line))}


def rules_page(spec: GameSpec) -> str:
    """The prose, then the house rules' table (nothing where the game has none)."""
    prose, meanings = rules_parts(spec)
    table = options_table(spec, meanings) if spec.options else ""
    return f"{prose.rstrip()}\n\n{table}".rstrip() + "\n"
