"""The watcher's commands: capture (`watch`), what was captured (`episodes`, `status`), privacy (`pause`,
`resume`, `purge`, `accessibility`), the database's key and GNOME's focus extension. The entry point
(`proactive.app.cli`) adds them with `register`.
"""

from __future__ import annotations

import json
import math
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from proactive.watcher import control, service
from proactive.watcher.command_line import (
    FiniteFloatRange,
    FullHelpGroup,
    db_option,
    fail,
    iso_time,
    load_config,
    open_store,
    parse_duration,
    parse_time,
    reads_config,
    require_subcommand,
    until_text,
)
from proactive.watcher.episodes.wording import plural
from proactive.watcher.store import home
from proactive.watcher.store.database import StoreError


@click.command()
@reads_config
@db_option
@click.option("--no-aw", is_flag=True, help="Do not talk to a local ActivityWatch server.")
@click.option("-v", "--verbose", is_flag=True, help="Debug logging on stderr.")
def watch(db: str | None, no_aw: bool, verbose: bool) -> None:
    """Capture activity until SIGINT/SIGTERM, then flush and exit 0.

    SIGUSR1 pauses capture, SIGUSR2 resumes it (or use `proactive pause` / `proactive resume`)."""
    service.watch(db, no_aw, verbose, load_config())


#: How long `episodes` waits for a running watcher to write what it holds (it answers at its next flush, within a
#: second; a stopped one never does, and the database is read as it is)
FLUSH_WAIT = 2.0


@click.command()
@reads_config
@db_option
@click.option("--since", help="Only episodes ending at or after this time: ISO 8601 (2026-11-22T09:30) or a time "
                              "ago (2h, 30m, 1d, 1w).")
@click.option("-n", "last", type=click.IntRange(1), help="Only the last N episodes.")
@click.option("--json", "as_json", is_flag=True, help='One JSON object per line: {"time","event","app","title"}.')
def episodes(db: str | None, since: str | None, last: int | None, as_json: bool) -> None:
    """Print captured episodes, oldest first, one per line (a running watcher first writes what it holds)."""
    from proactive.watcher.episodes.builder import unstored_episodes

    since_ts = parse_time(since, "--since") if since is not None else None
    path = Path(db or home.db_path())
    if not path.exists() and not path.is_symlink():  # a new home: no episodes yet, which is no error
        click.echo(f"no episodes yet: nothing captured in {path} (start with `proactive run`)", err=True)
        return
    control.flush_running_watcher(FLUSH_WAIT)  # a running watcher's last second is shown too
    store = open_store(db, readonly=True)
    try:
        rows = store.episodes(since_ts)
        # the episode still open (watcher running, or killed) is built from the raw events after the last one
        rows += [e.row() for e in unstored_episodes(store) if since_ts is None or e.end >= since_ts]
    except StoreError as exc:
        fail(str(exc))
    except Exception as exc:  # sqlite3.DatabaseError and friends: an old or damaged database
        fail(f"{store.path}: cannot read episodes ({exc})")
    finally:
        store.close()
    for row in rows[-last:] if last else rows:
        if as_json:
            click.echo(json.dumps({"time": f"{row['start']:.3f}", "event": row["event"], "app": row["app"],
                                   "title": row["title"]}, ensure_ascii=False))
        else:
            stamp = datetime.fromtimestamp(row["start"]).strftime("%Y-%m-%d %H:%M:%S")
            click.echo(f"{stamp}  {row['event']}")


@click.command()
@reads_config
@db_option
@click.option("--before", help="Delete everything captured before this time: ISO 8601 (2026-11-22T09:30) or a "
                               "time ago (2h, 30m, 1d, 1w).")
@click.option("--all", "everything", is_flag=True, help="Delete everything, and the logs.")
@click.option("-y", "--yes", is_flag=True, help="Do not ask for confirmation (--all).")
@click.option("--wait", type=FiniteFloatRange(0.1, 3600), default=60, show_default=True,
              help="Seconds to wait for a running watcher to apply the purge, and for programs reading the "
                   "database to finish.")
