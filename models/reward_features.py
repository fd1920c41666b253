"""The reward model's features: a few dozen hand-described signals of a context and a task that carry across
topics (what just happened, how long the session and the last gap are, how concrete a task is and how much it
talks about the latest events). Read by the artefact at run time (`reward.py`) and by training; why these
features and not words or embeddings is in `reward.py`."""

from __future__ import annotations

import math
import re
from typing import Any

from .scorer import Context


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


def event_text(o: Any) -> str:
    return str(o.get("event", "")) if isinstance(o, dict) else str(o)


def context_features(context: Context) -> dict[str, float]:
    """What just happened: signals in the last event and the last three, session length and time gaps."""
    events = [event_text(o) for o in context] or [""]
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
    events = [event_text(o) for o in context] or [""]
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
