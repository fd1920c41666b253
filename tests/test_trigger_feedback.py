"""Trigger policy, feedback memory and the gate: table-driven."""

from __future__ import annotations

import pytest

from proactive.assistant.feedback import ACCEPTED, IGNORED, REJECTED, FeedbackMemory, similar
from proactive.assistant.policy import Gate, Proactivity
from proactive.assistant.trigger import APP_CHANGE, BURST, EPISODE, MOMENT, TriggerPolicy
from proactive.models.signals import SignalScorer


def run_script(script: list[tuple]) -> list[str | None]:
    """Apply (time, action, arg) steps; 'due' steps record the policy's answer (and mark a run if due)."""
    policy = TriggerPolicy(min_interval_s=60, min_gap_s=2, burst_events=5, pause_s=3)
    answers = []
    for t, action, arg in script:
        if action == "episode":
            policy.episode_closed(app_changed=arg)
        elif action == "activity":
            policy.activity_seen(arg, t)
        elif action == "moment":
            policy.moment_seen(t, arg)
        elif action == "idle":
            policy.set_idle(arg)
        elif action == "paused":
            policy.set_paused(arg)
        elif action == "proposed":
            policy.proposed(t)
        elif action == "due":
            due = policy.due(t, arg)
            answers.append(None if due is None else due.reason)
            if due is not None:
                policy.ran(t, arg, due.moment)
    return answers


@pytest.mark.parametrize(
    "script, expected",
    [
        ([(0, "episode", False), (1, "due", "k1")], [EPISODE]),
        ([(0, "episode", True), (1, "due", "k1")], [APP_CHANGE]),
        ([(0, "due", "k1")], [None]),  # nothing happened
        ([(0, "activity", 6), (1, "due", "k1"), (4, "due", "k1")], [None, BURST]),  # burst, then a pause
        ([(0, "activity", 3), (4, "due", "k1")], [None]),  # too little activity
        ([(0, "episode", False), (0, "idle", True), (1, "due", "k1")], [None]),  # idle: no inference
        ([(0, "episode", False), (0, "paused", True), (1, "due", "k1")], [None]),  # paused
        ([(0, "episode", False), (1, "due", "k1"), (5, "episode", False), (10, "due", "k1")], [EPISODE, None]),
        ([(0, "episode", False), (10, "due", "k1"), (11, "episode", False), (11.5, "due", "k2"),
          (12.5, "due", "k2")], [EPISODE, None, EPISODE]),  # min gap between inferences, then it runs
        ([(0, "proposed", None), (1, "episode", False), (30, "due", "k1"), (61, "episode", False),
          (70, "due", "k2")], [None, EPISODE]),  # minimum interval after a proposal
        ([(0, "episode", False), (0, "idle", True), (0, "activity", 1), (1, "due", "k1")], [EPISODE]),  # back
        # a moment (a copy, a line entered, a page; its raw id): looked at a second later, with no further input
        ([(0, "activity", 1), (0, "moment", 1), (0.5, "due", 1), (1.0, "due", 1)], [None, MOMENT]),
        # inside the interval between offers a moment is still decided (its Pace: test_moments_inside_the_interval)
        ([(0, "proposed", None), (10, "moment", 1), (12, "due", 1)], [MOMENT]),
        ([(0, "moment", 1), (0, "paused", True), (2, "due", 1)], [None]),  # paused
        # every moment in its turn: the second happened in a later context than the first's (raw id 3)
        ([(0, "moment", 1), (0.2, "moment", 5), (1, "due", 3), (3, "due", 5), (6, "due", 5)], [MOMENT, MOMENT, None]),
        # two moments in one context: one decision covers both
        ([(0, "moment", 1), (0.5, "moment", 2), (1, "due", 2), (4, "due", 2)], [MOMENT, None]),
        # a window switch while a moment settles waits for it, and its decision covers the switch
        ([(0, "moment", 1), (0.2, "episode", True), (0.5, "due", 2), (1, "due", 2), (4, "due", 2)],
         [None, MOMENT, None]),
        # a moment a second after the last run waits for the minimum gap, then runs
        ([(0, "episode", False), (0, "due", 1), (0.5, "moment", 3), (1.5, "due", 3), (2.5, "due", 3)],
         [EPISODE, None, MOMENT]),
        # weak triggers inside the interval are dropped, not kept for later
        ([(0, "proposed", None), (5, "activity", 6), (9, "due", 1), (20, "episode", True), (21, "due", 2),
          (61, "due", 2)], [None, None, None]),
    ],
    ids=["episode", "app-change", "nothing", "burst-pause", "small-burst", "idle", "paused", "unchanged",
         "min-gap", "min-interval", "activity-ends-idle", "moment", "moment-inside-the-interval", "moment-paused",
         "every-moment-in-turn", "one-decision-covers-a-context", "a-switch-waits-for-the-moment",
         "moment-after-the-gap", "weak-inside-the-interval-dropped"],
)
def test_trigger_policy(script, expected):
    assert run_script(script) == expected


