"""The deck registry: files, lookups, completeness, sharing between tables, the simulator's decks."""
from __future__ import annotations

import argparse
import tomllib
from pathlib import Path

import pytest

from device.cli import deck as cli_deck
from device.decks.deck_file import Deck, DeckError, deck_text, families, normalize_uid
from device.decks.registry import CardRef, CardTaken, DeckRegistry, StaffRef, TagTaken
from device.decks.simulated import SIM_STAFF, SimDecks, sim_uid
from engine.core.registry import decks_of

A, B, C, D = "04A1B2C3", "04A1B2C4", "04A1B2C3D4E5F6", "04A1B2C3D4E5F7"


def uid(n: int) -> str:
    return f"04{n:012X}"


def full_deck(registry: DeckRegistry, name: str, family: str, start: int = 0) -> None:
    for n, card in enumerate(families()[family].cards):
        registry.add_tag(name, family, uid(start + n), card)


def tabletop(state_dir, *argv: str) -> int:
    parser = argparse.ArgumentParser(prog="tabletop")
    cli_deck.add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args([*argv, "--state-dir", str(state_dir)])
    return args.handler(args)


# -- files and lookups ---------------------------------------------------------------------------

def test_tags_survive_a_new_registry_on_the_same_dir(tmp_path):
    registry = DeckRegistry(tmp_path)
    assert registry.add_tag("cafe", "palourde", "04:a1:b2:c3", "Clam#3") == CardRef("cafe", "palourde", "clam#3")
    registry.add_tag("cafe", "palourde", C, "storm_warning#1")
    again = DeckRegistry(tmp_path)
    assert again.deck("cafe").tags == {A: "clam#3", C: "storm_warning"}
    data = tomllib.loads((tmp_path / "decks" / "cafe.toml").read_text())
    assert data == {"deck": "cafe", "family": "palourde", "tags": {A: "clam#3", C: "storm_warning"}}
    assert not list((tmp_path / "decks").glob(".*"))          # no temporary file left behind


def test_lookup_of_cards_staff_and_strangers(tmp_path):
    registry = DeckRegistry(tmp_path)
    registry.add_tag("cafe", "pirates", A, "7#3")
    registry.add_staff(C, "Alice")
    assert registry.lookup(A) == CardRef("cafe", "pirates", "7#3")
    assert registry.lookup("04a1b2c3") == registry.lookup("04 A1 B2 C3") == registry.lookup(A)
    assert registry.lookup(C) == StaffRef("Alice")
    assert registry.lookup(B) is None
    assert registry.lookup("not a uid") is None
    assert registry.staff() == {C: "Alice"}
    registry.remove_staff(C)
    assert registry.lookup(C) is None


def test_a_change_by_another_process_is_seen(tmp_path):
    device, learner = DeckRegistry(tmp_path), DeckRegistry(tmp_path)
    assert device.lookup(A) is None
    learner.add_tag("cafe", "palourde", A, "clam#1")
    assert device.lookup(A) == CardRef("cafe", "palourde", "clam#1")
    learner.remove("cafe")
    assert device.lookup(A) is None and device.decks() == []


class Reads:
    """Counts what the registry takes from the disk: the folder listed, each file read."""

    def __init__(self, monkeypatch) -> None:
        self.listed, self.read = 0, []
        glob, read_text = Path.glob, Path.read_text

        def counted_glob(path, pattern):
            self.listed += 1
            return glob(path, pattern)

        def counted_read(path, *args, **kwargs):
            self.read.append(path.name)
            return read_text(path, *args, **kwargs)

        monkeypatch.setattr(Path, "glob", counted_glob)
        monkeypatch.setattr(Path, "read_text", counted_read)

    def since(self) -> tuple[int, list[str]]:
        """What was listed and read since the last call."""
        found, self.listed, self.read = (self.listed, self.read), 0, []
        return found


