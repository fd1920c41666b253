"""The agent over recorded sessions with the real default model, null normalisation, prompt budgets, and the
`proactive predict` command (including malformed session files)."""

from __future__ import annotations

import json
import re

import pytest

from proactive.assistant.agent import Agent, normalize_task
from proactive.assistant.grounding import ground
from proactive.assistant.prompt import PromptBuilder, clock
from proactive.assistant.validate import rejection
from proactive.eval.sessions import load_session

from .conftest import FIXTURES, run_cli
from .models_support import assistant_replies

SESSION = FIXTURES / "session_small.json"


@pytest.mark.parametrize(
    "value, expected",
    [(None, None), ("", None), ("null", None), ("NULL", None), ("None", None), ("none.", None), ([], None),
     (["null"], None), (["Fix it"], "Fix it"), ("  Fix   the bug ", "Fix the bug"), ("n/a", None)],
)
def test_null_variants(value, expected):
    assert normalize_task(value) == expected


def test_agent_on_recorded_session_with_real_model(default_model):
    """The built-in model ranks grounded offers: every candidate passes the validator, the message shown is the
    one built with it, and nothing fails."""
    observations = load_session(SESSION)
    agent = Agent(default_model, k=3)
    assert default_model.capable is False
    spoke = 0
    for i in range(len(observations)):
        context = observations[: i + 1]
        p = agent.predict(context)
        assert len(p.candidates) <= 3 and len({c.lower() for c in p.candidates}) == len(p.candidates)
        assert p.errors == [] and p.latency_s > 0
        for c in p.candidates:
            assert rejection(c, ground(context)) is None
            assert 0 <= p.preference[c] <= 1 and p.actions[c]
        if p.task:
            spoke += 1
            assert p.response == p.messages[p.task]
    assert spoke >= 3  # an error, a search and a file in this session: offers exist


def example_words() -> set[str]:
    """Content words of the prompt's examples (what a model could copy), minus our action templates' words."""
    from proactive.assistant.candidates import ACTIONS
    from proactive.assistant.prompt import EXAMPLES

    def words(text: str) -> set[str]:
        return set(re.findall(r"[a-z][a-z0-9_.]{3,}", text.lower()))

    templates = set().union(*(words(a.task + " " + a.message) for a in ACTIONS))
    return set().union(*(words(m["content"]) for m in EXAMPLES)) - templates - {"user", "events", "time", "event"}


def test_no_leakage_of_prompt_examples(default_model):
    """Over a session about something else, no candidate carries a word of the prompt's examples that is absent
    from the context (real default model; a history that mentions everything, so every offer is made)."""
    observations = load_session(FIXTURES / "session_writing.json")
    agent = Agent(default_model, k=3)
    leaked_any = set()
    offered = 0
    for i in range(len(observations)):
        context = observations[: i + 1]
        context_text = " ".join(o["event"] for o in context).lower()
        p = agent.predict(context, recalls=lambda obj: True)
        offered += len(p.candidates)
        for c in p.candidates:
            leaked_any |= {w for w in example_words() if w in c.lower() and w not in context_text}
    assert offered > 0 and leaked_any == set()


def test_capable_model_writes_freely_and_the_validator_filters(scripted):
    """A capable model's own tasks are kept when grounded; narration and the prompt's example are dropped and
    the grounded offers take their place."""
    from proactive.models.openai_http import OpenAICompatible

    context = load_session(SESSION)
    scripted.answer_with(assistant_replies("Explain the ReadTimeout from 'python client.py' and raise the timeout"))
    model = OpenAICompatible(scripted.url, "m")
    p = Agent(model, k=1).predict(context)
    assert p.task == "Explain the ReadTimeout from 'python client.py' and raise the timeout"
    assert "client.py" in scripted.requests[-1]["messages"][-1]["content"]  # the objects are in its prompt
    for bad in ("The user switches to Visual Studio Code and fixes a bug.", "Provide assistance"):
        scripted.answer_with(assistant_replies(bad))
        p = Agent(model, k=1).predict(context)
        assert bad in p.dropped and p.task != bad and p.task is not None
        assert rejection(p.task, ground(context)) is None


