"""What a command reads at its start beyond its own module: the device's texts of its language
and part only, the logging module only once something logs (its log set up as before), and for
a history in order no journal, no engine. Counted in sys.modules, never timed (`tabletop bench`
times the commands beside `python -c pass`)."""
from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from device import texts
from engine.core.catalog import LANGUAGES

from .test_cli_start import modules_after

PARTS = {f"device.texts.{part}_{language}" for part in texts.PARTS for language in LANGUAGES}


@pytest.mark.parametrize("part", sorted(texts.PARTS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_part_holds_only_the_keys_of_its_prefixes(part, language):
    """A text is found by its key's prefix: a key outside its part's prefixes would be missed."""
    keys = importlib.import_module(f"device.texts.{part}_{language}").TEXT
    assert keys and all(key.startswith(texts.PARTS[part]) for key in keys), part


def test_no_two_parts_share_a_prefix():
    prefixes = [prefix for owned in texts.PARTS.values() for prefix in owned]
    assert len(prefixes) == len(set(prefixes))


def test_a_command_reads_the_part_it_speaks_in_its_language_only(tmp_path):
    english = modules_after("status", "--state-dir", str(tmp_path), tmp_path=tmp_path)
    assert PARTS & english == {"device.texts.cli_en"}
    french = modules_after("--language", "fr", "status", "--state-dir", str(tmp_path), tmp_path=tmp_path)
    assert PARTS & french == {"device.texts.cli_fr"}


def test_a_history_in_order_reads_no_journal_and_starts_without_the_log(tmp_path):
    state = str(tmp_path / "state")
    modules_after("history", "--state-dir", state, tmp_path=tmp_path)     # made (its steps logged)
    modules = modules_after("history", "--state-dir", state, tmp_path=tmp_path)
    assert {"device.cli.history", "device.storage.history", "sqlite3"} <= modules     # it did run
    for heavy in ("device.storage.journal", "device.storage.store", "device.storage.quarantine",
                  "engine.core.session", "engine.core.registry", "logging", "hashlib",
                  "dataclasses", "inspect"):
        assert heavy not in modules, heavy


def test_a_command_that_logs_has_its_log_set_up_as_logging_is_imported(tmp_path):
    """A damaged archived journal is left out of the history with one ERROR line, written as a
    command's log writes it (device/cli/logs.py), though nothing had imported logging before."""
    archive = tmp_path / "archive"
    archive.mkdir()
    (archive / "2026-01-01T10-00-00-finished.jsonl").write_text("not a journal\n")
    done = subprocess.run([sys.executable, "-m", "device.cli", "history", "--state-dir", str(tmp_path)],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 0, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("ERROR device.storage.history: ") and "left out of the history" in line


LOG_LATER = """
import importlib.util, sys
from device.cli import log_once_imported
log_once_imported({verbose})
assert "logging" not in sys.modules
importlib.util.find_spec("logging")          # looked up, not imported: the set-up still waits
import logging
logging.getLogger("tabletop.test").info("said with --verbose only")
logging.getLogger("tabletop.test").warning("said")
"""


@pytest.mark.parametrize("verbose", [False, True])
def test_the_log_waits_for_logging_to_be_imported_not_only_looked_up(verbose):
    done = subprocess.run([sys.executable, "-c", LOG_LATER.format(verbose=verbose)], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [*(["INFO tabletop.test: said with --verbose only"] if verbose
                                          else []), "WARNING tabletop.test: said"]
