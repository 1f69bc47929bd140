"""Every registered game declares how it looks on the screen; the device reads only that."""
from __future__ import annotations

import pytest

import engine
from engine.core.spec import Look
from engine.core.text import catalog

SPECS = engine.all_specs()


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.id)
def test_every_game_declares_its_look(spec):
    look = spec.look
    assert isinstance(look, Look)
    assert look.name is not None, f"{spec.id} declares no header name"
    for message in (look.name, look.asks_first, look.deal):
        if message is not None:
            assert message.key in catalog("en") and message.key in catalog("fr"), message.key
    badge = look.badge({})
    assert badge is None or badge.text()


def test_the_menu_order_is_declared_once_per_game():
    orders = [spec.order for spec in SPECS]
    assert len(set(orders)) == len(orders)
