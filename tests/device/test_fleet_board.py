"""The wall screen believes only the tables: what any broker client can send (a table named '①',
a NaN score, hundreds of invented names, future-dated games, unsigned or forged messages,
arbitrary JSON) changes nothing of what the real tables show, and the page always answers with
valid JSON. "Today" and how long things last follow the dashboard's clocks and the tables'
counts, not the tables' wall-clock dates.
"""
from __future__ import annotations

import datetime
import json
import logging
import random
import urllib.request

from hypothesis import given
from hypothesis import strategies as st

import engine
from device.fleet.dashboard.app import DashboardServer
from device.fleet.dashboard.board import MAX_FINISHED, MAX_TABLES, Board
from device.fleet.dashboard.page import page
from device.fleet.schema import MESSAGE_KEY, Drops
from device.fleet.topics import encode, table_topic
from engine.core.spec import resolve_options
from engine.core.text import catalog
from tests.device.fleet_tables import keyed_board, random_game_lines, table_signer
from tests.device.test_fleet_parts import fake_table

KEY = "cafe"                  # signed by the table's own key, enrolled by the café
EVENING = datetime.datetime(2030, 1, 2, 20, 15, tzinfo=datetime.timezone(datetime.timedelta(hours=1)))


class Clocks:
    """The dashboard's wall clock (which may jump) and its monotonic clock (which does not)."""

    def __init__(self, wall: datetime.datetime = EVENING) -> None:
        self.wall, self.mono = wall, 1000.0

    def day(self) -> str:
        return self.wall.date().isoformat()

    def clock(self) -> str:
        return self.wall.isoformat(timespec="seconds")

    def monotonic(self) -> float:
        return self.mono

    def board(self, key: str | None = None) -> Board:
        if key:
            return keyed_board(True, day=self.day, clock=self.clock, monotonic=self.monotonic)
        return Board(day=self.day, clock=self.clock, monotonic=self.monotonic)


def signed(kind: str, data: dict, key: str | None) -> bytes:
    """Unsigned (key None), signed by the table's enrolled key (KEY), or by another key."""
    if not key:
        return encode(data)
    signer = table_signer(data["table"], "" if key == KEY else key)
    return signer.seal(table_topic(data["table"], kind), data)


def iso(when: datetime.datetime) -> str:
    return when.isoformat(timespec="seconds")


def game(**changes) -> dict:
    return {"game": "palourde", "title": "Palourde", "deck": "cafe1", "step": 2, "over": False,
            "players": [{"name": "Ann", "score": 2, "out": False},
                        {"name": "Bob", "score": 0, "out": False}],
            "turn": "Bob", "winners": [], "headline": None,
            "prompt": {"id": "flip1", "text": "Bob: flip 2 cards,\ntap each", "options": []},
            "details": {"beach_down": 51}, **changes}


def state(table: str, key: str | None = KEY, *, at: datetime.datetime = EVENING,
          times: dict | None = None, **changes) -> bytes:
    return signed("state", {"table": table, "at": iso(at), "activity": "playing",
                            "display": "normal", "faults": {}, "game": game(), "times": times or {
                                "seated": iso(at), "started": iso(at), "ended": None}, **changes},
                  key)


def finished(table: str, key: str | None = KEY, *, at: datetime.datetime = EVENING,
             winners: tuple[str, ...] = ("Ann",), names: tuple[str, ...] = ("Ann", "Bob"),
             **changes) -> bytes:
    return signed("finished", {"table": table, "at": iso(at), "game": "palourde",
                               "title": "Palourde",
                               "players": [{"name": n, "score": 1, "out": False} for n in names],
                               "winners": list(winners), "headline": None, **changes}, key)


def shown(board: Board) -> dict:
    """The page as /state.json sends it: JSON any browser parses (no NaN, no Infinity)."""
    return json.loads(json.dumps(page(board.view(), "en"), allow_nan=False))


def names(board: Board) -> list[str]:
    return [t["name"] for t in shown(board)["tables"]]


# ---- the named cases ---------------------------------------------------------------------------

def test_a_table_named_with_a_circled_digit_is_dropped_and_the_page_keeps_answering(caplog):
    board = Clocks().board()
    board.receive(table_topic("table-2", "state"), state("table-2"))
    board.receive(table_topic("①", "online"), b"true")               # isdigit() yes, int() no
    board.receive(table_topic("①", "state"), state("①"))
    board.receive(table_topic("table-10", "state"), state("table-10"))
    assert names(board) == ["table-2", "table-10"]
    assert "fleet: dropped the message on 'tabletop/①/online': not a table name" in caplog.text
    server = DashboardServer(board, "127.0.0.1", 0, token=None).start()
    try:
        with urllib.request.urlopen(server.url + "state.json", timeout=30) as reply:
            assert [t["name"] for t in json.loads(reply.read())["tables"]] == ["table-2", "table-10"]
        with urllib.request.urlopen(server.url + "events", timeout=30) as stream:
            first = json.loads(stream.readline().removeprefix(b"data: "))
            assert first["counts"]["tables"] == 2
    finally:
        server.close()


