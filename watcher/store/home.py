"""The user's configuration (config.toml: its one schema, loading, checking, writing), and, re-exported from
`folders.py`, where the assistant keeps its files.
"""

from __future__ import annotations

import difflib
import ipaddress
import json
import logging
import math
import os
import re
import stat
import tempfile
import tomllib
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import tomli_w

# the places of the files, used through `home` by most callers (re-exported)
from proactive.watcher.store.folders import (
    APP_NAME as APP_NAME,
    CONTROL_FILES as CONTROL_FILES,
    HOLDS as HOLDS,
    PLACE_VARIABLES as PLACE_VARIABLES,
    Places as Places,
    cache_dir as cache_dir,
    config_path as config_path,
    data_dir as data_dir,
    db_path as db_path,
    empty_logs as empty_logs,
    logs_dir as logs_dir,
    models_dir as models_dir,
    place_lines as place_lines,
    places as places,
    private_files as private_files,
    runtime_dir as runtime_dir,
    state_dir as state_dir,
    tighten as tighten,
)

log = logging.getLogger(__name__)

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


#: the search engine whose results page is read for the person (its HTML version needs no script)
DEFAULT_SEARCH_ENGINE = "https://html.duckduckgo.com/html/?q={query}"


@dataclass
class Config:
    """User settings, read from `config.toml`; every field has a safe default, and `SCHEMA` says what each
    accepts."""

    excluded_apps: list[str] = field(default_factory=lambda: list(DEFAULT_EXCLUDED_APPS))
    excluded_titles: list[str] = field(default_factory=lambda: list(DEFAULT_EXCLUDED_TITLES))
    password_titles: list[str] = field(default_factory=lambda: list(DEFAULT_PASSWORD_TITLES))
    idle_seconds: float = 120.0
    retention_days: float = 30
    clipboard_max_chars: int = 2000
    activitywatch_url: str = "http://127.0.0.1:5600"
    activitywatch: bool = True
    # episode text goes to activitywatch_url: another machine only when the user says so
    activitywatch_allow_remote: bool = False
    activitywatch_poll_seconds: float = 10.0
    # published episodes carry their sentences (typed and copied text) only when the user opts in: aw-server
    # keeps what it is sent in its own unencrypted database, beyond the reach of `proactive purge`
    activitywatch_text: bool = False
    proactivity: str = "medium"
    # the proposal model: "default", a GGUF path or "openai:BASE_URL#MODEL" (models/registry.py)
    model: str = "default"
    # the reward model: "default", "signals", "llm:MODEL" or a trained artefact's path (models/registry.py)
    rm: str = "default"
    # the tray's proposal popup closes by itself after this many seconds (the proposal counts as ignored)
    popup_seconds: float = 30.0
    # a snoozed proposal comes back after this many minutes
    snooze_minutes: float = 10.0
    # encryption at rest (watcher.crypto): "auto" where an OS keyring exists, "required" refuses to start
    # without one, "off" never encrypts
    encryption: str = "auto"
    # how the tray shows a proposal: "auto" (notifications on a Wayland session, the popup on X11), "popup", or
    # "notification" (the desktop's notification server, with the popup where none can show actions)
    proposals: str = "auto"
    # accepting a proposal may send its error or query to a search engine: "on" does, "off" never does, "ask"
    # (default) asks first where it can and otherwise only gives the link (assistant/help.py)
    web_search: str = "ask"
    # the model that writes answers when an offer is accepted (explanations, drafts): a spec as for `model`, "off"
    # (never), or "ask" (not chosen yet: the tray offers a capable model it finds here, once; assistant/answers.py)
    answer_model: str = "ask"
    # toolkit accessibility (org.a11y.Status on the session bus), without which most applications do not say what
    # their fields are, so their typed text is kept only as a count (watcher/privacy/filter.py): "on" turns it on at each
    # watcher start, "off" leaves the desktop's setting alone, "ask" (default) lets the tray ask once
    accessibility: str = "ask"
    # sites whose pages are never read for you, even with web_search = "on" (a host and its subdomains)
    never_fetch: list[str] = field(default_factory=list)
    # the results page read at a search moment (with web_search = "on"): {query} is replaced by the search
    search_engine: str = DEFAULT_SEARCH_ENGINE

    @classmethod
    def load(cls, path: Path | None = None) -> Config:
        """Read the config file; missing file -> defaults. Anything unusable (unreadable, not TOML, an unknown
        setting, a value of the wrong type or out of range) raises ConfigError, never ignored: a silently
        ignored exclusion list would be a privacy failure, a 0-second poll would burn a core."""
        path = path or config_path()
        try:
            data = tomllib.loads(read_config_text(path))
        except FileNotFoundError:
            return cls()
        except ConfigError as exc:
            raise exc.at(path) from None
        except OSError as exc:  # a directory, no permission
            raise ConfigError("", None, f"cannot read it ({exc.strerror or exc}): make it a readable TOML file "
                                        "or remove it", path=path) from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError("", None, f"not valid TOML ({exc}): fix it, or remove the file to use the "
                                        "defaults", path=path) from None
        try:
            return cls(**validate(data))
        except ConfigError as exc:
            raise exc.at(path) from None

    def check(self) -> Config:
        """This config against `SCHEMA` (the settings window's form): the normalized config, or ConfigError."""
        return Config(**validate(asdict(self)))

    def to_json(self) -> str:
        return json.dumps(self.__dict__, indent=2)


