"""The replay harness: recorded sessions through agent + gate, judged, measured.

At turn i the agent sees observations 0..i (the paper's protocol). The gate decides need first, as the live
assistant does: below the proactivity threshold the turn is silent and no model is asked (a run in which no turn
needs help never loads the model); above it the agent proposes up to k candidates and the gate picks what would
be shown. A judge scores what was shown, each candidate (for pred@k) and silence.

Model calls are cached by content in a SQLite file, so a rerun is fast and an interrupted run resumes where it
stopped. Keys name what an answer depends on, never a label that can be reused for something else: the model's
identity (a GGUF's sha256, or a server's endpoint and model name), `PROMPT_VERSION` and k for predictions; the
reward model's identity (a trained artefact's weights, an LLM judge's model) for verdicts. Failed calls are not
kept, so a rerun after the server comes back retries them. Archived predictions of other models (`--baselines`)
go through the same judge, and our own run is written in their format (`save_run`) so it can be read back.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils

from proactive.assistant.agent import Agent, Prediction, normalize_task
from proactive.assistant.decision import Decision, choose, decide, moment_errors, need_first
from proactive.assistant.feedback import IGNORED, FeedbackMemory
from proactive.assistant.material import replay_source
from proactive.assistant.need import need_for
from proactive.assistant.policy import Gate, Proactivity
from proactive.assistant.prompt import PROMPT_VERSION
from proactive.assistant.trigger import EPISODE, Due, TriggerPolicy
from proactive.models import registry
from proactive.models.base import ModelError, Observation
from proactive.models.judge import JudgeFailure
from proactive.models.scorer import Context, Scorer

from .sessions import SessionError, load_session, load_turns, response_tasks
from .turns import Turn, by_session, label_of, turn_seconds


def digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False, sort_keys=True).encode()).hexdigest()


class CacheError(ValueError):
    """The cache file is another program's database (one line)."""


class Cache:
    """Content-addressed results of model calls, committed one by one (an interrupted run loses nothing)."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite_utils.Database(path)
        tables = set(self.db.table_names())
        if tables and not {"key", "value"} <= set(self.db["results"].columns_dict if "results" in tables else ()):
            self.db.close()  # before anything is written: another program's database is left as it was
            raise CacheError(f"{path}: an SQLite database without a cache table (it holds "
                             f"{', '.join(sorted(tables)[:3])}): give a new file or a cache made by `proactive "
                             "replay`")
        self.db.execute("PRAGMA journal_mode=WAL")
        # `ts` (when the entry was made) lets `proactive purge --before` drop what came from the purged period
        if "results" not in self.db.table_names():
            self.db.table("results").create({"key": str, "value": str, "ts": float}, pk="key")
        elif "ts" not in self.db["results"].columns_dict:
            self.db.table("results").add_column("ts", float)
        self.hits = 0
        self.misses = 0

    def get(self, key: str, count: bool = True) -> Any | None:
        """The stored value, or None; `count=False` for bookkeeping (file hashes) that is not a model call."""
        row = self.db.execute("SELECT value FROM results WHERE key = ?", [key]).fetchone()
        if count:
            self.hits += row is not None
            self.misses += row is None
        return None if row is None else json.loads(row[0])

    def put(self, key: str, value: Any) -> None:
        with self.db.conn:
            self.db.execute("INSERT OR REPLACE INTO results (key, value, ts) VALUES (?, ?, ?)",
                            [key, json.dumps(value), time.time()])

    def close(self) -> None:
        self.db.close()


# ----------------------------------------------------------------------------------------------- identities

def file_sha256(path: Path, cache: Cache) -> str:
    """sha256 of a model file. A GGUF can weigh gigabytes, so it is hashed once per (path, size, mtime) and the
    result kept in the cache: a warm rerun does not read the file."""
    path = path.resolve()
    st = path.stat()
    key = digest("file-sha256", str(path), st.st_size, st.st_mtime_ns)
    known = cache.get(key, count=False)
    if known is None:
        h = hashlib.sha256()
        with path.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        known = h.hexdigest()
        cache.put(key, known)
    return str(known)


def model_identity(spec: str, cache: Cache) -> str:
    """What a model's answers depend on, from its spec and without loading it (the registry's `identity`), a
    GGUF's content hashed once per file version. Raises ModelError or OSError when the file is missing."""
    return registry.model_identity(spec, lambda path: file_sha256(path, cache))


