"""Property-based fuzzing of every file the table reads from its state dir, and of the files a
person hands to a command: decks, staff lists, card data, settings, the fleet's own files,
saved games and the history database.

Two properties, whatever the bytes: never a traceback (a reader refuses with its own error,
or reads the file), and a refused file changes no byte on disk. The running table moves a
refused file of its state dir to `unreadable/` whole; nothing else there changes. A command
that refuses an input file (deck import, cards import and install) changes nothing at all.
"""
from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import tempfile
from contextlib import closing, contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from device.cli import main
from device.decks.deck_file import DeckError, families
from device.decks.registry import DeckRegistry
from device.fleet.journal_feed import CURSOR_FILE, Cursor
from device.fleet.signing import ROLL_FILE, StaffRoll
from device.storage import quarantine
from device.storage.card_data import game_data, install, learned_details, learned_file, merge_details
from device.storage.history import FILE as HISTORY
from device.storage.history import open_history, update_history
from device.storage.settings import SETTINGS_FILE, saved_language
from device.storage.store import GameStore

from .table import SimTable
from .test_crash import GAME

ROOT = Path(__file__).resolve().parents[2]

EXAMPLES = 40
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])
FIGURES: dict[str, dict[str, int]] = {}          # format: inputs tried, tracebacks, bytes changed

HOSTILE = [b"\x00", b"\xff\xfe", b"\xc3", b"[" * 3000, b"a = " + b"[" * 3000, b"{" * 3000,
           b"x = " + b"9" * 5000, b"x" * 20_000, b"= = =", b"\r\n", b'"\\u', b"[[staff]]",
           b"[tags]\n", b"[staff]\n", b"deck = 5\n", b"family = []\n", b'{"a": {"b": [1]}}']
TEXT = st.text(max_size=12)
# TOML has no null: its scalars are JSON's but None, left out rather than filtered out (a filter
# on a one_of asks each branch, and none() can never pass: over half of the draws were thrown away)
TOML_SCALARS = st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT
JSON = st.recursive(st.none() | TOML_SCALARS, lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(TEXT, inner, max_size=3), max_leaves=8)
TOML = st.recursive(TOML_SCALARS,
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(TEXT, inner, max_size=3), max_leaves=8)
UIDS = st.sampled_from(["04A1B2C3", "04:a1:b2:c4", "04A1B2C3D4E5F6", "zz", "", "0" * 40]) | TEXT
CARDS = st.sampled_from(["clam#1", "clam#2", "crab#1", "1", "chief_mouta#1", "action#3",
                         "nope"]) | TEXT


def with_hostile(documents) -> st.SearchStrategy[bytes]:
    """Raw bytes, hostile chunks, and well-formed documents with hostile bytes spliced in."""
    spliced = st.tuples(documents, st.sampled_from(HOSTILE), st.integers(0, 400)).map(
        lambda t: t[0][:t[2]] + t[1] + t[0][t[2]:])
    return st.one_of(st.binary(max_size=300), st.sampled_from(HOSTILE), documents, spliced)


def toml_bytes(data: dict) -> bytes:
    return tomli_w.dumps(data).encode()


DECKS = with_hostile(st.fixed_dictionaries(
    {}, optional={"deck": st.sampled_from(["cafe", "bad name", "sim-x"]) | TOML,
                  "family": st.sampled_from(sorted(families())) | TOML,
                  "tags": st.dictionaries(UIDS, CARDS | TOML, max_size=4) | TOML,
                  "extra": TOML}).map(toml_bytes))
STAFF = with_hostile(st.fixed_dictionaries(
    {}, optional={"staff": st.dictionaries(UIDS, TEXT | TOML, max_size=4) | TOML,
                  "other": TOML}).map(toml_bytes))
SETTINGS = with_hostile(st.dictionaries(st.sampled_from(["language", "x"]),
                                        st.sampled_from(["en", "fr", "de"]) | TOML,
                                        max_size=2).map(toml_bytes))
LEARNED = with_hostile(st.dictionaries(CARDS, st.dictionaries(
    st.sampled_from(["people", "white", "x"]),
    st.sampled_from(["bloup", "faar", "martian", 7, 100, -1]) | JSON, max_size=2) | JSON,
    max_size=3).map(lambda d: json.dumps(d).encode()))
FLEET = with_hostile(JSON.map(lambda v: json.dumps(v).encode()))


# ---- the state dirs the fuzzers start from ----------------------------------------------------

