"""A working day, run live: how good the product is as a person meets it, every moment labelled by its script.

Under Xvfb + openbox + trayer (a system tray), with a private session bus and the AT-SPI bus (what a desktop
session has; toolkit accessibility off, as a desktop starts) and a private PROACTIVE_HOME, `proactive run
--model default` runs as a person starts it: the tray app in its supervised child process, default settings (no
config file). The person answers the tray's first question as most would, before opening any program: "Turn it
on" for the desktop's accessibility support (without it Firefox and Qt say nothing of their text: typing there
is only counted, and the page read is not material for help); `--no-answers` leaves the question unanswered.
A day from bench/days/NAME.json is then acted out at a person's pace with real programs: bash in
xterm and in lxterminal (a VTE terminal), vim in an xterm, Firefox ESR reading pages of bench/pages/ from a
loopback server (bench/page_server.py, which also answers searches), a Qt text editor (bench/qt_editor.py), a GTK
one (zenity's editable text window),
copies and mouse selections (xclip owning the CLIPBOARD or PRIMARY, as a terminal would), window switches, idle,
`proactive pause` / `resume` and `proactive purge`.

Each step that is a moment carries its label: `"want": false` (no help wanted) or `"want": "REGEX"` (help wanted,
and the help the person would take, as a regular expression over what Accept gives). A step with `"lead": true`
(a failing command entered, its error then copied) opens the next moment early: an offer shown after it belongs
to that moment (a search is such a lead: with the default web_search = "ask" its help, the page's points, can
only be had once a page is read). Every offer shown is accepted at the tray as soon as the person's hands are free
(bench/tray_person.py): the popup read on the accessibility bus, a real click on Accept, a web-search question
answered with its default button ("Not now"), the help window read as shown and closed, and back to the window
the person was in. The help is read off the screen because what comes from pages is held by the running
assistant only, never stored.

What it reports (a table, or --json):
- offers worth taking: wanted moments with an offer shown within WORTH_S of the moment (or of its lead) whose
  Accept gives text matching the moment's regex, over the wanted moments;
- help in hand: wanted moments with an offer worth taking, or whose labelled help an offer accepted in the
  HELD_S before the moment already gave (the page's points accepted while reading it, then the writing about
  it: offering them again would repeat them);
- interruptions per hour: offers shown while the latest moment was labelled "no help wanted" (or before any
  moment), per hour of script time;
- latency: from the moment to the offer's row seen in the database (polled every POLL_S), first offer of each
  moment within LATENCY_WITHIN_S, p50 / p95;
- precision: shown offers whose Accept gives the labelled help (of their moment), over all offers shown (an
  offer whose popup was replaced before the person could click it counts as not giving it);
- capture fidelity: each line the script typed (window by window, Enter ends a line) against the sentences stored
  ("The user types '…'"): exact, wrong (a different quote in the episode the line was typed in), missing; lines a
  sentence does not quote (past an episode's quoted lines) counted aside; sentences quoting text that was not
  typed; lines typed while paused that were stored anyway;
- crashes: the product's exit status, the tray's restarts (`proactive status --json`), error lines in the log;
- CPU (% of one core) and max RSS of `proactive run` (watcher + assistant + model) and of its tray child.

Script time: the day's own clock. Waits (reading, idle, thinking) are divided by --speed, except where that would
change what is measured: an idle of `idle_seconds` (120) or more stays above it, and a moment whose script time
is past the proactivity level's minimum interval (90 s at medium) after the last offer shown is held until real
time is too.

    .venv/bin/python bench/day.py coding [--speed 2] [--proactivity low|medium|high] [--json] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.page_server import PageServer, page_server  # noqa: E402
from bench.tray_person import accept_at_tray  # noqa: E402
from bench.wayland_session import _start_atspi, start_private_bus  # noqa: E402
from bench.xsession import XSession, start_x, wait_for  # noqa: E402
from proactive.assistant.proposals import ProposalLog  # noqa: E402
from proactive.eval.metrics import percentile  # noqa: E402
from proactive.watcher.episodes.builder import quote  # noqa: E402
from proactive.watcher.privacy.editor_keys import EX_COMMANDS, INSERT_KEYS, NEW_LINE_KEYS  # noqa: E402
from proactive.watcher.store.database import Store  # noqa: E402

PROACTIVE = str(ROOT / ".venv" / "bin" / "proactive")
DAYS = ROOT / "bench" / "days"
PAGES = ROOT / "bench" / "pages"
WORTH_S = 5.0  # an offer within this long of its moment counts as offered at it
HELD_S = 600.0  # help accepted this long before a moment is still in the person's hands at it
LATENCY_WITHIN_S = 20.0  # later than this, an offer came from something else (a switch, a pause after typing)
POLL_S = 0.25
READ_OFFER_S = 1.0  # the person reads the offer before clicking
LEVELS = {"low": 300.0, "medium": 90.0, "high": 30.0}  # the proactivity levels' interval between offers shown
IDLE_S = 120.0  # the default idle_seconds
KEY_DELAY_MS = 110  # about 9 keys a second: a person typing steadily
TYPED = re.compile(r"The user types '(.*?)'(?: and presses Enter)? in ")
WITHHELD = re.compile(r"The user types \d+ characters? in .*\(not recorded|The user types a line that is not recorded")
ACCESSIBILITY_TITLE = "Proactive: accessibility"  # the tray's question (ui/consent.py AccessibilityDialog)
ERROR_LINE = re.compile(r"\b(ERROR|CRITICAL)\b|Traceback \(most recent call last\)|tray .*(stopped|died|exit)")

FIREFOX_PREFS = {
    "browser.shell.checkDefaultBrowser": False, "browser.startup.homepage_override.mstone": "ignore",
    "browser.aboutwelcome.enabled": False, "startup.homepage_welcome_url": "",
    "datareporting.policy.dataSubmissionEnabled": False, "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.auto": False, "app.update.disabledForTesting": True, "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False, "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False, "browser.tabs.warnOnClose": False,
    "browser.sessionstore.resume_from_crash": False,
}


@dataclass
class Moment:
    """A labelled step: when it was done (real and script time), what help it wants (None: none wanted)."""

    index: int
    what: str
    at: float
    script_at: float
    want: str | None
    opened: float  # the lead's time when a lead step opened it, else `at`


@dataclass
class Offer:
    """An offer shown: its proposal row, when the bench saw it, and what its Accept gave."""

    id: int
    task: str
    response: str
    seen: float
    script_seen: float
    help: str | None = None
    accept_error: str | None = None
    consent: str | None = None


@dataclass
class Line:
    """A line the script typed in one window (Enter ends it), with when and whether capture was paused."""

    window: str
    text: str
    entered: bool
    at: float
    paused: bool


@dataclass
class Clock:
    """The script's clock: real time, with compressed waits counted at their scripted length."""

    real0: float = field(default_factory=time.time)
    skipped: float = 0.0  # script seconds that real time did not spend (the compressed part of waits)

    def now(self) -> float:
        return time.time() - self.real0 + self.skipped


