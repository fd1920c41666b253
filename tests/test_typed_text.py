"""Typed text is what the person typed, end to end with the real programs on Xvfb while `proactive watch` runs.

In a terminal the keys are the text, except where a raw-mode editor reads them as commands: vim's normal mode
(`G`, `dd`, `x`, `ciw`), its command lines (`:w`, `:wq` said as what they do), never text; only insert mode's keys
are. A program printing while the person types adds nothing to the line. vim's modes never decide anything where
the terminal does not show what is typed: a key typed at vim's encryption-key prompts (`vim -x`, `:X`) is never
stored, whatever keys it holds (`o`, `i`, `:` that would change vim's mode). nano's keys are all text.
(Firefox's address bar, a link click and an editable page: tests/test_typed_text_firefox.py.)
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from proactive.watcher.events import HOTKEY, KEY, TEXT, WINDOW, RawEvent
from proactive.watcher.privacy.echo_state import VISIBLE, Reading
from proactive.watcher.privacy.editor_keys import VimModes
from proactive.watcher.privacy.stage import PrivacyStage
from proactive.watcher.store.home import Config

from .conftest import WatcherProcess, XSession, all_bytes, wait_for
from .raw_mode_support import foreground, vim
from .test_hidden_input import HIDDEN_LINE, Lines, at_shell, shell_xterm
from .test_raw_mode_watched import assert_run, wait_vim
from .test_terminal_secrets import XTERM

__all__ = ["vim"]  # the fixture (tests/raw_mode_support.py)


def vim_text(keys: list[str]) -> list[str]:
    """The lines vim's modes make of `keys` (a character, or a key's name: "esc", "enter"): what insert mode
    takes, each stretch ended by Escape, Enter or a new line; command lines not said as what they do."""
    modes, lines, line = VimModes(), [], ""
    for key in keys:
        step = modes.key("xterm", key if len(key) == 1 else None, key if len(key) > 1 else None)
        if step.end and line:
            lines.append(line)
            line = ""
        if step.drop:  # a command line said as what it does, or cancelled
            line = ""
        if step.text and len(key) == 1:
            line += key
        elif step.text and key == "enter" and line:
            lines.append(line)
            line = ""
    return [*lines, line] if line else lines


@pytest.mark.parametrize("keys, lines", [
    (["c", "i", "w", *"new", "esc"], ["new"]),  # a text object: `ciw` is the command
    (["d", "2", "w", "x", "A", *"end", "esc"], ["end"]),  # a count inside an operator, then x
    (["d", "i", "w", "g", "i", *"back", "esc"], ["back"]),  # `diw` deletes; `gi` inserts where it was left
    (["c", "3", "w", *"three", "esc"], ["three"]),
    (["y", "y", "p", "o", *"below", "esc", "u"], ["below"]),
    ([":", "w", "enter", "i", *"again", "esc"], ["again"]),  # `:w` said as saving; insert mode again after it
    ([":", *"s/a/b/", "enter"], [":s/a/b/"]),  # a command line not said is a line of its own
    (["r", "x", "f", "i", "Z", "Z"], []),  # an argument key (r's, f's) is no command; ZZ quits
], ids=["ciw", "d2w", "diw-gi", "c3w", "yyp-o", "w-then-insert", "substitute", "arguments"])
def test_vims_modes_from_its_keys(keys: list[str], lines: list[str]) -> None:
    """Only what insert mode takes is text, whatever normal-mode commands come before (operators with counts and
    text objects, argument keys)."""
    assert vim_text(keys) == lines


SHELL_READS = Reading(VISIBLE, raw=True, why="the shell's line editor", program="bash", shell=True)
VIM_READS = Reading(VISIBLE, raw=True, why="vim echoes", program="vim")


def test_a_line_editors_line_is_its_own_however_late_its_keys_are_handled() -> None:
    """The stage alone, its terminal's echo readings scripted, keys stamped with when they were pressed: the keys of
    a line are handled after its Enter started or ended vim (a starved watcher), the readings taken then showing
    the program that came after the line. The shell's `vim plain.txt` stays the shell's line, never vim's
    commands run into the text typed in vim; vim's `:q!` stays vim's command line, said as what it does, never cut
    into a text `:q` and a hidden `!`."""
    stage = PrivacyStage(Config())
    reading = [SHELL_READS]
    stage.filter.echo_reading = lambda: reading[0]  # type: ignore[method-assign]
    out = stage.take(RawEvent("window", WINDOW, dict(XTERM), ts=time.time()))

    def key(k: str, pressed: float | None = None) -> None:
        data = {"char": k} if len(k) == 1 else {"key": k}
        out.extend(stage.take(RawEvent("keyboard", KEY, data, ts=time.time() if pressed is None else pressed,
                                       xtime=1)))

    def late(keys: list[str], now_reads: Reading) -> None:
        """`keys` pressed now, handled once the program after them reads the terminal (past the readings' cache)."""
        pressed = time.time()
        time.sleep(0.3)
        reading[0] = now_reads
        for n, k in enumerate(keys):
            key(k, pressed + 0.02 * n)

    for k in "vim plain.t":
        key(k)
    late(["x", "t", "enter"], VIM_READS)
    time.sleep(0.3)
    for k in ["i", *"visible text", "esc", ":", "q"]:
        key(k)
    late(["!", "enter"], SHELL_READS)
    time.sleep(0.3)
    for k in [*"echo after vim", "enter"]:
        key(k)
    out += stage.flush(time.time())
    lines, line = [], ""
    for event in out:
        if event.kind == TEXT:
            line += "<hidden>" if event.data.get("hidden") else event.data.get("text") or ""
            if event.data.get("enter") or event.data.get("end") or event.data.get("hidden"):
                lines.append(line)
                line = ""
    assert lines == ["vim plain.txt", "visible text", "echo after vim"], out
    assert [e.data["combo"] for e in out if e.kind == HOTKEY] == [":q!"], out


def told(watcher: WatcherProcess) -> str:
    return "\n".join(e["event"] for e in watcher.episodes())


@pytest.mark.x11
def test_vims_commands_are_not_text_and_its_lines_end_with_it(xsession: XSession, proactive_home: Path,
                                                              tmp_path: Path, vim: str) -> None:
    """vim's normal-mode commands (`G`, `o`, `dd`, `x`, `ciw`, `A`) and command lines are not typed text; what
    insert mode takes is, each stretch a line of its own (ended by Escape or Enter); `:w` is said as saving and
    insert mode after it is text again; after `:wq` the shell's next line is its own, never glued to vim's;
    nano's keys (the same letters) are all text; a program printing while a line is typed adds nothing to it."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "notes.txt").write_text("first line\nsecond line\n")
    pty_path = shell_xterm(xsession, tmp_path, "vim modes", work)
    watcher = WatcherProcess(proactive_home, xsession.env, verbose=True)
    line = Lines(xsession, watcher)  # a line kept, or said, gets its Enter once the watcher has read the terminal
    try:
        line("vim -u NONE -N -n notes.txt")
        wait_vim(pty_path)
        xsession.type("Go")  # to the last line, a new line below it: commands
        xsession.type("note from vim")
        xsession.key("Escape")
        line.expected.append("note from vim")
        xsession.type("ggddx")  # delete the first line, then a character: commands
        xsession.type("ciwrewritten")  # change the first word: `ciw` is the command, `rewritten` the text
        xsession.key("Escape")
        line.expected.append("rewritten")
        watcher.enter_in_time(xsession, ":w")  # said as "saves the file", no typed line
        time.sleep(0.3)
        xsession.type("GAappended words")
        xsession.key("Return")  # Enter in insert mode ends the line there
        line.expected.append("appended words")
        xsession.type("and a last line")
        xsession.key("Escape")
        line.expected.append("and a last line")
        watcher.enter_in_time(xsession, ":wq")
        wait_vim(pty_path, present=False)
        line("echo after vim")  # a line of its own, never the end of vim's
        line("nano -I plain.txt")
        wait_for(lambda: "nano" in [n for _, n, _ in foreground(pty_path)], what="nano")
        time.sleep(0.5)
        line("Go dd x ciw :wq")  # in nano every key is text
        xsession.key("ctrl+x")
        time.sleep(0.3)
        xsession.type("n")  # do not save: the answer to nano's question begins the next line
        wait_for(lambda: [n for _, n, _ in foreground(pty_path)] == ["bash"] and at_shell(pty_path),
                 what="nano to quit")
        line("(sleep 1; echo PrintedByAProgram) &", stored="n(sleep 1; echo PrintedByAProgram) &")
        time.sleep(0.5)
        xsession.type("typed while it prints", delay_ms=120)  # the program's line appears meanwhile
        xsession.key("Return")
        line.expected.append("typed while it prints")
        watcher.flushed()
        live = all_bytes(proactive_home)
    finally:
        stopped = watcher.stop()
    assert_run(watcher, stopped, live, [], line.expected, proactive_home)
    assert (work / "notes.txt").read_text() == "rewritten line\nnote from vimappended words\nand a last line\n"
    said = told(watcher)
    assert "saves the file (:w)" in said and "saves the file and quits (:wq)" in said, said
    for command in ("'Go", "ggdd", "ciw", "'GA", "xrewritten"):
        assert command not in said, said


@pytest.mark.x11
def test_keys_at_vims_key_prompts_are_never_stored_whatever_mode_they_would_change(
        xsession: XSession, proactive_home: Path, tmp_path: Path, vim: str) -> None:
    """Keys typed where the terminal does not show them are judged as a hidden line, never by vim's modes: the
    key typed at `vim -x`'s prompt, and at `:X`'s in a plain vim, holds keys normal mode reads as commands and
    a quit command line (`:wq!`, `:x`), and is stored nowhere, not even said as saving or quitting; a line
    hidden as a prompt's answer stays hidden whole across those would-be mode changes. The
    lines around them are kept, and after vim quits the shell's lines are its own."""
    work = tmp_path / "work"
    work.mkdir()
    pty_path = shell_xterm(xsession, tmp_path, "vim keys", work)
    # keys vim's normal mode would read as commands ending in a quit command line (said as what it does)
    keys = ["KeQ7j:wq!", "Ke8jhN:x"]
    watcher = WatcherProcess(proactive_home, xsession.env, verbose=True)
    line = Lines(xsession, watcher)  # a line kept, or said, gets its Enter once the watcher has read the terminal
    try:
        line("echo before vim")
        line("vim -u NONE -N -n -x vault.txt")
        wait_vim(pty_path)
        line(keys[0], stored=HIDDEN_LINE)  # "Enter encryption key:"
        time.sleep(0.3)
        line(keys[0], stored=HIDDEN_LINE)  # "Enter same key again:"
        time.sleep(0.3)
        xsession.type("ivaultTextCanary9")  # everything typed in that vim is unseen: it may ask again
        xsession.key("Escape")
        line(":wq", stored=HIDDEN_LINE)  # one hidden line from `i` to the Enter: no mode splits it
        wait_vim(pty_path, present=False)
        assert (work / "vault.txt").read_bytes().startswith(b"VimCrypt~")
        line("echo between")
        line("vim -u NONE -N -n plain.txt")
        wait_vim(pty_path)
        xsession.type("ivisible text")
        xsession.key("Escape")
        line.expected.append("visible text")
        line(":X")  # a command line of its own, read for the key prompt it opens
        time.sleep(0.5)
        line(keys[1], stored=HIDDEN_LINE)
        time.sleep(0.3)
        line(keys[1], stored=HIDDEN_LINE)
        time.sleep(0.3)
        watcher.enter_in_time(xsession, ":q!")  # said as "quits without saving"
        wait_vim(pty_path, present=False)
        line("echo after vim")
        watcher.flushed()
        live = all_bytes(proactive_home)
    finally:
        stopped = watcher.stop()
    assert_run(watcher, stopped, live, [*keys, "vaultTextCanary9"], line.expected, proactive_home)
    said = told(watcher)
    assert "quits without saving (:q!)" in said, said
    assert "(:wq!)" not in said and "(:x)" not in said, said  # a key's commands are never said either


@pytest.mark.x11
def test_a_qt_editors_lines_are_its_own_and_its_programs_text_is_not_typed(
        xsession: XSession, proactive_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Qt multi-line editor on the accessibility bus, keys known (X11): each Enter (U+2029 in Qt's accessible
    text) ends a line, so the lines never run together; the line the program itself appends meanwhile was typed by
    no key and is not typed text."""
    from .a11y_app import PRINTED
    from .test_atspi_x11 import A11ySession, start_app

    session = A11ySession(tmp_path / "a11y", xsession.env).start()
    watcher = None
    try:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", session.env["DBUS_SESSION_BUS_ADDRESS"])
        monkeypatch.setenv("XDG_RUNTIME_DIR", session.env["XDG_RUNTIME_DIR"])
        watcher = WatcherProcess(proactive_home, session.env)
        time.sleep(1.0)
        wid = start_app(xsession, session.env, "Qt notes", "editor")
        shown = time.monotonic()
        xsession.activate(wid)
        time.sleep(0.5)
        xsession.type("first line of notes")
        xsession.key("Return")
        time.sleep(max(0.0, shown + 4.0 - time.monotonic()))  # the program's line is appended meanwhile
        xsession.type("second line")
        xsession.key("Return")
        xsession.type("third")
        time.sleep(1.5)
        watcher.flushed()
    finally:
        if watcher is not None:
            code, err = watcher.stop()
        session.stop()
    assert code == 0, err
    said = told(watcher)
    typed = re.findall(r"The user types '([^']*)'", said)
    assert typed == ["first line of notes", "second line", "third"], said
    assert PRINTED not in said, said
