"""Episode building and deterministic rendering: one sentence per thing that happened, in the order it
happened."""

from __future__ import annotations

import re
from itertools import permutations

import pytest
from hypothesis import example, given, strategies as st

from proactive.watcher.episodes.builder import (
    HEAD_SENTENCES,
    MAX_LINES,
    MAX_SENTENCES,
    EpisodeBuilder,
    build_episodes,
    place,
    switch_sentence,
    web_sentence,
)
from proactive.watcher.episodes.error_lines import ERROR_QUOTE_CHARS, KEY_LINES, quote_ends, quoted_in
from proactive.watcher.events import (
    CLICK,
    CLIPBOARD,
    CONTROL,
    HOTKEY,
    IDLE,
    SCROLL,
    TEXT,
    WEB,
    WINDOW,
    RawEvent,
)


def ev(kind: str, ts: float, **data) -> RawEvent:
    return RawEvent("test", kind, data, ts=ts)


def stream() -> list[tuple[int, RawEvent]]:
    events = [
        ev(WINDOW, 100, app="Visual Studio Code", title="client.py - proj - Visual Studio Code"),
        ev(TEXT, 101, text="import requests", erase=0, enter=True),
        ev(HOTKEY, 102, combo="ctrl+s"),
        ev(HOTKEY, 103, combo="ctrl+s"),
        ev(CLICK, 104, button="left", x=1, y=2),
        ev(CLICK, 105, button="left", x=1, y=2),
        ev(WINDOW, 110, app="XTerm", title="shell"),
        ev(CLIPBOARD, 111, text="Traceback (most recent call last):\n  File x\nTimeoutError", length=40,
           truncated=False),
        ev(SCROLL, 112, dx=0, dy=-3, count=3),
        ev(WINDOW, 120, app="Firefox", title="requests timeout - Google Search \u2014 Mozilla Firefox"),
        ev(IDLE, 130, state="idle", seconds=120),
        ev(IDLE, 400, state="active", seconds=270),
    ]
    return list(enumerate(events, 1))


def test_one_episode_per_focus_span_with_sentences():
    episodes = build_episodes(stream())
    assert [e.app for e in episodes] == ["Visual Studio Code", "XTerm", "Firefox"]
    vs, term, ff = episodes
    assert "The user types 'import requests' and presses Enter in client.py in Visual Studio Code." in vs.sentences
    assert "The user presses Ctrl+S (save) 2 times in client.py in Visual Studio Code." in vs.sentences
    assert "The user clicks 2 times in client.py in Visual Studio Code." in vs.sentences
    assert ("The user copies an error message starting 'Traceback (most recent call last):' and ending "
            "'TimeoutError' from the terminal." in term.sentences)
    assert "The user scrolls down (3 steps) in the terminal." in term.sentences
    assert "The user comes back after being away for 4 minutes." in ff.sentences
    assert (vs.first_raw_id, vs.last_raw_id) == (1, 6)
    assert (term.first_raw_id, term.last_raw_id) == (7, 9)
    assert vs.start == 100.0  # its observation's time: the focus span's first event


def test_rendering_is_deterministic():
    assert [e.row() for e in build_episodes(stream())] == [e.row() for e in build_episodes(stream())]


def test_incremental_builder_matches_batch():
    builder = EpisodeBuilder()
    closed = []
    for raw_id, event in stream():
        closed.extend(builder.add(raw_id, event))
    closed.append(builder.close())
    assert [e.row() for e in closed] == [e.row() for e in build_episodes(stream())]


def test_alt_tab_passing_through_is_dropped_but_real_spans_kept():
    events = [ev(WINDOW, 0, app="A", title="a"), ev(TEXT, 1, text="x", erase=0, enter=False),
              ev(WINDOW, 5, app="B", title="b"), ev(WINDOW, 5.2, app="C", title="c"),
              ev(TEXT, 6, text="y", erase=0, enter=False)]
    assert [e.app for e in build_episodes(enumerate(events, 1))] == ["A", "C"]


