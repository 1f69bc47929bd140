"""A file of the state dir that cannot be read as it should is moved to `unreadable/` with its
reason beside it, logged in one line and shown once; the table starts with everything else.
The config file, outside the state dir, is never moved: the table starts with the defaults."""
from __future__ import annotations

import argparse
import logging
import shutil
from contextlib import closing
from pathlib import Path

import pytest

from device.assembly import assemble, start_from_flags
from device.cli import main
from device.config import Config, config_for_run
from device.decks.registry import DeckRegistry
from device.fleet.journal_feed import CURSOR_FILE, Cursor
from device.fleet.signing import ROLL_FILE, StaffRoll
from device.loop import Frames
from device.sim.lines import SimReaderField
from device.sim.play import run_sim
from device.storage import quarantine
from device.storage.card_data import install, merge_details
from device.storage.history import open_history, update_history
from device.storage.settings import remember_language

from .forked_tables import ROOT
from .table import SimTable
from .test_crash import GAME

STAFF = "04AABBCCDDEEFF"
NOTICE = "File set aside"


@pytest.fixture(scope="module")
def furnished(tmp_path_factory) -> Path:
    """A state dir with one good file of every kind, and a finished game in the history."""
    state = tmp_path_factory.mktemp("furnished")
    SimTable(state).start("palourde", "Ann,Bob,Cy").run("\n".join(GAME))
    update_history(state)
    registry = DeckRegistry(state)
    registry.add_tag("cafe", "palourde", "04A1B2C3", "clam#1")
    registry.add_staff(STAFF, "Front desk")
    remember_language(state, "en")
    assert install(state, "flouk", (ROOT / "engine" / "games" / "flouk" / "deck.toml").read_text()) == []
    merge_details(state, "flouk", {"action#3": {"people": "bloup"}})
    (state / CURSOR_FILE).write_text('{"abc": 3}')
    (state / ROLL_FILE).write_text('{"0f": "Bar"}')
    return state


def files(state: Path) -> dict[str, bytes]:
    """Every file a person keeps there (the lock and the database's own files aside)."""
    return {str(p.relative_to(state)): p.read_bytes() for p in sorted(state.rglob("*"))
            if p.is_file() and not p.name.startswith(("history.sqlite", "run.lock"))}


def run(app, lines: str) -> None:
    field = SimReaderField(app.registry.sim_uid, clock=app.clock)
    run_sim(app, lines.splitlines(), app.clock, Frames(), field, pytest.fail)


def body(app) -> str:
    return "\n".join(app.screen().lines)


DEEP = b"[" * 5000
BAD = {                                                   # one way each kind goes wrong
    "settings.toml": b"language = [",                     # not TOML
    "decks/cafe.toml": b'deck = "cafe"\nfamily = "palourde"\nx = ' + DEEP,   # nested too deep
    "staff.toml": b"[staff]\n" + STAFF.encode() + b" = 5\n",                # a wrong type
    "cards/flouk.toml": b"\xff\xfe[cards]\n",            # not UTF-8
    "cards/flouk.learned.json": b"[1, 2]",                # the wrong shape
    "history.sqlite": b"not a database, just garbage " * 200,
    "archive/000002-finished.jsonl": b'{"journal": 1, "game": "chess"}\n',   # no such game
}


@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_file_is_set_aside_told_once_and_the_table_runs(furnished, tmp_path, name, caplog):
    state = tmp_path / "state"
    shutil.copytree(furnished, state)
    (state / name).write_bytes(BAD[name])
    before = {k: v for k, v in files(state).items() if k != name}
    with caplog.at_level(logging.ERROR):
        app = assemble(Config(), state, sim=True)
        app.resume_game()
        problem = start_from_flags(app, argparse.Namespace(      # reads the decks and card data
            game="flouk", players="Ann,Bob,Cy", first=None, option=[]))
    assert problem is None and app.session is not None        # the table runs
    kept = state / "unreadable" / f"000001-{Path(name).name}"
    assert kept.read_bytes() == BAD[name]
    assert (state / name).exists() == (name == "history.sqlite")     # (rebuilt at once)
    assert kept.with_name(kept.name + ".reason").read_text().startswith(f"was: {name}\nwhy: ")
    (line,) = [r.message for r in caplog.records if "unreadable/" in r.message]
    assert line.startswith(f"{name}: ") and "\n" not in line
    assert NOTICE in body(app) and Path(name).name in body(app)
    state_before = app.session.state
    run(app, "press select")                                  # the press only clears it
    assert NOTICE not in body(app) and app.session.state is state_before
    run(app, "press down\npress up\nwait 5")
    assert NOTICE not in body(app)                            # once
    after = files(state)
    assert all(after[k] == v for k, v in before.items())      # everything else as it was
    with closing(open_history(state)) as history:
        assert len(history.games()) == 1                      # rebuilt from the archive if need be
    app.plugins[1].close()


