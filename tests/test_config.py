"""config.toml against its one schema (watcher.home.SCHEMA): every setting checked by type and range at load, and
a bad one refused by the real command with exit 2 and one line naming the file, the setting and the fix."""

from __future__ import annotations

import json
import os
import re
from dataclasses import fields
from pathlib import Path

import pytest

from proactive.assistant.policy import Proactivity
from proactive.assistant.setup import proactivity
from proactive.watcher.service import SetupError
from proactive.watcher.store.home import PROACTIVITY_LEVELS, SCHEMA, Config, ConfigError, validate

from .conftest import ROOT, WatcherProcess, run_cli


def fix(name: str) -> str:
    return SCHEMA[name].describe()


REGEX_FIX = "fix it (a literal ( [ { * + ? . needs a backslash before it) or remove it"


# (what config.toml says, the error line after "PATH: ")
INVALID = [
    ('never_fetch = "bank.example"', f'never_fetch = "bank.example": {fix("never_fetch")}'),
    ('search_engine = "ftp://example.org/"', f'search_engine = "ftp://example.org/": {fix("search_engine")}'),
    ("excluded_apps = 3", f"excluded_apps = 3: {fix('excluded_apps')}"),
    ('excluded_apps = ["slack", " "]', 'excluded_apps[1] = " ": must be a non-empty string'),
    ('excluded_titles = ["ok", "(unclosed["]',
     'excluded_titles[1] = "(unclosed[": not a valid regular expression (unterminated character set at position 9): '
     + REGEX_FIX),
    # Python's re raises OverflowError and RecursionError too: still the user's to fix, never a traceback
    ('excluded_titles = ["a{4294967296}"]',
     f'excluded_titles[0] = "a{{4294967296}}": not a valid regular expression (the repetition number is too large): '
     f'{REGEX_FIX}'),
    ('password_titles = ["' + "(" * 2000 + ")" * 2000 + '"]',
     'password_titles[0] = "' + "(" * 56 + '...: not a valid regular expression (nested too deeply): ' + REGEX_FIX),
    ('password_titles = ["(?i)pin", "x(?i)y"]',
     'password_titles[1] = "x(?i)y": not a valid regular expression (global flags not at the start of the '
     f'expression at position 1): {REGEX_FIX}'),
    ("password_titles = [1]", "password_titles[0] = 1: must be a string"),
    ('password_titles = "pass"', f'password_titles = "pass": {fix("password_titles")}'),
    ("idle_seconds = 0", f"idle_seconds = 0: {fix('idle_seconds')}"),
    ("idle_seconds = 86401", f"idle_seconds = 86401: {fix('idle_seconds')}"),
    ('idle_seconds = "120"', f'idle_seconds = "120": {fix("idle_seconds")}'),
    ("idle_seconds = nan", f"idle_seconds = nan: {fix('idle_seconds')}"),
    ("retention_days = -1", f"retention_days = -1: {fix('retention_days')}"),
    ('retention_days = "7"', f'retention_days = "7": {fix("retention_days")}'),
    ("retention_days = 3651", f"retention_days = 3651: {fix('retention_days')}"),
    ("clipboard_max_chars = 1.5", f"clipboard_max_chars = 1.5: {fix('clipboard_max_chars')}"),
    ("clipboard_max_chars = 1_000_001", f"clipboard_max_chars = 1000001: {fix('clipboard_max_chars')}"),
    ("clipboard_max_chars = true", f"clipboard_max_chars = true: {fix('clipboard_max_chars')}"),
    ('activitywatch = "yes"', f'activitywatch = "yes": {fix("activitywatch")}'),
    ("activitywatch_url = 5600", f"activitywatch_url = 5600: {fix('activitywatch_url')}"),
    ('activitywatch_url = "ftp://127.0.0.1:5600"', f'activitywatch_url = "ftp://127.0.0.1:5600": '
                                                   f'{fix("activitywatch_url")}'),
    ('activitywatch_url = "http://localhost:99999"', f'activitywatch_url = "http://localhost:99999": '
                                                     f'{fix("activitywatch_url")}'),
    ("activitywatch_allow_remote = 1", f"activitywatch_allow_remote = 1: {fix('activitywatch_allow_remote')}"),
    ('activitywatch_text = 1', f"activitywatch_text = 1: {fix('activitywatch_text')}"),
    ("activitywatch_poll_seconds = 0",
     "activitywatch_poll_seconds = 0: must be a number from 0.5 to 3600 (seconds between polls)"),
    ("activitywatch_poll_seconds = inf", f"activitywatch_poll_seconds = inf: {fix('activitywatch_poll_seconds')}"),
    ('proactivity = "loud"', f'proactivity = "loud": {fix("proactivity")}'),
    ('web_search = "yes"', f'web_search = "yes": {fix("web_search")}'),
    ('answer_model = ""', f'answer_model = "": {fix("answer_model")}'),
    ('accessibility = "yes"', f'accessibility = "yes": {fix("accessibility")}'),
    ("proactivity = 1.5", f"proactivity = 1.5: {fix('proactivity')}"),
    ("proactivity = true", f"proactivity = true: {fix('proactivity')}"),
    ('model = ""', f'model = "": {fix("model")}'),
    ("rm = 3", f"rm = 3: {fix('rm')}"),
    ("popup_seconds = 0", f"popup_seconds = 0: {fix('popup_seconds')}"),
    ("snooze_minutes = 0", f"snooze_minutes = 0: {fix('snooze_minutes')}"),
    ("snooze_minutes = 1441", f"snooze_minutes = 1441: {fix('snooze_minutes')}"),
    ('encryption = "yes"', f'encryption = "yes": {fix("encryption")}'),
    ('proposals = "banner"', f'proposals = "banner": {fix("proposals")}'),
    ("idle_secs = 3", "unknown setting(s) idle_secs (did you mean idle_seconds?): fix or remove them; the settings "
                      "are listed in the README"),
    ("idle_seconds = ", "not valid TOML (Invalid value (at line 1, column 16)): fix it, or remove the file to use "
                        "the defaults"),
]