@pytest.mark.parametrize(
    "app, title, expected",
    [
        ("Visual Studio Code", "client.py - proj - Visual Studio Code", "client.py in Visual Studio Code"),
        ("XTerm", "bash", "the terminal"),
        ("Firefox", "", "Firefox"),
        ("private window", "", "a private window"),
    ],
)
def test_place(app, title, expected):
    assert place(app, title) == expected


@pytest.mark.parametrize(
    "data, expected",
    [
        ({"url": "https://www.google.com/search?q=requests+timeout", "title": "x", "browser": "Firefox"},
         "The user searches on Google for 'requests timeout' in Firefox."),
        ({"url": "https://docs.python.org/3/library/json.html", "title": "json - JSON encoder",
          "browser": "Chrome"},
         "The user visits 'json - JSON encoder' on docs.python.org in Chrome."),
    ],
)
def test_web_sentences(data, expected):
    assert web_sentence(data) == expected


@pytest.mark.parametrize(
    "app, title, sentence",
    [
        ("Firefox", "requests timeout - Google Search - Mozilla Firefox",
         "The user switches to Firefox and searches on Google for 'requests timeout'."),
        ("Google Chrome", "go 语言 - Google 搜索 - Google Chrome",
         "The user switches to Google Chrome and searches on Google for 'go 语言'."),
        ("Firefox", "Timeouts - Requests documentation — Mozilla Firefox",
         "The user switches to Firefox and views the page 'Timeouts - Requests documentation'."),
        ("XTerm", "build shell", "The user switches to the terminal ('build shell')."),
        ("Visual Studio Code", "client.py - proj - Visual Studio Code",
         "The user switches to client.py in Visual Studio Code."),
        ("Firefox", "", "The user switches to Firefox."),
        # DuckDuckGo titles its results "QUERY at DuckDuckGo"
        ("Firefox", "does caffeine affect sleep at DuckDuckGo \u2014 Mozilla Firefox",
         "The user switches to Firefox and searches on DuckDuckGo for 'does caffeine affect sleep'."),
        ("Chromium", "rust borrow checker at DuckDuckGo - Chromium",
         "The user switches to Chromium and searches on DuckDuckGo for 'rust borrow checker'."),
        ("Firefox", "Notes taken at DuckDuckGo HQ - Blog \u2014 Mozilla Firefox",
         "The user switches to Firefox and views the page 'Notes taken at DuckDuckGo HQ - Blog'."),
    ],
)
def test_switch_sentence_keeps_what_a_browser_title_says(app, title, sentence):
    """Without ActivityWatch's browser extension the title is all we know of a page: a search stays a search."""
    assert switch_sentence(app, title, place(app, title)) == sentence


# ------------------------------------------------------------------------------------------------- time order

TERM = ev(WINDOW, 0, app="XTerm", title="shell", process="xterm")
EDITOR = ev(WINDOW, 0, app="Visual Studio Code", title="app.py - proj - Visual Studio Code")


def told(window: RawEvent, *events: RawEvent) -> list[str]:
    """The sentences of one focus span after its switch sentence, events timed one second apart in order."""
    stream = [window, *(RawEvent(e.source, e.kind, e.data, ts=float(i)) for i, e in enumerate(events, 1))]
    (episode,) = build_episodes(enumerate(stream, 1))
    return episode.sentences[1:]


def typed(text: str, enter: bool = False, erase: int = 0, **more) -> RawEvent:
    return ev(TEXT, 0, text=text, erase=erase, enter=enter, **more)


ERROR_A = "Traceback (most recent call last):\n  File \"a.py\", line 1\nValueError: bad a"
ERROR_B = "KeyError: 'b'"