@pytest.fixture(scope="module")
def furnished(tmp_path_factory) -> Path:
    """A good file of every kind the table reads at start or at a tap."""
    state = tmp_path_factory.mktemp("fuzz-furnished")
    registry = DeckRegistry(state)
    registry.add_tag("cafe", "palourde", "04A1B2C3", "clam#1")
    registry.add_staff("04AABBCCDDEEFF", "Front desk")
    (state / SETTINGS_FILE).write_text('language = "fr"\n')
    merge_details(state, "flouk", {"action#3": {"people": "bloup"}})
    (state / CURSOR_FILE).write_text('{"abc": 3}')
    (state / ROLL_FILE).write_text('{"0f": "Bar"}')
    return state


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A finished game in the archive and the history."""
    state = tmp_path_factory.mktemp("fuzz-played")
    SimTable(state).start("palourde", "Ann,Bob,Cy").run("\n".join(GAME))
    update_history(state)
    return state


@contextmanager
def copy_of(furnished: Path):
    """A fresh copy of the furnished state dir, watched as the running table's."""
    with tempfile.TemporaryDirectory(dir=furnished.parent) as folder:
        state = Path(folder) / "state"
        # the bytes only: no reader looks at a file's mode or times (copy2 sets both)
        shutil.copytree(furnished, state, copy_function=shutil.copyfile)
        quarantine.watch(state)
        try:
            yield state
        finally:
            quarantine.unwatch(state)


def snapshot(state: Path) -> dict[str, bytes]:
    """Every file under `state` but a hidden one, by its path there, in the order of Path's."""
    found = []
    for folder, _, names in os.walk(state):
        for name in names:
            path = os.path.join(folder, name)
            if not name.startswith(".") and os.path.isfile(path):
                with open(path, "rb") as file:
                    found.append((os.path.relpath(path, state), file.read()))
    return dict(sorted(found, key=lambda item: Path(item[0]).parts))


def figures(kind: str) -> dict[str, int]:
    return FIGURES.setdefault(kind, {"inputs tried": 0, "tracebacks": 0, "bytes changed": 0})


def moved_whole_or_kept(kind: str, state: Path, name: str, data: bytes, before: dict) -> bool:
    """After the table read `name` (holding `data`): either it was used as it is (nothing on
    disk changed), or it was moved to unreadable/ byte for byte and nothing else changed.
    True if it was refused; a changed byte counts and fails."""
    after = snapshot(state)
    aside = {k: v for k, v in after.items() if k.startswith("unreadable/")}
    rest = {k: v for k, v in after.items() if not k.startswith("unreadable/")}
    if not aside:
        changed = after != before
    else:
        kept = f"unreadable/000001-{Path(name).name}"
        changed = aside.get(kept) != data or set(aside) != {kept, kept + ".reason"} \
            or rest != {k: v for k, v in before.items() if k != name}
    figures(kind)["bytes changed"] += changed
    assert not changed, sorted(set(after) ^ set(before))
    return bool(aside)


def tried(kind: str, read) -> object:
    figures(kind)["inputs tried"] += 1
    try:
        return read()
    except Exception:
        figures(kind)["tracebacks"] += 1
        raise


def read_in_state(kind: str, furnished: Path, name: str, data: bytes, read) -> bool:
    """Put `data` in the state dir as `name`, read it as the running table does.
    True if the table set it aside."""
    with copy_of(furnished) as state:
        path = state / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        before = snapshot(state)
        tried(kind, lambda: read(state))
        return moved_whole_or_kept(kind, state, name, data, before)


# ---- files the running table reads -----------------------------------------------------------

def registry_reads(state: Path) -> None:
    registry = DeckRegistry(state)
    registry.decks()
    registry.staff()
    registry.lookup("04A1B2C3")


@FUZZ
@given(data=DECKS)
def test_deck_files(furnished, data):
    read_in_state("deck files", furnished, "decks/cafe.toml", data, registry_reads)


@FUZZ
@given(data=STAFF)
def test_staff_lists(furnished, data):
    read_in_state("staff lists", furnished, "staff.toml", data, registry_reads)


@FUZZ
@given(data=SETTINGS)
def test_settings(furnished, data):
    read_in_state("settings", furnished, SETTINGS_FILE, data, saved_language)


@FUZZ
@given(data=LEARNED)
def test_learned_card_details(furnished, data):
    def read(state):
        details = learned_details(state, "flouk")
        assert isinstance(details, dict)
    # a partly good file is moved whole and its good part written again: not compared here
    with copy_of(furnished) as state:
        path = learned_file(state, "flouk")
        path.write_bytes(data)
        before = snapshot(state)
        tried("learned card details", lambda: read(state))
        aside = state / "unreadable" / "000001-flouk.learned.json"
        changed = aside.exists() and aside.read_bytes() != data
        rest = {k: v for k, v in snapshot(state).items()
                if not k.startswith("unreadable/") and k != "cards/flouk.learned.json"}
        changed |= rest != {k: v for k, v in before.items() if k != "cards/flouk.learned.json"}
        changed |= not aside.exists() and path.read_bytes() != data
        figures("learned card details")["bytes changed"] += changed
        assert not changed


