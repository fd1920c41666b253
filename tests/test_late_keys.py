"""Keys read late by the watcher (stopped, starved, or held up by another process's lock on the database) while
a secret is typed at an echo-off prompt: the terminal's echo state read afterwards says nothing of the moment the
keys were typed, so those lines are hidden; lines read in time are kept (watcher/privacy/terminal_lines.py `_judge_line`). Through
the real pipeline with keys stamped as the X server stamps them and a real bash pty; and end to end with real xterm,
bash and prompting programs on Xvfb, `proactive watch` as a process."""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from proactive.watcher.capture.sources import Source
from proactive.watcher.events import KEY, WINDOW, RawEvent
from proactive.watcher.store.home import Config

from .conftest import ListSource, WatcherProcess, XSession, all_bytes, run_cli, wait_for
from .shell_pty import ShellPty
from .test_hidden_input import HIDDEN_LINE, at_shell, hidden_prompt, prepared_shell, stored_lines
from .test_store_stress import hold_lock
from .test_terminal_secrets import XTERM


class PressedKeys(Source):
    """Keys as the X11 keyboard source gives them, each emitted when it is read (in a thread) and stamped with the
    X server's time of its press (xtime): `late` seconds before it is read (0: at once, each key stamped as it is
    emitted; more: a stopped or starved watcher reading keys typed a while ago, at typing pace from `late` seconds
    before the stroke is emitted). `strokes`: (text, late, Enter after it, seconds waited before it)."""

    name = "pressed"

    def __init__(self, strokes: list[tuple[str, float, bool, float]], pause: float):
        self.strokes, self.pause, self.done = strokes, pause, threading.Event()
        # X time 0: a server counting on another clock than ours, 1000 s ahead of it (a local server's clock is
        # ours, which ServerOrder would read exactly: tests/test_ordering.py)
        self.base = time.time() - time.monotonic() - 1000
        self.ready = threading.Event()  # set: the watcher has started (keys typed before are read late)
        self.emitted = 0  # keys handed to the watcher so far

    def start(self, emit: Any) -> None:
        def press() -> None:
            assert self.ready.wait(30)
            for text, late, enter, wait in self.strokes:
                time.sleep(wait)
                pressed = time.time() - late  # the stroke's first press
                for key in [{"char": c} for c in text] + ([{"key": "enter"}] if enter else []):
                    gap = self.pause if "key" in key else 0.005
                    time.sleep(gap)
                    # a late stroke is stamped at its typing pace, not at the pace it is emitted: on a busy
                    # machine the sleeps stretch, and stamps that followed them would put the stroke's last
                    # presses after readings of a terminal that, in the test, already ran it
                    pressed += gap
                    xtime = int(((pressed if late else time.time()) - self.base) * 1000)
                    emit(RawEvent("keyboard", KEY, key, xtime=xtime))
                    self.emitted += 1
            self.done.set()

        threading.Thread(target=press, daemon=True).start()

    def stop(self) -> None:
        pass


@contextlib.contextmanager
def typing_in(terminal: ShellPty, source: PressedKeys) -> Iterator[Any]:
    """The real pipeline (`Watcher`, no database file) in `terminal`'s window, typed into by `source`: yields the
    started watcher once the keys begin; stops it after they all came."""
    from proactive.watcher.pipeline import Watcher

    watcher = Watcher(None, Config(), [ListSource([RawEvent("window", WINDOW, {**XTERM, "pid": terminal.pid})]),
                                       source], flush_interval=0.05)
    thread = threading.Thread(target=watcher.run)
    thread.start()
    try:
        assert watcher.started.wait(30)
        source.ready.set()
        yield watcher
        assert source.done.wait(30)
        # every key taken by the running pipeline (the window's event, then the keys), not by its stop
        wait_for(lambda: watcher.stats.events_in >= 1 + source.emitted, timeout=30, what="the keys handled")
    finally:
        watcher.stop()
        thread.join(10)


