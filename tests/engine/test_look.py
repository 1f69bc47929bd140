"""Every registered game declares how it looks on the screen; the device reads only that."""
from __future__ import annotations

import pytest

import engine
from engine.core.outcomes import Tally
from engine.core.registry import built_in
from engine.core.spec import Look
from engine.core.text import catalog

SPECS = built_in()


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.id)
def test_every_game_declares_its_look(spec):
    look = spec.look
    assert isinstance(look, Look)
    assert look.name is not None, f"{spec.id} declares no header name"
    for message in (look.name, look.asks_first, look.deal):
        if message is not None:
            assert message.key in catalog("en") and message.key in catalog("fr"), message.key
    badge = look.badge(Tally(()))
    assert badge is None or badge.text()


def test_the_menu_order_is_declared_once_per_game():
    orders = [spec.order for spec in SPECS]
    assert len(set(orders)) == len(orders)


def test_a_game_names_its_card_kinds_in_its_own_words():
    assert engine.get("flouk").card_name("chief_mouta").text() == "Mouta Chief"
    assert engine.get("flouk").card_name("decree") is None
    assert engine.get("tamalou").card_name("joker") is None
    assert engine.get("palourde").card_name("clam").text() == engine.msg("pa.kind.clam").text()
