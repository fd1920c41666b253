"""The replay harness end to end with the real default model and the shipped reward model: metrics JSON, cache
hits on rerun, resume after a killed run, reports with plots, baselines, and bad input."""

from __future__ import annotations

import json
import shutil
import signal
import sqlite3
import subprocess

import pytest

from .conftest import FIXTURES, PROACTIVE, ROOT, run_cli, wait_for

SESSION = FIXTURES / "session_small.json"
LABELS = FIXTURES / "labels_small.jsonl"


def replay(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return run_cli("replay", *args, timeout=timeout)


def test_replay_end_to_end_with_cache(proactive_home, tmp_path):
    cache = tmp_path / "cache.db"
    out = replay(str(SESSION), "--labels", str(LABELS), "--json", "--cache", str(cache), "--k", "2")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["events"] == 5
    assert set(summary["paper"]) == {"recall", "precision", "accuracy", "false_alarm", "f1"}
    assert set(summary["need"]) == {"contexts", "tp", "fp", "tn", "fn", "precision", "recall", "f1", "fpr"}
    assert summary["need"]["contexts"] == 5
    assert set(summary["latency_s"]) == {"p50", "p95"} and summary["latency_s"]["p50"] > 0
    assert isinstance(summary["errors"], int) and 0.0 <= summary["fpr"] <= 1.0
    assert summary["cache"]["misses"] > 0
    again = replay(str(SESSION), "--labels", str(LABELS), "--json", "--cache", str(cache), "--k", "2")
    second = json.loads(again.stdout)
    assert second["cache"]["misses"] == 0 and second["cache"]["hits"] > 0
    assert {k: v for k, v in second.items() if k != "cache"} == {k: v for k, v in summary.items() if k != "cache"}


def test_interrupted_run_resumes(proactive_home, tmp_path):
    session = tmp_path / "long.json"
    turns = json.loads(SESSION.read_text())
    session.write_text(json.dumps(turns + [{"observation": {"time": str(1763800100 + i), "event": t["observation"]
                                                            ["event"]}} for i, t in enumerate(turns)]))
    cache = tmp_path / "cache.db"
    proc = subprocess.Popen([*PROACTIVE, "replay", str(session), "--json", "--cache", str(cache)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def cached_rows() -> int:
        if not cache.exists():
            return 0
        con = sqlite3.connect(cache, timeout=5)
        try:
            return con.execute("SELECT count(*) FROM results").fetchone()[0]
        except sqlite3.OperationalError:
            return 0
        finally:
            con.close()

    wait_for(lambda: cached_rows() >= 4 or proc.poll() is not None, timeout=120, what="some cached work")
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=20)
    done_before = cached_rows()
    assert done_before >= 4
    out = replay(str(session), "--json", "--cache", str(cache))
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["events"] == 10 and summary["cache"]["hits"] >= done_before - 1


def test_report_and_baselines(proactive_home, tmp_path):
    outdir = tmp_path / "report"
    out = replay(str(SESSION), "--labels", str(LABELS), "--baselines", str(FIXTURES / "baselines"),
                 "--out", str(outdir), "--cache", str(tmp_path / "c.db"))
    assert out.returncode == 0, out.stderr
    assert "judge: " in out.stdout and "WARNING: the judge is the gate's own reward model" in out.stdout
    report = (outdir / "report.md").read_text()
    assert "always-speaks" in report and "always-silent" in report and "ours" in report
    for png in ("confusion.png", "sessions.png", "latency.png"):
        assert (outdir / png).stat().st_size > 1000
    art = ROOT / "test-artifacts"
    art.mkdir(exist_ok=True)
    shutil.copy(outdir / "sessions.png", art / "replay-sessions.png")
    js = json.loads(replay(str(SESSION), "--labels", str(LABELS), "--baselines", str(FIXTURES / "baselines"),
                           "--json", "--cache", str(tmp_path / "c.db")).stdout)
    speaks, silent = js["baselines"]["always-speaks"], js["baselines"]["always-silent"]
    assert speaks["need"]["fpr"] == 1.0 and speaks["need"]["recall"] == 1.0
    assert silent["need"]["tp"] == 0 and silent["need"]["fpr"] == 0.0  # "null" strings are silence


@pytest.mark.parametrize(
    "make, needle",
    [
        (lambda p: p.write_text('[\n {"observation": {"time": "1"}}\n]'), "bad.json:2: turn 1"),
        (lambda p: p.write_text("[]"), "bad.json: the session is empty"),
        (lambda p: p.write_text("[\n{\n"), "bad.json:3: bad JSON"),
    ],
    ids=["missing-field", "empty-session", "bad-json"],
)
def test_bad_session(proactive_home, tmp_path, make, needle):
    bad = tmp_path / "bad.json"
    make(bad)
    out = replay(str(SESSION), str(bad))
    assert out.returncode == 2 and needle in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr


@pytest.mark.parametrize(
    "content, needle",
    [
        ('{"obs": [{"time": "1", "event": "x"}], "pred_task": null, "valid": true}\nnot json\n', "labels.jsonl:2"),
        ('{"pred_task": null, "valid": true}\n', "labels.jsonl:1"),
        ('{"obs": [{"time": "42", "event": "x"}], "pred_task": null, "valid": true, "help_needed": false}\n',
         "match no event"),
    ],
    ids=["bad-json-line", "missing-obs", "matches-nothing"],
)
def test_bad_labels(proactive_home, tmp_path, content, needle):
    labels = tmp_path / "labels.jsonl"
    labels.write_text(content)
    out = replay(str(SESSION), "--labels", str(labels))
    assert out.returncode == 2 and needle in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "labels.jsonl" in out.stderr


def test_replay_a_session_recorded_by_our_watcher(proactive_home, tmp_path):
    from watcher.events import CLIPBOARD, TEXT, WINDOW, RawEvent
    from watcher.store import Store

    store = Store()
    store.add_events([
        RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell"}, ts=1000.0),
        RawEvent("keyboard", TEXT, {"text": "python client.py", "erase": 0, "enter": True}, ts=1001.0),
        RawEvent("window", WINDOW, {"app": "Firefox", "title": "requests timeout"}, ts=1010.0),
        RawEvent("clipboard", CLIPBOARD, {"text": "TimeoutError: timed out", "length": 23, "truncated": False},
                 ts=1012.0),
    ])
    store.close()
    recorded = tmp_path / "mine.jsonl"
    recorded.write_text(run_cli("episodes", "--json").stdout)
    out = replay(str(recorded), "--json", "--cache", str(tmp_path / "c.db"))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["events"] == 2
    recorded.write_text('{"time": "1", "event": "x"}\n{"time": 2}\n')
    bad = replay(str(recorded))
    assert bad.returncode == 2 and "mine.jsonl:2" in bad.stderr