@pytest.mark.parametrize(
    "offers, moment_at, expected",
    [
        ([], 100, None),  # no offer yet: no interval running
        ([(0, {"timeouterror: timed out"})], 30, (30, {"timeouterror: timed out"})),
        ([(0, {"timeouterror: timed out"})], 61, None),  # the interval has run out
        # an offer inside the interval adds what it was about, and starts the interval again
        ([(0, {"a"}), (20, {"b"})], 70, (50, {"a", "b"})),
        ([(0, {"a"}), (70, {"b"})], 100, (30, {"b"})),  # one after the interval forgets the earlier errors
    ],
    ids=["none", "inside", "run-out", "accumulates", "starts-again"],
)
def test_moments_inside_the_interval(offers, moment_at, expected):
    """A moment inside the interval between offers is held as a moment (never dropped), decided with the
    interval's Pace: how long since the last offer and which errors the offers inside it were about."""
    policy = TriggerPolicy(min_interval_s=60, min_gap_s=2)
    for t, about in offers:
        policy.proposed(t, about)
    policy.moment_seen(moment_at, 7)
    due = policy.due(moment_at + 1, 7)
    assert due is not None and (due.reason, due.moment, due.at) == (MOMENT, 7, moment_at)
    pace = due.pace
    assert (None if pace is None else (round(pace.since_offer_s), set(pace.offered))) == (
        None if expected is None else (expected[0] + 1, expected[1]))
    if pace is not None:
        assert pace.interval_s == 60 and "too soon after the last offer" in pace.reason


@pytest.mark.parametrize(
    "history, candidate, t, blocked",
    [
        ([("Suggest a fix for the TimeoutError in client.py", REJECTED, 0)],
         "Suggest a fix for TimeoutError in client.py", 60, True),  # cooldown after reject
        ([("Suggest a fix for the TimeoutError in client.py", REJECTED, 0)],
         "Suggest a fix for the TimeoutError in client.py", 1801, False),  # cooled off
        ([("Summarise the Ruby docs page", IGNORED, 0)], "Summarise the Ruby docs page", 300, True),
        ([("Summarise the Ruby docs page", IGNORED, 0)], "Summarise the Ruby docs page", 601, False),
        ([("Write a unit test for parse_name", ACCEPTED, 0)], "Write unit test for parse_name", 7200, True),
        ([("Write a unit test for parse_name", REJECTED, 0)], "Explain the pandas merge error", 10, False),
    ],
    ids=["reject-cooldown", "reject-expired", "ignore-cooldown", "ignore-expired", "accepted-no-repeat",
         "unrelated"],
)
def test_feedback_memory(history, candidate, t, blocked):
    memory = FeedbackMemory()
    for task, decision, ts in history:
        memory.record(task, decision, ts)
    assert (memory.blocked(candidate, now=t) is not None) == blocked
    assert memory.allowed([candidate], now=t) == ([] if blocked else [candidate])


