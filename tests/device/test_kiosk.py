"""Kiosk mode through simulator lines and virtual time: idle, attract, resume, staff-only admin."""
from __future__ import annotations

import pytest

from device.config import KioskConfig
from device.kiosk.plugin import Attract, kiosk_plugins
from device.kiosk.system_actions import RecordedSystem

from .table import SimTable
from .test_sim_palourde import PLAY, SETUP

ATTRACT_S = 120


class Kiosk(SimTable):
    def __init__(self, state_dir, language: str = "en", **settings) -> None:
        super().__init__(state_dir, language)
        self.system = RecordedSystem()
        settings = {"enabled": True, "attract_after_s": ATTRACT_S, "dim_after_s": 0,
                    "screensaver_after_s": 0, **settings}
        self.app.attach(*kiosk_plugins(KioskConfig(**settings), self.system))

    def choose(self, label: str) -> Kiosk:
        """DOWN until `label` is highlighted, then SELECT (the real buttons, one line each)."""
        for _ in range(12):
            screen = self.screen
            if screen.highlight is not None and screen.lines[screen.highlight] == label:
                return self.run("press select")
            self.run("press down")
        raise AssertionError(f"no {label!r} in {self.text}")


@pytest.fixture
def kiosk(tmp_path):
    return Kiosk(tmp_path)


def labels(table: SimTable) -> list[str]:
    """Every entry of the menu on screen, shown or scrolled off."""
    return [label for _, label in table.app.mode.menu.items]


def archived(table: SimTable) -> list[str]:
    return [path.name.split("-", 1)[1] for path in table.app.store.archived()]


def test_it_starts_at_the_game_select(kiosk):
    assert kiosk.screen.header == "TABLETOP" and kiosk.screen.highlight == 0


def test_an_idle_game_gives_way_to_the_attract_screen_and_resumes(kiosk):
    kiosk.start("palourde", "Ann,Bob").run("tap clam#1")
    before = kiosk.state()
    kiosk.run(f"wait {ATTRACT_S - 1}")
    assert not isinstance(kiosk.app.mode, Attract)
    kiosk.run("wait 1")
    assert kiosk.screen.lines == ("Still playing?", "Resume game", "New game")
    assert kiosk.screen.highlight == 1
    kiosk.run("press select")
    assert kiosk.state() == before                       # nothing lost, nothing played
    kiosk.run("tap clam#2")
    assert "Ann +2 clams" in kiosk.text


def test_new_game_on_the_attract_screen_ends_the_paused_game(kiosk):
    kiosk.start("palourde", "Ann,Bob").run(f"tap clam#1\nwait {ATTRACT_S}")
    kiosk.choose("New game")
    kiosk.run("press back")                              # changed their mind
    assert isinstance(kiosk.app.mode, Attract)
    kiosk.choose("New game").run("press select")
    assert kiosk.app.session is None and kiosk.screen.header == "TABLETOP"
    assert archived(kiosk) == ["abandoned.jsonl"]


def test_a_finished_game_goes_back_to_the_game_select(kiosk):
    kiosk.run(SETUP + PLAY + "press back")        # the game's last message read
    assert kiosk.screen.header == "GAME OVER"
    kiosk.run(f"wait {ATTRACT_S}")
    assert kiosk.screen.header == "TABLETOP" and archived(kiosk) == ["finished.jsonl"]


def test_a_setup_left_half_done_goes_back_to_the_game_select(kiosk):
    kiosk.run("press down\npress select")
    assert kiosk.screen.header != "TABLETOP"
    kiosk.run(f"wait {ATTRACT_S}")
    assert kiosk.screen.header == "TABLETOP"


def test_players_menu_keeps_scores_and_undo_but_no_admin(kiosk):
    kiosk.start("palourde", "Ann,Bob").run("tap clam#1\nhold select")
    assert {"Scores", "Undo last"} <= set(labels(kiosk))
    assert not {"Abort game", "House rules"} & set(labels(kiosk))
    kiosk.run("press back\nhold back")                   # players still undo their own last move
    kiosk.run("press select")
    assert kiosk.app.session.last_event() is None


def test_out_of_kiosk_mode_the_menu_has_it_all(tmp_path):
    table = SimTable(tmp_path).start("palourde", "Ann,Bob").run("hold select")
    assert {"Abort game", "House rules"} <= set(labels(table))


def test_a_staff_card_opens_the_admin_menu_and_aborts_the_game(kiosk):
    kiosk.start("palourde", "Ann,Bob").run("tap clam#1\nwait 2\ntap staff#1")
    assert (kiosk.screen.header, kiosk.screen.header_right) == ("ADMIN", "staff#1")
    assert kiosk.screen.lines[:3] == ("Abort game", "House rules", "Learn a deck")
    kiosk.choose("Abort game").run("press select")
    assert kiosk.app.session is None and archived(kiosk) == ["abandoned.jsonl"]


def test_the_staff_card_again_closes_the_menu(kiosk):
    kiosk.start("palourde", "Ann,Bob").run("tap staff#1\nwait 2")
    kiosk.choose("House rules")
    assert kiosk.screen.header == "House rules"
    kiosk.run("tap staff#1")
    assert kiosk.screen.header == "PALOURDE"


