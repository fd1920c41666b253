"""Specific help for Python errors: the classes of misses found on held-out error texts (assistant/diagnose/
python_errors.py, python_imports.py, packages.py), each fixed as a general fact or rule and tested with invented
cases (other names, files, wordings). The first tables are in tests/test_diagnose_python.py."""

from __future__ import annotations

import re
import sys

import pytest

from proactive.assistant.diagnose import (
    Situation,
    diagnose,
    python_errors,
    python_imports,
    rules,
)

from .diagnose_support import assert_specific_step, system_python, tb, text_of

__all__ = ["system_python"]  # an autouse fixture (tests/diagnose_support.py)


# ---------------------------------------------------------------- classes of misses found on held-out error texts
# Each class is fixed as a general fact or rule; the cases below are invented (other names, files, wordings).


@pytest.mark.parametrize(("word", "meant"), [
    ("lenght", "len"), ("pirnt", "print"), ("rnage", "range"), ("srt", "str"), ("summ", "sum"), ("inptu", "input"),
    ("itn", "int"), ("lsit", "list"), ("Flase", "False"), ("opne", "open"), ("jsno", "json"), ("tpye", "type"),
    ("enumarate", "enumerate"), ("sotred", "sorted"),
    # names people give their own variables: no built-in is meant
    ("vals", None), ("res", None), ("cnt", None), ("df", None), ("totl", None), ("xq", None), ("data", None),
    ("idx", None), ("nmae", None), ("results", None),
])
def test_close_builtin_name(word, meant):
    assert python_imports._close_name(word, python_errors._name_candidates()) == meant


NAME_CASES = [  # (the failing line, the exception line, the corrected line)
    ("total = summ(prices)", "NameError: name 'summ' is not defined", "total = sum(prices)"),
    ("for k in rnge(5):", "NameError: name 'rnge' is not defined", "for k in range(5):"),
    ('who = inptu("Name? ")', "NameError: name 'inptu' is not defined", 'who = input("Name? ")'),
    ("size = lenght(rows) + 1", "NameError: name 'lenght' is not defined", "size = len(rows) + 1"),
    ("done = Flase", "NameError: name 'Flase' is not defined", "done = False"),
    ("label = srt(count)", "NameError: name 'srt' is not defined. Did you mean: 'str'?", "label = str(count)"),
    ("clean = line.stirp()", "AttributeError: 'str' object has no attribute 'stirp'. Did you mean: 'strip'?",
     "clean = line.strip()"),
    ("names.apend(n)", "AttributeError: 'list' object has no attribute 'apend'", "names.append(n)"),
]


@pytest.mark.parametrize(("code", "last", "fixed"), NAME_CASES, ids=[c[0] for c in NAME_CASES])
def test_close_name_gives_the_corrected_line(code, last, fixed):
    found = diagnose(Situation(tb(("/home/kim/shop/cart.py", 7, "<module>", code), last=last)))
    assert found.rule in ("python.name_typo", "python.attribute_typo"), found.rule
    assert found.steps[0].command == fixed and fixed in found.steps[0].text + (found.steps[0].command or "")
    assert "cart.py, line 7" in text_of(found)


SYNTAX_CASES = [  # (source as typed, rule, the corrected line)
    ("while n > 0", "python.expected_colon", "while n > 0:"),
    ("def area(w, h)", "python.expected_colon", "def area(w, h):"),
    ("class Shape", "python.expected_colon", "class Shape:"),
    ("point = (x y)", "python.forgot_comma", "point = (x, y)"),
    ('print("sum is" total)', "python.forgot_comma", 'print("sum is", total)'),
    ('print(f"{a} {b}" c)', "python.forgot_comma", 'print(f"{a} {b}", c)'),
    ('greeting = "hello', "python.unterminated_string", 'greeting = "hello"'),
    ("title = 'don't stop'", "python.unterminated_string", "title = \"don't stop\""),
    ('log(f"value: {v})', "python.unterminated_string", 'log(f"value: {v}")'),
    ("result = max(a, b", "python.never_closed", "result = max(a, b)"),
    ("items = [1, 2, 3", "python.never_closed", "items = [1, 2, 3]"),
]