def test_feedback_prompt_lines_and_bad_decision():
    memory = FeedbackMemory()
    memory.record("Open the pandas docs", REJECTED, 0)
    assert memory.prompt_lines(now=10) == ["rejected: Open the pandas docs"]
    with pytest.raises(ValueError):
        memory.record("x", "maybe", 0)


@pytest.mark.parametrize("a, b, same", [
    ("Fix the bug in client.py", "fix bug in client.py", True),
    ("Fix the bug in client.py", "Write the report intro", False),
    # grounded offers are told apart by what they quote
    ("Show example code for 'How to capitalize person name in ruby?' to use in CheckName.rb",
     "Show example code for 'How to split a string in ruby?' to use in CheckName.rb", False),
    ("Show example code for 'How to split a string in ruby?' to use in CheckName.rb",
     "Show example code for 'how to split a string in ruby' to use in CheckName.rb", True),
    ("Summarise the top results for '远程工作软件'", "Summarise the top results for '智能手机发布'", False),
    # two errors of one kind about different names are two offers; the same error said twice is one
    ("Explain the error 'ModuleNotFoundError: No module named ’numpyy’' and suggest a fix",
     "Explain the error 'ModuleNotFoundError: No module named ’reqeusts’' and suggest a fix", False),
    ("Explain the error 'KeyError: ’user_id’'", "Explain the error 'KeyError: ’email’'", False),
    ("Explain the error 'ModuleNotFoundError: No module named ’numpyy’' and suggest a fix",
     "Give the next step for the error 'ModuleNotFoundError: No module named ’numpyy’': the fix", True),
    ("Summarise the top results for '远程工作软件'", "Summarise the top results for '远程工作软件'", True),
    ("Summarise the top results for 'yuancheng gognzuo ruanjian'",
     "Summarise the top results for 'yuancheng gongzuo runajian'", True),
    ("Summarise the top results for 'How can digital payment enhance traificrafic'",
     "Summarise the top results for 'How can digital payment enhance traffic?'", True),
    ("Summarise the top results for 'python regex'", "Show example code for 'python regex' to use in a.py", True),
])
def test_similarity(a, b, same):
    assert similar(a, b) is same


@pytest.mark.parametrize(
    "value, threshold, interval",
    [("low", 0.75, 300), ("medium", 0.5, 90), ("HIGH", 0.3, 30), ("1", 0.1, 30), (0.0, 0.9, 300), ("0.5", 0.5, 165)],
)
def test_proactivity_levels(value, threshold, interval):
    p = Proactivity.parse(value)
    assert (p.threshold, p.min_interval_s) == (threshold, interval)


@pytest.mark.parametrize("value", ["sometimes", "1.5", "-1"])
def test_bad_proactivity(value):
    with pytest.raises(ValueError):
        Proactivity.parse(value)


ERROR_CONTEXT = [{"time": "1", "event": "The user searches on Google for 'requests timeout' in Firefox."},
                 {"time": "2", "event": "The user copies an error message starting 'TimeoutError: timed out' "
                                        "from the terminal."}]
CALM_CONTEXT = [{"time": "1", "event": "The user types 'Dear Anna, thanks' in report.docx in LibreOffice."}]


def test_gate_scores_silence_before_generation():
    gate = Gate(SignalScorer(), Proactivity.parse("medium"))
    assert gate.worth_generating(CALM_CONTEXT) is not None  # silent without generating anything
    assert gate.worth_generating(ERROR_CONTEXT) is None


