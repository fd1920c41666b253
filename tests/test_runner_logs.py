"""Logs written by what ran a command (a build service, a scheduler, a log search, a notebook runner, a pager):
their stamps, records and verdicts taken off, so the command's own output gets the help the live path gives it
(`assistant/runner_logs.py`, `assistant/records.py`, `assistant/message_parts.py`, `grounding`)."""

from __future__ import annotations

import json

import pytest

from proactive.assistant.grounding import ground
from proactive.assistant.message_parts import parts_joined, sms_bodies
from proactive.assistant.runner_logs import (
    build_footer,
    msbuild_relayed,
    r_console,
    service_messages,
    uncolumned,
    unstamped,
)
from tests.bench_support import help_quality

NOT_FOUND = "bash: gti: command not found"


def test_a_service_clock_before_each_line_is_taken_off_and_the_header_kept():
    log = ("Deploy log for docs (main@1a2b3c4):\n"
           "9:05:01 AM: $ ./build.sh\n9:05:02 AM: + gti status\n10:11:12 PM: " + NOT_FOUND + "\n"
           "10:11:13 PM: Build script returned non-zero exit code: 2")
    assert unstamped(log) == ("Deploy log for docs (main@1a2b3c4):\n$ ./build.sh\n+ gti status\n" + NOT_FOUND
                              + "\nBuild script returned non-zero exit code: 2")


def test_a_logger_level_a_stream_name_and_a_newest_first_order_are_the_log_view_s():
    airflow = ("[2025-01-02, 03:04:05 UTC] {subprocess.py:93} INFO - Traceback (most recent call last):\n"
               "[2025-01-02, 03:04:06 UTC] {subprocess.py:93} INFO - KeyError: 'x'")
    assert unstamped(airflow) == "Traceback (most recent call last):\nKeyError: 'x'"
    tail = ("2025-01-02T03:04:05.100000+00:00 ecs/api/9f8e7d6c5b4a39281706f5e4d3c2b1a0 first\n"
            "2025-01-02T03:04:05.200000+00:00 ecs/api/9f8e7d6c5b4a39281706f5e4d3c2b1a0   second, indented")
    assert unstamped(tail) == "first\n  second, indented"
    export = ('@timestamp,@message\n2025-01-02 03:04:07.300,third\n2025-01-02 03:04:06.200,"a ""quoted"" one"\n'
              "2025-01-02 03:04:05.100,first")
    assert unstamped(export) == '@timestamp,@message\nfirst\na "quoted" one\nthird'


@pytest.mark.parametrize("text", [
    "Meeting at 10:30 about the deploy.\nIt broke at 11:45.",  # times without seconds or a date: a person's words
    "12:00:01 only one stamped line\nand then prose",
    "npm ERR! code 1\nnpm ERR! path /srv/app",
])
def test_text_without_a_stamped_log_is_unchanged(text):
    assert unstamped(text) == text


def test_teamcity_service_messages_read_as_the_lines_they_carry():
    log = ("##teamcity[blockOpened name='Sync']\n"
           "##teamcity[message text='git exited with code 1' errorDetails='fatal: |'main|' is not|na branch |[x|]||y' "
           "status='ERROR']\n##teamcity[buildStatus status='FAILURE' text='failed']")
    assert service_messages(log) == "\ngit exited with code 1\nfatal: 'main' is not\na branch [x]|y\n"


def test_sms_parts_cut_at_the_message_length_join_inside_a_word():
    first = "(1/2) ALERT job {} FAILED | cmd: psql | out: psql: error: connection to server on socket " \
            '"/var/run/postgresql/.s.PGSQ'
    first = first.format("nightly-build-" + "x" * (160 - len(first) + 2 - len("nightly-build-")))
    assert len(first) == 160  # a gateway's segment: full to a text message's length
    backup = ('<smses count="2">\n'
              f'  <sms protocol="0" address="100" body="{first.replace(chr(34), "&quot;")}" read="1" />\n'
              '  <sms protocol="0" address="100" body="(2/2) L.5432&quot; failed: No such file or directory" />\n'
              '</smses>')
    joined = parts_joined(sms_bodies(backup))
    assert first[6:] + 'L.5432" failed: No such file or directory' in joined
    # parts cut at words, short: joined with a space as before
    assert parts_joined("(1/2) it failed with\n(2/2) exit 1") == "it failed with exit 1"


