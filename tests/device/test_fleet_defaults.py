"""The café's house rules and language for a table: one signed, retained message on the
table's own topic, checked value by value, kept, and taken at the next game only.

The message's checks first (no broker), the file a table keeps, then a table on simulated
parts and real Mosquitto: the next setup starts from the café's values and the table speaks
its language once no game runs; a game in progress is not changed; a forged, replayed or
out-of-range message changes nothing and says so in one line."""
from __future__ import annotations

import json
import logging
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from device.actions import EndGame
from device.config import parse_config
from device.fleet import keys
from device.fleet.claim import REQUEST, ClaimBox, claim_topic, heard_by
from device.fleet.counter import Counter
from device.fleet.defaults import CafeLanguage, DefaultsBox, defaults_message, heard_with, read_defaults
from device.fleet.envelope import ADMIN, Refused, Signer, Trust
from device.fleet.freshness import Freshness
from device.fleet.link import Link, unique_id
from device.fleet.plugin import open_fleet
from device.fleet.retained import send_retained
from device.fleet.shared import Inbox
from device.fleet.topics import SHARED_FILTER, defaults_topic
from device.storage import quarantine
from device.storage.house_defaults import (
    FILE,
    DefaultsRefused,
    HouseDefaults,
    checked,
    game_defaults,
    keep,
    kept,
)
from device.storage.settings import saved_language
from device.ui.game_select import GameSelect
from device.ui.wizard import HouseRules, begin_setup
from tests.device.fleet_tables import (
    ADMIN_KEY,
    FLEET_KEY,
    CafeTable,
    admin_private,
    broker_under_the_acl,
    settings_for,
    table_signer,
)
from tests.device.mosquitto import running_broker
from tests.device.test_fleet import config_file

WAIT_S = 30.0                      # bounds a failure only
AT = "2030-01-15T20:00:00+01:00"
TAMALOU = {"caller_fail_penalty": 30, "lock_caller": True, "snap_match": "points"}
ADMIN_PUBLIC = keys.public_key(ADMIN_KEY)


def cafe(folder: Path) -> Signer:
    return Signer(admin_private(), ADMIN, Counter(folder))


def sent(signer: Signer, games: dict, language: str | None = "fr", table: str = "t1") -> tuple[str, bytes]:
    return defaults_message(signer, table, AT, HouseDefaults(games, language))


# ---- the message ------------------------------------------------------------------------------

def test_the_cafes_defaults_are_taken_once_and_a_replay_or_a_forgery_is_refused(tmp_path):
    signer, seen = cafe(tmp_path), Freshness(None)
    older = sent(signer, {"tamalou": {"lock_caller": True}})
    topic, payload = sent(signer, {"tamalou": TAMALOU})
    assert topic == defaults_topic("t1") == "tabletop/t1/defaults"
    assert read_defaults("t1", topic, payload, ADMIN_PUBLIC, seen) == (
        HouseDefaults({"tamalou": TAMALOU}, "fr"), True)
    assert read_defaults("t1", topic, payload, ADMIN_PUBLIC, seen)[1] is False   # heard again
    with pytest.raises(Refused, match="a replay"):
        read_defaults("t1", *older, ADMIN_PUBLIC, seen)
    forged = Signer(table_signer("x").private, ADMIN, Counter(tmp_path / "forger"))
    cases = {
        "badly signed": sent(forged, {"tamalou": TAMALOU}),
        "signed for another topic": (topic, sent(signer, {}, table="t2")[1]),
        "not this table's": sent(signer, {}, table="t2"),
        "for another table": (topic, signer.seal(topic, {"table": "t2", "games": {}, "language": None})),
        "not signed by @admin": (topic, table_signer("t1").seal(topic, {"table": "t1", "games": {}})),
        "above 60": (topic, signer.seal(topic, {"table": "t1", "games": {"tamalou": {"last_snap_s": 61}}})),
        "not a game of this table": (topic, signer.seal(topic, {"table": "t1", "games": {"chess": {}}})),
        "not one of en, fr": (topic, signer.seal(topic, {"table": "t1", "games": {}, "language": "xx"})),
    }
    for why, (where, message) in cases.items():
        before = seen.highest(ADMIN, topic)
        with pytest.raises(Refused, match=why):
            read_defaults("t1", where, message, ADMIN_PUBLIC, seen)
        assert seen.highest(ADMIN, topic) == before, why          # a refusal moves no counter
    moved = json.loads(payload)
    moved["games"]["tamalou"]["caller_fail_penalty"] = 3          # the signature no longer checks
    with pytest.raises(Refused, match="badly signed"):
        read_defaults("t1", topic, json.dumps(moved).encode(), ADMIN_PUBLIC, Freshness(None))
    with pytest.raises(Refused, match="no key here"):             # a table without fleet.admin_key
        read_defaults("t1", topic, payload, None, Freshness(None))


