"""A long day: the watcher driven through a compressed day of activity for 30 minutes or more.

Starts Xvfb + openbox and a dozen titled windows (xterms, some started under the names of editors, browsers, mail
and chat so the watcher sees those applications), writes a config with a short `idle_seconds` and a short
`retention_days` (0.005 days = 7.2 minutes, applied every retention/24 = 18 s), starts `proactive watch --no-aw`
and cycles through the phases of a working day: coding, a build shell, mail, chat, reading docs (scrolls and
pointer moves), writing a report, quick switches between windows, copies with xclip, short idle pauses longer than
`idle_seconds` and a longer "meeting". Every 30 s it samples the watcher process (RSS, cumulative CPU seconds,
open files, threads) and the database (bytes of the file and its WAL, rows in raw_events and episodes).

Reports RSS after the warm-up (2 minutes) and at the end and its growth per hour, CPU (% of one core), database
bytes per hour of activity (measured before retention first deletes anything), the largest database size, and
whether the size levelled off once retention started (last third of the run against the middle third). Ends by
sending SIGTERM and checking that the watcher exits cleanly (exit code 0, "watcher stopped" logged, database
intact). Prints a JSON summary and a markdown table row; --out writes every sample (JSON, or CSV by suffix).

    .venv/bin/python bench/soak.py [--minutes 30] [--retention-days 0.005] [--idle-seconds 5] [--out FILE]
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.watcher_overhead import WORDS, mover, script  # noqa: E402
from bench.xsession import XSession, start_x, wait_for  # noqa: E402

# (program name the xterm runs under, window title): the program name is what the watcher reports as the app
WINDOWS = {
    "editor": ("code", "billing.py - invoices - Visual Studio Code"),
    "tests": ("code", "test_billing.py - invoices - Visual Studio Code"),
    "shell": ("xterm", "build shell"),
    "logs": ("xterm", "server log - tail"),
    "docs": ("firefox", "sqlite3 - Python docs - Mozilla Firefox"),
    "forum": ("firefox", "Stack Overflow - Mozilla Firefox"),
    "review": ("firefox", "Pull request 42 - GitHub - Mozilla Firefox"),
    "mail": ("thunderbird", "Inbox - Thunderbird"),
    "chat": ("slack", "team-chat - Slack"),
    "report": ("libreoffice", "quarterly report.odt - LibreOffice Writer"),
    "sheet": ("libreoffice", "budget.ods - LibreOffice Calc"),
    "notes": ("emacs", "TODO.org - Emacs"),
}

CODE_LINES = ["def total(invoice):", "    return sum(line.amount for line in invoice.lines)",
              "assert total(sample) == 42", "import sqlite3", "rows = db.execute(query).fetchall()",
              "for row in rows: print(row)", "class Invoice:", "    due: datetime.date"]
SHELL_LINES = ["make test", "git status", "git diff --stat", "pytest -x tests/test_billing.py", "ls -la",
               "tail -n 50 server.log", "python -m invoices.report --month 3"]
COPIES = [
    "Traceback (most recent call last):\n  File \"billing.py\", line 12, in total\nTypeError: unsupported operand",
    "https://docs.python.org/3/library/sqlite3.html#sqlite3.Connection.execute",
    "SELECT id, amount FROM invoices WHERE due < date('now')",
    "alice@example.com",
    "Q3 revenue grew 12% over Q2, driven by the new billing plans.",
    "def total(invoice):\n    return sum(line.amount for line in invoice.lines)",
]


class Day:
    """A user going through a compressed working day in the session's windows."""

    def __init__(self, session: XSession, windows: dict[str, str], idle_seconds: float, seed: int = 11):
        self.s = session
        self.windows = windows
        self.idle_seconds = idle_seconds
        self.rng = random.Random(seed)
        self.phase = "start"
        self.until = float("inf")
        self.counts: Counter[str] = Counter()
        self.typing_seconds = 0.0
        self.lines = iter(script(10**7, seed=seed))  # endless lines of words

    # -- what a user does ------------------------------------------------------------------------------------

    def focus(self, name: str) -> None:
        self.s.activate(self.windows[name])
        self.counts["switches"] += 1

    def type_line(self, text: str, enter: bool = True) -> None:
        t0 = time.monotonic()
        self.s.type(text, delay_ms=self.rng.randint(150, 260))  # about 8-13 keys/s
        if self.rng.random() < 0.3:  # a typo fixed
            self.s.key("BackSpace", "BackSpace")
            self.s.type(text[-2:], delay_ms=200)
            self.counts["keys"] += 4
        if enter:
            self.s.key("Return")
        self.typing_seconds += time.monotonic() - t0
        self.counts["keys"] += len(text) + int(enter)
        self.counts["lines"] += int(enter)

    def words(self) -> str:
        return next(self.lines)

    def copy(self) -> None:
        self.s.copy(self.rng.choice(COPIES))
        self.counts["copies"] += 1
        time.sleep(0.3)

    def scroll(self, steps: int) -> None:
        self.s.xdotool("click", "--repeat", str(steps), "--delay", "80", self.rng.choice(("4", "5", "5")))
        self.counts["scroll_steps"] += steps

    def click(self) -> None:
        self.s.xdotool("mousemove", str(self.rng.randint(100, 500)), str(self.rng.randint(100, 300)), "click", "1")
        self.counts["clicks"] += 1

    def point(self, seconds: float) -> None:
        stop = threading.Event()
        moved = {"n": 0}
        thread = threading.Thread(target=lambda: moved.update(n=mover(self.s.env, 20.0, stop)))
        thread.start()
        time.sleep(seconds)
        stop.set()
        thread.join()
        self.counts["pointer_moves"] += moved["n"]

    def idle(self, seconds: float) -> None:
        seconds = max(0.0, min(seconds, self.until - time.monotonic()))  # the run ends on time, even in a meeting
        time.sleep(seconds)
        self.counts["idle_periods"] += 1
        self.counts["idle_seconds"] += round(seconds)

    # -- phases of the day -----------------------------------------------------------------------------------

    def coding(self) -> None:
        for name in ("editor", "tests"):
            self.focus(name)
            for _ in range(self.rng.randint(2, 4)):
                self.type_line(self.rng.choice(CODE_LINES))
            self.s.key("ctrl+s", "ctrl+q")  # save (XOFF in an xterm, so ctrl+q after it)
            self.counts["hotkeys"] += 2

    def build(self) -> None:
        self.focus("shell")
        for _ in range(self.rng.randint(2, 3)):
            self.type_line(self.rng.choice(SHELL_LINES))
        self.focus("logs")
        self.scroll(self.rng.randint(3, 8))
        self.copy()

    def mail(self) -> None:
        self.focus("mail")
        self.scroll(self.rng.randint(2, 5))
        self.click()
        self.type_line(self.words())
        self.type_line(self.words())
        if self.rng.random() < 0.5:
            self.copy()

    def chat(self) -> None:
        self.focus("chat")
        for _ in range(self.rng.randint(1, 3)):
            self.type_line(self.words())
            time.sleep(self.rng.uniform(1, 3))

    def reading(self) -> None:
        self.focus(self.rng.choice(("docs", "forum", "review")))
        for _ in range(self.rng.randint(2, 4)):
            self.scroll(self.rng.randint(2, 6))
            self.point(self.rng.uniform(1, 3))
        self.copy()
        if self.rng.random() < 0.5:
            self.click()
            self.type_line(" ".join(self.rng.sample(WORDS, 3)))  # a search

    def writing(self) -> None:
        self.focus(self.rng.choice(("report", "sheet", "notes")))
        for _ in range(self.rng.randint(2, 4)):
            self.type_line(self.words())

    def switching(self) -> None:
        for name in self.rng.sample(sorted(self.windows), self.rng.randint(4, 7)):
            self.focus(name)
            time.sleep(self.rng.uniform(0.5, 2))

    def short_idle(self) -> None:
        self.idle(self.idle_seconds + self.rng.uniform(2, 8))

    def meeting(self) -> None:
        self.idle(self.rng.uniform(40, 70))

    # the order of one compressed day (about 4-5 minutes); the run repeats it until time is up
    DAY = ("mail", "chat", "coding", "build", "short_idle", "reading", "coding", "switching", "build", "writing",
           "short_idle", "meeting", "chat", "reading", "coding", "build", "short_idle", "writing", "mail",
           "switching", "short_idle")

    def run(self, until: float) -> None:
        self.until = until
        while True:
            for phase in self.DAY:
                if time.monotonic() >= until:
                    return
                self.phase = phase
                getattr(self, phase)()
                self.counts["phases"] += 1
            self.counts["days"] += 1


