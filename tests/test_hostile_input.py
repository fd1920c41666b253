"""Hostile input through the real command line: every file argument and option that is wrong
ends in exit code 2 and one line on stderr naming the file (and line) or the option and what to fix, before any
work is done; nothing is written, and no traceback. (An archived baseline's malformed trace is the exception: that
model is left out and named, and the run goes on.)

Session files (`predict`, `replay`, `annotate`), reward rows (`rm train/eval --data`, `replay --labels`), reward
models (`--rm`), archived traces (`replay --baselines`), output locations (`--out`, `--cache`) and numbers
(`decide ID`, `--seed`, `--context`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from proactive.assistant.proposals import ProposalLog

from .conftest import FIXTURES, run_cli

SESSION = FIXTURES / "session_small.json"
REWARD = FIXTURES / "reward_small.jsonl"
GOOD_ROW = json.loads(REWARD.read_text(encoding="utf-8").splitlines()[0])


def bad_input(*args: str, needle: str | None = None, timeout: float = 120) -> str:
    """Run `proactive ARGS`; check exit code 2 and a one-line reason; return it."""
    out = run_cli(*args, timeout=timeout)
    assert out.returncode == 2, (out.returncode, out.stdout[-2000:], out.stderr[-3000:])
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert "Traceback" not in out.stderr
    if needle is not None:
        assert needle in lines[0], lines[0]
    return lines[0]


def fifo(tmp_path: Path, name: str = "pipe.json") -> Path:
    path = tmp_path / name
    os.mkfifo(path)
    return path


# ------------------------------------------------------------------------------------------------ sessions

def session_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """name -> (file, what the one line must say)."""

    def put(name: str, data: str | bytes) -> Path:
        path = tmp_path / name
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        return path

    turn = '{"observation": {"time": "1", "event": "The user opens a file."}}'
    files = {
        "deep-nesting": (put("deep.json", "[" * 200_000 + "]" * 200_000), "nested too deeply"),
        "huge-integer": (put("bigint.json", '[\n' + turn + ',\n{"observation": {"time": ' + "9" * 5000
                             + ', "event": "x"}}\n]'), ":3: turn 2: a number too long"),
        "lone-surrogate": (put("surrogate.json", '[\n' + turn + ',\n\n{"observation": {"time": "2", "event": '
                               '"a \\ud800 b"}}]'), ":4: turn 2: 'event' holds an unpaired surrogate (\\ud800)"),
        "not-utf8": (put("latin1.json", ('[\n' + turn + ',\n{"observation": {"time": "2", "event": "caf').encode()
                         + b'\xe9"}}]'), ":3: not UTF-8 text (byte 0xe9)"),
        "lines-bad-json": (put("lines.jsonl", '{"time": "1", "event": "a"}\n{"time": 2, "event": \n'),
                           ":2: bad JSON"),
        "lines-deep": (put("lines-deep.jsonl", '{"time": "1", "event": "a"}\n' + "[" * 100_000 + "\n"),
                       ":2: nested too deeply"),
        "extra-data": (put("extra.json", "[" + turn + "]\n\n{}"), ":3: bad JSON (extra data after the list)"),
        "missing-comma": (put("comma.json", "[" + turn + "\n" + turn + "]"), ":2: bad JSON (expected ','"),
        "time-is-bool": (put("booltime.json", '[{"observation": {"time": true, "event": "e"}}]'),
                         ":1: turn 1: 'time' must be a string or a number"),
        "empty": (put("empty.json", ""), "the session is empty"),
        "no-such-file": (tmp_path / "nope.json", "nope.json"),
    }
    return files


SESSION_CASES = ["deep-nesting", "huge-integer", "lone-surrogate", "not-utf8", "lines-bad-json", "lines-deep",
                 "extra-data", "missing-comma", "time-is-bool", "empty", "no-such-file"]


@pytest.mark.parametrize("case", SESSION_CASES)
def test_predict_refuses_bad_session_files(proactive_home, tmp_path, case):
    path, needle = session_files(tmp_path)[case]
    line = bad_input("predict", str(path), "--model", "none")
    assert str(path.name) in line and needle in line


@pytest.mark.parametrize("case", ["deep-nesting", "huge-integer", "lone-surrogate", "not-utf8"])
def test_replay_refuses_bad_session_files_before_any_work(proactive_home, tmp_path, case):
    path, needle = session_files(tmp_path)[case]
    out, cache = tmp_path / "out", tmp_path / "cache.db"
    line = bad_input("replay", str(SESSION), str(path), "--out", str(out), "--cache", str(cache))
    assert needle in line
    assert not out.exists() and not cache.exists()


def test_annotate_refuses_a_bad_session_file_before_the_window(proactive_home, tmp_path):
    path, needle = session_files(tmp_path)["lone-surrogate"]
    assert needle in bad_input("annotate", str(path), "--model", "none")


@pytest.mark.parametrize("command", [
    lambda p: ["predict", str(p), "--model", "none"],
    lambda p: ["replay", str(p)],
    lambda p: ["annotate", str(p), "--model", "none"],
    lambda p: ["reward", "eval", "--data", str(p), "--rm", "signals"],
    lambda p: ["reward", "train", "--data", str(p), "--out", str(p.parent / "m.json")],
    lambda p: ["replay", str(SESSION), "--labels", str(p)],
], ids=["predict", "replay", "annotate", "rm-eval", "rm-train", "replay-labels"])
def test_a_fifo_is_refused_not_waited_on(proactive_home, tmp_path, command):
    path = fifo(tmp_path)
    line = bad_input(*command(path), timeout=30)  # reading a FIFO would block until the timeout
    assert f"{path}: not a regular file" in line


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_is_refused(proactive_home, device):
    # /dev/zero would never end
    assert "not a regular file" in bad_input("predict", device, "--model", "none", timeout=30)


def test_a_folder_is_refused(proactive_home, tmp_path):
    assert "is a directory" in bad_input("predict", str(tmp_path), "--model", "none")


def test_a_large_session_is_read_before_the_model(proactive_home, tmp_path):
    # 20 MB: the line-number pass was quadratic (4 MB took 8.7 s); now it is read and its bad last line found
    # long before the 120 s timeout (bench/session_load.py measures 50 MB)
    turn = json.dumps({"observation": {"time": "1763800000.000", "event": "The user types a line. " * 4}})
    path = tmp_path / "big.json"
    n = 20_000_000 // (len(turn) + 2)
    path.write_text("[\n" + ",\n".join([turn] * n) + ',\n{"observation": {"time": "2"}}\n]\n', encoding="utf-8")
    assert f"big.json:{n + 2}: turn {n + 1}: observation has no 'event'" in bad_input(
        "predict", str(path), "--model", "none")


# ------------------------------------------------------------------------------------------------ reward rows

def rows_file(tmp_path: Path, bad_line: str | bytes, at: int = 3) -> Path:
    lines = [json.dumps(GOOD_ROW).encode()] * (at - 1) + [bad_line if isinstance(bad_line, bytes)
                                                         else bad_line.encode()]
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def with_field(**changes: object) -> str:
    return json.dumps({**GOOD_ROW, **changes})


REWARD_CASES = {
    "pred-task-numbers": (with_field(pred_task=[1, 2]), "pred_task must be a string, a list of strings or null"),
    "event-null": (with_field(obs=[{"time": "1", "event": None}]), "obs must be a non-empty list"),
    "help-needed-maybe": (with_field(help_needed="maybe"), "help_needed must be true, false or null"),
    "valid-string": (with_field(valid="yes"), "valid must be true or false"),
    "annotation-numbers": (with_field(annotation=[1, 0]), "annotation must be a list of booleans"),
    "category-number": (with_field(category=3), "category must be a string or null"),
    "time-object": (with_field(obs=[{"time": {"h": 1}, "event": "e"}]), "obs must be a non-empty list"),
    "not-an-object": ("[1, 2]", "expected a JSON object"),
    "bad-json": ('{"obs": ', "bad JSON"),
    "deep-nesting": ("[" * 100_000, "nested too deeply"),
    "huge-integer": (with_field(session=None)[:-1] + ', "x": ' + "9" * 5000 + "}", "a number too long"),
    "lone-surrogate": (with_field(pred_task="fix \\ud83d it").replace("\\\\ud83d", "\\ud83d"),
                       "unpaired surrogate (\\ud83d)"),
    "not-utf8": (b'{"obs": "caf\xe9"}', "not UTF-8 text (byte 0xe9)"),
}


@pytest.mark.parametrize("case", sorted(REWARD_CASES))
def test_reward_rows_are_checked_by_type_with_file_and_line(proactive_home, tmp_path, case):
    bad, needle = REWARD_CASES[case]
    path = rows_file(tmp_path, bad)
    line = bad_input("reward", "eval", "--data", str(path), "--rm", "signals")
    assert line.startswith(f"proactive: error: {path}:3: ") and needle in line


def test_rm_train_and_replay_labels_read_rows_the_same_way(proactive_home, tmp_path):
    path = rows_file(tmp_path, with_field(pred_task=[1, 2]), at=2)
    out = tmp_path / "model.json"
    assert f"{path}:2: pred_task" in bad_input("reward", "train", "--data", str(REWARD), "--data", str(path), "--out",
                                               str(out))
    assert not out.exists()
    assert f"{path}:2: pred_task" in bad_input("replay", str(SESSION), "--labels", str(path))


@pytest.mark.parametrize("content, needle", [
    (b"\xff\xfe{", "not a reward-model file (not UTF-8 text)"),
    (b"[" * 100_000, "not a reward-model file (nested too deeply)"),
    (b'{"kind": "proactive-reward-model", "version": ' + b"9" * 5000 + b"}", "a number too long"),
    (b'{"kind": "proactive-reward-model", "version": 2, "silence": 3, "task": []}', "corrupt reward-model file"),
])
def test_bad_reward_model_files(proactive_home, tmp_path, content, needle):
    path = tmp_path / "rm.json"
    path.write_bytes(content)
    line = bad_input("reward", "eval", "--data", str(REWARD), "--rm", str(path))
    assert line.startswith(f"proactive: error: --rm: {path}: ") and needle in line


# --------------------------------------------------------------------------------------------------- decide

@pytest.mark.parametrize("proposal_id", ["99999999999999999999999", "-99999999999999999999999", str(2**63)])
def test_decide_with_a_huge_id(proactive_home, proposal_id):
    # (`--` ends the options: a negative number is an argument, not an option)
    assert bad_input("decide", "--", proposal_id, "accepted").endswith(f"no proposal {proposal_id}")


def test_decide_with_an_unknown_id(proactive_home):
    from proactive.watcher.store.database import Store

    Store().close()
    assert bad_input("decide", "5", "rejected").endswith("no proposal 5")


@pytest.mark.parametrize("final", ["accepted", "rejected", "ignored"])
def test_a_decision_is_final_and_a_second_one_exits_2(proactive_home, final):
    """Snoozing may be repeated (the proposal comes back); after accepted, rejected or ignored, another decision
    on the same proposal exits 2 with one line and stores nothing."""
    import time

    from proactive.watcher.store.database import Store

    store = Store()
    pid = ProposalLog(store).add(time.time(), None, "Explain the TimeoutError in client.py", "", 0.9, {})
    store.close()
    for decision in ("snoozed", "snoozed", final):
        out = run_cli("decide", str(pid), decision, "--no-help", "--json")
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout) == {"proposal": pid, "decision": decision,
                                          "task": "Explain the TimeoutError in client.py", "result": None}
    for second in ("accepted", "rejected", "snoozed"):
        line = bad_input("decide", str(pid), second, "--no-help")
        assert line.endswith(f"proposal {pid} was already {final}: a decision is final (only a snoozed proposal "
                             "can be decided again)"), line
    store = Store()
    stored = [r[0] for r in store.db.execute("SELECT decision FROM decisions WHERE proposal_id = ? ORDER BY id",
                                             [pid])]
    store.close()
    assert stored == ["snoozed", "snoozed", final]


def test_decide_with_a_non_number(proactive_home):
    bad_input("decide", "1e3", "accepted", needle="'1e3' is not a valid integer")


# ------------------------------------------------------------------------------------------------ options

@pytest.mark.parametrize("seed", ["-1", "4294967296", "99999999999999999999", "abc", "1.5", ""])
def test_rm_train_seed_out_of_range(proactive_home, tmp_path, seed):
    out = tmp_path / "m.json"
    bad_input("reward", "train", "--data", str(REWARD), "--out", str(out), "--seed", seed, needle="--seed")
    assert not out.exists()


def test_rm_train_seed_bounds_are_accepted(proactive_home, tmp_path):
    out = run_cli("reward", "train", "--data", str(REWARD), "--out", str(tmp_path / "m.json"), "--seed", "4294967295")
    assert out.returncode == 0, out.stderr


def test_out_file_in_a_missing_folder_is_refused_before_training(proactive_home, tmp_path):
    # a file output's folder must exist, as for cp, gcc -o or sqlite3 (output folders are created: below)
    out = tmp_path / "missing" / "deeper" / "model.json"
    line = bad_input("reward", "train", "--data", str(REWARD), "--out", str(out))
    assert "--out" in line and f"{out.parent} does not exist" in line


def test_out_file_that_is_a_folder(proactive_home, tmp_path):
    bad_input("reward", "train", "--data", str(REWARD), "--out", str(tmp_path), needle="--out")


def test_export_out_in_a_missing_folder(proactive_home, tmp_path):
    line = bad_input("export", "--out", str(tmp_path / "nope" / "rows.jsonl"))
    assert "--out" in line and "does not exist" in line


@pytest.mark.parametrize("value", ["0", "-3", "100000"])
def test_export_context_out_of_range(proactive_home, tmp_path, value):
    bad_input("export", "--out", str(tmp_path / "rows.jsonl"), "--context", value, needle="--context")


def test_out_folders_are_created_with_their_parents(proactive_home, tmp_path):
    out = tmp_path / "new" / "nested" / "report"
    result = run_cli("reward", "eval", "--data", str(REWARD), "--rm", "signals", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert (out / "reliability.png").exists()


def test_out_folder_under_a_file_is_refused_before_any_work(proactive_home, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    line = bad_input("reward", "eval", "--data", str(REWARD), "--rm", "signals", "--out", str(blocker / "sub"))
    assert "--out" in line and "is a file, not a folder" in line
    cache = tmp_path / "cache.db"
    bad_input("replay", str(SESSION), "--out", str(blocker / "sub"), "--cache", str(cache), needle="--out")
    assert not cache.exists()


def test_replay_cache_options(proactive_home, tmp_path):
    bad_input("replay", str(SESSION), "--cache", str(tmp_path / "missing" / "c.db"), needle="--cache")
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database " * 500)
    line = bad_input("replay", str(SESSION), "--cache", str(garbage), "--rm", "signals", "--judge", "signals")
    assert "--cache" in line and "garbage.db" in line


# ------------------------------------------------------------------------------------------------ baselines

def test_replay_baselines_missing_folder(proactive_home, tmp_path):
    bad_input("replay", str(SESSION), "--baselines", str(tmp_path / "missing"), needle="--baselines")


def test_replay_baselines_without_a_trace_of_the_sessions(proactive_home, tmp_path):
    (tmp_path / "traces" / "model-a").mkdir(parents=True)
    (tmp_path / "traces" / "model-a" / "other.json").write_text("[]")
    line = bad_input("replay", str(SESSION), "--baselines", str(tmp_path / "traces"))
    assert "no archived trace of session_small.json" in line


def baselines_with_a_bad_one(tmp_path: Path) -> tuple[Path, Path]:
    """A baselines folder: a good archived model (the fixtures' always-speaks) and model-a, whose trace the test
    writes; returns (folder, model-a's trace path)."""
    import shutil

    folder = tmp_path / "traces"
    shutil.copytree(FIXTURES / "baselines" / "always-speaks", folder / "always-speaks")
    (folder / "model-a").mkdir()
    return folder, folder / "model-a" / SESSION.name


@pytest.mark.parametrize("trace, needle", [
    ('[{"observation": {"time": "1", "event": "e"}, "agent_response": 5}]',
     ":1: turn 1: agent_response must be a task, a list of tasks or null"),
    ('[\n{"observation": {"time": "1", "event": "e"}, "agent_response": [[1]]}]', ":2: turn 1: agent_response"),
    # what an archived ProactiveBench model did write: a tool call where a task belongs
    ('[{"observation": {"time": "1", "event": "e"}, "agent_response": [{"Operation": "browser.search"}]}]',
     ":1: turn 1: agent_response must be a task"),
    ("[" * 100_000, "nested too deeply"),
    ('[{"observation": {"time": "1"}}]', "observation has no 'event'"),
])
def test_a_malformed_baseline_is_left_out_and_named_and_the_run_completes(proactive_home, tmp_path, trace, needle):
    """One bad archived trace never aborts a replay (it used to exit 2 before any work): its model is left out,
    named with the file, line and reason on stderr, in the notes, the JSON summary and report.md; the other
    baselines are scored."""
    folder, bad = baselines_with_a_bad_one(tmp_path)
    bad.write_text(trace)
    out = tmp_path / "out"
    result = run_cli("replay", str(SESSION), "--model", "fake", "--baselines", str(folder), "--out", str(out),
                     "--cache", str(tmp_path / "cache.db"), "--json", timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    summary = json.loads(result.stdout)
    assert set(summary["baselines"]) == {"always-speaks"}
    reason = summary["baselines_failed"]["model-a"]
    assert str(bad) in reason and needle in reason
    warned = [line for line in result.stderr.splitlines() if "model-a" in line]
    assert warned == [f"proactive: warning: baseline model-a left out: {reason}"], result.stderr
    report = (out / "report.md").read_text()
    assert f"baseline model-a left out: {reason}" in report and "always-speaks" in report


def test_replay_baselines_fifo_trace(proactive_home, tmp_path):
    """A FIFO in place of a trace is never opened for reading (it would block): that model is left out."""
    folder, bad = baselines_with_a_bad_one(tmp_path)
    os.mkfifo(bad)
    result = run_cli("replay", str(SESSION), "--model", "fake", "--baselines", str(folder), "--json", "--cache",
                     str(tmp_path / "cache.db"), timeout=60)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "not a regular file" in json.loads(result.stdout)["baselines_failed"]["model-a"]


def test_annotation_file_that_is_a_fifo_or_too_deep_is_refused(tmp_path: Path) -> None:
    """Annotations.load never blocks on a FIFO and names the file for JSON nested too deeply."""
    from proactive.eval.annotation import Annotations
    from proactive.eval.sessions import SessionError

    fifo = tmp_path / "marks.fifo"
    os.mkfifo(fifo)
    with pytest.raises(SessionError, match="not a regular file"):
        Annotations.load(fifo)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(SessionError, match=f"{deep}: cannot read annotations \\(nested too deeply\\)"):
        Annotations.load(deep)


# ---------------------------------------------------------------------------------- files, options, databases

def untouched_line(*args: str, needle: str, timeout: float = 30) -> str:
    """bad_input with a short timeout: reading a FIFO or /dev/zero would hang or fill the memory."""
    return bad_input(*args, needle=needle, timeout=timeout)


def special_file(tmp_path: Path, kind: str, name: str) -> Path:
    """A FIFO, a link to /dev/zero, or a regular file of 2 MB: none is a small regular file."""
    path = tmp_path / name
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    else:
        path.write_bytes(b"# " + b"x" * (2 << 20) + b"\n")
    return path


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "huge"])
@pytest.mark.parametrize("command", [["watch", "--no-aw"], ["purge", "--all", "--yes"], ["run", "--headless"]],
                         ids=lambda c: c[0])
def test_config_toml_that_is_not_a_small_regular_file(proactive_home, kind, command):
    config = special_file(proactive_home, kind, "config.toml")
    untouched_line(*command, needle=f"{config}: ")
    assert config.is_symlink() or config.exists()
    # decide, which loads the config like every writing command, does not hang either: it names the file
    result = run_cli("decide", "1", "accepted", timeout=30)
    assert result.returncode == 2 and f"{config}: " in result.stderr, result.stderr


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "huge"])
def test_key_import_from_a_file_that_is_not_a_small_regular_file(proactive_home, tmp_path, kind):
    key = special_file(tmp_path, kind, "key.txt")
    line = untouched_line("key", "import", str(key), needle="key.txt")
    assert ("not a regular file" if kind != "huge" else "larger than") in line


