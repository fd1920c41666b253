"""Over-redaction: how much ordinary developer text redaction changes, and how many ordinary copies are taken for
a password (ordinary text holds no secret, so every change is a false alarm: the target is under 1%); and, the
other way, how many generated passwords' copies are taken for secrets.

The corpus is built on this machine from text no person typed as a secret: Python's standard library source
(code lines), man pages' command examples and synopses (commands), this repository's commit subjects and its docs
(prose), its commit ids, UUIDs, the installed distributions' `name==version`, paths under /usr, and, when
`../shared/data` is there, ProactiveBench's event sentences. A line changed is printed with its kind, so each false
alarm can be read. `--write-fixture` writes the stratified sample the tests keep (tests/fixtures/ordinary_text.txt).

    .venv/bin/python bench/over_redaction.py [--json] [--show N] [--write-fixture]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import string
import subprocess
import sys
import sysconfig
import time
import uuid
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.bench_data import SESSIONS  # noqa: E402
from proactive.watcher.privacy.redact import redact  # noqa: E402
from proactive.watcher.privacy.secret_shape import secret_copy  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "ordinary_text.txt"
PER_KIND = 4000  # lines of each kind at most (sampled with a fixed seed)
FIXTURE_PER_KIND = 150


def code_lines(rng: random.Random) -> list[str]:
    """Non-blank lines of the standard library's own modules (its tests, which hold made-up secrets, left out)."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    lines: list[str] = []
    for path in sorted(stdlib.glob("*.py")):
        text = path.read_text(errors="replace")
        lines += [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    return rng.sample(lines, min(PER_KIND, len(lines)))


def command_lines(rng: random.Random) -> list[str]:
    """Command lines from man pages: their SYNOPSIS lines and the indented examples starting with a program."""
    pages = subprocess.run(["bash", "-c", "ls /usr/share/man/man1 | sed 's/\\.1.*//' | head -400"],
                           capture_output=True, text=True).stdout.split()
    lines: list[str] = []
    for page in pages:
        out = subprocess.run(["man", "-P", "cat", page], capture_output=True, text=True,
                             env={"MANWIDTH": "200", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}).stdout
        for line in out.splitlines():
            text = line.strip()
            if re.match(rf"{re.escape(page)}\s+\S", text) and len(text) < 200:
                lines.append(re.sub(r"\s+", " ", text))
    return rng.sample(lines, min(PER_KIND, len(lines)))


def prose_lines(rng: random.Random) -> list[str]:
    """This repository's commit subjects and the lines of its docs (no made-up secret there)."""
    log = subprocess.run(["git", "log", "--format=%s"], cwd=ROOT, capture_output=True, text=True).stdout
    lines = [line for line in log.splitlines() if line.strip()]
    for doc in [ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").glob("*.md"))]:
        # (not the lines naming the team's folder beside the checkout: the tests' copy must not point outside it)
        lines += [line.strip() for line in doc.read_text().splitlines()
                  if len(line.strip()) > 20 and "shared/data" not in line]
    if SESSIONS.exists():  # where they are: the sentences stand without them
        for session in sorted(SESSIONS.glob("*.json")):
            lines += [turn["observation"]["event"] for turn in json.loads(session.read_text())]
    return rng.sample(lines, min(PER_KIND, len(lines)))


def token_lines(rng: random.Random) -> list[str]:
    """Tokens people copy: commit ids (whole and short), UUIDs, `name==version`, paths, version numbers."""
    commits = subprocess.run(["git", "log", "--format=%H"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    tokens = commits[:600] + [c[:7] for c in commits[600:1200]]
    tokens += [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(300)]
    dists = sorted({f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions()})
    tokens += dists + [d.split("==")[1] for d in dists]
    paths = [str(p) for p in sorted(Path("/usr/share/doc").glob("*/*"))[:1500]]
    tokens += paths
    return rng.sample(tokens, min(PER_KIND, len(tokens)))


#: generated passwords, by the shape a generator or a person gives them: (name, alphabet, shortest, longest)
GENERATED = [("16-24 letters and digits", string.ascii_letters + string.digits, 16, 24),
             ("12-20 with symbols", string.ascii_letters + string.digits + "!@#$%^&*?~", 12, 20),
             ("16-24 letters of both cases", string.ascii_letters, 16, 24),
             ("10-16 small letters and digits", string.ascii_lowercase + string.digits, 10, 16),
             ("8-12 letters and digits", string.ascii_letters + string.digits, 8, 12)]


def copied_passwords(n: int = 5000, seed: int = 5) -> dict[str, float]:
    """The share of generated passwords a copy of which is taken for a secret (`secret_copy`), per shape; each
    drawn character by character, uniformly (the digits and letters a shape names all present)."""
    rng = random.Random(seed)
    shares = {}
    for name, alphabet, low, high in GENERATED:
        kinds = [k for k in (string.ascii_lowercase, string.ascii_uppercase, string.digits) if set(k) & set(alphabet)]
        made = []
        while len(made) < n:
            token = "".join(rng.choice(alphabet) for _ in range(rng.randint(low, high)))
            if all(set(k) & set(token) for k in kinds):
                made.append(token)
        shares[name] = round(sum(map(secret_copy, made)) / n, 4)
    return shares


KINDS = {"code": code_lines, "command": command_lines, "prose": prose_lines, "token": token_lines}


def corpus(seed: int = 7) -> dict[str, list[str]]:
    rng = random.Random(seed)
    return {kind: make(rng) for kind, make in KINDS.items()}


def measure(lines: dict[str, list[str]]) -> dict:
    """Per kind: lines, lines redaction changed, words taken for a copied password; and the speed on short lines."""
    figures: dict[str, dict] = {}
    changed_all: list[tuple[str, str, str]] = []
    for kind, texts in lines.items():
        changed = [(kind, t, redact(t)) for t in texts]
        changed = [c for c in changed if c[1] != c[2]]
        changed_all += changed
        words = [w for t in texts for w in t.split()]
        copies = [w for w in words if secret_copy(w)]
        figures[kind] = {"lines": len(texts), "changed": len(changed),
                         "changed_share": round(len(changed) / max(1, len(texts)), 4),
                         "words": len(words), "copies_taken_for_secrets": len(copies),
                         "copies_share": round(len(copies) / max(1, len(words)), 4), "copy_examples": copies[:5]}
    short = [t for texts in lines.values() for t in texts if len(t) <= 120]
    started = time.process_time()
    for t in short:
        redact(t)
    cpu = time.process_time() - started
    total = sum(f["lines"] for f in figures.values())
    return {"kinds": figures, "lines": total, "changed": len(changed_all), "copied_passwords": copied_passwords(),
            "changed_share": round(len(changed_all) / max(1, total), 4),
            "short_lines_per_cpu_s": round(len(short) / cpu) if cpu else None,
            "changed_lines": [{"kind": k, "before": b, "after": a} for k, b, a in changed_all]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--show", type=int, default=20, help="changed lines to print (default 20)")
    parser.add_argument("--write-fixture", action="store_true", help=f"write {FIXTURE.relative_to(ROOT)}")
    args = parser.parse_args()
    lines = corpus()
    if args.write_fixture:
        rng = random.Random(11)
        sample = [f"{kind}\t{t}" for kind, texts in lines.items()
                  for t in rng.sample(texts, min(FIXTURE_PER_KIND, len(texts)))]
        FIXTURE.write_text("\n".join(sample) + "\n")
        print(f"wrote {len(sample)} lines to {FIXTURE}", file=sys.stderr)
    result = measure(lines)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print("| kind | lines | changed by redaction | words | taken for a copied secret |")
    print("|---|---|---|---|---|")
    for kind, f in result["kinds"].items():
        print(f"| {kind} | {f['lines']} | {f['changed']} ({f['changed_share']:.2%}) | {f['words']} | "
              f"{f['copies_taken_for_secrets']} ({f['copies_share']:.2%}) |")
    print(f"| all | {result['lines']} | {result['changed']} ({result['changed_share']:.2%}) | | |")
    print(f"\nshort lines redacted per CPU second: {result['short_lines_per_cpu_s']}")
    print("\ngenerated passwords whose copy is taken for a secret:")
    for name, share in result["copied_passwords"].items():
        print(f"- {name}: {share:.2%}")
    for c in result["changed_lines"][:args.show]:
        print(f"- [{c['kind']}] {c['before'][:150]!r}\n    -> {c['after'][:150]!r}")


if __name__ == "__main__":
    main()
