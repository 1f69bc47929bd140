"""The human-readable form of a replay: each line, what it did, then the tally."""
from __future__ import annotations

from .replay import Replay, summary


def print_replay(replay: Replay, out=print) -> None:
    for record in replay.records:
        mark = {"ok": " ", "info": "i", "rejected": "!"}[record.verdict]
        code = f" {record.code}" if record.code else ""
        texts = " / ".join(m.replace("\n", " ") for m in record.messages)
        out(f"{record.line:4} {mark} {record.text:<22}{code} {texts}".rstrip())
    out("")
    for line in tally_lines(replay.session.spec, replay.session.state):
        out(line)


def tally_lines(spec, state) -> list[str]:
    info = summary(spec, state)
    lines = [f"{spec.title}: " + ("game over" if info["over"] else f"next: {info['prompt']['text']}".replace("\n", " "))]
    for p in info["players"]:
        score = "-" if p["score"] is None else p["score"]
        lines.append(f"  {p['name']:<10} {score:>4}{'  (out)' if p['out'] else ''}")
    if info["over"]:
        lines.append("Winners: " + (", ".join(info["winners"]) or "none"))
    return lines
