"""device/cli/entry_points.py against importlib.metadata: the same entry points of the same
distributions, on this interpreter's sys.path and on folders made to differ (two copies of a
distribution, names spelled differently, hostile entry_points.txt files)."""
from __future__ import annotations

import importlib.metadata
import sys

from hypothesis import given
from hypothesis import strategies as st

from device.cli.entry_points import entry_points
from engine.core.registry import GROUP


def pairs(entries) -> list[tuple[str, str]]:
    return sorted((entry.name, entry.value) for entry in entries)


def test_the_installed_games_are_importlib_s():
    assert pairs(entry_points(GROUP)) == pairs(importlib.metadata.entry_points(group=GROUP))
    assert len(entry_points(GROUP)) >= 5
    for entry in entry_points(GROUP):
        assert entry.load() is next(e for e in importlib.metadata.entry_points(group=GROUP)
                                    if e.name == entry.name).load()


def dist(folder, name: str, text: str) -> None:
    (folder / name).mkdir(parents=True)
    (folder / name / "entry_points.txt").write_text(text, encoding="utf-8")


def test_the_first_copy_of_a_distribution_on_the_path_is_the_one_read(tmp_path, monkeypatch):
    dist(tmp_path / "a", "Nice_Game-1.0.dist-info", "[tabletop.games]\nnice = nice.game:GAME\n")
    dist(tmp_path / "b", "nice.game-2.0.dist-info", "[tabletop.games]\nnice = old.game:GAME\n")
    dist(tmp_path / "b", "other-1.0.egg-info", "# a comment\n[tabletop.games]\n ok=other:G.spec [x]\n")
    dist(tmp_path / "b", "skip-1.0.dist-info", "[console_scripts]\nskip = skip:main\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "a"), str(tmp_path / "b"), str(tmp_path / "none")])
    ours = pairs(entry_points(GROUP))
    assert ours == pairs(importlib.metadata.entry_points(group=GROUP))
    assert ours == [("nice", "nice.game:GAME"), ("ok", "other:G.spec [x]")]


LINE = st.one_of(st.sampled_from(["[tabletop.games]", "[other]", "# note", "; n=o", "", "[", "[[tabletop.games]]",
                                  "a = b:c", "x=y", "= v", "k =", "  spaced  =  mod.sub:attr.more  "]),
                 st.text(alphabet="ab =:[].#;\t", max_size=12))


@given(st.lists(LINE, max_size=8))
def test_any_entry_points_file_reads_as_importlib_reads_it(tmp_path_factory, lines):
    folder = tmp_path_factory.mktemp("site")
    text = "\n".join(lines)
    dist(folder, "fuzz-1.0.dist-info", text)
    path = sys.path[:]
    sys.path[:] = [str(folder)]
    try:
        try:
            theirs = pairs(importlib.metadata.entry_points(group=GROUP))
        except (ValueError, TypeError):    # a line importlib cannot split: it reads nothing
            theirs = None
        ours = pairs(entry_points(GROUP))
    finally:
        sys.path[:] = path
    if theirs is not None:
        assert ours == theirs, text