@FUZZ
@given(data=with_hostile(st.just((ROOT / "engine" / "games" / "flouk" / "deck.toml").read_bytes())))
def test_installed_card_files(furnished, data):
    read_in_state("installed card files", furnished, "cards/flouk.toml", data,
                  lambda state: game_data(engine.get("flouk"), state))


@FUZZ
@given(data=FLEET, name=st.sampled_from([CURSOR_FILE, ROLL_FILE]))
def test_fleet_files(furnished, data, name):
    read = (lambda state: Cursor(state).done) if name == CURSOR_FILE else \
        (lambda state: StaffRoll(state).pending())
    read_in_state("fleet cursor and staff roll", furnished, name, data, read)


JOURNAL_LINES = [b'{"journal": 1}', b'{"op": "event", "seq": 1}', b'{"op": "end"}', b"[1]",
                 b'{"journal": 1, "game": "palourde", "config": {}}', b"", b"null"]


@FUZZ
@given(data=with_hostile(st.lists(st.sampled_from(JOURNAL_LINES), max_size=4).map(
    lambda lines: b"\n".join(lines) + b"\n")), cut=st.integers(0, 3000))
def test_saved_games(played, data, cut):
    saved = (played / "archive" / "000001-finished.jsonl").read_bytes()
    for text in (data, saved[:cut] + data):           # nonsense, or a real game damaged
        with copy_of(played) as state:
            (state / "current.jsonl").write_bytes(text)
            before = snapshot(state)
            resumed, problem = tried("saved games", lambda: GameStore(state).resume())
            if problem is not None or resumed is None and (state / "current.jsonl").exists():
                moved_whole_or_kept("saved games", state, "current.jsonl", text, before)
                continue
            # taken: resumed in place, or archived when it had ended; a torn last line (a
            # power cut mid-write, never acknowledged) is all that may go
            whole = text[:text.rfind(b"\n") + 1]
            after = snapshot(state)
            new = {k: v for k, v in after.items() if k not in before or k == "current.jsonl"}
            changed = list(new.values()) != [whole if resumed is None or resumed.torn else text]
            changed |= {k: v for k, v in after.items() if k in before and k != "current.jsonl"} \
                != {k: v for k, v in before.items() if k != "current.jsonl"}
            figures("saved games")["bytes changed"] += changed
            assert not changed


@FUZZ
@given(data=with_hostile(st.lists(st.sampled_from(JOURNAL_LINES), max_size=4).map(
    lambda lines: b"\n".join(lines) + b"\n")), cut=st.integers(0, 3000),
    key=st.sampled_from(["id", "started", "deck", "at"]), value=JSON)
def test_archived_games(played, data, cut, key, value):
    saved = (played / "archive" / "000001-finished.jsonl").read_bytes()
    header, *rest = saved.split(b"\n", 1)
    retyped = json.loads(header)                      # a field of the header or end retyped
    retyped.update({"id": "other"}, **{key: value})
    for text in (data, saved[:cut] + data, json.dumps(retyped).encode() + b"\n" + rest[0]):
        def read(state):
            update_history(state)
            with closing(open_history(state)) as history:
                assert "000001-finished.jsonl" in [g.journal for g in history.games()]
        name = "archive/000002-finished.jsonl"
        with copy_of(played) as state:
            (state / name).write_bytes(text)
            before = {k: v for k, v in snapshot(state).items() if not k.startswith(HISTORY)}
            tried("archived games", lambda: read(state))
            after = {k: v for k, v in snapshot(state).items() if not k.startswith(HISTORY)}
            aside = {k: v for k, v in after.items() if k.startswith("unreadable/")}
            changed = {k: v for k, v in after.items() if not k.startswith("unreadable/")} != \
                ({k: v for k, v in before.items() if k != name} if aside else before)
            changed |= bool(aside) and aside.get("unreadable/000001-000002-finished.jsonl") != text
            figures("archived games")["bytes changed"] += changed
            assert not changed


# ---- the history database --------------------------------------------------------------------

def damage_database(path: Path, how: str, at: int, junk: bytes) -> None:
    if how == "bytes":                                 # the file itself, overwritten in places
        raw = bytearray(path.read_bytes())
        where = at % max(1, len(raw))
        raw[where:where + len(junk)] = junk
        path.write_bytes(bytes(raw))
    elif how == "cut":
        path.write_bytes(path.read_bytes()[:at])
    else:
        with closing(sqlite3.connect(path)) as db, db:
            db.execute({"drop games": "DROP TABLE games", "drop players": "DROP TABLE players",
                        "empty games": "DELETE FROM games", "empty players": "DELETE FROM players",
                        "options": "UPDATE games SET options = ?",
                        "seat": "UPDATE players SET seat = ? WHERE seat = 1",
                        "score": "UPDATE players SET score = ?"}[how],
                       (junk.decode("utf-8", "replace"),) if how in ("options", "seat", "score")
                       else ())


