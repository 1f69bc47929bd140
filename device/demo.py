"""Until the device is wired up, `tabletop run` plays a scripted game through the replay machinery."""
from __future__ import annotations

from importlib import resources

from .replay import replay_text
from .replay_text import print_replay


def run_demo() -> int:
    print("No table hardware yet: replaying a scripted Palourde game.")
    text = resources.files(__package__).joinpath("scripts/palourde_demo.txt").read_text(encoding="utf-8")
    print_replay(replay_text(text))
    return 0
