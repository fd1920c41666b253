"""Human annotation of one session by several annotators, and its conversion to reward-format rows.

For each event (an index into the session's observations) each annotator may say whether help was needed
there (`mark_need`) and accept or reject candidate tasks, the agent's or typed in (`judge`).

Rules, defined once here:
- An annotator's *need* at an event is their mark if they made one; otherwise, if they judged tasks there, whether
  they accepted any of them. An annotator who accepts a task is also counted as needing help.
- Majority: a value is True when strictly more than half of the annotators who gave one say True; a tie (or no
  vote) is False, so a split never invents a need or a valid task.
- An event's `help_needed` is its majority need, or True if some task there is valid by majority.
- Agreement: over the items (event needs and judged tasks) with at least two votes, the fraction where every vote is
  the same; plus Cohen's kappa for each pair of annotators on the items both judged (1.0 when chance agreement is
  total and they agree on everything, 0.0 when it is total and they do not).

The file written by `save` holds the observations too, so annotators can take turns on the same file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

from proactive.assistant.live_context import observation_at
from proactive.assistant.proposals import ProposalLog
from proactive.models.base import Observation
from proactive.models.files import decode_utf8, json_problem, read_regular_file
from proactive.models.labels import CATEGORY_NAMES, normalize_task

from .sessions import SessionError, load_session, response_tasks

VERSION = 1


def load_observations(path: Path | str) -> list[Observation]:
    """A session file (ProactiveBench JSON or `proactive episodes --json` lines); raises SessionError."""
    return load_session(path)


def load_candidates(path: Path | str) -> dict[int, list[str]]:
    """The agent's proposals recorded in a ProactiveBench session (`agent_response` per turn, any archived form:
    `sessions.response_tasks`), if any; anything that is not a task (a tool call) is left out."""
    try:
        turns = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    out: dict[int, list[str]] = {}
    if not isinstance(turns, list):
        return out
    for i, turn in enumerate(turns):
        resp = turn.get("agent_response") if isinstance(turn, dict) else None
        tasks = [normalize_task(t) if t is None or isinstance(t, str) else None for t in response_tasks(resp)]
        if any(tasks):
            out[i] = [t for t in tasks if t]
    return out


def observations_from_store(store: Any) -> list[Observation]:
    """The episodes of a watcher database (a `watcher.store.Store`) as observations, oldest first."""
    return [observation_at(e["start"], e["event"]) for e in store.episodes()]


def proposals_by_episode(store: Any) -> dict[int, list[str]]:
    """The tasks the live assistant proposed (shown or not), keyed by the index of the episode they followed."""
    index = {e["id"]: i for i, e in enumerate(store.episodes())}
    out: dict[int, list[str]] = {}
    for proposal in ProposalLog(store).all(with_task=True):
        at = index.get(proposal["episode_id"])
        if at is not None and proposal["task"] not in out.setdefault(at, []):
            out[at].append(proposal["task"])
    return out


def load_database(path: Path | str) -> tuple[list[Observation], dict[int, list[str]]]:
    """Observations from the episodes of the database at `path`, and the assistant's proposals there as
    candidates; raises SessionError if the database has no episodes."""
    from proactive.watcher.store.database import Store, StoreError

    try:
        store = Store(path, readonly=True)
    except StoreError as exc:
        raise SessionError(str(exc)) from None
    try:
        observations = observations_from_store(store)
        candidates = proposals_by_episode(store)
    finally:
        store.close()
    if not observations:
        raise SessionError(f"{path}: no episodes in the database")
    return observations, candidates


def majority_vote(votes: Sequence[bool]) -> bool:
    """True when strictly more than half say True; ties and no votes are False."""
    return sum(votes) * 2 > len(votes)


def cohen_kappa(a: Sequence[bool], b: Sequence[bool]) -> float | None:
    """Cohen's kappa of two annotators over the same binary items (None for no items)."""
    n = len(a)
    if not n:
        return None
    po = sum(x == y for x, y in zip(a, b, strict=True)) / n
    pa, pb = sum(a) / n, sum(b) / n
    pe = pa * pb + (1 - pa) * (1 - pb)
    if pe >= 1.0:
        return 1.0 if po == 1.0 else 0.0
    return (po - pe) / (1 - pe)


