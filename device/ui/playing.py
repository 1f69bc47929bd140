"""Playing a game: the engine's prompt on screen, menus, scores, undo, the result.

SELECT answers the prompt (the highlighted option, or "done"); BACK cancels a
sub-prompt; DOWN on a prompt without a menu turns its pages (a prompt longer than the
screen), then goes to the scores; UP shows the turn's instructions again (what to do
with the cards and tokens), on a menu from its first item, and the global menu has them
too; hold SELECT opens the global menu; hold BACK asks to undo the last input. A prompt that
sets a number (+1/-1) takes UP and DOWN as its steps; a prompt whose answers are
the numbers of a range (a Flouk white number) is a number picker: tens, then units.
"""
from __future__ import annotations

from device.actions import (
    NOTHING,
    Actions,
    EndGame,
    NextLanguage,
    Play,
    Show,
    Switch,
    Undo,
)
from device.feedback import sound_switch, toggle_sound
from device.inputs import Tapped
from engine import Cancel, Choose, Confirm, Prompt, Tally, Tap
from engine.core.events import Event
from engine.core.spec import kind_of
from engine.core.text import Msg, msg

from .app_view import AppView
from .game_view import badge, header_name, ranking
from .house_rules import OptionLines
from .menu import Menu
from .modes import MenuMode, Mode, Page, above_menu, refusal
from .number import DONE, LEFT, NumberPicker
from .overlay import names
from .screen import BODY_LINES, COLUMNS, Screen, wrap
from .statistics import Statistics

CONFIRM_KEY = "__confirm__"
STEPPER = ("plus", "minus")       # option keys of a number set with UP/DOWN (a manual Decree)
PICKED_FROM = 10                  # answers 0..9 and more: a number picker, not a long menu


def number_range(keys: tuple[str, ...]) -> range | None:
    """The numbers a prompt's answers are, when they are a whole range of them."""
    if len(keys) < PICKED_FROM or not all(k.isdigit() and k == str(int(k)) for k in keys):
        return None
    numbers = range(int(keys[0]), int(keys[-1]) + 1)
    return numbers if tuple(map(str, numbers)) == keys else None


def header(app: AppView, tally: Tally | None = None) -> tuple[str, str]:
    """The game's name, and its badge from the tally (the running game's, unless given)."""
    spec = app.game().spec
    right = badge(spec, app.view()[1] if tally is None else tally)
    return app.t(header_name(spec)), app.t(right) if right else ""


def scores_lines(app: AppView, tally: Tally, room: int) -> list[str]:
    """`Ann 4  Bob 2  Cy 0` in at most `room` lines: the fewest lines, names whole where they
    fit ("Maximilian 5", not "Maximili 5"), else shortened to get there."""
    players = [p for p in tally.players if p.score is not None]
    if not players or room < 1:
        return []
    packed: dict[int, list[str]] = {}        # each width's lines, the same for any rows
    for rows in range(1, room + 1):
        for width in (COLUMNS, 8, 5, 3, 2):
            if width not in packed:
                packed[width] = pack([app.t("ui.score_line", name=p.name[:width], score=p.score)
                                      for p in players])
            lines = packed[width]
            if len(lines) <= rows:
                return lines
    return lines[:room - 1] + [more(lines[room - 1])]     # DOWN shows them all


def more(line: str) -> str:
    """A line of scores ending in ` …`, for the ones past it: whole entries give way to it,
    none is cut."""
    entries = line.split("  ")
    while len(entries) > 1 and len("  ".join(entries) + " …") > COLUMNS:
        entries.pop()
    return "  ".join(entries) + " …"


def pack(entries: list[str]) -> list[str]:
    """Entries two spaces apart, as many to a line as fit."""
    lines: list[str] = []
    for entry in entries:
        if lines and len(lines[-1]) + 2 + len(entry) <= COLUMNS:
            lines[-1] += "  " + entry
        else:
            lines.append(entry)
    return lines


def card_words(spec, card: str) -> Msg:
    """A card by its name in the game's words ("7 of clubs", "Mouta Chief"); a pirate card by
    its value."""
    named = spec.card_name(card) if spec.card_name else None
    if named is not None:
        return named
    value = kind_of(card)
    return msg("ui.card_value", n=value) if value.isdigit() else msg("core.name", name=card)