def syntax_error_text(source: str) -> str:
    """The SyntaxError as CPython prints it for this source (the same printer as an uncaught one)."""
    import traceback
    try:
        compile(source + "\n", "/home/kim/calc.py", "exec")
    except SyntaxError as exc:
        return "".join(traceback.format_exception_only(type(exc), exc))
    raise AssertionError(f"{source!r} compiles")


@pytest.mark.parametrize(("source", "rule", "fixed"), SYNTAX_CASES, ids=[c[0] for c in SYNTAX_CASES])
def test_syntax_error_gives_the_corrected_line(source, rule, fixed):
    found = diagnose(Situation(syntax_error_text(source)))
    assert found.rule == rule
    assert found.steps[0].command == fixed and fixed in found.offer
    assert "calc.py, line 1" in text_of(found)


COMMA_CASES = [  # (source as typed, the corrected line or None when the gap is not the only one)
    ('print("Choice:" choice)', 'print("Choice:", choice)'),
    ("scores = {'ana': 3 + bonus 'bo': 4}", "scores = {'ana': 3 + bonus, 'bo': 4}"),
    ("values = [first, second third]", "values = [first, second, third]"),
    ("send(to subject, body)", "send(to, subject, body)"),
    ("pair = (x y z)", None),
]


@pytest.mark.parametrize(("source", "fixed"), COMMA_CASES, ids=[c[0] for c in COMMA_CASES])
def test_a_missing_comma_is_placed_without_carets_only_when_one_gap_can_take_it(source, fixed):
    """A copy (or a replayed sentence) without CPython's caret line: the line is corrected only when a single gap
    inside brackets has a value on both sides; with two it is left as the rule says (no guess)."""
    text = syntax_error_text(source)
    assert "Perhaps you forgot a comma?" in text
    no_carets = "\n".join(line for line in text.splitlines() if not re.fullmatch(r"\s*\^+\s*", line))
    found = diagnose(Situation(no_carets))
    assert found.rule == "python.forgot_comma"
    assert (found.steps[0].command if fixed else found.details.get("fixed")) == fixed


def test_syntax_error_without_a_derivable_line_keeps_the_rule():
    found = diagnose(Situation("SyntaxError: expected ':'"))  # no source line shown
    assert found.rule == "python.expected_colon" and not any(s.command for s in found.steps)
    weird = diagnose(Situation('  File "/t.py", line 1\n    x = 1 # (\n          ^\nSyntaxError: \'(\' was never closed'))
    assert weird.rule == "python.never_closed" and "corrected line" not in weird.offer


SHADOW_CASES = [  # (error text, the person's file that hides the module)
    (tb(("/home/kim/app/load.py", 1, "<module>", "import json"),
        ("/home/kim/app/json.py", 2, "<module>", "cfg = json.load(open('c.json'))"),
        last="AttributeError: partially initialized module 'json' has no attribute 'load' (most likely due to a "
             "circular import)"), "/home/kim/app/json.py"),
    (tb(("/home/kim/geo/math.py", 5, "<module>", "print(math.sqrt(2))"),
        last="AttributeError: module 'math' has no attribute 'sqrt'"), "/home/kim/geo/math.py"),
    ("ImportError: cannot import name 'Decimal' from partially initialized module 'decimal' (most likely due to a "
     "circular import) (/home/kim/money/decimal.py)", "/home/kim/money/decimal.py"),
    ("ImportError: cannot import name 'choice' from 'random' (/home/kim/game/random.py)", "/home/kim/game/random.py"),
    (tb(("/home/kim/t/stats.py", 2, "<module>", "print(statistics.mean(xs))"),
        last="AttributeError: module 'statistics' has no attribute 'mean' (consider renaming "
             "'/home/kim/t/statistics.py' since it has the same name as the standard library module named "
             "'statistics' and prevents importing that standard library module)"), "/home/kim/t/statistics.py"),
]


