"""Helpers for scenario tests: run script text, read the §6.2 report."""
from __future__ import annotations

import textwrap

from device.cli.replay import Replay, replay_text, report


def run(text: str, data=None) -> Replay:
    return replay_text(textwrap.dedent(text), data)


def outcome(text: str, data=None) -> dict:
    """The §6.2 JSON object of a script."""
    return report(run(text, data))


def scores(result: dict) -> dict:
    return {p["name"]: p["score"] for p in result["players"]}


def codes(result: dict) -> list[tuple[int, str]]:
    return [(r["line"], r["code"]) for r in result["rejected"]]


def rejected_codes(result: dict) -> list[str]:
    return [r["code"] for r in result["rejected"]]
