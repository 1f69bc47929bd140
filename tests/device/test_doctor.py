"""`tabletop doctor` on the simulated parts, on broken configs, and on faked real parts."""
from __future__ import annotations

from collections import namedtuple
from pathlib import Path

import pytest

import engine
from device import parts as appliance
from device.cli import doctor_checks, main
from device.decks.registry import DeckRegistry
from device.decks.simulated import sim_uid
from hardware.errors import DisplayError, ReaderError
from tests.hardware.fakes.gpio import ButtonFactory, FakeTime


def doctor(capsys, *args: str) -> tuple[int, list[str]]:
    code = main(["doctor", *args])
    return code, capsys.readouterr().out.splitlines()


def found(lines: list[str], status: str, name: str) -> list[str]:
    return [line for line in lines if line.split()[:2] == [status, name]]


@pytest.fixture(autouse=True)
def machine(tmp_path, monkeypatch):
    """The machine's files in a folder (off a Pi until a test writes its model) and mock
    GPIO pins with push buttons on them, so no test reaches the real ones."""
    from gpiozero import Device
    root = tmp_path / "machine"
    (root / "proc" / "device-tree").mkdir(parents=True)
    (root / "dev").mkdir()
    monkeypatch.setattr(doctor_checks, "ROOT", root)
    saved, Device.pin_factory = Device.pin_factory, ButtonFactory(FakeTime(), debounce=False)
    yield root
    Device.pin_factory.close()
    Device.pin_factory.reset()
    Device.pin_factory = saved


def pi(root, model: str, *chips: str) -> None:
    (root / "proc" / "device-tree" / "model").write_bytes(model.encode() + b"\0")
    for chip in chips:
        (root / "dev" / chip).touch()


@pytest.fixture
def config(tmp_path):
    def write(text: str):
        path = tmp_path / "config.toml"
        path.write_text(text)
        return str(path)
    return write


def test_the_simulated_table_is_ready(tmp_path, capsys, config):
    code, lines = doctor(capsys, "--sim", "--config", config(""), "--state-dir", str(tmp_path))
    assert code == 0 and lines[-1] == "Ready to play."
    assert not [line for line in lines if not line.startswith("OK") and line != lines[-1]]
    assert found(lines, "OK", "reader") and found(lines, "OK", "display")
    assert len(found(lines, "OK", "decks")) == len(engine.all_specs())   # one a game, sim decks complete


def test_a_refused_game_plugin_is_a_warning_and_the_table_still_plays(tmp_path, capsys, config,
                                                                     monkeypatch):
    refused = "game plug-in x9 refused: game x9: no texts in fr"
    monkeypatch.setattr(engine, "problems", lambda: (refused,))
    code, lines = doctor(capsys, "--sim", "--config", config(""), "--state-dir", str(tmp_path))
    assert code == 0 and refused in found(lines, "WARN", "games")[0]


def test_a_config_that_does_not_load_fails_and_names_the_key(tmp_path, capsys, config):
    path = config('[reader]\nkind = "rc523"\n')
    code, lines = doctor(capsys, "--sim", "--config", path, "--state-dir", str(tmp_path))
    assert code == 1
    assert "reader.kind" in found(lines, "FAIL", "config")[0]
    assert found(lines, "WARN", "parts")                 # the parts were not guessed at


def test_a_pin_used_twice_fails(tmp_path, capsys, config):
    code, lines = doctor(capsys, "--sim", "--config", config("[buttons]\nup = 2\n"),
                         "--state-dir", str(tmp_path))
    assert code == 1 and "buttons.up" in found(lines, "FAIL", "config")[0]


def test_an_unknown_key_is_named_with_its_nearest(tmp_path, capsys, config):
    code, lines = doctor(capsys, "--sim", "--config", config("[kiosk]\nenable = true\n"),
                         "--state-dir", str(tmp_path))
    assert code == 1 and "did you mean kiosk.enabled" in found(lines, "FAIL", "config")[0]


