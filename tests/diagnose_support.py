"""What the Python diagnosis tests share (tests/test_diagnose_python.py, tests/test_diagnose_python_classes.py)."""

from __future__ import annotations

import pytest

from proactive.assistant.diagnose import Diagnosis, Situation, diagnose, python_imports


def tb(*frames: tuple[str, int, str | None, str | None], last: str) -> str:
    """A traceback as CPython prints it: frames of (file, line, function, source line), then the exception."""
    lines = ["Traceback (most recent call last):"]
    for file, line, func, code in frames:
        lines.append(f'  File "{file}", line {line}' + (f", in {func}" if func else ""))
        if code:
            lines.append(f"    {code}")
    lines.append(last)
    return "\n".join(lines)


def text_of(diagnosis) -> str:
    return "\n".join([diagnosis.problem, diagnosis.offer] + [s.text + " " + (s.command or "") for s in diagnosis.steps])


@pytest.fixture(autouse=True)
def system_python(monkeypatch):
    """The person's python3 is a plain, not externally managed one unless a test says otherwise."""
    monkeypatch.setattr(python_imports, "system_externally_managed", lambda: False)


def assert_specific_step(error: str, rule: str, expect: list[str]) -> None:
    """`error` gets the diagnosis of `rule`, with steps and an offer, and its text holds each of `expect`."""
    found = diagnose(Situation(error))
    assert found is not None, f"no diagnosis for {error!r}"
    assert found.rule == rule, (found.rule, found.problem)
    assert found.steps and found.offer
    text = text_of(found)
    for part in expect:
        assert part in text, f"{part!r} not in:\n{text}"


def commands(d: Diagnosis | None) -> str:
    assert d is not None
    return "\n".join(s.command or "" for s in d.steps)


def texts(d: Diagnosis | None) -> str:
    assert d is not None
    return "\n".join([d.problem, d.offer, *(s.text for s in d.steps), *(s.command or "" for s in d.steps)])
