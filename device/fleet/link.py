"""One connection to the café's MQTT broker, through paho-mqtt (the optional `fleet` extra).

The caller never waits for the network: `publish` puts the message in a bounded outbox
and returns. A sender thread hands the messages to paho while the link is up, at most
IN_FLIGHT unacknowledged at a time; paho's own thread (loop_start) writes them, resends
what the broker did not acknowledge, and reconnects with backoff when the broker goes
away. While it is away the outbox keeps the latest value of each retained topic and the
newest other messages (finished games), the oldest going first; the events themselves
leave from the journal (journal_feed.py).
"""
from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from collections.abc import Callable

from device.clock import SystemClock
from device.install.distribution import extra_hint

from .failures import during_tls, failure
from .floodgate import DROP, FLOOD, Floodgate
from .outbox import OUTBOX_LIMIT, Outbox
from .topics import online_data, online_message, table_of

log = logging.getLogger(__name__)

IN_FLIGHT = 20
KEEPALIVE_S = 30
BACKOFF_S = (1, 60)                   # the first retry after 1 s, then doubling up to a minute
CONNECT_TIMEOUT_S = 10.0              # a broker that takes the connection but never answers


class FleetUnavailable(RuntimeError):
    """The fleet cannot work here (paho-mqtt missing) or the broker cannot be reached."""


def mqtt_client():
    """paho's client module, imported only when the fleet is used."""
    try:
        import paho.mqtt.client as mqtt
    except ImportError:
        raise FleetUnavailable(f"the fleet needs paho-mqtt: {extra_hint('fleet')}") from None
    return mqtt


SYSTEM_CLOCK = SystemClock()        # the `online` message's time: a label, as the table's clock has it


