"""`tabletop run --sim` in an ordinary 80x24 terminal window, read as a player reads it:
the whole frame and the screen's text fit, a resize draws it anew, Ctrl-C and Ctrl-D end
with where the game is saved, and `--language` sets the screen's language."""
from __future__ import annotations

import pytest

from .simpty import PtySim

JOIN = """
press select
press select
tap basket#1
tap basket#2
"""


@pytest.fixture
def open_sims():
    sims: list[PtySim] = []
    yield sims
    for sim in sims:
        sim.close()


def started(open_sims, state_dir, *args, **kwargs) -> PtySim:
    sim = PtySim(state_dir, *args, **kwargs)
    open_sims.append(sim)
    return sim.first_frame()


def frame_box(rows: list[str]) -> tuple[int, int, int] | None:
    """(top row, bottom row, width) of the last picture box the window shows."""
    bottoms = [n for n, row in enumerate(rows) if row.startswith("\u2514")]
    tops = [n for n, row in enumerate(rows[:bottoms[-1]]) if row.startswith("\u250c")] \
        if bottoms else []
    return (tops[-1], bottoms[-1], len(rows[tops[-1]])) if tops else None


def test_the_frame_and_its_text_fill_an_80x24_window_with_a_line_to_type_on(tmp_path, open_sims):
    sim = started(open_sims, tmp_path).type(JOIN)
    rows = sim.rows()
    assert frame_box(rows) == (0, 17, 66)                  # braille: 16 rows in a box
    assert rows[18:23] == [
        "|PALOURDE     Tide 0/3|   LED green: ready",
        "  Fishermen: tap your     \u266a accepted",
        "  Basket, in seat order",
        "  2 joined, SELECT=go",
        "  P1 0  P2 0"]
    assert rows[23] == "" and sim.screen.cursor.y == 23   # the typing line, and nothing lost


HEADER = "|PALOURDE     Tide 0/3|"


def test_a_resized_window_gets_the_largest_picture_that_fits_at_once(tmp_path, open_sims):
    sim = started(open_sims, tmp_path).type(JOIN)
    # half blocks, and the text below them
    sim.resize((140, 40), lambda rows: frame_box(rows) == (0, 33, 130)
               and rows[34].startswith(HEADER))
    # quadrants, whose letters read, without the text there is no room for: the LED beside
    sim.resize((100, 36), lambda rows: frame_box(rows) == (1, 34, 66) and rows[35] == ""
               and rows[2].endswith("  LED green: ready"))
    # 130x35: half blocks would leave the LED and the tones no row; quadrants have them beside
    sim.resize((130, 35), lambda rows: frame_box(rows) == (0, 33, 66)
               and rows[1].endswith("  LED green: ready"))
    # no picture fits: the text alone
    sim.resize((60, 20), lambda rows: rows[14].startswith(HEADER) and rows[-1] == ""
               and "\u2502" not in rows[-2])
    sim.resize((80, 24), lambda rows: frame_box(rows) == (0, 17, 66)
               and rows[18].startswith(HEADER))


@pytest.mark.parametrize("key", [b"\x03", b"\x04"], ids=["ctrl-c", "ctrl-d"])
def test_ctrl_c_and_ctrl_d_say_where_the_game_is_saved_and_end(tmp_path, open_sims, key):
    sim = started(open_sims, tmp_path).type(JOIN)
    sim.key(key)
    assert sim.end() == 0
    *_, frame_end, said, end = sim.raw.decode().replace("\r", "").split("\n")
    assert frame_end in ("  P1 0  P2 0", "^C") and end == ""
    assert said == (f"Game saved in {tmp_path}: "
                    f"`tabletop run --sim --state-dir {tmp_path}` resumes it")
    assert "Traceback" not in sim.raw.decode()
    resumed = started(open_sims, tmp_path)                 # and it resumes where it was
    assert resumed.text_view()[3] == "  2 joined, SELECT=go"


def test_the_language_asked_on_the_command_line_is_the_screens(tmp_path, open_sims):
    sim = started(open_sims, tmp_path, before=("--language", "fr"))
    assert sim.text_view()[4] == "  Ou passe une carte"
    assert "Tape une ligne puis Entrée" in sim.raw.decode()      # the command line's too
    sim.type("press select\npress select")
    assert "Pêcheurs" in "\n".join(sim.text_view())
    sim.key(b"\x04")                   # and the way back keeps the language
    assert sim.end() == 0
    assert f"`tabletop --language fr run --sim --state-dir {tmp_path}` la reprend" in \
        sim.raw.decode()


def test_the_first_screen_keeps_its_input_help_in_view_and_the_log_off_it(tmp_path, open_sims):
    sim = started(open_sims, tmp_path)
    rows = sim.rows()
    assert frame_box(rows) == (0, 17, 66)
    assert rows[19:23] == ["> Palourde                Type a line and Enter:",
                           "  L'Auberge               tap CARD (tap clam#3), press up|down|select|back,",
                           "  A tribord! v            hold up|down|select|back, wait SECONDS, choose ID.",
                           "  Tap a card to start     Ctrl-D saves and quits."]
    assert rows[23] == "" and sim.screen.cursor.y == 23
    assert "INFO" not in sim.raw.decode()                # the start-up line is the log's
    sim.key(b"\x04")
    assert sim.end() == 0
    assert " started: game none yet" in (tmp_path / "sim.log").read_text(encoding="utf-8")


def test_verbose_keeps_the_log_on_the_terminal(tmp_path, open_sims):
    sim = started(open_sims, tmp_path, before=("--verbose",))
    assert "INFO tabletop: tabletop " in sim.raw.decode()
    assert not (tmp_path / "sim.log").exists()