def test_an_admin_menu_left_open_closes_by_itself(kiosk):
    kiosk.start("palourde", "Ann,Bob").run(f"tap staff#1\nwait {ATTRACT_S}")
    assert isinstance(kiosk.app.mode, Attract)


@pytest.mark.parametrize("label, asked", [("Restart service", "restart"),
                                            ("Shut down", "poweroff")])
def test_restart_and_shut_down_go_to_the_system(kiosk, label, asked):
    kiosk.run("tap staff#1")
    kiosk.choose(label)
    assert kiosk.system.requests == []                   # asked first
    kiosk.run("press select")
    assert kiosk.system.requests == [asked]


def test_brightness_sets_the_panel_contrast(kiosk):
    class Panel:
        levels: list = []

        def show(self, image) -> None:
            pass

        def contrast(self, level: int) -> None:
            self.levels.append(level)

    panel = Panel()
    kiosk.frames.displays = (panel,)
    kiosk.run("tap staff#1")
    kiosk.choose("Brightness").choose("25%")
    assert kiosk.app.brightness == 64 and panel.levels == [64]
    assert kiosk.screen.header == "ADMIN"


def test_a_deck_is_learnt_by_tapping_its_cards(kiosk):
    kiosk.run("tap staff#1")
    kiosk.choose("Learn a deck").choose("palourde (palourde)")
    assert kiosk.text.splitlines() == ["|ADMIN    0 of 59 done|", "  Learn deck palourde",
                                       "  Tap Basket 1/5"]
    kiosk.run("tap uid:04A1B2C3D4E5F6")
    assert kiosk.screen.lines[1:] == ("Tap Basket 2/5", "Basket 1 OK")
    assert kiosk.screen.header_right == "1 of 59 done"
    assert kiosk.registry.base.deck("palourde").tags == {"04A1B2C3D4E5F6": "basket#1"}
    kiosk.run("press back")
    assert kiosk.screen.header == "ADMIN"


def test_sound_moves_to_the_admin_menu(kiosk):
    from device.feedback import Feedback

    class Tones:
        def play(self, name: str) -> None:
            pass

    kiosk.app.attach(Feedback(Tones()))
    kiosk.start("palourde", "Ann,Bob").run("hold select")
    assert "Sound: on" not in labels(kiosk)
    kiosk.run("press back\ntap staff#1")
    kiosk.choose("Sound: on")
    assert "Sound: off" in labels(kiosk)


def test_the_screensaver_wakes_before_the_attract_screen_answers(tmp_path):
    kiosk = Kiosk(tmp_path, dim_after_s=60, screensaver_after_s=ATTRACT_S)
    kiosk.start("palourde", "Ann,Bob").run(f"wait {ATTRACT_S}")
    assert kiosk.screen.drift is not None
    kiosk.run("press select")                            # wakes only
    assert kiosk.screen.lines[0] == "Still playing?"
    kiosk.run("press select")
    assert kiosk.screen.header == "PALOURDE"


def test_a_long_deck_name_pages_on_the_learning_walk_and_keeps_every_word(kiosk):
    """A deck name of 32 characters takes three lines; with the answer to a tap the walk's
    text pages (mark, a turn every few seconds and on DOWN) rather than losing a line, and
    the count keeps the header."""
    from device.ui.layout import layout
    from device.ui.paging import PAGE_SECONDS
    deck = "the_green_room_tavern_deck_no_02"
    kiosk.registry.base.add_tag(deck, "palourde", "04A1B2C3D4E5F6", "basket#1")
    kiosk.run("tap staff#1")
    kiosk.choose("Learn a deck").choose(f"palourde ({deck})")
    assert kiosk.text.splitlines() == ["|ADMIN    1 of 59 done|", "  Learn deck",
                                       "  the_green_room_tavern", "  _deck_no_02",
                                       "  Tap Basket 2/5"]
    kiosk.run("tap uid:04A1B2C3D4E5F6")                  # already learnt: said under it
    first = kiosk.text.splitlines()
    assert first[0] == "|ADMIN    1 of 59 done|" and first[-1].endswith(" v")
    assert not layout(kiosk.screen).cuts
    kiosk.run(f"wait {PAGE_SECONDS}")
    second = kiosk.text.splitlines()
    assert second[1:] == ["  Already Basket 1 ^"]
    kiosk.run(f"wait {PAGE_SECONDS}\npress down")       # round to the first, DOWN turns it
    assert kiosk.text.splitlines() == second
    words = " ".join(first[1:] + second[1:]).replace(" v", "").replace(" ^", "").split()
    assert "".join(words) == "".join(f"Learn deck {deck} Tap Basket 2/5 Already Basket 1".split())


def test_a_refused_tag_on_the_learning_walk_is_said_whole_in_french(tmp_path):
    """"Carte du joueur Maximilian" (26 characters) is read whole, on a line of its own."""
    from device.players.roster import Roster, new_player
    kiosk = Kiosk(tmp_path, "fr")
    roster = Roster(tmp_path)
    roster.add(new_player("Maximilian"))
    roster.give_card("04A1B2C3D4E5F6", "Maximilian")
    kiosk.run("tap staff#1")
    kiosk.choose("Apprendre un paquet").choose("palourde (palourde)")
    kiosk.run("tap uid:04A1B2C3D4E5F6")
    assert kiosk.screen.lines == ("Apprendre palourde", "Pose Panier 1/5", "Carte du joueur",
                                  "Maximilian")
