"""Offers about a command ("About this command", "From the manual") only where one is worth an interruption: the
command failed, is unknown here, or was looked up; each command of a compound line judged on its own; a line
typed into an editor running in the terminal is no command."""

from __future__ import annotations

import pytest

from proactive.assistant.candidates import build
from proactive.assistant.command_lines import editor_lines, split_commands
from proactive.assistant.grounding import COMMAND, ground
from proactive.watcher.episodes.builder import EpisodeBuilder
from proactive.watcher.events import TEXT, WINDOW, RawEvent

COMMAND_OFFERS = ("command_docs", "explain_command")


def context(*events: str) -> list[dict[str, str]]:
    return [{"time": str(1_700_000_000 + 10 * i), "event": e} for i, e in enumerate(events)]


def typed(line: str) -> str:
    return f"The user types '{line}' and presses Enter in the terminal."


def copied(error: str) -> str:
    return f"The user copies an error message starting '{error}' from the terminal."


def command_offers(observations: list[dict[str, str]]) -> list[tuple[str, str]]:
    """(action, quoted command) of every command offer built, with or without a model that writes."""
    offers = build(ground(observations), writes=True) + build(ground(observations), writes=False)
    return [(c.action, c.objects[0].text) for c in offers if c.action in COMMAND_OFFERS]


@pytest.mark.parametrize("line", ["clear; vim notes.md", "echo step 4; ls", "cat notes.md", "cd src && pwd",
                                  "printf 'done\\n'", "python3 -m http.server 8000", "true", "less README.md"])
def test_a_command_that_ran_without_error_and_nobody_looked_up_gets_no_offer(line):
    assert command_offers(context(typed(line))) == []


@pytest.mark.parametrize("line, error", [
    ("cat notes.md", "cat: notes.md: No such file or directory"),
    ("cd build", "bash: cd: build: No such file or directory"),
    ("ls /nowhere", "ls: cannot access '/nowhere': No such file or directory"),
])
def test_a_known_by_heart_command_or_builtin_gets_no_command_offer_even_when_it_fails(line, error):
    """Its failure is the error's to help with, not the command's."""
    observations = context(typed(line), copied(error))
    assert command_offers(observations) == []
    assert any(c.action.endswith("error") for c in build(ground(observations), writes=True))


@pytest.mark.parametrize("line, error, failed", [
    ("cd app && make -j4", "make: *** [Makefile:12: all] Error 2", "make -j4"),  # the last one ran
    ("make -j4; python3 tools/build.py", "make: *** [Makefile:12: all] Error 2", "make -j4"),  # the error names it
])
def test_the_failed_command_of_a_compound_line_is_the_one_offered_about(line, error, failed):
    observations = context(typed(line), copied(error))
    offers = command_offers(observations)
    assert offers and {text for _, text in offers} == {failed}, offers
    assert not any(line in c.task for c in build(ground(observations), writes=True))


def test_a_command_unknown_here_is_offered_about():
    assert ("explain_command", "frobctl status --all") in command_offers(context(typed("frobctl status --all")))


@pytest.mark.parametrize("looked_up", [
    "The user searches on Google for 'tar extract tgz' in Firefox.",
    "The user types 'man tar' and presses Enter in the terminal.",
    "The user types 'tar --help' and presses Enter in the terminal.",
])
def test_a_command_looked_up_is_offered_about(looked_up):
    offers = command_offers(context(looked_up, typed("tar xzf backup.tgz")))
    assert any(text == "tar xzf backup.tgz" for _, text in offers), offers


@pytest.mark.parametrize("line", ["du -sh * | sort -h", "ls -lh", "df -h /", "free -h"])
def test_an_option_h_among_other_arguments_is_no_lookup(line):
    """`-h` is "human-readable" to sort, du, df, free: a command run with it, copied from a page and run without
    an error, wants nothing; `tar -h` alone would have asked for help."""
    copied_from_page = ("The user switches to Firefox and views the page 'Disk usage tips - Shell Notes'. The user "
                        f"copies '{line}' from Disk usage tips in Firefox.")
    assert command_offers(context(copied_from_page, typed(line))) == []
    assert ("explain_command", "tar -h") not in command_offers(context(typed("tar xzf backup.tgz")))
    assert any(text == "tar xzf backup.tgz" for _, text in command_offers(context(typed("tar -h"),
                                                                                  typed("tar xzf backup.tgz"))))


