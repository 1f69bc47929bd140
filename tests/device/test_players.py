"""The café's roster: `tabletop players ...`, the setup's seats named from it or by a player
card, and the names reaching the screen, the journal, the history and the fleet's messages."""
from __future__ import annotations

import json
from contextlib import closing

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.cli import main
from device.decks.learning import Enrollment
from device.decks.registry import DeckRegistry
from device.fleet.table_state import finished_record, table_state
from device.players.roster import (
    FILE,
    SHORT_MAX,
    Roster,
    RosterError,
    drawn,
    new_player,
    parse_roster,
    roster_text,
)
from device.storage.history import open_history
from device.ui.font import covers
from device.ui.setup_choices import Setup
from device.ui.wizard import Seats

from .simpty import PtySim
from .table import SimTable, to_game, too_wide, whole_games
from .test_history import open_statistics
from .test_sim_tamalou import PLAY as TAMALOU_PLAY

CARD = "04A1B2C3"
FUZZ = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def players(tmp_path, capsys, *args: str) -> tuple[int, str, str]:
    code = main(["players", *args, "--state-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    return code, out, err


def cafe(state_dir) -> Roster:
    """Bob (with a player card), Cy and Annabelle-Marie (seated as Anna), added in that order:
    the last added is offered first."""
    roster = Roster(state_dir)
    roster.add(new_player("Bob"))
    roster.add(new_player("Cy"))
    roster.add(new_player("Annabelle-Marie", "Anna"))
    roster.give_card(CARD, "Bob")
    return roster


# ---- the command ---------------------------------------------------------------------------

def test_players_add_list_card_and_remove(tmp_path, capsys):
    assert players(tmp_path, capsys, "add", "Ann")[:2] == (0, "Player Ann added\n")
    assert players(tmp_path, capsys, "add", "Bartholomew", "--short", "Bart")[1] == \
        "Player Bartholomew (Bart) added\n"
    assert players(tmp_path, capsys, "card", "04:a1:b2:c3", "Bart")[1] == \
        "Tag 04A1B2C3 is Bart's player card\n"
    code, out, _ = players(tmp_path, capsys, "list", "--json")
    assert json.loads(out) == [{"name": "Bartholomew", "short": "Bart", "cards": [CARD]},
                               {"name": "Ann", "short": "Ann", "cards": []}]
    assert players(tmp_path, capsys, "list")[1].splitlines()[0].split() == \
        ["Bartholomew", "(Bart)", "1", "card"]
    assert players(tmp_path, capsys, "remove", "bart")[1] == "Player Bartholomew removed\n"
    assert [p.name for p in Roster(tmp_path).players()] == ["Ann"]


@pytest.mark.parametrize(("args", "why"), [
    (("add", "Bartholomew"), "longer than the screen's 10 characters: give a short form"),
    (("add", "Ann Marie"), "one word of letters the screen can show"),
    (("add", "Ann\x1b[2J"), "one word of letters the screen can show"),
    (("add", "Zoë☃"), "one word of letters the screen can show"),
    (("add", "Ann#2"), "one word of letters the screen can show"),
    (("add", "x" * 500), "longer than 32 characters"),
    (("add", "P2"), "how unnamed seats are called"),
    (("add", "Bartholomew", "--short", "bob"), "'bob' is already Bob"),
    (("add", "bob"), "'bob' is already Bob"),
    (("add", "Bartholomew", "--short", "Bartholomew"), "longer than 10 characters"),
    (("remove", "Zed"), "no player 'Zed' in the roster"),
    (("card", "zz", "Cy"), "is not a tag UID"),
    (("card", CARD, "Cy"), "already the card of Bob"),
    (("card", "04AABBCC", "Zed"), "no player 'Zed'"),
    (("card", "04FFEEDD", "Cy"), "already clam#1 of deck cafe"),
])
def test_a_refused_change_is_one_line_and_changes_nothing(tmp_path, capsys, args, why):
    cafe(tmp_path)
    DeckRegistry(tmp_path).add_tag("cafe", "palourde", "04FFEEDD", "clam#1")
    before = (tmp_path / FILE).read_bytes()
    code, out, err = players(tmp_path, capsys, *args)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and why in err, err
    assert (tmp_path / FILE).read_bytes() == before


def test_a_roster_that_does_not_read_is_refused_by_the_command_and_kept(tmp_path, capsys):
    (tmp_path / FILE).write_text("[[player]]\nname = 'Ann'\nage = 3\n")
    code, _, err = players(tmp_path, capsys, "add", "Bob")
    assert code == 2 and "player 1: unknown key 'age'" in err and len(err.splitlines()) == 1
    assert (tmp_path / FILE).read_text() == "[[player]]\nname = 'Ann'\nage = 3\n"


# ---- hostile names and files ---------------------------------------------------------------

@FUZZ
@given(name=st.text(max_size=40), short=st.none() | st.text(max_size=14))
def test_a_name_is_taken_only_when_it_fits_the_screen(name, short):
    try:
        player = new_player(name, short)
    except RosterError as exc:
        assert "\n" not in str(exc)
        return
    assert 0 < len(player.short) <= SHORT_MAX and len(player.name) <= 32
    assert all(covers(ch) and not ch.isspace() and ch != "#" for ch in player.name + player.short)
    assert parse_roster(roster_text([player])) == [player]


def test_a_name_holds_the_characters_the_screen_font_draws_and_no_other():
    """The roster tells the font's characters without drawing one (device/players/ stays below
    device/ui/): every printable character of the basic plane is drawn by both or by neither."""
    differ = [char for char in map(chr, range(0x10000))
              if char.isprintable() and not char.isspace() and drawn(char) != covers(char)]
    assert differ == []


ENTRY = st.fixed_dictionaries({}, optional={
    "name": st.sampled_from(["Ann", "Bob", "P1", "a b", "x" * 40]) | st.text(max_size=12)
    | st.integers(),
    "short": st.sampled_from(["Ann", "B", "x" * 12]) | st.text(max_size=12),
    "cards": st.lists(st.sampled_from([CARD, "zz", "04:a1:b2:c3"]) | st.integers(), max_size=2),
    "x": st.booleans()})
ROSTERS = st.one_of(
    st.binary(max_size=200),
    st.lists(ENTRY, max_size=3).map(lambda e: tomli_w.dumps({"player": e}).encode()),
    st.dictionaries(st.sampled_from(["player", "other"]), st.integers() | st.text(max_size=5),
                    max_size=2).map(lambda d: tomli_w.dumps(d).encode()))


@FUZZ
@given(data=ROSTERS)
def test_any_roster_file_reads_or_is_refused_and_the_table_still_sets_up(tmp_path_factory, data):
    state = tmp_path_factory.mktemp("roster")
    (state / FILE).write_bytes(data)
    try:
        found = Roster(state).players()
    except RosterError as exc:
        found = None
        assert "\n" not in str(exc)
    table = SimTable(state).run(to_game("tamalou") + "press select\npress select")
    assert table.screen.lines[0] == ("Seat 1/2: who?" if found else "Who starts?")
    assert (state / FILE).read_bytes() == data


# ---- the setup -----------------------------------------------------------------------------

TAMALOU_3 = to_game("tamalou") + "press select\npress down\npress select\n"   # rules, 3 players
# Anna at seat 1, Bob's card at seat 2, seat 3 unnamed; Bob (seat 2) starts, the deal done:
# then test_sim_tamalou's game, which seat 1 wins
SEATED = TAMALOU_3 + f"press select\ntap uid:{CARD}\npress down\npress select\n" \
                     "press down\npress select\npress select\n"
GAMES = whole_games()


def test_seats_offer_the_roster_most_recent_first_then_the_seat_number(tmp_path):
    cafe(tmp_path)
    table = SimTable(tmp_path).run(TAMALOU_3)
    assert table.screen.lines == ("Seat 1/3: who?", "Anna", "Cy", "Bob")
    table.run("press up")
    assert table.screen.lines[1:] == ("Cy", "Bob", "P1")
    table.run("press select\npress select")          # P1 stays unnamed; Anna sits at seat 2
    assert table.screen.lines == ("Seat 3/3: who?", "Cy", "Bob", "P3")
    table.run("press back")                           # seat 2 is free again
    assert table.screen.lines == ("Seat 2/3: who?", "Anna", "Cy", "Bob")
    assert not [line for screen in table.screens for line in too_wide(screen)]


def test_a_player_card_seats_its_player_once(tmp_path):
    cafe(tmp_path)
    table = SimTable(tmp_path).run(TAMALOU_3 + f"tap uid:{CARD}")
    assert table.screen.lines == ("Bob: seat 1", "Seat 2/3: who?", "Anna", "Cy")   # it says so
    table.run("press down\npress down")               # (and the next press clears the note)
    assert table.screen.lines == ("Seat 2/3: who?", "Anna", "Cy", "P2")
    table.run(f"tap uid:{CARD}")
    assert table.screen.lines == ("Bob is seated", "already")
    table.run("wait 3\ntap uid:04999999")
    assert "Unknown card" in table.text


def test_names_reach_the_screen_the_journal_the_roster_and_the_fleet(tmp_path):
    cafe(tmp_path)
    table = SimTable(tmp_path).run(TAMALOU_3 + f"tap uid:{CARD}\npress select\npress down\n"
                                "press select")
    assert table.screen.lines == ("Who starts?", "Bob", "Anna", "P3")
    table.run("press select\npress select")
    assert table.app.session.config.players == ("Bob", "Anna", "P3")
    assert table.screen.lines[-1] == "Bob starts"
    state = table_state(table.app)
    assert [p["name"] for p in state["game"]["players"]] == ["Bob", "Anna", "P3"]
    assert state["game"]["turn"] == "Bob"             # Home Assistant's Turn sensor reads it
    assert [p.short for p in Roster(tmp_path).players()] == ["Bob", "Anna", "Cy"]
    resumed = SimTable(tmp_path)                         # a power cut: the journal keeps the names
    resumed.app.resume_game()
    assert resumed.app.session.config.players == ("Bob", "Anna", "P3")


def test_without_a_roster_the_setup_is_as_it_was(tmp_path):
    table = SimTable(tmp_path).run(TAMALOU_3)
    assert table.screen.lines[0] == "Who starts?"
    assert not isinstance(table.app.mode, Seats)


# ---- the history -----------------------------------------------------------------------------

def test_a_finished_game_names_its_winners_in_the_history_and_the_finished_message(tmp_path,
                                                                                  capsys):
    cafe(tmp_path)
    table = SimTable(tmp_path).run(SEATED + TAMALOU_PLAY)
    view = table_state(table.app)["game"]
    assert finished_record(view)["winners"] == ["Anna"]
    table.run("press select")                         # the game over screen left: archived
    code = main(["history", "--player", "Annabelle-Marie", "--json", "--state-dir", str(tmp_path)])
    assert code == 0
    assert json.loads(capsys.readouterr().out) == [
        {"player": "Anna", "game": "tamalou", "played": 1, "won": 1}]
    main(["history", "--player", "Bob", "--state-dir", str(tmp_path)])
    assert capsys.readouterr().out == "Bob tamalou: 1 played, 0 won\n"
    main(["history", "--player", "Zed", "--state-dir", str(tmp_path)])
    assert capsys.readouterr().out == "No finished game for Zed.\n"
    with closing(open_history(tmp_path)) as history:
        (game,) = history.games()
    assert [p.name for p in game.players] == ["Anna", "Bob", "P3"]


@pytest.mark.parametrize("game", GAMES)
def test_names_of_the_longest_seated_form_are_never_cut(tmp_path, monkeypatch, game):
    """Every frame of each whole game, its seats named with SHORT_MAX characters: the short
    form's bound is what the screens hold."""
    monkeypatch.setattr(Setup, "names", lambda setup: tuple(
        f"{'Bartholomew'[:SHORT_MAX - 1]}{n}" for n in range(1, setup.players + 1)))
    script = GAMES[game]
    table = SimTable(tmp_path).run(script.SETUP + script.PLAY)
    assert not {line for screen in table.screens for line in too_wide(screen)}
    assert game == "palourde" or any("Bartholom1" in line for screen in table.screens
                                     for line in screen.lines)


def test_a_whole_game_in_the_sim_terminal_shows_the_roster_names(tmp_path, capsys):
    """The table in a pseudo-terminal, as the café sets it up: the roster and a player card
    made with the command, the names picked and tapped at setup, the history asked after."""
    for args in (["add", "Bob"], ["add", "Cy"], ["add", "Annabelle-Marie", "--short", "Anna"],
                 ["card", CARD, "Bob"]):
        assert players(tmp_path, capsys, *args)[0] == 0
    sim = PtySim(tmp_path)
    try:
        over = sim.first_frame().type(SEATED + TAMALOU_PLAY).text_view()
        home = sim.type("press select").text_view()          # the game is archived
        sim.key(b"\x04")
        assert sim.end() == 0
    finally:
        sim.close()
    assert over[:4] == ["|GAME OVER     TAMALOU|", "  Tamalou! Anna wins", "  Score: 5",
                        "  1 Anna 5 v"]
    assert home[0].startswith("|TABLETOP")
    assert main(["status", "--json", "--state-dir", str(tmp_path)]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["winners"] == ["Anna"]
    assert {p["name"]: p["score"] for p in status["players"]} == {"Anna": 5, "Bob": 13, "P3": 36}
    assert main(["history", "--player", "Annabelle-Marie", "--state-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "Anna tamalou: 1 played, 1 won\n"


def test_a_player_card_is_not_learnt_into_a_deck(tmp_path):
    cafe(tmp_path)
    registry = DeckRegistry(tmp_path)
    learning = Enrollment(registry, "palourde", "cafe")
    assert learning.offer(CARD) == (False, "Bob's player card")
    assert registry.lookup(CARD) is None


def test_the_statistics_page_shows_each_named_players_wins_at_this_game(tmp_path):
    cafe(tmp_path)
    SimTable(tmp_path).run(SEATED + TAMALOU_PLAY + "press select")        # Anna won, archived
    table = SimTable(tmp_path).start("tamalou", "Bob,Anna,P3,Dee")
    open_statistics(table)
    seen = list(table.screen.lines)
    while table.screen.below:                                         # DOWN to the last line
        table.run("press down")
        seen.append(table.screen.lines[-1])
    assert seen[-3:] == ["Won/played:", "Bob 0/1", "Anna 1/1"]          # P3 is no one; Dee new
    assert not [line for screen in table.screens for line in too_wide(screen)]
