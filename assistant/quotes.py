"""What a sentence quotes, however it is worded: every quoted piece (plain, typographic, guillemets, backticks,
nested: "No module named 'numpyy'" inside an outer quote), and the error messages it quotes or states.

A recorded session has only its sentences. Our watcher words a copied error one way ("copies an error message
starting '…', saying '…' and ending '…' from the terminal", `watcher/episodes/builder.py`), but ProactiveBench,
other datasets and people word it many ways: double or typographic quotes, the first and last lines ("starting
X and ending Y", "beginning with X … ending with Y"), the whole message in one quote (with its newlines, or
flattened into one line), a command and its error in the same sentence, or the message unquoted after
"output:", "shows:" or "got". `said_errors` reads each as the text the diagnosis needs (the message's lines, in
order, a traceback's frames indented as Python prints them), so replaying a sentence gives the help the copy
itself gives live.
"""

from __future__ import annotations

import functools
import itertools
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass

from proactive.watcher.episodes.error_lines import ERROR_HINT, KEY_LINE
from proactive.watcher.privacy.echo_programs import SHELLS

from .error_names import LEVEL_LINE, SUMMARY_LINE
from .sentence_patterns import COPIED_ERROR, URL

#: opening quote -> its closing quote ('„' closes with '“' in German typesetting)
PAIRS = {"'": "'", '"': '"', "`": "`", "‘": "’", "“": "”", "«": "»", "‹": "›", "„": "“", "「": "」", "《": "》"}
#: words before a quote that make it a command line run (its output is what the sentence quotes next)
RUN_CUE = re.compile(r"\b(?:runs?|ran|running|re-?runs?|executes?|executed|executing|invokes?|invoked|launch(?:es|ed|ing)?|"
                     r"command(?: line)?|cmd|step|\$)\s*[:=]?\s*$", re.I)
#: words before a quoted command line whose output the sentence gives ("after `go get x` I get …", "Output of
#: `go build`:")
RAN_BEFORE = re.compile(r"\b(?:after|(?:output|result)s? of)\s*$", re.I)
#: a quoted text that reads as a command line: a program's name (or a path to one) first, nothing of a sentence
COMMAND_LINE = re.compile(r"^(?:sudo\s+)?(?:\.{0,2}/)?[a-z][\w.+/-]*(?:\s+\S+)*$")
#: a letter or digit of ASCII: an apostrophe sits between two ("don't"); a quote mark does not (CJK text around a
#: quote is not a word for this purpose: '输入"你好"' quotes 你好)
WORD = re.compile(r"[A-Za-z0-9]")


#: programs a command line starts with (after `sudo` or a variable's assignment): where a quote or a screen's line
#: runs a command and its output together ('mysql -u root ERROR 2002 …'), the program's name at its start says the
#: command comes first
PROGRAMS = frozenset(
    "ansible apt apt-get bash brew bun bundle bundler cargo cat cc chmod chown clang clang++ cmake composer conda cp "
    "createdb createuser crontab curl deno dnf docker docker-compose dotnet dropdb flatpak g++ gcc gem git go gpg "
    "gradle gradlew helm java javac journalctl kind kubeadm kubectl ld ln ls make minikube mkdir mongo mongosh mv "
    "mvn mysql mysqldump node nodemon npm npx nvm openssl pacman perl pg_dump pkg-config php pip pip3 pipenv pipx pnpm podman "
    "poetry psql pytest python python2 python3 pyenv rails rake rbenv redis-cli rm rpm ruby rustc rustup scp snap sqlite3 ssh "
    "ssh-add ssh-copy-id ssh-keygen su sudo swift systemctl tar terraform tsc unzip uv uvicorn vagrant wget wsl wsl.exe "
    "yarn yum zip".split())
#: a word of a command line before its program: `sudo`, an environment variable's assignment ('CGO_ENABLED=0 go …')
COMMAND_PREFIX = re.compile(r"^(?:sudo|env|time|nohup|[A-Z_][A-Z0-9_]*=\S*)$")
#: a token that starts a program's output for certain: an exception's name ('java.lang.OutOfMemoryError:'), an
#: error word ('ERROR', 'fatal:', 'error[E0308]:'), a file's location ('main.go:14:33:', 'stats.c:(.text+0x35):',
#: 'server.ts(1,21):'), a log's level and time ('E1128'), a traceback's header
OUTPUT_START = re.compile(
    r"^(?:[\w.$]*(?:Error|Exception)\b|(?:ERROR|Error|error|FATAL|Fatal|fatal|E|W|WARNING|Warning|warning|panic|"
    r"PANIC|hint|Caused|Traceback|Exception|FAILED|Failed|failed|Unable|Cannot|Could|ERR!)(?![\w-])|"
    r"[\w./+-]+\.\w+:|[\w./+-]+:\d+|[\w./+-]+\(\d+,\d+\):|[EWIF]\d{4}\b|\*\*\*|\[(?:ERROR|error|FATAL|!)\]|"
    r"[A-Z]{4,}\b(?![=/]))")
#: a program's or a part's name and a colon, as a message starts ('psych: Could not be configured', 'zsh: command
#: not found: gti'), when a capitalised word or a word of an error follows
NAME_COLON = re.compile(r"^[a-z][\w.@-]*:$")
#: a word of a sentence (what a program prints), not of a command line: the small words English needs
SENTENCE_WORD = re.compile(r"^(?:is|are|was|were|not|the|an?|to|for|of|no|has|have|had|been|could|cannot|can't|"
                           r"does|did|must|will|would|should|from|while|when|because|already)$", re.I)
PLAIN = re.compile(r"^[a-z][a-z'-]*$")
CAPITAL_WORD = re.compile(r"^[A-Z][A-Za-z']+$")


def split_run(text: str, any_output: bool = False, known: bool = True) -> tuple[str, str] | None:
    """A command line and the output printed after it, run together in one line ('make instal make: *** No rule
    to make target …', '$ psql inventory psql: error: …'): (command, output), or None when `text` does not start
    with a known program (unless not `known`: a prompt's line is a command whatever its program) or no output
    follows it (or, unless `any_output`, none with an error's words). The output starts at its program's name and a colon ('make:'),
    at a token only output starts with (`OUTPUT_START`), at a capitalised word going on as a sentence ('Package
    gtk+-3.0 was not found'), else at the start of the first clause written as a sentence ('invalid argument …
    for …', 'package x is not a main package')."""
    spans = [(m.start(), m.group()) for m in re.finditer(r"\S+", text)]
    words = [w for _, w in spans]
    first = 0
    while first < len(words) - 1 and COMMAND_PREFIX.match(words[first]):
        first += 1
    if not words or (known and words[first].rsplit("/", 1)[-1] not in PROGRAMS):
        return None
    program = words[first].rsplit("/", 1)[-1]
    cut = None
    for i in range(first + 1, len(words)):
        word, after = words[i], words[i + 1] if i + 1 < len(words) else ""
        option_value = words[i - 1].startswith("-")
        if (word.rstrip(":") in (program, words[first], "sudo", "bash", "zsh") and word.endswith(":")) \
                or (word in (program, "npm") and re.match(r"(?:ERR!|error|WARN)(?![\w-])", after)) \
                or (OUTPUT_START.match(word) and not option_value) \
                or (NAME_COLON.match(word) and not any(SENTENCE_WORD.match(w) for w in words[first + 1:i])
                    and (CAPITAL_WORD.match(after) or KEY_LINE.match(rest := " ".join(words[i + 1:i + 4])) is not None
                         or ERROR_HINT.match(rest) is not None)) \
                or (CAPITAL_WORD.match(word) and not option_value and (PLAIN.match(after) or after.isupper())):
            cut = i
            break
    if cut is None:  # the first clause that reads as a sentence, back over its words
        at = next((i for i in range(first + 2, len(words)) if SENTENCE_WORD.match(words[i])), None)
        if at is not None:
            cut, named = at, False
            while cut - 1 > first:
                if PLAIN.match(words[cut - 1]) or CAPITAL_WORD.match(words[cut - 1]):
                    cut -= 1
                elif not named and cut - 2 > first and (PLAIN.match(words[cut - 2]) or CAPITAL_WORD.match(words[cut - 2])):
                    cut, named = cut - 1, True  # a name the clause is about ('package github.com/x is not …')
                else:
                    break
            if cut <= first + 1:
                cut = None
    # ("ERR!" ends in no letter: the prefix is followed by a space, never by a word boundary)
    if cut is None or cut <= first or (cut == first + 1 and re.match(r"(?:ERR!|error|WARN|warn)(?![\w-])",
                                                                       words[cut])):
        return None  # no output, or the program's own prefix of its message ('npm ERR! code ERESOLVE')
    if "\n" in text[:spans[cut][0]].strip():
        return None  # lines of output ('bin/rails aborted!' over its error), not a command line run into them
    head, tail = text[:spans[cut][0]].strip(), IDLE_PROMPT.sub("", text[spans[cut][0]:].strip())
    said = any_output or ERROR_HINT.search(tail) or KEY_LINE.search(tail)
    return (head, tail) if tail and said else None


@dataclass(frozen=True)
class Quoted:
    """One outermost quoted piece: where its opening quote is, where it ends (after the closing quote), its text."""

    start: int
    end: int
    text: str


def _word(text: str, i: int) -> bool:
    return 0 <= i < len(text) and WORD.match(text[i]) is not None


def _space(text: str, i: int) -> bool:
    return i < 0 or i >= len(text) or text[i].isspace()


def _opens(text: str, i: int) -> bool:
    """A symmetric mark (' " `) at `i` that can open a quote: not after a letter ("don't"), not before a space,
    not a possessive after a bracket ("(Ravi)'s program")."""
    possessive = text[i] == "'" and text[i - 1:i] in (")", "]") and text[i + 1:i + 2] == "s" and not _word(text, i + 2)
    return not _word(text, i - 1) and not _space(text, i + 1) and not possessive


def _closes(text: str, i: int) -> bool:
    """A symmetric mark at `i` that can close a quote: not after a space, not before a letter."""
    return not _space(text, i - 1) and not _word(text, i + 1)


def _skip_backticks(text: str, j: int) -> int:
    """Past a backtick quote inside another quote: Rust's `x` or GNU's old `main' (a backtick closed by an
    apostrophe, as ld and make still print), so neither ends the outer quote early."""
    tick, plain = text.find("`", j + 1), text.find("'", j + 1)
    ends = [k for k in (tick, plain) if k > j]
    return min(ends) + 1 if ends else j + 1


def _closing(text: str, i: int) -> int | None:
    """Where the quote opened at `i` closes: quotes of the same mark nest ('… named 'numpyy'' closes at its last
    mark), a mark between two letters is an apostrophe. When the nesting never closes, the first mark that can
    close it does (an unbalanced apostrophe inside: "the users' files")."""
    mark, close = text[i], PAIRS[text[i]]
    depth, j, first, spaced = 1, i + 1, None, None
    while j < len(text):
        ch = text[j]
        if text[j - 1] == "\\":  # an escaped mark (a log's JSON string: "File \"app.py\"") is the text's own
            j += 1
            continue
        if ch == "`" and mark != "`":
            j = _skip_backticks(text, j)
            continue
        if mark == close and ch == mark:
            opens, closes = _opens(text, j), _closes(text, j)
            if closes:
                first = j if first is None else first
                depth -= 1
            elif opens:
                depth += 1
            elif spaced is None and first is None and depth == 1 and _space(text, j - 1):
                spaced = j
        elif ch == close and not (_word(text, j - 1) and _word(text, j + 1)):
            first = j if first is None else first
            depth -= 1
        elif ch == mark and mark != close:
            depth += 1
        if depth == 0:
            return j
        j += 1
    if spaced is not None:
        # never balanced, and a mark between spaces came before any that could close it: a printed string that
        # ends in a space (print("Next year you will be " + age)) closes there, not at a later quote's mark
        # ('(not "int")' further on)
        return spaced
    return first


#: a fenced block of a page, a chat or a mail ('```shell' … '```'): its text between the fence lines
FENCE = re.compile(r"```[\w+-]*[ \t]*\n(?P<text>.*?)\n[ \t]*```", re.S)


