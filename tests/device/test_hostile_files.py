"""Hostile event scripts: whatever bytes a file holds, `tabletop replay` answers with a replay
or one line `file: line N: reason` and exit 2, never a traceback, and never writes the file."""
from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

from hypothesis import HealthCheck, given, settings, strategies as st

from device.cli.replay import replay_command

HEADER = b"game palourde\nplayers Ann Bob Cy\n"
WORDS = [b"tap clam#1", b"tap clam#2", b"undo", b"redo", b"select", b"back", b"choose Ann",
         b"option x=y", b"players", b"game nope", b"tap", b"\x00", b"\xff\xfe", b"\xc3",
         b"x" * 100_000, b"[" * 5000, b"# a comment", b"wait inf", b"wait nan", b"\r", b"\x0b"]
FIGURES = {"scripts tried": 0, "tracebacks": 0, "bytes changed": 0}

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
    FIGURES["scripts tried"] += 1
    try:
        code, err = replay(path)
    except Exception:
        FIGURES["tracebacks"] += 1
        raise
    FIGURES["bytes changed"] += path.read_bytes() != data
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
    assert replay(path) == (2, f"{path}: line 3: a NUL byte\n")
    path.write_bytes(HEADER + b"z" * 100_000)
    code, err = replay(path)
    assert code == 2 and err.startswith(f"{path}: line 3: unknown word 'zzz") and len(err) < 200


def test_report_figures():
    print(f"event scripts: {FIGURES}")
    assert FIGURES["tracebacks"] == 0 and FIGURES["bytes changed"] == 0
