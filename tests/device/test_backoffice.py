"""The back office's doors: the staff password set from the command line (only its hash kept),
login and logout, sessions that end, CSRF on every change, 429 after 5 wrong passwords a
minute from one address, no fixation, no admin route without a session; and every form field
checked as the command line checks it, with one message and nothing changed."""
from __future__ import annotations

import io
import json
import sys
import urllib.parse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.cli import main
from device.decks.registry import DeckRegistry
from device.fleet.backoffice.password import FILE, Password
from device.fleet.backoffice.sessions import SESSION_S, WINDOW_S
from device.fleet.topics import encode, table_topic
from device.players.roster import Roster, check_name, new_player
from tests.device.backoffice_client import PASSWORD, Staffer, serve
from tests.device.test_fleet_dashboard import CLOCK

ROUTES = [("GET", "/admin/api/leaderboard?game=palourde&period=month"), ("GET", "/admin/api/history"),
          ("GET", "/admin/api/history.csv"), ("GET", "/admin/api/player?name=Ann"),
          ("GET", "/admin/api/players"), ("GET", "/admin/api/staff"), ("GET", "/admin/api/decks"),
          ("GET", "/admin/api/session"), ("POST", "/admin/api/players/add"),
          ("POST", "/admin/api/players/rename"), ("POST", "/admin/api/players/remove"),
          ("POST", "/admin/api/staff/add"), ("POST", "/admin/api/staff/revoke"),
          ("POST", "/admin/api/logout")]


@pytest.fixture
def office(tmp_path):
    server, clock, _ = serve(tmp_path)
    yield server, clock, tmp_path
    server.close()


