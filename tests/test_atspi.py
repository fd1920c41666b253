"""The accessibility bus's events without a bus (fast): terminal prompts recognised from a terminal's text, the
role rule (nothing typed into a password field is kept, keys or AT-SPI text alike, failing closed on an unknown
role), and typed text rebuilt from text-changed events into the keyboard composer's sentences."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from proactive.watcher.capture.atspi import AtspiSource
from proactive.watcher.events import CLICK, FOCUS, HOTKEY, KEY, PROMPT, TYPED, WINDOW, RawEvent
from proactive.watcher.privacy.filter import PrivacyFilter, terminal_prompt
from proactive.watcher.store.home import Config

from .conftest import ListSource, keys, run_pipeline

PID = 4242


@pytest.mark.parametrize("text, expected", [
    ("[sudo] password for alice: ", "password"),
    ("alice@box:~$ sudo ls\r\n[sudo] password for alice: ", "password"),
    ("Password:", "password"),
    ("Passphrase: ", "password"),
    ("Enter passphrase for key '/home/alice/.ssh/id_ed25519': ", "password"),
    ("alice@example.org's password: ", "password"),
    ("Password for 'https://alice@github.com': ", "password"),
    ("Username for 'https://github.com': ", "username"),
    ("Enter PIN for 'token': ", "password"),
    ("New password: ", "password"),
    ("Enter password:", "password"),
    ("alice@box:~$ ", None),
    ("alice@box:~$ grep Password: notes.txt", None),
    ("Password changed.\nalice@box:~$ ", None),
    ("[sudo] password for alice: \nSorry, try again.\n", None),  # the prompt is not the last line any more
    ("Passwords:", None),
    ("", None),
    ("see docs/password.md for details", None),
])
def test_terminal_prompts(text: str, expected: str | None):
    assert terminal_prompt(text) == expected


def window(app: str = "a11y_app.py", title: str = "Sign-up form", pid: int | None = PID,
           process: str = "python3") -> RawEvent:
    return RawEvent("window", WINDOW, {"app": app, "title": title, "pid": pid, "process": process})


def focus(role: str | None, pid: int | None = PID) -> RawEvent:
    return RawEvent("atspi", FOCUS, {"app": "a11y_app.py", "title": "Sign-up form", "role": role, "pid": pid})


def typed(text: str = "", role: str | None = "text", erase: int = 0, obj: str = ":1.5/field/1") -> RawEvent:
    data = {"text": text} if text else {"erase": erase}
    return RawEvent("atspi", TYPED, {**data, "role": role, "app": "a11y_app.py", "pid": PID, "object": obj})


def typing(text: str, role: str | None = "text", obj: str = ":1.5/field/1") -> list[RawEvent]:
    """Text typed into a field as a toolkit tells it: one insertion per key (an insertion of many characters at
    once is no typing: watcher/privacy/typed_keys.py)."""
    return [typed(char, role, obj=obj) for char in text]


@pytest.mark.parametrize("events, accepts", [
    ([window()], True),
    ([window(), focus("text")], True),
    ([window(), focus("password text")], False),
    ([window(), focus("password text"), focus("text")], True),
    ([window(), focus("password text", pid=None)], False),  # the field's application unknown: closed
    ([window(pid=None), focus("password text")], False),  # the window's pid unknown: closed
    ([window(), focus("password text"), window("XTerm", "shell", 77, "xterm")], True),  # another window
    ([window(), focus("password text"), window("XTerm", "shell", 77, "xterm"), window()], False),  # back again
    ([window(), focus(None)], True),  # an unknown role is not a password field for keys...
], ids=["window", "text", "password", "password-then-text", "unknown-app", "unknown-window", "other-window",
        "back", "unknown-role"])
def test_focused_role_decides_whether_keys_are_kept(events: list[RawEvent], accepts: bool):
    f = PrivacyFilter(Config())
    for event in events:
        if event.kind == FOCUS:
            f.focus(event.data)
        else:
            f.clean(event)
    assert f.accepts_keys() is accepts


@pytest.mark.parametrize("role, kept", [("text", True), ("entry", True), ("paragraph", True),
                                         ("password text", False), (None, False)])
def test_typed_text_is_kept_by_role(role: str | None, kept: bool):
    """...but typed text from a widget whose role is unknown is dropped (fail closed)."""
    f = PrivacyFilter(Config())
    f.clean(window())
    assert f.accepts_typed(typed("x", role).data) is kept
    assert f.clean(typed("x", role)) is None  # never stored as such: the composer makes TEXT of it


class X11Replay(ListSource):
    """Events as X11 delivers them: keys from a key logger (the RECORD extension) and the accessibility bus's events, whose
    applications (`bus_pids`) type through the bus."""

    gives_keys = True

    def __init__(self, events: list[RawEvent], bus_pids: set[int]):
        super().__init__(events)
        self.bus_pids = bus_pids

    def types_in(self, pid: int | None) -> bool:
        return pid in self.bus_pids

    def start(self, emit) -> None:
        for event in self.events:
            if event.kind == TYPED:  # an application that sends events is on the bus (AtspiSource._app)
                self.bus_pids.add(event.data.get("pid"))
            emit(event)


@pytest.mark.parametrize("events, sentence", [
    ([typed("h"), typed("e"), typed("l"), typed("l"), typed("o")], "The user types 'hello' in Sign-up form"),
    ([*typing("hellp"), typed(erase=1), *typing("o world")], "The user types 'hello world' in Sign-up form"),
    ([*typing("ls -l"), typed("\n")], "The user types 'ls -l' and presses Enter in Sign-up form"),
    ([*typing("one"), typed("\r\n"), *typing("two")], "The user types 'one' and presses Enter in Sign-up form"),
    ([*typing("Essay"), typed("\u2029"), *typing("Pamphlets")], "The user types 'Essay' and presses Enter in Sign-up"),
    ([*typing("127"), typed(".0.0.1/config.html"), *typing("/x")], "The user types '127/x' in Sign-up form"),
], ids=["chars", "erase", "enter", "crlf", "qt-paragraph", "completion"])
def test_typed_text_rebuilt_like_keys(proactive_home, events: list[RawEvent], sentence: str):
    raw, episodes = run_pipeline([window(), focus("text"), *events])
    assert sentence in episodes, episodes


def test_password_field_dropped_keys_and_typed_text(proactive_home, terminal):
    events = [window(), focus("text"), *keys("visible words"),
              focus("password text"), *keys("KeyCanary77"), *typing("TypedCanary88", "password text"),
              focus("text"), *typing(" more", "text"), *typing("RoleUnknown99", None),
              window("XTerm", "shell", terminal.pid, "xterm"), *keys("echo in xterm\n")]
    raw, episodes = run_pipeline(events)
    blob = raw + episodes
    for canary in ("KeyCanary77", "TypedCanary88", "RoleUnknown99", "Canary", "anary77"):
        assert canary not in blob
    # keys in a window that is no terminal come with no field (a focus event is a hint, not the field that took
    # them): counted, never their text; the bus's text from a "text" field is kept
    assert "visible words" not in blob and "types 13 characters" in episodes, episodes
    assert "'more'" in episodes and "echo in xterm" in episodes
    assert "'role'" not in raw and "password text" not in raw  # FOCUS/TYPED are never stored


def test_text_is_judged_by_its_own_field_not_by_the_focus_event(proactive_home):
    """On a busy machine the accessibility bus delivers focus events and text out of step: the password field's
    focus event before the name field's last characters, another field's text before its focus event. Each text
    event counts for the field that emitted it: the name is kept whole, the password nowhere, and a field's text
    never continues another field's line."""
    name, password, other = ":1.5/field/1", ":1.5/field/2", ":1.5/field/3"
    events = [window(), focus("text"), *typing("Member nam", obj=name),
              focus("password text"),  # the hint arrives early...
              typed("e", obj=name),  # ...before the name field's last character
              *typing("Heron3Secret!", "password text", obj=password),
              *typing("Chess club", obj=other),  # a third field's text before its focus event
              focus("text")]
    raw, episodes = run_pipeline(events)
    assert "Heron3" not in raw + episodes and "Secret!" not in raw + episodes
    assert "'Member name'" in episodes and "'Chess club'" in episodes, episodes


