"""Write docs/cards.md from the decks' manifests (seeds/), and the house-rule tables of
docs/rules.md from the games' own option declarations, so neither can drift from the code.

Usage: python tools/make_docs.py           rewrite both files
       python tools/make_docs.py --check   exit 1, naming the file, if either is out of date

docs/rules.md is written by hand except between `<!-- options:GAME -->` and
`<!-- /options -->`, where this tool puts the table of that game's house rules.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402  (registers the games and their texts)
import seeds  # noqa: E402
from engine.core.options import OptionSpec  # noqa: E402
from engine.core.text import msg, render  # noqa: E402
from engine.games.flouk.cards import PEOPLES  # noqa: E402

CARDS = ROOT / "docs" / "cards.md"
RULES = ROOT / "docs" / "rules.md"
OPTIONS = re.compile(r"(<!-- options:(\w+) -->\n).*?(<!-- /options -->)", re.S)
SUITS = (("S", "spades"), ("H", "hearts"), ("D", "diamonds"), ("C", "clubs"))

# What each house rule decides, in the docs' words; a new option without a line here fails
# the check, so the table never shows an option nobody explained.
MEANING = {
    "replay_after_clam_pair": "a Clam + Clam pair also gives a fresh turn",
    "storm_ends_turn": "after Storm Warning the turn passes (off: the same player plays again)",
    "storm_resets_high_tides": "the Storm shuffle takes the face-up High Tides back in",
    "peek_reminder": "the header reminds the next player which card was peeked at",
    "tie_rule": "equal leaders share the win, or nobody wins",
    "show_beach_counts": "the scores page also counts the face-down cards of each kind",
    "accuse_verdict": "the accused taps the hand cards, or the accuser answers with a button",
    "illegal_attack": "an attack card that would pair is refused, or puts the attacker out",
    "empty_pile": "with the pile empty, Draw and Challenge are gone, or the discards are "
                  "reshuffled",
    "max_players": "the most players the setup offers",
    "min_players": "the fewest players the setup offers",
    "start_tokens": "tokens each player starts with",
    "initial_pair": "two equal centre cards are discarded, or dealt again",
    "last_player_rule": "who must block: the last player not out, or the last one still open",
    "button": "the Button moves one seat each round, or stays",
    "zero_token": "a player with no token left can only block",
    "hints": "the decision screen says when no card can pair, or every card would",
    "snap_match": "a snap must match the top card's rank, or its points",
    "call_timing": "Tamalou is called instead of a turn, or after one",
    "lock_caller": "the caller's cards are shown as locked during the last round",
    "black_king_swap": "the black King's swap is part of its power, or optional",
    "all_must_be_le5": "every winner needs 5 points or less",
    "match": "one round, a number of rounds, or rounds up to a total",
    "caller_fail_penalty": "points added to a caller who does not win the round (match play)",
    "last_snap_s": "seconds left for snaps after the last turn (0: none)",
    "chief_counts_as_member": "a Chief counts as a Flouk of its people for welcomes and Actions",
    "decree_applies_to_chiefs": "a people Decree also multiplies that people's Chiefs",
    "white_tie": "equal or missing white numbers go by seat from the round's lead, or the "
                 "table is asked",
    "round_turns": "three reveals a round, or until every hand holds one card or none",
    "final_census": "at the end each player taps their village and Decree to check it",
}


def en(key: str, **args) -> str:
    return render(msg(key, **args), "en")


def fr(key: str, **args) -> str:
    return render(msg(key, **args), "fr").replace("\u00a0", " ")


def ids(cards: list[str]) -> str:
    return " ".join(f"`{card}`" for card in cards)


def by_kind(manifest) -> dict[str, list[str]]:
    """The manifest's card ids by kind: `kind` for a single copy, `kind#1..n` otherwise."""
    kinds: dict[str, list[str]] = {}
    for kind, data in manifest.kinds.items():
        copies = int(data.get("copies", 1))
        kinds[kind] = [kind] if copies == 1 else [f"{kind}#{n}" for n in range(1, copies + 1)]
    return kinds


def palourde() -> list[str]:
    manifest = seeds.load("palourde")
    lines = ["| card | French | copies | ids |", "|---|---|---|---|"]
    for kind, cards in by_kind(manifest).items():
        lines.append(f"| {manifest.name(kind)} | {fr(f'pa.kind.{kind}')} | {len(cards)} | "
                     f"{ids(cards)} |")
    golden = "golden_clam"
    return lines + ["", f"The {manifest.name(golden)} (`{golden}`) and the unused Baskets are set "
                    "aside: they are not on the Beach. The title card is optional; tapped on "
                    "the game select, it offers Palourde."]


