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

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlsplit

from proactive.watcher.episodes.error_lines import quoted_in

ERROR, QUERY, FILE, PROJECT, PAGE, SITE, DOCUMENT, COMMAND, CHAT, TOPIC = (
    "error", "query", "file", "project", "page", "site", "document", "command", "chat", "topic")
SEARCHING, READING, CODING, DEBUGGING, WRITING, CHATTING, NOISE = (
    "searching", "reading", "coding", "debugging", "writing", "chatting", "noise")
RECENT = 3  # "right now" is the last three events
#: the separators of a title's parts ('How to X - Stack Overflow'): the first part names the page
TITLE_SPLIT = re.compile(r"\s+[-–—|·]\s+")

QUOTED = re.compile(r"'([^']{2,}?)'(?=[\s.,;:!?)。，；：！？）]|$)|\"([^\"]{2,})\"|‘([^’]{2,})’|“([^”]{2,})”|「([^」]{2,})」|"
                    r"《([^》]{2,})》|`([^`]{2,})`")
CODE_EXT = ("py|rb|js|jsx|ts|tsx|java|kt|php|c|cc|cpp|h|hpp|go|rs|swift|cs|scala|sh|sql|html|css|json|yaml|yml|"
            "toml|ipynb|vue|r|m|lua|pl")
DOC_EXT = "md|txt|docx?|odt|rtf|tex|pptx?|xlsx?|csv|pdf|pages|key"
FILE_NAME = re.compile(rf"(?<![\w/.-])((?:[\w.-]+/)*[\w-][\w.-]*\.(?:{CODE_EXT}|{DOC_EXT}))(?![\w])", re.I)
DOC_FILE = re.compile(rf"\.(?:{DOC_EXT})$", re.I)
COPIED_ERROR = re.compile(r"\berror message starting '(?P<start>.+?)'(?P<saying>(?:, saying '.+?')*)"
                          r"(?: and ending '(?P<end>.+?)')?"
                          r"(?= from [^']*?\.(?: The user\b|$)| in [^']*?\.(?: The user\b|$)|\.?$)")
#: our own sentence for a typed line ("The user types 'psql -c 'SELECT 1;'' and presses Enter in the terminal."),
#: read whole like a copied error's: a command often quotes its own arguments
TYPED_LINE = re.compile(r"\btypes '(?P<typed>.+?)'(?= and presses Enter\b| in [^']*?\.(?: The user\b|$))")
ERROR_TEXT = re.compile(r"Traceback \(most recent call last\)|\b\w*(?:Error|Exception|Warning)\b|\berror\b|"
                        r"\bfailed\b|\bfatal\b|\bpanic\b|\bsegmentation fault\b|\bnot found\b|\bundefined\b|"
                        r"错误|报错|异常", re.I)
SEARCH_WORD = re.compile(r"\bsearch(?:es|ed|ing)?\b(?![.\w])|\bgoogles?\b.*\bfor\b|\bquery\b|搜索|查找|检索", re.I)
SEARCH_TITLE = re.compile(r"^(.+?)\s*[-–—|]\s*(?:Google\s*(?:搜索|Search)|Bing|搜索|百度搜索|Search|"
                          r"DuckDuckGo)\s*$", re.I)
TYPED = re.compile(r"\b(?:types?|typed|typing|inputs?|input text|enters?|输入)\s*(?:text\s*)?"
                   r"(?:(?:including|such as|like|containing)\s*)?:?\s*$", re.I)
TERMINAL = re.compile(r"\bterminal\b|\bconsole\b|\bshell\b|\bbash\b|\bzsh\b|\bpowershell\b|\bcmd\.exe\b|终端", re.I)
CHAT_NAMES = re.compile(r"\b(ChatGPT|DeepSeek|Kimi(?:\.ai)?|Claude|Copilot|Gemini|Perplexity|Mistral|Qwen|"
                        r"Doubao|豆包|文心一言|通义千问|智谱清言)\b", re.I)
