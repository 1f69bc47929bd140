"""The table's page's HTTP contract (docs/web.md), on loopback beside a simulated table:
joining, sessions, the input lines in the simulator's language, the view, the frame and its
stream, and every refusal changing nothing."""
from __future__ import annotations

import json
import queue
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.loop import Frames, run_forever
from device.sim.lines import SimInputError, SimReaderField
from device.web import joining
from device.web.serving import WebPage
from tests.device.table import SimTable
from tests.device.webpage import ask, connect, joined, parse, raw, serve


@pytest.fixture
def page(tmp_path):
    table, web = serve(tmp_path)
    yield table, web
    web.close()


def test_without_a_session_only_the_page_and_the_join_form_answer(page):
    _, web = page
    status, headers, body = ask(web, "GET", "/")
    assert status == 200 and b'id="join-form"' in body
    assert "default-src 'self'" in headers["content-security-policy"]
    for method, path, body in (("GET", "/api/screen", None), ("GET", "/api/frame.png", None),
                               ("GET", "/api/events", None),
                               ("POST", "/api/input", {"line": "press down"})):
        status, _, answer = ask(web, method, path, body)
        assert status == 401, path
        assert b"Palourde" not in answer


def test_the_code_opens_a_session_in_a_strict_http_only_cookie(page):
    _, web = page
    assert ask(web, "POST", "/api/join", {"code": "not it"})[0] == 403
    status, headers, _ = ask(web, "POST", "/api/join", {"code": web.desk.joining.code})
    cookie = headers["set-cookie"]
    assert status == 200 and "HttpOnly" in cookie and "SameSite=strict" in cookie
    status, _, body = ask(web, "GET", "/api/screen", cookie=cookie.split(";")[0])
    view = json.loads(body)
    assert status == 200 and view["rows"][0] == "Palourde" and view["highlight"] == 0


def test_five_wrong_codes_a_minute_from_an_address_then_429_even_for_the_right_one(page):
    table, web = page
    for n in range(joining.WRONG_MAX):
        assert ask(web, "POST", "/api/join", {"code": f"{n:06d}x"})[0] == 403
    assert ask(web, "POST", "/api/join", {"code": web.desk.joining.code})[0] == 429
    table.clock.advance(joining.WRONG_WINDOW_S)              # a minute later
    assert ask(web, "POST", "/api/join", {"code": web.desk.joining.code})[0] == 200


def test_a_new_game_gives_a_new_code_and_ends_the_sessions_of_the_last(page):
    table, web = page
    old_code, cookie = web.desk.joining.code, joined(web)
    table.start("palourde")                                  # the phones' game starts: kept
    assert web.desk.joining.code == old_code
    assert ask(web, "GET", "/api/screen", cookie=cookie)[0] == 200
    table.app.end_game(abandoned=True)                       # ... and ends
    table.frames.update(table.app)
    assert web.desk.joining.code != old_code
    assert ask(web, "GET", "/api/screen", cookie=cookie)[0] == 401
    assert ask(web, "POST", "/api/join", {"code": old_code})[0] == 403


def test_a_line_is_taken_as_the_simulator_takes_it_and_a_bad_one_gets_its_words(page):
    table, web = page
    cookie = joined(web)
    status, _, body = ask(web, "POST", "/api/input", {"line": "press down"}, cookie)
    assert status == 200 and json.loads(body)["screen"]["highlight"] == 1
    assert table.app.mode.screen(table.app).highlight == 1
    with pytest.raises(SimInputError) as said:
        SimReaderField(lambda word: None).parse("press sideways")
    status, _, body = ask(web, "POST", "/api/input", {"line": "press sideways"}, cookie)
    assert status == 400 and json.loads(body)["error"] == str(said.value)
    status, _, body = ask(web, "POST", "/api/input", {"line": "choose Ann"}, cookie)
    assert status == 400 and json.loads(body)["error"].startswith("no game is on")


def test_a_game_shows_its_players_scores_turn_and_whole_prompt(tmp_path):
    table = SimTable(tmp_path).start("palourde", "Ann,Bartholomew,Cy")
    table, web = serve(tmp_path, table)
    try:
        status, _, body = ask(web, "GET", "/api/screen", cookie=joined(web))
        view = json.loads(body)
        assert status == 200 and view["game"] == "palourde" and view["turn"] == "Ann"
        assert [p["name"] for p in view["players"]] == ["Ann", "Bartholomew", "Cy"]
        assert view["prompt"] and "Ann" in view["prompt"]
    finally:
        web.close()


def test_the_frame_is_the_oled_picture(page):
    table, web = page
    status, headers, body = ask(web, "GET", "/api/frame.png", cookie=joined(web))
    assert status == 200 and headers["content-type"] == "image/png"
    assert body.startswith(b"\x89PNG") and body == web.desk.latest.png()


