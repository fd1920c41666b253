"""Grounding: what the person is working on, read from the recent episodes, and what they are doing right now.

Every task the assistant offers is built from, or checked against, these objects, so it can only name things the
person actually met: a search query, an error message, a file or project, a page (title, site), the document
being written and its topic (prose typed into it), a command run in a terminal, the AI chat in use. The activity of the last event (searching,
reading, coding, debugging, writing, chatting with an AI, or noise) decides which actions fit.

Regular expressions over the sentences, not a model: the sentences come from our own templates
(`watcher/episodes/builder.py`) or from ProactiveBench's recordings (English, with Chinese quoted text, and Chinese
sentences), which follow a few stable patterns; this is deterministic, table-tested and well under a
millisecond per turn.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlsplit

from proactive.watcher.episodes.error_lines import ERROR_HINT, KEY_LINE, quoted_in

from .code_blocks import fence, fenced
from .command_lines import editor_lines, split_commands
from .dictation import written
from .error_names import SUMMARY_LINE, error_line, last_line
from .line_breaks import BULLET, refilled, reflowed, rewrapped, unbulleted, unwrapped
from .mail_text import unheadered
from .message_parts import PART_LINE, parts_joined, sms_bodies
from .quotes import (
    COMMAND_LINE,
    MESSAGE_START,
    OWN_CLOSING,
    PROGRAMS,
    RUN_CUE,
    TRACEBACK_HEAD,
    Said,
    in_command_line,
    known_programs,
    message_candidates,
    program_of,
    prompt_runs,
    quotes as quoted_pieces,
    restored,
    said_errors,
    unquoted_command,
    writers_line,
)
from .recordings import element_lines, new_side, oldest_first, played, side_by_side
from .records import PROMPT_FIRST, as_observation, read_record, spelled_out
from .runner_logs import (
    RECORDED,
    argv_line,
    build_footer,
    msbuild_relayed,
    r_console,
    recorded_streams,
    service_messages,
    uncolumned,
    unstamped,
)
from .sentence_patterns import (
    BLANK_TITLES,
    CHAT_NAMES,
    CODE_WORD,
    COPIED_ERROR,
    DOC_FILE,
    DOMAIN,
    ERROR_TEXT,
    FILE_NAME,
    KEY_NAME,
    LANGUAGE_NAMED,
    LOCAL_HOST,
    NAVIGATION_WORDS,
    NAVIGATIONAL,
    PAGE_CONTEXT,
    PHRASE_CJK,
    PHRASE_WORD,
    PROJECT_PATTERNS,
    READ_WORD,
    RECENT,
    SEARCH_TITLE,
    SEARCH_WORD,
    SITE_PATTERNS,
    TECH_PATTERNS,
    TERMINAL,
    TYPE_WORD,
    TYPED,
    TYPED_LINE,
    URL,
    WRITE_WORD,
)
from .subtitles import transcript
from .traces import untraced

ERROR, QUERY, FILE, PROJECT, PAGE, SITE, DOCUMENT, COMMAND, CHAT, TOPIC = (
    "error", "query", "file", "project", "page", "site", "document", "command", "chat", "topic")
SEARCHING, READING, CODING, DEBUGGING, WRITING, CHATTING, NOISE = (
    "searching", "reading", "coding", "debugging", "writing", "chatting", "noise")

@dataclass(frozen=True)
class Obj:
    """One thing the person met: its kind, its text as it appeared, and the index of the latest event naming it."""

    kind: str
    text: str
    index: int
    # an error's whole text as copied (the traceback, the build log), when the observation carries it (`copies`):
    # the episode sentence quotes only its first and last lines; the specific help reads all of it
    detail: str = field(default="", compare=False, repr=False)
    #: the index of the earliest event (of the grounding's window) naming it: a page opened after a search has a
    #: later first mention than the search, even when the results page is named again afterwards
    first: int = field(default=-1, compare=False, repr=False)


@dataclass
class Grounding:
    """Objects (latest mention first) and the current activity, for one moment of one context."""

    objects: list[Obj]
    activity: str
    n_events: int
    context_text: str = field(repr=False, default="")

    def of(self, kind: str, recent_only: bool = False) -> list[Obj]:
        return [o for o in self.objects if o.kind == kind and (not recent_only or self.is_recent(o))]

    def first(self, kind: str, recent_only: bool = False) -> Obj | None:
        found = self.of(kind, recent_only)
        return found[0] if found else None

    def is_recent(self, obj: Obj) -> bool:
        return obj.index >= self.n_events - RECENT

    def recent(self) -> list[Obj]:
        return [o for o in self.objects if self.is_recent(o)]

    def to_json(self) -> dict[str, Any]:
        return {"activity": self.activity,
                "objects": [{"kind": o.kind, "text": o.text, "index": o.index} for o in self.objects]}


#: a character written as an HTML entity (text scraped from a page or a web app: '&quot;', '&#39;', '&lt;')
ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-f]+|[a-z]+\d*);", re.I)
#: a line break or tab as syslog writes it inside one record ('…failed:#012  File "x.py", line 2')
SYSLOG_CONTROL = re.compile(r"(?<=\S)#01([12])")
#: a quoted field of a CSV record (a table of activity exported as CSV), its quote marks doubled inside
CSV_FIELD = re.compile(r'(?<=[,\t])"((?:[^"]|"")*)"(?=[,\t]|\s*$)', re.M)
#: (or of a tab-separated table: an accessibility tree's cells, a terminal's text in one)
#: a CI runner's annotation before a line of its log (GitHub's '##[error]', '::error file=x::'): a line's start
CI_MARK = re.compile(r"(?:^|(?<=\s))[ \t]*(?:##\[(?:error|warning|notice)\]|::(?:error|warning|notice)(?: [^:\n]*)?::)"
                     r"[ \t]*")
#: a CI runner's own lines in a job's raw log, no step's: its sections and folds ('##[section]Starting: Bash',
#: '##[endgroup]'), Azure's wrapper of the step's script ('[command]/usr/bin/bash --noprofile --norc …') and its
#: banner over the script's output
RUNNER_LINE = re.compile(r"^[ \t]*(?:##\[(?:section|endgroup|debug)\]|(?:##)?\[command\]/usr/bin/bash --noprofile |"
                         r"={5,} Starting Command Output ={5,})[^\n]*\n?", re.M)
#: where a runner names the command line a step runs ('##[group]Run make test', '##[command]git fetch'): read as a
#: prompt's line
RUNNER_RUN = re.compile(r"^[ \t]*(?:##\[group\]Run |##\[command\]|\[command\])(?=\S)", re.M)
#: Azure's step script under its 'Script contents:' line, to the rule over its output or the runner's next line
SCRIPT_CONTENTS = re.compile(r"^[ \t]*Script contents:[ \t]*\n(?P<body>(?:(?![ \t]*(?:={5,}|(?:##)?\[))[ \t]*\S[^\n]*(?:\n|$))+)",
                             re.M)


#: a system log's prefix before each line it records (a time, the host, the program and its process: 'May 10
#: 10:56:48 xps bash[12315]: ', '2025-05-22T11:58:10+0100 x1 tmux[27718]: ', RFC 5424's '<13>1 2025-05-20T09:40:55Z
#: vm qterminal 19128 - - '; a CI runner's raw log: '2024-11-16T11:50:52.7229786Z '; a Docker build's): each line's own, though the
#: programs differ from line to line
LOG_PREFIX = re.compile(r"^(?:(?:<\d+>\d* ?)?(?:[A-Z][a-z]{2} +\d{1,2} \d\d:\d\d:\d\d|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?"
                        r"(?:Z|[+-]\d\d:?\d\d)?) [\w.-]+ (?:[\w.@/-]+(?:\[\d+\])?: |[\w.@/-]+ (?:\d+|-) - (?:-|\[[^\]]*\]) )|"
                        # a container's log as the kubelet writes it ('…Z stderr F '), a CI runner's time
                        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z (?:stdout|stderr) [FP] |\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3,}Z |"
                        # a Docker build's step and time ('#12 0.345 ', and '0.484   ' under '> [4/4] RUN …')
                        r"#\d+ \d+\.\d{3} |\d+\.\d{3}(?: {1,3}|$)|"
                        # a log view's time and a tab ('2025-07-04 08:01:07.083\t')
                        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d+)?\t|"
                        # Jenkins's timestamper ('[2024-10-13T17:09:19.502Z] ')
                        r"\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?Z\] |"
                        # Packer's machine-readable fields ('1735916790,docker.base,ui,message,')
                        r"\d{10},[\w.-]*,ui,(?:message|error|say),)", re.M)
#: a markup's escape of its own marks, written into a message's text: Moodle's GIFT ("SyntaxError\: expected '\:'",
#: 'x \= 1'), Markdown's ('No module named my\_app', '\[ERROR\]'); two of them or more in a text, not a single
#: backslash a message may hold (a regex's, a path's)
MARKUP_ESCAPE = re.compile(r"\\([:=~#{}_*\[\]<>])")
#: macOS's unified log ('log show' in its default, syslog and compact styles): the time, the process, then its
#: subsystem and category before the line a program printed; the same copied from Console.app (the type, the time
#: and the process, a tab after each)
UNIFIED_LOG = re.compile(r"^(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+(?:[+-]\d{4})? +(?:0x[0-9a-f]+ +\w+ +0x[0-9a-f]+ +\d+ +"
                         r"\d+ +[\w.-]+:|[\w.-]+ [\w.-]+\[\d+\]:|[A-Z][a-z]? +[\w.-]+\[\d+:[0-9a-f]+\]) (?:\([\w.-]+\) )?"
                         r"(?:\[[\w.-]+:[\w.-]+\] )?|"
                         r"(?:default|info|debug|error|fault)\t\d\d:\d\d:\d\d\.\d+[+-]\d{4}\t[\w .-]+\t)", re.M)
#: a line `grep -n` or `rg -n` found in a file, or one around it: the file's name and the line's number before it
#: ('logs/ci.log:759:ModuleNotFoundError: …', 'logs/ci.log-757-  File "…"'), and the rule between groups ('--')
GREP_HIT = re.compile(r"^[\w./~-]*[\w~][:-]\d+[:-]", re.M)
#: where a line's file name may end: its line number between two of grep's separators
GREP_NUMBER = re.compile(r"(?P<sep>[:-])\d+(?P=sep)")


def _ungrepped(text: str) -> str:
    """`text` with the file names and line numbers grep puts before the lines it prints left out, when two lines
    or more name the same file (the lines are the log's, the names the search's), and its '--' rules. A file's
    name may hold numbers between dashes itself ('ci-2024-09-12.log-755-'): the name two lines share is it."""
    lines = text.split("\n")
    names = [{ln[:m.start()]: m.end() for m in GREP_NUMBER.finditer(ln, 0, hit.end())}
             if (hit := GREP_HIT.match(ln)) else {} for ln in lines]
    counts: dict[str, int] = {}
    for found in names:
        for name in found:
            counts[name] = counts.get(name, 0) + 1
    # a compiler names its source file and line the same way ('Guess.java:3: error: …'): only a log searched, or
    # grep's own lines around a hit ('file-757-'), which no compiler writes, say it is grep's
    shared = {n for n, c in counts.items() if c >= 2 and re.search(r"[A-Za-z][^/]*[./]|/", n)  # a file's name, no date's
              and (re.search(r"\.(?:log|out|err|txt)$|(?:^|/)logs?/", n)
                   or any(n in found and lines[i][len(n)] == "-" for i, found in enumerate(names)))}
    if not shared:
        return text
    out = []
    for line, found in zip(lines, names, strict=True):
        named = [n for n in found if n in shared]
        if named:
            out.append(line[found[max(named, key=len)]:])
        elif line.strip() != "--":
            out.append(line)
    return "\n".join(out)


#: a terminal's colour and cursor codes left in a copied log ('\x1b[31m', '^[[1;31m', or '[31m' with its escape
#: lost) and Jenkins's hidden console notes ('ha:////4rrf…=' in its '[8m … [0m')
ANSI = re.compile(r"(?:\x1b|\^\[)\[[0-9;?]*[A-Za-z]|\[\d{1,3}(?:;\d{1,3})*m(?!\])|\[0?K(?![\]\w])|ha:////[A-Za-z0-9+/=]+")
#: a CI runner's marks in a job's raw log: GitLab's folding sections ('section_start:1719583951:step_script'),
#: Buildkite's time before each line ('_bk;t=1723386977015'); the lines are the job's
RUNNER_MARK = re.compile(r"\r?section_(?:start|end):\d+:[\w.-]+(?:\[[^\]\n]*\])?\r?|\x1b?_bk;t=\d+\x07?")
#: a video's time before a line: a chapter's ('6:57 First run of `make`') or a viewer's comment's ('47:12 "bash: …'),
#: on two lines or more, or before a quote (a chat's '9:22 PM | Ana: ' and '01:13:32 <@ana:matrix.org> ' are a chat's
#: time: `CHAT_PREFIX`)
VIDEO_TIME = re.compile(r"^(?:(?:\d{1,2}:)?\d{1,2}:\d\d[ \t]+(?!(?:AM|PM|am|pm)\b|<[^>\n]{1,60}> )|"
                        # a recording's seconds before what a frame shows ('t=304.0s — ')
                        r"t ?= ?\d+(?:\.\d+)?s[ \t]+[—–-][ \t]+)(?=\S)", re.M)
#: a chat export's time and speaker before each message ('[2025-03-14 19:52:04] <@nina:matrix.org> ', '25/06/25,
#: 20:52 - Jonas Berg: ', '[26/11/2024, 19:40:27] Hannah Kim: ', '[16:54] <bitflip> ')
CHAT_PREFIX = re.compile(r"^\[?(?:\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4},? )?\d{1,2}:\d\d(?::\d\d)?\]?(?: -)? "
                         r"(?:<[^>\n]{1,60}> |[^:\n\d][^:\n]{0,40}: )", re.M)
#: a transcript's line naming who speaks next and when ('Keiko Hughes  51:57', 'Speaker 2  54:17'), over what they
#: said: no words of theirs
SPEAKER_LINE = re.compile(r"^[A-Z][\w'’.-]*(?: [A-Z0-9][\w'’.-]*){0,3}[ \t]{2,}(?:\d{1,2}:)?\d{1,2}:\d\d[ \t]*\n", re.M)
#: a label every line of a text starts with, a screen reader's or an alert's ('Narrator: ', 'SPEECH OUTPUT: '): a
#: capitalised name, not an error word ('ERROR: ' on each of pip's lines is its own)
LINE_LABEL = re.compile(r"^([A-Z][A-Za-z]*(?: [A-Za-z\d]+){0,2}: )")


def _unlabelled(text: str) -> str:
    """A text whose every line starts with the same label, without it (and a screen reader's quote marks around
    what it speaks)."""
    lines = [ln for ln in text.split("\n") if ln.strip()]
    label = LINE_LABEL.match(lines[0]) if len(lines) >= 2 else None
    if label is None or ERROR_TEXT.search(label[1]) or not all(ln.startswith(label[1]) for ln in lines):
        return text
    spoken = [ln[len(label[1]):] for ln in text.split("\n") if ln.strip()]
    if all(len(ln) >= 2 and ln[0] == ln[-1] == "'" for ln in spoken):
        spoken = [ln[1:-1] for ln in spoken]
    return "\n".join(spoken)


#: a source's name before each line of its output ('aws_instance.app (remote-exec): ', '[pod/web-7d/app] ', Packer's
#: indented '    qemu.debian: ', Vagrant's '    db: ', Compose's 'web-1  | ', Ant's '     [exec] ', Puppet's): a name
#: ending with a bracket (a colon after it or not), an indented name and a colon or in brackets, or a name and a
#: bar; a name at the line's start and a colon is the message's own ('nginx.service: Failed with result …')
SOURCE_PREFIX = re.compile(r"^(?:[^\s:][^:\n]{3,60}?[)\]]:?|[ \t]+[\w.-]{2,40}:|"
                           r"[\w.-]*[A-Za-z][\w.-]*[ \t]+\||[ \t]+\[[\w.-]{2,30}\]|"
                           # pm2's process number and name ('0|api      | ')
                           r"\d+\|[\w.:@/-]+[ \t]+\||"
                           # a container's name alone (`podman logs --names`: 'old-app Traceback …')
                           # (not a pod's before its container and clock: stern's, read by `uncolumned`)
                           r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?= )(?! [\w.-]+ \d{4}-\d\d-\d\d))(?: |$)|"
                           # Puppet's resource before what its command printed ('Notice: /Stage[main]/…/returns: ')
                           r"^Notice: /Stage\[[^\n]*?/returns: |"
                           # a build's step ('Step #2 - "install": ', Cloud Build's)
                           r"^Step #\d+(?: - \"[^\"\n]+\")?: ")


COMPOSE_SERVICE = re.compile(r"[\w.-]+-\d+[ \t]+\| ")
#: a container's name before each line, with nothing after it but a space: taken off on three lines or more
CONTAINER_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+ ")


def _unprefixed(text: str) -> str:
    """A text whose runs of lines start with the same source's name, without it: the output a
    tool relays from a program (Terraform's provisioner, a pod's log) as the program printed it."""
    lines = text.split("\n")
    prefixes = [m[0] if (m := SOURCE_PREFIX.match(ln)) and not ERROR_TEXT.search(m[0]) else None for ln in lines]
    out = list(lines)
    i = 0
    while i < len(lines):
        j = i
        while prefixes[i] and j + 1 < len(lines) and prefixes[j + 1] \
                and prefixes[j + 1].rstrip() == prefixes[i].rstrip():  # type: ignore[union-attr]
            j += 1
        # an indented name without a dot or a container's bare name on three lines, another on two, a Compose
        # service's ('web-1  | ') on one
        plain = bool(prefixes[i]) and (lines[i][:1] in " \t" and "." not in (prefixes[i] or "")
                                       or CONTAINER_NAME.fullmatch(prefixes[i] or "") is not None)
        if j - i >= (2 if plain else 0 if COMPOSE_SERVICE.match(lines[i]) else 1):
            out[i:j + 1] = [ln[len(prefixes[k] or ""):] for k, ln in enumerate(lines[i:j + 1], i)]
        i = j + 1
    return "\n".join(out)


#: the paragraph Vagrant prints under a provisioner's failed script: its words, not the script's message
VAGRANT_FOOTER = re.compile(r"The SSH command responded with a non-zero exit status\. Vagrant\s+assumes that this means "
                            r"the command failed\.(?:[^\n]*\n){0,4}?[^\n]*went wrong\.")
#: an alert's command and its output labelled on one line ('cmd: psql | out: psql: error: …', 'cmd: make / err: …',
#: a pager's '?' for a bar it cannot send)
INLINE_RUN = re.compile(r"(?<![\w-])(?i:cmd|command):[ \t]+(?P<line>[^|?·•\n]+?)[ \t]+(?:[|/?·•][ \t]+)?"
                        r"(?i:out|output|stderr|err):[ \t]+")
#: a notebook's cell run by a shell ('%%bash' over its lines): each line a command typed at a prompt
SHELL_CELL = re.compile(r"^[ \t]*%%(?:bash|sh|script (?:ba|z)?sh)\b[^\n]*\n(?P<body>(?:[ \t]*[^\s-][^\n]*(?:\n|$))+)", re.M)
#: a notebook's shell escape, in a cell or named in the writer's words ('!pip install x', 'cell 10: !npm ci'): a
#: command run, to its line's end (a bracket around it the writer's); not Vim's ':!make', its status line under
#: the output
SHELL_ESCAPE = re.compile(r"(?<![\w!\\:])!(?P<line>[a-z][\w.+-]*(?:[ \t][^\n]*)?)")
#: a shell's trace of a command it runs ('+ python3 manage.py migrate', `set -x`; '++ ' in a subshell)
XTRACE = re.compile(r"^\++ (?=\S)(?P<line>[^\n]*)", re.M)
#: a log's line labelling the command line run ('HISTORY: gti status', 'exec: git switch main', 'cmd: make', an
#: alert's '- command = make', an agent's 'Action Input: make'): read as the shell's prompt before it
RUN_LINE = re.compile(r"^[ \t]*(?:- )?(?:(?i:history|exec|cmd|cmdline|command|command ?line|action input)[ \t]*[:=]|"
                      # a runner's line before the command it runs ('Running command go run .', CodeBuild's)
                      r"(?i:running|executing) command:?|"
                      # a dev container's ('[72835 ms] Start: Run in container: /bin/sh -c make')
                      r"(?:\[[\w:.-]+(?: ms)?\] )*Start: Run(?: in container)?:(?:[ \t]+/bin/(?:ba)?sh -c)?)[ \t]+(?=[a-z./[])",
                      re.M)
#: a prompt's command written as a Python list of its arguments
ARGV_PROMPT = re.compile(r"^\$ (?P<argv>\[(?:'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\")"
                         r"(?:, (?:'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\"))*\])[ \t]*$", re.M)


#: pytest's mark before each line of a failure's explanation ('E       AssertionError: ', 'E         '), and the
#: assertion's own name before the output of a program the test ran ('assert r.returncode == 0, r.stderr'): the
#: program's message is what the lines say
PYTEST_LINE = re.compile(r"^E(?: {1,7}(?:AssertionError: +(?=\S))?|$)", re.M)
#: a block of lines quoted in a mail or a review, each behind a '> ' mark; one such line alone only as a paragraph
#: of its own or under a line that leads up to it ('CI is red:'), where a shell's '> ' goes on with a command line
QUOTED_BLOCK = re.compile(r"(?:^[ \t]*>(?:[ \t][^\n]*)?(?:\n|\Z)){2,}|(?:(?<=\n\n)|(?<=:\n)|\A)[ \t]*> [^\n]+(?:\n|\Z)",
                          re.M)


#: a terminal's shell-integration marks (OSC 133 and VS Code's 633: prompt, command, output, exit; iTerm2's 1337)
#: where a capture kept them as text: ']133;A\', '^[]133;C^G', ']633;E;make\'
SHELL_MARK = re.compile(r"(?:\x1b|\^\[)\][^\n\x07]*?(?:\x07|\^G|\x1b\\|\^\[\\)|"  # with its escape, any (a title too)
                        # without it: a letter, an exit code, a command line, a property
                        r"\](?:133|633|1337);(?:[ABC]|D(?:;-?\d+)?|[EP];[^\n\x07\]]*|[^\n\x07\\\]]*?(?=\\|\x07))"
                        r"(?:\x07|\^G|\\)?")
#: a word a search found, marked where the text is shown (Markdown's bold, HTML's <mark>): no words of the text
HIT_MARK = re.compile(r"\*\*(\w[\w .'’-]{0,58}?)\*\*|<mark>([^<\n]{1,60})</mark>")
#: an accessibility tree's text node on a line of its own (Mind2Web's and Playwright's '[StaticText] 'text'',
#: '[106] StaticText 'text''), as a JSON string too
STATIC_TEXT = re.compile(r"^[ \t]*\"?(?:\[\d+\][ \t]*)?\[?StaticText\]?[ \t]+'(?P<text>[^\n]*)'\"?,?[ \t]*$",
                         re.M)
#: strace's line for a program's write to its output or errors: 'write(2, "bash: gti: command not found\n", 29) = 29'
TRACED_WRITE = re.compile(r'^(?:\[pid +\d+\] |\d+ +)?write\([12], "(?P<text>(?:[^"\\\n]|\\.)*)"(?:\.\.\.)?, \d+\)'
                          r'[ \t]*= ?-?\d+[^\n]*$', re.M)
#: strace's line for any other call, or for a process's exit ('… newfstatat(AT_FDCWD, "/bin/gti", …) = -1 ENOENT …')
TRACED_CALL = re.compile(r"^(?:\[pid +\d+\] |\d+ +)?(?:[a-z_][a-z_0-9]*\(.*\)[ \t]*= [^\n]*|\+\+\+ [^\n]* \+\+\+)\n?",
                         re.M)
#: a coding agent's tool call that ran a command (Claude Code's '⏺ Bash(make)', Codex's '• Ran make'), its output under
#: it after '⎿' or '└' (Claude Code's 'Error: ' first when it failed), and its cut ('… +9 lines (ctrl+r to expand)')
AGENT_RUN = re.compile(r"^[ \t]*(?:⏺ (?:Bash|Shell|Run)\((?P<a>[^\n]*)\)|• Ran (?P<b>[^\n]+?))[ \t]*$", re.M)
AGENT_OUTPUT = re.compile(r"^[ \t]*(?:⎿|└)[ \t]+(?:Error: )?")
AGENT_CUT = re.compile(r"^[ \t]*… \+\d+ lines?(?: \([^)\n]*\))?[ \t]*$")
#: aider's chat history (`.aider.chat.history.md`): the lines the person typed or pasted, each behind '#### ' (three
#: lines or more: a Markdown heading is one), and a command it ran for the chat ('> /run make', '#### /test pytest')
AIDER_INPUT = re.compile(r"(?:^#### ?[^\n]*(?:\n|\Z)){3,}", re.M)
AIDER_RUN = re.compile(r"^(?:> |#### )?/(?:run|test) (?P<line>[^\n]+?)[ \t]*$", re.M)
#: a mail's subject on its first line, the body under it (a mail copied from its reader or sent to a help desk)
MAIL_SUBJECT = re.compile(r"\A\s*Subject: (?P<subject>[^\n]*)\n")
#: a command that lists the shell's history ('history | tail', 'atuin history list', 'atuin search …', 'fc -l')
HISTORY_LISTED = re.compile(r"^[ \t]*(?:\$ |[\w.-]+@[\w.-]+:\S*[$#] )?(?:[A-Z_]+=(?:'[^'\n]*'|\S+) )*(?:history\b|atuin (?:history|search)\b|fc -l)",
                            re.M)
#: an entry of such a listing: bash's number (and HISTTIMEFORMAT's time), atuin's 'time | exit | duration | folder |
#: command', zsh's extended history (': 1700000000:0;make'), fish's YAML ('- cmd: make')
HISTORY_ENTRY = re.compile(r"^(?:[ \t]*\d{1,6}\*?[ \t]+(?:\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d)?[ \t]+)?|"
                           r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d)? \| -?\d+ \| [^|\n]+ \| [^|\n]+ \| |: \d{9,}:\d+;|"
                           r"- cmd: )(?P<line>[a-z.~/][^\n|]*?)[ \t]*$", re.M)
#: a message pasted into a chat CLI between '"""' (`ollama run`'s '>>> ', then '... ' before each line after the
#: first, as Python's REPL does)
REPL_INPUT = re.compile(r"^>>> [^\n]*\"\"\"[^\n]*(?:\n\.\.\.(?: [^\n]*)?)+", re.M)
REPL_MARK = re.compile(r"^(?:>>>|\.\.\.) ?", re.M)
#: what a page or an editor's panel shows around a message, not of it: a line of buttons ('Reply  Share  Report'),
#: of tags ('[bash] [git]', 'Tags: [pip]'), a reaction's count ('👍 2'), an action and its key ('View Problem
#: (Alt+F8)'), a post's hashtags and its counts of replies and likes
CHROME = re.compile(r"[ \t]*[\U0001F300-\U0001FAFF\u2600-\u27BF]\ufe0f?[ \t]*\d+(?:[ \t]+(?:Reply|Share|Report))*[ \t]*$|"
                    # a comment's author and age ('@sam · 3 days ago')
                    r"^[ \t]*@[\w.-]+ · \d+ \w+ ago[ \t]*$|(?:[ \t]+#[A-Za-z][\w-]*)+[ \t]*$|"
                    r"^.*\b\d+ (?:replies|reposts|likes|boosts|favourites|comments)\b.*$|"
                    r"^[ \t]*(?:(?:Reply|Share|Report|Edit|Follow|Flag|Copy|Cite|Like|Quote|Upvote|Downvote|"
                    r"Permalink|Add a comment)[ \t]*){2,}$|^[ \t]*(?:Tags:[ \t]*)?(?:\[[\w.+#-]+\][ \t]*){1,8}$|"
                    r"[ \t]+[A-Z][\w ]{2,30}\((?:Alt|Ctrl|Cmd|Shift|Meta)\+[^)\n]{1,12}\)[ \t]*$|"
                    # Vim's prompt after a shell command's output
                    r"^[ \t]*Press ENTER or type command to continue[ \t]*$|"
                    # a bug tracker's reply line ('(In reply to Ana from comment #3)') and attachment (its line under it)
                    r"^[ \t]*\(In reply to [^\n]*\)[ \t]*$|^[ \t]*Created attachment \d+[^\n]*(?:\n[^\n]*)?$|"
                    # a wiki talk page's signature ('[[User:Ana|Ana]] ([[User talk:Ana|talk]]) 10:40, 14 April 2025 (UTC)')
                    r"[ \t]*(?:\[\[User:[^\]\n]*\]\]|\w+) \((?:\[\[User talk:[^\]\n]*\]\]|talk)\)[ \t]*\d\d:\d\d, \d{1,2} \w+ "
                    r"\d{4} \(UTC\)[ \t]*$|"
                    # tmux's status line ('[work] 0:zsh* 1:psql-   "devbox" 10:09 14-Nov-24')
                    r"^\[[\w.-]+\] (?:\d+:[\w.-]+[*#!~Z-]? *)+.*\"[^\"\n]+\" \d\d:\d\d \d\d-\w{3}-\d\d[ \t]*$", re.M)


