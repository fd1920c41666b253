"""Specific help for Python tracebacks, package managers and builds (assistant/diagnose/python_errors.py, python_imports.py,
packages.py, local_docs.py), table-driven over error texts as CPython 3.11+, pip, npm and gcc print them."""

from __future__ import annotations

import importlib.metadata
import sys
import tomllib
from pathlib import Path

import pytest

from proactive.assistant.diagnose import (
    Situation,
    diagnose,
    python_imports,
    python_traceback,
    rules,
    without_lead,
)
from proactive.assistant.diagnose.local_docs import python_doc
from proactive.assistant.diagnose.packages import requested_packages

from .diagnose_support import assert_specific_step, system_python, tb, text_of

__all__ = ["system_python"]  # an autouse fixture (tests/diagnose_support.py)

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = ("python", "packages")



# (error text, rule id, substrings the steps and offer must contain)
CASES = [
    (tb(("/home/ana/proj/app.py", 1, "<module>", "import yaml"), last="ModuleNotFoundError: No module named 'yaml'"),
     "python.module_not_found", ["python3 -m pip install PyYAML", "'yaml'", "app.py, line 1"]),
    ("ModuleNotFoundError: No module named 'cv2'", "python.module_not_found", ["pip install opencv-python"]),
    ("ModuleNotFoundError: No module named 'sklearn'", "python.module_not_found", ["pip install scikit-learn"]),
    ("ModuleNotFoundError: No module named 'PIL'", "python.module_not_found", ["pip install Pillow"]),
    ("ModuleNotFoundError: No module named 'bs4'", "python.module_not_found", ["pip install beautifulsoup4"]),
    ("ModuleNotFoundError: No module named 'dateutil'", "python.module_not_found", ["pip install python-dateutil"]),
    ("ModuleNotFoundError: No module named 'requests'", "python.module_not_found", ["pip install requests"]),
    ("ModuleNotFoundError: No module named 'tkinter'", "python.module_not_found", ["sudo apt install python3-tk"]),
    ("ModuleNotFoundError: No module named 'imp'", "python.module_not_found", ["importlib"]),
    ("ModuleNotFoundError: No module named 'distutils'", "python.module_not_found", ["pip install setuptools"]),
    ("ImportError: No module named yaml", "python.module_not_found", ["pip install PyYAML"]),
    ("ModuleNotFoundError: No module named 'yaml.loader'", "python.module_not_found", ["pip install PyYAML"]),
    (tb(("/home/ana/p/t.py", 1, "<module>", "import numpyy"), last="ModuleNotFoundError: No module named 'numpyy'"),
     "python.module_typo", ["'numpy'", "import numpy", "pip install numpy"]),
    ("ModuleNotFoundError: No module named 'jsonn'", "python.module_typo", ["import json", "standard"]),
    ("ModuleNotFoundError: No module named 'sklearn.cross_validation'", "python.submodule_moved",
     ["sklearn.model_selection"]),
    ("ModuleNotFoundError: No module named '__main__.utils'; '__main__' is not a package",
     "python.main_not_package", ["python3 -m"]),
    (tb(("/home/ana/app.py", 1, "<module>", "from collections import Mapping"),
        last="ImportError: cannot import name 'Mapping' from 'collections' (/usr/lib/python3.11/collections/__init__.py)"),
     "python.moved_name", ["from collections.abc import Mapping", "app.py, line 1", "generic container"]),
    ("ImportError: cannot import name 'Iterable' from 'collections' (/usr/lib/python3.12/collections/__init__.py)",
     "python.moved_name", ["from collections.abc import Iterable"]),
    ("ImportError: cannot import name 'gcd' from 'fractions' (/usr/lib/python3.11/fractions.py)",
     "python.moved_name", ["from math import gcd"]),
    ("ImportError: cannot import name 'dumpss' from 'json' (/usr/lib/python3.11/json/__init__.py)",
     "python.import_name_typo", ["from json import dumps"]),
    ("ImportError: cannot import name 'app' from partially initialized module 'app' (most likely due to a circular "
     "import) (/home/ana/project/app.py)", "python.circular_import", ["circular", "rename"]),
    ("ImportError: attempted relative import with no known parent package", "python.relative_import_no_parent",
     ["python3 -m"]),
    (tb(("/tmp/t.py", 3, "<module>", "print(os.getcwd())"), last="NameError: name 'os' is not defined"),
     "python.name_not_imported", ["import os", "/tmp/t.py"]),
    ("NameError: name 'Path' is not defined", "python.name_not_imported", ["from pathlib import Path"]),
    (tb(("/tmp/t.py", 1, "<module>", 'pritn("hi")'), last="NameError: name 'pritn' is not defined"),
     "python.name_typo", ["'print'", 'print("hi")']),
    ("NameError: name 'true' is not defined", "python.name_typo", ["'True'"]),
    ("NameError: name 'lenght' is not defined. Did you mean: 'len'?", "python.name_typo", ["'len'"]),
    ("NameError: name 'sys' is not defined. Did you forget to import 'sys'?", "python.name_not_imported",
     ["import sys"]),
    (tb(("/tmp/t.py", 2, "<module>", "print(totl)"), last="NameError: name 'totl' is not defined"),
     "python.name_undefined", ["Define 'totl'", "line 2"]),
    (tb(("/tmp/t.py", 2, "<module>", "print(os.getcwdd())"),
        last="AttributeError: module 'os' has no attribute 'getcwdd'. Did you mean: 'getcwd'?"),
     "python.attribute_typo", ["os.getcwd", "print(os.getcwd())"]),
    ("AttributeError: module 'json' has no attribute 'loadz'", "python.attribute_typo", ["json.loads"]),
    # the standard module has the name: the imported one is a file of theirs (not on this machine: presumed)
    (tb(("/home/dana/sales/report.py", 7, "<module>", "rows = list(csv.DictReader(f))"),
        last="AttributeError: module 'csv' has no attribute 'DictReader'"),
     "python.module_shadowed", ["/home/dana/sales/csv.py", "Rename"]),
    (tb(("/srv/app/main.py", 2, "<module>", "print(json.dumps(data))"),
        last="AttributeError: module 'json' has no attribute 'dumps'"),
     "python.module_shadowed", ["/srv/app/json.py", "mv "]),
    ("AttributeError: 'str' object has no attribute 'uppper'", "python.attribute_typo", ["str.upper"]),
    ("AttributeError: 'dict' object has no attribute 'iteritems'", "python.dict_has_key", ["items()"]),
    ("AttributeError: 'list' object has no attribute 'push'", "python.list_push", ["append"]),
    ("AttributeError: 'NoneType' object has no attribute 'group'", "python.none_attribute", ["re.match"]),
    (tb(("/home/ana/random.py", 3, "<module>", "print(random.randint(1, 6))"),
        last="AttributeError: module 'random' has no attribute 'randint' (consider renaming '/home/ana/random.py' "
             "since it has the same name as the standard library module named 'random' and prevents importing "
             "that standard library module)"),
     "python.module_shadowed", ["/home/ana/random.py", "Rename"]),
    (tb(("/tmp/t.py", 3, "<module>", 'print(1 + "a")'),
        last="TypeError: unsupported operand type(s) for +: 'int' and 'str'"),
     "python.operand_str_number", ["str(", "int(", "/tmp/t.py, line 3"]),
    ('TypeError: can only concatenate str (not "int") to str', "python.concat_str", ["str(value)"]),
    ("TypeError: 'NoneType' object is not subscriptable", "python.not_subscriptable", ["None"]),
    ("TypeError: 'list' object is not callable", "python.not_callable", ["list = "]),
    ("TypeError: Dog.bark() takes 0 positional arguments but 1 was given", "python.positional_self", ["self"]),
    ("TypeError: greet() missing 1 required positional argument: 'name'", "python.missing_argument", ["'name'"]),
    (tb(("/tmp/t.py", 2, "<module>", 'print(d["name"])'), last="KeyError: 'name'"),
     "python.key_error", [".get('name')", "line 2", 'print(d["name"])']),
    ("ValueError: invalid literal for int() with base 10: 'abc'", "python.int_literal", ["'abc'", "try"]),
    ("ValueError: too many values to unpack (expected 2)", "python.unpack", [".items()"]),
    ("IndexError: list index out of range", "python.index_range", ["len("]),
    ("ZeroDivisionError: division by zero", "python.zero_division", ["== 0"]),
    ("RecursionError: maximum recursion depth exceeded", "python.recursion", ["base case"]),
    ('  File "/home/ana/t.py", line 4\n    print("x")\nIndentationError: unexpected indent',
     "python.unexpected_indent", ["/home/ana/t.py, line 4", 'print("x")']),
    ('  File "/home/ana/t.py", line 3\n    return x\n    ^\nIndentationError: expected an indented block after '
     "'if' statement on line 2", "python.expected_indented_block", ["pass", "line 3"]),
    ('  File "/home/ana/t.py", line 5\n    else:\n         ^\n'
     "IndentationError: unindent does not match any outer indentation level", "python.unindent", ["cat -A"]),
    ('  File "/home/ana/t.py", line 3\n    \tprint(x)\nTabError: inconsistent use of tabs and spaces in indentation',
     "python.tab_error", ["expand -t 4 /home/ana/t.py"]),
    ('  File "/home/ana/t.py", line 1\n    if x == 1\n             ^\nSyntaxError: expected \':\'',
     "python.expected_colon", ["':'", "/home/ana/t.py, line 1", "if x == 1"]),
    ('  File "/home/ana/t.py", line 1\n    print("a"\n         ^\nSyntaxError: \'(\' was never closed',
     "python.never_closed", ["'('", "line 1"]),
    ('  File "/home/ana/t.py", line 1\n    print "hello"\n    ^^^^^^^^^^^^^\n'
     "SyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)?", "python.print_parentheses",
     ["print(...)"]),
    ("SyntaxError: unterminated string literal (detected at line 1)", "python.unterminated_string", ["quote"]),
    ("UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte",
     "python.unicode_decode", ["encoding="]),
    ("json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)", "python.json_empty", ["empty"]),
    ("UnboundLocalError: cannot access local variable 'count' where it is not associated with a value",
     "python.unbound_local", ["global"]),
    ("PermissionError: [Errno 13] Permission denied: '/etc/hosts'", "python.permission", ["ls -l '/etc/hosts'"]),
    # package managers and builds
    ("error: externally-managed-environment\n\n× This environment is externally managed\n╰─> To install Python "
     "packages system-wide, try apt install\n    python3-xyz, where xyz is the package you are trying to\n    install.",
     "pip.externally_managed", ["python3 -m venv .venv", "pipx install"]),
    ("npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! \nnpm ERR! While resolving:"
     " my-app@0.1.0\nnpm ERR! Found: react@18.2.0\nnpm ERR! node_modules/react\nnpm ERR!   react@\"^18.2.0\" from the "
     "root project\nnpm ERR! \nnpm ERR! Could not resolve dependency:\nnpm ERR! peer react@\"^16.8.0 || ^17.0.0\" from "
     "react-beautiful-dnd@13.1.1\nnpm ERR! node_modules/react-beautiful-dnd", "npm.eresolve",
     ["npm install react-beautiful-dnd@latest", "--legacy-peer-deps", "react@18.2.0"]),
    ("      psycopg/psycopgmodule.c:28:10: fatal error: Python.h: No such file or directory\n         28 | #include "
     "<Python.h>\n            |          ^~~~~~~~~~\n      compilation terminated.\n      error: command "
     "'/usr/bin/x86_64-linux-gnu-gcc' failed with exit code 1", "build.python_h", ["sudo apt install python3-dev"]),
    ("      error: command 'x86_64-linux-gnu-gcc' failed: No such file or directory", "build.no_gcc",
     ["build-essential"]),
    ("Error: pg_config executable not found.", "build.pg_config", ["libpq-dev", "psycopg2-binary"]),
    ("      c/_cffi_backend.c:15:10: fatal error: ffi.h: No such file or directory", "build.ffi_h", ["libffi-dev"]),
    ("fatal error: openssl/ssl.h: No such file or directory", "build.openssl_h", ["libssl-dev"]),
    ("      /bin/sh: 1: mysql_config: not found\n      OSError: mysql_config not found", "build.mysql_config",
     ["default-libmysqlclient-dev"]),
    ("      error: can't find Rust compiler", "build.rust", ["pip install --upgrade pip", "rustup"]),
    ("ERROR: Could not find a version that satisfies the requirement cv2 (from versions: none)\n"
     "ERROR: No matching distribution found for cv2", "pip.no_matching_distribution", ["pypi.org"]),
]


