"""device/web/guard.py's places, on uvicorn's own protocol objects and a transport that keeps
what they write: a client told busy as it connects is answered 503 only if every place still
serves a request once its own request is in."""
from __future__ import annotations

import asyncio

import pytest

from device.web import guard

REQUEST = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"


class Kept(asyncio.Transport):
    """What a connection's protocol writes, and whether it closed the connection."""

    def __init__(self) -> None:
        super().__init__()
        self.sent, self.closing = b"", False

    def get_extra_info(self, name, default=None):
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8080)}.get(name, default)

    def write(self, data) -> None:
        self.sent += data

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    abort = close

    def set_write_buffer_limits(self, high=None, low=None) -> None:
        pass

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def answered(client_gone: bool) -> bytes:
    """One place, taken by a request being served; a second client connects (told busy), the
    first one's client goes or not, then the second one's request comes in: its answer's
    status line."""
    import uvicorn
    from uvicorn.server import ServerState

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    config = uvicorn.Config(app, log_config=None, log_level="error", access_log=False,
                            lifespan="off", http="h11", ws="none")
    config.load()
    state, places = ServerState(), guard.Guard()

    def connected() -> tuple[guard.GuardedH11, Kept]:
        protocol = guard.GuardedH11(config=config, server_state=state, app_state={}, guard=places)
        transport = Kept()
        protocol.connection_made(transport)
        return protocol, transport

    serving, _ = connected()
    serving.data_received(REQUEST)                     # its head in: it serves a request
    late, told = connected()
    assert late in places.busy                         # every place serves a request
    if client_gone:
        serving.connection_lost(None)
    late.data_received(REQUEST)
    for _ in range(100):                               # the loop's turns, not a clock
        if b"\r\n" in told.sent:
            break
        await asyncio.sleep(0)
    return told.sent.split(b"\r\n", 1)[0]


@pytest.mark.parametrize(("client_gone", "status"), [(True, b"HTTP/1.1 200 OK"),
                                                      (False, b"HTTP/1.1 503 Service Unavailable")])
def test_a_client_told_busy_is_answered_if_a_place_came_free_before_its_request(
        monkeypatch, client_gone, status):
    """Readers opened and closed at once held every place for a moment (their requests in,
    their closes not yet seen): a client that connected then was answered 503, though the
    places were free again when its request came."""
    monkeypatch.setattr(guard, "MAX_CONNECTIONS", 1)
    assert asyncio.run(answered(client_gone)) == status
