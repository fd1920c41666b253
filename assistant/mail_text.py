"""A mail as its reader sees it: the header block of a message (in a mailing list's digest, a saved mail, a cron
job's mail) left out, its quoted-printable body decoded, and a list archive's links to the next and previous
messages and a digest's opening (how to post, its table of topics) dropped. A header's line ('Content-Type: text/plain; charset="utf-8"') reads like a program's line but is
no message; a body sent quoted-printable has its lines cut with '=' and its characters written '=E2=80=99'.

The subject line is kept (without its 'Re:' and the list's name) only when the body says no error: a mail whose
only copy of the message is its subject ('Subject: ModuleNotFoundError: No module named …', the body 'see
subject') still gives it, and one whose body quotes the error is read from the body, as a person reads it. The
subject of the mail cron sends ('Cron <ana@box> cd ~/app && make') is the command its body is the output of."""

from __future__ import annotations

import quopri
import re

from proactive.watcher.episodes.error_lines import ERROR_HINT, KEY_LINE

#: a header's line: its name, a colon, its value (and the value's folded lines, indented, after it)
HEADER = re.compile(r"^(?P<name>[A-Z][A-Za-z0-9-]{1,40}):[ \t]*(?P<value>[^\n]*(?:\n[ \t]+[^\n]+)*)$", re.M)
#: the headers only a mail has: a run of lines with one of them is a mail's header block
MAIL_HEADERS = frozenset({"from", "to", "cc", "date", "subject", "message-id", "content-type", "content-transfer-encoding",
                          "mime-version", "reply-to", "in-reply-to", "references", "return-path", "received",
                          "list-id", "x-cron-env", "x-mailer", "user-agent", "delivered-to", "sender"})
#: a list archive's links around a message ('* Previous message: [dev] Re: …', '* Messages sorted by: [ date ] …')
ARCHIVE_LINK = re.compile(r"^[ \t]*\*[ \t]*(?:Previous message|Next message|Messages sorted by)\b[^\n]*\n?", re.M | re.I)
#: a list digest's opening (Mailman's): how to post and subscribe, and its table of the topics, to its first
#: separator line
DIGEST_HEAD = re.compile(r"^Send [^\n]+ mailing list submissions to\n.*?^-{10,}[ \t]*\n", re.M | re.S)
#: and its closing line ('End of dev Digest, Vol 50, Issue 22' over a row of stars)
DIGEST_END = re.compile(r"^End of [^\n]+ Digest\b[^\n]*(?:\n\*+)?[ \t]*$", re.M)
#: the subject of the mail cron sends with a job's output: the job's command line ('Cron <ana@box> cd ~/x && make')
CRON_SUBJECT = re.compile(r"^Cron <[^>\n]+>\s+(?P<command>\S.*)$")
#: a subject's prefixes: replies, forwards, the list's name
SUBJECT_PREFIX = re.compile(r"^(?:(?:Re|Fwd?|AW|SV|TR)\s*:\s*|\[[^\]\n]{1,40}\]\s*)+", re.I)
#: a mail's signature: its '-- ' line and what follows it to the message's end
SIGNATURE = re.compile(r"^-- ?\n.*", re.M | re.S)
#: where a digest's message ends: its separator line
SEPARATOR = re.compile(r"^-{10,}[ \t]*$", re.M)
#: a multipart mail's boundary line between its parts ('--0000000000f3e2e6378a097e50ac', the last with '--' after)
MIME_BOUNDARY = re.compile(r"^--[\w'()+,./:=?-]{10,}[ \t]*$\n?", re.M)
#: what a mail program writes into a forwarded or quoted mail: the line over the original's headers
FORWARD_MARK = re.compile(r"^[ \t]*(?:-{3,} ?(?:Original Message|Forwarded message) ?-{3,}|_{10,})[ \t]*$", re.M | re.I)
#: a mail server's or a mail program's own lines in a body: an outside sender's warning, a picture's place, an
#: app's advert ('CAUTION: This email originated from outside …', '[cid:image001.png@01DC…]', 'Get Outlook for iOS')
MAIL_CHROME = re.compile(r"^[ \t]*(?:\[?(?:CAUTION|EXTERNAL(?: EMAIL)?|WARNING)\]?:? This (?:e-?mail|message) "
                         r"(?:originated|came) from outside[^\n]*|You don'?’?t often get email from [^\n]*|"
                         r"\[cid:[^\]\n]+\]|Get Outlook for [^\n]*|Sent from my [^\n]*)[ \t]*$", re.M | re.I)