@pytest.mark.parametrize(("error", "rule", "expect"), CASES, ids=[c[1] + ":" + c[0].splitlines()[-1][:40] for c in CASES])
def test_specific_step(error, rule, expect):
    assert_specific_step(error, rule, expect)


NEGATIVES = [
    "RuntimeError: boom",
    "ValueError: something custom went wrong",
    tb(("/home/ana/app.py", 9, "main", "raise SystemExit(3)"), last="SystemExit: 3"),
    "ImportError: cannot import name 'thing' from 'mylib' (/home/ana/mylib/__init__.py)",  # third party: not imported
    "AttributeError: 'Foo' object has no attribute 'bar'",  # a class of theirs: no names to compare
    "AttributeError: module 'mylib' has no attribute 'helper'",
    "NameError: name 'xq' is not defined",  # no close name, no source line
    "ERROR: something failed",  # not a Python exception line
    "",
]


@pytest.mark.parametrize("error", NEGATIVES)
def test_no_specific_step(error):
    assert diagnose(Situation(error)) is None


def test_the_failing_frame_is_the_persons_code():
    text = tb(("/home/ana/p/main.py", 12, "<module>", "data = json.loads(raw)"),
              ("/usr/lib/python3.11/json/__init__.py", 346, "loads", "return _default_decoder.decode(s)"),
              ("/usr/lib/python3.11/json/decoder.py", 355, "raw_decode", "raise JSONDecodeError(\"Expecting value\", s, err.value) from None"),
              last="json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)")
    parsed = python_traceback.parse(text)
    assert parsed.exception == "json.decoder.JSONDecodeError" and parsed.message.startswith("Expecting value")
    assert (parsed.frame.file, parsed.frame.line, parsed.frame.code) == ("/home/ana/p/main.py", 12, "data = json.loads(raw)")
    found = diagnose(Situation(text))
    assert "main.py, line 12" in text_of(found)