def test_taps_read_the_files_only_when_they_changed(tmp_path, monkeypatch):
    device = DeckRegistry(tmp_path)
    device.add_tag("cafe", "palourde", A, "clam#1")
    device.add_staff(C, "Alice")
    reads = Reads(monkeypatch)
    for _ in range(100):
        assert device.lookup(A) == CardRef("cafe", "palourde", "clam#1")
    assert reads.since() == (1, ["cafe.toml", "staff.toml"])      # once, after its own write
    for _ in range(100):
        device.lookup(B)
    assert reads.since() == (0, [])

    # `tabletop deck import` in another process: the folder changed, so it is listed and read
    DeckRegistry(tmp_path).import_text(deck_text(Deck("pub", "pirates", {B: "7#3"})))
    reads.since()
    assert device.lookup(B) == CardRef("pub", "pirates", "7#3")
    assert device.lookup(B) == CardRef("pub", "pirates", "7#3")
    assert reads.since() == (1, ["cafe.toml", "pub.toml", "staff.toml"])

    # a file edited in place, as an editor may: its own stat tells
    cafe = tmp_path / "decks" / "cafe.toml"
    cafe.write_text(cafe.read_text().replace("clam#1", "clam#2") + "# moved\n")
    reads.since()
    assert device.lookup(A) == CardRef("cafe", "palourde", "clam#2")
    assert reads.since() == (0, ["cafe.toml", "pub.toml", "staff.toml"])

    # the staff list appears or goes without touching the decks folder
    (tmp_path / "staff.toml").unlink()
    assert device.lookup(C) is None
    assert reads.since() == (0, ["cafe.toml", "pub.toml"])


def test_completeness_counts_play_cards_not_extras(tmp_path):
    registry = DeckRegistry(tmp_path)
    registry.add_tag("cafe", "palourde", uid(999), "title")
    info = registry.decks()[0]
    assert (info.size, len(info.missing), info.complete) == (1, 59, False)
    full_deck(registry, "cafe", "palourde")
    info = registry.info("cafe")
    assert (info.size, info.missing, info.complete) == (60, (), True)
    registry.add_tag("pub", "palourde", uid(500), "golden_clam")
    assert registry.info("pub").missing[:2] == ("basket#1", "basket#2")
    assert "golden_clam" not in registry.info("pub").missing


def test_every_family_has_its_play_cards_and_no_card_is_in_two():
    known = families()
    assert len(known["palourde"].cards) == 59 and known["palourde"].extras == ("title",)
    assert set(known["pirates"].games) == {"auberge", "tribord"} and len(known["pirates"].cards) == 55
    for family in known.values():
        for card in family.cards + family.extras:
            assert decks_of(card) == {family.name}, card
    known.clear()                           # worked out once, each caller given its own
    assert {"palourde", "pirates", "tamalou", "flouk"} <= families().keys()


# -- refusals ------------------------------------------------------------------------------------

def test_a_tag_of_any_deck_or_a_staff_card_is_refused(tmp_path):
    registry = DeckRegistry(tmp_path)
    registry.add_tag("cafe", "palourde", A, "clam#1")
    registry.add_staff(C, "Alice")
    with pytest.raises(TagTaken, match="tag 04A1B2C3 is already clam#1 of deck cafe") as caught:
        registry.add_tag("pub", "pirates", A, "1")
    assert caught.value.owner == CardRef("cafe", "palourde", "clam#1")
    with pytest.raises(TagTaken, match="staff card Alice"):
        registry.add_tag("cafe", "palourde", C, "clam#2")
    with pytest.raises(TagTaken):
        registry.add_staff(A, "Bob")


def test_a_card_already_enrolled_or_of_another_family_is_refused(tmp_path):
    registry = DeckRegistry(tmp_path)
    registry.add_tag("cafe", "palourde", A, "clam#1")
    with pytest.raises(CardTaken, match="deck cafe already has clam#1 \\(tag 04A1B2C3\\)"):
        registry.add_tag("cafe", "palourde", B, "clam#1")
    with pytest.raises(DeckError, match="'7#3' is not a palourde card"):
        registry.add_tag("cafe", "palourde", B, "7#3")
    with pytest.raises(DeckError, match="deck cafe is a palourde deck, not pirates"):
        registry.add_tag("cafe", "pirates", B, "7#3")
    with pytest.raises(DeckError, match="not a deck name"):
        registry.add_tag("../x", "pirates", B, "7#3")
    with pytest.raises(DeckError, match="simulator"):
        registry.add_tag("sim-pirates", "pirates", B, "7#3")


@pytest.mark.parametrize("text", ["04A1B2", "04A1B2C3D4", "04A1B2CZ", ""])
def test_malformed_uids_are_refused(text):
    with pytest.raises(DeckError, match="is not a tag UID"):
        normalize_uid(text)


@pytest.mark.parametrize("text", ["04:a1:b2:c3", "04 A1 B2 C3 D4 E5 F6", "04-A1-B2-C3-D4-E5-F6-07-08-09"])
def test_a_uid_is_written_as_the_reader_reads_it_at_every_length(text):
    assert normalize_uid(text) == text.replace(":", "").replace(" ", "").replace("-", "").upper()