def test_every_value_is_checked_against_its_games_rules():
    assert checked({"flouk": {"min_players": 2, "max_players": 6}}, None).games == {
        "flouk": {"min_players": 2, "max_players": 6}}
    refused = {
        "takes true|false, not 1": ({"tamalou": {"lock_caller": 1}}, None),
        "takes number, not true": ({"tamalou": {"last_snap_s": True}}, None),
        "takes number, not \"5\"": ({"tamalou": {"last_snap_s": "5"}}, None),
        "is below 0": ({"tamalou": {"caller_fail_penalty": -1}}, None),
        "is not one of rank|points": ({"tamalou": {"snap_match": "suit"}}, None),
        "'colour' is not one of its options": ({"tamalou": {"colour": "red"}}, None),
        "no player count possible": ({"flouk": {"min_players": 6, "max_players": 2}}, None),
        "not written as its rules write it": ({"tamalou": {"match": "rounds:3 "}}, None),
        "not an object of option keys": ({"tamalou": [1]}, None),
        "not an object of game ids": ([], None),
        "is not one of en, fr": ({}, 3),
    }
    for why, (games, language) in refused.items():
        with pytest.raises(DefaultsRefused, match=why):
            checked(games, language)


JSON = st.recursive(st.none() | st.booleans() | st.integers(-200, 200) | st.text(max_size=12)
                    | st.sampled_from(["rank", "points", "single", "rounds:3", "fr", "en", "shared"]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                        st.sampled_from([o.key for s in engine.all_specs() for o in s.options] + ["x"]),
                        inner, max_size=4),
                    max_leaves=10)
GAMES = st.dictionaries(st.sampled_from([s.id for s in engine.all_specs()] + ["chess"]), JSON, max_size=3)
FUZZ_CAFE = Signer(admin_private(), ADMIN, table_signer("-").counter)


@settings(max_examples=30)
@given(GAMES | JSON, JSON, st.sampled_from(["table", "games", "language", "at"]))
def test_a_signed_message_of_any_body_is_taken_whole_with_every_value_legal_or_refused(games, language, drop):
    """Well signed, with any games and language (and one field perhaps missing): taken only
    when every value is one its game's rules take, and then exactly as sent."""
    topic = defaults_topic("t1")
    body = {"table": "t1", "at": AT, "games": games, "language": language}
    del body[drop]
    try:
        defaults, new = read_defaults("t1", topic, FUZZ_CAFE.seal(topic, body), ADMIN_PUBLIC, None)
    except Refused:
        return
    assert new and defaults.games == games and defaults.language == body.get("language")
    specs = {spec.id: spec for spec in engine.all_specs()}
    for game, options in defaults.games.items():
        config = engine.make_config(specs[game], [], None, options)   # the rules start with them
        assert dict(config.options).items() >= options.items()


@given(st.binary(max_size=300))
def test_any_bytes_on_the_topic_are_refused(payload):
    with pytest.raises(Refused):
        read_defaults("t1", defaults_topic("t1"), payload, ADMIN_PUBLIC, Freshness(None))


# ---- the file the table keeps -----------------------------------------------------------------