class Events:
    """A stream's reader: each `data:` event in turn (the chunks' sizes between them skipped)."""

    def __init__(self, client) -> None:
        self.client, self.got = client, b""

    def next(self) -> dict:
        while b"data: " not in self.got or b"\n\n" not in self.got.split(b"data: ", 1)[1]:
            chunk = self.client.recv(65536)
            assert chunk, "the stream ended"
            self.got += chunk
        data, self.got = self.got.split(b"data: ", 1)[1].split(b"\n\n", 1)
        return json.loads(data)


def test_the_stream_sends_each_new_frame(page):
    _, web = page
    cookie = joined(web)
    with connect(web) as client:
        client.sendall(f"GET /api/events HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\n\r\n".encode())
        events = Events(client)
        first = events.next()
        assert first["highlight"] == 0
        assert ask(web, "POST", "/api/input", {"line": "press down"}, cookie)[0] == 200
        later = events.next()
        assert later["highlight"] == 1 and later["version"] > first["version"]


@pytest.mark.parametrize("body, kind, status", [
    (b"x" * 5000, "application/json", 413),
    (b"{not json", "application/json", 400),
    (b'{"line": "press down"}', "text/plain", 415),
    (b'{"line": "press down", "more": 1}', "application/json", 400),
    (b'{"line": ["press down"]}', "application/json", 400),
    (b'["press down"]', "application/json", 400),
])
def test_a_body_out_of_the_contract_is_refused_and_changes_nothing(page, body, kind, status):
    table, web = page
    cookie = joined(web)
    version = web.desk.latest.version
    assert ask(web, "POST", "/api/input", body, cookie, kind=kind)[0] == status
    assert web.desk.latest.version == version and table.app.mode.screen(table.app).highlight == 0


def test_a_body_said_to_be_longer_than_4_kb_is_refused_before_it_is_read(page):
    _, web = page
    status, _, _ = parse(raw(web, b"POST /api/join HTTP/1.1\r\nHost: x\r\nContent-Type: "
                                  b"application/json\r\nContent-Length: 5000000\r\n\r\n{"))
    assert status == 413


def test_on_the_table_hardware_a_card_line_is_refused_and_a_press_goes_to_the_loop(tmp_path):
    """The appliance's way: the page's line is an errand on the loop's queue."""
    table = SimTable(tmp_path)
    web = WebPage(table.app, "127.0.0.1", 0, tmp_path, clock=table.clock)
    inputs: queue.Queue = queue.Queue()
    frames = Frames()
    web.on_hardware(inputs.put, frames)
    stop = threading.Event()
    loop = threading.Thread(target=run_forever, args=(table.app, inputs, frames, table.clock, stop))
    loop.start()
    try:
        assert web.ready.wait(60) and web.url
        cookie = joined(web)
        for line in ("tap clam#1", "place basket#1", "lift", "wait 5"):
            status, _, body = ask(web, "POST", "/api/input", {"line": line}, cookie)
            assert status == 400 and "reader" in json.loads(body)["error"], line
        status, _, body = ask(web, "POST", "/api/input", {"line": "press down"}, cookie)
        assert status == 200 and json.loads(body)["screen"]["highlight"] == 1
    finally:
        stop.set()
        inputs.put(None)
        loop.join()
        web.close()


TEXT = st.text(st.characters(codec="utf-8"), max_size=60)
HEADER = st.text(st.characters(min_codepoint=32, max_codepoint=126, exclude_characters=":"),
                 min_size=1, max_size=30)


@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/api/join", "/api/input", "/api/screen", "/api/events",
                             "/api/frame.png", "/api/players", "/api/setup", "/api/nothing"]),
       method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]),
       body=st.one_of(st.binary(max_size=200), TEXT.map(str.encode),
                      st.dictionaries(TEXT, st.one_of(TEXT, st.integers(), st.none()),
                                      max_size=3).map(lambda d: json.dumps(d).encode())),
       kind=st.sampled_from(["application/json", "text/plain", "", "application/json; x=1"]),
       cookie=st.one_of(st.none(), TEXT.map(lambda t: "tabletop_session=" + t.encode(
           "ascii", "replace").decode()), HEADER),
       extra=st.lists(st.tuples(HEADER.filter(lambda h: h.strip() != ""), HEADER), max_size=3))
def test_no_request_without_a_session_gets_past_a_4xx_or_changes_anything(page, path, method,
                                                                          body, kind, cookie, extra):
    table, web = page
    version, screen = web.desk.latest.version, table.app.screen()
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close",
            f"Content-Length: {len(body)}", *(f"{name}: {value}" for name, value in extra)]
    if kind:
        head.append(f"Content-Type: {kind}")
    if cookie is not None:
        head.append(f"Cookie: {cookie}")
    status, _, _ = parse(raw(web, ("\r\n".join(head) + "\r\n\r\n").encode() + body))
    assert 400 <= status < 500
    assert web.desk.latest.version == version and table.app.screen() == screen


@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=st.one_of(TEXT, st.sampled_from(["tap", "tap nothing#9", "press", "hold up",
                                             "wait -1", "wait nan", "choose", "undo now",
                                             "press select select"])))
