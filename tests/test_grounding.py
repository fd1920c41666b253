"""Grounding (objects and activity, table-driven on sentences from our watcher and from ProactiveBench, English
and Chinese), grounded candidates, and the one validator every task passes."""

from __future__ import annotations

import re
import time

import pytest

from proactive.assistant.candidates import build
from proactive.assistant.grounding import COMMAND, ERROR, ground
from proactive.assistant.validate import rejection


def obs(*events: str) -> list[dict[str, str]]:
    return [{"time": str(1763800000 + 10 * i), "event": e} for i, e in enumerate(events)]


@pytest.mark.parametrize(
    "event, objects, activity",
    [
        # our watcher's sentences (watcher/episodes/builder.py templates)
        ("The user copies an error message starting 'requests.exceptions.ReadTimeout: HTTPSConnectionPool' from "
         "the terminal.", {("error", "requests.exceptions.ReadTimeout: HTTPSConnectionPool")}, "debugging"),
        ("The user searches on Google for 'requests timeout' in Firefox.", {("query", "requests timeout")},
         "searching"),
        ("The user copies an error message starting 'Traceback (most recent call last):' and ending "
         "'TimeoutError: timed out' from the terminal.", {("error", "TimeoutError: timed out")}, "debugging"),
        ("The user switches to client.py in Visual Studio Code. The user types 'import requests' and presses Enter "
         "in client.py in Visual Studio Code.", {("file", "client.py")}, "coding"),
        ("The user switches to the terminal ('build shell'). The user types 'pytest -x' and presses Enter in the "
         "terminal.", {("command", "pytest -x")}, "noise"),
        ("The user visits 'Timeouts - Requests documentation' on docs.python-requests.org in Firefox.",
         {("page", "Timeouts - Requests documentation"), ("site", "docs.python-requests.org")}, "reading"),
        ("The user types 'The city needs more buses' and presses Enter in report.docx in LibreOffice Writer.",
         {("document", "report.docx"), ("topic", "The city needs more buses")}, "writing"),
        ("The user types 'return self.session.get(url, timeout=5)' in client.py in Visual Studio Code.",
         {("file", "client.py")}, "coding"),
        ("The user scrolls down (12 steps) in Firefox.", set(), "noise"),
        ("The user switches to Firefox and searches on Google for 'requests timeout'.",
         {("query", "requests timeout")}, "searching"),
        ("The user switches to Firefox and views the page 'Timeouts - Requests documentation'.",
         {("page", "Timeouts - Requests documentation")}, "reading"),
        # ProactiveBench's sentences
        ("The user searches on Google for 'How to capitalize person name in ruby?' after typing and clicking "
         "'Enter'.", {("query", "How to capitalize person name in ruby?")}, "searching"),
        ("The user starts working on a file 'CheckName.rb' within a Ruby project in Visual Studio Code.",
         {("file", "CheckName.rb"), ("project", "Ruby")}, "coding"),
        ("The user scrolled through a Tencent Cloud Developer Community article on '如何使用 Python 验证电子邮件地址'.",
         {("page", "如何使用 Python 验证电子邮件地址")}, "reading"),
        ("The user opened a search result with the title '远程工作软件 - 搜索' on Bing.", {("query", "远程工作软件")},
         "searching"),
        ("The user typed 'dianz youjian dizhi jiaoyan4 python' in the DeepSeek chat application.",
         {("chat", "DeepSeek")}, "chatting"),
        ("The user clicks and presses 'Enter', opening a new web page displaying search results for 'swift ui 列表' "
         "on Bing.", {("query", "swift ui 列表")}, "searching"),
        ("The user opens a new tab in the browser, the title of the page is '新建标签页'.", set(), "noise"),
        ("The user interacted with Visual Studio Code, editing a markdown file 'search.md' in the project "
         "'PublicTrafficImprovement'.", {("document", "search.md"), ("project", "PublicTrafficImprovement")},
         "writing"),
        ("The user interacted with Visual Studio Code, editing a markdown file 'search.md' in the project "
         "'PublicTrafficImprovement'. Typed text including 'strategies to improve thepublic trafic.' followed by "
         "considerable keyboard activity.", {("document", "search.md"), ("project", "PublicTrafficImprovement"),
                                             ("topic", "strategies to improve thepublic trafic")}, "writing"),
        ("The user typed 'yuancheng gongzuo ruanjian' in the search box of Bing.", set(), "searching"),
        # Chinese sentences
        ("用户在 Google 上搜索 'go 语言' 并打开了第一个结果。", {("query", "go 语言")}, "searching"),
        ("用户复制了一条错误信息 'TypeError: undefined is not a function'。",
         {("error", "TypeError: undefined is not a function")}, "debugging"),
    ],
)
def test_extraction_and_activity(event, objects, activity):
    g = ground(obs(event))
    assert {(o.kind, o.text) for o in g.objects} == objects
    assert g.activity == activity


def test_typed_keys_and_pinyin_are_not_objects():
    g = ground(obs("The user clicks on the web page, types 'swift ui ctrl_l liebiao ', and presses 'Enter'."))
    assert g.objects == []