@pytest.mark.parametrize(("error", "local"), SHADOW_CASES, ids=[c[1] for c in SHADOW_CASES])
def test_module_shadowed_by_the_persons_file(error, local):
    found = diagnose(Situation(error))
    assert found.rule == "python.module_shadowed" and found.details["file"] == local
    assert found.steps[0].command.startswith(f"mv {local} ") and "__pycache__" in found.steps[0].command


@pytest.mark.parametrize("error", [
    "AttributeError: module 'statistics' has no attribute 'median'",
    "AttributeError: partially initialized module 'json' has no attribute 'dumps' (most likely due to a circular "
    "import)",
])
def test_module_shadowed_seen_from_the_message_alone(error):
    """Only the message's line (read off the screen, quoted in a chat): the standard module has the name, so a file
    of theirs named like it was imported; the step names the file to rename, never a close name."""
    found = diagnose(Situation(error))
    module = error.split("module '")[1].split("'")[0]
    assert found.rule == "python.module_shadowed" and found.details["file"] == f"{module}.py"
    assert found.steps[0].command.startswith(f"mv {module}.py my_{module}.py")


def test_module_shadowed_seen_on_disk(tmp_path):
    """The traceback shows only the script; the statistics.py next to it is a fact read from the folder."""
    (tmp_path / "statistics.py").write_text("x = 1\n")
    error = tb((str(tmp_path / "report.py"), 3, "<module>", "avg = statistics.mean(xs)"),
               last="AttributeError: module 'statistics' has no attribute 'mean'")
    found = diagnose(Situation(error))
    assert found.rule == "python.module_shadowed" and found.details["file"] == str(tmp_path / "statistics.py")
    mine = diagnose(Situation("ImportError: cannot import name 'app' from partially initialized module 'app' (most "
                              "likely due to a circular import) (/home/kim/app.py)"))
    assert mine.rule == "python.circular_import"  # their own module, not a hidden one


def subprocess_tb(code: str, program: str) -> str:
    return tb(("/home/kim/media/convert.py", 9, "<module>", code),
              ("/usr/lib/python3.12/subprocess.py", 548, "run", "with Popen(*popenargs, **kwargs) as process:"),
              ("/usr/lib/python3.12/subprocess.py", 1955, "_execute_child",
               "raise child_exception_type(errno_num, err_msg, err_filename)"),
              last=f"FileNotFoundError: [Errno 2] No such file or directory: '{program}'")


PROGRAM_CASES = [  # (error text, the program, what the step must say)
    (subprocess_tb("subprocess.run(['tesseract', page, 'out'])", "tesseract"), "tesseract",
     "sudo apt install tesseract-ocr"),
    (subprocess_tb("subprocess.check_call(cmd)", "pdftotext"), "pdftotext", "sudo apt install poppler-utils"),
    (tb(("/home/kim/docs/build.py", 4, "<module>", "proc = Popen(['pandoc', src, '-o', out])"),
        last="FileNotFoundError: [Errno 2] No such file or directory: 'pandoc'"), "pandoc", "sudo apt install pandoc"),
    (subprocess_tb("run([tool, '--version'])", "zzfrobnicate"), "zzfrobnicate", "install zzfrobnicate"),
]


@pytest.mark.parametrize(("error", "program", "expect"), PROGRAM_CASES, ids=[c[1] for c in PROGRAM_CASES])
def test_file_not_found_from_subprocess_is_a_program(error, program, expect, monkeypatch):
    monkeypatch.setattr(python_imports.shutil, "which", lambda name: None)
    monkeypatch.setattr("proactive.assistant.diagnose.shell_errors.cnf_packages", lambda name: [])
    found = diagnose(Situation(error))
    assert found.rule == "python.program_not_found" and found.details["program"] == program
    assert expect in text_of(found)


def test_program_on_path_here_but_not_the_scripts(monkeypatch):
    monkeypatch.setattr(python_imports.shutil, "which", lambda name: f"/opt/tools/bin/{name}")
    found = diagnose(Situation(subprocess_tb("subprocess.run(['ffprobe', f])", "ffprobe")))
    assert "/opt/tools/bin/ffprobe" in found.steps[0].text and "sudo apt install ffmpeg" in text_of(found)


