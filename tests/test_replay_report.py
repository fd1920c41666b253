"""Replay's report end to end: the tables with their intervals and the header, the plots (and a report without
matplotlib), baselines beside our figures, a gate trained on the replayed sessions said to be in sample with the
held-out figure beside it, and the session-clustered bootstrap behind the intervals."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

from .conftest import FIXTURES, ROOT, run_cli
from .replay_support import LABELS, SESSION, TURN_KEYS, WRITING, replay


def assert_turns_quoted(rows: list[dict], report: str) -> None:
    """turns.jsonl's rows (both sessions, the need labels of the labelled one) and every shown task quoted in the
    report with the events before it."""
    assert len(rows) == 10 and all(set(r) == TURN_KEYS for r in rows)
    assert [r["need"] for r in rows if r["session"] == SESSION.name] == [False, False, True, True, False]
    assert {r["need"] for r in rows if r["session"] == WRITING.name} == {None}  # no labels for that session
    for r in rows:
        assert 0.0 <= r["p_need"] <= 1.0 and set(r["scores"]) == set(r["candidates"])
        assert r["shown"] is None or r["shown"] in r["candidates"]
    shown = [r for r in rows if r["shown"]]
    assert shown, "the fixture has moments that need help"
    assert f"What the person would have seen ({len(shown)} of {len(shown)} shown tasks)" in report
    for r in shown:
        assert f"**{r['shown']}**" in report and r["event"] in report


def assert_trace_read_back(outdir: Path, rows: list[dict], cache: Path) -> None:
    """Our run, in the archived-trace format, read back beside the baselines: the same shown tasks, the same need
    detection and judged outcomes."""
    [agent] = [p.name for p in (outdir / "traces").iterdir()]
    assert agent == "fake+gate-default-t0.5"
    trace = json.loads((outdir / "traces" / agent / SESSION.name).read_text())
    assert [t["agent_response"] for t in trace] == [[r["shown"]] if r["shown"] else [] for r in rows[:5]]
    assert [t["observation"] for t in trace] == [o["observation"] for o in json.loads(SESSION.read_text())]
    again = json.loads(replay(str(SESSION), str(WRITING), "--model", "fake", "--labels", str(LABELS), "--baselines",
                              str(outdir / "traces"), "--json", "--cache", str(cache)).stdout)
    back = again["baselines"][agent]
    # a trace holds the shown offers only: read back, its need detection is ours counting shown offers, and its
    # judged figures (as proposed) are ours under the live protocol (what was shown)
    assert back["need"] == again["need_shown"] and back["events"] == 10
    assert back["paper"] == {k: again["live"][k] for k in back["paper"]} and back["fpr"] == again["live"]["fpr"]
    assert "need_calibration" not in back and again["need_calibration"]["n"] == 5


def test_report_and_baselines(proactive_home, tmp_path):
    """The report's parts and the baselines beside our run (the fake model: this is about the report; the
    built-in model's own replay is test_replay_end_to_end_with_cache)."""
    outdir = tmp_path / "report"
    out = replay(str(SESSION), str(WRITING), "--model", "fake", "--labels", str(LABELS), "--baselines", str(FIXTURES / "baselines"),
                 "--out", str(outdir), "--cache", str(tmp_path / "c.db"))
    assert out.returncode == 0, out.stderr
    assert "judge: " in out.stdout and "WARNING: the judge is the gate's own reward model" in out.stdout
    report = (outdir / "report.md").read_text()
    assert "always-speaks" in report and "always-silent" in report and "ours" in report
    # the report leads with need detection (the figure no judge is involved in), then the judged metrics under
    # both protocols, each labelled and defined; archived models are scored as they proposed
    assert report.index("## Need detection against the human labels (the headline)") < report.index("## Judged")
    # the shipped gate learned from these fixture contexts: our rows are marked in-sample
    assert "| ours (fake + gate) (in-sample) | paper |" in report and "| ours (fake + gate) (in-sample) | live |" in report
    assert "| always-speaks | paper |" in report and "| always-speaks | live |" not in report
    assert "FPR FP/(FP+TN)" in report and "false alarm (paper) FP/(TP+FP)" in report
    for png in ("confusion.png", "sessions.png", "latency.png", "reliability_need.png"):
        assert (outdir / png).stat().st_size > 1000
    rows = [json.loads(line) for line in (outdir / "turns.jsonl").read_text().splitlines()]
    assert_turns_quoted(rows, report)
    assert "expected calibration error" in report
    assert_trace_read_back(outdir, rows, tmp_path / "c.db")
    art = ROOT / "test-artifacts"
    art.mkdir(exist_ok=True)
    shutil.copy(outdir / "sessions.png", art / "replay-sessions.png")
    js = json.loads(replay(str(SESSION), "--model", "fake", "--labels", str(LABELS), "--baselines", str(FIXTURES / "baselines"),
                           "--json", "--cache", str(tmp_path / "c.db")).stdout)
    speaks, silent = js["baselines"]["always-speaks"], js["baselines"]["always-silent"]
    assert speaks["need"]["fpr"] == 1.0 and speaks["need"]["recall"] == 1.0
    assert silent["need"]["tp"] == 0 and silent["need"]["fpr"] == 0.0  # "null" strings are silence


