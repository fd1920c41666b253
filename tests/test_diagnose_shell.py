"""Shell errors get a specific next step from facts on this machine (assistant/diagnose/shell_errors.py, shell_files.py,
command_docs.py) and from rules as data (rules/shell.toml, rules/git.toml; git's own errors: tests/test_diagnose_git.py).

Real facts, not mocks: executables in a temporary PATH folder, a real SQLite command-not-found database in
Debian's schema, a socket this test listens on (and one a child process holds), a script without the execute
bit.
"""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from proactive.assistant.diagnose import (
    Situation,
    command_docs,
    diagnose,
    rules,
    shell_errors,
    shell_files,
)

from .diagnose_support import commands


@pytest.fixture
def path_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A PATH of a private bin folder (with a few executables) and the system's folders; the PATH cache reset."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for name in ("mytool-alpha", "frobnicate", "deploytool"):
        exe = folder / name
        exe.write_text("#!/bin/sh\necho ran > \"$(dirname \"$0\")/../ran-$(basename \"$0\")\"\n")
        exe.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.defpath}")
    monkeypatch.setattr(shell_errors, "_path_cache", None)
    monkeypatch.setattr(shell_errors, "CNF_DATABASES", (str(tmp_path / "absent-commands.db"),))
    return folder


# ---------------------------------------------------------------- rules as data


def all_rules(families: Iterable[str] = ("shell", "git")) -> Iterator[tuple[str, rules.Rule]]:
    """(family, rule) for every rule of the `families`' rule files (also tests/test_diagnose_ecosystems.py's)."""
    for family in families:
        for rule in rules.load(family):
            yield family, rule


@pytest.mark.parametrize(("family", "rule"), list(all_rules()), ids=lambda x: x if isinstance(x, str) else x.id)
def test_every_rule_matches_its_examples_and_not_its_not_examples(family: str, rule: rules.Rule) -> None:
    assert rule.examples, f"{rule.id}: no examples"
    for example in rule.examples:
        found = rules.match(family, Situation(example))
        assert found is not None and found.rule == rule.id, f"{rule.id}: example {example!r} gave {found}"
        for step in found.steps:  # every {group} of the texts was filled from the example
            assert "{" not in step.text and "{" not in (step.command or ""), f"{rule.id}: unfilled {step}"
        assert "{" not in found.problem and "{" not in found.offer
    for example in rule.not_examples:
        assert rule.match(Situation(example)) is None, f"{rule.id}: matches its not_example {example!r}"


def test_rule_ids_are_unique_and_the_families_are_registered() -> None:
    ids = [rule.id for _, rule in all_rules()]
    assert len(ids) == len(set(ids))
    from proactive.assistant import diagnose as package

    assert {"shell_errors", "git_errors"} <= set(package.FAMILIES)
    names = [name for name, _ in package.diagnosers()]
    assert any(name.endswith("shell_errors.command_not_found") for name in names)
    assert any(name.endswith("git_errors.merge_conflict") for name in names)


# ---------------------------------------------------------------- command not found

NOT_FOUND_MESSAGES = [
    "bash: mytool-alpah: command not found",
    "-bash: mytool-alpah: command not found",
    "zsh: command not found: mytool-alpah",
    "sh: 1: mytool-alpah: not found",
    "/bin/sh: 1: mytool-alpah: not found",
    "./run.sh: line 3: mytool-alpah: command not found",
    "bash: line 1: mytool-alpah: command not found",
    "fish: Unknown command: mytool-alpah",
]