def test_the_very_offer_whose_accept_gave_nothing_is_not_made_again_soon():
    """An Accept that gave nothing holds back nothing else (an offer that can give is still made), but the same
    offer again would give nothing again: it waits out the ignore cooldown."""
    memory = FeedbackMemory(ignore_cooldown_s=600.0)
    task = "Explain the error 'fatal: No configured push destination.' and suggest a fix"
    memory.record(task, ACCEPTED, ts=1000.0, gave=False)
    assert memory.blocked(task, now=1165.0) is not None
    assert memory.blocked("  " + task.upper(), now=1165.0) is not None  # case and spacing aside
    assert memory.blocked(task, now=1601.0) is None
    other = "Give the next step for the error 'fatal: No configured push destination.': the commands that add a remote"
    assert memory.blocked(other, now=1165.0) is None


@pytest.mark.parametrize("steps, burst", [(14, True), (5, True), (2, False), (1, False)])
def test_a_page_scrolled_through_is_a_burst_of_reading_by_its_wheel_steps(steps: int, burst: bool) -> None:
    """The pipeline sums a scroll gesture into one event with its steps counted: the trigger sees the steps, so a
    page read through (scrolled, then a pause) is looked at, while a nudge of the wheel is not."""
    from proactive.assistant.live import activity
    from proactive.watcher.events import CONTROL, SCROLL, WINDOW, RawEvent

    events = [RawEvent("mouse", SCROLL, {"dx": 0, "dy": -steps, "count": steps}),
              RawEvent("x11", WINDOW, {"app": "Firefox", "title": "A page"}),
              RawEvent("control", CONTROL, {"state": "running"})]
    assert activity(events) == steps
    policy = TriggerPolicy(min_interval_s=60, min_gap_s=2, burst_events=5, pause_s=3)
    policy.activity_seen(activity(events), 100.0)
    assert policy.due(101.0, 7) is None  # still reading: no pause yet
    due = policy.due(104.0, 7)
    assert (due is not None and due.reason == BURST) is burst


@pytest.mark.parametrize("taken, again, other", [
    ("Show the key points of 'Python asyncio: the practical guide'",
     "Show the key points of 'Python asyncio: the practical guide (2026)'",
     ["Show the 3 code examples from 'Python asyncio: the practical guide' for crawler.py",
      "Collect notes from 'Python asyncio: the practical guide' for notes.md"]),
    ("Collect notes from 'Caffeine and sleep' for essay.txt", "Collect notes from 'Caffeine and sleep' for plan.md",
     ["Show the key points of 'Caffeine and sleep'", "Show example code for 'Caffeine and sleep' to use in a.py"]),
    ("Give the next step for the error 'ModuleNotFoundError: No module named ’httpx’': the install command",
     "Explain the error 'ModuleNotFoundError: No module named ’httpx’' and suggest a fix",
     ["Show the code examples for 'ModuleNotFoundError: No module named ’httpx’' for client.py"]),
])
def test_after_help_is_accepted_the_same_kind_about_it_is_held_back_and_other_kinds_follow(taken, again, other):
    """Accepted help about a thing holds back help of the same kind about it (its key points again, an
    explanation after the next step), not what puts it to another use (its code for a file, notes for a
    document); those follow up the help taken. A rejection holds back everything about it."""
    from proactive.assistant.feedback import follows

    memory = FeedbackMemory()
    memory.record(taken, ACCEPTED, ts=100.0)
    assert memory.allowed([again, *other], now=200.0) == other
    assert [follows(t, taken) for t in (again, *other)] == [False] + [True] * len(other)
    assert not follows("Show the key points of 'Debouncing input in JavaScript'", taken.replace("Show the key "
                                                                                              "points", "Collect notes"))
    assert follows("Show the 3 code examples for 'debounce input javascript' from the page you opened, for app.js",
                   "Show the key points of 'Debouncing input events in JavaScript'")  # the page, by its query
    rejected = FeedbackMemory()
    rejected.record(taken, REJECTED, ts=100.0)
    assert rejected.allowed([again, *other], now=200.0) == []