class Done:
    def __init__(self, returncode: int, out: str, err: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, out, err


@pytest.fixture
def tabletop(capsys, monkeypatch):
    """The command line, in this process: its exit status, stdout and stderr."""
    def run(*args: str, stdin: str = "") -> Done:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code = main(list(args))
        out, err = capsys.readouterr()
        return Done(code, out, err)
    return run


def test_the_password_command_keeps_only_a_hash_and_refuses_a_short_one(tmp_path, tabletop):
    done = tabletop("dashboard", "password", "--state-dir", str(tmp_path), stdin="sea-urchin-7\n")
    assert done.returncode == 0, done.stderr
    kept = (tmp_path / FILE).read_text()
    assert "sea-urchin-7" not in kept and json.loads(kept)["scrypt"]["n"] >= 2 ** 14
    assert (tmp_path / FILE).stat().st_mode & 0o077 == 0
    assert Password(tmp_path).matches("sea-urchin-7") and not Password(tmp_path).matches("sea-urchin-8")
    refused = tabletop("dashboard", "password", "--state-dir", str(tmp_path), stdin="short\n")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "8 characters" in refused.stderr
    assert (tmp_path / FILE).read_text() == kept                         # nothing changed


def test_without_a_password_admin_says_how_to_set_one_and_does_nothing_else(tmp_path):
    server, _, _ = serve(tmp_path, password=None)
    try:
        staffer = Staffer(server)
        status, page = staffer.get("/admin/")
        assert status == 200 and "tabletop dashboard password" in page
        assert staffer.login("anything-at-all") == 503
        assert staffer.get("/admin/api/players")[0] == 503
        assert staffer.get("/admin/admin.js")[0] == 404
        assert staffer.get("/state.json")[0] == 200                    # the wall screen as ever
    finally:
        server.close()


def test_every_admin_route_answers_401_without_a_session(office):
    server, _, _ = office
    forger = Staffer(server)
    for method, path in ROUTES:
        status, body, _ = forger.ask(method, path, {"name": "Eve"} if method == "POST" else None,
                                     csrf="guessed")
        assert status == 401, (method, path, status)
    forger.cookie = "eyJzaWQiOiAiZm9yZ2VkIn0=.forged.signature"       # a cookie not signed by us
    assert forger.get("/admin/api/players")[0] == 401
    assert Roster(office[2]).players() == []


def test_login_sets_a_strict_http_only_cookie_and_logout_ends_the_session(office):
    server, _, _ = office
    staffer = Staffer(server)
    status, body, headers = staffer.ask("POST", "/admin/api/login", {"password": PASSWORD}, csrf=False)
    cookie = headers["set-cookie"].lower()
    assert status == 200 and "httponly" in cookie and "samesite=strict" in cookie and "path=/admin" in cookie
    assert "max-age=" in cookie and PASSWORD not in headers["set-cookie"]
    staffer.csrf = body["csrf"]
    kept = staffer.cookie
    assert staffer.get("/admin/api/players") == (200, {"players": []})
    assert staffer.post("/admin/api/logout", {})[0] == 200
    staffer.cookie = kept                                        # a copy of the old cookie
    assert staffer.get("/admin/api/players")[0] == 401


def test_a_session_ends_after_its_time(office):
    server, clock, _ = office
    staffer = Staffer(server)
    assert staffer.login() == 200
    clock.now += SESSION_S - 1
    assert staffer.get("/admin/api/players")[0] == 200
    clock.now += 1
    assert staffer.get("/admin/api/players")[0] == 401


def test_five_wrong_passwords_a_minute_then_429_even_for_the_right_one(office):
    server, clock, _ = office
    guesser, other = Staffer(server), Staffer(server, address="127.0.0.2")
    assert [guesser.login(f"guess-{n}-xx") for n in range(5)] == [401] * 5
    assert guesser.login() == 429 and guesser.login("guess-6-xx") == 429
    assert other.login() == 200                                  # another address is not held
    clock.now += WINDOW_S
    assert guesser.login() == 200


def test_a_change_without_its_sessions_csrf_token_is_refused(office):
    server, _, state_dir = office
    staffer, other = Staffer(server), Staffer(server)
    assert staffer.login() == 200 and other.login() == 200
    assert staffer.post("/admin/api/players/add", {"name": "Ann"}, csrf=False)[0] == 403
    assert staffer.post("/admin/api/players/add", {"name": "Ann"}, csrf="x" * 43)[0] == 403
    assert staffer.post("/admin/api/players/add", {"name": "Ann"}, csrf=other.csrf)[0] == 403
    status, _, _ = staffer.ask("POST", "/admin/api/players/add", raw=b"name=Ann",   # a plain form
                               headers={"Content-Type": "application/x-www-form-urlencoded"}, csrf=False)
    assert status == 403
    assert Roster(state_dir).players() == []
    assert staffer.post("/admin/api/players/add", {"name": "Ann"})[0] == 200


def test_a_session_cookie_given_before_login_is_not_the_one_after(office):
    """Session fixation: the cookie an attacker planted is worth nothing once the staffer logs in."""
    server, _, _ = office
    attacker = Staffer(server)
    assert attacker.login() == 200
    planted = attacker.cookie
    assert attacker.post("/admin/api/logout", {})[0] == 200
    victim = Staffer(server)
    victim.cookie = planted
    assert victim.login() == 200 and victim.cookie != planted
    attacker.cookie = planted
    assert attacker.get("/admin/api/players")[0] == 401


@pytest.mark.parametrize(("path", "body", "words"), [
    ("/admin/api/players/add", {"name": ""}, "name"),
    ("/admin/api/players/add", {"name": "A" * 200}, "characters"),
    ("/admin/api/players/add", {"name": "Ann\nBob"}, ""),
    ("/admin/api/players/add", {"name": "Ann", "extra": 1}, 'the body is {"name": ...}'),
    ("/admin/api/players/add", {"name": 7}, 'the body is {"name": ...}'),
    ("/admin/api/players/rename", {"name": "Nobody", "to": "Bea"}, "Nobody"),
    ("/admin/api/players/rename", {"name": "Cy", "to": "Ann"}, "Ann"),
    ("/admin/api/players/remove", {"name": "Nobody"}, "Nobody"),
    ("/admin/api/staff/add", {"uid": "ZZ-not-hex", "label": "Mo"}, ""),
    ("/admin/api/staff/add", {"uid": "04A224B1C2D3E4", "label": "  "}, "label"),
    ("/admin/api/staff/revoke", {"uid": "04FFFFFF"}, "not a staff card"),
    ("/admin/api/players/card", {"uid": "04A224B1C2D3E4", "name": "Ann"}, "staff"),
    ("/admin/api/players/card", {"uid": "nothex", "name": "Ann"}, ""),
    ("/admin/api/players/card", {"uid": "04CAFE01", "name": "Nobody"}, "Nobody"),
])
def test_every_field_is_checked_as_the_command_line_checks_it(office, path, body, words):
    server, _, state_dir = office
    staffer = Staffer(server)
    assert staffer.login() == 200
    for name in ("Ann", "Cy"):
        assert staffer.post("/admin/api/players/add", {"name": name})[0] == 200
    assert staffer.post("/admin/api/staff/add", {"uid": "04A224B1C2D3E4", "label": "Mo"})[0] == 200
    before = (Roster(state_dir).players(), DeckRegistry(state_dir).staff())
    status, answer = staffer.post(path, body)
    assert status == 400 and words in answer["error"] and "\n" not in answer["error"], answer
    assert (Roster(state_dir).players(), DeckRegistry(state_dir).staff()) == before


def test_a_change_made_in_one_is_seen_in_the_other(office, tabletop):
    """The command line and the back office share the dashboard's state dir and functions."""
    server, _, state_dir = office
    staffer = Staffer(server)
    assert staffer.login() == 200
    done = tabletop("players", "add", "Ann", "--state-dir", str(state_dir))
    assert done.returncode == 0, done.stderr
    assert [p["name"] for p in staffer.get("/admin/api/players")[1]["players"]] == ["Ann"]
    assert staffer.post("/admin/api/players/rename", {"name": "Ann", "to": "Annie"})[0] == 200
    assert staffer.post("/admin/api/staff/add", {"uid": "04a224b1c2d3e4", "label": "Mo"}) == (
        200, {"uid": "04A224B1C2D3E4", "label": "Mo"})
    listed = json.loads(tabletop("players", "list", "--json", "--state-dir", str(state_dir)).stdout)
    assert [p["name"] for p in listed] == ["Annie"]
    assert staffer.post("/admin/api/players/card", {"uid": "04cafe01", "name": "Annie"})[1]["cards"] == ["04CAFE01"]
    listed = json.loads(tabletop("players", "list", "--json", "--state-dir", str(state_dir)).stdout)
    assert listed[0]["cards"] == ["04CAFE01"]
    staff = tabletop("deck", "staff", "list", "--json", "--state-dir", str(state_dir))
    assert [c["uid"] for c in json.loads(staff.stdout)["staff"]] == ["04A224B1C2D3E4"]
    assert tabletop("deck", "staff", "remove", "04A224B1C2D3E4", "--state-dir", str(state_dir)).returncode == 0
    assert staffer.get("/admin/api/staff") == (200, {"staff": []})
    assert staffer.post("/admin/api/staff/revoke", {"uid": "04A224B1C2D3E4"})[0] == 400


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.binary(max_size=300) | st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["name", "uid", "label", "to"]),
                                                                inner, max_size=3), max_leaves=8).map(
    lambda data: json.dumps(data).encode()),
    path=st.sampled_from(["/admin/api/players/add", "/admin/api/staff/add", "/admin/api/players/rename"]))
