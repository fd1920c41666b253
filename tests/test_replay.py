"""The replay harness end to end with the real default model and the shipped reward model: metrics JSON, cache
hits on rerun, resume after a killed run, reports with plots, baselines, per-turn output read back as a baseline,
the need-first gate (no model call, no model load, when no turn needs help), cache keys by content (two reward
models with the same name; failures not kept), and bad input."""

from __future__ import annotations

import json
import shutil
import signal
import sqlite3
import subprocess
from datetime import UTC, datetime

import pytest

from .conftest import FIXTURES, PROACTIVE, ROOT, run_cli, wait_for
from .models_support import assistant_replies, free_port

SESSION = FIXTURES / "session_small.json"
WRITING = FIXTURES / "session_writing.json"
LABELS = FIXTURES / "labels_small.jsonl"
TURN_KEYS = {"session", "index", "time", "event", "candidates", "scores", "p_need", "shown", "held_back", "withheld", "need", "proposed"}


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
    # the same results; only the cache counts and the run's own header (its start and duration) differ
    assert second["run"]["inputs"] == summary["run"]["inputs"]
    assert ({k: v for k, v in second.items() if k not in ("cache", "run")}
            == {k: v for k, v in summary.items() if k not in ("cache", "run")})


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
    assert "| ours (fake + gate) | paper |" in report and "| ours (fake + gate) | live |" in report
    assert "| always-speaks | paper |" in report and "| always-speaks | live |" not in report
    assert "FPR FP/(FP+TN)" in report and "false alarm (paper) FP/(TP+FP)" in report
    for png in ("confusion.png", "sessions.png", "latency.png", "reliability_need.png"):
        assert (outdir / png).stat().st_size > 1000
    rows = [json.loads(line) for line in (outdir / "turns.jsonl").read_text().splitlines()]
    assert len(rows) == 10 and all(set(r) == TURN_KEYS for r in rows)
    assert [r["need"] for r in rows if r["session"] == SESSION.name] == [False, False, True, True, False]
    assert {r["need"] for r in rows if r["session"] == WRITING.name} == {None}  # no labels for that session
    for r in rows:
        assert 0.0 <= r["p_need"] <= 1.0 and set(r["scores"]) == set(r["candidates"])
        assert r["shown"] is None or r["shown"] in r["candidates"]
    shown = [r for r in rows if r["shown"]]
    assert shown, "the fixture has moments that need help"
    # every shown task is quoted in the report with the events before it
    assert f"What the person would have seen ({len(shown)} of {len(shown)} shown tasks)" in report
    for r in shown:
        assert f"**{r['shown']}**" in report and r["event"] in report
    assert "expected calibration error" in report
    # our run, in the archived-trace format, read back beside the baselines: the same shown tasks, the same need
    # detection and judged outcomes
    [agent] = [p.name for p in (outdir / "traces").iterdir()]
    assert agent == "fake+gate-default-t0.5"
    trace = json.loads((outdir / "traces" / agent / SESSION.name).read_text())
    assert [t["agent_response"] for t in trace] == [[r["shown"]] if r["shown"] else [] for r in rows[:5]]
    assert [t["observation"] for t in trace] == [o["observation"] for o in json.loads(SESSION.read_text())]
    again = json.loads(replay(str(SESSION), str(WRITING), "--model", "fake", "--labels", str(LABELS), "--baselines",
                              str(outdir / "traces"), "--json", "--cache", str(tmp_path / "c.db")).stdout)
    back = again["baselines"][agent]
    # a trace holds the shown offers only: read back, its need detection is ours counting shown offers, and its
    # judged figures (as proposed) are ours under the live protocol (what was shown)
    assert back["need"] == again["need_shown"] and back["events"] == 10
    assert back["paper"] == {k: again["live"][k] for k in back["paper"]} and back["fpr"] == again["live"]["fpr"]
    assert "need_calibration" not in back and again["need_calibration"]["n"] == 5
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
    [note] = [line for line in seen.stdout.splitlines() if "in-sample" in line]
    assert note.startswith("WARNING: the gate's reward model was trained on 5 of the 10 replayed contexts (1 of 2 "
                           "sessions)"), note
    unseen = replay(str(WRITING), "--model", "fake", "--rm", str(path), "--cache", str(tmp_path / "c.db"))
    assert unseen.returncode == 0 and "in-sample" not in unseen.stdout, unseen.stdout