def test_grounding_cost_stays_per_event():
    events = obs(*["The user searches on Google for 'requests timeout' in Firefox.",
                   "The user copies an error message starting 'TimeoutError: timed out' from the terminal."] * 15)
    started = time.process_time()  # CPU time: other test workers' load does not move it
    for i in range(1, len(events) + 1):
        ground(events[:i])
    assert (time.process_time() - started) / len(events) < 0.01  # about 1.5 ms: a guard against quadratic cost


def test_candidates_are_grounded_by_construction():
    context = obs("The user switches to client.py in Visual Studio Code.",
                  "The user copies an error message starting 'requests.exceptions.ReadTimeout: HTTPSConnectionPool' "
                  "from the terminal.")
    candidates = build(ground(context))
    assert candidates[0].task == ("Explain the error 'requests.exceptions.ReadTimeout: HTTPSConnectionPool' and "
                                  "suggest a fix for client.py")
    assert "client.py" in candidates[0].message
    for c in candidates:
        assert rejection(c.task, ground(context)) is None


def test_a_typed_topic_gives_a_draft_for_the_document():
    context = obs("The user switches to report.docx in LibreOffice Writer.",
                  "The user types 'how buses can reduce traffic in the city' in report.docx in LibreOffice Writer.")
    tasks = [c.task for c in build(ground(context))]
    assert "Draft the next paragraph on 'how buses can reduce traffic in the city' for report.docx" in tasks
    # typed in a terminal, the same words are a command, never a topic
    terminal = obs("The user types 'how buses can reduce traffic' and presses Enter in the terminal.")
    assert [o.kind for o in ground(terminal).objects] == ["command"]


def test_no_object_no_candidate():
    assert build(ground(obs("The user scrolls down (3 steps) in Firefox."))) == []


SEARCH = obs("The user switches to client.py in Visual Studio Code.",
             "The user searches on Google for 'python requests timeout retry' in Firefox.")


@pytest.mark.parametrize(
    "task, reason",
    [
        ("Summarise the top results for 'python requests timeout retry'", None),
        ("Show example code for 'python requests timeout retry' to use in client.py", None),
        ("The user switches to Visual Studio Code and fixes a bug.", "narrates the user"),
        ("The user is stuck in the terminal.", "narrates the user"),
        ("Help the user with their task", "narrates the user"),
        ("Provide assistance", "generic offer"),
        ("Offer further help if needed", "generic offer"),
        ("Fix the time out in client.p to 10:56:37.", "names nothing from the last three events"),
        ("Suggest a fix to the request 'deepseek' in client.py", "names 'deepseek', which is not in the context"),
        ("Suggest a fix for the requests TimeoutError in client.py",  # the prompt's own example
         "names the error TimeoutError, which is not in the context"),
        ("Explain the bug in utils.py", "names the file utils.py, which is not in the context"),
    ],
)
def test_validator(task, reason):
    assert rejection(task, ground(SEARCH)) == reason


@pytest.mark.parametrize("error", ["Error: in prepare, no such table: users",
                                   "ERROR:  permission denied for table user_sessions",
                                   "KeyError: 'user'", "useradd: user 'dev' already exists"])
def test_an_error_that_names_users_is_no_narration_of_the_person(error):
    grounding = ground(obs("The user types 'make db' and presses Enter in the terminal.",
                           f"The user copies an error message starting '{error}' from the terminal."))
    task = f"Give the next step for the error '{error}'"
    assert rejection(task, grounding) is None
    assert rejection(f"The user met '{error}'", grounding) == "narrates the user"
    assert rejection("Tell the user's manager about 'make db'", grounding) == "narrates the user"


def test_validator_accepts_shortened_names():
    context = obs("The user visits '7 款软件、4 大维度，远程桌面控制软件横评 - 少数派' on sspai.com in Firefox.")
    assert rejection("Summarise the key points of '7 款软件、4 大维度，远程桌面控制软件横评'", ground(context)) is None


# ----------------------------------------------------------------------------------------------------- offer defects

def tasks_for(*events: str) -> list[str]:
    return [c.task for c in build(ground(obs(*events)))]


