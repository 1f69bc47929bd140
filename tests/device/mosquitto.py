"""A real Mosquitto broker for the fleet tests, started by the suite on a free loopback port.

The broker runs from a temporary config: anonymous clients refused, one user in a password
file made with `mosquitto_passwd`, persistence on so that a restart keeps retained messages
and the dashboard's session. Where Mosquitto is not installed the tests that need it skip.
"""
from __future__ import annotations

import contextlib
import getpass
import os
import select
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

USER, PASSWORD = "table", "clam-pair-7"
START_SECONDS = 60.0           # bounds a failure only: a loaded machine is slow, not wrong
SBIN = "/usr/sbin:/usr/local/sbin:/usr/bin:/bin"


def program(name: str) -> str | None:
    """Debian installs the broker in /usr/sbin, often not on a user's PATH."""
    return shutil.which(name) or shutil.which(name, path=SBIN)


def need_mosquitto() -> tuple[str, str]:
    broker, passwd = program("mosquitto"), program("mosquitto_passwd")
    if broker is None or passwd is None:
        pytest.skip("Mosquitto is not installed (Debian: apt-get install mosquitto); "
                    "the fleet tests need a real broker")
    return broker, passwd


def ends_with_us(command: list[str]) -> list[str]:
    """The command, ended by Linux when the test process dies, even killed (util-linux setpriv)."""
    setpriv = program("setpriv")
    return [setpriv, "--pdeathsig", "TERM", "--", *command] if setpriv else command


@contextlib.contextmanager
def running_broker(folder: Path):
    broker = Broker(folder)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Broker:
    """One Mosquitto process; `restart()` stops it (persisting its data) and starts it again."""

    def __init__(self, folder: Path) -> None:
        self.program, passwd = need_mosquitto()
        self.folder = folder
        self.host, self.port = "127.0.0.1", free_port()
        self.users = folder / "passwords"
        subprocess.run([passwd, "-b", "-c", str(self.users), USER, PASSWORD], check=True,
                       capture_output=True)
        self.users.chmod(0o600)
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text(
            f"listener {self.port} {self.host}\n"
            "allow_anonymous false\n"
            f"password_file {self.users}\n"
            "persistence true\n"
            # a test plays an evening in seconds: let the dashboard's queue hold all of it
            "max_queued_messages 100000\n"
            f"persistence_location {folder}/\n"
            "log_dest stderr\n"
            "log_type error\nlog_type warning\nlog_type notice\nlog_type information\n"
            f"user {getpass.getuser()}\n")
        self.process: subprocess.Popen | None = None

    def add_user(self, name: str, password: str) -> None:
        """Another account in the password file (before `start`)."""
        _, passwd = need_mosquitto()
        subprocess.run([passwd, "-b", str(self.users), name, password], check=True,
                       capture_output=True)

    def use_acl(self, text: str) -> None:
        """An access list for every account (before `start`): Mosquitto's acl_file."""
        acl = self.folder / "acl"
        acl.write_text(text)
        with self.conf.open("a") as conf:
            conf.write(f"acl_file {acl}\n")

    def add_tls(self) -> Path:
        """A second listener with TLS, its certificate signed by a fresh CA; the CA's file."""
        openssl = program("openssl")
        if openssl is None:
            pytest.skip("openssl is not installed: the TLS test makes its own certificates")
        ca, key, cert = (self.folder / name for name in ("ca.pem", "server.key", "server.pem"))
        curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

        def run(*args: str) -> None:
            subprocess.run([openssl, *args], check=True, capture_output=True)
        run("req", "-x509", *curve, "-keyout", str(self.folder / "ca.key"), "-out", str(ca),
            "-subj", "/CN=Cafe test CA", "-days", "2")
        run("req", *curve, "-keyout", str(key), "-out", str(self.folder / "server.csr"),
            "-subj", f"/CN={self.host}")
        (self.folder / "san.cnf").write_text(f"subjectAltName=IP:{self.host}\n")
        run("x509", "-req", "-in", str(self.folder / "server.csr"), "-CA", str(ca), "-CAkey",
            str(self.folder / "ca.key"), "-CAcreateserial", "-out", str(cert), "-days", "2",
            "-extfile", str(self.folder / "san.cnf"))
        self.tls_port = free_port()
        with self.conf.open("a") as conf:
            conf.write(f"listener {self.tls_port} {self.host}\ncertfile {cert}\nkeyfile {key}\n")
        return ca

    def start(self) -> None:
        self.process = subprocess.Popen(ends_with_us([self.program, "-c", str(self.conf)]),
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, bufsize=0)
        self._wait_for_log("running")

    def _wait_for_log(self, word: str) -> None:
        """Read the broker's log until it says it runs: its own signal that the port is open."""
        assert self.process is not None and self.process.stderr is not None
        log = b""
        deadline = time.monotonic() + START_SECONDS
        while word.encode() not in log and time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stderr], [], [], deadline - time.monotonic())
            chunk = os.read(self.process.stderr.fileno(), 4096) if ready else b""
            if not chunk:
                break
            log += chunk
        self.log = log.decode(errors="replace")
        if word.encode() not in log:
            self.stop()
            raise RuntimeError("mosquitto did not start:\n" + self.log)
        # keep reading, so a chatty broker never blocks on a full pipe
        threading.Thread(target=self._drain, args=(self.process.stderr,), daemon=True).start()

    def _drain(self, pipe) -> None:
        for line in pipe:
            self.log += line.decode(errors="replace")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=START_SECONDS)
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()
