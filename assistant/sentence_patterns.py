"""The words and patterns grounding reads sentences with (assistant/grounding.py): quotes, file names, URLs,
searches, typing, reading and writing words, technologies and navigational searches. Data, kept apart from the
code that uses it; each pattern is table-tested through `ground` (tests/test_grounding.py).
"""

from __future__ import annotations

import re

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
SEARCH_TITLE = re.compile(r"^(.+?)(?:\s*[-–—|]\s*(?:Google\s*(?:搜索|Search)|Bing|搜索|百度搜索|Search|"
                          r"DuckDuckGo)|\s+at\s+DuckDuckGo)\s*$", re.I)
TYPED = re.compile(r"\b(?:types?|typed|typing|inputs?|input text|enters?|输入)\s*(?:text\s*)?"
                   r"(?:(?:including|such as|like|containing)\s*)?[:=]?\s*$", re.I)
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
