"""What a step returns, and what a game shows: prompts, tallies, results."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .record import record
from .text import Msg, render

# The rejection codes every game shares.
E_UNKNOWN_CARD = "E_UNKNOWN_CARD"
E_WRONG_GAME = "E_WRONG_GAME"
E_WRONG_DECK = "E_WRONG_DECK"
E_NOT_EXPECTED = "E_NOT_EXPECTED"
E_SAME_CARD = "E_SAME_CARD"
E_OUT_OF_PLAY = "E_OUT_OF_PLAY"
E_IN_PLAY = "E_IN_PLAY"
E_ILLEGAL = "E_ILLEGAL"
E_NOT_ELIGIBLE = "E_NOT_ELIGIBLE"
E_GAME_OVER = "E_GAME_OVER"

CODES = (E_UNKNOWN_CARD, E_WRONG_GAME, E_WRONG_DECK, E_NOT_EXPECTED, E_SAME_CARD,
         E_OUT_OF_PLAY, E_IN_PLAY, E_ILLEGAL, E_NOT_ELIGIBLE, E_GAME_OVER)


@record
class Accepted:
    """The event was taken: the new state and the messages it produced."""

    state: Any
    effects: tuple[Msg, ...] = ()


@record
class Rejected:
    """The event was refused; the state is unchanged. `msg` says why, screen-sized."""

    code: str
    msg: Msg

    @property
    def message(self) -> str:
        return render(self.msg)


@record
class Info:
    """A tap that only asks to be shown something (a Basket's clam count).

    Neither accepted nor rejected: the state does not change and nothing is journaled.
    """

    msg: Msg


Outcome = Accepted | Rejected | Info


@record
class Option:
    """One menu entry: the key that `choose` takes, and its label."""

    key: str
    label: Msg


@record
class Prompt:
    """What the table is asked to do now."""

    id: str
    text: Msg
    options: tuple[Option, ...] = ()
    done: bool = False            # beside the options, a Confirm ("done") is taken too
    # Done is listed first and highlighted: taps are this step's usual answer, and the
    # options only its exceptions (Flouk's "tap each moved card, SELECT=done").
    done_first: bool = False
    # Left untouched this many seconds, the prompt closes as a Confirm would (a house rule's
    # countdown, such as Tamalou's last snaps); None: it waits for the table.
    closes_after_s: float | None = None

    def keys(self) -> tuple[str, ...]:
        return tuple(o.key for o in self.options)


@record
class PlayerLine:
    """One seat in the tally: `score` is None where not known yet."""

    name: str
    score: int | None
    out: bool = False


@record
class Tally:
    """The public picture of a game: one line per seat, the fields the device reads (typed, the
    same in every game), and the game's own details, which only the game itself and the JSON
    form (`details` of `replay --json` and `status --json`) read."""

    players: tuple[PlayerLine, ...]
    details: tuple[tuple[str, Any], ...] = ()
    current: str | None = None          # whom the prompt addresses; None before anyone
    round: int | None = None            # the round in play; None in a game without rounds
    # card details the table was asked for and answered (Flouk's white numbers): the device
    # keeps them for the café's next games; None where a game learns nothing
    learned: Mapping[str, Mapping[str, int | str]] | None = None

    def detail(self, key: str, default: Any = None) -> Any:
        """One of the game's own details, for the game's own badge."""
        return dict(self.details).get(key, default)

    def public(self) -> dict[str, Any]:
        """The `details` of the JSON form: the game's own, then the typed fields it fills."""
        filled = {key: value for key, value in (("round", self.round), ("learned", self.learned))
                  if value is not None}
        return {**dict(self.details), "current": self.current, **filled}


@record
class Result:
    """A finished game: winners (empty for "no winner") and a headline. `places`: every seat,
    best first, where the game ranks by more than the scores (L'Auberge: by how long each
    stayed in); empty where the scores rank them."""

    winners: tuple[str, ...]
    headline: Msg
    places: tuple[str, ...] = ()
