"""A café's Flouk card file: checked, installed, and used by the next game."""
from __future__ import annotations

import engine
import seeds
from device.cli import main
from device.storage import card_data as cards


def shipped() -> str:
    return seeds.read_text("flouk")


def test_check_names_card_and_field(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(shipped().replace('people = "mouta"', 'people = "moutaa"', 1), encoding="utf-8")
    assert main(["cards", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "mouta#1" in err and "people" in err


def test_install_then_the_game_reads_it(tmp_path, capsys):
    edited = shipped().replace('people = "mouta"\nwhite = "unknown"', 'people = "mouta"\nwhite = 3', 1)
    good = tmp_path / "mine.toml"
    good.write_text(edited, encoding="utf-8")
    assert main(["cards", "install", str(good), "--state-dir", str(tmp_path / "state")]) == 0
    data = cards.game_data(engine.get("flouk"), tmp_path / "state")
    assert data["cards"]["chief_mouta#1"]["white"] == 3
    assert cards.game_data(engine.get("flouk"), tmp_path / "elsewhere")["cards"]["chief_mouta#1"]["white"] == "unknown"


def test_bad_file_is_not_installed(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[cards\n", encoding="utf-8")
    assert main(["cards", "install", str(bad), "--state-dir", str(tmp_path)]) == 2
    assert not cards.card_file(tmp_path, "flouk").exists()