def scorer_identity(scorer: Scorer, cache: Cache) -> str:
    """What a reward model's verdicts depend on: a trained artefact's content without its name (every trained
    model is called "trained"), an LLM judge's model, or the name of a fixed heuristic (`signals`)."""
    if hasattr(scorer, "to_json"):
        content = {k: v for k, v in scorer.to_json().items() if k != "name"}
        return "trained:" + hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()
    model = getattr(scorer, "model", None)
    if model is not None:  # an LLM judge: the spec that would load its model again
        spec = f"openai:{model.base_url}#{model.model}" if hasattr(model, "base_url") else str(model.path)
        return "llm:" + model_identity(spec, cache)
    return str(scorer.name)


class CachedScorer:
    """A reward model whose answers are kept by content (its identity, the context, the task), for the gate and
    the judge alike. A failure raises and is not kept, so a rerun asks again."""

    def __init__(self, scorer: Scorer, cache: Cache):
        self.scorer = scorer
        self.cache = cache
        self.name = scorer.name
        self.meta = scorer.meta
        self.identity = scorer_identity(scorer, cache)

    def _ask(self, kind: str, context: Context, task: str | None, compute: Callable[[], float]) -> float:
        key = digest(kind, self.identity, list(context), task)
        value = self.cache.get(key)
        if value is None:
            value = float(compute())
            self.cache.put(key, value)
        return float(value)

    def score(self, context: Context, task: str | None) -> float:
        return self._ask("score", context, task, lambda: self.scorer.score(context, task))

    def need(self, context: Context) -> float:
        return self._ask("need", context, None, lambda: self.scorer.need(context))


def cached_gate(scorer: Scorer, proactivity: Proactivity, cache: Cache) -> Gate:
    """The live assistant's gate over a cached scorer (keeping the need model stored with a trained one)."""
    return Gate(CachedScorer(scorer, cache), proactivity, need_model=need_for(scorer))


# -------------------------------------------------------------------------------------------------- replay

class Judge:
    """Wraps a scorer as a cached yes/no judge (P(accept) >= 0.5); failures become None and are counted."""

    def __init__(self, scorer: Scorer, cache: Cache):
        self.scorer = CachedScorer(scorer, cache)
        self.name = self.scorer.name
        self.failures = 0

    def __call__(self, context: Context, task: str | None) -> bool | None:
        try:
            return self.scorer.score(context, task) >= 0.5
        except Exception:  # a judge failure is data: counted and reported (and asked again on a rerun)
            self.failures += 1
            return None


def usable(prediction: Prediction, model: Any, k: int) -> bool:
    """Whether a prediction is worth keeping: at least one of its model calls answered. A capable model makes one
    call per candidate; the built-in one at most one (ranking the grounded offers)."""
    return len(prediction.errors) < (k if getattr(model, "capable", True) else 1)


def agent_prediction(agent: Agent, context: list[Observation], held_back: Callable[[str], bool] | None = None,
                     recalls: Callable[[Any], bool] | None = None) -> Prediction:
    """The agent's candidates at the last event of a recorded `context`, as `replay` and `predict` both ask for
    them: a page or a search in the session is material as live use would read it (material.py), so the two
    commands offer the same tasks on the same session."""
    return agent.predict(context, held_back=held_back, recalls=recalls, material=replay_source(context))