def test_an_in_sample_report_shows_the_held_out_figure_beside_it(proactive_home, tmp_path):
    """Replaying sessions the gate was trained on: the need table marks the row in-sample and, under it, gives
    the held-out figure its artefact records at this threshold (leave-one-session-out), and says what the counts
    are; agents.png marks ours as in-sample."""
    from .conftest import run_cli

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
    [row] = [line for line in report.splitlines() if ", held out |" in line]
    assert row.endswith(" | ".join(f"{held[m]:.3f}" for m in ("precision", "recall", "f1", "fpr")) + " |"), row
    assert "in-sample (the gate was trained on these sessions)" in report
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
    from proactive.watcher.events import CLIPBOARD, TEXT, WINDOW, RawEvent
    from proactive.watcher.store.database import Store

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
    # the fake model: this is about reading our own episodes (the built-in model's replay: the tests above)
    out = replay(str(recorded), "--model", "fake", "--json", "--cache", str(tmp_path / "c.db"))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["events"] == 2
    recorded.write_text('{"time": "1", "event": "x"}\n{"time": 2}\n')
    bad = replay(str(recorded))
    assert bad.returncode == 2 and "mine.jsonl:2" in bad.stderr


def test_bad_model_exits_2(proactive_home, tmp_path):
    out = replay(str(SESSION), "--model", str(tmp_path / "missing.gguf"), "--cache", str(tmp_path / "c.db"))
    assert out.returncode == 2 and "missing.gguf" in out.stderr and len(out.stderr.strip().splitlines()) == 1


# ------------------------------------------------------------------------------------------ in-process parts

def parts(tmp_path, proactivity: str | None = "medium", rm=None):
    """The replay's real parts on a private cache: the shipped reward model as gate (at `proactivity`, None: no
    gate) and as judge."""
    from proactive.assistant.policy import Proactivity
    from proactive.eval.replay import Cache, Judge, cached_gate
    from proactive.models.reward import load_default

    cache = Cache(tmp_path / "cache.db")
    scorer = rm or load_default()
    gate = None if proactivity is None else cached_gate(scorer, Proactivity.parse(proactivity), cache)
    return cache, gate, Judge(load_default(), cache)


def test_need_first_no_model_call_below_the_threshold(tmp_path):
    from proactive.eval.replay import Replayer
    from proactive.models.registry import load_model

    loads: list[str] = []

    def counting_load(spec: str):
        loads.append(spec)
        return load_model(spec)

    cache, gate, judge = parts(tmp_path, "0")  # threshold 0.9: no moment of the fixture needs help that much
    turns = Replayer("fake", counting_load, 1, gate, judge, cache).session(SESSION)
    assert loads == [] and len(turns) == 5
    assert all(t.shown is None and t.candidates == [] and t.latency_s is None for t in turns)
    assert all(t.p_need is not None and t.p_need < gate.proactivity.threshold for t in turns)

    cache, gate, judge = parts(tmp_path / "medium", "medium")
    turns = Replayer("fake", counting_load, 1, gate, judge, cache).session(SESSION)
    assert loads == ["fake"]  # loaded once, for the turns above the threshold only
    for t in turns:
        asked = t.p_need >= gate.proactivity.threshold
        # asked: candidates, unless every offer was held back by the memory (a silent turn counted as withheld)
        assert (t.latency_s is not None) == asked and bool(t.candidates) == (asked and not t.withheld)
        assert set(t.scores) == set(t.candidates) and (t.shown is None or t.shown in t.candidates)
    assert any(t.shown for t in turns)


def test_no_gate_shows_the_first_candidate(tmp_path):
    from proactive.eval.replay import Replayer
    from proactive.models.registry import load_model

    cache, gate, judge = parts(tmp_path, None)
    turns = Replayer("fake", load_model, 2, gate, judge, cache).session(SESSION)
    assert all(t.p_need is None and t.scores == {} for t in turns)
    assert all(t.shown == (t.candidates[0] if t.candidates else None) for t in turns)
    assert any(t.candidates for t in turns)