def quotes(sentence: str, shortest: int = 2) -> list[Quoted]:
    """Every outermost quoted piece of `sentence`, in order, at least `shortest` characters long."""
    out, i = [], 0
    while i < len(sentence):
        ch = sentence[i]
        fence = FENCE.match(sentence, i) if ch == "`" else None
        if fence is not None:  # a fenced block: its lines, whatever quote marks they hold
            text = fence["text"].strip()
            if len(text.strip()) >= shortest:
                out.append(Quoted(fence.start(), fence.end(), text))
            i = fence.end()
            continue
        if sentence.startswith("``", i):  # Markdown's code span of several backticks, holding single ones
            ticks = len(sentence) - i - len(sentence[i:].lstrip("`"))
            close = re.compile(rf"(?<!`)`{{{ticks}}}(?!`)").search(sentence, i + ticks)
            if close is not None:
                text = sentence[i + ticks:close.start()].strip()
                if len(text) >= shortest:
                    out.append(Quoted(i, close.end(), text))
                i = close.end()
                continue
        symmetric = PAIRS.get(ch) == ch
        if ch in PAIRS and (not symmetric or _opens(sentence, i)):
            end = _closing(sentence, i)
            if end is not None:
                text = sentence[i + 1:end].strip()
                if len(text) >= shortest:
                    out.append(Quoted(i, end + 1, text))
                i = end + 1
                continue
        i += 1
    return out


@dataclass(frozen=True)
class Said:
    """An error message a sentence quotes or states: its lines as the diagnosis reads them, and where each piece
    of it starts in the sentence (a quote's opening mark, or the first character of an unquoted message)."""

    text: str
    starts: tuple[int, ...]
    #: in our own wording (`COPIED_ERROR`), which grounding's rules read as they always have
    own: bool = False
    #: where the message stated without quotes lies in the sentence, when it is one: a command it advises inside
    #: it ("or run 'go help get'") is its own words, no command the person ran
    unquoted: tuple[int, int] | None = None


#: a traceback's header, a frame line and the code under it: pieces of an error without an error word in them
TRACEBACK_PIECE = re.compile(r"^Traceback \(most recent call last\)|^File \"[^\"]+\", line \d+")
#: words before a quote that name a line of the message ("starting '…'", "the last line reads '…'", "it includes
#: '…'", an arrow from the command to its output): such a piece belongs to the error the sentence quotes even with
#: no error word of its own (a traceback's code line, ssh's "WARNING: …")
LINE_CUE = re.compile(r"(?:\bstart(?:s|ing)?|\bbegin(?:s|ning)?|\bend(?:s|ing)?|\bline\b[^'\"`‘“«]{0,20}|\bfollowed"
                      r"|\bthen|\bsaying|\bsays|\breads?|\boutput|\bprints?|\bprinted|\bshows?|\bshowing|"
                      r"\bmessage|\berror|\bwith|\band|\bincludes?|\bincluding|\bcontains?|\bcontaining|"
                      r"->|→|=>|…|\.\.\.)[^'\"`‘“«]{0,12}$", re.I)
#: a selection's ends, "from '…' to '…'": the first and last lines of what was selected (not "copies '…' from
#: 'Code.exe'", where "from" names the window)
RANGE = re.compile(r"\bfrom\s+(?P<first>['\"`‘“«])(?P<text>.+?)(?P<close>['\"`’”»])\s+to\s+['\"`‘“«]")
#: words before a quote that make it something searched or typed, not something a program printed
NOT_SAID = re.compile(r"\bsearch\w*\b[^'\"`‘“«]{0,30}$|\b(?:types?|typed|typing|inputs?|(?<!after )(?<!pressing )enters?)\s*:?\s*$|"
                      r"\b(?:titled|page|tab|query)\s*:?\s*$", re.I)
#: an error line known by its form wherever it stands: an exception's, npm's, MySQL's, git's rejected push, make's,
#: a Go program's klog line (kubectl's 'E1128 10:02:41.118236   12044 memcache.go:265] …')
MESSAGE_FORM = (r"(?-i:[\w.]*[a-z](?:Error|Exception)(?:\[\w+\])?: \S|Traceback \(most recent call last\)|"
                r"npm (?:ERR!|error) |(?:ERROR|FATAL)(?: \d+ \(\w+\))?: |! \[[a-z ]+\] |\*\*\* [A-Z]|"
                r"[EF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [\w.-]+:\d+\] )")
MESSAGE_START = re.compile(MESSAGE_FORM)
#: where a message stated without quotes starts: at a line's start; at an error line by its form anywhere (a log's
#: or CI step's prefix before it: "##[error]ModuleNotFoundError: …", "job setup FAILED — Traceback (most recent call
#: last): …"); after words saying a program printed it ("the output:", "shows:", "got", "fails with")
UNQUOTED_CUE = re.compile(
    r"(?<=\n)[ \t]*(?=\S)|(?<![\w.$\[/-])(?=" + MESSAGE_FORM + r")|(?:\boutput|\bshows?(?! notes\b)|\bshowing|\bshowed|\bsays?|"
    r"\bsaying|\bsaid|\bprints?|\bprinted|\bprinting|\breads?|"
    r"\breturns?|\breturned|\breports?|\breported|\bgot|\bgets?|\bgetting|\bgives?(?= me\b)|\bgave(?= me\b)|(?<=\s)»|\bfail(?:s|ed|ing)? with|\bcomplains?"
    r"|\bdisplays?|\bdisplayed|\bthrows?|\bthrew|\braises?|\braised|\bemits?|\bemitted|\bend(?:s|ing)? with|"
    r"\b(?:comes?|came|coming) back with|\bspit(?:s|ting)? out|\bspat out|\b(?:dies|died|bails?(?: out)?|errors?(?: out)?|"
    r"errored(?: out)?|blows? up|blew up) with|"
    r"\bresult(?:s|ed)? in|\b(?:error(?: message)?|message)(?: is| was| reads| says)?(?: (?:[a-z]+ing|[a-z]+ed|shown|seen|given|thrown|like|as follows|below|now)(?=:))?|"
    r"\b(?:text|area|screen|stderr|stdout|response|reply)(?=\s*:)|->|→|=>|(?<=\S):(?=\s))"
    # a word that only leads up to the message ('shows the following error:'), not one that starts it ('error:
    # No such …', MySQL's 'ERROR 1045 (28000): …', tsc's 'error TS2307: …')
    r"(?:[ \t]+(?:(?:me|the|this|an?|following|error|message|output|text|line)\b"
    r"(?!:[ \t]*[^\s'\x22`‘“«]|[ \t]+(?:\d|(?-i:[A-Z]{1,4}\d)))|(?:reads|says|shows|prints|displays)\b))*"
    r"\s*(?::|(?<=[a-z]),)?\s+", re.I)
#: a program's name and a colon just before a message ('bash: ', 'cp: '): the start of its own message when the
#: name is a shell's or a known program's, not a label
SAID_BY = re.compile(r"(?:^|(?<=[\s\]>]))(?P<program>[a-z][\w.+-]*):\s+$")
#: a cue that sets a message off by itself (a colon, an arrow, a line break): what follows is the message, even when
#: its words are not an error's ('make: *** No rule to make target …', 'Could NOT find CURL …')
SET_OFF = re.compile(r":|->|→|=>|»")
#: a label before the text it names ("stderr: …", "output: …"): the text starts after it
LABEL = re.compile(r"(?:stderr|stdout|output|result|message|text|log|response|reply|details|description|observation|"
                   r"summary|content|body)\s*:\s", re.I)
#: how an error line starts, stated without quotes: a capital ("Cannot connect…", "ModuleNotFoundError: …"), a
#: program or file and a colon ("psql: error: …", "main.go:8:2: …"), an error word, a path or a bracket, git's
#: "! [rejected]" and a build's "*** "; not an English word going on with the sentence ("an error message starting '…'")
LINE_START = re.compile(r"[A-Z]|[\w.+/-]+:|(?:error|fatal|panic|warning|npm|thread|[a-z]\w*(?:Error|Exception))\b|"
                        r"[./~\[(<$]|! \[|\*\*\* |-- (?=[A-Z])")  # (CMake's status lines: '-- The CXX compiler …')
#: the next field of a ticket or a form, joined on one line ('… · Expected result: …', '… — Reporter: …'): a label
#: of plain words and a colon (not an exception's name)
FIELD_END = (r"\s+[·—]\s+(?=[A-Z][a-z]+(?: [a-z]+){0,2}:\s)|"
             # a full stop written apart from the message before the writer's next sentence ('… 'tesseract' . Somebody')
             r"[ \t]\.[ \t]+(?=[A-Z][a-z])|"
             # a table's next field: a tab inside a line, or a comma before a time ('… failed.,10:05,11:33')
             r"(?<=\S)\t|\.?,(?=\d{1,2}:\d\d(?::\d\d)?,)|"
             # the writer's question after a dash at the line's end ('… cannot find symbol - any idea?')
             r"[ \t]+[-–—][ \t]+(?=(?i:any|anyone|ideas?|help|thoughts|pls|please|why|what|how|wtf|ugh|halp)\b[^\n]*(?:\n|\Z))|"
             # a chat's next message under its sender's name and time ('Lucas Moreau  11:12 AM')
             r"\s*\n(?=[A-Z][\w.'-]+(?: [A-Z][\w.'-]+){0,2}[ \t]+\d{1,2}:\d\d(?:[ \t]?[AP]M)?[ \t]*(?:\n|$))")
#: where an unquoted message ends: the next sentence about the person, or where the sentence goes on to say
#: where it was shown or what happened next (a dependency resolver's report goes on with "So, because …": PubGrub's
#: wording, in bundler, uv, poetry and pub)
UNQUOTED_END = re.compile(
    r"\.?\s*$|\.\s+(?=(?:They|He|She|It|Then|After|Next|Afterwards|Later|I|We|This|So(?!, because)|Now|The (?:user|person|"
    r"developer|dev|assistant|terminal|screen|window|browser|same|next|command|program))\b)|"
    r"\s+(?:in|from|on|inside) (?:the|a|an|his|her|their|my|its) (?:\w+ )?(?:terminal|console|shell|window|screen|"
    r"output|log|pane|tab)\b|\s+(?:when|while|after|before|upon) (?:running|executing|trying|typing|building|"
    r"installing|compiling|starting|he|she|they|the user|I|we)\b|\s+(?:and|but) (?:then|the user|they|he|she|I|we|"
    rf"copies|selects|searches|opens|switches)\b|,\s+(?:I|we|but|and I|what|why|how)\b|{FIELD_END}")
#: where a message set off by a colon, an arrow or a line break ends: where the sentence plainly goes on (its words
#: "while trying to …" are the message's own)
SET_OFF_END = re.compile(
    r"\.?\s*$|\.\s+(?=(?:They|He|She|Then|After|Next|Afterwards|Later|I|We|So(?!, because)|Now|The (?:user|person|developer|dev|"
    r"assistant))\b)|\s+(?:in|from|on|inside) (?:the|a|an|his|her|their|my|its) (?:\w+ )?(?:terminal|console|shell|"
    r"window|pane|tab)\b|\s+(?:and|but) (?:then|the user|they|he|she|I|we)\b|"
    # (', but' alone goes on with a program's own sentence: rustc's '…contains a borrowed value, but the signature …')
    r",\s+(?:I|we|but (?:I|we|it|that|nothing|still)|and I|what|why|how)\b|"
    rf"{FIELD_END}")
#: an exception's name and its colon, starting a line
EXCEPTION_HEAD = re.compile(r"[A-Za-z_][\w.]*(?:Error|Exception|Warning|Exit|Interrupt): ")
#: the line breaks of a message flattened into one line, recognisable by how its lines start: Python's traceback
#: header, frames and exception line, npm's prefix, rustc's location and help lines, git's hints
LINE_STARTS = re.compile(
    r"(?<=\S)\s+(?=File \"[^\"]+\", line \d+|" + EXCEPTION_HEAD.pattern + "|"
    r"npm (?:ERR!|error) |--> |= (?:help|note): |(?:help|hint): |Caused by: |During handling of |"
    # javac's and a C compiler's: the symbol and place under a caret, the next file:line: error, the count
    r"(?:symbol|location):\s|\^\s+(?=symbol:)|(?<=error: cannot find symbol )(?=\S.*\^)|[\w/.-]+\.\w{1,5}:\d+(?::\d+)?: (?:fatal )?error: |\d+ errors?$)")
