"""Where the device keeps its files, and how it writes them so a power cut never leaves half a file."""
from __future__ import annotations

import os
from pathlib import Path

SYSTEM_CONFIG = Path("/etc/tabletop/config.toml")      # where systemd/install.sh puts it


def config_path(given: Path | None) -> Path | None:
    """--config, else the installed table's config if there is one, else none (the defaults)."""
    if given is not None:
        return given
    return SYSTEM_CONFIG if SYSTEM_CONFIG.is_file() else None


def default_state_dir() -> Path:
    """The state dir when none is given: systemd's StateDirectory= for the service, else
    `$XDG_STATE_HOME/tabletop`, else `~/.local/state/tabletop`."""
    service = os.environ.get("STATE_DIRECTORY")
    if service:
        return Path(service.split(":")[0])
    xdg = os.environ.get("XDG_STATE_HOME")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "state"
    return base / "tabletop"


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text`: write a temporary file beside it, fsync, rename, fsync the folder.

    A reader sees the old file or the new one, never a mix, even after a power cut.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def numbered(folder: Path, tag: str, suffix: str = ".jsonl") -> Path:
    """The next free `NNNNNN-tag` name in a folder, numbered after everything already there."""
    folder.mkdir(parents=True, exist_ok=True)
    numbers = [int(p.name[:6]) for p in folder.iterdir() if p.name[:6].isdigit()]
    return folder / f"{max(numbers, default=0) + 1:06d}-{tag}{suffix}"
