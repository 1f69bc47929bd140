"""Flouk's card data: what each of the 100 cards is and does.

The rulebook gives the composition and one Decree; everything else (white
numbers, Chief powers, Action effects, the other Decrees) is read off the
café's printed cards into a TOML file of `[cards."<id>"]` tables. This module
checks that data and turns it into the frozen `CardInfo` values the rules read.
A problem is reported as "<card id>: <field>: <what is wrong>", never raised
as anything but a ConfigError, so a hand-edited file cannot crash the device.
"""
from __future__ import annotations

from typing import Any

from tabletop_kit import ConfigError, Msg, card_ids, kind_of, msg, record, replace

PEOPLES = ("mouta", "faar", "bloup", "napil", "parok")
NEUTRAL = "neutral"
FLOUK, CHIEF, DECREE, ACTION = "flouk", "chief", "decree", "action"
TYPES = (FLOUK, CHIEF, DECREE, ACTION)
MANUAL = "manual"
UNKNOWN = "unknown"       # a printed detail nobody has read off the card yet (learned at the table)
PEOPLE, WHITE = "people", "white"   # the details a table can be asked for
WHITE_RANGE = range(100)  # the white numbers a table can answer with the buttons

# §5.1 Components: (kind, copies), 100 cards in all.
COMPONENTS = (tuple((p, 10) for p in PEOPLES) + tuple((f"chief_{p}", 2) for p in PEOPLES)
              + ((DECREE, 7), (ACTION, 33)))
ALL_CARDS = card_ids(COMPONENTS)
DECK_SIZE = len(ALL_CARDS)

# The structured primitives of §5.1, with the fields each one takes.
EFFECT_MODES = {
    MANUAL: (), "none": (), "move_village_card": ("from", "to", "filter"),
    "discard_village_card": ("target", "filter"), "draw_from_pile": ("n",),
    "steal_from_hand": ("n",),
}
WHOSE = {"move_village_card": ("from", ("choose_opponent", "any")),
         "discard_village_card": ("target", ("choose_opponent", "self"))}
SCORING_KINDS = {MANUAL: (), "people_multiplier": ("people", "factor"), "flat_bonus": ("n",),
                 "conditional": ("if", "then")}
FIELDS = {FLOUK: ("type", "people"), CHIEF: ("type", "people", "white", "power"),
          DECREE: ("type", "scoring"), ACTION: ("type", "people", "white", "effect")}


@record
class Effect:
    """A Chief power or an Action effect: `manual`, `none` or one structured primitive."""

    mode: str = MANUAL
    whose: str | None = None      # move: choose_opponent|any; discard: choose_opponent|self
    people: str | None = None     # filter on the village card
    kind: str | None = None       # filter on the village card: flouk|chief
    n: int | None = None          # draw_from_pile, steal_from_hand
    text: str = ""


@record
class Scoring:
    """How a Decree scores its owner's village (§5.1 `scoring.kind`)."""

    kind: str = MANUAL
    people: str | None = None     # people_multiplier
    factor: int | None = None
    n: int | None = None          # flat_bonus
    test: str | None = None       # conditional: min_count | distinct_peoples
    test_people: str | None = None
    test_n: int | None = None
    then: Scoring | None = None
    text: str = ""


@record
class CardInfo:
    """One card's data; the type and a Flouk's or Chief's people come from the card id."""

    card: str
    people: str | None = None     # a people; `neutral` for a Flouk Action, `unknown` if not known
    white: int | None = None      # Chiefs and Actions; None while unknown
    effect: Effect | None = None  # a Chief's power or an Action's effect
    scoring: Scoring | None = None


def _type_of(card: str) -> str:
    kind = kind_of(card)
    if kind in PEOPLES:
        return FLOUK
    return CHIEF if kind.startswith("chief_") else kind


def _people_of_id(card: str) -> str | None:
    kind = kind_of(card)
    if kind in PEOPLES:
        return kind
    return kind[len("chief_"):] if kind.startswith("chief_") else None


# Looked up on every tap the rules check: computed once.
_TYPES = {card: _type_of(card) for card in ALL_CARDS}
_PEOPLES = {card: _people_of_id(card) for card in ALL_CARDS}
VILLAGERS = frozenset(card for card, kind in _TYPES.items() if kind in (FLOUK, CHIEF))  # what villages hold


