"""Refresh the gitleaks rule set and its test cases from a gitleaks checkout (a maintenance tool, not run by the app).

    .venv/bin/python tools/update_gitleaks.py PATH/TO/gitleaks [--seed 0]

- `watcher/privacy/rules/gitleaks.toml`: gitleaks' `config/gitleaks.toml`, unchanged, under a header with its licence (MIT)
  and the commit it came from. `watcher.redact` loads it; rules it cannot use are reported by
  `watcher.redact_gitleaks.skipped_rules()`.
- `tests/fixtures/gitleaks_cases.json`: each rule's own true- and false-positive cases, read from the Go sources
  that generate the config (`cmd/generate/config/rules/*.go`, where each rule is validated against them). Literal
  cases are copied; secrets that gitleaks generates at random from a regex (`secrets.NewSecret`) are generated
  here from the same regex with a fixed seed, and put in a representative subset of gitleaks' sample contexts
  (`GenerateSampleSecrets`' ini, JSON, YAML, Go, Python and Makefile forms). Expressions this small evaluator does
  not understand are skipped and counted.

Afterwards run tests/test_rules.py: a rule whose cases fail in Python is a translation problem to fix or to add to
`GITLEAKS_EXCLUDED` in watcher/privacy/redact_gitleaks.py, with the reason.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

try:
    import re._constants as sre_constants  # type: ignore[import-not-found]
    import re._parser as sre_parse  # type: ignore[import-not-found]
except ImportError:  # Python < 3.11
    import sre_constants  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]
RULES_FILE = ROOT / "watcher" / "privacy" / "rules" / "gitleaks.toml"
CASES_FILE = ROOT / "tests" / "fixtures" / "gitleaks_cases.json"
#: gitleaks' sample contexts (utils.GenerateSampleSecrets) kept in the fixture: one or two per family
SAMPLE_FORMS = ("ini - unquoted2", "json - string", "yaml - singleline - unquoted", "go - short",
                "python - single quote")
MAX_GENERATED = 10  # generated true positives kept per rule (every literal case is kept)

HEADER = """\
# Secret-detection rules of gitleaks (https://github.com/gitleaks/gitleaks), imported unchanged from its
# config/gitleaks.toml at commit {commit} ({describe}).
# watcher/privacy/redact.py loads them (translating Go regex syntax to Python's where the two differ) next to our own
# rules; the rules it leaves out, and why, are in GITLEAKS_EXCLUDED there and watcher.redact.skipped_rules().
# Refresh with: .venv/bin/python tools/update_gitleaks.py PATH/TO/gitleaks   (also rewrites the rules'
# test cases, tests/fixtures/gitleaks_cases.json; then run tests/test_rules.py).
#
# gitleaks is distributed under the MIT License:
#
{licence}
#
# ---------------------------------------------------------------------------------------------------------------
"""


# ------------------------------------------------------------------------------------- random text from a regex

def generate(pattern: str, rnd: random.Random) -> str:
    """A random string matching `pattern` (the subset of syntax gitleaks' generators use)."""
    return _emit(sre_parse.parse(pattern), rnd, ignore_case=False)


def _emit(items: Any, rnd: random.Random, ignore_case: bool) -> str:
    out = []
    for op, av in items:
        if op is sre_constants.LITERAL:
            out.append(chr(av))
        elif op is sre_constants.IN:
            out.append(_pick_class(av, rnd))
        elif op is sre_constants.ANY:
            out.append(rnd.choice("abcdefghijklmnopqrstuvwxyz0123456789"))
        elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
            low, high, sub = av
            high = low + 8 if high is sre_constants.MAXREPEAT else high
            out.extend(_emit(sub, rnd, ignore_case) for _ in range(rnd.randint(low, high)))
        elif op is sre_constants.SUBPATTERN:
            out.append(_emit(av[-1], rnd, ignore_case))
        elif op is sre_constants.BRANCH:
            out.append(_emit(rnd.choice(av[1]), rnd, ignore_case))
        elif op is sre_constants.AT:
            continue
        else:
            raise ValueError(f"cannot generate from {op}")
    return "".join(out)


def _pick_class(items: Any, rnd: random.Random) -> str:
    chars: list[str] = []
    for op, av in items:
        if op is sre_constants.LITERAL:
            chars.append(chr(av))
        elif op is sre_constants.RANGE:
            chars.extend(chr(c) for c in range(av[0], av[1] + 1))
        elif op is sre_constants.CATEGORY:
            chars.extend({"CATEGORY_DIGIT": "0123456789",
                          "CATEGORY_WORD": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
                          "CATEGORY_SPACE": " "}[str(av)])
        else:
            raise ValueError(f"cannot generate from class item {op}")
    return rnd.choice(chars)


# ------------------------------------------------------------------------------------------- Go, just enough

TOKEN = re.compile(r'\s+|//[^\n]*|/\*.*?\*/|`[^`]*`|"(?:[^"\\\n]|\\.)*"|\.\.\.|:=|[A-Za-z_][\w.]*|\d+|.', re.S)


def go_string(literal: str) -> str:
    if literal.startswith("`"):
        return literal[1:-1]
    return json.loads(re.sub(r"\\x([0-9a-fA-F]{2})", r"\\u00\1", literal.replace("\\'", "'")))


def tokens(source: str) -> list[str]:
    return [t for t in TOKEN.findall(source) if not t.isspace() and not t.startswith(("//", "/*"))]


class Unsupported(Exception):
    pass


class Evaluator:
    """Evaluates the string and []string expressions of one rule function."""

    def __init__(self, toks: list[str], forms: dict[str, str], rnd: random.Random):
        self.toks, self.pos, self.forms, self.rnd = toks, 0, forms, rnd
        self.env: dict[str, Any] = {}
        self.secrets: dict[str, str] = {}  # generated case -> its secret

    def peek(self, k: int = 0) -> str:
        return self.toks[self.pos + k] if self.pos + k < len(self.toks) else ""

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if expected is not None and tok != expected:
            raise Unsupported(f"expected {expected!r}, got {tok!r}")
        self.pos += 1
        return tok

    def expr(self) -> Any:
        value = self.term()
        while self.peek() == "+":
            self.take()
            right = self.term()
            if not isinstance(value, str) or not isinstance(right, str):
                raise Unsupported("+ on lists")
            value += right
        return value

    def args(self) -> list[Any]:
        self.take("(")
        out = []
        while self.peek() != ")":
            out.append(self.expr())
            if self.peek() == "...":
                self.take()
                out[-1] = ("spread", out[-1])
            if self.peek() == ",":
                self.take()
        self.take(")")
        return out

    def term(self) -> Any:
        tok = self.peek()
        if tok.startswith(("`", '"')):
            self.take()
            return go_string(tok)
        if tok == "[":
            self.take("[")
            self.take("]")
            self.take("string")
            self.take("{")
            items = []
            while self.peek() != "}":
                start = self.pos
                try:
                    value = self.expr()
                    items.extend(value if isinstance(value, list) else [value])
                except Unsupported:
                    self.pos = start
                    self.skip_item()
                if self.peek() == ",":
                    self.take()
            self.take("}")
            return items
        if tok == "(":
            self.take()
            value = self.expr()
            self.take(")")
            return value
        if re.fullmatch(r"[A-Za-z_][\w.]*", tok):
            self.take()
            if self.peek() == "(":
                return self.call(tok, self.args())
            if tok in self.env:
                return self.env[tok]
        raise Unsupported(f"cannot evaluate {tok!r}")

    def skip_item(self) -> None:
        """Skip one element of a list (up to its comma or the closing brace)."""
        depth = 0
        while self.peek():
            tok = self.peek()
            if tok in ("(", "[", "{"):
                depth += 1
            elif tok in (")", "]", "}"):
                if depth == 0:
                    return
                depth -= 1
            elif tok == "," and depth == 0:
                return
            self.take()

    def call(self, name: str, args: list[Any]) -> Any:
        size = {"utils.Numeric": "[0-9]{%s}", "utils.Hex": "[a-f0-9]{%s}", "utils.AlphaNumeric": "[a-z0-9]{%s}",
                "utils.AlphaNumericExtendedShort": "[a-z0-9_-]{%s}",
                "utils.AlphaNumericExtended": r"[a-z0-9=_\-]{%s}",
                "utils.AlphaNumericExtendedLong": r"[a-z0-9\/=_\+\-]{%s}"}
        if name in size:
            return size[name] % args[0]
        if name == "utils.Hex8_4_4_4_12":
            return "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
        if name == "secrets.NewSecret":
            try:
                return generate(args[0], self.rnd)
            except (ValueError, re.error) as exc:
                raise Unsupported(str(exc)) from None
        if name == "utils.GenerateSampleSecret":
            case = f'{args[0]}_api_token = "{args[1]}"'
            self.secrets[case] = args[1]
            return case
        if name == "utils.GenerateSampleSecrets":
            cases = []
            for form in SAMPLE_FORMS:
                case = (self.forms[form].replace("{i}", args[0]).replace("{I}", args[0].upper())
                        .replace("{s}", args[1]))
                self.secrets[case] = args[1]
                cases.append(case)
            return cases
        if name == "fmt.Sprintf" and all(isinstance(a, str) for a in args):
            text = args[0]
            for a in args[1:]:
                text = re.sub(r"%[sv]", lambda _m, a=a: a, text, count=1)
            return text
        if name == "append":
            base = list(args[0])
            for a in args[1:]:
                base.extend(a[1] if isinstance(a, tuple) else [a])
            return base
        raise Unsupported(f"call {name}")

    def run(self) -> tuple[str | None, list[str], list[str], int]:
        """(rule id, true positives, false positives, skipped statements) of the function."""
        rule_id, skipped, validate = None, 0, None
        while self.pos < len(self.toks):
            tok = self.peek()
            if tok == "RuleID" and self.peek(1) == ":":
                self.pos += 2
                try:
                    rule_id = self.expr()
                except Unsupported:
                    pass
                continue
            if tok == "utils.Validate" and self.peek(1) == "(":
                self.pos += 2
                names = []
                while self.peek() not in (")", ""):
                    names.append(self.take())
                validate = [n for n in names if n != ","][1:3]
                continue
            if re.fullmatch(r"[A-Za-z_]\w*", tok) and self.peek(1) in (":=", "="):
                self.pos += 2
                start = self.pos
                try:
                    self.env[tok] = self.expr()
                except Unsupported:  # e.g. `r := config.Rule{...}`: read on, token by token
                    skipped += tok in ("tps", "fps")
                    self.pos = start
                continue
            self.pos += 1
        if validate is None or len(validate) != 2:
            return rule_id, [], [], skipped
        tps, fps = (self.env.get(n, []) for n in validate)
        return rule_id, [t for t in tps if isinstance(t, str)], [f for f in fps if isinstance(f, str)], skipped


def functions(source: str) -> list[list[str]]:
    """The token lists of the functions returning *config.Rule in a Go file."""
    toks = tokens(source)
    out = []
    for i, tok in enumerate(toks):
        if tok == "func" and toks[i + 2 : i + 6] == ["(", ")", "*", "config.Rule"]:
            j = toks.index("{", i)
            depth, k = 0, j
            while True:
                depth += {"{": 1, "}": -1}.get(toks[k], 0)
                if depth == 0:
                    break
                k += 1
            out.append(toks[j + 1 : k])
    return out


def sample_forms(checkout: Path) -> dict[str, str]:
    toks = tokens((checkout / "cmd/generate/config/utils/generate.go").read_text(encoding="utf-8"))
    start = toks.index("samples")
    forms, i = {}, toks.index("{", start) + 1
    while toks[i] != "}":
        if toks[i].startswith(('"', "`")) and toks[i + 1] == ":":
            forms[go_string(toks[i])] = go_string(toks[i + 2])
            i += 3
        else:
            i += 1
    return forms


def extract_cases(checkout: Path, seed: int) -> tuple[list[dict[str, Any]], int]:
    forms = sample_forms(checkout)
    cases, skipped = [], 0
    for go_file in sorted((checkout / "cmd/generate/config/rules").glob("*.go")):
        for index, body in enumerate(functions(go_file.read_text(encoding="utf-8"))):
            rnd = random.Random(f"{seed}:{go_file.name}:{index}")
            ev = Evaluator(body, forms, rnd)
            rule_id, tps, fps, n_skipped = ev.run()
            skipped += n_skipped
            if not isinstance(rule_id, str):
                continue
            generated = 0
            for kind, texts in (("tp", tps), ("fp", fps)):
                for text in dict.fromkeys(texts):
                    case = {"rule": rule_id, "kind": kind, "text": text, "file": go_file.name}
                    if text in ev.secrets:
                        generated += 1
                        if generated > MAX_GENERATED:
                            continue
                        case["secret"] = ev.secrets[text]
                    cases.append(case)
    return cases, skipped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("checkout", type=Path, help="a clone of https://github.com/gitleaks/gitleaks")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    checkout = args.checkout

    def git(*cmd: str) -> str:
        return subprocess.run(["git", "-C", str(checkout), *cmd], capture_output=True, text=True,
                              check=True).stdout.strip()

    licence = "\n".join(("# " + line).rstrip() for line in (checkout / "LICENSE").read_text().splitlines())
    config = (checkout / "config" / "gitleaks.toml").read_text(encoding="utf-8")
    RULES_FILE.write_text(HEADER.format(commit=git("rev-parse", "HEAD"), describe=git("describe", "--tags"),
                                        licence=licence) + config, encoding="utf-8")
    cases, skipped = extract_cases(checkout, args.seed)
    head = json.dumps({"source": f"gitleaks {git('rev-parse', 'HEAD')}", "seed": args.seed,
                       "forms": list(SAMPLE_FORMS)}, ensure_ascii=False)[:-1]
    lines = ",\n".join(json.dumps(c, ensure_ascii=False) for c in cases)  # one case a line: readable diffs
    CASES_FILE.write_text(f'{head}, "cases": [\n{lines}\n]}}\n', encoding="utf-8")
    rules = {c["rule"] for c in cases}
    print(f"{RULES_FILE}: written; {CASES_FILE}: {len(cases)} cases for {len(rules)} rules "
          f"({skipped} statements not evaluated)", file=sys.stderr)


if __name__ == "__main__":
    main()