def test_key_import_from_a_huge_stdin_is_cut_short(proactive_home):
    out = run_cli("key", "import", "-", input="0" * 100_000)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1 and "larger than" in out.stderr


@pytest.mark.parametrize("duration", ["99999999999h", "367d", "0", "0s", "0.0m", "", " ", "-1m", "nanh", "1e9"])
def test_pause_for_out_of_range_is_refused_and_status_still_works(proactive_home, duration):
    untouched_line("pause", "--for", duration, needle="--for")
    assert not (proactive_home / "paused.json").exists()
    out = run_cli("status")
    assert out.returncode == 0 and "capture: off (no watcher running" in out.stdout, out.stderr


@pytest.mark.parametrize("until", [1e300, 1e18, -1e18])
def test_status_reads_a_pause_file_far_in_time(proactive_home, until):
    (proactive_home / "paused.json").write_text(json.dumps({"until": until, "id": "x"}))
    out = run_cli("status")
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr


@pytest.mark.parametrize("args, needle", [
    (["purge", "--all", "--yes", "--wait", "nan"], "--wait"),
    (["purge", "--all", "--yes", "--wait", "inf"], "--wait"),
    (["models", "--timeout", "nan"], "--timeout"),
    (["models", "--timeout", "-inf"], "--timeout"),
    (["episodes", "--since", ""], "--since"),
    (["purge", "--before", ""], "--before"),
])
def test_empty_and_not_a_number_options(proactive_home, args, needle):
    untouched_line(*args, needle=needle)


