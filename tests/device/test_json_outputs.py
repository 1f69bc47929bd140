"""--json means JSON: `cards show`, `config --check` and `replay` answer with one JSON object on
stdout whatever they are given, a failure included (`error`), so a script never reads text."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from device.cli import main
from device.config import example_config

ROOT = Path(__file__).parents[2]


def answer(capsys, *argv) -> tuple[int, dict]:
    code = main(list(argv))
    out, _ = capsys.readouterr()
    [line] = out.splitlines()                 # one object, on one line
    return code, json.loads(line)


def test_cards_show_as_json_matches_the_text_form(tmp_path, capsys):
    code, shown = answer(capsys, "cards", "show", "--json", "--state-dir", str(tmp_path))
    assert code == 0 and shown["deck"] == "flouk"
    assert shown["total"] == len(shown["cards"]) > 0 and shown["problems"] == []
    assert main(["cards", "show", "--state-dir", str(tmp_path)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert [row.split()[0] for row in text[:-1]] == [card["card"] for card in shown["cards"]]
    for card in shown["cards"]:
        wanted = {"white"} if card["type"] == "chief" else {"people", "white"}
        assert set(card["details"]) == wanted
        for detail in card["details"].values():
            assert detail["from"] in ("known", "learned", "unknown")
            assert (detail["value"] is None) == (detail["from"] == "unknown")
    code, said = answer(capsys, "cards", "show", "--json", "--deck", "nope")
    assert code == 2 and "nope" in said["error"]


def test_config_check_as_json(tmp_path, capsys):
    good = tmp_path / "good.toml"
    good.write_text(example_config().replace('# state_dir = ', f'state_dir = "{tmp_path}"  # '))
    code, said = answer(capsys, "config", "--check", str(good), "--json")
    assert code == 0 and said["ok"] and said["problems"] == []
    assert said["parts"]["reader"] and said["parts"]["kiosk"] is False
    bad = tmp_path / "bad.toml"
    bad.write_text('[display]\nkind = "crt"\n[reader]\nkind = 3\n')
    code, said = answer(capsys, "config", "--check", str(bad), "--json")
    assert code == 2 and not said["ok"] and said["parts"] is None
    assert {p["key"] for p in said["problems"]} >= {"display.kind", "reader.kind"}
    code, said = answer(capsys, "config", "--check", str(tmp_path / "missing.toml"), "--json")
    assert code == 2 and said["problems"]


def test_replay_as_json_reports_every_failure(tmp_path, capsys):
    code, said = answer(capsys, "replay", str(tmp_path / "missing.script"), "--json")
    assert code == 2 and said["line"] is None and "missing.script" in said["error"]
    script = tmp_path / "bad.script"
    script.write_text("game palourde\nplayers Ann,Bob\nbogus line here\n")
    code, said = answer(capsys, "replay", str(script), "--json")
    assert code == 2 and said["line"] == 3
    script.write_bytes(b"game palourde\n\xff\n")
    code, said = answer(capsys, "replay", str(script), "--json")
    assert code == 2 and said["line"] == 2 and "UTF-8" in said["error"]
    code, said = answer(capsys, "replay", str(tmp_path), "--json")          # a folder
    assert code == 2 and said["error"]
    code, said = answer(capsys, "replay", str(ROOT / "engine/games/palourde/demo.script"), "--json")
    assert code == 0 and said["game"] == "palourde"


HEAD = st.sampled_from([b"", b"game palourde\nplayers Ann,Bob\n", b"game tamalou\nplayers A,B,C\n"])


@given(HEAD, st.binary(max_size=200))
def test_any_script_replayed_as_json_gives_json(tmp_path_factory, head, body):
    script = tmp_path_factory.mktemp("fuzz") / "any.script"
    script.write_bytes(head + body)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["replay", str(script), "--json"])
    [line] = out.getvalue().splitlines()
    said = json.loads(line)
    assert (code, "error" in said) in ((0, False), (2, True))
