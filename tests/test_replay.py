"""The replay harness end to end with the real default model and the shipped reward model: metrics JSON, cache
hits on rerun, resume after a killed run, reports with plots, baselines, per-turn output read back as a baseline,
the need-first gate (no model call, no model load, when no turn needs help), cache keys by content (two reward
models with the same name; failures not kept), and bad input."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess

import pytest

from .conftest import FIXTURES, PROACTIVE, ROOT, run_cli, wait_for
from .models_support import assistant_replies, free_port
from .replay_support import LABELS, SESSION, replay


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
    """A replay killed once some of its work is cached (five turns: about a dozen results, generations and
    judgements) resumes from the cache: what was done is not done again."""
    cache = tmp_path / "cache.db"
    proc = subprocess.Popen([*PROACTIVE, "replay", str(SESSION), "--json", "--cache", str(cache)], cwd=ROOT,
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
    out = replay(str(SESSION), "--json", "--cache", str(cache))
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["events"] == 5 and summary["cache"]["hits"] >= done_before - 1
    assert summary["cache"]["misses"] > 0, "the first run ended before it was killed: nothing was resumed"


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
    live, paper = summary.live.counts, summary.paper.counts
    assert live.tp + live.fp == 0 and paper.tp + paper.fp == sum(t.withheld for t in turns) > 0


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
    assert (got.recognised, got.shown, got.on_screen) == (5, 2, 3)
    assert got.shown_share == 0.4 and got.on_screen_share == 0.6