def test_a_nan_score_is_dropped_and_the_table_keeps_its_last_good_state():
    board = Clocks().board()
    board.receive(table_topic("t1", "state"), state("t1"))
    for score in ("NaN", "Infinity", "-Infinity", "1e400"):
        bad = state("t1", None).replace(b'"score": 2', f'"score": {score}'.encode())
        assert score.encode() in bad
        board.receive(table_topic("t1", "state"), bad)
        board.receive(table_topic("t1", "finished"), finished("t1", None).replace(
            b'"score": 1', f'"score": {score}'.encode()))
    (t1,) = shown(board)["tables"]
    assert [p["score"] for p in t1["game"]["players"]] == [2, 0] and shown(board)["finished"] == []


def test_invented_names_never_crowd_a_real_table_off_the_board():
    board = Clocks().board()                                    # no key: a valid state is real
    board.receive(table_topic("t1", "state"), state("t1", None))
    for n in range(MAX_TABLES + 50):
        board.receive(table_topic(f"x{n}", "online"), b"true")
    assert "t1" in names(board) and len(names(board)) == MAX_TABLES
    board.receive(table_topic("t2", "state"), state("t2", None))   # a real table, late: it gets in
    assert {"t1", "t2"} <= set(names(board)) and len(names(board)) == MAX_TABLES
    signed = Clocks().board(KEY)                                # with the key: only signers count
    signed.receive(table_topic("t1", "state"), state("t1"))
    for n in range(MAX_TABLES + 50):
        signed.receive(table_topic(f"x{n}", "online"), b"true")
        signed.receive(table_topic(f"x{n}", "state"), state(f"x{n}", None))
    signed.receive(table_topic("t2", "state"), state("t2"))
    assert names(signed) == ["t1", "t2"]


def test_future_dated_finished_games_cannot_evict_a_real_one():
    clocks = Clocks()
    board = clocks.board()
    board.receive(table_topic("t1", "state"), state("t1", None))
    board.receive(table_topic("t1", "finished"), finished("t1", None))
    future = EVENING + datetime.timedelta(days=3650)
    for n in range(MAX_FINISHED + 1):                   # an invented table's, dated years ahead
        board.receive(table_topic("x", "finished"), finished("x", None, at=future, names=(f"P{n}",),
                                                             winners=(f"P{n}",)))
    games = shown(board)["finished"]
    assert len(board.view()["finished"]) == MAX_FINISHED
    assert "t1" in [g["table"] for g in board.view()["finished"]]
    assert games[0]["at"] == clocks.clock()             # a date in the future is no label


def test_unsigned_forged_and_moved_table_messages_are_dropped_with_a_key(caplog):
    clocks = Clocks()
    board = clocks.board(KEY)
    board.receive(table_topic("t1", "state"), state("t1"))
    forged = [("state", state("t1", None)), ("state", state("t1", "not-the-cafe-key")),
              ("finished", finished("t1", None)),
              ("events", signed("events", {"table": "t1", "game_id": "g1", "seq": 1},
                                "not-the-cafe-key"))]
    caplog.set_level(logging.WARNING)
    for kind, payload in forged:
        board.receive(table_topic("t1", kind), payload)
    board.receive(table_topic("t2", "state"), state("t1"))        # t1's, replayed as t2's
    (t1,) = shown(board)["tables"]
    assert t1["game"]["turn"] == "Bob" and shown(board)["finished"] == [] and t1["name"] == "t1"
    lines = [r.message for r in caplog.records if "dropped the message" in r.message]
    assert lines == ["fleet: dropped the message on 'tabletop/t1/state': unsigned"]  # then quiet
    clocks.mono += 61
    board.receive(table_topic("t1", "state"), state("t1", "not-the-cafe-key"))
    assert [r.message for r in caplog.records if "dropped" in r.message][-1] == (
        "fleet: dropped the message on 'tabletop/t1/state': badly signed (and 4 more since)")


def test_drops_are_logged_at_most_once_a_minute(caplog):
    now = [0.0]
    drops = Drops(lambda: now[0])
    for second in range(0, 200, 10):
        now[0] = float(second)
        drops.drop("tabletop/x/state", "not JSON")
    assert len([r for r in caplog.records if "dropped" in r.message]) == 4      # 0, 60, 120, 180


