"""Annotation: majority and agreement rules, reward rows, and the Qt window end to end (offscreen)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402

from proactive.eval.annotation import (  # noqa: E402
    Annotations,
    cohen_kappa,
    load_database,
    load_observations,
    majority_vote,
    observations_from_store,
)
from proactive.models.labels import normalize_task  # noqa: E402
from proactive.models.reward_data import read_reward_rows  # noqa: E402
from proactive.ui.annotate import AnnotationWindow  # noqa: E402
from tests.conftest import (
    run_cli,  # noqa: E402
    screenshot as shot,  # noqa: E402
)

FIXTURE = Path(__file__).parent / "fixtures" / "session_small.json"
#: agent_response in every archived form: {"candidate_task": [...]} (the shared sessions), {"task"},
#: {"proposed_task"}, a list holding a tool call beside a task, null
ARCHIVED = Path(__file__).parent / "fixtures" / "session_archived_forms.json"


class Answers(list):
    """Answers to the window's questions, in order (Discard when none is left), and the questions asked."""

    asked: list[str]


@pytest.fixture(autouse=True)
def answers(monkeypatch: pytest.MonkeyPatch) -> Answers:
    """The questions the window asks (QMessageBox.question), answered from this list so no test blocks on a
    modal dialog."""
    from PySide6.QtWidgets import QMessageBox

    given = Answers()
    given.asked = []

    def question(parent, title, text, buttons=None, default=None):
        given.asked.append(text)
        return given.pop(0) if given else QMessageBox.StandardButton.Discard

    monkeypatch.setattr(QMessageBox, "question", question)
    return given


def screenshot(widget, name: str) -> Path:
    return shot(widget, f"annotate_{name}.png")


def obs(n: int = 4) -> list[dict[str, str]]:
    return [{"time": f"{1000 + i}.000", "event": f"The user does thing {i}."} for i in range(n)]


# ------------------------------------------------------------------------------------------------ pure module

def test_majority_vote_ties_are_false() -> None:
    assert majority_vote([True, True, False])
    assert not majority_vote([True, False])
    assert not majority_vote([])
    assert not majority_vote([False, False, True])


def test_majority_with_three_annotators_and_a_tie() -> None:
    ann = Annotations(obs())
    for name, need in (("ann", True), ("bob", True), ("cid", False)):
        ann.mark_need(name, 0, need)
    ann.judge("ann", 0, "Fix the timeout", True)
    ann.judge("bob", 0, "Fix the timeout", True)
    ann.judge("cid", 0, "Fix the timeout", False)
    # event 1: a 1-1 tie on need (cid says nothing) -> no help needed; tie on a task -> invalid
    ann.mark_need("ann", 1, True)
    ann.mark_need("bob", 1, False)
    ann.judge("ann", 2, "Search the docs", True)
    ann.judge("bob", 2, "Search the docs", False)
    ann.mark_need("ann", 2, False)
    ann.mark_need("bob", 2, False)
    m = ann.majority()
    assert sorted(m) == [0, 1, 2]
    assert m[0]["help_needed"] is True and m[0]["tasks"] == {"Fix the timeout": True}
    assert m[1]["help_needed"] is False and m[1]["tasks"] == {}
    assert m[2]["tasks"] == {"Search the docs": False} and m[2]["help_needed"] is False
    # a task valid by majority makes help needed even if the need marks say otherwise
    ann.judge("cid", 2, "Search the docs", True)
    assert ann.majority()[2]["help_needed"] is True


def test_cohen_kappa_values() -> None:
    a = [True, True, False, False]
    b = [True, False, False, False]
    assert cohen_kappa(a, b) == pytest.approx(0.5)
    assert cohen_kappa(a, a) == pytest.approx(1.0)
    assert cohen_kappa(a, [not x for x in a]) == pytest.approx(-1.0)
    assert cohen_kappa([True, True], [True, True]) == 1.0  # chance agreement total, full agreement
    assert cohen_kappa([], []) is None


def test_agreement_on_a_small_table() -> None:
    ann = Annotations(obs())
    for i, (x, y) in enumerate(zip([True, True, False, False], [True, False, False, False], strict=True)):
        ann.mark_need("ann", i, x)
        ann.mark_need("bob", i, y)
    ag = ann.agreement()
    assert ag["items"] == 4 and ag["all_agree"] == pytest.approx(0.75)
    assert ag["kappa"] == {"ann / bob": pytest.approx(0.5)}
    assert ag["mean_kappa"] == pytest.approx(0.5)
    single = Annotations(obs())
    single.mark_need("ann", 0, True)
    assert single.agreement() == {"annotators": 1, "items": 0, "all_agree": None, "kappa": {},
                                  "mean_kappa": None}