def test_any_body_is_taken_whole_or_refused_in_one_line(fuzzed, body, path):
    """Bytes or JSON of any shape: a 200 only for a body the command line would take, else one
    line and nothing changed; never a 500."""
    staffer, state_dir = fuzzed
    before = (Roster(state_dir).players(), DeckRegistry(state_dir).staff())
    status, answer, _ = staffer.ask("POST", path, raw=body)
    assert status in (200, 400, 413), (status, answer)
    if status != 200:
        assert answer["error"].count("\n") == 0
        assert (Roster(state_dir).players(), DeckRegistry(state_dir).staff()) == before
    for player in Roster(state_dir).players():
        assert check_name(player.name) == player.name


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    state_dir = tmp_path_factory.mktemp("fuzzed")
    server, _, _ = serve(state_dir)
    staffer = Staffer(server)
    assert staffer.login() == 200
    Roster(state_dir).add(new_player("Ann"))
    yield staffer, state_dir
    server.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=st.dictionaries(st.sampled_from(["game", "period", "from", "to", "name"]), st.text(max_size=30),
                             max_size=4),
       path=st.sampled_from(["/admin/api/leaderboard", "/admin/api/history", "/admin/api/history.csv",
                             "/admin/api/player"]))
def test_any_query_is_answered_or_refused_in_one_line(fuzzed, query, path):
    staffer, _ = fuzzed
    status, answer, _ = staffer.ask("GET", f"{path}?{urllib.parse.urlencode(query)}")
    assert status in (200, 400), (status, answer)
    if status == 400:
        assert answer["error"].count("\n") == 0


def test_the_tables_as_the_wall_screen_has_them(office):
    server, _, _ = office
    board = server.board
    for name in ("t1", "t2"):
        board.receive(table_topic(name, "online"), b"true")
        board.receive(table_topic(name, "state"), encode({
            "table": name, "at": CLOCK, "activity": "playing", "faults": {"reader": "reader unplugged"},
            "game": None}))
    board.receive(table_topic("t2", "online"), b"false")
    staffer = Staffer(server)
    assert staffer.get("/admin/api/tables")[0] == 401
    assert staffer.login() == 200
    status, seen = staffer.get("/admin/api/tables")
    assert status == 200 and [(t["name"], t["activity"], t["faults"]) for t in seen["tables"]] == [
        ("t1", "playing", ["reader unplugged"]), ("t2", "offline", ["reader unplugged"])]
    assert seen["tables"][1]["offline_since"] is not None and seen["tables"][0]["offline_since"] is None


def test_admin_is_found_with_or_without_its_slash_and_only_under_the_dashboards_names(office):
    server, _, _ = office
    staffer = Staffer(server)
    status, _, headers = staffer.ask("GET", "/admin")
    assert status in (301, 307) and headers["location"].endswith("/admin/")
    status, page = staffer.get("/admin/")
    assert status == 200 and 'id="login-form"' in page
    server.names, server.exposed = {"cafe-screen.local"}, True          # as if on the LAN
    status, _, _ = staffer.ask("POST", "/admin/api/login", {"password": PASSWORD}, csrf=False,
                               headers={"Host": "evil.example"})
    assert status == 421                                      # a DNS-rebinding page gets nothing
    assert staffer.cookie is None