def _help(monkeypatch, tmp_path, text: str, expect: list[str]) -> dict:
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    return help_quality().help_for([{"time": "1", "event": text}], expect)


def test_a_build_service_log_gets_the_help_for_the_program_not_the_service_s_verdict(monkeypatch, tmp_path):
    log = "\n".join(f"{h}:{m:02d}:07 PM: {line}" for h, m, line in [
        (4, 1, "build-image version: 3f2a (focal)"), (4, 1, "Netlify Build"), (4, 2, "$ ./scripts/build.sh"),
        (4, 2, "+ gti status"), (4, 3, NOT_FOUND), (4, 3, '"build.command" failed'), (4, 3, "  Error message"),
        (4, 4, "  Command failed with exit code 127: ./scripts/build.sh (https://ntl.fyi/exit-code-127)"),
        (4, 4, "  Resolved config"), (4, 4, "  build:"), (4, 4, "    command: ./scripts/build.sh"),
        (4, 5, "Failed during stage 'building site': Build script returned non-zero exit code: 2"),
        (4, 5, "Build failed due to a user error: Build script returned non-zero exit code: 2")])
    got = _help(monkeypatch, tmp_path, log, ["git status"])
    assert got["ok"], got


def test_a_scheduler_s_own_traceback_after_the_program_s_is_not_the_error(monkeypatch, tmp_path):
    stamp = "[2025-03-04T05:06:07.890+0000] {subprocess.py:93} INFO - "
    log = ("*** Found local files:\n"
           "[2025-03-04T05:06:07.800+0000] {subprocess.py:75} INFO - Running command: ['/usr/bin/bash', '-c', "
           "'python3 count.py']\n"
           + "".join(stamp + line + "\n" for line in [
               "Traceback (most recent call last):", '  File "/home/ana/count.py", line 3, in <module>',
               "    print(totl)", "NameError: name 'totl' is not defined. Did you mean: 'total'?"])
           + "[2025-03-04T05:06:08.000+0000] {taskinstance.py:2698} ERROR - Task failed with exception\n"
           "Traceback (most recent call last):\n"
           '  File "/opt/airflow/.local/lib/python3.11/site-packages/airflow/operators/bash.py", line 240, in execute\n'
           '    raise AirflowException(\n'
           "airflow.exceptions.AirflowException: Bash command failed. The command returned a non-zero exit code 1.")
    got = _help(monkeypatch, tmp_path, log, ["total"])
    assert got["ok"] and "count.py" in got["help"], got


def test_a_log_stream_of_json_records_reads_as_the_lines_in_order(monkeypatch, tmp_path):
    lines = ["Traceback (most recent call last):\n", '  File "/home/ana/count.py", line 3, in <module>\n',
             "    print(totl)\n", "NameError: name 'totl' is not defined. Did you mean: 'total'?\n"]
    kaggle = "!python3 count.py\n[" + "\n,".join(
        json.dumps({"stream_name": "stderr", "time": 3.5 + i, "data": line}) for i, line in enumerate(lines)) + "\n]"
    got = _help(monkeypatch, tmp_path, kaggle, ["total"])
    assert got["ok"] and "count.py, line 3" in got["help"], got
    # the notebook runner's report after the output: the cell again, then its own CalledProcessError
    report = ["Traceback (most recent call last):\n", '  File "/usr/local/bin/jupyter-nbconvert", line 10, in <module>\n',
              "nbclient.exceptions.CellExecutionError: An error occurred while executing the following cell:\n",
              "------------------\n", "%%bash\n", "python3 count.py\n", "------------------\n", "\n",
              "CalledProcessError: Command b'python3 count.py\\n' returned non-zero exit status 1.\n"]
    run_log = "[" + "\n,".join(json.dumps({"stream_name": "stderr", "time": 3.5 + i, "data": line})
                               for i, line in enumerate(lines + report)) + "\n]"
    got = _help(monkeypatch, tmp_path, run_log, ["total"])
    assert got["ok"] and "count.py, line 3" in got["help"], got
    newest_first = "\n".join(json.dumps({"result": {"_raw": line.rstrip("\n"), "_time": f"2025-01-02T03:04:0{9 - i}",
                                                     "host": "ci-3"}}) for i, line in enumerate(reversed(lines)))
    got = _help(monkeypatch, tmp_path, "search export:\n" + newest_first, ["total"])
    assert got["ok"] and "count.py, line 3" in got["help"], got


