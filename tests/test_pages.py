"""Pages as material: extraction (trafilatura) and each deliverable on fixture pages served on loopback, the
consent and the addresses never fetched, offers made from pages in the live path, and Accept on the offer's own
moment after the person moved on."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench.page_server import page_server
from proactive.assistant import candidates
from proactive.assistant.agent import Agent
from proactive.assistant.feedback import FeedbackMemory, same_help
from proactive.assistant.grounding import ground
from proactive.assistant.help import consent_question, do_task
from proactive.assistant.live import Assistant, Proposal, offer_context, recent_context
from proactive.assistant.material import live_source, replay_source
from proactive.assistant.page_help import block_language, code_examples, key_points, notes, terms
from proactive.assistant.pages import CODE, HEADING, Block, Page, PageError, PageReader, extract, refusal
from proactive.assistant.policy import Gate, Proactivity
from proactive.assistant.proposals import ProposalLog
from proactive.assistant.trigger import TriggerPolicy
from proactive.models.signals import SignalScorer
from proactive.watcher.events import TEXT, WEB, WINDOW, RawEvent
from proactive.watcher.store.database import Store

PAGES = Path(__file__).resolve().parent / "fixtures" / "pages"


def fixture(name: str, url: str = "http://127.0.0.1/x"):
    return extract((PAGES / name).read_text(encoding="utf-8"), url)


def test_extraction_keeps_headings_code_and_drops_the_page_chrome():
    page = fixture("js_fade_in.html")
    assert page.title.startswith("How to fade in an element with JavaScript")
    assert [b.level for b in page.blocks if b.kind == HEADING][:2] == [1, 2]
    code = [b for b in page.code]
    assert len(code) == 5
    assert "function fadeIn(el, ms) {\n  let start = null;" in code[2].text  # line breaks and indentation kept
    assert code[1].lang == "js" and block_language(code[0]) == "css"
    text = page.text
    assert "Log in" not in text and "Cookie settings" not in text  # navigation and footer are not content
    so = fixture("ruby_capitalize.html")
    assert "Stack Exchange Inc" not in so.text and any("split" in b.text for b in so.code)


def test_a_page_without_an_article_is_an_error_not_an_empty_help():
    with pytest.raises(PageError, match="no text"):
        extract("<html><body><div id='app'></div><script>boot()</script></body></html>", "http://a.test/app")


@pytest.mark.parametrize("file, query, expect, absent", [
    ("main.html", "js 淡入淡出", "requestAnimationFrame", ".fade { opacity"),  # a query naming js: its code first
    ("fade.js", "fade in element", "function fadeIn", ".fade { opacity"),
    ("styles.css", "fade in", ".fade { opacity", "function fadeIn"),
    ("tools.py", "fade in", None, None),  # a page of JS and CSS has nothing for a Python file
])
def test_code_examples_are_in_the_file_language_and_ranked_by_the_query(file, query, expect, absent):
    page = fixture("js_fade_in.html", "http://127.0.0.1/fade")
    got = code_examples([page], query, file)
    if expect is None:
        assert got == []
        return
    assert got and all(e.url == "http://127.0.0.1/fade" for e in got)
    assert any(expect in e.code for e in got)
    assert not any(absent in e.code for e in got)
    assert got == sorted(got, key=lambda e: -e.score)


def test_code_for_a_python_file_from_a_chinese_page_skips_its_shell_and_js_blocks():
    page = fixture("python_email_validation.html")
    got = code_examples([page], "电子邮件地址校验 python", "email_filter.py")
    assert got and all(e.lang == "python" for e in got)
    assert "fullmatch" in got[0].code or "validate_email" in got[0].code
    assert not any("console.log" in e.code or e.code.startswith("pip install") for e in got)
    ruby = code_examples([fixture("ruby_capitalize.html")], "How to capitalize person name in ruby?", "CheckName.rb")
    assert ruby and "capitalize" in ruby[0].code and all(e.lang == "ruby" for e in ruby)


def test_key_points_are_the_page_own_sentences_under_its_headings():
    page = fixture("traffic_realtime_data.html")
    points = key_points(page)
    assert 3 <= len(points) <= 5
    body = " ".join(b.text for b in page.blocks)
    for point in points:
        sentence = point.split(": ", 1)[-1].rstrip("…")
        assert sentence[:60] in body  # extractive: nothing written that the page does not say
    assert any("adaptive signals" in p.lower() for p in points)  # each section says its point
    assert not any("Subscribe" in p or "Terms" in p for p in points)


def test_notes_are_markdown_bullets_with_links():
    pages = [fixture("traffic_realtime_data.html", "http://127.0.0.1/traffic"), fixture("js_fade_in.html")]
    md = notes(pages, "real time traffic update")
    lines = md.splitlines()
    assert lines[0] == "## Notes on real time traffic update"
    bullets = [ln for ln in lines if ln.startswith("- ")]
    sources = [ln for ln in lines if ln.startswith("  (from [")]
    assert bullets and sources and sources[0].endswith("(http://127.0.0.1/traffic))")  # the page on the topic first
    assert all(re.search(r"^  \(from \[.+\]\(http://127\.0\.0\.1/\w+\)\)$", s) for s in sources)
    assert lines.index(sources[0]) > lines.index(bullets[0])  # each page's link once, under its points


@pytest.mark.parametrize("page, topic, focus, said", [
    ("traffic_realtime_data.html", "real time traffic update", "Sensors under the road count the cars",
     ["sensor"]),
    ("js_fade_in.html", "js fade in", "The opacity transition needs a reflow before it starts",
     ["opacity"]),
])
def test_notes_for_what_the_person_writes_are_what_the_page_says_about_it(page, topic, focus, said):
    """Notes for a document lead with the page's sentences about the line the person writes, then its key points
    on the topic: not the key points again."""
    read = fixture(page, "http://127.0.0.1/p")
    md = notes([read], topic, focus=focus)
    bullets = [ln[2:] for ln in md.splitlines() if ln.startswith("- ")]
    wanted = {t[:5] for t in terms(focus)}
    assert 3 <= len(bullets) <= 5 and all(wanted & {t[:5] for t in terms(b)} for b in bullets[:2]), bullets
    assert any(any(w in b.lower() for w in said) for b in bullets), bullets
    assert bullets != key_points(read, len(bullets), topic)
    body = " ".join(b.text for b in read.blocks)
    assert all(b.rstrip("…")[:60] in body for b in bullets)  # extractive
    # nothing written yet: the page's key points
    assert [ln[2:] for ln in notes([read], topic).splitlines() if ln.startswith("- ")] == key_points(read, 5, topic)


@pytest.mark.parametrize("url, why", [
    ("https://user:hunter2@example.com/docs", "user name or password"),
    ("https://example.com/report?token=abc123", "token or key"),
    ("https://example.com/a?X-Amz-Signature=deadbeef&X-Amz-Credential=x", "token or key"),
    ("https://example.com/cb#access_token=ya29.a0AfH6SMBx", "token or key"),
    ("https://example.com/p?id=Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eA", "token or key"),
    ("https://bank.example.com/statement", "never_fetch"),
    ("file:///etc/passwd", "only web pages"),
    ("https://example.com/x?key=ghp_0123456789abcdefghijklmnopqrstuvwxyz", "token or key"),
])
def test_addresses_that_carry_access_or_are_excluded_are_never_read(url, why):
    assert why in (refusal(url, ("example.com" if "bank" in url else "nothing.test",)) or "")


@pytest.mark.parametrize("url", ["https://docs.python.org/3/library/re.html?highlight=fullmatch#re.fullmatch",
                                 "https://stackoverflow.com/questions/2270874/capitalize-first-letter-ruby",
                                 "https://blog.example.cn/article/12345?page=2"])
def test_ordinary_addresses_may_be_read(url):
    assert refusal(url, ("bank.example",)) is None


def test_a_secret_on_a_page_is_redacted_before_anyone_sees_it():
    key = "AKIA" + "QWERTYUIOPASDFGH"
    page = extract(f"<html><body><article><h1>Deploying</h1><p>Set the credentials as shown on this page before "
                   f"you deploy anything to production.</p><pre><code>export AWS_ACCESS_KEY_ID={key}\n"
                   f"aws s3 ls</code></pre></article></body></html>", "http://a.test/deploy")
    assert key not in page.text and "[REDACTED:" in page.code[0].text


def reading_context(server, back: bool = True) -> list[dict]:
    """A person writing main.html who searched for a fade-in, opened a page (its address from ActivityWatch's
    web watcher, as recent_context attaches it) and (`back`) turned back to their file."""
    return [
        {"time": "1", "event": "The user types 'let box' in main.html in Visual Studio Code."},
        {"time": "2", "event": "The user searches on Google for 'js fade in' in Firefox."},
        {"time": "3", "event": "The user visits 'How to fade in an element with JavaScript' on 127.0.0.1 in Firefox.",
         "pages": [{"url": server.page("js_fade_in.html"),
                    "title": "How to fade in an element with JavaScript - Web Notes"}]},
        *([{"time": "4", "event": "The user switches to main.html in Visual Studio Code."}] if back else []),
    ]


def test_the_pages_opened_from_a_search_are_offered_once_the_person_turns_back():
    """While the person reads the page they opened from the search, its code is on their screen: nothing is
    offered then, but the page is read (and held); when they turn back to their file the offer comes, counted,
    with no second request."""
    with page_server(PAGES) as server:
        reader = PageReader("on")
        reading = reading_context(server, back=False)
        offers = candidates.build(ground(reading), writes=False, material=live_source(reading, reader))
        assert not [c for c in offers if c.action in ("page_code", "page_code_page")], [c.task for c in offers]
        assert len(server.requests) == 1  # read while they read it
        back = reading_context(server)
        offers = candidates.build(ground(back), writes=False, material=live_source(back, reader))
        assert [c.message for c in offers if c.action == "page_code"][:1] == [
            "Want the 3 code examples for 'js fade in' from the page you opened, for main.html?"]
        assert len(server.requests) == 1


def test_with_consent_the_page_read_gives_an_offer_that_counts_and_an_accept_that_delivers():
    with page_server(PAGES) as server:
        context = reading_context(server)
        reader = PageReader("on")
        offers = candidates.build(ground(context), writes=False, material=live_source(context, reader))
        code = [c for c in offers if c.action == "page_code"]
        assert code, [c.task for c in offers]
        assert code[0].message == ("Want the 3 code examples for 'js fade in' from the page you opened, for "
                                   "main.html?")
        fetched = len(server.requests)
        assert fetched == 1
        result = do_task(None, context, code[0].task, "page_code", search="on", history_search=False,
                         material=live_source(context, reader))
        assert len(server.requests) == fetched  # held for the task: Accept did not read it again
        assert result.parts == ("code",) and result.pages == (server.page("js_fade_in.html"),)
        copies = [s for s in result.steps if s.get("copy") == "Copy code"]
        assert len(copies) == 3 and "requestAnimationFrame" in (copies[0]["command"] or "")
        assert server.page("js_fade_in.html") in result.text


@pytest.mark.parametrize("setting", ["ask", "off"])
def test_without_consent_nothing_is_requested(setting):
    with page_server(PAGES) as server:
        context = reading_context(server)
        reader = PageReader(setting)
        offers = candidates.build(ground(context), writes=False, material=live_source(context, reader))
        code = [c for c in offers if c.action == "page_code"]
        if setting == "ask":  # offered, without a count: Accept asks first
            assert code and code[0].message.startswith("Want code examples for 'js fade in'")
            question = consent_question(context, code[0].task, "page_code", live_source(context, reader))
            assert question is not None and "127.0.0.1" in question
            result = do_task(None, context, code[0].task, "page_code", search="ask", history_search=False,
                             material=live_source(context, reader))
            assert "Nothing was read" in result.text and result.parts == ("error",)
        else:  # off: the page cannot be had, so nothing is offered from it
            assert not code
        assert server.requests == []


def test_a_search_moment_with_web_search_on_reads_the_top_results():
    with page_server(PAGES) as server:
        context = [{"time": "1", "event": "The user edits 'CheckName.rb' in Visual Studio Code."},
                   {"time": "2", "event": "The user searches on Google for 'capitalize name ruby' in Firefox."}]
        reader = PageReader("on", engine=f"{server.url}/search?q={{query}}")
        material = live_source(context, reader)
        offers = candidates.build(ground(context), writes=False, material=material)
        assert offers and offers[0].action == "page_code", [c.task for c in offers]
        assert "from the top results, for CheckName.rb" in offers[0].message
        result = do_task(None, context, offers[0].task, offers[0].action, search="on", history_search=False,
                         material=material)
        assert server.page("ruby_capitalize.html") in result.pages
        assert result.parts == ("code",) and "capitalize" in result.steps[0]["command"]
        assert server.requests[0].startswith("/search?q=capitalize+name+ruby")


def test_never_fetch_and_tokened_addresses_are_not_requested_even_with_consent():
    with page_server(PAGES) as server:
        context = reading_context(server)
        context[2]["pages"] = [{"url": server.page("js_fade_in.html") + "?access_token=abcdefghijklmnop",
                                 "title": "How to fade in an element with JavaScript"}]
        offers = candidates.build(ground(context), writes=False, material=live_source(context, PageReader("on")))
        assert not [c for c in offers if c.action == "page_code"]
        context[2]["pages"] = [{"url": server.page("js_fade_in.html"), "title": "How to fade in"}]
        offers = candidates.build(ground(context), writes=False,
                                  material=live_source(context, PageReader("on", never_fetch=("127.0.0.1",))))
        assert not [c for c in offers if c.action == "page_code"]
        assert server.requests == []


def test_the_page_the_browser_shows_is_read_without_the_network():
    """While the person reads a page nothing is offered about it (it is on their screen), but it is read from the
    browser then, with no network, and held: once they turn back to their document, notes from it are offered
    and given, though the browser no longer shows it."""
    page = fixture("traffic_realtime_data.html", "https://mobility.example/traffic")
    reading = [{"time": "1", "event": "The user types 'digital payment' in notes.md in Visual Studio Code."},
               {"time": "2", "event": "The user switches to Firefox and views the page 'Traffic management using "
                                      "real-time data | City Mobility Review'."}]
    reader = PageReader("off")
    shows = [page]
    offers = candidates.build(ground(reading), writes=False,
                              material=live_source(reading, reader, browser=lambda: shows[0]))
    assert not [c for c in offers if c.action in ("page_points", "page_notes_page", "page_code_page")]
    shows[0] = None  # the person switched back to the editor: the browser's page is no longer the active one
    back = [*reading, {"time": "3", "event": "The user types 'Adaptive signals cut' in notes.md in Visual Studio "
                                             "Code."}]
    material = live_source(back, reader, browser=lambda: shows[0])
    offers = candidates.build(ground(back), writes=False, material=material)
    notes_offer = [c for c in offers if c.action == "page_notes_page"]
    assert notes_offer and "notes.md" in notes_offer[0].message
    result = do_task(None, back, notes_offer[0].task, notes_offer[0].action, search="off",
                     history_search=False, material=material)
    assert result.parts == ("notes",) and "(https://mobility.example/traffic)" in result.text
    assert "your file is not changed" in result.text and "adaptive signals" in result.text.lower()


def test_a_page_the_person_stays_on_gets_its_key_points_however_the_sentences_cut_its_title():
    """Opened, the page is on the screen: nothing about it. Scrolled through (the sentence names the window by
    the title's part before " | Site"), the person stays on it: its key points are offered from the browser."""
    page = fixture("traffic_realtime_data.html", "https://mobility.example/traffic")
    opened = [{"time": "1", "event": "The user types 'digital payment' in notes.md in Visual Studio Code."},
              {"time": "2", "event": "The user switches to Firefox and views the page 'Traffic management using "
                                     "real-time data | City Mobility Review'."}]
    offers = candidates.build(ground(opened), writes=False,
                              material=live_source(opened, PageReader("off"), browser=lambda: page))
    assert not [c for c in offers if c.action == "page_points"]
    for scrolled in ("The user scrolls down (12 steps) in Traffic management using real-time data in Firefox.",
                     "The user copies 'Adaptive signals' from Traffic management using real-time data in Firefox."):
        staying = [*opened[:1], {"time": "2", "event": opened[1]["event"] + " " + scrolled}]
        offers = candidates.build(ground(staying), writes=False,
                                  material=live_source(staying, PageReader("off"), browser=lambda: page))
        points = [c for c in offers if c.action == "page_points"]
        assert points and "Traffic management using real-time data" in points[0].task, [c.task for c in offers]
    # a key pressed there to leave for another address is not reading it
    leaving = [*opened[:1], {"time": "2", "event": opened[1]["event"] + " The user presses Ctrl+L (address bar) "
                                                                       "in Traffic management using real-time data in Firefox."}]
    offers = candidates.build(ground(leaving), writes=False,
                              material=live_source(leaving, PageReader("off"), browser=lambda: page))
    assert not [c for c in offers if c.action == "page_points"]
    # a long title, cut with an ellipsis where the sentences quote it and where they name the window
    title = "Sonata WH-X6 vs Halden QuietPro Ultra vs Orchard Pods Max: which noise-cancelling headphones to buy"
    long = dataclasses.replace(page, title=title)
    staying = [{"time": "1", "event": f"The user switches to Firefox and views the page '{title[:79]}…'. The user "
                                      f"scrolls down (14 steps) in {title[:60]}… in Firefox."}]
    offers = candidates.build(ground(staying), writes=False,
                              material=live_source(staying, PageReader("off"), browser=lambda: long))
    assert [c for c in offers if c.action == "page_points"], [c.task for c in offers]
    # read, then left for other work: its key points are not offered in the form
    left = [{"time": "1", "event": "The user switches to Firefox and views the page 'Traffic management using "
                                   "real-time data - City Mobility'. The user scrolls down (9 steps) in Traffic "
                                   "management using real-time data in Firefox."},
            {"time": "2", "event": "The user switches to Expense claim - Form in python3. The user types 'Train to "
                                   "Leeds' in Expense claim - Form in python3."}]
    reader = PageReader("off")
    reader.cache.put(page)
    offers = candidates.build(ground(left), writes=False, material=live_source(left, reader))
    assert not [c for c in offers if c.action == "page_points"], [c.task for c in offers]
    # a page only passed through (opened, then another address typed in it) has no key points to offer later
    passed = [{"time": "1", "event": "The user switches to Firefox and views the page 'Traffic management using "
                                     "real-time data - City Mobility'. The user presses Ctrl+L (address bar) in "
                                     "Traffic management using real-time data in Firefox. The user types "
                                     "'http://127.0.0.1:9/search?q=asyncio+timeout' and presses Enter in Traffic "
                                     "management using real-time data in Firefox."},
              {"time": "2", "event": "The user switches to Firefox and searches on DuckDuckGo for 'asyncio "
                                     "timeout'."}]
    reader = PageReader("off")
    reader.cache.put(page)  # read from the browser while it showed it
    offers = candidates.build(ground(passed), writes=False, material=live_source(passed, reader))
    assert not [c for c in offers if c.action == "page_points"], [c.task for c in offers]
    # read, then a search for something else: nothing more from the page read before it
    moved_on = [{"time": "1", "event": "The user switches to Firefox and views the page 'Traffic management using "
                                       "real-time data - City Mobility'. The user scrolls down (9 steps) in Traffic "
                                       "management using real-time data in Firefox."},
                {"time": "2", "event": "The user types 'Adaptive signals cut' in notes.md in Visual Studio Code."},
                {"time": "3", "event": "The user switches to Firefox and searches on DuckDuckGo for 'debounce "
                                       "input javascript'."}]
    offers = candidates.build(ground(moved_on), writes=False, material=live_source(moved_on, reader))
    assert not [c for c in offers if "Traffic management" in c.task], [c.task for c in offers]
    offers = candidates.build(ground(moved_on[:2]), writes=False, material=live_source(moved_on[:2], reader))
    assert [c for c in offers if "Traffic management" in c.task], [c.task for c in offers]  # before the search
    # notes for a document the person is not at now: not offered; once they are at it, they are
    elsewhere = [*moved_on[:2], {"time": "3", "event": "The user switches to the terminal ('ops'). The user types "
                                                       "'du -sh *' and presses Enter in the terminal."}]
    offers = candidates.build(ground(elsewhere), writes=False, material=live_source(elsewhere, reader))
    assert not [c for c in offers if "Traffic management" in c.task], [c.task for c in offers]
    # the browser says "Title | Site" where the sentences say "Title - Site": the same page
    for separator in (" | ", " — ", " – ", " · "):
        shown = dataclasses.replace(page, title=f"Traffic management using real-time data{separator}City Mobility")
        staying = [{"time": "1", "event": "The user switches to Firefox and views the page 'Traffic management "
                                          "using real-time data - City Mobility'. The user scrolls down (9 steps) in "
                                          "Traffic management using real-time data in Firefox."}]
        offers = candidates.build(ground(staying), writes=False,
                                  material=live_source(staying, PageReader("off"), browser=lambda s=shown: s))
        assert [c for c in offers if c.action == "page_points"], (separator, [c.task for c in offers])


def test_replay_counts_pages_as_live_would_read_them():
    context = [{"time": "1", "event": "The user starts working on a file 'CheckName.rb' in Visual Studio Code."},
               {"time": "2", "event": "The user searches on Google for 'How to capitalize person name in ruby?'."}]
    offers = candidates.build(ground(context), writes=False, material=replay_source(context))
    assert offers[0].message == ("Want code examples for 'How to capitalize person name in ruby?' from the top "
                                 "results, for CheckName.rb?")
    assert candidates.build(ground(context), writes=False) == []  # no material: silent, as before


def test_accept_acts_on_the_offer_moment_after_the_person_moved_on(proactive_home, fake_model):
    """The offer was made while the person read a page; by Accept they switched to a terminal and typed: the
    help is about the page, in the tray (the proposal's own context) and in `decide` (rebuilt from the store)."""
    with page_server(PAGES) as server:
        store = Store()
        store.add_events([
            RawEvent("window", WINDOW, {"app": "Code", "title": "main.html - Visual Studio Code"}, ts=1000.0),
            RawEvent("keyboard", TEXT, {"text": "let box", "erase": 0, "enter": False}, ts=1001.0),
            RawEvent("window", WINDOW, {"app": "Firefox", "title": "js fade in - Google Search"}, ts=1003.0),
            RawEvent("activitywatch", WEB, {"url": server.page("js_fade_in.html"),
                                            "title": "How to fade in an element with JavaScript - Web Notes",
                                            "browser": "Firefox"}, ts=1005.0),
        ])
        p = Proactivity.parse("high")
        shown: list = []
        assistant = Assistant(None, Agent(fake_model), Gate(SignalScorer(), p), FeedbackMemory(),
                              TriggerPolicy(p.min_interval_s, min_gap_s=0), on_proposal=shown.append,
                              reader=PageReader("on"))
        observations, episode_id, key = recent_context(store)
        assert any(o.get("pages") for o in observations)
        proposal = assistant.think(store, observations, episode_id, "test", 1010.0, key)
        assert proposal.task is not None and "fade in" in proposal.task, proposal.decision
        store.add_events([
            RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell"}, ts=1020.0),
            RawEvent("keyboard", TEXT, {"text": "git status", "erase": 0, "enter": True}, ts=1021.0),
        ])
        now = recent_context(store)[0]
        assert "git status" in now[-1]["event"]
        stored = Proposal.from_row(ProposalLog(store).get(proposal.id))
        for context in (offer_context(store, proposal), offer_context(store, stored)):
            assert "git status" not in json.dumps(context)
            assert context[-1].get("pages") and "fade in" in json.dumps(context).lower()
        store.close()
        Path(proactive_home, "config.toml").write_text('web_search = "on"\n')
        result = CliRunner().invoke(__import__("proactive.app.cli", fromlist=["cli"]).cli,
                                    ["decide", str(proposal.id), "accepted", "--json"])
        assert result.exit_code == 0, result.output
        help_ = json.loads(result.output)["result"]
        assert help_["pages"] == [server.page("js_fade_in.html")], help_["text"]
        assert "git status" not in help_["text"] and "requestAnimationFrame" in help_["text"]
        # the page's text was shown, never stored: the decision keeps what was given and where from
        store = Store()
        [(kept,)] = store.db.execute("SELECT result FROM decisions WHERE proposal_id = ?", [proposal.id]).fetchall()
        store.close()
        assert "requestAnimationFrame" not in kept and "opacity" not in kept
        assert server.page("js_fade_in.html") in json.loads(kept)["text"]


def _after_search(query: str, page: str, *, search: bool = True) -> list[dict[str, str]]:
    """Someone searches `query` (or comes to the page without a search), opens `page` from it, reads it, and
    turns back to their Ruby file."""
    events = [{"time": "1", "event": "The user edits 'CheckName.rb' in Visual Studio Code."}]
    if search:
        events.append({"time": "2", "event": f"The user searches on Google for '{query}'."})
    events += [{"time": "3", "event": f"The user opens the page '{page}' in Firefox."},
               {"time": "4", "event": f"The user scrolls through the page '{page}' in Firefox."},
               {"time": "5", "event": "The user returns to Visual Studio Code and edits 'CheckName.rb'."}]
    return events


@pytest.mark.parametrize("decision", ["ignored", "accepted", "rejected"])
@pytest.mark.parametrize("query,page", [
    ("How to split a string in ruby?", "Working with text in Ruby - Site A"),
    ("ruby capitalize each word", "Title case made easy | Blog B"),
])
def test_help_from_a_page_opened_from_a_search_already_helped_on_is_not_offered_again(fake_model, decision,
                                                                                      query, page):
    """The offer about a search drew on its results; the page then opened from them gives the same material, so
    while the memory holds back help on the search (shown and ignored, rejected, or done), the page's offer is
    held back too. A page opened from another search, or with no search before it, is still offered."""
    agent = Agent(fake_model)
    context = _after_search(query, page)
    first = agent.predict(context[:2], material=replay_source(context[:2]))
    about_search = [t for t in first.candidates if query in t]
    assert about_search, first.candidates
    unheld = agent.predict(context, material=replay_source(context))
    assert any(page.split(" ")[0] in t for t in unheld.candidates), unheld.candidates
    memory = FeedbackMemory()
    memory.record(about_search[0], decision, ts=2.0)
    held = agent.predict(context, held_back=lambda t: memory.blocked(t, 5.0) is not None,
                         material=replay_source(context))
    # after an accepted help, only help of the same kind is held back (code for the file is other help than the
    # results' key points); after an ignored or rejected one, everything from the same pages
    same = [t for t in unheld.candidates if page.split(" ")[0] in t
            and (decision != "accepted" or same_help(t, about_search[0]))]
    assert same and not set(same) & set(held.candidates), (same, held.candidates)
    assert set(same) <= set(held.held_back), held.held_back
    # another search before the page, never helped on: the page's offer stands
    other = _after_search("ruby string methods list", page)
    kept = agent.predict(other, held_back=lambda t: memory.blocked(t, 5.0) is not None,
                         material=replay_source(other))
    assert any(page.split(" ")[0] in t for t in kept.candidates), kept.candidates
    # no search before the page: nothing ties it to the earlier help
    direct = _after_search("", page, search=False)
    alone = agent.predict(direct, held_back=lambda t: memory.blocked(t, 5.0) is not None,
                          material=replay_source(direct))
    assert any(page.split(" ")[0] in t for t in alone.candidates), alone.candidates


def test_replay_fetch_reads_pages_only_when_asked(tmp_path, proactive_home):
    from proactive.app.cli import cli

    session = tmp_path / "s.json"
    session.write_text(json.dumps([
        {"observation": {"time": "1000", "event": "The user starts working on a file 'CheckName.rb' within a Ruby "
                                                  "project in Visual Studio Code."}},
        {"observation": {"time": "1010", "event": "The user searches on Google for 'capitalize name ruby' after "
                                                  "typing and clicking 'Enter'."}},
        {"observation": {"time": "1020", "event": "The user clicks on a Google search result for 'capitalize name "
                                                  "ruby'."}},
    ]))
    with page_server(PAGES) as server:
        # replay reads no config.toml: the engine is an option, and its help names --fetch as the switch
        Path(proactive_home, "config.toml").write_text('web_search = "on"\n')
        base = ["replay", str(session), "--model", "default", "--proactivity", "high", "--accept",
                "--cache", str(tmp_path / "c.db"), "--search-engine", f"{server.url}/search?q={{query}}"]
        quiet = CliRunner().invoke(cli, [*base, "--out", str(tmp_path / "a")])
        assert quiet.exit_code == 0, quiet.output
        assert server.requests == []
        rows = [json.loads(x) for x in (tmp_path / "a" / "help.jsonl").read_text().splitlines()]
        unread = [r["help"]["text"] for r in rows if r["task"].startswith("Show code")]
        assert unread and all("Nothing was read: proactive replay reads pages only with --fetch" in t
                              and "config.toml" not in t for t in unread), unread
        fetched = CliRunner().invoke(cli, [*base, "--out", str(tmp_path / "b"), "--fetch"])
        assert fetched.exit_code == 0, fetched.output
        rows = [json.loads(x) for x in (tmp_path / "b" / "help.jsonl").read_text().splitlines()]
        code = [r for r in rows if "code" in r["help"]["parts"]]
        assert code and server.page("ruby_capitalize.html") in code[0]["help"]["pages"]
        assert server.requests and all(r.startswith(("/search", "/pages/")) for r in server.requests)
    bad = CliRunner().invoke(cli, ["replay", str(session), "--fetch"])
    assert bad.exit_code == 2 and "--fetch" in bad.output


def test_every_code_block_counts_once_across_pages():
    page = fixture("js_fade_in.html", "http://127.0.0.1/a")
    twice = code_examples([page, fixture("js_fade_in.html", "http://127.0.0.1/b")], "fade in", "main.js", limit=10)
    assert len(twice) == len({e.code for e in twice}) == 4
    assert CODE == "code"


@pytest.mark.parametrize("cited", [True, False])
def test_a_capable_model_writes_from_the_pages_and_must_name_them(scripted, cited):
    """With an answers model (a real HTTP model endpoint, scripted), an example-code offer's answer is written from
    the page read: the page's key points and code are in its prompt, it is shown only when it names the page it
    used, and the store keeps neither the answer nor the page's text."""
    from proactive.models.openai_http import OpenAICompatible

    with page_server(PAGES) as server:
        link = server.page("ruby_capitalize.html")
        context = [{"time": "1", "event": "The user types 'def cap' in CheckName.rb in Visual Studio Code."},
                   {"time": "2", "event": "The user searches on Google for 'capitalize name ruby' in Firefox."},
                   {"time": "3", "event": "The user visits 'How to capitalize the first letter in a String in Ruby' "
                                          "on 127.0.0.1 in Firefox.",
                    "pages": [{"url": link, "title": "How to capitalize the first letter in a String in Ruby"}]}]
        answer = ("Split the name and capitalize each word: name.split(' ').map(&:capitalize).join(' ')"
                  + (f" (from {link})." if cited else "."))
        scripted.answer_with(lambda request: json.dumps({"answer": answer}))
        model = OpenAICompatible(scripted.url, "m")
        result = do_task(model, context, "Show example code for 'capitalize name ruby' to use in CheckName.rb",
                         "code_for_query", search="on", open_browser=False, history_search=False,
                         material=live_source(context, PageReader("on")))
        prompt = scripted.requests[-1]["messages"][-1]["content"]
        assert link in prompt and "map(&:capitalize)" in prompt  # the page's code went to the model
        if cited:
            assert result.answer == answer and result.kind == "answer" and link in result.pages
            assert "map(&:capitalize)" not in json.dumps(result.record())
        else:
            assert result.answer is None and result.dropped == "it does not name the pages it used"


@pytest.mark.parametrize("title", ["js fade in at DuckDuckGo", "js fade in - Google Search", "js fade in - Bing"])
def test_a_results_page_the_browser_shows_is_no_page_read_whatever_its_address(title):
    """A search's results, known by the title the engine gives them (any address: an engine not configured, a
    local one), are links, not a page the person read: nothing is offered from them as 'the page you opened'."""
    results = Page("http://127.0.0.1:8765/search?q=js+fade+in", title,
                   (Block("p", "How to fade in an element with JavaScript - Web Notes"),), "browser")
    context = [{"time": "1", "event": "The user types 'let box' in main.html in Visual Studio Code."},
               {"time": "2", "event": f"The user switches to Firefox and views the page '{title}'."}]
    found = live_source(context, PageReader("ask"), lambda: results)(ground(context).of("query")[0])
    assert found is None or results not in found.pages, found
    article = Page("http://127.0.0.1:8765/fade.html", "How to fade in an element - Web Notes",
                   (Block("p", "Use requestAnimationFrame."),), "browser")
    # opened after the moment being decided (the browser already shows it, no observation names it yet): not yet
    found = live_source(context, PageReader("ask"), lambda: article)(ground(context).of("query")[0])
    assert found is None or article not in found.pages, found
    seen = [*context, {"time": "3", "event": "The user switches to Firefox and views the page 'How to fade in an "
                                             "element - Web Notes'."}]
    found = live_source(seen, PageReader("ask"), lambda: article)(ground(seen).of("query")[0])
    assert found is not None and article in found.pages


def test_key_points_leave_out_a_pages_furniture_and_keep_a_sentence_with_a_title_whole() -> None:
    """A breadcrumb trail, a byline and a promotion are the page's furniture, not what it says; "Dr." ends no
    sentence; a sentence starting "By the way" is no byline."""
    from proactive.assistant.pages import HEADING, PARA, Block, Page

    page = Page("http://127.0.0.1/tea", "Green tea and focus", (
        Block(PARA, "Food › Drinks › Tea"),
        Block(PARA, "Home / Health / Sleep / Green tea and focus"),
        Block(PARA, "Medically reviewed by Dr. Ana Lima, MD — Written by Tom Reyes — Updated on March 3, 2026"),
        Block(HEADING, "Green tea and focus", 1),
        Block(PARA, "By Tom Reyes · 4 min read"),
        Block(PARA, "Spring sale: the Focus Blend sampler, 30% off until Sunday."),
        Block(PARA, "Green tea holds both caffeine and theanine, which together sharpen focus without jitters."),
        Block(HEADING, "How much to drink", 2),
        Block(PARA, "As Dr. Lima puts it, two cups before noon give most of the effect on focus for tea drinkers."),
        Block(HEADING, "Versus coffee", 2),
        Block(PARA, "Coffee > tea for raw alertness, but tea wins for calm focus over long afternoons of work."),
    ), "browser")
    points = key_points(page)
    assert not any("›" in p or "Home / Health" in p or "reviewed by" in p.lower() for p in points), points
    assert not any("Tom Reyes" in p or "% off" in p for p in points), points  # a byline, a promotion
    assert points[0] == "Green tea holds both caffeine and theanine, which together sharpen focus without jitters.", \
        points  # the lead is what the page says first, under its title
    assert any("By the way" in p for p in key_points(dataclasses.replace(page, blocks=(
        Block(PARA, "By the way, green tea keeps its theanine even when it is brewed cold overnight."),))))
    assert any("As Dr. Lima puts it, two cups before noon" in p for p in points), points  # whole, not cut at "Dr."
    assert any("Coffee > tea for raw alertness" in p for p in points), points  # one ">" is no trail


@pytest.mark.parametrize("work, language_page, offered", [
    ("The user types 'def load(path):' in loader.py in Visual Studio Code.", True, False),  # a program in its language
    ("The user types 'function load() {' in loader.js in Visual Studio Code.", True, True),  # another language
    ("The user types 'Notes on loading' in notes.md in Visual Studio Code.", True, True),  # prose
    ("The user types 'def load(path):' in loader.py in Visual Studio Code.", False, True),  # a page of no language
])
def test_a_page_read_for_a_program_in_its_language_gets_no_summary(work: str, language_page: bool,
                                                                    offered: bool) -> None:
    """Reading a page about the language of a file of their work, the person reads for their program: its key
    points are not the help (its code for the file is, at the file). Other readers still get its key points."""
    title = "Reading a file line by line in Python" if language_page else "Reading a file line by line"
    page = dataclasses.replace(fixture("traffic_realtime_data.html", "https://docs.example/read"), title=title)
    reading = [{"time": "1", "event": work},
               {"time": "2", "event": f"The user switches to Firefox and views the page '{title} - Docs'. The user "
                                     f"scrolls down (12 steps) in {title} in Firefox."}]
    offers = candidates.build(ground(reading), writes=False,
                              material=live_source(reading, PageReader("off"), browser=lambda: page))
    summaries = [c for c in offers if c.action in ("page_points", "summarise_page", "collect_page")]
    assert bool([c for c in summaries if c.action == "page_points"]) is offered, [c.task for c in offers]
    if not offered:
        assert not summaries, [c.task for c in offers]  # nor a model's summary of it