#: a bug report's field that says no message (what was expected, the version, how often), with its value under it
#: to the next blank line: 'Expected results:\nNo error' is the reporter's, not the program's
REPORT_FIELD = re.compile(r"^[ \t]*(?:\*\*)?(?:Expected(?: (?:results?|behaviou?r|outcome|output))?|Version-Release number "
                          r"of selected component(?: \(if applicable\))?|How reproducible)(?:\*\*)?"
                          r"[ \t]*:[^\n]*(?:\n[ \t]*(?=\n))?(?:\n(?![ \t]*\n)(?![ \t]*(?:\*\*)?Actual\b)[^\n]*)*", re.M | re.I)
#: a traceback flattened onto one line (a forum's paragraph, a chat message) with no separator between its lines
#: (those joined with ' / ' or ' | ' are read where the message is): its lines come back (`restored`)
FLAT_TRACEBACK = re.compile(r"Traceback \(most recent call last\):[ \t]+(?![^\n]*[ \t][/|—…][ \t])(?P<rest>[A-Za-z][^\n]*)")
#: a row of a table padded into columns: a cell, four or more spaces, the next cell ('gti status      bash: gti: …')
PADDED_ROW = re.compile(r"^(?P<cell>\S[^\n]*?\S) {4,}(?P<rest>\S[^\n]*)$", re.M)