def test_a_compound_line_is_its_commands_each_as_typed():
    assert split_commands("clear; vim notes.md") == ["clear", "vim notes.md"]
    assert split_commands("cd x && make || echo 'a; b' | wc -l") == ["cd x", "make", "echo 'a; b'", "wc -l"]
    assert split_commands("make 2>&1 | tee log &") == ["make 2>&1", "tee log"]
    g = ground(context(typed("cd build && make")))
    assert {(o.text, o.detail) for o in g.of(COMMAND)} == {("cd build", "cd build && make"),
                                                            ("make", "cd build && make")}


@pytest.mark.parametrize("events", [
    # the line before started vim: what follows is vim's until it quits
    [typed("clear; vim notes.md") + " " + typed("ihello world:wq") + " " + typed("frobctl")],
    [typed("vim notes.md"), typed(":w"), typed(":wq"), typed("frobctl")],
    # the title says vim reads the terminal's lines
    ["The user switches to the terminal ('vim notes.md'). " + typed(":wq"), typed("frobctl")],
    ["The user switches to the terminal ('notes.md (~/src) - VIM'). " + typed(":x"), typed("frobctl")],
    # nano ends with its Ctrl+X
    [typed("nano todo.txt"), typed("buy milk"), "The user presses Ctrl+X in the terminal.", typed("frobctl")],
    # the watcher says vim's command line as what it does; the next terminal's title says nothing of vim
    ["The user switches to the terminal ('totals.py - vim'). " + typed(":2s/totl/total/")
     + " The user saves the file and quits (:wq) in the terminal.",
     "The user switches to the terminal ('shell'). " + typed("frobctl")],
    ["The user switches to the terminal ('vim notes.md'). The user quits without saving (:q!) in the terminal.",
     "The user switches to the terminal ('build'). " + typed("frobctl")],
])
def test_lines_typed_into_an_editor_in_the_terminal_are_no_commands(events):
    commands = [o.text for o in ground(context(*events)).of(COMMAND)]
    assert "frobctl" in commands  # after the editor quit, the shell's lines are commands again
    assert not {"wq", ":wq", "w", "x", "ihello world:wq", "buy milk"} & set(commands), commands
    assert all(text != "wq" for _, text in command_offers(context(*events)))


def test_a_title_of_the_shell_prompt_says_the_shell_reads_the_lines():
    read, editor = editor_lines(typed("vim notes.md"), None)
    assert editor == "vim" and not read
    read, editor = editor_lines(f"The user switches to the terminal ('me@box: ~/src'). {typed('frobctl')}", editor)
    assert editor is None and not read


def test_the_watcher_s_episode_of_vim_in_a_terminal_grounds_no_command():
    """The episode the watcher writes when the person saves and quits vim in an xterm titled by it."""
    builder, ts = EpisodeBuilder(), 1_700_000_000.0
    events = [RawEvent("window", WINDOW, {"app": "XTerm", "title": "vim notes.md", "process": "xterm"}, ts=ts),
              RawEvent("keyboard", TEXT, {"text": "ione more line", "enter": False}, ts=ts + 1),
              RawEvent("keyboard", TEXT, {"text": ":wq", "enter": True}, ts=ts + 2)]
    for raw_id, event in enumerate(events, 1):
        builder.add(raw_id, event)
    episode = builder.close(ts + 5)
    assert episode is not None and "':wq'" in episode.event or "ione more line:wq" in episode.event
    observations = [{"time": str(ts), "event": episode.event}]
    assert ground(observations).of(COMMAND) == []
    assert command_offers(observations) == []
