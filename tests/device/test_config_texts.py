"""`tabletop config --check` speaks the chosen language: every kind of problem a configuration
can have is a catalog text, worded in English and in French."""
from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

import device.texts  # noqa: F401  (registers the catalogs)
from device.cli.config import problem_line
from device.config import SECTIONS, ConfigFileError, Problem, load_config, parse_config, usable
from device.config.loading import retired_keys
from device.config.problems import OS_REASONS, os_reason
from engine.core.text import Msg, catalog, render

ROOT = Path(__file__).resolve().parents[2]
NBSP = "\u00a0"        # French puts one before a colon (engine.text.fr_typeset)
# catalog texts of the command line that are no reason: the frame of a problem line, the verdict
NOT_REASONS = {"cli.config.ok", "cli.config.problem_at", "cli.config.more"}

# one file a kind of problem the loop over every key below does not reach
FILES = ["[reader]\npoll_hz = 1.5", '[reader]\nkind = "x"', "[display]\nrotate = 1",
         "[kiosk]\ndim_after_s = -1", "[buttons]\nhold_seconds = 9", "[buttons]\nup = 40",
         '[reader]\nirq_pin = "x"', '[display]\ni2c_address = "0xZZ"', "[display]\ni2c_address = 300",
         '[fleet]\nhost = ""', 'state_dir = "a\\u0000b"', 'state_dir = "~no-such-user-here/x"',
         '[fleet]\ntable = "a/b"', '[kiosk]\nnight_blank = "late"',
         '[kiosk]\nnight_blank = "10:00-10:00"', "[reader]\npoll_hz = " + "9" * 30, "[display\n",
         'a = "', "a = " + "[" * 5000 + "]" * 5000, "a = " + "9" * 5000, 'langage = "fr"',
         "[reader]\nzzzzzzzz = 1", "display = 3", "[display]\ncontrast = 10",
         "[kiosk]\ndim_after_s = 600", "[reader]\nspi_device = 2", "[fleet]\ntls_insecure = true",
         "[buttons]\nselect = 10", "[feedback]\nbuzzer_pin = 0", "[buttons]\ndown = 5",
         '[display]\nbus = "spi"\nspi_device = 0', '[display]\nbus = "spi"\n[buttons]\nup = 10']


def refused(text: str) -> list[Problem]:
    with pytest.raises(ConfigFileError) as caught:
        parse_config(text)
    return caught.value.problems


def every_key_wrong() -> list[str]:
    """Each key of each section given a wrong type, and a number below its range."""
    texts = []
    for name, cls in SECTIONS.items():
        for spec in fields(cls):
            texts += [f"[{name}]\n{spec.name} = [1]", f"[{name}]\n{spec.name} = -1"]
    return texts


def machine_problems(tmp_path: Path, monkeypatch) -> list[Problem]:
    """What a machine can lack for a config: each kind once."""
    (tmp_path / "file").write_text("")
    (tmp_path / "binary.toml").write_bytes(b"\xff\xfe")
    config = parse_config("")
    found = [*usable.machine_problems(config, tmp_path / "file" / "state")]
    for path in (tmp_path / "binary.toml", tmp_path / "missing.toml"):
        with pytest.raises(ConfigFileError) as caught:
            load_config(path)
        found += caught.value.problems
    old = tmp_path / "old.toml"
    old.write_text("[fleet]\nbuffer_events = 500\n")
    found += retired_keys(old.read_text(), old)
    found.append(Problem("fleet.ca_file", usable.readable_file(tmp_path)))
    found.append(Problem("fleet.ca_file", usable.readable_file(tmp_path / "missing.pem")))
    monkeypatch.setattr(usable.os, "access", lambda *_: False)       # as if not root
    found += [Problem("state_dir", usable.writable_dir(tmp_path)),
              Problem("state_dir", usable.writable_dir(tmp_path / "new"))]
    reasons = [OSError(number, "x") for number in OS_REASONS] + [OSError(9999, "odd"),
                                                                  ValueError("embedded null byte")]
    return found + [Problem("fleet.ca_file", os_reason(exc)) for exc in reasons]


def keys_of(message: Msg) -> set[str]:
    inner = {key for _, value in message.args if isinstance(value, Msg) for key in keys_of(value)}
    return {message.key} | inner


@pytest.fixture(scope="module")
def problems(tmp_path_factory) -> list[Problem]:
    found = [problem for text in FILES + every_key_wrong() for problem in refused(text)]
    with pytest.MonkeyPatch.context() as monkeypatch:
        return found + machine_problems(tmp_path_factory.mktemp("machine"), monkeypatch)


def test_every_reason_of_the_catalog_is_one_a_config_can_meet(problems):
    met = {key for problem in problems for key in keys_of(problem.reason)}
    reasons = {key for key in catalog("en") if key.startswith(("cli.config.", "cli.os."))}
    assert met <= reasons
    assert reasons - NOT_REASONS - met == set()


def test_every_problem_reads_in_both_languages_and_differs_between_them(problems):
    for problem in problems:
        english, french = (render(problem.reason, language) for language in ("en", "fr"))
        assert english and french and "{" not in english + french, problem
        assert english != french, problem
        assert "\n" not in english + french and len(french) < 400


def test_a_line_is_file_key_reason_in_the_language_s_typography(tmp_path):
    problem = refused("[buttons]\nup = 40")[0].in_file(tmp_path / "t.toml")
    assert problem_line(problem, "en") == f"{tmp_path / 't.toml'}: buttons.up: 40 is not a BCM GPIO number (0-27)"
    assert problem_line(problem, "fr") == (f"{tmp_path / 't.toml'}{NBSP}: buttons.up{NBSP}: 40 "
                                           "n'est pas un numéro de GPIO BCM (0-27)")


ENGLISH = re.compile(r"\b(is not|unknown key|did you mean|must come|expected|brighter|used by|"
                     r"reserved|No such|not valid|nested|a folder|writable|is also|only|but)\b")


def check(language: str, path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "device.cli", "--language", language, "config",
                           "--check", str(path)], capture_output=True, text=True, cwd=ROOT,
                          stdin=subprocess.DEVNULL)


def test_a_french_check_prints_no_english_reason(tmp_path):
    (tmp_path / "file").write_text("")
    path = tmp_path / "tabletop.toml"
    path.write_text(f'langage = "fr"\nstate_dir = "{tmp_path / "file" / "s"}"\n'
                    '[reader]\npoll_hz = 500\nspi_device = 2\n[display]\nrotate = 1\ncontrast = 10\n'
                    '[kiosk]\nnight_blank = "late"\ndim_after_s = 600\n'
                    '[buttons]\nup = "x"\nselect = 10\ndown = 13\n[feedback]\nbuzzer_pin = 0\n'
                    f'[fleet]\ntls = true\nca_file = "{tmp_path}"\ntable = "a/b"\n')
    english, french = check("en", path), check("fr", path)
    assert english.returncode == french.returncode == 2
    lines = list(zip(english.stderr.splitlines(), french.stderr.splitlines(), strict=True))
    assert len(lines) == 13
    for en, fr in lines:
        assert ENGLISH.search(en), en             # the pattern does catch English
        assert not ENGLISH.search(fr), fr
        assert fr.startswith(f"tabletop{NBSP}: {path}{NBSP}: ")
    broken = tmp_path / "broken.toml"
    broken.write_text("[display\n")
    assert check("fr", broken).stderr == \
        f"tabletop{NBSP}: {broken}{NBSP}: TOML invalide ligne 1, colonne 9\n"
