"""`tabletop doctor`'s check of the table's page: its packages, and either the running table's
page answering or the configured port free to serve it on."""
from __future__ import annotations

import importlib.util
import urllib.request
from pathlib import Path

from device.config import Config

from .doctor_checks import Check, ok

PACKAGES = ("starlette", "uvicorn", "segno")
ANSWER_S = 3.0


def web_check(config: Config, state_dir: Path, sim: bool) -> Check:
    web = config.web
    if not web.enabled:
        return ok("page", "off ([web] enabled = false)")
    missing = [name for name in PACKAGES if importlib.util.find_spec(name) is None]
    if missing:
        return Check("FAIL", "page", f"{', '.join(missing)} missing: the page cannot start",
                     "reinstall tabletop-companion (its dependencies bring them)")
    from device.web.address import url_of
    url = url_of(state_dir)
    if url is not None:
        try:
            with urllib.request.urlopen(url, timeout=ANSWER_S) as reply:
                status = reply.status
        except OSError as exc:
            return Check("FAIL", "page", f"the running table's page at {url} does not answer: "
                         f"{exc}", "see the table's log (tabletop logs)")
        return ok("page", f"the running table's page answers at {url} ({status})")
    from device.web.serving import bind
    host = web.host or ("127.0.0.1" if sim else "0.0.0.0")
    try:
        sock = bind(host, web.port)
    except OSError as exc:
        return Check("WARN", "page", f"no port to serve it on at {host}:{web.port} and the next "
                     f"ones: {exc.strerror or exc}", "set [web] port to a free one")
    port = sock.getsockname()[1]
    sock.close()
    taken = "" if port == web.port or web.port == 0 else f" ({web.port} is taken)"
    return ok("page", f"it will serve on {host}:{port}{taken}")
