"""Every message of every game reads whole on the table's page, in English and in French, with
every seat named with 10 letters (the longest a roster takes): the conformance's random
playouts through the app, and at each message shown, the page's view of the screen holds all
its words, in order, and the turn's instructions (what UP reads again) each in one piece,
however the OLED's 21 columns page them."""
from __future__ import annotations

import os
import random

import pytest

from device.loop import Frames
from device.web.view import view

from .test_screens_fit import CONFORMANCE_SEEDS, SPECS, TEN_LETTERS, Played
from .test_screens_fit import playouts as screen_playouts

LANGUAGES = ("en", "fr")


def whole(text: str) -> str:
    return " ".join(text.split())


class Undrawn(Frames):
    """The frames of a table whose page is the question here: each screen is worked out as the
    loop does, and none is drawn (what the OLED shows is tests/device/test_screens_fit.py's)."""

    def update(self, app) -> bool:
        screen = app.screen()
        changed, self.last = screen != self.last, screen
        return changed


def named_playouts(spec) -> list[tuple[tuple[str, ...], int]]:
    return [(players, seed) for players, seed in screen_playouts(spec)
            if players[0] == TEN_LETTERS[0] and seed in CONFORMANCE_SEEDS]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", SPECS)
def test_every_message_of_a_game_reads_whole_on_the_page(tmp_path, monkeypatch, game, language):
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    spec, read, instructions = SPECS[game], [], 0
    for n, (players, seed) in enumerate(named_playouts(spec)):
        table = Played(tmp_path / str(n), spec, players, seed)
        table.frames = Undrawn()                         # the page's view is the question here
        app = table.app
        app.language = language
        shown = app.show

        def show(*messages, _shown=shown, _app=app, **kwargs) -> None:
            nonlocal instructions
            _shown(*messages, **kwargs)
            if _app.overlay is None:
                return
            page = view(_app, _app.screen())
            words = whole(" ".join(" ".join(lines) for lines in page["texts"]))
            for message in messages:
                text = whole(_app.t(message))
                if text not in words:
                    read.append(f"{language}, {game}: {text!r} is not whole in {page['texts']}")
            for said in page["last"]:
                instructions += 1
                if whole(said) not in {whole(_app.t(m)) for m in _app.recall.said}:
                    read.append(f"{language}, {game}: {said!r} is no instruction of the turn")
        monkeypatch.setattr(app, "show", show)
        table.play(random.Random(seed))
    assert not read, "\n".join(read[:10])
    assert instructions or not spec.instructions