def test_a_line_whose_echo_was_read_only_after_it_was_sent_is_hidden(proactive_home: Path, terminal: ShellPty) -> None:
    """Keys handled long after they were pressed (a stopped or starved watcher): the terminal's echo state, read
    now at the shell, says nothing of the moment they were typed, when a program may have had echo off and has
    turned it on again since. Such a line is hidden (unseen), its words never stored as pieces either, however
    late it is read (two minutes: never taken for a clock that jumped); lines whose state was read while they
    were typed (before their Enter) are kept."""

    lines = [("echo before", 0), ("latepw4242", 15), ("echo between", 0), ("stalled pass phrase", 14),
             ("echo after", 0), ("stoppedpw9090", 120), ("echo last", 0)]
    source = PressedKeys([(text, late, True, 0.0) for text, late in lines]
                         # typed ahead (read at once), then, 0.8 s later, what a prompt that came meanwhile hid,
                         # read only after its Enter: the one reading in time is too old for those keys
                         + [("ahead", 0, False, 0.0), ("aheadpw7373", 0.7, True, 1.5)], pause=0.5)
    with typing_in(terminal, source):
        pass
    assert stored_lines() == ["echo before", HIDDEN_LINE, "echo between", HIDDEN_LINE, "echo after", HIDDEN_LINE, "echo last", HIDDEN_LINE]
    blob = all_bytes(proactive_home)
    for secret in (b"latepw4242", b"stalled", b"phrase", b"stoppedpw9090", b"aheadpw7373"):
        assert secret not in blob


@pytest.mark.x11
def test_a_watcher_that_reads_the_keys_late_never_stores_what_a_prompt_hid(xsession: XSession, proactive_home: Path,
                                                                           tmp_path: Path) -> None:
    """The watcher is stopped (SIGSTOP: a starved or swapped-out process) while a secret is typed at an echo-off
    prompt and the program, done, turns echo on again; it goes on (SIGCONT) and reads those keys after, when the
    terminal shows echo on. The keys carry the X server's time of their press, the readings their own: lines
    read only after they were sent are hidden, so no secret is stored, a passphrase's words included. The lines
    typed while the watcher runs are kept."""
    pty = prepared_shell(xsession, tmp_path, "late watcher")
    expected: list[str] = []
    canaries: list[str] = []

    watcher = WatcherProcess(proactive_home, xsession.env, verbose=True)

    def kept(text: str) -> None:  # a line typed while the watcher reads in time (the condition it is kept by)
        watcher.enter_in_time(xsession, text)
        expected.append(text)

    def unread(text: str) -> None:  # a line typed while the watcher is stopped
        xsession.type(text)
        xsession.key("Return")
        expected.append(HIDDEN_LINE)

    try:
        kept("echo first line")
        for command, secret, stalled_command in (("./sync.sh", "sttyLate1k8W", False),
                                                 ("./notes.py", "getpassLate horseCanary2x7Q staplezQ", False),
                                                 ("read -s -p 'Key: ' answer", "readsLate3m9E", True)):
            if stalled_command:
                watcher.pause_process()
                unread(command)
            else:
                kept(command)
            wait_for(lambda: hidden_prompt(pty), timeout=20, what=f"the prompt of {command!r}")
            if not stalled_command:
                watcher.pause_process()
            canaries.extend(secret.split())
            unread(secret)
            wait_for(lambda: at_shell(pty), timeout=20, what=f"{command!r} to finish")
            time.sleep(0.3)  # the program turned echo on again a while before the watcher reads its keys
            watcher.proc.send_signal(signal.SIGCONT)
            kept(f"echo after {command.split()[0]}")
        wait_for(lambda: len(stored_lines()) == len(expected), timeout=20, what="every line stored")
        live = all_bytes(proactive_home)
    finally:
        watcher.proc.send_signal(signal.SIGCONT)
        code, err = watcher.stop()
    assert code == 0, err
    out = run_cli("episodes", env=watcher.env).stdout + run_cli("episodes", "--json", env=watcher.env).stdout
    everything = live + all_bytes(proactive_home) + (out + err + watcher.stdout).encode()
    for canary in canaries:
        assert canary.encode() not in everything, f"{canary!r} leaked"
    assert stored_lines() == expected, watcher.echo_log()