@pytest.mark.parametrize(
    "window, events, sentences",
    [
        # the whole story: pause, type A, copy A, type B, copy B
        (TERM, [ev(CONTROL, 0, state="paused"), ev(CONTROL, 0, state="resumed"), typed("python a.py", True),
                ev(CLIPBOARD, 0, text=ERROR_A), typed("python b.py", True), ev(CLIPBOARD, 0, text=ERROR_B)],
         ["Capture is paused by the user.", "Capture resumes.",
          "The user types 'python a.py' and presses Enter in the terminal.",
          "The user copies an error message starting 'Traceback (most recent call last):', saying "
          "'File \"a.py\", line 1' and ending 'ValueError: bad a' from the terminal.",
          "The user types 'python b.py' and presses Enter in the terminal.",
          "The user copies an error message starting 'KeyError: 'b'' from the terminal."]),
        # a copy before the typing it is pasted into
        (TERM, [ev(CLIPBOARD, 0, text="pip install requests"), typed("pip install requests", True)],
         ["The user copies 'pip install requests' from the terminal.",
          "The user types 'pip install requests' and presses Enter in the terminal."]),
        # a click in the middle of typing: each piece where it came
        (EDITOR, [typed("def f"), ev(CLICK, 0, button="left"), typed("(x):", True)],
         ["The user types 'def f' in app.py in Visual Studio Code.", "The user clicks in app.py in Visual Studio Code.",
          "The user types '(x):' and presses Enter in app.py in Visual Studio Code."]),
        # a hotkey between two lines, and the same hotkey again later: not merged across the typing
        (EDITOR, [typed("x = 1", True), ev(HOTKEY, 0, combo="ctrl+s"), typed("y = 2", True),
                  ev(HOTKEY, 0, combo="ctrl+s"), ev(HOTKEY, 0, combo="ctrl+s")],
         ["The user types 'x = 1' and presses Enter in app.py in Visual Studio Code.",
          "The user presses Ctrl+S (save) in app.py in Visual Studio Code.",
          "The user types 'y = 2' and presses Enter in app.py in Visual Studio Code.",
          "The user presses Ctrl+S (save) 2 times in app.py in Visual Studio Code."]),
        # clicks merge while nothing else happens between them, and only then
        (EDITOR, [ev(CLICK, 0, button="left"), ev(CLICK, 0, button="right"), typed("z"), ev(CLICK, 0, button="left")],
         ["The user clicks and right-clicks in app.py in Visual Studio Code.",
          "The user types 'z' in app.py in Visual Studio Code.", "The user clicks in app.py in Visual Studio Code."]),
        # a scroll gesture, idle and a page between copies
        (TERM, [ev(CLIPBOARD, 0, text="one"), ev(SCROLL, 0, dx=0, dy=-2), ev(SCROLL, 0, dx=0, dy=-1),
                ev(IDLE, 0, state="idle", seconds=60), ev(CLIPBOARD, 0, text="two"),
                ev(WEB, 0, url="https://docs.python.org/3/", title="Docs", browser="Firefox")],
         ["The user copies 'one' from the terminal.", "The user scrolls down (3 steps) in the terminal.",
          "The user stops using the computer (idle).", "The user copies 'two' from the terminal.",
          "The user visits 'Docs' on docs.python.org in Firefox."]),
        # consecutive pieces of one line are one sentence; Backspace after a click reaches into the piece before
        (TERM, [typed("git st"), typed("axx"), typed("", erase=1), ev(CLICK, 0, button="left"),
                typed("tus", erase=1), typed("", enter=True)],
         ["The user types 'git sta' in the terminal.", "The user clicks in the terminal.",
          "The user types 'tus' and presses Enter in the terminal."]),
        # a line whose only Enter comes after a paste: the Enter is told where it came
        (TERM, [typed("git clone "), ev(HOTKEY, 0, combo="ctrl+shift+v"), typed("", enter=True)],
         ["The user types 'git clone' in the terminal.", "The user presses Ctrl+Shift+V (paste) in the terminal.",
          "The user presses Enter in the terminal."]),
        # a piece erased to nothing says nothing, and the clicks it separated are one run again
        (EDITOR, [ev(CLICK, 0, button="left"), typed("q"), typed("", erase=1), ev(CLICK, 0, button="left")],
         ["The user clicks 2 times in app.py in Visual Studio Code."]),
        # a hidden line replaces what was shown of it, in its place
        (TERM, [typed("hunter"), ev(CLICK, 0, button="left"), typed("", enter=True, hidden="password"),
                typed("ls", True)],
         ["The user clicks in the terminal.", "The user enters a password (hidden) in the terminal.",
          "The user types 'ls' and presses Enter in the terminal."]),
        # a scroll gesture is one sentence whichever ways it went; back and forth, it says nothing
        (EDITOR, [ev(SCROLL, 0, dx=0, dy=-3), ev(SCROLL, 0, dx=2, dy=0), ev(CLICK, 0, button="left"),
                  ev(SCROLL, 0, dx=0, dy=1), ev(SCROLL, 0, dx=0, dy=-1)],
         ["The user scrolls down (3 steps) and right (2 steps) in app.py in Visual Studio Code.",
          "The user clicks in app.py in Visual Studio Code."]),
    ],
    ids=["pause-type-copy-type-copy", "copy-before-typing", "click-inside-a-line", "hotkey-between-lines",
         "click-runs", "scroll-idle-web-between-copies", "erase-across-a-click", "enter-after-paste",
         "erased-piece-merges-clicks", "hidden-line-in-place", "scroll-gestures"],
)
def test_sentences_follow_the_order_things_happened(window, events, sentences):
    assert told(window, *events) == sentences