def test_a_line_the_simulator_refuses_is_a_400_with_its_words_and_changes_nothing(page, line):
    table, web = page
    cookie = getattr(web, "test_cookie", None) or joined(web)
    web.test_cookie = cookie                                 # type: ignore[attr-defined]
    try:
        SimReaderField(table.registry.sim_uid).parse(line)
    except SimInputError as exc:
        refused: str | None = str(exc)
    else:
        refused = None
    if refused is None:
        return                                   # a line the simulator takes: not this test's
    version, screen = web.desk.latest.version, table.app.screen()
    status, _, body = ask(web, "POST", "/api/input", {"line": line}, cookie)
    assert status == 400 and json.loads(body)["error"] == refused
    assert web.desk.latest.version == version and table.app.screen() == screen


def read_qr(image) -> list[str]:
    """The QR codes a phone's camera finds on the frame (zxing-cpp), the panel scaled up."""
    import zxingcpp
    from PIL import Image
    big = image.convert("L").resize((image.width * 4, image.height * 4), Image.NEAREST)
    return [found.text for found in zxingcpp.read_barcodes(big)]


def test_the_game_select_shows_the_address_with_the_code_as_a_qr_code_and_the_code_in_text(page):
    table, web = page
    code = web.desk.joining.code
    assert read_qr(web.desk.latest.image) == [f"{web.url}#code={code}"]
    assert read_qr(table.images[-1]) == [f"{web.url}#code={code}"]   # the simulator's picture
    table.start("palourde")
    assert read_qr(web.desk.latest.image) == []              # not over a game


def test_doctor_finds_the_running_table_page_answering_or_its_port_free(page, tmp_path):
    from dataclasses import replace

    from device.cli.doctor_web import web_check
    from device.config import Config
    from device.storage.lock import hold
    _, web = page
    config = Config()
    lock = hold(tmp_path)                                    # as the running table holds it
    try:
        found = web_check(config, tmp_path, sim=True)
        assert (found.status, found.detail) == ("OK", f"the running table's page answers at {web.url} (200)")
    finally:
        import os
        os.close(lock)
    free = web_check(replace(config, web=replace(config.web, port=0)), tmp_path, sim=True)
    assert free.status == "OK" and free.detail.startswith("it will serve on 127.0.0.1:")
    off = web_check(replace(config, web=replace(config.web, enabled=False)), tmp_path, sim=True)
    assert off.detail == "off ([web] enabled = false)"


def test_a_typed_name_joins_the_roster_checked_as_players_add_checks_it(page, tmp_path):
    from device.players.roster import Roster, RosterError, new_player
    table, web = page
    cookie = joined(web)
    status, _, body = ask(web, "POST", "/api/players", {"name": "Maximilian"}, cookie)
    assert status == 200 and json.loads(body)["players"] == ["Maximilian"]
    assert [p.name for p in Roster(tmp_path).players()] == ["Maximilian"]
    for bad in ("Maximilian", "two words", "Bartholomew-Alexander", ""):
        with pytest.raises(RosterError) as said:
            Roster(tmp_path).add(new_player(bad))
        status, _, body = ask(web, "POST", "/api/players", {"name": bad}, cookie)
        assert status == 400 and json.loads(body)["error"] == str(said.value), bad
    assert [p.name for p in Roster(tmp_path).players()] == ["Maximilian"]
    assert ask(web, "POST", "/api/players", {"name": "Ann"})[0] == 401


def test_a_name_typed_while_the_seats_are_named_is_offered_at_once(page):
    table, web = page
    cookie = joined(web)
    ask(web, "POST", "/api/players", {"name": "Ann"}, cookie)
    table.run("press down\npress select\npress select\npress select")   # L'Auberge, 2 players
    assert "Ann" in table.screen.lines and "Cy" not in table.screen.lines
    assert ask(web, "POST", "/api/players", {"name": "Cy"}, cookie)[0] == 200
    assert "Cy" in table.app.screen().lines


def test_status_gives_the_running_table_page_address(page, tmp_path, capsys):
    import os

    from device.cli import main
    from device.storage.lock import hold
    _, web = page
    assert main(["status", "--state-dir", str(tmp_path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out) is None        # no table runs on it: no page
    lock = hold(tmp_path)                                      # as the running table holds it
    try:
        assert main(["status", "--state-dir", str(tmp_path), "--json"]) == 1
        assert json.loads(capsys.readouterr().out) == {"game": None, "web": {"url": web.url}}
    finally:
        os.close(lock)


def test_the_setup_explains_the_highlighted_game_and_house_rule(page):
    table, web = page
    cookie = joined(web)
    view = json.loads(ask(web, "GET", "/api/screen", cookie=cookie)[2])
    assert view["setup"] == {"game": "Palourde", "players": [2, 5]}
    table.run("press select\npress down")                   # Palourde's first house rule
    view = json.loads(ask(web, "GET", "/api/screen", cookie=cookie)[2])
    key = table.app.mode.menu.key
    assert view["setup"]["game"] == "Palourde" and view["setup"]["rule"]
    assert f"`{key}`: {view['setup']['rule']}" in (
        Path(__file__).resolve().parents[2] / "engine/games/palourde/rules.md").read_text()