def test_chained_exceptions_use_the_last():
    text = (tb(("/tmp/a.py", 2, "<module>", "d['k']"), last="KeyError: 'k'") + "\n\nDuring handling of the above "
            "exception, another exception occurred:\n\n" + tb(("/tmp/a.py", 4, "<module>", "1/0"),
                                                              last="ZeroDivisionError: division by zero"))
    parsed = python_traceback.parse(text)
    assert parsed.name == "ZeroDivisionError" and [f.line for f in parsed.frames] == [4]


def test_close_match_on_a_distribution_installed_here():
    """A mistyped import close to a distribution installed in this environment (click is a dependency)."""
    importlib.metadata.distribution("click")
    found = diagnose(Situation("ModuleNotFoundError: No module named 'clik'"))
    assert found.rule == "python.module_typo" and found.details["match"] == "click"
    assert "(close to 'clik')" in found.offer
    psutil_typo = diagnose(Situation("ModuleNotFoundError: No module named 'psutill'"))
    assert psutil_typo.details["match"] == "psutil"


def test_unknown_module_warns_about_the_name():
    found = diagnose(Situation("ModuleNotFoundError: No module named 'zzqqxyzzy'"))
    assert found.rule == "python.module_not_found"
    assert "check the name" in found.offer and "python3 -m pip install zzqqxyzzy" in text_of(found)