def test_x11_keys_give_way_to_the_bus_text_of_the_field_that_took_them(proactive_home, terminal):
    """X11 on a busy machine: the keys of a name, Tab and a password reach the watcher at once, the focus event
    that says "password field" only after all of them. In an application on the accessibility bus its own text
    events name the field of each piece: the name is kept once, the password nowhere. In a terminal (its
    process holds a pseudo-terminal) and in a window not on the bus the keys count, and the bus's text from
    another process (a program filling a field) is not the person's typing. In a window not on the bus the keys
    are counted, never kept: nothing there says which field took them."""
    form, password, other = ":1.5/field/1", ":1.5/field/2", ":1.9/field/1"
    term = window("XTerm", "shell", terminal.pid, "xterm")
    background = RawEvent("atspi", TYPED, {"text": "filled by a program", "role": "text", "app": "chat",
                                           "pid": 4242, "object": other})
    events = [window(), focus("text"), *keys("Member name\tHeron3Secret!"),
              *typing("Member name", obj=form), *typing("Heron3Secret!", "password text", obj=password),
              focus("password text"),  # late: after every key and the text
              term, background, *keys("echo from the terminal\n"),
              window("Notes", "todo", 77, "notes"), *keys("plain keys here\n")]
    raw, episodes = run_pipeline(events, X11Replay(events, {PID, terminal.pid, 4242}))
    assert "Heron3" not in raw + episodes and "Secret!" not in raw + episodes
    assert episodes.count("Member name") == 2, episodes  # once: in the episode's text and in its sentence
    assert "echo from the terminal" in episodes and "plain keys here" not in raw + episodes, episodes
    assert "types 15 characters in todo in Notes" in episodes, episodes
    assert "filled by a program" not in raw + episodes


