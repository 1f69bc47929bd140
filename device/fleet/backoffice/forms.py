"""What the back office's API takes and gives: JSON objects of a few known fields."""
from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

BODY_MAX = 4096                 # a name, a UID, a password: 4 kB is plenty of JSON
BODY_S = 5.0                    # the longest a body may take to come in
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer"}


class Refused(Exception):
    """A body refused: its status, and why in one line."""

    def __init__(self, status: int, error: str) -> None:
        super().__init__(error)
        self.status, self.error = status, error


def answer(status: int, body: Any, **extra: str) -> JSONResponse:
    return JSONResponse(body, status, headers={**HEADERS, **extra})


async def fields(request: Request, wanted: dict[str, type]) -> dict[str, Any]:
    """The JSON object of exactly the `wanted` fields, each of its type; Refused else."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise Refused(415, "the body is JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > BODY_MAX):
        raise Refused(413, f"a body has at most {BODY_MAX} bytes")
    got = bytearray()
    try:
        async with asyncio.timeout(BODY_S):
            async for chunk in request.stream():
                got += chunk
                if len(got) > BODY_MAX:
                    raise Refused(413, f"a body has at most {BODY_MAX} bytes")
    except TimeoutError:
        raise Refused(408, "the body took too long") from None
    try:
        data = json.loads(bytes(got))
    except (ValueError, RecursionError):
        raise Refused(400, "the body is not JSON") from None
    shape = ", ".join(f'"{key}": ...' for key in wanted)
    if not isinstance(data, dict) or set(data) != set(wanted) or \
            not all(isinstance(data[key], kind) for key, kind in wanted.items()):
        raise Refused(400, f"the body is {{{shape}}}")
    return data