def unheadered(text: str) -> str:
    """`text` with each mail header block left out (its subject kept when the body does not say it again), a
    quoted-printable body decoded, and an archive's links dropped; unchanged when it holds no mail."""
    if ":" not in text:
        return text
    if "mailing list" in text:
        text = DIGEST_END.sub("", DIGEST_HEAD.sub("", text, count=1))
    if "message" in text:
        text = ARCHIVE_LINK.sub("", text)
    if not any(f"\n{name}:" in "\n" + text.lower() for name in ("from", "date", "content-type")):
        return text
    if MAIL_CHROME.search(text):
        text = MAIL_CHROME.sub("", text)
    blocks = _header_blocks(text)
    out: list[str] = []
    at = 0
    plain = False
    for start, end, subject, encoded, kind in blocks:
        out.append(text[at:start])
        stop = next((m.start() for m in SEPARATOR.finditer(text, end)), len(text))
        nxt = next((b[0] for b in blocks if b[0] >= end), len(text))
        stop = min(stop, nxt)
        plain = plain or kind == "text/plain"
        if kind == "text/html" and plain:  # the same mail again, as its HTML alternative
            at = stop
            continue
        body = SIGNATURE.sub("", MIME_BOUNDARY.sub("", text[end:stop]))
        if encoded and re.search(r"=(?:[0-9A-F]{2}|\n)", body):
            body = quopri.decodestring(body.encode("utf-8")).decode("utf-8", errors="replace")
        cron = CRON_SUBJECT.match(subject or "")
        # a forward's note says no error, the mail it forwards below it may
        said = text[end:] if FORWARD_MARK.search(text, end) else body
        if cron:  # the job's command line, run at a prompt, its output the body
            out.append(f"$ {cron['command']}\n")
        elif subject and not (ERROR_HINT.search(said) or KEY_LINE.search(said)):
            out.append(f"Subject: {SUBJECT_PREFIX.sub('', subject)}\n\n")
        out.append(body)
        at = stop
    out.append(text[at:])
    return FORWARD_MARK.sub("", "".join(out))


def _header_blocks(text: str) -> list[tuple[int, int, str | None, bool, str]]:
    """Each run of header lines holding at least two a mail has: (start, end, its subject, whether its body is
    quoted-printable, its content type)."""
    blocks: list[tuple[int, int, str | None, bool, str]] = []
    run: list[re.Match[str]] = []
    for m in [*HEADER.finditer(text), None]:
        if m is not None and run and text[run[-1].end():m.start()] == "\n":
            run.append(m)
            continue
        if sum(h["name"].lower() in MAIL_HEADERS for h in run) >= 2:
            subject = next((h["value"].strip() for h in run if h["name"].lower() == "subject"), None)
            encoded = any(h["name"].lower() == "content-transfer-encoding" and "quoted-printable" in h["value"].lower()
                          for h in run)
            end = run[-1].end() + (1 if text[run[-1].end():run[-1].end() + 1] == "\n" else 0)
            kind = next((h["value"].split(";")[0].strip().lower() for h in run if h["name"].lower() == "content-type"), "")
            blocks.append((run[0].start(), end, subject, encoded, kind))
        run = [m] if m is not None else []
    return blocks