def refused(proactive_home: Path, *args: str) -> str:
    """Run `proactive ARGS`, check it exits 2 with one line, and return that line without its prefix and path."""
    out = run_cli(*args)
    assert out.returncode == 2, out
    [line] = out.stderr.strip().splitlines()
    prefix = f"proactive: error: {proactive_home / 'config.toml'}: "
    assert line.startswith(prefix), line
    return line[len(prefix):]


def test_every_setting_has_a_rule_and_the_defaults_pass():
    assert set(SCHEMA) == {f.name for f in fields(Config)}
    assert Config().check() == Config()
    covered = {re.match(r"\w+", toml).group() for toml, _ in INVALID}
    assert set(SCHEMA) <= covered  # the table below refuses a bad value of every setting


@pytest.mark.parametrize("toml, line", INVALID, ids=[toml[:40] for toml, _ in INVALID])
def test_invalid_setting_exits_2_with_one_line(proactive_home, toml, line):
    (proactive_home / "config.toml").write_text(toml + "\n")
    assert refused(proactive_home, "watch", "--no-aw") == line


def test_bad_proactivity_is_the_configs_not_the_options(proactive_home):
    (proactive_home / "config.toml").write_text('proactivity = "loud"\n')
    assert refused(proactive_home, "run", "--headless", "--no-aw").startswith('proactivity = "loud": ')
    (proactive_home / "config.toml").write_text('proactivity = "low"\n')
    out = run_cli("run", "--headless", "--no-aw", "--proactivity", "loud")
    assert out.returncode == 2 and out.stderr.startswith("proactive: error: --proactivity: "), out.stderr
    with pytest.raises(SetupError, match=r"config\.toml: proactivity = \"loud\": must be"):  # a Config not from load
        proactivity(None, Config(proactivity="loud"))


@pytest.mark.parametrize("command", [("watch", "--no-aw"), ("run", "--headless", "--no-aw")])
def test_bad_regex_is_one_line_naming_file_and_key(proactive_home, command):
    """Through the real command, before anything starts: exit 2, one line, the file, the key, the fix; never a
    traceback of re.error (or the OverflowError a huge repeat count raises)."""
    for pattern, reason in [("(unclosed[", "unterminated character set"),
                            ("a{4294967296}", "the repetition number is too large")]:
        (proactive_home / "config.toml").write_text(f'excluded_titles = ["{pattern}"]\n')
        line = refused(proactive_home, *command)
        assert line.startswith(f'excluded_titles[0] = "{pattern}": not a valid regular expression ({reason}'), line
        assert line.endswith(REGEX_FIX), line
        assert not (proactive_home / "proactive.db").exists()  # refused before the store was touched