def db_stats(db: Path, after_id: int, after_episode: int) -> dict[str, Any]:
    """Sizes and row counts of the watcher's database; the raw events stored after id `after_id` (by kind) and
    the episodes after id `after_episode`. Once retention has emptied a table SQLite hands out ids from 1 again:
    a newest id below the last one seen means every row is new."""
    out: dict[str, Any] = {"db_bytes": db.stat().st_size if db.exists() else 0}
    wal = db.with_name(db.name + "-wal")
    out["wal_bytes"] = wal.stat().st_size if wal.exists() else 0
    if not db.exists():
        return out
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        n, newest = conn.execute("SELECT count(*), coalesce(max(id), 0) FROM raw_events").fetchone()
        out.update(raw_events=n, raw_max_id=newest, raw_ids_restarted=newest < after_id)
        after_id = after_id if newest >= after_id else 0
        out["new_by_kind"] = dict(conn.execute("SELECT kind, count(*) FROM raw_events WHERE id > ? GROUP BY kind",
                                               [after_id]).fetchall())
        n, newest = conn.execute("SELECT count(*), coalesce(max(id), 0) FROM episodes").fetchone()
        after_episode = after_episode if newest >= after_episode else 0
        out.update(episodes=n, episode_max_id=newest, new_episodes=newest - after_episode)
    finally:
        conn.close()
    return out


