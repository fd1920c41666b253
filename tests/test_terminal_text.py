"""Errors on screen, not only copied: a real VTE terminal (lxterminal) on a real X server with a
real accessibility bus. A failed command's output is read from the bus at the moment it ends, held in memory for
the offer and its Accept, and never stored: the watcher's database, its WAL and the logs hold none of it."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from proactive.watcher.capture.terminal_text import read_terminal

from .conftest import XSession, wait_for
from .test_atspi_x11 import A11ySession, a11y  # noqa: F401 - the fixture, used by name

pytestmark = pytest.mark.x11


def start_terminal(xsession: XSession, a11y: A11ySession, tmp_path: Path, title: str) -> str:  # noqa: F811
    env = dict(a11y.env, XDG_CONFIG_HOME=str(tmp_path / "config"), PS1="$ ")
    proc = subprocess.Popen(["lxterminal", "--no-remote", "-t", title, "--command=sh"], env=env, cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    xsession.procs.append(proc)
    wid = wait_for(lambda: xsession._find(title), timeout=20, what="lxterminal")
    xsession.activate(wid)
    return wid


def test_the_terminal_s_text_is_read_from_the_bus(xsession: XSession, a11y: A11ySession, tmp_path: Path,  # noqa: F811
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "DISPLAY"):
        monkeypatch.setenv(key, a11y.env[key])
    start_terminal(xsession, a11y, tmp_path, "build shell")
    time.sleep(1.0)
    xsession.type("echo TerminalCanary42; ls /nonexistent-dir")
    xsession.key("Return")
    shown = wait_for(lambda: (t := read_terminal()) and "No such file" in t.text and t, timeout=10,
                     what="the terminal's text on the bus")
    assert "TerminalCanary42" in shown.text and "nonexistent-dir" in shown.text
    assert shown.title == "build shell"


OUTPUT_CANARY = "OutputCanary77"


def test_an_error_shown_in_a_vte_terminal_is_offered_and_helped_with_and_never_stored(
        xsession: XSession, a11y: A11ySession, proactive_home: Path, tmp_path: Path,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch, default_model) -> None:
    """A failing command run in lxterminal, nothing copied: the watcher stores the command line; at the moment,
    the assistant reads the command's output from the bus, offers help with its error (the built-in model and the
    shipped gate) and Accept gives the specific fix. The output (a canary the command prints, never typed) is in
    no file of the home folder: database, WAL, logs."""
    from proactive.assistant.agent import Agent
    from proactive.assistant.feedback import FeedbackMemory
    from proactive.assistant.help import do_task
    from proactive.assistant.live import Assistant, offer_context, recent_context
    from proactive.assistant.policy import Gate, Proactivity
    from proactive.assistant.screen import shown_error
    from proactive.assistant.trigger import TriggerPolicy
    from proactive.models.reward import load_default
    from proactive.watcher.store.database import Store

    from .conftest import WatcherProcess, all_bytes

    for key in ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "DISPLAY"):
        monkeypatch.setenv(key, a11y.env[key])
    command = """python3 -c 'print("Output" + "Canary77"); import numpyy'"""
    watcher = WatcherProcess(proactive_home, a11y.env)
    try:
        start_terminal(xsession, a11y, tmp_path, "py shell")
        time.sleep(1.0)
        xsession.type(command)
        xsession.key("Return")
        wait_for(lambda: (t := read_terminal()) and "numpyy" in t.text.split(command)[-1] and t, timeout=15,
                 what="the command's error on the bus")
        store = Store()
        wait_for(lambda: "presses Enter in the terminal" in str(recent_context(store)[0]), timeout=15,
                 what="the command line in the store")
        p = Proactivity.parse("medium")
        assistant = Assistant(None, Agent(default_model, k=3), Gate(load_default(), p), FeedbackMemory(),
                              TriggerPolicy(p.min_interval_s, min_gap_s=0), screen=shown_error)
        observations, episode_id, key = recent_context(store)
        proposal = assistant.think(store, observations, episode_id, "moment", time.time(), key)
        assert proposal.task is not None and "numpyy" in proposal.task, proposal.decision
        context = offer_context(store, proposal)  # the proposal's own observations: the output is in memory
        assert any(OUTPUT_CANARY in text for o in context for text in o.get("screen", ()))
        action = proposal.actions[proposal.task]
        result = do_task(None, context, proposal.task, action, search="off")
        assert "pip install numpy" in result.text or "numpy" in [s.command for s in result.steps], result.text
        store.close()
        live = all_bytes(proactive_home)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    everything = live + all_bytes(proactive_home) + err.encode() + watcher.stdout.encode()
    assert OUTPUT_CANARY.encode() not in everything
    assert b"numpyy" in everything  # the command line itself is stored, as any command is


def test_without_a_terminal_on_the_bus_the_command_alone_is_the_material(monkeypatch: pytest.MonkeyPatch,
                                                                         tmp_path: Path) -> None:
    """No accessibility bus (xterm, a bare X server): nothing is read, the observation is unchanged."""
    from proactive.assistant.screen import shown_error, with_screen

    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={tmp_path}/no-bus")
    monkeypatch.delenv("AT_SPI_BUS_ADDRESS", raising=False)
    assert shown_error("python3 app.py") is None
    observation = {"time": "1.0", "event": "The user types 'python3 app.py' and presses Enter in the terminal."}
    assert with_screen([observation], shown_error) == [observation]


@pytest.mark.parametrize(("screen", "command", "output"), [
    ("$ ls\napp.py\n$ python3 app.py\nTraceback (most recent call last):\nKeyError: 'x'\n$ ",
     "python3 app.py", "Traceback (most recent call last):\nKeyError: 'x'"),
    ("ana@box:~/w$ make\ncc main.c\nmain.c:1:10: fatal error: zlib.h: No such file or directory\nana@box:~/w$ ",
     "make", "cc main.c\nmain.c:1:10: fatal error: zlib.h: No such file or directory"),
    ("$ echo one\none\n$ clear", "python3 app.py", ""),  # the command is not on the screen: nothing guessed
    ("$ make\n$ make\nmake: Nothing to be done for 'all'.\n$ ", "make", "make: Nothing to be done for 'all'."),
])
def test_a_command_s_output_is_the_lines_between_it_and_the_next_prompt(screen: str, command: str,
                                                                         output: str) -> None:
    from proactive.assistant.screen import command_output

    assert command_output(screen, command) == output


@pytest.mark.parametrize(("output", "command", "error"), [
    ("ERROR: connection refused at db:5432\nINFO: retrying in 5s", "cat app.log", False),
    ("src/api.py:12:        raise KeyError: 'user'", "grep -rn Error src", False),
    ("2026-01-02 ERROR Traceback (most recent call last):\nValueError: bad row", "tail -n 20 worker.log", False),
    ("E: Unable to locate package foo", "cat log | grep E: | head -3", False),
    ("cat: notes.txt: No such file or directory", "cat notes.txt", True),
    ("grep: missing.txt: No such file or directory", "grep -n TODO missing.txt", True),
    ("tail: cannot open 'x.log' for reading: No such file or directory", "sudo tail -f x.log", True),
    ("ERROR: boom\nTraceback (most recent call last):\nKeyError: 'x'", "cat in.csv | python3 parse.py", True),
    ("E: Unable to locate package foo", "sudo apt install foo", True),
])
def test_a_command_that_shows_content_errs_only_in_its_own_name(output: str, command: str, error: bool) -> None:
    """`cat`, `grep`, `tail` print what they read: an error in a log or a match is the content's, and the moment
    is no error; their own failure ('cat: x: No such file or directory') still is."""
    from proactive.assistant.screen import holds_error

    assert holds_error(output, command) is error


def test_a_log_shown_with_cat_is_no_error_its_missing_file_is(xsession: XSession, a11y: A11ySession,  # noqa: F811
                                                              tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real VTE terminal: `cat` of a log full of errors is read from the bus and is no error of the command;
    `cat` of a file that is not there is."""
    from proactive.assistant.screen import shown_error

    for key in ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "DISPLAY"):
        monkeypatch.setenv(key, a11y.env[key])
    (tmp_path / "worker.log").write_text("ERROR: connection refused\nTraceback (most recent call last):\n"
                                         "KeyError: 'LogCanary'\n")
    start_terminal(xsession, a11y, tmp_path, "log shell")
    time.sleep(1.0)
    xsession.type("cat worker.log")
    xsession.key("Return")
    wait_for(lambda: (t := read_terminal()) and "LogCanary" in t.text, timeout=10, what="the log on the bus")
    assert shown_error("cat worker.log") is None
    xsession.type("cat no-such.log")
    xsession.key("Return")
    wait_for(lambda: (t := read_terminal()) and "no-such.log: No such file" in t.text, timeout=10,
             what="cat's own error on the bus")
    shown = shown_error("cat no-such.log")
    assert shown is not None and "No such file or directory" in shown