class Link:
    """A broker connection with an outbox; `refused` says why the broker turned us away."""

    def __init__(self, settings, client_id: str, *, online_topic: str | None = None,
                 subscriptions: tuple[str, ...] = (), on_message: Callable | None = None,
                 on_up: Callable[[Link], None] | None = None,
                 on_down: Callable[[], None] | None = None, clean: bool = True,
                 wall_clock: Callable[[], str] = SYSTEM_CLOCK.wall,
                 floodgate: Floodgate | None = None,
                 seal: Callable[[str, dict], bytes] | None = None) -> None:
        self.settings = settings
        self.wall_clock = wall_clock
        self.where = f"{settings.host}:{settings.port}"
        self.outbox = Outbox(OUTBOX_LIMIT)
        self.online_topic = online_topic
        self.subscriptions = subscriptions
        self.on_message = on_message
        self.on_up, self.on_down = on_up, on_down
        self.floodgate = floodgate           # leaves the subscriptions while they flood
        self.seal = seal                     # signs the online messages (not the last will)
        self.listening = False               # the broker confirmed the subscriptions
        self.up = threading.Event()
        self.refused: str | None = None      # credentials or client id refused by the broker
        self.unreachable: str | None = None
        self.offline: str | None = None      # the link could not start or run at all: why
        self.fault: str | None = None        # a network thread died and was restarted: why
        self._why = ""                       # the last connection attempt's failure
        self._trying_since: float | None = None   # monotonic, while no connection is up
        self._in_flight = 0
        self._progress = threading.Condition()
        self._stopping = threading.Event()
        self._disconnected_for_good = threading.Event()   # close() ended the connection
        self._backoff_s: float | None = None       # paho's thread's wait before it tries again
        self._mqtt = mqtt_client()
        self._client = self._make_client(self._mqtt, client_id, clean)
        self._sender = self._new_sender()

    def _new_sender(self) -> threading.Thread:
        return threading.Thread(target=self._keep_sending, name="fleet-sender", daemon=True)

    def _make_client(self, mqtt, client_id: str, clean: bool):
        s = self.settings
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                             clean_session=clean)
        if s.username:
            client.username_pw_set(s.username, s.password)
        if s.tls:
            client.tls_set(ca_certs=str(s.ca_file) if s.ca_file else None)
            client.tls_insecure_set(s.tls_insecure)
        if self.online_topic:         # fixed now, sent by the broker: signed, it would be a
            # replay of itself; the dashboard takes an unsigned `false` only from a last will
            client.will_set(self.online_topic, self._online(False, None, sealed=False), qos=1,
                            retain=True)
        client.reconnect_delay_set(*BACKOFF_S)     # paho's own wait's, should it not take ours
        client._reconnect_wait = self._backing_off
        client.on_connect = self._connected
        client.on_connect_fail = self._connect_failed
        client.on_disconnect = self._disconnected
        client.on_publish = self._acknowledged
        client.on_message = self._heard
        client.on_subscribe = self._subscribed
        client.on_unsubscribe = self._unsubscribed
        client.reconnect = self._noting_why(client.reconnect)
        client._ssl_wrap_socket = during_tls(client._ssl_wrap_socket)
        return client

    def _online(self, up: bool, since: str | None, sealed: bool = True) -> bytes:
        where = table_of(self.online_topic or "")
        assert where is not None, self.online_topic
        if sealed and self.seal is not None:
            return self.seal(self.online_topic or "", online_data(where[0], up, since))
        return online_message(where[0], up, since)

    def _backing_off(self) -> None:
        """paho's thread's wait before it connects again (BACKOFF_S: the first, doubling up to
        the last, the first again once a connection is up), cut short by close(). paho's own
        sleeps the wait out a second at a time, and close() waited for its thread: a command
        the broker refused, a table stopped while the broker was away, ended up to a second late."""
        first, most = BACKOFF_S
        self._backoff_s = first if self._backoff_s is None else min(2 * self._backoff_s, most)
        self._disconnected_for_good.wait(self._backoff_s)

    def _noting_why(self, reconnect: Callable) -> Callable:
        """paho's reconnect, keeping why the last attempt failed (paho only says that it did)."""
        def attempt():
            try:
                return reconnect()
            except OSError as exc:
                self._why = failure(exc)
                raise
        return attempt

    def _heard(self, client, _userdata, message) -> None:
        """paho's thread: whatever the message does to the handler, the thread lives on, and
        paho acknowledges the message once this returns (a broker never re-delivers it).
        With a floodgate, a closed gate drops the message unread, and a live message the
        handler refuses (it returns who sent it) is counted."""
        if self.on_message is None:
            return
        gate = self.floodgate
        if gate is not None and gate.admit(message.retain) == DROP:
            return
        try:
            refused_by = self.on_message(message.topic, message.payload)
        except Exception as exc:              # noqa: BLE001  (a hostile message: one line)
            log.warning("fleet: dropped the message on %.80s: %s", message.topic,
                        type(exc).__name__)
            refused_by = "?"
        if gate is not None and refused_by is not None and not message.retain \
                and gate.refused(refused_by) == FLOOD:
            self._stop_listening(client)

    def _stop_listening(self, client) -> None:
        gate = self.floodgate
        assert gate is not None
        client.unsubscribe(list(self.subscriptions))
        log.warning("fleet: more than %d refused messages a second on %s (from %s): not "
                    "listening to them for %g s", gate.bound, ", ".join(self.subscriptions),
                    "anyone" if gate.by in ("?", "*") else gate.by, gate.pause)

    def _listen(self, client) -> None:
        """Subscribe, unless a flood closed the gate: then the pause's end does (`check`)."""
        if not self.subscriptions or (self.floodgate is not None and self.floodgate.closed):
            return
        if self.floodgate is not None:
            self.floodgate.opened()
        client.subscribe([(topic, 1) for topic in self.subscriptions])

    def _subscribed(self, _client, _userdata, _mid, reasons, _properties) -> None:
        self._hearing(not any(reason.is_failure for reason in reasons))

    def _unsubscribed(self, *_args) -> None:
        self._hearing(False)

    def _hearing(self, listening: bool) -> None:
        with self._progress:
            self.listening = listening
            self._progress.notify_all()

    # ---- the caller's side -------------------------------------------------------------------

    def start(self) -> Link:
        """Connect in the background. A link that cannot even start (no network, an address
        family the sandbox refuses, a TLS setup error) says why in `offline` and publishes
        nothing: the table plays on."""
        try:
            self._client.connect_async(self.settings.host, self.settings.port, KEEPALIVE_S)
            if self._client.loop_start() != self._mqtt.MQTT_ERR_SUCCESS:
                raise OSError("paho's network thread did not start")
        except (OSError, ValueError) as exc:
            self.offline = failure(exc)
            log.error("fleet offline: %s", self.offline)
            return self
        self._trying_since = time.monotonic()
        self._sender.start()
        return self

    def check(self) -> None:
        """Restart a network thread that died (a bug, a resource limit), noting the fault;
        listen again once a flood's pause is over."""
        if self.offline or self._stopping.is_set():
            return
        if self.floodgate is not None and self.floodgate.due() and self.up.is_set():
            self._listen(self._client)
        paho = getattr(self._client, "_thread", None)
        if paho is not None and not paho.is_alive():
            self.fault = "paho's network thread stopped; restarted"
            log.error("fleet: %s", self.fault)
            self._client._thread = None
            try:
                self._client.loop_start()
            except OSError as exc:
                self.offline = failure(exc)
        if not self._sender.is_alive():
            self.fault = "the sender thread stopped; restarted"
            log.error("fleet: %s", self.fault)
            self._sender = self._new_sender()
            self._sender.start()

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        """Queue a message; it goes out when the link is up. Never blocks on the network."""
        self.outbox.put(topic, payload, retain)

    def send_acked(self, topic: str, payload: bytes, timeout: float) -> bool:
        """Publish at QoS 1 now and wait for the broker's acknowledgement: True once it has it."""
        try:
            info = self._client.publish(topic, payload, qos=1)
            info.wait_for_publish(timeout)
        except (RuntimeError, ValueError, OSError):
            return False
        return info.is_published()

    def wait_up(self, timeout: float, unreachable_ends: bool = False) -> bool:
        """Wait until the broker accepted us, refused us, or `timeout` passed; True if up.
        `unreachable_ends`: a broker that cannot be reached ends it too (a command asks
        once; a table keeps trying)."""
        with self._progress:
            self._progress.wait_for(lambda: self.up.is_set() or self.refused
                                    or (unreachable_ends and self.unreachable), timeout)
        return self.up.is_set()

    def close(self, flush_s: float = 3.0) -> bool:
        """Say offline, send what is queued (for at most `flush_s`, and only while the link
        is up: a broker that is away is not waited for), then stop.

        True when everything queued reached the broker. A link still making its first
        connection (a short session ends before it is up) gets up to a second to come up:
        otherwise the table's last state would never leave it."""
        if self.offline:
            return False
        if not self.up.is_set() and not (self.refused or self.unreachable):
            with self._progress:
                self._progress.wait_for(
                    lambda: self.up.is_set() or self.refused or self.unreachable, min(flush_s, 1.0))
        if self.online_topic:
            self.publish(self.online_topic, self._online(False, self.wall_clock()), retain=True)
        with self._progress:
            self._progress.wait_for(lambda: self._drained() or not self.up.is_set(), flush_s)
        drained = self._drained()
        self._stopping.set()
        self.outbox.close()
        with self._progress:
            self._progress.notify_all()
        self._sender.join(timeout=2.0)
        self._client.disconnect()              # paho's thread sees it, and tries no more
        self._disconnected_for_good.set()
        self._client.loop_stop()
        return drained

    def _drained(self) -> bool:
        return not len(self.outbox) and not self._in_flight

    # ---- paho's thread and the sender thread ---------------------------------------------------

    def _keep_sending(self) -> None:
        """The sender's loop, restarted after any fault (logged once each) until the link stops."""
        while not self._stopping.is_set():
            try:
                self._send_loop()
            except Exception as exc:          # noqa: BLE001  (the thread must not die)
                self.fault = f"sender: {type(exc).__name__}: {exc}"
                log.error("fleet: %s", self.fault)
                self._stopping.wait(1.0)

    def _send_loop(self) -> None:
        while not self._stopping.is_set():
            with self._progress:
                free = self._progress.wait_for(
                    lambda: (self.up.is_set() and self._in_flight < IN_FLIGHT)
                    or self._stopping.is_set(), min(1.0, CONNECT_TIMEOUT_S))
            if not free or self._stopping.is_set():
                self._note_silence()
                continue
            message = self.outbox.take(timeout=1.0)
            if message is not None:
                self._hand_over(message)

    def _hand_over(self, message: tuple[str, bytes, bool]) -> None:
        topic, payload, retain = message
        with self._progress:
            self._in_flight += 1
        info = self._client.publish(topic, payload, qos=1, retain=retain)
        # NO_CONN is fine: paho keeps a QoS 1 message and sends it once reconnected
        if info.rc not in (self._mqtt.MQTT_ERR_SUCCESS, self._mqtt.MQTT_ERR_NO_CONN):
            self.outbox.give_back(message)
            self._acknowledged()
            self._stopping.wait(0.1)

    def _note_silence(self) -> None:
        """A broker that took the connection and said nothing for CONNECT_TIMEOUT_S is
        unreachable, and says so (paho alone would wait for its keepalive, over a minute)."""
        since = self._trying_since
        if since is not None and not (self.up.is_set() or self.refused or self.unreachable) \
                and time.monotonic() - since >= CONNECT_TIMEOUT_S:
            self._note("unreachable", f"no answer from the broker at {self.where} within "
                       f"{CONNECT_TIMEOUT_S:g} s: it takes connections but does not speak MQTT")

    def _acknowledged(self, *_args) -> None:
        with self._progress:
            self._in_flight = max(0, self._in_flight - 1)
            self._progress.notify_all()

    def _connected(self, client, _userdata, _flags, reason, _properties) -> None:
        if reason.is_failure:
            self._note("refused", f"{self.where} refused us: {reason}")
            if self.on_down:
                self.on_down()
            return
        if self.refused or self.unreachable:
            log.info("fleet: connected to %s", self.where)
        self._note(None, None)
        self._trying_since = None
        self._backoff_s = None
        self._listen(client)
        if self.online_topic:
            self.publish(self.online_topic, self._online(True, self.wall_clock()), retain=True)
        self.up.set()
        if self.on_up:
            self.on_up(self)
        with self._progress:
            self._progress.notify_all()

    def _connect_failed(self, _client, _userdata) -> None:
        self._note("unreachable", f"cannot reach the broker at {self.where}: {self._why}")

    def _disconnected(self, _client, _userdata, _flags, reason, _properties) -> None:
        self.up.clear()
        self.listening = False
        if self._trying_since is None:
            self._trying_since = time.monotonic()
        with self._progress:
            self._progress.notify_all()
        if not self._stopping.is_set() and not self.refused:
            log.warning("fleet: lost the broker at %s (%s); retrying", self.where, reason)
        if self.on_down and not self._stopping.is_set():
            self.on_down()

    def _note(self, kind: str | None, text: str | None) -> None:
        """Keep the link's trouble, logged once when it changes."""
        if kind is not None and text != getattr(self, kind):
            log.error("fleet: %s", text)
        self.refused = text if kind == "refused" else None
        self.unreachable = text if kind == "unreachable" else None
        with self._progress:
            self._progress.notify_all()


def unique_id(prefix: str) -> str:
    """A client id no other running tool uses (a broker drops the older of two equal ids)."""
    return f"{prefix}-{os.getpid()}-{secrets.token_hex(3)}"
