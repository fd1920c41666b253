"""The privacy filter: decides, before anything is stored, what is dropped and what is redacted.

It sees every stream together, because privacy depends on context: a key press is harmless in an editor and a
secret in a password manager; a clipboard copy made right after focusing a "Sign in" dialog is a password.
Rules, in order:
1. paused: everything is dropped (only the pause/resume markers are kept);
   our own window (the tray app's history, settings, popups: a window of this very process, `is_own_window`):
   nothing is kept, not even the window, so it makes no episode; idle periods and web pages, which are not
   seen in a window, still are;
2. excluded application or title pattern (password managers, private/incognito windows): the window is stored as
   an anonymous "private window" and nothing typed, clicked or copied there is kept;
3. password context: the focused window's title mentions a password, PIN, passphrase, sign-in... or shows a
   prompt ("[sudo] password for", "Username for 'https://..."), or the accessibility bus says the focused widget
   is a password field (role "password text", `PASSWORD_ROLES`; watcher/capture/atspi.py): typed text and copies are
   dropped (clicks and hotkeys stay); in a terminal, the lines typed after a command line that will prompt for a
   password or a username (see `prompt_lines`), or after a prompt the terminal shows through the accessibility
   bus (`terminal_prompt`), are hidden;
4. where nothing shows whether a field hides what is typed, only the fact of typing is kept: keys typed in a
   window that is not a terminal (whose echo state shows it) and whose text the accessibility bus does not give
   with its field's role (no bus, or an application not on it: Tk, most applications until toolkit accessibility
   is on) become "types N characters" (compose.UNOBSERVED, applied by the pipeline); text from the bus with no
   known role is dropped;
5. every string that remains (text, clipboard, titles, URLs) goes through secret redaction.
If any rule fails with an error, the event is dropped and counted (fail closed).
"""

from __future__ import annotations

import logging
import os
import re
import time
from dataclasses import replace
from typing import Any

from proactive.watcher import events
from proactive.watcher.events import (
    CLICK,
    CLIPBOARD,
    CONTROL,
    HOTKEY,
    IDLE,
    KEY,
    SCROLL,
    TEXT,
    WEB,
    WINDOW,
    RawEvent,
)
from proactive.watcher.privacy.echo_programs import editor_key_lines
from proactive.watcher.privacy.echo_state import UNSEEN, EchoWatch, Reading
from proactive.watcher.privacy.password_prompts import (
    answered_in_line_editor,
    continued,
    fed_input,
    prompt_lines,
)
from proactive.watcher.privacy.redact import find_secrets, redact
from proactive.watcher.privacy.secret_shape import redact_shaped, repeated_secrets, secret_copy
from proactive.watcher.store.home import Config

log = logging.getLogger(__name__)

PRIVATE_APP = "private window"
#: Prompts a window (a terminal's title, a dialog) may show: they always count as a password context, even when
#: the user's `password_titles` replace the defaults.
PROMPT_TITLE = re.compile(
    r"(?i)\[sudo\] password|\b(?:username|password|passphrase|pin) for ['\"]|\benter (?:passphrase|pin)\b"
    r"|^\s*(?:password|passphrase|pin)\s*:"
)
#: An answer to a yes/no question (ssh's unknown host) is not the answer to the password prompt that follows.
CONFIRMATION = re.compile(r"(?i)y|n|yes|no")
MAX_WINDOWS = 32  # terminal windows whose pending prompts are remembered
RECENT_LINES = 3  # lines remembered per terminal for the titles that repeat them
TERMINAL_APPS = {"xterm", "terminal", "konsole", "alacritty", "kitty", "gnome-terminal", "gnome-terminal-server",
                 "tilix", "terminator", "urxvt", "rxvt", "st", "wezterm", "foot", "iterm2", "windowsterminal",
                 "cmd", "powershell", "pwsh", "xfce4-terminal", "lxterminal", "mate-terminal", "qterminal"}
STRING_FIELDS = ("text", "title", "url", "app", "process", "combo")