def _run_rows(text: str) -> str:
    """A table's rows whose first cell is a command line and whose next cell says an error (a report's 'Command
    Message' columns) as the command run at a prompt and what it printed, the next cell's lines wrapped under it
    joined back."""
    known = known_programs(text)
    lines = text.split("\n")
    rows = [PADDED_ROW.match(ln) for ln in lines]
    out: list[str] = []
    i = 0
    while i < len(lines):
        row = rows[i]
        # a table's: another row (its header) has its next cell at the same column
        aligned = row is not None and any(r is not None and r is not row and abs(r.start("rest") - row.start("rest")) <= 1
                                          for r in rows)
        if not (row and aligned and program_of(row["cell"]) in known and COMMAND_LINE.match(row["cell"])
                and (ERROR_HINT.search(row["rest"]) or KEY_LINE.search(row["rest"]))):
            out.append(lines[i])
            i += 1
            continue
        message, column = row["rest"], row.start("rest")
        while i + 1 < len(lines) and lines[i + 1].strip() and column - 2 <= len(lines[i + 1]) \
                - len(lines[i + 1].lstrip(" ")) <= column + 1:
            i += 1  # a cell's text wrapped at its width goes on mid-sentence; a line of its own starts a line
            message += (" " if re.match(r"[a-z`'\"‘“]", lines[i].strip()) else "\n") + lines[i].strip()
        out += [f"$ {row['cell']}", message]
        i += 1
    return "\n".join(out)


