"""A package's names imported when first used (PEP 562), so that importing one small module of
a package does not import everything its __init__ names."""
from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def lazy_names(package: str, homes: Mapping[str, str]) -> tuple[Callable[[str], object],
                                                                 Callable[[], list[str]]]:
    """The package's __getattr__ and __dir__ for `homes` (name -> the module defining it,
    relative to the package)."""

    def __getattr__(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home, package), name)
        setattr(sys.modules[package], name, value)    # asked once: next time a plain attribute
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *homes})

    return __getattr__, __dir__
