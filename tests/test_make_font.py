"""tools/make_font.py regenerates the shipped screen font byte for byte from the X11 6x10 font
(Debian's xfonts-base, which .ci/run installs; without it this test skips)."""
from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "make_font.py"
SOURCE = Path("/usr/share/fonts/X11/misc/6x10.pcf.gz")
SHIPPED = ROOT / "device" / "ui" / "fonts" / "fixed6x10.hex"


@pytest.mark.skipif(not SOURCE.exists(), reason="the X11 6x10 font (xfonts-base) is not installed")
def test_make_font_regenerates_the_shipped_font(tmp_path):
    out = tmp_path / "fixed6x10.hex"
    done = subprocess.run([sys.executable, str(TOOL), str(SOURCE), "--out", str(out)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == SHIPPED.read_bytes()


def test_make_font_writes_where_the_font_is_read():
    """The default output is the file device/ui/font.py reads, in a folder that exists."""
    assert runpy.run_path(str(TOOL))["OUT"] == SHIPPED
    assert SHIPPED.is_file()
