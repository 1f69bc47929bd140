"""Each check raises Nonconformity naming what is wrong, or returns quietly."""
from __future__ import annotations

import json
import random
from collections.abc import Iterator

from engine import Accepted, Cancel, Choose, Confirm, GameSpec, Msg, Rejected, Tap, step
from engine.core.codec import dumps, from_plain
from engine.core.events import event_from_json, event_from_string, event_to_json
from engine.core.outcomes import CODES, Info
from engine.core.registry import LANGUAGES, all_specs, decks_of
from engine.core.text import catalog, msg, render

from .playouts import Stuck, legal_now, random_playout

SAMPLE_EVERY = 7        # the full check of illegal events on every 7th state: Flouk is long
# A playout driven to the edges stops here where it has not ended: the edges come within a
# few rounds, and the same answer every time may go round for ever (everyone blocking in
# A tribord!), which is a strategy, not a fault.
EDGE_EVENTS = 400


class Nonconformity(AssertionError):
    """What a game does that the table cannot live with."""


def expect(condition: object, problem: str) -> None:
    if not condition:
        raise Nonconformity(problem)


# ---- the game's declaration -------------------------------------------------------------

def check_metadata(spec: GameSpec) -> None:
    """Players, cards and house rules as the device reads them."""
    expect(1 <= spec.min_players <= spec.max_players,
           f"players {spec.min_players}-{spec.max_players} is no range")
    cards = spec.card_ids()
    expect(len(set(cards)) == len(cards), "a card id is listed twice")
    for option in spec.options:
        expect(option.parse(option.default) == option.default,
               f"option {option.key}: its default {option.default!r} does not read back")


# ---- a whole game -----------------------------------------------------------------------

def check_playout(spec: GameSpec, players: int, seed: int, policy: str = "random") -> None:
    """A seeded game to its end, its events picked by `policy` (playouts.POLICIES): each
    state's illegal events refused without a change, Done offered exactly when taken, states
    and events round-trip through JSON; at the end the result names seated winners, nothing
    more is taken, and undo and redo walk every state. A game's own exception goes up as it
    is, for the caller to say where in the game it was raised. A playout toward the edges
    (any policy but random) may stop after EDGE_EVENTS without an end."""
    seen = []

    def on_step(session, rng: random.Random) -> None:
        state = session.state
        seen.append(state)
        check_done(spec, state)
        if len(seen) % SAMPLE_EVERY == 1:
            check_illegal(spec, state, rng)
            check_round_trips(spec, state)

    limit = None if policy == "random" else min(EDGE_EVENTS, spec.max_events)
    try:
        session = random_playout(spec, players, seed, limit, on_step=on_step, policy=policy)
    except Stuck as exc:
        raise Nonconformity(str(exc)) from None
    state = session.state
    result = spec.result(state)
    if result is None and limit is not None:
        check_undo_redo(session, seen + [state])
        return
    if result is None:
        raise Nonconformity(f"no end within {spec.max_events} events (max_events)")
    expect(state.seq == len(session.events) <= spec.max_events, "seq does not count the events")
    expect(not spec.invariants(state), f"invariants broken at the end: {spec.invariants(state)}")
    expect(not legal_now(spec, state), "events are still taken after the end")
    seated = {line.name for line in spec.tally(state).players}
    expect(set(result.winners) <= seated, f"winners {result.winners} are not all seated")
    over = step(spec, state, Confirm())
    expect(isinstance(over, Rejected) and over.code == "E_GAME_OVER", "SELECT after the end is not E_GAME_OVER")
    check_undo_redo(session, seen + [state])


def foreign(deck: str) -> str | None:
    """A card of another registered deck that `deck` does not hold, if there is one."""
    return next((card for spec in all_specs() if spec.deck != deck for card in spec.card_ids()
                 if deck not in decks_of(card)), None)


def illegal_candidates(spec: GameSpec, state, rng: random.Random) -> list:
    """Events that must be refused: garbage, unknown and foreign cards, illegal picks."""
    picks = [Tap("no_such_card"), Choose("no-such-option")]
    stranger = foreign(spec.deck)
    if stranger:
        picks.append(Tap(stranger))
    legal = set(legal_now(spec, state))
    cards = rng.sample(spec.card_ids(), min(5, len(spec.card_ids())))
    return picks + [e for e in [Tap(c) for c in cards] + [Confirm(), Cancel()] if e not in legal]


def check_illegal(spec: GameSpec, state, rng: random.Random) -> None:
    before = dumps(state)
    for event in illegal_candidates(spec, state, rng):
        outcome = step(spec, state, event)
        expect(not isinstance(outcome, Accepted), f"{event} was accepted but is not legal")
        if isinstance(outcome, Rejected):
            expect(outcome.code in CODES, f"{event} refused with unknown code {outcome.code}")
            expect(outcome.message, f"{event} refused without a word")
        else:
            expect(isinstance(outcome, Info), f"{event} answered {outcome!r}")
        expect(dumps(state) == before, f"refusing {event} changed the state")