@pytest.mark.parametrize(
    "events, not_paired, paired",
    [
        # the defect's case: a Go query offered for a Python file
        (["The user clicked on the 'envs/aw-watcher-agent/aw_tools.py' file within the Visual Studio Code "
          "application.", "The user searches on Google for 'go 语言' and opens the first result."],
         "aw_tools.py", None),
        (["The user edits main.py in Visual Studio Code.", "The user searches on Google for 'rust async await "
          "tutorial' in Firefox."], "main.py", None),
        (["The user edits Main.java in IntelliJ.", "The user searches on Google for 'javascript array map "
          "example' in Chrome."], "Main.java", None),
        (["The user edits app.py in Visual Studio Code.", "The user searches on Google for 'How to split a string "
          "in ruby?' in Chrome."], "app.py", None),
        (["The user edits index.html in Visual Studio Code.", "The user searches on Google for 'c++ vector sort' in "
          "Chrome."], "index.html", None),
        (["The user edits tools.py in Visual Studio Code.", "用户在 Google 上搜索 'c 语言 指针' 并打开了第一个结果。"],
         "tools.py", None),
        (["The user edits tools.py in Visual Studio Code.", "The user reads the article 'Kotlin coroutines guide - "
          "Android Developers' in Chrome."], "tools.py", None),
        # the same language, or none named: paired as before
        (["The user edits email_filter.py in Visual Studio Code.", "The user searches on Google for '电子邮件地址校验 "
          "python' in Chrome."], None, "Show example code for '电子邮件地址校验 python' to use in email_filter.py"),
        (["The user edits isPalindrome.java in Visual Studio Code.", "The user searches on Google for 'How to check "
          "if the string is palindrome in java?'."], None,
         "Show example code for 'How to check if the string is palindrome in java?' to use in isPalindrome.java"),
        (["The user edits client.py in Visual Studio Code.", "The user searches on Google for 'requests timeout "
          "retry' in Firefox."], None, "Show example code for 'requests timeout retry' to use in client.py"),
        (["The user edits helper.py in Visual Studio Code.", "The user edits server.go in Visual Studio Code.",
          "The user edits helper.py in Visual Studio Code.", "The user searches on Google for 'golang http "
          "server' in Chrome."], "helper.py", "Show example code for 'golang http server' to use in server.go"),
        (["The user edits sort.cpp in Visual Studio Code.", "The user searches on Google for 'c++ vector sort' in "
          "Chrome."], None, "Show example code for 'c++ vector sort' to use in sort.cpp"),
    ],
)
def test_no_offer_across_technologies(events, not_paired, paired):
    tasks = tasks_for(*events)
    if not_paired:
        assert not [t for t in tasks if not_paired in t and ("example code" in t or "apply" in t)], tasks
    if paired:
        assert paired in tasks


@pytest.mark.parametrize(
    "event, page",
    [
        ("The user visits 'https://blog.csdn.net/weixin_43/article/details/120619666' in Chrome.", "blog.csdn.net"),
        ("The user reads the page 'https://www.runoob.com/python3/python3-reg-expressions.html' in Firefox.",
         "runoob.com"),
        ("The user opens the page 'https://blog.csdn.net/weixin_43/article/details/120619666' titled 'Python "
         "邮箱校验_CSDN博客' in Chrome.", "Python 邮箱校验_CSDN博客"),
        ("The user visits 'http://127.0.0.1:5500/main.html' on 127.0.0.1 in Firefox.", None),
        ("The user views the page 'localhost:3000/dashboard' in Chrome.", None),
    ],
)
def test_urls_are_never_page_names(event, page):
    # back in their file after the page (nothing is offered about the page while it is on their screen)
    context = obs("The user edits email_filter.py in Visual Studio Code.", event,
                  "The user switches to email_filter.py in Visual Studio Code.")
    g = ground(context)
    assert [o.text for o in g.objects if o.kind == "page"] == ([page] if page else [])
    tasks = [c.task for c in build(g)]
    assert not [t for t in tasks if "://" in t or "5500" in t or "120619666" in t], tasks
    if page:
        assert any(f"'{page}'" in t for t in tasks), tasks


@pytest.mark.parametrize("title, file", [
    ("search.js - vim", "search.js"),
    ("notes.md (~/work) - VIM", None),
    ("GNU nano 7.2 - report.txt", None),
    ("user@laptop: ~/work - bash", None),
    ("htop - 12 tasks", None),
])
def test_a_terminals_title_is_no_page_and_no_query(title, file):
    """A terminal's title ("switches to the terminal ('search.js - vim')") names the program in it, not a page
    read nor a search: the page the person read before stays the latest, so its code is for the file."""
    page = "Debouncing input events in JavaScript - Frontend Field Guide"
    context = obs("The user searches on DuckDuckGo for 'debounce input javascript' in Firefox.",
                  f"The user switches to Firefox and views the page '{page}'.",
                  f"The user switches to the terminal ('{title}'). The user types 'x = 1' in the terminal.")
    g = ground(context)
    assert [o.text for o in g.objects if o.kind == "page"] == [page]
    assert [o.text for o in g.objects if o.kind == "query"] == ["debounce input javascript"]
    if file:
        assert file in [o.text for o in g.objects if o.kind == "file"]


@pytest.mark.parametrize(
    "event, files",
    [
        ("The user opens http://127.0.0.1:5500/main.html in Chrome.", set()),
        ("The user visits 'http://127.0.0.1:5500/main.html' on 127.0.0.1 in Firefox.", set()),
        ("The user reads https://github.com/psf/requests/blob/main/setup.py in Firefox.", set()),
        ("The user opens localhost:8080/static/app.js in Chrome.", set()),
        ("The user copies the link 'https://docs.python.org/3/library/re.html' from Firefox.", set()),
        # a file named outside a URL is still a file
        ("The user edits main.html in Visual Studio Code after opening http://127.0.0.1:5500/main.html.",
         {"main.html"}),
        ("The user edits envs/aw-watcher-agent/aw_tools.py in Visual Studio Code.",
         {"envs/aw-watcher-agent/aw_tools.py"}),
    ],
)
def test_no_file_names_from_urls(event, files):
    g = ground(obs(event))
    assert {o.text for o in g.objects if o.kind in ("file", "document")} == files
    assert not [o for o in g.objects if "5500" in o.text]