class Person(threading.Thread):
    """The person's hands: accepts each offer shown at the tray, one at a time, as soon as the hands are free
    (`hands`, held by the day while it types, clicks or copies): reads the popup, clicks Accept, answers a question
    the help asks with its default button, reads the help window and closes it, and goes back to the window they
    were working in (`bench/tray_person.py`)."""

    def __init__(self, session: XSession, hands: threading.Lock):
        super().__init__(daemon=True)
        self.session, self.hands = session, hands
        self.offers: queue.Queue[Offer | None] = queue.Queue()

    def run(self) -> None:
        while (offer := self.offers.get()) is not None:
            with self.hands:
                back = self.session.active()
                time.sleep(READ_OFFER_S)
                got = accept_at_tray(self.session, offer.task, offer.response)
                offer.help, offer.accept_error, offer.consent = got.help, got.error, got.consent
                if back is not None:
                    try:
                        self.session.activate(back)
                    except AssertionError:
                        pass  # the window was closed meanwhile (a purge, the day's end)


class Watcher(threading.Thread):
    """Polls the database for proposals shown, hands each to the person (`Person`) and samples the product's CPU
    and memory."""

    def __init__(self, db: Path, clock: Clock, run: psutil.Process, person: Person):
        super().__init__(daemon=True)
        self.db, self.clock, self.run_proc, self.person = db, clock, run, person
        self.offers: list[Offer] = []
        self.silent = 0
        self.seen: set[tuple[int, float]] = set()  # (id, time) of the rows handled: a purge starts ids again
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.cpu: dict[int, tuple[str, float]] = {}  # pid -> (role, cpu seconds last seen)
        self.rss_max = {"run": 0, "tray": 0}

    def run(self) -> None:
        store: Store | None = None
        while not self.stop.wait(POLL_S):
            self.sample()
            try:
                if store is None:
                    if not self.db.exists():
                        continue
                    store = Store(self.db, readonly=True)
                rows = [p for p in ProposalLog(store).all() if (p["id"], p["ts"]) not in self.seen]
            except Exception:  # the database being created, purged or locked for a moment: next poll
                if store is not None:
                    store.close()
                store = None
                continue
            for row in rows:
                self.seen.add((row["id"], row["ts"]))
                if row["task"] is None:
                    self.silent += 1
                    continue
                offer = Offer(row["id"], row["task"], row["response"] or "", time.time(), self.clock.now())
                with self.lock:
                    self.offers.append(offer)
                self.person.offers.put(offer)
        if store is not None:
            store.close()

    def sample(self) -> None:
        """CPU seconds and RSS of `proactive run` and its children (the tray app, restarted ones included)."""
        try:
            procs = [("run", self.run_proc)] + [("tray", c) for c in self.run_proc.children(recursive=True)]
        except psutil.Error:
            return
        for role, proc in procs:
            try:
                with proc.oneshot():
                    times, rss = proc.cpu_times(), proc.memory_info().rss
            except psutil.Error:
                continue
            self.cpu[proc.pid] = (role, times.user + times.system)
            self.rss_max[role] = max(self.rss_max[role], rss)