def test_reward_rows_content(tmp_path: Path) -> None:
    ann = Annotations(obs())
    for name in ("ann", "bob", "cid"):
        ann.mark_need(name, 0, False)
    ann.mark_need("ann", 2, True)
    ann.mark_need("bob", 2, True)
    ann.mark_need("cid", 2, False)
    ann.judge("ann", 2, "  Retry   with backoff ", True)
    ann.judge("bob", 2, "Retry with backoff", False)
    ann.judge("cid", 2, "Retry with backoff", False)
    ann.judge("ann", 2, "Explain the error", True)
    ann.judge("cid", 2, "Explain the error", True)
    rows = ann.to_reward_rows("s.json")
    assert [(r["pred_task"], r["valid"]) for r in rows] == [
        (None, True), (None, False), ("Retry with backoff", False), ("Explain the error", True)]
    silent0, silent2, retry, explain = rows
    assert silent0["obs"] == obs()[:1] and silent0["help_needed"] is False
    assert silent0["annotation"] == [True, True, True] and silent0["category"] == "Correct-Rejection (CR)"
    assert silent2["obs"] == obs()[:3] and silent2["help_needed"] is True
    assert silent2["annotation"] == [False, False, True] and silent2["category"] == "Missed-Need (MN)"
    assert retry["annotation"] == [True, False, False] and retry["category"] == "False-Alarm (FA)"
    assert explain["annotation"] == [True, True] and explain["category"] == "Correct-Detection (CD)"
    assert all(r["session"] == "s.json" and r["help_needed"] is (r["obs"] != obs()[:1]) for r in rows)
    # save / load round trip, then another annotator continues on the same file
    path = tmp_path / "ann.json"
    ann.save(path)
    again = Annotations.load(path)
    assert again.to_reward_rows("s.json") == rows
    again.mark_need("dan", 1, True)
    again.save(path)
    assert Annotations.load(path).annotators == ["ann", "bob", "cid", "dan"]
    # the rows are accepted by the reward reader
    out = tmp_path / "rows.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert len(read_reward_rows([out])) == 4


def test_observations_from_file_and_database(tmp_path: Path) -> None:
    from proactive.watcher.store.database import Store

    assert len(load_observations(FIXTURE)) == 5
    db = tmp_path / "real.db"
    store = Store(db)
    store.add_episodes([{"start": 12.5, "end": 13.0, "app": "Editor", "title": "a.txt", "first_raw_id": 1,
                         "last_raw_id": 1, "event": "The user opens a file.",
                         "sentences": ["The user opens a file."]}])
    assert observations_from_store(store) == [{"time": "12.500", "event": "The user opens a file."}]
    [episode_id] = [e["id"] for e in store.episodes()]
    with store.db.conn:  # the live assistant's decisions after that episode: two proposals, one silence
        for task in ("Summarise a.txt", None, "Summarise a.txt", "Translate a.txt"):
            store.db.execute("INSERT INTO proposals (ts, episode_id, task, response, data) VALUES (14, ?, ?, '', '{}')",
                             [episode_id, task])
    store.close()
    assert load_database(db) == ([{"time": "12.500", "event": "The user opens a file."}],
                                 {0: ["Summarise a.txt", "Translate a.txt"]})
    from proactive.eval.sessions import SessionError

    with pytest.raises(SessionError):
        load_database(tmp_path / "missing.db")


# ---------------------------------------------------------------------------------------------------- window

def label_as(window: AnnotationWindow, qtbot, name: str, plan: dict[int, tuple[bool, dict[str, bool]]]) -> None:
    """Go through the session from the start as `name`: tick help-needed, judge or add tasks, press Next."""
    window.name_edit.setText(name)
    while window.index > 0:
        qtbot.mouseClick(window.prev_button, Qt.MouseButton.LeftButton)
    for i in range(len(window.observations)):
        assert window.index == i
        need, tasks = plan.get(i, (False, {}))
        if need != window.need_box.isChecked():
            window.need_box.click()
        for task, accepted in tasks.items():
            shown = [window.task_list.item(r).text() for r in range(window.task_list.count())]
            if task not in shown:
                window.task_edit.setText(task)
                qtbot.mouseClick(window.add_button, Qt.MouseButton.LeftButton)
                if not accepted:
                    row = [window.task_list.item(r).text() for r in range(window.task_list.count())].index(task)
                    window.task_list.item(row).setCheckState(Qt.CheckState.Unchecked)
            else:
                window.task_list.setCurrentRow(shown.index(task))
                button = window.accept_button if accepted else window.reject_button
                qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        if i < len(window.observations) - 1:
            qtbot.mouseClick(window.next_button, Qt.MouseButton.LeftButton)


