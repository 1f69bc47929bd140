"""Write docs/cards.md from the decks' manifests, and the games' part of docs/rules.md from
each game's own rules.md and option declarations, so neither can drift from the code.

Usage: python tools/make_docs.py           rewrite both files
       python tools/make_docs.py --check   exit 1, naming the file, if either is out of date

Every registered game is written, its own files read through the registry, so a game
installed from elsewhere is documented as the five of this project are:
- docs/rules.md is written by hand down to its `<!-- games -->` line; below it, each game in
  menu order: its rules.md up to the `<!-- house rules` line, then the table of its house
  rules, whose last column is the `- `key`: meaning` line its rules.md gives each option.
- docs/cards.md: one section a deck, a table of its kinds (or of its cards, grouped by kind),
  then the manifest's `notes`.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import seeds  # noqa: E402

# a game's rules page, as `tabletop guide rules` prints it too
from device.cli.rules_page import RulesPageError, options_table, rules_parts  # noqa: E402
from engine.core.registry import built_in, decks  # noqa: E402
from engine.core.spec import GameSpec  # noqa: E402
from engine.core.text import render  # noqa: E402

CARDS = ROOT / "docs" / "cards.md"
RULES = ROOT / "docs" / "rules.md"
GAMES_MARK = "<!-- games -->\n"
GAMES_END = "<!-- /games -->\n"           # what follows is written by hand, and kept


def ids(cards: list[str]) -> str:
    return " ".join(f"`{card}`" for card in cards)


# --- docs/cards.md --------------------------------------------------------------------------

def cell(value) -> str:
    """A manifest's value in a table: yes or no for a flag, blank where a kind has none."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else str(value)


def kinds_table(spec: GameSpec, manifest: seeds.Manifest) -> list[str]:
    """A row a kind: its name, in French where the game names its cards, what else the
    manifest says of it (points), its copies and ids."""
    extra = list(dict.fromkeys(k for data in manifest.kinds.values() for k in data
                               if k not in ("copies", "name")))
    french = spec.card_name is not None
    lines = ["| card | " + ("French | " if french else "") + "".join(f"{k} | " for k in extra) +
             "copies | ids |", "|---|" + "---|" * (len(extra) + 2 + french)]
    for kind, data in manifest.kinds.items():
        copies = int(data.get("copies", 1))
        cards = [kind] if copies == 1 else [f"{kind}#{n}" for n in range(1, copies + 1)]
        name = spec.card_name(kind) if spec.card_name else None
        cells = [manifest.name(kind)] + ([render(name, "fr") if name else "-"] if french else [])
        cells += [cell(data.get(k)) for k in extra] + [str(len(cards)), ids(cards)]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def cards_table(manifest: seeds.Manifest) -> list[str]:
    """Cards listed one by one (Flouk's): a row for each run of one kind, with the details
    all its cards share ("varies" where they differ)."""
    groups: dict[str, list[str]] = {}
    for card in manifest.cards:
        groups.setdefault(card.split("#", 1)[0], []).append(card)
    fields = list(dict.fromkeys(k for data in manifest.cards.values() for k in data
                                if isinstance(data.get(k), str)))
    lines = ["| kind | " + "".join(f"{k} | " for k in fields) + "copies | ids |",
             "|---|" + "---|" * (len(fields) + 2)]
    for kind, cards in groups.items():
        values = [{str(manifest.cards[c].get(f, "-")) for c in cards} for f in fields]
        cells = [kind] + [v.pop() if len(v) == 1 else "varies" for v in values]
        lines.append("| " + " | ".join(cells + [str(len(cards)), ids(cards)]) + " |")
    return lines


def deck_section(deck: str, owner: GameSpec) -> list[str]:
    manifest = seeds.load(deck)
    played = " and ".join(s.title for s in built_in() if s.deck == deck)
    lines = [f"## {manifest.title} (deck `{deck}`, played by {played})", ""]
    lines += cards_table(manifest) if manifest.cards else kinds_table(owner, manifest)
    return lines + ([""] + [manifest.notes.strip()] if manifest.notes else []) + [""]


def cards_markdown() -> str:
    parts = ["# Card ids", "",
             "Every physical card carries an NFC sticker, and `tabletop deck learn GAME` ties each "
             "sticker to a card id. The ids are what event scripts tap (`tap clam#3`) and what a "
             "deck file records. This page is written by "
             "`tools/make_docs.py` from the decks' manifests (each game package's `deck.toml`); "
             "edit those, not this.", ""]
    for deck, owner in decks().items():
        if owner not in built_in():         # the docs cover this project's games only
            continue
        parts += deck_section(deck, owner)
    return "\n".join(parts).rstrip("\n") + "\n"


# --- docs/rules.md --------------------------------------------------------------------------

def game_section(spec: GameSpec) -> str:
    """The game's heading, its own rules.md, and the table of its house rules."""
    prose, meanings = rules_parts(spec)
    return (f"## {spec.title}\n\n{prose}<!-- options:{spec.id} -->\n"
            f"{options_table(spec, meanings)}<!-- /options -->\n")


def rules_markdown(text: str) -> str:
    head, mark, rest = text.partition(GAMES_MARK)
    if not mark:
        raise SystemExit(f"docs/rules.md: no `{GAMES_MARK.strip()}` line to write the games below")
    tail = rest.partition(GAMES_END)[2]
    return head + mark + "\n" + "\n".join(game_section(spec) for spec in built_in()) + GAMES_END + tail


def wanted() -> dict[Path, str]:
    return {CARDS: cards_markdown(), RULES: rules_markdown(RULES.read_text(encoding="utf-8"))}


def main(argv: list[str]) -> int:
    try:
        made = wanted()
    except RulesPageError as exc:           # a game's rules.md says too little: say what
        print(exc, file=sys.stderr)
        return 1
    stale = [path for path, text in made.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    if "--check" in argv:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is out of date: run python tools/make_docs.py")
        return 1 if stale else 0
    for path, text in made.items():
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