def is_terminal(app: str | None, process: str | None = None) -> bool:
    return any((n or "").lower().removesuffix(".exe") in TERMINAL_APPS for n in (app, process))


#: processes of ours that show windows besides this one: the tray app's own process, which `proactive run` starts
#: and supervises (app/tray_supervisor.py registers it with `own_process`)
_OWN_PROCESSES: set[int] = set()


def own_process(pid: int, own: bool = True) -> None:
    """Say that `pid` is (or, `own` False, no longer is) a process of ours whose windows are not the person's work."""
    if own:
        _OWN_PROCESSES.add(pid)
    else:
        _OWN_PROCESSES.discard(pid)


def is_own_window(pid: Any) -> bool:
    """Whether a window belongs to us: this process, or the tray app's process that runs beside the watcher (its
    history, settings, popup and question windows). Why the pid and not the titles ("Proactive: history"):
    another application may show the same title, and a title can change. Why not every child process: the
    browser the help opens (`webbrowser`) may be one, and the person's own browsing must still be captured."""
    return isinstance(pid, int) and not isinstance(pid, bool) and (pid == os.getpid() or pid in _OWN_PROCESSES)


# -- the accessibility bus: roles and terminal prompts ------------------------------------------------------------
#: AT-SPI roles of widgets whose text is a secret: nothing typed there is kept (Qt sends the real characters).
PASSWORD_ROLES = frozenset({"password text"})
#: A terminal line that waits for a secret: it ends with `...password...:` ("[sudo] password for u:",
#: "Password:", "u@host's password:", "Enter passphrase for key '/k':", "Password for 'https://u@h':", "PIN:"),
#: or asks a username for a site ("Username for 'https://github.com':"). Only the last line counts (the one at the
#: cursor): output that merely mentions a password is followed by other lines or does not end with a colon.
PROMPT_TEXT = re.compile(r"(?i)(?:^|[\s\]'\"(])(?P<word>password|passphrase|passcode|pin|username)\b"
                         r"""(?:[^:\n'"]|'[^'\n]*'|"[^"\n]*"){0,160}:\s*$""")


def terminal_prompt(text: str) -> str | None:
    """"password" or "username" when the last line of a terminal's text is a prompt waiting for one, else None."""
    lines = re.split(r"[\r\n]", text.rstrip())  # trailing blank lines: a redrawn screen below the cursor
    match = PROMPT_TEXT.search(lines[-1][-300:]) if lines else None
    if match is None:
        return None
    return "username" if match.group("word").lower() == "username" else "password"