def test_the_largest_board_stays_small():
    """A state padded to 234 kB from each of 250 names: the board keeps only what a table sends
    and its parser bounds, and 256 tables at the most a table can send make a small page."""
    board = Clocks().board()
    padding = "x" * 234_000
    for n in range(250):
        board.receive(table_topic(f"t{n}", "state"), state(f"t{n}", None, padding=padding))
    big = len(json.dumps(page(board.view(), "en"), allow_nan=False))
    assert len(names(board)) == 250 and big < 1_000_000, big
    longest = "W" * 64
    seats = [{"name": f"{longest[:62]}{n:02d}", "score": -10**9, "out": True} for n in range(16)]
    fullest = game(title="T" * 64, players=seats, turn=seats[0]["name"],
                   winners=[s["name"] for s in seats], headline="H" * 400,
                   prompt={"text": "P" * 400})
    for n in range(MAX_TABLES):
        board.receive(table_topic(f"t{n}", "state"), state(f"t{n}", None, game=fullest,
                                                           faults={f"p{k}": "F" * 400 for k in range(12)}))
    size = len(json.dumps(page(board.view(), "en"), allow_nan=False).encode())
    assert len(names(board)) == MAX_TABLES and size < 3_000_000, size     # 2.3 MB


# ---- today and how long: the dashboard's clocks and the tables' counts --------------------------

def test_today_is_when_the_dashboard_received_the_game_whatever_the_tables_date():
    clocks = Clocks()
    board = clocks.board(KEY)
    board.receive(table_topic("t1", "state"), state("t1"))
    last_year = EVENING - datetime.timedelta(days=366)      # a table whose clock lost a year
    board.receive(table_topic("t1", "finished"), finished("t1", at=last_year))
    assert [g["at"] for g in shown(board)["finished"]] == [iso(last_year)]     # its label
    for hours in (3, -3):                                   # our clock moves within the day
        clocks.wall = EVENING + datetime.timedelta(hours=hours)
        assert len(shown(board)["finished"]) == 1
    clocks.wall = EVENING + datetime.timedelta(days=1)      # tomorrow: no longer today's
    assert shown(board)["finished"] == []
    clocks.wall = EVENING + datetime.timedelta(days=365)    # a year on: the same
    board.receive(table_topic("t1", "finished"), finished("t1", at=EVENING, winners=("Bob",)))
    (today,) = shown(board)["finished"]
    assert today["winners"] == ["Bob"] and today["at"] == iso(EVENING)


def test_time_at_the_table_follows_the_tables_count_and_our_monotonic_clock():
    clocks = Clocks()
    board = clocks.board(KEY)
    seated = EVENING - datetime.timedelta(minutes=30)
    times = {"seated": iso(seated), "started": iso(EVENING), "ended": None, "elapsed": 600}
    board.receive(table_topic("t1", "state"), state("t1", times=times))

    def lasted() -> tuple[int, int]:
        t1 = shown(board)["tables"][0]["times"]
        return t1["game_s"], t1["seated_s"]
    assert lasted() == (600, 600)
    for jump in (datetime.timedelta(hours=5), datetime.timedelta(hours=-5),
                 datetime.timedelta(days=365), datetime.timedelta(days=-365)):
        clocks.wall = EVENING + jump                        # the wall clock jumps: nothing moves
        assert lasted() == (600, 600)
    clocks.wall = EVENING
    clocks.mono += 120                                      # two minutes pass
    assert lasted() == (720, 720)
    board.receive(table_topic("t1", "state"), state("t1", times={**times, "elapsed": 730}))
    assert lasted() == (730, 720)                          # the same sitting: our anchor holds
    over = {**times, "ended": iso(EVENING), "elapsed": 735}
    board.receive(table_topic("t1", "state"), state("t1", times=over, activity="over"))
    clocks.mono += 600
    assert lasted() == (735, 1320)                          # the game stopped, the sitting goes on
    board.receive(table_topic("t2", "state"), state("t2"))  # an older table: no count
    assert shown(board)["tables"][1]["times"] == {
        "seated": iso(EVENING), "started": iso(EVENING), "ended": None,
        "game_s": None, "seated_s": None}


def test_a_finished_games_length_is_its_count_and_a_corrected_clock_is_no_label():
    clocks = Clocks()
    board = clocks.board(KEY)
    board.receive(table_topic("t1", "state"), state("t1"))
    early = EVENING - datetime.timedelta(hours=7)
    board.receive(table_topic("t1", "finished"), finished("t1", at=early, seconds=1500,
                                                          clock_corrected=True))
    (game,) = shown(board)["finished"]
    assert (game["seconds"], game["at"]) == (1500, clocks.clock())