@pytest.mark.x11
def test_a_secret_typed_while_another_process_locks_the_database_is_hidden(xsession: XSession, proactive_home: Path,
                                                                          tmp_path: Path) -> None:
    """Another process holds the database's write lock for 6 s while a command is typed, its echo-off prompt
    answered and a line typed after it: the watcher waits on the lock without holding up the keys, which are
    read in time (the prompt's line hidden, the others kept and written once the lock is gone)."""
    pty = prepared_shell(xsession, tmp_path, "locked store")
    watcher = WatcherProcess(proactive_home, xsession.env, verbose=True)
    expected = ["echo before the lock", "./sync.sh", HIDDEN_LINE, "echo during the lock"]
    try:
        watcher.enter_in_time(xsession, "echo before the lock")
        wait_for(lambda: stored_lines() == expected[:1], timeout=20, what="the first line stored")
        locker = hold_lock(proactive_home / "proactive.db", 6)
        watcher.enter_in_time(xsession, "./sync.sh")
        wait_for(lambda: hidden_prompt(pty), timeout=20, what="the prompt of ./sync.sh")
        xsession.type("lockedCanary5j2P")
        xsession.key("Return")
        wait_for(lambda: at_shell(pty), timeout=20, what="./sync.sh to finish")
        watcher.enter_in_time(xsession, "echo during the lock")
        assert locker.wait(timeout=20) == 0
        wait_for(lambda: len(stored_lines()) == len(expected), timeout=20, what="every line stored")
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    watcher.assert_nowhere("lockedCanary5j2P", b"", err)
    assert stored_lines() == expected, watcher.echo_log()


def test_readings_taken_after_a_lines_enter_neither_hide_it_by_echo_nor_make_it_an_answer(
        proactive_home: Path, terminal: ShellPty) -> None:
    """Keys are read a batch at a time (watcher/capture/keyboard.py): a command's keys and its Enter may be read
    together, after the Enter, when the program it started already asks for a password with echo off. Those
    readings are about that prompt, not the command line: the line is judged by the readings taken while it was
    typed (none here: hidden as unseen) and is still read as a command, so the command-line rules hide the line
    typed next even where the terminal shows it (a program that turns echo on between its prompts, as openssl
    does, or one whose echo cannot be read in time). Before, the late readings hid the command as an answer to a
    prompt, and the next line was stored."""

    command = "read -s -p 'Key: ' answer"
    # a line read in time first (the keys' times are read against the least delayed key's), then the command's
    # keys, pressed 0.25 s before they are read, and a second later the next line, read in time
    source = PressedKeys([("echo before", 0.0, True, 0.0), (command, 0.25, True, 1.0),
                          ("shownsecret5150", 0.0, True, 1.5)], pause=0.05)
    with typing_in(terminal, source) as watcher:
        first = 1 + len("echo before") + 1  # the window, the keys
        wait_for(lambda: watcher.stats.events_in >= first, timeout=20, what="the first line")
        terminal.run(command)  # the shell runs it before the watcher reads the keys that typed it
        terminal.wait_for(lambda echo, canonical: canonical and not echo)
        wait_for(lambda: watcher.stats.events_in >= first + len(command) + 1, timeout=20, what="the command")
        terminal.run("typed at the prompt")  # `read` has its line: the shell's prompt, echo on, before the next line
        terminal.wait_for(lambda echo, canonical: not canonical)
    lines = stored_lines()  # (the first, read as the watcher starts, may be read after its Enter: hidden then)
    assert len(lines) == 3 and lines[1:] == [HIDDEN_LINE, HIDDEN_LINE], lines
    assert b"shownsecret5150" not in all_bytes(proactive_home)
