"""`tabletop deck learn`: the manifest walk, refusals, resuming, and the command line."""
from __future__ import annotations

import argparse
import io

import pytest

import seeds
from device.cli import deck as cli_deck
from device.decks.deck_file import DeckError, families
from device.decks.learning import Enrollment, learn, steps
from device.decks.registry import DeckRegistry


def uid(n: int) -> str:
    return f"04{n:012X}"


def tabletop(state_dir, *argv: str) -> int:
    parser = argparse.ArgumentParser(prog="tabletop")
    cli_deck.add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args([*argv, "--state-dir", str(state_dir)])
    return args.handler(args)


@pytest.fixture
def registry(tmp_path):
    return DeckRegistry(tmp_path)


def test_the_walk_asks_for_each_card_in_manifest_order(registry):
    learning = Enrollment(registry, "palourde", "cafe")
    assert learning.prompt() == ["Learn deck cafe", "Tap Basket 1/5", "0 of 59 done"]
    assert learning.offer(uid(1)) == (True, "Basket 1 OK")
    assert learning.prompt() == ["Learn deck cafe", "Tap Basket 2/5", "1 of 59 done"]
    for n in range(2, 13):
        assert learning.offer(uid(n))[0]
    assert learning.prompt() == ["Learn deck cafe", "Tap Clam 8/20", "12 of 59 done"]


@pytest.mark.parametrize("family", sorted(families()))
def test_every_play_card_is_asked_once_and_extras_are_not(family):
    walk = steps(families()[family])
    assert sorted(s.card for s in walk) == sorted(families()[family].cards)
    assert all(len(f"Tap {s.asked()}") <= 21 for s in walk)


def test_the_walk_follows_the_manifest_kinds():
    kinds = [s.card.split("#")[0] for s in steps(families()["palourde"])]
    assert list(dict.fromkeys(kinds)) == [k for k in seeds.load("palourde").kinds if k != "title"]


def test_a_single_card_and_a_numbered_kind_read_well(registry):
    walk = {s.card: s for s in steps(families()["palourde"])}
    assert walk["storm_warning"].asked() == "Storm Warning"
    assert {s.card: s for s in steps(families()["pirates"])}["7#3"].asked() == "Card 7 3/7"


def test_a_tag_just_enrolled_is_refused_as_a_duplicate(registry):
    learning = Enrollment(registry, "palourde", "cafe")
    learning.offer(uid(1))
    learning.offer(uid(2))
    assert learning.offer(uid(2)) == (False, "Already Basket 2")
    assert learning.prompt()[1] == "Tap Basket 3/5"


def test_a_tag_of_another_deck_or_a_staff_card_is_refused(registry):
    registry.add_tag("pub", "pirates", uid(50), "1")
    registry.add_staff(uid(60), "Alice")
    learning = Enrollment(registry, "palourde", "cafe")
    assert learning.offer(uid(50)) == (False, "Tag of deck pub")
    assert learning.offer(uid(60)) == (False, "Staff card")
    assert learning.offer("04ZZ") == (False, "Unreadable tag")
    assert learning.prompt()[1:] == ["Tap Basket 1/5", "0 of 59 done"]


def test_an_interrupted_walk_resumes_at_the_first_missing_card(tmp_path):
    first = Enrollment(DeckRegistry(tmp_path), "auberge", "cafe")
    assert learn(first, [uid(n) for n in range(5)], lambda lines: None) == 1
    again = Enrollment(DeckRegistry(tmp_path), "tribord", "cafe")      # the same pirates deck
    assert again.prompt() == ["Learn deck cafe", "Tap Card 3 3/3", "5 of 55 done"]


def test_a_complete_walk(registry):
    shown: list[list[str]] = []
    learning = Enrollment(registry, "tamalou")
    assert learning.deck == "tamalou"
    assert learn(learning, (uid(n) for n in range(1000)), shown.append) == 0
    assert learning.done and registry.info("tamalou").complete
    assert shown[0] == ["Learn deck tamalou", "Tap Ace of Spades", "0 of 52 done"]
    assert shown[-2:] == [["King of Clubs OK"], ["Learn deck tamalou", "Deck complete", "52 of 52 done"]]
    assert learning.offer(uid(2000)) == (False, "Deck complete")


def test_a_deck_of_another_family_cannot_be_walked(registry):
    registry.add_tag("cafe", "palourde", uid(1), "clam#1")
    with pytest.raises(DeckError, match="deck cafe is a palourde deck, not tamalou"):
        Enrollment(registry, "tamalou", "cafe")
    with pytest.raises(DeckError, match="no game or deck family named 'chess'"):
        Enrollment(registry, "chess")


def test_cli_learn_reads_tags_from_standard_input(tmp_path, capsys, monkeypatch):
    lines = "# a box of stickers\ntap uid:04000000000001\n04:00:00:00:00:00:02\n\n04000000000002\nhello there\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert tabletop(tmp_path, "deck", "learn", "palourde", "--deck", "cafe") == 1
    out, err = capsys.readouterr()
    assert "Basket 1 OK\n" in out and "Already Basket 2\n" in out
    assert out.endswith("Deck cafe is not complete yet: learn it again to go on.\n")
    assert err == "line 6: not a tag UID: hello there\n"
    assert DeckRegistry(tmp_path).info("cafe").size == 2
    tags = "".join(f"{uid(n)}\n" for n in range(100, 160))
    monkeypatch.setattr("sys.stdin", io.StringIO(tags))
    assert tabletop(tmp_path, "deck", "learn", "palourde", "--deck", "cafe", "--stdin") == 0
    assert DeckRegistry(tmp_path).info("cafe").complete


def test_cli_learn_errors_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert tabletop(tmp_path, "deck", "learn", "chess") == 2
    assert tabletop(tmp_path, "deck", "learn", "palourde", "--deck", "bad name") == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("tabletop: no game or deck family named 'chess'")
    assert err[1].startswith("tabletop: 'bad name' is not a deck name")


def test_cli_learn_takes_a_reader_when_standard_input_is_a_terminal(tmp_path, capsys, monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Terminal(""))
    assert tabletop(tmp_path, "deck", "learn", "palourde") == 2
    assert "no tag reader" in capsys.readouterr().err
    parser = argparse.ArgumentParser()
    cli_deck.add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["deck", "learn", "palourde", "--state-dir", str(tmp_path)])
    assert cli_deck.run(args, tag_source=lambda: [uid(n) for n in range(59)]) == 0
