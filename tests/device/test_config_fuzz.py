"""parse_config never fails but with ConfigFileError, whatever the file holds."""
from __future__ import annotations

import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from device.config import SECTIONS, Config, ConfigFileError, parse_config
from device.config.schema import TOP_KEYS

KEYS = {name: [f for f in cls.__dataclass_fields__] for name, cls in SECTIONS.items()}
# TOML has no null. None is left out, not filtered out: a filter on a one_of asks each branch,
# and none() never passes (over half of the draws were thrown away).
SCALARS = (st.booleans() | st.integers() | st.floats(allow_nan=False)
           | st.text(max_size=40) | st.sampled_from(["none", "auto", "0x3C", "~", "23:00-08:00",
                                                     "rc522", "spi", "en"]))
VALUES = st.recursive(SCALARS,
                      lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)


def parses_or_refuses(text: str) -> None:
    try:
        assert isinstance(parse_config(text), Config)
    except ConfigFileError as exc:
        assert exc.problems and all(problem for problem in exc.problems)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text(text):
    parses_or_refuses(text)


# Built once, not at each draw: a strategy made anew is checked anew (the same draws either way).
TOP = st.lists(st.sampled_from([*TOP_KEYS, "x"]), max_size=3)
NAMES = st.lists(st.sampled_from(list(KEYS)), max_size=4, unique=True)
SECTIONS_OF = {name: st.dictionaries(st.sampled_from(KEYS[name] + ["typo"]), VALUES, max_size=4)
               for name in KEYS}


@st.composite
def configs(draw) -> dict:
    """Known sections and keys (and a few unknown ones) with values of any TOML type."""
    data = {key: draw(VALUES) for key in draw(TOP)}
    for name in draw(NAMES):
        data[name] = draw(SECTIONS_OF[name]) if draw(st.booleans()) else draw(VALUES)
    return data


@settings(max_examples=150, deadline=None)
@given(configs())
def test_any_toml_document_of_known_keys(data):
    parses_or_refuses(tomli_w.dumps(data))