ONE_EACH = [typed("make", True), ev(CLIPBOARD, 0, text="copied"), ev(HOTKEY, 0, combo="ctrl+shift+p"),
            ev(CLICK, 0, button="right"), ev(SCROLL, 0, dx=0, dy=4), ev(CONTROL, 0, state="paused")]


def test_any_interleaving_of_kinds_renders_in_time_order():
    """Every order of six different kinds of happening (720): the episode tells each once, in that order."""
    alone = [told(EDITOR, e) for e in ONE_EACH]
    assert all(len(s) == 1 for s in alone)
    for order in permutations(range(len(ONE_EACH))):
        assert told(EDITOR, *(ONE_EACH[i] for i in order)) == [alone[i][0] for i in order], order


def test_lines_beyond_the_quoted_ones_are_counted_where_they_were_typed():
    lines = [typed(f"line {i}", True) for i in range(MAX_LINES + 3)]
    sentences = told(EDITOR, *lines[:MAX_LINES + 2], ev(CLIPBOARD, 0, text="copied"), lines[-1])
    assert sentences[:MAX_LINES] == [f"The user types 'line {i}' and presses Enter in app.py in Visual Studio Code."
                                     for i in range(MAX_LINES)]
    assert sentences[MAX_LINES:] == ["The user types 2 more lines in app.py in Visual Studio Code.",
                                     "The user copies 'copied' from app.py in Visual Studio Code.",
                                     "The user types 1 more line in app.py in Visual Studio Code."]


def test_a_long_span_keeps_its_first_and_latest_sentences_in_order():
    """An episode is one observation of a prompt with a budget: a long span keeps its start and its end."""
    events = [e for i in range(20) for e in (ev(CLICK, 0, button="left"), ev(CLIPBOARD, 0, text=f"copy {i}"))]
    sentences = told(EDITOR, *events)
    everything = [s for i in range(20) for s in ("The user clicks in app.py in Visual Studio Code.",
                                                 f"The user copies 'copy {i}' from app.py in Visual Studio Code.")]
    tail = MAX_SENTENCES - HEAD_SENTENCES - 1
    assert len(sentences) == MAX_SENTENCES
    assert sentences[:HEAD_SENTENCES] == everything[:HEAD_SENTENCES]
    assert sentences[HEAD_SENTENCES] == (f"The user does {len(everything) - HEAD_SENTENCES - tail} more things in "
                                         "app.py in Visual Studio Code.")
    assert sentences[HEAD_SENTENCES + 1:] == everything[-tail:]


# ------------------------------------------------------------------------------------------ terminal hotkeys