def test_window_two_annotators_export_and_train(qtbot, tmp_path: Path) -> None:
    window = AnnotationWindow(load_observations(FIXTURE), annotator="", session_name=FIXTURE.name)
    qtbot.addWidget(window)
    window.show()
    assert not window.need_box.isEnabled()  # no name yet
    assert window.position_label.text() == "Event 1 of 5"
    screenshot(window, "empty")

    label_as(window, qtbot, "alice", {
        2: (True, {"Explain the ReadTimeout error and suggest a retry with backoff": True,
                   "Open the requests documentation": False}),
        3: (True, {"Show how to configure retries with requests' HTTPAdapter": True}),
    })
    assert window.index == 4
    assert "(start of the session)" not in window.context_view.toPlainText()
    assert "Google" in window.context_view.toPlainText()  # the previous events are shown as context
    from datetime import datetime

    stamp = datetime.fromtimestamp(float(window.observations[4]["time"])).strftime("%Y-%m-%d %H:%M:%S")
    assert window.event_view.toPlainText().startswith(stamp)  # epoch seconds shown as a local date and time
    window.previous()
    window.previous()
    assert window.index == 2 and window.need_box.isChecked()
    states = [window.task_list.item(r).checkState() for r in range(window.task_list.count())]
    assert states == [Qt.CheckState.Checked, Qt.CheckState.Unchecked]
    screenshot(window, "alice")

    label_as(window, qtbot, "bob", {
        2: (True, {"Explain the ReadTimeout error and suggest a retry with backoff": True,
                   "Open the requests documentation": True}),
        3: (False, {"Show how to configure retries with requests' HTTPAdapter": False}),
    })
    # bob's own votes are shown for him
    window.go_to(3)
    assert window.task_list.item(0).checkState() == Qt.CheckState.Unchecked
    window.go_to(2)
    assert "2 annotators" in window.status_label.text() and "κ alice / bob" in window.status_label.text()
    screenshot(window, "bob")

    ag = window.annotations.agreement()
    assert ag["annotators"] == 2 and 0 < ag["all_agree"] < 1
    m = window.annotations.majority()
    assert sorted(m) == [0, 1, 2, 3, 4]
    assert m[2]["help_needed"] and m[2]["tasks"] == {
        "Explain the ReadTimeout error and suggest a retry with backoff": True,
        "Open the requests documentation": False}
    assert m[3]["help_needed"] is False  # 1-1 tie
    assert m[0]["help_needed"] is False and m[0]["tasks"] == {}

    export = tmp_path / "labels.jsonl"
    assert window.export(export) == 5 + 2 + 1
    rows = read_reward_rows([export])
    assert {r["session"] for r in rows} == {"session_small.json"}
    assert sum(r["pred_task"] is None for r in rows) == 5

    saved = tmp_path / "annotations.json"
    window.save(saved)
    reopened = AnnotationWindow([], Annotations.load(saved), annotator="alice")
    qtbot.addWidget(reopened)
    assert reopened.annotations.annotators == ["alice", "bob"]

    model = tmp_path / "model.json"
    result = run_cli("reward", "train", "--data", str(export), "--out", str(model), timeout=120)
    assert result.returncode == 0, result.stderr
    assert model.exists()


def test_ask_the_agent_adds_its_candidates(qtbot, default_model) -> None:
    """The real default model suggests tasks (k=3) for the current event; they arrive unjudged."""
    from proactive.assistant.agent import Agent

    agent = Agent(default_model, k=3)
    asked: list[tuple[int, list[str]]] = []

    def suggest(observations: list[dict[str, str]]) -> list[str]:
        tasks = agent.predict(observations).candidates
        asked.append((len(observations), tasks))
        return tasks

    window = AnnotationWindow(load_observations(FIXTURE), annotator="carol", session_name=FIXTURE.name,
                              suggest=suggest)
    qtbot.addWidget(window)
    window.show()
    window.go_to(2)
    assert window.ask_button.isVisible() and window.task_list.count() == 0
    qtbot.mouseClick(window.ask_button, Qt.MouseButton.LeftButton)
    assert not window.ask_button.isEnabled()  # one question at a time
    qtbot.waitUntil(lambda: window.suggesting is None, timeout=120000)
    [(n_context, tasks)] = asked
    assert n_context == 3 and tasks  # the events up to the current one
    shown = [window.task_list.item(r).text() for r in range(window.task_list.count())]
    assert shown == window.annotations.candidates_at(2) and set(shown) == {normalize_task(t) for t in tasks}
    assert all(window.task_list.item(r).checkState() == Qt.CheckState.PartiallyChecked for r in range(len(shown)))
    screenshot(window, "agent")
    window.task_list.setCurrentRow(0)
    qtbot.mouseClick(window.accept_button, Qt.MouseButton.LeftButton)
    assert window.annotations.task_of("carol", 2, shown[0]) is True