#: an error's word and its colon ending a text ('keytool error:')
ERROR_WORD_END = re.compile(r"\b(?i:error|fatal|exception|failure)[ \t]*:$")
#: a frame's location, after which its code line starts
FRAME = re.compile(r"File \"[^\"]+\", line \d+(?:, in [\w.<>]+)?")
#: a line break written out in a flattened message, and a quote mark escaped as in a JSON string (a log's line)
#: (not one a string literal of code holds: rustc's 'format!("{name}: {count}\n")', PyYAML's "found character '\t'")
WRITTEN_BREAK = re.compile(r"\\n(?![\"'])|\s*[⏎↵]\s*|<br\s*/?>|(?<=:)\s\|\s|"
                           # lines left out between two the writer gives ('Error: … Main.class ... Caused by: …')
                           r"\s+(?:\.{3}|…)\s+(?=[\w./-]+(?::\d+)+: |[\w.]*(?:Error|Exception)\b|Caused by: |\*\*\* |"
                           r"(?:error|fatal|ERROR|FATAL)(?:\[\w+\])?: )")
WRITTEN_TAB = re.compile(r"\\t(?![\"'])")
ESCAPED = re.compile(r"\\([\"'\\])")
#: a table's heading of capitalised column names, its rows run on after '; ' ('NAME  READY  STATUS …; api-6d… 0/1 …')
TABLE_HEAD = re.compile(r"(?:[A-Z][A-Z_-]+[ \t]{2,}){2,}[A-Z][A-Z_-]+;\s")
#: a compiler's gutter, whose ' | ' is no line break ('6 |     let x = …', '--> src/main.rs:6:26')
GUTTER = re.compile(r"(?:^|\s)\d+ \| |-->")
#: a piece that ends with a frame's location: its code line follows
FRAME_END = re.compile(FRAME.pattern + r"\s*$")


#: how a line of a message starts, where a writer joined its lines with a separator ('File "x.py", line 4 |
#: def f(self) | SyntaxError: …', '… not compiled: / psych: / Could not …'): a frame, an exception or error word,
#: a caret line, npm's prefix, a label ('symbol:   class ArrayList')
LINE_HEAD = re.compile(r"File \"[^\"]+\", line \d+|Traceback \(|[\w.]*(?:Error|Exception|Warning)\b|[\^~]{2,}|\^$|"
                       r"npm (?:ERR!|error)\b|(?:error|fatal|warning|help|note|hint)(?:\[\w+\])?:|[a-z][\w-]*:\s|"
                       r"Caused by\b|During handling\b|\*\*\* ")
#: a line that only points under the one above it ('^^^^', '~~~^~~~')
CARETS = re.compile(r"^\s*[\^~]+\s*$")
#: what writers join a message's lines with when they put it on one line
SEPARATORS = (" | ", " / ", "; ", " — ", " · ", " … ", " \\ ")
#: a line that is no part of a message: a shell's bare prompt after it
NOT_A_LINE = re.compile(r"^(?:[$%#>]|[\w.-]+@[\w.-]+:\S*[$#%]|\[[\w.-]+@[\w.-]+ [^\]]*\][$#]|[\w.-]+@[\w.-]+ \S+ %)$")
#: the quote mark before each line of a message quoted in a mail or a review ('> Traceback …')
QUOTE_MARK = re.compile(r"^[ \t]*>(?: |$)", re.M)


def _joined(flat: str) -> str:
    """A message whose lines a writer joined with a separator, with its line breaks back: a cut only where the
    next piece starts a line by its form, or the piece before is a frame (its code line follows) or announces the
    next line (ends with a colon), so the separator inside a line (a division's ' / ', a shell's ' | ') stays; a
    caret line is left out, its column lost."""
    for sep in SEPARATORS:
        pieces = flat.split(sep)
        if len(pieces) < 2:
            continue
        out = [pieces[0]]
        for piece in pieces[1:]:
            before = out[-1].rstrip()
            if CARETS.match(piece):
                continue  # a caret line whose column the joining lost: it would point at the wrong place
            if LINE_HEAD.match(piece.lstrip()) or FRAME_END.search(before) or before.endswith(":"):
                out.append(piece)
            else:
                out[-1] += sep + piece
        flat = "\n".join(out)
    return flat


#: where a prefix every line of a log repeats ends: after a colon, a bracket or a tab, then a space
PREFIX_END = re.compile(r"(?:[:\]>]|\t) ?$")


def _unprefixed(lines: list[str]) -> list[str]:
    """A message's lines without the prefix a log writes before each of them (syslog's 'Feb 15 16:14:28 host
    app[1927]: ', a CI step's '[check] '): the longest prefix all of them share, cut after a colon or bracket,
    when it holds a time, a number or a bracket (a word all the lines start with, pip's 'ERROR: ', is theirs)."""
    text = [ln for ln in lines if ln.strip()]
    if len(text) < 2:
        return lines
    common = ""
    for shared in (text, text[1:]) if len(text) > 2 else (text,):  # the first's may be read past already
        common = os.path.commonprefix(shared)
        while common and not PREFIX_END.search(common):
            common = common[:-1]
        if len(common) >= 3:
            break
    if len(common) < 3 or not re.search(r"[\d\[\]\t]", common):  # 'ERROR: ' on each line is the message's own
        return lines
    # the log's prefix ends at its first field's end: what the lines share after it is theirs, the program's own
    # name and level ('… nginx[14213]: nginx: [emerg] …')
    first = next((m.end() for m in re.finditer(r"[:\]>] |\t", common) if re.search(r"[\d\[\]\t]", common[:m.end()])),
                 len(common))
    common = common[:first]
    return [ln[len(common):] if ln.startswith(common) else ln for ln in lines]


def _breaks(flat: str) -> str:
    """A message written as one line with its line breaks back, where its lines' starts show them (a traceback
    pasted into a sentence: 'Traceback (most recent call last): File "…", line 1, in <module> import numpyy
    ModuleNotFoundError: …'), without what surrounds it on the page (quote marks, a bare prompt, a fence) or the
    screen (the prompt waiting after it)."""
    flat = IDLE_PROMPT.sub("", flat)
    if TABLE_HEAD.match(flat):
        flat = re.sub(r";\s+", "\n", flat)  # a table printed by kubectl, docker or systemctl, its rows joined by '; '
    if flat.count(" | ") >= 2 and not GUTTER.search(flat):
        flat = flat.replace(" | ", "\n")  # a log's or a table's record with its lines joined by ' | '
    flat = ESCAPED.sub(r"\1", WRITTEN_TAB.sub("\t", WRITTEN_BREAK.sub("\n", flat)))
    if "\n" in flat:
        lines = flat.splitlines()
        if len(lines) > 1 and QUOTE_MARK.match(lines[1]):  # a quoted block (its first mark may be read past):
            # its marked lines, not the words after it
            lines = lines[:1] + list(itertools.takewhile(lambda ln: QUOTE_MARK.match(ln) is not None, lines[1:]))
        lines = _unprefixed([QUOTE_MARK.sub("", ln) for ln in lines])
        # a line holding a whole traceback flattened ('Details: File "x.py", line 2, in <module> import cv2
        # ModuleNotFoundError: …') cut where its lines start, as a one-line message is
        return "\n".join(_cut(part) if FRAME.search(part) else part for ln in lines
                         if not NOT_A_LINE.match(ln.strip()) for part in _joined(ln).split("\n"))
    return "\n".join(_cut(line) for line in _joined(flat).split("\n"))


def _cut(flat: str) -> str:
    """One line of a message run together with the lines after it, cut where its lines' starts show."""
    if len(flat) < 60:
        return flat
    # an exception's name right after an error's word and colon is that line's own ('keytool error:
    # java.io.IOException: …'), unlike one after a code line's colon ('for d in rnage(7): NameError: …')
    cuts = {m.end() for m in LINE_STARTS.finditer(flat)
            if not (ERROR_WORD_END.search(flat, 0, m.start()) and EXCEPTION_HEAD.match(flat, m.end()))} \
        | {m.end() for m in FRAME.finditer(flat)}
    if flat.startswith("Traceback (most recent call last):"):
        cuts.add(len("Traceback (most recent call last):"))
    lines, at = [], 0
    for cut in sorted(c for c in cuts if 0 < c < len(flat)):
        lines.append(flat[at:cut].strip())
        at = cut
    lines.append(flat[at:].strip())
    # a caret line run into the code before it ('if x > 3 ^ SyntaxError: …') points at nothing once flattened
    if FRAME.search(flat):
        lines = [CARETS_AFTER.sub("", ln) for ln in lines]
    return "\n".join(ln for ln in lines if ln)


#: a run of carets ending a flattened code line, its column lost
CARETS_AFTER = re.compile(r"(?<=\S)\s+[\^~]+\s*$")


def as_printed(parts: list[str]) -> str:
    """The quoted lines of a message as its program printed them: a traceback's frame indented and its code under
    it more (the sentence flattened their indentation), and a command under the line announcing it ("…run the
    following command:"), so the rules that read a frame or an announced command find them."""
    lines = []
    for i, part in enumerate(parts):
        frame = part.startswith('File "')
        # (a line that announces one in turn, 'psych:' under '*** Following extensions are not compiled:', is none)
        code = i > 0 and not frame and (parts[i - 1].startswith('File "')
                                        or parts[i - 1].endswith(":") and not part.endswith(":"))
        lines.append(("  " if frame else "    " if code else "") + part)
    return "\n".join(lines)


def restored(text: str) -> str:
    """A printed text as its program printed it: kept when it has its line breaks, else (a log's or a table's
    field holds it on one line) its lines back where their starts show, a traceback's frames indented."""
    if "\n" in text.strip():
        return text
    return as_printed([ln.strip() for ln in _breaks(text).splitlines() if ln.strip()])


def _own(sentence: str) -> list[tuple[tuple[int, int], Said]]:
    """Our own sentence for a copied error ("copies an error message starting '…', saying '…' and ending '…'
    from …"): its quoted lines, read whole (the quotes it holds are the message's own)."""
    out = []
    for m in COPIED_ERROR.finditer(sentence):
        middle = re.findall(r", saying '(.+?)'(?=, saying '|$)", m["saying"] or "")
        parts = [p.strip() for p in (m["start"], *middle, m["end"] or "") if p and p.strip()]
        out.append((m.span(), Said(as_printed(parts), (m.start("start") - 1,), own=True)))
    return out


#: a line of a person's own words in a chat or a note, not of what a program printed
PERSONS_LINE = re.compile(r"(?i:i|i'm|we|my|yep|yes|yeah|yup|nope|no luck|still|ok|okay|hi|hey|hello|dear|did|does|could you|can you|anyone|any ideas?|why|how|"
                          r"thanks?|thx|cheers|(?:best |kind )?regards|best|that's|pls|please|sorry|lol|"
                          # a speaker's (a screencast's transcript: 'Hmm.', 'Oh no.', 'Let's figure out why.')
                          r"hmm+|oh|ah+|uh+|alright|well|let's|let me|pause|this is a)\b(?![:('’])")
#: a short question of the writer's on a line of its own ('What am I missing?', 'Where is this coming from?'): an
#: error's word in it ('missing') is the writer's
WRITERS_QUESTION = re.compile(r"(?i:what|why|how|where|which|who|any(?:one| ideas?)?|am i|did i|should i|is (?:it|this|there)"
                              r"|is that)\b[^\n:`'\"]{0,60}\?+")
#: a failure in the person's words ('Okay, so that failed.', 'no luck, same error'): no message's
PROSE_FAILURE = re.compile(r"\b(?:that|it|this)(?: just| also)? (?:failed|fails|broke|errored)\b|"
                           r"\b(?:the )?same (?:error|failure|problem)\b", re.I)


