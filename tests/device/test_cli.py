"""The `tabletop` command line as a whole: --version, exit codes, --json, logs, completion."""
from __future__ import annotations

import argparse
import importlib.metadata
import io
import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine
import seeds
from device.cli import build_parser, completion, logs, main
from device.decks.registry import DeckRegistry

# ---- --version and exit codes -----------------------------------------------------------------

def test_version_comes_from_the_installed_distribution(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"tabletop {importlib.metadata.version('tabletop-companion')}\n"


def test_help_documents_the_exit_codes_in_both_languages(capsys):
    for language, words in (("en", "Exit status: 0 done, 1 a failure"), ("fr", "Code de sortie")):
        with pytest.raises(SystemExit):
            main(["--language", language, "--help"])
        assert words in capsys.readouterr().out


def subcommand_paths() -> list[str]:
    return [path for path in completion.command_paths(build_parser()) if path]


@pytest.mark.parametrize("path", subcommand_paths())
def test_every_subcommand_answers_bad_usage_with_2(path, capsys):
    with pytest.raises(SystemExit) as done:
        main([*path.split(), "--no-such-option"])
    assert done.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "error:" in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["history", "--game", "chess"], ["history", "--json", "--csv"],
                                  ["replay", "no-such-script.txt"],
                                  ["config", "--check", "no-such-file.toml"],
                                  ["cards", "check", "no-such-file.toml"],
                                  ["run", "--config", "no-such-file.toml"]])
def test_bad_input_exits_2_with_one_line(argv, capsys, tmp_path):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") <= 1 and "Traceback" not in err


# ---- --json ----------------------------------------------------------------------------------

def test_doctor_sim_json_is_one_document(tmp_path, capsys):
    returncode = main(["doctor", "--sim", "--json", "--state-dir", str(tmp_path)])
    report = json.loads(capsys.readouterr().out)
    assert returncode == (0 if report["ready"] else 1)
    assert report["failed"] == sum(c["status"] == "FAIL" for c in report["checks"])
    names = {check["name"] for check in report["checks"]}
    assert {"python", "config", "reader", "display"} <= names
    assert all(set(check) == {"status", "name", "detail", "fix"} for check in report["checks"])