def test_ask_the_agent_failure_is_shown(qtbot) -> None:
    def broken(observations: list[dict[str, str]]) -> list[str]:
        raise RuntimeError("model file is corrupt")

    window = AnnotationWindow(load_observations(FIXTURE), annotator="carol", suggest=broken)
    qtbot.addWidget(window)
    qtbot.mouseClick(window.ask_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.suggesting is None, timeout=5000)
    assert "The agent failed: model file is corrupt" in window.status_label.text()
    assert window.ask_button.isEnabled() and window.task_list.count() == 0


# ------------------------------------------------------------------------- candidates, unsaved work, keys, size

def test_candidates_from_every_archived_form(qtbot) -> None:
    """The shared sessions keep the agent's tasks under agent_response.candidate_task; older files under task or
    proposed_task, or as a bare list or string. All are candidates; a tool call where a task belongs is not."""
    from proactive.eval.annotation import load_candidates

    candidates = load_candidates(ARCHIVED)
    assert candidates == {
        1: ["Explain how to capitalize each word in Ruby with split, map and join.",
            "Show the documentation of String#capitalize."],
        2: ["Explain the NoMethodError for titleize and suggest a plain-Ruby replacement."],
        3: ["Suggest a test for capitalize_words."],
        4: ["Suggest running rubocop on helpers.rb."]}
    window = AnnotationWindow([], annotator="dana")
    qtbot.addWidget(window)
    window.open_session(ARCHIVED)
    window.go_to(1)
    shown = [window.task_list.item(r).text() for r in range(window.task_list.count())]
    assert shown == candidates[1]
    assert all(window.task_list.item(r).checkState() == Qt.CheckState.PartiallyChecked for r in range(2))


def test_unsaved_work_is_autosaved_and_closing_asks(qtbot, proactive_home: Path, tmp_path: Path, answers) -> None:
    """Marks are autosaved after a pause; closing with unsaved marks asks: Cancel keeps the window, Save writes
    the file chosen before (Ctrl+S), and a window with nothing unsaved closes without a question."""
    from PySide6.QtWidgets import QMessageBox

    window = AnnotationWindow([], annotator="erin")
    qtbot.addWidget(window)
    window.open_session(ARCHIVED)
    active(qtbot, window)
    assert not window.unsaved
    window.need_box.setChecked(True)
    window.judge("Show the documentation of String#capitalize.", False)
    assert window.unsaved
    autosaved = proactive_home / "annotations" / "autosave-session_archived_forms.json"
    qtbot.waitUntil(autosaved.exists, timeout=10000)
    assert Annotations.load(autosaved).need_of("erin", 0) is True

    answers.append(QMessageBox.StandardButton.Cancel)
    assert not window.close() and window.isVisible()  # Cancel: still open, nothing lost
    assert "Save your annotations of session_archived_forms.json before closing?" in answers.asked[-1]
    assert str(autosaved) in answers.asked[-1]

    saved = tmp_path / "erin.json"
    window.save(saved)
    assert not window.unsaved
    window.go_to(2)
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)  # help needed at event 3
    assert window.unsaved
    answers.append(QMessageBox.StandardButton.Save)
    assert window.close()  # saved to the file chosen before, then closed
    assert Annotations.load(saved).need_of("erin", 2) is True
    asked = len(answers.asked)
    again = AnnotationWindow([], Annotations.load(saved), annotator="erin")
    qtbot.addWidget(again)
    again.show()
    assert again.close() and len(answers.asked) == asked  # nothing unsaved: no question


def active(qtbot, window) -> None:
    """Shown and made the active window (shortcuts reach the active window only)."""
    from PySide6.QtWidgets import QApplication

    window.show()
    window.activateWindow()
    window.windowHandle().requestActivate()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)


