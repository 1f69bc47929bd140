"""House rules as the menus show them: a readable name and value in the table's language.

Option keys and values stay what scripts and the journal use (`storm_ends_turn=true`);
only the screen names them ("Storm ends turn  on", "Tempête stoppe  oui").
"""
from __future__ import annotations

from engine.core.text import DEFAULT_LANGUAGE, Msg, catalog, msg

from .screen import fit_header


def option_line(app, key: str, value) -> str:
    """The option's name, then its value flush right: the name gives way, the value stays seen."""
    return fit_header(app.t(option_name(key)), app.t(value_name(value)))


def option_name(key: str) -> Msg:
    return _known(f"opt.{key}") or msg("core.name", name=key)


def value_name(value: object) -> Msg:
    """on/off, a choice's name, `rounds:3` as "3 rounds"; numbers and unnamed text as they are."""
    if isinstance(value, bool):
        return msg("opt.on" if value else "opt.off")
    kind, _, number = str(value).partition(":")
    if number:
        return _known(f"opt.value.{kind}", n=number) or msg("core.name", name=value)
    return _known(f"opt.value.{value}") or msg("core.name", name=value)


def _known(key: str, **args) -> Msg | None:
    return msg(key, **args) if key in catalog(DEFAULT_LANGUAGE) else None