@pytest.mark.parametrize(
    "app, process, combo, sentence",
    [
        ("XTerm", "xterm", "ctrl+c", "The user presses Ctrl+C (interrupt) in the terminal."),
        ("XTerm", "xterm", "ctrl+shift+c", "The user presses Ctrl+Shift+C (copy) in the terminal."),
        ("gnome-terminal", "gnome-terminal-server", "ctrl+shift+v", "The user presses Ctrl+Shift+V (paste) in the "
                                                                    "terminal."),
        ("XTerm", "xterm", "ctrl+z", "The user presses Ctrl+Z (suspend) in the terminal."),
        ("XTerm", "xterm", "ctrl+s", "The user presses Ctrl+S in the terminal."),  # stops output; save in nano
        ("Console", "kitty", "ctrl+c", "The user presses Ctrl+C (interrupt) in Console."),  # known by its process
        ("Visual Studio Code", "code", "ctrl+c", "The user presses Ctrl+C (copy) in Visual Studio Code."),
        ("Visual Studio Code", "code", "ctrl+z", "The user presses Ctrl+Z (undo) in Visual Studio Code."),
        ("Visual Studio Code", "code", "ctrl+shift+c", "The user presses Ctrl+Shift+C (copy) in Visual Studio Code."),
    ],
)
def test_hotkeys_mean_what_they_do_where_they_are_pressed(app, process, combo, sentence):
    """Ctrl+C in a terminal interrupts the program: narrated as a copy it invents a copied error."""
    assert told(ev(WINDOW, 0, app=app, title="", process=process), ev(HOTKEY, 0, combo=combo)) == [sentence]