def undo_question(app: AppView, event: Event) -> Msg:
    """"Undo: Ann played 7 of clubs?": the last input in words, by the player its prompt asked;
    in the game's own words where it has them ("Undo: Bob snapped 7 of clubs?")."""
    session = app.game()
    spec, before = session.spec, session.state_before_last()
    words = spec.event_words(before, event) if spec.event_words else None
    if words is not None:
        return msg("ui.undo.event", event=words)
    reading = app.reading()
    name = reading.tally(before).current
    args: dict = {"name": name} if name else {}
    if isinstance(event, Tap):
        kind, args["card"] = "played", card_words(spec, event.card)
    elif isinstance(event, Choose):
        labels = {o.key: o.label for o in reading.prompt(before).options}
        kind, args["option"] = "chose", labels.get(event.option, msg("core.name", name=event.option))
    else:
        kind = "select" if isinstance(event, Confirm) else "back"
    return msg(f"ui.undo.{kind}_by" if name else f"ui.undo.{kind}", **args)


def instructions_again(app: AppView) -> Actions:
    """UP on the play screen: the turn's last instructions again, or that there are none."""
    return [Show.of(*app.recall.said) if app.recall.said else Show.of(msg("ui.no_instructions"))]


def ask_undo(app: AppView, back_to: Mode) -> Actions:
    """Hold BACK: "Undo <last input>?" — or say there is nothing to undo."""
    last = app.game().last_event()
    if last is None:
        return [Show.of(msg("core.nothing_to_undo"))]
    return [Switch(Confirmation(back_to, undo_question(app, last), [Undo()]))]