class Sampler(threading.Thread):
    """Samples the watcher process and its database every `every` seconds (and once at the start)."""

    def __init__(self, proc: psutil.Process, db: Path, every: float, day: Day):
        super().__init__(daemon=True)
        self.proc, self.db, self.every, self.day = proc, db, every, day
        self.samples: list[dict[str, Any]] = []
        self.kinds: Counter[str] = Counter()
        self.t0 = time.monotonic()
        self.done = threading.Event()
        self.error: str | None = None

    def sample(self) -> dict[str, Any]:
        with self.proc.oneshot():
            cpu = self.proc.cpu_times()
            row = {"t": round(time.monotonic() - self.t0, 1), "phase": self.day.phase,
                   "rss": self.proc.memory_info().rss, "cpu_s": round(cpu.user + cpu.system, 2),
                   "fds": self.proc.num_fds(), "threads": self.proc.num_threads()}
        last = self.samples[-1] if self.samples else {}
        row.update(db_stats(self.db, last.get("raw_max_id", 0), last.get("episode_max_id", 0)))
        self.kinds.update(row.pop("new_by_kind", {}))
        # cumulative rows written: what retention deleted is still counted
        row["raw_written"] = sum(self.kinds.values())
        row["episodes_written"] = last.get("episodes_written", 0) + row.pop("new_episodes", 0)
        self.samples.append(row)
        return row

    def run(self) -> None:
        try:
            while not self.done.is_set():
                self.sample()
                self.done.wait(self.every - (time.monotonic() - self.t0) % self.every)
        except (psutil.Error, sqlite3.Error, OSError) as exc:
            self.error = f"{type(exc).__name__}: {exc}"


def slope_per_hour(samples: list[dict[str, Any]], key: str) -> float:
    """Least-squares slope of `key` against time, per hour."""
    if len(samples) < 2:
        return 0.0
    ts = [s["t"] for s in samples]
    ys = [s[key] for s in samples]
    mt, my = sum(ts) / len(ts), sum(ys) / len(ys)
    var = sum((t - mt) ** 2 for t in ts)
    return 3600 * sum((t - mt) * (y - my) for t, y in zip(ts, ys, strict=True)) / var if var else 0.0