class Annotations:
    """The marks of every annotator on one session."""

    def __init__(self, observations: Sequence[Observation], candidates: dict[int, list[str]] | None = None):
        self.observations = [Observation(time=o["time"], event=o["event"]) for o in observations]
        self.candidates: dict[int, list[str]] = {int(k): list(v) for k, v in (candidates or {}).items()}
        # annotator -> index -> need; annotator -> index -> {task: accepted}
        self.need: dict[str, dict[int, bool]] = {}
        self.tasks: dict[str, dict[int, dict[str, bool]]] = {}
        #: the session file these marks are about (its name), kept in the annotations file so an export after a
        #: load still names the session, not the annotations file
        self.session = ""

    # ------------------------------------------------------------------------------------------- marking
    def _check(self, annotator: str, index: int) -> str:
        name = annotator.strip()
        if not name:
            raise ValueError("annotator name is empty")
        if not 0 <= index < len(self.observations):
            raise IndexError(f"event {index} out of range (0..{len(self.observations) - 1})")
        self.need.setdefault(name, {})
        self.tasks.setdefault(name, {})
        return name

    def mark_need(self, annotator: str, index: int, needed: bool | None) -> None:
        """Record (or, with None, clear) whether `annotator` thinks help was needed at event `index`."""
        name = self._check(annotator, index)
        if needed is None:
            self.need[name].pop(index, None)
        else:
            self.need[name][index] = bool(needed)

    def judge(self, annotator: str, index: int, task: str, accepted: bool | None) -> None:
        """Accept or reject (None: forget) a task at event `index`; the task becomes a candidate there."""
        name = self._check(annotator, index)
        text = normalize_task(task)
        if text is None:
            raise ValueError("empty task")
        if accepted is None:
            self.tasks[name].get(index, {}).pop(text, None)
            return
        self.tasks[name].setdefault(index, {})[text] = bool(accepted)
        if text not in self.candidates.setdefault(index, []):
            self.candidates[index].append(text)

    # ------------------------------------------------------------------------------------------- reading
    @property
    def annotators(self) -> list[str]:
        return sorted(set(self.need) | set(self.tasks))

    def candidates_at(self, index: int) -> list[str]:
        return list(self.candidates.get(index, []))

    def add_candidates(self, index: int, tasks: Sequence[str]) -> list[str]:
        """Offer more tasks at event `index` (the agent's suggestions), not judged yet; returns the new ones."""
        if not 0 <= index < len(self.observations):
            raise IndexError(f"event {index} out of range (0..{len(self.observations) - 1})")
        current = self.candidates.setdefault(index, [])
        new: list[str] = []
        for task in tasks:
            text = normalize_task(task)
            if text and text not in current and text not in new:
                new.append(text)
        current.extend(new)
        return new

    def need_of(self, annotator: str, index: int) -> bool | None:
        """The annotator's effective need at an event (see the module doc), or None if they said nothing."""
        mark = self.need.get(annotator, {}).get(index)
        if mark is not None:
            return mark
        judged = self.tasks.get(annotator, {}).get(index)
        return any(judged.values()) if judged else None

    def task_of(self, annotator: str, index: int, task: str) -> bool | None:
        return self.tasks.get(annotator, {}).get(index, {}).get(task)

    def marked_indices(self) -> list[int]:
        return sorted({i for a in self.annotators for i in range(len(self.observations))
                       if self.need_of(a, i) is not None})

    def _items(self) -> dict[tuple[int, str | None], dict[str, bool]]:
        """Every judged item -> {annotator: vote}; (index, None) is the need at an event."""
        items: dict[tuple[int, str | None], dict[str, bool]] = {}
        for i in self.marked_indices():
            for a in self.annotators:
                need = self.need_of(a, i)
                if need is not None:
                    items.setdefault((i, None), {})[a] = need
            for task in self.candidates_at(i):
                for a in self.annotators:
                    vote = self.task_of(a, i, task)
                    if vote is not None:
                        items.setdefault((i, task), {})[a] = vote
        return items

    def majority(self) -> dict[int, dict[str, Any]]:
        """Per marked event: `help_needed` (majority need, or a task valid by majority) and `tasks` {task: valid}."""
        items = self._items()
        out: dict[int, dict[str, Any]] = {}
        for (i, task), votes in items.items():
            entry = out.setdefault(i, {"help_needed": False, "need_votes": {}, "tasks": {}, "task_votes": {}})
            if task is None:
                entry["help_needed"] = entry["help_needed"] or majority_vote(list(votes.values()))
                entry["need_votes"] = votes
            else:
                entry["tasks"][task] = majority_vote(list(votes.values()))
                entry["task_votes"][task] = votes
                entry["help_needed"] = entry["help_needed"] or entry["tasks"][task]
        return dict(sorted(out.items()))

    def agreement(self) -> dict[str, Any]:
        """`items` with >= 2 votes, `all_agree` (fraction, None without such items), pairwise `kappa`
        {"a / b": value or None}, and `mean_kappa` over the pairs that have one."""
        items = self._items()
        shared = [v for v in items.values() if len(v) >= 2]
        all_agree = (sum(len(set(v.values())) == 1 for v in shared) / len(shared)) if shared else None
        kappa: dict[str, float | None] = {}
        for a, b in combinations(self.annotators, 2):
            both = [v for v in items.values() if a in v and b in v]
            kappa[f"{a} / {b}"] = cohen_kappa([v[a] for v in both], [v[b] for v in both])
        values = [k for k in kappa.values() if k is not None]
        return {"annotators": len(self.annotators), "items": len(shared), "all_agree": all_agree,
                "kappa": kappa, "mean_kappa": sum(values) / len(values) if values else None}

    def to_reward_rows(self, session_name: str) -> list[dict[str, Any]]:
        """Reward-format rows: per marked event one silence row, then one row per judged task."""
        rows = []
        for i, entry in self.majority().items():
            obs = [dict(o) for o in self.observations[: i + 1]]
            need = entry["help_needed"]
            silence_votes = [not v for v in entry["need_votes"].values()]
            rows.append({"obs": obs, "pred_task": None, "valid": not need, "help_needed": need,
                         "annotation": silence_votes,
                         "category": CATEGORY_NAMES["MN" if need else "CR"], "session": session_name})
            for task, valid in entry["tasks"].items():
                rows.append({"obs": obs, "pred_task": task, "valid": valid, "help_needed": need,
                             "annotation": list(entry["task_votes"][task].values()),
                             "category": CATEGORY_NAMES["CD" if valid else "FA"], "session": session_name})
        return rows

    # -------------------------------------------------------------------------------------------- files
    def marks(self) -> int:
        """How many judgements the file holds (needs and tasks, every annotator)."""
        return sum(len(v) for v in self.need.values()) + sum(len(t) for a in self.tasks.values() for t in a.values())

    def to_json(self) -> dict[str, Any]:
        return {"version": VERSION, "session": self.session, "observations": self.observations,
                "candidates": {str(k): v for k, v in sorted(self.candidates.items())},
                "annotators": {a: {"need": {str(i): v for i, v in sorted(self.need.get(a, {}).items())},
                                   "tasks": {str(i): t for i, t in sorted(self.tasks.get(a, {}).items())}}
                               for a in self.annotators}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Annotations:
        ann = cls(data["observations"], {int(k): v for k, v in data.get("candidates", {}).items()})
        ann.session = str(data.get("session") or "")
        for name, marks in data.get("annotators", {}).items():
            ann.need[name] = {int(i): bool(v) for i, v in marks.get("need", {}).items()}
            ann.tasks[name] = {int(i): {t: bool(v) for t, v in ts.items()}
                               for i, ts in marks.get("tasks", {}).items()}
        return ann

    def save(self, path: Path | str) -> None:
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path | str) -> Annotations:
        """Read a file written by `save`; raises SessionError naming the file if it is not one."""
        text = decode_utf8(path, read_regular_file(path, SessionError), SessionError)  # a FIFO or a folder is refused, never waited on
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or not isinstance(data.get("observations"), list):
                raise ValueError("not an annotation file")
            return cls.from_json(data)
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            raise SessionError(f"{path}: cannot read annotations ({json_problem(exc)})") from None


def write_reward_rows(rows: Iterable[dict[str, Any]], path: Path | str) -> int:
    """Write rows as JSONL; returns how many."""
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
            n += 1
    return n