def test_externally_managed_system_python_gets_apt_then_venv(monkeypatch):
    monkeypatch.setattr(python_imports, "system_externally_managed", lambda: True)
    found = diagnose(Situation("ModuleNotFoundError: No module named 'yaml'"))
    commands = [s.command for s in found.steps]
    assert commands[0] == "sudo apt install python3-yaml"
    assert "python -m pip install PyYAML" in commands[1] and "python3 -m venv .venv" in commands[1]
    unknown = diagnose(Situation("ModuleNotFoundError: No module named 'cowsay'"))  # no Debian name known: a venv
    assert not any("apt" in (s.command or "") for s in unknown.steps)
    assert "pip install cowsay" in text_of(unknown)


def test_the_persons_virtual_environment_from_the_traceback(tmp_path):
    venv = tmp_path / "proj" / ".venv"
    (venv / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    text = tb(("/x/proj/main.py", 1, "<module>", "import flask_cors"),
              (f"{venv}/lib/python3.11/site-packages/flask/app.py", 3, "<module>", "import yaml"),
              last="ModuleNotFoundError: No module named 'yaml'")
    found = diagnose(Situation(text))
    assert found.steps[0].command == f"{venv}/bin/python -m pip install PyYAML"
    assert str(venv) in found.steps[0].text


def test_the_projects_venv_in_the_working_folder(tmp_path):
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    found = diagnose(Situation("ModuleNotFoundError: No module named 'requests'", cwd=str(tmp_path)))
    assert found.steps[0].command == ".venv/bin/python -m pip install requests"


def test_file_not_found_names_the_close_file(tmp_path):
    (tmp_path / "data.csv").write_text("a,b\n")
    found = diagnose(Situation("FileNotFoundError: [Errno 2] No such file or directory: 'dta.csv'", cwd=str(tmp_path)))
    assert found.rule == "python.file_not_found"
    assert "'data.csv'" in text_of(found) and str(tmp_path) in text_of(found)


def test_local_module_not_found(tmp_path):
    (tmp_path / "helpers_zq.py").write_text("X = 1\n")
    found = diagnose(Situation("ModuleNotFoundError: No module named 'helpers_zq'", cwd=str(tmp_path)))
    assert found.rule == "python.local_module_not_found" and "PYTHONPATH=" in found.steps[0].command


def test_no_third_party_module_is_imported_for_its_names():
    before = set(sys.modules)
    diagnose(Situation("ImportError: cannot import name 'x' from 'pytest_timeout' (/v/pytest_timeout.py)"))
    diagnose(Situation("AttributeError: module 'hypothesis' has no attribute 'givn'"))
    diagnose(Situation("ModuleNotFoundError: No module named 'hypothesis.strategiess'"))
    assert not {"pytest_timeout", "hypothesis"} & (set(sys.modules) - before)


def test_pip_install_names_the_package_in_the_venv_command():
    assert requested_packages("pip install --user requests 'flask>=2' -r req.txt") == ["requests", "flask>=2"]
    found = diagnose(Situation("error: externally-managed-environment", command="pip3 install yt-dlp"))
    assert "python -m pip install yt-dlp" in found.steps[0].command
    assert "pipx install yt-dlp" in text_of(found) and "yt-dlp" in found.offer
    bare = diagnose(Situation("error: externally-managed-environment"))
    assert "PACKAGE" in bare.steps[0].command and "in place of PACKAGE" in text_of(bare)


@pytest.mark.parametrize(("symbol", "expect"), [
    ("collections.abc.Mapping", "A Mapping is a generic container"),
    ("json.loads", "json.loads(s, *"),
    ("str.join", "Concatenate any number of strings"),
    ("os.path.join", "Join two or more pathname components"),
])
def test_python_doc(symbol, expect):
    assert expect in python_doc(symbol)


@pytest.mark.parametrize("symbol", ["numpy.array", "antigravity", "this", "collections.Mapping", "os.nope", "True",
                                    "", "a b", "os.__class__"])
def test_python_doc_only_for_standard_symbols(symbol):
    assert python_doc(symbol) is None


def rule_cases():
    for family in RULE_FILES:
        for rule in rules.load(family):
            for example in rule.examples:
                yield pytest.param(family, rule.id, example, True, id=f"{rule.id}+")
            for example in rule.not_examples:
                yield pytest.param(family, rule.id, example, False, id=f"{rule.id}-")


@pytest.mark.parametrize(("family", "rule_id", "example", "matches"), list(rule_cases()))
def test_rule_examples(family, rule_id, example, matches):
    """Every rule matches its own examples (and is the first of its family to), and none of its not_examples."""
    rule = next(r for r in rules.load(family) if r.id == rule_id)
    found = rule.match(Situation(example))
    if matches:
        assert found is not None, f"{rule_id} does not match its example {example!r}"
        assert "{" not in found.offer.replace("{value}", ""), found.offer
        first = rules.match(family, Situation(example))
        assert first.rule == rule_id, f"{example!r} is taken first by {first.rule}"
    else:
        assert found is None, f"{rule_id} matches its not_example {example!r}"


def test_every_rule_has_examples_and_every_module_entry_a_package():
    for family in RULE_FILES:
        for rule in rules.load(family):
            assert rule.examples, f"rules/{family}.toml: {rule.id} has no examples"
    for name, provider in python_imports.providers().items():
        assert provider.pypi or provider.debian or provider.note, name


def test_bench_cases_are_well_formed():
    """bench/help_quality.py's cases: at least 120 situations over at least 12 ecosystems (a file each), and the
    held-out sets; every case has an error, what a right answer must contain, and where its text comes from."""
    for folder, least_cases, least_files in (("help_cases", 120, 12), ("help_heldout", 120, 3)):
        files = sorted((ROOT / "bench" / folder).glob("*.toml"))
        cases = [c for f in files for c in tomllib.loads(f.read_text(encoding="utf-8"))["case"]]
        assert len(cases) >= least_cases and len(files) >= least_files, folder
        for case in cases:
            assert case["error"].strip() and case["expect"] and all(p.strip() for p in case["expect"]), case
            assert set(case) <= {"error", "command", "file", "cwd", "expect", "source", "note"}, case


@pytest.mark.parametrize("retyped, printed", [
    ("TypeError: can only concatenate list (not 'str') to list", 'TypeError: can only concatenate list (not "str") to list'),
    ("npm ERR! Missing script: 'build'", 'npm ERR! Missing script: "build"'),
])
def test_a_message_retyped_with_the_other_quote_mark_gets_the_same_help(retyped, printed):
    """Read aloud or retyped, a message loses which quote mark its program printed: the help is the same."""
    assert text_of(diagnose(Situation(error=retyped))) == text_of(diagnose(Situation(error=printed)))
    assert diagnose(Situation(error=printed)) is not None


@pytest.mark.parametrize("error, command, rule, step", [
    # a tracker's label, a CI runner's step before each line, a status line's guillemets around a shell's message
    ("failed: ModuleNotFoundError: No module named 'bs4'", "python3 scrape.py", "python.module_not_found",
     "beautifulsoup4"),
    ("[deploy:5] ImportError: attempted relative import with no known parent package", "python3 shop/models.py",
     "python.relative_import_no_parent", "-m shop.models"),
    ("error: «bash: ./deploy.sh: Permission denied». Further action needed.", "./deploy.sh",
     "shell.permission_denied.exec", "chmod +x deploy.sh"),
])
def test_a_message_relayed_with_words_before_it_on_its_line(error, command, rule, step):
    found = diagnose(Situation(error, command))
    assert found is not None and found.rule == rule and step in (found.steps[0].command or "")


def test_words_before_a_message_are_taken_off_only_up_to_where_it_starts():
    assert without_lead("night_owl: npm error code EACCES\nnpm error path /usr/lib") == \
        "npm error code EACCES\nnpm error path /usr/lib"
    assert without_lead("main.c:3:5: error: unknown type name") == "main.c:3:5: error: unknown type name"  # its place
    assert without_lead("「TypeError: x is not a function」 again") == "TypeError: x is not a function"