MB = 2**20


def _mean(rows: list[dict[str, Any]], key: str) -> float:
    return sum(r[key] for r in rows) / len(rows) if rows else float("nan")


def _process_figures(samples: list[dict[str, Any]], start: dict[str, Any]) -> dict[str, Any]:
    """Memory, CPU, descriptors and threads of the watcher, from `start` (after the warm-up) to the end."""
    first, end = samples[0], samples[-1]
    post = [s for s in samples if s["t"] >= start["t"]]
    hours = (end["t"] - start["t"]) / 3600 or float("nan")
    return {
        "rss_start_mb": round(start["rss"] / MB, 1),
        "rss_end_mb": round(end["rss"] / MB, 1),
        "rss_peak_mb": round(max(s["rss"] for s in samples) / MB, 1),
        "rss_growth_mb_per_hour": round((end["rss"] - start["rss"]) / MB / hours, 2),
        "rss_slope_mb_per_hour": round(slope_per_hour(post, "rss") / MB, 2),
        "cpu_percent_of_one_core": round(100 * (end["cpu_s"] - start["cpu_s"]) / (end["t"] - start["t"]), 2),
        "cpu_percent_whole_run": round(100 * (end["cpu_s"] - first["cpu_s"]) / end["t"], 2),
        "fds_start_end": [start["fds"], end["fds"]],
        "threads_start_end": [start["threads"], end["threads"]],
    }


def _database_figures(samples: list[dict[str, Any]], deleting: dict[str, Any] | None) -> dict[str, Any]:
    """The database's growth before retention deletes anything, what was written, and its sizes."""
    first, end = samples[0], samples[-1]
    # retention deletes only once the first events are older than retention_days: before that the database
    # holds everything written, so its growth is the bytes an hour of this activity costs. The file's growth,
    # not the WAL's: the WAL is a journal, emptied into the file at every checkpoint (each retention pass)
    grow = [s for s in samples if deleting is None or s["t"] < deleting["t"]]
    return {
        "db_mb_per_hour": round(slope_per_hour(grow, "db_bytes") / MB, 2),
        "db_growth_measured_minutes": round((grow[-1]["t"] - first["t"]) / 60, 1),
        "raw_events_written": end["raw_written"],
        "raw_events_per_hour": round(end["raw_written"] / (end["t"] / 3600)),
        "episodes_written": end["episodes_written"],
        "db_max_mb": round(max(s["size"] for s in samples) / MB, 2),
        "db_file_max_mb": round(max(s["db_bytes"] for s in samples) / MB, 2),
        "wal_max_mb": round(max(s["wal_bytes"] for s in samples) / MB, 2),
        "db_end_mb": round(end["size"] / MB, 2),
        "db_file_end_mb": round(end["db_bytes"] / MB, 2),
    }


def _plateau_figures(samples: list[dict[str, Any]], deleting: dict[str, Any] | None) -> dict[str, Any]:
    """The last third of the run against the middle third: a database that retention keeps level."""
    end = samples[-1]
    third = end["t"] / 3
    middle = [s for s in samples if third <= s["t"] < 2 * third]
    last = [s for s in samples if s["t"] >= 2 * third]
    ratio = _mean(last, "size") / _mean(middle, "size") if middle else float("nan")
    file_ratio = _mean(last, "db_bytes") / _mean(middle, "db_bytes") if middle else float("nan")
    rows_ratio = _mean(last, "raw_events") / _mean(middle, "raw_events") if middle else float("nan")
    return {
        "retention_first_deleted_minute": round(deleting["t"] / 60, 1) if deleting else None,
        "size_last_third_over_middle_third": round(ratio, 3),
        "db_file_last_third_over_middle_third": round(file_ratio, 3),
        "rows_last_third_over_middle_third": round(rows_ratio, 3),
        "raw_events_held_end": end["raw_events"],
        "raw_id_restarts": sum(bool(s.get("raw_ids_restarted")) for s in samples),
        "plateaued": bool(deleting is not None and deleting["t"] <= third and file_ratio <= 1.10),
    }


