"""The README's replay example is the program's real output."""
from __future__ import annotations

import re
from pathlib import Path

from device.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_replay_example_matches(tmp_path, capsys):
    text = README.read_text(encoding="utf-8")
    block = re.search(r"\$ cat pairs.txt\n(.*?)\$ tabletop replay pairs.txt\n(.*?)```", text, re.S)
    script, shown = block.group(1), block.group(2)
    (tmp_path / "pairs.txt").write_text(script, encoding="utf-8")
    assert main(["replay", str(tmp_path / "pairs.txt")]) == 0
    assert capsys.readouterr().out.strip() == shown.strip()
