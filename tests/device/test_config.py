"""The device config: defaults, the commented example, errors that name the key, pin conflicts."""
from __future__ import annotations

import argparse
import io
import os
from dataclasses import fields
from pathlib import Path

import pytest

from device.cli import config as cli_config
from device.cli import main
from device.config import (
    SECTIONS,
    Config,
    ConfigFileError,
    TimeWindow,
    example_config,
    load_config,
    parse_config,
)
from device.config.pins import buses, button_claims, pin_conflicts


def error(text: str) -> str:
    with pytest.raises(ConfigFileError) as caught:
        parse_config(text)
    return str(caught.value)


def tabletop(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="tabletop")
    cli_config.add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.handler(args)


def test_no_file_means_the_defaults_and_they_share_no_pin():
    config = load_config(None)
    assert config == Config() == parse_config("")
    assert (config.reader.kind, config.reader.reset_pin) == ("rc522", 25)
    assert (config.display.bus, config.display.i2c_address) == ("i2c", 0x3C)
    assert (config.buttons.up, config.buttons.down, config.buttons.select, config.buttons.back) == \
        (5, 6, 13, 19)
    assert config.language is None and config.state_dir is None
    assert pin_conflicts(config) == []


def test_the_example_reads_back_as_the_defaults():
    assert parse_config(example_config()) == Config()


def test_the_example_shows_every_key_with_a_comment():
    lines = example_config().splitlines()
    for name, cls in SECTIONS.items():
        assert f"[{name}]" in lines
        for spec in fields(cls):
            at = next(i for i, line in enumerate(lines)
                      if line.lstrip("# ").startswith(f"{spec.name} = "))
            assert lines[at - 1].startswith("# "), spec.name
    assert 'language = "auto"' in lines
    assert "i2c_address = 0x3C" in lines


def test_a_full_file_is_read_with_hex_addresses_and_windows():
    config = parse_config('''
        language = "fr"
        [reader]
        kind = "pn532"
        serial_port = "/dev/ttyUSB0"
        [display]
        kind = "sh1106"
        i2c_address = "0x3D"
        [buttons]
        hold_seconds = 0.8
        [kiosk]
        enabled = true
        night_blank = "23:00-08:00"
        [feedback]
        buzzer_pin = 12
        led_red = 17
    ''')
    assert config.language == "fr"
    assert config.display.i2c_address == 0x3D
    assert config.buttons.hold_seconds == 0.8
    assert config.kiosk.night_blank == TimeWindow(23 * 60, 8 * 60)
    assert config.feedback.buzzer_pin == 12 and config.feedback.led_green is None


def test_kiosk_true_is_short_for_the_enabled_key():
    assert parse_config("kiosk = true").kiosk.enabled


def test_a_night_window_wraps_past_midnight():
    window = parse_config('[kiosk]\nnight_blank = "23:00-08:00"').kiosk.night_blank
    assert str(window) == "23:00-08:00"
    assert window.contains(23, 30) and window.contains(2) and not window.contains(8) \
        and not window.contains(12)
    day = parse_config('[feedback]\nquiet_hours = "12:00-14:00"').feedback.quiet_hours
    assert day.contains(13) and not day.contains(14)


def test_an_optional_pin_can_be_set_to_none():
    assert parse_config('[reader]\nreset_pin = "none"').reader.reset_pin is None