SITE_PATTERNS = [
    re.compile(r"\bon the ([A-Z][\w.]*(?: [A-Z][\w.]*){0,3}) (?:website|site|page|web page)\b"),
    re.compile(r"\b(?:from|on) (?:the )?([A-Z][\w.]*(?: [A-Z][\w.]*){0,4}) (?:Developer Community|Community|"
               r"forum|blog|documentation|docs)\b"),
    re.compile(r"\bon ((?:[a-z0-9-]+\.)+[a-z]{2,})\b"),
    re.compile(r"\b(Stack Overflow|GitHub|GeeksforGeeks|CSDN|MDN|W3Schools|Wikipedia|Medium|Reddit|YouTube|"
               r"Zhihu|知乎|简书|少数派|IT之家)\b"),
]
PROJECT_PATTERNS = [
    re.compile(r"\bproject (?:named |called )?['\"‘“]([^'\"’”]{2,60})['\"’”]", re.I),
    re.compile(r"\bwithin an? ([A-Z]\w+) project\b"),
    re.compile(r"项目\s*['\"‘“「]([^'\"’”」]{2,60})"),
]
PAGE_CONTEXT = re.compile(r"\b(?:page|article|titled?|website|webpage|discussion|post|tutorial|guide|visits?|"
                          r"visited|opens?|opened|reads?|reading|views?|viewed|reviews?|content on|documentation|"
                          r"about)\b|网页|文章|页面|标题", re.I)
READ_WORD = re.compile(r"\b(?:reads?|reading|reviews?|reviewing|views?|viewing|visits?|visited|browses?|browsed|"
                       r"browsing|scroll\w*\s+(?:through|and views?)|article|discussion|tutorial|documentation|"
                       r"explor\w+)\b|阅读|浏览|查看", re.I)
WRITE_WORD = re.compile(r"\b(?:notes?|essay|report|draft|paragraph|document|markdown|writes?|writing|wrote|"
                        r"reflection|insights?|letter|reply)\b|写作|文档|笔记", re.I)
CODE_WORD = re.compile(r"\b(?:code|coding|function|method|class|implement\w*|programm\w*|Visual Studio Code|"
                       r"Code\.exe|VS ?Code|PyCharm|IntelliJ|Xcode|vim|emacs|IDE)\b|代码|编程", re.I)
TYPE_WORD = re.compile(r"\b(?:types?|typed|typing|writes?|wrote|edits?|edited|editing|inputs?|pastes?|pasted)\b|"
                       r"输入|编辑", re.I)
#: typed text that reads as a sentence of the document being written (the topic of a writing turn), not raw
#: keystrokes: three or more words with an English function word, or four or more Chinese characters. Pinyin
#: ("yuancheng gongzuo ruanjian", "tablianjie shouji") has no such words, so it is never taken for a topic.
PHRASE_WORD = re.compile(r"\b(?:the|to|of|and|for|with|how|what|why|is|are|in|on|about|from|by|can|should)\b", re.I)
PHRASE_CJK = re.compile(r"[\u4e00-\u9fff]{4,}")
KEY_NAME = re.compile(r"^(?:enter|return|shift|space|tab|esc|escape|backspace|delete|up|down|left|right|home|end|"
                      r"caps_lock|\w|f\d+|(?:ctrl|cmd|alt|shift|super|meta)(?:_[lr])?(?:\+\S+)*)$", re.I)
BLANK_TITLES = {"新建标签页", "new tab", "新标签页", "untitled", "google", "bing"}

#: top-level domains a bare host ('github.com', 'blog.csdn.net/…') is recognised by: with any other ending, a dotted
#: name is code or a file ('os.path', 'array.join', 'Node.js'), not a site
TLD = ("com|net|org|io|dev|app|ai|co|cn|edu|gov|info|me|xyz|top|site|tech|blog|wiki|so|cc|tv|us|uk|de|fr|jp|kr|ru|"
       "in|ca|au|nl|eu|ch|se|hk|tw|sg|biz|online|cloud|page|run")