def test_cache_tells_apart_reward_models_with_the_same_name(tmp_path):
    """Every trained reward model is called "trained": verdicts are keyed by the weights, not the name."""
    from proactive.eval.replay import Cache, Judge
    from proactive.models.reward import DEFAULT_ARTEFACT, TrainedRewardModel

    data = json.loads(DEFAULT_ARTEFACT.read_text())
    data["name"] = "trained"
    strict, lenient = tmp_path / "strict.json", tmp_path / "lenient.json"
    strict.write_text(json.dumps(data))
    data["task"]["intercept"] += 30  # accepts every task
    lenient.write_text(json.dumps(data))
    a, b = TrainedRewardModel.load(strict), TrainedRewardModel.load(lenient)
    assert a.name == b.name == "trained"
    cache = Cache(tmp_path / "cache.db")
    context = json.loads(SESSION.read_text())[0:1]
    context = [t["observation"] for t in context]
    task = "Help the user with their current task"
    assert Judge(a, cache)(context, task) is False
    misses = cache.misses
    assert Judge(b, cache)(context, task) is True and cache.misses == misses + 1
    assert Judge(a, cache)(context, task) is False  # each keeps its own verdict
    # the same weights under another name share the verdicts
    data["name"] = "renamed"
    renamed = tmp_path / "renamed.json"
    renamed.write_text(json.dumps(data))
    hits = cache.hits
    assert Judge(TrainedRewardModel.load(renamed), cache)(context, task) is True and cache.hits == hits + 1


def judge_or_agent(request: dict) -> str:
    """A scripted server that answers as the judge (accepting everything) and as the agent."""
    schema = request.get("response_format", {}).get("json_schema", {}).get("schema", {})
    if "judgement" in schema.get("properties", {}):
        return json.dumps({"thought": "fine", "judgement": "accepted"})
    return assistant_replies("Explain the ReadTimeout error in client.py")(request)


def test_failures_are_not_kept_and_are_retried(tmp_path, scripted):
    """A prediction that got nothing back from the model and a judge that gave no verdict are counted, not cached:
    once the server answers, a rerun asks again; after that, a rerun asks nothing."""
    from proactive.eval.replay import Cache, Judge, Replayer
    from proactive.models.judge import LLMJudge
    from proactive.models.openai_http import OpenAICompatible
    from proactive.models.registry import load_model

    spec = f"openai:{scripted.url}#m"
    cache = Cache(tmp_path / "cache.db")

    def run() -> tuple[list, Judge]:
        judge = Judge(LLMJudge(OpenAICompatible(scripted.url, "m")), cache)
        return Replayer(spec, load_model, 1, None, judge, cache).session(SESSION), judge

    turns, judge = run()  # the server answers 500 to everything
    assert all(t.errors for t in turns) and judge.failures >= 5
    assert cache.db.execute("SELECT count(*) FROM results").fetchone()[0] == 0
    scripted.answer_with(judge_or_agent)
    turns, judge = run()
    assert not any(t.errors for t in turns) and judge.failures == 0
    assert all(t.judged_shown is True for t in turns)
    asked = len(scripted.requests)
    turns, judge = run()
    assert len(scripted.requests) == asked and not any(t.errors for t in turns)


def test_unreachable_server_is_a_counted_failure(tmp_path):
    from proactive.assistant.prompt import PROMPT_VERSION
    from proactive.eval.replay import Replayer, digest
    from proactive.eval.sessions import load_session
    from proactive.models.openai_http import OpenAICompatible

    def gone(spec: str) -> OpenAICompatible:  # the server passed its start check, then went away
        url, _, name = spec[len("openai:"):].partition("#")
        return OpenAICompatible(url, name)

    cache, gate, judge = parts(tmp_path, "high")
    replayer = Replayer(f"openai:http://127.0.0.1:{free_port()}/v1#m", gone, 1, gate, judge, cache)
    turns = replayer.session(SESSION)
    observations = load_session(SESSION)
    asked = [t for t in turns if t.p_need >= gate.proactivity.threshold]
    assert asked and all(t.shown is None and "unreachable" in t.errors[0] for t in asked)
    assert not any(t.errors for t in turns if t not in asked)
    for t in asked:
        key = digest("predict", replayer.model_identity, PROMPT_VERSION, 1, observations[: t.index + 1])
        assert cache.get(key) is None