class Replayer:
    """Our agent (and gate) over recorded sessions. `parallel` > 1 sends a server's generations for one session
    concurrently (`--model openai:...`: a vLLM or llama-server deployment at its throughput); the in-process
    model is always asked one turn at a time. Either way the turns, their order and the cache come out the
    same: the gate decides need in order first, each generation gets the prompt it would have had sequentially,
    and the gate's choice, the judge and the cache writes then run in order."""

    def __init__(self, model_spec: str, load_model: Callable[[str], Any], k: int, gate: Gate | None, judge: Judge,
                 cache: Cache, parallel: int = 1, as_live: bool = False):
        """Raises ModelError or OSError when the model file is missing (its content names the cache entries).
        `as_live`: the live trigger's timing on the events' own clock as well (`live_due`), not every turn."""
        self.model_spec = model_spec
        self._load_model = load_model
        self._model: Any = None
        self.k = k
        self.gate = gate
        self.judge = judge
        self.cache = cache
        self.model_identity = model_identity(model_spec, cache)
        self._agent: Agent | None = None  # one per session: its prompt history (and KV cache) follows the session
        self.parallel = max(1, int(parallel))
        self.as_live = as_live and gate is not None
        self.trigger: TriggerPolicy | None = None  # as live: one per session
        #: what the person did with earlier offers, as live (`live.Assistant`): nobody answers a replayed offer, so
        #: each one shown counts as ignored and is held back during the cooling-off period; one per session
        self.memory = FeedbackMemory()

    def model(self) -> Any:
        """The agent's model, loaded on first use (`replay --accept` asks it for answers)."""
        if self._model is None:
            self._model = self._load_model(self.model_spec)
        return self._model

    @property
    def concurrent(self) -> bool:
        """Whether generations run in parallel: only against a server (an in-process model is one engine)."""
        return self.parallel > 1 and self.model_spec.strip().startswith("openai:")

    def _key(self, context: Sequence[Observation], held: Sequence[str] = (), unheld: bool = False) -> str:
        """The prediction's cache key; `held` (the offers the memory holds back now) only when there are some, so
        a turn with nothing held back keeps the key it always had; `unheld`: the counterfactual of `_unheld`."""
        if unheld:
            return digest("predict-unheld", self.model_identity, PROMPT_VERSION, self.k, list(context))
        if held:
            return digest("predict", self.model_identity, PROMPT_VERSION, self.k, list(context), sorted(held))
        return digest("predict", self.model_identity, PROMPT_VERSION, self.k, list(context))

    def _held(self, now: float) -> list[str]:
        """The offers the feedback memory holds back at `now` (their decision and task): what a prediction depends
        on besides the context."""
        return [f"{d.decision}: {d.task}" for d in self.memory.decisions
                if now - d.ts < self.memory.cooldown[d.decision]]

    def _session_agent(self) -> Agent:
        if self._agent is None:
            if self._model is None:  # loaded on the first cache miss: a fully cached rerun needs no model
                self._model = self._load_model(self.model_spec)
            self._agent = Agent(self._model, k=self.k)
        return self._agent

    @staticmethod
    def _generate(agent: Agent, context: list[Observation], held_back: Callable[[str], bool] | None = None,
                  recalls: Callable[[Any], bool] | None = None) -> tuple[dict[str, Any], bool]:
        """The agent's prediction as a cache value, and whether it is worth keeping. Runs in a worker thread
        when parallel: it touches the model only, never the cache."""
        try:
            p = agent_prediction(agent, context, held_back, recalls)
        except ModelError as exc:  # e.g. the server is down: nothing came back, nothing is kept
            return {"candidates": [], "preference": {}, "latency_s": None, "errors": [str(exc)[:200]]}, False
        result = {"candidates": p.candidates, "preference": p.preference, "latency_s": p.latency_s,
                  "errors": p.errors, "held_back": p.held_back, "actions": p.actions}
        return result, usable(p, agent.model, agent.k)

    def predict(self, context: list[Observation], now: float | None = None) -> dict[str, Any]:
        """The agent's prediction at this turn; at `now` (with a gate) the offers the feedback memory holds back
        are left out, as live."""
        held = self._held(now) if now is not None else []
        key = self._key(context, held)
        cached = self.cache.get(key)
        if cached is not None:
            return dict(cached)
        memory = self.memory
        result, keep = self._generate(self._session_agent(), context,
                                      (lambda task: memory.blocked(task, now) is not None) if held else None)
        if keep:
            self.cache.put(key, result)
        return result

    def _need_first(self, turn: Turn, context: list[Observation]) -> bool:
        """Need first (decision.need_first): whether this turn asks the agent at all (a silent decision needs no
        generation); sets the turn's P(need)."""
        if self.gate is None:
            return True
        try:
            turn.p_need, early = need_first(self.gate, context, self.memory.person)
        except (JudgeFailure, ModelError) as exc:  # an LLM gate that did not answer: silent, counted
            turn.errors.append(f"gate: {str(exc)[:200]}")
            return False
        return early is None

    def _show_first(self, turn: Turn, pred: dict[str, Any]) -> None:
        """Without a gate (the paper's setting) the agent's first candidate is shown."""
        self._predicted(turn, pred)
        turn.shown = turn.candidates[0] if turn.candidates else None

    @staticmethod
    def _predicted(turn: Turn, pred: dict[str, Any]) -> None:
        turn.candidates, turn.latency_s, turn.errors = pred["candidates"], pred["latency_s"], list(pred["errors"])

    def _chosen(self, turn: Turn, context: list[Observation], pred: dict[str, Any],
                decided: Decision) -> None:
        """A turn's record of the gate's decision (`decision.decide` or `decision.choose`); an offer shown and not
        answered counts as ignored in the memory, as an unanswered popup does live."""
        assert self.gate is not None  # a gated run's turns only
        self._predicted(turn, pred)
        turn.held_back = decided.held_back
        turn.shown, turn.scores = decided.task, decided.gate.scores
        turn.proposed = turn.shown
        turn.action = (pred.get("actions") or {}).get(turn.shown or "")
        now = turn_seconds(turn)
        if turn.shown is None and decided.need >= self.gate.proactivity.threshold:
            # silent because of the memory, or because no offer would give anything new: without these, would the
            # gate have shown an offer here (the need recognised)?
            try:
                unheld = self._unheld(context)
                turn.proposed = self.gate.decide(context, unheld["candidates"], preference=unheld["preference"],
                                                 need=decided.need).task
                turn.withheld = turn.proposed is not None
            except (JudgeFailure, ModelError) as exc:
                turn.errors.append(f"gate: {str(exc)[:200]}")
        if turn.shown is not None:
            self.memory.record(turn.shown, IGNORED, now)

    def _unheld(self, context: list[Observation]) -> dict[str, Any]:
        """The prediction this turn would have had without the feedback memory and with every offer giving
        something new (a history that recalls everything), cached like any other; made by a copy of the session's
        agent so its prompt window does not move on."""
        key = self._key(context, unheld=True)
        cached = self.cache.get(key)
        if cached is not None:
            return dict(cached)
        agent = self._session_agent()
        worker = copy.copy(agent)
        worker.prompts = copy.copy(agent.prompts)
        result, keep = self._generate(worker, context, recalls=lambda obj: True)
        if keep:
            self.cache.put(key, result)
        return result

    def live_due(self, turn: Turn, context: list[Observation]) -> Due | None:
        """With `as_live`, whether the live trigger would run the assistant at this turn, and how (each recorded
        event is an episode closing, dropped within the level's minimum interval after an offer shown; one that
        shows an error is a moment too, as a copied error is live, decided inside the interval with its `Pace`;
        nothing within the trigger's minimum gap after the last run); every turn otherwise (the paper's
        protocol). None: not run."""
        if self.trigger is None:
            return Due(EPISODE)
        now = turn_seconds(turn)
        self.trigger.episode_closed(app_changed=False)
        if moment_errors(context):
            self.trigger.moment_seen(now, turn.index)
        due = self.trigger.due(now, turn.index)
        if due is not None:
            self.trigger.ran(now, turn.index, due.moment)
        return due

    def decide(self, turn: Turn, context: list[Observation], due: Due | None = None) -> None:
        """The live decision path (decision.decide) on the events' own clock: need first, the agent's candidates
        without what the memory holds back, the gate's pick (`due`: the live trigger's, as live). Without a gate
        the first candidate is shown (the paper's setting)."""
        if self.gate is None:
            self._show_first(turn, self.predict(context))
            return
        now = turn_seconds(turn)
        raw: dict[str, Any] = {}

        def predict(held_back: Callable[[str], bool]) -> Prediction:
            raw.update(self.predict(context, now))  # the memory's holds at `now` are part of the cache key
            return as_prediction(raw)

        try:
            decided = decide(self.gate, self.memory, context, now, predict, due.pace if due is not None else None)
        except (JudgeFailure, ModelError) as exc:  # an LLM gate that did not answer: silent, counted
            turn.errors.append(f"gate: {str(exc)[:200]}")
            return
        turn.p_need = decided.need
        if decided.generated:
            self._chosen(turn, context, raw, decided)

    def session(self, path: Path, advance: Callable[[], None] = lambda: None) -> list[Turn]:
        observations = load_session(path)
        self._agent = None
        self.memory = FeedbackMemory()
        # a recorded event is looked at when it happened (live, a moment settles a second: its events land)
        self.trigger = (TriggerPolicy(self.gate.proactivity.min_interval_s, settle_s=0.0)
                        if self.as_live and self.gate else None)
        if self.concurrent and self.trigger is None:
            return self._session_parallel(path.name, observations, advance)
        turns = []
        for i, obs in enumerate(observations):
            context = observations[: i + 1]
            turn = Turn(path.name, i, obs["time"], obs["event"])
            due = self.live_due(turn, context)
            if due is not None:
                self.decide(turn, context, due)
                if self.trigger is not None and turn.shown is not None:
                    self.trigger.proposed(turn_seconds(turn), moment_errors(context))
            judge_turn(turn, context, self.judge)
            turns.append(turn)
            advance()
        return turns

    def _choose_parallel(self, turn: Turn, context: list[Observation], pred: dict[str, Any]) -> None:
        """The second half of decision.decide for a prediction generated ahead (parallel replay)."""
        assert self.gate is not None and turn.p_need is not None
        prediction = as_prediction(pred)
        try:
            picked, held = choose(self.gate, self.memory, context, prediction, turn.p_need,
                                  turn_seconds(turn))
        except (JudgeFailure, ModelError) as exc:
            turn.errors.append(f"gate: {str(exc)[:200]}")
            self._predicted(turn, pred)
            return
        self._chosen(turn, context, pred, Decision(picked, turn.p_need, prediction, held))

    @staticmethod
    def _fork(agent: Agent, context: list[Observation]) -> Agent:
        """A copy of the session's agent holding the prompt window this turn gets when run sequentially; the
        session's agent then moves its window on as predicting this turn would have (the window is the agent's
        only state, and it depends on the observations only, never on the model's answers)."""
        worker = copy.copy(agent)
        worker.prompts = copy.copy(agent.prompts)
        agent.prompts.window(context)
        return worker

    def _session_parallel(self, name: str, observations: list[Observation],
                          advance: Callable[[], None]) -> list[Turn]:
        contexts = [observations[: i + 1] for i in range(len(observations))]
        turns = [Turn(name, i, obs["time"], obs["event"]) for i, obs in enumerate(observations)]
        wanted = [self._need_first(turn, context) for turn, context in zip(turns, contexts, strict=True)]
        pool = ThreadPoolExecutor(max_workers=self.parallel, thread_name_prefix="replay")
        try:
            # in order, as the sequential run would: cache hits are answers, misses are submitted with the prompt
            # state they would have had (hits do not move the window, as they do not sequentially)
            jobs: dict[int, tuple[str, dict[str, Any] | Future[tuple[dict[str, Any], bool]]]] = {}
            for i, context in enumerate(contexts):
                if not wanted[i]:
                    continue
                key = self._key(context)
                cached = self.cache.get(key)
                if cached is not None:
                    jobs[i] = (key, dict(cached))
                else:
                    jobs[i] = (key, pool.submit(self._generate, self._fork(self._session_agent(), context), context))
            for i, (turn, context) in enumerate(zip(turns, contexts, strict=True)):
                if i in jobs:
                    key, job = jobs[i]
                    if isinstance(job, Future):
                        pred, keep = job.result()
                        if keep:
                            self.cache.put(key, pred)
                    else:
                        pred = job
                    if self.gate is None:
                        self._show_first(turn, pred)
                    else:
                        if self._held(turn_seconds(turn)):
                            # earlier offers are held back now: the prediction depends on them, so it is made in
                            # turn (as the sequential run makes it), after the choices before it
                            pred = self.predict(context, turn_seconds(turn))
                        self._choose_parallel(turn, context, pred)
                judge_turn(turn, context, self.judge)
                advance()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        return turns