def test_x11_keys_typed_before_the_application_is_seen_on_the_bus_are_dropped(proactive_home):
    """An application that registers on the bus after its window maps: its first keys are judged by the focus
    (no password focus seen yet), then its first text event arrives; the keys still held are dropped, not
    stored twice or under a late focus event, and the keys typed once it is seen are matched to its text."""
    events = [window(), *keys("Heron3Secret!"), *typing("Heron3Secret!", "password text", obj=":1.5/field/2"),
              *keys("Member name"), *typing("Member name", obj=":1.5/field/1"),
              RawEvent("window", WINDOW, {"app": "XTerm"})]
    raw, episodes = run_pipeline(events, X11Replay(events, set()))
    assert "Heron3" not in raw + episodes and "Secret!" not in raw + episodes
    assert "'Member name'" in episodes, episodes


BAR = ":1.5/urlbar"
HOTKEY_L = RawEvent("keyboard", HOTKEY, {"combo": "ctrl+l"})
#: Firefox's address bar as the bus tells it (seen live): typing `127.0` over the selected address deletes what
#: differs and keeps the `1` it held, inline completion inserts the rest of an address, and a navigation rewrites it
ADDRESS_TYPED = [typed(erase=15, obj=BAR), typed(erase=38, obj=BAR), *typing("27.0", obj=BAR),
                 typed("http://", obj=BAR), typed(".0", obj=BAR), typed(".1:8765/config.html", obj=BAR)]


@pytest.mark.parametrize("events, typed_text", [
    ([focus("entry"), *keys("127.0"), *ADDRESS_TYPED, *keys("\n"), typed("http://", obj=BAR)],
     "'127.0' and presses Enter"),
    ([focus("text"), *keys("Essay\nPamphlets"), *typing("Essay"), typed("\u2029"), *typing("Pamphlets")],
     "'Essay' and presses Enter in Sign-up form in a11y_app.py. The user types 'Pamphlets'"),
    ([focus("entry"), RawEvent("mouse", CLICK, {"button": "left"}), typed(erase=20, obj=BAR),
      typed("http://127.0.0.1:8765/retries.html", obj=BAR)], None),
    ([focus("text"), *keys("ls"), *typing("ls"), *typing("rows: 3\n")], "'ls'"),
    ([focus("text"), *keys("abc"), RawEvent("mouse", CLICK, {"button": "left"}), *typing("abc")], None),
    ([focus("entry"), *keys("con"), *typing("con", obj=BAR), typed("fig.html", obj=BAR), *keys("fig\n"),
      typed(erase=20, obj=BAR), typed("http://127.0.0.1/config.html", obj=BAR)], "'config' and presses Enter"),
    ([focus("entry"), *keys("con"), *typing("con", obj=BAR), typed("fig.html", obj=BAR), *keys("fx"),
      typed(erase=7, obj=BAR), typed("x", obj=BAR),
      RawEvent("keyboard", KEY, {"key": "backspace"}), typed(erase=1, obj=BAR), *keys("\n")], "'conf' and presses Enter"),
    # a busy machine: the address bar's focus event (Ctrl+L) is read after the first keys typed into it
    ([focus("document web"), HOTKEY_L, *keys("127.0"), focus("entry"), *ADDRESS_TYPED, *keys("\n"),
      typed("http://", obj=BAR)], "'127.0' and presses Enter"),
    ([focus("document web"), *keys("jk"), HOTKEY_L, *keys("con"), focus("entry"), *typing("con", obj=BAR),
      typed("fig.html", obj=BAR), *keys("\n")], "'con' and presses Enter"),
    ([focus("entry"), *keys("ab"), RawEvent("keyboard", KEY, {"key": "tab"}), *keys("cd"),
      *typing("cd", obj=":1.5/field/2")], "'cd'"),
    # the page's title changes while an address is typed (the page left finishes loading): the same window
    ([focus("document web"), HOTKEY_L, focus("entry"), *keys("con"), window(title="Retries page"),
      *typing("con", obj=BAR), *keys("\n")], "'con' and presses Enter"),
], ids=["address-completed-and-rewritten", "qt-enter", "link-click", "program-output", "keys-before-a-click",
        "typed-over-the-completion", "typed-past-the-completion", "typed-before-its-focus-event",
        "keys-before-a-shortcut", "keys-before-a-tab", "title-changed-while-typing"])
