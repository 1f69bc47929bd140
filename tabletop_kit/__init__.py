"""Everything a game for the Tabletop Companion is written with, in one place.

A game imports from here and from nothing else of the companion:

    from tabletop_kit import GameSpec, PhaseTable, Prompt, Rejected, Tap, msg, on_card, ...

The names are the engine's own (this module re-exports them, it wraps nothing), so a game of
this repository and a game installed from elsewhere are written the same way. docs/adding-a-game.md
explains each one with a whole game built from them. `GameSpec` is generic over the game's
state: `GameSpec(state_type=State, initial=initial, prompt=prompt, ...)` is a
`GameSpec[State]`, and mypy checks every function given to it against that state.

The groups, in the order a rules module uses them:

- the inputs: `Tap` (a card read), `Choose` (a menu answer), `Confirm` (SELECT), `Cancel`
  (BACK), and `Event`, any of the four;
- the house rules: `OptionSpec`, `Options`, and `option` / `option_of` to read one;
- the state: `Table`, the base class of a state (seq, phase, options, seats, current),
  `given`, for a field the phase at hand always has set, `replace`, a state with some
  fields changed (`dataclasses.replace`, at a third of its cost), and `record` (with `field`),
  the `@dataclass(frozen=True, slots=True)` the engine's own records are made with, at a
  fraction of its start-up (a game may use either);
- seats, a player's name each: `PerSeat`, `per_seat`, `of`, `with_value`, `add`, `next_seat`,
  `clockwise_from`;
- the phases: `PhaseTable` and the adapters `on_card`, `on_option`, `on_button`; `Played`, what
  a handler returns;
- what the table sees: `Prompt` and its menu `Option`s, `Tally` and its `PlayerLine`s,
  `Result`, and the answers `Rejected` (with one of the codes `E_...`) and `Info`;
- the result rule most games share: `rank` (`lowest=True` where the fewest points win),
  `Ranking`, the tie rules `SHARED` and `NO_WINNER` (`TIE_RULES`);
- words: `msg` and `Msg`, `plural`, `Template`, `typeset` (French typography for a catalog);
- the registration: `GameSpec`, `GameConfig`, `Look`, `current_badge`, `card_ids`, `kind_of`.
"""
from __future__ import annotations

# A game's texts join the catalogs when the registry takes the game in; importing the kit
# brings the registry, so a message a game says before any lookup still finds its text.
from engine.core import registry as _registry  # noqa: F401
from engine.core.events import Cancel, Choose, Confirm, Event, Tap
from engine.core.options import ConfigError, Options, OptionSpec, option, option_of
from engine.core.outcomes import (
    CODES,
    E_GAME_OVER,
    E_ILLEGAL,
    E_IN_PLAY,
    E_NOT_ELIGIBLE,
    E_NOT_EXPECTED,
    E_OUT_OF_PLAY,
    E_SAME_CARD,
    E_UNKNOWN_CARD,
    E_WRONG_DECK,
    E_WRONG_GAME,
    Info,
    Option,
    PlayerLine,
    Prompt,
    Rejected,
    Result,
    Tally,
)
from engine.core.phases import Handler, PhaseTable, on_button, on_card, on_option
from engine.core.record import field, record
from engine.core.records import replace
from engine.core.results import NO_WINNER, SHARED, TIE_RULES, Ranking, rank
from engine.core.seats import PerSeat, add, clockwise_from, next_seat, of, per_seat, with_value
from engine.core.spec import GameConfig, GameSpec, Look, Played, card_ids, current_badge, kind_of
from engine.core.table import Table, given
from engine.core.text import Msg, Template, msg, plural
from engine.text.fr_typeset import typeset

__all__ = [
    "CODES", "E_GAME_OVER", "E_ILLEGAL", "E_IN_PLAY", "E_NOT_ELIGIBLE", "E_NOT_EXPECTED",
    "E_OUT_OF_PLAY", "E_SAME_CARD", "E_UNKNOWN_CARD", "E_WRONG_DECK", "E_WRONG_GAME",
    "NO_WINNER", "SHARED", "TIE_RULES",
    "Cancel", "Choose", "ConfigError", "Confirm", "Event", "GameConfig", "GameSpec", "Handler",
    "Info", "Look", "Msg", "Option", "OptionSpec", "Options", "PerSeat", "PhaseTable", "Played",
    "PlayerLine", "Prompt", "Ranking", "Rejected", "Result", "Table", "Tally", "Tap", "Template",
    "add", "card_ids", "clockwise_from", "current_badge", "field", "given", "kind_of", "msg",
    "next_seat", "of", "on_button", "on_card", "on_option", "option", "option_of", "per_seat",
    "plural", "rank", "record", "replace", "typeset", "with_value",
]