def test_a_broken_file_is_reported_and_the_others_still_work(tmp_path):
    registry = DeckRegistry(tmp_path)
    registry.add_tag("cafe", "palourde", A, "clam#1")
    (tmp_path / "decks" / "bad.toml").write_text('deck = "bad"\nfamily = "chess"\n')
    (tmp_path / "decks" / "copy.toml").write_text((tmp_path / "decks" / "cafe.toml").read_text())
    fresh = DeckRegistry(tmp_path)
    assert fresh.lookup(A) == CardRef("cafe", "palourde", "clam#1")
    assert [d.name for d in fresh.decks()] == ["cafe"]
    assert len(fresh.problems) == 2
    assert "bad.toml: line 2: family 'chess' is not one of" in fresh.problems[0]
    assert "copy.toml: tag 04A1B2C3 is already clam#1 of deck cafe" in fresh.problems[1]


def test_a_staff_list_that_does_not_read_is_never_written_anew(tmp_path):
    registry = DeckRegistry(tmp_path)
    registry.add_tag("cafe", "palourde", A, "clam#1")
    registry.staff_file.write_text(f'[staff]\n{A} = "Alice"\n{C} = "Bob"\n')   # A is a card's
    before = registry.staff_file.read_text()
    with pytest.raises(DeckError, match=f"staff.toml: tag {A} is already clam#1 of deck cafe"):
        registry.add_staff(D, "Cy")
    with pytest.raises(DeckError, match="is already clam#1"):
        registry.remove_staff(C)
    assert registry.staff_file.read_text() == before
    registry.remove("cafe")                  # the list reads again: it can change
    registry.add_staff(D, "Cy")
    assert registry.staff() == {A: "Alice", C: "Bob", D: "Cy"}


# -- sharing -------------------------------------------------------------------------------------

def test_export_and_import_between_two_tables(tmp_path):
    here, there = DeckRegistry(tmp_path / "here"), DeckRegistry(tmp_path / "there")
    full_deck(here, "cafe", "pirates")
    text = here.export("cafe")
    info = there.import_text(text)
    assert (info.name, info.family, info.size, info.complete) == ("cafe", "pirates", 55, True)
    assert there.deck("cafe") == here.deck("cafe")
    with pytest.raises(DeckError, match="deck cafe exists"):
        there.import_text(text)
    assert there.import_text(text, replace=True).complete
    with pytest.raises(DeckError, match="line 7: tag 04000000000000 is already 1 of deck cafe"):
        there.import_text(text, name="copy")


@pytest.mark.parametrize("text, message", [
    ('deck = "x"\nfamily = "palourde"\n[tags]\n04A1B2C3 = "clam#1"\n04A1B2C4 = "clam#99"\n',
     "line 5: tag 04A1B2C4: 'clam#99' is not a palourde card"),
    ('deck = "x"\nfamily = "palourde"\n[tags]\n04A1B2C3 = "1"\n', "line 4: tag 04A1B2C3: '1' is not a palourde card"),
    ('deck = "x"\nfamily = "palourde"\n[tags]\n04A1B2 = "clam#1"\n', "line 4: '04A1B2' is not a tag UID"),
    ('deck = "x"\nfamily = "palourde"\n[tags]\n04A1B2C3 = "clam#1"\n04A1B2C4 = "Clam#1"\n',
     "line 5: tag 04A1B2C4: clam#1 is already tag 04A1B2C3"),
    ('deck = "x"\nfamily = "palourde"\n[tags]\n04a1b2c3 = "clam#1"\n04A1B2C3 = "clam#2"\n',
     "line 5: tag 04A1B2C3 is listed twice"),
    ('deck = "x"\nfamily = "poker"\n', "line 2: family 'poker' is not one of"),
    ('family = "palourde"\n', 'the deck has no name'),
    ('deck = "x"\nfamily = "palourde"\nowner = "me"\n', "line 3: unknown key 'owner'"),
    ('deck = "x"\nfamily = "palourde"\ntags = 3\n', "line 3: tags must be a table"),
    ('deck = "x y"\nfamily = "palourde"\n', "'x y' is not a deck name"),
    ('deck = "x"\n[tags\n', "line 2"),
])
def test_malformed_imports_say_what_and_where(tmp_path, text, message):
    with pytest.raises(DeckError) as caught:
        DeckRegistry(tmp_path).import_text(text)
    assert message in str(caught.value)
    assert not (tmp_path / "decks").exists()


