"""Where the assistant keeps its files, and the user's configuration.

Everything lives under one folder so that a user (or `proactive purge --all`) can see and remove it in one place:
the platformdirs data folder for "proactive", or `PROACTIVE_HOME` when set (tests always set it).
Files are created private (umask 077, so mode 0600 for files and 0700 for folders).
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path

import platformdirs

APP_NAME = "proactive"


def home() -> Path:
    """The folder holding the database, config, logs and caches (created 0700 if missing)."""
    env = os.environ.get("PROACTIVE_HOME")
    path = Path(env).expanduser() if env else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def private_files() -> None:
    """Make every file this process creates readable by the user only."""
    os.umask(0o077)


def db_path() -> Path:
    return home() / "proactive.db"


def logs_dir() -> Path:
    path = home() / "logs"
    path.mkdir(exist_ok=True, mode=0o700)
    return path


def cache_dir() -> Path:
    path = home() / "cache"
    path.mkdir(exist_ok=True, mode=0o700)
    return path


def empty_logs_and_cache() -> None:
    """The part of "purge everything" outside the database: empty the logs (an open log handler's file stays
    valid) and delete every cached file (replay results, model answers)."""
    for log_file in logs_dir().glob("proactive.log*"):
        log_file.write_bytes(b"")
    for cached in cache_dir().glob("**/*"):
        if cached.is_file():
            cached.unlink()


def config_path() -> Path:
    return home() / "config.toml"


DEFAULT_EXCLUDED_APPS = [
    "keepassxc", "keepass", "keepassx", "1password", "bitwarden", "lastpass", "enpass", "dashlane",
    "seahorse", "gnome-keyring", "kwalletmanager", "kwalletmanager5", "pinentry", "pinentry-gtk-2",
    "pinentry-qt", "pinentry-gnome3", "ssh-askpass", "gcr-prompter", "polkit-gnome-authentication-agent-1",
]
DEFAULT_EXCLUDED_TITLES = [
    r"(?i)\bprivate browsing\b",
    r"(?i)\bincognito\b",
    r"(?i)\binprivate\b",
    r"(?i)\bprivate window\b",
    r"(?i)\b(keepass|1password|bitwarden|lastpass)\b",
]
DEFAULT_PASSWORD_TITLES = [
    r"(?i)pass(word|phrase|code)",
    r"(?i)\bpin\b",
    r"(?i)\b(sign|log)[ -]?in\b",
    r"(?i)\bauthenticat(e|ion)\b",
    r"(?i)\b2fa\b|\bmfa\b|one[- ]time code",
    r"(?i)\bunlock\b",
]


@dataclass
class Config:
    """User settings, read from `config.toml`; every field has a safe default."""

    excluded_apps: list[str] = field(default_factory=lambda: list(DEFAULT_EXCLUDED_APPS))
    excluded_titles: list[str] = field(default_factory=lambda: list(DEFAULT_EXCLUDED_TITLES))
    password_titles: list[str] = field(default_factory=lambda: list(DEFAULT_PASSWORD_TITLES))
    idle_seconds: float = 120.0
    retention_days: int = 30
    clipboard_max_chars: int = 2000
    activitywatch_url: str = "http://127.0.0.1:5600"
    activitywatch: bool = True
    activitywatch_poll_seconds: float = 10.0
    proactivity: str = "medium"
    # the proposal model: "default", a GGUF path or "openai:BASE_URL#MODEL" (see assistant.cli.load_predictor)
    model: str = "default"
    # the reward model: "default", "signals", "llm:MODEL" or a trained artefact's path (assistant.cli.load_scorer)
    rm: str = "default"
    # the tray's proposal popup closes by itself after this many seconds (the proposal counts as ignored)
    popup_seconds: float = 30.0
    # a snoozed proposal comes back after this many minutes
    snooze_minutes: float = 10.0

    @classmethod
    def load(cls, path: Path | None = None) -> Config:
        """Read the config file; missing file -> defaults. A malformed file raises ValueError (never ignored:
        a silently ignored exclusion list would be a privacy failure)."""
        path = path or config_path()
        if not path.exists():
            return cls()
        try:
            data = tomllib.loads(path.read_text())
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ValueError(f"{path}: not valid TOML ({exc})") from exc
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise ValueError(f"{path}: unknown setting(s) {', '.join(unknown)}")
        config = cls()
        for key, value in data.items():
            default = getattr(config, key)
            if isinstance(default, list) and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                raise ValueError(f"{path}: {key} must be a list of strings")
            if isinstance(default, (int, float)) and not isinstance(default, bool):
                if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
                    raise ValueError(f"{path}: {key} must be a non-negative number")
            if isinstance(default, bool) and not isinstance(value, bool):
                raise ValueError(f"{path}: {key} must be true or false")
            if isinstance(default, str) and not isinstance(value, str):
                raise ValueError(f"{path}: {key} must be a string")
            setattr(config, key, value)
        return config

    def to_json(self) -> str:
        return json.dumps(self.__dict__, indent=2)
