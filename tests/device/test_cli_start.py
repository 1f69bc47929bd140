"""The command line's start-up and its end: a command imports what it runs and nothing else
(counted in sys.modules, never timed: `tabletop bench` times it), and output into a pipe
whose reader has gone ends quietly, killed by SIGPIPE as the shell's own tools are."""
from __future__ import annotations

import argparse
import importlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import device.config
from device.cli import parser as cli_parser
from engine.core import text
from tests.device.forked_tables import TableServer
from tests.device.mosquitto import free_port
from tests.device.table import SimTable

ROOT = Path(__file__).resolve().parents[2]

MODULES_AFTER = """
import json, sys
from device.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.__stderr__)
"""


def modules_after(*argv: str, tmp_path: Path) -> set[str]:
    """Every module imported by a fresh `tabletop ARGV` (its output and stdin: nothing)."""
    done = subprocess.run([sys.executable, "-c", MODULES_AFTER, *argv], cwd=tmp_path,
                          stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, timeout=60,
                          env={**os.environ, "XDG_STATE_HOME": str(tmp_path)})
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def commands_imported(modules: set[str]) -> set[str]:
    """The command modules among `modules` (the parser's own start-up left out)."""
    return {name for name in modules if name.startswith("device.cli.")} - \
        {"device.cli.parser", "device.cli.pipes", "device.cli.logs", "device.cli.entry_points"}


def test_version_imports_no_command_no_catalog_no_config_and_no_engine(tmp_path):
    modules = modules_after("--version", tmp_path=tmp_path)
    assert commands_imported(modules) == set()
    for heavy in ("engine", "device.config", "device.texts", "importlib.metadata", "typing", "logging",
                  "shutil", "zlib", "lzma", "bz2", "signal"):
        assert heavy not in modules, heavy


@pytest.mark.parametrize("columns", [None, "60", "200", "0", "-3", "wide"])
def test_the_help_is_as_wide_as_shutil_says_the_terminal_is(monkeypatch, columns):
    """argparse asks shutil for the width; the parser asks os as shutil does, without it."""
    import shutil
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert cli_parser.terminal_columns() == shutil.get_terminal_size().columns


def test_the_root_help_names_every_command_without_importing_one(tmp_path):
    modules = modules_after("--help", tmp_path=tmp_path)
    assert commands_imported(modules) == set()


@pytest.fixture(scope="module")
def status_modules(tmp_path_factory) -> set[str]:
    """What `tabletop status` imports on a state dir without a game (one start for the tests
    that read it)."""
    where = tmp_path_factory.mktemp("status")
    return modules_after("status", "--state-dir", str(where), tmp_path=where)


def test_status_imports_its_own_command_and_no_other(status_modules):
    modules = status_modules
    assert commands_imported(modules) <= {"device.cli.status", "device.cli.tally", "device.cli.refusal"}
    for part in ("device.ui", "device.fleet", "device.kiosk", "device.bench", "PIL", "sqlite3"):
        assert part not in modules, part


def test_status_without_a_game_imports_neither_the_engine_the_config_nor_the_log(status_modules):
    """What `tabletop status` costs at its start: the catalogs and the state dir, nothing of
    the rules, the config's checks, the journal or the logging module (`tabletop bench`
    times it beside `python -c pass`)."""
    modules = status_modules
    assert "device.texts.cli_en" in modules                    # it did say there is no game
    for heavy in ("engine.core.text", "engine.core.registry", "engine.games", "device.config.schema",
                  "device.storage.journal", "logging", "dataclasses", "typing", "tomllib"):
        assert heavy not in modules, heavy


def test_status_of_a_game_brings_the_rules_not_the_log(tmp_path):
    state = tmp_path / "state"
    # the game as `run --sim --game palourde --players Ann,Bob` leaves it, made in this process:
    # only the status's own start is counted
    SimTable(state).start("palourde", "Ann,Bob", dealt=False).app.store.close()
    modules = modules_after("status", "--state-dir", str(state), tmp_path=tmp_path)
    assert {"engine.core.registry", "engine.games.palourde", "device.storage.journal",
            "device.cli.tally"} <= modules
    # the games are found without importlib.metadata (the email package, zipfile...), and
    # reading a journal needs no uuid (nor the platform module it brings)
    assert "device.cli.entry_points" in modules
    # nor logging (nothing on its path logs), nor OpenSSL (a game with no move has no hash)
    for heavy in ("importlib.metadata", "email", "zipfile", "csv", "uuid", "platform", "logging",
                  "hashlib"):
        assert heavy not in modules, heavy
    # its own game's rules and texts, not the other games'
    assert {name.split(".")[2] for name in modules if name.startswith("engine.games.")} == {"palourde"}


def test_status_of_a_game_with_moves_replays_them_with_its_own_game_alone(tmp_path):
    """Replaying a tap of the game's own card looks in no other game's deck: `status` of a game
    in progress imports its game's package and no other."""
    state = tmp_path / "state"
    table = SimTable(state).start("palourde", "Ann,Bob", dealt=False)
    table.run("tap clam#1\ntap clam#2")
    assert table.app.session.state.seq >= 2              # both taps taken: there is a replay
    table.app.store.close()
    modules = modules_after("status", "--state-dir", str(state), tmp_path=tmp_path)
    assert {name.split(".")[2] for name in modules if name.startswith("engine.games.")} == {"palourde"}


def test_guide_rules_finds_the_games_without_importlib_metadata(tmp_path):
    modules = modules_after("guide", "rules", tmp_path=tmp_path)
    assert {"engine.games.palourde", "device.cli.entry_points"} <= modules      # it did run
    for heavy in ("importlib.metadata", "email", "csv", "importlib.resources", "zipfile",
                  "tempfile", "device.config", "logging"):
        assert heavy not in modules, heavy


