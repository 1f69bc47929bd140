"""Player names that could pass for something else: a game's choice (`no_steal` would make
Palourde's steal menu answer "no steal" for that player), a roster nested thousands deep, a
name that turns the dashboard's line around. Each is refused in one line; nothing crashes."""
from __future__ import annotations

import random
import sys

import pytest

import engine
import seeds
from device.cli import main
from device.fleet import schema
from device.fleet.dashboard.board import Board
from device.fleet.envelope import Refused
from device.fleet.shared import read_shared
from device.fleet.topics import SHARED_PLAYERS, encode, table_topic
from device.players.reserved import reserved_word
from device.players.roster import FILE, Player, Roster, RosterError, new_player
from engine import Accepted, make_config, step
from engine.core.step import candidate_events
from tests.device.fleet_tables import admin_signer, cafe_inbox, keyed_board, table_signer

NESTED = "a = " + "[" * 3000 + "]" * 3000 + "\n"
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


def choice_ids(spec, rng: random.Random, events: int) -> set[str]:
    """The prompt ids and menu keys a random game of `spec` offers, its seats' names aside."""
    players = NAMES[:max(spec.min_players, min(4, spec.max_players))]
    config = make_config(spec, players, None, {}, seeds.game_data(spec.id, spec.deck))
    state, seen = spec.initial(config), set()
    for _ in range(events):
        prompt = spec.prompt(state)
        seen |= {prompt.id, *(option.key for option in prompt.options)}
        if spec.result(state) is not None:
            break
        candidates = candidate_events(spec, state)
        rng.shuffle(candidates)
        taken = next((o for e in candidates if isinstance(o := step(spec, state, e), Accepted)), None)
        if taken is None:
            break
        state = taken.state
    return seen - set(players)


@pytest.mark.parametrize("spec", engine.all_specs(), ids=lambda spec: spec.id)
def test_no_choice_of_any_game_can_be_a_players_name(spec):
    seen: set[str] = set()
    for seed in range(3):
        seen |= choice_ids(spec, random.Random(seed), 400)
    assert seen and all(reserved_word(word) for word in seen), \
        sorted(word for word in seen if not reserved_word(word))
    for word in sorted(seen)[:40]:
        with pytest.raises(RosterError, match="a game's menus answer with"):
            new_player(word)


@pytest.mark.parametrize("word", ["no_steal", "no_pair", "take_discard", "yes"])
def test_players_add_refuses_a_games_word_with_its_reason(tmp_path, capsys, word):
    assert main(["players", "add", word, "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a word a game's menus answer with" in err
    assert not (tmp_path / FILE).exists()
    assert main(["players", "add", "Noé", "--state-dir", str(tmp_path)]) == 0


def test_a_shared_roster_never_seats_a_games_word(tmp_path):
    here = Roster(tmp_path)
    assert here.merge([Player("no_steal", "no_steal"), Player("Ann", "Ann")], lambda _: False) \
        == ["Ann"]
    assert [p.name for p in here.players()] == ["Ann"]


def test_a_roster_nested_3000_deep_is_set_aside_in_one_line_and_no_command_crashes(tmp_path, capsys):
    (tmp_path / FILE).write_text(NESTED)
    for command in (["players", "list"], ["players", "list", "--json"], ["players", "add", "Ann"],
                    ["players", "remove", "Ann"], ["players", "card", "04AABBCC", "Ann"]):
        assert main([*command, "--state-dir", str(tmp_path)]) == 2, command
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "nested too deeply" in err and "Traceback" not in err
    assert (tmp_path / FILE).read_text() == NESTED                # a command only reports it


def test_the_running_table_sets_a_nested_roster_aside(tmp_path, monkeypatch, capsys):
    import io
    (tmp_path / FILE).write_text(NESTED)
    monkeypatch.setattr(sys, "stdin", io.StringIO("press select\nwait 1\npress select\nwait 1\n"))
    assert main(["run", "--sim", "--state-dir", str(tmp_path)]) == 0      # a setup reads it
    assert not (tmp_path / FILE).exists()
    kept = list((tmp_path / "unreadable").glob("*-players.toml"))
    assert len(kept) == 1 and kept[0].read_text() == NESTED
    assert "nested too deeply" in capsys.readouterr().err


def test_a_nested_roster_signed_on_the_broker_is_refused(tmp_path):
    cafe = admin_signer(tmp_path / "cafe")
    payload = cafe.seal(SHARED_PLAYERS, {"table": "cafe", "at": "now", "roster": NESTED})
    with pytest.raises(Refused, match="nested too deeply"):
        read_shared(SHARED_PLAYERS, payload, cafe_inbox(tmp_path / "t1").trust)
    inbox = cafe_inbox(tmp_path / "t1")
    assert inbox.receive(SHARED_PLAYERS, payload) == "?" and inbox.refused == 1


@pytest.mark.parametrize("bad", ["\u202eevil", "no_steal", "Ann\u2066x", "a b"])
def test_the_dashboard_refuses_the_names_the_table_refuses_with_or_without_a_key(bad):
    state = {"table": "t1", "at": "2030-01-02T20:15:00+01:00", "activity": "playing",
             "faults": {}, "game": {"game": "palourde", "title": "Palourde", "over": False,
                                    "players": [{"name": bad, "score": 1, "out": False}],
                                    "turn": bad, "winners": [], "headline": None, "prompt": None},
             "times": {"seated": None, "started": None, "ended": None}}
    for board in (Board(), keyed_board(True)):
        payload = table_signer("t1").seal(table_topic("t1", "state"), state) \
            if board.trust is not None else encode(state)
        board.receive(table_topic("t1", "state"), payload)
        assert board.view()["tables"] == [], bad
    with pytest.raises(schema.Refused):
        schema.player(bad)
    assert schema.player("P1") == "P1" and schema.player("Noé") == "Noé"   # a seat, a name
