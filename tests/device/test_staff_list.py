"""`tabletop deck staff list`: every card that opens the admin menu here, and where it came
from: added here, imported from the fleet and tapped, or imported and not tapped yet."""
from __future__ import annotations

import json

from device.cli import main
from device.decks.registry import DeckRegistry
from device.fleet.shared import enrol_tapped, import_staff, read_shared, staff_message
from device.fleet.signing import ROLL_FILE, StaffRoll, staff_hash
from tests.device.fleet_tables import FLEET_KEY as KEY
from tests.device.fleet_tables import admin_signer, cafe_inbox

HERE, SAM, KIM = "04A1B2C3D4E5F6", "04000000000001", "04000000000002"


def cafe(tmp_path):
    """A table with one card of its own, and the fleet's Sam (tapped here) and Kim (not yet)."""
    other = DeckRegistry(tmp_path / "other")
    other.add_staff(SAM, "Sam")
    other.add_staff(KIM, "Kim")
    message = staff_message(other, "table-2", "now", KEY, admin_signer(tmp_path / "cafe"))
    shared, _ = read_shared(*message, cafe_inbox(tmp_path / "here").trust)
    here = DeckRegistry(tmp_path / "here")
    here.add_staff(HERE, "Manager")
    assert import_staff(here, shared, KEY) == 2
    assert enrol_tapped(here, KEY, SAM) == "Sam"
    return here.state_dir


def staff_list(state_dir, capsys, *more):
    code = main(["deck", "staff", "list", "--state-dir", str(state_dir), *more])
    out, err = capsys.readouterr()
    return code, out, err


def test_every_card_that_opens_the_menu_with_where_it_came_from(tmp_path, capsys):
    state_dir = cafe(tmp_path)
    code, out, err = staff_list(state_dir, capsys)
    assert code == 0 and err == ""
    rows = {row.split()[1]: row for row in out.splitlines()}
    assert len(rows) == 3
    assert rows["Manager"].startswith(HERE) and rows["Manager"].endswith("added here")
    assert rows["Sam"].startswith(SAM) and rows["Sam"].endswith("from the fleet")
    assert rows["Kim"].startswith("-") and rows["Kim"].endswith("at its first tap here")
    code, out, _ = staff_list(state_dir, capsys, "--json")
    assert code == 0 and json.loads(out) == {"problems": [], "staff": [
        {"uid": SAM, "label": "Sam", "from": "fleet"},
        {"uid": HERE, "label": "Manager", "from": "here"},
        {"uid": None, "label": "Kim", "from": "fleet, first tap"}]}


def test_an_unreadable_staff_list_is_said_and_the_rest_still_listed(tmp_path, capsys):
    state_dir = cafe(tmp_path)
    (state_dir / "staff.toml").write_bytes(b"[staff]\n\xff = 1\n")
    code, out, err = staff_list(state_dir, capsys)
    assert code == 2
    assert "staff.toml" in err and len(err.splitlines()) == 1
    assert "Kim" in out and "Manager" not in out
    assert (state_dir / "staff.toml").read_bytes() == b"[staff]\n\xff = 1\n"


def test_no_staff_card_says_how_to_add_one(tmp_path, capsys):
    code, out, err = staff_list(tmp_path, capsys)
    assert code == 0 and "deck staff add" in out and err == ""
    code, out, _ = staff_list(tmp_path, capsys, "--language", "fr")
    assert "Aucune carte du personnel" in out


def test_a_roll_of_an_older_version_holds_the_pending_cards(tmp_path):
    (tmp_path / ROLL_FILE).write_text(json.dumps({staff_hash(KEY, KIM): "Kim"}))
    roll = StaffRoll(tmp_path)
    assert roll.pending() == {staff_hash(KEY, KIM): "Kim"} and roll.enrolled() == {}
    assert roll.claim(KEY, KIM.lower()) == "Kim"
    assert roll.pending() == {} and roll.enrolled() == {KIM: "Kim"}
    assert roll.claim(KEY, KIM) is None                  # a second tap enrols nothing again


def test_a_hostile_roll_counts_as_empty(tmp_path):
    for text in ("[]", '{"pending": {"a": 1}, "enrolled": {}}', '{"pending": {}}', "\\xff", "{"):
        (tmp_path / ROLL_FILE).write_text(text)
        roll = StaffRoll(tmp_path)
        assert roll.pending() == {} and roll.enrolled() == {}