def as_prediction(pred: dict[str, Any]) -> Prediction:
    """A cached prediction (what `_generate` stores) as the agent's Prediction, for the decision path."""
    return Prediction(candidates=list(pred["candidates"]), preference=dict(pred["preference"]),
                      latency_s=pred["latency_s"] or 0.0, errors=list(pred["errors"]),
                      held_back=list(pred.get("held_back", [])), actions=dict(pred.get("actions") or {}))


def judge_turn(turn: Turn, context: list[Observation], judge: Judge) -> None:
    """Judge silence, every candidate (for pred@k) and, from those, what was shown and what was proposed."""
    turn.judged_silence = judge(context, None)
    turn.judged_candidates = [judge(context, c) for c in turn.candidates]
    if turn.proposed is None and not turn.withheld:
        turn.proposed = turn.shown  # ungated (the paper's setting): what is shown is what is proposed

    def judged(task: str | None) -> bool | None:
        if task is None:
            return turn.judged_silence
        if task in turn.candidates:
            return turn.judged_candidates[turn.candidates.index(task)]
        return judge(context, task)

    turn.judged_shown = judged(turn.shown)
    turn.judged_proposed = judged(turn.proposed) if turn.proposed != turn.shown else turn.judged_shown


@dataclass
class Trace:
    """An archived trace, read and checked: its observations and each turn's candidate tasks."""

    path: Path
    observations: list[Observation]
    candidates: list[list[str]]


