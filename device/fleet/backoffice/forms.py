"""What the back office's API takes and gives: JSON objects of a few known fields."""
from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from device.web.bodies import BODY_MAX, BodyRefused, json_body
from device.web.headers import PRIVATE

HEADERS = PRIVATE


class Refused(Exception):
    """A body refused: its status, and why in one line."""

    def __init__(self, status: int, error: str) -> None:
        super().__init__(error)
        self.status, self.error = status, error


def answer(status: int, body: Any, **extra: str) -> JSONResponse:
    return JSONResponse(body, status, headers={**HEADERS, **extra})


# why a body was not taken, in the back office's words
REFUSED = {"type": "the body is JSON (Content-Type: application/json)",
           "size": f"a body has at most {BODY_MAX} bytes", "slow": "the body took too long",
           "not_json": "the body is not JSON"}


async def fields(request: Request, wanted: dict[str, type]) -> dict[str, Any]:
    """The JSON object of exactly the `wanted` fields, each of its type; Refused else."""
    try:
        data = await json_body(request)
    except BodyRefused as exc:
        raise Refused(exc.status, REFUSED[exc.why]) from None
    shape = ", ".join(f'"{key}": ...' for key in wanted)
    if not isinstance(data, dict) or set(data) != set(wanted) or \
            not all(isinstance(data[key], kind) for key, kind in wanted.items()):
        raise Refused(400, f"the body is {{{shape}}}")
    return data