@pytest.mark.parametrize("text, message", [
    ("[display]\ni2c_address = 300",
     "display.i2c_address: 300 is not a valid I2C address (0x03-0x77)"),
    ('[display]\ni2c_address = "0xZZ"', 'display.i2c_address: "0xZZ" is not an I2C address such as 0x3C'),
    ("[display]\ni2c_adress = 0x3C", "display.i2c_adress: unknown key; did you mean display.i2c_address?"),
    ('langage = "fr"', "langage: unknown key; did you mean language?"),
    ("[readr]\nkind = 'rc522'", "readr: unknown key; did you mean reader?"),
    ('[buttons]\nup = "five"', 'buttons.up: "five" is not a BCM GPIO number (0-27)'),
    ("[buttons]\nup = 40", "buttons.up: 40 is not a BCM GPIO number (0-27)"),
    ("[buttons]\nhold_seconds = true", "buttons.hold_seconds: true is not a number of seconds"),
    ("[buttons]\nhold_seconds = 9", "buttons.hold_seconds: 9 is not between 0.2 and 5 seconds"),
    ('[reader]\nkind = "rfid"', 'reader.kind: "rfid" is not one of rc522, pn532, mfrc522, sim'),
    ("[reader]\nantenna_gain = 30", "reader.antenna_gain: 30 is not one of 18, 23, 33, 38, 43, 48"),
    ('[reader]\nirq_pin = "x"', 'reader.irq_pin: "x" is not a BCM GPIO number (0-27) or "none"'),
    ("[display]\nrotate = 1", "display.rotate: 1 is not one of 0, 2 (the screen stays landscape)"),
    ("[display]\ncontrast = 10", "display.dim_contrast: 16 is brighter than display.contrast (10)"),
    ('[kiosk]\nnight_blank = "late"', 'kiosk.night_blank: "late" is not a time range such as "23:00-08:00"'),
    ("[kiosk]\ndim_after_s = 600", "kiosk.screensaver_after_s: 300 must come after kiosk.dim_after_s (600)"),
    ("display = 3", "display: expected a table [display], not 3"),
    ('language = "de"', 'language: "de" is not one of en, fr, auto'),
    ("[reader]\nspi_device = 2", "reader.spi_device: SPI0 has chip selects 0 and 1 only"),
])
def test_errors_name_the_key(text, message):
    assert error(text) == message


def test_a_syntax_error_gives_the_line():
    assert "line 2" in error("[display]\nkind = \n")


@pytest.mark.parametrize("text, message", [
    ("[buttons]\nselect = 10", "buttons.select: GPIO 10 is SPI0 MOSI, used by the reader (reader.spi_bus)"),
    ("[buttons]\nup = 7", "buttons.up: GPIO 7 is SPI0 CE1, used by the reader (reader.spi_bus)"),
    ("[buttons]\nup = 3", "buttons.up: GPIO 3 is I2C1 SCL, used by the display (display.i2c_port)"),
    ("[buttons]\ndown = 5", "buttons.down: GPIO 5 is also buttons.up"),
    ("[buttons]\nback = 25", "buttons.back: GPIO 25 is also reader.reset_pin"),
    ('[display]\nbus = "spi"\nspi_device = 0',
     "display.spi_device: SPI0 CE0 is the reader's chip select (reader.spi_device)"),
    ('[reader]\nkind = "pn532"\n[buttons]\nback = 15',
     "buttons.back: GPIO 15 is UART0 RXD, used by the reader (reader.serial_port)"),
    ("[feedback]\nled_blue = 13", "feedback.led_blue: GPIO 13 is also buttons.select"),
    ("[feedback]\nbuzzer_pin = 0", "feedback.buzzer_pin: GPIO 0 is ID_SD, reserved for a HAT's ID EEPROM"),
])
def test_a_pin_used_twice_is_refused_naming_the_later_key(text, message):
    assert error(text) == message


def test_spi_parts_share_a_bus_and_unused_parts_own_no_pin():
    config = parse_config('[display]\nbus = "spi"\nreset_pin = 23')
    assert pin_conflicts(config) == []
    assert {bus: str(user) for bus, user in buses(config).items()} == {
        "SPI0": "the reader (reader.spi_bus) and the display (display.spi_bus)"}
    assert parse_config('[reader]\nkind = "pn532"\nserial_port = "/dev/ttyUSB0"\n[buttons]\nup = 14')
    assert parse_config('[reader]\nkind = "sim"\n[display]\nkind = "sim"\n[buttons]\nup = 10')


def test_the_buttons_driver_is_told_every_other_part_s_pins():
    claims = button_claims(parse_config('[display]\nbus = "spi"\n[feedback]\nbuzzer_pin = 12'))
    assert str(claims[25]) == "reader.reset_pin" and str(claims[24]) == "display.dc_pin"
    assert str(claims[12]) == "feedback.buzzer_pin" and str(claims[10]).startswith("SPI0 MOSI")
    assert not {5, 6, 13, 19} & set(claims)


