"""The agent over recorded sessions with the real default model, null normalisation, prompt budgets, and the
`proactive predict` command (including malformed session files)."""

from __future__ import annotations

import json

import jsonschema
import pytest

from assistant.agent import Agent, normalize_task
from assistant.prompt import AGENT_SCHEMA, PromptBuilder, clock
from eval.sessions import load_session

from .conftest import FIXTURES, run_cli

SESSION = FIXTURES / "session_small.json"


@pytest.mark.parametrize(
    "value, expected",
    [(None, None), ("", None), ("null", None), ("NULL", None), ("None", None), ("none.", None), ([], None),
     (["null"], None), (["Fix it"], "Fix it"), ("  Fix   the bug ", "Fix the bug"), ("n/a", None)],
)
def test_null_variants(value, expected):
    assert normalize_task(value) == expected


def test_agent_on_recorded_session_with_real_model(default_model):
    observations = load_session(SESSION)
    agent = Agent(default_model, k=3)
    for i in range(len(observations)):
        p = agent.predict(observations[: i + 1])
        assert len(p.candidates) <= 3 and len({c.lower() for c in p.candidates}) == len(p.candidates)
        jsonschema.validate({"Purpose": p.purpose, "Thoughts": p.thoughts, "Proactive Task": p.task,
                             "Response": p.response}, AGENT_SCHEMA)
        assert p.errors == [] and p.latency_s > 0


def test_k_is_bounded(default_model):
    with pytest.raises(ValueError):
        Agent(default_model, k=4)


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
    out = run_cli("predict", str(SESSION), "--json", "--k", "2", timeout=300)
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