# The one schema of config.toml: `Config.load` (so the CLI and the tray), the settings window and `doctor` all
# check through it. A small table rather than jsonschema: JSON Schema calls 1.0 an integer and true a number in
# places, cannot compile Python regexes or tell a loopback host, and its messages do not say what the value is for.
Kind = Literal["bool", "int", "number", "text", "names", "regexes", "proactivity", "url", "choice"]
PROACTIVITY_LEVELS = ("low", "medium", "high")  # assistant.policy.Proactivity.LEVELS (a test keeps them equal)


@dataclass(frozen=True)
class Rule:
    """What one setting accepts: a kind, an inclusive range for numbers, the values of a choice, and what the
    value is for (it ends the error line, so the user knows what they are fixing)."""

    kind: Kind
    meaning: str
    low: float = 0
    high: float = 0
    choices: tuple[str, ...] = ()

    def describe(self) -> str:
        """What a valid value looks like: the "fix" half of an error line."""
        if self.kind in ("int", "number"):
            noun = "an integer" if self.kind == "int" else "a number"
            return f"must be {noun} from {_number(self.low)} to {_number(self.high)} ({self.meaning})"
        if self.kind == "choice":
            return f"must be {', '.join(self.choices[:-1])} or {self.choices[-1]} ({self.meaning})"
        valid = {"bool": "true or false", "text": "a non-empty string", "names": "a list of non-empty strings",
                 "regexes": "a list of regular expressions",
                 "url": "an http:// or https:// URL with a host and a valid port",
                 "proactivity": "low, medium, high, or a number from 0 to 1"}[self.kind]
        return f"must be {valid} ({self.meaning})"


SCHEMA: dict[str, Rule] = {
    "excluded_apps": Rule("names", "process or application names never captured"),
    "excluded_titles": Rule("regexes", "window titles never captured"),
    "password_titles": Rule("regexes", "window titles where typing is not recorded"),
    "idle_seconds": Rule("number", "seconds without input before you count as idle", 1, 86_400),
    "retention_days": Rule("number", "days of history kept (0.5 = 12 hours); 0 keeps everything", 0, 3650),
    "clipboard_max_chars": Rule("int", "characters kept of each copy; 0 keeps only its length", 0, 1_000_000),
    "activitywatch": Rule("bool", "read from and publish to a local ActivityWatch server"),
    "activitywatch_url": Rule("url", "the ActivityWatch server's address"),
    "activitywatch_allow_remote": Rule("bool", "let activitywatch_url name another machine"),
    "activitywatch_poll_seconds": Rule("number", "seconds between polls", 0.5, 3600),
    "activitywatch_text": Rule("bool", "publish typed and copied text to ActivityWatch, whose aw-server stores "
                                       "it unencrypted"),
    "proactivity": Rule("proactivity", "how readily the assistant speaks"),
    "model": Rule("text", "default, a GGUF path, or openai:BASE_URL#MODEL"),
    "rm": Rule("text", "default, signals, llm:MODEL, or a reward-model file"),
    "popup_seconds": Rule("number", "seconds before an unanswered popup closes", 1, 3600),
    "snooze_minutes": Rule("number", "minutes before a snoozed proposal comes back", 0.05, 1440),
    "encryption": Rule("choice", "auto encrypts the database where an OS keyring exists, required refuses to "
                                 "start without one", choices=("auto", "required", "off")),
    "proposals": Rule("choice", "how proposals are shown: auto uses notifications on Wayland and the popup on "
                                "X11", choices=("auto", "popup", "notification")),
    "answer_model": Rule("text", "the model that writes answers when you accept an offer: a spec as for model "
                                 "(a GGUF path or openai:BASE_URL#MODEL), off, or ask to be offered one found "
                                 "here"),
    "accessibility": Rule("choice", "whether the watcher turns the desktop's toolkit accessibility on, so "
                                    "applications say which fields are passwords and their typed text can be "
                                    "kept: on, off, or ask (the tray asks once)", choices=("ask", "on", "off")),
    "web_search": Rule("choice", "whether accepting a proposal sends its error or query to a search engine and "
                                 "reads pages for you: on does, off never does, ask asks first",
                       choices=("ask", "on", "off")),
    "never_fetch": Rule("names", "sites whose pages are never read for you (a host and its subdomains)"),
    "search_engine": Rule("url", "the results page read at a search moment, with {query} for the search"),
}