@pytest.mark.parametrize(
    "query, navigational",
    [
        ("github", True), ("youtube", True), ("gmail", True), ("baidu", True), ("stackoverflow", True),
        ("google translate", True), ("GitHub login", True), ("baidu.com", True), ("www.bilibili.com", True),
        ("知乎 登录", True), ("Stack Overflow", True), ("outlook sign in", True), ("淘宝", True),
        ("github actions cache", False), ("python requests timeout retry", False), ("三星galaxy", False),
        ("Money Manager Ex", False), ("go 语言", False), ("how to use google translate api", False),
    ],
)
def test_navigational_searches_are_not_topics(query, navigational):
    context = obs("The user edits client.py in Visual Studio Code.",
                  f"The user searches on Google for '{query}' in Chrome.")
    tasks = tasks_for(*[o["event"] for o in context])
    quoted = [t for t in tasks if f"'{query}'" in t]
    assert (not quoted) == navigational, tasks


def test_within_one_long_episode_the_thing_named_last_is_the_latest():
    """A whole shell session in one window is one episode: the error copied last, and the command typed last,
    come first (offers are about what the person is doing now, not the first error of the session)."""
    from proactive.assistant.grounding import COMMAND, ERROR

    event = ("The user switches to the terminal ('shell'). The user types 'python3 -c 'import numpyy'' and presses "
             "Enter in the terminal. The user copies an error message starting 'Traceback (most recent call "
             "last):' and ending 'ModuleNotFoundError: No module named 'numpyy'' from the terminal. The user types "
             "'gti status' and presses Enter in the terminal. The user copies an error message starting "
             "'Traceback (most recent call last):' and ending 'KeyError: 'user_id'' from the terminal.")
    g = ground([{"time": "1", "event": event}])
    assert "user_id" in g.first(ERROR).text and "numpyy" in g.of(ERROR)[1].text
    assert g.first(COMMAND).text == "gti status"


@pytest.mark.parametrize(("command", "error", "known"), [
    ("cargo run", "error[E0425]: cannot find value `total_cout` in this scope", False),
    ("python3 app.py", "ModuleNotFoundError: No module named 'requests'", True),
    ("docker run -p 80:80 web", "docker: Error response from daemon: driver failed programming external connectivity "
     "on endpoint web: Bind for 0.0.0.0:80 failed: port is already allocated.", True),
])
def test_at_an_error_with_a_known_step_the_command_s_output_offer_gives_way(command, error, known):
    """"Explain what 'cargo run' does and how to fix its output" is about the same failure as the error's own
    offer, without its step: shown only where no specific step is known, so the model cannot rank it first."""
    from proactive.assistant import candidates

    context = [{"time": "1", "event": f"The user types '{command}' and presses Enter in the terminal."},
               {"time": "2", "event": f"The user copies an error message starting '{error}' from the terminal."}]
    offered = [c.action for c in candidates.build(ground(context), writes=True)]
    assert ("fix_error" in offered) == known, offered
    assert ("explain_command" in offered) == (not known), offered


@pytest.mark.parametrize("command, error, manual", [
    ("python3 app.py", "KeyError: 'user_id'", False),
    ("git push", "fatal: unable to access 'https://example.org/repo.git/': Could not resolve host: example.org",
     False),
    ("grep --colr x", "grep: unrecognized option '--colr'", True),  # how it was called: its manual answers
    ("tar -xz archive", "tar: Old option 'z' requires an argument.", True),
    ("git stats", "git: 'stats' is not a git command. See 'git --help'.", True),
])
def test_at_an_error_the_manual_is_offered_only_when_it_answers_it(command, error, manual):
    """Next to an error's own help, the manual of the program that failed is noise, unless the error is about
    how the program was called (an option, an argument, its usage)."""
    from proactive.assistant import candidates

    context = [{"time": "1", "event": f"The user types '{command}' and presses Enter in the terminal."},
               {"time": "2", "event": f"The user copies an error message starting 'x' and ending '{error}' from "
                                      "the terminal."}]
    offered = [c.action for c in candidates.build(ground(context), writes=False)]
    assert ("command_docs" in offered) == manual, offered
    alone = [c.action for c in candidates.build(ground(context[:1]), writes=False)]
    assert "command_docs" not in alone  # no error, nobody looked it up: the command ran as the person meant
    searched = [{"time": "0", "event": f"The user searches on Google for '{command.split()[0]} options' in Firefox."},
                context[0]]
    assert "command_docs" in [c.action for c in candidates.build(ground(searched), writes=False)]


def test_a_typed_command_that_quotes_its_own_arguments_is_read_whole():
    """Our sentence for a line typed in a terminal keeps the whole line when it quotes its arguments itself."""
    g = ground(obs("The user switches to the terminal ('bash'). The user types 'psql -U app shop -c 'SELECT id "
                   "FROM orders;'' and presses Enter in the terminal."))
    assert ("command", "psql -U app shop -c 'SELECT id FROM orders;'") in {(o.kind, o.text) for o in g.objects}