@pytest.mark.parametrize(("copied", "quoted", "not_quoted"), [
    # the linker: the undefined symbol is in the middle, between the function and "ld returned 1"
    ("/usr/bin/ld: /tmp/ccA1.o: in function `main':\nmain.c:(.text+0x2c): undefined reference to `sqrt'\n"
     "collect2: error: ld returned 1 exit status", ["undefined reference to `sqrt'"], []),
    # a traceback: the error line is its end, and its failing frame (the last) is quoted with its code
    ('Traceback (most recent call last):\n  File "main.py", line 9, in <module>\n    load()\n'
     '  File "app.py", line 3, in load\n    import numpyy\n'
     "ModuleNotFoundError: No module named 'numpyy'", ['File "app.py", line 3, in load', "import numpyy"],
     ['File "main.py"']),
    # a traceback through libraries: the person's last frame (where to fix it) and the library's last (where it
    # failed), not the frames between
    ('Traceback (most recent call last):\n  File "/home/ana/api.py", line 5, in <module>\n    data = json.loads(body)\n'
     '  File "/usr/lib/python3.12/json/__init__.py", line 346, in loads\n    return _default_decoder.decode(s)\n'
     '  File "/home/ana/.venv/lib/python3.12/site-packages/simplejson/decoder.py", line 400, in raw_decode\n'
     '    raise JSONDecodeError("Expecting value", s, err.value)\nsimplejson.errors.JSONDecodeError: Expecting value',
     ['File "/home/ana/api.py", line 5', "data = json.loads(body)", "simplejson/decoder.py", "raise JSONDecodeError"],
     ["json/__init__.py"]),
    # what a failed line is about, on the short line above it
    ("==> Installing ruby-3.3.6...\n-> make -j 4\n*** Following extensions are not compiled:\npsych:\n"
     "\tCould not be configured. It will not be installed.\n\nBUILD FAILED (Ubuntu 24.04 on x86_64)",
     ["psych:", "Could not be configured"], []),
    # the last line says what is left to choose (no error word): quoted as the ending; a last line that only
    # says where the log is, is not
    ("error: `cargo run` could not determine which binary to run. Use the `--bin` option to specify a binary.\n"
     "available binaries: migrate, server", ["available binaries: migrate, server"], []),
    ("npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/lodahs - Not found\n"
     "npm ERR! A complete log of this run can be found in: /home/ana/.npm/_logs/2026-11-28T08_00_00_000Z-debug-0.log",
     ["404 Not Found"], ["complete log"]),
    # a refusal, and the commands announced under a line ending in "run:"
    ("Fetching gem metadata from https://rubygems.org/...........\nInstalling zeitwerk 2.6.6\n\n"
     "Your user account isn't allowed to install to the system RubyGems.\n  You can cancel this installation and "
     "run:\n\n      bundle config set --local path 'vendor/bundle'\n      bundle install\n\n  Password:",
     ["isn't allowed", "bundle config set --local path 'vendor/bundle'"], []),
    # a pod's state lines: the failure statuses are what failed
    ("    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n"
     "      Reason:       OOMKilled\n      Exit Code:    137\n    Restart Count:  6",
     ["Reason: CrashLoopBackOff", "Reason: OOMKilled"], []),
    # a program's numbered error line (curl's exit code) and the certificate's name
    ("* Server certificate:\n*  subject: CN=api.example.com\n*  start date: Nov 28 02:46:48 2025 GMT\n"
     "curl: (60) SSL: no alternative certificate subject name matches target host name '10.0.0.5'\n"
     "More details here: https://curl.se/docs/sslcerts.html", ["subject: CN=api.example.com", "curl: (60)"], []),
    # a tool's own hint, under a long first line
    ("error: failed to push some refs to 'github.com:ana/site.git'\nhint: Updates were rejected because the tip of "
     "your current branch is behind\nhint: its remote counterpart.", ["hint: Updates were rejected"], []),
    # a compiler's help line with the code it suggests and the marker under the change
    ("error[E0308]: mismatched types\n --> src/lib.rs:3:5\n  |\n2 | fn count() -> u64 {\n  |               --- "
     "expected `u64` because of return type\n3 |     total\n  |     ^^^^^ expected `u64`, found `i32`\n  |\n"
     "help: you can convert an `i32` to a `u64` and panic if the converted value doesn't fit\n  |\n"
     "3 |     total.try_into().unwrap()\n  |          ++++++++++++++++++++\n",
     ["help: you can convert", "3 | total.try_into().unwrap()", "| ++++++++++++++++++++"], []),
    # a syntax error copied from its frame: the frame is the start, the code under it is quoted
    ('  File "cli.py", line 12\n    if mode = "fast":\n       ^^^^^^^^^^^^^\nSyntaxError: invalid syntax. Maybe you '
     "meant '==' or ':=' instead of '='?", ['if mode = "fast":'], []),
    # javac's details under the error line, the error line repeated for a second place only once
    ("Report.java:7: error: cannot find symbol\n        LocalDate day = LocalDate.now();\n        ^\n"
     "  symbol:   class LocalDate\n  location: class Report\nReport.java:7: error: cannot find symbol\n"
     "  symbol:   variable LocalDate\n2 errors", ["symbol: class LocalDate"], []),
    # a command announced on a line of its own
    ("Error: Cannot find module 'vite'\nIt is not installed: add it with the following command.\n\n"
     "    npm install --save-dev vite\n\nThen run the build again.", ["npm install --save-dev vite"], []),
])
def test_a_copied_error_s_sentence_quotes_the_lines_that_say_what_failed(copied: str, quoted: list[str],
                                                                          not_quoted: list[str]) -> None:
    builder = EpisodeBuilder()
    builder.add(1, TERM)
    builder.add(2, ev(CLIPBOARD, 1, text=copied))
    episode = builder.close(100.0)
    sentence = episode.row()["event"]
    assert sentence.startswith("The user switches to the terminal") or "copies an error message" in sentence
    rest = re.split(r"', saying '|' and ending '", sentence, maxsplit=1)  # the lines quoted after the first
    for piece in quoted:
        assert len(rest) == 2 and piece in rest[1], sentence
    for piece in not_quoted:
        assert piece not in sentence
    assert sentence.count(", saying '") <= KEY_LINES