def test_keyboard_shortcuts(qtbot) -> None:
    """Next/previous, help needed yes/no and accept/reject of the selected candidate, from the keyboard."""
    from proactive.ui.annotate import SHORTCUTS

    window = AnnotationWindow([], annotator="fay")
    qtbot.addWidget(window)
    window.open_session(ARCHIVED)
    active(qtbot, window)
    ctrl, alt = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.AltModifier
    qtbot.keyClick(window, Qt.Key.Key_Right, alt)
    assert window.index == 1
    qtbot.keyClick(window, Qt.Key.Key_1, ctrl)
    assert window.annotations.need_of("fay", 1) is True
    window.task_list.setCurrentRow(1)
    qtbot.keyClick(window, Qt.Key.Key_Return, ctrl)
    assert window.annotations.task_of("fay", 1, "Show the documentation of String#capitalize.") is True
    window.task_list.setCurrentRow(0)
    qtbot.keyClick(window, Qt.Key.Key_Delete, ctrl)
    assert window.annotations.task_of("fay", 1, window.task_list.item(0).text()) is False
    qtbot.keyClick(window, Qt.Key.Key_0, ctrl)
    assert window.annotations.need_of("fay", 1) is False
    qtbot.keyClick(window, Qt.Key.Key_Left, alt)
    assert window.index == 0
    assert f"({SHORTCUTS['next']})" in window.next_button.text() and "Ctrl+1" in window.need_box.text()


def test_the_window_fits_a_1366_by_768_screen(qtbot) -> None:
    """Its smallest layout fits a laptop screen with a panel, and it is drawn at 1366x768 (a screenshot)."""
    window = AnnotationWindow([], annotator="gus")
    qtbot.addWidget(window)
    window.open_session(ARCHIVED)
    window.go_to(1)
    window.show()
    hint = window.minimumSizeHint()
    assert hint.width() <= 1366 and hint.height() <= 768 - 80, hint
    assert window.height() <= 768 - 80 and window.width() <= 1366
    window.resize(1366, 768)
    screenshot(window, "1366x768")


def test_reopening_a_session_offers_its_autosave_back(qtbot, proactive_home: Path, answers) -> None:
    """Marks never saved to a file (the window closed with Discard) come back when the session is opened again:
    offered, restored on Yes (still unsaved, so closing asks again), left alone on No; another session's
    autosave is never offered."""
    from PySide6.QtWidgets import QMessageBox

    first = AnnotationWindow(load_observations(ARCHIVED), annotator="hana", session_name=ARCHIVED.name)
    qtbot.addWidget(first)
    first.go_to(1)
    first._set_need(True)
    first.judge("Show the documentation of String#capitalize.", True)
    first.autosave()
    answers.append(QMessageBox.StandardButton.Discard)
    assert first.close()

    answers.append(QMessageBox.StandardButton.Yes)
    again = AnnotationWindow(load_observations(ARCHIVED), annotator="hana", session_name=ARCHIVED.name)
    qtbot.addWidget(again)
    assert "were kept" in answers.asked[-1] and "hana" in answers.asked[-1] and ARCHIVED.name in answers.asked[-1]
    assert again.annotations.need_of("hana", 1) is True
    assert again.annotations.task_of("hana", 1, "Show the documentation of String#capitalize.") is True
    assert again.unsaved and "Restored" in again.status_label.text()
    again.go_to(1)
    screenshot(again, "restored_from_autosave")

    asked = len(answers.asked)
    answers.append(QMessageBox.StandardButton.No)
    declined = AnnotationWindow([], annotator="hana")
    qtbot.addWidget(declined)
    declined.open_session(ARCHIVED)
    assert len(answers.asked) == asked + 1 and declined.annotations.marks() == 0
    other = AnnotationWindow(load_observations(FIXTURE), annotator="hana", session_name=FIXTURE.name)
    qtbot.addWidget(other)
    assert len(answers.asked) == asked + 1  # no autosave of that session: nothing offered


def test_an_export_after_loading_annotations_names_the_session(qtbot, proactive_home: Path, tmp_path: Path) -> None:
    """The annotations file keeps the session's name: loaded again (under any file name) and exported, the rows
    say the session file's name, so labels split and merge by session."""
    window = AnnotationWindow(load_observations(FIXTURE), annotator="ivo", session_name=FIXTURE.name)
    qtbot.addWidget(window)
    window._set_need(True)
    saved = tmp_path / "ann_small_ivo.json"
    window.save(saved)
    loaded = AnnotationWindow([], annotator="ivo")
    qtbot.addWidget(loaded)
    loaded.load_annotations(saved)
    export = tmp_path / "labels.jsonl"
    assert loaded.export(export) >= 1
    assert {r["session"] for r in read_reward_rows([export])} == {FIXTURE.name}
    assert loaded.autosave_path().name == f"autosave-{FIXTURE.stem}.json"


