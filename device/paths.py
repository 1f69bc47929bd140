"""Where the device keeps its files, how it writes them so a power cut never leaves half a file,
and how it reads one a person gives it: never past a size no such file comes near."""
from __future__ import annotations

import errno
import os
import stat

# pathlib is imported where a Path is made, not here: the command line reads a config's
# language without it (a sixth of a command's start-up)
TYPE_CHECKING = False               # as typing's, which costs every command's start-up to import
if TYPE_CHECKING:
    from pathlib import Path

SYSTEM_CONFIG_FILE = "/etc/tabletop/config.toml"        # where systemd/install.sh puts it
# The most a file a person gives is read of (a config, a deck, a card file, a script, a staff
# list): the largest real one is a few kB. Past it the file is refused before it is parsed:
# a parser takes seconds over megabytes of one line.
GIVEN_MOST = 4 * 1024 * 1024


class TooLarge(OSError):
    """A file past GIVEN_MOST, refused unread (errno EFBIG: it words itself as one)."""

    def __init__(self, path: object) -> None:
        super().__init__(errno.EFBIG, f"larger than {GIVEN_MOST // (1024 * 1024)} MB", str(path))


def given_bytes(path: Path) -> bytes:
    """The bytes of a file a person gives; TooLarge past GIVEN_MOST, without reading the rest."""
    with open(path, "rb") as file:
        data = file.read(GIVEN_MOST + 1)
    if len(data) > GIVEN_MOST:
        raise TooLarge(path)
    return data


def given_text(path: Path) -> str:
    """The text of a file a person gives, as Path.read_text reads it (UTF-8, newlines made
    \\n); TooLarge past GIVEN_MOST, read no further than that."""
    from pathlib import Path
    path = Path(path)
    found = path.stat()
    if found.st_size > GIVEN_MOST:
        raise TooLarge(path)
    if stat.S_ISREG(found.st_mode):
        return path.read_text(encoding="utf-8")
    with open(path, encoding="utf-8") as file:      # a pipe or a device: no size to ask
        text = file.read(GIVEN_MOST + 1)
    if len(text) > GIVEN_MOST:
        raise TooLarge(path)
    return text


def config_path(given: Path | None) -> Path | None:
    """--config, else the installed table's config if there is one, else none (the defaults)."""
    if given is not None:
        return given
    from pathlib import Path
    return Path(SYSTEM_CONFIG_FILE) if os.path.isfile(SYSTEM_CONFIG_FILE) else None


def default_state_dir() -> Path:
    """The state dir when none is given: systemd's StateDirectory= for the service, else
    `$XDG_STATE_HOME/tabletop`, else `~/.local/state/tabletop`."""
    from pathlib import Path
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
