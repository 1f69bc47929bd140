"""`replay --json` answers in JSON even when its command line does not parse: no script, or a
flag it does not know, gives `{"error": ..., "file": null, "line": null}` and exit 2; without
--json the usage text stays for a person to read."""
from __future__ import annotations

import json

import pytest

from device.cli import main


def refused(capsys, *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(["replay", *argv])
    out, err = capsys.readouterr()
    return done.value.code, out, err


@pytest.mark.parametrize("argv, why", [
    (("--json",), "the following arguments are required: script"),
    (("--json", "--nope", "x.script"), "unrecognized arguments: --nope"),
    (("x.script", "--json", "--nope", "-q"), "unrecognized arguments: --nope -q"),
])
def test_a_command_line_that_does_not_parse_is_answered_in_json(capsys, argv, why):
    code, out, err = refused(capsys, *argv)
    assert (code, err) == (2, "")
    assert json.loads(out) == {"error": why, "file": None, "line": None}


@pytest.mark.parametrize("argv", [(), ("x.script", "--nope")])
def test_without_json_a_person_gets_the_usage(capsys, argv):
    code, out, err = refused(capsys, *argv)
    assert code == 2 and out == "" and err.startswith("usage: tabletop")