@pytest.mark.parametrize("args, needle", [
    (["decide", "1"], "Choose from: accepted, rejected, fewer, ignored, snoozed"),
    (["rm"], "proactive rm: give a subcommand: eval, personal or train"),
    (["key"], "proactive key: give a subcommand: export or import"),
    ([], "proactive: give a subcommand: "),
])
def test_missing_subcommand_or_argument_is_one_line(proactive_home, args, needle):
    untouched_line(*args, needle=needle)


@pytest.mark.parametrize("model", ["/nope.gguf", "", "openai:", "openai:ftp://x#m"])
def test_annotate_checks_its_model_before_the_window(proactive_home, model):
    untouched_line("annotate", str(SESSION), "--model", model, needle="--model")


@pytest.mark.parametrize("command", [["watch", "--no-aw"], ["purge", "--all", "--yes"], ["decide", "1", "accepted"],
                                     ["episodes"], ["status"]], ids=lambda c: c[0])
def test_an_empty_db_file_is_not_made_into_a_database(proactive_home, tmp_path, command):
    db = tmp_path / "empty.db"
    db.write_bytes(b"")
    untouched_line(*command, "--db", str(db), needle=f"{db} is empty, not a Proactive database")
    assert db.read_bytes() == b""


@pytest.mark.parametrize("command", [["watch", "--no-aw"], ["purge", "--all", "--yes"], ["episodes"],
                                     ["decide", "1", "accepted"]], ids=lambda c: c[0])