def type_of(card: str) -> str:
    """flouk, chief, decree or action, from the card id."""
    return _TYPES[card]


def people_of_id(card: str) -> str | None:
    """The people a Flouk or Chief belongs to, from its id; None for Decrees and Actions."""
    return _PEOPLES[card]


def card_name(card: str) -> Msg | None:
    """A card, or a kind, in words: "Mouta", "Mouta Chief", "Decree 2", "Action 12". A Decree or
    an Action named by its kind alone has no name of its own."""
    kind, _, number = card.partition("#")
    people = kind.removeprefix("chief_")
    if people in PEOPLES:
        name = msg(f"fl.people.{people}")
        return msg("fl.card.chief", people=name) if kind != people else name
    return msg(f"fl.card.{kind}", n=number) if kind in (DECREE, ACTION) and number else None


def default_info(card: str) -> CardInfo:
    """What the rulebook alone says: effects `manual`, an Action's people and white numbers unknown."""
    kind = type_of(card)
    if kind == DECREE:
        return CardInfo(card, scoring=Scoring())
    if kind == ACTION:
        return CardInfo(card, people=UNKNOWN, effect=Effect())
    return CardInfo(card, people=people_of_id(card), effect=Effect() if kind == CHIEF else None)


def unknown_details(info: CardInfo) -> tuple[str, ...]:
    """The printed details of a Chief or Action still to learn: `people`, `white`."""
    kind = type_of(info.card)
    if kind not in (CHIEF, ACTION):
        return ()
    return ((PEOPLE,) if info.people == UNKNOWN else ()) + ((WHITE,) if info.white is None else ())


def detail_problem(card: str, detail: str, value: object) -> str | None:
    """Why `value` cannot be the learned `detail` of `card`; None when it can."""
    kind = type_of(card) if card in _TYPES else None
    if kind not in (CHIEF, ACTION):
        return f"{card!r}: only Chiefs and Actions have details to learn"
    if detail == WHITE:
        if type(value) is not int or value not in WHITE_RANGE:
            return f"{card}: white: {value!r} is not a whole number from 0 to {WHITE_RANGE[-1]}"
        return None
    if detail == PEOPLE and kind == ACTION:
        if value not in (NEUTRAL,) + PEOPLES:
            return f"{card}: people: {value!r} is not one of {', '.join((NEUTRAL,) + PEOPLES)}"
        return None
    return f"{card}: {detail}: not a detail a table learns"


def with_detail(info: CardInfo, detail: str, value: object) -> CardInfo:
    """The card's data with one learned detail filled in (checked by `detail_problem`)."""
    if detail == WHITE and (value is None or type(value) is int):
        return replace(info, white=value)
    if detail == PEOPLE and (value is None or isinstance(value, str)):
        return replace(info, people=value)
    raise ValueError(f"{info.card}: {detail}: not a detail a table learns")


# ---- checking the data ---------------------------------------------------------

class _Problems(list):
    def add(self, where: str, text: str) -> None:
        self.append(f"{where}: {text}")


def card_problems(data: Any) -> list[str]:
    """Every problem of a card file's parsed content ({"cards": {id: table}}); empty if good."""
    problems = _Problems()
    _parse_cards(data, problems)
    return list(problems)


def read_cards(data: Any) -> tuple[CardInfo, ...]:
    """The 100 cards' frozen data, in card id order; a ConfigError naming card and field."""
    problems = _Problems()
    cards = _parse_cards(data, problems)
    if problems:
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        raise ConfigError(f"Flouk card data: {problems[0]}{more}")
    return cards


def check_data(data: Any) -> dict:
    """GameSpec.data_check: the checked card file, kept as plain JSON-like data.

    The config travels in journals as JSON, so it keeps the tables; the rules
    read them through `read_cards` when the game starts.
    """
    read_cards(data)
    return {"cards": {card: data["cards"][card] for card in ALL_CARDS}}


