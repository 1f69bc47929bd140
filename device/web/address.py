"""Where the running table's page is, for the commands that ask (`status`, `doctor`): a file
in the state dir, written once the page serves and removed when it stops. Nothing else is
imported here, so asking costs a command nothing."""
from __future__ import annotations

import json
from pathlib import Path

STATUS_FILE = "web.json"


def tell(state_dir: Path, url: str) -> None:
    (state_dir / STATUS_FILE).write_text(json.dumps({"url": url}) + "\n")


def forget(state_dir: Path) -> None:
    (state_dir / STATUS_FILE).unlink(missing_ok=True)


def url_of(state_dir: Path) -> str | None:
    """The page's address while a table runs on `state_dir` (its lock held), else None."""
    from device.storage.lock import holder
    if holder(state_dir) is None:
        return None
    try:
        url = json.loads((state_dir / STATUS_FILE).read_text()).get("url")
    except (OSError, ValueError, AttributeError):
        return None
    return url if isinstance(url, str) else None
