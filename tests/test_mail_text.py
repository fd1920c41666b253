"""A mail as its reader sees it (`assistant/mail_text.py`): header blocks left out, quoted-printable bodies decoded,
a list archive's links and a digest's opening dropped, so the message a mail quotes gets the live help."""

from __future__ import annotations

import pytest

from proactive.assistant.mail_text import unheadered
from tests.bench_support import help_quality

BUG_MAIL = """From: Ravi Shah <ravi@example.org>
To: support@example.org
Date: Tue, 03 Mar 2026 10:02:11 +0100
Subject: Re: install fails
MIME-Version: 1.0
Content-Type: text/plain; charset="utf-8"
Content-Transfer-Encoding: quoted-printable

Hello,

after `sudo apt install ripgrepp` the terminal says what=E2=80=99s below, the=
 package list was refreshed yesterday:

E: Unable to locate package ripgrepp

Ravi
"""

DIGEST = """Send tools-users mailing list submissions to
\ttools-users@lists.example.org

Today's Topics:

   1. build error (Li Wei)
   2. Re: release notes (Ana)

----------------------------------------------------------------------

Message: 1
Date: Fri, 06 Mar 2026 09:00:00 +0000
From: Li Wei <li@example.org>
Subject: [tools-users] build error
Message-ID: <1@example.org>
Content-Type: text/plain; charset="us-ascii"

Hi all, `node server.js` stops at once with

    Error: Cannot find module 'express'

Any idea?

------------------------------
"""

ARCHIVE = """[ops] Error: Cannot find module 'expr…
Li Wei li at example.org
Fri Mar 6 09:00:00 UTC 2026

    * Previous message: [ops] weekly sync
    * Next message: [ops] Re: Error: Cannot find module 'expr…
    * Messages sorted by: [ date ] [ thread ] [ subject ] [ author ]

Running node server.js prints:

Error: Cannot find module 'express'
"""


def test_headers_go_and_a_quoted_printable_body_is_decoded():
    read = unheadered(BUG_MAIL)
    assert "Content-Type" not in read and "Message-ID" not in read and "From:" not in read
    assert "what’s below, the package list" in read  # '=E2=80=99' and the soft line break '=\n' decoded
    assert "Subject" not in read  # the body says the error: the body is read, as a person reads it


def test_a_subject_is_kept_when_the_body_says_no_error():
    mail = ("From: a@example.org\nDate: Mon, 2 Mar 2026 10:00:00 +0000\nSubject: Re: ModuleNotFoundError: No module "
            "named 'requests'\n\nsee subject, thanks\n")
    assert "ModuleNotFoundError: No module named 'requests'" in unheadered(mail)


def test_a_digests_opening_and_an_archives_links_go():
    assert "Today's Topics" not in unheadered(DIGEST) and "Previous message" not in unheadered(ARCHIVE)


def test_a_digests_closing_line_and_a_signature_go():
    digest = DIGEST + "\nMessage: 2\nDate: Fri, 06 Mar 2026 10:00:00 +0000\nFrom: Ana <ana@example.org>\n" \
        "Subject: Re: release notes\n\nLooks good.\n-- \nAna Ruiz\nBuild team\n\n------------------------------\n\n" \
        "End of tools-users Digest, Vol 12, Issue 4\n******************************************\n"
    read = unheadered(digest)
    assert "End of tools-users Digest" not in read and "Ana Ruiz" not in read and "Build team" not in read
    assert "Looks good." in read and "Cannot find module 'express'" in read


def test_text_without_a_mail_is_unchanged():
    for text in ("From: here to there, the build failed: error: x", "Date: today\nerror: y", "a: b\nc: d"):
        assert unheadered(text) == text


@pytest.mark.parametrize("mail, expect", [
    (BUG_MAIL, ["sudo apt update"]),
    (DIGEST, ["npm install express"]),
    (ARCHIVE, ["npm install express"]),
    # a reply quoting the person's words and the message: the words stay words, the command is read from them
    ("From: Ana <ana@example.org>\nDate: Wed, 4 Mar 2026 12:00:00 +0000\nSubject: Re: help\n\nOn Tue, Li wrote:\n"
     "> I get this when running pyhton3 app.py:\n>\n> bash: pyhton3: command not found\n>\n> It worked yesterday.\n\n"
     "Same here.\n", ["python3 app.py"]),
])
def test_a_mails_message_gets_the_live_help(mail, expect, tmp_path, monkeypatch):
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": mail}], expect)
    assert got["ok"], got