HOST = rf"(?:[a-z0-9-]+\.)+(?:{TLD})(?![\w-])"
#: a web address, with a scheme, "www." or a host (a name with a known top-level domain, an IPv4 address,
#: localhost) and a path or port: never a page name, and the file-like end of its path ('main.html') is not a file
#: of the person's
URL = re.compile(rf"(?<![\w/.@-])(?:(?:https?|ftp|file)://[^\s'\"<>“”‘’()（）]+|www\.[^\s'\"<>“”‘’()（）]+|"
                 rf"(?:localhost|\d{{1,3}}(?:\.\d{{1,3}}){{3}}|{HOST})(?::\d{{2,5}})?/[^\s'\"<>“”‘’()（）]*|"
                 rf"(?:localhost|\d{{1,3}}(?:\.\d{{1,3}}){{3}}|{HOST}):\d{{2,5}}(?!\w))", re.I)
#: a bare domain ('github.com', 'www.baidu.com')
DOMAIN = re.compile(rf"^(?:www\.)?{HOST}(?::\d+)?/?$", re.I)
LOCAL_HOST = re.compile(r"^(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|"
                        r"172\.(?:1[6-9]|2\d|3[01])\.\d+\.\d+|[\w.-]+\.local|\[?::1\]?)$", re.I)

#: programming languages (and frameworks of one language) and the file extensions written in them: a query or
#: page naming one is not offered for a file in another ("Show example code for 'go 语言' to use in tools.py").
#: Data, kept small: a pattern (matched case-insensitively, not inside a longer word) -> extensions.
TECHNOLOGIES: dict[str, tuple[str, ...]] = {
    r"python\d?|django|flask|pandas|numpy|pytest|pip": ("py", "pyi", "pyx", "ipynb"),
    r"golang|go(?=\s*(?:语言|language|programming|lang\b|程序|代码|module))": ("go",),
    r"rust|cargo": ("rs",),
    r"java": ("java",),
    r"kotlin": ("kt", "kts"),
    r"javascript|js|node(?:\.?js)?|typescript|react(?:\.?js)?|vue(?:\.?js)?|jquery|npm": (
        "js", "jsx", "mjs", "cjs", "ts", "tsx", "vue", "svelte", "html", "htm"),
    r"c\+\+|cpp": ("cpp", "cc", "cxx", "hpp", "hh", "h"),
    r"c(?=\s*(?:语言|language|programming))": ("c", "h"),
    r"c#|csharp|\.net|dotnet": ("cs",),
    r"ruby|rails": ("rb", "erb"),
    r"php|laravel": ("php",),
    r"swift(?:ui)?": ("swift",),
    r"scala": ("scala", "sc"),
    r"lua": ("lua",),
    r"perl": ("pl", "pm"),
    r"bash|shell script|zsh": ("sh", "bash", "zsh"),
    r"matlab": ("m",),
    r"dart|flutter": ("dart",),
}
TECH_PATTERNS = [(re.compile(rf"(?<![\w+#.])(?:{k})(?![\w+#])", re.I), exts) for k, exts in TECHNOLOGIES.items()]
#: 'xx 语言' / 'xx language' names a programming language even when it is not in the table (it then fits no file)
LANGUAGE_NAMED = re.compile(r"(?<![\w+#.])([a-z][\w+#]*)\s*(?:语言|programming language)", re.I)