def test_a_long_error_line_keeps_its_start_and_its_end() -> None:
    """A tool's one long line names itself at its start and often the cause at its end: both are quoted, the
    middle cut."""
    line = ("docker: Error response from daemon: failed to set up container networking: driver failed programming "
            "external connectivity on endpoint api-gateway-service-production (" + "3f" * 32 + "): Bind for "
            "0.0.0.0:5432 failed: port is already allocated")
    builder = EpisodeBuilder()
    builder.add(1, TERM)
    builder.add(2, ev(CLIPBOARD, 1, text=line))
    sentence = builder.close(100.0).row()["event"]
    assert "starting 'docker: Error response from daemon" in sentence
    assert "port is already allocated' from the terminal." in sentence
    assert "3f" * 32 not in sentence
    # the quote is known as that line's (live, the help reads the whole copy it was quoted from), not another's
    quoted = sentence.split("starting '")[1].split("' from the terminal.")[0]
    assert quoted_in(quoted, "$ docker compose up\n" + line) and not quoted_in(quoted, line.replace("5432", "8080"))
    # a line still too long once its ids are short: its middle is cut
    words = " ".join(f"step{i} done" for i in range(60))
    cut = quote_ends(f"make: *** build failed after {words}: disk full")
    assert len(cut) <= ERROR_QUOTE_CHARS and cut.startswith("make: *** build failed") and cut.endswith("disk full")
    assert quoted_in(cut, f"make: *** build failed after {words}: disk full")
    # a sentence ending past the middle ends the kept start: the clause naming the cause is not cut in two
    taint = ("Warning  FailedScheduling  61s (x2 over 6m23s)  default-scheduler  0/1 nodes are available: 1 node(s) "
             "had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: 0/1 nodes are available: 1 "
             "Preemption is not helpful for scheduling..")
    cut = quote_ends(taint)
    assert len(cut) <= ERROR_QUOTE_CHARS and quoted_in(cut, taint)
    assert "untolerated taint {node-role.kubernetes.io/control-plane: }. \u2026 " in cut
    assert cut.endswith("not helpful for scheduling..") and " \u2026 0/1 nodes" in cut  # the end starts at a word


@given(st.lists(st.text(alphabet="ghijkl .;:!?{}()/-", min_size=1, max_size=60), min_size=1, max_size=12))
@example([" "])  # spaces alone, which a CI run found
def test_a_long_line_is_cut_to_pieces_of_itself_within_the_limit(parts: list[str]) -> None:
    line = " ".join(parts) * 3
    cut = quote_ends(line)
    if not line.strip():  # spaces alone: nothing to quote
        assert cut == ""
        return
    assert len(cut) <= ERROR_QUOTE_CHARS and quoted_in(cut, line)
    flat = " ".join(line.split())
    if len(flat) > ERROR_QUOTE_CHARS:
        head = cut.split(" \u2026 ")[0]
        assert len(head) >= (ERROR_QUOTE_CHARS - 3) // 2 - 1 and flat.startswith(head)


@pytest.mark.parametrize("copied", [
    "NAME                     READY   STATUS             RESTARTS      AGE\n"
    "worker-7c9d8b6f4-lq2zn   0/1     CrashLoopBackOff   5 (41s ago)   4m2s",
    "NAME      READY   STATUS             RESTARTS   AGE\nweb-0     0/1     ImagePullBackOff   0          2m",
    "./resize photo.png\nSegmentation fault (core dumped)",
    "Events:\n  Type     Reason       Age   From     Message\n  Warning  FailedMount  12s   kubelet  MountVolume.SetUp "
    "for volume \"config\": timed out waiting for the condition",
])
def test_a_copied_failure_status_is_an_error_message(copied: str) -> None:
    """A table or a line whose only sign of failure is a status (a pod's BackOff, a crash) is told as an error
    message, as a traceback is: the gate and the help read it as one."""
    assert "copies an error message" in told(TERM, ev(CLIPBOARD, 1, text=copied))[-1]
