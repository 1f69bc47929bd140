"""Every command that reads a file a person gives it answers a hostile one the same way: one
line on stderr naming the file and the reason, exit 2, no traceback, and not a byte of the
state dir changed."""
from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from device.cli import main
from device.config import config_for_run
from device.decks.registry import DeckRegistry
from device.paths import GIVEN_MOST
from device.storage import quarantine

# Each command, with FILE where the file goes and STATE where the state dir does. `staff add`
# reads the state dir's staff list: the hostile file is that list. A check lists every problem
# it finds, each on its line; every other command says the first.
COMMANDS = {
    "deck import": ["deck", "import", "FILE", "--state-dir", "STATE"],
    "cards check": ["cards", "check", "FILE", "--state-dir", "STATE"],
    "cards install": ["cards", "install", "FILE", "--state-dir", "STATE"],
    "cards import": ["cards", "import", "FILE", "--state-dir", "STATE"],
    "staff add": ["deck", "staff", "add", "04A1B2C3", "Alice", "--state-dir", "STATE"],
    "replay": ["replay", "FILE"],
    "config --check": ["config", "--check", "FILE"],
    "run": ["run", "--sim", "--config", "FILE", "--state-dir", "STATE"],
}
DEEP = 5000
FILES = {
    "invalid UTF-8": b"[cards]\nname = \"\xff\xfe\xc3\"\n",
    "NUL bytes": b"[cards]\x00\nname = \x00\n",
    "nested TOML": b"a = " + b"[" * DEEP + b"]" * DEEP + b"\n",
    "nested JSON": b'{"a": ' + b"[" * DEEP + b"]" * DEEP + b"}\n",
    "a 10 MB line": b"x" * 10_000_000,
    "a 1 MB value": b'family = "' + b"y" * 1_000_000 + b'"\n[staff]\n04A1B2C4 = "' + b"z" * 100
                    + b'"\n',
    "wrong types TOML": b"game = 1\nplayers = [1, 2]\nname = true\n[staff]\n04A1B2C4 = [1]\n"
                        b"[cards]\nx = 1\n[reader]\nkind = 3\n",
    "wrong types JSON": b'[1, "two", null, {"three": [4]}]\n',
    "missing": None,
    "a folder": "folder",
    "unreadable": "unreadable",
}
CHECKS = {"cards check", "config --check"}
# A config that is there but reads badly does not stop a table: `run` starts on the keys that
# read and says so once (test_unreadable_files); only one it cannot open at all is refused.
RUN_REFUSES = {"missing", "a folder", "unreadable"}
CASES = [(command, kind) for command in COMMANDS for kind in FILES
         if command != "run" or kind in RUN_REFUSES]
ROOT_READS_ALL = os.geteuid() == 0


def plant(path: Path, content) -> None:
    if content == "folder":
        path.mkdir()
    elif content == "unreadable":
        path.write_text("[staff]\n")
        path.chmod(0)
    elif content is not None:
        path.write_bytes(content)


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file and folder under `folder`, with a hash of each file's bytes."""
    found = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        found[name] = "folder" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest() \
            if os.access(path, os.R_OK) else f"mode {path.stat().st_mode:o}"
    return found


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """A state dir with a staff card and a learned deck in it."""
    state = tmp_path_factory.mktemp("template") / "state"
    assert main(["deck", "staff", "add", "04C0FFEE", "Boss", "--state-dir", str(state)]) == 0
    deck = state.parent / "cafe.toml"
    deck.write_text('deck = "cafe"\nfamily = "palourde"\n[tags]\n04A1B2C5 = "clam#1"\n')
    assert main(["deck", "import", str(deck), "--state-dir", str(state)]) == 0
    return state


@pytest.mark.parametrize(("command", "kind"), CASES)
def test_a_hostile_file_gets_one_line_and_exit_2_and_changes_nothing(command, kind, template,
                                                                    tmp_path, capsys):
    content = FILES[kind]
    if content == "unreadable" and ROOT_READS_ALL:
        pytest.skip("root reads a file of mode 000")
    if command == "staff add" and content is None:
        pytest.skip("no staff list is an empty one")
    state = tmp_path / "state"
    shutil.copytree(template, state)
    path = state / "staff.toml" if command == "staff add" else tmp_path / "input.toml"
    if command == "staff add":
        path.unlink()
    plant(path, content)
    before = fingerprint(state)
    capsys.readouterr()
    argv = [str(path) if word == "FILE" else str(state) if word == "STATE" else word
            for word in COMMANDS[command]]
    try:
        code = main(argv)
    finally:
        if content == "unreadable":
            path.chmod(0o600)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code == 2, (out, err)
    lines = err.splitlines()
    assert len(lines) == 1 or command in CHECKS and lines, err
    assert all(str(path) in line and len(line) < 500
               for line in lines), err
    assert fingerprint(state) == before


# A file just past the most read of a given file, each byte of it a comment: read whole, it
# would be a good (empty) config, staff list or deck; only its size refuses it.
PAST_THE_MOST = b"#" + b" " * GIVEN_MOST + b"\n"


@pytest.mark.parametrize("command", [command for command in COMMANDS if command != "run"])
def test_a_file_past_4_mb_is_refused_unread_in_one_line(command, template, tmp_path, capsys):
    state = tmp_path / "state"
    shutil.copytree(template, state)
    path = state / "staff.toml" if command == "staff add" else tmp_path / "input.toml"
    path.write_bytes(PAST_THE_MOST)
    before = fingerprint(state)
    capsys.readouterr()
    argv = [str(path) if word == "FILE" else str(state) if word == "STATE" else word
            for word in COMMANDS[command]]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and str(path) in err and "larger than 4 MB" in err, err
    assert fingerprint(state) == before


def test_a_config_past_4_mb_starts_the_table_on_the_defaults(tmp_path):
    """`run` takes a config it cannot read as it should as it takes bad TOML: the defaults,
    and the reason said once."""
    path = tmp_path / "config.toml"
    path.write_bytes(PAST_THE_MOST)
    config, problems = config_for_run(path)
    assert config == type(config)() and len(problems) == 1
    assert "larger than 4 MB" in str(problems[0]), problems


def test_a_staff_list_past_4_mb_is_set_aside_whole_by_the_running_table(template, tmp_path):
    state = tmp_path / "state"
    shutil.copytree(template, state)
    (state / "staff.toml").write_bytes(PAST_THE_MOST)
    quarantine.watch(state)
    try:
        registry = DeckRegistry(state)
        assert registry.staff() == {}
        said = registry.problems
        assert "cafe" in [deck.name for deck in registry.decks()]
    finally:
        quarantine.unwatch(state)
    assert len(said) == 1 and "staff.toml: larger than 4 MB" in said[0], said
    assert not (state / "staff.toml").exists()
    assert (state / "unreadable" / "000001-staff.toml").read_bytes() == PAST_THE_MOST
