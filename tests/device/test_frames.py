"""Golden PNG frames of the key screens of each game, compared pixel for pixel.

`pytest --update-goldens` rewrites them, and the README's contact sheet (docs/screens.png)
with them; review the pictures before committing.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from device.ui.render import render

from . import test_sim_flouk
from .table import SimTable, to_game

FRAMES_DIR = Path(__file__).parent / "frames"
SHEET = Path(__file__).parents[2] / "docs" / "screens.png"
SHEET_FRAMES = ("game_select", "palourde_flip", "palourde_crab_victim", "tribord_decide",
                "auberge_accusation", "tamalou_reveal", "flouk_chief_welcomed", "flouk_report",
                "palourde_game_over")

PALOURDE = ("palourde", "Ann,Bob,Cy")
AUBERGE_OPEN = "tap 5#1\ntap 3#1\ntap 8#1\nwait 2\n"
TAMALOU = ("tamalou", "P1,P2")
TAMALOU_LAST_TURNS = """
    tap 7C
    wait 2
    press down
    press down
    press select
    wait 2
    press select
    press down
    press select
    tap 5H
    wait 4
    press select
    wait 2
    """
FLOUK_TURN_2 = """
    press select
    wait 2
    tap mouta#1
    tap faar#1
    tap bloup#1
    wait 2
    tap chief_mouta#1
    tap decree#2
    tap chief_faar#1
    wait 2
    press back
    press select
    press select
    wait 2
    press select
    press up
    press select
    wait 2
    """

# name: (game flags or None for the menus, simulator lines up to the screen). A message that
# asks the table to move cards or tokens stays until the next input: BACK clears it here.
FRAMES = {
    "game_select": (None, ""),
    "house_rules": (None, to_game("tribord") + "press down\npress select\npress down\n"
                                               "press select\npress select"),
    "palourde_flip": (PALOURDE, "tap clam#1\ntap clam#2\npress back"),
    "palourde_pair": (PALOURDE, "tap clam#1\ntap clam#2"),
    "palourde_crab_victim": (PALOURDE, "tap clam#1\ntap clam#2\npress back\ntap crab#1\n"
                                       "tap crab#2\npress back"),
    "palourde_rejection": (PALOURDE, "tap clam#9\nwait 2\ntap clam#9"),
    "palourde_game_over": (PALOURDE, "tap clam#1\ntap clam#2\nwait 2\ntap high_tide#1\n"
                                     "tap high_tide#2\ntap high_tide#3\nwait 4"),
    "auberge_turn": (("auberge",), AUBERGE_OPEN),
    "auberge_accusation": (("auberge",), AUBERGE_OPEN + "press down\npress down\npress select\n"
                                                       "press select\ntap 6#1"),
    "auberge_game_over": (("auberge", "P1,P2"), "tap 5#1\ntap 3#1\nwait 2\npress down\n"
                                                "press down\npress select\npress select\n"
                                                "tap 6#1\ntap 6#2\npress select\npress back\nwait 4"),
    "tribord_decide": (("tribord", "P1,P2,P3", "P1"), "tap 4#1\ntap 9#1\npress back\n"
                                                      "press down"),
    "tribord_payout": (("tribord", "P1,P2", "P1"), "tap 4#1\ntap 9#1\npress back\npress down\n"
                                                   "press select\nwait 2\npress select\ntap 4#2"),
    "tamalou_turn": (TAMALOU, "tap 7C\nwait 2"),
    "tamalou_reveal": (TAMALOU, TAMALOU_LAST_TURNS + "tap AH\ntap 2C\ntap KD"),
    "tamalou_game_over": (TAMALOU, TAMALOU_LAST_TURNS + "tap AH\ntap 2C\ntap KD\ntap 2D\n"
                                   "press select\nwait 2\ntap 3S\ntap 4D\ntap 6C\ntap 9C\n"
                                   "press select\nwait 4"),
    "flouk_reveal": (("flouk",), "press select\nwait 2\ntap mouta#1"),
    "flouk_chief_welcomed": (("flouk",), FLOUK_TURN_2),
    "flouk_report": (("flouk",), FLOUK_TURN_2 + "press back\npress back"),
    "flouk_decree": (("flouk",), test_sim_flouk.PLAY.split("press up\npress up")[0]),
    "flouk_game_over": (("flouk",), test_sim_flouk.PLAY.removesuffix("press select\n")),
}


# The key screens again in French, as <name>_fr.png: menus, prompts, a message, a refusal, results.
FRENCH = ("game_select", "house_rules", "palourde_flip", "palourde_pair", "palourde_crab_victim",
          "palourde_rejection", "palourde_game_over", "auberge_accusation", "tribord_decide",
          "tamalou_turn", "tamalou_reveal", "flouk_chief_welcomed", "flouk_report")


def frame(tmp_path: Path, name: str, language: str = "en") -> Image.Image:
    game, lines = FRAMES[name]
    table = SimTable(tmp_path, language)
    if game:
        table.start(*game)
    return render(table.run(lines).screen)


def contact_sheet(images: list[Image.Image], columns: int = 3, scale: int = 2,
                  gap: int = 8) -> Image.Image:
    """Frames side by side at `scale`, on a grey ground like a bench photo."""
    width, height = images[0].width * scale, images[0].height * scale
    rows = -(-len(images) // columns)
    sheet = Image.new("L", (gap + columns * (width + gap), gap + rows * (height + gap)), 96)
    for n, image in enumerate(images):
        x, y = gap + (n % columns) * (width + gap), gap + (n // columns) * (height + gap)
        sheet.paste(image.convert("L").resize((width, height), Image.NEAREST), (x, y))
    return sheet


@pytest.mark.parametrize("name", FRAMES)
def test_frame(tmp_path, name, update_goldens):
    compare(frame(tmp_path, name), name, update_goldens)


@pytest.mark.parametrize("name", FRENCH)
def test_french_frame(tmp_path, name, update_goldens):
    compare(frame(tmp_path, name, "fr"), f"{name}_fr", update_goldens)


def compare(fresh: Image.Image, name: str, update_goldens: bool) -> None:
    path = FRAMES_DIR / f"{name}.png"
    if update_goldens:
        FRAMES_DIR.mkdir(exist_ok=True)
        fresh.save(path)
        return
    assert path.exists(), f"no golden frame {path.name}: run pytest --update-goldens"
    golden = Image.open(path)
    assert (golden.mode, golden.size) == (fresh.mode, fresh.size)
    assert golden.tobytes() == fresh.tobytes(), f"{name} differs from its golden frame"


def test_contact_sheet_shows_the_goldens(update_goldens):
    sheet = contact_sheet([Image.open(FRAMES_DIR / f"{name}.png") for name in SHEET_FRAMES])
    if update_goldens:
        SHEET.parent.mkdir(exist_ok=True)
        sheet.save(SHEET)
        return
    assert Image.open(SHEET).tobytes() == sheet.tobytes(), "docs/screens.png is stale"
