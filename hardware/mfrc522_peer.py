"""The `mfrc522` package's own read loop on any SPI object, for a fixed wall time.

`tabletop bench` runs it next to our reader loop against the same simulated
chip. The package imports RPi.GPIO and opens spidev itself, so a private copy
of it is loaded with stand-ins for both: a GPIO that does nothing and a spidev
whose SpiDev is the given object. The real modules, if any, are left alone.
"""
from __future__ import annotations

import importlib.util
import sys
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.errors import ReaderError
from hardware.mfrc522_backend import INSTALL_HINT

PRIVATE_NAME = "_mfrc522_peer"


@dataclass(frozen=True)
class PeerRun:
    attempts: int          # read_id_no_block() calls
    reads: int             # of which returned an id
    wall_s: float
    cpu_s: float           # CPU time of the calling thread


def run_read_loop(spi: Any, seconds: float, *, clock: Callable[[], float] = time.monotonic,
                  cpu_clock: Callable[[], float] = time.thread_time) -> PeerRun:
    """What SimpleMFRC522.read_id() does (call read_id_no_block() until it returns
    an id, never sleeping), but for `seconds` of `clock` time."""
    reader = load_peer(spi).SimpleMFRC522()
    attempts = reads = 0
    start, cpu_start = clock(), cpu_clock()
    while (now := clock()) - start < seconds:
        attempts += 1
        reads += reader.read_id_no_block() is not None
    return PeerRun(attempts, reads, now - start, cpu_clock() - cpu_start)


def load_peer(spi: Any) -> types.ModuleType:
    """A fresh private copy of the mfrc522 package wired to `spi`."""
    spec = importlib.util.find_spec("mfrc522")
    if spec is None or not spec.submodule_search_locations:
        raise ReaderError(f"the mfrc522 package is not installed: {INSTALL_HINT}")
    package_dir = Path(next(iter(spec.submodule_search_locations)))
    for name in [n for n in sys.modules if n == PRIVATE_NAME or n.startswith(PRIVATE_NAME + ".")]:
        del sys.modules[name]
    private = importlib.util.spec_from_file_location(
        PRIVATE_NAME, package_dir / "__init__.py", submodule_search_locations=[str(package_dir)])
    if private is None or private.loader is None:
        raise ReaderError(f"the mfrc522 package at {package_dir} cannot be loaded: {INSTALL_HINT}")
    module = importlib.util.module_from_spec(private)
    with _stand_ins(spi):
        sys.modules[PRIVATE_NAME] = module
        private.loader.exec_module(module)
    return module


class _SpiDev:
    """spidev.SpiDev's shape around any object with xfer2."""

    def __init__(self, spi: Any):
        self.xfer2 = spi.xfer2
        self.max_speed_hz = 0

    def open(self, bus: int, device: int) -> None:
        pass

    def close(self) -> None:
        pass


def _gpio_stand_in() -> types.ModuleType:
    # Filled through vars(): the attributes are made up, which a type checker would refuse.
    gpio = types.ModuleType("RPi.GPIO")
    vars(gpio).update(BOARD=10, BCM=11, OUT=0, IN=1, HIGH=1, LOW=0, getmode=lambda: None)
    for name in ("setmode", "setup", "output", "cleanup", "setwarnings"):
        vars(gpio)[name] = lambda *args, **kwargs: None
    return gpio


@contextmanager
def _stand_ins(spi: Any) -> Iterator[None]:
    gpio = _gpio_stand_in()
    rpi = types.ModuleType("RPi")
    vars(rpi)["GPIO"] = gpio
    spidev = types.ModuleType("spidev")
    vars(spidev)["SpiDev"] = lambda: _SpiDev(spi)
    stand_ins = {"RPi": rpi, "RPi.GPIO": gpio, "spidev": spidev}
    saved = {name: sys.modules.get(name) for name in stand_ins}
    sys.modules.update(stand_ins)
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