def purge(db: str | None, before: str | None, everything: bool, yes: bool, wait: float) -> None:
    """Delete captured data everywhere: the database (bytes overwritten, WAL truncated, full-text index merged),
    the running watcher's memory, the episodes published to ActivityWatch, the caches and (--all) the logs."""
    from proactive.watcher.store.purging import PurgeError, purge as purge_everywhere

    if (before is not None) == everything:
        fail("purge: give exactly one of --before TIME or --all")
    cutoff = parse_time(before, "--before") if before is not None else None
    config = load_config()
    if everything and not yes:
        if not sys.stdin.isatty():  # a pipe or a script cannot be asked: only --yes says it is meant
            fail("purge --all: nobody to ask for confirmation (input is not a terminal); add --yes to delete "
                 "everything")
        click.confirm("Delete everything captured, and the logs?", abort=True)
    if Path(db or home.db_path()).exists():  # none: nothing captured, and none is created for the purge
        open_store(db).close()  # an unusable database: exit 2 with its line, before asking the watcher
    try:
        report = purge_everywhere(db, cutoff, config, timeout=wait)
    except (PurgeError, StoreError) as exc:
        fail(str(exc))
    for line in report.lines():
        click.echo(line)
    if report.activitywatch_error:
        sys.exit(1)


@click.command()
@click.option("--for", "for_", help="Pause for a while (15m, 1h, 1h30m, 2d) instead of until `proactive resume`.")
def pause(for_: str | None) -> None:
    """Pause capture (also: send SIGUSR1 to the watcher)."""
    until = time.time() + parse_duration(for_) if for_ is not None else math.inf
    pause_id = control.write_pause(until)
    pid = control.signal_watcher(control.PAUSE_SIGNAL)
    if pid and not control.wait_acknowledged(pause_id):
        fail(f"the watcher (pid {pid}) did not confirm the pause within 5 s; stop it with: kill {pid}")
    click.echo(f"capture paused {until_text(until)}" + ("" if pid else " (no watcher running now)"))


@click.command()
def resume() -> None:
    """Resume capture (also: send SIGUSR2 to the watcher)."""
    control.clear_pause()
    pid = control.signal_watcher(control.RESUME_SIGNAL)
    if pid and not control.wait_acknowledged(""):  # (the acknowledgement of no pause)
        fail(f"the watcher (pid {pid}) did not confirm the resume within 5 s; stop it with: kill {pid}")
    click.echo("capture resumed" + ("" if pid else " (no watcher running now)"))


@click.command()
@reads_config
@db_option
@click.option("--json", "as_json", is_flag=True,
              help='One JSON object: {"home","places","paths","watcher","capture","paused","paused_until",'
                   '"database","encryption"}.')