#: a line that asks, as a forum's title does ('Q: Why does `git merge x` fail with CONFLICT …?')
QUESTION = re.compile(r"[ \t#*>]*(?:Q:\s*)?(?i:why|how|what|does|do|is|can|anyone|any idea)\b")
#: words that say what was run or asked before the message on the same line ('command was make error reads …',
#: 'Why does … fail with …', 'so when I run make it prints …'): no message starts there
LEADS_UP = re.compile(QUESTION.pattern + r"|(?i:command (?:was|is)|(?:okay |ok )?so\b|when i|i (?:ran|run|typed)|"
                                         # a speaker's first word and its comma ('Right, so all I did was …')
                                         r"(?:right|yeah|yep|yes|well|um+|uh+|alright|basically|honestly|anyway)(?=,)|"
                                         r"it(?:'s|’s| is) saying|you can see|here(?:'s|’s| is))\b|"
                                         # a speaker's 'and it just comes back with …', 'then this prints …' (a
                                         # message's own 'This environment is …' has its capital)
                                         r"(?:(?i:and|but|then) )?(?:it|this|that)(?: just| only| still| then| now)?"
                                         r" (?!is |was |has |had )[a-z]+\b")


#: a sentence that tells what someone did or saw ('They executed …', 'The user ran …', 'You got …'): a writer's,
#: whatever error words it has; the message is what it quotes
NARRATED = re.compile(r"(?:They|He|She|You|We|I|The (?:user|person|developer|student|participant)|[Uu]ser)[ \t]+"
                      r"(?:then[ \t]+)?(?:\w+ed|ran|got|saw|hit|runs|gets|sees|tries|types|hits|executes|was|were|is|are|"
                      r"has|had|have|keeps?|kept)\b")


def _persons_line(sentence: str, at: int) -> bool:
    """Whether the line from `at` is the person's own words ('yep', 'Did not read the last line at first'): such
    a line neither starts a message nor goes on with the one above it."""
    line = sentence[at:_line_end(sentence, at)]
    return WRITERS_QUESTION.fullmatch(line.strip()) is not None or PERSONS_LINE.match(sentence, at) is not None \
        and not ERROR_HINT.search(PROSE_FAILURE.sub("", line))


def _line_begin(text: str, at: int) -> int:
    """Where the line holding `at` starts."""
    return text.rfind("\n", 0, at) + 1


def _line_end(text: str, at: int) -> int:
    """Where the line holding `at` ends (the text's end on its last line)."""
    end = text.find("\n", at)
    return len(text) if end == -1 else end


def _past_typed_line(sentence: str, start: int, end: int, known: frozenset[str]) -> int:
    """Where a message stated from `start` to `end` starts past the typed command line a screen reader or a
    pane's capture gives bare above its output (`bare_command`), and the window's words before it that say
    nothing of an error ('user@devbox: ~, terminal window'); `start` when no such line leads it."""
    at = start
    while (nl := sentence.find("\n", at, end)) != -1 and sentence[nl + 1:end].strip():
        line = sentence[at:nl]
        if ERROR_HINT.search(line) or KEY_LINE.search(line) or TRACEBACK_LINE.match(line):
            break
        at = nl + 1
        if bare_command(line, known):
            return at + len(sentence[at:end]) - len(sentence[at:end].lstrip())
    return start


#: the word 'error' in the writer's prose ('a question about an error', 'the same error'), no message's own word
PROSE_ERROR = re.compile(r"\b(?:an?|the|this|that|some|same|my|weird|strange)\s+(?:\w+\s+)?errors?\b", re.I)
#: a command line and an arrow to what it printed, after a field's label ('debugging: ran cargo build -> error…')
RUN_ARROW = re.compile(r"\"?(?:[\w ]{1,30}:[ \t]+)?(?:ran[ \t]+|run[ \t]+)?(?P<line>[^\s>→][^\n>→]*?)[ \t](?:->|→|=>)[ \t]+")
#: a command run and an arrow to what it printed, inside a line of the writer's
RAN_ARROW = re.compile(r"\b(?:ran|runs|running|executed|typed)[ \t]+[`'\"]?(?P<line>[^`'\"\n→>]+?)[`'\"]?[ \t]*"
                       r"(?:->|→|=>|⇒)[ \t]+")
#: a verb saying a program showed what follows, inside a line
SHOWN_BY = re.compile(r"\b(?:says?|said|saying|shows?|showed|showing|prints?|printed|displays?|displayed|outputs?)\b:?"
                      r"[ \t]+(?=\S)", re.I)
#: a line that only leads up to the message under it: a heading of a few words ('Issues:', 'Steps to reproduce:')
#: or the writer's sentence ending with a colon ('When `cargo build` was run, the following error was reported:'),
#: not a program's line ('npm ERR! … found in:', 'Traceback (most recent call last):', 'error: x:')
HEADING = r"[A-Z][a-z]+(?: [A-Za-z]+){0,3}:"
#: a heading in a markup: Markdown's '## Logs', MediaWiki's '== Section "Setup" ==', AsciiDoc's '== Setup'
MARKUP_HEADING = re.compile(r"#{1,6} \S[^\n]*|={1,6} \S[^\n]*?(?: ={1,6})?")
LEAD_IN = re.compile(r"(?:" + HEADING[:-1] + r"|(?![\w.+/-]+: )(?!" + MESSAGE_FORM + r")[^\n]*?"
                     r"\b(?i:the|a|an|was|were|is|this|following|when|while|got|get|gives?|shows?)\b[^\n]*):[ \t]*$",
                     re.M)
#: a reply's or a chat's quote marks at a line's start
REPLY_MARK = re.compile(r"(?:>[ \t]*)+(?=[^\s>])")
#: a list item's mark at a line's start: a number ('1. ', '2) ') or a bullet
LIST_MARK = re.compile(r"(?:\d{1,2}[.)]|[-*•◦▪])[ \t]+(?=\S)")
#: the words before 'error:' that make it the writer's label for what follows ('the error: …', 'got this error: …')
ERROR_NAMED_BY = re.compile(r"(?:^|\b(?:the|this|that|an?|following|same|my|your|our|their|weird|strange|odd|another|"
                            r"new|next|first|last|one|an?\s+\w+|got|get|gets|says?|with|is|was|exact|full|whole|\w+ing))\s+$",
                            re.I)


def _names_the_error(sentence: str, at: int) -> bool:
    """Whether the 'error:' at `at` is the writer's label for the message after it, not a word of the printed line:
    at a line's start or a sentence's, or after a determiner or verb ('the error: …', 'got error: …')."""
    line = sentence[_line_begin(sentence, at):at]
    return not line.strip() or ERROR_NAMED_BY.search(line) is not None or line.rstrip()[-1:] in ".:;,!?-—>(|"


#: a sentence of plain words ending with a full stop ('The release notes were written.')
PROSE_LINE = re.compile(r"[A-Z][a-z]*(?: [\w'’,-]+){2,}\.$")
#: a line's first sentence, when another follows it on the line
SENTENCE_ONE = re.compile(r".+?[a-z]\.(?=[ \t]+[A-Z])")


def _message_line(line: str) -> bool:
    """Whether a message may start with `line`: it says an error, has an error line's form, or starts with a
    program's or file's name and a colon ('node:internal/…:1210', 'main.go:8:2: …')."""
    said = PROSE_ERROR.sub(lambda m: m[0] if m.start() == 0 else "", line)  # '… gives me an error.': the writer's
    return bool(ERROR_HINT.search(said) or KEY_LINE.search(said) or MESSAGE_START.match(line)
                or re.match(r"[\w.+/-]+:", line) or TRACEBACK_LINE.match(line))


def writers_line(line: str) -> bool:
    """Whether a line is the writer's own words and says no message: a line leading up to one ('I get this when
    running make:'), a sentence of prose ('Same machine worked last week.'), a person's reply ('yep')."""
    line = line.strip()
    return bool(line) and not _message_line(line) and bool(
        LEAD_IN.fullmatch(line) or PROSE_LINE.match(line) or _persons_line(line, 0))


#: marks before a message that are the writer's, not its own ('→ ', '... ', '» '); a path's './' is the message's
LEADING_MARKS = re.compile(r"(?:[ \n…>→=»-]|\.+(?![./]))*")


#: the writer's word for an error on a line of its own: a page's heading ('Error', 'Error output:'), no message's
BARE_ERROR = re.compile(r"(?i)(?:#+ |=+ )?(?:errors?|error (?:message|output|text|log)s?)\W?")


def _hinted(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] reads as (part of) a message: an error's word or a message's key line in it."""
    return bool(ERROR_HINT.search(text, start, end) or KEY_LINE.search(text, start, end))


def unquoted_error(sentence: str, quoted: list[Quoted]) -> tuple[int, str] | None:
    """An error message stated without quotes around it ("The terminal shows: error: could not compile `app`",
    "got ModuleNotFoundError: No module named 'numpyy'", "Visible text: permission denied while …", the lines
    after the sentence's first): (where it starts, its text), or None. After a colon or a line break the message
    may start with any word; a shell's prompt line in it is the command's, not the message's (`prompt_runs`).
    A message said in a person's words (a line of plain words, no line of an error's form in its paragraph), then
    one printed on lines of its own further on, its first line an error's (a talk's transcript, then its notes):
    the printed one, the program's words and the later."""
    runs, known = prompt_runs(sentence), known_programs(sentence)
    found = _unquoted_error(sentence, quoted, 0, runs, known)
    if found is None:
        return None
    repeated = _repeated_later(sentence, quoted, found, runs, known)
    if repeated is not None:
        return repeated
    if SUMMARY_LINE.search(found[1].split("\n", 1)[0].strip()):
        found = _closed_by(sentence, found[0], known) or found
    paragraph = re.search(r"\n[ \t]*\n", found[1])  # a message run on past its paragraph may hold the later one
    at = found[0] + (paragraph.start() if paragraph else len(found[1]))
    whole = sentence[_line_begin(sentence, found[0]):at]  # its first paragraph, its first line from the line's start
    if not SPOKEN.match(whole.lstrip()) or any(error_led(ln.strip()) for ln in whole.splitlines()):
        return found
    for _, later in _later_finds(sentence, quoted, at, runs, known):
        first = later[1].split("\n", 1)[0]
        if later[0] >= found[0] + len(found[1]) and not sentence[_line_begin(sentence, later[0]):later[0]].strip(" \t>") \
                and (error_led(first) or CURL_CODE.match(first)) \
                and not SUMMARY_LINE.search(first):
            return later
    return found


def _later_finds(sentence: str, quoted: list[Quoted], at: int, runs: list[Run],
                 known: frozenset[str]) -> Iterator[tuple[int, tuple[int, str]]]:
    """Each message `_unquoted_error` finds from `at` on, with where it was looked for from: the next from the line
    after where the last starts (words leading up to one: it may start on a line below)."""
    while (later := _unquoted_error(sentence, quoted, at, runs, known)) is not None:
        yield at, later
        at = _line_end(sentence, max(at, later[0])) + 1


#: a message's words, as compared between two copies of it (case, quote marks and punctuation aside)
MESSAGE_WORD = re.compile(r"[a-z0-9]{3,}")


def _repeated_later(sentence: str, quoted: list[Quoted], found: tuple[int, str], runs: list[Run],
                    known: frozenset[str]) -> tuple[int, str] | None:
    """A later copy of the message `found` gives, printed on lines of its own and holding more of it: its first
    line a message's, most of the words of `found`'s first paragraph, and more words (a message said in a talk or
    a chat in passing, cut off or paraphrased, then pasted whole in its notes or a reply)."""
    first = re.split(r"\n[ \t]*\n", found[1], maxsplit=1)[0]
    words = MESSAGE_WORD.findall(first.lower())
    if len(words) < 4:
        return None
    for at, later in _later_finds(sentence, quoted, found[0] + len(found[1]), runs, known):
        have = set(MESSAGE_WORD.findall(later[1].lower()))
        if later[0] >= at and not sentence[_line_begin(sentence, later[0]):later[0]].strip(" \t>") \
                and _message_line(later[1].split("\n", 1)[0].strip()) \
                and sum(w in have for w in words) >= 0.75 * len(words) and len(have) > len(set(words)):
            return later
    return None


