"""Each table's OLED and software version reach the café: the frame the players see, packed one
bit a pixel in the table's signed state, at most a few a second however fast the presses come,
the last one of a flurry always; a state with anything else for a screen is refused whole."""
from __future__ import annotations

import base64
import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.fleet import schema
from device.fleet.dashboard.board import Board
from device.fleet.plugin import FleetPlugin
from device.fleet.screen_feed import PACKED_BYTES, SCREEN_EVERY_S, packed
from device.fleet.topics import decode, encode, table_topic
from device.inputs import Tick
from device.install.distribution import version
from device.ui.render import render
from hardware.events import ButtonPressed
from tests.device.backoffice_client import Staffer, serve
from tests.device.fleet_tables import CafeTable, settings_for
from tests.device.mosquitto import running_broker
from tests.device.test_fleet import dashboard_feed
from tests.device.test_fleet_dashboard import CLOCK

WAIT_S = 30.0
NOW = datetime.datetime.fromisoformat(CLOCK)


class Kept:
    """A link that keeps what the table publishes (the broker's side is tested below)."""

    refused = unreachable = offline = None

    def __init__(self) -> None:
        self.sent: list[tuple[str, bytes]] = []

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.sent.append((topic, payload))

    def check(self) -> None:
        pass

    def close(self, flush_s: float = 0) -> bool:
        return True

    def screens(self) -> list[str]:
        return [decode(payload)["screen"] for topic, payload in self.sent if topic.endswith("/state")]


def shown(table: CafeTable) -> str:
    return packed(render(table.app.screen()))


def kept_table(tmp_path) -> tuple[CafeTable, Kept]:
    table, link = CafeTable(tmp_path, "t1", None), Kept()
    table.plugin = FleetPlugin(link, "t1", table.clock.wall, monotonic=table.clock.monotonic)
    table.app.attach(table.plugin)
    table.start("palourde", ["Ann", "Bob"])
    return table, link


def test_a_flurry_of_presses_sends_a_few_frames_a_second_and_its_last_one(tmp_path):
    table, link = kept_table(tmp_path)
    table.plugin.after_input(table.app)
    before = len(set(link.screens()))
    for n in range(20):                                 # 20 presses in one second
        table.app.handle(ButtonPressed("down" if n % 2 else "up"))
        table.clock.advance(0.05)
    drawn = len(set(link.screens())) - before
    assert 1 <= drawn <= 1 / SCREEN_EVERY_S + 1
    table.app.handle(ButtonPressed("down"))
    table.clock.advance(SCREEN_EVERY_S)
    table.app.handle(Tick())                            # the next tick after the pause
    assert link.screens()[-1] == shown(table)
    assert len(base64.b64decode(link.screens()[-1])) == PACKED_BYTES
    assert decode(link.sent[-1][1])["version"] == version()


def test_the_frame_is_the_oled_bit_for_bit(tmp_path):
    table, link = kept_table(tmp_path)
    table.plugin.after_input(table.app)
    bits = base64.b64decode(link.screens()[-1])
    image = render(table.app.screen())
    lit = {(x, y) for y in range(64) for x in range(128) if image.getpixel((x, y))}
    assert lit and lit == {(x, y) for y in range(64) for x in range(128)
                           if bits[y * 16 + x // 8] >> (7 - x % 8) & 1}


def test_the_board_gets_each_tables_screen_and_version_over_mosquitto(tmp_path):
    with running_broker(tmp_path) as broker:
        board = Board()
        feed = dashboard_feed(broker, board)
        table = CafeTable(tmp_path / "t1", "table-1", settings_for(broker))
        try:
            table.start("palourde", ["Ann", "Bob"])
            table.play(["press down", "wait 1"])
            want = shown(table)

            def arrived(view) -> bool:
                state = next((t["state"] for t in view["tables"] if t["name"] == "table-1"), None)
                return state is not None and state.get("screen") == want
            view = board.view()
            while not arrived(view):
                assert board.wait(view["version"], WAIT_S), broker.log[-1500:]
                view = board.view()
            (seen,) = view["tables"]
            assert seen["state"]["version"] == version()
        finally:
            table.link.close(flush_s=0)
            feed.close(flush_s=0)


def state_with(table: str = "t1", **fields) -> bytes:
    return encode({"table": table, "at": CLOCK, "activity": "idle", "game": None, "faults": {},
                   **fields})


@pytest.mark.parametrize("screen", [
    "", "AAAA", base64.b64encode(bytes(PACKED_BYTES - 1)).decode(), 12, ["x"],
    base64.b64encode(bytes(PACKED_BYTES)).decode()[:-4] + "!!!!", "A" * 100_000])
def test_a_state_with_anything_else_for_a_screen_is_refused_and_changes_nothing(screen):
    board = Board()
    board.receive(table_topic("t1", "state"), state_with(screen=None, version="1.0"))
    before = board.view()["tables"]
    board.receive(table_topic("t1", "state"), state_with(screen=screen))
    assert board.view()["tables"] == before


@given(st.one_of(st.text(max_size=3000), st.binary(max_size=1100).map(
    lambda b: base64.b64encode(b).decode()), st.integers(), st.none()))
def test_any_screen_is_taken_whole_or_refused(screen):
    try:
        taken = schema.state(decode(state_with(screen=screen)), NOW)["screen"]
    except schema.Refused:
        return
    assert taken is None or len(base64.b64decode(taken, validate=True)) == PACKED_BYTES


def test_the_back_office_lists_each_tables_version_and_screen(tmp_path):
    server, _, _ = serve(tmp_path)
    try:
        frame = base64.b64encode(bytes([0x80] * PACKED_BYTES)).decode()
        server.board.receive(table_topic("t1", "state"), state_with(screen=frame, version="0.9.1"))
        server.board.receive(table_topic("t2", "state"), state_with("t2"))     # an older table
        staffer = Staffer(server)
        assert staffer.login() == 200
        status, seen = staffer.get("/admin/api/tables")
        assert status == 200 and [(t["name"], t["version"], t["screen"]) for t in seen["tables"]] == [
            ("t1", "0.9.1", frame), ("t2", None, None)]
    finally:
        server.close()