class Playing(Mode):
    def __init__(self, picked: frozenset[str] = frozenset(), prompt_id: str | None = None) -> None:
        """`picked`, `prompt_id`: what a many-step prompt took so far, carried into the state
        the last pick made."""
        self.menu: Menu | None = None
        self.picker: NumberPicker | None = None
        self.stepper = False
        self._for_seq = -1
        self._prompt_id = prompt_id
        self.picked = picked               # options taken so far in a many-step prompt

    def _refresh_menu(self, app: AppView, prompt: Prompt | None = None) -> None:
        """Rebuild the options menu when the state moved on; keep the highlight otherwise.
        `prompt`: the state's, where the caller has it already."""
        state = app.game().state
        if self._for_seq == state.seq and (self.menu or self.picker) is not None:
            return
        prompt = app.view()[0] if prompt is None else prompt
        self.stepper = prompt.keys() == STEPPER
        numbers = number_range(prompt.keys())
        self.picker = NumberPicker(numbers, numbers[0]) if numbers else None
        plain = self.stepper or self.picker is not None
        items = [] if plain else [(o.key, app.t(o.label)) for o in prompt.options]
        if items and prompt.done:
            done = (CONFIRM_KEY, app.t("ui.done"))
            items = [done] + items if prompt.done_first else items + [done]
        same_prompt = prompt.done and prompt.id == self._prompt_id and self.picked
        self.menu = Menu(items) if items else None
        if not same_prompt:
            self.picked = frozenset()
        elif self.menu is not None:        # a pick was taken: the next step is Done
            self.menu.select_key(CONFIRM_KEY)
        self._for_seq, self._prompt_id = state.seq, prompt.id

    def screen(self, app: AppView) -> Screen:
        """The prompt's words first, a page at a time where they are longer than their place;
        under them the menu, the number, or the scores and the reminder."""
        prompt, tally = app.view()
        self._refresh_menu(app, prompt)
        session = app.game()
        spec, state = session.spec, session.state
        text = app.t(prompt.text)
        left, right = header(app, tally)
        if self.menu is not None:
            return above_menu(self, app, Screen(left, right), text, self.menu)
        note = spec.reminder(state) if spec.reminder else None
        reminder = wrap(app.t(note)) if note is not None else []    # a long name: two lines
        room = BODY_LINES - (self.picker is not None) - len(reminder)
        lines, more = self.paged(app, text, room)
        mark = len(lines) - 1 if more else None
        if self.picker is not None:
            lines = lines + [self.picker.shown()]
        elif not more:
            lines = lines + scores_lines(app, tally, room - len(lines))
        lines = lines + reminder
        return Screen(left, right, tuple(lines), more=mark, above=self.later_page(app))

    def button(self, app: AppView, name: str, held: bool) -> Actions:
        self._refresh_menu(app)
        if held:
            if name == "select":
                return [Switch(GlobalMenu(self))]
            return ask_undo(app, self) if name == "back" else NOTHING
        if name in ("up", "down") and self.stepper:
            return [Play(Choose(STEPPER[0 if name == "up" else 1]))]
        if self.picker is not None:
            return self._pick(name)
        if name == "up" and self.menu is not None and self.menu.index == 0:
            return instructions_again(app)      # nothing above the first item: read again
        if name in ("up", "down") and self.menu is not None:
            self.menu.move(-1 if name == "up" else 1)
        elif name == "down" and self.turn_page(app):
            return NOTHING
        elif name == "down":
            return [Switch(Scores(self))]
        elif name == "up":
            return instructions_again(app)
        elif name == "select":
            return self._select(self.menu.key if self.menu is not None else CONFIRM_KEY)
        elif name == "back":
            return [Play(Cancel())]
        return NOTHING

    def answered_by(self, app, button: str) -> bool:
        """A prompt with no menu, number or steps that names the press ("SELECT when done")."""
        self._refresh_menu(app)
        plain = self.menu is None and self.picker is None and not self.stepper
        return plain and button in ("select", "back") and names(self.screen(app).lines, button)

    def _pick(self, name: str) -> Actions:
        """A number picker's press: a step, the number set, or BACK past the tens."""
        assert self.picker is not None
        done = self.picker.press(name)
        if done == DONE:
            return [Play(Choose(str(self.picker.value)))]
        return [Play(Cancel())] if done == LEFT else NOTHING

    def _select(self, key: str | None) -> Actions:
        """SELECT: Done, or a pick; a many-step prompt never takes the same pick twice."""
        if key is None or key == CONFIRM_KEY:
            return [Play(Confirm())]
        if key in self.picked:
            return [Show.of(msg("ui.already_picked"))]
        # each new state gets a fresh Playing: this one carries what was picked
        return [Play(Choose(key), then=Playing(self.picked | {key}, self._prompt_id))]

    def tap(self, app: AppView, tapped: Tapped) -> Actions:
        why = refusal(tapped.ref, app.game().spec, app.deck)
        if why is not None:
            return [Show.of(why)]
        if self._dealing(app):              # a card after the deal: the table has dealt
            return [Play(Confirm()), Play(Tap(tapped.ref.card))]
        return [Play(Tap(tapped.ref.card))]

    def _dealing(self, app: AppView) -> bool:
        """Is the game's own deal step shown (Palourde's, after its players joined by taps),
        where SELECT says the table has dealt and a card is the first one played?"""
        session = app.game()
        spec, state = session.spec, session.state
        deal = spec.look.deal
        return (deal is not None and app.view()[0].text.key == deal.key
                and Tap not in spec.allowed(state) and Confirm in spec.allowed(state))


class Scores(Page):
    """Every player's score."""

    def lines(self, app: AppView) -> list[str]:
        tally = app.view()[1]
        return [app.t("ui.score_line_out" if p.out else "ui.score_line", name=p.name,
                      score="-" if p.score is None else p.score) for p in tally.players]

    def screen(self, app: AppView) -> Screen:
        left, _ = header(app)
        return self.page(left, app.t("ui.scores"), app)