def summarize(samples: list[dict[str, Any]], warmup: float, retention_days: float) -> dict[str, Any]:
    """The soak's figures: the process's, the database's and the plateau's (see each)."""
    for s in samples:
        s["size"] = s["db_bytes"] + s["wal_bytes"]
    first, end = samples[0], samples[-1]
    start = next((s for s in samples if s["t"] >= warmup), first)
    deleting = next((s for s in samples if s["raw_events"] < s["raw_written"]), None)
    return {"minutes": round(end["t"] / 60, 1), "samples": len(samples), "warmup_minutes": round(start["t"] / 60, 1),
            **_process_figures(samples, start), **_database_figures(samples, deleting),
            "retention_days": retention_days, **_plateau_figures(samples, deleting)}


def stop_watcher(watcher: subprocess.Popen, log: Path, stderr: Path, db: Path) -> dict[str, Any]:
    """SIGTERM, then: exit code, seconds to exit, "watcher stopped" logged, no traceback, database intact."""
    t0 = time.monotonic()
    watcher.send_signal(signal.SIGTERM)
    try:
        code = watcher.wait(timeout=60)
    except subprocess.TimeoutExpired:
        watcher.kill()
        code = watcher.wait()
        return {"sigterm_exit_code": None, "clean_exit": False, "problem": "did not exit within 60 s of SIGTERM"}
    text = log.read_text(errors="replace")
    err = stderr.read_text(errors="replace")
    conn = sqlite3.connect(db)
    try:
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
        # an episode covers raw events first_raw_id..last_raw_id: a reversed range points at no event at all
        reversed_ranges = conn.execute("SELECT count(*) FROM episodes WHERE first_raw_id > last_raw_id").fetchone()[0]
    finally:
        conn.close()
    result = {"sigterm_exit_code": code, "sigterm_exit_seconds": round(time.monotonic() - t0, 2),
              "stopped_logged": "watcher stopped" in text,
              "log_errors": sum(1 for line in text.splitlines() if " ERROR " in line or " CRITICAL " in line),
              "tracebacks": text.count("Traceback") + err.count("Traceback"), "db_integrity": integrity,
              "episodes_with_reversed_raw_range": reversed_ranges}
    result["clean_exit"] = (code == 0 and result["stopped_logged"] and not result["tracebacks"]
                            and integrity == "ok")
    return result


def write_samples(path: Path, samples: list[dict[str, Any]]) -> None:
    if path.suffix == ".csv":
        keys = list(dict.fromkeys(k for s in samples for k in s))
        with path.open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=keys)
            writer.writeheader()
            writer.writerows(samples)
    else:
        path.write_text(json.dumps(samples, indent=1))