def test_a_data_file_opened_is_not_a_program():
    found = diagnose(Situation(tb(("/home/kim/a.py", 2, "<module>", "rows = open('notes.txt').read()"),
                                  last="FileNotFoundError: [Errno 2] No such file or directory: 'notes.txt'")))
    assert found.rule == "python.file_not_found"


CLASS_CASES = [  # (error text, rule, substrings the help must contain)
    # JSON
    ("json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 3 (char 2)",
     "python.json_property_quotes", ["double quotes", "ast.literal_eval", "json.dumps"]),
    ("json.decoder.JSONDecodeError: Extra data: line 3 column 1 (char 61)", "python.json_extra_data",
     ["json.loads(line)", "line 3"]),
    ("simplejson.errors.JSONDecodeError: Expecting value: line 1 column 1 (char 0)", "python.json_empty",
     ["status_code", "HTML"]),
    ("json.decoder.JSONDecodeError: Expecting value: line 6 column 3 (char 88)", "python.json_value",
     ["trailing comma", "line 6"]),
    # pip: import names and short names, Python versions, standard modules
    ("ERROR: Could not find a version that satisfies the requirement yaml (from versions: none)\n"
     "ERROR: No matching distribution found for yaml", "pip.no_matching_distribution", ["pip install PyYAML"]),
    ("ERROR: No matching distribution found for skimage", "pip.no_matching_distribution",
     ["pip install scikit-image"]),
    ("ERROR: Could not find a version that satisfies the requirement docx (from versions: none)",
     "pip.no_matching_distribution", ["pip install python-docx"]),
    ("ERROR: Could not find a version that satisfies the requirement beautifulsoup (from versions: none)",
     "pip.no_matching_distribution", ["pip install beautifulsoup4"]),
    ("ERROR: Could not find a version that satisfies the requirement opencv (from versions: none)",
     "pip.no_matching_distribution", ["pip install opencv-python"]),
    ("ERROR: Could not find a version that satisfies the requirement tkinter (from versions: none)",
     "pip.no_matching_distribution", ["sudo apt install python3-tk"]),
    ("ERROR: Could not find a version that satisfies the requirement sqlite3 (from versions: none)",
     "pip.no_matching_distribution", ["standard library", "nothing to install"]),
    ("ERROR: Package 'pandas' requires a different Python: 3.9.2 not in '>=3.10'", "pip.requires_python",
     ["Python >=3.10", "3.9.2", "venv"]),
    ("ERROR: Ignored the following versions that require a different python version: 0.9 Requires-Python >=3.11; "
     "1.0 Requires-Python >=3.12\nERROR: Could not find a version that satisfies the requirement fastcsvx==1.0 "
     "(from versions: 0.1, 0.2)\nERROR: No matching distribution found for fastcsvx==1.0",
     "pip.requires_python_ignored", [">=3.12", "python3 --version"]),
    # npm, both wordings
    ("npm error code EACCES\nnpm error syscall mkdir\nnpm error path /home/sam/site/node_modules/esbuild\n"
     "npm error errno -13\nnpm error Error: EACCES: permission denied, mkdir '/home/sam/site/node_modules/esbuild'",
     "npm.eacces_project", ["sudo chown -R $(whoami) /home/sam/site/node_modules"]),
    ("npm ERR! code EACCES\nnpm ERR! syscall open\nnpm ERR! path /home/sam/.npm/_logs/2024-01-01-debug-0.log\n"
     "npm ERR! errno -13", "npm.eacces_cache", ["sudo chown -R $(whoami) /home/sam/.npm"]),
    ("npm error code EACCES\nnpm error syscall rename\nnpm error path /usr/local/lib/node_modules/npm\n"
     "npm error dest /usr/local/lib/node_modules/.npm-x1\nnpm error errno -13", "npm.eacces_global",
     ["npm config set prefix ~/.npm-global", "nvm"]),
    ("npm error Missing script: \"serve\"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run",
     "npm.missing_script", ["npm run", "\"serve\"", "package.json"]),
    ("npm ERR! Missing script: \"lint\"\nnpm ERR! \nnpm ERR! To see a list of scripts, run:\nnpm ERR!   npm run",
     "npm.missing_script", ["npm run", "\"lint\""]),
    ("npm error gyp info spawn args [ 'BUILDTYPE=Release', '-C', 'build' ]\nnpm error gyp ERR! build error\n"
     "npm error gyp ERR! stack Error: not found: make", "build.node_gyp_make", ["sudo apt install build-essential"]),
    ("gyp ERR! stack Error: not found: g++", "build.node_gyp_make", ["build-essential"]),
    ("npm error gyp ERR! find Python \nnpm error gyp ERR! find Python Python is not set from command line or npm "
     "configuration", "build.node_gyp_python", ["python3"]),
]