@FUZZ
@given(how=st.sampled_from(["bytes", "cut", "drop games", "drop players", "empty games",
                            "empty players", "options", "seat", "score"]),
       at=st.integers(0, 20_000), junk=st.binary(min_size=1, max_size=64)
       | st.sampled_from([b"[]", b"{", b"null", b'"x"', b"[" * 3000]),
       shown=st.sampled_from([[], ["--json"], ["--csv"], ["--stats"]]))
def test_the_history_database(played, how, at, junk, shown):
    with copy_of(played) as state:
        path = state / HISTORY
        with closing(sqlite3.connect(path)) as db:      # one file: the WAL folded in
            db.execute("PRAGMA journal_mode=DELETE")
        damage_database(path, how, at, junk)
        archive = {k: v for k, v in snapshot(state).items() if k.startswith("archive/")}
        damaged = path.read_bytes()

        def read():
            with closing(open_history(state)) as history:
                games = [(g.game, [p.name for p in g.players]) for g in history.games()]
            assert command("history", *shown, "--state-dir", str(state)) in (0, 2)
            return games
        try:
            games = tried("history database", read)
        except sqlite3.OperationalError:    # not damage the table can tell (locked, I/O): left
            games = None
        after = snapshot(state)
        aside = after.get("unreadable/000001-history.sqlite")
        changed = {k: v for k, v in after.items() if k.startswith("archive/")} != archive
        changed |= aside is not None and aside != damaged
        figures("history database")["bytes changed"] += changed
        assert not changed
        if aside is not None:                # rebuilt: every finished game, every player
            assert games == [("palourde", ["Ann", "Bob", "Cy"])]


# ---- files a person hands to a command -----------------------------------------------------

def command(*argv: str) -> int:
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        return main(list(argv))


def handed(kind: str, furnished: Path, data: bytes, *argv: str) -> None:
    """`tabletop ARGV FILE --state-dir DIR`: refused (exit 1 or 2) changes no byte at all."""
    with copy_of(furnished) as state:
        quarantine.unwatch(state)                     # a command, not the running table
        given_file = state.parent / "given"
        given_file.write_bytes(data)
        before = snapshot(state)
        code = tried(kind, lambda: command(*argv, str(given_file), "--state-dir", str(state)))
        changed = code != 0 and snapshot(state) != before
        changed |= given_file.read_bytes() != data
        figures(kind)["bytes changed"] += changed
        assert not changed and code in (0, 1, 2)


@FUZZ
@given(data=DECKS, replace=st.booleans())
def test_deck_import(furnished, data, replace):
    handed("deck import", furnished, data, "deck", "import", *(["--replace"] if replace else []))


@FUZZ
@given(data=LEARNED)
def test_cards_import(furnished, data):
    handed("cards import", furnished, data, "cards", "import")


@FUZZ
@given(data=with_hostile(st.just((ROOT / "engine" / "games" / "flouk" / "deck.toml").read_bytes())))
def test_cards_install(furnished, data):
    handed("cards install", furnished, data, "cards", "install")


def test_a_deck_import_refused_raises_only_deck_errors(tmp_path):
    """The registry's own refusal, for a caller that is not the command line."""
    with pytest.raises(DeckError):
        DeckRegistry(tmp_path).import_text("deck = 'x'\n" + "a = " + "[" * 3000)
    assert list(tmp_path.iterdir()) == []
    assert install(tmp_path, "flouk", "\x00") and list(tmp_path.iterdir()) == []


def test_every_hostile_chunk_in_every_file_the_table_reads(furnished):
    """The fixed hostile chunks, each as every state-dir file the table reads: none makes a
    traceback or changes a byte, and the broken ones are set aside whole. Counted here, not
    gathered from the fuzzers, so it holds however the tests are split or ordered."""
    readers = {"decks/cafe.toml": registry_reads, "staff.toml": registry_reads,
               SETTINGS_FILE: saved_language,
               "cards/flouk.toml": lambda state: game_data(engine.get("flouk"), state)}
    FIGURES.clear()
    set_aside = {name: sum(read_in_state(name, furnished, name, data, read) for data in HOSTILE)
                 for name, read in readers.items()}
    for kind, found in sorted(FIGURES.items()):
        print(f"hostile chunks in {kind}: {found}, set aside {set_aside[kind]}")   # for -s
    assert FIGURES == {name: {"inputs tried": len(HOSTILE), "tracebacks": 0, "bytes changed": 0}
                       for name in readers}
    assert all(set_aside.values())          # a NUL byte is no deck, staff list or settings