def test_an_incomplete_deck_and_a_broken_deck_file(tmp_path, capsys, config):
    registry = DeckRegistry(tmp_path)
    registry.add_tag("cafe1", "palourde", sim_uid("x", "1"), "clam#1")
    (tmp_path / "decks" / "torn.toml").write_text("deck = \n")
    code, lines = doctor(capsys, "--sim", "--config", config(""), "--state-dir", str(tmp_path))
    assert code == 1 and "torn.toml" in found(lines, "FAIL", "decks")[0]
    assert not [line for line in found(lines, "WARN", "decks") if "cafe1" in line]  # sim's is
    sim_parts = config('[reader]\nkind = "sim"\n[display]\nkind = "sim"\n')
    code, lines = doctor(capsys, "--config", sim_parts, "--state-dir", str(tmp_path))
    cafe = [line for line in found(lines, "WARN", "decks") if "cafe1" in line]
    [line] = [line for line in cafe if "palourde:" in line]      # other games may play the deck
    assert "palourde: deck cafe1 misses 58 cards" in line
    assert "tabletop deck learn palourde --deck cafe1" in line


def test_little_free_space_fails(tmp_path, capsys, config, monkeypatch):
    Usage = namedtuple("Usage", "total used free")
    monkeypatch.setattr(doctor_checks.shutil, "disk_usage", lambda path: Usage(0, 0, 5 << 20))
    code, lines = doctor(capsys, "--sim", "--config", config(""), "--state-dir", str(tmp_path))
    assert code == 1 and "5 MB free" in found(lines, "FAIL", "state")[0]


# ---- the real parts, faked -----------------------------------------------------------------

class Chip:
    version = 0x92

    def poll(self):
        return None

    def close(self) -> None:
        pass


class Panel:
    ok, last_error = True, None

    def show(self, image) -> None:
        pass

    def close(self, paused_image=None) -> None:
        pass


@pytest.fixture
def real(monkeypatch, tmp_path):
    """Device nodes in tmp_path (the SPI one missing), a working chip and panel."""
    (tmp_path / "i2c-1").touch()
    (tmp_path / "gpiochip0").touch()
    monkeypatch.setattr(doctor_checks, "nodes", lambda config: [
        (str(tmp_path / "spidev0.0"), "spi"), (str(tmp_path / "i2c-1"), "i2c"),
        (str(tmp_path / "gpiochip0"), "gpio")])
    monkeypatch.setattr(doctor_checks, "service_running", lambda: False)
    monkeypatch.setattr(appliance, "open_reader_now", lambda config: Chip())
    monkeypatch.setattr(appliance, "open_panel", lambda config: Panel())
    return monkeypatch


def test_real_parts_missing_node_and_self_tests(tmp_path, capsys, config, real):
    code, lines = doctor(capsys, "--config", config(""), "--state-dir", str(tmp_path / "state"))
    assert code == 1
    missing = found(lines, "FAIL", "device")
    assert len(missing) == 1
    assert "spidev0.0 is missing  -> sudo raspi-config nonint do_spi 0" in missing[0]
    assert len(found(lines, "OK", "device")) == 2
    assert "RC522 (version 0x92) answers (no card on it)" in found(lines, "OK", "reader")[0]
    assert "ssd1306 on I2C 1 at 0x3C answers" in found(lines, "OK", "display")[0]


def test_real_parts_that_do_not_answer(tmp_path, capsys, config, real):
    def dead(config):
        raise ReaderError("no RC522 answers on SPI (VersionReg reads 0x00): check the wiring")

    def absent(config):
        raise DisplayError("I2C device not found: /dev/i2c-1. Enable I2C")

    real.setattr(appliance, "open_reader_now", dead)
    real.setattr(appliance, "open_panel", absent)
    code, lines = doctor(capsys, "--config", config(""), "--state-dir", str(tmp_path / "state"))
    assert code == 1
    assert "VersionReg reads 0x00" in found(lines, "FAIL", "reader")[0]
    assert "Enable I2C" in found(lines, "FAIL", "display")[0]


def test_a_running_service_keeps_its_parts(tmp_path, capsys, config, real):
    real.setattr(doctor_checks, "service_running", lambda: True)
    code, lines = doctor(capsys, "--config", config(""), "--state-dir", str(tmp_path / "state"))
    assert "systemctl stop tabletop" in found(lines, "WARN", "parts")[0]
    assert not found(lines, "OK", "reader") and not found(lines, "FAIL", "reader")