@pytest.mark.parametrize("message", NOT_FOUND_MESSAGES)
def test_command_not_found_gives_the_close_name_on_path(path_bin: Path, message: str) -> None:
    d = diagnose(Situation(message, command="mytool-alpah --all"))
    assert d is not None and d.rule == "shell.command_not_found"
    assert d.details["close"].split(", ")[0] == "mytool-alpha"
    assert d.steps[0].command == "mytool-alpha --all"  # the person's command line, with the name fixed
    assert "mytool-alpah" in d.problem
    assert not (path_bin.parent / "ran-mytool-alpha").exists(), "a close match was executed"


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_swapped_letters_come_first_and_the_man_summary_describes_it(path_bin: Path) -> None:
    d = diagnose(Situation("bash: gti: command not found", command="gti status"))
    assert d is not None and d.steps[0].command == "git status"
    if command_docs.man_summary("git"):
        assert command_docs.man_summary("git") in d.steps[0].text


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.parametrize(("command", "fixed"), [
    ("cd /srv/app && gti status", "cd /srv/app && git status"),  # a chain: the command the shell could not find
    ("make build; sudo gti push", "make build; sudo git push"),
    ("cat notes | gti apply", "cat notes | git apply"),
    ("ls -la", "git"),  # a line that runs no 'gti': the name alone
])
def test_the_close_name_fixes_the_command_where_the_line_runs_it(path_bin: Path, command: str, fixed: str) -> None:
    d = diagnose(Situation("bash: gti: command not found", command=command))
    assert d is not None and d.steps[0].command == fixed


def command_db(path: Path, rows: dict[str, list[tuple[str, int]]]) -> Path:
    """A command-not-found database in the schema of Debian's /var/lib/command-not-found/commands.db."""
    con = sqlite3.connect(path)
    con.executescript(
        'CREATE TABLE "commands" ([cmdID] INTEGER PRIMARY KEY NOT NULL, [pkgID] INTEGER NOT NULL, [command] TEXT);'
        'CREATE TABLE "packages" ([pkgID] INTEGER PRIMARY KEY NOT NULL, [name] TEXT, [version] TEXT,'
        " [component] TEXT, [priority] INTEGER);")
    pkg_id = 0
    for command, packages in rows.items():
        for name, priority in packages:
            pkg_id += 1
            con.execute("INSERT INTO packages (pkgID, name, version, component, priority) VALUES (?, ?, '1', 'main', ?)",
                        (pkg_id, name, priority))
            con.execute("INSERT INTO commands (pkgID, command) VALUES (?, ?)", (pkg_id, command))
    con.commit()
    con.close()
    return path