#: config.toml is a few hundred bytes; a file larger than this is not one (and is not read into memory).
CONFIG_LIMIT = 1 << 20


def read_small_file(path: Path, limit: int) -> bytes:
    """A small file's bytes, read only when it is a regular file: a FIFO would block for ever and /dev/zero fill
    the memory (ValueError: what it is instead). At most `limit` + 1 bytes are read: more tells the caller, who
    knows what it expected, that the file is too large. (The readers of `models/files.py` do the same for the files
    `models` and `eval` read; the watcher may not import them, ARCHITECTURE.md.)"""
    st = path.stat()  # FileNotFoundError: the caller says what a missing file means
    if not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):  # a folder: open() below says so
        raise ValueError("not a regular file (a FIFO, socket or device)")
    with open(path, "rb") as f:
        return f.read(limit + 1)


def read_config_text(path: Path) -> str:
    """The config file's text, read only when it is a regular file of at most CONFIG_LIMIT bytes
    (`read_small_file`)."""
    try:
        data = read_small_file(path, CONFIG_LIMIT)
    except ValueError as exc:
        raise ConfigError("", None, f"{exc}: make it a TOML file or remove it") from None
    if len(data) > CONFIG_LIMIT:
        raise ConfigError("", None, f"larger than {CONFIG_LIMIT} bytes, not a config: fix it or remove it")
    return data.decode("utf-8")


# `encryption = "required"` on a line of its own (`encryption_setting` of a file that is not TOML)
ENCRYPTION_LINE = re.compile(r"""^[ \t]*encryption[ \t]*=[ \t]*(["'])(\w+)\1""", re.MULTILINE)


def encryption_setting(path: Path | None = None) -> str:
    """config.toml's `encryption` read on its own, whatever else is wrong with the file: every store open
    asks it (a long-lived process, a library caller, a command that does not load the config), and
    `encryption = "required"` must hold even beside a bad setting or a TOML syntax error. A missing,
    unreadable or invalid value means "auto"."""
    try:
        text = read_config_text(path or config_path())
    except (OSError, UnicodeDecodeError, ValueError):  # missing, not a regular file, too large, not UTF-8
        return "auto"
    try:
        value = tomllib.loads(text).get("encryption")
    except tomllib.TOMLDecodeError:  # not TOML as a whole: the encryption line alone
        match = ENCRYPTION_LINE.search(text)
        value = match.group(2) if match else None
    return value if value in SCHEMA["encryption"].choices else "auto"


class ConfigError(ValueError):
    """An unusable config. Its str() is the one line the CLI prints, `PATH: FIELD = VALUE: what is valid`;
    `field`, `index` (in a list) and `problem` let the settings window say the same in its own words."""

    def __init__(self, field: str, value: Any, problem: str, index: int | None = None, path: Path | None = None):
        self.field, self.value, self.problem, self.index, self.path = field, value, problem, index, path
        where = f"{path}: " if path else ""
        key = field if index is None else f"{field}[{index}]"
        line = f"{where}{key} = {_shown(value)}: {problem}" if field else f"{where}{problem}"
        super().__init__(" ".join(line.split()))  # one line, whatever a regex or TOML error says

    def at(self, path: Path) -> ConfigError:
        """The same error, naming the file it came from."""
        return ConfigError(self.field, self.value, self.problem, self.index, path)


def check_setting(name: str, value: Any) -> Any:
    """`value` as `Config` holds it (a numeric proactivity becomes a string), or ConfigError. The loopback rule
    of activitywatch_url needs a second setting: `validate` applies it."""
    rule = SCHEMA[name]
    if rule.kind in ("names", "regexes") and isinstance(value, list):
        return _checked_list(name, rule.kind, value)
    if _scalar_holds(rule, value):
        return str(value) if rule.kind == "proactivity" else value
    raise ConfigError(name, value, rule.describe())