def load_trace(trace_path: Path) -> Trace:
    """An archived trace (`agent_response` per turn: [], ["task"], "task", {"task": ...}, null or "null"); raises
    SessionError naming the file and line of anything malformed, so a run can check every trace before any
    work."""
    observations, candidates = [], []
    for where, obs, turn in load_turns(trace_path):
        raw = response_tasks(turn.get("agent_response") if isinstance(turn, dict) else None)
        if not all(r is None or isinstance(r, str) for r in raw):
            raise SessionError(f"{where}: agent_response must be a task, a list of tasks or null")
        observations.append(obs)
        candidates.append([t for t in (normalize_task(r) for r in raw) if t])
    return Trace(trace_path, observations, candidates)


def judge_trace(trace: Trace, judge: Judge) -> list[Turn]:
    """An archived trace's predictions judged like our own (the first candidate is what was shown)."""
    turns = []
    for i, (obs, candidates) in enumerate(zip(trace.observations, trace.candidates, strict=True)):
        first = candidates[0] if candidates else None
        t = Turn(trace.path.name, i, obs["time"], obs["event"], candidates, first, proposed=first)
        judge_turn(t, trace.observations[: i + 1], judge)
        turns.append(t)
    return turns


@dataclass
class Baselines:
    """The archived traces found for the replayed sessions, and the models left out because a trace of theirs
    could not be read (model -> the reason, naming the file and line): one bad trace never aborts a run."""

    traces: dict[str, list[Trace]] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)


