"""Run `tabletop run --sim` in-process with given input lines; read back the status."""
from __future__ import annotations

import io
import json
import sys
import textwrap

from device.cli import main


def sim(tmp_path, lines: str, *args: str, monkeypatch, capsys) -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(textwrap.dedent(lines)))
    code = main(["run", "--sim", "--state-dir", str(tmp_path), *args])
    capsys.readouterr()
    return code


def status(tmp_path, capsys) -> dict:
    main(["status", "--state-dir", str(tmp_path), "--json"])
    return json.loads(capsys.readouterr().out)