def test_report_header_intervals_plots_and_progress(proactive_home, tmp_path):
    """What a researcher needs to cite a run: version, commit, command, start, duration and the inputs' sha256
    in report.md and --json; 95% intervals (sessions resampled, a fixed seed: the same twice) around the need
    figures, the point inside; the plots against the human labels; progress lines on a stderr that is not a
    terminal."""
    import hashlib

    outdir = tmp_path / "report"
    labels = tmp_path / "labels.jsonl"  # the fixture's labels, and the writing session's turns labelled too
    writing = [t["observation"] for t in json.loads(WRITING.read_text())]
    labels.write_text(LABELS.read_text() + "".join(
        json.dumps({"obs": writing[: i + 1], "pred_task": None, "valid": True, "help_needed": i % 2 == 1}) + "\n"
        for i in range(len(writing))))
    args = (str(SESSION), str(WRITING), "--model", "fake", "--labels", str(labels), "--baselines",
            str(FIXTURES / "baselines"), "--cache", str(tmp_path / "c.db"))
    before = datetime.now(UTC)
    out = replay(*args, "--out", str(outdir), "--json")
    after = datetime.now(UTC)
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    run = summary["run"]
    assert run["command"] == "proactive replay " + " ".join(args) + f" --out {outdir} --json"
    assert run["version"] and "commit" in run and run["started"].endswith("+00:00")
    # the run's start and length fall within the command's own (the started stamp is at whole seconds or finer)
    started = datetime.fromisoformat(run["started"])
    assert before.replace(microsecond=0) <= started <= after
    assert 0 <= run["duration_s"] <= round((after - before).total_seconds(), 1) + 0.1  # (rounded to 0.1 s)
    sha = {str(p): hashlib.sha256(p.name.encode() + b"\0" + p.read_bytes() + b"\0").hexdigest()[:16]
           for p in (SESSION, WRITING, labels)}
    assert run["inputs"]["sessions"] == {str(SESSION): sha[str(SESSION)], str(WRITING): sha[str(WRITING)]}
    assert run["inputs"]["labels"] == {str(labels): sha[str(labels)]}
    assert set(run["inputs"]["baselines"]) == {"always-speaks", "always-silent"}
    report = (outdir / "report.md").read_text()
    for field in (f"commit {run['commit']}" if run["commit"] else "commit unknown", f"`{run['command']}`",
                  f"started {run['started']}", f"{SESSION.name} {sha[str(SESSION)]}", sha[str(labels)]):
        assert field in report, field
    # intervals for our run (two labelled sessions): the point inside, the same on a rerun; the baselines hold
    # a trace of one session only, so they have none (one session is no sample of sessions)
    assert all(r["need_ci"] is None for r in summary["baselines"].values())
    for name, r in [("ours", summary)]:
        ci = r["need_ci"]
        for metric in ("precision", "recall", "f1", "fpr"):
            assert ci[metric][0] <= r["need"][metric] + 1e-9 and r["need"][metric] <= ci[metric][1] + 1e-9, name
    again = json.loads(replay(*args, "--json").stdout)
    assert again["need_ci"] == summary["need_ci"]
    assert "## Need detection against the human labels" in report and "95% intervals" in report
    for png in ("confusion.png", "judged.png", "agents.png", "sessions.png", "latency.png"):
        assert (outdir / png).stat().st_size > 1000 and f"![{png}]({png})" in report
    # stderr is not a terminal here: a line at the start and at the end of each phase
    assert "replaying: 0/10 (0%" in out.stderr and "replaying: 10/10 (100%" in out.stderr
    assert "judging baselines: 2/2 (100%" in out.stderr


def test_report_without_matplotlib_is_written_and_says_so(proactive_home, tmp_path, monkeypatch):
    """Without the [research] extra (no matplotlib) --out still writes report.md, turns.jsonl and the traces after
    the work, without plots, and the report says why (it used to fail once the work was done)."""
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    outdir = tmp_path / "report"
    out = replay(str(SESSION), "--model", "fake", "--labels", str(LABELS), "--out", str(outdir), "--cache",
                 str(tmp_path / "c.db"))
    assert out.returncode == 0, out.stderr
    report = (outdir / "report.md").read_text()
    assert "## Plots" in report and "Not drawn: plotting a report (--out) needs the [research] extra" in report
    assert not list(outdir.glob("*.png")) and (outdir / "turns.jsonl").exists()


