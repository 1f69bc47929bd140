"""House rules and language per table from the back office: checked as the table checks them,
signed with the café's admin key, sent retained on the table's own topic, and taken by the
table at its next game (on a real Mosquitto). Without a session 401, a change without its
CSRF token 403; a value a game's rules refuse, a table not enrolled or a missing admin key
is refused in one line with nothing kept or sent."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from device.fleet import keys
from device.fleet.backoffice.api import Api
from device.fleet.backoffice.defaults import FILE, DefaultsDesk
from device.fleet.backoffice.history import History
from device.fleet.backoffice.office import BackOffice
from device.fleet.backoffice.password import store
from device.fleet.backoffice.sharing import Sharing
from device.fleet.dashboard.app import DashboardServer
from device.fleet.dashboard.board import Board
from device.fleet.enrolled import Enrolled
from device.fleet.topics import defaults_topic
from device.storage.house_defaults import kept
from tests.device.backoffice_client import CHEAP, PASSWORD, Staffer
from tests.device.fleet_tables import cafe_admin, settings_for, table_signer
from tests.device.mosquitto import running_broker

from .test_fleet_defaults import TAMALOU, HouseTable

ROUTES = [("GET", "/admin/api/defaults"), ("POST", "/admin/api/defaults/set")]
SET = "/admin/api/defaults/set"
T1_KEY = keys.public_text(table_signer("t1").private)


def serve(state_dir, settings=None, admin_key: bool = True) -> DashboardServer:
    """The dashboard's back office over `state_dir`, sending with `settings` (None: no broker)."""
    store(state_dir, PASSWORD, n=CHEAP)
    if admin_key:
        cafe_admin(state_dir)
    history = History(None)
    sharing = Sharing(settings, state_dir) if settings is not None else None
    back = BackOffice(state_dir, api=lambda o: Api(o, history, sharing=sharing).routes())
    return DashboardServer(Board(counted=history), "127.0.0.1", 0, token=None, backoffice=back).start()


@pytest.fixture
def office(tmp_path):
    server = serve(tmp_path)
    Enrolled(tmp_path).enrol("t1", T1_KEY)
    yield server, tmp_path
    server.close()


def test_without_a_session_401_and_a_change_without_its_token_403(office):
    server, state_dir = office
    forger = Staffer(server)
    for method, path in ROUTES:
        body = {"table": "t1", "game": "", "options": {}, "language": "fr"} if method == "POST" else None
        assert forger.ask(method, path, body, csrf="guessed")[0] == 401, path
    staffer = Staffer(server)
    assert staffer.login() == 200
    assert staffer.post(SET, {"table": "t1", "game": "", "options": {}, "language": "fr"}, csrf=False)[0] == 403
    assert not (state_dir / FILE).exists()


def test_the_form_offers_each_games_house_rules_and_refuses_what_the_table_would(office):
    server, state_dir = office
    staffer = Staffer(server)
    assert staffer.login() == 200
    status, view = staffer.get("/admin/api/defaults")
    assert status == 200 and view["tables"] == [{"name": "t1", "games": {}, "language": None}]
    assert view["languages"] == ["en", "fr"]
    tamalou = next(g for g in view["games"] if g["id"] == "tamalou")
    assert {"key": "last_snap_s", "kind": "int", "default": 5, "choices": [], "minimum": 0,
            "maximum": 60, "label": "Last snaps (s)", "choice_labels": []} in tamalou["options"]
    call = next(o for o in tamalou["options"] if o["key"] == "call_timing")
    assert call["label"] == "Call" and call["choice_labels"] == ["as the turn", "after turn"]
    for body, said in (
            ({"table": "t9", "game": "tamalou", "options": {}, "language": ""}, "'t9' is not an enrolled table"),
            ({"table": "t1", "game": "tamalou", "options": {"last_snap_s": 61}, "language": ""},
             "tamalou: option last_snap_s: 61 is above 60"),
            ({"table": "t1", "game": "tamalou", "options": {"lock_caller": "yes"}, "language": ""},
             "option lock_caller takes true|false"),
            ({"table": "t1", "game": "chess", "options": {}, "language": ""}, "'chess' is not a game"),
            ({"table": "t1", "game": "", "options": {}, "language": "de"}, "language 'de' is not one of en, fr"),
            ({"table": "t1", "game": "", "options": {"lock_caller": True}, "language": ""}, "options need their game"),
            ({"table": "t1", "game": "tamalou", "options": {}}, 'the body is {"table": ...')):
        status, answer = staffer.post(SET, body)
        assert status == 400 and said in answer["error"] and "\n" not in answer["error"], (body, answer)
    assert not (state_dir / FILE).exists()
    status, answer = staffer.post(SET, {"table": "t1", "game": "tamalou", "options": TAMALOU, "language": "fr"})
    assert status == 200 and answer == {"table": "t1", "games": {"tamalou": TAMALOU}, "language": "fr",
                                        "not_shared": "this dashboard has no broker to send it with"}
    assert staffer.get("/admin/api/defaults")[1]["tables"] == [{"name": "t1", "games": {"tamalou": TAMALOU},
                                                                "language": "fr"}]