@pytest.mark.parametrize("decision", [ACCEPTED, IGNORED, REJECTED, None])
def test_inside_the_interval_only_help_following_up_an_offer_taken_is_offered(decision) -> None:
    """A moment inside the interval between offers that shows no new error: when the person took the offer that
    started the interval, help building on it (the page's code for the file) is offered and nothing else; when
    they did not take it (ignored, turned down, not answered yet), the moment is silent, too soon, with no
    generation."""
    from proactive.assistant.agent import Prediction
    from proactive.assistant.decision import decide
    from proactive.assistant.trigger import Pace

    gate = Gate(SignalScorer(), Proactivity(threshold=0.0, min_interval_s=90.0), veto=0.0)
    taken = "Show the key points of 'Python asyncio: the practical guide'"
    code = "Show the 3 code examples from 'Python asyncio: the practical guide' for crawler.py"
    unrelated = "Show the key points of 'Sorting a dict by value'"
    context = [{"time": "1", "event": "The user scrolls through the page 'Python asyncio: the practical guide' in "
                                      "Firefox."},
               {"time": "2", "event": "The user types 'async def fetch_page(url):' in crawler.py in Vim."}]
    memory = FeedbackMemory()
    if decision is not None:
        memory.record(taken, decision, ts=1010.0)
    generated = []

    def predict(held_back):
        generated.append(True)
        candidates = [c for c in (unrelated, code) if not held_back(c)]
        return Prediction(candidates, preference={c: 0.5 for c in candidates})

    pace = Pace(since_offer_s=60.0, interval_s=90.0)
    made = decide(gate, memory, context, 1060.0, predict, pace)
    if decision == ACCEPTED:
        assert made.task == code, made.gate.reason
    else:
        assert made.task is None and made.gate.reason == pace.reason and not generated
    # an offer taken before the interval began (an earlier one's): nothing inside it was taken
    other = FeedbackMemory()
    other.record(taken, ACCEPTED, ts=990.0)
    quiet = decide(gate, other, context, 1060.0, predict, pace)
    assert quiet.task is None and quiet.gate.reason == pace.reason


def test_the_pause_after_reading_counts_from_the_last_wheel_step_not_from_when_it_was_stored() -> None:
    """The stage stores a gesture a second after its last wheel step, with how long it lasted; the pipeline writes
    in batches: the burst's pause counts from the person's last step, so the offer about a page read through is not
    late by the pipeline. Typed text counts from its arrival (the composer sent it a pause after the last key)."""
    from proactive.assistant.live import last_input
    from proactive.watcher.events import CLICK, SCROLL, TEXT, RawEvent
    from proactive.watcher.privacy.stage import SCROLL_GESTURE_SECONDS, PrivacyStage
    from proactive.watcher.store.home import Config

    stage = PrivacyStage(Config())
    for k in range(14):
        assert stage.take(RawEvent("mouse", SCROLL, {"dx": 0, "dy": -1}, ts=100.0 + 0.45 * k)) == []
    last_step = 100.0 + 0.45 * 13
    assert stage.tick(last_step + SCROLL_GESTURE_SECONDS - 0.1) == []  # the gesture goes on
    (gesture,) = stage.tick(last_step + SCROLL_GESTURE_SECONDS)
    assert gesture.data["count"] == 14 and gesture.data["seconds"] == pytest.approx(0.45 * 13, abs=1e-3)
    arrived = last_step + 1.4
    assert last_input([gesture], arrived) == pytest.approx(last_step, abs=1e-3)
    assert last_input([gesture, RawEvent("keyboard", TEXT, {"text": "x"}, ts=90.0)], arrived) == arrived
    assert last_input([RawEvent("mouse", CLICK, {"button": "left", "x": 1, "y": 1}, ts=arrived - 0.3)],
                      arrived) == pytest.approx(arrived - 0.3)
    assert last_input([RawEvent("mouse", SCROLL, {"dx": 0, "dy": 1, "count": 1}, ts=arrived + 5)], arrived) == arrived

    policy = TriggerPolicy(min_interval_s=60, min_gap_s=2, burst_events=5, pause_s=2)
    policy.activity_seen(14, arrived, last_input([gesture], arrived))
    assert policy.wait_s(arrived, 5.0) == pytest.approx(last_step + 2 - arrived, abs=1e-3)  # it wakes at the pause
    assert policy.due(last_step + 1.9, 7) is None
    due = policy.due(last_step + 2.0, 7)
    assert due is not None and due.reason == BURST