def test_a_saved_game_that_does_not_resume_is_set_aside_and_said_with_its_reason(furnished,
                                                                                tmp_path):
    state = tmp_path / "state"
    shutil.copytree(furnished, state)
    (state / "current.jsonl").write_bytes(b"[1]\n")
    app = assemble(Config(), state, sim=True)
    app.resume_game()
    kept = state / "unreadable" / "000001-current.jsonl"
    assert kept.read_bytes() == b"[1]\n" and not (state / "current.jsonl").exists()
    assert kept.with_name(kept.name + ".reason").read_text() == \
        "was: current.jsonl\nwhy: cannot resume: not a saved game\n"
    assert body(app) == "Saved game kept\naside: not a saved\ngame"      # said once, by the app
    run(app, "wait 7")
    assert NOTICE not in body(app) and "kept" not in body(app)
    assert start_from_flags(app, argparse.Namespace(game="palourde", players="Ann,Bob",
                                                    first=None, option=[])) is None
    app.plugins[1].close()


def test_a_command_that_only_reads_reports_and_moves_nothing(furnished, tmp_path, capsys):
    state = tmp_path / "state"
    shutil.copytree(furnished, state)
    (state / "staff.toml").write_bytes(BAD["staff.toml"])
    (state / "cards" / "flouk.learned.json").write_bytes(BAD["cards/flouk.learned.json"])
    before = files(state)
    main(["deck", "list", "--state-dir", str(state)])
    main(["cards", "export", "--state-dir", str(state)])
    assert files(state) == before and not (state / "unreadable").exists()
    err = capsys.readouterr().err.splitlines()
    assert err == [f"tabletop: {state / 'staff.toml'}: line 2: tag {STAFF}: the label must be text",
                   f"tabletop: {state / 'cards' / 'flouk.learned.json'}: learned details must be "
                   "a table of card ids"]


def test_a_tag_claimed_by_two_good_files_is_reported_not_moved(furnished, tmp_path):
    state = tmp_path / "state"
    shutil.copytree(furnished, state)
    shutil.copy(state / "decks" / "cafe.toml", state / "decks" / "copy.toml")
    quarantine.watch(state)
    registry = DeckRegistry(state)
    assert [d.name for d in registry.decks()] == ["cafe"]
    assert "is already clam#1 of deck cafe" in registry.problems[0]
    assert (state / "decks" / "copy.toml").exists() and quarantine.news(state) == []
    quarantine.unwatch(state)


def test_learned_details_partly_bad_keep_their_good_part(furnished, tmp_path):
    state = tmp_path / "state"
    shutil.copytree(furnished, state)
    path = state / "cards" / "flouk.learned.json"
    path.write_text('{"action#3": {"people": "bloup"}, "action#4": {"people": "martian"}}')
    quarantine.watch(state)
    from device.storage.card_data import learned_details
    assert learned_details(state, "flouk") == {"action#3": {"people": "bloup"}}
    assert "martian" in (state / "unreadable" / "000001-flouk.learned.json").read_text()
    assert learned_details(state, "flouk") == {"action#3": {"people": "bloup"}}   # kept
    assert quarantine.news(state) == ["cards/flouk.learned.json"]
    quarantine.unwatch(state)


@pytest.mark.parametrize("name, text, read", [
    (CURSOR_FILE, '{"abc": "three"}', lambda state: Cursor(state).done),
    (CURSOR_FILE, "{" * 5000, lambda state: Cursor(state).done),
    (ROLL_FILE, '["Bar"]', lambda state: StaffRoll(state).pending()),
    (ROLL_FILE, b"\xff", lambda state: StaffRoll(state).pending()),
])
def test_the_fleets_own_files_are_set_aside_too(tmp_path, name, text, read):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    quarantine.watch(tmp_path)
    assert read(tmp_path) == {}
    assert not path.exists() and (tmp_path / "unreadable" / f"000001-{name}").exists()
    assert quarantine.news(tmp_path) == [name]
    quarantine.unwatch(tmp_path)