def test_the_kept_defaults_survive_a_restart_and_a_spoilt_file_is_set_aside(tmp_path):
    assert kept(tmp_path) == HouseDefaults() and game_defaults(tmp_path, engine.get("tamalou")) == {}
    keep(tmp_path, HouseDefaults({"tamalou": TAMALOU}, "fr", True))
    assert kept(tmp_path) == HouseDefaults({"tamalou": TAMALOU}, "fr", True)
    assert game_defaults(tmp_path, engine.get("tamalou")) == TAMALOU
    assert game_defaults(tmp_path, engine.get("flouk")) == {}
    (tmp_path / FILE).write_text(json.dumps({"games": {"tamalou": {"last_snap_s": 99}},
                                             "language": None, "language_due": False}))
    quarantine.watch(tmp_path)                             # the table runs on it: set aside
    try:
        assert kept(tmp_path) == HouseDefaults()
    finally:
        quarantine.unwatch(tmp_path)
    assert not (tmp_path / FILE).exists() and list((tmp_path / "unreadable").iterdir())


# ---- a table on the broker --------------------------------------------------------------------

@pytest.fixture
def broker(tmp_path):
    with running_broker(tmp_path) as broker:
        yield broker


class HouseTable(CafeTable):
    """A café table whose link is wired as `open_fleet` wires it: the shared topics, its claim
    topic and its defaults topic, each to its reader; `heard` is set at each defaults message."""

    def __init__(self, folder: Path, name: str, broker, settings=None) -> None:
        super().__init__(folder, name, None)
        self.signer = Signer.table(folder, name)
        self.inbox = Inbox(Trust.of(ADMIN_KEY, Freshness.at(folder)), FLEET_KEY)
        self.box = DefaultsBox(name, ADMIN_KEY, self.inbox.trust.seen, folder)
        claims = ClaimBox(name, ADMIN_KEY, self.inbox.trust.seen, lambda: 0)
        self.heard, self.verdicts = threading.Event(), list[str | None]()
        route = heard_with(self.box, heard_by(self.inbox.receive, claims.receive))

        def heard(topic: str, payload: bytes) -> str | None:
            verdict = route(topic, payload)
            if topic == self.box.topic:
                self.verdicts.append(verdict)
                self.heard.set()
            return verdict
        self.ear = Link(settings or settings_for(broker), f"tabletop-{name}",
                         subscriptions=(SHARED_FILTER, claim_topic(name, REQUEST), self.box.topic),
                         on_message=heard).start()
        assert self.ear.wait_up(WAIT_S)
        self.app.attach(CafeLanguage(self.box))

    def hear(self, broker, topic: str, payload: bytes, sender_settings=None) -> str | None:
        """One message sent retained to the table, heard, then a tick: the table's verdict."""
        self.heard.clear()
        sender = Link(sender_settings or settings_for(broker), unique_id("cafe")).start()
        assert sender.wait_up(WAIT_S)
        sender.publish(topic, payload, retain=True)
        assert sender.close(flush_s=WAIT_S) and self.heard.wait(WAIT_S)
        self.play(["wait 1"])
        return self.verdicts[-1]

    def setup_values(self, game: str) -> dict:
        """The house rules the next setup of `game` shows, as its menu reads them."""
        self.app.apply(begin_setup(self.app, engine.get(game)))
        self.play(["wait 1"])
        mode = self.app.mode
        assert isinstance(mode, HouseRules), mode
        return mode.values

    def close(self) -> None:
        self.ear.close(flush_s=0)


def refusals(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "device.fleet.defaults"
            and r.levelno == logging.WARNING]


def test_the_next_setup_starts_from_the_cafes_values_and_the_table_takes_its_language(tmp_path, broker):
    table = HouseTable(tmp_path / "t1", "t1", broker)
    try:
        assert table.setup_values("tamalou")["caller_fail_penalty"] == 0
        table.app.apply([table.app.mode.leave(table.app)[0]])          # BACK to the game select
        assert table.hear(broker, *sent(cafe(tmp_path / "cafe"), {"tamalou": TAMALOU})) is None
        assert table.app.language == "fr" and saved_language(tmp_path / "t1") == "fr"
        values = table.setup_values("tamalou")
        assert {k: values[k] for k in TAMALOU} == TAMALOU and values["last_snap_s"] == 5
        shown = table.screens[-1]                  # in French, the café's value on it
        assert shown.lines[0] == "Variantes" and any(
            line.startswith("Même valeur") and line.endswith(" points") for line in shown.lines)
    finally:
        table.close()
    again = HouseTable(tmp_path / "t1", "t1", broker)           # restarted: the retained one again
    try:
        assert again.heard.wait(WAIT_S) and again.verdicts == [ADMIN]    # a repeat: nothing new
        assert {k: again.setup_values("tamalou")[k] for k in TAMALOU} == TAMALOU
    finally:
        again.close()