def status(db: str | None, as_json: bool) -> None:
    """Show whether a watcher runs, whether capture is on or paused, what is stored and where each file lives.

    The places are the platform's (XDG on Linux) or PROACTIVE_HOME's one folder (watcher.home.Places); "home"
    in --json is the data folder, the one folder of older versions."""
    pid = control.running_pid()
    until = control.read_pause()
    path = Path(db) if db else home.db_path()
    capture = "off" if not pid else "capturing" if until is None else "paused"
    info: dict[str, Any] = {
        "home": str(home.data_dir()),  # the data folder (PROACTIVE_HOME when set): older versions' one folder
        "places": home.places().as_dict(),
        "paths": {name: str(p) for name, p in [
            ("config", home.config_path()), ("database", path), ("models", home.models_dir()),
            ("logs", home.places().logs / "proactive.log"), ("cache", home.places().cache),
            ("pause", control.pause_path()),
            ("pid", control.pid_path()), ("lock", control.lock_path())]},
        "watcher": {"running": bool(pid), "pid": pid or None},
        # the tray app, where `proactive run` supervises one (None: headless, `watch`, or nothing running)
        "tray": control.read_tray_state() if pid else None,
        "capture": capture, "paused": until is not None,
        "paused_until": None if until is None else iso_time(until),
        "database": None, "encryption": None,
    }
    if path.exists():
        from proactive.watcher.store import crypto

        state = crypto.file_state(path)  # before opening: the header is read once per process
        store = open_store(str(path), readonly=True)
        try:
            info["database"] = {"path": str(path), "raw_events": store.count("raw_events"),
                                "episodes": store.count("episodes")}
        finally:
            store.close()
        info["encryption"] = state
    if as_json:
        click.echo(json.dumps(info))
        return
    pause = "" if until is None else until_text(until)
    click.echo(f"watcher: {f'running (pid {pid})' if pid else 'not running'}")
    click.echo("capture: " + {"capturing": "capturing", "paused": f"paused {pause}",
                              "off": "off (no watcher running: start `proactive run` or the tray app)"
                              + (f"; paused {pause} once one starts" if pause else "")}[capture])
    if info["tray"]:
        click.echo(f"tray: {tray_text(info['tray'])}")
    if info["database"]:
        click.echo(f"database: {path} ({plural(info['database']['raw_events'], 'raw event')}, "
                   f"{plural(info['database']['episodes'], 'episode')})")
        click.echo("encryption: " + {"encrypted": "encrypted at rest (key in the OS keyring)",
                                     "plain": "none: stored unencrypted (no OS keyring, or encryption = \"off\")"}
                   .get(info["encryption"], info["encryption"]))
    else:
        click.echo(f"database: {path} (not created yet)")
    click.echo("places:")
    for line in home.place_lines(info["places"]):
        click.echo(line)


def tray_text(state: dict[str, Any]) -> str:
    """The supervised tray app's state in words: running, being restarted, or stopped (capture goes on)."""
    restarts = state.get("restarts") or 0
    last = f"; last stopped: {state['last_stop']}" if state.get("last_stop") else ""
    again = f", restarted {plural(restarts, 'time')}" if restarts else ""
    return {"running": f"running (pid {state.get('pid')}{again}{last})",
            "restarting": f"being started again{again}{last}",
            "stopped": f"stopped and not started again (capture and the assistant go on{again}{last}); restart "
                       "`proactive run` to bring it back"}.get(str(state.get("state")), str(state.get("state")))


@click.group(cls=FullHelpGroup, invoke_without_command=True, no_args_is_help=False)
@click.pass_context
def key(ctx: click.Context) -> None:
    """The database's encryption key, kept in the OS keyring: move it to another machine."""
    require_subcommand(ctx)


@key.command("export")
@db_option
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
def key_export(db: str | None, file: str | None) -> None:
    """Write the database's key to FILE (created mode 0600), or to stdout without FILE or with '-'. Whoever has
    it and the database file can read everything captured: keep it as you would the data."""
    import os

    from proactive.watcher.store import crypto

    path = Path(db) if db else home.db_path()
    try:
        text = crypto.export_key(path) + "\n"
    except crypto.EncryptionError as exc:
        fail(str(exc))
    if file is None or file == "-":
        click.echo(text, nl=False)
        return
    try:
        fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            os.fchmod(out.fileno(), 0o600)  # a file that already existed keeps no wider mode
            out.write(text)
    except OSError as exc:
        fail(f"{file}: cannot write ({exc.strerror or exc})")
    click.echo(f"key of {path} written to {file} (mode 0600)", err=True)


#: Bytes read at most from a key file: `key export` writes 65.
KEY_FILE_LIMIT = 4096


