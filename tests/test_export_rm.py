"""`proactive export` turns stored decisions into reward rows that `proactive rm train` accepts; `rm eval` gives
the documented JSON."""

from __future__ import annotations

import json

from proactive.assistant.proposals import ProposalLog
from proactive.watcher.events import TEXT, WINDOW, RawEvent
from proactive.watcher.store.database import Store

from .conftest import FIXTURES, run_cli


def live_history(store: Store) -> None:
    store.add_episodes([
        {"start": 100.0, "end": 110.0, "app": "XTerm", "title": "shell", "first_raw_id": 1, "last_raw_id": 2,
         "event": "The user copies an error message starting 'TimeoutError' from the terminal.",
         "sentences": ["The user copies an error message starting 'TimeoutError' from the terminal."]},
        {"start": 120.0, "end": 130.0, "app": "Firefox", "title": "docs", "first_raw_id": 3, "last_raw_id": 3,
         "event": "The user visits 'requests docs' on docs.python-requests.org in Firefox.",
         "sentences": ["The user visits 'requests docs' on docs.python-requests.org in Firefox."]},
    ])
    store.add_events([RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell"}, ts=100.0),
                      RawEvent("keyboard", TEXT, {"text": "x", "erase": 0, "enter": False}, ts=101.0)])
    with store.db.conn:
        for i, (task, ts) in enumerate([("Suggest a fix for the TimeoutError", 111.0), ("Summarise the docs", 131.0),
                                        ("Open the changelog", 132.0), ("Explain retries", 133.0), (None, 134.0)]):
            store.db.execute("INSERT INTO proposals (id, ts, task, response, score, data) VALUES (?, ?, ?, '', 0.7,"
                             " '{}')", [i + 1, ts, task])
    ProposalLog(store).decide(1, "accepted", 2.0)
    ProposalLog(store).decide(2, "rejected", 1.0)
    ProposalLog(store).decide(3, "ignored", 30.0)
    ProposalLog(store).decide(4, "snoozed", 3.0)


def test_export_then_train(proactive_home, tmp_path):
    store = Store()
    live_history(store)
    store.close()
    out = tmp_path / "mine.jsonl"
    result = run_cli("export", "--out", str(out))
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["pred_task"], r["valid"], r["category"]) for r in rows] == [
        ("Suggest a fix for the TimeoutError", True, "Correct-Detection (CD)"),
        ("Summarise the docs", False, "False-Alarm (FA)")]
    assert rows[0]["obs"][-1]["event"].startswith("The user copies an error") and len(rows[1]["obs"]) == 2
    strict = run_cli("export", "--out", str(tmp_path / "strict.jsonl"), "--ignored", "rejected")
    assert "exported 3 rows" in strict.stdout
    as_json = run_cli("export", "--out", str(tmp_path / "j.jsonl"), "--ignored", "rejected", "--json")
    assert json.loads(as_json.stdout) == {"out": str(tmp_path / "j.jsonl"), "rows": 3, "ignored": "rejected"}
    listed = [line.split()[0] for line in run_cli("--help").stdout.splitlines() if line.startswith("  ")]
    assert "reward" in listed and "rm" not in listed  # the alias is hidden
    model = tmp_path / "rm.json"
    # `rm`, the earlier name of `reward`, is kept as a hidden alias
    train = run_cli("rm", "train", "--data", str(FIXTURES / "reward_small.jsonl"), "--data", str(out),
                    "--out", str(model))
    assert train.returncode == 0, train.stderr
    assert model.exists()
    # several files after one --data, as the docs write it (`--data REWARD.jsonl...`): the same model
    again = tmp_path / "rm2.json"
    train = run_cli("reward", "train", "--data", str(FIXTURES / "reward_small.jsonl"), str(out), "--out", str(again))
    assert train.returncode == 0, train.stderr
    assert again.read_bytes() == model.read_bytes()
    missing = run_cli("reward", "train", "--out", str(tmp_path / "none.json"))
    assert missing.returncode == 2 and "--data" in missing.stderr and len(missing.stderr.strip().splitlines()) == 1
    ev = run_cli("reward", "eval", "--data", str(FIXTURES / "labels_small.jsonl"), "--rm", str(model), "--json")
    assert ev.returncode == 0, ev.stderr
    report = json.loads(ev.stdout)
    assert set(report) >= {"n", "accuracy", "precision", "recall", "f1", "agreement", "seconds_per_item"}
    assert set(report["agreement"]) == {"MN", "CR", "CD", "FA"} and report["n"] == 7


def test_rm_eval_default_and_bad_data(proactive_home, tmp_path):
    ev = run_cli("reward", "eval", "--data", str(FIXTURES / "labels_small.jsonl"), "--json")
    assert ev.returncode == 0, ev.stderr
    assert json.loads(ev.stdout)["seconds_per_item"] < 0.02
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"obs": [{"time": "1", "event": "x"}], "pred_task": null, "valid": true}\n{"obs": \n')
    out = run_cli("reward", "train", "--data", str(bad), "--out", str(tmp_path / "x.json"))
    assert out.returncode == 2 and "bad.jsonl:2" in out.stderr and len(out.stderr.strip().splitlines()) == 1