def test_without_the_admin_key_nothing_is_kept(tmp_path):
    server = serve(tmp_path, admin_key=False)
    try:
        Enrolled(tmp_path).enrol("t1", T1_KEY)
        staffer = Staffer(server)
        assert staffer.login() == 200
        status, answer = staffer.post(SET, {"table": "t1", "game": "", "options": {}, "language": "fr"})
        assert status == 400 and "admin" in answer["error"] and not (tmp_path / FILE).exists()
    finally:
        server.close()


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    state_dir = tmp_path_factory.mktemp("fuzzed")
    server = serve(state_dir)
    Enrolled(state_dir).enrol("t1", T1_KEY)
    staffer = Staffer(server)
    assert staffer.login() == 200
    yield staffer, state_dir
    server.close()


VALUE = st.none() | st.booleans() | st.integers(-100, 100) | st.text(max_size=10) | st.sampled_from(
    ["points", "rank", "single", "rounds:2"])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.fixed_dictionaries({
    "table": st.sampled_from(["t1", "t2", ""]), "game": st.sampled_from(["tamalou", "flouk", "", "chess"]),
    "options": st.dictionaries(st.sampled_from(["lock_caller", "last_snap_s", "snap_match", "min_players",
                                                "max_players", "x"]), VALUE, max_size=3),
    "language": st.sampled_from(["", "fr", "en", "xx"])}) | st.recursive(
    VALUE, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8))
def test_any_body_is_kept_whole_with_every_value_legal_or_refused_in_one_line(fuzzed, body):
    staffer, state_dir = fuzzed
    before = DefaultsDesk(state_dir).sent()
    status, answer = staffer.post(SET, None, raw=json.dumps(body).encode())
    assert status in (200, 400), (status, answer)
    if status == 400:
        assert "\n" not in answer["error"] and DefaultsDesk(state_dir).sent() == before
        return
    options = DefaultsDesk(state_dir).sent()["t1"].games.get(body["game"], {})
    assert options == body["options"]
    if options:
        engine.make_config(engine.get(body["game"]), [], None, options)       # the rules start with them


# ---- to the table, on the broker --------------------------------------------------------------

def test_the_back_office_sends_a_table_its_house_rules_for_the_next_game(tmp_path):
    with running_broker(tmp_path) as broker:
        server = serve(tmp_path / "cafe", settings_for(broker, table="cafe"))
        table = HouseTable(tmp_path / "t1", "t1", broker)
        try:
            Enrolled(tmp_path / "cafe").enrol("t1", table.public_key)
            staffer = Staffer(server)
            assert staffer.login() == 200
            table.start("tamalou", ["Ann", "Bob"])                # a game runs: it is not changed
            running = table.app.session.config.options
            table.heard.clear()
            status, answer = staffer.post(SET, {"table": "t1", "game": "tamalou", "options": TAMALOU,
                                                "language": "fr"})
            assert (status, answer["shared"]) == (200, defaults_topic("t1"))
            assert table.heard.wait(30) and table.verdicts[-1] is None
            table.play(["wait 1"])
            assert table.app.session.config.options == running and table.app.language == "en"
            table.app.end_game(abandoned=True)
            table.play(["wait 1"])
            assert table.app.language == "fr"
            assert {k: table.setup_values("tamalou")[k] for k in TAMALOU} == TAMALOU
            table.app.apply(table.app.mode.leave(table.app))
            # another game's rules join the first's; the language left as the table's staff chose
            table.heard.clear()
            status, answer = staffer.post(SET, {"table": "t1", "game": "flouk",
                                                "options": {"min_players": 2}, "language": ""})
            assert status == 200 and answer["games"] == {"tamalou": TAMALOU, "flouk": {"min_players": 2}}
            assert table.heard.wait(30) and table.verdicts[-1] is None
            assert kept(tmp_path / "t1").games == {"tamalou": TAMALOU, "flouk": {"min_players": 2}}
            assert kept(tmp_path / "t1").language is None
            assert table.setup_values("flouk")["min_players"] == 2
            on_disk = json.loads((tmp_path / "cafe" / FILE).read_text())
            assert on_disk["t1"]["games"]["flouk"] == {"min_players": 2}
        finally:
            table.close()
            server.close()
