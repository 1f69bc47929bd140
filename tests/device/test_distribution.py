"""How this copy was installed, read from its .dist-info folder: the version, and the command
an install hint gives (a clone's venv, or the installed package's own pip and name)."""
from __future__ import annotations

import importlib.metadata
import json
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from device.install import distribution


def folder_with(tmp_path: Path, direct_url: str | None) -> str:
    folder = tmp_path / "tabletop_companion-0.1.0.dist-info"
    folder.mkdir(parents=True, exist_ok=True)
    if direct_url is not None:
        (folder / "direct_url.json").write_text(direct_url, encoding="utf-8")
    return str(folder)


def test_the_version_is_the_one_importlib_metadata_reads():
    assert distribution.version() == importlib.metadata.version("tabletop-companion")


def test_an_editable_install_names_its_clone(tmp_path):
    editable = json.dumps({"url": "file:///home/ann/tabletop%20companion", "dir_info": {"editable": True}})
    assert distribution.editable_source(folder_with(tmp_path, editable)) == "/home/ann/tabletop companion"


def test_a_wheel_or_an_unknown_install_names_no_clone(tmp_path):
    wheel = json.dumps({"url": "file:///tmp/tabletop_companion-0.1.0-py3-none-any.whl",
                        "archive_info": {}})
    assert distribution.editable_source(folder_with(tmp_path, wheel)) is None
    assert distribution.editable_source(folder_with(tmp_path / "no-file", None)) is None


@given(st.one_of(st.text(max_size=200),
                 st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                              lambda inner: st.lists(inner, max_size=3)
                              | st.dictionaries(st.sampled_from(["url", "dir_info", "editable"]),
                                                inner, max_size=3),
                              max_leaves=8).map(json.dumps)))
def test_any_direct_url_file_gives_a_clone_or_none(tmp_path_factory, text):
    found = distribution.editable_source(folder_with(tmp_path_factory.mktemp("d"), text))
    assert found is None or isinstance(found, str)


def test_a_clone_whose_own_venv_runs_is_told_its_make_venv_command(monkeypatch, tmp_path):
    monkeypatch.setattr(distribution, "editable_source", lambda: str(tmp_path))
    monkeypatch.setattr(sys, "prefix", str(tmp_path / ".venv"))
    assert distribution.extra_hint("fleet") == f"cd {tmp_path} && .venv/bin/pip install -e '.[fleet]'"


def test_an_installed_package_is_told_its_own_pip_and_name(monkeypatch):
    monkeypatch.setattr(distribution, "editable_source", lambda: None)
    hint = distribution.extra_hint("pi")
    assert hint.endswith(" install 'tabletop-companion[pi]'")
    assert hint.startswith(str(Path(sys.executable).parent))       # this interpreter's pip


def pipx_made(tmp_path: Path, name: str = "tabletop-companion") -> Path:
    """A venv as pipx lays it out: PIPX_HOME/venvs/NAME, with its pipx_metadata.json."""
    venv = tmp_path / "pipx" / "venvs" / name
    (venv / "bin").mkdir(parents=True)
    (venv / "pipx_metadata.json").write_text('{"pipx_metadata_version": "0.5"}')
    return venv


def test_a_copy_pipx_installed_is_told_pipx_inject(monkeypatch, tmp_path):
    monkeypatch.setattr(distribution, "editable_source", lambda: None)
    monkeypatch.setattr(sys, "prefix", str(pipx_made(tmp_path)))
    assert distribution.extra_hint("fleet") == \
        "pipx inject tabletop-companion 'tabletop-companion[fleet]'"
    monkeypatch.setattr(sys, "prefix", str(pipx_made(tmp_path, "tabletop")))     # pipx --suffix
    assert distribution.extra_hint("pi") == "pipx inject tabletop 'tabletop-companion[pi]'"


def test_a_venv_named_like_pipx_s_without_its_metadata_is_told_its_pip(monkeypatch, tmp_path):
    venv = pipx_made(tmp_path)
    (venv / "pipx_metadata.json").unlink()
    monkeypatch.setattr(distribution, "editable_source", lambda: None)
    monkeypatch.setattr(sys, "prefix", str(venv))
    assert distribution.extra_hint("fleet").endswith(" install 'tabletop-companion[fleet]'")
    assert distribution.pipx_venv(str(tmp_path)) is None