def _scalar_holds(rule: Rule, value: Any) -> bool:
    """Whether a single value is of its rule's kind and within it."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    text = isinstance(value, str)
    return {
        "bool": lambda: isinstance(value, bool),
        "int": lambda: number and isinstance(value, int) and rule.low <= value <= rule.high,
        "number": lambda: number and rule.low <= value <= rule.high,  # NaN fails too
        "text": lambda: text and bool(value.strip()),
        "proactivity": lambda: (number or text) and _is_proactivity(value),
        "url": lambda: text and bool(_url_host(value)),
        "choice": lambda: text and value in rule.choices,
    }.get(rule.kind, lambda: False)()


def _checked_list(name: str, kind: str, value: list[Any]) -> list[Any]:
    """A list of names (non-empty strings) or of regular expressions, each item checked (ConfigError names it)."""
    for index, item in enumerate(value):
        if not isinstance(item, str) or (kind == "names" and not item.strip()):
            raise ConfigError(name, item, f"must be a {'non-empty ' if kind == 'names' else ''}string", index)
        if kind == "regexes":
            problem = regex_problem(item)
            if problem:
                raise ConfigError(name, item, f"not a valid regular expression ({problem}): fix it (a literal "
                                              "( [ { * + ? . needs a backslash before it) or remove it", index)
    return list(value)


def regex_problem(pattern: str) -> str | None:
    """Why `pattern` is not a usable regular expression, or None. Python's `re` raises more than `re.error`: a
    repeat count over 2**32 is an OverflowError, deep nesting a RecursionError; all of them are the user's to
    fix, so none may escape as a traceback."""
    try:
        re.compile(pattern)
    except (re.error, OverflowError) as exc:
        return str(exc)
    except RecursionError:
        return "nested too deeply"
    return None


def validate(data: dict[str, Any]) -> dict[str, Any]:
    """Every setting of `data` checked against `SCHEMA`: the normalized settings, or ConfigError for the first
    bad one. Unknown names are errors (a typo silently ignored would be a setting silently not applied)."""
    unknown = sorted(set(data) - set(SCHEMA))
    if unknown:
        guesses = [g for name in unknown for g in difflib.get_close_matches(name, SCHEMA, n=1)]
        hint = f" (did you mean {', '.join(guesses)}?)" if guesses else ""
        raise ConfigError("", None, f"unknown setting(s) {', '.join(unknown)}{hint}: fix or remove them; the "
                                    "settings are listed in the README")
    values = {name: check_setting(name, value) for name, value in data.items()}
    url = values.get("activitywatch_url")
    if url and not values.get("activitywatch_allow_remote") and not _is_loopback(_url_host(url)):
        raise ConfigError("activitywatch_url", url, "must be on this machine (127.0.0.0/8, ::1 or localhost): "
                                                    "episode text is sent there; set activitywatch_allow_remote "
                                                    "= true to allow another host")
    return values


def _url_host(url: str) -> str:
    """The host of an aw-server URL as watcher.activitywatch reads it (no scheme means http), or "" when the URL
    is unusable (not http(s), no host, a bad port)."""
    try:
        parts = urlsplit(url if "//" in url else f"http://{url}")
        _ = parts.port  # raises on a non-numeric or out-of-range port
    except ValueError:
        return ""
    return (parts.hostname or "") if parts.scheme in ("http", "https") else ""


def _is_loopback(host: str) -> bool:
    if host in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _is_proactivity(value: str | float) -> bool:
    """The rule of assistant.policy.Proactivity.parse, without importing the policy (and numpy) to read a config."""
    if isinstance(value, str) and value.lower() in PROACTIVITY_LEVELS:
        return True
    try:
        return 0.0 <= float(value) <= 1.0
    except ValueError:
        return False


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _shown(value: Any) -> str:
    """A value as the user wrote it, near enough (TOML strings and arrays look like JSON), cut to fit a line."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # inf, nan: TOML's spelling, not JSON's Infinity
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def write_config(config: Config, path: Path, keep: dict[str, Any] | None = None) -> None:
    """Write `config` to `path` atomically, private (0600), checked by `Config.load` before it replaces the file.

    Settings already in the file (`keep`) stay; other fields are written only when they differ from the
    default, so future default changes (new excluded apps) still reach the user."""
    defaults = Config()
    data = dict(keep or {})
    for f in fields(Config):
        value = getattr(config, f.name)
        if f.name in data or value != getattr(defaults, f.name):
            data[f.name] = value
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(prefix=".config-", suffix=".toml", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            os.fchmod(out.fileno(), 0o600)
            tomli_w.dump(data, out)
            out.flush()
            os.fsync(out.fileno())
        Config.load(Path(tmp))  # never install a file the assistant would refuse to start with
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save_setting(name: str, value: Any, path: Path | None = None) -> None:
    """Set one setting in config.toml, the others staying as written: how the tray remembers an answer (the
    web-search question) without the settings window, and `proactive accessibility` its choice. ValueError or OSError when the file is unusable or cannot
    be written; it is then left as it was."""
    path = path or config_path()
    config = replace(Config.load(path), **{name: value}).check()
    raw = tomllib.loads(read_config_text(path)) if path.exists() else {}
    write_config(config, path, dict(raw, **{name: value}))
