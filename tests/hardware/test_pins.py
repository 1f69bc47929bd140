"""The start-up pin check: buses own their pins, and the message says whose they are."""
from __future__ import annotations

import pytest

from hardware.buttons import DEFAULT_PINS
from hardware.pins import PinConflict, bus_claims, check_pins, clashes

RC522_AND_OLED = bus_claims({"SPI0": "the RC522", "I2C1": "the OLED"}, {25: "the RC522 reset line"})


def pin_conflicts(pins, claims) -> list[str]:
    """Each clash as a log or an error words it."""
    return [str(clash) for clash in clashes(pins, claims)]


def test_the_default_pins_are_free_next_to_an_rc522_an_oled_and_a_pn532():
    claims = bus_claims({"SPI0": "the RC522", "I2C1": "the OLED", "UART0": "the PN532"})
    assert pin_conflicts(DEFAULT_PINS, claims) == []


def test_a_bus_pin_is_refused_with_its_owner_named():
    pins = {**DEFAULT_PINS, "BACK": 8}
    assert pin_conflicts(pins, RC522_AND_OLED) == ["BACK: GPIO 8 is SPI0 CE0, used by the RC522"]


def test_every_clash_is_reported_at_once():
    pins = {"UP": 2, "DOWN": 25, "SELECT": 7, "BACK": 40}
    with pytest.raises(PinConflict) as raised:
        check_pins(pins, RC522_AND_OLED)
    message = str(raised.value)
    assert "UP: GPIO 2 is I2C1 SDA, used by the OLED" in message
    assert "DOWN: GPIO 25 is the RC522 reset line" in message
    assert "SELECT: GPIO 7 is SPI0 CE1, used by the RC522" in message
    assert "BACK: GPIO 40 is not on the 40-pin header" in message


def test_uart_pins_and_the_hat_eeprom_are_owned():
    claims = bus_claims({"UART0": "the PN532"})
    assert pin_conflicts({"UP": 15, "DOWN": 0}, claims) == [
        "UP: GPIO 15 is UART0 RXD, used by the PN532",
        "DOWN: GPIO 0 is ID_SD, reserved for a HAT's ID EEPROM"]


def test_two_buttons_on_one_pin():
    assert pin_conflicts({"UP": 5, "DOWN": 5}, {}) == ["DOWN: GPIO 5 is also UP"]


def test_an_unknown_bus_is_a_configuration_error():
    with pytest.raises(ValueError, match="unknown bus"):
        bus_claims({"SPI7": "x"})