@key.command("import")
@db_option
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
def key_import(db: str | None, file: str) -> None:
    """Store the key in FILE ('-' reads stdin), written by `proactive key export`, in this machine's OS keyring
    for the database. A key that does not open an encrypted database is refused (exit 2); a plain database is
    encrypted with it at the next start."""
    from proactive.watcher.store import crypto

    path = Path(db) if db else home.db_path()
    try:  # a key is 65 bytes: a FIFO, a device or a large file is refused, not read without end
        data = (sys.stdin.buffer.read(KEY_FILE_LIMIT + 1) if file == "-"
                else home.read_small_file(Path(file), KEY_FILE_LIMIT))
        if len(data) > KEY_FILE_LIMIT:
            fail(f"{file}: larger than {KEY_FILE_LIMIT} bytes: not a proactive database key (`proactive key "
                 "export` writes 65)")
        text = data.decode("utf-8")
    except ValueError as exc:  # not a regular file, or not UTF-8 text
        fail(f"{file}: {exc}; give a file" if not isinstance(exc, UnicodeDecodeError)
             else f"{file}: not a key (not UTF-8 text)")
    except OSError as exc:
        fail(f"{file}: cannot read ({exc.strerror or exc})")
    try:
        click.echo(crypto.import_key(path, text))
    except crypto.EncryptionError as exc:
        fail(f"{file}: {exc}")


@click.command("accessibility")
@click.argument("state", required=False, type=click.Choice(["on", "off"]))
@reads_config
def accessibility_command(state: str | None) -> None:
    """Say whether this desktop's toolkit accessibility is on; `on` turns it on and has the watcher turn it on at
    each start, `off` stops the watcher doing so (both remembered in config.toml). With it on, GTK, Qt and the
    browsers say what each field is, so the watcher keeps what you type in their ordinary fields and drops their
    password fields; with it off, text typed in most applications is kept only as a count of characters. It is the
    desktop's own setting (org.a11y.Status, GNOME's toolkit-accessibility), which screen readers use too, so `off`
    leaves it as it is (turn it off with `gsettings set org.gnome.desktop.interface toolkit-accessibility
    false`)."""
    from proactive.watcher.capture.atspi import set_toolkit_accessibility, toolkit_accessibility

    if state is not None:
        problem = set_toolkit_accessibility(True) if state == "on" else ""
        if problem:
            fail(f"accessibility: it could not be turned on here: {problem}")
        try:
            home.save_setting("accessibility", state)
        except (OSError, ValueError) as exc:
            fail(f"accessibility is {state} now, but config.toml could not be written ({exc}): set "
                 f'accessibility = "{state}" there')
    now = toolkit_accessibility()
    if now is None:
        click.echo("accessibility: unknown (no accessibility bus answers in this session); typed text in "
                   "applications is kept only as a count of characters")
    elif now:
        click.echo("accessibility: on (applications started from now on say what their fields are; restart the "
                   "ones already open)")
    else:
        click.echo("accessibility: off; typed text in applications is kept only as a count of characters "
                   "(turn it on: proactive accessibility on)")


@click.command("gnome-extension")
@click.argument("action", type=click.Choice(["install", "remove"]))
def gnome_extension_command(action: str) -> None:
    """GNOME only: install (or remove) Proactive's own GNOME Shell extension, which tells the watcher which window
    has the focus (GNOME tells no application on Wayland). It is copied into your extensions folder and enabled;
    GNOME loads it at the next login (log out and back in). It reads nothing but the focused window's title,
    class and process."""
    from proactive.watcher.capture import gnome_extension

    try:
        lines = gnome_extension.install() if action == "install" else gnome_extension.remove()
    except gnome_extension.ExtensionError as exc:
        fail(str(exc))
    for line in lines:
        click.echo(line)


def register(group: click.Group) -> None:
    """Add the watcher's commands to the `proactive` group."""
    for command in (watch, episodes, purge, pause, resume, status, key, accessibility_command,
                    gnome_extension_command):
        group.add_command(command)