def test_k_is_bounded(fake_model):
    with pytest.raises(ValueError):
        Agent(fake_model, k=4)


def test_prompt_budget_drops_oldest_half_and_keeps_newest():
    builder = PromptBuilder(lambda s: len(s) // 4, budget_tokens=100)
    obs = [{"time": str(1763800000 + i), "event": f"The user types line number {i} in notes.txt."}
           for i in range(30)]
    shown = builder.window(obs)
    assert shown[-1] == obs[-1] and len(shown) < 30
    start = builder.start
    assert builder.window(obs[:31])[0] == obs[start]  # same prefix on the next call: the cache stays valid
    assert clock("1763800000.5") == "08:26:40" and clock("Day 1, 11:00 PM") == "Day 1, 11:00 PM"


def test_predict_command_json():
    """The command's output (the fake model: the built-in one's predictions are tested above)."""
    out = run_cli("predict", str(SESSION), "--model", "fake", "--json", "--k", "2", timeout=300)
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(rows) == 5
    for row in rows:
        assert set(row) >= {"time", "event", "task", "candidates", "purpose", "thoughts", "response", "errors"}
        assert row["task"] == (row["candidates"][0] if row["candidates"] else None)
    assert "5 turns" in out.stderr


@pytest.mark.parametrize(
    "content, needle",
    [
        ('[\n {"observation": {"time": "1", "event": "x"}},\n {"observation": {"time": "2"}}\n]',
         "bad.json:3: turn 2: observation has no 'event'"),
        ('[\n {"observation": {"time": "1", "event": "x"}},\n {"observation": \n]', "bad.json:4: bad JSON"),
        ("[]", "bad.json: the session is empty"),
        ('{"observation": {}}', "bad.json:1: expected an object with 'time' and 'event'"),
        ('[{"agent_response": []}]', "bad.json:1: turn 1: missing 'observation'"),
    ],
)
def test_predict_bad_session_exits_2(tmp_path, content, needle):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    out = run_cli("predict", str(bad))
    assert out.returncode == 2
    assert needle in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_predict_missing_session_exits_2(tmp_path):
    out = run_cli("predict", str(tmp_path / "nope.json"))
    assert out.returncode == 2 and "no such file" in out.stderr


def test_held_back_offers_give_way_to_another(fake_model):
    """The feedback memory's held-back offers are left out before the k best are taken (live and replay)."""
    context = load_session(FIXTURES / "session_repeat.json")[:3]
    agent = Agent(fake_model, k=1)
    first = agent.predict(context).task
    assert first
    again = agent.predict(context, held_back=lambda task: task == first)
    assert again.task and again.task != first and again.held_back == [first]
    assert first not in again.candidates


@pytest.mark.parametrize("typed, module, fix", [
    ("reqeusts", "reqeusts", "requests"),  # the correction is no substring of the typo
    ("pandsa", "pandsa", "pandas"),
    ("numpyy", "numpyy", "numpy"),
    ("flaks", "flaks", "flask"),
])
def test_a_fix_offer_may_name_the_correction_the_rules_found(fake_model, typed, module, fix):
    """The validator keeps offers to what the person met; a fix offer's correction ('requests' for 'reqeusts')
    comes from the rules, not from the context, and is not a reason to drop the offer."""
    trace = ('Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n'
             f"ModuleNotFoundError: No module named '{module}'\n")
    context = [{"time": "1", "event": f"The user types 'python3 -c 'import {typed}'' and presses Enter in the "
                                      "terminal. The user copies an error message starting 'Traceback (most recent "
                                      f"call last):' and ending 'ModuleNotFoundError: No module named '{module}'' "
                                      "from the terminal.", "copies": [trace]}]
    prediction = Agent(fake_model).predict(context)
    fixes = [t for t in prediction.candidates if t.startswith("Give the next step") and f"'{fix}'" in t]
    assert fixes, prediction.candidates
    # a task written by a model that names something the person never met is still refused
    assert rejection(f"Install '{fix}x' for the project", ground(context)) is not None
