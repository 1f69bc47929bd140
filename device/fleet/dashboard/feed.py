"""The dashboard's feed: the tables' topics on the broker, into the board.

A persistent session, so the broker keeps what the tables say while the dashboard is away;
a table message far bigger than any table sends is refused before it is parsed.
"""
from __future__ import annotations

import logging

from device.fleet.link import Link
from device.fleet.topics import SHARED_TABLES, TABLE_FILTERS, table_of

from .board import Board

log = logging.getLogger(__name__)

TABLE_MESSAGE_MAX = 64 * 1024          # a table's state is a few kB: beyond, a hostile one


def bounded(receive):
    """The board's receive, refusing a table message far bigger than any table sends: 256
    tables of hostile states would otherwise hold gigabytes as Python objects."""
    def taking(topic: str, payload: bytes) -> None:
        if len(payload) > TABLE_MESSAGE_MAX and table_of(topic) is not None:
            log.warning("fleet: dropped the message on %.80s: %d bytes, more than %d",
                        topic, len(payload), TABLE_MESSAGE_MAX)
            return
        receive(topic, payload)
    return taking


def subscribe(settings, board: Board, client_id: str) -> Link:
    """The board's feed: the tables' topics, in a session the broker keeps while we are away."""
    return Link(settings, client_id, subscriptions=(SHARED_TABLES, *TABLE_FILTERS),
                on_message=bounded(board.receive),
                on_up=lambda _link: board.broker_link(True),
                on_down=lambda: board.broker_link(False), clean=False).start()