def _closed_by(sentence: str, at: int, known: frozenset[str]) -> tuple[int, str] | None:
    """The lines a tool's verdict at `at` closes, when its own words say no error ('step failed (exit 1)' under
    bundler's 'Your bundle is locked to mimemagic (0.3.5) …'): up from it to a blank line or the command line
    run, when a diagnosis knows them as a message."""
    end = _line_begin(sentence, at)
    start = end
    while start > 0:
        above = _line_begin(sentence, start - 1)
        line = sentence[above:start].strip()
        if not line or program_of(line) in known or PROMPT.match(sentence, above):
            break
        start = above
    text = sentence[start:end].strip("\n")
    return (start, text) if text.strip() and diagnosed(text) else None


def _printed_above(sentence: str, start: int, at: int, under_prompt: bool) -> bool:
    """Whether an indented line at `at` goes on with a program's printed message: it is under a prompt's line, or
    a line of the message above it starts as an error's does (CMake's 'CMake Error at …:' and its indented,
    blank-line separated block); a writer's paragraph starts at the margin."""
    return under_prompt or any(error_led(ln.strip()) or LEVEL_LINE.match(ln) for ln in sentence[start:at].splitlines())


def _printed_on(sentence: str, end: re.Match[str]) -> bool:
    """Whether a clause's end inside a line (', but it …') is the program's own words: the lines under it are
    printed as a compiler prints them ('  --> src/main.rs:10:36', '   |'), which no writer's sentence goes on to
    (rustc's 'closure may outlive the current function, but it borrows `label`, …')."""
    if not end.group().startswith(","):
        return False
    below = sentence[_line_end(sentence, end.start()) + 1:]
    return GUTTER.match(below.lstrip(" \t")) is not None or re.match(r"[ \t]*\|[ \t]*(?:\n|$)", below) is not None


def error_led(line: str) -> bool:
    """Whether a line starts as an error's does: its form ('error: …', 'KeyError: …'), an error's word first
    ('CONFLICT (content): …'), or a program's name and a colon before an error's word."""
    return bool(MESSAGE_LINE.match(line) or ERROR_HINT.match(line) or re.match(r"[^\s:]+: (?:error|fatal)\b", line)
                or (re.match(r"[\w.+/-]+: ", line) and ERROR_HINT.search(line))
                or re.match(r"[\w./-]+\.[A-Za-z]\w*:\d+:\d+: (?!(?:warning|note|info)\b)\S", line))  # a compiler's place


def _unquoted_error(sentence: str, quoted: list[Quoted], after: int, runs: list[Run],
                    known: frozenset[str]) -> tuple[int, str] | None:
    """`unquoted_error` from the cues at `after` on (`runs` and `known`: the sentence's, read once)."""
    inside = [(q.start, q.end) for q in quoted]
    shortened: tuple[int, str] | None = None
    for cue in UNQUOTED_CUE.finditer(sentence, after):
        start = cue.end()
        said_by = SAID_BY.search(sentence, 0, start) if cue.group().startswith(":") else None
        if said_by is not None and (said_by["program"] in PROGRAMS or said_by["program"] in SHELLS):
            start = said_by.start()  # 'bash: tsc: command not found', 'cp: cannot stat …': the program's name starts it
        if cue.group() == "error: " and not _names_the_error(sentence, cue.start()):
            start = cue.start()  # a message's own 'error:' in its line ("building 'x' extension error: command …")
        if any(a <= cue.start() < b for a, b in inside) or start >= len(sentence):
            continue
        mark = LIST_MARK.match(sentence, start) if not cue.group().strip() else None
        listed = mark is not None
        # a list's item on a line of its own ('- The command failed; the output included "…"')
        item_start = mark is not None and not sentence[_line_begin(sentence, mark.start()):mark.start()].strip()
        depth = mark.start() - _line_begin(sentence, mark.start()) if mark is not None else 0
        mark_text = mark.group() if mark is not None else ""
        if mark:
            start = mark.end()  # a list's item ('1. Unable to find image …', '• error: …'): the message after its mark
        line_start = not sentence[_line_begin(sentence, start):start].strip()  # a cue ending a line, or none
        if line_start and (mark := REPLY_MARK.match(sentence, start)):
            start = mark.end()  # a line quoted in a reply or a chat ('> ActiveRecord::PendingMigrationError:')
        if line_start and LEAD_IN.match(sentence, start):
            continue  # a heading ('Issues:') or the writer's words leading up to the message ('… was reported:')
        if not cue.group().strip() and _persons_line(sentence, start):
            continue  # a line of the person's own words ('yep', 'I typed gti log'): no message starts there
        if LEADS_UP.match(sentence, start) and UNQUOTED_CUE.search(sentence, start + 1, _line_end(sentence, start)):
            continue  # a question asked after a label ('Q: Why does … fail with X?'): its message is further on
        if not cue.group().strip() and (says := SHOWN_BY.search(sentence, start, _line_end(sentence, start))) \
                and not (ERROR_HINT.search(sentence, start, says.start()) or KEY_LINE.search(sentence[start:says.start()])):
            continue  # a line that says where the message is shown ('The terminal says: …'): it is further on
        # a colon, an arrow, a line's start, a line break after the cue's words ('… which prints\n\n    docker: …')
        strong = SET_OFF.search(cue.group()) is not None or not cue.group().strip() or "\n" in cue.group()
        lower = strong and re.match(r"[a-z]", sentence[start]) is not None
        if LABEL.match(sentence, start) or not (LINE_START.match(sentence, start) or lower):
            continue
        ends = SET_OFF_END if strong else UNQUOTED_END
        end = next(m.start() for m in ends.finditer(sentence, start) if m.start() > start
                   and not any(a < m.start() < b for a, b in inside) and not _printed_on(sentence, m))
        if item_start and not mark_text.startswith("*"):  # a list's item: the next item, at its depth or above,
            # is another (a '* ' line is also curl's and other tools' own: read on)
            end = next((start + m.start() for m in re.finditer(r"\n([ \t]*)(?=" + LIST_MARK.pattern + ")",
                                                             sentence[start:end]) if len(m[1]) <= depth), end)
        under_prompt = any(r.end <= start and not sentence[r.end:start].strip() for r in runs)
        # the person's own line under the message ends it, when no error is stated after it ('Did not see it') or
        # it starts a paragraph of its own ('Hello Tomás,' in a mail); under a prompt's line, what the terminal
        # printed goes on past a blank line ('CMake Error at …:\n  The source directory\n\n  does not contain …')
        end = next((start + m.start() for m in re.finditer(r"\n(?:[ \t]*\n)*[ \t]*(?=\S)", sentence[start:end])
                    if _persons_line(sentence, start + m.end())
                    and not (m.group().rsplit("\n", 1)[-1] and _printed_above(sentence, start, start + m.start(), under_prompt))
                    and ("\n" in m.group()[1:] or not (ERROR_HINT.search(sentence, start + m.end(), end)
                                                        or KEY_LINE.search(sentence, start + m.end(), end)))), end)
        if not LINE_START.match(sentence, start) and any(start <= a < end for a, _ in inside) and not under_prompt \
                and not KEY_LINE.search(" ".join(sentence[start:end].split()[:3])):
            continue  # words going on with the sentence, not a message: it quotes the message further on
        for run in runs:  # past a prompt's command line: its output (when any) is the message
            if start <= run.at < end or start <= run.output_at < end:
                if start < run.at and not run.output and not _hinted(sentence, run.end, end) \
                        and _hinted(sentence, start, run.at):
                    end = _line_begin(sentence, run.at)  # the next prompt under the message, its output none, ends it
                    break
                start = max(start, run.output_at if run.output else run.end)
        start = LEADING_MARKS.match(sentence, start, end).end()  # type: ignore[union-attr]
        label = LABEL.match(sentence, start)  # past a prompt's line, a label may name the output ('Details: …')
        start = label.end() if label else start
        start = _past_typed_line(sentence, start, end, known)
        arrow = RUN_ARROW.match(sentence, start, end)
        if arrow and program_of(arrow["line"]) in known:
            start = arrow.end()  # a log's or a table's 'label: ran <command> -> <its message>': the message after it
        elif (ran := RAN_ARROW.search(sentence, start, _line_end(sentence, start))) and program_of(ran["line"]) in known:
            start = ran.end()  # a time tracker's '10:02 (3 min) Terminal · ran `make` → error: …': after the arrow
        text = re.sub(r"\s*(?:…|\.{2,})$", "", IDLE_PROMPT.sub("", sentence[start:end].rstrip())).strip()
        if text.endswith("]") and text.count("]") > text.count("["):
            text = text[:-1].rstrip()  # the end of a note in brackets around it ('[transcriber: pasted: …]')
        if QUESTION.match(sentence, _line_begin(sentence, start)):
            # the question's mark, not the message's ('Why does … fail with X?')
            text = re.sub(r"\?(?=\n|$)", "", text, count=1)
        held = [(a - start, b - start) for a, b in inside if start <= a < end]
        words = "".join(ch for i, ch in enumerate(text) if not any(a <= i < b for a, b in held))
        words = PROSE_ERROR.sub("", words)  # 'a question about an error': the writer's word, no message's
        if item_start and any(error_led(q.text.split("\n", 1)[0]) for q in quoted if start <= q.start < end):
            continue  # a list's item in the writer's words around the messages it quotes: the quotes are them
        if held and not (ERROR_HINT.search(words) or KEY_LINE.search(words) or MESSAGE_START.match(text)):
            continue  # words around the quotes that hold the message ("an error (first line '…', last line '…')")
        if held and NARRATED.match(text):
            continue  # a writer's sentence about someone, after a label ('Answer: They ran `x`; it failed with "…"')
        first = text.split("\n", 1)[0]
        printed = any(r.end <= start and not sentence[r.end:start].strip() for r in runs)  # right under a prompt's line
        over = sentence[_line_begin(sentence, cue.start()):cue.end()].strip()
        if not over and cue.start() > 0:  # a line of its own: the line above it
            over = sentence[_line_begin(sentence, cue.start() - 1):cue.start()].strip()
        under_heading = re.fullmatch(HEADING, over) or MARKUP_HEADING.fullmatch(over)
        if (line_start or item_start) and not printed and not _message_line(first) \
                and (listed or (under_heading and PROSE_LINE.match(first))):
            continue  # a line of the writer's ('- The staging database was refreshed.'): the message starts below
        if BARE_ERROR.fullmatch(first.strip()):
            continue  # the writer's word ('… gives me an error.'), no message's line
        hinted = "\n".join(ln for ln in text.splitlines() if not BARE_ERROR.fullmatch(ln.strip()))
        sentence_one = SENTENCE_ONE.match(first)
        if sentence_one and not printed and PROSE_LINE.match(sentence_one[0]) and not _message_line(sentence_one[0]):
            continue  # the writer's sentence before it ('Alt text: A terminal window. The only line reads: …')
        if len(text) >= 8 and (ERROR_HINT.search(hinted) or (strong and LINE_START.match(text) and KEY_LINE.search(text))
                               or (printed and line_start and diagnosed(text))):
            above = _traceback_above(sentence, start)
            if sentence[start:end].rstrip().endswith(("…", "..")) or sentence.startswith(("…", ".."), end) \
                    or first.rstrip().endswith("…"):
                # cut off ('Subject: Failed to start x: Unit…', an archive's title): the whole message may follow
                shortened = shortened or (above, sentence[above:start] + text)
                continue
            if above == start and printed:
                return _fuller_copy(sentence, runs, start, text) or _relayed_part(start, text)
            return _relayed_part(above, sentence[above:start] + text)
    return shortened


#: a program's own closing line among the verdicts: its count of errors, the build it stopped
OWN_CLOSING = re.compile(r"\d+ errors?\b|compilation terminated|error: (?:could not compile|aborting due to)|"
                         r"make(?:\[\d+\])?: \*\*\*|ninja: build stopped")
#: a frame of the stack trace a JVM tool prints after its verdict ('    at org.apache.commons.exec.…(…java:404)')
WRAPPER_FRAME = re.compile(r"^[ \t]+at [\w$.<>]+ ?\(")
#: the line a Python traceback starts with
TRACEBACK_HEAD = re.compile(r"^[ \t]*Traceback \(most recent call last\):", re.M)