#: three lines or more behind one comment's or list's mark: a code comment quoting a message ('#   Traceback …',
#: '//   error[E0308]: …'),
#: Vim's quickfix lines of no file ('|| error: …')
MARKED_BLOCK = re.compile(r"^(?P<mark>[ \t]*(?:#|//|\|\|))(?: [^\n]*)?(?:\n(?P=mark)(?: [^\n]*)?){2,}$", re.M)


def _unmarked(block: re.Match[str]) -> str:
    """A marked block as a fenced one, its marks off (unless its lines are a root shell's prompts: '# apt …')."""
    lines = [ln[len(block["mark"]):] for ln in block.group().split("\n")]
    if sum(bool(re.match(r" (?:sudo |)[a-z][\w.+-]* ", ln)) and ln.split()[0] in PROGRAMS for ln in lines) > 1:
        return block.group()
    return fence("\n".join(lines))


def _agent_runs(text: str) -> str:
    """A coding agent's transcript as a terminal shows it: each command it ran after a prompt, its output under it
    at the margin (without the agent's marks, indentation and cuts) and the prompt back after it, the agent's own
    lines (bulleted '⏺ '/'• ') as the writer's."""
    out: list[str] = []
    indent: int | None = None  # the output block's indentation, while in one
    for line in text.split("\n"):
        run = AGENT_RUN.match(line)
        mark = AGENT_OUTPUT.match(line)
        if run:
            out.append("$ " + (run["a"] if run["a"] is not None else run["b"]).strip())
            indent = None
        elif mark:
            out.append(line[mark.end():])
            indent = len(re.match(r"[ \t]*\S[ \t]+", line)[0])  # type: ignore[index]  # where its text starts
        elif AGENT_CUT.match(line):
            continue
        elif indent is not None and (not line.strip() or len(line) - len(line.lstrip()) >= indent):
            out.append(line[min(indent, len(line) - len(line.lstrip())):])
        else:
            if indent is not None:  # the output ends: the shell's prompt again (the agent's words are no output)
                out.append("$")
            indent = None
            out.append(re.sub(r"^(?:⏺|•) ", "", line))
    return "\n".join(out)


def _backspaced(text: str) -> str:
    """`text` with each backspace taking back the character before it on its line, as a terminal shows it."""
    out: list[str] = []
    for ch in text:
        if ch != "\b":
            out.append(ch)
        elif out and out[-1] != "\n":
            out.pop()
    return "".join(out)


def _c_unescaped(text: str) -> str:
    """A C string literal's text as strace prints it ('\\n', '\\t', '\\"', '\\\\', octal '\\342')."""
    try:
        return text.encode("latin-1", "backslashreplace").decode("unicode_escape").encode("latin-1").decode(
            "utf-8", "replace")
    except UnicodeError:  # a malformed escape: the text as printed
        return text


def _fenced(block: re.Match[str]) -> str:
    """A quoted block as the fenced block a page shows: its lines without their marks, set off from the words
    after it."""
    lines = [re.sub(r"^[ \t]*> ?", "", ln) for ln in block.group().rstrip("\n").split("\n")]
    if any(ln.lstrip().startswith("```") for ln in lines):  # fenced already inside (a README's admonition)
        return "\n".join(lines) + "\n"
    # the quoted writer's own line before the message ('I get this when running make:') and after it ('Same as
    # last week.'), each a paragraph of one line, stay words
    paragraphs = [p.strip("\n") for p in "\n".join(lines).strip("\n").split("\n\n") if p.strip()]
    if all(writers_line(ln) for p in paragraphs for ln in p.split("\n") if ln.strip()):
        return "\n\n".join(paragraphs) + "\n"  # only the person's words quoted ('> Can you attach the output?')
    lead = paragraphs[0] if len(paragraphs) > 1 and _said_by_writer(paragraphs[0]) \
        and paragraphs[0].rstrip().endswith(":") else ""
    tail = paragraphs[-1] if len(paragraphs) > 1 + bool(lead) and _said_by_writer(paragraphs[-1]) else ""
    middle = paragraphs[bool(lead):len(paragraphs) - bool(tail)]
    return (f"{lead}\n\n" if lead else "") + "```\n" + "\n\n".join(middle) + "\n```\n" + (f"\n{tail}\n" if tail else "")


def _said_by_writer(paragraph: str) -> bool:
    """A paragraph of one line in the writer's own words (`writers_line`)."""
    return "\n" not in paragraph.strip() and writers_line(paragraph)


def _event(o: Any) -> str:
    """An event's sentence as read: an asciinema recording and a diff of two logs as the screen and the newer log
    (`recordings`), a screencast's subtitles as their transcript (`subtitles.transcript`), a
    dictation's spoken marks written (`dictation.written`), a mail's headers left out (`mail_text.unheadered`), LaTeX's, Org's and Jira's code blocks as Markdown
    fences (`code_blocks.fenced`), HTML entities and
    syslog's escaped line breaks as the characters they stand for, a system log's prefix off each line its label of a command run as a prompt, a mail's quoted block as a fenced one, a page's buttons, tags and reactions left out, a CSV field's doubled quote marks as one, and a CI runner's annotation as the line's start it marks, so
    a message copied through a web page, a table or a log reads as the program printed it."""
    return _as_read(str(o.get("event", "")) if isinstance(o, dict) else str(o))


#: a command named after the verb that ran it, its program written with a capital letter ('ran Cargo build',
#: 'Ran NPM install'): a phone's keyboard capitalizes a sentence's words; or an option's '--' as one dash
#: ('tsc —init'), which a phone's smart punctuation makes of two hyphens
PHONE_RUN = re.compile(r"(?P<verb>\b(?:[Rr]an|[Rr]un|[Rr]unning|[Tt]yped|[Ee]xecuted|I do)[ \t]+[`'\"“‘]?)"
                       r"(?P<program>[A-Z][A-Za-z0-9+._-]*)(?=[ \t])|(?<=[ \t])—(?=[a-z][\w-]*)")


def _unphoned(m: re.Match[str]) -> str:
    """A phone's capital letter off a known program's name (and its '—' as '--'); other words as written."""
    if m["program"] is None:
        return "--"
    program = m["program"]
    return m["verb"] + (program.lower() if program not in PROGRAMS and program.lower() in PROGRAMS else program)


