"""The gitleaks rule set imported into the redaction engine (watcher/privacy/rules/gitleaks.toml), tested with the rules'
own cases: every true positive gitleaks validates its rules with is found (and its secret redacted), no false
positive is. The cases come from gitleaks' Go sources (tests/fixtures/gitleaks_cases.json, written by
tools/update_gitleaks.py); generated secrets there are random strings drawn from gitleaks' own regexes.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
import tomllib
from collections import defaultdict

import pytest

from proactive.watcher.privacy.redact import RULES, redact
from proactive.watcher.privacy.redact_gitleaks import (
    GITLEAKS_EXCLUDED,
    GITLEAKS_FILE,
    go_regex,
    imported_rules,
    skipped_rules,
)
from tests.conftest import FIXTURES
from tests.test_redact import cpu_seconds

CASES = json.loads((FIXTURES / "gitleaks_cases.json").read_text(encoding="utf-8"))
BY_RULE: dict[str, list[dict]] = defaultdict(list)
for _case in CASES["cases"]:
    BY_RULE[_case["rule"]].append(_case)
RULES_BY_ID = {rule.kind: rule for rule in imported_rules()}
CONFIG = tomllib.loads(GITLEAKS_FILE.read_text(encoding="utf-8"))


def test_the_file_is_gitleaks_config_with_its_licence():
    head = GITLEAKS_FILE.read_text(encoding="utf-8")[:3000]
    assert "MIT License" in head and "Copyright (c) 2019 Zachary Rice" in head
    assert re.search(r"at commit [0-9a-f]{40}", head)
    assert CASES["source"].split()[1] in head  # the cases come from the same commit as the rules


def test_every_rule_is_imported_or_skipped_with_a_reason():
    ids = [r["id"] for r in CONFIG["rules"]]
    skipped = dict(skipped_rules())
    assert sorted(RULES_BY_ID) + sorted(skipped) and set(RULES_BY_ID) | set(skipped) == set(ids)
    assert not set(RULES_BY_ID) & set(skipped)
    assert all(reason.strip() for reason in skipped.values())
    assert set(GITLEAKS_EXCLUDED) <= set(skipped)
    # what is skipped, besides the deliberate exclusions, is only the rules that look at file paths
    assert {rid for rid, why in skipped.items() if rid not in GITLEAKS_EXCLUDED} == {
        r["id"] for r in CONFIG["rules"] if "path" in r or "regex" not in r}
    assert len(RULES_BY_ID) >= 200


def test_imported_kinds_fit_the_marker():
    for kind in RULES_BY_ID:
        assert re.fullmatch(r"[a-z0-9-]+", kind)  # `[REDACTED:<kind>]` is recognised, so never redacted again
    # where both sets name a kind alike (jwt, private-key) ours comes first and labels the span
    shared = {rule.kind for rule in RULES} & set(RULES_BY_ID)
    assert shared == {"jwt", "private-key"}


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


#: true positives for the three rules gitleaks validates without literal or generated cases we can read (its
#: jwt-base64 cases come from a Go function; its Dropbox token rules have none): ours, built from the rules' regexes
EXTRA_CASES = {
    "jwt-base64": [_b64('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUifQ.'
                        'Jz8fK2wQ9vX3rT7bN1mP4sL6dH0cY5eA8uG2iW9oZxs')],
    "dropbox-short-lived-api-token": ["dropbox_token = sl." + "".join(
        random.Random(1).choice(string.ascii_lowercase + string.digits + "-_") for _ in range(135))],
    "dropbox-long-lived-api-token": ["DROPBOX_TOKEN = " + "".join(
        random.Random(2).choice(string.ascii_lowercase + string.digits) for _ in range(11)) + "AAAAAAAAAA" + "".join(
        random.Random(3).choice(string.ascii_lowercase + string.digits + "-_") for _ in range(43))],
}
for _rule_id, _texts in EXTRA_CASES.items():
    BY_RULE[_rule_id] += [{"rule": _rule_id, "kind": "tp", "text": t, "file": "tests/test_rules.py"} for t in _texts]


def test_every_imported_rule_has_cases():
    missing = [rid for rid in RULES_BY_ID if not any(c["kind"] == "tp" for c in BY_RULE[rid])]
    assert not missing, f"rules without a true-positive case: {missing}"
    assert len(CASES["cases"]) > 1000


@pytest.mark.parametrize("rule_id", sorted(RULES_BY_ID))
def test_rule_against_its_own_cases(rule_id):
    rule = RULES_BY_ID[rule_id]
    for case in BY_RULE[rule_id]:
        text = case["text"]
        spans = list(rule.spans(text))
        if case["kind"] == "fp":
            assert not spans, f"false positive {text!r}: {[text[a:b] for a, b in spans]}"
            continue
        assert spans, f"missed {text!r}"
        out = redact(text)
        assert out != text
        if "secret" in case:  # a generated secret: none of it survives
            assert case["secret"] not in out, out
        assert redact(out) == out


@pytest.mark.parametrize(
    "go, python",
    [
        (r"\bEZAK(?i)[a-z0-9]{54}\b", r"\bEZAK(?i:[a-z0-9]{54}\b)"),
        (r"\b(p8e-(?i)[a-z0-9]{32})(?:x|$)", r"\b(p8e-(?i:[a-z0-9]{32}))(?:x|$)"),
        (r"(?i)\b(pscale_pw_(?i)[\w=\.-]{32,64})", r"(?i)\b(pscale_pw_[\w=\.-]{32,64})"),
        (r"\b(sha256~[\w-]{43})(?:[^\w-]|\z)", r"\b(sha256~[\w-]{43})(?:[^\w-]|\Z)"),
        (r"\b(pat[[:alnum:]]{14})", r"\b(pat[0-9A-Za-z]{14})"),
        (r"[[a-z]", r"[\[a-z]"),
        (r"[\w.-]{0,50}?(?i:x)", r"[\w.-]{0,50}?(?i:x)"),
    ],
)
def test_go_regex_translation(go, python):
    assert go_regex(go) == python
    re.compile(python)


def test_untranslatable_inline_flag_before_alternation():
    with pytest.raises(ValueError, match="alternation"):
        go_regex(r'a(?i)b|c')


def test_allowlists_and_entropy_apply():
    aws = RULES_BY_ID["aws-access-token"]
    assert not list(aws.spans("aws_access_key_id = AKIAIOSFODNN7EXAMPLE"))  # the rule's allowlist
    assert not list(aws.spans("key = AKIAXXXXXXXXXXXXXXXX"))  # entropy below the rule's threshold
    assert list(aws.spans("key = AKIALALEMEL33243OLIB"))


@pytest.mark.parametrize(
    "text",
    [
        "api=" * 25_000,
        "token " * 16_000,
        "curl -u " * 12_000,
        ("a" * 60 + "cohere") * 1_500,
        ("sumo0" * 20_000),
        " ".join(sorted({k for r in imported_rules() for k in r.hints})) * 40,
    ],
    ids=["api-eq", "token", "curl", "keyword-after-run", "sumo", "every-keyword"],
)
def test_100kb_of_keywords_never_runs_away(text):
    text = text[:100_000]
    redact("warm up")
    assert cpu_seconds(lambda: redact(text)) < 3.0  # runaway guard on CPU time: figures in bench/redact_speed.py
