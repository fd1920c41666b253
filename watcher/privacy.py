"""The privacy filter: decides, before anything is stored, what is dropped and what is redacted.

It sees every stream together, because privacy depends on context: a key press is harmless in an editor and a
secret in a password manager; a clipboard copy made right after focusing a "Sign in" dialog is a password.
Rules, in order:
1. paused: everything is dropped (only the pause/resume markers are kept);
2. excluded application or title pattern (password managers, private/incognito windows): the window is stored as
   an anonymous "private window" and nothing typed, clicked or copied there is kept;
3. password context: the focused window's title mentions a password, PIN, passphrase, sign-in...: typed text and
   copies are dropped (clicks and hotkeys stay); in a terminal, the line typed after a command that asks for a
   password (sudo, ssh, passwd...) is hidden;
4. every string that remains (text, clipboard, titles, URLs) goes through secret redaction.
If any rule fails with an error, the event is dropped and counted (fail closed).
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import replace
from typing import Any

from .events import CLICK, CLIPBOARD, CONTROL, HOTKEY, IDLE, KEY, SCROLL, TEXT, WEB, WINDOW, RawEvent
from .home import Config
from .redact import redact

log = logging.getLogger(__name__)

PRIVATE_APP = "private window"
#: Terminal commands after which the next line typed is a password prompt's answer.
PASSWORD_COMMANDS = re.compile(
    r"^\s*(?:sudo|su|doas|pkexec|ssh|scp|sftp|passwd|gpg|kinit|cryptsetup|ansible-vault|htpasswd|vncpasswd)\b"
    r"|^\s*mysql\b.*\s-p\s*$"
)
TERMINAL_APPS = {"xterm", "terminal", "konsole", "alacritty", "kitty", "gnome-terminal", "gnome-terminal-server",
                 "tilix", "terminator", "urxvt", "rxvt", "st", "wezterm", "foot", "iterm2", "windowsterminal",
                 "cmd", "powershell", "pwsh", "xfce4-terminal", "lxterminal", "mate-terminal", "qterminal"}
STRING_FIELDS = ("text", "title", "url", "app", "process", "combo")


def is_terminal(app: str | None, process: str | None = None) -> bool:
    return any((n or "").lower().removesuffix(".exe") in TERMINAL_APPS for n in (app, process))


class PrivacyFilter:
    """Stateful filter over the merged event stream. Not thread-safe: the pipeline thread owns it."""

    def __init__(self, config: Config):
        self.excluded_apps = {a.lower() for a in config.excluded_apps}
        self.excluded_titles = [re.compile(p) for p in config.excluded_titles]
        self.password_titles = [re.compile(p) for p in config.password_titles]
        self.paused_until: float | None = None  # None: capturing; math.inf: paused until resumed
        self.private = False
        self.password_context = False
        self.window: dict[str, Any] = {}
        self.dropped = 0
        self.failures = 0

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
        return not (self.paused or self.private or self.password_context)

    def is_excluded(self, app: str | None, process: str | None, title: str | None) -> bool:
        names = {(app or "").lower(), (process or "").lower(), (process or "").lower().removesuffix(".exe")}
        if names & self.excluded_apps:
            return True
        return any(p.search(title or "") for p in self.excluded_titles)

    def is_password_title(self, title: str | None) -> bool:
        return any(p.search(title or "") for p in self.password_titles)

    @staticmethod
    def asks_password(line: str) -> bool:
        """Whether a command line typed in a terminal is likely to prompt for a password next."""
        return bool(PASSWORD_COMMANDS.search(line))

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
        if kind == WINDOW:
            if self.private:
                return replace(event, data={"app": PRIVATE_APP, "title": "", "private": True})
            data = {k: v for k, v in event.data.items() if k != "pid"}
            if self.password_context:
                data["password_context"] = True
            return replace(event, data=self._redact_fields(data))
        if kind == KEY:
            return None  # keys are never stored; the composer turns allowed ones into TEXT
        if kind == WEB:
            data = event.data
            if data.get("incognito") or self.is_excluded(None, None, data.get("title")):
                return None
            return replace(event, data=self._redact_fields(dict(data)))
        if kind == IDLE:
            return event
        if self.private:
            return None
        if self.password_context and kind in (TEXT, CLIPBOARD):
            return None
        if kind in (TEXT, CLIPBOARD, HOTKEY, CLICK, SCROLL):
            return replace(event, data=self._redact_fields(dict(event.data)))
        log.warning("unknown event kind %r dropped", kind)
        return None

    def _focus(self, data: dict[str, Any]) -> None:
        self.window = data
        app, process, title = data.get("app"), data.get("process"), data.get("title")
        self.private = bool(data.get("private")) or self.is_excluded(app, process, title)
        self.password_context = self.is_password_title(title)

    @staticmethod
    def _redact_fields(data: dict[str, Any]) -> dict[str, Any]:
        for key in STRING_FIELDS:
            value = data.get(key)
            if isinstance(value, str) and value:
                data[key] = redact(value)
        return data