@functools.lru_cache(maxsize=4096)
def _as_read(raw: str) -> str:
    """`_event`'s reading of one sentence, remembered: every decision grounds its whole context again, and the
    sentences of a session are read once, not at each of its turns."""
    if "\ufeff" in raw:  # a byte-order mark a log's first line was saved with: no character anyone sees
        raw = raw.replace("\ufeff", "")
    if "[" in raw and ANSI.search(raw):
        raw = ANSI.sub("", raw)
    if ("section_" in raw or "_bk;" in raw) and RUNNER_MARK.search(raw):
        raw = RUNNER_MARK.sub(lambda m: "\n" if m[0].lstrip("\r").startswith("section_") else "", raw)
    if "##teamcity[" in raw:
        raw = service_messages(raw)
    if "MSB" in raw or "EXEC" in raw or "uild started" in raw:
        raw = msbuild_relayed(raw)
    if "[Finished in " in raw:
        raw = build_footer(raw)
    if "> " in raw and ("system" in raw or "processx" in raw):
        raw = r_console(raw)
    if "\r" in raw:  # a terminal's raw line ends ('\r\n') and a carriage return before a line (`script`'s)
        raw = re.sub(r"(?m)^\r+", "", raw.replace("\r\n", "\n"))
    if "^M" in raw:  # a carriage return shown in caret notation at a line's end (Emacs' shell, `cat -v`)
        raw = re.sub(r"\^M(?=\n|$)", "", raw)
    if RECORDED.search(raw):  # a keystroke logger's typed and printed lines
        raw = recorded_streams(raw)
    if "\b" in raw:  # a backspace: the letter before it taken back (a man page's bold and underline, each letter
        # struck over itself or '_'; a terminal's line typed over, 'ssh …\b\b\b…ssh …' once)
        raw = _backspaced(raw)
    if raw.count("^H") >= 3:  # (written in caret notation)
        raw = re.sub(r"[^\n]\^H(?=\S)", "", raw)
    if "<sms " in raw:
        raw = sms_bodies(raw)
    if "/" in raw and len(PART_LINE.findall(raw)) >= 2:
        raw = parts_joined(raw)
    if "</" in raw and ">" in raw:  # an XML event log's elements, one line each
        raw = element_lines(raw)
    if "│" in raw:  # panes side by side: one after the other
        raw = side_by_side(raw)
    text = fenced(unheadered(written(transcript(oldest_first(new_side(played(spelled_out(untraced(raw)))))))))
    if "]" in text and SHELL_MARK.search(text):  # a terminal's shell-integration marks kept as text
        text = SHELL_MARK.sub("", text)
        text = text.replace("^M", "") if "^[" in raw else text  # (`cat -v`: a carriage return anywhere)
    if "**" in text or "<mark>" in text:  # a search's hits marked in the text it found ('not **found** in …')
        text = HIT_MARK.sub(lambda m: m[1] if m[1] is not None else m[2], text)
    if "StaticText" in text:  # an accessibility tree's text nodes, one a line: their text
        text = STATIC_TEXT.sub(lambda m: m["text"], text)
    if "write(" in text and TRACED_WRITE.search(text):  # strace's record of what a program wrote: the text, and
        # none of its other calls (a lookup's ENOENT is the program's own business, no message it printed)
        text = TRACED_CALL.sub("", TRACED_WRITE.sub(lambda m: _c_unescaped(m["text"]).rstrip("\n"), text))
    if ("⎿" in text or "└" in text) and AGENT_RUN.search(text):  # a coding agent's transcript: its runs and output
        text = _agent_runs(text)
    if "#### " in text and AIDER_INPUT.search(text):  # aider's chat history: the person's lines behind '#### '
        text = AIDER_INPUT.sub(lambda m: re.sub(r"^#### ?|[ \t]+$", "", m[0], flags=re.M), text)
    if "/run " in text or "/test " in text:  # aider's command run for the chat
        text = AIDER_RUN.sub(lambda m: "$ " + m["line"], text)
    if mail := MAIL_SUBJECT.match(text):  # a mail as its writer sent it: its body's wrapped lines joined back, its
        # subject left out when the body says an error (the subject's words are the writer's: 'Help - error')
        body = refilled(text[mail.end():])
        text = body if ERROR_HINT.search(body) or KEY_LINE.search(body) else f"Subject: {mail['subject']}\n{body}"
    if ("history" in text or "atuin" in text or "fc -l" in text) and HISTORY_LISTED.search(text):  # a shell's history listed: each entry a command run
        text = HISTORY_ENTRY.sub(lambda m: "$ " + m["line"], text)
    if ">>> " in text and REPL_INPUT.search(text):  # text pasted into a REPL or a chat CLI: the lines typed
        text = REPL_INPUT.sub(lambda m: REPL_MARK.sub("", m[0]).replace('"""', ""), text)
    if PHONE_RUN.search(text):  # typed on a phone: the program's capital letter and '--' made a dash are the phone's
        text = PHONE_RUN.sub(_unphoned, text)
    if "\n" in text:
        text = rewrapped(unwrapped(text))
        text = reflowed(text) if "“" in text else text
        text = _run_rows(text) if "    " in text and PADDED_ROW.search(text) else text
    if ":" in text and REPORT_FIELD.search(text):
        text = REPORT_FIELD.sub("", text)
    if "Traceback (" in text:
        text = FLAT_TRACEBACK.sub(lambda m: "Traceback (most recent call last):\n" + restored(m["rest"]), text)
    if "&" in text and ENTITY.search(text):
        text = html.unescape(text)
    if '""' in text:
        text = CSV_FIELD.sub(lambda m: '"' + m[1].replace('""', '"') + '"', text)
    if "%!(PACKER_COMMA)" in text:
        text = text.replace("%!(PACKER_COMMA)", ",")
    if "\\" in text and len(MARKUP_ESCAPE.findall(text)) >= 2:
        text = MARKUP_ESCAPE.sub(r"\1", text)
    if UNIFIED_LOG.search(text):
        text = UNIFIED_LOG.sub("", text)
    if ": " in text or ")" in text or "]" in text:
        text = _unprefixed(text)
    if GREP_HIT.search(text):
        text = _ungrepped(text)
    if LOG_PREFIX.search(text):  # each record a line of its own, the first too (a message starts there)
        text = _unprefixed(LOG_PREFIX.sub("", text if text.startswith("\n") else "\n" + text))
    if ":" in text and ((times := len(VIDEO_TIME.findall(text))) >= 2
                        or (times == 1 and re.search(r"^(?:\d{1,2}:)?\d{1,2}:\d\d[ \t]+[\"“'«]", text, re.M))):
        text = VIDEO_TIME.sub("", text)
    if CHAT_PREFIX.search(text):
        text = CHAT_PREFIX.sub("", text)
    if "(edited)" in text:  # a chat's mark on a message changed after it was sent
        text = re.sub(r"[ \t]*\(edited\)[ \t]*$", "", text, flags=re.M)
    for _ in range(2):  # a service's clock before each line, then a source's name ('app[web.1]: '); twice, for
        # a log relayed by another (CloudWatch's time and stream, then CodeBuild's '[Container] ' and time)
        if ":" not in text or "\n" not in text or (stamped := unstamped(text)) == text:
            break
        text = _unprefixed(stamped)
    if len(SPEAKER_LINE.findall(text)) >= 2:
        text = SPEAKER_LINE.sub("", text)
    if "\n" in text and LINE_LABEL.match(text):
        text = _unlabelled(text)
    if "Vagrant" in text:
        text = VAGRANT_FOOTER.sub("", text)
    if RUN_LINE.search(text):
        text = RUN_LINE.sub("$ ", text)
        if "$ [" in text:  # a command given as its argv ("Running command: ['/usr/bin/bash', '-c', 'make']")
            text = ARGV_PROMPT.sub(lambda m: "$ " + argv_line(m["argv"]), text)
    if ("ut: " in text or "rr: " in text) and INLINE_RUN.search(text):  # an alert's 'cmd: make | out: …' on one line
        text = INLINE_RUN.sub(lambda m: f"\n$ {m['line']}\n", text)
    if "%%" in text and SHELL_CELL.search(text):  # a notebook's shell cell: its lines are commands run
        text = SHELL_CELL.sub(lambda m: re.sub(r"^[ \t]*(?=[^\s#])", "$ ", m["body"], flags=re.M), text)
    if "!" in text and (escapes := list(SHELL_ESCAPE.finditer(text))):  # a cell's '!pip install x'
        for m in reversed([m for m in escapes if program_of(m["line"]) in PROGRAMS]):
            line = m["line"].strip()
            while line[-1:] in ")]" and line.count(line[-1]) > line.count("(" if line[-1] == ")" else "["):
                line = line[:-1].rstrip()  # the writer's bracket around it ('(cell 10: !npm ci)')
            text = f"{text[:m.start()]}\n$ {line}\n{text[m.start() + 1 + len(line):]}"
    if "+ " in text and XTRACE.search(text):  # a traced line whose program is one a shell runs: a command run
        known = known_programs(text)
        text = XTRACE.sub(lambda m: "$ " + m["line"] if program_of(m["line"]) in known
                          else m[0], text)
    if CHROME.search(text):
        text = CHROME.sub("", text)
    if ">" in text and QUOTED_BLOCK.search(text):
        text = QUOTED_BLOCK.sub(_fenced, text)
    if BULLET.search(text) and text.count("\n") >= 2:
        text = unbulleted(text)
    if ("#" in text or "//" in text or "||" in text) and MARKED_BLOCK.search(text):
        text = MARKED_BLOCK.sub(_unmarked, text)
    if len(PYTEST_LINE.findall(text)) >= 2:
        text = PYTEST_LINE.sub("", text)
    if "Script contents:" in text:  # Azure's step: each line of its script a command run, the last one failed
        text = SCRIPT_CONTENTS.sub(lambda m: re.sub(r"^[ \t]*(?=\S)", "$ ", m["body"], flags=re.M), text)
    if "[command]" in text or "##[" in text or "Starting Command Output" in text:
        text = RUNNER_RUN.sub("$ ", RUNNER_LINE.sub("", text))
    if "##[" in text or "::" in text:
        text = CI_MARK.sub("\n", text)
    if text[:1] != "\n" and (MESSAGE_START.match(text) or re.match(r"(?:Error|error|fatal|FATAL|E): \S", text)):
        text = "\n" + text  # a message from the text's first character starts a line, as every other line does
    return SYSLOG_CONTROL.sub(lambda m: "\n" if m[1] == "2" else "\t", text) if "#01" in text else text


def _quotes(sentence: str) -> list[tuple[int, str]]:
    """Quoted fragments with their start offsets (several quoting styles: ProactiveBench mixes them). Our own
    sentence for a copied error ("copies an error message starting '…' and ending '…' from …") is read whole:
    an error's message often quotes a name itself ("No module named 'numpyy'"), which ends a plain quote early."""
    out = []
    spans: list[tuple[int, int]] = []
    for own in COPIED_ERROR.finditer(sentence):
        spans.append(own.span())
        out += [(own.start(g), own.group(g).strip()) for g in ("start", "end") if own.group(g)]
    for own in TYPED_LINE.finditer(sentence):
        if "'" in own["typed"] and not any(a <= own.start() < b for a, b in spans):  # plain ones read as before
            spans.append(own.span())
            out.append((own.start("typed") - 1, own["typed"].strip()))  # at its opening quote, like the others
    for q in quoted_pieces(sentence):  # any quote marks, nested quotes read whole (`quotes.quotes`)
        if not any(a <= q.start < b for a, b in spans):
            out.append((q.start, q.text))
    return sorted(out)


def _clean(text: str) -> str:
    """A name without the sentence's punctuation around it; a leading dot is the name's own ('./deploy.sh',
    '.env', '../lib/x.js')."""
    return " ".join(text.split()).strip(" ,;:").rstrip(".").rstrip(" ,;:")


def is_phrase(text: str) -> bool:
    """Typed text that is prose the person is writing (a topic), not keystrokes, code or pinyin."""
    if PHRASE_CJK.search(text):
        return True
    words = re.findall(r"[A-Za-z]+", text)
    return (len(words) >= 3 and bool(PHRASE_WORD.search(text))
            and not re.search(r"[(){}\[\]=<>;_$]|\b(?:def|import|return|function|class|var|let|const)\b", text))


def is_url(text: str) -> bool:
    """The text is a web address (and nothing else)."""
    text = text.strip()
    m = URL.match(text)
    return bool(m and m.end() == len(text)) or bool(DOMAIN.match(text))