def test_every_conflict_is_listed():
    config = Config()
    config = type(config)(buttons=type(config.buttons)(up=9, down=2))
    assert [problem.key for problem in pin_conflicts(config)] == ["buttons.up", "buttons.down"]


def test_a_relative_state_dir_is_read_from_the_config_folder(tmp_path):
    path = tmp_path / "etc" / "tabletop.toml"
    path.parent.mkdir()
    path.write_text('state_dir = "state"\n')
    assert load_config(path).state_dir == tmp_path / "etc" / "state"
    assert parse_config('state_dir = "~/games"').state_dir == Path.home() / "games"


def test_load_names_the_file(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[buttons]\nup = 40\n")
    with pytest.raises(ConfigFileError, match=r"bad\.toml: buttons\.up: 40 is not"):
        load_config(path)
    with pytest.raises(ConfigFileError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


def test_cli_example_prints_a_file_check_accepts(tmp_path, capsys):
    assert tabletop("config", "--example") == 0
    path = tmp_path / "tabletop.toml"
    path.write_text(capsys.readouterr().out)
    assert tabletop("config", "--check", str(path)) == 0
    assert capsys.readouterr().out.startswith(f"{path}: OK")


@pytest.mark.parametrize("text", ["[display]\ni2c_address = 300\n", "[display\n", "[buttons]\nup = 10\n",
                                  "\xff\xfe"])
def test_cli_check_of_a_broken_file_is_one_line_and_exit_2(tmp_path, capsys, text):
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="latin-1")
    assert tabletop("config", "--check", str(path)) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"tabletop: {path}: ")
    assert "Traceback" not in err


def test_a_config_given_as_a_pipe_is_read_once(tmp_path, capsys):
    """`... | tabletop config --check /dev/stdin`: a pipe reads once, so the check and the note
    on a retired key come from the same reading (a second reading found the pipe empty)."""
    read, write = os.pipe()
    os.write(write, b"[fleet]\nbuffer_events = 500\n[buttons]\nup = 40\n")
    os.close(write)
    pipe = f"/proc/self/fd/{read}"             # what /dev/stdin is, for a pipe on fd 0
    try:
        assert tabletop("config", "--check", pipe) == 2
    finally:
        os.close(read)
    assert capsys.readouterr().err.splitlines() == [
        f"tabletop: {pipe}: fleet.buffer_events: no longer used (events now leave from the "
        "journal); remove it",
        f"tabletop: {pipe}: buttons.up: 40 is not a BCM GPIO number (0-27)"]


# ---- every problem at once, what the machine lacks, and hostile files -------------------------

def check_lines(tmp_path, capsys, text: str, *argv: str) -> tuple[int, list[str]]:
    path = tmp_path / "tabletop.toml"
    path.write_text(text)
    code = tabletop("config", "--check", str(path), *argv)
    out, err = capsys.readouterr()
    assert out == "" or code == 0
    return code, [line.removeprefix(f"tabletop: {path}: ") for line in err.splitlines()]


def test_check_reports_every_problem_at_once(tmp_path, capsys):
    code, lines = check_lines(tmp_path, capsys, f'langage = "fr"\nstate_dir = "{tmp_path}"\n'
                              '[buttons]\nup = 40\ndown = "x"\nback = 13\n[display]\ncontrast = 10\n'
                              '[fleet]\ntls = true\nca_file = "missing-ca.pem"\n')
    assert code == 2
    assert lines == ["langage: unknown key; did you mean language?",
                     "buttons.up: 40 is not a BCM GPIO number (0-27)",
                     'buttons.down: "x" is not a BCM GPIO number (0-27)',
                     "display.dim_contrast: 16 is brighter than display.contrast (10)",
                     "buttons.back: GPIO 13 is also buttons.select",
                     "fleet.ca_file: missing-ca.pem: No such file or directory"]