def test_a_game_s_files_read_as_importlib_resources_reads_them():
    from importlib import resources

    import engine
    from device.cli.rules_page import game_file
    for spec in engine.all_specs():
        for name in ("rules.md", "deck.toml", "demo.script", "no-such-file"):
            try:
                want: object = resources.files(spec.home).joinpath(name).read_text(encoding="utf-8")
            except OSError as exc:
                want = type(exc)
            try:
                got: object = game_file(spec, name)
            except OSError as exc:
                got = type(exc)
            assert got == want, (spec.id, name)


def test_history_reads_the_roster_only_for_a_player(tmp_path):
    """The roster brings the screen's font (PIL), the deck files and TOML: `history --player`
    looks a name up in it; the other histories do not."""
    state = str(tmp_path / "state")
    modules = modules_after("history", "--state-dir", state, tmp_path=tmp_path)
    assert {"device.cli.history", "device.storage.history", "sqlite3"} <= modules      # it did run
    for heavy in ("device.players.roster", "device.ui.font", "PIL", "tomllib", "importlib.metadata",
                  "email", "uuid"):
        assert heavy not in modules, heavy
    player = modules_after("history", "--player", "Ann", "--state-dir", state, tmp_path=tmp_path)
    assert "device.players.roster" in player


def test_run_imports_what_a_table_needs_and_no_other_command(tmp_path):
    modules = modules_after("run", "--sim", "--state-dir", str(tmp_path), tmp_path=tmp_path)
    assert "device.assembly" in modules and "device.sim.play" in modules       # it did run
    # the config's own refusal and problem lines are the run's
    assert commands_imported(modules) == {"device.cli.run", "device.cli.config", "device.cli.refusal"}
    for part in ("device.bench", "device.conformance", "device.fleet.dashboard", "http.server"):
        assert part not in modules, part


@pytest.mark.parametrize("name", sorted(cli_parser.COMMANDS))
def test_each_command_is_listed_with_the_help_its_module_gives_it(name):
    """The root's list of commands is written before any module is read: it must say what the
    command's own parser says."""
    module = importlib.import_module(f"device.cli.{cli_parser.COMMANDS[name][0]}")
    plain = argparse.ArgumentParser().add_subparsers()
    module.add_commands(plain)
    assert list(plain.choices) == [name]
    (own,) = [action.help for action in plain._choices_actions]
    root = cli_parser.build_parser()
    (listed,) = [action.help for action in root._subparsers._group_actions[0]._choices_actions
                 if action.dest == name]
    assert listed == own


def test_the_parser_keeps_the_languages_it_names_without_importing_them():
    assert cli_parser.LANGUAGES == device.config.LANGUAGES
    assert cli_parser.DEFAULT_LANGUAGE == text.DEFAULT_LANGUAGE


# ---- a pipe closed early --------------------------------------------------------------------

def demo_script(tmp_path: Path) -> str:
    path = tmp_path / "demo.script"
    path.write_text((ROOT / "engine" / "games" / "palourde" / "demo.script").read_text())
    return str(path)


# Every command, each as it writes on standard output (bench aside: a run of it takes minutes;
# it writes the same way, through print()). `fleet` finds no broker: it says so on stderr and
# writes nothing on stdout; the dashboard starts (its link retries) and says where it is.
PIPED = [
    ["--help"], ["--version"], ["replay", "{demo}"], ["replay", "{demo}", "--json"],
    ["status", "--state-dir", "{dir}"], ["config", "--example"], ["deck", "list", "--state-dir", "{dir}"],
    ["cards", "show", "--state-dir", "{dir}"], ["cards", "export", "--state-dir", "{dir}"],
    ["players", "list", "--state-dir", "{dir}"],
    ["history", "--state-dir", "{dir}"], ["history", "--stats", "--state-dir", "{dir}"],
    ["doctor", "--sim", "--state-dir", "{dir}"], ["check-game", "palourde", "--playouts", "1"],
    ["guide", "rules"], ["guide", "cards"], ["completion", "bash"], ["completion", "zsh"],
    ["run", "--sim", "--state-dir", "{dir}", "--game", "palourde", "--players", "Ann,Bob"],
    ["run", "--state-dir", "{dir}"],
    ["fleet", "shared", "--config", "{dir}/fleet.toml"], ["dashboard", "--config", "{dir}/fleet.toml"],
]


@pytest.fixture(scope="module")
def commands():
    """Where the commands are started: forked, each a process of its own, from one that has
    imported every command (tests/device/forked_tables.py)."""
    server = TableServer(dict(os.environ), every_command=True)
    yield server
    server.close()


@pytest.mark.parametrize("argv", PIPED, ids=" ".join)
def test_output_into_a_closed_pipe_ends_quietly(argv, tmp_path, commands):
    # the dashboard on a port the system found free: 8080, its default, may be taken
    (tmp_path / "fleet.toml").write_text('[fleet]\nenabled = true\nhost = "127.0.0.1"\nport = 9\n'
                                         f'dashboard_port = {free_port()}\n')
    words = [word.format(demo=demo_script(tmp_path), dir=tmp_path) for word in argv]
    reader, writer = os.pipe()
    os.close(reader)                      # the reader has gone before the first line is written
    try:
        started = commands.start(words, cwd=tmp_path, stdout=writer,
                                 env={**os.environ, "XDG_STATE_HOME": str(tmp_path)})
    finally:
        os.close(writer)
    returncode, stderr = started.communicate(timeout=120)
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr
    wrote_nothing = argv[:2] == ["run", "--sim"]            # it writes on stderr only
    assert returncode == (2 if argv[0] == "fleet" else 0 if wrote_nothing
                          else -signal.SIGPIPE), stderr