@pytest.mark.parametrize("setup, now, expected", [
    ([], 10.0, 0.5),  # nothing waits: the loop's tick
    ([("moment", 9.4)], 10.0, 0.4),  # a moment settles a second after it
    ([("moment", 9.8), ("ran", 9.5)], 10.0, 0.5),  # ... and not before the gap after the last inference (capped)
    ([("moment", 8.0), ("ran", 9.0)], 10.0, 0.5),  # settled, gap ends at 11.0: capped by the tick
    ([("moment", 8.0), ("ran", 8.5)], 10.0, 0.5),  # due now: nothing to wait for but the tick
    ([("activity", 9.0)], 10.0, 0.5),  # a burst's pause ends at 12.0: capped
    ([("activity", 8.2)], 10.0, 0.2),
])
def test_the_loop_sleeps_until_a_moment_settles_or_a_burst_pause_ends(setup, now, expected) -> None:
    policy = TriggerPolicy(min_interval_s=60, min_gap_s=2, burst_events=5, pause_s=2, settle_s=1)
    for action, t in setup:
        if action == "moment":
            policy.moment_seen(t, 1)
        elif action == "ran":
            policy.last_inference = t
        else:
            policy.activity_seen(6, t)
    assert policy.wait_s(now, 0.5) == pytest.approx(expected)


@pytest.mark.parametrize("text, burst", [
    ("input.addEventListener('input', debounce(search, 300));", True),
    ("The printing press changed how ideas spread", True),
    ("Go", False),
    ("ok", False),
])
def test_a_line_written_then_a_pause_is_a_burst_by_its_words(text: str, burst: bool) -> None:
    """Typed text counts its words toward the burst: a line written in an editor (no Enter: not a moment of its
    own), then a pause, is looked at; a word or two is not."""
    from proactive.assistant.live import activity
    from proactive.watcher.events import TEXT, RawEvent

    events = [RawEvent("keyboard", TEXT, {"text": text, "erase": 0, "enter": False})]
    policy = TriggerPolicy(min_interval_s=60, min_gap_s=2, burst_events=5, pause_s=2)
    policy.activity_seen(activity(events), 100.0)
    assert policy.due(101.0, 7) is None  # still writing
    due = policy.due(102.5, 7)
    assert (due is not None and due.reason == BURST) is burst


@pytest.mark.parametrize("taken_at, decided", [(None, False), (105.0, True), (95.0, False)])
def test_a_weak_trigger_inside_the_interval_is_decided_once_the_offer_was_taken(taken_at, decided) -> None:
    """Inside the interval after an offer, a burst is dropped, unless the person took that offer (an accept
    before it, about an earlier one, does not count): then it is decided with the interval's pace, which offers
    only help building on the one taken. The next offer shown starts a new interval, not taken yet."""
    policy = TriggerPolicy(min_interval_s=90, min_gap_s=2, burst_events=5, pause_s=2)
    policy.proposed(100.0)
    if taken_at is not None:
        policy.offer_taken(taken_at)
    policy.activity_seen(6, 130.0)
    due = policy.due(133.0, 8)
    assert (due is not None) is decided
    if decided:
        assert due.reason == BURST and due.pace is not None and due.pace.since_offer_s == 33.0
        policy.ran(133.0, 8)
        policy.proposed(140.0)
        policy.activity_seen(6, 150.0)
        assert policy.due(153.0, 9) is None  # a new offer, not taken: its interval drops the burst