def _relayed_part(start: int, text: str) -> tuple[int, str]:
    """The message a program printed inside what a tool that ran it printed around it (Maven's or Gradle's
    chatter, then its verdict and its own stack trace): from a traceback's header when no line above it is an
    error's, up to the tool's verdict after the message's error line when its own stack trace follows (which
    the help would read as the program's). (`start`: where `text` starts.)"""
    head = TRACEBACK_HEAD.search(text)
    if head is not None and head.start() > 0 and not any(
            error_led(ln.strip()) or ERROR_HINT.search(ln) for ln in text[:head.start()].splitlines()):
        start, text = start + head.start(), text[head.start():]
    text = _tools_traceback_cut(text)
    lines = text.split("\n")
    verdict = next((i for i, ln in enumerate(lines) if i > 0 and SUMMARY_LINE.search(ln.strip())
                    and not OWN_CLOSING.match(ln.strip()) and any(error_led(x.strip()) for x in lines[:i])
                    and any(WRAPPER_FRAME.match(x) for x in lines[i + 1:])), None)
    return start, "\n".join(lines[:verdict]).rstrip() if verdict is not None else text


#: a Python frame's file that is no program of the person's: an installed package's, the standard library's, an
#: installed command's ('/usr/local/bin/jupyter-nbconvert')
TOOLS_FILE = re.compile(r"/(?:site|dist)-packages/|/lib/python\d[\d.]*/|/bin/[\w.-]+$|^<frozen ")


def _tools_traceback_cut(text: str) -> str:
    """`text` up to a traceback none of whose frames is the person's code (the scheduler's or notebook runner's
    own, raising its verdict that the command failed), when a frame above it is theirs: the help is for the
    program's traceback."""
    heads = [m.start() for m in TRACEBACK_HEAD.finditer(text)]
    for k, head in enumerate(heads):
        block = text[head:heads[k + 1] if k + 1 < len(heads) else len(text)]
        frames = re.findall(r'File "([^"\n]+)"', block)
        earlier = re.findall(r'File "([^"\n]+)"', text[:head])  # (a SyntaxError's has no header)
        if frames and all(TOOLS_FILE.search(f) for f in frames) and any(not TOOLS_FILE.search(f) for f in earlier):
            return text[:head].rstrip()
    return text


@functools.lru_cache(maxsize=4096)
def diagnosed(text: str, command: str | None = None) -> bool:
    """Whether a diagnosis knows a text as a message though no error's word may be in it (bundler's 'Your Ruby
    version is 3.0.2, but your Gemfile specified 3.2.2'; with the command it came from, when known): what a
    prompt's command printed under it, or a record's field, is a message then. A line with words before its
    message ('python3 fails: TabError: …') is not one here: a fuller copy of it may come later."""
    # the diagnoses read quotes' patterns: imported when first needed
    from .diagnose import Situation, diagnose

    return diagnose(Situation(text, command), relayed=False) is not None


def _fuller_copy(sentence: str, runs: list[Run], start: int, text: str) -> tuple[int, str] | None:
    """The same command's earlier output holding every line of its message `text` (at `start`, right under the
    command's line) and more: a session that runs one command again and again (a bisect, a retry) prints the
    whole message the first time, and its writer shortens the repeats; the whole one is what the person read."""
    above = [r for r in runs if r.end <= start]
    if not above:
        return None
    last = above[-1]
    want = [line.strip() for line in text.splitlines() if line.strip()]
    for run, after in zip(runs, runs[1:], strict=False):
        if run.at >= last.at or run.command != last.command or run.output:
            continue
        block = sentence[run.end:_line_begin(sentence, after.at)].strip("\n")
        have = [line.strip() for line in block.splitlines()]
        at = [have.index(w) if w in have else -1 for w in want]
        if -1 in at or at != sorted(at) or len([h for h in have if h]) <= len(want):
            continue
        kept = block.strip()
        return sentence.index(kept, run.end), kept
    return None


#: a line of a printed traceback above its exception's line: its header, a frame, the carets under a code line
TRACEBACK_LINE = re.compile(r"[ \t]*(?:Traceback \(most recent call last\):|" + FRAME.pattern + r".*|[\^~ \t]*[\^~][\^~ \t]*)$")


#: where Node (and Deno, ts-node) prints an uncaught error: the file and line, its code line and a caret under it
JS_PLACE = re.compile(r"(?:file://)?/\S+\.(?:[cm]?[jt]s|jsx|tsx):\d+")
CARET = re.compile(r"\^+~*")


def _traceback_above(sentence: str, start: int) -> int:
    """Where the printed traceback over an exception's line starting at `start` begins: its frames, the code
    lines under them and their carets, line by line upwards (a terminal's text or a pane's capture gives them
    unquoted, its line breaks real or written as '↵'; the frame names the file and the code the help reads);
    `start` when there is none."""
    breaks = [0, *(m.end() for m in re.finditer(r"\n|" + WRITTEN_BREAK.pattern, sentence[:start]))]
    before = sentence[breaks[-1]:start]
    if before.strip():
        # words before the message on its own line: a sentence's, or a traceback flattened onto the line (a
        # field's text: 'text=File "x.py", line 2 if x > 3 ^ SyntaxError: …'), its frame then the start
        frame = FRAME.search(before)
        return breaks[-1] + frame.start() if frame is not None and not SAYS.search(before[frame.end():]) else start
    lines = [(a, sentence[a:b].rstrip("\n ⏎↵")) for a, b in zip(breaks, breaks[1:], strict=False)]
    taken, framed = start, False
    for i in range(len(lines) - 1, -1, -1):
        at, line = lines[i]
        prefixed = FRAME.search(line)
        if JS_PLACE.match(line.strip()):  # Node's place of the error, over its code line and caret: all of it
            return at
        if TRACEBACK_LINE.match(line):
            framed = framed or prefixed is not None
        elif prefixed is not None:  # a frame after a label or a log's prefix ('PROBLEMS ⓧ File "…", line 9')
            return at + prefixed.start()
        elif not line.strip() and i == len(lines) - 1 and i > 0 and CARET.fullmatch(lines[i - 1][1].strip()):
            continue  # Node's blank line between the caret and the exception's line
        elif not (line.strip() and i > 0 and (FRAME.search(lines[i - 1][1]) or JS_PLACE.match(lines[i - 1][1].strip()))):
            break  # not the code a frame (or Node's place) prints under it
        taken = at
    return taken if framed else start


#: a quoted text that is an error message's line by its form, wherever it is quoted (pasted into a search box as
#: well): an exception's name, a program's or file's name and a colon before an error word, an error word first
MESSAGE_LINE = re.compile(r"^(?:[\w.$]*(?:Error|Exception)(?:\[\w+\])?:|Exception in thread |(?:[\w./+-]+(?::\d+)*: )?"
                          r"(?:error|fatal|ERROR|FATAL|E|Error)(?:\[\w+\]| \d+(?: \(\w+\))?)?:|[\w.-]+: \*\*\* |"
                          r"npm (?:ERR!|error) |Traceback \()")


def in_command_line(sentence: str, at: int) -> bool:
    """Whether `at` is inside the command line typed after a shell's prompt: a quoted argument there (grep's
    pattern 'error|failed', psql's query) is the command's, no message's piece."""
    return any(run.at <= at < run.at + len(run.command) for run in prompt_runs(sentence))


def _piece(sentence: str, q: Quoted) -> str | None:
    """Whether the quote `q` can be a piece of an error message: 'error' when it names one by itself, 'line' when
    only the words before it say it is a line of one, None when it is something else (an address, a command run,
    a search, a typed line). An error message's line by its form is one even pasted into a search box."""
    before = sentence[max(0, q.start - 60):q.start]
    if URL.fullmatch(q.text) or RUN_CUE.search(before) or in_command_line(sentence, q.start):
        return None
    if NOT_SAID.search(before):  # pasted into a search box: a message's line, or a command and its output
        glued = split_run(q.text)
        return "error" if (glued or MESSAGE_LINE.match(q.text)) and KEY_LINE.search(q.text) else None
    if ERROR_HINT.search(q.text) or KEY_LINE.search(q.text) or TRACEBACK_PIECE.match(q.text):
        return "error"
    if (said_by := re.match(r"([a-z][\w.+-]*): \S", q.text)) and said_by[1] in PROGRAMS and diagnosed(q.text):
        return "error"  # a program's own line a diagnosis knows, with no error word ('go: updates to go.mod needed')
    if RAN_BEFORE.search(before):
        return None  # the command whose output it is ("Output of `npx tsc`:")
    ranged = any(m.start("text") - 1 == q.start or m.end() - 1 == q.start for m in RANGE.finditer(sentence))
    return "line" if LINE_CUE.search(before) or ranged else None


#: words of a sentence saying something was run or printed ("after `make` I get …", "my script says …")
SAYS = re.compile(r"\b(?:gets?|got|getting|says?|said|saying|shows?|showed|showing|prints?|printed|reads?|returns?|"
                  r"returned|throws?|threw|ran|runs?|running|after|when)\b", re.I)


def _unwrapped(q: Quoted) -> Quoted:
    """A quote whose text is wholly one quote (a search for '"ModuleNotFoundError: …"') as the quote inside."""
    inner = quotes(q.text)
    while len(inner) == 1 and inner[0].start == 0 and inner[0].end == len(q.text):
        q = Quoted(q.start, q.end, inner[0].text)
        inner = quotes(q.text)
    return q


def _prose(text: str) -> bool:
    """A quote that is a sentence quoting others (a chat message: "after `go get x` I get 'go: go.mod file not
    found …'"), not a message's line: outside its own quotes, words saying what was run or printed and no error."""
    inner = quotes(text)
    if not inner or TRACEBACK_PIECE.match(text) or MESSAGE_LINE.match(text):
        return False
    bounds = [0, *(x for q in inner for x in (q.start, q.end)), len(text)]
    outside = " ".join(text[bounds[i]:bounds[i + 1]] for i in range(0, len(bounds), 2))
    return SAYS.search(outside) is not None and not (ERROR_HINT.search(outside) or KEY_LINE.search(outside))


def _printed_lines(text: str) -> list[str]:
    """A piece's lines, stripped as `as_printed` takes them, but a caret line under a code line keeps its column
    relative to that code line, which `as_printed` indents by four, so the help finds what the carets point at
    (a comma's place in 'print("a" b)')."""
    raw = text.splitlines()
    out = [ln.strip() for ln in raw]
    for i in range(1, len(raw)):
        if CARETS.match(raw[i]) and raw[i - 1].strip() and not CARETS.match(raw[i - 1]):
            column = len(raw[i]) - len(raw[i].lstrip()) - (len(raw[i - 1]) - len(raw[i - 1].lstrip()))
            out[i] = " " * (4 + max(0, column)) + out[i]
    return out