def test_proactivity_rule_is_the_policys():
    assert set(PROACTIVITY_LEVELS) == set(Proactivity.LEVELS)
    for value in ["low", "HIGH", "0", "1", "0.25", 0.7, 1, "1.01", "-0.1", "nan", "loud", ""]:
        try:
            Proactivity.parse(value)
            parses = True
        except ValueError:
            parses = False
        try:
            validate({"proactivity": value})
            valid = True
        except ConfigError:
            valid = False
        assert valid == parses, value
    assert validate({"proactivity": 0.7}) == {"proactivity": "0.7"}  # Config holds it as text


def test_bounds_are_inclusive(proactive_home):
    for name, rule in SCHEMA.items():
        if rule.kind in ("int", "number"):
            assert validate({name: type(Config().__dict__[name])(rule.high)}) == {name: rule.high}
            low = int(rule.low) if rule.kind == "int" else rule.low
            assert validate({name: low}) == {name: low}


@pytest.mark.parametrize("url", ["http://127.0.0.1:5600", "http://127.0.0.2:5600", "http://localhost:5600",
                                 "http://[::1]:5600", "https://LOCALHOST", "127.0.0.1:5600"])
def test_loopback_urls_accepted(url):
    assert validate({"activitywatch_url": url}) == {"activitywatch_url": url}


def test_remote_url_needs_the_opt_in(proactive_home, tmp_path):
    url = "http://192.0.2.7:5600"  # TEST-NET-1: never reached (--no-aw), only checked
    (proactive_home / "config.toml").write_text(f'activitywatch_url = "{url}"\n')
    assert refused(proactive_home, "watch", "--no-aw") == (
        f'activitywatch_url = "{url}": must be on this machine (127.0.0.0/8, ::1 or localhost): episode text is '
        "sent there; set activitywatch_allow_remote = true to allow another host")
    for host in ["example.com", "127.0.0.1.nip.io", "[::2]", "0.0.0.0"]:
        with pytest.raises(ConfigError, match="must be on this machine"):
            validate({"activitywatch_url": f"http://{host}:5600"})
    (proactive_home / "config.toml").write_text(f'activitywatch_url = "{url}"\nactivitywatch_allow_remote = true\n')
    assert Config.load().activitywatch_url == url
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    watcher = WatcherProcess(proactive_home, env, args=("--no-aw",))  # starts: the config is accepted
    code, err = watcher.stop()
    assert code == 0, err


def test_directory_at_the_config_path_exits_2(proactive_home):
    (proactive_home / "config.toml").mkdir()
    line = refused(proactive_home, "watch", "--no-aw")
    assert line == "cannot read it (Is a directory): make it a readable TOML file or remove it"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_unreadable_config_exits_2(proactive_home):
    path = proactive_home / "config.toml"
    path.write_text("idle_seconds = 60\n")
    path.chmod(0)
    assert refused(proactive_home, "watch", "--no-aw").startswith("cannot read it (Permission denied)")


def test_readme_config_block_is_a_valid_config_of_every_setting():
    import tomllib

    readme = (ROOT / "README.md").read_text()
    block = readme.split("`config.toml` (all optional):\n```toml\n", 1)[1].split("```", 1)[0]
    data = tomllib.loads(block)
    assert set(data) == set(SCHEMA)
    validate(data)
    for name, rule in SCHEMA.items():  # each range is documented beside its setting
        if rule.kind in ("int", "number"):
            line = next(line for line in block.splitlines() if line.startswith(f"{name} ="))
            bounds = "..".join(str(int(x)) if float(x).is_integer() else str(x) for x in (rule.low, rule.high))
            assert f"# {bounds} " in line.replace("_", ""), line