def test_the_leaderboard_counts_wins_per_player_over_todays_games():
    clocks = Clocks()
    board = clocks.board(KEY)
    for table, winners, players in (("t1", ("Ann",), ("Ann", "Bob")), ("t2", ("Bob", "Cy"), ("Bob", "Cy")),
                                    ("t1", ("Ann",), ("Ann", "Dee")), ("t2", (), ("Eve", "Cy"))):
        board.receive(table_topic(table, "state"), state(table))
        board.receive(table_topic(table, "finished"), finished(table, winners=winners, names=players))
    leaders = [(p["name"], p["wins"], p["games"], p["wins_words"]) for p in shown(board)["leaders"]]
    assert leaders == [("Ann", 2, 2, "2 wins"), ("Bob", 1, 2, "1 win"), ("Cy", 1, 2, "1 win"),
                       ("Dee", 0, 1, "0 wins"), ("Eve", 0, 1, "0 wins")]
    clocks.wall += datetime.timedelta(days=1)
    assert shown(board)["leaders"] == []


# ---- anything at all ------------------------------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) |
                    st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=20)
FIELDS = st.sampled_from(["activity", "game", "players", "score", "name", "winners", "times",
                          "elapsed", "seconds", "seq", "game_id", "at", "started", "said", "faults",
                          "table", "schema", "sig", "title", "turn", "over"])
KINDS = st.sampled_from(["state", "finished", "events", "online"])


@st.composite
def hostile(draw) -> tuple[str, bytes]:
    """A topic (a real table's, or any unicode name) and a payload: a table's message with
    fields replaced by anything (signed with the café's key or not), any JSON, or any bytes."""
    name = draw(st.sampled_from(["t1", "t2"]) | st.text(min_size=1, max_size=8))
    kind = draw(KINDS)
    what = draw(st.integers(0, 2))
    if what == 0:
        base = json.loads(state(name, None) if kind != "finished" else finished(name, None))
        base.update(draw(st.dictionaries(FIELDS, JSON, max_size=3)))
        game_part = base.get("game")
        if isinstance(game_part, dict):
            game_part.update(draw(st.dictionaries(FIELDS, JSON, max_size=3)))
        if draw(st.booleans()):
            try:
                payload = table_signer(name).seal(f"tabletop/{name}/{kind}", base)
            except ValueError:                  # NaN, or a lone surrogate: no JSON to sign
                payload = json.dumps(base, allow_nan=True).encode()
        else:
            payload = json.dumps(base, allow_nan=True).encode()
    elif what == 1:
        payload = json.dumps(draw(JSON), allow_nan=True).encode()
    else:
        payload = draw(st.binary(max_size=40))
    return f"tabletop/{name}/{kind}", payload


@given(st.lists(hostile(), max_size=12), st.sampled_from([None, KEY]))
def test_any_message_leaves_the_page_valid_json_and_every_real_table_on_it(messages, key):
    clocks = Clocks()
    board = clocks.board(key)
    real = ("t1", "t2")
    for table in real:
        board.receive(table_topic(table, "state"), state(table, key))
    for topic, payload in messages:
        board.receive(topic, payload)
        clocks.mono += 1
    page_now = shown(board)                          # allow_nan=False: raises on NaN
    assert set(real) <= {t["name"] for t in page_now["tables"]}
    assert all(t["name"].isascii() for t in page_now["tables"])


def test_every_game_a_table_plays_passes_the_parser_signed(tmp_path, caplog):
    """What a real table sends, in every game, to its end: all of it fits, nothing is dropped."""
    for n, spec in enumerate(engine.all_specs()):
        low, high = spec.player_range(resolve_options(spec.options, {}))
        table, link = fake_table(tmp_path / spec.id, f"t{n}")
        table.start(spec.id, ["Ann", "Bob", "Cy", "Dee"][:max(low, min(3, high))])
        table.play(random_game_lines(table.app, random.Random(n), 1000))
        assert spec.result(table.app.session.state) is not None, spec.id
        while table.app.overlay is not None:
            table.play(["press back"])                          # the last messages read
        table.play(["press select", "wait 1"])                 # leave the result: finished
        board = Clocks().board(KEY)
        for topic, payload, _ in link.sent:
            board.receive(topic, json.dumps(payload).encode())
        assert [t["name"] for t in shown(board)["tables"]] == [f"t{n}"], spec.id
        assert len(link.of("finished")) == len(shown(board)["finished"]) == 1, spec.id
    assert "dropped" not in caplog.text
    assert all(MESSAGE_KEY.fullmatch(k) for language in ("en", "fr") for k in catalog(language))


def test_an_older_table_without_words_shows_its_own_texts():
    board = Clocks().board()
    board.receive(table_topic("t1", "state"), state("t1", None, game=game(headline="Ann wins")))
    board.receive(table_topic("t1", "finished"), finished("t1", None, headline="Ann wins"))
    t1, done = shown(board)["tables"][0], shown(board)["finished"][0]
    assert (t1["game"]["prompt"], t1["game"]["headline"]) == ("Bob: flip 2 cards,\ntap each", "Ann wins")
    assert done["headline"] == "Ann wins"
