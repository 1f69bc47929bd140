"""Importing the hardware layer loads no hardware library, and no game code."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import hardware

HARDWARE = Path(hardware.__file__).parent
LIBRARIES = ("spidev", "lgpio", "RPi", "mfrc522", "luma", "gpiozero", "serial", "smbus2")

CHECK = f"""
import importlib, pkgutil, sys
import hardware
for module in pkgutil.iter_modules(hardware.__path__):
    importlib.import_module("hardware." + module.name)
loaded = sorted({{name.split(".")[0] for name in sys.modules}} & set({LIBRARIES!r}))
print(",".join(loaded))
"""


def test_no_hardware_library_is_imported_until_a_part_is_opened():
    out = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True,
                         cwd=HARDWARE.parent, check=True)
    assert out.stdout.strip() == ""


@pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")
def test_parts_satisfy_the_interfaces(tmp_path):
    import io

    from luma.oled.device import ssd1306

    from hardware import Display, TagReader
    from hardware.display import OledDisplay
    from hardware.fake_rc522 import FakeMFRC522
    from hardware.pn532 import PN532UART
    from hardware.rc522 import RC522
    from hardware.sim import SimReader
    from hardware.sim_display import FrameDisplay
    from tests.hardware.fakes.oled_bus import RecordingSerial

    for reader in (RC522(FakeMFRC522()), PN532UART(io.BytesIO()), SimReader()):
        assert isinstance(reader, TagReader)
    oled = OledDisplay(ssd1306(RecordingSerial()))
    for display in (oled, FrameDisplay(tmp_path)):
        assert isinstance(display, Display)