def test_yaml_records_and_a_cell_magic(monkeypatch, tmp_path):
    lines = ["Traceback (most recent call last):", '  File "/home/ana/count.py", line 3, in <module>',
             "    print(totl)", "NameError: name ''totl'' is not defined. Did you mean: ''total''?"]
    records = "\n---\n".join(f"insertId: {i}\nseverity: ERROR\ntextPayload: '{line}'\ntimestamp: '2025-01-02T03:04:0{i}Z'"
                             for i, line in enumerate(lines))
    got = _help(monkeypatch, tmp_path, "$ gcloud logging read 'resource.type=cloud_run_job'\n" + records, ["total"])
    assert got["ok"] and "count.py" in got["help"], got
    cell = "%%bash\ncd ~/site\ngti status\n\n" + NOT_FOUND + "\nCalledProcessError: Command b'cd ~/site\\ngti status\\n' returned non-zero exit status 127."
    assert _help(monkeypatch, tmp_path, cell, ["git status"])["ok"]


def test_attributes_written_as_key_value_pairs_and_a_checklist_beside_the_message(monkeypatch, tmp_path):
    span = {"spans": [{"operationName": "gti status", "tags": [
        {"key": "process.command_line", "type": "string", "value": "gti status"},
        {"key": "exception.type", "type": "string", "value": "CommandNotFound"},
        {"key": "exception.message", "type": "string", "value": NOT_FOUND}]}]}
    assert _help(monkeypatch, tmp_path, json.dumps(span, indent=2), ["git status"])["ok"]
    card = {"name": "repo sync broken", "desc": f"Steps:\n1. `gti status`\n\nResult:\n```\n$ gti status\n{NOT_FOUND}\n```",
            "checklists": [{"checkItems": [{"name": "reproduce with `gti status`", "state": "complete"}]}]}
    got = _help(monkeypatch, tmp_path, json.dumps(card, indent=2), ["git status"])
    assert got["ok"] and "reproduce" not in (got["offer"] or ""), got


def test_an_outline_s_blocks_and_a_form_s_wrapped_lines(monkeypatch, tmp_path):
    outline = ("- #inbox sync on ci-3\n  - ran: python3 count.py\n  - output:\n"
               "    - Traceback (most recent call last):\n    - File \"/home/ana/count.py\", line 3, in <module>\n"
               "    - print(totl)\n    - NameError: name 'totl' is not defined. Did you mean: 'total'?\n  - #todo ask")
    assert _help(monkeypatch, tmp_path, outline, ["total"])["ok"]
    form = ("                          Help Request                                 Page 1 of 1\n\n"
            "Description of the problem:\n"
            "  Building the service fails every time. Command used:  go run main.go and then it prints\n\n"
            "  main.go:6:2: no required module provides package github.com/gorilla/mux: go.mod file not\n"
            "  found in current directory or any parent directory; see 'go help modules'\n\n"
            "Steps already tried: a new terminal window, a fresh clone of the repository, and a reboot.")
    got = _help(monkeypatch, tmp_path, form, ["go mod init"])
    assert got["ok"], got