def test_a_dangling_db_link_is_never_deleted(proactive_home, tmp_path, command):
    link = tmp_path / "proactive.db"
    link.symlink_to(tmp_path / "unmounted-drive" / "proactive.db")
    untouched_line(*command, "--db", str(link), needle="--db")
    assert link.is_symlink() and os.readlink(link) == str(tmp_path / "unmounted-drive" / "proactive.db")


def test_a_store_failing_on_a_dangling_link_keeps_it(proactive_home, tmp_path):
    """Below the CLI's check: the store's clean-up after a failed first open removes only what it created."""
    from proactive.watcher.store.database import Store, StoreError

    link = tmp_path / "proactive.db"
    link.symlink_to(tmp_path / "gone" / "proactive.db")
    with pytest.raises(StoreError):
        Store(link)
    assert link.is_symlink()


@pytest.mark.parametrize("db", ["--db-fifo", "--db-dev"])
def test_a_db_that_is_not_a_regular_file(proactive_home, tmp_path, db):
    path = special_file(tmp_path, "fifo" if db == "--db-fifo" else "dev-zero", "x.db")
    untouched_line("episodes", "--db", str(path), needle="not a regular file")


def test_replay_cache_in_another_programs_database_is_refused_untouched(proactive_home, tmp_path):
    import sqlite3

    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.execute("INSERT INTO notes VALUES ('mine')")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    line = untouched_line("replay", str(SESSION), "--cache", str(other), "--rm", "signals", "--judge", "signals",
                          needle="--cache")
    assert "other.db" in line and "without a cache table" in line
    assert other.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p != proactive_home) == ["other.db"]  # no -wal left


