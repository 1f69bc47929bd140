"""The README's replay example is the program's real output."""
from __future__ import annotations

import re
from pathlib import Path

from device.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_replay_example_matches(tmp_path, capsys):
    text = README.read_text(encoding="utf-8")
    block = re.search(r"\$ cat pairs.txt\n(.*?)\$ tabletop replay pairs.txt\n(.*?)```", text, re.S)
    script, shown = block.group(1), block.group(2)
    (tmp_path / "pairs.txt").write_text(script, encoding="utf-8")
    assert main(["replay", str(tmp_path / "pairs.txt")]) == 0
    assert capsys.readouterr().out.strip() == shown.strip()


ROOT = README.parent
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def relative_links(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [target for target in LINK.findall(text) if "://" not in target
            and not target.startswith(("#", "mailto:"))]


def test_every_relative_link_of_the_readme_and_the_docs_resolves_inside_the_repository():
    broken = []
    for path in [README, *sorted((ROOT / "docs").glob("*.md"))]:
        for target in relative_links(path):
            resolved = (path.parent / target.split("#", 1)[0]).resolve()
            if not resolved.is_relative_to(ROOT) or not resolved.exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert not broken


def test_the_readme_points_to_the_rules_and_the_card_ids():
    links = relative_links(README)
    assert "docs/rules.md" in links and "docs/cards.md" in links


def test_every_help_points_to_the_rules_and_the_card_ids_an_installed_table_carries():
    from device.cli import build_parser, completion

    for language in ("en", "fr"):
        for parser in completion.command_paths(build_parser(language)).values():
            text = " ".join(parser.format_help().split())
            assert "tabletop guide rules" in text and "tabletop guide cards" in text, parser.prog


def test_the_simulators_terminal_sizes_are_the_ones_the_readme_gives():
    from device.sim.terminal import BELOW, BESIDE, layout
    from hardware.sim_display import braille, halfblocks, quadrants

    readme = " ".join(README.read_text(encoding="utf-8").split())
    assert "From 40 rows the screen's text goes below the picture" in readme
    # each "from" size is the least that gets it: a column or a row fewer gets something else
    least = {"half blocks from 130 columns": ((130, 40), halfblocks, BELOW),
             "quadrants from 66": ((66, 40), quadrants, BELOW),
             "beside them from 90x35": ((90, 35), quadrants, BESIDE)}
    for words, (size, picture, feedback) in least.items():
        assert words in readme, words
        assert layout((128, 64), size) == (picture, feedback), words
        smaller = (size[0] - 1, size[1]), (size[0], size[1] - 1)
        assert all(layout((128, 64), other) != (picture, feedback) for other in smaller), words
    assert "ordinary 80x24 gets braille with the text below" in readme
    assert layout((128, 64), (80, 24)) == (braille, BELOW)
