"""Hostile event scripts: whatever bytes a file holds, `tabletop replay` answers with a replay
or one line `file: line N: reason` and exit 2, never a traceback, and never writes the file."""
from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.cli.replay import replay_command

HEADER = b"game palourde\nplayers Ann Bob Cy\n"
WORDS = [b"tap clam#1", b"tap clam#2", b"undo", b"redo", b"select", b"back", b"choose Ann",
         b"option x=y", b"players", b"game nope", b"tap", b"\x00", b"\xff\xfe", b"\xc3",
         b"x" * 100_000, b"[" * 5000, b"# a comment", b"wait inf", b"wait nan", b"\r", b"\x0b"]

scripts = st.one_of(
    st.binary(max_size=400),
    st.lists(st.sampled_from(WORDS), max_size=12).map(lambda lines: HEADER + b"\n".join(lines)),
)


def replay(path) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = replay_command(path, as_json=False)
    return code, err.getvalue()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=scripts)
def test_any_script_replays_or_gets_one_line_and_exit_2(tmp_path, data):
    path = tmp_path / "game.script"
    path.write_bytes(data)
    code, err = replay(path)
    assert path.read_bytes() == data
    if code != 0:
        assert code == 2
        lines = err.strip().split("\n")
        assert len(lines) == 1 and lines[0].startswith(f"{path}: line ") and len(lines[0]) < 400


def test_invalid_utf8_names_its_line(tmp_path):
    path = tmp_path / "bad.script"
    path.write_bytes(HEADER + b"tap clam#1\ntap \xff\n")
    assert replay(path) == (2, f"{path}: line 4: not UTF-8 text\n")


def test_a_nul_byte_and_a_huge_word_are_refused_with_their_line_and_cut(tmp_path):
    path = tmp_path / "nul.script"
    path.write_bytes(HEADER + b"tap clam#1\x00\n")
    assert replay(path) == (2, f"{path}: line 3: the line holds a control character (U+0000)\n")
    path.write_bytes(HEADER + b"z" * 100_000)
    code, err = replay(path)
    assert code == 2 and err.startswith(f"{path}: line 3: unknown word 'zzz") and len(err) < 200


# ---- journals ------------------------------------------------------------------------------

def saved_game(state_dir) -> bytes:
    from .table import SimTable
    SimTable(state_dir).start("palourde", "Ann,Bob,Cy").run("tap clam#1\ntap clam#2\ntap crab#1")
    return (state_dir / "current.jsonl").read_bytes()


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> bytes:
    """One saved game's journal, damaged afresh by each example (played once, not each time)."""
    return saved_game(tmp_path_factory.mktemp("saved"))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3), max_leaves=8)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=st.integers(0, 3), key=st.sampled_from(["journal", "game", "config", "rules_version",
                                                       "op", "event", "hash", "seq", "in", "deck"]),
       value=JSON_VALUES | st.just("[" * 5000), raw=st.booleans())
def test_any_damaged_journal_is_refused_with_a_reason(tmp_path_factory, saved, line, key, value, raw):
    import json

    from device.storage import journal
    from device.storage.journal import JournalError
    state_dir = tmp_path_factory.mktemp("journal")
    lines = saved.split(b"\n")
    record = json.loads(lines[line])
    if raw and isinstance(value, str):
        lines[line] = value.encode()
    else:
        record[key] = value
        lines[line] = json.dumps(record).encode()
    path = state_dir / "current.jsonl"
    data = b"\n".join(lines)
    path.write_bytes(data)
    try:
        journal.resume(path)
        journal.header(path)
    except JournalError:
        pass                  # refused with its own error; any other exception fails the test
    assert path.read_bytes() == data