DAMAGED_HEADERS = {
    "text": b"# my notes\nthis is not a database\n" * 200,
    "zeros": bytes(8192),
    "png": b"\x89PNG\r\n\x1a\n" + os.urandom(4096),
    "gzip": b"\x1f\x8b\x08\x00" + os.urandom(4096),
    "old-sqlite": b"SQLite format 2\x00" + os.urandom(4096),
    "half-zeroed": os.urandom(6) + bytes(10) + os.urandom(4096),
    "short": b"\x93\x12\xfe",
}


@pytest.mark.parametrize("case", sorted(DAMAGED_HEADERS))
def test_a_damaged_header_is_named_damaged_not_needing_a_key(proactive_home, tmp_path, case):
    db = tmp_path / "x.db"
    db.write_bytes(DAMAGED_HEADERS[case])
    for command in (["episodes"], ["purge", "--all", "--yes"]):
        line = untouched_line(*command, "--db", str(db), needle="damaged or not a database")
        assert str(db) in line and "key" not in line.split("damaged")[0]
        assert "needs its key" not in line
    assert db.read_bytes() == DAMAGED_HEADERS[case]


def test_random_bytes_still_read_as_encrypted(proactive_home, tmp_path):
    """An SQLCipher file starts with a random salt: it is not called damaged (its key is what is missing)."""
    from proactive.watcher.store import crypto

    for i in range(200):  # 200 salts: a false "damaged" is a one-in-a-million event, so none here
        db = tmp_path / f"c{i}.db"
        db.write_bytes(os.urandom(4096))
        assert crypto.file_state(db) == "encrypted", db.read_bytes()[:16]
    assert "needs its key" in untouched_line("episodes", "--db", str(tmp_path / "c0.db"), needle="c0.db")
