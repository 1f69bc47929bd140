"""Reading the configuration: parse the TOML, check each key and the rules between keys; and the
commented example that `tabletop config --example` prints.

An error always names the key (`display.i2c_address: ...`); an unknown key also suggests the
nearest known one. Every problem of a file is reported at once: a key that does not parse
takes its default meanwhile, so the rules between keys are still checked, except those that
name a key already reported.
"""
from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import tomli_w

from device.paths import given_text
from engine.core.text import msg

from .pins import pin_conflicts
from .problems import SHOWN, ConfigFileError, Problem, Refused, cut, os_reason, show_value
from .schema import RETIRED, SECTIONS, TOP_KEYS, Config
from .usable import readable_file

# ---------------------------------------------------------------------------------------------
# Loading.

def load_config(path: Path | None) -> Config:
    """The configuration in `path` (None: the defaults). ConfigFileError names the file and key."""
    if path is None:
        return Config()
    return config_in(config_text(path), path)


def config_text(path: Path) -> str:
    """The text of the config file at `path`, read once (it may be a pipe); ConfigFileError
    when it does not read."""
    path = Path(path)
    try:
        return given_text(path)
    except UnicodeDecodeError:
        raise ConfigFileError(Problem("", msg("cli.config.not_utf8"), file=path)) from None
    except (OSError, ValueError) as exc:     # ValueError: a NUL in the path given
        raise ConfigFileError(Problem("", msg("cli.config.cannot_read", why=os_reason(exc)),
                                      file=path)) from None


def config_in(text: str, path: Path) -> Config:
    """The configuration in `text`, read from the file `path`: its problems name the file."""
    path = Path(path)
    try:
        return parse_config(text, base=path.parent)
    except ConfigFileError as exc:
        raise ConfigFileError([problem.in_file(path) for problem in exc.problems], exc.partial) \
            from None


def config_for_run(path: Path | None) -> tuple[Config, list[Problem]]:
    """What `tabletop run` starts with, and why the file was not used as it stands (no problem:
    it was). A file that is there but does not read as it should (not UTF-8, bad TOML, a wrong key
    or value) gives its keys that read well and the defaults for the rest (the defaults
    throughout if what is left clashes), so a table never stops on its config; one that
    cannot be opened at all (a wrong --config) is ConfigFileError."""
    try:
        return load_config(path), []
    except ConfigFileError as exc:
        if path is None or readable_file(path) is not None:
            raise                   # not there, or not a file that opens: a wrong --config
        config = exc.partial or Config()
        if rules(config):
            config = Config(state_dir=config.state_dir)
        return config, exc.problems


def parse_config(text: str, base: Path | None = None) -> Config:
    """The configuration in `text`; a relative `state_dir` is taken from `base` (the file's folder).
    ConfigFileError lists every problem, one `key: reason` each."""
    data = _toml(text)
    if isinstance(data.get("kiosk"), bool):       # `kiosk = true` is short for [kiosk] enabled
        data["kiosk"] = {"enabled": data["kiosk"]}
    problems = _unknown(data, [*TOP_KEYS, *SECTIONS], "")
    parts = {name: _section(name, cls, data.get(name, {}), problems)
             for name, cls in SECTIONS.items()}
    top = _values(Config, {key: data[key] for key in TOP_KEYS if key in data}, "", problems)
    config = Config(**parts, **top)
    if config.state_dir is not None and base is not None and not config.state_dir.is_absolute():
        config = replace(config, state_dir=base / config.state_dir)
    bad = {problem.key for problem in problems}
    problems += [rule for rule in rules(config) if not rule.touches(bad)]
    if problems:
        raise ConfigFileError(problems, config)
    return config


_WHERE = re.compile(r"\(at line (\d+), column (\d+)\)")


