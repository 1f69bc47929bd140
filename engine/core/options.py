"""House-rule options: declared per game, parsed from text, frozen at start."""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .record import field, record

_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}


class ConfigError(ValueError):
    """A game configuration the rules cannot start with; the text names the culprit."""


@record(slots=False)
class OptionSpec:
    """One house rule: `kind` is bool, int, choice or text (checked by `check`)."""

    key: str
    default: object
    kind: str = "bool"
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    check: Callable[[str], str | None] | None = field(default=None, compare=False)
    note: str = ""
    presets: tuple[str, ...] = ()     # values a menu offers for a text option

    def menu_values(self) -> tuple[object, ...]:
        """The values the house-rules menu cycles through, the default first."""
        if self.kind == "bool":
            values: tuple[object, ...] = (True, False)
        elif self.kind == "choice":
            values = self.choices
        elif self.kind == "int" and self.minimum is not None and self.maximum is not None:
            values = tuple(range(self.minimum, self.maximum + 1))
        else:
            values = tuple(self.parse(p) for p in self.presets)
        values = tuple(v for v in values if v != self.default)
        return (self.default,) + values

    def parse(self, raw: object) -> object:
        """The option's value from text (or an already typed value); ConfigError if bad."""
        text = str(raw).strip()
        if isinstance(raw, bool) and self.kind == "bool":
            return raw
        if self.kind == "bool":
            if text.lower() in _TRUE:
                return True
            if text.lower() in _FALSE:
                return False
            raise ConfigError(f"option {self.key}: {text!r} is not true or false")
        if self.kind == "int":
            return self._parse_int(text)
        if self.kind == "choice":
            if text not in self.choices:
                raise ConfigError(f"option {self.key}: {text!r} is not one of {'|'.join(self.choices)}")
            return text
        problem = self.check(text) if self.check else None
        if problem:
            raise ConfigError(f"option {self.key}: {problem}")
        return text

    def _parse_int(self, text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ConfigError(f"option {self.key}: {text!r} is not a whole number") from None
        if self.minimum is not None and value < self.minimum:
            raise ConfigError(f"option {self.key}: {value} is below {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise ConfigError(f"option {self.key}: {value} is above {self.maximum}")
        return value

    def describe(self) -> str:
        if self.kind == "choice":
            return "|".join(self.choices)
        if self.kind == "int":
            return "number"
        return "true|false" if self.kind == "bool" else "text"


Options = tuple[tuple[str, object], ...]
T = TypeVar("T")


def resolve_options(specs: tuple[OptionSpec, ...], given: dict[str, object]) -> Options:
    """Defaults overlaid with `given`; an unknown key or bad value is a ConfigError naming it."""
    by_key = {s.key: s for s in specs}
    unknown = sorted(set(given) - set(by_key))
    if unknown:
        known = ", ".join(sorted(by_key)) or "none"
        raise ConfigError(f"unknown option {unknown[0]} (known: {known})")
    values = {s.key: s.default for s in specs}
    for key, raw in given.items():
        values[key] = by_key[key].parse(raw)
    return tuple(sorted(values.items()))


def option_of(options: Options, key: str, kind: type[T]) -> T:
    """The value of option `key`, which its OptionSpec makes a `kind` (bool, int or str)."""
    value = option(options, key)
    if not isinstance(value, kind):
        raise TypeError(f"option {key} is {value!r}, not {kind.__name__}")
    return value


def option(options: Options, key: str) -> object:
    """The value of option `key` (a KeyError is a programming error)."""
    for k, v in options:
        if k == key:
            return v
    raise KeyError(key)
