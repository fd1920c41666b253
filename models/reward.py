"""The trained CPU reward model: `score(context, task_or_None) -> P(the user accepts)`.

Why it looks like this (see `bench/rm_study.py` for the numbers):
- Bag-of-words and sentence embeddings of the context + task, fed to logistic regression or an MLP, do not beat
  always-accept on F1 on ProactiveBench's 1,190 human judgements (TF-IDF + LR: F1 0.50, missed needs 25%): with
  ~230 contexts, words learn the sessions' topics, not when help is welcome. So the model reads a few dozen *hand-described* features that carry across topics:
  what just happened (a search, an error, a copy, a question, code typed, only mouse/keys noise, a switch of
  application), how long the session and the last gap are, and, for a task, how concrete it is (named files,
  quoted or code terms, length) and how much it talks about the latest events versus generic offers ("help the
  user", "provide assistance", "monitor").
- Silence and tasks are different questions (is help needed here? / is this offer worth it?), so there are two
  small logistic regressions, one per kind, each on its own features (giving the task model the context's need
  features, or the silence model's need estimate, made it worse or no better).
- Annotators split 2-vs-1 on most proposals. Fitting task rows on the fraction of annotators who accepted (soft
  labels, `soft_labels: true`) was tried and is supported; the majority label (`valid`) did slightly better in
  both cross-validations (accuracy 0.643 vs 0.629, F1 0.592 vs 0.584), so it is the default.
- Classes are reweighted so that each sub-model treats accept and reject alike: a model that always rejects
  proposals would look accurate and be useless as a gate.
Inference is numpy + stdlib only (sklearn is imported by `train` alone), and the artefact is one JSON file.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .labels import CATEGORY_NAMES, agreement, calibration, confusion, normalize_task, rates, row_category

Context = Sequence[dict[str, Any]]
VERSION = 2  # 2: may carry the assistant's need model (key "need", kept in `meta`); version 1 still loads
READABLE_VERSIONS = (1, 2)
DEFAULT_ARTEFACT = Path(__file__).with_name("reward_default.json")
REQUIRED = ("obs", "pred_task", "valid")


# --------------------------------------------------------------------------------------------------- features

def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


#: what an observation says just happened; each is a 0/1 feature for the last event and a count over the last 3
EVENT_SIGNALS: dict[str, re.Pattern[str]] = {
    "search": _rx(r"\bsearch(es|ed|ing)?\b|\bgoogle\b|\bbing\b|baidu|search bar|搜索"),
    "error": _rx(r"\b(error|exception|traceback|failed|fails|failure|fatal|bug|cannot|can't|undefined|not found|"
                 r"denied|warning|issue|problem|crash\w*)\b"),
    "copy": _rx(r"\bcop(y|ies|ied)\b|ctrl\+c|cmd\+c"),
    "paste": _rx(r"\bpast(e|es|ed)\b|ctrl\+v|cmd\+v"),
    "question": _rx(r"\?|\bhow (to|do|can)\b|\bwhat is\b|\bwhy\b|怎么|如何"),
    "read": _rx(r"\b(read|reads|reading|review|reviews|documentation|docs?|tutorial|article|guide|stack ?overflow|"
                r"result|results|webpage|page|website|link)\b"),
    "code": _rx(r"\b(types?|typed|writes?|wrote|writing|codes?|coding|function|method|class|import|def)\b|\.py\b|"
                r"\.rb\b|\.js\b|\.java\b|\.php\b"),
    "run": _rx(r"\b(runs?|ran|execut\w+|terminal|command|compil\w+|install\w*|pip|npm)\b"),
    "open": _rx(r"\b(opens?|opened|launch\w*|creates?|created|starts?|started|new (file|tab|document))\b"),
    "switch": _rx(r"\b(switch\w*|returns?|returned|back to|navigat\w+)\b"),
    "noise": _rx(r"\b(scroll\w*|mouse|click\w*|moves?|moved|press\w* and releas\w*|ctrl_l|shift)\b"),
    "edit": _rx(r"\b(edit\w*|modif\w+|chang\w+|delet\w+|undo|fix\w*|correct\w*|adjust\w*)\b"),
    "write": _rx(r"\b(document|essay|paragraph|report|draft|word|writing|article|slides?)\b"),
    "save": _rx(r"\bsav(e|es|ed)\b|ctrl\+s"),
    "chat": _rx(r"chatgpt|deepseek|\bchat\b|\bai\b|copilot|\bgpt"),
}
GENERIC = _rx(r"\b(help|assist\w*|provide|offer|support|guidance|guide|resources?|information|more|additional|"
              r"further|continue|monitor\w*|manage|any|other|related|general|relevant|useful)\b")
ACTION = _rx(r"\b(fix|debug|explain|compare|summari[sz]e|list|write|generate|create|check|validate|translate|"
             r"implement|refactor|convert|calculate|correct|format|add|show|find|install|set up|draft|outline)\b")
OFFER_START = _rx(r"^(help|assist|provide|offer|suggest|guide|support|monitor|continue|refer|perform)\b")
NARRATES = _rx(r"^\s*(the\s+)?users?\b")  # "The user switches to ...": a description, not an offer
USER_MENTION = _rx(r"\bthe user\b|\buser's\b|\byou\b|\byour\b")
QUOTED = re.compile(r"'[^']{2,}'|\"[^\"]{2,}\"|`[^`]{2,}`")
FILE_NAME = re.compile(r"\b[\w-]+\.(py|rb|js|ts|java|php|c|cpp|h|go|rs|md|txt|csv|json|html|css|docx?|xlsx?|pptx?)\b",
                       re.I)
CODE_TOKEN = re.compile(r"\w+\(\)|\w+\.\w+\(|#\w+|::|\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z]\w+\b")
PROPER = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][A-Za-z0-9]+")
CJK = re.compile(r"[\u3400-\u9fff]")
WORD = re.compile(r"[a-z0-9_+#]{3,}|[\u3400-\u9fff]")
STOP = set("the user and with for that this from into their they them his her its about after before while then "
           "than you your are was were has have had not but can will would should could also using use such "
           "some more other any all which what when where who how these those there here just like".split())
FIRST_PERSON = _rx(r"\b(I|I'll|I can|we|let me)\b")
HEDGE = _rx(r"\b(if|may|might|could|consider|perhaps|possibly)\b")
SYNTHETIC_TIME = re.compile(r"day\s+(\d+),\s*(\d{1,2}):(\d{2})\s*([ap]m)?", re.I)


def words(text: str) -> set[str]:
    """Content words, lowercased; CJK characters count one by one (sessions mix English and Chinese)."""
    return set(WORD.findall(text.lower())) - STOP


def stems(ws: set[str]) -> set[str]:
    """Crude stems (first 5 characters): 'validation' and 'validate' meet; enough for overlap features."""
    return {w[:5] for w in ws}


def parse_time(value: Any) -> float | None:
    """Seconds from epoch strings ("1717378000.744") or synthetic times ("Day 1, 11:00 PM"); None otherwise."""
    text = str(value).strip()
    try:
        return float(text)
    except ValueError:
        pass
    m = SYNTHETIC_TIME.search(text)
    if not m:
        return None
    day, hour, minute, half = int(m[1]), int(m[2]) % 12 if m[4] else int(m[2]), int(m[3]), (m[4] or "").lower()
    hour += 12 if half == "pm" else 0
    return ((day * 24 + hour) * 60 + minute) * 60.0


def _event(o: Any) -> str:
    return str(o.get("event", "")) if isinstance(o, dict) else str(o)


def context_features(context: Context) -> dict[str, float]:
    """What just happened: signals in the last event and the last three, session length and time gaps."""
    events = [_event(o) for o in context] or [""]
    last, recent = events[-1], events[-3:]
    f: dict[str, float] = {}
    for name, pattern in EVENT_SIGNALS.items():
        f[f"last_{name}"] = float(bool(pattern.search(last)))
        f[f"recent_{name}"] = sum(bool(pattern.search(e)) for e in recent) / len(recent)
        f[f"all_{name}"] = sum(bool(pattern.search(e)) for e in events) / len(events)
    f["n_events"] = math.log1p(len(events))
    f["first_event"] = float(len(events) == 1)
    f["last_len"] = math.log1p(len(last.split()))
    f["last_quoted"] = float(bool(QUOTED.search(last)))
    f["last_cjk"] = float(bool(CJK.search(last)))
    f["only_noise"] = float(bool(EVENT_SIGNALS["noise"].search(last)) and not any(
        EVENT_SIGNALS[k].search(last) for k in ("search", "error", "question", "copy", "paste", "read")))
    times = [parse_time(o.get("time")) if isinstance(o, dict) else None for o in context]
    gap = None
    if len(times) >= 2 and times[-1] is not None and times[-2] is not None:
        gap = max(0.0, times[-1] - times[-2])
    f["gap_log"] = math.log1p(gap) / 8.0 if gap is not None else 0.0
    f["gap_known"] = float(gap is not None)
    prev_words = words(" ".join(events[:-1]))
    last_words = words(last)
    f["last_novel"] = len(last_words - prev_words) / max(1, len(last_words))
    # coming back to the same thing (a repeated search or problem) is a classic sign of being stuck
    f["repeat"] = max((len(last_words & words(e)) / max(1, len(last_words)) for e in events[-4:-1]), default=0.0)
    return f


def task_features(context: Context, task: str) -> dict[str, float]:
    """How concrete the task is and how much it is about the latest events rather than a generic offer."""
    events = [_event(o) for o in context] or [""]
    t_words = words(task)
    n = max(1, len(t_words))
    last_w, recent_w, all_w = words(events[-1]), words(" ".join(events[-3:])), words(" ".join(events))
    quoted_w = words(" ".join(q for e in events[-3:] for q in QUOTED.findall(e)))
    f: dict[str, float] = {
        "t_len": math.log1p(len(task.split())),
        "t_long": float(len(task.split()) > 20),
        "t_generic": len(GENERIC.findall(task)) / n,
        "t_action": float(bool(ACTION.search(task))),
        "t_offer_start": float(bool(OFFER_START.search(task.strip()))),
        "t_user": float(bool(USER_MENTION.search(task))),
        "t_narrates": float(bool(NARRATES.match(task))),
        # a task that repeats the last event (Jaccard of words) describes it rather than offering anything
        "t_copy_last": float(len(t_words & last_w) / max(1, len(t_words | last_w)) >= 0.6),
        "t_quoted": float(bool(QUOTED.search(task))),
        "t_file": float(bool(FILE_NAME.search(task))),
        "t_code": float(bool(CODE_TOKEN.search(task))),
        "t_proper": min(3, len(PROPER.findall(task))) / 3,
        "t_question": float("?" in task),
        "t_cjk": float(bool(CJK.search(task))),
        "t_ov_last": len(t_words & last_w) / n,
        "t_ov_recent": len(t_words & recent_w) / n,
        "t_ov_all": len(t_words & all_w) / n,
        "t_ov_last_any": float(bool(t_words & last_w)),
        "t_new_words": len(t_words - all_w) / n,
        "t_stem_last": len(stems(t_words) & stems(last_w)) / n,
        "t_stem_recent": len(stems(t_words) & stems(recent_w)) / n,
        "t_ov_quoted": float(bool(t_words & quoted_w)),
        "t_ov_quoted_frac": len(t_words & quoted_w) / max(1, len(quoted_w)),
        "t_first_person": float(bool(FIRST_PERSON.search(task))),
        "t_hedge": float(bool(HEDGE.search(task))),
    }
    for name in ("search", "error", "copy", "paste", "code", "run", "write", "chat", "edit", "read"):
        f[f"t_{name}"] = float(bool(EVENT_SIGNALS[name].search(task)))
    return f


# ------------------------------------------------------------------------------------------------------ model

def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


class LinearModel:
    """One logistic regression over named features, standardised: everything inference needs, as JSON."""

    def __init__(self, names: list[str], mean: list[float], scale: list[float], coef: list[float],
                 intercept: float):
        self.names, self.intercept = names, float(intercept)
        self.mean, self.scale, self.coef = (np.asarray(v, dtype=np.float64) for v in (mean, scale, coef))
        self.w = self.coef / self.scale  # folded: z = w.x + b
        self.b = self.intercept - float(self.w @ self.mean)

    def vector(self, feats: dict[str, float]) -> np.ndarray:
        return np.fromiter((feats.get(k, 0.0) for k in self.names), dtype=np.float64, count=len(self.names))

    def prob(self, feats: dict[str, float]) -> float:
        return _sigmoid(float(self.w @ self.vector(feats)) + self.b)

    def to_json(self) -> dict[str, Any]:
        return {"features": self.names, "mean": [round(float(v), 10) for v in self.mean],
                "scale": [round(float(v), 10) for v in self.scale],
                "coef": [round(float(v), 10) for v in self.coef], "intercept": round(self.intercept, 10)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> LinearModel:
        names = list(d["features"])
        if not len(names) == len(d["mean"]) == len(d["scale"]) == len(d["coef"]):
            raise ValueError("feature, mean, scale and coef lengths differ")
        return cls(names, d["mean"], d["scale"], d["coef"], d["intercept"])


class TrainedRewardModel:
    """Two logistic regressions on hand-described features: one for silence, one for tasks.

    The artefact may also carry the assistant's need model (`meta["need"]`, written by `assistant/need.py`,
    which reads grounding features this package cannot compute); the gate uses it when present.
    (Feeding the silence model's need estimate into the task model was tried: no gain in cross-validation.)"""

    def __init__(self, silence: LinearModel, task: LinearModel, meta: dict[str, Any] | None = None,
                 name: str = "trained"):
        self.silence, self.task, self.meta, self.name = silence, task, dict(meta or {}), name

    def need(self, context: Context) -> float:
        """P(help is needed now) read from the silence model: 1 - P(silence is right). Not calibrated (the
        silence model is class-reweighted); the gate prefers the need model stored with the artefact."""
        return round(1.0 - self.silence.prob(context_features(context)), 6)

    def features(self, context: Context, task: str | None) -> dict[str, float]:
        feats = context_features(context)
        if task is not None:
            feats.update(task_features(context, task))
        return feats

    def score(self, context: Context, task: str | None) -> float:
        task = normalize_task(task)
        feats = self.features(context, task)
        return round((self.silence if task is None else self.task).prob(feats), 6)

    def score_many(self, items: Iterable[tuple[Context, str | None]]) -> list[float]:
        return [self.score(context, task) for context, task in items]

    def to_json(self) -> dict[str, Any]:
        return {"kind": "proactive-reward-model", "version": VERSION, "name": self.name, **self.meta,
                "silence": self.silence.to_json(), "task": self.task.to_json()}

    def save(self, path: Path) -> None:
        """Sorted keys and rounded floats: the same data and seed give the same bytes."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                              encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> TrainedRewardModel:
        """Raises ValueError with a one-line reason when the file is not a reward model of this version."""
        from .files import json_problem, read_regular_file

        try:
            text = read_regular_file(path, ValueError, named=False).decode("utf-8")
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not a reward-model file (bad JSON: {exc.msg} at line {exc.lineno})") from None
        except UnicodeDecodeError:
            raise ValueError("not a reward-model file (not UTF-8 text)") from None
        except (ValueError, RecursionError) as exc:
            raise ValueError(f"not a reward-model file ({json_problem(exc)})") from None
        if not isinstance(data, dict) or data.get("kind") != "proactive-reward-model":
            raise ValueError("not a reward-model file")
        if data.get("version") not in READABLE_VERSIONS:
            raise ValueError(f"reward-model version {data.get('version')} is not supported (expected {VERSION})")
        try:
            silence, task = LinearModel.from_json(data["silence"]), LinearModel.from_json(data["task"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"corrupt reward-model file: {exc}") from None
        meta = {k: v for k, v in data.items() if k not in ("kind", "version", "name", "silence", "task")}
        return cls(silence, task, meta, name=str(data.get("name", Path(path).stem)))


def load_default() -> TrainedRewardModel:
    model = TrainedRewardModel.load(DEFAULT_ARTEFACT)
    model.name = "default"
    return model


# ------------------------------------------------------------------------------------------------------- data

def read_reward_rows(paths: Iterable[Path | str]) -> list[dict[str, Any]]:
    """Reward-format JSONL rows; a bad line raises ValueError("{path}:{line}: reason").

    `obs`, `pred_task` and `valid` are required. Rows exported from the user's own decisions may lack
    `category`, `annotation`, `help_needed` or `session`: they are derived (category from pred_task/valid) or
    left for the trainer to default. Every field present is checked by type (`check_reward_row`), and the file
    must be a regular file of UTF-8 text: anything else raises ValueError naming the file (and line)."""
    from .files import json_problem, read_regular_file

    rows: list[dict[str, Any]] = []
    for path in paths:
        data = read_regular_file(path, ValueError)
        for lineno, raw in enumerate(data.split(b"\n"), 1):
            if not raw.strip():
                continue
            where = f"{path}:{lineno}"
            try:
                line = raw.decode("utf-8-sig" if lineno == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                raise ValueError(f"{where}: not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8") \
                    from None
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{where}: bad JSON: {exc.msg}") from None
            except (ValueError, RecursionError) as exc:
                raise ValueError(f"{where}: {json_problem(exc)}") from None
            problem = check_reward_row(row, has_escapes="\\u" in line)
            if problem:
                raise ValueError(f"{where}: {problem}")
            row["pred_task"] = normalize_task(row["pred_task"])
            row["category"] = CATEGORY_NAMES[row_category(row)]
            if row.get("session") is None:
                row["session"] = str(path)
            rows.append(row)
    return rows


def _is_time(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def check_reward_row(row: Any, has_escapes: bool = True) -> str | None:
    """What is wrong with a parsed reward row (one line of text), or None. `has_escapes=False` (the line has no
    `\\u` escape) skips the search for unpaired surrogates, which only an escape can produce."""
    if not isinstance(row, dict):
        return "expected a JSON object"
    missing = [k for k in REQUIRED if k not in row]
    if missing:
        return f"missing field(s) {', '.join(missing)}"
    obs = row["obs"]
    if not isinstance(obs, list) or not obs or not all(
            isinstance(o, dict) and isinstance(o.get("event"), str) and _is_time(o.get("time")) for o in obs):
        return "obs must be a non-empty list of {time, event} objects (event text, time a string or number)"
    if not isinstance(row["valid"], bool):
        return "valid must be true or false"
    task = row["pred_task"]
    if task is not None and not isinstance(task, str) and not (
            isinstance(task, list) and all(isinstance(t, str) for t in task)):
        return "pred_task must be a string, a list of strings or null"
    if row.get("help_needed") is not None and not isinstance(row["help_needed"], bool):
        return "help_needed must be true, false or null"
    annotation = row.get("annotation")
    if annotation is not None and not (isinstance(annotation, list) and all(isinstance(a, bool) for a in annotation)):
        return "annotation must be a list of booleans"
    for key in ("category", "session"):
        if row.get(key) is not None and not isinstance(row[key], str):
            return f"{key} must be a string or null"
    if has_escapes:
        from .files import unpaired_surrogate

        bad = unpaired_surrogate(json.dumps(row, ensure_ascii=False))
        if bad:
            return f"holds an unpaired surrogate ({bad}), which is not text"
    return None


def data_hash(rows: Sequence[dict[str, Any]]) -> str:
    """Identifies the training data, independent of file names and key order."""
    h = hashlib.sha256()
    for row in rows:
        h.update(json.dumps({k: row.get(k) for k in ("obs", "pred_task", "valid", "annotation")},
                            sort_keys=True, ensure_ascii=False).encode())
    return h.hexdigest()[:16]


# --------------------------------------------------------------------------------------------------- training

#: training settings; stored in the artefact so a retrain with the same data reproduces it
TRAIN_CONFIG: dict[str, Any] = {
    "C_silence": 0.03, "C_task": 0.1, "balance": 1.0, "soft_labels": False,
    # feature-name prefixes each sub-model reads. Fewer features carried across sessions better: the silence
    # model reads only the last event (+ gap, length), the task model only the task and its overlap with the
    # context (leave-one-session-out AUC 0.71 and 0.67, against 0.65 and 0.61 with every feature).
    "silence_features": ["last_", "gap_", "n_events", "only_noise", "first_event", "repeat"],
    "task_features": ["t_"],
    # bad tasks the human rows lack, derived from each context (see synthetic_negatives)
    "synthetic_negatives": True,
}

SYNTHETIC_WEIGHT = 1.0  # a synthetic negative counts as much as a human rejection (0.3 left narration above grounded tasks)
#: the agent prompt's own example task (assistant/prompt.py): a task naming things absent from most contexts
EXAMPLE_TASK = "Suggest a fix for the requests TimeoutError in client.py"
GENERIC_OFFERS = ("Help the user with their current task", "Provide assistance with what you are working on",
                  "Offer support if needed", "Monitor the progress and offer further help")


def synthetic_negatives(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rejected tasks of kinds the human rows lack, one per distinct context, in data order (deterministic),
    taking turns: the narration of the last event ("The user switches to ..."), the prompt's own example task
    (it names a file and an error absent from the context; contexts that name client.py get a generic offer
    instead), and a generic offer (cycling a fixed list). One per context, not three: more synthetic rows
    outweighed the human rejections and lowered agreement on human-labelled false alarms."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for row in rows:
        key = json.dumps(row["obs"], sort_keys=True, ensure_ascii=False)
        if key in seen:
            continue
        seen.add(key)
        turn = len(seen) % 3
        last = _event(row["obs"][-1]).strip()
        if turn == 0 and last:
            task = last
        elif turn == 1 and "client.py" not in key:
            task = EXAMPLE_TASK
        else:
            task = GENERIC_OFFERS[len(seen) % len(GENERIC_OFFERS)]
        out.append({"obs": row["obs"], "pred_task": task, "valid": False, "annotation": None,
                    "help_needed": row.get("help_needed"), "category": CATEGORY_NAMES["FA"],
                    "session": row.get("session"), "synthetic": True})
    return out


def need_label(row: dict[str, Any]) -> bool:
    """`help_needed`; rows exported from a user's decisions may lack it: an accepted task means it was needed."""
    if isinstance(row.get("help_needed"), bool):
        return bool(row["help_needed"])
    return row["pred_task"] is not None and bool(row["valid"])


def need_contexts(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per distinct context (first occurrence), needed if any of its rows says so."""
    by_key: dict[str, dict[str, Any]] = {}
    for r in rows:
        if r.get("synthetic"):
            continue
        key = json.dumps(r["obs"], sort_keys=True, ensure_ascii=False)
        if key not in by_key:
            by_key[key] = {**r, "need": need_label(r)}
        elif need_label(r):
            by_key[key]["need"] = True
    return list(by_key.values())


def _target(row: dict[str, Any], soft: bool) -> float:
    """`valid`; with soft labels, task rows use the fraction of annotators who accepted instead (silence rows'
    votes are not about the silence itself, so they keep `valid`)."""
    votes = row.get("annotation")
    if soft and row["pred_task"] is not None and votes:
        return sum(bool(v) for v in votes) / len(votes)
    return 1.0 if row["valid"] else 0.0


def fit_linear(feats: list[dict[str, float]], targets: list[float], c: float, balance: float, seed: int,
               prefixes: Sequence[str], counted: Sequence[bool] | None = None) -> LinearModel:
    """Weighted logistic regression on soft targets: each row counts as a positive with weight p and a negative
    with weight 1-p; classes are reweighted towards equal total weight (balance=1: fully). Rows not `counted`
    (synthetic negatives) take the class weights computed without them, so they add to the human rejections
    instead of diluting them."""
    from .extras import needs

    with needs("research", "training a reward model"):  # scikit-learn: one line naming the extra when missing
        from sklearn.linear_model import LogisticRegression

    names = sorted({k for f in feats for k in f if k.startswith(tuple(prefixes))})
    x = np.array([[f.get(k, 0.0) for k in names] for f in feats], dtype=np.float64)
    y = np.asarray(targets, dtype=np.float64)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    xs = (x - mean) / scale
    mask = np.ones(len(y), dtype=bool) if counted is None else np.asarray(counted, dtype=bool)
    pos, neg = float(y[mask].sum()), float((1 - y[mask]).sum())
    if pos < 1e-9 or neg < 1e-9:  # one class only (e.g. a tiny export): a constant model
        p = min(max(pos / max(pos + neg, 1e-9), 0.02), 0.98)
        return LinearModel(names, mean.tolist(), scale.tolist(), [0.0] * len(names), math.log(p / (1 - p)))
    total = pos + neg
    w_pos = (total / (2 * pos)) ** balance
    w_neg = (total / (2 * neg)) ** balance
    xx = np.vstack([xs, xs])
    yy = np.concatenate([np.ones(len(y)), np.zeros(len(y))])
    ww = np.concatenate([y * w_pos, (1 - y) * w_neg]) * np.concatenate([np.where(mask, 1.0, SYNTHETIC_WEIGHT)] * 2)
    keep = ww > 0
    lr = LogisticRegression(C=c, max_iter=2000, random_state=seed)
    lr.fit(xx[keep], yy[keep], sample_weight=ww[keep])
    return LinearModel(names, mean.tolist(), scale.tolist(), lr.coef_[0].tolist(), float(lr.intercept_[0]))


def _with_negatives(rows: Sequence[dict[str, Any]], cfg: dict[str, Any]) -> list[dict[str, Any]]:
    return [*rows, *synthetic_negatives(rows)] if cfg.get("synthetic_negatives") else list(rows)


def _prepare(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Normalised rows with their features computed once (cross-validation refits on them many times)."""
    out = []
    for r in rows:
        task = normalize_task(r["pred_task"])
        feats = context_features(r["obs"])
        if task is not None:
            feats.update(task_features(r["obs"], task))
        out.append({**r, "pred_task": task, "_features": feats})
    return out


def _fit_prepared(rows: Sequence[dict[str, Any]], seed: int, cfg: dict[str, Any]) -> TrainedRewardModel:
    if not rows:
        raise ValueError("no training rows")
    silent = [r for r in rows if r["pred_task"] is None]
    tasks = [r for r in rows if r["pred_task"] is not None]
    # a sub-model without rows (e.g. training only on exported decisions, which are all tasks) is a constant 0.5
    silence_feats = [r["_features"] for r in silent] or [context_features([])]
    silence_y = [_target(r, False) for r in silent] or [0.5]
    task_feats = [r["_features"] for r in tasks] or [{**context_features([]), **task_features([], "")}]
    task_y = [_target(r, cfg["soft_labels"]) for r in tasks] or [0.5]
    silence = fit_linear(silence_feats, silence_y, cfg["C_silence"], cfg["balance"], seed, cfg["silence_features"])
    task = fit_linear(task_feats, task_y, cfg["C_task"], cfg["balance"], seed, cfg["task_features"],
                      counted=[not r.get("synthetic") for r in tasks] if tasks else None)
    human = [r for r in rows if not r.get("synthetic")]
    meta = {"config": cfg, "seed": seed, "training_rows": len(human), "training_silence_rows": len(silent),
            "training_synthetic_rows": len(rows) - len(human), "training_data_sha256": data_hash(human)}
    return TrainedRewardModel(silence, task, meta)


def train(rows: list[dict[str, Any]], seed: int = 0, config: dict[str, Any] | None = None,
          folds: int = 6) -> TrainedRewardModel:
    """Fit both sub-models on reward rows (as returned by `read_reward_rows`). Deterministic for data + seed.

    The artefact also records session-grouped cross-validations (`folds` folds and leave-one-session-out;
    folds=0 skips both) on the same data,
    so every model file says how well its recipe generalises to unseen sessions."""
    cfg = {**TRAIN_CONFIG, **(config or {})}
    prepared = _prepare(_with_negatives(rows, cfg))
    model = _fit_prepared(prepared, seed, cfg)
    if folds and len({str(r.get("session")) for r in prepared}) >= 2:
        model.meta["cross_validation"] = _cross_validate_prepared(prepared, folds, seed, cfg)
        model.meta["cross_validation_loso"] = _cross_validate_prepared(prepared, 0, seed, cfg)
    return model


# ------------------------------------------------------------------------------------------------- evaluation

def _metrics(rows: Sequence[dict[str, Any]], predicted: Sequence[bool]) -> dict[str, Any]:
    """Agreement rounded for the artefact's metadata (stable bytes across runs)."""
    m = agreement(rows, predicted)
    return {"n": m["n"], **{k: round(m[k], 4) for k in ("accuracy", "precision", "recall", "f1")},
            "agreement": {c: (None if v is None else round(v, 4)) for c, v in m["agreement"].items()}}


def session_folds(rows: Sequence[dict[str, Any]], folds: int) -> list[list[int]]:
    """Row indices per fold, whole sessions per fold (so no context or session is on both sides), balanced by
    row count greedily in a fixed order: deterministic, no randomness to report."""
    sizes: dict[str, int] = {}
    for r in rows:
        sizes[str(r.get("session"))] = sizes.get(str(r.get("session")), 0) + 1
    buckets: list[list[str]] = [[] for _ in range(min(folds, len(sizes)))]
    load = [0] * len(buckets)
    for s in sorted(sizes, key=lambda s: (-sizes[s], s)):
        i = load.index(min(load))
        buckets[i].append(s)
        load[i] += sizes[s]
    where = {s: i for i, b in enumerate(buckets) for s in b}
    return [[j for j, r in enumerate(rows) if where[str(r.get("session"))] == i] for i in range(len(buckets))]


def cross_validate(rows: list[dict[str, Any]], folds: int = 6, seed: int = 0,
                   config: dict[str, Any] | None = None) -> dict[str, Any]:
    """Session-grouped cross-validation (folds=0: leave one session out): this model and always-accept, each
    with accuracy, precision, recall, F1 and agreement per category. No session is on both sides of a fold."""
    cfg = {**TRAIN_CONFIG, **(config or {})}
    return _cross_validate_prepared(_prepare(_with_negatives(rows, cfg)), folds, seed, cfg)


def cross_validated_scores(rows: list[dict[str, Any]], folds: int = 6, seed: int = 0,
                           config: dict[str, Any] | None = None) -> list[float]:
    """Each row's score from the model trained without its fold (for studies and threshold plots); the
    synthetic negatives train with their fold and are not scored."""
    cfg = {**TRAIN_CONFIG, **(config or {})}
    return _oof_scores(_prepare(_with_negatives(rows, cfg)), folds, seed, cfg)[: len(rows)]


def _oof_scores(rows: list[dict[str, Any]], folds: int, seed: int, cfg: dict[str, Any]) -> list[float]:
    n_sessions = len({str(r.get("session")) for r in rows})
    scores = [0.5] * len(rows)
    for test in session_folds(rows, n_sessions if folds <= 0 else folds):
        held = set(test)
        model = _fit_prepared([r for i, r in enumerate(rows) if i not in held], seed, cfg)
        for i in test:
            scores[i] = (model.silence if rows[i]["pred_task"] is None else model.task).prob(rows[i]["_features"])
    return scores


def _cross_validate_prepared(rows: list[dict[str, Any]], folds: int, seed: int,
                             cfg: dict[str, Any]) -> dict[str, Any]:
    """Scores on held-out sessions; metrics on the human rows only (synthetic negatives train, never score)."""
    scores = _oof_scores(rows, folds, seed, cfg)
    n_sessions = len({str(r.get("session")) for r in rows})
    human = [i for i, r in enumerate(rows) if not r.get("synthetic")]
    human_rows = [rows[i] for i in human]
    return {"folds": min(n_sessions, folds) if folds > 0 else n_sessions, "grouped_by": "session",
            "model": _metrics(human_rows, [scores[i] >= 0.5 for i in human]),
            "always_accept": _metrics(human_rows, [True] * len(human))}


def need_report(probs: Sequence[float], labels: Sequence[bool],
                thresholds: dict[str, float]) -> dict[str, Any]:
    """Calibration and, at each named threshold, speaking-vs-needing metrics (precision, recall, F1, FPR)."""
    out: dict[str, Any] = {"contexts": len(probs), "calibration": calibration(probs, labels)}
    for name, threshold in thresholds.items():
        scores = rates(confusion([p >= threshold for p in probs], labels))
        out[name] = {"threshold": threshold, **{k: round(v, 4) for k, v in scores.items()}}
    return out