def _toml(text: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        detail = str(exc)
        where = _WHERE.search(detail)
        if where is None:
            reason = msg("cli.config.not_toml", detail=cut(detail))
        else:
            reason = msg("cli.config.not_toml_at", line=where[1], column=where[2],
                         detail=cut(detail[:where.start()].strip()))
        raise ConfigFileError(Problem("", reason)) from None
    except RecursionError:          # tomllib recurses once a level of [[[...]]] or {a={b=...}}
        raise ConfigFileError(Problem("", msg("cli.config.too_deep"))) from None
    except ValueError as exc:       # int() of a number past 4,300 digits, raised as it is
        raise ConfigFileError(Problem("", msg("cli.config.unreadable_value",
                                              detail=cut(str(exc))))) from None


def retired_keys(text: str, path: Path) -> list[Problem]:
    """A `key: no longer used` note for each retired key the text of the file `path` still
    has (else none)."""
    try:
        data = _toml(text)
    except ConfigFileError:
        return []                   # the file's own problems say what is wrong with it
    lines = []
    for key, why in RETIRED.items():
        section, _, name = key.rpartition(".")
        if isinstance(data.get(section), dict) and name in data[section]:
            lines.append(Problem(key, msg("cli.config.retired", why=msg(why)), file=Path(path)))
    return lines


def rules(config: Config) -> list[Problem]:
    """The rules between keys: contrasts, idle steps in order, and no GPIO used twice."""
    display, kiosk, fleet = config.display, config.kiosk, config.fleet
    problems = []
    if display.dim_contrast > display.contrast:
        problems.append(Problem("display.dim_contrast", msg(
            "cli.config.dimmer_brighter", value=display.dim_contrast, contrast=display.contrast),
            names=("display.contrast",)))
    if kiosk.dim_after_s and kiosk.screensaver_after_s and kiosk.screensaver_after_s <= kiosk.dim_after_s:
        problems.append(Problem("kiosk.screensaver_after_s", msg(
            "cli.config.screensaver_first", value=f"{kiosk.screensaver_after_s:g}",
            dim=f"{kiosk.dim_after_s:g}"), names=("kiosk.dim_after_s",)))
    for part, name in ((config.reader, "reader"), (display, "display")):
        if part.spi_bus == 0 and part.spi_device > 1:
            problems.append(Problem(f"{name}.spi_device", msg("cli.config.spi0_selects"),
                                    names=(f"{name}.spi_bus",)))
    if not fleet.tls and (fleet.ca_file or fleet.tls_insecure):
        key = "ca_file" if fleet.ca_file else "tls_insecure"
        problems.append(Problem(f"fleet.{key}", msg("cli.config.needs_tls"),
                                names=("fleet.tls",)))
    return problems + pin_conflicts(config)


def _section(name: str, cls: type, table: object, problems: list[Problem]) -> Any:
    if not isinstance(table, dict):
        problems.append(Problem(name, msg("cli.config.not_a_section", name=name,
                                          value=show_value(table))))
        return cls()
    problems += _unknown(table, [f.name for f in fields(cls)], f"{name}.")
    return cls(**_values(cls, table, f"{name}.", problems))


def _values(cls: type, table: dict, prefix: str, problems: list[Problem]) -> dict[str, Any]:
    """The keys of `table` that `cls` knows and that parse; a problem for each other."""
    values = {}
    for spec in fields(cls):
        if spec.name in table and "parse" in spec.metadata:
            try:
                values[spec.name] = spec.metadata["parse"](table[spec.name])
            except Refused as exc:
                problems.append(Problem(f"{prefix}{spec.name}", exc.reason))
    return values


def _unknown(table: dict, known: list[str], prefix: str) -> list[Problem]:
    problems = []
    for key in table:
        if key not in known and f"{prefix}{key}" not in RETIRED:
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.5) if len(key) <= SHOWN \
                else []
            reason = msg("cli.config.unknown_near", near=f"{prefix}{close[0]}") if close else \
                msg("cli.config.unknown", known=", ".join(known))
            problems.append(Problem(f"{prefix}{cut(key)}", reason))
    return problems


# ---------------------------------------------------------------------------------------------
# The commented example.

def example_config() -> str:
    """Every key with its default and a one-line comment; `parse_config` reads it as the defaults."""
    lines = ["# Tabletop companion configuration (TOML). Every key is optional:",
             "# the values shown are the defaults. Pins are BCM GPIO numbers.", ""]
    lines += _example_keys(Config, Config(), TOP_KEYS)
    for name, cls in SECTIONS.items():
        lines += ["", f"# {(cls.__doc__ or '').split(': ', 1)[-1]}", f"[{name}]"]
        lines += _example_keys(cls, cls(), [f.name for f in fields(cls)])
    return "\n".join(lines) + "\n"


def _example_keys(cls: type, defaults: object, keys: list[str] | tuple[str, ...]) -> list[str]:
    """A comment and a `key = default` line per key; an unset key shows its example, commented out
    unless the example means "unset" (language = "auto")."""
    lines: list[str] = []
    for spec in fields(cls):
        if spec.name not in keys:
            continue
        value, example = getattr(defaults, spec.name), spec.metadata["example"]
        lines.append(f"# {spec.metadata['doc']}")
        if value is not None:
            lines.append(_toml_line(spec.name, value))
        elif spec.metadata["parse"](example) is None:
            lines.append(_toml_line(spec.name, example))
        else:
            lines.append(f"# {_toml_line(spec.name, example)}")
    return lines


def _toml_line(key: str, value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and key.endswith("address"):
        return f"{key} = 0x{value:02X}"
    if isinstance(value, float) and value.is_integer():
        return f"{key} = {value:.1f}"
    return tomli_w.dumps({key: value}).strip()