def _parse_cards(data: Any, problems: _Problems) -> tuple[CardInfo, ...]:
    tables = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(tables, dict):
        problems.append('no [cards."<id>"] tables: the file must list all 100 cards')
        return ()
    known = set(ALL_CARDS)
    for card in sorted(str(c) for c in tables if c not in known):
        problems.add(repr(card), "unknown card id (ids: mouta#1..10, chief_mouta#1..2, "
                                 "decree#1..7, action#1..33)")
    infos = []
    for card in ALL_CARDS:
        if card not in tables:
            problems.add(card, "missing: every one of the 100 cards needs a table")
        else:
            infos.append(_parse_card(card, tables[card], problems))
    return tuple(infos)


def _parse_card(card: str, table: Any, problems: _Problems) -> CardInfo:
    info = default_info(card)
    if not isinstance(table, dict):
        problems.add(card, "must be a table of fields")
        return info
    kind = type_of(card)
    for name in sorted(str(k) for k in table if k not in FIELDS[kind]):
        problems.add(card, f"{name}: unknown field for a {kind} (fields: {', '.join(FIELDS[kind])})")
    given = table.get("type")
    if given is None:
        problems.add(card, f'type: missing (this card is a "{kind}")')
    elif given not in TYPES:
        problems.add(card, f"type: unknown type {given!r} (flouk, chief, decree or action)")
    elif given != kind:
        problems.add(card, f'type: {given!r} does not match the card id (a "{kind}")')
    people = _people(card, kind, table.get("people"), problems)
    white = _white(card, table.get("white"), problems) if kind in (CHIEF, ACTION) else None
    if kind == DECREE:
        return CardInfo(card, scoring=_scoring(card, "scoring", table.get("scoring"), problems, True))
    if kind == FLOUK:
        return CardInfo(card, people=people)
    key = "power" if kind == CHIEF else "effect"
    return CardInfo(card, people=people, white=white, effect=_effect(card, key, table.get(key), problems))


def _people(card: str, kind: str, value: Any, problems: _Problems) -> str | None:
    if kind == DECREE:
        return None
    if kind == ACTION:
        choices = (UNKNOWN, NEUTRAL) + PEOPLES
        if value not in choices:
            shown = "missing" if value is None else f"{value!r} is not"
            problems.add(card, f"people: {shown} one of {', '.join(choices)}")
        return value if value in choices else UNKNOWN
    expected = people_of_id(card)
    if value is None:
        problems.add(card, f'people: missing (this card is "{expected}")')
    elif value != expected:
        problems.add(card, f'people: {value!r} does not match the card id ("{expected}")')
    return expected


def _white(card: str, value: Any, problems: _Problems) -> int | None:
    if value is None or value == UNKNOWN:
        return None
    if type(value) is not int or not 0 <= value <= 999:
        problems.add(card, f'white: {value!r} is not a whole number from 0 to 999 '
                           f'(or "unknown")')
        return None
    return value


def _whole(card: str, where: str, value: Any, problems: _Problems, low: int = 1) -> int | None:
    if type(value) is not int or not low <= value <= 99:
        shown = "missing" if value is None else f"{value!r} is not"
        problems.add(card, f"{where}: {shown} a whole number from {low} to 99")
        return None
    return value


def _fields(card: str, where: str, value: Any, allowed: tuple[str, ...], problems: _Problems) -> dict:
    for name in sorted(str(k) for k in value if k not in allowed):
        problems.add(card, f"{where}.{name}: unknown field (fields: {', '.join(allowed) or 'none'})")
    return value


def _effect(card: str, where: str, value: Any, problems: _Problems) -> Effect:
    if value is None:
        return Effect()
    if not isinstance(value, dict):
        problems.add(card, f'{where}: must be a table like {{ mode = "manual" }}')
        return Effect()
    mode = value.get("mode", MANUAL)
    if mode not in tuple(EFFECT_MODES):           # a tuple: a hand-edited mode may be unhashable
        problems.add(card, f"{where}.mode: unknown mode {mode!r} ({', '.join(EFFECT_MODES)})")
        return Effect()
    _fields(card, where, value, ("mode", "text") + EFFECT_MODES[mode], problems)
    text = _text(card, where, value.get("text", ""), problems)
    if mode in ("draw_from_pile", "steal_from_hand"):
        return Effect(mode, n=_whole(card, f"{where}.n", value.get("n"), problems), text=text)
    if mode not in WHOSE:
        return Effect(mode, text=text)
    return _village_effect(card, where, mode, value, text, problems)