def check_done(spec: GameSpec, state) -> None:
    """A prompt with options says whether Done is taken beside them: the device shows a Done
    item from the prompt alone, never from a trial step."""
    prompt = spec.prompt(state)
    if prompt.options:
        taken = Confirm() in legal_now(spec, state)      # the events step() takes, as tried
        expect(prompt.done == taken, f"prompt {prompt.id}: done={prompt.done}, SELECT taken={taken}")


def check_round_trips(spec: GameSpec, state) -> None:
    expect(from_plain(spec.state_type, json.loads(dumps(state))) == state,
           f"the state in phase {state.phase} does not come back from JSON")
    for event in legal_now(spec, state):
        expect(event_from_json(event_to_json(event)) == event, f"{event} does not come back from JSON")
        expect(event_from_string(str(event)) == event, f"{event} does not come back from its text")


def check_undo_redo(session, states: list) -> None:
    """Undo to the very start, then redo to the end, passing through every recorded state."""
    end = dumps(session.state)
    for expected in reversed(states[:-1]):
        expect(isinstance(session.undo(), Accepted) and session.state == expected,
               f"undo does not come back to the state of seq {expected.seq}")
    expect(isinstance(session.undo(), Rejected), "undo goes back past the start")
    while session.can_redo():
        expect(isinstance(session.redo(), Accepted), "redo refused before the end")
    expect(dumps(session.state) == end, "redo does not come back to the end")


# ---- every text the table is shown --------------------------------------------------------

def shown_texts(spec: GameSpec, players: int, seed: int) -> Iterator[tuple[str, str, Msg]]:
    """(where, kind, message) for every text a seeded random game shows the table: the game's
    name, its deal instruction, then at each state the prompt, its menu, the hint, what the
    first legal events answer and a refusal, the badge; at the end the result's headline.
    Kinds: name, deal, prompt, option, hint, effect, refusal, badge, headline."""
    yield "the menu", "menu", spec.name()
    header = spec.look.name or msg("core.name", name=spec.title.upper())
    yield "the header", "name", header
    if spec.look.deal is not None:
        rules = {o.key: o.default for o in spec.options}
        yield "the deal", "deal", msg(spec.look.deal.key, **rules)
    found: list[tuple[str, str, Msg]] = []

    def on_step(session, rng: random.Random) -> None:
        state = session.state
        where = f"phase {state.phase}"
        prompt = spec.prompt(state)
        found.extend([(where, "prompt", prompt.text), (where, "hint", spec.hint(state))])
        found.extend((where, "option", o.label) for o in prompt.options)
        for event in legal_now(spec, state)[:3]:
            outcome = step(spec, state, event)
            if isinstance(outcome, Accepted):
                found.extend((f"{where}, {event}", "effect", m) for m in outcome.effects)
        refusal = step(spec, state, Tap("no_such_card"))
        if isinstance(refusal, (Rejected, Info)):
            found.append((where, "refusal", refusal.msg))
        badge = spec.look.badge(spec.tally(state))
        if badge is not None:
            found.append((where, "badge", badge))

    try:
        session = random_playout(spec, players, seed, on_step=on_step)
    except Stuck as exc:
        raise Nonconformity(str(exc)) from None
    yield from found
    result = spec.result(session.state)
    if result:
        yield "the end", "headline", result.headline


def check_texts(spec: GameSpec, players: int, seed: int) -> None:
    """A seeded random game in which every prompt, option, hint, answer and result is rendered
    in each language from the game's own catalogs: a text nobody wrote fails here instead of
    showing its key on the table."""
    for where, _, message in shown_texts(spec, players, seed):
        speak([message], where)


def speak(messages: list[Msg], where: str) -> None:
    """Each message, and each message inside its arguments, has a text in every language,
    and that text takes the arguments it is given."""
    for message in messages:
        for language in LANGUAGES:
            for key in unwritten(message, language):
                raise Nonconformity(f"{where}: no {language} text for {key!r}")
            try:
                render(message, language)
            except (KeyError, IndexError, ValueError) as exc:
                raise Nonconformity(f"{where}: the {language} text of {message.key!r} does not "
                                    f"take its arguments ({type(exc).__name__}: {exc})") from None


def unwritten(message: Msg, language: str) -> Iterator[str]:
    """The keys of `message` and of the messages in its arguments that `language` lacks."""
    if message.key not in catalog(language):
        yield message.key
    for _, value in message.args:
        for inner in value if isinstance(value, (tuple, list)) else (value,):
            if isinstance(inner, Msg):
                yield from unwritten(inner, language)