def find_baselines(folder: Path, sessions: Sequence[Path]) -> Baselines:
    """The archived traces of the given sessions under `folder` (`folder/<model>/<session file name>`), read and
    checked. A model with a malformed trace is left out and named (its metrics over fewer sessions would not
    compare); raises SessionError only when the folder cannot be read or holds no trace of these sessions."""
    try:
        models = sorted(p for p in folder.iterdir() if p.is_dir())
    except OSError as exc:
        raise SessionError(f"{folder}: cannot read ({exc.strerror or exc})") from None
    found = Baselines()
    for model in models:
        try:
            traces = [load_trace(model / s.name) for s in sessions if (model / s.name).exists()]
        except SessionError as exc:
            found.failed[model.name] = str(exc)
            continue
        if traces:
            found.traces[model.name] = traces
    if not found.traces and not found.failed:
        names = ", ".join(sorted({s.name for s in sessions}))
        raise SessionError(f"{folder}: no archived trace of {names} (expected {folder}/<model>/<session file>)")
    return found


# ------------------------------------------------------------------------------------------------ our run

def agent_name(model_spec: str, rm_spec: str | None, threshold: float | None, as_live: bool = False) -> str:
    """A directory name for our run beside the archived models: the model spec and the gate (and `+as-live`),
    filesystem-safe (a file path is named by its stem)."""

    def short(spec: str) -> str:
        return Path(spec).stem if Path(spec).expanduser().is_file() else spec

    gate = "no-gate" if rm_spec is None else f"gate-{short(rm_spec)}-t{threshold}"
    timing = "+as-live" if as_live and rm_spec is not None else ""
    return re.sub(r"[^A-Za-z0-9.+-]+", "_", f"{short(model_spec)}+{gate}{timing}").strip("_.")


def turn_row(turn: Turn, labels: Mapping[str, bool] | None) -> dict[str, Any]:
    """One line of turns.jsonl: what the agent proposed, what the gate made of it, what the human said."""
    return {"session": turn.session, "index": turn.index, "time": turn.time, "event": turn.event,
            "candidates": turn.candidates, "scores": turn.scores, "p_need": turn.p_need, "shown": turn.shown,
            "held_back": turn.held_back, "withheld": turn.withheld, "proposed": turn.proposed,
            "need": label_of(turn, labels)}


def save_run(out: Path, agent: str, turns: Sequence[Turn], labels: Mapping[str, bool] | None) -> None:
    """`out/turns.jsonl` (one line per turn) and `out/traces/<agent>/<session>` in the archived-trace format
    (what was shown as `agent_response`), which `--baselines out/traces` reads back."""
    out.mkdir(parents=True, exist_ok=True)
    with (out / "turns.jsonl").open("w", encoding="utf-8") as f:
        for t in turns:
            f.write(json.dumps(turn_row(t, labels), ensure_ascii=False) + "\n")
    folder = out / "traces" / agent
    folder.mkdir(parents=True, exist_ok=True)
    for name, ts in by_session(turns).items():
        trace = [{"observation": {"time": t.time, "event": t.event}, "agent_response": [t.shown] if t.shown else []}
                 for t in ts]
        (folder / name).write_text(json.dumps(trace, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