def test_not_judged_differs_from_no_and_the_save_name_follows_the_session(qtbot, proactive_home: Path) -> None:
    window = AnnotationWindow(load_observations(FIXTURE), annotator="jo", session_name=FIXTURE.name)
    qtbot.addWidget(window)
    window.show()
    box = window.need_box
    assert box.checkState() == Qt.CheckState.PartiallyChecked and "not judged yet" in box.text()
    assert not box.isChecked() and window.annotations.need_of("jo", 0) is None
    screenshot(window, "need_not_judged")
    box.click()  # a click answers yes, a second no; never back to "not judged"
    assert box.checkState() == Qt.CheckState.Checked and "yes" in box.text()
    assert window.annotations.need_of("jo", 0) is True
    box.click()
    assert box.checkState() == Qt.CheckState.Unchecked and "? no" in box.text()
    assert window.annotations.need_of("jo", 0) is False
    screenshot(window, "need_no")
    window.next()  # passed without a judgement: recorded as no, shown as no when back
    window.previous()
    window.next()
    assert box.checkState() == Qt.CheckState.Unchecked and window.annotations.need_of("jo", 1) is False
    window.next()
    assert box.checkState() == Qt.CheckState.PartiallyChecked  # event 3: not seen yet

    path = window.default_save_path()
    assert path.parent == proactive_home / "annotations" and path.name == f"{FIXTURE.stem}-jo.json"
    window.open_session(ARCHIVED)
    assert window.default_save_path().name == f"{ARCHIVED.stem}-jo.json"


def test_reopening_right_after_save_asks_nothing(qtbot, proactive_home: Path, answers) -> None:
    """Marks saved to a file are not offered back as unsaved when the session is opened again (the autosave is
    gone with the save); an autosave whose marks a file in the folder holds anyway is named, not offered."""
    first = AnnotationWindow(load_observations(ARCHIVED), annotator="ida", session_name=ARCHIVED.name)
    qtbot.addWidget(first)
    first._set_need(True)
    first.autosave()
    assert first.autosave_path().exists()
    first.save(first.default_save_path())
    assert not first.autosave_path().exists()
    assert first.close() and answers.asked == []
    again = AnnotationWindow(load_observations(ARCHIVED), annotator="ida", session_name=ARCHIVED.name)
    qtbot.addWidget(again)
    assert answers.asked == []

    # an autosave left identical to a saved file (saved by an earlier version, or copied): named, not offered
    Annotations.load(first.default_save_path()).save(again.autosave_path())
    third = AnnotationWindow(load_observations(ARCHIVED), annotator="ida", session_name=ARCHIVED.name)
    qtbot.addWidget(third)
    assert answers.asked == []
    assert str(first.default_save_path()) in third.status_label.text()
    screenshot(third, "reopened_after_save")


def test_load_save_and_export_open_in_the_annotations_folder(qtbot, proactive_home: Path, monkeypatch,
                                                            answers) -> None:
    """The three file dialogs start in one folder, the data folder's annotations/, with names for the session;
    Load asks nothing when no mark is left (a mark set and cleared, a name typed)."""
    from PySide6.QtWidgets import QFileDialog

    started: dict[str, str] = {}

    def dialog(kind: str):
        def ask(parent, title, where, filters=""):
            started[title] = where
            return "", ""
        return ask

    monkeypatch.setattr(QFileDialog, "getOpenFileName", dialog("open"))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", dialog("save"))
    window = AnnotationWindow([], annotator="jo")
    qtbot.addWidget(window)
    window.open_session(ARCHIVED)
    window.show()
    window._set_need(True)
    window._set_need(False)
    window.annotations.mark_need("jo", 0, None)  # cleared: nothing marked, though "jo" is now known
    assert not window.unsaved
    for button in (window.load_button, window.save_button, window.export_button):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert answers.asked == []  # Load did not ask to save
    folder = proactive_home / "annotations"
    assert started == {"Load annotations": str(folder),
                       "Save annotations": str(folder / "session_archived_forms-jo.json"),
                       "Export reward labels": str(folder / "session_archived_forms-labels.jsonl")}
    assert folder.is_dir()
