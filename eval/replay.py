"""The replay harness: recorded sessions through agent + gate, judged, measured.

At turn i the agent sees observations 0..i (the paper's protocol), proposes up to k candidates, the gate (the
reward model with the proactivity threshold, the paper's "with RM" setting) decides what would be shown, and a
judge scores what was shown, each candidate (for pred@k) and silence. Model calls are cached by content
(model, k, context; judge, context, task) in a SQLite file, so a rerun is fast and an interrupted run resumes
where it stopped. Archived predictions of other models (`--baselines`) go through the same judge.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils

from assistant.agent import Agent, Prediction, normalize_task
from assistant.policy import Gate

from .metrics import Judgement, event_at_k, need_detection, paper_metrics, percentile
from .sessions import load_session

Scorer = Any  # anything with score(context, task_or_None) -> float and a `name`


def digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False, sort_keys=True).encode()).hexdigest()


class Cache:
    """Content-addressed results of model calls, committed one by one (an interrupted run loses nothing)."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite_utils.Database(path)
        self.db.execute("PRAGMA journal_mode=WAL")
        if "results" not in self.db.table_names():
            self.db["results"].create({"key": str, "value": str}, pk="key")
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> Any | None:
        row = self.db.execute("SELECT value FROM results WHERE key = ?", [key]).fetchone()
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        return json.loads(row[0])

    def put(self, key: str, value: Any) -> None:
        with self.db.conn:
            self.db.execute("INSERT OR REPLACE INTO results (key, value) VALUES (?, ?)", [key, json.dumps(value)])

    def close(self) -> None:
        self.db.close()


@dataclass
class Turn:
    session: str
    index: int
    time: str
    event: str
    candidates: list[str]
    shown: str | None  # what the user would see (after the gate)
    latency_s: float | None
    errors: list[str] = field(default_factory=list)
    judged_shown: bool | None = None
    judged_candidates: list[bool | None] = field(default_factory=list)
    judged_silence: bool | None = None


class Judge:
    """Wraps a scorer as a cached yes/no judge (P(accept) >= 0.5); failures become None and are counted."""

    def __init__(self, scorer: Scorer, cache: Cache):
        self.scorer = scorer
        self.cache = cache
        self.name = getattr(scorer, "name", type(scorer).__name__)
        self.failures = 0

    def __call__(self, context: Sequence[dict[str, str]], task: str | None) -> bool | None:
        key = digest("judge", self.name, list(context), task)
        cached = self.cache.get(key)
        if cached is None:
            try:
                p = float(self.scorer.score(context, task))
                cached = {"p": p}
            except Exception as exc:  # a judge failure is data: counted, reported, cached
                cached = {"error": str(exc)[:200]}
            self.cache.put(key, cached)
        if "error" in cached:
            self.failures += 1
            return None
        return cached["p"] >= 0.5


class Replayer:
    def __init__(self, model_spec: str, load_model: Callable[[str], Any], k: int, gate: Gate | None, judge: Judge,
                 cache: Cache):
        self.model_spec = model_spec
        self._load_model = load_model
        self._model: Any = None
        self.k = k
        self.gate = gate
        self.judge = judge
        self.cache = cache
        self._agent: Agent | None = None  # one per session: its prompt history (and KV cache) follows the session

    def predict(self, context: list[dict[str, str]]) -> dict[str, Any]:
        key = digest("predict", self.model_spec, self.k, context)
        cached = self.cache.get(key)
        if cached is None:
            if self._agent is None:
                if self._model is None:  # loaded on the first cache miss: a fully cached rerun needs no model
                    self._model = self._load_model(self.model_spec)
                self._agent = Agent(self._model, k=self.k)
            p: Prediction = self._agent.predict(context)
            cached = {"candidates": p.candidates, "latency_s": p.latency_s, "errors": p.errors}
            self.cache.put(key, cached)
        return cached

    def session(self, path: Path, advance: Callable[[], None] = lambda: None) -> list[Turn]:
        observations = load_session(path)
        self._agent = None
        turns = []
        for i, obs in enumerate(observations):
            context = observations[: i + 1]
            pred = self.predict(context)
            candidates = pred["candidates"]
            shown = self.gate.decide(context, candidates).task if self.gate else (candidates[0] if candidates
                                                                                 else None)
            turn = Turn(path.name, i, obs["time"], obs["event"], candidates, shown, pred["latency_s"],
                        list(pred["errors"]))
            judge_turn(turn, context, self.judge)
            turns.append(turn)
            advance()
        return turns


def judge_turn(turn: Turn, context: list[dict[str, str]], judge: Judge) -> None:
    """Judge silence, every candidate (for pred@k) and, from those, what was shown."""
    turn.judged_silence = judge(context, None)
    turn.judged_candidates = [judge(context, c) for c in turn.candidates]
    if turn.shown is None:
        turn.judged_shown = turn.judged_silence
    else:
        turn.judged_shown = turn.judged_candidates[turn.candidates.index(turn.shown)]


def baseline_turns(trace_path: Path, judge: Judge) -> list[Turn]:
    """An archived trace (`agent_response` per turn: [], ["task"], "null") judged like our own predictions."""
    data = json.loads(trace_path.read_text(encoding="utf-8"))
    observations = load_session(trace_path)
    turns = []
    for i, (turn, obs) in enumerate(zip(data, observations, strict=True)):
        response = turn.get("agent_response")
        raw = response if isinstance(response, list) else [response]
        candidates = [t for t in (normalize_task(r) for r in raw) if t]
        t = Turn(trace_path.name, i, obs["time"], obs["event"], candidates, candidates[0] if candidates else None,
                 None)
        judge_turn(t, observations[: i + 1], judge)
        turns.append(t)
    return turns


def summarize(turns: Sequence[Turn], labels: dict[str, bool] | None) -> dict[str, Any]:
    """The summary of DESIGN.md section 6 (plus pred@k and counts) for one set of turns."""
    shown = [Judgement(t.shown, t.judged_shown) for t in turns]
    at_k = [event_at_k(t.candidates, t.judged_candidates, t.judged_silence) for t in turns]
    paper = paper_metrics(shown)
    k_metrics = paper_metrics(at_k)
    latencies = [t.latency_s for t in turns if t.latency_s is not None]
    generation_errors = sum(len(t.errors) for t in turns)
    out: dict[str, Any] = {
        "events": len(turns),
        "paper": paper["paper"],
        "fpr": paper["fpr"],
        "pred_at_k": {**k_metrics["paper"], "fpr": k_metrics["fpr"]},
        "counts": paper["counts"],
        "latency_s": {"p50": percentile(latencies, 0.5), "p95": percentile(latencies, 0.95)},
        "errors": generation_errors + paper["errors"],
        "judge_failures": paper["errors"],
        "generation_failures": generation_errors,
    }
    if labels is not None:
        spoke = {str(t.time).strip(): t.shown is not None for t in turns}
        out["need"] = need_detection(spoke, labels)
    return out