def url_host(text: str) -> str | None:
    """The site of a web address ('blog.csdn.net'), without 'www.'; None for the person's own machine or network
    (localhost, 127.0.0.1:5500, 192.168.x.y), which names no site."""
    text = text.strip()
    host = urlsplit(text if "://" in text else "http://" + text).hostname or ""
    host = host.removeprefix("www.")
    return host if host and not LOCAL_HOST.match(host) else None


def without_urls(sentence: str) -> str:
    """The sentence with its web addresses blanked (same length), so no file name is read from a URL's path."""
    return URL.sub(lambda m: " " * len(m.group(0)), sentence)


def technologies(text: str) -> list[tuple[str, ...]]:
    """The programming languages the text names, each as the extensions written in it (an unknown 'xx 语言' fits
    none)."""
    found = [exts for pattern, exts in TECH_PATTERNS if pattern.search(text)]
    for m in LANGUAGE_NAMED.finditer(text):
        if not any(p.match(text, m.start(1)) for p, _ in TECH_PATTERNS):
            found.append(())
    return found


def fits_file(text: str, file_name: str) -> bool:
    """Whether help about `text` can go into `file_name`: true unless the text names programming languages and
    the file is written in none of them ('go 语言' and tools.py do not fit; 'python regex' and tools.py do)."""
    named = technologies(text)
    if not named:
        return True
    ext = file_name.rsplit(".", 1)[-1].lower() if "." in file_name else ""
    return any(ext in exts for exts in named)


def is_navigational(query: str) -> bool:
    """A search that is a way to go to a site (its name or address: 'github', 'gmail login', 'baidu.com', 'google
    translate'), not a topic whose results are worth summarising."""
    q = " ".join(query.lower().replace("’", "'").split()).strip(" .,;:!?'\"")
    if not q:
        return False
    if is_url(q):
        return True
    while True:
        shorter = NAVIGATION_WORDS.sub("", q).strip()
        if shorter == q or not shorter:
            break
        q = shorter
    return q in NAVIGATIONAL or q.replace(" ", "") in NAVIGATIONAL


@dataclass
class Reading:
    """One event sentence as the extraction rules read it, and what they have found in it so far."""

    sentence: str
    index: int
    quotes: list[tuple[int, str]]  # (start, text) of each quoted piece
    typed: set[str]  # the quoted pieces the sentence says were typed
    terminal: bool
    searching: bool
    #: the typed lines (by their opening quote) that an editor running in the terminal read, not the shell
    edited: set[int] = field(default_factory=set)
    found: list[Obj] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    #: the error messages the sentence quotes or states, worded as anyone words them (`quotes.said_errors`)
    said: list[Said] = field(default_factory=list)

    def said_piece(self, start: int) -> Said | None:
        """The error message the quote at `start` is a line of, in any wording but our own (which the rules below
        read as before)."""
        return next((s for s in self.said if not s.own and start in s.starts), None)

    def add(self, kind: str, text: str, detail: str = "") -> None:
        text = _clean(text)
        if len(text) >= 2 and all((o.kind, o.text.lower()) != (kind, text.lower()) for o in self.found):
            self.found.append(Obj(kind, text, self.index, detail))

    def has(self, kind: str) -> bool:
        return any(o.kind == kind for o in self.found)


@dataclass(frozen=True)
class Quote:
    """A quoted piece of a sentence with what surrounds it."""

    start: int
    text: str
    before: str  # the 60 characters before it, lower case
    after: str  # the rest of the sentence from the quote on


SKIP = ("", "")  # a quote rule's answer: this quote names nothing
#: a quote rule: (kind, text) to add, SKIP, or None when the next rule decides
QuoteRule = Callable[[Reading, Quote], "tuple[str, str] | None"]


def _url(r: Reading, q: Quote) -> tuple[str, str] | None:
    if is_url(q.text):
        r.urls.append(q.text)  # never a page name, query or error: its title or site stands for it (`_addresses`)
        return SKIP
    return None


def _not_a_name(r: Reading, q: Quote) -> tuple[str, str] | None:
    """A key ('Enter', 'cmd+v'), a site name or a blank tab title: not something read or searched."""
    site = any((m := p.search(q.text)) is not None and m.group(0) == q.text for p in SITE_PATTERNS)
    return SKIP if KEY_NAME.match(q.text) or site or q.text.lower() in BLANK_TITLES else None


def _terminal_title(r: Reading, q: Quote) -> tuple[str, str] | None:
    """A terminal's own title ("switches to the terminal ('search.js - vim')"): the program in it and its file,
    neither a page nor a query (a file it names is read with the unquoted ones, `_files`)."""
    return SKIP if TERMINAL_TITLE.search(q.before) else None


def _named_below(r: Reading, q: Quote) -> tuple[str, str] | None:
    """A project, file or folder named again below (`_files`, `_projects`), or a bare path."""
    return SKIP if re.search(r"(?:project|file|located at|folder|directory)\s*:?\s*$", q.before) else None


def _error_piece(r: Reading, q: Quote) -> tuple[str, str] | None:
    """A line of an error message quoted in any wording: the error when it names one, else nothing of its own (a
    traceback's frame or code line is no page or query)."""
    said = r.said_piece(q.start)
    if said is None:
        return None
    # named by the message's line that names the error, as its lines read (a log's "\n" and "\"" written out)
    return (ERROR, error_line(said.text) or q.text.rstrip("…")) if ERROR_TEXT.search(q.text) else SKIP


#: "run" as a program's advice says it (imperative: after a comma, "or", "please" or at a line's start), not as a
#: person tells what they ran ("I run", "when I run", "running")
ADVICE = re.compile(r"(?:^|[,;:]\s*|\bor\s+|\bplease\s+|\btry\s+|\n\s*)run\s*$", re.I)


def _run(r: Reading, q: Quote) -> tuple[str, str] | None:
    """A command line the sentence says was run ("runs 'go run .'", "after executing `make`"), as a line typed
    and entered in a terminal is."""
    # a message's own advice ("… or run 'go help get'", "To fix it, run 'npm install'"): no command the person ran
    advice = ADVICE.search(q.before) and any(s.unquoted and s.unquoted[0] < q.start < s.unquoted[1] for s in r.said)
    # one word, no known program's and no path ('Executing "step_script" stage'): a name, no command line
    named = not q.text.strip().count(" ") and not q.text.startswith((".", "/", "~")) \
        and program_of(q.text) not in known_programs(r.sentence)
    if RUN_CUE.search(q.before) and COMMAND_LINE.match(q.text) and r.said_piece(q.start) is None and not advice \
            and not named:
        _commands(r, q.text)
        return SKIP
    return None


def _traceback_header(r: Reading, q: Quote) -> tuple[str, str] | None:
    """A traceback's header: its last line, quoted next, names the error."""
    header = re.search(r"error message starting '?$", q.before) and q.text.startswith("Traceback")
    return SKIP if header and "and ending '" in q.after else None


def _error(r: Reading, q: Quote) -> tuple[str, str] | None:
    if in_command_line(r.sentence, q.start):
        return None  # an argument of a command line typed at a prompt (grep's pattern 'error|failed')
    if "error message" in q.before or (ERROR_TEXT.search(q.text) and "search" not in q.before
                                       and q.text not in r.typed):
        return ERROR, q.text.rstrip("…")
    return None


def _search_title(r: Reading, q: Quote) -> tuple[str, str] | None:
    m = SEARCH_TITLE.match(q.text)
    return (QUERY, m.group(1)) if m else None


def _quoted_file(r: Reading, q: Quote) -> tuple[str, str] | None:
    return SKIP if FILE_NAME.fullmatch(q.text.strip()) else None  # taken by `_files` with the unquoted ones


#: words after a typed line saying it was entered: a sentence's "presses Enter", a log's "key=Enter", "+ Enter"
ENTERED = re.compile(r"presses Enter|and Enter|\bkey\s*[:=]\s*[\"']?(?:Enter|Return)\b|\+\s*Enter\b|回车", re.I)


def _typed(r: Reading, q: Quote) -> tuple[str, str] | None:
    """Typed text is raw keystrokes (often pinyin), not a name the person chose to read: the commands of a line
    run in a terminal (each simple command of a compound line on its own, with the whole line as its detail), a
    line typed into an editor running there (nothing: `:wq` is no command), or a phrase written elsewhere (a
    topic)."""
    if q.text not in r.typed:
        return None
    if r.terminal and ENTERED.search(q.after):
        if q.start not in r.edited:
            _commands(r, q.text)
        return SKIP
    if not r.terminal and is_phrase(q.text):
        return TOPIC, q.text
    return SKIP


def _commands(r: Reading, line: str) -> None:
    """Each simple command of a line run, with the whole line as its detail when it has several."""
    parts = split_commands(line)
    for part in parts:
        r.add(COMMAND, part, line if len(parts) > 1 else "")


def _searched_for(r: Reading, q: Quote) -> tuple[str, str] | None:
    for_words = re.search(r"\b(?:for|query|results? (?:for|of)|about|titled|regarding|results page)\s*$", q.before)
    return (QUERY, q.text) if r.searching and (for_words or "搜索" in q.before[-12:]) else None


def _page_title(r: Reading, q: Quote) -> tuple[str, str] | None:
    """'Title - Site' names a page, unless it is what was copied or pasted ('du -sh * | sort -h')."""
    if COPIED.search(_clause(q.before)):
        return None
    return (PAGE, q.text) if re.search(r"\s[-–—|·]\s", q.text) else None


#: the quote that follows is a terminal window's title (the episode sentence's "switches to the terminal ('…')")
TERMINAL_TITLE = re.compile(r"\bthe terminal \($")
#: a quote that is the text copied or pasted: its words are the person's, not a page's title
COPIED = re.compile(r"\b(?:cop(?:y|ies|ied|ying)|pastes?|pasted|pasting)\b[^'\"]*$", re.I)


def _first_query(r: Reading, q: Quote) -> tuple[str, str] | None:
    if r.searching and not r.has(QUERY) and not PAGE_CONTEXT.search(q.before[-25:]):
        return QUERY, q.text
    return None


def _page(r: Reading, q: Quote) -> tuple[str, str] | None:
    return (PAGE, q.text) if PAGE_CONTEXT.search(_clause(q.before)) else None