#: sites and brands a search for which is a way to go there (navigational), not a topic to summarise
NAVIGATIONAL = frozenset(name.strip() for name in """
github, gitlab, gitee, bitbucket, stackoverflow, stack overflow, youtube, gmail, google mail, outlook, hotmail, yahoo,
google, google translate, google maps, google drive, google docs, google scholar, translate, baidu, 百度, 百度翻译,
谷歌翻译, 有道, 有道翻译, bing, facebook, twitter, instagram, linkedin, reddit, wikipedia, 维基百科, amazon, taobao, 淘宝,
jd, 京东, tmall, 天猫, bilibili, b站, 哔哩哔哩, zhihu, 知乎, weibo, 微博, douyin, 抖音, tiktok, qq, qq邮箱, 163邮箱,
网易邮箱, 微信, wechat, csdn, 博客园, leetcode, 力扣, chatgpt, openai, deepseek, kimi, claude, gemini, 豆包, notion,
figma, slack, discord, zoom, whatsapp, telegram, netflix, spotify, twitch, npm, pypi, docker hub, 爱奇艺, 优酷,
腾讯视频, 网易云音乐, icloud, onedrive, dropbox
""".split(","))
NAVIGATION_WORDS = re.compile(r"\s*(?:log ?in|sign ?in|sign ?up|home ?page|website|site|official site|web|app|"
                              r"download|官网|官方网站|登录|登陆|首页|网页版|主页)$", re.I)


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


def _event(o: Any) -> str:
    return str(o.get("event", "")) if isinstance(o, dict) else str(o)


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
    for m in QUOTED.finditer(sentence):
        text = next(g for g in m.groups() if g is not None).strip()
        if text and not any(a <= m.start() < b for a, b in spans):
            out.append((m.start(), text))
    return sorted(out)


def _clean(text: str) -> str:
    return " ".join(text.split()).strip(" .,;:")


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
    found: list[Obj] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)

    def add(self, kind: str, text: str) -> None:
        text = _clean(text)
        if len(text) >= 2 and all((o.kind, o.text.lower()) != (kind, text.lower()) for o in self.found):
            self.found.append(Obj(kind, text, self.index))

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


def _named_below(r: Reading, q: Quote) -> tuple[str, str] | None:
    """A project, file or folder named again below (`_files`, `_projects`), or a bare path."""
    return SKIP if re.search(r"(?:project|file|located at|folder|directory)\s*:?\s*$", q.before) else None


def _traceback_header(r: Reading, q: Quote) -> tuple[str, str] | None:
    """A traceback's header: its last line, quoted next, names the error."""
    header = re.search(r"error message starting '?$", q.before) and q.text.startswith("Traceback")
    return SKIP if header and "and ending '" in q.after else None


def _error(r: Reading, q: Quote) -> tuple[str, str] | None:
    if "error message" in q.before or (ERROR_TEXT.search(q.text) and "search" not in q.before
                                       and q.text not in r.typed):
        return ERROR, q.text.rstrip("…")
    return None


def _search_title(r: Reading, q: Quote) -> tuple[str, str] | None:
    m = SEARCH_TITLE.match(q.text)
    return (QUERY, m.group(1)) if m else None


def _quoted_file(r: Reading, q: Quote) -> tuple[str, str] | None:
    return SKIP if FILE_NAME.fullmatch(q.text.strip()) else None  # taken by `_files` with the unquoted ones


def _typed(r: Reading, q: Quote) -> tuple[str, str] | None:
    """Typed text is raw keystrokes (often pinyin), not a name the person chose to read: a command run in a
    terminal, or a phrase written elsewhere (a topic)."""
    if q.text not in r.typed:
        return None
    if r.terminal and re.search(r"presses Enter|and Enter|回车", q.after, re.I):
        return COMMAND, q.text
    if not r.terminal and is_phrase(q.text):
        return TOPIC, q.text
    return SKIP


def _searched_for(r: Reading, q: Quote) -> tuple[str, str] | None:
    for_words = re.search(r"\b(?:for|query|results? (?:for|of)|about|titled|regarding|results page)\s*$", q.before)
    return (QUERY, q.text) if r.searching and (for_words or "搜索" in q.before[-12:]) else None


def _page_title(r: Reading, q: Quote) -> tuple[str, str] | None:
    return (PAGE, q.text) if re.search(r"\s[-–—|·]\s", q.text) else None  # 'Title - Site'


def _first_query(r: Reading, q: Quote) -> tuple[str, str] | None:
    if r.searching and not r.has(QUERY) and not PAGE_CONTEXT.search(q.before[-25:]):
        return QUERY, q.text
    return None


