"""Which Pi, from its device tree: the PN532's default UART and the GPIO chip."""
from __future__ import annotations

import pytest

from device.config import Config
from hardware import board


def machine(tmp_path, model: bytes | None, *chips: str):
    if model is not None:
        (tmp_path / "proc" / "device-tree").mkdir(parents=True)
        (tmp_path / "proc" / "device-tree" / "model").write_bytes(model)
    (tmp_path / "dev").mkdir(parents=True)
    for chip in chips:
        (tmp_path / "dev" / chip).touch()
    return tmp_path


@pytest.mark.parametrize("model, uart", [
    ("Raspberry Pi 5 Model B Rev 1.0", "/dev/ttyAMA0"),
    ("Raspberry Pi 500 Rev 1.0", "/dev/ttyAMA0"),
    ("Raspberry Pi Compute Module 5 Rev 1.0", "/dev/ttyAMA0"),
    ("Raspberry Pi 4 Model B Rev 1.5", "/dev/serial0"),
    ("Raspberry Pi 400 Rev 1.0", "/dev/serial0"),
    ("Raspberry Pi Zero 2 W Rev 1.0", "/dev/serial0"),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", "/dev/serial0"),
    ("Raspberry Pi Compute Module 4 Rev 1.0", "/dev/serial0"),
    ("", "/dev/serial0"),                                  # off a Pi
])
def test_the_header_uart_by_model(model, uart):
    assert board.header_uart(model) == uart


def test_the_model_file_ends_in_a_nul(tmp_path):
    root = machine(tmp_path, b"Raspberry Pi 5 Model B Rev 1.0\0")
    assert board.model(root) == "Raspberry Pi 5 Model B Rev 1.0"
    assert board.default_uart(root) == "/dev/ttyAMA0"


def test_off_a_pi_there_is_no_model(tmp_path):
    root = machine(tmp_path, None)
    assert board.model(root) == "" and board.default_uart(root) == "/dev/serial0"


def test_the_gpio_chip_is_the_pi5s_where_its_name_is_there(tmp_path):
    assert board.gpio_chip(machine(tmp_path / "old", None, "gpiochip0")) == "/dev/gpiochip0"
    assert board.gpio_chip(machine(tmp_path / "pi5", None, "gpiochip0", "gpiochip4")) == \
        "/dev/gpiochip4"


def test_the_config_default_is_the_uart_of_the_pi_it_runs_on(monkeypatch):
    monkeypatch.setattr(board, "model", lambda root=None: "Raspberry Pi 5 Model B Rev 1.1")
    assert Config().reader.serial_port == "/dev/ttyAMA0"
    monkeypatch.setattr(board, "model", lambda root=None: "Raspberry Pi 4 Model B Rev 1.5")
    assert Config().reader.serial_port == "/dev/serial0"
