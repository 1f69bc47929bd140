"""The registry finds games through the `tabletop.games` entry points and refuses a bad one
with one line, leaving the others to play."""
from __future__ import annotations

import dataclasses
import sys
import types
from importlib.metadata import EntryPoint, entry_points

import pytest

import engine
from engine.core import registry
from engine.core.text import catalog


def entry(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=registry.GROUP)


@pytest.fixture
def plugin(monkeypatch):
    """A module a plug-in's entry point can name; `plugin.GAME = ...` sets what it holds."""
    module = types.ModuleType("fixture_plugin")
    monkeypatch.setitem(sys.modules, "fixture_plugin", module)
    return module


def test_every_game_here_registers_through_its_entry_point():
    entries = {e.name: e.load() for e in entry_points(group=registry.GROUP)}
    assert set(entries) == {spec.id for spec in engine.all_specs()}
    assert all(entries[spec.id] is spec for spec in engine.all_specs())
    assert engine.problems() == ()


def test_the_games_come_in_menu_order():
    orders = [spec.order for spec in engine.all_specs()]
    assert orders == sorted(orders)


def test_a_game_carries_its_texts_into_the_catalogs():
    for spec in engine.all_specs():
        for language, entries in spec.texts.items():
            assert all(catalog(language)[key] == text for key, text in entries.items())


def test_a_plugin_that_does_not_import_is_refused_with_one_line():
    [line] = registry.take_in([entry("broken", "no_such_module_anywhere:GAME")])
    assert line.startswith("game plug-in broken (no_such_module_anywhere:GAME) did not load: "
                           "ModuleNotFoundError")


def test_a_plugin_that_is_not_a_game_is_refused(plugin):
    plugin.GAME = "palourde"
    assert registry.take_in([entry("odd", "fixture_plugin:GAME")]) == \
        ["game plug-in odd refused: 'palourde' is not a GameSpec"]


def test_a_plugin_that_takes_a_known_id_is_refused(plugin):
    plugin.GAME = dataclasses.replace(engine.get("palourde"))
    assert registry.take_in([entry("twin", "fixture_plugin:GAME")]) == \
        ["game plug-in twin refused: game palourde registered twice"]


def texts(en: dict, fr: dict | None) -> dict:
    return {"en": en, **({"fr": fr} if fr is not None else {})}


@pytest.mark.parametrize("given, reason", [
    (texts({"x9.title": "X"}, None), "no texts in fr"),
    (texts({"x9.title": "X", "x9.hint": "Tap"}, {"x9.title": "X"}),
     "fr texts lack 1 that en has: x9.hint"),
    (texts({"x9.title": "X", "core.name": "{who}"}, {"x9.title": "X", "core.name": "{who}"}),
     "en texts redefine keys: core.name"),
    (texts({"x9.title": "X", "ui.badge.x9": "{n}"}, {"x9.title": "X", "ui.badge.x9": "{n}"}),
     "texts use the companion's own keys: ui.badge.x9"),
])
def test_a_plugin_whose_texts_are_wanting_is_refused_and_adds_none(plugin, given, reason):
    plugin.GAME = dataclasses.replace(engine.get("palourde"), id="x9", texts=given)
    assert registry.take_in([entry("x9", "fixture_plugin:GAME")]) == \
        [f"game plug-in x9 refused: game x9: {reason}"]
    assert "x9.title" not in catalog("en") and "x9" not in {s.id for s in engine.all_specs()}


def test_one_bad_plugin_leaves_the_others_playing(plugin):
    before = engine.all_specs()
    plugin.GAME = 42
    refused = registry.take_in([entry("a_bad", "fixture_plugin:GAME"), entry("b_gone", "nowhere:GAME")])
    assert len(refused) == 2 and engine.all_specs() == before
