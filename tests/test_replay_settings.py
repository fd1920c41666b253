"""A replay gives the same figures on any machine: its settings come from its options and their documented
defaults, never from the person's config.toml, and the report's header lists every setting that changes a
figure. `predict` and `replay --no-gate` offer the same tasks on the same session."""

from __future__ import annotations

import json

from .conftest import run_cli
from .replay_support import LABELS, SESSION, WRITING, replay


def figures(summary: dict) -> dict:
    """What a replay measured, without its run's own header (start, duration) and cache counts."""
    return {k: v for k, v in summary.items() if k not in ("cache", "run")}


def test_config_toml_does_not_change_replay(proactive_home, tmp_path):
    """proactivity = "high" in config.toml (which changes the need figures when given as --proactivity) leaves
    replay's figures as they are; so does a config.toml no command could read."""
    args = [str(SESSION), str(WRITING), "--model", "fake", "--labels", str(LABELS), "--json",
            "--cache", str(tmp_path / "c.db")]
    plain = replay(*args)
    assert plain.returncode == 0, plain.stderr
    high = replay(*args, "--proactivity", "high")
    assert figures(json.loads(high.stdout))["need"] != figures(json.loads(plain.stdout))["need"]

    (proactive_home / "config.toml").write_text('proactivity = "high"\nmodel = "default"\nweb_search = "on"\n')
    configured = replay(*args)
    assert configured.returncode == 0, configured.stderr
    assert figures(json.loads(configured.stdout)) == figures(json.loads(plain.stdout))

    (proactive_home / "config.toml").write_text("idle_secs = 3\n")  # unknown setting: every reader refuses it
    broken = replay(*args)
    assert broken.returncode == 0, broken.stderr
    assert figures(json.loads(broken.stdout)) == figures(json.loads(plain.stdout))


def test_the_header_lists_the_settings(proactive_home, tmp_path):
    """The report's header, the printed notes and --json name the proactivity level, model, k, gate, judge,
    timing and fetch the figures were made with."""
    out = tmp_path / "report"
    done = replay(str(SESSION), "--model", "fake", "--labels", str(LABELS), "--proactivity", "high", "--k", "2",
                  "--out", str(out), "--cache", str(tmp_path / "c.db"))
    assert done.returncode == 0, done.stderr
    expected = ("- settings: model fake, k 2, gate default, proactivity high, judge default, timing every turn "
                "(the paper's protocol), fetch off")
    assert expected in (out / "report.md").read_text().splitlines()
    assert done.stdout.splitlines()[0] == expected.removeprefix("- ")
    summary = json.loads(replay(str(SESSION), "--model", "fake", "--no-gate", "--json",
                                "--cache", str(tmp_path / "c.db")).stdout)
    assert summary["run"]["settings"] == {"model": "fake", "k": 1, "gate": "none (the first candidate is shown)",
                                          "proactivity": None, "judge": "default",
                                          "timing": "every turn (the paper's protocol)", "fetch": "off"}


def test_bad_settings_are_one_line(proactive_home, tmp_path):
    for args, option in ((["--proactivity", "loud"], "--proactivity"),
                         (["--search-engine", "ftp://x/?q={query}", "--accept", "--fetch", "--out", str(tmp_path)],
                          "--search-engine")):
        bad = replay(str(SESSION), "--model", "fake", *args, "--cache", str(tmp_path / "c.db"))
        assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
        assert option in bad.stderr


def test_predict_offers_what_replay_without_a_gate_shows(proactive_home, tmp_path):
    """On the same session and model, each turn's first candidate of `predict` is what `replay --no-gate` shows
    (a search in the session is material for page offers in both)."""
    predicted = run_cli("predict", str(SESSION), "--model", "fake", "--json")
    assert predicted.returncode == 0, predicted.stderr
    firsts = [(row["candidates"] or [None])[0] for row in map(json.loads, predicted.stdout.splitlines())]
    out = tmp_path / "run"
    shown = replay(str(SESSION), "--model", "fake", "--no-gate", "--out", str(out), "--cache", str(tmp_path / "c.db"))
    assert shown.returncode == 0, shown.stderr
    turns = [json.loads(line) for line in (out / "turns.jsonl").read_text().splitlines()]
    assert [t["shown"] for t in turns] == firsts
    assert any(firsts), "the fixture has turns with an offer"