def test_model_identity_is_content(tmp_path):
    from proactive.eval.replay import Cache, file_sha256, model_identity
    from proactive.models.default import default_model_path

    cache = Cache(tmp_path / "cache.db")
    path = default_model_path()
    assert model_identity("default", cache) == model_identity(str(path), cache) == "gguf:" + file_sha256(path, cache)
    copy = tmp_path / "copy.gguf"
    copy.write_bytes(b"GGUF" + b"\0" * 100)
    first = model_identity(str(copy), cache)
    copy.write_bytes(b"GGUF" + b"\1" * 100)  # new content (and mtime): hashed again
    assert model_identity(str(copy), cache) != first
    assert model_identity("openai:http://h:1/v1/#m", cache) == model_identity("openai:http://h:1/v1#m", cache)
    assert model_identity("openai:http://h:1/v1#m", cache) != model_identity("openai:http://h:1/v1#n", cache)


@pytest.mark.parametrize(
    "model, rm, threshold, expected",
    [("default", "default", 0.5, "default+gate-default-t0.5"), ("default", None, None, "default+no-gate"),
     ("openai:http://127.0.0.1:8080/v1#qwen2.5", "llm:default", 0.3,
      "openai_http_127.0.0.1_8080_v1_qwen2.5+gate-llm_default-t0.3")],
)
def test_agent_name_is_filesystem_safe(model, rm, threshold, expected):
    from proactive.eval.replay import agent_name

    assert agent_name(model, rm, threshold) == expected


def test_quoted_tasks_are_spread_over_sessions():
    from proactive.eval.report import spread
    from proactive.eval.turns import Turn

    turns = [Turn(s, i, str(i), f"e{i}", ["t"], "t" if s != "quiet" or i == 0 else None)
             for s, n in (("busy", 40), ("few", 3), ("quiet", 5)) for i in range(n)]
    picked = spread(turns)
    assert len(picked) == 20 and len({(t.session, t.index) for t in picked}) == 20
    assert [t.index for t in picked if t.session != "busy"] == [0, 1, 2, 0]  # all of the small ones
    busy = [t.index for t in picked if t.session == "busy"]
    assert busy == sorted(busy) and busy[0] == 0 and busy[-1] > 30  # evenly over the session, not its start
    assert len(spread(turns[40:])) == 4  # all, when fewer than 20


REPEAT = FIXTURES / "session_repeat.json"


def test_replay_holds_back_an_offer_shown_and_not_answered(tmp_path):
    """As live, a shown offer nobody answers counts as ignored: the same offer is not shown again on the next
    turns (the feedback memory's cooling-off), another offer may take its place, and need detection counts a turn
    silent only because of the memory as detected (`withheld`)."""
    from proactive.assistant.feedback import similar
    from proactive.eval.replay import Replayer
    from proactive.models.registry import load_model

    cache, gate, judge = parts(tmp_path, "1")  # threshold 0.1: the gate wants to speak at almost every turn
    turns = Replayer("fake", load_model, 1, gate, judge, cache).session(REPEAT)
    shown = [t.shown for t in turns if t.shown]
    assert shown
    for i, a in enumerate(shown):
        assert not any(similar(a, b) for b in shown[i + 1:]), shown  # never the same offer twice in 10 minutes
    assert any(t.held_back for t in turns)
    assert any(t.withheld for t in turns) and all(not (t.withheld and t.shown) for t in turns)
    # a fresh session starts with an empty memory: the first offer is shown again
    again = Replayer("fake", load_model, 1, gate, judge, cache).session(REPEAT)
    assert [t.shown for t in again] == [t.shown for t in turns]