def _village_effect(card: str, where: str, mode: str, value: dict, text: str,
                    problems: _Problems) -> Effect:
    key, choices = WHOSE[mode]
    whose = value.get(key)
    if whose not in choices:
        shown = "missing" if whose is None else f"{whose!r} is not"
        problems.add(card, f"{where}.{key}: {shown} one of {', '.join(choices)}")
    if mode == "move_village_card" and value.get("to", "self") != "self":
        problems.add(card, f'{where}.to: {value.get("to")!r}: only "self" is supported')
    people, kind = _filter(card, f"{where}.filter", value.get("filter", {}), problems)
    return Effect(mode, whose if whose in choices else choices[0], people, kind, text=text)


def _filter(card: str, where: str, value: Any, problems: _Problems) -> tuple[str | None, str | None]:
    if not isinstance(value, dict):
        problems.add(card, f'{where}: must be a table like {{ people = "bloup" }}')
        return None, None
    _fields(card, where, value, ("people", "type"), problems)
    people, kind = value.get("people"), value.get("type")
    if people is not None and people not in PEOPLES:
        problems.add(card, f"{where}.people: {people!r} is not one of {', '.join(PEOPLES)}")
        people = None
    if kind is not None and kind not in (FLOUK, CHIEF):
        problems.add(card, f"{where}.type: {kind!r} is not flouk or chief")
        kind = None
    return people, kind


def _text(card: str, where: str, value: Any, problems: _Problems) -> str:
    if not isinstance(value, str):
        problems.add(card, f"{where}.text: must be a quoted text")
        return ""
    return value


def _scoring(card: str, where: str, value: Any, problems: _Problems, top: bool) -> Scoring:
    if value is None and top:
        return Scoring()
    if not isinstance(value, dict):
        problems.add(card, f'{where}: must be a table like {{ kind = "manual" }}')
        return Scoring()
    kind = value.get("kind", MANUAL if top else None)
    kinds = tuple(SCORING_KINDS) if top else tuple(k for k in SCORING_KINDS if k != MANUAL)
    if kind not in kinds:
        problems.add(card, f"{where}.kind: {kind!r} is not one of {', '.join(kinds)}")
        return Scoring()
    _fields(card, where, value, ("kind", "text") + SCORING_KINDS[kind], problems)
    text = _text(card, where, value.get("text", ""), problems)
    if kind == "people_multiplier":
        people = value.get("people")
        if people not in PEOPLES:
            problems.add(card, f"{where}.people: {people!r} is not one of {', '.join(PEOPLES)}")
        factor = _whole(card, f"{where}.factor", value.get("factor"), problems, low=0)
        return Scoring(kind, people=people if people in PEOPLES else None, factor=factor, text=text)
    if kind == "flat_bonus":
        return Scoring(kind, n=_whole(card, f"{where}.n", value.get("n"), problems, low=-99), text=text)
    if kind == "conditional":
        return _conditional(card, where, value, text, problems)
    return Scoring(text=text)


def _conditional(card: str, where: str, value: dict, text: str, problems: _Problems) -> Scoring:
    """`if` is {min_count = {people, n}} or {distinct_peoples = n}; `then` a non-manual scoring."""
    test = value.get("if")
    then = _scoring(card, f"{where}.then", value.get("then"), problems, False)
    if isinstance(test, dict) and set(test) == {"distinct_peoples"}:
        n = _whole(card, f"{where}.if.distinct_peoples", test["distinct_peoples"], problems)
        return Scoring("conditional", test="distinct_peoples", test_n=n, then=then, text=text)
    if isinstance(test, dict) and set(test) == {"min_count"} and isinstance(test["min_count"], dict):
        inner = _fields(card, f"{where}.if.min_count", test["min_count"], ("people", "n"), problems)
        people = inner.get("people")
        if people not in PEOPLES:
            problems.add(card, f"{where}.if.min_count.people: {people!r} is not one of "
                               f"{', '.join(PEOPLES)}")
        n = _whole(card, f"{where}.if.min_count.n", inner.get("n"), problems)
        return Scoring("conditional", test="min_count", test_people=people if people in PEOPLES else None,
                       test_n=n, then=then, text=text)
    problems.add(card, f"{where}.if: must be {{ min_count = {{ people = ..., n = ... }} }} "
                       "or { distinct_peoples = n }")
    return Scoring()