def said_errors(sentence: str) -> list[Said]:
    """The error messages a sentence quotes or states, each as the lines it gives of it, whatever the wording:
    our own sentence for a copied error (one message each), else every piece of an error message in the sentence
    (its quoted lines, nested and typographic quotes read whole, the first and last lines, the whole message, or
    the message unquoted after "output:" or "got", a prompt's command line's output, a command and its output
    glued in one quote, the message a quoted sentence quotes), in order, as one message."""
    own = _own(sentence)
    said = [s for _, s in own]
    spans = [span for span, _ in own]
    found = [q for q in quotes(sentence) if not any(a <= q.start < b for a, b in spans)]
    loose = unquoted_error(sentence, found)
    runs = [run for run in prompt_runs(sentence) if run.output]
    if loose is not None:  # the longer of a prompt line's output and the message stated from within it
        runs = [r for r in runs if not r.output_at <= loose[0] < r.end < loose[0] + len(loose[1])]
    if loose is not None and any(a <= loose[0] < b for a, b in [*spans, *((r.output_at, r.end) for r in runs)]):
        loose = None  # inside our own sentence's quotes, or a prompt line's output read whole below
    pieces: list[tuple[int, str, str]] = []
    for q in found:
        if loose is not None and loose[0] <= q.start < loose[0] + len(loose[1]):
            continue  # a name quoted inside the unquoted message ("No module named 'numpyy'")
        if _prose(q.text):
            pieces += [(q.start, "error", s.text) for s in said_errors(q.text) if not s.own]
            continue
        q = _unwrapped(q)
        kind = _piece(sentence, q)
        if kind is not None:
            glued = split_run(q.text)
            pieces.append((q.start, kind, glued[1] if glued else q.text))
    if loose is not None:
        pieces.append((loose[0], "error", loose[1]))
    for run in runs:
        if not any(a <= run.at < b for a, b in [*spans, *((q.start, q.end) for q in found)]) \
                and not any(start == run.output_at for start, _, _ in pieces):
            pieces.append((run.output_at, "error", run.output))
    pieces.sort()
    if any(kind == "error" for _, kind, _ in pieces):
        lines = [ln for _, _, text in pieces for ln in _printed_lines(_breaks(text)) if ln.strip()]
        said.append(Said(as_printed(lines), tuple(start for start, _, _ in pieces),
                         unquoted=(loose[0], loose[0] + len(loose[1])) if loose is not None else None))
    return said


#: a command line stated without quotes after words saying it was run ("I ran python3 fetch.py and got …",
#: "Running psql -U postgres fails with: …"): its words up to where the sentence goes on
#: ("get" and "show" are not among them: they are subcommands, 'go get x', 'kubectl get pods', 'git show')
_GOES_ON = (r"and|but|then|in|on|inside|from|fails?|failed|exited|exits|gives?|gave|prints?|printed|shows|showed|says?|said|"
            r"does|doesn't|didn't|won't|isn't|"
            r"returns?|returned|got|gets|results?|which|that|only|to|with|errors?|crashes|crashed|answers?|answered|"
            r"complains?|complained|reports?|reported|outputs?|keeps?|still|always|now|again|twice|once|it")
#: a command line's words, up to where the sentence goes on (a word saying what it did, a comma, a colon)
#: (a quoted argument is one word, its commas and colons its own: psql's -c 'SELECT id, total FROM orders;')
_LINE_WORDS = (rf"(?:[ \t](?![ \t])(?!(?:{_GOES_ON})\b|(?:->|→|=>|»|\$|·|—)(?:\s|$))"
               r"(?:(?<![\w'])'[^'\n]*'(?![\w'])|[^\s,;:])+(?::[^\s,;:]+)*)*")
UNQUOTED_RUN = re.compile(
    r"\b(?:ran|runs?|running|typed|types|typing|entered|enters|executed|executes|executing|try|tried|tries|trying)\s+"
    r"(?P<line>(?:sudo\s+)?(?:\.{0,2}/)?(?!(?:into|the|a|an|it|this|that|out|up|across|over|some|to|my|his|her|is|was|uh|um|erm|"
    rf"their|our|its|command|commands|again|fine|in|on|at|with|without|and|{_GOES_ON})\b)[a-z][\w.+/-]*{_LINE_WORDS})",
    re.I)
#: a command line after a verb that runs it only in some writers' words ("I try to make go get x but …", "after i
#: write curl -v https://…:", "using pip install x", "the command entered is cargo build"): taken for a known
#: program with at least one argument
LOOSE_RUN = re.compile(
    r"(?:\b(?:make|makes|made|making|do|does|did|doing|write|writes|wrote|writing|use|uses|used|using|call|calls|type|"
    r"called|launch(?:es|ed|ing)?|start(?:s|ed|ing)?|execute|exec|issue[sd]?|input|put|send|sent|hit|give|gave)\s+"
    r"(?:the (?:command )?)?|"
    # a description's ('The prompt shows the command pyhton3 manage.py', 'The last command entered is cargo build')
    r"\b[Tt]he (?:last |first |)command(?: (?:entered|typed|run|used|shown))?(?: is| was)?:?\s+)"
    rf"(?P<line>(?:sudo\s+)?(?P<program>[a-z][\w.+-]*){_LINE_WORDS})")
#: a field's label before the command line run, in a ticket, a task list or a log ("Steps: node server.js",
#: "Task: git push", "HISTORY: gti status", "exec: git switch main")
RUN_LABEL = "|".join([*(f"(?<=\\b{w}: )" for label in ("steps", "step", "task", "command", "cmd", "history", "exec", "run")
                       for w in (label, label.capitalize(), label.upper())), r"(?<=\b[Cc]ommand was )"])
#: a known program's command line said bare in a sentence, then a verb saying what it printed ('… 😅 psql -U app -c
#: "SELECT …;" gives me "ERROR: …"'): its words, quoted arguments whole, up to the verb
RUN_THEN_OUTPUT = re.compile(r"(?:^|(?<=\s))(?P<line>(?:sudo[ \t]+)?(?P<program>[a-z][\w.+-]*)(?:[ \t](?![ \t])"
                             rf"(?!(?:{_GOES_ON})\b|(?:->|→|=>|»|\$|·|—)(?:\s|$))"
                             # (a word ending a sentence ends it: 'in a bash shell. The output says …')
                             r"(?:'[^'\n]*'|\"[^\"\n]*\"|\.{1,2}(?=\s)|[^\s'\"]*[^\s'\".!?,;]))+)[ \t]+(?:gives?|gave|says?|"
                             r"said|returns?|returned|"
                             r"prints?|printed|shows?|showed|fails?|failed|errors?(?: out)?|throws?|threw|spits? out|"
                             r"outputs?|complains?)\b")
#: the program a shell's message says it does not know ('zsh: command not found: gti', 'bash: gti: command not
#: found'): a command line starting with it is the one run, though it is no known program
NOT_FOUND = re.compile(r"command not found: (?P<a>[\w.+-]+)|(?P<b>[\w.+-]+): command not found(?!:)|[Cc]ommand '(?P<c>[\w.+-]+)' "
                       r"not found")
#: a command line a clause starts with, unquoted ("Help! cp photos /media/usb/ errors out: …", "sudo systemctl
#: start x » Failed …"): a known program's name first (`PROGRAMS`)
CLAUSE_RUN = re.compile(rf"(?:^|(?<=[.!?;]\s)|(?<=\bso\s)|(?<=:[ \t])|(?<=\|[ \t])|(?<=\|[ \t]{{2}})|{RUN_LABEL})(?P<line>(?:(?:sudo|[A-Z_][A-Z0-9_]*=\S*)\s+)*"
                        rf"(?P<program>[a-z][\w.+-]*){_LINE_WORDS})", re.M)


#: a command line after a shell's prompt ("$ make instal -> make: *** No rule…", "$ psql" on a line of its own),
#: up to an arrow, a line break, or the error line printed after it on the same line
PROMPT_LINE = re.compile(r"(?:^|(?<=[\s:]))\$ (?P<line>[^\n]+?)(?=\s*(?:->|→|=>|\n|$)|\s+(?:[\w./-]+:\d+:|"
                         r"[\w.-]+: (?:error|fatal)|Traceback\b))", re.M)
#: a shell's prompt and the rest of its line: '$ ', 'dev@box:~/app$ ', '# ' and '> ' (before a known program, as after
#: PowerShell's 'PS C:\src> ' and cmd.exe's 'C:\Users\ana>', which may have no space after it), up to
#: an arrow, a line break or an ellipsis that leaves out the screen's rest
PROMPT = re.compile(r"(?:^|(?<=[\s:(\]]))(?:[\w.-]+@[\w.-]+:[^\s$#]*[$#]|[\w.-]+@[\w.-]+ [^\s%]+ %|\$|"
                    r"(?P<other>#|>|PS [^>\n]{0,60}>|[A-Z]:\\[^>\n]{0,80}>))(?:[ \t]+|(?<=[\w\\]>)(?=\S))"
                    r"(?P<line>[^\n]+?)(?=[ \t]*(?:->|→|=>|\n|$|\.\.\.(?:\s|$)|…))", re.M)


#: a line a person says or writes: four plain words first ('it just comes back with …', 'So this is the part …')
SPOKEN = re.compile(r"(?:[A-Za-z’']+,?[ \t]+){4}")
#: a program's numbered failure ('curl: (60) SSL certificate problem: …')
CURL_CODE = re.compile(r"[a-z][\w.+-]*: \(\d+\) ")
#: a shell's prompt waiting on the lines under a message (nothing typed at it yet): the screen's, not the message's
IDLE_PROMPT = re.compile(r"(?:\n[ \t]*(?:[\w.-]+@[\w.-]+(?::[^\s$#]*)?[$#%]|[\w.-]+@[\w.-]+ [^\s%]+ %|\$|❯|"
                         r"➜ +[\w.~/-]+(?: git:\([^)\n]*\))?)[ \t]*)+$|" + r"[ \t]+" + r"[\w.-]+@[\w.-]+:[^\s$#]*[$#][ \t]*$")
#: (the last: a screen read onto one line, the prompt waiting after the message on the same line: 'No module named
#: 'cv2' dev@ws:~/vision$')


@dataclass(frozen=True)
class Run:
    """A command line after a shell's prompt, and the output run together with it on its line (when any)."""

    at: int  # where the command line starts
    end: int  # where the line ends
    command: str
    output_at: int
    output: str


def prompt_runs(sentence: str) -> list[Run]:
    """Each shell prompt's command line in a sentence (screen text: '$ git push -u origin main fatal: 'origin'
    does not appear to be a git repository'), its output split off when the same line runs on into it."""
    out = []
    for m in PROMPT.finditer(sentence):
        line, at = m["line"].rstrip(), m.start("line")
        split = split_run(line, known=m["other"] is not None)
        if split is not None:
            head, tail = split
            out.append(Run(at, m.end("line"), head, at + line.index(tail, len(head)), tail))
        elif m["other"] is None or (line.split() or [""])[0].rsplit("/", 1)[-1] in PROGRAMS:
            old = PROMPT_LINE.match(sentence, m.start("line") - 2) if m["other"] is None else None
            command = old["line"] if old is not None else line
            out.append(Run(at, m.end("line"), command, at + len(command), ""))
    return out


def _end_stop(line: str) -> str:
    """A command line without the full stop of the sentence it ends ('… ran make.'), keeping a lone '.' argument
    ('go run .'), nor the next sentence run on after it ('… manage.py runserver. Under that …')."""
    return re.sub(r"(?<=[^\s.])\.+$", "", re.split(r"(?<=[^\s.])\.[ \t]+(?=[A-Z][a-z])", line.strip())[0])


def _program_words(line: str) -> list[str]:
    """A command line's words from its program on (past `sudo` and a variable's assignment)."""
    words = line.split()
    while len(words) > 1 and COMMAND_PREFIX.match(words[0]):
        words = words[1:]
    return words


def program_of(line: str) -> str:
    """The program a command line runs: its first word past `sudo` and an assignment, without its folder."""
    words = _program_words(line)
    return words[0].rsplit("/", 1)[-1] if words else ""


def known_programs(sentence: str) -> frozenset[str]:
    """The programs whose command lines a sentence may hold: the known ones and any the shell says it does not
    know ('bash: gti: command not found')."""
    return PROGRAMS | {m["a"] or m["b"] or m["c"] for m in NOT_FOUND.finditer(sentence)}


#: an argument only a command line has: an option, a path, a file's name, an assignment
ARGUMENT = re.compile(r"^(?:-{1,2}\w|[./~]|\S+\.\w+$|\w+=)")


def bare_command(line: str, known: frozenset[str]) -> str | None:
    """`line` when it is a command line and nothing else (no error's words): a typed line a screen reader or a
    pane's capture gives bare, without its prompt. Its program is a known one, or its words are a command's (an
    option, a path or a file among them, none of the small words a sentence needs: 'hugo server -D')."""
    line = line.strip()
    words = _program_words(line)
    if not words or not COMMAND_LINE.match(line) or ERROR_HINT.search(line) or KEY_LINE.search(line) \
            or MESSAGE_LINE.match(line):
        return None
    if words[0].rsplit("/", 1)[-1] not in known and not (
            len(words) <= 8 and any(ARGUMENT.match(w) for w in words[1:])
            and not any(SENTENCE_WORD.match(w) for w in words)):
        return None
    return _end_stop(line)