@pytest.mark.parametrize(("error", "rule", "expect"), CLASS_CASES,
                         ids=[c[1] + ":" + c[0].splitlines()[-1][:40] for c in CLASS_CASES])
def test_class_specific_step(error, rule, expect):
    assert_specific_step(error, rule, expect)


def test_pip_name_only_for_one_clear_distribution():
    from proactive.assistant.diagnose.packages import pip_name
    assert pip_name("sklearn") == "scikit-learn" and pip_name("cv2==4.8") == "opencv-python"
    assert pip_name("python") is None and pip_name("scikit") is None  # nothing, or more than one, fits
    assert pip_name("requests") is None and pip_name("Pillow") is None  # already the distribution's name


def test_npm_missing_script_lists_package_json(tmp_path):
    (tmp_path / "package.json").write_text('{"scripts": {"dev": "vite", "build": "vite build"}}')
    found = diagnose(Situation('npm error Missing script: "start"', cwd=str(tmp_path)))
    assert found.steps[0].command == "npm run dev" and '"dev", "build"' in text_of(found)
    typo = diagnose(Situation('npm ERR! Missing script: "biuld"', cwd=str(tmp_path)))
    assert typo.steps[0].command == "npm run build"


def test_every_npm_rule_takes_both_wordings():
    """npm 10 prints "npm error", older npm "npm ERR!": each npm rule has an example of each (or none at all)."""
    for rule in rules.load("packages"):
        npm = [e for e in rule.examples if "npm ERR!" in e or "npm error" in e]
        if rule.id.startswith("npm.") and npm:
            assert any("npm ERR!" in e for e in npm) and any("npm error" in e for e in npm), rule.id


def test_families_are_asked_in_order_whichever_was_imported_first():
    """A family module imported early (the shell's, by another part of the app) does not jump the queue: a
    Python PermissionError stays Python's. In a fresh interpreter, so no earlier import decides."""
    import subprocess

    code = ("from proactive.assistant.diagnose import shell_errors, git_errors, diagnose, Situation\n"
            "print(diagnose(Situation(\"PermissionError: [Errno 13] Permission denied: '/etc/hosts'\")).rule)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "python.permission", out.stderr


@pytest.mark.parametrize(("code", "fixed"), [
    ('row = conn.execute("SELECT id FROM users WHERE username = ?", (username)).fetchone()', "(username,)"),
    ('cur.execute("DELETE FROM t WHERE name = ?", (args.name))', "(args.name,)"),
])
def test_a_single_sqlite_value_without_its_comma_gets_the_one_element_tuple(code: str, fixed: str) -> None:
    """The failing frame's code is read with the exception line: the value written `(x)` is the one to pass as
    `(x,)`."""
    text = tb(("/home/kim/app/lookup.py", 6, "<module>", code),
              last="sqlite3.ProgrammingError: Incorrect number of bindings supplied. The current statement uses 1, "
                   "and there are 5 supplied.")
    found = diagnose(Situation(text))
    assert found.rule == "python.sqlite_bindings" and any(s.command == fixed for s in found.steps)
