"""Why a link to the broker failed, in one line; a TLS failure always named as one."""
from __future__ import annotations

import ssl
from collections.abc import Callable


class TLSFailure(OSError):
    """The TLS handshake failed, whatever the socket said (a plain port just resets it)."""


def during_tls(wrap: Callable) -> Callable:
    """paho's TLS handshake, its failures named as TLS failures: a TLS client on a plain
    port sees only a reset connection, which would otherwise read as a broker gone."""
    def handshake(tcp_socket):
        try:
            return wrap(tcp_socket)
        except (TLSFailure, ssl.SSLError):
            raise                          # already said to be TLS
        except OSError as exc:
            raise TLSFailure(f"{type(exc).__name__}: {exc} (during the handshake: is the port "
                             "a TLS one?)") from exc
    return handshake


def failure(exc: BaseException) -> str:
    """Why the link failed, a TLS failure named as one."""
    if isinstance(exc, (TLSFailure, ssl.SSLError)) or "ssl" in type(exc).__module__:
        return f"TLS failure: {exc}"
    return f"{type(exc).__name__}: {exc}"
