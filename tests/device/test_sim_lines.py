"""The simulator's input lines: a player's time at each line, `wait` as typed, holds only
where the table has them, and hostile lines refused in one line that changes nothing."""
from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.inputs import ButtonHeld, ButtonPressed
from device.sim.lines import LONGEST, SimInputError, SimReaderField, Wait, read_lines
from device.sim.play import LINE_SECONDS, run_sim

from .table import SimTable

PALOURDE = ("palourde", "Ann,Bob,Cy")


def test_the_same_card_tapped_on_two_lines_counts_twice(tmp_path):
    table = SimTable(tmp_path).start(*PALOURDE).run("tap clam#9")
    assert table.app.session.state.first_flip is not None
    table.run("tap clam#9")                                # the reader's debounce lets it by
    assert table.screen.lines[:2] == ("Same card twice", "Flip another card")


def test_a_card_tapped_twice_at_one_instant_is_one_tap(tmp_path):
    table = SimTable(tmp_path)
    assert table.field.parse("tap clam#9") != []
    assert table.field.parse("tap clam#9") == []          # no time between: the debounce


def test_each_line_takes_a_players_time_and_wait_exactly_its_own(tmp_path):
    table = SimTable(tmp_path).start(*PALOURDE)                 # (SELECT past the deal: a line)
    start = table.clock()
    table.run("tap clam#1")
    assert table.clock() - start == LINE_SECONDS
    table.run("wait 5")
    assert table.clock() - start == LINE_SECONDS + 5
    table.run("press down\n# a comment\n\n")
    assert table.clock() - start == 2 * LINE_SECONDS + 5   # a comment or blank line: none


def test_line_seconds_lie_between_the_readers_debounce_and_a_message(tmp_path):
    from device.app import MESSAGE_SECONDS
    from device.config.schema import ReaderConfig
    assert ReaderConfig().debounce_ms / 1000 < LINE_SECONDS < MESSAGE_SECONDS


def test_a_held_up_repeats_as_the_buttons_do():
    """0.5 s to the first repeat, then 0.3 s, each next wait a quarter shorter down to 0.05 s."""
    events = SimReaderField(lambda card: None).parse("hold up")
    waits = [e.seconds for e in events if isinstance(e, Wait)]
    presses = [e for e in events if isinstance(e, ButtonPressed)]
    assert presses == [ButtonPressed("UP")] * len(presses)
    assert waits[:3] == pytest.approx([0.5, 0.3, 0.225])
    assert min(waits[:len(presses) - 1]) == pytest.approx(0.05)
    assert sum(waits) == pytest.approx(2.0)
    assert len(presses) - 1 in (len(waits), len(waits) - 1)     # the rest of the hold
    longer = SimReaderField(lambda card: None).parse("hold DOWN 4")
    assert len([e for e in longer if e == ButtonPressed("DOWN")]) > len(presses) + 30


def test_a_held_up_runs_a_number_on(tmp_path):
    table = SimTable(tmp_path).start("flouk", "Ann,Bob,Cy").run(
        "press select\nwait 3\ntap chief_faar#1\ntap chief_napil#1\ntap mouta#1\npress back")
    assert table.screen.lines[-1] == "[0]0"
    table.run("hold up 1")                              # a press and two repeats
    assert table.screen.lines[-1] == "[3]0"


@pytest.mark.parametrize("line", ["hold up x", "hold down -1", "hold up 1 2"])
def test_a_hold_of_up_with_no_time_says_so(line):
    with pytest.raises(SimInputError) as refused:
        SimReaderField(lambda card: None).parse(line)
    assert "\n" not in str(refused.value)


def test_select_and_back_have_their_hold():
    field = SimReaderField(lambda card: None)
    assert field.parse("hold select") + field.parse("hold BACK") == [
        ButtonHeld("SELECT"), ButtonHeld("BACK")]


# ---- hostile lines ------------------------------------------------------------------------

NAMED = [b"\x00", b"tap clam#1\x00", b"tap \xff\xfe", b"\xc3\x28", b"press \x1b[2Jselect",
         b"wait inf", b"wait nan", b"wait -1", b"wait 1e309", b"wait -inf", b"wait 86401",
         b"wait 0x10", b"hold up x", b"press", b"tap", b"tap uid:ZZ", b"\x7f", b"lift now",
         b"tap clam#1 clam#2", b"x" * 100_000, b"tap " + b"a" * (LONGEST + 1), b"\r\x0b",
         "tap é\u2028".encode()]
CONTROL = st.characters(codec="utf-8", categories=("Cc",)).filter(lambda c: c not in "\n\r\t")
HOSTILE = st.one_of(
    st.sampled_from(NAMED),
    st.tuples(st.sampled_from([b"tap ", b"place ", b"press ", b"hold ", b"wait ", b""]),
              st.text(st.characters(codec="utf-8", exclude_characters="\n"), min_size=1, max_size=30)
              .map(str.encode),
              CONTROL.map(str.encode)).map(b"".join),
    st.builds(lambda word, bad: b"tap " + word.replace(b"\n", b"") + bad, st.binary(max_size=20),
              st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80"])),
    st.builds(lambda number: b"wait " + number.encode(),
              st.sampled_from(["inf", "-inf", "nan", "1e309", "-0.5", "1e6", "86400.5"])),
)


@pytest.fixture(scope="module")
def mid_game(tmp_path_factory):
    return SimTable(tmp_path_factory.mktemp("hostile")).start(*PALOURDE).run("tap clam#1")


def refused_by_the_reader(table: SimTable, line: bytes) -> list[str]:
    """The line through the simulator's own line reader and loop; what it complained."""
    said: list[str] = []
    run_sim(table.app, read_lines(io.BytesIO(line + b"\n")), table.clock, table.frames,
            table.field, said.append, first=7)
    return said


@settings(max_examples=150, deadline=None)
@given(line=HOSTILE)
def test_a_hostile_line_is_one_clear_line_and_changes_nothing(mid_game, line):
    state, screen, clock = mid_game.state(), mid_game.screen, mid_game.clock()
    journal = mid_game.app.store.current.read_bytes()
    said = refused_by_the_reader(mid_game, line)
    assert len(said) == 1 and said[0].startswith("input line 7: ")
    assert "\n" not in said[0] and len(said[0]) < 200
    assert all(c.isprintable() for c in said[0])          # no control character echoed back
    assert (mid_game.state(), mid_game.screen, mid_game.clock()) == (state, screen, clock)
    assert mid_game.app.store.current.read_bytes() == journal


def test_an_endless_line_is_refused_without_being_kept(mid_game):
    said = refused_by_the_reader(mid_game, b"tap " + b"z" * 10_000_000)
    assert said == [f"input line 7: a line has at most {LONGEST} characters"]


def test_the_line_after_a_refused_one_is_read_as_it_comes():
    lines = list(read_lines(io.BytesIO(b"x" * 500 + b"\nlift\n\xff\r\npress up\r\n")))
    assert [str(line) for line in lines] == [
        f"a line has at most {LONGEST} characters", "lift", "the line is not UTF-8 text",
        "press up"]