def test_the_command_not_found_database_names_the_package(path_bin: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    db = command_db(tmp_path / "commands.db", {"htopx": [("htopx-tools", 0)],
                                               "convert": [("graphicsmagick-imagemagick-compat", 0),
                                                           ("imagemagick-6.q16", 10)]})
    before = db.stat().st_mtime_ns
    monkeypatch.setattr(shell_errors, "CNF_DATABASES", (str(tmp_path / "none.db"), str(db)))
    d = diagnose(Situation("bash: htopx: command not found"))
    assert d is not None and d.steps[0].command == "sudo apt install htopx-tools"
    assert d.details["package"] == "htopx-tools" and "command-not-found" in d.source
    d = diagnose(Situation("zsh: command not found: convert"))
    assert d is not None and d.steps[0].command == "sudo apt install imagemagick-6.q16"  # the higher priority
    assert "graphicsmagick-imagemagick-compat" in d.steps[0].text
    assert db.stat().st_mtime_ns == before  # opened read-only
    # a database of another shape is not an error: no package, and no exception
    bad = tmp_path / "bad.db"
    sqlite3.connect(bad).execute("CREATE TABLE t (x)").connection.close()
    monkeypatch.setattr(shell_errors, "CNF_DATABASES", (str(bad),))
    assert shell_errors.cnf_packages("htopx") == []


@pytest.mark.skipif(not any(os.path.isfile(p) for p in shell_errors.CNF_DATABASES),
                    reason="Debian's command-not-found database is not installed here")
def test_the_real_command_not_found_database_is_read() -> None:
    assert "coreutils" in shell_errors.cnf_packages("ls")


def test_a_program_in_this_folder_is_run_with_dot_slash(path_bin: Path, tmp_path: Path) -> None:
    script = tmp_path / "build.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    d = diagnose(Situation("bash: build.sh: command not found", command="build.sh --fast", cwd=str(tmp_path)))
    assert d is not None and d.steps[0].command == "chmod +x build.sh && ./build.sh --fast"
    script.chmod(0o755)
    d = diagnose(Situation("bash: build.sh: command not found", command="build.sh", cwd=str(tmp_path)))
    assert d is not None and d.steps[0].command == "./build.sh"


@pytest.mark.parametrize(("command", "name", "folder"), [
    ("go install github.com/air-verse/air@latest && air", "air", "$(go env GOPATH)/bin"),
    ("go install golang.org/x/tools/gopls/v2@v2.1.0; gopls version", "gopls", "$(go env GOPATH)/bin"),
    ("cargo install --locked just && just --list", "just", "$HOME/.cargo/bin"),
    ("python3 -m pip install --user pre-commit && pre-commit install", "pre-commit", "$HOME/.local/bin"),
    ("npm install -g pnpm && pnpm install", "pnpm", "$(npm prefix -g)/bin"),
])
def test_a_program_the_same_line_installed_gets_its_folder_on_path(path_bin: Path, command: str, name: str,
                                                                   folder: str) -> None:
    """A user-level installer's folder is not on a fresh PATH: the step adds it, and no close name or package
    (another program) is offered instead."""
    d = diagnose(Situation(f"bash: {name}: command not found", command=command))
    assert d is not None and d.rule == "shell.command_not_found"
    assert [s.command for s in d.steps] == [f'export PATH="$PATH:{folder}"']
    other = diagnose(Situation(f"bash: {name}: command not found", command=f"go install example.com/other@latest && {name}"))
    assert other is None or "export PATH" not in commands(other)


def test_sudo_gets_the_full_path_of_a_command_on_the_users_path(path_bin: Path) -> None:
    d = diagnose(Situation("sudo: deploytool: command not found", command="sudo deploytool --now"))
    assert d is not None and d.steps[0].command == f"sudo {path_bin / 'deploytool'} --now"


def test_ubuntus_handler_output_gives_its_package(path_bin: Path) -> None:
    message = ("Command 'nmapx' not found, but can be installed with:\n\nsudo apt install nmapx\n")
    d = diagnose(Situation(message))
    assert d is not None and "sudo apt install nmapx" in commands(d)


@pytest.mark.parametrize("message", [
    "bash: qzxwvkjh: command not found",
    "zsh: command not found: qzxwvkjh",
    "Segmentation fault (core dumped)",
    "hello world",
    "   ",
])
def test_no_specific_step_known_gives_none(path_bin: Path, message: str) -> None:
    assert diagnose(Situation(message)) is None


# ---------------------------------------------------------------- address already in use

PORT_MESSAGES = [
    ("OSError: [Errno 98] Address already in use", "python3 -m http.server {port}"),
    ("Error: listen EADDRINUSE: address already in use :::{port}", None),
    ("Error: listen EADDRINUSE: address already in use 127.0.0.1:{port}", None),
    ("ERROR:    [Errno 98] error while attempting to bind on address ('127.0.0.1', {port}): address already in use",
     "uvicorn app:app"),
    ("nginx: [emerg] bind() to 0.0.0.0:{port} failed (98: Address already in use)", None),
    ("Error starting userland proxy: listen tcp4 0.0.0.0:{port}: bind: address already in use", None),
    ("listen tcp :{port}: bind: address already in use", None),
    ("Port {port} is in use by another program. Either identify and stop that program, or start the server with a "
     "different port.", "flask run"),
    ("Error: That port is already in use.", "python manage.py runserver {port}"),
    ("OSError: [Errno 98] Address already in use", "gunicorn --bind 127.0.0.1:{port} app:app"),
    ("OSError: [Errno 98] Address already in use", "npm run dev -- --port {port}"),
]


@pytest.fixture
def listening() -> Iterator[socket.socket]:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    yield s
    s.close()


@pytest.mark.parametrize(("message", "command"), PORT_MESSAGES)
def test_the_process_holding_the_port_is_named(listening: socket.socket, message: str, command: str | None) -> None:
    port = listening.getsockname()[1]
    situation = Situation(message.format(port=port), command=command.format(port=port) if command else None)
    assert shell_errors.port_of(situation) == port
    d = diagnose(situation)
    assert d is not None and d.rule == "shell.address_in_use"
    assert d.details["pid"] == str(os.getpid())
    assert d.steps[0].command == f"kill {os.getpid()}"
    assert f"pid {os.getpid()}" in d.offer and str(port) in d.problem


def test_a_child_process_holding_the_port_is_found() -> None:
    code = ("import socket,sys,time\ns=socket.socket();s.bind(('127.0.0.1',0));s.listen();"
            "print(s.getsockname()[1],flush=True);time.sleep(30)")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        port = int(child.stdout.readline())
        d = diagnose(Situation(f"Error: listen EADDRINUSE: address already in use :::{port}",
                               command="node server.js"))
        assert d is not None and d.details["pid"] == str(child.pid)
        assert d.steps[0].command == f"kill {child.pid}"
        assert d.details["process"].startswith("python")
    finally:
        child.kill()
        child.wait()


def test_a_port_freed_since_says_so_and_offers_the_same_command_again() -> None:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # bound, never listening, now closed: nothing holds it
    d = diagnose(Situation("OSError: [Errno 98] Address already in use", command=f"python3 -m http.server {port}"))
    assert d is not None and "Nothing listens" in d.steps[0].text
    assert d.steps[0].command == f"python3 -m http.server {port}"
    assert d.steps[1].command == f"sudo lsof -i :{port} -sTCP:LISTEN"  # if it happens again
    assert d.steps[2].command == f"python3 -m http.server {port + 1}"
    assert d.offer == f"the command that shows what holds port {port} (it is free now)"


def test_a_port_in_use_without_a_port_lists_the_listeners() -> None:
    d = diagnose(Situation("OSError: [Errno 98] Address already in use"))
    assert d is not None and d.steps[0].command == "ss -ltnp"


def test_a_time_of_day_is_not_a_port() -> None:
    assert shell_errors.port_of(Situation("2024-05-01 12:30:45 ERROR address already in use")) is None


# ---------------------------------------------------------------- permission denied


def test_a_script_without_the_execute_bit_gets_chmod(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o644)
    # the real message, from a real shell
    done = subprocess.run(["bash", "-c", "./run.sh"], cwd=tmp_path, capture_output=True, text=True)
    assert "Permission denied" in done.stderr
    d = diagnose(Situation(done.stderr, command="./run.sh", cwd=str(tmp_path)))
    assert d is not None and d.rule == "shell.permission_denied.exec"
    assert d.steps[0].command == "chmod +x run.sh" and "-rw-r--r--" in d.problem
    d = diagnose(Situation(f"bash: {script}: Permission denied"))  # an absolute path needs no cwd
    assert d is not None and d.steps[0].command == f"chmod +x {script}"
    d = diagnose(Situation(f"zsh: permission denied: {script}"))
    assert d is not None and d.steps[0].command == f"chmod +x {script}"


def test_a_file_of_another_user_is_said_to_be_theirs(tmp_path: Path) -> None:
    if os.getuid() == 0:
        target = tmp_path / "owned"
        target.mkdir()
        os.chown(target, 65534, 65534)
        path = target / "new.txt"
        owner = shell_files._owner(65534)
    else:
        path = Path("/etc/proactive-test-file")
        owner = "root"
    d = diagnose(Situation(f"touch: cannot touch '{path}': Permission denied", command=f"touch {path}"))
    assert d is not None and d.rule == "shell.permission_denied.owner"
    assert f"belongs to {owner}" in d.problem and d.details["owner"] == owner
    assert f"sudo touch {path}" in commands(d) or "chown" in commands(d)


@pytest.mark.parametrize(("command", "tee"), [
    ('sudo echo "127.0.0.1 myapp.local" >> {path}', 'echo "127.0.0.1 myapp.local" | sudo tee -a {path} > /dev/null'),
    ("sudo printf 'x=1\\n' > {path}", "printf 'x=1\\n' | sudo tee {path} > /dev/null"),
    ("cat extra.conf >>{path}", "cat extra.conf | sudo tee -a {path} > /dev/null"),
])
def test_a_redirection_into_a_file_of_another_user_is_written_by_sudo_tee(tmp_path: Path, command: str,
                                                                         tee: str) -> None:
    """The shell opens the file of `>`/`>>` before sudo runs: the step moves the writing to `sudo tee`, whether or
    not the line already had sudo in front, and never offers `sudo sudo …`."""
    if os.getuid() == 0:
        target = tmp_path / "owned"
        target.mkdir()
        os.chown(target, 65534, 65534)
        path = target / "hosts"
        path.write_text("")
        os.chown(path, 65534, 65534)
    else:
        path = Path("/etc/hosts")
    d = diagnose(Situation(f"bash: {path}: Permission denied", command=command.format(path=path)))
    assert d is not None and d.rule == "shell.permission_denied.owner"
    assert d.steps[0].command == tee.format(path=path) and "sudo sudo" not in commands(d)
    other = diagnose(Situation(f"bash: {path}: Permission denied", command=f"sudo cp new.txt {path}"))
    assert other is not None and "tee" not in commands(other) and "sudo sudo" not in commands(other)


@pytest.mark.parametrize("message", [
    "serial.serialutil.SerialException: [Errno 13] could not open port /dev/ttyUSB0: [Errno 13] Permission denied: "
    "'/dev/ttyUSB0'",
    "avrdude: ser_open(): can't open device \"/dev/ttyACM0\": Permission denied",
])
def test_a_serial_device_gets_its_group(message: str) -> None:
    d = diagnose(Situation(message))
    assert d is not None and d.rule == "shell.permission_denied.device"
    assert d.steps[0].command == f"sudo usermod -aG {d.details['group']} $USER"


# ---------------------------------------------------------------- no such file or directory


def test_cd_to_a_mistyped_folder_gets_the_close_names(tmp_path: Path) -> None:
    (tmp_path / "projects").mkdir()
    (tmp_path / "Documents").mkdir()
    done = subprocess.run(["bash", "-c", "cd projcets"], cwd=tmp_path, capture_output=True, text=True)
    d = diagnose(Situation(done.stderr, command="cd projcets", cwd=str(tmp_path)))
    assert d is not None and d.steps[0].command == "cd projects"
    d = diagnose(Situation("cd: no such file or directory: documents", cwd=str(tmp_path)))  # zsh
    assert d is not None and d.steps[0].command == "cd Documents"
    d = diagnose(Situation(f"bash: cd: {tmp_path}/projetcs/x: No such file or directory"))
    assert d is None  # projects/x does not exist either: no close path


def test_a_mistyped_file_argument_gets_the_close_name(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "report.csv").write_text("a\n")
    for message, command in [
        ("ls: cannot access 'data/reprot.csv': No such file or directory", "ls data/reprot.csv"),
        ("cat: data/reprot.csv: No such file or directory", "cat data/reprot.csv"),
        ("python3: can't open file '{d}/data/reprot.csv': [Errno 2] No such file or directory", None),
    ]:
        d = diagnose(Situation(message.format(d=tmp_path), command=command, cwd=str(tmp_path)))
        assert d is not None and d.rule == "shell.no_such_file", message
        assert d.details["close"].split(", ")[0].endswith("data/report.csv")
        if command:
            assert d.steps[0].command == command.replace("reprot", "report")
    (tmp_path / "build.sh").write_text("#!/bin/sh\n")
    for message in ("bash: ./buidl.sh: No such file or directory", "bash: line 1: ./buidl.sh: No such file or directory",
                    "zsh: no such file or directory: ./buidl.sh"):
        d = diagnose(Situation(message, command="./buidl.sh --fast", cwd=str(tmp_path)))
        assert d is not None and d.steps[0].command == "./build.sh --fast", message
    assert diagnose(Situation("cat: nothing-like-it.txt: No such file or directory", cwd=str(tmp_path))) is None
    python = diagnose(Situation("FileNotFoundError: [Errno 2] No such file or directory: 'nothing-like-it.txt'",
                                cwd=str(tmp_path)))  # Python's: where a relative path is looked for, no close name
    assert python is not None and "close" not in python.offer and "working folder" in python.steps[0].text
    assert diagnose(Situation("cat: data/reprot.csv: No such file or directory")) is None  # relative, cwd unknown


def test_a_missing_interpreter_points_at_one_that_exists(tmp_path: Path) -> None:
    script = tmp_path / "tool"
    script.write_text("#!/nonexistent/bin/sh\necho hi\n")
    script.chmod(0o755)
    done = subprocess.run(["bash", "-c", "./tool"], cwd=tmp_path, capture_output=True, text=True)
    assert "bad interpreter" in done.stderr or "required file not found" in done.stderr  # bash < 5.1, >= 5.1
    d = diagnose(Situation(done.stderr, cwd=str(tmp_path)))
    assert d is not None and d.rule == "shell.bad_interpreter"
    assert commands(d).startswith("sed -i '1s|^#!.*|#!/") and commands(d).endswith("/sh|' ./tool")
    crlf = tmp_path / "crlf.sh"
    crlf.write_bytes(b"#!/bin/sh\r\necho hi\r\n")
    crlf.chmod(0o755)
    done = subprocess.run(["bash", "-c", "./crlf.sh"], cwd=tmp_path, capture_output=True, text=True)
    d = diagnose(Situation(done.stderr, cwd=str(tmp_path)))
    assert d is not None and d.rule == "shell.bad_interpreter.crlf"
    assert d.steps[0].command == "sed -i 's/\\r$//' ./crlf.sh"


def test_a_missing_env_interpreter_is_a_command_not_found(path_bin: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    db = command_db(tmp_path / "commands.db", {"pythonx": [("python-is-pythonx", 0)]})
    monkeypatch.setattr(shell_errors, "CNF_DATABASES", (str(db),))
    d = diagnose(Situation("/usr/bin/env: ‘pythonx’: No such file or directory"))
    assert d is not None and d.steps[0].command == "sudo apt install python-is-pythonx"


# ---------------------------------------------------------------- local documentation


def test_command_docs_read_man_pages_and_run_only_allowed_programs(path_bin: Path) -> None:
    command_docs.command_doc.cache_clear()
    # an unknown program on PATH is never executed for its --help (it would write ran-frobnicate)
    assert command_docs.command_doc("frobnicate") is None
    assert not (path_bin.parent / "ran-frobnicate").exists()
    for bad in ("", "-rf", "a b", "x;rm", "../x", "$(id)"):
        assert command_docs.command_doc(bad) is None
    if shutil.which("git"):
        doc = command_docs.command_doc("git")
        assert doc, "git has a man page or an allowed --help"
        if command_docs.man_summary("git"):
            assert "content tracker" in command_docs.man_summary("git")
    if command_docs.man_summary("ls"):
        assert "list directory contents" in command_docs.man_summary("ls")


def test_every_diagnosis_is_complete(path_bin: Path, tmp_path: Path) -> None:
    for _family, rule in all_rules():
        for example in rule.examples:
            d = diagnose(Situation(example))
            assert d is not None, example
            assert d.problem and d.offer and d.steps and all(s.text for s in d.steps), d
    assert stat.S_IMODE(os.stat(tmp_path).st_mode)  # tmp_path exists; no diagnosis wrote into it


def test_the_benchmark_cases_get_their_expected_step(path_bin: Path) -> None:
    """bench/help_cases/shell.toml: every case's expected substrings are in the steps given (texts or commands)."""
    import tomllib

    cases = tomllib.loads((Path(__file__).resolve().parent.parent / "bench" / "help_cases" / "shell.toml")
                          .read_text(encoding="utf-8"))["case"]
    assert len(cases) >= 20
    for case in cases:
        if "gti" in case["error"] and shutil.which("git") is None:
            continue
        d = diagnose(Situation(case["error"], command=case.get("command"), cwd=case.get("cwd")))
        assert d is not None, case["error"]
        steps = "\n".join([*(s.text for s in d.steps), *(s.command or "" for s in d.steps)])
        for expected in case["expect"]:
            assert expected in steps, (case["error"], expected, d.steps)
