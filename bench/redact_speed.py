"""Redaction speed: short lines per second (what typed text and titles cost) and the worst 100 kB input of the
test suite's pathological set (what a large clipboard costs), in CPU seconds. The tests keep only a loose CPU
budget against runaway (backtracking) cost; the figures live here.

    .venv/bin/python bench/redact_speed.py [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from proactive.watcher.privacy.redact import redact  # noqa: E402

#: 100 kB inputs that make a careless pattern backtrack (repeated prefixes of every rule family)
LONG_INPUTS = {
    "mixed": ("The quick brown fox, 4111 1111 1111 1111, password=hunter2 and /usr/local/bin. " * 1300)[:100_000],
    "letters": "a" * 100_000,
    "alnum": "A1b2" * 25_000,
    "digits": "1" * 100_000,
    "spaced-digits": "1 " * 50_000,
    "dashed-digits": "1234-" * 20_000,
    "password-eq": "password=" * 11_000,
    "env-name": "PASSWORD_" * 11_000,
    "underscores": "a_" * 50_000,
    "scheme-sep": "://" * 33_000,
    "url-auth": "://a:" * 20_000,
    "jwt-prefix": "eyJ" * 33_000,
    "slashes": "/" * 100_000,
    "path-segments": "/aB3" * 25_000,
    "pem-begin": "-----BEGIN PRIVATE KEY-----" * 3_700,
    "bearer": "Bearer " * 14_000,
    "sk-prefix": "sk-" * 33_000,
    "cli-echo": "echo " * 20_000,
    "cli-echo-quote": "echo '" * 16_000,
    "cli-echo-pipe": "echo a | " * 11_000,
    "cli-here-string": "sudo -S <<< " * 8_000,
    "cli-curl-u": "curl -u " * 12_000,
    "cli-htpasswd-b": "htpasswd -b " * 8_000,
    "cli-login-p": "login -p " * 11_000,
    "cli-password-space": "--password " * 9_000,
}

#: typed-text-sized lines: commands, code, prose, and secrets of the common kinds (each redacted)
SHORT_LINES = [
    "git commit -m 'fix the timeout in client.py' && git push origin main",
    "export OPENAI_API_KEY=sk-proj-4fQ2xZ8kLm0pR7tY1uV3wN6bC9dE5gH2jK4lM8nP0qS",
    "for row in rows: total += row.amount * rate  # the monthly figure",
    "curl -u admin:hunter2 https://example.com/api/v1/items?page=2",
    "Dear Anna, thanks for the notes on the draft; I will send the figures on Friday.",
    "card 4111 1111 1111 1111 exp 12/29 cvc 123",
    "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R token for the CI",
    "SELECT id, name FROM users WHERE created_at > '2026-01-01' ORDER BY id;",
]


def short_lines() -> list[str]:
    """Every short line repeated to 100 characters."""
    return [(line * 4)[:100] for line in SHORT_LINES]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="One JSON object instead of lines.")
    args = parser.parse_args()
    lines = short_lines()
    redact("warm up")
    n, started = 0, time.process_time()
    while n < 50_000:
        for line in lines:
            redact(line)
        n += len(lines)
    rate = n / (time.process_time() - started)
    worst = (0.0, "")
    for name, text in LONG_INPUTS.items():
        started = time.process_time()
        redact(text)
        worst = max(worst, (time.process_time() - started, name))
    result = {"short_lines_per_s": round(rate), "worst_100kb_cpu_s": round(worst[0], 3), "worst_input": worst[1]}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"short lines: {result['short_lines_per_s']:,}/s (CPU); worst 100 kB input: "
              f"{result['worst_100kb_cpu_s']} CPU s ({result['worst_input']})")


if __name__ == "__main__":
    main()