def test_a_user_outside_the_groups_is_told_how_to_join(tmp_path, capsys, config, real):
    real.setattr(doctor_checks.os, "geteuid", lambda: 1000)
    real.setattr(doctor_checks.os, "getgroups", lambda: [])
    real.setattr(doctor_checks, "user", lambda: "pi")
    real.setattr(doctor_checks.grp, "getgrnam", lambda name: namedtuple("G", "gr_gid")(900))
    code, lines = doctor(capsys, "--config", config(""), "--state-dir", str(tmp_path / "state"))
    assert "sudo usermod -aG spi pi" in found(lines, "WARN", "groups")[0]


# ---- the board --------------------------------------------------------------------------

def test_a_pi5_reading_the_debug_connector_is_told_the_header_uart(tmp_path, capsys, config,
                                                                   real, machine):
    pi(machine, "Raspberry Pi 5 Model B Rev 1.0", "gpiochip0", "gpiochip4")
    path = config('[reader]\nkind = "pn532"\nserial_port = "/dev/serial0"\n')
    code, lines = doctor(capsys, "--config", path, "--state-dir", str(tmp_path / "state"))
    assert code == 1
    assert "Raspberry Pi 5 Model B Rev 1.0: GPIO lines on /dev/gpiochip4, GPIO 14/15's UART is " \
        "/dev/ttyAMA0" in found(lines, "OK", "board")[0]
    uart = found(lines, "FAIL", "uart")[0]
    assert "/dev/serial0 is the Pi 5's debug connector, not GPIO 14/15" in uart
    assert 'serial_port = "/dev/ttyAMA0" in [reader]' in uart and "dtparam=uart0=on" in uart


def test_a_pi4_pn532_port_is_serial0_enabled_by_enable_uart(tmp_path, capsys, config, real, machine):
    if Path("/dev/serial0").exists():
        pytest.skip("this machine has a /dev/serial0")
    pi(machine, "Raspberry Pi 4 Model B Rev 1.4")
    path = config('[reader]\nkind = "pn532"\nserial_port = "/dev/serial0"\n')
    code, lines = doctor(capsys, "--config", path, "--state-dir", str(tmp_path / "state"))
    assert "GPIO lines on /dev/gpiochip0, GPIO 14/15's UART is /dev/serial0" in \
        found(lines, "OK", "board")[0]
    uart = found(lines, "FAIL", "uart")[0]
    assert "/dev/serial0 (GPIO 14/15 on this Raspberry Pi 4 Model B Rev 1.4) is missing" in uart
    assert "enable_uart=1 in /boot/firmware/config.txt" in uart


def test_an_old_gpiozero_on_a_pi5_fails(tmp_path, capsys, config, real, machine):
    from device.cli import doctor_board
    real.setattr(doctor_board, "_gpiozero", lambda: (2, 0))
    pi(machine, "Raspberry Pi 5 Model B Rev 1.0", "gpiochip4")
    code, lines = doctor(capsys, "--config", config(""), "--state-dir", str(tmp_path / "state"))
    assert "pip install 'gpiozero>=2.0.1'" in found(lines, "FAIL", "board")[0]


def test_off_a_pi_the_board_is_a_warning_not_a_guess(tmp_path, capsys, config, real):
    code, lines = doctor(capsys, "--config", config(""), "--state-dir", str(tmp_path / "state"))
    assert "not a Raspberry Pi" in found(lines, "WARN", "board")[0]
    assert not found(lines, "OK", "uart") and not found(lines, "FAIL", "uart")   # an RC522


def test_a_button_down_at_start_fails_and_is_named(tmp_path, capsys, config, real):
    from gpiozero import Device
    Device.pin_factory.pin(13).finger = True
    code, lines = doctor(capsys, "--config", config(""), "--state-dir", str(tmp_path / "state"))
    assert code == 1
    line = found(lines, "FAIL", "buttons")[0]
    assert "SELECT (GPIO 13) down before anyone pressed: stuck, or wired to ground" in line


def test_buttons_all_up(tmp_path, capsys, config, real):
    code, lines = doctor(capsys, "--config", config(""), "--state-dir", str(tmp_path / "state"))
    assert "all up: UP GPIO 5, DOWN GPIO 6, SELECT GPIO 13, BACK GPIO 19" in found(lines, "OK", "buttons")[0]
