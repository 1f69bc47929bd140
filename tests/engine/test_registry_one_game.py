"""get() of one game before any other lookup takes in that game's entry alone (a command about
one game starts without the others); every later lookup still finds every game, their texts
and the same refusals. Each check runs in a fresh interpreter: the registry is the process's."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

CHECK = """
import json, sys
from engine.core import registry
from engine.core.catalog import catalog
palourde = registry.get("palourde")
alone = sorted({m.split(".")[2] for m in sys.modules if m.startswith("engine.games.")})
found = "game.palourde" in catalog("en")
alone_after_text = sorted({m.split(".")[2] for m in sys.modules if m.startswith("engine.games.")})
other = "game.tribord" in catalog("fr")            # another game's text: all are taken in
every = [spec.id for spec in registry.all_specs()]
print(json.dumps({"alone": alone, "found": found, "after_text": alone_after_text, "other": other,
                  "every": every, "problems": list(registry.problems()),
                  "same": registry.get("palourde") is palourde}))
"""

FULL = """
import json
from engine.core import registry
print(json.dumps({"every": [s.id for s in registry.all_specs()], "problems": list(registry.problems())}))
"""


def run(code: str) -> dict:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def one_first() -> dict:
    return run(CHECK)


def test_one_game_looked_up_first_is_taken_in_alone(one_first):
    assert one_first["alone"] == ["palourde"] and one_first["after_text"] == ["palourde"]
    assert one_first["found"] and one_first["same"]


def test_then_every_game_and_text_is_there_as_after_a_whole_discovery(one_first):
    whole = run(FULL)
    assert one_first["other"] is True
    assert one_first["every"] == whole["every"] and len(whole["every"]) >= 5
    assert one_first["problems"] == whole["problems"]


def test_an_unknown_game_is_refused_naming_every_game():
    code = ("from engine.core import registry\ntry:\n    registry.get('chess')\n"
            "except KeyError as exc:\n    print(exc.args[0])")
    said = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          timeout=60).stdout
    assert "unknown game 'chess'" in said and "palourde" in said and "tribord" in said
