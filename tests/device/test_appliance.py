"""The appliance survives parts that are missing at start and come back later."""
from __future__ import annotations

from device.parts import Unavailable
from device.service import Service
from device.ui.layout import layout
from hardware.events import Placed, ReaderBack, ReaderCrowded, ReaderOffline
from hardware.fake_rc522 import FakeCard, FakeMFRC522
from hardware.presence import Presence
from hardware.rc522 import RC522
from hardware.reader_loop import ReaderLoop
from hardware.sim import SimReader
from tests.device.table import SimTable


def test_a_reader_missing_at_start_is_retried_until_it_answers():
    attempts = []
    real = SimReader()
    real.place("04A1B2C3")

    def opener():
        attempts.append(1)
        if len(attempts) < 4:
            raise FileNotFoundError("no /dev/spidev0.0")
        return real

    events = []
    loop = ReaderLoop(Unavailable("not opened", opener), events.append, offline_after=3,
                      presence=Presence(misses=1, clock=lambda: 0.0))
    waits = [loop.step() for _ in range(5)]
    assert isinstance(events[0], ReaderOffline) and "spidev" in events[0].reason
    assert isinstance(events[1], ReaderBack)
    assert events[2] == Placed("04A1B2C3")
    assert waits[0] < waits[1] < waits[2]          # backing off while it is missing


def test_watchdog_pings_at_half_the_period_and_only_under_systemd(tmp_path):
    import socket
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(path)
        now = [0.0]
        service = Service({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000"}, clock=lambda: now[0])
        service.ready()
        for t in (0.0, 1.0, 4.9, 5.0, 9.0, 10.1):
            now[0] = t
            service.alive()
        assert service.sent == ["READY=1", "WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1"]
        assert sock.recv(64) == b"READY=1"
    assert Service({}).sent == [] and Service({}).interval is None


def test_the_appliance_reader_reports_every_card_of_an_rc522():
    chip = FakeMFRC522()
    for uid in ("04A22B91", "04A22B92"):
        chip.place(FakeCard(uid))
    events = []
    reader = Unavailable("not opened", lambda: RC522(chip, sleep=chip.sleep))
    loop = ReaderLoop(reader, events.append, presence=Presence(misses=1, clock=lambda: 0.0))
    loop.step()
    assert sorted(events, key=lambda event: event.uid) == [Placed("04A22B91"), Placed("04A22B92")]


def test_cards_the_reader_cannot_tell_apart_ask_for_one_card_at_a_time(tmp_path):
    table = SimTable(tmp_path).start("palourde")
    table.app.handle(ReaderCrowded())
    assert table.screen.header_right == "One card!"        # its short form: the name stays whole
    assert layout(table.screen).header == "PALOURDE    One card!"
    table.run("press down")
    assert table.screen.header_right != "One card!"


def test_one_card_at_a_time_in_french(tmp_path):
    table = SimTable(tmp_path, language="fr").start("palourde")
    table.app.handle(ReaderCrowded())
    assert table.screen.header_right == "1 carte\u00a0!"
    assert layout(table.screen).header == "PALOURDE    1 carte\u00a0!"