def test_a_game_in_progress_is_not_changed_and_the_language_waits_for_its_end(tmp_path, broker):
    table = HouseTable(tmp_path / "t1", "t1", broker)
    try:
        table.start("tamalou", ["Ann", "Bob"])
        options = table.app.session.config.options
        assert table.hear(broker, *sent(cafe(tmp_path / "cafe"), {"tamalou": TAMALOU})) is None
        table.play(["wait 5"])
        assert table.app.session.config.options == options and table.app.language == "en"
        table.app.apply([EndGame(abandoned=True)])
        table.play(["wait 1"])
        assert type(table.app.mode) is GameSelect and table.app.language == "fr"
        values = table.setup_values("tamalou")
        assert {k: values[k] for k in TAMALOU} == TAMALOU
    finally:
        table.close()


def test_a_forged_replayed_or_out_of_range_message_changes_nothing_in_one_line(tmp_path, broker, caplog):
    table = HouseTable(tmp_path / "t1", "t1", broker)
    signer = cafe(tmp_path / "cafe")
    old = sent(signer, {"tamalou": {"lock_caller": True}}, language="en")
    try:
        assert table.hear(broker, *sent(signer, {"tamalou": TAMALOU}, language=None)) is None
        held = kept(tmp_path / "t1")
        forged = Signer(table_signer("x").private, ADMIN, Counter(tmp_path / "forger"))
        topic = defaults_topic("t1")
        for why, message in (
                ("badly signed", sent(forged, {"tamalou": {}}, language="fr")),
                ("a replay", old),
                ("is above 60", (topic, signer.seal(topic, {"table": "t1", "language": "fr", "games": {
                    "tamalou": {"last_snap_s": 600, "lock_caller": False}}})))):
            caplog.clear()
            assert table.hear(broker, *message) == ADMIN
            assert len(refusals(caplog)) == 1 and why in refusals(caplog)[0], refusals(caplog)
            assert kept(tmp_path / "t1") == held and table.app.language == "en"
            assert {k: table.setup_values("tamalou")[k] for k in TAMALOU} == TAMALOU
            table.app.apply([table.app.mode.leave(table.app)[0]])
    finally:
        table.close()


def test_under_the_generated_acl_a_table_hears_its_defaults_from_the_owner(tmp_path):
    with broker_under_the_acl(tmp_path) as broker:
        table = HouseTable(tmp_path / "t1", "t1", broker, settings_for(broker, username="t1"))
        owner = settings_for(broker, username="cafe-admin")
        assert table.hear(broker, *sent(cafe(tmp_path / "cafe"), {"tamalou": TAMALOU}),
                          sender_settings=owner) is None
        assert kept(tmp_path / "t1").games == {"tamalou": TAMALOU}
        table.close()


def test_a_table_started_from_its_config_takes_the_retained_defaults_waiting_for_it(tmp_path, broker):
    """`open_fleet` as the table starts it: the café's message, retained before the table
    ever connected, is taken at its first subscription, and its language plugin attached."""
    send_retained(settings_for(broker), [sent(cafe(tmp_path / "cafe"), {"tamalou": TAMALOU})])
    config = parse_config(config_file(tmp_path, broker, "t1").read_text())
    fleet = open_fleet(config, tmp_path / "t1", lambda: AT)
    try:
        language = next(part for part in fleet.parts if isinstance(part, CafeLanguage))
        assert language.box.due.wait(WAIT_S)                # taken, its language waiting
        assert kept(tmp_path / "t1") == HouseDefaults({"tamalou": TAMALOU}, "fr", True)
    finally:
        fleet.close()
