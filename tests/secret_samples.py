"""Helpers that make secret-shaped test data, shared by the redaction tests (tests/test_redact.py) and the
property tests (tests/test_properties.py): one definition each."""

from __future__ import annotations

import base64
import json


def with_luhn(digits: str) -> str:
    """`digits` plus the Luhn check digit that makes it a valid card number."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return digits + str(-total % 10)


def b64url(obj: dict) -> str:
    """A JSON object as a JWT segment (base64url, no padding)."""
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")
