"""The companion: one object that takes inputs and tells what the screen shows.

Inputs come from one queue (tags, buttons, timers, part faults). A tag is
mapped to a card through the deck registry, and the input goes one way: the
plugins, then the current mode (game select, setup, play, menus, result) decide
what is to be done and return it as actions (device/actions.py); only the app
carries them out. A game input is proposed to the engine, journaled if accepted,
and only then committed and shown. Nothing here touches hardware: the loop draws
the screen and owns the parts.
"""
from __future__ import annotations

import logging
from dataclasses import replace

import device.texts  # noqa: F401  (registers the texts shown below)
from device.clock import Clock
from device.storage.settings import remember_language
from device.storage.store import GameStore
from device.texts.language import next_language
from device.ui.app_view import AppView
from device.ui.game_select import GameSelect
from device.ui.overlay import Block, Overlay, Recall, repeats
from device.ui.playing import GameOver, Playing, header
from device.ui.screen import Screen, beside
from device.ui.setup_choices import roster_of
from device.ui.wizard import Seats
from engine import Accepted, Confirm, Info, Prompt, Rejected, Session, Tally
from engine.core.session import Op
from engine.core.text import Msg, catalog, msg, render

from .actions import (
    MESSAGE_SECONDS,
    Action,
    Actions,
    Dismiss,
    EndGame,
    Fault,
    Home,
    ModeProtocol,
    NextLanguage,
    Offer,
    Play,
    Redo,
    SetBrightness,
    SetLanguage,
    Show,
    StartGame,
    Switch,
    Undo,
)
from .inputs import (
    ButtonHeld,
    ButtonPressed,
    Input,
    PartStatus,
    Placed,
    ReaderBack,
    ReaderCrowded,
    ReaderOffline,
    Tapped,
    Tick,
)
from .plugin import Answered, Plugin, Reading

log = logging.getLogger(__name__)

DISK_RETRY_SECONDS = 5.0       # while the disk refuses, how often it is tried again
E_NOT_SAVED = "E_NOT_SAVED"    # the device's own refusal: the engine took it, the disk did not


