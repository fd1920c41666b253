"""Text selected with the mouse (the PRIMARY selection) is a copy: an error selected in a terminal is captured, told
as "The user selects … in the terminal.", and grounds the same offer as a copied one; the same privacy rules hold
(a marked owner is never read, a password-shaped selection is a secret); selecting then copying is one copy.

Real parts: `proactive watch` on Xvfb with a real xterm selected by xdotool's mouse, xclip and a Qt owner on
PRIMARY; on headless sway, wl-copy --primary; the pipeline, the episode builder and the assistant's decision path
over real stores."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from proactive.watcher.capture.clipboard import OneCopy, clip_event, secret_event
from proactive.watcher.episodes.builder import build_episodes
from proactive.watcher.events import CLIPBOARD, WINDOW, RawEvent

from . import test_clipboard_secrets as clipboard_tests
from .conftest import WatcherProcess, all_bytes, run_pipeline, wait_for
from .test_clipboard_secrets import HINT, Owner, clipboard_rows, wait_rows, x11_targets
from .wayland_session import WaylandSession
from .xsession import XSession

TRACEBACK = ('Traceback (most recent call last):\n  File "client.py", line 3, in <module>\n    import numpyy\n'
             "ModuleNotFoundError: No module named 'numpyy'")
PASSWORD = "q7Xk2mPz9LwR4tYb8NcV"  # password-shaped: random letters and digits (watcher/privacy/secret_shape.py)


def selected(text: str, **data: object) -> RawEvent:
    """A PRIMARY selection of `text` as the sources emit it (`data`: fields to change)."""
    event = clip_event(text, 2000)
    event.data.update(selection="primary", **data)
    return event


def secret_selected() -> RawEvent:
    """A PRIMARY selection whose owner marks it a secret, as the sources emit it."""
    event = secret_event()
    event.data["selection"] = "primary"
    return event


# -- the rule that tells select-then-copy once ------------------------------------------------------------------------

def test_select_then_copy_is_one_copy_and_a_selection_repeated_is_not_new():
    one = OneCopy(window=2.0)
    assert one.is_new(selected("ValueError: bad"))
    assert not one.is_new(clip_event("ValueError: bad", 2000))  # the copy key pressed on that selection
    assert not one.is_new(selected("ValueError: bad"))  # the same text selected again
    assert one.is_new(clip_event("something else", 2000))
    assert not one.is_new(selected("something else"))  # a terminal that sets PRIMARY after the copy too
    assert one.is_new(clip_event("something else", 2000))  # the same text copied twice: two copies, as before
    assert one.is_new(selected("something else, longer"))


def test_a_copy_long_after_the_selection_is_a_new_moment():
    one = OneCopy(window=0.05)
    assert one.is_new(selected("ValueError: bad"))
    time.sleep(0.1)
    assert one.is_new(clip_event("ValueError: bad", 2000))


def test_what_was_not_read_is_always_new():
    """A secret (no text read) or a text too large is never taken for the one before it: nothing compares them."""
    one = OneCopy()
    assert one.is_new(secret_selected())
    assert one.is_new(secret_event())
    assert one.is_new(secret_selected())
    big = selected("x" * 10, length=None, truncated=True)
    assert one.is_new(big) and one.is_new(clip_event("x" * 10, 2000))
    # a text cut at the same place but of another length is another text
    assert one.is_new(selected("abc", length=5)) and one.is_new(selected("abc", length=6))


# -- the sentence -----------------------------------------------------------------------------------------------------

def sentences(*events: RawEvent) -> str:
    stream = [RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell"}, ts=100.0), *events]
    for i, event in enumerate(stream):
        event.ts = 100.0 + i
    return " ".join(s for e in build_episodes(enumerate(stream, 1)) for s in e.sentences)


def test_a_selection_is_told_as_selected_with_a_copied_error_s_quoting():
    copied = sentences(clip_event(TRACEBACK, 2000))
    told = sentences(selected(TRACEBACK))
    assert told == copied.replace("The user copies", "The user selects").replace(" from the terminal.",
                                                                                " in the terminal.")
    assert ("The user selects an error message starting 'Traceback (most recent call last):', saying 'File "
            "\"client.py\", line 3, in <module>', saying 'import numpyy' and ending 'ModuleNotFoundError: No module "
            "named 'numpyy'' in the terminal.") in told
    assert "The user selects 'make: Nothing to be done for all' in the terminal." in sentences(
        selected("make: Nothing to be done for all"))
    assert "The user selects a secret in the terminal." in sentences(secret_selected())
    assert "The user selects a large piece of content in the terminal." in sentences(
        selected("", length=None, truncated=True))
    # a copy's sentence is as it was
    assert "The user copies a secret from the terminal." in sentences(secret_event())


def test_a_selection_goes_through_the_privacy_filter_as_a_copy_does(proactive_home: Path):
    """The real pipeline: a password-shaped selection is a secret selection (its text nowhere), an ordinary one is
    kept with its mark, a selection in a password manager is not kept at all."""
    raw, episodes = run_pipeline([
        RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell", "process": "xterm"}),
        selected(PASSWORD),
        selected("ls: cannot access 'x': No such file or directory"),
        RawEvent("window", WINDOW, {"app": "KeePassXC", "title": "vault", "process": "keepassxc"}),
        selected("kept in the vault"),
    ])
    assert PASSWORD not in raw + episodes and PASSWORD[:7] not in raw + episodes
    assert "kept in the vault" not in raw + episodes
    assert "'private': True" in raw and raw.count("'selection': 'primary'") == 2, raw
    assert "The user selects a secret in the terminal." in episodes, episodes
    assert "The user selects an error message starting 'ls: cannot access" in episodes, episodes


# -- the assistant: a selected error is a copied one ------------------------------------------------------------------

def decided(home: Path, data: dict) -> tuple[object, object, list]:
    """The assistant's decision after `data` (a clipboard event's) in a terminal, through the real path: the
    pipeline (`Watcher`) writing to `home`'s database and handing each batch and episode to the `Assistant`,
    whose trigger sees the moment; the shipped reward and need model gate it, the fake model ranks. Returns the
    proposal, the grounding and the context it was made from."""
    from proactive.assistant.grounding import ground
    from proactive.watcher import control

    from .conftest import ListSource, assistant_watching

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PROACTIVE_HOME", str(home))
        source = ListSource([RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell", "process": "xterm"}),
                             RawEvent("clipboard", CLIPBOARD, data)])
        with assistant_watching(source) as (assistant, store, _):
            assert control.wait_flushed(control.request_flush(), 10), "the watcher did not write"
            proposal = assistant.step(store, now=time.time() + 2)  # the moment settled (trigger.settle_s)
            context, _, _ = assistant.context(store)
            return proposal, ground(context), context


def test_a_selected_error_grounds_the_same_offer_as_a_copied_one(tmp_path: Path):
    copy = {"text": TRACEBACK, "length": len(TRACEBACK), "truncated": False}
    (tmp_path / "copied").mkdir()
    (tmp_path / "selected").mkdir()
    by_copy, grounded_copy, context_copy = decided(tmp_path / "copied", copy)
    by_selection, grounded, context = decided(tmp_path / "selected", dict(copy, selection="primary"))
    assert "The user selects an error message starting" in context[-1]["event"]
    assert context[-1].get("copies") == [TRACEBACK] == context_copy[-1].get("copies")  # the whole text read
    assert grounded.to_json() == grounded_copy.to_json()
    assert by_copy is not None and by_selection is not None
    assert by_selection.trigger == by_copy.trigger == "moment"
    assert by_selection.task == by_copy.task and by_selection.task is not None and "numpyy" in by_selection.task
    assert by_selection.decision.gate.p_need == by_copy.decision.gate.p_need


def stored(home: Path, text: str) -> None:
    """Waits until the watcher has stored a copy or selection of `text`."""
    wait_for(lambda: any(r["text"] == text for r in clipboard_rows(home)), timeout=30, what=f"{text!r} stored")


# -- X11: a real xterm, xclip and a Qt owner under `proactive watch` ---------------------------------------------------

#: xterm's copy key (it has none by default): Ctrl+Shift+C copies the selection to the CLIPBOARD
COPY_KEY = "XTerm*VT100.translations: #override Ctrl Shift <Key>C: copy-selection(CLIPBOARD)"


def printing_xterm(xsession: XSession, text: str) -> str:
    """A real xterm that prints `text` at its top, then waits; focused. Returns its window id."""
    term = xsession.start_xterm("build shell", command=["sh", "-c", 'printf "%s\\n" "$1"; exec cat', "sh", text],
                                resources=(COPY_KEY,))
    xsession.activate(term)
    return term


def drag_select(xsession: XSession, term: str, lines: int) -> None:
    """Selects the first `lines` lines of the xterm with the mouse, as a person does: press on the first
    character, drag through to the end of the last line, release."""
    geometry = xsession.xdotool("getwindowgeometry", term).split("Geometry:")[1].split()[0]
    width, height = (int(n) for n in geometry.split("x"))
    row = (height - 4) / 24  # 24 rows, xterm's 2-pixel inner border
    xsession.xdotool("mousemove", "--window", term, "3", str(int(2 + row / 2)))
    xsession.xdotool("mousedown", "1")
    for i in range(1, 6):  # the drag's way, in steps: xterm extends the selection as the pointer goes
        y = 2 + row * (lines - 1) * i / 5 + row / 2
        xsession.xdotool("mousemove", "--window", term, str(int(width * i / 5) - 3), str(int(y)))
        time.sleep(0.05)
    xsession.xdotool("mouseup", "1")


@pytest.mark.x11
def test_x11_an_error_selected_with_the_mouse_in_xterm_is_stored_and_told(xsession: XSession, proactive_home: Path):
    term = printing_xterm(xsession, TRACEBACK)
    watcher = WatcherProcess(proactive_home, xsession.env)
    try:
        drag_select(xsession, term, 4)
        rows = wait_rows(proactive_home, 1, "the selection")
        watcher.flushed()
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    rows = clipboard_rows(proactive_home)
    assert len(rows) == 1 and rows[0]["selection"] == "primary", rows
    assert rows[0]["text"].strip() == TRACEBACK, rows
    told = " ".join(e["event"] for e in watcher.episodes())
    assert ("The user selects an error message starting 'Traceback (most recent call last):'" in told
            and "ending 'ModuleNotFoundError: No module named 'numpyy'' in the terminal." in told), told
    assert "copies" not in told, told


@pytest.mark.x11
def test_x11_select_then_copy_is_one_copy(xsession: XSession, proactive_home: Path):
    """The error selected, then xterm's copy key: both selections hold the text, one copy is stored; a
    selection of the same text again is not a new one; a copy of something else is."""
    term = printing_xterm(xsession, TRACEBACK)
    watcher = WatcherProcess(proactive_home, xsession.env)
    try:
        drag_select(xsession, term, 4)
        xsession.key("ctrl+shift+c")
        wait_for(lambda: "numpyy" in subprocess.run(["xclip", "-selection", "clipboard", "-o"], env=xsession.env,
                                                    capture_output=True, text=True, timeout=10).stdout,
                 timeout=10, what="xterm's copy on the clipboard")
        wait_rows(proactive_home, 1, "the selection")
        drag_select(xsession, term, 4)  # the same text selected again
        time.sleep(1.0)  # (longer than the selection takes to settle and be read)
        xsession.copy("an ordinary copy after it")
        stored(proactive_home, "an ordinary copy after it")
        watcher.flushed()
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    rows = clipboard_rows(proactive_home)
    assert [r["text"].strip() for r in rows] == [TRACEBACK, "an ordinary copy after it"], rows
    told = " ".join(e["event"] for e in watcher.episodes())
    assert told.count("error message starting 'Traceback") == 1, told


@pytest.mark.x11
def test_x11_a_password_selected_with_xclip_is_a_secret_selection(xsession: XSession, proactive_home: Path):
    term = xsession.start_xterm("vault notes", command=["cat"])
    xsession.activate(term)
    watcher = WatcherProcess(proactive_home, xsession.env)
    try:
        xsession.copy(PASSWORD, selection="PRIMARY")
        wait_rows(proactive_home, 1, "the password's selection")
        xsession.copy("an ordinary selection", selection="PRIMARY")
        wait_rows(proactive_home, 2, "the ordinary selection")
        watcher.flushed()
        live = all_bytes(proactive_home)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    rows = clipboard_rows(proactive_home)
    assert [(r.get("private", False), r["selection"], r["text"]) for r in rows] == [
        (True, "primary", ""), (False, "primary", "an ordinary selection")], rows
    told = " ".join(e["event"] for e in watcher.episodes())
    assert "The user selects a secret in the terminal." in told, told
    assert "The user selects 'an ordinary selection' in the terminal." in told, told
    watcher.assert_nowhere(PASSWORD, live, err)


@pytest.mark.x11
def test_x11_a_marked_owner_of_primary_is_never_read(xsession: XSession, proactive_home: Path):
    """A Qt owner (as a password manager) sets PRIMARY with `x-kde-passwordManagerHint`: only the fact of it is
    stored; its ordinary selection after it is kept."""
    term = xsession.start_xterm("vault notes", command=["cat"])
    xsession.activate(term)
    secret = "Kp0Hunter2SecretZq0xSel7"
    watcher = WatcherProcess(proactive_home, xsession.env)
    owner = None
    try:
        owner = Owner(dict(xsession.env, QT_QPA_PLATFORM="xcb"), primary=True)
        owner.copy(secret, secret=True)
        assert HINT in x11_targets(xsession.env, "primary")  # the mark is on PRIMARY beside the text
        wait_rows(proactive_home, 1, "the marked selection")
        owner.copy("an ordinary selection from the owner")
        wait_rows(proactive_home, 2, "the owner's ordinary selection")
        watcher.flushed()
        live = all_bytes(proactive_home)
    finally:
        if owner is not None:
            owner.stop()
        code, err = watcher.stop()
    assert code == 0, err
    rows = clipboard_rows(proactive_home)
    assert [(r.get("private", False), r["selection"], r["text"]) for r in rows] == [
        (True, "primary", ""), (False, "primary", "an ordinary selection from the owner")], rows
    assert rows[0]["length"] is None
    told = " ".join(e["event"] for e in watcher.episodes())
    assert "The user selects a secret in the terminal." in told, told
    watcher.assert_nowhere(secret, live, err)


# -- Wayland (headless sway): wl-copy --primary -----------------------------------------------------------------------

sway = clipboard_tests.sway  # the module's headless sway (a fixture)


def select_on_wayland(sway: WaylandSession, text: str) -> None:
    """Sets the PRIMARY selection as a client selecting text does (wl-copy stays as its owner)."""
    sway.spawn(["wl-copy", "--primary", "--foreground", "--", text])
    wait_for(lambda: subprocess.run(["wl-paste", "--primary", "--no-newline"], env=sway.env, capture_output=True,
                                    text=True, timeout=10).stdout == text, timeout=10, what="the selection")


def test_wayland_a_selection_is_stored_and_a_password_selected_is_a_secret(sway: WaylandSession,
                                                                           proactive_home: Path):
    sway.start_foot("vault notes")
    watcher = WatcherProcess(proactive_home, sway.env)
    try:
        select_on_wayland(sway, "ls: cannot access 'x': No such file or directory")
        wait_rows(proactive_home, 1, "the ordinary selection")
        select_on_wayland(sway, PASSWORD)
        wait_rows(proactive_home, 2, "the password's selection")
        select_on_wayland(sway, PASSWORD)  # the same again (told after the copy below): not a new selection
        sway.copy("an ordinary copy after it")
        wait_rows(proactive_home, 3, "the copy after it")
        watcher.flushed()
        live = all_bytes(proactive_home)
    finally:
        code, err = watcher.stop()
        sway.close()
    assert code == 0, err
    rows = clipboard_rows(proactive_home)
    assert [(r.get("private", False), r.get("selection"), r["text"]) for r in rows] == [
        (False, "primary", "ls: cannot access 'x': No such file or directory"), (True, "primary", ""),
        (False, None, "an ordinary copy after it")], rows
    told = " ".join(e["event"] for e in watcher.episodes())
    assert ("The user selects an error message starting 'ls: cannot access 'x': No such file or directory' in the "
            "terminal.") in told, told
    assert "The user selects a secret in the terminal." in told, told
    assert "The user copies 'an ordinary copy after it' from the terminal." in told, told
    watcher.assert_nowhere(PASSWORD, live, err)


def test_wayland_select_then_copy_is_one_copy(sway: WaylandSession, proactive_home: Path):
    sway.start_foot("build shell")
    watcher = WatcherProcess(proactive_home, sway.env)
    try:
        select_on_wayland(sway, TRACEBACK)
        sway.copy(TRACEBACK)  # the copy key on that selection, a moment later
        sway.copy("an ordinary copy after it")
        stored(proactive_home, "an ordinary copy after it")
        watcher.flushed()
    finally:
        code, err = watcher.stop()
        sway.close()
    assert code == 0, err
    rows = clipboard_rows(proactive_home)
    assert [r["text"] for r in rows] == [TRACEBACK, "an ordinary copy after it"], rows
    assert len(rows) == 2, rows  # the text once, as selected or as copied (whichever was told first)
