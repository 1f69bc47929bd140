"""The optional mfrc522 package as a backend and as the bench's peer, on the fake chip.

Fake RPi.GPIO and spidev modules go into sys.modules, and the package is
imported afresh against them: its real RPi.GPIO refuses to import off a Pi.
"""
from __future__ import annotations

import importlib.abc
import importlib.util
import logging
import sys

import pytest

from hardware.errors import ReaderError
from hardware.fake_rc522 import CHIP_MODELS, FakeCard, FakeMFRC522
from hardware.iso14443 import FieldScan
from hardware.mfrc522_backend import load_mfrc522, open_mfrc522
from hardware.mfrc522_peer import run_read_loop
from tests.hardware.fakes.rpi_modules import fake_modules

needs_package = pytest.mark.skipif(
    importlib.util.find_spec("mfrc522") is None,
    reason="the optional mfrc522 package is not installed (pip install mfrc522==0.0.7)")

CLASSIC = "04A22B91"


def evict(monkeypatch, *prefixes):
    for name in [n for n in sys.modules if n.split(".")[0] in prefixes]:
        monkeypatch.delitem(sys.modules, name)


@pytest.fixture(params=CHIP_MODELS, ids=lambda model: model.__name__)
def chip(monkeypatch, request):
    chip = request.param()
    evict(monkeypatch, "mfrc522")
    modules = fake_modules(chip)
    for name, module in modules.items():
        monkeypatch.setitem(sys.modules, name, module)
    chip.gpio, chip.spidev = modules["RPi.GPIO"], modules["spidev"]
    yield chip
    for name in [n for n in sys.modules if n.split(".")[0] == "mfrc522"]:
        del sys.modules[name]          # imported against the fakes: not for later tests


@needs_package
def test_reads_a_four_byte_uid_with_bcm_numbering(chip):
    reader = open_mfrc522(0, 0, reset_pin=25)
    chip.place(FakeCard(CLASSIC))
    assert reader.poll() == CLASSIC
    assert ("setmode", 11) in chip.gpio.calls and ("setup", 25, 0) in chip.gpio.calls
    assert chip.spidev.devices[0].opened == (0, 0)


@needs_package
def test_a_card_held_on_it_answers_every_other_poll(chip):
    reader = open_mfrc522(reset_pin=25)
    chip.place(FakeCard(CLASSIC))
    assert [reader.poll() for _ in range(4)] == [CLASSIC, None, CLASSIC, None]


@needs_package
def test_a_seven_byte_uid_is_refused_not_truncated(chip, caplog):
    reader = open_mfrc522(reset_pin=25)
    chip.place(FakeCard("04112233445566"))
    with caplog.at_level(logging.WARNING, logger="hardware.mfrc522_backend"):
        assert reader.poll() is None
        reader.poll()
        assert reader.poll() is None
    assert len([r for r in caplog.records if "7- or 10-byte" in r.message]) == 1


@needs_package
def test_an_empty_poll_spins_on_the_chip(chip):
    reader = open_mfrc522(reset_pin=25)
    before = chip.transfers
    assert reader.poll() is None
    assert chip.transfers - before > 2000      # it ignores the chip's timer interrupt


@needs_package
def test_close_releases_only_its_own_pin(chip):
    reader = open_mfrc522(reset_pin=25)
    reader.close()
    assert chip.gpio.calls[-1] == ("cleanup", 25)
    assert not chip.field_on and chip.closed


@needs_package
def test_board_numbering_set_elsewhere_is_refused(chip):
    chip.gpio.setmode(chip.gpio.BOARD)
    with pytest.raises(ReaderError, match="BOARD"):
        open_mfrc522(reset_pin=25)


def test_a_missing_package_is_explained(monkeypatch):
    monkeypatch.setitem(sys.modules, "mfrc522", None)
    with pytest.raises(ReaderError, match=r"tabletop-companion\[mfrc522\]"):
        load_mfrc522()


class RefusingFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """RPi.GPIO as it behaves off a Pi: importing it raises RuntimeError."""

    def find_spec(self, name, path=None, target=None):
        if name == "RPi.GPIO":
            return importlib.util.spec_from_loader(name, self)
        return None

    def exec_module(self, module):
        raise RuntimeError("This module can only be run on a Raspberry Pi!")


@needs_package
def test_rpi_gpio_refusing_the_machine_is_explained(monkeypatch):
    evict(monkeypatch, "mfrc522", "RPi")
    monkeypatch.setattr(sys, "meta_path", [RefusingFinder(), *sys.meta_path])
    with pytest.raises(ReaderError, match="cannot run on this machine.*Raspberry Pi"):
        load_mfrc522()
    for name in [n for n in sys.modules if n.split(".")[0] in ("mfrc522", "RPi")]:
        monkeypatch.delitem(sys.modules, name)


class StepClock:
    def __init__(self, step):
        self.now, self.step = 0.0, step

    def __call__(self):
        self.now += self.step
        return self.now


@needs_package
def test_the_peer_read_loop_runs_for_a_fixed_time_without_touching_real_modules():
    chip = FakeMFRC522()
    real = {name: sys.modules.get(name) for name in ("RPi", "RPi.GPIO", "spidev")}
    run = run_read_loop(chip, 1.0, clock=StepClock(0.125))
    assert (run.attempts, run.reads, run.wall_s) == (7, 0, 1.0)
    assert chip.transfers > 7 * 2000
    assert {name: sys.modules.get(name) for name in real} == real
    chip.place(FakeCard(CLASSIC))
    assert run_read_loop(chip, 1.0, clock=StepClock(0.125)).reads == 4   # every other attempt


@needs_package
def test_two_cards_collide_and_are_reported_as_cards_it_cannot_tell_apart(chip):
    reader = open_mfrc522(reset_pin=25)
    chip.place(FakeCard(CLASSIC))
    chip.place(FakeCard("04A22B92"))
    assert reader.poll_all() == FieldScan((), unresolved=True)
    assert reader.poll() is None