def test_a_bad_settings_value_is_set_aside(tmp_path):
    (tmp_path / "settings.toml").write_text('language = "klingon"\n')
    quarantine.watch(tmp_path)
    from device.storage.settings import saved_language
    assert saved_language(tmp_path) is None
    reason = (tmp_path / "unreadable" / "000001-settings.toml.reason").read_text()
    assert reason == "was: settings.toml\nwhy: language 'klingon' is not one of en, fr\n"
    quarantine.unwatch(tmp_path)


def test_a_file_that_cannot_be_moved_stays_and_the_table_still_starts(furnished, tmp_path,
                                                                      monkeypatch, caplog):
    state = tmp_path / "state"
    shutil.copytree(furnished, state)
    (state / "settings.toml").write_bytes(BAD["settings.toml"])

    def refused(*args):
        raise OSError(30, "Read-only file system")
    monkeypatch.setattr(quarantine.os, "replace", refused)
    with caplog.at_level(logging.ERROR):
        app = assemble(Config(), state, sim=True)
    assert app.language == "en" and (state / "settings.toml").read_bytes() == BAD["settings.toml"]
    assert "left in place, cannot move it (Read-only file system)" in caplog.text
    app.plugins[1].close()


# ---- the config file -----------------------------------------------------------------------

@pytest.mark.parametrize("text", [b"[reader\n", b"\xff\xfe", b"[display]\ncontrast = 'x'\n",
                                  b"a = " + b"[" * 5000])
def test_a_config_that_does_not_read_gives_the_defaults_and_is_never_moved(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_bytes(text)
    config, (problem, *_) = config_for_run(path)
    assert isinstance(config, Config) and str(problem).startswith(f"{path}: ")
    assert path.read_bytes() == text


def test_a_config_keeps_the_keys_that_read(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('log_level = "warning"\n[display]\ncontrast = "x"\n')
    config, problems = config_for_run(path)
    assert config.log_level == "warning" and config.display.contrast == Config().display.contrast
    assert list(map(str, problems)) == [f'{path}: display.contrast: "x" is not a whole number']


def test_run_with_a_bad_config_starts_logs_and_shows_it_once(tmp_path, monkeypatch, capsys,
                                                              caplog):
    import io
    import sys
    path = tmp_path / "config.toml"
    path.write_bytes(b"[reader\n")
    shown = []
    real = assemble

    def spy(*args, **kwargs):
        app = real(*args, **kwargs)
        shown.append(app)
        return app
    monkeypatch.setattr("device.cli.run.assemble", spy)
    monkeypatch.setattr(sys, "stdin", io.StringIO("wait 1\n"))
    with caplog.at_level(logging.ERROR):
        assert main(["run", "--sim", "--config", str(path), "--state-dir",
                     str(tmp_path / "s")]) == 0
    assert path.read_bytes() == b"[reader\n"
    (line,) = [r.message for r in caplog.records if "config file not used" in r.message]
    assert str(path) in line
    app = shown[0]
    assert "Config file" in body(app)
    run(app, "press select")
    assert "Config file" not in body(app)


def test_a_config_that_is_not_there_is_still_exit_2(tmp_path):
    assert main(["run", "--sim", "--config", str(tmp_path / "none.toml")]) == 2


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_notices_fit_the_screen_in_both_languages(tmp_path, language):
    from device.ui.set_aside import SetAsideNotice
    table = SimTable(tmp_path, language)
    table.app.attach(notice := SetAsideNotice(tmp_path, config_unread=True))
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "flouk.learned.json").write_text("{")
    from device.storage.card_data import learned_details
    learned_details(tmp_path, "flouk")
    pages = []
    for _ in range(2):
        pages.append(table.screen.lines)
        table.run("press back")
    assert table.screen.lines not in pages                    # both read, both gone
    assert [len(page) for page in pages] == [4, 4]
    assert all(len(line) <= 21 and not line.endswith("…") for page in pages for line in page)
    assert "flouk.learned.json" in pages[1]
    notice.close()