def _page(r: Reading, q: Quote) -> tuple[str, str] | None:
    return (PAGE, q.text) if PAGE_CONTEXT.search(q.before) else None


#: what a quoted piece names, first rule that decides wins (the order matters: a URL is never a page name, a
#: typed line never a query)
QUOTE_RULES: tuple[QuoteRule, ...] = (_url, _not_a_name, _named_below, _traceback_header, _error, _search_title,
                                      _quoted_file, _typed, _searched_for, _page_title, _first_query, _page)


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
    """An exception class named without quotes, when nothing quoted named an error."""
    if not r.has(ERROR):
        m = re.search(r"\b([A-Z]\w*(?:Error|Exception))\b", r.sentence)
        if m:
            r.add(ERROR, m.group(1))


#: the passes over a sentence, in order (later passes see what earlier ones found)
SENTENCE_RULES: tuple[Callable[[Reading], None], ...] = (_quoted, _addresses, _files, _projects_sites_chats,
                                                          _unquoted_error)


def extract(sentence: str, index: int) -> list[Obj]:
    """The objects one event sentence names, in the order found."""
    quotes = _quotes(sentence)
    typed = {text for start, text in quotes if TYPED.search(sentence[max(0, start - 40):start])}
    reading = Reading(sentence, index, quotes, typed, bool(TERMINAL.search(sentence)),
                      bool(SEARCH_WORD.search(sentence)))
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


#: the line of a copied text that names its error, strongest first: a Python exception (its last one), a tool's
#: error code, a line that starts like an error, one that names an error, a shell's complaint
ERROR_LINES: tuple[tuple[re.Pattern[str], bool], ...] = (  # (pattern, take the last match rather than the first)
    (re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Warning)\b(?::.*)?$"), True),
    (re.compile(r"\b(?:npm ERR!|npm error) code \w+"), False),
    (re.compile(r"^(?:E|fatal|error|ERROR|Error|FATAL|CONFLICT \(\w+\)):\s*\S"), False),
    (re.compile(r"\b\w*Error: \S"), False),
    (re.compile(r"\b(?:error|fatal)(?:\[\w+\])?:\s*\S", re.I), False),  # "collect2: error: …", "cc1: fatal …"
    (re.compile(r"command not found|[Pp]ermission denied|No such file or directory|\bnot found\b"), False),
)


