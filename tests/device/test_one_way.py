"""The tap path goes one way: modes and plugins return what they want done, the app does it.

A mode or a plugin reads the table (the app) and returns actions (device/actions.py); only
the app changes itself. Plugins declare their order; the one check of a tapped card is
`refusal`.
"""
from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest

import engine
from device.actions import EndGame, Play, Show, Switch, Undo
from device.app import Companion
from device.assembly import assemble
from device.config import parse_config
from device.decks.registry import CardRef, StaffRef
from device.feedback import Feedback
from device.fleet.plugin import FleetPlugin, OfflineLink
from device.inputs import Tapped
from device.kiosk.plugin import Kiosk
from device.kiosk.screen_care import ScreenCare
from device.plugin import Plugin
from device.sim.clock import VirtualClock
from device.storage.card_data import LearnedCards
from device.ui.modes import refusal
from device.ui.playing import Confirmation, GlobalMenu, Playing
from device.ui.prompt_timer import PromptTimer
from device.ui.set_aside import SetAsideNotice
from engine import Tap
from engine.core.text import msg

from .table import SimTable

ROOT = Path(__file__).resolve().parents[2]
# every module whose code is a mode or a plugin: all of device/ but the app itself and the
# places that assemble or drive a table
DECIDERS = sorted(p for p in (ROOT / "device").rglob("*.py")
                  if p.name not in ("app.py", "assembly.py", "loop.py") and "cli" not in p.parts
                  and "sim" not in p.parts and "bench" not in p.parts)


def changes_to_the_app(path: Path) -> list[str]:
    """`app.x = ...`, `app.x[...] = ...`, and calls of the app's own changing methods."""
    changing = {"set_mode", "show", "play", "undo", "home", "start_game", "end_game",
                "resume_game", "apply", "attach", "detach"}
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AugAssign) else []
        for target in targets:
            while isinstance(target, ast.Subscript | ast.Attribute) and \
                    not (isinstance(target, ast.Attribute) and _is_app(target.value)):
                target = target.value
            if isinstance(target, ast.Attribute) and _is_app(target.value):
                found.append(f"{path.name}:{node.lineno}: app.{target.attr} = ...")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                _is_app(node.func.value) and node.func.attr in changing:
            found.append(f"{path.name}:{node.lineno}: app.{node.func.attr}(...)")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("insert", "append") and isinstance(node.func.value, ast.Attribute) \
                and node.func.value.attr == "plugins":
            found.append(f"{path.name}:{node.lineno}: plugins.{node.func.attr}(...)")
    return found


def _is_app(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "app"


@pytest.mark.parametrize("path", DECIDERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_mode_or_plugin_changes_the_app(path):
    assert changes_to_the_app(path) == []


def test_the_checker_sees_a_change(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f(app):\n    app.set_mode(None)\n    app.faults['x'] = 1\n"
                      "    app.overlay = None\n    app.plugins.insert(0, f)\n    app.t('x')\n")
    assert sorted(line.split(": ", 1)[1] for line in changes_to_the_app(sample)) == [
        "app.faults = ...", "app.overlay = ...", "app.set_mode(...)", "plugins.insert(...)"]


def test_a_tap_is_decided_by_the_mode_and_done_by_the_app(tmp_path):
    table = SimTable(tmp_path).start("palourde")
    app, mode, before = table.app, table.app.mode, table.state()
    ref = app.registry.lookup(app.registry.sim_uid("clam#1"))
    assert mode.tap(app, Tapped("uid", ref)) == [Play(Tap("clam#1"))]
    assert (app.mode, table.state(), app.overlay) == (mode, before, None)    # only decided
    app.apply(mode.tap(app, Tapped("uid", ref)))
    assert table.state() != before and isinstance(app.mode, Playing)


def test_menus_return_what_select_does(tmp_path):
    table = SimTable(tmp_path).start("palourde")
    app = table.app
    table.run("tap clam#1")
    [held] = app.mode.button(app, "select", held=True)
    assert isinstance(held, Switch) and isinstance(held.mode, GlobalMenu)
    menu = held.mode
    [back, asked] = menu.take(app, "undo")
    assert back == Switch(menu.back_to) and isinstance(asked.mode, Confirmation)
    assert asked.mode.button(app, "select", False) == [Switch(menu.back_to), Undo()]
    [abort] = menu.take(app, "abort")
    assert abort.mode.button(app, "select", False) == [Switch(menu.back_to),
                                                        EndGame(abandoned=True)]
    assert app.mode is not menu and app.session is not None              # nothing done yet


def test_the_one_check_of_a_tapped_card():
    palourde = engine.get("palourde")
    mine, other_deck = CardRef("cafe", "palourde", "clam#1"), CardRef("pub", "palourde", "clam#1")
    other_game = CardRef("pub", "pirates", "7#3")
    assert refusal(None, palourde, "cafe") == msg("ui.unknown_card")
    assert refusal(StaffRef("Zoe"), palourde, "cafe") == msg("ui.staff_card")
    assert refusal(other_deck, palourde, "cafe") == msg("ui.wrong_deck")
    assert refusal(mine, palourde, "cafe") is None
    assert refusal(other_game, palourde, "cafe") is None     # the engine names its game
    assert refusal(other_deck, palourde, None) is None       # no deck chosen: any of the family
    assert refusal(other_deck) is None                       # at the game select: any card


def test_a_wrong_deck_tap_is_refused_by_the_mode(tmp_path):
    table = SimTable(tmp_path).start("palourde")
    app = table.app
    app.deck = "cafe"
    ref = app.registry.lookup(app.registry.sim_uid("clam#1"))       # sim-palourde's clam
    assert app.mode.tap(app, Tapped("uid", ref)) == [Show.of(msg("ui.wrong_deck"))]


KIOSK_AND_FEEDBACK = """
[kiosk]
enabled = true
[feedback]
led_red = 17
led_green = 27
led_blue = 22
buzzer_pin = 18
"""


def test_plugins_take_their_declared_places(tmp_path):
    app = assemble(parse_config(KIOSK_AND_FEEDBACK), tmp_path, sim=True, out=io.StringIO())
    app.attach(FleetPlugin(OfflineLink("not configured"), "t1", lambda: ""))    # last, goes first
    try:
        assert [type(plugin) for plugin in app.plugins] == [
            FleetPlugin, ScreenCare, SetAsideNotice, Kiosk, LearnedCards, PromptTimer, Feedback]
    finally:
        for plugin in app.plugins:
            plugin.close()


def test_attach_sorts_by_order_and_keeps_equals_in_their_order(tmp_path):
    class Early(Plugin):
        order = 5

    app = Companion(registry=None, store=None, clock=VirtualClock())
    last, care, first, second = Plugin(), ScreenCare(parse_config("").kiosk), Early(), Plugin()
    app.attach(last, care)
    app.attach(first, second)
    assert app.plugins == (first, care, last, second)
    app.detach(care)
    assert app.plugins == (first, last, second)
