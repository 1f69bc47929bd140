"""The order of a Chief or Action step."""
from __future__ import annotations

from .state import State, distance_from_lead, flag, info


def ordered(state: State, entries: list[tuple[str, str]]) -> list[tuple[tuple[str, str], ...]]:
    """Chiefs and Actions: by white number, then by seat from the round's lead (AMB-F7).

    A missing white number is equal to any other, so a step holding one goes by seat alone.
    With white_tie=prompt, equal cards form one group for the players to order.
    """
    if not entries:
        return []
    whites = [info(state, card).white for _, card in entries]
    unknown = any(w is None for w in whites)
    key = {e: (0 if unknown else w, distance_from_lead(state, e[0])) for e, w in zip(entries, whites)}
    entries = sorted(entries, key=lambda entry: key[entry])
    if flag(state, "white_tie") != "prompt":
        return [(e,) for e in entries]
    groups: list[tuple[tuple[str, str], ...]] = []
    for entry in entries:
        if groups and key[groups[-1][0]][0] == key[entry][0]:
            groups[-1] += (entry,)
        else:
            groups.append((entry,))
    return groups