def test_a_replayed_copied_error_is_read_from_every_line_its_sentence_quotes():
    """A recorded session has the sentence only: the error object carries the lines it quotes (first, saying,
    ending), named by the line that names the error, and the diagnosis reads them (the linker's missing -lm)."""
    from proactive.assistant.candidates import situation
    from proactive.assistant.diagnose import diagnose

    event = ("The user types 'gcc main.c -o app' and presses Enter in the terminal. The user copies an error message "
             "starting '/usr/bin/ld: /tmp/ccA1.o: in function `main':', saying 'main.c:(.text+0x2c): undefined "
             "reference to `sqrt'' and ending 'collect2: error: ld returned 1 exit status' from the terminal.")
    g = ground(obs(event))
    errors = [o for o in g.objects if o.kind == "error"]
    assert len(errors) == 1 and "undefined reference to `sqrt'" in errors[0].detail
    found = diagnose(situation(errors[0], g))
    assert found is not None and found.details["flag"] == "-lm"
    assert found.steps[0].command == "gcc main.c -o app -lm"


def test_a_replayed_copy_without_an_error_word_is_an_error_when_a_diagnosis_knows_it():
    """As live, where the whole copy is read: cp's "omitting directory" names no error, yet is one."""
    g = ground(obs("The user types 'cp photos /media/usb/' and presses Enter in the terminal. The user copies "
                   "'cp: -r not specified; omitting directory 'photos'' from the terminal."))
    errors = [o for o in g.objects if o.kind == "error"]
    assert errors and "omitting directory" in errors[0].text
    g = ground(obs("The user copies 'def load(path):' from the terminal."))
    assert not [o for o in g.objects if o.kind == "error"]


@pytest.mark.parametrize(("typed", "error"), [("gti status", "bash: gti: command not found"),
                                              ("FOO=1 pytohn3 app.py", "bash: pytohn3: command not found"),
                                              ("git status", None), ("cd /tmp", None), ("k get pods", None),
                                              ("./gti", None)])
def test_a_mistyped_command_entered_alone_is_the_error_the_shell_printed(tmp_path, monkeypatch, typed, error):
    """No copy and no terminal text: a program not on PATH with a name one typo away that is (two letters
    swapped) is what the shell said "command not found" about; a builtin, a path or a name with no close program
    (an alias the shell may have: 'k') is not."""
    from proactive.assistant.diagnose import shell_errors

    for name in ("git", "python3"):
        program = tmp_path / name
        program.write_text("#!/bin/sh\n")
        program.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("SHELL", "/bin/bash")
    monkeypatch.setattr(shell_errors, "_path_cache", None)
    g = ground(obs(f"The user switches to the terminal ('bash'). The user types '{typed}' and presses Enter in the "
                   "terminal."))
    errors = [o.text for o in g.objects if o.kind == "error"]
    assert errors == ([error] if error else [])


def test_a_replayed_traceback_s_failing_frame_is_read_as_python_printed_it():
    """The sentence quotes the failing frame and its code line, flattened: the diagnosis still reads the line to
    fix ('summ' -> 'sum' in the person's own line)."""
    from proactive.assistant.candidates import situation
    from proactive.assistant.diagnose import diagnose

    event = ("The user types 'python3 stats.py' and presses Enter in the terminal. The user copies an error message "
             "starting 'Traceback (most recent call last):', saying 'File \"/home/dev/stats.py\", line 4, in <module>', "
             "saying 'mean = summ(scores) / len(scores)' and ending 'NameError: name 'summ' is not defined' from the "
             "terminal.")
    g = ground(obs(event))
    error = next(o for o in g.objects if o.kind == "error")
    found = diagnose(situation(error, g))
    assert found is not None and any("mean = sum(scores) / len(scores)" in (s.command or "") for s in found.steps)


@pytest.mark.parametrize(("copied", "step"), [
    # rustc's help line, the code it suggests and the marker under the change
    ("   Compiling meter v0.1.0 (/home/dev/meter)\nerror[E0308]: mismatched types\n --> src/lib.rs:3:5\n  |\n"
     "3 |     total\n  |     ^^^^^ expected `u64`, found `i32`\n  |\nhelp: you can convert an `i32` to a `u64` and "
     "panic if the converted value doesn't fit\n  |\n3 |     total.try_into().unwrap()\n  |          "
     "++++++++++++++++++++\n\nFor more information about this error, try `rustc --explain E0308`.\n"
     "error: could not compile `meter` (lib) due to 1 previous error", "total.try_into().unwrap()"),
    # a command announced on an indented line of its own
    ("npm ERR! code ENOENT\nnpm ERR! syscall open\nnpm ERR! enoent Could not read package.json\n"
     "To start a project here, run the following command:\n\n    npm init -y\n\nnpm ERR! A complete log of this run "
     "can be found in: /home/dev/.npm/_logs/debug-0.log", "npm init -y"),
])
def test_a_copied_error_s_own_next_step_survives_its_sentence(copied: str, step: str) -> None:
    """Live, the copy is read whole; replayed, only its episode sentence is: the sentence quotes the line saying
    what to do with the code or command under it, so the diagnosis read from the sentence gives the same step."""
    from proactive.assistant.candidates import situation
    from proactive.assistant.diagnose import diagnose
    from proactive.watcher.episodes.builder import EpisodeBuilder
    from proactive.watcher.events import CLIPBOARD, WINDOW, RawEvent

    builder = EpisodeBuilder()
    builder.add(1, RawEvent("window", WINDOW, {"app": "XTerm", "title": "bash", "process": "xterm"}, ts=1.0))
    builder.add(2, RawEvent("clipboard", CLIPBOARD, {"text": copied, "length": len(copied)}, ts=2.0))
    sentence = builder.close(10.0).row()["event"]
    g = ground(obs(sentence))
    error = next(o for o in g.objects if o.kind == "error")
    found = diagnose(situation(error, g))
    assert found is not None and any(step in (s.command or "") for s in found.steps), (sentence, found)


