"""The headers every answer of our pages carries: nothing kept by a cache or a proxy, no type
guessed from the bytes, no address handed on, and for a page, not framed and its own script
policy."""
from __future__ import annotations

PRIVATE = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer"}


def page_headers(csp: str | None = None) -> dict[str, str]:
    """A page's headers: PRIVATE, never in a frame, and its Content-Security-Policy if given."""
    headers = {**PRIVATE, "X-Frame-Options": "DENY"}
    if csp is not None:
        headers["Content-Security-Policy"] = csp
    return headers