def test_a_gate_trained_on_the_replayed_sessions_is_said_to_be_in_sample(proactive_home, tmp_path):
    """The artefact lists the contexts it learned from: replaying them says the figures are in-sample (the
    shipped gate on the shared sessions); a session it never saw gets no such note."""
    from proactive.models.reward_data import read_reward_rows
    from proactive.models.reward_training import train

    model = train(read_reward_rows([LABELS]), folds=0)
    assert model.meta["training_contexts"] == sorted({json.loads(line)["obs"][-1]["time"]
                                                      for line in LABELS.read_text().splitlines()})
    path = tmp_path / "rm.json"
    model.save(path)
    seen = replay(str(SESSION), str(WRITING), "--model", "fake", "--rm", str(path), "--cache", str(tmp_path / "c.db"))
    assert seen.returncode == 0, seen.stderr
    [note] = [line for line in seen.stdout.splitlines() if line.startswith("WARNING: the gate's")]
    assert note.startswith("WARNING: the gate's reward model was trained on 5 of the 10 replayed contexts (1 of 2 "
                           "sessions)"), note
    unseen = replay(str(WRITING), "--model", "fake", "--rm", str(path), "--cache", str(tmp_path / "c.db"))
    assert unseen.returncode == 0 and "in-sample" not in unseen.stdout, unseen.stdout


def test_an_in_sample_report_shows_the_held_out_figure_beside_it(proactive_home, tmp_path):
    """Replaying sessions the gate was trained on: the need table marks the row in-sample and, under it, gives
    the held-out figure its artefact records at this threshold (leave-one-session-out) first, and says what the
    counts are; agents.png marks ours as in-sample."""

    rm = tmp_path / "rm.json"
    # the labels of the replayed session and of others: the artefact can leave each session out once
    assert run_cli("reward", "train", "--data", str(LABELS), str(FIXTURES / "reward_small.jsonl"), "--out",
                   str(rm)).returncode == 0
    held = json.loads(rm.read_text())["need"]["cross_validation_loso"]["medium"]
    out = tmp_path / "report"
    done = replay(str(SESSION), str(WRITING), "--model", "fake", "--rm", str(rm), "--labels", str(LABELS),
                  "--out", str(out), "--cache", str(tmp_path / "c.db"))
    assert done.returncode == 0, done.stderr
    report = (out / "report.md").read_text()
    lines = report.splitlines()
    [row] = [line for line in lines if ", held out |" in line]
    assert row.endswith(" | ".join(f"{held[m]:.3f}" for m in ("precision", "recall", "f1", "fpr")) + " |"), row
    assert "all its training contexts, synthetic ones included, so the count differs" in row  # why 10 contexts here, more there
    # the fair figure leads the table, the in-sample row under it is marked, and the judged rows too
    table = [line for line in lines if line.startswith("| ours")]
    assert table[0] == row and table[1].startswith("| ours (fake + gate) (in-sample) | in-sample (the gate was "
                                                   "trained on these sessions)"), table
    assert all("(in-sample)" in line for line in table[1:]), table
    assert "Counts: *events* are the turns replayed" in report
    # the judged figures carry their intervals too (two sessions: resampled whole)
    judged = [line for line in report.splitlines() if line.startswith("| ours") and "| paper |" in line]
    assert judged and all(line.count(" [") >= 2 for line in judged), judged
    assert (out / "agents.png").exists() and (out / "latency.png").exists()


def test_clustered_bootstrap():
    """Sessions resampled whole: identical sessions give a point; fewer than two give no interval; the same seed
    gives the same interval, and a spread of sessions a real interval around the pooled figure."""
    from proactive.eval.metrics import clustered_bootstrap

    same = {"tp": 3, "fp": 1, "tn": 5, "fn": 1}
    assert clustered_bootstrap([same] * 4) == {"precision": [0.75, 0.75], "recall": [0.75, 0.75],
                                               "f1": [0.75, 0.75], "fpr": [1 / 6, 1 / 6]}
    assert clustered_bootstrap([same]) is None and clustered_bootstrap([]) is None
    spread = [{"tp": 5, "fp": 0, "tn": 5, "fn": 0}, {"tp": 0, "fp": 5, "tn": 0, "fn": 5},
              {"tp": 2, "fp": 2, "tn": 3, "fn": 3}]
    ci = clustered_bootstrap(spread, seed=1)
    assert ci == clustered_bootstrap(spread, seed=1)
    assert ci["f1"][0] < 7 / 17 < ci["f1"][1]  # pooled: tp 7, fp 7, fn 8
    assert ci["fpr"][0] < ci["fpr"][1]