def test_x11_text_is_what_the_keys_made(proactive_home, events: list[RawEvent], typed_text: str | None):
    """Where keys are known, the bus's text counts only as far as keys made it: an address bar's completion and
    its rewrite after Enter or a click on a link, a program's output and keys pressed elsewhere are no typing."""
    now = time.time()  # each event made now, in this order (the cases' own were made when they were collected)
    events = [replace(e, data=dict(e.data), ts=now + i / 1000)
              for i, e in enumerate([window(), *events, RawEvent("window", WINDOW, {"app": "XTerm"})])]
    raw, episodes = run_pipeline(events, X11Replay(events, {PID}))
    said = episodes
    if typed_text is None:
        assert "types" not in said, said
    else:
        assert f"The user types {typed_text}" in said, said
    for never in ("http", "config.html", "retries", "rows"):
        assert never not in said, said


def test_keys_typed_into_a_password_field_before_its_focus_event_are_never_another_fields_text(proactive_home):
    """A busy machine: a click on a password field, its keys, then its focus event (read late); the field tells
    its text as bullets, which no key makes, so its keys would wait on. They are dropped at its focus event: the
    next field's text (focused by the application) never takes them as characters it kept, however it matches
    them."""
    password, note = ":1.5/field/2", ":1.5/field/3"
    events = [window(), focus("text"), RawEvent("mouse", CLICK, {"button": "left"}), *keys("Heron3Secret"),
              focus("password text"), *[typed("\u25cf", "password text", obj=password) for _ in range(12)],
              focus("text"), *keys("retro"),
              *typing("retro", obj=note), RawEvent("window", WINDOW, {"app": "XTerm"})]
    raw, episodes = run_pipeline(events, X11Replay(events, {PID}))
    assert "Heron" not in raw + episodes and "Secret" not in raw + episodes and "\u25cf" not in raw + episodes
    assert "The user types 'retro'" in episodes, episodes


def test_terminal_prompt_hides_the_next_line(proactive_home, terminal):
    term = window("LXTerminal", "alice@box: ~", terminal.pid, "lxterminal")
    prompt = RawEvent("atspi", PROMPT, {"prompt": "password", "app": "lxterminal", "pid": terminal.pid})
    other = RawEvent("atspi", PROMPT, {"prompt": "password", "app": "lxterminal", "pid": 556})
    events = [term, *keys("./deploy.sh\n"), prompt, *keys("PromptCanary55\n"), *keys("echo after\n"),
              other, *keys("echo kept\n")]
    raw, episodes = run_pipeline(events)
    assert "PromptCanary55" not in raw + episodes
    assert "./deploy.sh" in episodes and "echo after" in episodes and "echo kept" in episodes
    assert "enters a password (hidden)" in episodes


def test_probe_without_a_session_bus_says_what_to_do(monkeypatch: pytest.MonkeyPatch, tmp_path):
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.delenv("AT_SPI_BUS_ADDRESS", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    probe = AtspiSource(text=False).probe()
    assert not probe.works and "session D-Bus" in probe.detail
    assert "toolkit-accessibility" in probe.fix and "QT_LINUX_ACCESSIBILITY_ALWAYS_ON" in probe.fix
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={tmp_path / 'nobus'}")
    probe = AtspiSource(text=True).probe()
    assert not probe.works and "does not answer" in probe.detail and "typed text" in probe.captures


def test_prompt_in_a_background_terminal_hides_its_next_line_on_return(proactive_home, terminal):
    term = window("LXTerminal", "build", terminal.pid, "lxterminal")
    editor = window("Visual Studio Code", "notes.md", 42, "code")
    prompt = RawEvent("atspi", PROMPT, {"prompt": "password", "app": "lxterminal", "pid": terminal.pid})
    events = [term, *keys("./build.sh\n"), editor, prompt, *keys("kept in editor\n"), term,
              *keys("BackgroundCanary66\n"), *keys("echo after\n")]
    raw, episodes = run_pipeline(events)
    assert "BackgroundCanary66" not in raw + episodes
    assert "types 14 characters in notes.md" in episodes, episodes  # the editor's line: counted, not hidden
    assert "echo after" in episodes and "enters a password (hidden)" in episodes
