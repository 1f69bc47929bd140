"""A game as other tools read it: game, players and scores, the pending prompt, the result and
the game's details, as one JSON-ready dict (`tabletop replay --json`, `tabletop status --json`,
the fleet's messages)."""
from __future__ import annotations

from engine.core.spec import GameSpec
from engine.core.text import DEFAULT_LANGUAGE


def summary(spec: GameSpec, state, language: str = DEFAULT_LANGUAGE, seen=None) -> dict:
    """Game, tally, prompt and result of a state, in the §6.2 form (also `tabletop status`).
    `seen`: the state's (prompt, tally, result) where the caller has them already.

    Only the prompt's text follows `language`: ids, keys and names are the same in all."""
    prompt, tally, result = seen or (spec.prompt(state), spec.tally(state), spec.result(state))
    return {
        "game": spec.id,
        "over": result is not None,
        "winners": list(result.winners) if result else [],
        "players": [{"name": p.name, "score": p.score, "out": p.out} for p in tally.players],
        "prompt": {"id": prompt.id, "text": prompt.text.text(language), "options": list(prompt.keys())},
        "rejected": [],
        "details": tally.public(),
    }