def _clause(before: str) -> str:
    """The words before a quote in its own sentence: "views the page 'X | City Review'. The user copies 'Y'"
    does not make Y a page (the word "Review" ends the sentence before)."""
    return re.split(r"[.!?]['\"’”)]?\s+|[。！？]", before)[-1]


#: what a quoted piece names, first rule that decides wins (the order matters: a URL is never a page name, a
#: typed line never a query)
QUOTE_RULES: tuple[QuoteRule, ...] = (_url, _not_a_name, _terminal_title, _named_below, _error_piece, _run, _traceback_header,
                                      _error, _search_title, _quoted_file, _typed, _searched_for, _page_title,
                                      _first_query, _page)


def _quoted(r: Reading) -> None:
    for start, text in r.quotes:
        quote = Quote(start, text, r.sentence[max(0, start - 60):start].lower(), r.sentence[start:])
        for rule in QUOTE_RULES:
            decided = rule(r, quote)
            if decided is not None:
                if decided != SKIP:
                    r.add(*decided)
                break


def _addresses(r: Reading) -> None:
    """A page known by its address: its title when the sentence gives one, else its site."""
    for url in r.urls:
        host = url_host(url)
        if host is None:
            continue  # the person's own machine (a local server): no site, no page
        r.add(SITE, host)
        if not r.searching and not r.has(PAGE):
            r.add(PAGE, host)


def _files(r: Reading) -> None:
    """File and document names, quoted or not; a name only typed (not opened, edited or read) is not one."""
    for m in FILE_NAME.finditer(without_urls(r.sentence)):
        name = m.group(1)
        if any(name in t for t in r.typed) and not any(name in t for _, t in r.quotes if t not in r.typed) \
                and not re.search(rf"(?:file|editing|in|opens?)\s+['\"]?{re.escape(name)}", r.sentence):
            continue
        r.add(DOCUMENT if DOC_FILE.search(name) else FILE, name)


def _projects_sites_chats(r: Reading) -> None:
    for pattern in PROJECT_PATTERNS:
        for m in pattern.finditer(r.sentence):
            r.add(PROJECT, m.group(1))
    for pattern in SITE_PATTERNS:
        for m in pattern.finditer(r.sentence):
            if not FILE_NAME.fullmatch(m.group(1)):
                r.add(SITE, m.group(1))
    for m in CHAT_NAMES.finditer(r.sentence):
        r.add(CHAT, m.group(1))


def _unquoted_error(r: Reading) -> None:
    """When nothing quoted named an error: an error message the sentence states without quotes ("the output:
    error: could not compile `app`"), else an exception class it names."""
    for said in r.said:
        if not r.has(ERROR) and not said.own:
            r.add(ERROR, error_line(said.text) or last_line(said.text))
    if not r.has(ERROR):
        m = re.search(r"\b([A-Z]\w*(?:Error|Exception))\b", r.sentence)
        if m:
            r.add(ERROR, m.group(1))


def _unquoted_command(r: Reading) -> None:
    """Beside an error message worded as people word it, the command line said to have been run without quotes
    ("I ran python3 fetch.py and got …"): what the error came from, as the typed line is live. A prompt's line
    with the message printed right under it is that command, whatever other command the text quotes before it
    (a tool's banner: 'run "aider --help" to see …'): it stands for them. One quoted in what it printed is the
    step of it that failed, and stays."""
    if not any(not s.own for s in r.said):
        return
    if not r.has(COMMAND):
        line = unquoted_command(r.sentence)
        if line:
            _commands(r, line)
        return
    at = min(start for s in r.said if not s.own for start in s.starts)
    run = next((run for run in reversed(prompt_runs(r.sentence)) if run.end <= at), None)
    # (a command quoted in the output under it stays: a build's own step, 'The command '/bin/sh -c make' returned …')
    if run is not None and not r.sentence[run.end:at].strip() and all(
            r.sentence.rfind(o.text) < run.at for o in r.found if o.kind == COMMAND):
        r.found = [o for o in r.found if o.kind != COMMAND]
        _commands(r, run.command)


#: the passes over a sentence, in order (later passes see what earlier ones found)
SENTENCE_RULES: tuple[Callable[[Reading], None], ...] = (_quoted, _addresses, _files, _projects_sites_chats,
                                                          _unquoted_error, _unquoted_command)


def extract(sentence: str, index: int, edited: set[int] | None = None) -> list[Obj]:
    """The objects one event sentence names, in the order found; `edited`: the typed lines an editor in the
    terminal read (`command_lines.editor_lines`)."""
    return [replace(o, index=index) for o in _extract(sentence, frozenset(edited or ()))]


#: sentences read, remembered: every decision grounds its whole context again, and reading a sentence's quotes
#: and asking the diagnoses whether they hold an error is most of a silent decision's time; a sentence's objects
#: depend on its text alone (the index is set after)
READ_CACHE = 4096


@functools.lru_cache(maxsize=READ_CACHE)
def _extract(sentence: str, edited: frozenset[int]) -> tuple[Obj, ...]:
    return tuple(_read(sentence, 0, set(edited)))


def _read(sentence: str, index: int, edited: set[int]) -> list[Obj]:
    quotes = _quotes(sentence)
    typed = {text for start, text in quotes if TYPED.search(sentence[max(0, start - 40):start])}
    reading = Reading(sentence, index, quotes, typed, bool(TERMINAL.search(sentence)),
                      bool(SEARCH_WORD.search(sentence)), edited or set(), said=said_errors(sentence))
    for rule in SENTENCE_RULES:
        rule(reading)
    return reading.found


def classify(sentence: str, objects: Sequence[Obj], recent: Sequence[str]) -> str:
    """The activity of the last event; `recent` (the last few sentences) break ties for bare editor events."""
    kinds = {o.kind for o in objects}
    if ERROR in kinds or any(ERROR_TEXT.search(s) and re.search(r"error message|traceback|exception", s, re.I)
                             for s in recent[-2:]):
        return DEBUGGING
    if CHAT in kinds:
        return CHATTING
    if QUERY in kinds or SEARCH_WORD.search(sentence):
        return SEARCHING
    typing = bool(TYPE_WORD.search(sentence))
    if FILE in kinds and DOCUMENT not in kinds:
        return CODING
    if DOCUMENT in kinds or (typing and WRITE_WORD.search(sentence) and not re.search(r"\bcode\b", sentence)):
        return WRITING
    if typing and CODE_WORD.search(sentence):
        return CODING
    if PAGE in kinds or READ_WORD.search(sentence) or SITE in kinds:
        return READING
    if typing and CODE_WORD.search(" ".join(recent)):
        return CODING
    return NOISE


def _with_copies(objs: list[Obj], observation: Any, index: int) -> list[Obj]:
    """Each error object with the whole text of the copy it was quoted from (the copy whose lines contain it)."""
    copies = observation.get("copies") if isinstance(observation, dict) else None
    screens = observation.get("screen") if isinstance(observation, dict) else None
    if not any(o.kind == ERROR for o in objs) and not screens:  # a mistyped command alone: the shell said it
        objs = _with_mistyped(objs, index)
    if not copies:  # a recorded session: the sentence's quoted lines of each copied error are all there is of it
        key = tuple((o.kind, o.text, o.index - index, o.detail) for o in objs)
        objs = [replace(o, index=o.index + index) for o in _said(key, _event(observation))]
    for text in screens or ():  # an error the terminal shows (assistant/screen.py): the failed command's output
        line = error_line(text) or last_line(text)
        if line and not any(o.kind == ERROR and o.detail == text for o in objs):
            objs = [Obj(ERROR, line, index, text), *objs]  # the last command's: the newest error of the moment
    return _from_copies(objs, copies, index) if copies else objs


def _with_mistyped(objs: list[Obj], index: int) -> list[Obj]:
    """A command the shell would not know (a typo of a program), as the error the shell said about it."""
    from .diagnose.shell_errors import mistyped_command

    for o in [o for o in objs if o.kind == COMMAND]:
        said = mistyped_command(o.text)
        if said:
            objs = [*objs, Obj(ERROR, said, index, said)]
    return objs


def _from_copies(objs: list[Obj], copies: list[str], index: int) -> list[Obj]:
    """Each error object with its whole copy; and a copy with no error word in it (git's "You are in 'detached
    HEAD' state", cp's "omitting directory") still an error to help with when a specific next step is known."""
    from .diagnose import Situation, diagnose

    out = []
    used: set[str] = set()
    for o in objs:
        if o.kind == ERROR:
            full = next((c for c in reversed(copies) if quoted_in(o.text, c)), "")
            if full:  # else the object keeps what it has: an error the terminal shows has its output
                o = Obj(o.kind, error_line(full) or o.text, o.index, full)
                used.add(full)
        out.append(o)
    for copy in copies:
        if copy not in used and diagnose(Situation(copy)) is not None:
            line = error_line(copy) or next((ln.strip() for ln in copy.splitlines() if ln.strip()), copy.strip())
            out = [o for o in out if o.kind == ERROR or o.text not in copy] + [Obj(ERROR, line, index, copy)]
    return out


#: our own sentence for a copied (or selected) text that has no error word ("The user copies 'cp: -r not
#: specified; omitting directory 'photos'' from the terminal.", "The user selects '…' in the terminal.")
COPIED_TEXT = re.compile(r"\b(?:copies|selects) '(?P<text>.+?)' (?:from|in) the terminal\.(?= The user\b|$)")


@functools.lru_cache(maxsize=READ_CACHE)
def _said(objs: tuple[tuple[str, str, int, str], ...], sentence: str) -> tuple[Obj, ...]:
    """`_with_said` at index 0 of the objects (kind, text, index, detail), remembered (`READ_CACHE`)."""
    return tuple(_with_said([Obj(k, t, i, d) for k, t, i, d in objs], sentence, 0))