def terminal_episode(*steps: tuple[str, str]) -> list[dict]:
    """One terminal episode as the live path gives it: the watcher's sentence and the whole texts copied."""
    from proactive.watcher.episodes.builder import EpisodeBuilder
    from proactive.watcher.events import CLIPBOARD, TEXT, WINDOW, RawEvent

    builder, ts = EpisodeBuilder(), 1_700_000_000.0
    events = [RawEvent("window", WINDOW, {"app": "XTerm", "title": "build", "process": "xterm"}, ts=ts)]
    copies = []
    for kind, text in steps:
        ts += 3
        if kind == "type":
            events.append(RawEvent("keyboard", TEXT, {"text": text, "enter": True}, ts=ts))
        else:
            copies.append(text)
            events.append(RawEvent("clipboard", CLIPBOARD, {"text": text, "length": len(text), "truncated": False},
                                   ts=ts))
    for raw_id, event in enumerate(events, 1):
        builder.add(raw_id, event)
    episode = builder.close(ts + 8)
    assert episode is not None
    return [{"time": str(episode.row()["start"]), "event": episode.row()["event"], "copies": copies}]


LINK = ("cc -o app main.c\n/usr/bin/ld: /tmp/ccAbc.o: in function `main':\nmain.c:(.text+0x2d): undefined reference "
        "to `sqrt'\ncollect2: error: ld returned 1 exit status\nmake: *** [Makefile:2: app] Error 1\n")
FLASK = ("Traceback (most recent call last):\n  File \"/srv/app.py\", line 1, in <module>\n    import flask\n"
         "ModuleNotFoundError: No module named 'flask'\n")
NPM = ("npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/left-padd - Not found\n")


@pytest.mark.parametrize("steps, latest", [
    ([("type", "make"), ("copy", "Makefile:2: *** missing separator.  Stop.\n"),
      ("type", "sed -i 's/^    /\\t/' Makefile"), ("type", "make"), ("copy", LINK)], "-lm"),
    ([("type", "make"), ("copy", LINK), ("type", "python3 app.py"), ("copy", FLASK)], "flask"),
    ([("type", "python3 app.py"), ("copy", FLASK), ("type", "npm install left-padd"), ("copy", NPM)], "E404"),
])
def test_of_two_errors_in_one_episode_the_later_comes_first(steps, latest):
    """One episode in one terminal holds a whole shell session: the error the person just met is the one an offer
    is about, whatever rule found each."""
    g = ground(terminal_episode(*steps))
    assert len(g.of("error")) >= 2, [e.text for e in g.of("error")]
    offers = [c for c in build(g, writes=False) if c.action == "fix_error" or c.action.startswith("explain_error")]
    assert offers and latest in offers[0].task + " " + offers[0].message, [c.task for c in offers]


@pytest.mark.parametrize("typo, program", [("gti log --oneline", "git"), ("pyhton3 stats.py", "python3"),
                                           ("gerp -rn TODO .", "grep")])
def test_a_mistyped_command_after_earlier_errors_gets_its_offer(typo, program):
    """What the shell said about a command it would not know is an error the offer may quote, also when the
    context's earlier episodes hold other errors."""
    g = ground(obs(
        "The user switches to the terminal ('shell'). The user types 'python3 totals.py' and presses Enter in the "
        "terminal. The user copies an error message starting 'Traceback (most recent call last):' and ending "
        "'NameError: name 'totl' is not defined' from the terminal.",
        "The user switches to totals.py - vim.",
        f"The user switches to the terminal ('shell'). The user types '{typo}' and presses Enter in the terminal."))
    grounded = [c for c in build(g, writes=False) if rejection(c.grounded_text, g) is None]
    assert grounded and f"'{program}'" in grounded[0].task and typo.split()[0] in grounded[0].task, \
        [(c.task, rejection(c.grounded_text, g)) for c in build(g, writes=False)]


@pytest.mark.parametrize("title, query", [
    ("how did the printing press change europe at DuckDuckGo", "how did the printing press change europe"),
    ("asyncio timeout - Google Search", "asyncio timeout"),
])
def test_a_results_page_named_by_its_title_is_the_search(title, query):
    """A recorded session names a results page by its title: it is the search, not a page to take notes from."""
    g = ground(obs(f"The user switches to Firefox and views the page '{title}'."))
    assert [(o.kind, o.text) for o in g.objects] == [("query", query)]


