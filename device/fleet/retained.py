"""One-shot use of the broker, for the command line and the back office: retained messages
published and waited for until the broker has them all, or read once."""
from __future__ import annotations

import threading

from .link import FleetUnavailable, Link, unique_id
from .topics import sync_topic


def _opened(link: Link, timeout: float) -> Link:
    link.start()
    if not link.wait_up(timeout, unreachable_ends=True):
        link.close(flush_s=0)
        raise FleetUnavailable(link.offline or link.refused or link.unreachable
                               or f"no answer from {link.where}")
    return link


def send_retained(settings, messages: list[tuple[str, bytes]], timeout: float = 5.0) -> None:
    """Publish retained messages and wait until the broker has them all."""
    link = _opened(Link(settings, unique_id("tabletop-cli")), timeout)
    for topic, payload in messages:
        link.publish(topic, payload, retain=True)
    if not link.close(flush_s=timeout):
        raise FleetUnavailable(f"the broker at {link.where} did not take every message")


def fetch_retained(settings, topic_filter: str, timeout: float = 5.0) -> dict[str, bytes]:
    """The retained messages under `topic_filter`, read once.

    MQTT marks no end of the retained messages, so after subscribing the link sends
    itself a marker: the broker delivers in order, so once the marker is back, every
    retained message has come before it."""
    client_id = unique_id("tabletop-cli")
    marker, found, done = sync_topic(client_id), {}, threading.Event()

    def heard(topic: str, payload: bytes) -> None:
        if topic == marker:
            done.set()
        elif payload:
            found[topic] = payload

    link = _opened(Link(settings, client_id, subscriptions=(topic_filter, marker), on_message=heard,
                        on_up=lambda up: up.publish(marker, b"sync")), timeout)
    answered = done.wait(timeout)
    link.close(flush_s=0)
    if not answered:
        raise FleetUnavailable(f"the broker at {link.where} did not answer in time")
    return found