def test_deck_list_json(tmp_path, capsys):
    assert main(["deck", "list", "--json", "--state-dir", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out) == {"decks": [], "problems": []}
    learnt = "\n".join(f"04{n:06X}" for n in range(80))
    sys_stdin, sys.stdin = sys.stdin, io.StringIO(learnt)
    try:
        main(["deck", "learn", "palourde", "--stdin", "--state-dir", str(tmp_path)])
    finally:
        sys.stdin = sys_stdin
    capsys.readouterr()
    assert main(["deck", "list", "--json", "--state-dir", str(tmp_path)]) == 0
    (deck,) = json.loads(capsys.readouterr().out)["decks"]
    assert deck["name"] == "palourde" and deck["complete"] is (deck["missing"] == [])
    assert deck["size"] > 0


def test_history_json_of_no_game_is_an_empty_array(tmp_path, capsys):
    assert main(["history", "--json", "--state-dir", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(["history", "--json", "--stats", "--state-dir", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out) == []


# ---- logs -------------------------------------------------------------------------------------

def journal_env(stream) -> dict[str, str]:
    found = os.fstat(stream.fileno())
    return {"JOURNAL_STREAM": f"{found.st_dev}:{found.st_ino}"}


def test_a_stream_is_the_journal_only_when_its_device_and_inode_match(tmp_path):
    with open(tmp_path / "journal", "w") as journal, open(tmp_path / "other", "w") as other:
        assert logs.is_journal(journal, journal_env(journal))
        assert not logs.is_journal(other, journal_env(journal))
        assert not logs.is_journal(journal, {})
        assert not logs.is_journal(journal, {"JOURNAL_STREAM": "garbage"})
        assert not logs.is_journal(io.StringIO(), journal_env(journal))


@pytest.mark.parametrize("level, prefix", [(logging.ERROR, "<3>"), (logging.WARNING, "<4>"),
                                           (logging.INFO, "<6>"), (logging.DEBUG, "<7>"),
                                           (logging.CRITICAL, "<2>")])
def test_each_line_carries_its_priority_in_the_journal(level, prefix):
    record = logging.LogRecord("fleet", level, __file__, 1, "one\ntwo", None, None)
    text = logs.JournalFormatter("%(name)s: %(message)s").format(record)
    assert text.splitlines() == [f"{prefix}fleet: one", f"{prefix}two"]


def test_run_logs_one_start_up_line_at_info_into_the_journal(tmp_path, monkeypatch):
    """As systemd starts it: its stderr the stream JOURNAL_STREAM names."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    with open(tmp_path / "stderr", "w") as stderr:
        monkeypatch.setattr(sys, "stderr", stderr)
        monkeypatch.setenv("JOURNAL_STREAM", journal_env(stderr)["JOURNAL_STREAM"])
        try:
            assert main(["run", "--sim", "--state-dir", str(tmp_path / "state")]) == 0
        finally:
            monkeypatch.undo()
            logs.for_command(False)            # the log back on the test's stderr, not the file
    lines = (tmp_path / "stderr").read_text().splitlines()
    started = [line for line in lines if " started: " in line]
    version = importlib.metadata.version("tabletop-companion")
    assert started == [f"<6>tabletop: tabletop {version} started: game none yet, reader rc522, "
                       "display ssd1306 (simulated), fleet off"]


def test_log_level_and_verbose_choose_what_run_logs(tmp_path, monkeypatch, capsys):
    config = tmp_path / "tabletop.toml"
    config.write_text('log_level = "warning"\n')
    run = ["run", "--sim", "--config", str(config), "--state-dir", str(tmp_path / "s")]
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(run) == 0
    assert " started: " not in capsys.readouterr().err
    assert main(["--verbose", *run]) == 0
    assert "INFO tabletop: tabletop " in capsys.readouterr().err      # not the journal: no prefix


# ---- completion -------------------------------------------------------------------------------

def complete(script: str, *words: str, cwd=None, env=None) -> list[str]:
    """What bash offers for the last of `words` (the function called as bash's completion does)."""
    array = " ".join(f"'{word}'" for word in ("tabletop", *words))
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c",
                           f'{script}\nCOMP_WORDS=({array}); COMP_CWORD={len(words)}; _tabletop;'
                           ' printf "%s\\n" "${COMPREPLY[@]}"'],
                          capture_output=True, text=True, check=True, cwd=cwd,
                          env={**os.environ, **(env or {})})
    return done.stdout.split()


@pytest.fixture(scope="module")
def bash_script() -> str:
    return completion.script(build_parser(), "bash")


def test_bash_completes_subcommands_and_options(bash_script):
    assert complete(bash_script, "d") == ["deck", "dashboard", "doctor"]
    assert complete(bash_script, "deck", "st") == ["staff"]
    assert complete(bash_script, "deck", "staff", "") == ["add", "remove", "list", "publish",
                                                          "-h", "--help"]
    assert "--json" in complete(bash_script, "doctor", "--")
    assert complete(bash_script, "--language", "") == ["en", "fr"]
    assert complete(bash_script, "--verbose", "deck", "l") == ["learn", "list"]
    assert sorted(complete(bash_script, "deck", "export", "list", "")) == ["--help", "--state-dir", "-h"]


@pytest.fixture
def folder(tmp_path) -> Path:
    (tmp_path / "games").mkdir()
    (tmp_path / "demo.script").write_text("game palourde\n")
    (tmp_path / "cafe.toml").write_text("")
    return tmp_path


def test_bash_offers_files_where_a_path_is_asked_and_folders_where_a_folder_is(bash_script, folder):
    assert sorted(complete(bash_script, "replay", "", cwd=folder)) == ["cafe.toml", "demo.script", "games"]
    assert complete(bash_script, "replay", "d", cwd=folder) == ["demo.script"]
    assert complete(bash_script, "doctor", "--config", "c", cwd=folder) == ["cafe.toml"]
    assert complete(bash_script, "run", "--state-dir", "", cwd=folder) == ["games"]
    assert sorted(complete(bash_script, "deck", "import", "--state-dir", "games", "", cwd=folder)) == \
        ["cafe.toml", "demo.script", "games"]
    assert complete(bash_script, "run", "--players", "", cwd=folder) == []     # names: none offered


@pytest.mark.parametrize("argv, playouts", [([], 3), (["--playouts", "5"], 5), (["--seeds", "2"], 2)])
def test_check_game_plays_its_random_games_as_playouts_and_still_takes_seeds(argv, playouts):
    """`--playouts N` counts the random games (seeds/ is the decks' manifests); `--seeds N`, the
    flag's first name, still works for scripts written with it, and --help names only the new one."""
    args = build_parser().parse_args(["check-game", "palourde", *argv])
    assert args.playouts == playouts and not hasattr(args, "seeds")


def test_bash_offers_game_ids_and_deck_families_from_the_registry(bash_script):
    games = [spec.id for spec in engine.all_specs()]
    assert complete(bash_script, "check-game", "") == [*games, "-h", "--help", "--playouts", "--json"]
    assert complete(bash_script, "run", "--game", "t") == ["tribord", "tamalou"]
    assert complete(bash_script, "guide", "rules", "f") == ["flouk"]
    assert complete(bash_script, "cards", "show", "--deck", "") == list(seeds.decks())
    assert complete(bash_script, "deck", "learn", "pa") == ["palourde"]


def test_bash_offers_the_decks_learned_at_this_table(bash_script, tmp_path):
    DeckRegistry(tmp_path / "tabletop").add_tag("cafe", "palourde", "04000000000001", "clam#1")
    here = {"XDG_STATE_HOME": str(tmp_path), "STATE_DIRECTORY": "",
            "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    assert complete(bash_script, "deck", "export", "", env=here) == ["cafe"]
    assert complete(bash_script, "deck", "remove", "c", env=here) == ["cafe"]


def test_an_argument_named_card_completes_with_every_card_id():
    parser = argparse.ArgumentParser()
    parser.add_argument("card")
    words = completion.kind("players", parser._actions[-1]).split()
    assert words[0] == "words" and {"clam#3", "KS", "decree#7", "10#10"} <= set(words)


def test_the_script_follows_the_parser(capsys):
    assert main(["completion", "bash"]) == 0
    script = capsys.readouterr().out
    assert "complete -F _tabletop tabletop" in script
    for path in subcommand_paths():
        assert f'"{path}")' in script
    assert main(["completion", "zsh"]) == 0
    zsh = capsys.readouterr().out
    assert zsh.startswith("#compdef tabletop") and '"deck staff")' in zsh


# The scripts as the shells themselves read them. The shells are not needed by the rest of the
# suite: without one, its checks skip.
needs_zsh = pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")


@pytest.fixture(scope="module")
def scripts(tmp_path_factory) -> Path:
    """The two scripts written as install.sh writes them: bash's `tabletop`, zsh's `_tabletop`."""
    folder = tmp_path_factory.mktemp("completion")
    (folder / "tabletop").write_text(completion.script(build_parser(), "bash"))
    (folder / "_tabletop").write_text(completion.script(build_parser(), "zsh"))
    return folder


def shell(*argv: str) -> str:
    return subprocess.run(argv, capture_output=True, text=True, check=True,
                          stdin=subprocess.DEVNULL).stdout


def test_bash_reads_the_script_and_registers_the_completion(scripts):
    shell("bash", "-n", str(scripts / "tabletop"))
    registered = shell("bash", "--norc", "--noprofile", "-c",
                       f"source '{scripts / 'tabletop'}' && complete -p tabletop")
    assert registered.strip() == "complete -F _tabletop tabletop"


# Outside a completion widget zsh's `words` and `CURRENT` are plain variables and compadd can
# be a function: the completion function then prints what it would offer.
STUBS = "compadd() { shift; print -rl -- \"$@\"; }; _files() { print -r -- \"files:$*\"; }; "


@needs_zsh
def test_zsh_loads_the_installed_script_with_compinit_and_sourcing_it_registers_it(scripts):
    """Both ways a zsh finds the script, in one shell: compinit's reading of $fpath is the
    slow part (every completion function's first line), so it is done once. Installed in
    $fpath, compinit registers it and it completes at the first tab; then, its registration
    and its function gone and its folder out of $fpath, sourcing the script registers it."""
    shell("zsh", "-n", str(scripts / "_tabletop"))
    done = shell("zsh", "-f", "-c", f"fpath=('{scripts}' $fpath); autoload -Uz compinit; "
                 f"compinit -u -D; print -r -- $_comps[tabletop]; {STUBS}"
                 "words=(tabletop deck st); CURRENT=3; _tabletop; print -r -- '--sourced--'; "
                 f"fpath=(${{fpath:#{scripts}}}); unset '_comps[tabletop]'; unfunction _tabletop; "
                 f"print -r -- \"[$_comps[tabletop]]\"; source '{scripts / '_tabletop'}'; "
                 "print -r -- $_comps[tabletop]; words=(tabletop --language ''); CURRENT=3; _tabletop")
    installed, sourced = done.split("--sourced--")
    registered, *offered = installed.split()
    assert registered == "_tabletop"
    assert {"staff", "learn", "--help"} <= set(offered) and "deck" not in offered
    unregistered, *registered_by_source = sourced.split()
    assert unregistered == "[]"
    assert registered_by_source == ["_tabletop", "en", "fr"]


@needs_zsh
def test_zsh_offers_files_folders_and_game_ids(scripts):
    def offered(*words: str) -> list[str]:
        listed = " ".join(f"'{word}'" for word in ("tabletop", *words))
        return shell("zsh", "-f", "-c", f"source '{scripts / '_tabletop'}' 2>/dev/null; {STUBS}"
                     f"words=({listed}); CURRENT={len(words) + 1}; _tabletop").split()
    assert offered("replay", "") == ["files:"]
    assert offered("status", "--state-dir", "") == ["files:-/"]
    assert offered("check-game", "") == [*(spec.id for spec in engine.all_specs()),
                                         "-h", "--help", "--playouts", "--json"]