def test_a_message_without_an_error_word_that_a_diagnosis_knows_is_the_error_of_a_sentence():
    """A text set off by a colon (or quoted) with no error word, git's "Your branch is behind …", is the error when
    a diagnosis knows it, as the live path reads such a copy; a sentence about a page is not read so."""
    g = ground([{"time": "1", "event": "The Tilix window is in focus. Visible text: Your branch is behind "
                                       "'origin/dev' by 4 commits, and can be fast-forwarded."}])
    assert "Your branch is behind" in g.first(ERROR).detail
    assert ground([{"time": "1", "event": "The user opens 'Branches - GitHub Docs': Your branch explained."}]
                  ).first(ERROR) is None


def test_screen_text_gives_the_command_and_the_error_of_a_prompt_line():
    g = ground([{"time": "1", "event": "OCR of the active window (kitty): ... $ pip3 install lxml error: "
                                       "externally-managed-environment ..."}])
    assert g.first(COMMAND).text == "pip3 install lxml"
    assert g.first(ERROR).text == "error: externally-managed-environment"


def test_a_quoted_command_line_of_a_known_program_is_the_command_beside_a_message():
    g = ground([{"time": "1", "event": "Why does 'composer install' keep giving me 'Your requirements could not be "
                                       "resolved to an installable set of packages.'?"}])
    assert g.first(COMMAND).text == "composer install"


@pytest.mark.parametrize(("output", "named"), [
    ("   Compiling ticker v0.1.0 (/home/dev/ticker)\nerror[E0308]: mismatched types\n --> src/main.rs:2:22\n\n"
     "error: could not compile `ticker` (bin \"ticker\") due to 1 previous error", "error[E0308]: mismatched types"),
    ("Main.java:3: error: package Sytem does not exist\n        Sytem.out.println(\"ready\");\n             ^\n1 error\n"
     "error: compilation failed", "Main.java:3: error: package Sytem does not exist"),
    ("main.c:1:10: fatal error: curl/curl.h: No such file or directory\ncompilation terminated.",
     "main.c:1:10: fatal error: curl/curl.h: No such file or directory"),
    ("gcc -o app main.c\nmain.c:5:3: error: 'count' undeclared (first use in this function)\n"
     "make: *** [Makefile:2: app] Error 1", "main.c:5:3: error: 'count' undeclared (first use in this function)"),
    ("error: could not compile `app` (lib) due to 2 previous errors", "error: could not compile `app` (lib) due to 2 previous errors"),
    # a build tool's progress before the error: Maven's [INFO] and its own lines around what it lists, CMake's
    # checks, Node's place in its loader before `Error [CODE]:`, a Go package's header before its place and message
    ("[INFO] Scanning for projects...\n[ERROR] [ERROR] Some problems were encountered while processing the POMs:\n"
     "[ERROR] 'dependencies.dependency.version' for org.postgresql:postgresql:jar is missing. @ line 17, column 17\n"
     "[ERROR] \n[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.",
     "[ERROR] 'dependencies.dependency.version' for org.postgresql:postgresql:jar is missing. @ line 17, column 17"),
    ("-- The CXX compiler identification is GNU 12.2.0\n-- Detecting CXX compiler ABI info - done\n"
     "CMake Error at CMakeLists.txt:4 (add_subdirectory):\n  The source directory\n\n    /src/third_party/gtest\n\n"
     "  does not contain a CMakeLists.txt file.\n\n-- Configuring incomplete, errors occurred!",
     "CMake Error at CMakeLists.txt:4 (add_subdirectory):"),
    ("node:internal/modules/esm/resolve:283\n    throw new ERR_MODULE_NOT_FOUND(\n          ^\n\n"
     "Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/app/src/utils' imported from /app/src/index.mjs\n"
     "    at finalizeResolution (node:internal/modules/esm/resolve:283:11)\n\nNode.js v20.20.2",
     "Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/app/src/utils' imported from /app/src/index.mjs"),
    ("# example.com/inventory\n./models.go:8:2: struct field tag `json: \"sku\"` not compatible with "
     "reflect.StructTag.Get: bad syntax for struct tag value",
     "./models.go:8:2: struct field tag `json: \"sku\"` not compatible with reflect.StructTag.Get: bad syntax for "
     "struct tag value"),
])
def test_an_error_is_named_by_its_own_line_not_the_build_s_closing_count(output, named):
    from proactive.assistant.grounding import error_line

    assert error_line(output) == named


def test_an_offer_quotes_the_line_met_not_how_the_command_ended():
    """A record that closes with the exit code (an agent's tool call) and the tag around it: the line before."""
    record = ("<terminal_output>\nWARNING: The requested image's platform (linux/arm64) does not match the host\n"
              "exec /usr/local/bin/docker-entrypoint.sh: exec format error\n</terminal_output>\nexit_code: 1\n"
              "</function_results>")
    objs = ground([{"time": "1", "event": "Run command: docker run shop:1.2\n" + record}]).objects
    assert [o.text for o in objs if o.kind == ERROR][0] == "exec /usr/local/bin/docker-entrypoint.sh: exec format error"