def test_a_pager_s_alert_and_a_messenger_export_s_mangled_characters(monkeypatch, tmp_path):
    alert = ("Opsgenie\nSMS\n(1/2) [PagerDuty] nightly@vm-3 failed (127) ? cmd: cd repo && gti status ? err: bash: g\n"
             "(2/2) ti: command not found")
    got = _help(monkeypatch, tmp_path, alert, ["git status"])
    assert got["ok"], got
    export = {"participants": [{"name": "\u00c3\u009cmit"}], "messages": [
        {"sender_name": "Yuki", "timestamp_ms": 1699445384923, "content": "ask in the dev group"},
        {"sender_name": "\u00c3\u009cmit", "timestamp_ms": 1699445215706,
         "content": "the important bit is \u00e2\u0080\u009cbash: ./deploy.sh: Permission denied\u00e2\u0080\u009d"},
        {"sender_name": "\u00c3\u009cmit", "timestamp_ms": 1699444894925, "content": "bash: ./deploy.sh: Permission denied"}]}
    got = _help(monkeypatch, tmp_path, json.dumps(export, indent=2), ["chmod +x"])
    assert got["ok"] and "“" not in got["offer"] and "â" not in got["offer"], got


def test_a_teamcity_step_s_progress_names_the_command():
    log = "##teamcity[progressMessage 'Running gti status']\n##teamcity[message text='gti exited with code 127' " \
          "errorDetails='bash: gti: command not found' status='ERROR']"
    assert service_messages(log) == "Running gti status\ngti exited with code 127\nbash: gti: command not found"


def test_a_command_logged_as_its_argument_list(monkeypatch, tmp_path):
    log = ("[2025-03-04, 05:06:07 UTC] {subprocess.py:75} INFO - Running command: ['/usr/bin/bash', '-c', 'gti status']\n"
           "[2025-03-04, 05:06:07 UTC] {subprocess.py:86} INFO - Output:\n"
           "[2025-03-04, 05:06:08 UTC] {subprocess.py:93} INFO - bash: line 1: gti: command not found\n"
           "[2025-03-04, 05:06:08 UTC] {subprocess.py:97} INFO - Command exited with return code 127")
    got = _help(monkeypatch, tmp_path, log, ["git status"])
    assert got["ok"], got


def test_a_log_view_s_stream_names_are_taken_off_and_merged_streams_put_apart():
    stamp = "2025-02-03T04:05:0{}.1234567Z "
    gh = "\n".join(f"test\tRun make check\t{stamp.format(i)}{line}" for i, line in enumerate(
        ["make check", "cc -o t t.c", "t.c:2:5: error: unknown type name 'strng'"]))
    assert uncolumned("\ufeff" + gh).endswith("make check\n" + stamp.format(1) + "cc -o t t.c\n"
                                              + stamp.format(2) + "t.c:2:5: error: unknown type name 'strng'")
    # a sidecar's lines inside the program's traceback (stern, `kubectl logs --prefix`): the traceback whole
    for app, proxy in (("job-7f9c2-x8k1q job ", "job-7f9c2-x8k1q envoy "), ("[pod/seed-9k2m/app] ", "[pod/seed-9k2m/envoy] ")):
        merged = "\n".join([f"{app}{stamp.format(1)}Traceback (most recent call last):",
                            f"{proxy}{stamp.format(2)}info\tproxy ready", f"{app}{stamp.format(3)}  File \"/srv/a.py\", line 1",
                            f"{proxy}{stamp.format(4)}info\tstats flushed",
                            f"{app}{stamp.format(5)}KeyError: 'x'"])
        assert uncolumned("+ job-7f9c2-x8k1q › job\n" + merged) == "\n".join(stamp.format(i) + line for i, line in [
            (2, "info\tproxy ready"), (4, "info\tstats flushed"), (1, "Traceback (most recent call last):"),
            (3, '  File "/srv/a.py", line 1'), (5, "KeyError: 'x'")])
    # people's names before a chat's times are no streams: the chat is left as written
    chat = "Ana 10:02:11 it fails\nBo 10:02:30 which error?\nAna 10:02:41 KeyError: 'x'\nBo 10:03:02 hm"
    assert uncolumned(chat) == chat