class GlobalMenu(MenuMode):
    """Hold SELECT: Scores, Undo last, House rules, Sound (with a buzzer), Statistics, Last
    instructions (UP's, where a menu takes UP), Language, Abort game."""

    title_key = "ui.menu"

    def __init__(self, back_to: Mode) -> None:
        super().__init__([("scores", ""), ("undo", ""), ("rules", ""), ("abort", "")],
                         back_to=back_to)

    def screen(self, app: AppView) -> Screen:
        labels = {"scores": "ui.scores", "undo": "ui.undo_last", "rules": "ui.house_rules"}
        switch = sound_switch(app)
        if switch is not None:
            labels["sound"] = "ui.sound_on" if switch.sound_on else "ui.sound_off"
        labels["stats"] = "ui.statistics"
        labels["again"] = "ui.instructions_again"
        labels["language"] = "ui.language"
        labels["abort"] = "ui.abort"
        self.menu.items = [(k, app.t(label)) for k, label in labels.items()
                           if k not in app.staff_only]     # in kiosk mode: the admin menu's
        return super().screen(app)

    def take(self, app: AppView, key: str) -> Actions:
        back_to = self.back_to
        assert back_to is not None            # opened from the game, always
        if key == "again":
            return [Switch(back_to), *instructions_again(app)]
        if key == "scores":
            return [Switch(Scores(back_to))]
        if key == "undo":
            return [Switch(back_to), *ask_undo(app, back_to)]
        if key == "rules":
            return [Switch(RulesView(back_to))]
        if key == "sound":
            toggle_sound(app)
            return NOTHING
        if key == "language":
            return [NextLanguage()]
        if key == "stats":
            return [Switch(Statistics.of(app, back_to))]
        return [Switch(Confirmation(back_to, msg("ui.abort_confirm"), [EndGame(abandoned=True)]))]


class RulesView(MenuMode):
    """The house rules of the running game, read-only."""

    title_key = "ui.house_rules"

    def __init__(self, back_to: Mode) -> None:
        super().__init__([], back_to=back_to)
        self.option_lines = OptionLines()

    def screen(self, app: AppView) -> Screen:
        options = app.game().config.options
        self.menu.items = [(k, self.option_lines.line(app, k, v)) for k, v in options]
        return super().screen(app)

    def take(self, app: AppView, key: str) -> Actions:
        return self.leave(app)


class Confirmation(Mode):
    """A yes/no question: SELECT does it (`then`), BACK goes back."""

    def __init__(self, back_to: Mode, question: Msg, then: Actions = NOTHING) -> None:
        self.back_to, self.question, self.then = back_to, question, then

    def screen(self, app: AppView) -> Screen:
        left, right = header(app)
        lines, more = self.paged(app, app.t(self.question), BODY_LINES)
        return Screen(left, right, tuple(lines), more=len(lines) - 1 if more else None,
                      above=self.later_page(app))

    def confirmed(self) -> Actions:
        """What SELECT does, after going back."""
        return self.then

    def button(self, app: AppView, name: str, held: bool) -> Actions:
        if name == "select":
            return [Switch(self.back_to), *self.confirmed()]
        if name == "down":
            self.turn_page(app)
        return [Switch(self.back_to)] if name == "back" else NOTHING


class GameOver(Mode):
    """The result: winners first and the full tally; SELECT ends the game, back to the game
    select."""

    def __init__(self) -> None:
        self.top = 0

    def body(self, app: AppView) -> list[str]:
        """The headline, then a line a player (two for a long name out): winners first. A
        line keeps its last column for the scroll mark."""
        spec, state = app.game().spec, app.game().state
        result = spec.result(state)
        assert result is not None             # the mode of a game with a result
        rows = ranking(spec, app.view()[1], result.winners, result.places)
        unscored = {True: app.t("ui.out"), False: "-"}      # L'Auberge: no scores, only who is out
        lines = [line for rank, name, score, out in rows
                 for line in wrap(app.t("ui.rank_line", rank=rank, name=name,
                                        score=unscored[out] if score is None else score),
                                  COLUMNS - 1)]
        return wrap(app.t(result.headline), COLUMNS - 1) + lines

    def screen(self, app: AppView) -> Screen:
        """The list in the lines above the last, which says what SELECT does next."""
        lines, rows = self.body(app), BODY_LINES - 1
        body = tuple(lines[self.top:self.top + rows]) + (app.t("ui.game_over_next"),)
        return Screen(app.t("ui.game_over"), app.t(header_name(app.game().spec)), body,
                      footer=1).scrolled(self.top, rows, len(lines))

    def button(self, app: AppView, name: str, held: bool) -> Actions:
        if held and name == "back":
            return ask_undo(app, self)
        if name == "down":
            self.top = min(self.top + 1, max(0, len(self.body(app)) - (BODY_LINES - 1)))
        elif name == "up":
            self.top = max(0, self.top - 1)
        elif name == "select":
            return [EndGame(abandoned=False)]
        return NOTHING

    def tap(self, app: AppView, tapped: Tapped) -> Actions:
        return [Show.of(msg("core.game_over"))]
