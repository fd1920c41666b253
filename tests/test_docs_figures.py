"""The figures docs/research.md states for its fixture example are what its documented command gives: the
command is read from the page, run, and each figure the page quotes is compared with the run's."""

from __future__ import annotations

import json
import re
import shlex

from .conftest import ROOT, run_cli

PAGE = ROOT / "docs" / "research.md"
SECTION = "### Try it on the fixture"


def example() -> tuple[list[str], dict[str, float], int]:
    """The section's command (without `proactive`), the figures it states, and its count of contexts."""
    text = PAGE.read_text(encoding="utf-8")
    section = text[text.index(SECTION):]
    section = section[: section.index("\n## ")]
    [command] = re.findall(r"```sh\n(proactive [^\n]+)\n```", section)
    [figures] = re.findall(r"^Figures: (.+)$", section, re.M)
    stated = {name: float(value) for name, value in re.findall(r"need (precision|recall|F1|FPR) ([0-9.]+)", figures)}
    contexts = int(re.search(r"over (\d+) labelled contexts", figures).group(1))
    return shlex.split(command)[1:], stated, contexts


def test_the_documented_fixture_command_gives_the_documented_figures(proactive_home, tmp_path):
    args, stated, contexts = example()
    assert set(stated) == {"precision", "recall", "F1", "FPR"}
    done = run_cli(*args, "--cache", str(tmp_path / "c.db"))
    assert done.returncode == 0, done.stderr
    need = json.loads(done.stdout)["need"]
    assert need["contexts"] == contexts
    measured = {"precision": need["precision"], "recall": need["recall"], "F1": need["f1"], "FPR": need["fpr"]}
    assert {k: round(v, 3) for k, v in measured.items()} == stated