def _bare_run(sentence: str, message_at: int, known: frozenset[str]) -> str | None:
    """The line just above a message stated unquoted, when it is a command line and nothing else
    (`bare_command`): the command that printed the message."""
    line_start = _line_begin(sentence, message_at)
    if sentence[line_start:message_at].strip() or line_start == 0:
        return None  # the message does not start its line, or no line is above it
    return bare_command(sentence[sentence.rfind("\n", 0, line_start - 1) + 1:line_start - 1], known)


def _overlapping(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """Every match of `pattern` in `text`, each from the character after the last one's start: a clause's words
    that are no command line ('command was …' after a label) do not hide the command line inside them."""
    at = 0
    while (m := pattern.search(text, at)) is not None:
        yield m
        at = m.start() + 1


#: build tools that run a command of the project's for one of their steps (Maven's exec plugin, Gradle's Exec
#: task, Ant's exec, a CMake or Meson custom target under Ninja), and Windows's way into a Linux shell (wsl.exe)
BUILD_WRAPPERS = frozenset("mvn mvnw gradle gradlew ant ninja meson cmake bazel sbt wsl wsl.exe".split())
#: the command line such a step hands a shell, as the tool prints it: "/bin/sh -c 'gti status'", Ant's
#: "Executing 'sh' with arguments: '-c' 'npm install x'" (each argument on an '[exec]' line of its own)
RELAYED = re.compile(r"\b(?:ba|z|da)?sh['\"]?(?:[ \t]+with arguments:)?\s*(?:\[exec\][ \t]*)?['\"]?-[a-z]?c['\"]?\s*"
                     r"(?:\[exec\][ \t]*)?(?P<q>['\"])(?P<line>[^\n'\"]+?)(?P=q)(?=[\s.,;)]|$)|"
                     # Gradle's Exec task, with --info: "Starting process 'command 'bundle''. Working directory: … Command:
                     # bundle install"
                     r"Starting process 'command '[^'\n]+''\. Working directory: \S+ Command: (?P<argv>[^\n]+)")


#: a script handed a whole command line to run as its one argument ("./build.sh 'node sync.mjs'", "bash
#: tools/wrap.sh 'git checkout a1b2c3d'"): the command line is the one run
SCRIPT_HANDED = re.compile(r"^(?:(?:ba|z)?sh[ \t]+)?(?:\./|[\w./-]+/)?[\w.-]+\.sh[ \t]+(?P<q>['\"])(?P<line>[^'\"\n]+)(?P=q)$")


#: ssh's options that take a value ('-p 2222', '-i key', '-J jump')
SSH_VALUED = frozenset("-b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w".split())


#: wsl.exe's options that take a value ('--cd ~', '-d Ubuntu', '-u root')
WSL_VALUED = frozenset("--cd -d --distribution -u --user".split())


def _handed_on(words: list[str], valued: frozenset[str]) -> str | None:
    """The command line a program runs for the person, past its own options (those in `valued` with their
    value) and a '--', '-e' or '--exec': 'wsl --cd ~ npm install x' runs 'npm install x'. None when none is left."""
    i = 1
    while i < len(words) and words[i].startswith("-") and words[i] not in ("--", "-e", "--exec"):
        i += 2 if words[i] in valued else 1
    rest = words[i + 1:] if words[i:i + 1] in (["--"], ["-e"], ["--exec"]) else words[i:]
    return " ".join(rest).strip("'\"") or None


def _remote(line: str) -> str | None:
    """The command an ssh line runs on the other machine ('ssh dev@box -- gti log' runs 'gti log'), or None when
    it only logs in."""
    words = line.split()
    i = 1
    while i < len(words) and words[i].startswith("-") and words[i] != "--":
        i += 2 if words[i] in SSH_VALUED else 1
    return _handed_on(words[i:], frozenset())  # past the machine's name


def unquoted_command(sentence: str) -> str | None:
    """The command line a sentence says was run without quoting it, outside any quote and any error message it
    states: what the error came from, as a typed line is live. Also a prompt's command line, a command glued to
    its output in one quote, and the command a quoted sentence names ("after `go get x` I get …"). A build tool's
    command line that ran a shell's ('mvn verify', then "sh -c 'npm ci'"): the command it ran, whose output the
    message is."""
    line = _unquoted_command(sentence)
    if line is not None and (handed := SCRIPT_HANDED.match(line)) and program_of(handed["line"]) in PROGRAMS:
        return handed["line"]
    if line is not None and program_of(line) == "ssh":
        return _remote(line) or line
    if line is not None and program_of(line) in BUILD_WRAPPERS:
        relayed = [ran for m in RELAYED.finditer(sentence) if COMMAND_LINE.match(ran := (m["line"] or m["argv"]).strip())]
        if relayed:
            return relayed[-1]
        if program_of(line) in ("wsl", "wsl.exe"):
            return _handed_on(line.split(), WSL_VALUED) or line
    return line


#: a program that shows a file's text ('cat out.log', 'tail -n 50 build.log')
VIEWERS = frozenset("cat tail head less more bat".split())
#: a command line's output sent to a file ('> out.log', '&>> run.log', '| tee build.log'), and a job sent off
REDIRECTED = re.compile(r"\s*(?:\d?>>?|&>>?|\|\s*tee(?:\s+-a)?)\s*(?P<file>[^\s&|;>]+)|\s+\d>&\d|\s*&\s*$")


def _writer_of(command: str, earlier: list[Run]) -> str:
    """The command whose output a viewer shows ('cat out.log' after 'nohup gti log > out.log 2>&1 &': the output
    is gti's), without its redirections; else the command itself."""
    words = command.split()
    if program_of(command) not in VIEWERS or len(words) < 2:
        return command
    for run in earlier:
        if run.command != command and any(m["file"] == words[-1] for m in REDIRECTED.finditer(run.command)):
            return REDIRECTED.sub("", run.command).strip()
    return command


def _unquoted_command(sentence: str) -> str | None:
    """`unquoted_command` as the sentence says it."""
    found = quotes(sentence)
    loose = unquoted_error(sentence, found)
    outside = [(q.start, q.end) for q in found] + ([(loose[0], loose[0] + len(loose[1]))] if loose else [])
    every = runs = prompt_runs(sentence)
    if loose is not None and [r for r in runs if r.at < loose[0]]:
        # a pane's or a log's several prompts ('$ clear', '$ gti status', its message): the last one before the
        # message is the one it came from
        runs = [r for r in runs if r.at < loose[0]][::-1]
    for run in runs:  # outside any quote but a fenced block (a page's shell session)
        if not any(a <= run.at - 2 < b for a, b in [(q.start, q.end) for q in found if not FENCE.match(sentence, q.start)]):
            return _end_stop(_writer_of(run.command, every[::-1]))
    known = known_programs(sentence)
    ran = [*UNQUOTED_RUN.finditer(sentence),
           *(m for m in _overlapping(CLAUSE_RUN, sentence) if m["program"] in known),
           *(m for m in _overlapping(RUN_THEN_OUTPUT, sentence) if m["program"] in known and len(m["line"].split()) > 1),
           *(m for m in _overlapping(LOOSE_RUN, sentence) if m["program"] in known
             and (len(m["line"].split()) > 1 or m.group().lower().startswith("the")))]
    stated = [m for m in sorted(ran, key=lambda m: m.start("line"))
              if not any(a <= m.start("line") < b for a, b in outside)]
    # of several commands said to be run, the last one before the message is the one it came from (a cheat
    # sheet's lines, then its note: "`gti status` -> bash: gti: command not found")
    earlier = [m for m in stated if loose is not None and m.start("line") < loose[0]]
    if earlier or stated:
        line = earlier[-1]["line"] if earlier else stated[0]["line"]
        if len(line.split()) == 1:  # a program's bare name ('gti exited with code 127'): its whole line said before
            line = next((m["line"] for m in reversed(earlier) if m["line"].split()[0] == line
                         and len(m["line"].split()) > 1), line)
        return _end_stop(line)
    if loose is not None and (bare := _bare_run(sentence, loose[0], known)) is not None:
        return bare
    lines = [q.text for q in found if _known_line(sentence, q, known)]
    for q in found:
        before = sentence[max(0, q.start - 60):q.start]
        glued = split_run(q.text)
        if glued is not None and not RUN_CUE.search(before) and not (lines and glued[0] not in lines):
            return glued[0]  # (a command quoted alone before it is the one run: 'bin/rails aborted!' is output)
        if RAN_BEFORE.search(before) and COMMAND_LINE.match(q.text) \
                and q.text.split()[0].rsplit("/", 1)[-1] in PROGRAMS:
            return q.text
        if _prose(q.text):
            inner = quotes(q.text)
            named = next((i.text for i in inner if (RUN_CUE.search(q.text[:i.start]) or RAN_BEFORE.search(
                q.text[:i.start])) and COMMAND_LINE.match(i.text)), None)
            line = named or unquoted_command(q.text)
            if line:
                return line
    # a quoted command line of a known program that is no piece of the message ("Why does 'psql -U app' keep giving
    # me '…'?", "types 'pip install x' and presses 'Enter'")
    return lines[0] if lines else _missing_run(sentence)


def _missing_run(sentence: str) -> str | None:
    """The command line of a program the shell says it cannot find, where the sentence writes it in its own words
    ('Help pls gti status at 1:29:32 shows: bash: gti: command not found'): the name, then its arguments."""
    for m in NOT_FOUND.finditer(sentence):
        name = m["a"] or m["b"] or m["c"]
        for run in re.finditer(rf"(?<![\w./:'-]){re.escape(name)}{_LINE_WORDS}", sentence):
            line = re.split(r" at \d| \(", run.group())[0].rstrip(".")  # ('… at 1:29:32', a video's time)
            if len(line.split()) > 1 and not (m.start() <= run.start() < m.end()):
                return line
    return None


def _known_line(sentence: str, q: Quoted, known: frozenset[str]) -> bool:
    """Whether a quote is a command line of a known program, no piece of the message and no error's words."""
    words = _program_words(q.text)
    return bool(words) and COMMAND_LINE.match(" ".join(words)) is not None and words[0].rsplit("/", 1)[-1] in known \
        and _piece(sentence, q) is None and not ERROR_HINT.search(q.text)


def message_candidates(sentence: str) -> list[str]:
    """The texts of a sentence that may be a message a program printed though no error word is in them (git's
    "Your branch is behind …", cp's "-r not specified; omitting directory …"): its quotes (the output of a command
    glued to it), the text after a colon, an arrow or a line break, and a prompt line's output. A diagnosis that
    knows one as an error makes it the error, as the live path reads a copy with no error word."""
    found = quotes(sentence)
    out = []
    for q in found:
        before = sentence[max(0, q.start - 60):q.start]
        if URL.fullmatch(q.text) or (RUN_CUE.search(before) and COMMAND_LINE.match(q.text)) or len(q.text) < 12:
            continue
        glued = split_run(q.text, any_output=True)
        out.append(glued[1] if glued else q.text)
    inside = [(q.start, q.end) for q in found]
    for cue in UNQUOTED_CUE.finditer(sentence):
        if SET_OFF.search(cue.group()) is None and cue.group().strip() != "" or any(a <= cue.start() < b for a, b in inside):
            continue
        end = next(m.start() for m in UNQUOTED_END.finditer(sentence, cue.end()) if m.start() >= cue.end())
        line_end = sentence.find("\n", cue.end())
        # to where the sentence goes on, to the line's end (a message may go on after a comma: "Your Ruby version
        # is 3.0.2, but your Gemfile specified 3.2.2"), and to the text's end (git's advice runs over lines)
        for stop in (end, len(sentence) if line_end < 0 else line_end, len(sentence)):
            text = sentence[cue.end():stop].strip(" .…\n")
            if len(text) >= 12:
                out.append(text)
    for line in re.finditer(r"[^\n]+", sentence):
        glued = split_run(line.group().split("$ ", 1)[-1], any_output=True, known="$ " in line.group())
        if glued:
            out.append(glued[1])
    return list(dict.fromkeys(out))
