"""`replay --proactivebench DIR` reads a checkout of github.com/thunlp/ProactiveAgent as it is laid out there
(tests/fixtures/proactiveagent mimics it): its sessions, labels and zipped archived traces give the figures the
same files give named one by one."""

from __future__ import annotations

import json
import shutil
import zipfile

from .conftest import FIXTURES
from .replay_support import LABELS, SESSION, WRITING, replay

CHECKOUT = FIXTURES / "proactiveagent"


def figures(out: str) -> dict:
    summary = json.loads(out)
    return {k: v for k, v in summary.items() if k not in ("cache", "run")}


def test_a_checkout_replays_like_its_files(proactive_home, tmp_path):
    """Every session of dataset/test_data (not splits.json), the labels of dataset/reward_data and the traces
    inside eval/traces.zip: the same figures as the same files given by hand."""
    cache = ["--cache", str(tmp_path / "c.db")]
    bench = replay("--proactivebench", str(CHECKOUT), "--model", "fake", "--json", *cache)
    assert bench.returncode == 0, bench.stderr
    summary = json.loads(bench.stdout)
    assert summary["events"] == 10 and set(summary["baselines"]) == {"always-silent", "always-speaks"}
    assert [p.rsplit("/", 1)[-1] for p in summary["run"]["inputs"]["sessions"]] == ["code_11.json", "writing_11.json"]
    shutil.copy(SESSION, tmp_path / "code_11.json")
    shutil.copy(WRITING, tmp_path / "writing_11.json")
    for model in ("always-silent", "always-speaks"):  # the same traces, named after the checkout's session
        (tmp_path / "traces" / model).mkdir(parents=True)
        shutil.copy(FIXTURES / "baselines" / model / SESSION.name, tmp_path / "traces" / model / "code_11.json")
    by_hand = replay(str(tmp_path / "code_11.json"), str(tmp_path / "writing_11.json"), "--model", "fake",
                     "--labels", str(LABELS), "--baselines", str(tmp_path / "traces"), "--json", *cache)
    assert by_hand.returncode == 0, by_hand.stderr
    assert figures(bench.stdout) == figures(by_hand.stdout)

    # one session by its name in dataset/test_data
    one = replay("--proactivebench", str(CHECKOUT), "code_11.json", "--model", "fake", "--json", *cache)
    assert one.returncode == 0 and json.loads(one.stdout)["events"] == 5, one.stderr


def test_traces_unpacked_in_place_are_read_too(proactive_home, tmp_path):
    checkout = tmp_path / "ProactiveAgent"
    shutil.copytree(CHECKOUT, checkout)
    with zipfile.ZipFile(checkout / "eval" / "traces.zip") as z:
        z.extractall(checkout)
    (checkout / "eval" / "traces.zip").unlink()
    done = replay("--proactivebench", str(checkout), "--model", "fake", "--json", "--cache", str(tmp_path / "c.db"))
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)["baselines"]) == {"always-silent", "always-speaks"}


def test_a_missing_part_is_one_line(proactive_home, tmp_path):
    checkout = tmp_path / "ProactiveAgent"
    shutil.copytree(CHECKOUT, checkout)
    cases = [(["code_99.json"], "no session code_99.json")]
    for args, said in cases:
        bad = replay("--proactivebench", str(checkout), *args, "--model", "fake")
        assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and said in bad.stderr, bad.stderr
    (checkout / "eval" / "traces.zip").write_bytes(b"not a zip")
    bad = replay("--proactivebench", str(checkout), "--model", "fake")
    assert bad.returncode == 2 and "traces.zip: cannot read the archived traces" in bad.stderr, bad.stderr
    (checkout / "dataset" / "reward_data" / "train_data.jsonl").unlink()
    bad = replay("--proactivebench", str(checkout), "--model", "fake")
    assert bad.returncode == 2 and "dataset/reward_data/train_data.jsonl" in bad.stderr, bad.stderr
    bad = replay("--proactivebench", str(tmp_path), "--model", "fake")
    assert bad.returncode == 2 and "not a checkout of https://github.com/thunlp/ProactiveAgent" in bad.stderr
    bad = replay("--model", "fake")
    assert bad.returncode == 2 and "--proactivebench" in bad.stderr, bad.stderr