def _with_said(objs: list[Obj], sentence: str, index: int) -> list[Obj]:
    """Each error object quoted from a copied error's sentence with all the lines the sentence quotes of it (what
    a replayed session has instead of the copy), named by its line that names the error; and a text copied in a
    terminal that a diagnosis knows as an error, as the live path reads the copy itself."""
    from .diagnose import Situation, diagnose

    for m in COPIED_TEXT.finditer(sentence):
        text = m["text"].rstrip("…")
        if not any(o.kind == ERROR for o in objs) and diagnose(Situation(text)) is not None:
            objs = [o for o in objs if o.text not in text] + [Obj(ERROR, error_line(text) or text, index, text)]
    said = [s.text for s in said_errors(sentence)]
    if not said:
        return _known_message(objs, sentence, index)
    out: list[Obj] = []
    for o in objs:
        # (a quote whose line breaks are written '\n' is a copy of the lines said with them)
        full = next((s for s in said if quoted_in(o.text, s)
                     or ("\\n" in o.text and quoted_in(restored(o.text), s))), "") \
            if o.kind == ERROR and not o.detail else ""
        if full and any(p.detail == full for p in out):
            continue  # the same copy's other quoted line: one error
        out.append(Obj(o.kind, error_line(full) or o.text, o.index, full) if full else o)
    return _better_known(out, sentence, index)


#: a shell prompt's line ('$ make', 'ana@box:~/app$ make')
PROMPT_LINE_START = re.compile(r"^[ \t]*(?:\$|[\w.-]+@[\w.-]+:[^\s$#]*[$#])[ \t]")
#: a runner's verdict on a command it ran, which names no error of the program's: its exit status ('Command failed
#: with exit code 2: ./build.sh', 'Build script returned non-zero exit code: 2', "Bash exited with code '1'")
VERDICT = re.compile(r"(?i)\b(?:exit(?:ed)?|returned|return)\b[^\n]{0,30}?\b(?:code|status|value)\b[:= ]{0,3}['\"]?\d+|"
                     r"\bnon-zero exit\b")


def _better_known(objs: list[Obj], sentence: str, index: int) -> list[Obj]:
    """The message a diagnosis knows, when the one found is not known and another in the sentence is: a log holds
    the program's message and, after it, the words of what ran it (a build service's 'Command failed with exit
    code 2', its settings, its closing lines), which read as a message of their own. The live path reads the
    program's output; here the last block of lines a diagnosis knows stands for it, with the command of the last
    prompt above it. A message found and known whose line is such a verdict is read from the block of it the same
    diagnosis knows, with that block's command (a service's settings after the output name its own script
    again), and never traded for another message."""
    from .diagnose import OWN_WORDS, Situation, diagnose

    errors = [o for o in objs if o.kind == ERROR]
    if len(errors) != 1 or "\n" not in sentence:
        return objs
    error = errors[0]
    command = next((o.detail or o.text for o in objs if o.kind == COMMAND), None)
    # (a message with words before it on its line, 'python3 fails: TabError: …', is known only as relayed: a block
    # below may hold all of it)
    known = diagnose(Situation(error.detail or error.text, command), relayed=False)
    specific = known is not None and known.rule != OWN_WORDS
    if specific and not (VERDICT.search(error.text) or SUMMARY_LINE.search(error.text)):
        return objs
    runs = prompt_runs(sentence)
    for at, text in reversed(_blocks(sentence)):
        ran = next((r.command for r in reversed(runs) if r.at < at), None)
        if (found := diagnose(Situation(text, ran or command))) is None or found.rule == OWN_WORDS:
            continue
        if specific and found.rule != known.rule:  # type: ignore[union-attr]
            return objs  # (a known message is never traded for another)
        kept = [o for o in objs if o is not error and not (ran and o.kind == COMMAND)]
        line = error_line(text) or error.text
        return kept + ([Obj(COMMAND, ran, error.index)] if ran else []) + [Obj(ERROR, line, error.index, text)]
    return objs


def _blocks(sentence: str) -> list[tuple[int, str]]:
    """The blocks of lines a long text holds, each with where it starts: runs of lines between blank lines, a
    prompt's line, a runner's verdict (left out) and a traceback's header (which starts one), at most 40 lines:
    where a program's message may be, in order."""
    out: list[tuple[int, str]] = []
    block: list[str] = []
    at = start = 0
    for line in sentence.split("\n") + [""]:
        bare = line.strip()
        ends = not bare or PROMPT_LINE_START.match(line) is not None or (
            SUMMARY_LINE.search(bare) is not None and not OWN_CLOSING.match(bare))  # (make's '***' is its own)
        if (ends or TRACEBACK_HEAD.match(line) or len(block) >= 40) and block:
            out.append((start, "\n".join(block).strip("\n")))
            block = []
        if not ends:
            if not block:
                start = at
            block.append(line)
        at += len(line) + 1
    return out


def _known_message(objs: list[Obj], sentence: str, index: int) -> list[Obj]:
    """With no error found: a text the sentence quotes or sets off (after a colon, an arrow, a prompt's command)
    that a diagnosis knows as an error though it has no error word (git's "Your branch is behind …"), as the live
    path reads such a copy."""
    from .diagnose import OWN_WORDS, Situation, diagnose

    if any(o.kind == ERROR for o in objs):
        return objs
    command = next((o.detail or o.text for o in objs if o.kind == COMMAND), None)
    fallback: list[Obj] | None = None
    for text in message_candidates(sentence):
        ran = PROMPT_FIRST.match(text)  # a prompt's line before the output: the command it came from
        if ran and command is None:
            text, run = ran["out"], [Obj(COMMAND, ran["line"].strip(), index)]
        else:
            run = []
        known = diagnose(Situation(text, run[0].text if run else command))
        if known is not None:
            line = error_line(text) or text.strip().splitlines()[0]
            found = [o for o in objs if o.kind == COMMAND or o.text not in text] + run + [Obj(ERROR, line, index, text)]
            if known.rule != OWN_WORDS:
                return found
            # a step named in any words ("while running `git switch main`") may be the writer's, not the
            # program's: a text a rule knows, further on, is the message
            fallback = fallback or found
    return fallback or objs


def _named_at(obj: Obj, sentence: str) -> int:
    """Where the sentence last names an object (-1: not found as written, e.g. a line read from the copy). An
    error the sentence does not name but whose whole text is known (what the terminal showed of the last line
    entered) happened after that line: it is placed there."""
    low = sentence.lower()
    for text in (obj.text, obj.text[:40], *(obj.detail.strip().splitlines()[-1:] if obj.detail else ())):
        at = low.rfind(text.lower().strip())
        if text.strip() and at >= 0:
            return at
    if obj.kind == ERROR and obj.detail:
        return low.rfind("presses enter in the terminal")
    return -1


def _errors_latest_first(objects: list[Obj], events: Sequence[str]) -> list[Obj]:
    """The errors of one event ordered by where its sentence names them, the latest first: an episode in one
    terminal holds a whole shell session (a Makefile's error, its fix, then a link error), and the rules that find
    errors do not return them in the order they happened; the offer is about the error the person just met."""
    out = list(objects)
    for index in {o.index for o in out if o.kind == ERROR}:
        slots = [i for i, o in enumerate(out) if o.kind == ERROR and o.index == index]
        if len(slots) < 2 or not 0 <= index < len(events):
            continue
        errors = [out[i] for i in slots]
        ranked = sorted(errors, key=lambda o: -_named_at(o, events[index]))  # stable: those not found last
        for i, o in zip(slots, ranked, strict=True):
            out[i] = o
    return out


def _read_as_log(text: str) -> bool:
    """Whether a record's field is a log's lines or a tree's text nodes, read as an event's text is."""
    return LOG_PREFIX.search(text) is not None or STATIC_TEXT.search(text) is not None


def _as_live(observation: Any) -> Any:
    """An observation written as a logger's record (a JSON object, a table's row) as the live path has the same
    moment: the command entered and the texts copied (`records`)."""
    if not isinstance(observation, dict) or observation.get("copies") or observation.get("screen"):
        return observation
    event = str(observation.get("event", ""))
    if "\t" in event and (plain := uncolumned(event)) != event:  # a log view's columns are no table's
        event = plain
        observation = {**observation, "event": event}
    record = read_record(event)
    if record is not None and any(_read_as_log(t) for t in record.texts):
        # a field holding a log's lines ('2025-04-03T17:40:48.031Z host app[406]: …') or an accessibility tree's
        # text nodes ('[StaticText] 'Traceback …''): read as a log is read
        record = replace(record, texts=tuple(_as_read(t) if _read_as_log(t) else t for t in record.texts))
        ran = [m for t in record.texts if (m := PROMPT_FIRST.match(t))]
        if record.command is None and ran:  # the log's line of the shell that ran it ('… $ npm start'), then its output
            record = replace(record, command=ran[0]["line"].strip(),
                             texts=tuple(m["out"] if (m := PROMPT_FIRST.match(t)) else t for t in record.texts))
    return as_observation(record, observation.get("time")) if record else observation


def ground(context: Sequence[Any], window: int = 12) -> Grounding:
    """Objects of the last `window` events (latest mention first) and the activity of the last one."""
    context = [_as_live(o) for o in context]
    events = [_event(o) for o in context]
    start = max(0, len(events) - window)
    latest: dict[tuple[str, str], Obj] = {}
    first: dict[tuple[str, str], int] = {}
    per_event: list[list[Obj]] = []
    editor: str | None = None  # an editor running in the terminal (its lines are not commands)
    for i in range(start, len(events)):
        edited, editor = editor_lines(events[i], editor)
        objs = _with_copies(extract(events[i], i, edited), context[i], i)
        per_event.append(objs)
        for o in objs:
            key = (o.kind, o.text.lower())
            first.setdefault(key, i)
            latest.pop(key, None)
            latest[key] = replace(o, first=first[key])
    # latest mention first; within one event (a long episode in one window holds a whole shell session) the one
    # named later in it is the more recent
    objects = [o for _, o in sorted(enumerate(latest.values()), key=lambda p: (-p[1].index, -p[0]))]
    objects = _errors_latest_first(objects, events)
    last = events[-1] if events else ""
    activity = classify(last, per_event[-1] if per_event else [], events[-RECENT:]) if events else NOISE
    # what the person saw: the episodes, the whole texts they copied and the errors their terminal showed (an offer
    # may quote a copy's error line)
    copied = [c for o in context[start:] if isinstance(o, dict) for c in [*(o.get("copies") or ()),
                                                                          *(o.get("screen") or ())]]
    # and what the shell said about a command it would not know (`_with_mistyped`): an offer quotes it
    said = [o.detail for o in objects if o.kind == ERROR and o.detail and o.detail not in copied]
    return Grounding(objects, activity, len(events), " ".join([*events, *copied, *said]))
