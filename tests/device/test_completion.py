"""Completion of what a state dir keeps, and of names with spaces, in the shells themselves:
bash's `complete -F` function and zsh's completion function, run as they run them (the
`tabletop` they ask is this checkout's, on the PATH). A name is offered whole, quoted for the
line (`game\\ one.txt`, `O\\'Neil`), never as two words; the state dir is the one `--state-dir` on the line
names."""
from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from device.cli import build_parser, completion, main
from device.decks.registry import DeckRegistry
from device.fleet.enrolled import FILE as ENROLLED
from device.players.roster import Roster, new_player

HERE = {"PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}", "STATE_DIRECTORY": ""}


@pytest.fixture(scope="module")
def scripts(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("completion")
    (folder / "tabletop").write_text(completion.script(build_parser(), "bash"))
    (folder / "_tabletop").write_text(completion.script(build_parser(), "zsh"))
    return folder


def bash(scripts: Path, *words: str, cwd: Path, env: dict | None = None) -> list[str]:
    """What bash's completion function offers for the last of `words` (as typed), in the order
    readline shows them: sorted (compgen -f lists a folder in its file system's order)."""
    array = " ".join(shlex.quote(word) for word in ("tabletop", *words))
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c",
                           f"source '{scripts / 'tabletop'}'; COMP_WORDS=({array}); "
                           f'COMP_CWORD={len(words)}; _tabletop; printf "%s\\n" "${{COMPREPLY[@]}}"'],
                          capture_output=True, text=True, check=True, cwd=cwd, stdin=subprocess.DEVNULL,
                          env={**os.environ, **HERE, "XDG_STATE_HOME": str(cwd), **(env or {})})
    return sorted(line for line in done.stdout.split("\n") if line)


needs_zsh = pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
# outside a completion widget compadd can be a function: each match it is given, one a line
STUBS = "compadd() { shift; print -rl -- \"$@\"; }; _files() { print -r -- \"files:$*\"; }; "


def zsh(scripts: Path, *words: str, cwd: Path) -> list[str]:
    listed = " ".join(shlex.quote(word) for word in ("tabletop", *words))
    done = subprocess.run(["zsh", "-f", "-c", f"source '{scripts / '_tabletop'}' 2>/dev/null; {STUBS}"
                           f"words=({listed}); CURRENT={len(words) + 1}; _tabletop"],
                          capture_output=True, text=True, check=True, cwd=cwd, stdin=subprocess.DEVNULL,
                          env={**os.environ, **HERE, "XDG_STATE_HOME": str(cwd)})
    return [line for line in done.stdout.split("\n") if line]


@pytest.fixture
def kept(tmp_path) -> Path:
    """A state dir with a roster, a learned deck and the café's enrolled tables, apart from the
    default one (which has its own deck)."""
    state = tmp_path / "café state"
    Roster(state).add(new_player("O'Neil"))
    Roster(state).add(new_player("Cy"))
    DeckRegistry(state).add_tag("cafe", "palourde", "04000000000001", "clam#1")
    (state / ENROLLED).write_text(json.dumps({"table-1": "k", "bar-2": "k"}))
    DeckRegistry(tmp_path / "tabletop").add_tag("home", "palourde", "04000000000002", "clam#1")
    (tmp_path / "game one.txt").write_text("")
    (tmp_path / "games").mkdir()
    return state


def test_bash_offers_a_file_with_a_space_as_one_name(scripts, kept, tmp_path):
    assert bash(scripts, "replay", "game", cwd=tmp_path) == ["game one.txt", "games"]
    assert bash(scripts, "replay", "game\\ o", cwd=tmp_path) == ["game one.txt"]
    assert bash(scripts, "replay", "'game o", cwd=tmp_path) == ["game one.txt"]


def test_bash_offers_the_names_of_the_state_dir_on_the_line_quoted(scripts, kept, tmp_path):
    state = "café\\ state"                     # as typed: its space escaped
    assert bash(scripts, "players", "remove", "--state-dir", state, "", cwd=tmp_path) == \
        ["Cy", "O\\'Neil"]
    assert bash(scripts, "players", "remove", "--state-dir", state, "O", cwd=tmp_path) == ["O\\'Neil"]
    assert bash(scripts, "players", "remove", "--state-dir", state, "O\\'N", cwd=tmp_path) == \
        ["O\\'Neil"]
    assert bash(scripts, "players", "card", "--state-dir", state, "04AA", "C", cwd=tmp_path) == ["Cy"]
    assert bash(scripts, "deck", "export", "--state-dir", state, "", cwd=tmp_path) == ["cafe"]
    assert bash(scripts, "deck", "export", "", cwd=tmp_path) == ["home"]       # the default dir
    assert bash(scripts, "fleet", "retire", f"--state-dir={state}", "", cwd=tmp_path) == \
        ["bar-2", "table-1"]
    assert bash(scripts, "fleet", "strike", "--state-dir", state, "t", cwd=tmp_path) == ["table-1"]


@needs_zsh
def test_zsh_offers_names_whole_from_the_state_dir_on_the_line(scripts, kept, tmp_path):
    assert zsh(scripts, "players", "remove", "--state-dir", "'café state'", "", cwd=tmp_path) == \
        ["Cy", "O'Neil"]
    assert zsh(scripts, "deck", "remove", "--state-dir", "café\\ state", "", cwd=tmp_path) == ["cafe"]
    assert zsh(scripts, "deck", "remove", "", cwd=tmp_path) == ["home"]
    assert zsh(scripts, "fleet", "retire", "--state-dir", "'café state'", "", cwd=tmp_path) == \
        ["bar-2", "table-1"]


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", '{"table-1": "k"', "\xff", '"x"' * 3])
def test_names_of_files_that_do_not_read_are_none_and_the_files_stay(tmp_path, capsys, text):
    for name in ("players.toml", ENROLLED):
        (tmp_path / name).write_text(text, encoding="utf-8", errors="surrogateescape")
    for kind in ("players", "tables", "decks"):
        assert main(["completion", "--names", kind, "--state-dir", str(tmp_path)]) == 0
        assert capsys.readouterr().out == ""
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(["players.toml", ENROLLED])


def test_the_completion_command_still_needs_its_shell(capsys):
    with pytest.raises(SystemExit) as done:
        main(["completion"])
    assert done.value.code == 2 and "bash or zsh" in capsys.readouterr().err
    script = completion.script(build_parser(), "bash")
    assert "--names" not in script.split("_tabletop_kind()")[0]       # unlisted: not offered
