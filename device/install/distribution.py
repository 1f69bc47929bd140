"""This copy of the companion as pip installed it: its version, and the command that adds an
extra (`fleet`, `pi`) where it runs. A clone installed for work (`make`, `pip install -e`)
takes the extra into its own venv; a copy pipx installed takes it with `pipx inject`, pipx
keeping its venvs to itself (its pip there is not on the PATH, and pipx's upgrades would not
know of it); any other installed package takes it with its own pip, under the distribution's
name: pip finds the package already there and fetches only the extra's dependencies.

Read from the `.dist-info` folder on sys.path, as importlib.metadata finds it, without
importing it: `tabletop --version` would spend most of its start-up on it.
"""
from __future__ import annotations

import os
import sys

NAME = "tabletop-companion"
FOLDER_PREFIX = NAME.replace("-", "_") + "-"     # a .dist-info folder: {name}-{version}.dist-info


def dist_info() -> str | None:
    """The installed distribution's .dist-info folder, the first on sys.path; None if none."""
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith(FOLDER_PREFIX) and name.endswith(".dist-info"):
                return os.path.join(entry or ".", name)
    return None


def version() -> str:
    """The installed version, as the .dist-info folder's name gives it."""
    folder = dist_info()
    if folder is None:
        return "(not installed)"
    return os.path.basename(folder).removeprefix(FOLDER_PREFIX).removesuffix(".dist-info")


def editable_source(folder: str | None = None) -> str | None:
    """The clone an editable install runs from (PEP 610's direct_url.json); None otherwise."""
    import json
    from urllib.parse import unquote, urlparse
    folder = folder or dist_info()
    try:
        with open(os.path.join(folder or "", "direct_url.json"), encoding="utf-8") as file:
            found = json.load(file)
    except (OSError, ValueError):
        return None
    if not (isinstance(found, dict) and isinstance(found.get("dir_info"), dict)
            and found["dir_info"].get("editable") is True and isinstance(found.get("url"), str)):
        return None
    url = urlparse(found["url"])
    return unquote(url.path) if url.scheme == "file" else None


def extra_hint(extra: str) -> str:
    """The command that installs `extra` for this copy, from where it runs."""
    clone = editable_source()
    if clone is not None:
        if os.path.realpath(sys.prefix) == os.path.realpath(os.path.join(clone, ".venv")):
            return f"cd {clone} && .venv/bin/pip install -e '.[{extra}]'"
        return f"{_pip()} install -e '{clone}[{extra}]'"
    venv = pipx_venv()
    if venv is not None:
        return f"pipx inject {venv} '{NAME}[{extra}]'"
    return f"{_pip()} install '{NAME}[{extra}]'"


def pipx_venv(prefix: str | None = None) -> str | None:
    """The name pipx knows this venv by, when pipx made it (its pipx_metadata.json is there,
    in a `venvs` folder); None otherwise."""
    prefix = os.path.realpath(prefix or sys.prefix)
    if os.path.basename(os.path.dirname(prefix)) != "venvs" or \
            not os.path.isfile(os.path.join(prefix, "pipx_metadata.json")):
        return None
    return os.path.basename(prefix)


def _pip() -> str:
    """This interpreter's pip: the one whose install the hint adds to."""
    beside = os.path.join(os.path.dirname(sys.executable), "pip")
    return beside if os.path.exists(beside) else f"{sys.executable} -m pip"
