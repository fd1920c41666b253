"""P(help is needed now): the gate's first question, answered from what the person is doing.

A logistic regression on grounding features: the activity of the last event, which kinds of object (a query, an
error, a page, a file, a document, an AI chat) the last event and the last three name, whether the activity just
changed. These carry across topics, unlike words. It is fitted without class reweighting on distinct contexts
labelled `help_needed`, so its output is a calibrated probability: the proactivity level's threshold is a cost
ratio applied to it directly (see `policy.py`).

Measured with leave-one-session-out on ProactiveBench's labelled contexts (the 8 real sessions): ROC AUC 0.77
from these features, against 0.70 for the reward model's silence half and 0.64 for its word-signal features.
The model is stored inside the reward-model artefact (`meta["need"]`), so one file carries both halves; the
reward model's package cannot compute grounding features, so the need model lives here.
"""

from __future__ import annotations

from typing import Any

from proactive.models.reward import LinearModel
from proactive.models.scorer import Context, Scorer

from .grounding import CHAT, DOCUMENT, ERROR, FILE, PAGE, QUERY, SITE, TOPIC, ground

KIND = "proactive-need-model"
CONFIG: dict[str, Any] = {"C": 0.01, "features": ["g_"]}
KINDS = (QUERY, ERROR, PAGE, FILE, DOCUMENT, CHAT, SITE)


def features(context: Context) -> dict[str, float]:
    """Grounding features of a context (all prefixed g_)."""
    g = ground(context)
    # a topic is text the person typed: counting it would make the need model learn the typing rate
    f = {f"g_act_{g.activity}": 1.0, "g_n_recent": len([o for o in g.recent() if o.kind != TOPIC]) / 3}
    last = [o for o in g.objects if o.index == g.n_events - 1]
    for kind in KINDS:
        f[f"g_last_{kind}"] = float(any(o.kind == kind for o in last))
        f[f"g_recent_{kind}"] = float(any(o.kind == kind for o in g.recent()))
    previous = ground(context[:-1]).activity if len(context) > 1 else "none"
    f["g_switch_act"] = float(previous != g.activity)
    return f


class NeedModel:
    """Calibrated P(need) from grounding features."""

    def __init__(self, linear: LinearModel, meta: dict[str, Any] | None = None):
        self.linear = linear
        self.meta = dict(meta or {})

    def prob(self, context: Context) -> float:
        return round(self.linear.prob(features(context)), 6)

    def to_json(self) -> dict[str, Any]:
        return {"kind": KIND, **self.meta, "model": self.linear.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NeedModel:
        if not isinstance(data, dict) or data.get("kind") != KIND:
            raise ValueError("not a need model")
        return cls(LinearModel.from_json(data["model"]), {k: v for k, v in data.items() if k not in ("kind", "model")})


def need_for(scorer: Scorer) -> NeedModel | None:
    """The need model stored with a trained reward model, if it has one."""
    data = scorer.meta.get("need")
    return NeedModel.from_json(data) if data else None