def test_an_error_the_terminal_shows_keeps_its_output_beside_an_earlier_copy_and_comes_first():
    """A copied error earlier in the episode, then a command whose error the terminal shows: the shown error is
    the moment's, with its whole output (what its specific help is read from)."""
    from proactive.assistant import candidates

    shown = ("gcc -o app main.c\n/usr/bin/ld: /tmp/cc1.o: in function `main':\n"
             "main.c:(.text+0x3e): undefined reference to `sqrt'\ncollect2: error: ld returned 1 exit status\n"
             "make: *** [Makefile:2: app] Error 1")
    sentence = ("The user types 'make' and presses Enter in the terminal. The user copies 'Makefile:2: *** missing "
                "separator. Stop.' from the terminal. The user types 'make' and presses Enter in the terminal.")
    grounding = ground([{"time": "1", "event": sentence, "copies": ["Makefile:2: *** missing separator.  Stop."],
                         "screen": [shown]}])
    first = grounding.of("error")[0]
    assert first.text == "collect2: error: ld returned 1 exit status" and first.detail == shown
    tasks = [c.task for c in candidates.build(grounding, writes=False)]
    assert tasks[0].startswith("Give the next step for the error 'collect2") and "-lm" in tasks[0]


#: lines that carried a message to the person, and the message's line an offer should quote
MESSAGE_CARRIED = [
    # a mail's signature under the message: the message's own line, though its diagnosis needs the banner above
    ("Subject: deploy box\n\nHello,\nssh ops@10.2.0.7 answers with\n\n"
     "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
     "@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n"
     "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
     "Host key verification failed.\n\nCheers,\nTomás", "Host key verification failed."),
    # a chat's next speaker after a message with no error word
    ("[11:02] Wong, Mei\ndocker pull postgres:16 stops with\n"
     "failed to register layer: write /var/lib/docker/overlay2/9f1c/diff/usr/lib/postgresql/16/bin/postgres: "
     "no space left on device\n[11:06] Berg, Ola\nlet me check the runner",
     "failed to register layer: write /var/lib/docker/overlay2/9f1c/diff/usr/lib/postgresql/16/bin/postgres: "
     "no space left on device"),
    # a forum's code tags around the lines
    ("Re: upload fails\n[code]$ scp build deploy@172.16.4.2:/opt/site/\nscp: local \"build\" is not a regular file\n"
     "scp: failed to upload file build to /opt/site/[/code]\nAny idea?",
     ('scp: local "build" is not a regular file', "scp: failed to upload file build to /opt/site/")),
    # a note's label before the message
    ("todo fri\n- python3 export.py\n- got: ModuleNotFoundError: No module named 'openpyxl'\n- ask Jo",
     "ModuleNotFoundError: No module named 'openpyxl'"),
    # a program's own name before its message stays
    ("$ cc -o stats stats.c\n/usr/bin/ld: /tmp/ccX.o: in function `mean':\nstats.c:(.text+0x5a): undefined reference "
     "to `pow'\ncollect2: error: ld returned 1 exit status\nthanks in advance, Lu",
     ("collect2: error: ld returned 1 exit status", "stats.c:(.text+0x5a): undefined reference to `pow'")),
    # a CI runner's verdict after a message the rules know
    ("$ docker run -d --name cache -p 6380:6379 redis:7\n"
     "docker: Error response from daemon: Conflict. The container name \"/cache\" is already in use by container "
     "\"5d1e\". You have to remove (or rename) that container to be able to reuse that name.\n"
     "See 'docker run --help'.\nERROR: Job failed: exit code 125",
     "docker: Error response from daemon: Conflict. The container name \"/cache\" is already in use"),
    # an agent's words around the message it quotes, after the output itself
    ('{"run": 12, "turns": [{"role": "assistant", "content": "Running the tests.\\n```\\npytest -q\\n```"}, '
     '{"role": "tool", "content": "ImportError while loading conftest \'/work/conftest.py\'.\\nconftest.py:3: in '
     '<module>\\n    import attrs\\nE   ModuleNotFoundError: No module named \'attrs\'"}, {"role": "assistant", '
     '"content": "The tests failed with `ModuleNotFoundError: No module named \'attrs\'`. I will install it."}]}',
     "ModuleNotFoundError: No module named 'attrs'"),
    # an event log's words about the output before the message on its line
    ('[{"t": 1, "event": "typed", "detail": "gti push origin main"}, {"t": 2, "event": "output", "detail": "in red: '
     'bash: gti: command not found"}]', "bash: gti: command not found"),
    # a Markdown fence closing on the message's line
    ("why?\n```\n$ python3 serve.py\nTraceback (most recent call last):\n  File \"serve.py\", line 1, in <module>\n"
     "    import flask\nModuleNotFoundError: No module named 'flask'```", "ModuleNotFoundError: No module named 'flask'"),
]


@pytest.mark.parametrize(("text", "line"), MESSAGE_CARRIED)
def test_an_offer_quotes_the_message_line_not_what_carried_it(text, line):
    """Whatever carried the message (a mail, a chat, a forum, notes, a CI runner, a fence), the offer quotes a line
    of the program's output, not a signature, a speaker, a tag, a label or a verdict."""
    offers = build(ground([{"time": "1", "event": text}]), writes=False)
    assert offers, text
    quote = re.match(r"You hit '(.+)'\. Want", offers[0].message).group(1).replace("’", "'").rstrip("…")
    lines = (line,) if isinstance(line, str) else line
    assert len(quote) >= 20 and any(ln.startswith(quote) for ln in lines), (quote, lines)