class PrivacyFilter:
    """Stateful filter over the merged event stream. Not thread-safe: used under the pipeline's lock only."""

    def __init__(self, config: Config):
        self.reconfigure(config)
        self.paused_until: float | None = None  # None: capturing; math.inf: paused until resumed
        self.private = False
        self.own_window = False  # the focused window is one of ours (is_own_window)
        self.password_context = False
        self.window: dict[str, Any] = {}
        # terminal window -> lines still to hide there: the count stays with the terminal that asked, so typing
        # in another window meanwhile is not hidden and the answer typed on coming back still is
        self.hidden: dict[tuple[Any, ...], int] = {}
        # terminal windows whose lines to hide are not only predicted from a command line that the shell's line
        # editor reading a line would refute: a prompt the terminal showed, or a prompter answered in a line
        # editor of its own (`password_prompts.answered_in_line_editor`)
        self.firm: set[tuple[Any, ...]] = set()
        self.continued = ""  # the start of a command line that goes on in the next line (`\`, an open quote)
        # terminal window -> the delimiter of a here-document that feeds a program taking credentials (`sudo -S
        # cmd <<EOF`): its lines are hidden until that line (password_prompts.fed_input)
        self.heredocs: dict[tuple[Any, ...], str] = {}
        # terminal window -> its last lines as typed (raw, in memory only) and whether each was hidden: a title
        # that repeats one is judged with it (`_title`)
        self.recent_lines: dict[tuple[Any, ...], list[tuple[str, bool]]] = {}
        # the accessibility bus said the focused widget is a password field: its application's pid (0: unknown)
        self.password_focus: int | None = None
        self.prompt_pids: dict[int, None] = {}  # terminals (pids) that showed a prompt while not focused
        self.echo = EchoWatch()  # the pseudo-terminals behind windows and their echo state
        self.dropped = 0
        self.failures = 0

    def reconfigure(self, config: Config) -> None:
        """Take the exclusions of `config` (the settings window saved it). Each list is built first and then
        swapped in whole, so the pipeline never sees a half-made one."""
        apps = {a.lower() for a in config.excluded_apps}
        titles = [re.compile(p) for p in config.excluded_titles]
        passwords = [re.compile(p) for p in config.password_titles]
        self.excluded_apps, self.excluded_titles, self.password_titles = apps, titles, passwords

    # -- state -----------------------------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        if self.paused_until is not None and time.time() >= self.paused_until:
            self.paused_until = None
        return self.paused_until is not None

    def pause(self, until: float) -> RawEvent:
        self.paused_until = until
        return RawEvent("control", CONTROL, {"state": "paused", "until": None if until == float("inf") else until})

    def resume(self) -> RawEvent:
        self.paused_until = None
        return RawEvent("control", CONTROL, {"state": "resumed"})

    def accepts_keys(self) -> bool:
        """Whether key presses may reach the text composer at all right now."""
        return not (self.paused or self.private or self.own_window or self.password_context
                    or self.password_focused())

    # -- the accessibility bus (FOCUS, TYPED and PROMPT events of watcher/capture/atspi.py; never stored) ----------------

    def password_focused(self) -> bool:
        """A password field has the focus in the focused window (or the window or the field's application is
        unknown: fail closed). Keys typed in another window (an xterm, which the bus does not see) still count."""
        if self.password_focus is None:
            return False
        window_pid = self.window.get("pid")
        return not self.password_focus or not window_pid or window_pid == self.password_focus

    def focus(self, data: dict[str, Any]) -> None:
        """A FOCUS event: the focused widget's role says whether what is typed next is a password."""
        if data.get("role") in PASSWORD_ROLES:
            try:
                self.password_focus = int(data.get("pid") or 0)
            except (TypeError, ValueError):
                self.password_focus = 0
        else:
            self.password_focus = None

    def accepts_typed(self, data: dict[str, Any]) -> bool:
        """Whether a TYPED event (text inserted or deleted in a widget) may reach the text composer: never from a
        password field, nor from a widget whose role is unknown (fail closed). The role is the one of the object
        that emitted the text (watcher/capture/atspi.py), so a field's text is judged by that field."""
        role = data.get("role")
        # the emitting object's role decides, not the last focus event (a hint that may arrive after the text)
        return isinstance(role, str) and role not in PASSWORD_ROLES and not (
            self.paused or self.private or self.own_window or self.password_context)

    def prompt_shown(self, data: dict[str, Any]) -> bool:
        """A PROMPT event: a terminal shows a password or username prompt. When it is the focused window's
        terminal (or either pid is unknown), its next line is hidden; returns whether it is. A prompt shown by a
        terminal in the background is remembered: its next line is hidden when it gets the focus."""
        window_pid, pid = self.window.get("pid"), data.get("pid")
        if (not is_terminal(self.window.get("app"), self.window.get("process")) and not (
                window_pid and window_pid == pid)) or (window_pid and pid and window_pid != pid):
            if isinstance(pid, int) and pid:
                self.prompt_pids[pid] = None
                while len(self.prompt_pids) > MAX_WINDOWS:
                    del self.prompt_pids[next(iter(self.prompt_pids))]
            return False
        self._hide_next_line()
        return True

    def _hide_next_line(self) -> None:
        key = self._window_key()
        self._set_left(key, max(self.hidden.get(key, 0), 1), firm=True)  # shown, not predicted

    def _set_left(self, key: tuple[Any, ...], left: int, firm: bool) -> None:
        """`left` lines still to hide in the terminal `key` (none: forgotten); `firm`: not only a prediction."""
        self.hidden.pop(key, None)
        self.firm.discard(key)
        if left > 0:
            self.hidden[key] = left
            if firm:
                self.firm.add(key)
            while len(self.hidden) > MAX_WINDOWS:
                oldest = next(iter(self.hidden))
                del self.hidden[oldest]
                self.firm.discard(oldest)

    def is_excluded(self, app: str | None, process: str | None, title: str | None) -> bool:
        names = {(app or "").lower(), (process or "").lower(), (process or "").lower().removesuffix(".exe")}
        if names & self.excluded_apps:
            return True
        return any(p.search(title or "") for p in self.excluded_titles)

    def is_password_title(self, title: str | None) -> bool:
        return bool(PROMPT_TITLE.search(title or "")) or any(p.search(title or "") for p in self.password_titles)

    def asks_password(self, line: str, hidden: bool = False, by_shell: bool = False) -> bool:
        """Called by the pipeline with every line finished (Enter) in a terminal, raw and never stored: whether the
        next line typed there must be hidden. `hidden`: the terminal did not show the line (its echo was off, or
        could not be seen): it answered a prompt and is never read as a command. `by_shell`: the pipeline saw the
        line read by the shell's own line editor (`read_by_shell`).

        A hidden line counts off only the prompt that consumed it. A line typed while lines were still to hide
        was an answer (hidden): it counts one off, unless it was a yes/no, and it is still read as a command too:
        if the expected prompt never came (credentials cached), that "answer" was a command, and its own prompt
        must be hidden. A line the shell's line editor read answered no prompt: the lines still to hide, when
        only predicted from a command line, are forgotten (the prompts never came; see `read_by_shell`) and it
        is read as a command. Any failure hides the next line (fail closed).
        """
        key = self._window_key()
        self._remember_line(key, line, hidden or bool(self.hidden.get(key)))
        left, firm = self.hidden.get(key, 0), key in self.firm
        delimiter = self.heredocs.get(key)
        if delimiter is not None:  # a here-document's lines, hidden up to its delimiter's line (which ends it)
            if line.strip() == delimiter or not left:
                del self.heredocs[key]
                self._set_left(key, 0, firm=False)
                return False
            return True
        try:
            if hidden:
                left, command, self.continued = max(0, left - 1), "", ""
            elif left and (firm or not by_shell):
                left -= 0 if CONFIRMATION.fullmatch(line.strip()) else 1
                command, self.continued = line, ""
            else:
                left, firm = 0, False  # (by the shell: what was predicted never came)
                command = self.continued + line
                self.continued = continued(command)
            lines = prompt_lines(command)
            firm = firm or (lines > 0 and answered_in_line_editor(command))
            left = max(left, lines)
            fed, delimiter = fed_input(command)  # lines typed into a program that takes credentials
            if delimiter is not None:
                self.heredocs[key] = delimiter
                while len(self.heredocs) > MAX_WINDOWS:
                    del self.heredocs[next(iter(self.heredocs))]
            left, firm = max(left, fed), firm or delimiter is not None
            if not by_shell and (keyed := editor_key_lines(line)):  # vim's `:X`: its key, asked in vim's own
                left, firm = max(left, keyed), True  # line editor, which the terminal's state cannot show
        except Exception:
            self.failures += 1
            log.exception("password prompt recognition failed; the next line is hidden")
            left, firm = max(left, 1), True
        self._set_left(key, left, firm)
        return left > 0

    def _remember_line(self, key: tuple[Any, ...], line: str, hidden: bool) -> None:
        """The last RECENT_LINES lines typed in each terminal, for the titles that repeat them."""
        lines = self.recent_lines.pop(key, [])[-(RECENT_LINES - 1):] + [(line, hidden)]
        self.recent_lines[key] = lines
        while len(self.recent_lines) > MAX_WINDOWS:
            del self.recent_lines[next(iter(self.recent_lines))]

    def _title(self, title: str) -> str:
        """A window's title as kept: judged with the lines just typed in it (`secret_shape.repeated_secrets`),
        and without password-shaped words (`secret_shape.redact_shaped`); `_redact_fields` redacts it after."""
        for line, hidden in self.recent_lines.get(self._window_key(), []):
            title = repeated_secrets(title, line, hidden, [] if hidden else find_secrets(line))
        return redact_shaped(title)

    def read_by_shell(self) -> bool:
        """The pipeline saw the terminal line that ends now (before its Enter is handed on) read by the shell's own
        line editor: every key of it went to an interactive shell reading in raw mode and showing what is typed.
        No prompt consumed it: the focused terminal's lines still to hide are forgotten when they were only
        predicted from a command line (`prompt_lines`: `su -` run by root asks nothing, nor `git pull` with cached
        credentials), so this line is kept as the command it is. Lines the terminal showed a prompt for
        (`prompt_shown`), or predicted for a prompter that reads its answer in a line editor of its own (`read -es`:
        `password_prompts.answered_in_line_editor`), stay. Returns whether lines were forgotten: the pipeline then
        lifts the hiding it set on this line for them (the composer's `hide_line`)."""
        key = self._window_key()
        if not self.hidden.get(key) or key in self.firm:
            return False
        self._set_left(key, 0, firm=False)
        return True

    def hides_typing(self) -> bool:
        """Whether what is typed now answers a prompt: the focused terminal still has lines to hide."""
        return bool(self.hidden.get(self._window_key())) and self.in_terminal()

    def in_terminal(self) -> bool:
        """The focused window is a terminal: its name says so, or its process holds pseudo-terminal masters."""
        if is_terminal(self.window.get("app"), self.window.get("process")):
            return True
        view = self.echo.view(self.window.get("pid"))
        return bool(view and view.owner and view.ptys)

    def echo_reading(self) -> Reading | None:
        """Whether the focused window's terminal shows what is typed now (watcher/privacy/echo_state.py), or None when
        the window shows no pseudo-terminal. A window named as a terminal whose pseudo-terminal cannot be found
        (no pid, another machine's process) is unseen: its lines are not stored (fail closed). Where the platform
        has no pseudo-terminals to read (Windows), the command-line rules are the only defence."""
        view = self.echo.view(self.window.get("pid"))
        if view is not None and view.ptys:
            return self.echo.read(view)
        if os.name == "posix" and is_terminal(self.window.get("app"), self.window.get("process")):
            return Reading(UNSEEN, why="a terminal whose pseudo-terminal cannot be found")
        return None

    def _window_key(self) -> tuple[Any, ...]:
        """A terminal window, whatever its title says (shells rewrite titles as commands run)."""
        return self.window.get("app"), self.window.get("process"), self.window.get("pid")

    # -- filtering ---------------------------------------------------------------------------------------------

    def clean(self, event: RawEvent) -> RawEvent | None:
        """The event as it may be stored, or None to drop it. Never raises: failures drop the event."""
        try:
            out = self._clean(event)
        except Exception:
            self.failures += 1
            log.exception("privacy filter failed on a %s event; dropped", event.kind)
            return None
        if out is None:
            self.dropped += 1
        return out

    def _clean(self, event: RawEvent) -> RawEvent | None:
        kind = event.kind
        if kind == CONTROL:
            return event
        if kind == WINDOW:
            self._focus(event.data)
        if self.paused:
            return None
        if self.own_window and kind not in (IDLE, WEB):
            return None  # our own window: what is done there is not the person's work, nor a secret to keep
        if kind == WINDOW:
            return self._window_event(event)
        if kind in (KEY, events.FOCUS, events.TYPED, events.PROMPT):
            return None  # never stored; the composer turns allowed keys and typed text into TEXT
        if kind == WEB:
            return self._web_event(event)
        if kind == IDLE:
            return event
        if self.private:
            return None
        return self._content_event(event)

    def _window_event(self, event: RawEvent) -> RawEvent:
        """A focus change as stored: a private window's name never, the pid never, a password context marked."""
        if self.private:
            return replace(event, data={"app": PRIVATE_APP, "title": "", "private": True})
        data = {k: v for k, v in event.data.items() if k != "pid"}
        if self.password_context:
            data["password_context"] = True
        if isinstance(data.get("title"), str):
            data["title"] = self._title(data["title"])
        return replace(event, data=self._redact_fields(data))

    def _web_event(self, event: RawEvent) -> RawEvent | None:
        """A page visited: a private window's page, a page of an excluded browser, or one whose title is
        excluded is not kept."""
        data = event.data
        if data.get("incognito") or self.is_excluded(data.get("browser") or None, None, data.get("title")):
            return None
        data = dict(data)
        if isinstance(data.get("title"), str):
            data["title"] = redact_shaped(data["title"])
        return replace(event, data=self._redact_fields(data))

    def _content_event(self, event: RawEvent) -> RawEvent | None:
        """What the person typed, copied, pressed or clicked in a window that may be kept: nothing in a password
        context or field, a hidden terminal line as the fact of it, a copy its owner marked secret as the fact of
        it, the rest redacted."""
        kind = event.kind
        # text rebuilt from the accessibility bus was judged by its own field's role (accepts_typed); keys and
        # copies only have the focus to go by
        focused = self.password_focused() and not (kind == TEXT and event.source == "atspi")
        if (self.password_context or focused) and kind in (TEXT, CLIPBOARD):
            return None
        if kind == TEXT and self.hides_typing():
            # normally the composer already hid the line; if it flushed pieces (its state was reset by another
            # event), the pieces are dropped and the line is hidden as a whole at Enter
            if not (event.data.get("hidden") or event.data.get("enter")):
                return None
            return replace(event, data={"text": "", "erase": 0, "enter": bool(event.data.get("enter")),
                                        "hidden": "password"})
        if kind == CLIPBOARD and (event.data.get("private") or secret_copy(str(event.data.get("text") or ""))):
            # marked secret by its owner (clipboard.is_marked_secret), or one password-shaped token that no
            # password manager marked (`pass -c`, a generator, xclip): only the fact of the copy, whatever else
            # a source put beside the mark (and the application it is attributed to, and whether it was the
            # PRIMARY selection: a secret selected with the mouse is one all the same)
            data = {"text": "", "length": None, "truncated": False, "private": True}
            for kept in ("app", "selection"):
                if kept in event.data:
                    data[kept] = event.data[kept]
            return replace(event, data=self._redact_fields(data))
        if kind == CLICK:
            data = dict(event.data)
            if is_own_window(data.pop("pid", None)):
                return None  # a click on our window that has no focus (the popup's Accept): not the person's work
            return replace(event, data=self._redact_fields(data))
        if kind in (TEXT, CLIPBOARD, HOTKEY, SCROLL):
            return replace(event, data=self._redact_fields(dict(event.data)))
        log.warning("unknown event kind %r dropped", kind)
        return None

    def _focus(self, data: dict[str, Any]) -> None:
        if (data.get("app"), data.get("process"), data.get("pid")) != self._window_key():
            self.continued = ""
        self.window = data
        app, process, title = data.get("app"), data.get("process"), data.get("title")
        self.private = bool(data.get("private")) or self.is_excluded(app, process, title)
        self.own_window = is_own_window(data.get("pid"))
        self.password_context = self.is_password_title(title)
        if data.get("pid") in self.prompt_pids:  # back to a terminal whose prompt appeared meanwhile
            del self.prompt_pids[data["pid"]]
            self._hide_next_line()

    @staticmethod
    def _redact_fields(data: dict[str, Any]) -> dict[str, Any]:
        for key in STRING_FIELDS:
            value = data.get(key)
            if isinstance(value, str) and value:
                data[key] = redact(value)
        return data
