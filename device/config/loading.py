"""Reading the configuration: parse the TOML, check each key and the rules between keys; and the
commented example that `tabletop config --example` prints.

An error always names the key (`display.i2c_address: ...`); an unknown key also suggests the
nearest known one.
"""
from __future__ import annotations

import difflib
import tomllib
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import tomli_w

from .pins import pin_conflicts
from .schema import TOP_KEYS, SECTIONS, Config, ConfigFileError, show_value


# ---------------------------------------------------------------------------------------------
# Loading.

SYSTEM_CONFIG = Path("/etc/tabletop/config.toml")      # where systemd/install.sh puts it


def config_path(given: Path | None) -> Path | None:
    """--config, else the installed table's config if there is one, else none (the defaults)."""
    if given is not None:
        return given
    return SYSTEM_CONFIG if SYSTEM_CONFIG.is_file() else None


def load_config(path: Path | None) -> Config:
    """The configuration in `path` (None: the defaults). ConfigFileError names the file and key."""
    if path is None:
        return Config()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigFileError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ConfigFileError(f"{path}: not a text file (TOML is UTF-8)") from None
    try:
        return parse_config(text, base=Path(path).parent)
    except ConfigFileError as exc:
        raise ConfigFileError(f"{path}: {exc}") from None


def parse_config(text: str, base: Path | None = None) -> Config:
    """The configuration in `text`; a relative `state_dir` is taken from `base` (the file's folder)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigFileError(str(exc)) from None
    if isinstance(data.get("kiosk"), bool):       # `kiosk = true` is short for [kiosk] enabled
        data["kiosk"] = {"enabled": data["kiosk"]}
    _refuse_unknown(data, [*TOP_KEYS, *SECTIONS], "")
    parts = {name: _section(name, cls, data.get(name, {})) for name, cls in SECTIONS.items()}
    top = {key: _value(Config, key, data[key], key) for key in TOP_KEYS if key in data}
    config = Config(**parts, **top)
    if config.state_dir is not None and base is not None and not config.state_dir.is_absolute():
        config = replace(config, state_dir=base / config.state_dir)
    check(config)
    return config


def check(config: Config) -> Config:
    """The rules between keys: contrasts, idle steps in order, and no GPIO used twice."""
    display, kiosk = config.display, config.kiosk
    if display.dim_contrast > display.contrast:
        raise ConfigFileError(f"display.dim_contrast: {display.dim_contrast} is brighter than "
                          f"display.contrast ({display.contrast})")
    if kiosk.dim_after_s and kiosk.screensaver_after_s and kiosk.screensaver_after_s <= kiosk.dim_after_s:
        raise ConfigFileError(f"kiosk.screensaver_after_s: {kiosk.screensaver_after_s:g} must come after "
                          f"kiosk.dim_after_s ({kiosk.dim_after_s:g})")
    for part, name in ((config.reader, "reader"), (display, "display")):
        if part.spi_bus == 0 and part.spi_device > 1:
            raise ConfigFileError(f"{name}.spi_device: SPI0 has chip selects 0 and 1 only")
    fleet = config.fleet
    if not fleet.tls and (fleet.ca_file or fleet.tls_insecure):
        key = "ca_file" if fleet.ca_file else "tls_insecure"
        raise ConfigFileError(f"fleet.{key}: set, but fleet.tls is false")
    problems = pin_conflicts(config)
    if problems:
        raise ConfigFileError(problems[0])
    return config


def _section(name: str, cls: type, table: object) -> Any:
    if not isinstance(table, dict):
        raise ConfigFileError(f"{name}: expected a table [{name}], not {show_value(table)}")
    known = [f.name for f in fields(cls)]
    _refuse_unknown(table, known, f"{name}.")
    return cls(**{key: _value(cls, key, value, f"{name}.{key}") for key, value in table.items()})


def _value(cls: type, key: str, value: object, label: str) -> Any:
    spec = next(f for f in fields(cls) if f.name == key)
    try:
        return spec.metadata["parse"](value)
    except ValueError as exc:
        raise ConfigFileError(f"{label}: {exc}") from None


def _refuse_unknown(table: dict, known: list[str], prefix: str) -> None:
    for key in table:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.5)
            hint = f"; did you mean {prefix}{close[0]}?" if close else f" (known: {', '.join(known)})"
            raise ConfigFileError(f"{prefix}{key}: unknown key{hint}")


# ---------------------------------------------------------------------------------------------
# The commented example.

def example_config() -> str:
    """Every key with its default and a one-line comment; `parse_config` reads it as the defaults."""
    lines = ["# Tabletop companion configuration (TOML). Every key is optional:",
             "# the values shown are the defaults. Pins are BCM GPIO numbers.", ""]
    lines += _example_keys(Config, Config(), TOP_KEYS)
    for name, cls in SECTIONS.items():
        lines += ["", f"# {cls.__doc__.split(': ', 1)[1]}", f"[{name}]"]
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
