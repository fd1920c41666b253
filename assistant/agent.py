"""The agent: from recent observations, up to k candidate tasks grounded in what the person is doing.

Two ways to make candidates, by what the model can do (`Predictor.capable`):
- the built-in 135M model cannot write a usable task, so the candidates are built from the grounding (an
  action on extracted objects, `candidates.py`) and the model only ranks them: it reads the numbered offers
  and its probability of each number, measured in one pass, is its preference;
- a capable model (a bigger GGUF, a server) writes tasks freely in the paper's format with the extracted
  objects in its prompt; the grounded candidates follow its own as fallbacks.
Either way one validator (`validate.py`) drops narration, invented names and generic offers before anything
is ranked or shown.

In the free-writing mode the first candidate is the model's greedy answer; further candidates (the paper's pred@k, k <= 3) are sampled
from the same prompt, which llama.cpp has cached, so each costs only its own tokens. A generation that failed
(unparseable, truncated, engine error) is counted in `errors` and contributes no candidate: failures are
silence, never a crash.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from proactive.models.base import Generation, Observation, Predictor
from proactive.models.labels import normalize_task

from . import candidates as grounded
from .feedback import naming
from .grounding import Grounding, ground
from .material import Source
from .prompt import AGENT_SCHEMA, PromptBuilder, choice_messages
from .validate import keep, rejection

MAX_K = 3
MAX_OFFERS = 4  # grounded offers per decision: each costs the built-in model ~25 prompt tokens to read


@dataclass
class Prediction:
    """What the agent produced at one moment."""

    candidates: list[str]  # distinct non-null tasks, best first, at most k
    purpose: str = ""
    thoughts: str = ""
    response: str = ""
    p_silence: float | None = None  # the model's own probability of answering null, when measurable
    #: the agent's preference for each candidate (0..1): the model's choice probability mixed with the fit of the
    #: action to the activity; the gate ranks with it
    preference: dict[str, float] = field(default_factory=dict)
    messages: dict[str, str] = field(default_factory=dict)  # what the popup says for each candidate
    actions: dict[str, str] = field(default_factory=dict)  # the grounded action id of each candidate
    dropped: dict[str, str] = field(default_factory=dict)  # tasks the validator dropped, and why
    held_back: list[str] = field(default_factory=list)  # offers the feedback memory kept back (`predict`)
    grounding: dict[str, Any] = field(default_factory=dict)
    latency_s: float = 0.0
    engine_s: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def task(self) -> str | None:
        return self.candidates[0] if self.candidates else None

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task, "candidates": self.candidates, "purpose": self.purpose,
                "thoughts": self.thoughts, "response": self.response, "p_silence": self.p_silence,
                "latency_s": round(self.latency_s, 3), "errors": self.errors, "preference": self.preference,
                "messages": self.messages, "actions": self.actions, "dropped": self.dropped,
                "held_back": self.held_back,
                "grounding": self.grounding}

    def message(self, task: str | None) -> str:
        """What the popup says for `task`: the message built with it (grounded) or the task itself."""
        return self.messages.get(task or "", "") or (self.response if task == self.task else "")


class Agent:
    """Up to k grounded candidates per moment; one per session (its prompt history follows the session)."""

    def __init__(self, model: Predictor, k: int = 1, budget_tokens: int = 700, answers: Predictor | None = None):
        if not 1 <= k <= MAX_K:
            raise ValueError(f"k must be between 1 and {MAX_K}")
        self.model = model
        self.answers = answers  # a capable model the person chose to write answers (assistant/answers.py)
        self.k = k
        self.prompts = PromptBuilder(model.count_tokens, budget_tokens)

    @property
    def writes(self) -> bool:
        """Whether Accept can get a written answer (an explanation, a draft), so offers may promise one."""
        return self.answers is not None or getattr(self.model, "capable", True)

    @property
    def answer_model(self) -> Predictor:
        """The model that writes the answer on Accept: the chosen answers model, else the proposal model."""
        return self.answers or self.model

    def predict(self, observations: Sequence[Observation], feedback: Sequence[str] = (),
                k: int | None = None, held_back: Callable[[str], bool] | None = None,
                recalls: grounded.Recalls | None = None, material: Source | None = None) -> Prediction:
        """`held_back`: tasks the feedback memory would not show now (shown and ignored, rejected, done); they are
        left out before the k best are taken, so another offer can take their place. `recalls`: whether the
        person's history mentions an object earlier (live use; see `candidates.gives_something`). `material`: the
        pages that can be read for an object (assistant/material.py), without which nothing is offered from pages."""
        k = self.k if k is None else k
        started = time.perf_counter()
        g = ground(observations)
        options = [c for c in grounded.build(g, writes=self.writes, recalls=recalls, material=material)
                   if rejection(c.grounded_text, g) is None]
        held = [c.task for c in options if held_back is not None and (
            held_back(c.task) or (c.origin and held_back(naming(c.origin, c.task))))]
        options = [c for c in options if c.task not in held][:MAX_OFFERS]
        if getattr(self.model, "capable", True):
            prediction = self._write(observations, feedback, k, g)
            if held_back is not None:
                held += [t for t in prediction.candidates if held_back(t)]
                prediction.candidates = [t for t in prediction.candidates if t not in held]
                prediction.preference = {t: prediction.preference[t] for t in prediction.candidates}
        else:
            prediction = self._choose(observations, options)
        prediction.held_back = held
        prediction.grounding = g.to_json()
        for c in options:  # grounded candidates: the built-in model's only ones, a capable model's fallbacks
            if c.task not in prediction.preference:
                prediction.candidates.append(c.task)
                prediction.preference[c.task] = round(c.prior * 0.5, 4)
            prediction.messages.setdefault(c.task, c.message)
            prediction.actions.setdefault(c.task, c.action)
        prediction.candidates = sorted(prediction.candidates, key=lambda t: -prediction.preference[t])[:k]
        prediction.preference = {t: prediction.preference[t] for t in prediction.candidates}
        prediction.response = prediction.messages.get(prediction.candidates[0], "") if prediction.candidates else ""
        prediction.latency_s = time.perf_counter() - started
        return prediction

    def _choose(self, observations: Sequence[Observation], options: list[grounded.Candidate]) -> Prediction:
        """The built-in model ranks the grounded options; its preference is mixed half and half with the fit."""
        prediction = Prediction(candidates=[])
        if not options:
            return prediction
        probs = None
        if len(options) > 1:
            gen_probs = self.model.rank_options(choice_messages(observations, [c.message for c in options]),
                                                len(options))
            if gen_probs is None:
                prediction.errors.append("the model could not rank the offers")
            probs = gen_probs
            prediction.engine_s, prediction.prompt_tokens = self.model.last_rank_stats
        for i, c in enumerate(options):
            p = probs[i] if probs else 1.0 / len(options)
            prediction.candidates.append(c.task)
            prediction.preference[c.task] = round(0.5 * c.prior + 0.5 * p, 4)
        return prediction

    def _write(self, observations: Sequence[Observation], feedback: Sequence[str], k: int,
               g: Grounding) -> Prediction:
        """A capable model writes tasks freely, with the extracted objects in its prompt; the validator filters."""
        messages = self.prompts.messages(observations, feedback, objects=g)
        prediction = Prediction(candidates=[])
        fixed: dict[str, str] | None = None
        written: list[str] = []
        for i in range(k):
            gen = self.model.complete_json(messages, AGENT_SCHEMA, temperature=0.0 if i == 0 else 0.8, seed=i,
                                           fixed=fixed)
            self._account(prediction, gen)
            if gen.data is None:
                prediction.errors.append(gen.error or "no output")
                continue
            if i == 0 or not prediction.purpose:
                prediction.purpose = gen.data.get("Purpose") or ""
                prediction.thoughts = gen.data.get("Thoughts") or ""
                prediction.response = gen.data.get("Response") or ""
                if "Proactive Task" in gen.probs:
                    prediction.p_silence = gen.probs["Proactive Task"]["null"]
                # further candidates share this reading of the situation and differ only in the task
                fixed = {"Purpose": prediction.purpose, "Thoughts": prediction.thoughts}
            task = normalize_task(gen.data.get("Proactive Task"))
            if task and task.lower() not in {c.lower() for c in written}:
                written.append(task)
        kept, prediction.dropped = keep(written, g)
        for rank, task in enumerate(kept):
            prediction.candidates.append(task)
            prediction.preference[task] = round(1.0 - 0.1 * rank, 4)  # written tasks before the fallbacks
            prediction.messages[task] = task  # the model's free "Response" is not checked: show the checked task
        return prediction

    @staticmethod
    def _account(prediction: Prediction, gen: Generation) -> None:
        prediction.engine_s += gen.engine_seconds
        prediction.prompt_tokens += gen.prompt_tokens
        prediction.completion_tokens += gen.completion_tokens
