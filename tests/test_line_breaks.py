"""Lines joined back where the text they came from broke them, and only there (`assistant/line_breaks.py`)."""

from __future__ import annotations

import pytest

from proactive.assistant.line_breaks import refilled, rewrapped, unbulleted, unwrapped

BOX = ("Name:                Ana Silva                        Staff ID: 4411          Date: 2025-03-01\n"
       "Description of the problem:\n"
       "  The nightly job stopped and it prints this message every time I start it from a terminal:\n\n"
       "  psql: error: connection to server on socket \"/var/run/postgresql/.s.PGSQL.5432\" failed: No\n"
       "  such file or directory, and then it asks whether the server is running locally at all and\n"
       "  accepting connections on that socket; restarting the machine did not change anything.\n")


def test_a_paragraph_wrapped_at_its_box_s_width_is_joined_back():
    joined = rewrapped(BOX)
    assert '"/var/run/postgresql/.s.PGSQL.5432" failed: No such file or directory, and then' in joined
    assert joined.startswith("Name:")  # the form's padded fields stay as they are


@pytest.mark.parametrize("text", [
    # a table: its header and its row
    "NAME                              READY   STATUS             RESTARTS        AGE\n"
    "worker-7c9d8b6f4-lq2zn            0/1     CrashLoopBackOff   5 (41s ago)     4m2s\n"
    "api-5d8f7b6c4-x9x9x               1/1     Running            0               9m10s\n"
    "db-0                              1/1     Running            0               12m14s",
    # a log's records, each line starting alike
    "nox > Creating virtual environment (virtualenv) using python3 in .nox/lint for this run today\n"
    "nox > python -m pip install -r requirements.txt --quiet --disable-pip-version-check now\n"
    "FileNotFoundError: [Errno 2] No such file or directory: 'ffmpeg' and nothing else at all here\n"
    "nox > Command python3 convert.py failed with exit code 1",
    # grep's hits in a log, each line starting with the log's name
    "search results for json.tool in the deploy logs of the last week, newest deploy first:\n"
    "logs/deploy-20251108-0059.log-2359-+ cd /home/elena/src/checkout\n"
    "logs/deploy-20251108-0059.log:2360:+ python3 -m json.tool locales/de.json\n"
    "logs/deploy-20251108-0059.log-2361-Expecting value: line 1 column 1 (char 0)",
    # a message's line, then a reply's words under the quote
    "> Traceback (most recent call last): this line is long enough to look like a wrapped one\n"
    "> FileNotFoundError: [Errno 2] No such file or directory: 'config.yml' in the project folder\n"
    "> and this third quoted line is as long as the others, so the text looks wrapped at a width\n"
    "tried reinstalling, no luck",
    # the last line of a message, then a fence
    "  File \"/home/dev/ocr/scan.py\", line 8, in <module> and a long tail to make it a full line\n"
    "  FileNotFoundError: [Errno 2] No such file or directory: 'tesseract' which the program needs\n"
    "  ```\n"
    "  A third line as long as the others, so that the text reads as wrapped at its width, here.",
])
def test_rows_records_replies_and_fences_stay_apart(text):
    assert rewrapped(text) == text


def test_an_outline_s_blocks_are_the_lines_they_hold():
    outline = ("- ran it on ci-3\n  - output:\n    - Traceback (most recent call last):\n"
               "    - File \"/home/ana/count.py\", line 3, in <module>\n    - NameError: name 'totl' is not defined\n")
    assert unbulleted(outline) == ("- ran it on ci-3\n  - output:\n    Traceback (most recent call last):\n"
                                   "    File \"/home/ana/count.py\", line 3, in <module>\n"
                                   "    NameError: name 'totl' is not defined\n")
    shopping = "- milk\n- eggs\n- bread\n"  # a list that holds no message keeps its bullets
    assert unbulleted(shopping) == shopping


def test_a_log_s_records_as_long_as_each_other_are_no_window_s_wrapping():
    log = ("[lint:L1:0s] Traceback (most recent call last):\n[lint:L2:0s]   File \"/src/check.py\", line 3, in <module>\n"
           "[lint:L3:0s]     import yaml\n[lint:L4:1s] ModuleNotFoundError: No module named 'yaml'\nlint : exit code 1")
    assert unwrapped(log) == log
    # a phone's narrow terminal: lines that fill its width go on mid-word on the next
    printed = ["~ $ python scan.py", "Traceback (most recent call last):",
               "  File \"/data/data/com.termux/files/home/scan.py\", line 2, in <module>",
               "ModuleNotFoundError: No module named 'requests'", "~ $"]
    phone = "\n".join(ln[i:i + 44] for ln in printed for i in range(0, len(ln), 44))
    assert "home/scan.py\"" in unwrapped(phone) and "named 'requests'" in unwrapped(phone)


def test_a_mail_s_body_wrapped_by_its_program_is_joined_back_where_a_word_did_not_fit():
    body = ("I am trying to run the report tool as described in the onboarding wiki\n"
            "(page 9). This came back after a few seconds of waiting for the server:\n\n"
            "Error response from daemon: toomanyrequests: You have reached your pull\n"
            "rate limit. You may increase the limit by authenticating and upgrading:\n"
            "https://www.docker.com/increase-rate-limit\n\nThanks,\nAnna\n")
    assert refilled(body) == (
        "I am trying to run the report tool as described in the onboarding wiki (page 9). This came back after a "
        "few seconds of waiting for the server:\n\nError response from daemon: toomanyrequests: You have reached "
        "your pull rate limit. You may increase the limit by authenticating and upgrading: "
        "https://www.docker.com/increase-rate-limit\n\nThanks,\nAnna\n")
    # lines of their own stay apart: a frame, a 'Caused by:', a short line whose next word would have fitted
    kept = ("Exception in thread \"main\" java.lang.IllegalStateException: no config file was found here\n"
            "\tat com.shop.Main.main(Main.java:12)\nCaused by: java.io.FileNotFoundException: config.yml\nHello\nthere\n")
    assert refilled(kept) == kept


def test_a_window_s_wrap_at_a_space_is_joined_and_the_next_prompt_is_not():
    """A line that fills the window goes on on the next line from the space it was wrapped at (Windows's console
    at 120 columns); a message that happens to fill an 80-column terminal ends there, the shell's prompt under it."""
    cut = "Error response from daemon: Get \"https://reg.lab:5000/v2/\": x509: certificate signed by unknown " \
          "authority (possibly"
    wide = cut.ljust(120, "x")[:120]
    screen = f"C:\\Users\\mo>wsl\nmo@pc:~$ docker login reg.lab:5000\n{wide}\n because of a bad chain)\nmo@pc:~$ exit"
    assert f"{wide} because of a bad chain)" in unwrapped(screen)
    full = "IndentationError: expected an indented block after function definition on line 9"
    assert len(full) == 80
    shell = f"dev@t480:~/calc$ python3 calc.py\n{full}\ndev@t480:~/calc$"
    assert unwrapped(shell) == shell