class Companion:
    """The appliance's brain. `clock`: the table's (device/clock.py; virtual in the simulator):
    every timer counts on its monotonic face, the wall clock only labels."""

    def __init__(self, *, registry, store: GameStore, clock: Clock, language: str = "en") -> None:
        self.registry = registry
        self.store = store
        self.clock = clock
        self.language = language
        self.session: Session | None = None
        self.deck: str | None = None
        self.overlay: Overlay | None = None
        self.recall = Recall()                 # the turn's instructions, for UP to show again
        self.faults: dict[str, Msg] = {}
        self.notice: Msg | None = None         # header note until the next tap or press
        self.mode: ModeProtocol = GameSelect()
        self.seen: AppView = self              # the app as its modes read it, and no more
        self._plugins: list[Plugin] = []
        self.brightness: int | None = None     # contrast chosen by staff over the config's
        self.last_input = clock.monotonic()              # last tap or press: idle timers count from it
        self.input_no: int | None = None       # the simulator's input line, journaled with ops
        self._ended_by: int | None = None      # the input a game just ended with, till it is recorded
        self._ending = False
        self._reading: Reading | None = None  # the running game's prompts and tallies, kept
        self._disk_retry: float | None = None   # when the refusing disk is tried again

    # ---- plugins ----------------------------------------------------------------

    @property
    def plugins(self) -> tuple[Plugin, ...]:
        """The table's plugins in their declared order (equals in the order attached)."""
        return tuple(self._plugins)

    def attach(self, *plugins: Plugin) -> None:
        self._plugins = sorted([*self._plugins, *plugins], key=lambda plugin: plugin.order)

    def detach(self, plugin: Plugin) -> None:
        self._plugins.remove(plugin)

    @property
    def staff_only(self) -> frozenset[str]:
        """The global menu's items the plugins keep for staff cards (the kiosk's admin menu)."""
        return frozenset().union(*(plugin.staff_only for plugin in self._plugins))

    @property
    def display_level(self) -> str:
        """normal | dim | off, as the first plugin that cares asks (screen care): the loop sets
        the panels' contrast from it."""
        levels = (plugin.display_level(self) for plugin in self._plugins)
        return next((level for level in levels if level is not None), "normal")

    # ---- text -----------------------------------------------------------------

    def t(self, message: Msg | str, **args) -> str:
        """A message's text in the table's language."""
        if isinstance(message, str):
            message = msg(message, **args)
        return render(message, self.language)

    def game(self) -> Session:
        """The running game: asked only where one runs (its modes, its plugins' outcomes)."""
        if self.session is None:
            raise RuntimeError("no game runs at this table")
        return self.session

    def reading(self) -> Reading:
        """The running game's prompts and tallies, each worked out once a state: the app, the
        plugins and the frames read them here."""
        spec = self.game().spec
        if self._reading is None or self._reading.spec is not spec:
            self._reading = Reading(spec)
        return self._reading

    def view(self) -> tuple[Prompt, Tally]:
        """The running game's prompt and tally now: a frame reads them for its header, body
        and scores, and every plugin may read them again."""
        reading, state = self.reading(), self.game().state
        return reading.prompt(state), reading.tally(state)

    # ---- inputs ---------------------------------------------------------------

    def handle(self, event: Input) -> None:
        if isinstance(event, Placed):          # looked up once: plugins and modes get the card
            event = Tapped(event.uid, self.registry.lookup(event.uid))
        if isinstance(event, (Tapped, ButtonPressed, ButtonHeld)):
            self.last_input = self.clock.monotonic()
            if "disk" in self.faults:          # every input tries the disk again
                self.check_disk()
        for plugin in self._plugins:
            taken = plugin.on_input(self, event)
            if taken is not None:              # (the first press after sleep only wakes)
                self.apply(taken)
                break
        else:
            self._take(event)
        for plugin in self._plugins:
            plugin.after_input(self)

    def _take(self, event: Input) -> None:
        if isinstance(event, Tick):
            self.tick()
        elif isinstance(event, (ButtonPressed, ButtonHeld)):
            self.notice = None
            if self.overlay is not None and isinstance(event, ButtonHeld):
                self.overlay = None            # a hold opens its menu or its undo over anything
            elif self.overlay is not None and self.overlay.names(event.name):
                self.overlay = None            # the message asked for this button: it does it
            elif self.overlay is not None and self._headline_over(event):
                self.overlay = None            # the prompt under it asked for this button
            elif self.overlay is not None:     # a message that asks nothing: the page turns
                self.overlay = self.overlay.turn(self.clock.monotonic())
                return
            self.apply(self.mode.button(self.seen, event.name.lower(), isinstance(event, ButtonHeld)))
        elif isinstance(event, Tapped):
            self.notice = None
            self.apply(self.mode.tap(self.seen, event))
        elif isinstance(event, ReaderCrowded):  # cards the reader cannot tell apart
            self.notice = msg("ui.one_card")
        elif isinstance(event, ReaderOffline):
            self.part_status(PartStatus("reader", False, event.reason))
        elif isinstance(event, ReaderBack):
            self.part_status(PartStatus("reader", True))
        elif isinstance(event, PartStatus):
            self.part_status(event)

    def _headline_over(self, event: Input) -> bool:
        """Is a message that only informs shown over a mode whose own screen asks for this
        press ("SELECT when done")? A headline never hides such a prompt: the press is the
        prompt's. An instruction is read first: its pages take the presses. UP and DOWN only
        clear it: a menu's highlight or a number under it does not move unseen. Nor does a
        game's result go unseen, nor a number or a menu move: only a prompt whose one answer
        is the press (Playing.answered_by) takes it."""
        assert self.overlay is not None
        return (isinstance(event, ButtonPressed) and not self.overlay.instructs()
                and self.mode.answered_by(self, event.name.lower()))

    def tick(self) -> None:
        if self._disk_retry is not None and self.clock.monotonic() >= self._disk_retry:
            self.check_disk()                  # the disk may take writes again
        while self.overlay is not None and self.overlay.until is not None \
                and self.clock.monotonic() >= self.overlay.until:
            self.overlay = self.overlay.turn(self.overlay.until)
        for plugin in self._plugins:
            self.apply(plugin.tick(self))

    def next_deadline(self) -> float | None:
        deadlines = [p.deadline(self) for p in self._plugins]
        deadlines.append(self.overlay.until if self.overlay else None)
        deadlines.append(self.mode.deadline(self.seen))       # a long text's next page
        deadlines.append(self._disk_retry)
        due = [d for d in deadlines if d is not None]
        return min(due) if due else None

    def part_status(self, event: PartStatus) -> None:
        key = {"reader": "ui.reader_offline", "display": "ui.display_offline",
               "disk": "ui.disk_error"}[event.part]
        if event.ok:
            self.faults.pop(event.part, None)
        else:
            self.faults[event.part] = msg(key)

    # ---- what modes and plugins ask for -------------------------------------------

    def apply(self, actions: Actions) -> None:
        """Carry out, in order, what a mode or a plugin returned."""
        for action in actions:
            self._do(action)

    def _do(self, action: Action) -> None:
        match action:
            case Show(messages, seconds):
                self.show(*messages, seconds=seconds)
            case Switch(mode):
                self.set_mode(mode)
            case Home():
                self.home()
            case Play(event, then) if self.session is not None:   # (not if its start failed)
                self.play(event, then)
            case Undo():
                self.undo()
            case Redo():
                self._operate(Op("redo"))
            case StartGame(session, deck):
                self.start_game(session, deck)
            case EndGame(abandoned):
                self.end_game(abandoned)
            case NextLanguage():               # at once, and kept for the next start
                self.language = next_language(self.language)
                remember_language(self.store.dir, self.language)
            case SetLanguage(language):
                self.language = language
                remember_language(self.store.dir, self.language)
            case SetBrightness(level):
                self.brightness = level
            case Dismiss():
                self.overlay = None
            case Fault(part, message):
                if message is None:
                    self.faults.pop(part, None)
                else:
                    self.faults[part] = message
            case Offer() if isinstance(self.mode, Seats):
                self.mode.setup.roster = roster_of(self.seen)
                self.mode.offer()

    # ---- what the screen shows --------------------------------------------------

    def screen(self) -> Screen:
        screen = self.mode.screen(self.seen)
        if self.overlay is not None:
            left, right = self.overlay.header or (screen.header, screen.header_right)
            screen = Screen(left, right, tuple(self.overlay.lines), below=self.overlay.more)
        note = next(iter(self.faults.values())) if self.faults else self.notice
        if note is not None:
            short = msg(f"{note.key}.short") if f"{note.key}.short" in catalog(self.language) \
                else note
            screen = replace(screen, header_right=beside(screen.header, self.t(note),
                                                         self.t(short)))
        for plugin in self._plugins:
            screen = plugin.screen(self, screen)
        return screen

    def show(self, *messages: Msg, seconds: float = MESSAGE_SECONDS,
             header: tuple[str, str] | None = None) -> None:
        """Show messages for a while (or until a button), over the current mode; under `header`
        (name, badge) where the mode's own would not agree with them."""
        instructions = self.session.spec.instructions if self.session else frozenset()
        blocks = [Block(self.t(message), message.key in instructions)
                  for message in messages]
        self.overlay = Overlay.of(blocks, self.clock.monotonic(), seconds, header) or self.overlay

    def set_mode(self, mode: ModeProtocol) -> None:
        self.mode = mode

    def home(self) -> None:
        """Back to the game select, as the table rests between games."""
        self.set_mode(GameSelect())

    # ---- the game ---------------------------------------------------------------

    def start_game(self, session: Session, deck: str | None) -> None:
        error = self.store.start(session, deck, self.input_no)
        self._disk(error)
        if self.store.journal is None:         # the last game could not be put away
            self.show(msg("ui.not_saved"))
            return
        self.session, self.deck = session, deck
        self.recall = Recall()
        self.set_mode(Playing())

    def resume_game(self) -> None:
        """Pick up the unfinished game in the state dir, if any; report what could not be.

        The table is left as it was right after the last saved input: same mode, the same
        message over it, so whatever comes next does what it would have done. Only the
        header says the game was resumed (or lost an unsaved last entry), until the next input.
        """
        self.check_disk()                      # a read-only state dir shows its fault from the start
        resumed, problem = self.store.resume()
        if problem:
            self.show(msg("ui.kept_aside", why=problem), seconds=6)
            return
        if resumed is None:
            return
        self.session, self.deck = resumed.session, resumed.deck
        spec, state = resumed.session.spec, resumed.session.state
        self.recall = Recall()
        self.recall.note(self.reading().tally(state).current, resumed.effects, spec.instructions)
        over = spec.result(state) is not None
        self.set_mode(GameOver() if over else Playing())
        self.show(*resumed.effects)
        self.notice = msg("ui.torn") if resumed.torn else msg("ui.resumed")
        if over and self.store.journal is not None:     # it ended, and stopped before its end
            sources = [r["in"] for r in resumed.records if "in" in r]
            self._record_end(sources[-1] if sources else None)

    def play(self, event, then: ModeProtocol | None = None) -> None:
        """Send an event to the engine; journal it if accepted; show what it says. `then`: the
        mode once it is taken and the game goes on (a fresh Playing unless the mode said)."""
        self._operate(Op("event", event), then)

    def undo(self) -> None:
        self._operate(Op("undo"))

    def _operate(self, op: Op, then: ModeProtocol | None = None) -> None:
        """Ask the engine, save an accepted answer, and only then take it: an operation the
        disk refuses is refused on screen, the game stays as it was, and the player repeats it."""
        session = self.game()
        if self.store.journal is None:         # recorded at its end: the result stands
            self.show(msg("core.game_over"))
            return
        before = session.state
        answer = session.propose(op)
        if isinstance(answer, Accepted):
            error = self.store.record(op.kind, op.event, answer.state, self.input_no)
            self._disk(error)
            if error:
                answer = Rejected(E_NOT_SAVED, msg("ui.not_saved"))
            else:
                session.commit(op, answer)
        self._after(Answered(op.kind, op.event, answer, before, session.state), then)

    def _after(self, outcome: Answered, then: ModeProtocol | None) -> None:
        answer = outcome.answer
        for plugin in self._plugins:
            plugin.on_outcome(self, outcome)
        if isinstance(answer, (Rejected, Info)):
            self.show(answer.msg)
            return
        spec, reading = self.game().spec, self.reading()
        if outcome.op == "undo":
            self.recall = Recall()             # what it asked is taken back with it
        else:
            asked = reading.prompt(outcome.before)    # a SELECT-only step, not the deal's
            deal = spec.look.deal.key if spec.look.deal else None
            done = asked.text if isinstance(outcome.event, Confirm) and not asked.options \
                and asked.text.key != deal else None
            self.recall.note(reading.tally(outcome.before).current, answer.effects,
                             spec.instructions, done)
        over = spec.result(outcome.after) is not None
        self.set_mode(GameOver() if over else (then or Playing()))
        self.overlay = None                    # an older message never hangs over a new event
        # The header agrees with the messages: the game as it is now. A game's last messages
        # (a round's closing steps) keep its own header; GAME OVER comes once they are read.
        prompt = "" if over else self.t(self.view()[0].text)
        self.show(*(m for m in answer.effects if not repeats(self.t(m), prompt)),
                  header=header(self) if over else None)
        if over:
            self._ending, self._ended_by = True, self.input_no

    def settle(self) -> bool:
        """What is left of an input once its frame is out (the loop asks after each): a game
        it ended is recorded, so the result shows at once and the bookkeeping follows. Its
        last move is on disk already: a stop before this records it at the next start. True
        if there was something."""
        if not self._ending:
            return False
        self._ending = False
        session = self.session
        if session is not None and self.store.journal is not None \
                and session.spec.result(session.state) is not None:
            self._record_end(self._ended_by)
            for plugin in self._plugins:
                plugin.after_input(self)           # the café hears of it with the end on disk
        return True

    def _record_end(self, source: int | None) -> None:
        """A game is recorded the moment it ends: its end journaled, the game archived and in
        the history (and the café's, through the plugins), before anyone presses anything; the
        result stays on screen and SELECT only starts the next thing. A disk that refuses the
        end leaves the game open, and SELECT tries again (end_game)."""
        self.store.finish(False, source)
        if self.store.journal is not None:
            self._disk(self.store.error or "not saved")

    def check_disk(self) -> None:
        """Try the disk now (a header still waiting, else a probe write)."""
        self._disk(self.store.retry())

    def _disk(self, error: str | None) -> None:
        """Show a storage fault while the disk refuses, and try it again every few seconds."""
        if error:
            if "disk" not in self.faults:
                log.error("storage failed: %s", error)
            self.faults["disk"] = msg("ui.disk_error")
            self._disk_retry = self.clock.monotonic() + DISK_RETRY_SECONDS
        else:
            if "disk" in self.faults:
                log.warning("storage works again")
            self.faults.pop("disk", None)
            self._disk_retry = None

    def end_game(self, abandoned: bool) -> None:
        """End and archive the game (a finished one is already: its result is left); if the
        disk refuses its end, the game stays on."""
        if self.session is not None and self.store.journal is not None:
            self.store.finish(abandoned, self.input_no)
            if self.store.journal is not None:      # the end line was refused
                self._disk(self.store.error or "not saved")
                self.show(msg("ui.not_saved"))
                return
        self.store.leave_result()
        self.session, self.deck = None, None
        self.home()