def error_line(text: str) -> str:
    """The line of a copied error that names it ('ModuleNotFoundError: No module named …', 'E: Unable to locate
    package curl', 'npm error code EACCES'): what an offer quotes, rather than the copy's first line ('Reading
    package lists... Done'). '' when no line looks like one."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for pattern, last in ERROR_LINES:
        found = [ln for ln in lines if pattern.search(ln)]
        if found:
            return found[-1] if last else found[0]
    return ""


def _with_copies(objs: list[Obj], observation: Any, index: int) -> list[Obj]:
    """Each error object with the whole text of the copy it was quoted from (the copy whose lines contain it)."""
    copies = observation.get("copies") if isinstance(observation, dict) else None
    screens = observation.get("screen") if isinstance(observation, dict) else None
    if not any(o.kind == ERROR for o in objs) and not screens:  # a mistyped command alone: the shell said it
        objs = _with_mistyped(objs, index)
    if not copies:  # a recorded session: the sentence's quoted lines of each copied error are all there is of it
        objs = _with_said(objs, _event(observation), index)
    for text in screens or ():  # an error the terminal shows (assistant/screen.py): the failed command's output
        line = error_line(text) or next((ln.strip() for ln in reversed(text.splitlines()) if ln.strip()), "")
        if line and not any(o.kind == ERROR and o.detail == text for o in objs):
            objs = [*objs, Obj(ERROR, line, index, text)]
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
            o = Obj(o.kind, error_line(full) or o.text if full else o.text, o.index, full)
            used.add(full)
        out.append(o)
    for copy in copies:
        if copy not in used and diagnose(Situation(copy)) is not None:
            line = error_line(copy) or next((ln.strip() for ln in copy.splitlines() if ln.strip()), copy.strip())
            out = [o for o in out if o.kind == ERROR or o.text not in copy] + [Obj(ERROR, line, index, copy)]
    return out


def said_errors(sentence: str) -> list[str]:
    """The copied errors our sentences quote ("starting '…', saying '…' and ending '…'"), each its quoted lines."""
    out = []
    for m in COPIED_ERROR.finditer(sentence):
        middle = re.findall(r", saying '(.+?)'(?=, saying '|$)", m["saying"] or "")
        parts = [p.strip() for p in (m["start"], *middle, m["end"] or "") if p and p.strip()]
        # a traceback's frame as Python prints it (the sentence flattened its indentation): its code under it; and
        # a command under the line announcing it ("…run the following command:"), indented as the tool set it
        lines = []
        for i, part in enumerate(parts):
            frame = part.startswith('File "')
            code = i > 0 and (parts[i - 1].startswith('File "') or parts[i - 1].endswith(":")) and not frame
            lines.append(("  " if frame else "    " if code else "") + part)
        out.append("\n".join(lines))
    return out


#: our own sentence for a copied text that has no error word ("The user copies 'cp: -r not specified; omitting
#: directory 'photos'' from the terminal.")
COPIED_TEXT = re.compile(r"\bcopies '(?P<text>.+?)' from the terminal\.(?= The user\b|$)")


def _with_said(objs: list[Obj], sentence: str, index: int) -> list[Obj]:
    """Each error object quoted from a copied error's sentence with all the lines the sentence quotes of it (what
    a replayed session has instead of the copy), named by its line that names the error; and a text copied in a
    terminal that a diagnosis knows as an error, as the live path reads the copy itself."""
    from .diagnose import Situation, diagnose

    for m in COPIED_TEXT.finditer(sentence):
        text = m["text"].rstrip("…")
        if not any(o.kind == ERROR for o in objs) and diagnose(Situation(text)) is not None:
            objs = [o for o in objs if o.text not in text] + [Obj(ERROR, error_line(text) or text, index, text)]
    said = said_errors(sentence)
    if not said:
        return objs
    out: list[Obj] = []
    for o in objs:
        full = next((s for s in said if quoted_in(o.text, s)), "") if o.kind == ERROR and not o.detail else ""
        if full and any(p.detail == full for p in out):
            continue  # the same copy's other quoted line: one error
        out.append(Obj(o.kind, error_line(full) or o.text, o.index, full) if full else o)
    return out


def ground(context: Sequence[Any], window: int = 12) -> Grounding:
    """Objects of the last `window` events (latest mention first) and the activity of the last one."""
    events = [_event(o) for o in context]
    start = max(0, len(events) - window)
    latest: dict[tuple[str, str], Obj] = {}
    first: dict[tuple[str, str], int] = {}
    per_event: list[list[Obj]] = []
    for i in range(start, len(events)):
        objs = _with_copies(extract(events[i], i), context[i], i)
        per_event.append(objs)
        for o in objs:
            key = (o.kind, o.text.lower())
            first.setdefault(key, i)
            latest.pop(key, None)
            latest[key] = replace(o, first=first[key])
    # latest mention first; within one event (a long episode in one window holds a whole shell session) the one
    # named later in it is the more recent
    objects = [o for _, o in sorted(enumerate(latest.values()), key=lambda p: (-p[1].index, -p[0]))]
    last = events[-1] if events else ""
    activity = classify(last, per_event[-1] if per_event else [], events[-RECENT:]) if events else NOISE
    # what the person saw: the episodes, the whole texts they copied and the errors their terminal showed (an offer
    # may quote a copy's error line)
    copied = [c for o in context[start:] if isinstance(o, dict) for c in [*(o.get("copies") or ()),
                                                                          *(o.get("screen") or ())]]
    return Grounding(objects, activity, len(events), " ".join([*events, *copied]))