class Day:
    """Acts out one day's steps in an X session, keeping its moments and typed lines."""

    def __init__(self, spec: dict[str, Any], session: XSession, env: dict[str, str], work: Path,
                 server: PageServer, speed: float, clock: Clock, home: Path, hands: threading.Lock,
                 interval_s: float = LEVELS["medium"]):
        self.spec, self.session, self.env, self.work = spec, session, env, work
        self.interval_s = interval_s + 1.0  # the level's interval between offers shown, and a second to spare
        self.hands = hands  # the person's hands: the day's input and the tray's Accept take turns
        self.server, self.speed, self.clock, self.home = server, speed, clock, home
        self.windows: dict[str, str] = {}  # name -> X window id
        self.procs: list[subprocess.Popen[Any]] = []
        self.groups: list[subprocess.Popen[Any]] = []  # Firefox: stopped with its content processes, as a group
        self.moments: list[Moment] = []
        self.lines: list[Line] = []
        self.pending: dict[str, str] = {}  # window -> text typed on its unfinished line
        self.vim_mode: dict[str, str] = {}  # vim window -> "normal", "insert" or "command"
        self.focused: str | None = None
        self.paused = False
        self.lead_at: float | None = None
        self.purges: list[float] = []
        self.offers: list[Offer] = []  # the watcher's list, to hold moments past the minimum interval
        self.commands: list[dict[str, Any]] = []

    # ---- windows
    def open(self, name: str) -> None:
        win = self.spec["windows"][name]
        title, app = win.get("title", name), win["app"]
        shell = ["bash", "-c", f"cd {self.work} && exec bash --norc --noprofile"]
        if app == "xterm":
            wid = self.session.start_xterm(title, command=shell)
        elif app == "vim":
            wid = self.session.start_xterm(title, command=["bash", "-c", f"cd {self.work} && exec vim -u NONE -N "
                                                           f"-c 'syntax off' {win['file']}"])
        elif app == "lxterminal":
            proc: subprocess.Popen[Any] = subprocess.Popen(["lxterminal", "--no-remote", f"--title={title}", f"--working-directory={self.work}",
                                     "-e", "bash --norc --noprofile"], env=self.env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            self.procs.append(proc)
            wid = wait_for(lambda: self.session._find(title), timeout=30, what=f"lxterminal {title!r}")
        elif app == "qt":
            proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "qt_editor.py"), title], env=self.env,
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            self.procs.append(proc)
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
            wid = wait_for(lambda: self.session._find(title), timeout=30, what=f"the Qt editor {title!r}")
        elif app == "gtk":  # a GTK text editor: zenity's editable text window (GTK 3, on the bus like gedit's)
            proc = subprocess.Popen(["zenity", "--text-info", "--editable", f"--title={title}", "--width=700",
                                     "--height=500"], env=self.env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            self.procs.append(proc)
            wid = wait_for(lambda: self.session._find(title), timeout=30, what=f"the GTK editor {title!r}")
        elif app == "firefox":
            wid = self.start_firefox(win.get("page", "/pages/python_asyncio_guide.html"))
        else:
            raise ValueError(f"unknown app {app!r}")
        self.windows[name] = wid
        self.switched(name)
        self.session.activate(wid)

    def start_firefox(self, path: str) -> str:
        root = Path(tempfile.mkdtemp(prefix="day-firefox-", dir=self.home))
        profile, home = root / "profile", root / "home"
        profile.mkdir()
        home.mkdir()
        (profile / "user.js").write_text("".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n"
                                                 for k, v in FIREFOX_PREFS.items()))
        # as root, Firefox's content sandbox cannot start
        env = dict(self.env, HOME=str(home), MOZ_DISABLE_CONTENT_SANDBOX="1", MOZ_CRASHREPORTER_DISABLE="1",
                   XDG_CONFIG_HOME=str(home / ".config"), XDG_CACHE_HOME=str(home / ".cache"))
        proc = subprocess.Popen(["firefox-esr", "--no-remote", "--new-instance", "--profile", str(profile),
                                 self.server.url + path], env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        self.groups.append(proc)

        def find() -> str | None:
            out = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "Mozilla Firefox"],
                                 env=self.env, capture_output=True, text=True, timeout=10)
            return out.stdout.split()[0] if out.stdout.split() else None

        wid = wait_for(find, timeout=60, interval=0.5, what="Firefox's window")
        time.sleep(3.0)  # the first page drawn
        return wid

    def switched(self, name: str) -> None:
        """A line left unfinished in the window left behind ends there (the next text typed is another piece)."""
        if self.focused and self.focused != name and self.pending.get(self.focused):
            self.lines.append(Line(self.focused, self.pending.pop(self.focused), False, time.time(), self.paused))
        self.focused = name

    def focus(self, name: str) -> None:
        self.switched(name)
        self.session.activate(self.windows[name])

    # ---- input
    def type(self, text: str, enter: bool) -> None:
        assert self.focused is not None, "type: no window focused yet"
        self.session.type(text, delay_ms=KEY_DELAY_MS)
        if self.spec["windows"][self.focused]["app"] == "vim":
            self.vim_typed(text, enter)
            return
        self.pending[self.focused] = self.pending.get(self.focused, "") + text
        if enter:
            self.session.key("Return")
            self.lines.append(Line(self.focused, self.pending.pop(self.focused), True, time.time(), self.paused))

    def vim_typed(self, text: str, enter: bool) -> None:
        """What a person writes in vim is what insert mode takes: normal-mode keys are commands, a command line is
        a line of its own, and saving or quitting is said as what it does, never typed text (the modes followed
        as the watcher follows them, watcher/privacy/editor_keys.py, on the script's simple keys)."""
        name = self.focused or ""
        for char in text:
            mode = self.vim_mode.get(name, "normal")
            if mode == "normal" and char in INSERT_KEYS:
                if char in NEW_LINE_KEYS:
                    self.end_line(name)
                self.vim_mode[name] = "insert"
            elif mode == "normal" and char == ":":
                self.vim_mode[name], self.pending[name] = "command", ":"
            elif mode != "normal":
                self.pending[name] = self.pending.get(name, "") + char
        if enter:
            self.session.key("Return")
            said = self.vim_mode.get(name) == "command" and self.pending.get(name, "").strip() in EX_COMMANDS
            if self.vim_mode.get(name) == "command":
                self.vim_mode[name] = "normal"
            if said:
                self.pending.pop(name, None)
            elif self.vim_mode.get(name) == "insert" or self.pending.get(name):
                self.lines.append(Line(name, self.pending.pop(name, ""), True, time.time(), self.paused))

    def vim_escape(self) -> None:
        """Escape leaves insert mode (the line typed there ends) or drops a command line."""
        name = self.focused or ""
        if self.vim_mode.get(name) == "command":
            self.pending.pop(name, None)
        else:
            self.end_line(name)
        self.vim_mode[name] = "normal"

    def end_line(self, name: str) -> None:
        if self.pending.get(name):
            self.lines.append(Line(name, self.pending.pop(name), False, time.time(), self.paused))

    def copy(self, what: str | dict[str, str], selection: str = "CLIPBOARD") -> None:
        """Copy a text, or what a command prints (stdout and stderr, as the terminal shows it) run in the work
        folder: the real error of this machine's tools. `selection` PRIMARY is text selected with the mouse."""
        if isinstance(what, dict):
            out = subprocess.run(["bash", "-c", what["output_of"]], cwd=self.work, capture_output=True, text=True,
                                 timeout=60, env=dict(os.environ, LC_ALL="C.UTF-8"))
            text = (out.stdout + out.stderr).strip() or "(no output)"
        else:
            text = what
        self.session.copy(text, selection)

    def cli(self, args: list[str]) -> None:
        out = subprocess.run([PROACTIVE, *args], env=self.env, capture_output=True, text=True, timeout=120)
        self.commands.append({"args": args, "exit": out.returncode, "out": (out.stdout + out.stderr).strip()[-400:]})
        if args[0] == "pause":
            self.paused = True
        elif args[0] == "resume":
            self.paused = False
        elif args[0] == "purge":
            self.purges.append(time.time())

    def wait(self, seconds: float, why: str) -> None:
        real = seconds / self.speed
        if why == "idle" and seconds >= IDLE_S:
            real = max(real, IDLE_S + 10)  # still idle to the watcher
        real = min(real, seconds)
        time.sleep(real)
        self.clock.skipped += seconds - real

    def hold_for_interval(self) -> None:
        """A moment that the script's clock puts past the minimum interval since the last offer shown is held
        until real time is past it too, so compression never hides an offer the day would have had."""
        if not self.offers:
            return
        last = self.offers[-1]
        if self.clock.now() - last.script_seen >= self.interval_s:
            left = last.seen + self.interval_s - time.time()
            if left > 0:
                time.sleep(left)  # real seconds: the script's clock runs on with them

    # ---- the day
    def step(self, i: int, step: dict[str, Any]) -> None:
        if "want" in step:
            self.hold_for_interval()
        began = time.time()
        if "wait" in step:
            self.wait(step["wait"], step.get("why", "reading"))
        else:
            with self.hands:
                self.act(i, step)
        if step.get("lead"):
            self.lead_at = began  # from the action's start: an offer made while it completes (the switch) is its
        if "want" in step:
            now = time.time()
            self.moments.append(Moment(i, step.get("note") or describe(step), now, self.clock.now(),
                                       step["want"] or None, self.lead_at or now))
            self.lead_at = None

    def act(self, i: int, step: dict[str, Any]) -> None:
        """One step of input, with the person's hands (no Accept at the tray meanwhile)."""
        if self.focused and not self.session.active() == self.windows.get(self.focused) and "open" not in step \
                and "focus" not in step and "cli" not in step:
            self.session.activate(self.windows[self.focused])  # back to the work after reading a help window
        if "open" in step:
            self.open(step["open"])
        elif "focus" in step:
            self.focus(step["focus"])
        elif "type" in step:
            self.type(step["type"], step.get("enter", True))
        elif "key" in step:
            self.session.key(*step["key"].split())
            if step["key"] == "Escape" and self.focused and self.spec["windows"][self.focused]["app"] == "vim":
                self.vim_escape()
        elif "copy" in step:
            self.copy(step["copy"])
        elif "select" in step:  # selected with the mouse, never copied: the PRIMARY selection
            self.copy(step["select"], "PRIMARY")
        elif "url" in step:  # the address bar: a person types the address, as any line
            self.session.key("ctrl+l")
            time.sleep(0.3)
            self.type(step["url"].replace("{server}", self.server.url), True)
            time.sleep(1.5)
        elif "scroll" in step:
            self.pointer_on(self.windows[self.focused or ""])  # the wheel scrolls the window under the pointer
            for _ in range(abs(step["scroll"])):
                self.session.xdotool("click", "5" if step["scroll"] > 0 else "4")
                time.sleep(0.4)
        elif "cli" in step:
            self.cli(step["cli"])
        else:
            raise ValueError(f"step {i}: unknown {step}")

    def pointer_on(self, wid: str) -> None:
        """The mouse moved to the middle of a window."""
        g = dict(line.split("=", 1) for line in self.session.xdotool("getwindowgeometry", "--shell", wid).split())
        self.session.xdotool("mousemove", str(int(g["X"]) + int(g["WIDTH"]) // 2),
                             str(int(g["Y"]) + int(g["HEIGHT"]) // 2))
        time.sleep(0.2)

    def close(self) -> None:
        for group in self.groups:
            try:
                os.killpg(group.pid, signal.SIGTERM)
                group.wait(timeout=15)
            except (subprocess.TimeoutExpired, ProcessLookupError, PermissionError):
                pass
            try:
                os.killpg(group.pid, signal.SIGKILL)  # what is left of the group (content processes)
            except ProcessLookupError:
                pass
        for proc in self.procs:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.groups.clear()
        self.procs.clear()


def describe(step: dict[str, Any]) -> str:
    for key in ("type", "copy", "select", "url", "focus", "open", "cli", "key"):
        if key in step:
            value = step[key]
            if isinstance(value, dict):
                value = value.get("output_of", value)
            return f"{key} {' '.join(value) if isinstance(value, list) else value}"[:80]
    return str(step)[:80]


# ---- the figures
def attribute(offers: list[Offer], moments: list[Moment]) -> dict[int, Moment | None]:
    """Each offer's moment: the latest moment opened (by its lead, or itself) by the time the offer was seen."""
    out: dict[int, Moment | None] = {}
    for offer in offers:
        before = [m for m in moments if m.opened <= offer.seen]
        out[offer.id] = max(before, key=lambda m: m.opened) if before else None
    return out


def gives(offer: Offer, want: str | None) -> bool:
    return bool(want and offer.help and re.search(want, offer.help, re.I))


def offer_figures(offers: list[Offer], moments: list[Moment], script_s: float) -> dict[str, Any]:
    owner = attribute(offers, moments)
    wanted = [m for m in moments if m.want]
    worth, in_hand, latencies, per_moment = 0, 0, [], []
    for m in moments:
        mine = [o for o in offers if owner[o.id] is m]
        first = mine[0] if mine else None
        if first is not None and first.seen - m.at <= LATENCY_WITHIN_S:
            latencies.append(max(first.seen - m.at, first.seen - m.opened) if first.seen < m.at
                             else first.seen - m.at)
        good = [o for o in mine if o.seen - m.at <= WORTH_S and gives(o, m.want)]
        if m.want and good:
            worth += 1
        if m.want and (good or any(m.at - HELD_S <= o.seen < m.opened and gives(o, m.want) for o in offers)):
            in_hand += 1  # or the help it wants was given by an offer accepted a little earlier
        per_moment.append({"step": m.index, "what": m.what, "want": m.want, "script_at_s": round(m.script_at, 1),
                           "offers": [{"id": o.id, "task": o.task, "after_s": round(o.seen - m.at, 2),
                                       "gives_wanted": gives(o, m.want), "accept_error": o.accept_error,
                                       "help": (o.help or "")[:300]} for o in mine]})
    unwanted = [o for o in offers if owner[o.id] is None or not owner[o.id].want]  # type: ignore[union-attr]
    right = [o for o in offers if owner[o.id] is not None and gives(o, owner[o.id].want)]  # type: ignore[union-attr]
    hours = script_s / 3600
    return {
        "moments": len(moments), "moments_wanting_help": len(wanted), "moments_with_offer_worth_taking": worth,
        "worth_taking_share": round(worth / len(wanted), 3) if wanted else None,
        "moments_with_help_in_hand": in_hand,
        "offers_shown": len(offers), "offers_unwanted": len(unwanted),
        "interruptions_per_hour": round(len(unwanted) / hours, 2) if hours else None,
        "latency_n": len(latencies),
        "latency_p50_s": round(statistics.median(latencies), 2) if latencies else None,
        "latency_p95_s": round(percentile(latencies, 0.95), 2) if latencies else None,
        "offers_giving_labelled_help": len(right),
        "precision": round(len(right) / len(offers), 3) if offers else None,
        "per_moment": per_moment,
        "unattributed_offers": [{"id": o.id, "task": o.task} for o in offers if owner[o.id] is None],
    }


def stored_quotes(db: Path) -> list[tuple[float, float, int, list[str]]]:
    """(start, end, lines withheld by design, quoted typed texts) of each stored episode. Withheld: "types 14
    characters … (not recorded: the application does not say whether the field is a password field)", or a
    terminal line whose echo could not be seen."""
    store = Store(db, readonly=True)
    try:
        return [(e["start"], e["end"], sum(1 for s in e["sentences"] if WITHHELD.match(s)),
                 [m.group(1) for s in e["sentences"] for m in [TYPED.match(s)] if m]) for e in store.episodes()]
    finally:
        store.close()


def fidelity(lines: list[Line], episodes: list[tuple[float, float, int, list[str]]],
             purges: list[float]) -> dict[str, Any]:
    """Each line typed (after the last purge) against the stored quotes: exact, withheld (the episode says a line
    was typed but not what: the application does not say its field is not a password field), wrong, missing;
    quotes of text never typed; lines typed while paused that were stored."""
    cut = max(purges, default=0.0)
    pool = [(start, end, q) for start, end, _, quotes in episodes if end >= cut for q in quotes]
    used = [False] * len(pool)
    typed = [ln for ln in lines if ln.at >= cut and ln.text.strip()]
    counted = {"exact": 0, "withheld": 0, "wrong": 0, "missing": 0, "paused_stored": 0, "paused_not_stored": 0}
    withheld = {i: n for i, (start, end, n, _) in enumerate(episodes) if end >= cut and n}
    examples: dict[str, list[str]] = {"wrong": [], "missing": [], "not_typed": [], "paused_stored": []}
    unmatched: list[Line] = []
    for ln in typed:
        want = quote(ln.text)
        hit = next((i for i, (s, e, q) in enumerate(pool) if not used[i] and q == want and s - 5 <= ln.at <= e + 30),
                   None)
        if ln.paused:
            counted["paused_stored" if hit is not None else "paused_not_stored"] += 1
            if hit is not None:
                used[hit] = True
                examples["paused_stored"].append(ln.text)
            continue
        if hit is not None:
            used[hit] = True
            counted["exact"] += 1
        else:
            unmatched.append(ln)
    for ln in unmatched:
        told = next((i for i, (s, e, _, _) in enumerate(episodes) if withheld.get(i) and s - 1 <= ln.at <= e + 2),
                    None)
        if told is not None:  # typed, said as a count of characters: withheld by design, not lost
            withheld[told] -= 1
            counted["withheld"] += 1
            continue
        # a different quote in the episode the line was typed in: stored wrong
        near = next((i for i, (s, e, q) in enumerate(pool) if not used[i] and s - 1 <= ln.at <= e + 2), None)
        if near is not None:
            used[near] = True
            counted["wrong"] += 1
            examples["wrong"].append(f"typed {ln.text!r} ({ln.window}), stored {pool[near][2]!r}")
        else:
            counted["missing"] += 1
            examples["missing"].append(f"{ln.text!r} ({ln.window})")
    texts = [ln.text for ln in lines]
    not_typed = [q for (_, _, q), u in zip(pool, used, strict=True) if not u
                 and not any(q.rstrip("\u2026") in " ".join(t.split()) for t in texts)]
    examples["not_typed"] = not_typed[:10]
    judged = counted["exact"] + counted["withheld"] + counted["wrong"] + counted["missing"]
    recorded = judged - counted["withheld"]
    return {**counted, "lines": judged, "exact_share": round(counted["exact"] / judged, 3) if judged else None,
            "exact_share_of_recorded": round(counted["exact"] / recorded, 3) if recorded else None,
            "sentences_not_typed": len(not_typed),
            "examples": {k: v[:8] for k, v in examples.items()}}


def log_problems(home: Path) -> list[str]:
    log = home / "logs" / "proactive.log"
    if not log.exists():
        return []
    return [line.strip()[:300] for line in log.read_text(errors="replace").splitlines() if ERROR_LINE.search(line)]


# ---- running it
def answer_accessibility(session: XSession, config: Path) -> None:
    """The person answers the tray's accessibility question with its default button ("Turn it on"), as the
    tray asks it at the first start on a desktop where it is off; checked by the answer landing in config.toml."""
    wid = wait_for(lambda: session._find(ACCESSIBILITY_TITLE), timeout=60, interval=0.5,
                   what="the tray's accessibility question")
    session.activate(wid)
    session.key("Return")
    wait_for(lambda: config.exists() and 'accessibility = "on"' in config.read_text(), timeout=30,
             what="the accessibility answer in config.toml")


def run_day(name: str, speed: float, answers: bool = True, proactivity: str = "medium") -> dict[str, Any]:
    spec = json.loads((DAYS / f"{name}.json").read_text())
    session, stop_x = start_x()
    home = Path(tempfile.mkdtemp(prefix=f"proactive-day-{name}-"))
    work = home / "work"
    for rel, text in spec.get("files", {}).items():
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        (work / rel).write_text(text)
    work.mkdir(exist_ok=True)
    for command in spec.get("setup", []):  # the project as the person left it yesterday (a git history...)
        subprocess.run(["bash", "-c", command], cwd=work, check=True, capture_output=True, timeout=60)
    extra: list[subprocess.Popen[Any]] = []
    day: Day | None = None
    proc: subprocess.Popen[Any] | None = None
    try:
        bus_dir = home / "bus"
        bus_dir.mkdir()
        bus, address = start_private_bus(bus_dir, session.env)
        extra.append(bus)
        env = dict(session.env, PROACTIVE_HOME=str(home / "proactive"), QT_QPA_PLATFORM="xcb",
                   DBUS_SESSION_BUS_ADDRESS=address, GSETTINGS_BACKEND="memory", NO_AT_BRIDGE="0")
        launcher = _start_atspi(env)
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = address  # the person reads the tray's windows on this bus
        if launcher is not None:
            extra.append(launcher)
        session.start_tray()
        with page_server(PAGES) as server:
            clock = Clock()
            if proactivity != "medium":  # the person's setting, as Settings writes it
                (home / "proactive").mkdir(parents=True, exist_ok=True)
                (home / "proactive" / "config.toml").write_text(f'proactivity = "{proactivity}"\n')
            proc = subprocess.Popen([PROACTIVE, "run", "--model", "default"], env=env, cwd=work,
                                    stdout=subprocess.DEVNULL, stderr=(home / "run.stderr").open("w"))
            log = home / "proactive" / "logs" / "proactive.log"
            wait_for(lambda: log.exists() and "watcher started" in log.read_text(), timeout=120, what="the watcher")
            time.sleep(8.0)  # the built-in model loads in the background, as after a login
            if answers:
                answer_accessibility(session, home / "proactive" / "config.toml")
            hands = threading.Lock()
            person = Person(session, hands)
            person.start()
            watcher = Watcher(home / "proactive" / "proactive.db", clock, psutil.Process(proc.pid), person)
            watcher.start()
            day = Day(spec, session, env, work, server, speed, clock, home, hands, LEVELS[proactivity])
            day.offers = watcher.offers
            clock.real0, clock.skipped = time.time(), 0.0
            for i, step in enumerate(spec["steps"]):
                day.step(i, step)
                if proc.poll() is not None:
                    break
            time.sleep(10.0)  # the last moment's offer
            script_s = clock.now()
            deadline = time.time() + 180
            while any(o.help is None and o.accept_error is None for o in watcher.offers) and time.time() < deadline:
                time.sleep(0.5)  # the person still accepting the last offers
            day.switched("")  # the last unfinished lines end the day
            status = subprocess.run([PROACTIVE, "status", "--json"], env=env, capture_output=True, text=True,
                                    timeout=60)
            tray = (json.loads(status.stdout).get("tray") if status.returncode == 0 else None) or {}
            wall = time.time() - clock.real0
            watcher.stop.set()
            watcher.join(timeout=10)
            exited_early = proc.poll()
            proc.send_signal(signal.SIGTERM)
            try:
                code = proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                code = proc.wait()
            person.offers.put(None)
            day.close()
    finally:
        if proc is not None and proc.poll() is None:  # stopped midway: the product does not outlive its run
            proc.terminate()
            proc.wait(timeout=60)
        if day is not None:
            day.close()
        stop_x()
        for p in extra:
            p.terminate()
    cpu = {"run": 0.0, "tray": 0.0}
    for role, seconds in watcher.cpu.values():
        cpu[role] += seconds
    figures = offer_figures(watcher.offers, day.moments, script_s)
    episodes = stored_quotes(home / "proactive" / "proactive.db")
    return {
        "day": name, "speed": speed, "proactivity": proactivity, "accessibility_answered": answers, "script_minutes": round(script_s / 60, 1), "wall_minutes": round(wall / 60, 1),
        "home": str(home),
        **{k: v for k, v in figures.items() if k not in ("per_moment", "unattributed_offers")},
        "silent_decisions": watcher.silent,
        "fidelity": fidelity(day.lines, episodes, day.purges),
        "crashes": {"exit_before_end": exited_early, "exit_code": code, "tray_restarts": tray.get("restarts"),
                    "tray_state": tray.get("state"), "tray_last_stop": tray.get("last_stop"),
                    "log_problems": log_problems(home / "proactive")[:20]},
        "cpu_percent_of_one_core": {k: round(100 * v / wall, 2) for k, v in cpu.items()},
        "max_rss_mb": {k: round(v / 2 ** 20, 1) for k, v in watcher.rss_max.items()},
        "commands": day.commands,
        "raw": {"moments": [vars(m) for m in day.moments], "offers": [vars(o) for o in watcher.offers],
                "lines": [vars(ln) for ln in day.lines], "purges": day.purges},
        "per_moment": figures["per_moment"], "unattributed_offers": figures["unattributed_offers"],
    }


def table(r: dict[str, Any]) -> str:
    f, c = r["fidelity"], r["crashes"]
    rows = [
        ("offers worth taking / moments wanting help",
         f"{r['moments_with_offer_worth_taking']} / {r['moments_wanting_help']} ({pct(r['worth_taking_share'])})",
         ">= 70%"),
        ("help in hand (worth taking, or given just before)",
         f"{r['moments_with_help_in_hand']} / {r['moments_wanting_help']}", ""),
        ("interruptions per hour, no help wanted", f"{r['interruptions_per_hour']} ({r['offers_unwanted']} offers)",
         "<= 2"),
        ("latency from the moment, p50 / p95", f"{r['latency_p50_s']} s / {r['latency_p95_s']} s "
                                              f"(n={r['latency_n']})", "<= 3 s / <= 5 s"),
        ("shown offers giving the labelled help", f"{r['offers_giving_labelled_help']} / {r['offers_shown']} "
                                                  f"({pct(r['precision'])})", ""),
        ("capture: lines exact / withheld / wrong / missing",
         f"{f['exact']} / {f['withheld']} / {f['wrong']} / {f['missing']} ({pct(f['exact_share'])} exact; "
         f"{pct(f['exact_share_of_recorded'])} of those not withheld)", ">= 98% exact"),
        ("capture: sentences with text not typed", str(f["sentences_not_typed"]), "0"),
        ("capture: lines typed while paused, stored", str(f["paused_stored"]), "0"),
        ("crashes: exit code / tray restarts", f"{c['exit_code']} / {c['tray_restarts']}", "0 / 0"),
        ("CPU % of one core: run / tray", f"{r['cpu_percent_of_one_core']['run']} / "
                                          f"{r['cpu_percent_of_one_core']['tray']}", ""),
        ("max RSS MB: run / tray", f"{r['max_rss_mb']['run']} / {r['max_rss_mb']['tray']}", ""),
    ]
    out = [f"day {r['day']}: {r['script_minutes']} script minutes in {r['wall_minutes']} (speed {r['speed']}, "
           f"proactivity {r.get('proactivity', 'medium')})",
           "| figure | value | target |", "|---|---|---|"]
    out += [f"| {a} | {b} | {t} |" for a, b, t in rows]
    return "\n".join(out)


def pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.0f}%"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("day", help="a day of bench/days/ (its file name without .json)")
    ap.add_argument("--speed", type=float, default=1.0, help="divide waits (reading, idle) by this")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--out", type=Path, help="also write the full report (JSON) here")
    ap.add_argument("--no-answers", action="store_true",
                    help="leave the tray's accessibility question unanswered (typing in Firefox and Qt only counted)")
    ap.add_argument("--proactivity", choices=sorted(LEVELS), default="medium",
                    help="the person's proactivity setting (default: medium, the product's default)")
    args = ap.parse_args()
    result = run_day(args.day, max(args.speed, 1.0), answers=not args.no_answers, proactivity=args.proactivity)
    if args.out:
        args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False))
    if args.json:
        print(json.dumps(result, indent=1, ensure_ascii=False))
        return
    for m in result["per_moment"]:
        offers = "; ".join(f"#{o['id']} +{o['after_s']}s {o['task'][:60]!r} {'OK' if o['gives_wanted'] else ''}"
                           for o in m["offers"])
        print(f"{m['script_at_s']:>7}s {'WANT' if m['want'] else '    '} {m['what'][:60]:<60} {offers}")
    print(json.dumps(result["fidelity"]["examples"], indent=1, ensure_ascii=False))
    print(table(result))


if __name__ == "__main__":
    os.environ.pop("PYTEST_XDIST_WORKER", None)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a stopped run still stops its X server and product
    main()