def test_replay_accept_writes_help_without_opening_a_browser(proactive_home, tmp_path, browser):
    out = tmp_path / "out"
    result = replay(str(SESSION), "--model", "fake", "--cache", str(tmp_path / "c.db"), "--out", str(out), "--accept")
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in (out / "help.jsonl").read_text().splitlines()]
    turns = [json.loads(line) for line in (out / "turns.jsonl").read_text().splitlines()]
    assert len(rows) == sum(1 for t in turns if t["shown"]) > 0
    for row in rows:
        assert set(row) == {"session", "index", "task", "help"}
        assert set(row["help"]) == {"parts", "text", "url", "history", "answer", "pages"}
        assert row["task"] == turns[row["index"]]["shown"] and row["session"] == "session_small.json"
        assert row["help"]["history"] == []  # a recorded session is not this person's: no history is read
    searched = [r for r in rows if "search" in r["help"]["parts"]]
    assert searched and all(r["help"]["url"].startswith("https://duckduckgo.com/?q=") for r in searched)
    assert all(r["help"]["url"] in r["help"]["text"] and "not opened" in r["help"]["text"] for r in searched)
    assert not browser.exists()  # BROWSER records every URL it is given: none was
    assert f"help: {out / 'help.jsonl'}" in result.stdout


def test_replay_accept_needs_out(proactive_home, tmp_path):
    result = replay(str(SESSION), "--cache", str(tmp_path / "c.db"), "--accept")
    assert result.returncode == 2 and "--out" in result.stderr


def test_replay_counts_a_need_with_nothing_new_to_offer_as_recognised_not_shown(tmp_path):
    """A person writing code, with a search that is only a way to a site ('github login'): with the built-in
    model a look back at their earlier work on the file is all there is to offer, and replay reads no history,
    so nothing is shown; the gate still recognised the need (`withheld`), which need detection counts and
    `need_shown` does not."""
    from proactive.eval.replay import Replayer
    from proactive.models.registry import load_model

    cache, gate, judge = parts(tmp_path, "1")  # threshold 0.1: the gate wants to speak at almost every turn
    turns = Replayer("fake", load_model, 1, gate, judge, cache).session(FIXTURES / "session_editing.json")
    assert not any(t.shown for t in turns)
    assert any(t.withheld for t in turns)
    # the paper's protocol scores what was proposed there (the gate's pick, undeliverable here); live scores the
    # silence this configuration kept
    from proactive.eval.metrics import summarize

    assert all((t.proposed is not None) == t.withheld for t in turns)
    summary = summarize(turns, None)
    live, paper = summary["live"]["counts"], summary["counts"]
    assert live["tp"] + live["fp"] == 0 and paper["tp"] + paper["fp"] == sum(t.withheld for t in turns) > 0


def test_replay_offers_the_code_of_the_results_at_a_search_for_code(tmp_path):
    """A search for code while editing scraper.py: the offer is the code of the pages, for that file (live use
    with the default consent would read them after asking), never a search the person just made."""
    from proactive.eval.replay import Replayer
    from proactive.models.registry import load_model

    cache, gate, judge = parts(tmp_path, "1")
    turns = Replayer("fake", load_model, 1, gate, judge, cache).session(FIXTURES / "session_search.json")
    shown = [t.shown for t in turns if t.shown]
    assert shown and all("code examples for 'python beautifulsoup find all links'" in s and "scraper.py" in s
                         for s in shown[:1]), shown
    assert not any(s.lower().startswith("search") for t in turns for s in t.candidates)


def test_offers_at_need_count_an_offer_still_on_screen():
    """At a recognised moment an offer is on screen when it is shown then, or was shown in the same session at
    most 30 s earlier (unanswered, so the memory does not repeat it); not after, not from another session."""
    from proactive.eval.metrics import offers_at_need
    from proactive.eval.turns import Turn

    def turn(session: str, t: float, shown: str | None = None, withheld: bool = False) -> Turn:
        return Turn(session, 0, str(t), "e", [shown] if shown else [], shown, withheld=withheld)

    turns = [turn("a", 100, "offer"), turn("a", 120, withheld=True), turn("a", 131, withheld=True),
             turn("b", 125, withheld=True), turn("a", 140), turn("a", 150, "other")]
    got = offers_at_need(turns)
    assert (got["recognised"], got["shown"], got["on_screen"]) == (5, 2, 3)
    assert got["shown_share"] == 0.4 and got["on_screen_share"] == 0.6