def test_msbuild_s_relay_reads_as_the_command_and_what_it_printed(monkeypatch, tmp_path):
    vs = ("Build started at 9:12 AM...\n1>------ Build started: Project: Tools, Configuration: Debug x64 ------\n"
          "1>  Traceback (most recent call last):\n1>    File \"/home/ana/count.py\", line 3, in <module>\n"
          "1>      print(totl)\n1>  NameError: name 'totl' is not defined. Did you mean: 'total'?\n"
          '1>C:\\src\\Tools\\Tools.vcxproj(41,5): error MSB3073: The command "setlocal\n'
          "1>C:\\src\\Tools\\Tools.vcxproj(41,5): error MSB3073: python3 count.py\n"
          "1>C:\\src\\Tools\\Tools.vcxproj(41,5): error MSB3073: if %errorlevel% neq 0 goto :cmEnd\n"
          '1>C:\\src\\Tools\\Tools.vcxproj(41,5): error MSB3073: :cmEnd" exited with code 1.\n'
          '1>Done building project "Tools.vcxproj" -- FAILED.\n========== Build: 0 succeeded, 1 failed ==========')
    assert msbuild_relayed(vs) == ("$ python3 count.py\nTraceback (most recent call last):\n"
                                   "  File \"/home/ana/count.py\", line 3, in <module>\n    print(totl)\n"
                                   "NameError: name 'totl' is not defined. Did you mean: 'total'?")
    got = _help(monkeypatch, tmp_path, vs, ["total"])
    assert got["ok"] and "count.py, line 3" in got["help"], got
    cli = ("  " + NOT_FOUND + "\nEXEC : error : make: *** [Makefile:3: all] Error 127 [/src/t/T.proj]\n"
           '/src/t/T.proj(9,5): error MSB3073: The command "gti status" exited with code 127. [/src/t/T.proj]\n\n'
           "Build FAILED.\n\nEXEC : error : make: *** [Makefile:3: all] Error 127 [/src/t/T.proj]\n    0 Warning(s)")
    assert msbuild_relayed(cli) == "$ gti status\n" + NOT_FOUND + "\nmake: *** [Makefile:3: all] Error 127"
    assert msbuild_relayed("1> plain text\n2> more") == "1> plain text\n2> more"  # no MSBuild words: as written


def test_an_editor_s_build_footer_and_an_r_console_s_call_name_the_command(monkeypatch, tmp_path):
    panel = ("My build system prints this:\n\n```\n" + NOT_FOUND + "\n[Finished in 0.2s with exit code 127]\n"
             "[cmd: ['gti', 'status', '--short']]\n[dir: /home/ana/site]\n[path: /usr/bin:/bin]\n```")
    assert build_footer(panel) == "My build system prints this:\n\n```\n$ gti status --short\n" + NOT_FOUND + "\n```"
    got = _help(monkeypatch, tmp_path, panel, ["git status"])
    assert got["ok"], got
    r = ('> out <- processx::run("gti", c("status", "-s"), error_on_status = FALSE)\nE> ' + NOT_FOUND + "\n"
         '> system("python3 count.py")\n')
    assert r_console(r) == "$ gti status -s\n" + NOT_FOUND + "\n$ python3 count.py\n"
    assert r_console("> x <- run(y)\n[1] 2") == "> x <- run(y)\n[1] 2"  # a call whose command is not written out


def test_a_phone_s_capital_and_dash_in_a_command_and_a_dev_container_s_run(monkeypatch, tmp_path):
    got = _help(monkeypatch, tmp_path, "ok so I ran Pip install requests and it says “error: "
                "externally-managed-environment” ??", ["pip install requests"])
    assert got["ok"], got
    assert ground([{"event": "I ran Tsc —init and got “bash: tsc: command not found”"}]).first("command").text \
        == "tsc --init"
    log = ("[2025-03-04T10:11:12.345Z] [812 ms] Start: Run in container: /bin/sh -c pip install requests\n"
           "error: externally-managed-environment\n\n× This environment is externally managed\n"
           "[2025-03-04T10:11:12.901Z] [1368 ms] postCreateCommand from devcontainer.json failed with exit code 1.")
    got = _help(monkeypatch, tmp_path, log, ["pip install requests"])
    assert got["ok"], got