def pirates() -> list[str]:
    lines = ["| value | copies | ids |", "|---|---|---|"]
    for kind, cards in by_kind(seeds.load("pirates")).items():
        lines.append(f"| {kind} | {len(cards)} | {ids(cards)} |")
    return lines


def tamalou() -> list[str]:
    manifest = seeds.load("tamalou")
    kinds = by_kind(manifest)
    lines = ["| rank | points | " + " | ".join(name for _, name in SUITS) + " |",
             "|---|---|" + "---|" * len(SUITS)]
    ranks: dict[str, list[str]] = {}
    for kind in kinds:
        if kind != "joker":
            ranks.setdefault(kind[:-1], []).append(kind)
    for rank, cards in ranks.items():
        points = sorted({manifest.kinds[c].get("points") for c in cards})
        cells = " | ".join(f"`{rank}{suit}`" for suit, _ in SUITS)
        lines.append(f"| {en(f'tm.rank.{rank}')} | {' or '.join(map(str, points))} | {cells} |")
    jokers = kinds["joker"]
    return lines + ["", f"Jokers ({ids(jokers)}) may be learned with the deck; the game refuses "
                    "them. The Kings score 15 when black (spades, clubs), 0 when red."]


def flouk() -> list[str]:
    manifest = seeds.load("flouk")
    groups: dict[tuple[str, str], list[str]] = {}
    for card, data in manifest.cards.items():
        groups.setdefault((str(data["type"]), str(data.get("people", ""))), []).append(card)
    lines = ["| cards | people | copies | ids |", "|---|---|---|---|"]
    for (kind, people), cards in groups.items():
        name = {"flouk": "Flouk", "chief": "Chief", "decree": "Decree", "action": "Action"}[kind]
        shown = en(f"fl.people.{people}") if people in PEOPLES else \
            ("as printed" if people == "unknown" else "-")
        lines.append(f"| {name} | {shown} | {len(cards)} | {ids(cards)} |")
    return lines + ["", "`decree#1` is the Bloup Decree of the rulebook (each Bloup counts "
                    "twice). Which printed card gets which Decree or Action number is the "
                    "café's choice, made once when the deck is learned: see "
                    "[flouk-cards.md](flouk-cards.md)."]


def cards_markdown() -> str:
    games = {deck: [s.title for s in engine.all_specs() if s.deck == deck] for deck in seeds.DECKS}
    parts = ["# Card ids", "",
             "Every physical card carries an NFC sticker, and `tabletop deck learn GAME` ties each "
             "sticker to a card id. The ids are what event scripts tap (`tap clam#3`) and what a "
             "deck file records. This page is written by "
             "`tools/make_docs.py` from the decks' manifests in `seeds/`; edit those, not this.",
             ""]
    sections = {"palourde": palourde, "pirates": pirates, "tamalou": tamalou, "flouk": flouk}
    for deck in seeds.DECKS:
        played = " and ".join(games[deck])
        parts += [f"## {seeds.load(deck).title} (deck `{deck}`, played by {played})", ""]
        parts += sections[deck]() + [""]
    return "\n".join(parts).rstrip("\n") + "\n"


def value_text(option: OptionSpec, value) -> str:
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
    return ", ".join(f"`{p}`" for p in (option.default, *option.presets))


def options_table(spec) -> str:
    lines = ["| house rule | on the screen | default | values | what it decides |",
             "|---|---|---|---|---|"]
    for option in spec.options:
        meaning = MEANING.get(option.key)
        if meaning is None:
            raise SystemExit(f"tools/make_docs.py: no meaning written for option {option.key}")
        lines.append(f"| `{option.key}` | {en(f'opt.{option.key}')} / {fr(f'opt.{option.key}')} | "
                     f"{value_text(option, option.default)} | {values(option)} | {meaning} |")
    return "\n".join(lines) + "\n"


def rules_markdown(text: str) -> str:
    return OPTIONS.sub(lambda m: m.group(1) + options_table(engine.get(m.group(2))) + m.group(3),
                       text)


def wanted() -> dict[Path, str]:
    return {CARDS: cards_markdown(), RULES: rules_markdown(RULES.read_text(encoding="utf-8"))}


def main(argv: list[str]) -> int:
    stale = [path for path, text in wanted().items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    if "--check" in argv:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is out of date: run python tools/make_docs.py")
        return 1 if stale else 0
    for path, text in wanted().items():
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
