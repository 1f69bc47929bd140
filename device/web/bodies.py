"""A request's JSON body, read as a hostile client may send it: declared JSON, at most a few
kilobytes, in within a few seconds, and JSON indeed. The table's page and the café's back
office both read their bodies here; each words the refusal in its own way."""
from __future__ import annotations

import asyncio
import json

from starlette.requests import Request

BODY_MAX = 4096               # a line, a name, a UID, a password: 4 kB is plenty of JSON
BODY_S = 5.0                  # the longest a body may take to come in


class BodyRefused(Exception):
    """A body not taken: its HTTP status and why (`type`, `size`, `slow` or `not_json`)."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status, self.why = status, why


async def json_body(request: Request) -> object:
    """The body's JSON value; BodyRefused when it is not one of at most BODY_MAX bytes."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise BodyRefused(415, "type")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > BODY_MAX):
        raise BodyRefused(413, "size")
    got = bytearray()
    try:
        async with asyncio.timeout(BODY_S):
            async for chunk in request.stream():
                got += chunk
                if len(got) > BODY_MAX:
                    raise BodyRefused(413, "size")
    except TimeoutError:
        raise BodyRefused(408, "slow") from None
    try:
        return json.loads(bytes(got))
    except (ValueError, RecursionError):
        raise BodyRefused(400, "not_json") from None