def markdown_row(r: dict[str, Any], args: argparse.Namespace) -> str:
    plateau = "levelled off" if r["plateaued"] else "**still growing**"
    return (f"| a long day: {r['minutes']} min of a compressed day (12 windows, typing, copies, scrolls, idle), "
            f"Xvfb, retention {args.retention_days} days | `.venv/bin/python bench/soak.py --minutes "
            f"{args.minutes:g} --retention-days {args.retention_days:g}` | RSS {r['rss_start_mb']} -> "
            f"{r['rss_end_mb']} MB ({r['rss_growth_mb_per_hour']:+} MB/h); CPU {r['cpu_percent_of_one_core']}% "
            f"of one core; database {r['db_mb_per_hour']} MB/h of activity before retention, then at most "
            f"{r['db_file_max_mb']} MB (+ WAL <= {r['wal_max_mb']} MB), file last third / middle third "
            f"{r['db_file_last_third_over_middle_third']} ({plateau}); SIGTERM exit "
            f"{r['sigterm_exit_code']} | bounded database, no RSS growth, clean exit |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="how long to drive the watcher")
    ap.add_argument("--retention-days", type=float, default=0.005, help="retention_days in the config")
    ap.add_argument("--idle-seconds", type=float, default=5.0, help="idle_seconds in the config")
    ap.add_argument("--warmup-minutes", type=float, default=2.0, help="RSS and CPU are measured from here on "
                                                                      "(at most a third of the run)")
    ap.add_argument("--sample-seconds", type=float, default=30.0)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", type=Path, help="write every sample here (.csv, else JSON)")
    args = ap.parse_args()
    duration = args.minutes * 60
    warmup = min(args.warmup_minutes * 60, duration / 3)

    session, stop_x = start_x()
    home = Path(tempfile.mkdtemp(prefix="proactive-soak-"))
    (home / "config.toml").write_text(f"idle_seconds = {args.idle_seconds}\nretention_days = {args.retention_days}\n")
    env = dict(session.env, PROACTIVE_HOME=str(home))
    apps = home / "apps"  # xterm under other programs' names: the watcher names the app after the process
    apps.mkdir()
    for program, _ in WINDOWS.values():
        if not (apps / program).exists():
            (apps / program).symlink_to("/usr/bin/xterm")
    db, log, stderr = home / "proactive.db", home / "logs" / "proactive.log", home / "watcher.stderr"
    watcher = None
    try:
        windows = {name: session.start_xterm(title, program=str(apps / program), command=["cat"])
                   for name, (program, title) in WINDOWS.items()}
        day = Day(session, windows, args.idle_seconds, seed=args.seed)
        day.focus("editor")
        with stderr.open("wb") as err_file:
            watcher = subprocess.Popen([sys.executable, "-m", "proactive.app.cli", "watch", "--no-aw"], env=env,
                                       cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err_file)
        wait_for(lambda: (log.exists() and "watcher started" in log.read_text()) or watcher.poll() is not None,
                 timeout=60, what="the watcher")
        if watcher.poll() is not None:
            raise SystemExit(f"the watcher exited at start: {stderr.read_text()[-2000:]}")
        sampler = Sampler(psutil.Process(watcher.pid), db, args.sample_seconds, day)
        sampler.start()
        t0 = time.monotonic()
        print(f"soak: {args.minutes:g} min, home {home}", file=sys.stderr, flush=True)
        failure: list[BaseException] = []

        def drive() -> None:
            try:
                day.run(t0 + duration)
            except BaseException as exc:  # reported by the main thread
                failure.append(exc)

        driver = threading.Thread(target=drive, daemon=True)
        driver.start()
        shown = 0
        while driver.is_alive():
            driver.join(timeout=5)
            if watcher.poll() is not None:
                raise SystemExit(f"the watcher died after {time.monotonic() - t0:.0f} s (exit {watcher.returncode}):"
                                 f" {stderr.read_text()[-2000:]}")
            if len(sampler.samples) >= shown + 4:
                shown = len(sampler.samples)
                s = sampler.samples[-1]
                print(f"  t={s['t']:.0f}s {s['phase']} rss={s['rss'] / 2**20:.1f}MB cpu={s['cpu_s']}s "
                      f"db={(s['db_bytes'] + s['wal_bytes']) / 2**20:.2f}MB rows={s.get('raw_events')}",
                      file=sys.stderr, flush=True)
        if failure:
            raise SystemExit(f"driving the session failed after {time.monotonic() - t0:.0f} s: {failure[0]!r}")
        time.sleep(2.0)  # the last batch and episode
        sampler.done.set()
        sampler.join()
        sampler.sample()  # the final sample, at the end of the activity
        samples = sampler.samples
        if sampler.error:
            raise SystemExit(f"sampling failed: {sampler.error}")
        result = summarize(samples, warmup, args.retention_days)
        result.update(stop_watcher(watcher, log, stderr, db))
        result["activity"] = dict(day.counts, typing_keys_per_second=round(day.counts["keys"] / day.typing_seconds,
                                                                          1) if day.typing_seconds else None)
        result["raw_events_by_kind"] = dict(sampler.kinds.most_common())
        result["home"] = str(home)
    finally:
        if watcher is not None and watcher.poll() is None:
            watcher.kill()
        stop_x()
    if args.out:
        write_samples(args.out, samples)
    print(json.dumps(result, indent=1))
    print(markdown_row(result, args))


if __name__ == "__main__":
    main()
