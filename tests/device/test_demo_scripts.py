"""Each game's package carries a demo script that `tabletop replay` plays to the game's end,
every line taken: a newcomer's first look at a game, and a check that it still plays."""
from __future__ import annotations

import json
from importlib import resources

import pytest

import engine
from device.cli import main


@pytest.mark.parametrize("spec", engine.all_specs(), ids=lambda spec: spec.id)
def test_the_demo_plays_to_the_end(spec, capsys):
    demo = resources.files(spec.home).joinpath("demo.script")
    with resources.as_file(demo) as path:
        assert main(["replay", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == spec.id and result["over"] and result["rejected"] == []