# -- the simulator's decks -----------------------------------------------------------------------

def test_sim_uids_are_stable_7_byte_nxp_uids():
    assert sim_uid("palourde", "clam#1") == sim_uid("palourde", "clam#1") == "0477096D24FC64"
    assert sim_uid("pirates", "7#3") == "04D0DDB82EE098"
    assert normalize_uid(sim_uid("flouk", "decree#1")) == sim_uid("flouk", "decree#1")


def test_sim_uids_are_unique_over_every_card_of_every_family():
    uids = [sim_uid(f.name, card) for f in families().values() for card in f.cards + f.extras]
    uids += [sim_uid("staff", staff) for staff in SIM_STAFF]
    assert len(uids) == len(set(uids))
    assert all(len(u) == 14 and u.startswith("04") for u in uids)


def test_sim_decks_are_complete_and_resolve_card_ids_across_families(tmp_path):
    sim = SimDecks()
    for family in families().values():
        info = sim.info(f"sim-{family.name}")
        assert info.complete and info.size == len(family.cards + family.extras)
        for card in family.cards + family.extras:
            assert sim.lookup(sim.sim_uid(card)) == CardRef(f"sim-{family.name}", family.name, card)
    assert sim.lookup(sim.sim_uid("7#3")).family == "pirates"
    assert sim.lookup(sim.sim_uid("Clam#1")).family == "palourde"
    assert sim.lookup(sim.sim_uid("storm_warning#1")).card == "storm_warning"
    assert sim.sim_uid("nope#1") is None
    assert [sim.lookup(sim.sim_uid(s)) for s in SIM_STAFF] == [StaffRef(s) for s in SIM_STAFF]


def test_sim_decks_see_the_state_dir_decks_too(tmp_path):
    registry = DeckRegistry(tmp_path)
    registry.add_tag("cafe", "palourde", A, "clam#1")
    sim = SimDecks(registry)
    assert sim.lookup(A) == CardRef("cafe", "palourde", "clam#1")
    assert [d.name for d in sim.decks()][-1] == "cafe"
    assert sim.info("cafe").size == 1 and sim.deck("sim-pirates").family == "pirates"


# -- the command line ----------------------------------------------------------------------------

def test_cli_list_export_import_remove(tmp_path, capsys):
    here, there = tmp_path / "here", tmp_path / "there"
    full_deck(DeckRegistry(here), "cafe", "palourde")
    DeckRegistry(here).add_tag("half", "pirates", B, "1")
    assert tabletop(here, "deck", "list") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:5] == ["cafe", "palourde", "59", "tags", "complete"]
    assert lines[1].split()[:5] == ["half", "pirates", "1", "tag", "missing"]
    assert tabletop(here, "deck", "export", "cafe") == 0
    exported = tmp_path / "cafe.toml"
    exported.write_text(capsys.readouterr().out)
    assert tabletop(there, "deck", "import", str(exported)) == 0
    assert "Imported deck cafe (palourde, 59 tags, complete)" in capsys.readouterr().out
    assert tabletop(there, "deck", "import", str(exported)) == 2
    assert capsys.readouterr().err == f"tabletop: {exported}: deck cafe exists: remove it first, " \
                                      "or import with --replace\n"
    assert tabletop(there, "deck", "remove", "cafe") == 0
    assert tabletop(there, "deck", "remove", "cafe") == 2
    assert tabletop(there, "deck", "export", "cafe") == 2
    assert tabletop(there, "deck", "import", str(tmp_path / "none.toml")) == 2


def test_cli_staff_cards(tmp_path, capsys):
    assert tabletop(tmp_path, "deck", "staff", "add", "04:a1:b2:c3", "Alice") == 0
    assert tabletop(tmp_path, "deck", "staff", "add", "04zz", "Bob") == 2
    assert tabletop(tmp_path, "deck", "staff", "list") == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == [A, "Alice", "added", "here"]
    assert tabletop(tmp_path, "deck", "staff", "remove", A) == 0
    assert tabletop(tmp_path, "deck", "staff", "remove", A) == 2
    assert DeckRegistry(tmp_path).staff() == {}


def test_cli_list_reports_a_broken_file(tmp_path, capsys):
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "bad.toml").write_text("deck = [\n")
    assert tabletop(tmp_path, "deck", "list") == 2
    assert "bad.toml" in capsys.readouterr().err