def test_a_bad_key_does_not_also_fail_the_rules_it_takes_part_in():
    # up = "x" falls back to GPIO 5 meanwhile, which down = 5 would otherwise clash with
    with pytest.raises(ConfigFileError) as caught:
        parse_config('[buttons]\nup = "x"\ndown = 5\n')
    assert str(caught.value) == 'buttons.up: "x" is not a BCM GPIO number (0-27)'


def test_check_reads_the_ca_file_and_the_state_dir_as_run_would(tmp_path, capsys):
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    good = f'state_dir = "{tmp_path / "new" / "state"}"\n[fleet]\ntls = true\nca_file = "{ca}"\n'
    assert check_lines(tmp_path, capsys, good)[0] == 0       # a state dir is made on start
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    code, lines = check_lines(tmp_path, capsys, f'state_dir = "{blocker / "state"}"\n'
                              f'[fleet]\ntls = true\nca_file = "{tmp_path}"\n')
    assert code == 2
    assert lines == [f"fleet.ca_file: {tmp_path} is a folder, not a file",
                     f"state_dir: {blocker} is not a folder"]


# (config text, what check says of it, what run does): a config check accepts, run starts with;
# run starts, too, on a file check refuses (on the keys that read, saying so once), so check is
# the stricter: it also names what this machine lacks (a CA file, a state dir run cannot write)
BESIDE_RUN = [("", 0, 0), ('[fleet]\ntls = true\nca_file = "{tmp}/ca.pem"\n', 0, 0),
              ('[fleet]\ntls = true\nca_file = "{tmp}/missing.pem"\n', 2, 0),
              ('[fleet]\ntls = true\nca_file = "{tmp}"\n', 2, 0), ("[buttons]\nup = 10\n", 2, 0),
              ("[display\n", 2, 0), ('[fleet]\nca_file = "{tmp}/ca.pem"\n', 2, 0)]


@pytest.mark.parametrize("state_dir", ["{tmp}/new/state", "{tmp}/a-file/state", "state"])
@pytest.mark.parametrize("text, checked, ran", BESIDE_RUN)
def test_check_accepts_nothing_that_run_then_refuses(tmp_path, capsys, monkeypatch, text, checked,
                                                     ran, state_dir):
    (tmp_path / "ca.pem").write_text("-----BEGIN CERTIFICATE-----\n")
    (tmp_path / "a-file").write_text("")
    path = tmp_path / "tabletop.toml"
    path.write_text(f'state_dir = "{state_dir}"\n{text}'.replace("{tmp}", str(tmp_path)))
    unusable = "a-file" in state_dir          # run starts and shows its storage fault
    assert tabletop("config", "--check", str(path)) == (2 if unusable else checked)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", "--sim", "--config", str(path)]) == ran
    capsys.readouterr()


def test_a_huge_value_is_cut_in_the_message_and_control_characters_escaped():
    message = error('[reader]\nkind = "' + "x" * 100000 + '"\n')
    assert len(message) < 200 and message.startswith('reader.kind: "xxx')
    assert "\n" not in error('[reader]\nkind = "a\\nb"\n')
    assert len(error("[reader]\npoll_hz = " + "9" * 5000 + "\n")) < 200
    assert len(error('"' + "k" * 100000 + '" = 1\n')) < 400


@pytest.mark.parametrize("text", ["a = " + "[" * 5000 + "]" * 5000, "a = " + "{b = " * 3000 + "1"
                                  + "}" * 3000, "[reader]\nkind = \"rc\0522\"", "\0",
                                  "state_dir = \"~no-such-user-here/x\"",
                                  "state_dir = \"a\\u0000b\"", "reader = [[[1]]]"])
def test_hostile_files_are_one_clear_error(text):
    assert error(text)


def test_a_file_that_is_not_utf8_or_holds_nul_bytes_is_refused(tmp_path):
    path = tmp_path / "binary.toml"
    path.write_bytes(b"\xff\xfe\x00[reader]\x00")
    with pytest.raises(ConfigFileError, match="not a text file"):
        load_config(path)
    path.write_bytes(b"[reader]\nkind = \x00\n")
    with pytest.raises(ConfigFileError, match="binary.toml: "):
        load_config(path)