@pytest.mark.parametrize("text, mode", [
    (None, "auto"),
    ('encryption = "required"\nidle_seconds = 0\n', "required"),  # another setting is invalid
    ('retention_days = [\n  encryption = "required"\n', "required"),  # not TOML: the line on its own
    ("encryption = 'off'\nidle_seconds = \n", "off"),
    ('encryption = "requried"\n', "auto"),  # not a choice: the default (and the command names the typo)
    ('[table]\nencryption = "required"\n', "auto"),  # a table's key, not the setting
])
def test_the_encryption_setting_is_read_on_its_own(proactive_home: Path, text: str | None, mode: str):
    from proactive.watcher.store.home import encryption_setting

    if text is not None:
        (proactive_home / "config.toml").write_text(text)
    assert encryption_setting() == mode


# -- every command that reads config.toml refuses a bad one as `watch` does ----------------------------------------

def write_bad(path: Path, kind: str) -> None:
    """A config.toml that no command may use: a FIFO (reading it would block for ever), a binary file, a folder,
    an unknown setting, a value of the wrong type."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "binary":
        path.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4)
    elif kind == "directory":
        path.mkdir()
    elif kind == "unknown-key":
        path.write_text("idle_seconds = 60\nidle_secs = 3\n")
    else:
        path.write_text('retention_days = "7"\n')


BAD_KINDS = ("fifo", "binary", "directory", "unknown-key", "bad-type")
#: every command that reads config.toml (its settings, or the store, which reads its `encryption`)
READERS = {"watch": ["watch", "--no-aw"], "run": ["run", "--headless", "--no-aw"], "tray": ["tray", "--no-aw"],
           "decide": ["decide", "1", "accepted"], "purge": ["purge", "--all", "--yes"], "status": ["status"],
           "episodes": ["episodes"], "export": ["export", "--out", "{tmp}/rows.jsonl"], "annotate": ["annotate"]}


def no_desktop() -> dict[str, str]:
    """This environment without a desktop session: a command that went on past the config could not open a
    window in the test process."""
    return {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}


@pytest.mark.parametrize("kind", BAD_KINDS)
def test_every_command_that_reads_the_config_refuses_a_bad_one(proactive_home: Path, tmp_path: Path, kind: str):
    """Each command, in turn, on the same bad file: exit 2 and one line on stderr naming the file (the line
    `watch` prints), before anything is created or any window opens, and never blocked on a FIFO."""
    config = proactive_home / "config.toml"
    write_bad(config, kind)
    env = no_desktop()
    lines, wrong = {}, {}
    for name, args in READERS.items():
        out = run_cli(*[a.format(tmp=tmp_path) for a in args], env=env)
        lines[name] = out.stderr.strip()
        if out.returncode != 2 or len(out.stderr.strip().splitlines()) != 1 or not out.stderr.startswith(
                f"proactive: error: {config}: "):
            wrong[name] = (out.returncode, out.stderr[-300:])
    assert not wrong, wrong
    assert len(set(lines.values())) == 1, lines  # one check, one line
    assert not (proactive_home / "proactive.db").exists() and not (tmp_path / "rows.jsonl").exists()
    # `doctor` is a report (exit 0 whatever is wrong): it shows the same line as its finding
    out = run_cli("doctor", "--json", env=env)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["config"]["problem"] == lines["watch"].removeprefix("proactive: error: ")


def test_commands_that_read_no_setting_still_work_beside_a_bad_config(proactive_home: Path):
    """A broken config.toml never stops a pause (privacy comes first) nor a resume: they read no setting."""
    write_bad(proactive_home / "config.toml", "fifo")
    out = run_cli("pause", "--for", "5m", env=no_desktop())
    assert out.returncode == 0 and "capture paused until" in out.stdout, out.stderr
    out = run_cli("resume", env=no_desktop())
    assert out.returncode == 0 and "capture resumed" in out.stdout, out.stderr


def test_a_command_loads_the_config_once(proactive_home: Path, monkeypatch: pytest.MonkeyPatch):
    """The check and the command share one reading of the file: what was checked is what is used."""
    from proactive.assistant import setup

    (proactive_home / "config.toml").write_text("activitywatch = false\n")
    calls = []
    real = setup.load_config
    monkeypatch.setattr(setup, "load_config", lambda: calls.append(1) or real())
    out = run_cli("purge", "--all", "--yes", env=no_desktop())
    assert out.returncode == 0, out.stderr
    assert calls == [1]
