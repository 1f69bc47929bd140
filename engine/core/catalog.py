"""The catalogs of player-facing words: a language's text for each message key.

Catalog lines use `\\n` to break lines; each line is written to fit the 21-character screen
for typical names. A text that counts something has two forms, `{"one": ..., "other": ...}`,
and the message's count argument (`n`, or the one the text names under "count") picks one by
the language's rule: English says "1 clam, 0 clams", French "0 palourde, 1 palourde,
2 palourdes".

Apart from the messages themselves (engine.core.text): a command that only says its own
texts reads the catalogs without the dataclass machinery a message is built with.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping

DEFAULT_LANGUAGE = "en"
LANGUAGES = ("en", "fr")                      # every game and the device speak each

Template = str | Mapping[str, str]            # a plain text, or a text's plural forms
PLURAL_FORMS = ("one", "other")
COUNT = "count"                               # a plural text's key naming its count argument
# Which counts take the singular: French keeps it for 0 as for 1.
ONE: dict[str, Callable[[int], bool]] = {"en": lambda n: n == 1, "fr": lambda n: abs(n) < 2}

# language -> key -> template. Filled by engine.text (shared texts), the device's texts
# and the registry, which adds each game's own catalogs as it takes the game in.
_CATALOGS: dict[str, dict[str, Template]] = {}


class Said:
    """Something that says itself in each language (a message): as the argument of a text,
    it is said in that text's language."""

    __slots__ = ()

    def text(self, language: str = DEFAULT_LANGUAGE) -> str:
        raise NotImplementedError


def plural(one: str, other: str, count: str = "n") -> dict[str, str]:
    """A text counted by the argument `count`: its singular and its plural form."""
    return {"one": one, "other": other, **({COUNT: count} if count != "n" else {})}


def forms(template: Template) -> tuple[str, ...]:
    """Every form a catalog text may take: itself, or its singular and plural."""
    return (template,) if isinstance(template, str) else tuple(template[f] for f in PLURAL_FORMS)


def count_of(template: Template) -> str | None:
    """The argument a plural text counts by; None for a plain text."""
    return None if isinstance(template, str) else template.get(COUNT, "n")


def add_catalog(language: str, entries: Mapping[str, Template]) -> None:
    """Merge entries into a language's catalog. A key may be given again only with the same
    text: two games that share a house rule name it alike, and one may not rename another's.
    Against a part of the catalog not read yet, the check is made as that part is read."""
    clash = _clashes(language, entries)
    if clash:
        raise ValueError(f"message keys defined twice: {', '.join(clash)}")
    _CATALOGS.setdefault(language, {}).update(entries)


def clashes(language: str, entries: Mapping[str, Template]) -> list[str]:
    """The keys of `entries` that the language's catalog already gives another text, its parts
    not read yet included (a game is refused before it is taken in, not when a part is read)."""
    for key in entries:
        _text(language, key)          # a part not read yet is read first: it may hold the key
    return _clashes(language, entries)


def _clashes(language: str, entries: Mapping[str, Template]) -> list[str]:
    catalog = _CATALOGS.get(language, {})
    return sorted(k for k, v in entries.items() if k in catalog and catalog[k] != v)


# Called once before the catalogs are first missing a text, or are listed: the registry's
# discovery, which adds the games' texts, so a text asked for before any game was looked up is
# still found (and a command that looked its one game up finds that game's texts without it).
_FILLERS: list[Callable[[], None]] = []


def fill_with(filler: Callable[[], None]) -> None:
    _FILLERS.append(filler)


# language -> key prefix ("cli.") -> what adds that part of the language's catalog, called the
# first time a text under the prefix is asked for: a command reads the one part it speaks from,
# in its one language, not every part of every language at its start (the device's catalogs).
_PARTS: dict[str, dict[str, Callable[[], None]]] = {}


def add_part(language: str, prefixes: Iterable[str], load: Callable[[], None]) -> None:
    """`load()` adds the language's texts of these key prefixes, when one is first asked for."""
    for prefix in prefixes:
        _PARTS.setdefault(language, {})[prefix] = load


def _load_part(language: str, key: str) -> bool:
    """Read the part of the language's catalog that `key` belongs to; False if none is waiting."""
    parts = _PARTS.get(language, {})
    load = parts.get(key.partition(".")[0] + ".")
    if load is None:
        return False
    for prefix in [prefix for prefix, loader in parts.items() if loader is load]:
        del parts[prefix]
    load()
    return True


def _text(language: str, key: str) -> Template | None:
    """The language's text of `key` among the texts read so far and its part of the catalog."""
    found = _CATALOGS.get(language, {}).get(key)
    if found is None and _load_part(language, key):
        found = _CATALOGS.get(language, {}).get(key)
    return found


def _filled() -> dict[str, dict[str, Template]]:
    for language, parts in _PARTS.items():
        while parts:
            _load_part(language, next(iter(parts)))
    while _FILLERS:
        _FILLERS.pop()()
    return _CATALOGS


def catalog(language: str) -> Mapping[str, Template]:
    if not _FILLERS and not any(_PARTS.values()):
        return _CATALOGS.get(language, {})
    return _Filling(language)


class _Filling(Mapping[str, Template]):
    """A language's catalog that is filled when it lacks a text asked for, or is listed."""

    def __init__(self, language: str) -> None:
        self._language = language

    def __getitem__(self, key: str) -> Template:
        found = _text(self._language, key)
        return _filled().get(self._language, {})[key] if found is None else found

    def __iter__(self) -> Iterator[str]:
        return iter(_filled().get(self._language, {}))

    def __len__(self) -> int:
        return len(_filled().get(self._language, {}))


def languages() -> tuple[str, ...]:
    return tuple(sorted(_filled()))


def _arg_text(value: object, language: str) -> str:
    if isinstance(value, Said):
        return value.text(language)
    if isinstance(value, (tuple, list)):
        return ", ".join(_arg_text(v, language) for v in value)
    return str(value)


class MissingText(KeyError):
    """A message key that the asked language's catalog lacks (raised in strict mode only)."""


_STRICT = False


def strict(on: bool = True) -> None:
    """In strict mode (the tests'), rendering a key the language lacks raises MissingText
    instead of falling back: a text nobody wrote fails a test rather than reach the screen."""
    global _STRICT
    _STRICT = on


def words(key: str, args: Iterable[tuple[str, object]], language: str = DEFAULT_LANGUAGE) -> str:
    """The text of `key` in `language` with its arguments, falling back to English, then to the
    key. The games are looked up (their texts added) only for a key the catalogs do not have
    yet: a command that says only its own texts starts without them."""
    template = _text(language, key)
    if template is None:
        template = _filled().get(language, {}).get(key)
    if template is None and _STRICT:
        raise MissingText(f"no {language} text for {key!r}")
    if template is None:
        template = _CATALOGS.get(DEFAULT_LANGUAGE, {}).get(key, key)
    raw = dict(args)
    texts = {k: _arg_text(v, language) for k, v in raw.items()}
    return choose_form(template, raw, language).format(**texts)


def choose_form(template: Template, args: Mapping[str, object], language: str) -> str:
    """The form of `template` that fits its count; a count that is not a number is plural."""
    if isinstance(template, str):
        return template
    value = args[template.get(COUNT, "n")]
    try:
        number = int(str(value))
    except ValueError:
        return template["other"]
    one = ONE.get(language, ONE[DEFAULT_LANGUAGE])
    return template["one" if one(number) else "other"]
