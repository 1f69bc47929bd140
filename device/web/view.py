"""What the page shows of the table, read on the loop's thread: the OLED's rows as the panel
lays them out, and what its 21 columns cannot hold, whole.

It holds nothing the OLED would not show: the screen's own lines, every page of the
messages over it (each line whole: a message's lines are only cut by the panel), the
prompt the game asks, the tally's public lines (names, scores, who is out, whose turn)
and the last instructions UP reads again. No hand, no card of anyone's, no detail of the
engine's state.
"""
from __future__ import annotations

from typing import Any

from device.ui.layout import layout
from device.ui.screen import Screen
from engine.core.text import render

from .explain import setup_notes


def view(app, screen: Screen) -> dict[str, Any]:
    """The page's view of the table now (`screen`: the frame just drawn)."""
    laid = layout(screen)
    rows = [row.text for row in laid.rows]
    texts = [list(page) for page in app.overlay.pages] if app.overlay is not None \
        else [list(screen.lines)]
    out: dict[str, Any] = {"header": laid.header or "", "rows": rows,
                           "highlight": screen.highlight, "texts": texts,
                           "game": None, "prompt": None, "players": [], "turn": None,
                           "round": None, "last": [], "setup": setup_notes(app),
                           "language": app.language}
    if app.session is not None:
        prompt, tally = app.view()
        out.update(game=app.session.spec.id, prompt=render(prompt.text, app.language),
                   players=[{"name": p.name, "score": p.score, "out": p.out}
                            for p in tally.players],
                   turn=tally.current, round=tally.round,
                   last=[render(said, app.language) for said in app.recall.said])
    return out
