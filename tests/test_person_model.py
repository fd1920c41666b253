"""The person model: shrunk toward the shared model, used only while its own record on the person's past beats the
shared one's, following a person who changes, never muting a kind on implicit signals alone, in the decision path so
live and replay learn alike; and its measurement (`proactive reward personal`), prequential, on simulated persons."""

from __future__ import annotations

import json
import random

import pytest

from proactive.assistant.agent import Prediction
from proactive.assistant.decision import decide
from proactive.assistant.feedback import IGNORED, REJECTED, FeedbackMemory
from proactive.assistant.person_model import (
    ACCEPTED,
    FEWER,
    SILENCE,
    PersonModel,
    Situation,
    application,
    kind_of,
)
from proactive.assistant.policy import Gate, Proactivity
from proactive.eval import personal

from .conftest import FIXTURES, run_cli
from .test_gate import TableScorer

ERROR = Situation("About this error", "debugging", "a terminal")
CODE = Situation("Example code", "coding", "a code editor")


def test_kinds_and_applications_in_words():
    assert kind_of("Explain the error 'x' and suggest a fix", "explain_error") == "About this error"
    assert kind_of("Suggest research articles on payments") == "Something to look up"
    assert kind_of("Show example code for 'split' to use in a.py") == "Example code"
    assert kind_of(None) == SILENCE
    assert application([{"time": "1", "event": "The user switched to Visual Studio Code."}]) == "a code editor"
    assert application([{"time": "1", "event": "The user sits still."}]) == "another application"


def test_a_few_decisions_do_not_move_it_and_a_fitting_shared_model_is_kept():
    model = PersonModel()
    for _ in range(3):
        model.learn(0.7, ERROR, REJECTED)
    assert not model.trusted and model.p_accept(0.7, ERROR) == 0.7  # three noes are not evidence yet
    lenient = PersonModel()  # a person the shared model already fits: it is never replaced
    rng = random.Random(1)
    for _ in range(200):
        shared = rng.random()
        lenient.learn(shared, CODE, ACCEPTED if rng.random() < shared else REJECTED)
    assert not lenient.trusted and lenient.p_accept(0.64, CODE) == 0.64


def test_persons_the_shared_model_fits_lose_nothing_to_its_noise():
    """Twenty persons whose decisions follow the shared P(accept): predicted before each decision is learned, the
    person model's decisions are the shared model's (its own record must be well ahead before it is used)."""
    lost = 0
    for seed in range(20):
        model, rng = PersonModel(), random.Random(seed)
        for _ in range(200):
            shared = rng.random()
            accepted = rng.random() < shared
            lost += ((shared >= 0.5) == accepted) - ((model.p_accept(shared, CODE) >= 0.5) == accepted)
            model.learn(shared, CODE, ACCEPTED if accepted else REJECTED)
    assert lost <= 4  # of 4000 decisions


def test_a_person_who_changes_is_followed_and_the_shared_model_returns():
    """Sixty code examples taken, then turned down: what was learned from the first does not hold for long."""
    model = PersonModel()
    for _ in range(60):
        model.learn(0.3, CODE, ACCEPTED)
    assert model.trusted and model.p_accept(0.3, CODE) > 0.9
    for _ in range(8):
        model.learn(0.3, CODE, REJECTED)
    assert model.p_accept(0.3, CODE) < 0.5  # a count over the whole past still said 0.83 here
    assert not model.trusted and model.record < -model.drop  # back to the shared model: its record is ahead


def test_a_strict_person_is_learned_by_kind_and_moves_the_gate():
    model = PersonModel()
    for _ in range(30):
        model.learn(0.7, ERROR, REJECTED)
        model.learn(0.7, CODE, ACCEPTED)
    assert model.trusted
    assert model.p_accept(0.7, ERROR) < 0.3 < 0.7 < model.p_accept(0.7, CODE)
    assert model.need(0.6, "debugging", "a terminal") < 0.6  # the threshold there moves up
    assert "turned down 30 offers of the kind 'About this error' this week" in model.why_quiet(
        "About this error", now=0.0)
    lines = model.describe()
    assert "About this error: offered less often; 0 taken of 30 shown" in lines


def test_implicit_signals_never_mute_a_kind_but_not_this_kind_does():
    model = PersonModel(explore=0.05)
    for _ in range(60):
        model.learn(0.6, ERROR, IGNORED)
        model.learn(0.6, CODE, ACCEPTED)
    p = model.p_accept(0.6, ERROR)
    assert model.trusted and p < 0.5
    shown = sum(model.shows(p, 0.5) for _ in range(2000))
    assert 40 <= shown <= 160  # held back, yet shown now and then: about 5%
    model.mute("About this error")
    assert model.p_accept(0.99, ERROR) == 0.0 and not any(model.shows(0.0, 0.5) for _ in range(500))
    model.unmute("About this error")
    assert model.p_accept(0.6, ERROR) == p


def test_a_held_back_offer_is_re_shown_as_often_as_the_adjustments_are_unsure_never_never():
    """Turned down forty times, a kind is re-shown about once in a hundred held-back offers (the floor), not one in
    twenty; a kind met once, on which the adjustments are unsure, at the full `explore`; a muted one not at all."""
    model = PersonModel()
    for _ in range(40):
        model.learn(0.6, ERROR, REJECTED)
        model.learn(0.6, CODE, ACCEPTED)
    assert model.trusted and model.p_accept(0.6, ERROR) < 0.5
    sure = model.explore_chance(0.6, ERROR, 0.5)
    assert sure == pytest.approx(model.explore_floor)
    shown = sum(model.shows(model.p_accept(0.6, ERROR), 0.5, sure) for _ in range(4000))
    assert 15 <= shown <= 70  # about 1%: still shown now and then
    draft = Situation("A draft paragraph", "coding", "a code editor")  # never met: only the person's strictness
    assert model.explore_chance(0.45, draft, 0.5) == model.explore
    model.mute("About this error")
    assert model.explore_chance(0.6, ERROR, 0.5) == 0.0


def test_fewer_like_this_counts_more_than_an_ignored_offer():
    fewer, ignored = PersonModel(), PersonModel()
    for _ in range(5):
        fewer.learn(0.6, ERROR, FEWER)
        ignored.learn(0.6, ERROR, IGNORED)
    assert fewer.adjustment(ERROR) < ignored.adjustment(ERROR) < 0


def test_its_state_is_json_and_a_damaged_one_gives_a_fresh_model():
    model = PersonModel()
    for _ in range(30):
        model.learn(0.7, ERROR, REJECTED)
        model.learn(0.7, CODE, ACCEPTED)
    model.mute("A draft paragraph")
    again = PersonModel.from_json(json.loads(json.dumps(model.to_json())))
    assert again.p_accept(0.7, ERROR) == pytest.approx(model.p_accept(0.7, ERROR), abs=1e-5)
    assert again.muted == {"A draft paragraph"} and again.describe() == model.describe()
    assert (again.trusted, again.decisions) == (model.trusted, 60) and again.record == pytest.approx(model.record)
    broken = PersonModel.from_json({"names": ["person"], "mean": [1.0, 2.0], "cov": [[1]]})
    assert broken.names == [] and not broken.trusted
    model.reset()
    assert model.names == [] and model.p_accept(0.7, ERROR) == 0.7 and not model.muted


TASK = "Explain the error 'ModuleNotFoundError' and suggest a fix"
CONTEXT = [{"time": "1", "event": "The user copies 'ModuleNotFoundError: No module named x' in the terminal."}]


def _decide(memory: FeedbackMemory, now: float):
    gate = Gate(TableScorer(0.9, {TASK: 0.7}), Proactivity.parse("medium"))
    prediction = Prediction([TASK], actions={TASK: "explain_error"})
    return decide(gate, memory, CONTEXT, now, lambda held: prediction)


def test_the_decision_path_learns_from_what_it_shows_and_says_why_it_is_quiet():
    memory = FeedbackMemory(reject_cooldown_s=0.0, ignore_cooldown_s=0.0)
    memory.person.explore = 0.0
    shown = quiet = 0
    for i in range(40):
        decision = _decide(memory, float(i))
        if decision.task is None:
            quiet += 1
            assert decision.gate.reason.startswith("learned: you turned down")
            assert "'About this error'" in decision.gate.reason
        else:
            shown += 1
            memory.record(decision.task, REJECTED, float(i))
    assert memory.person.trusted and quiet > 0 and shown >= 5
    assert memory.person.tallies["About this error"].turned_down == shown  # learned once per offer shown
    memory.person.mute("About this error")
    muted = _decide(memory, 100.0)
    assert muted.task is None and TASK in muted.held_back


def test_simulated_persons_prequential_and_as_live():
    rng = random.Random(3)
    kinds = [ERROR, CODE]

    def person(take: float) -> list[personal.Decision]:
        return [personal.Decision(0.65, kinds[i % 2], rng.random() < (take if i % 2 == 0 else 0.8))
                for i in range(120)]

    people = {"strict": person(0.05), "lenient": person(0.8)}
    result = personal.simulate(people)
    assert result["persons"] == 2 and result["decisions"] == 240
    after = result["after"]["50"]
    assert after["personal"] > after["shared"] + 0.2  # the strict one's errors are learned
    assert result["per_person"]["lenient"]["personal"] == result["per_person"]["lenient"]["shared"]
    live = personal.as_live({"strict": [personal.Decision(0.65, ERROR, rng.random() < 0.1) for _ in range(60)]
                             + [personal.Decision(0.65, CODE, rng.random() < 0.8) for _ in range(60)]})
    assert live["strict_persons"] == 1 and live["last"] > live["first"]


def _person(rng: random.Random, take: dict[Situation, float], n: int = 160) -> list[personal.Decision]:
    """A simulated person: offers of the given kinds in turn, the shared P(accept) 0.65 throughout (the shared
    model offers every one), each taken with the person's own chance for its kind."""
    kinds = list(take)
    return [personal.Decision(0.65, kinds[i % len(kinds)], rng.random() < take[kinds[i % len(kinds)]])
            for i in range(n)]


def test_as_live_a_strict_person_is_shown_fewer_offers_and_takes_more_of_them():
    """Someone who takes one error explanation in ten and most code examples: as live (they judge only what is
    shown), the share they take rises from their first offers shown to their last, past the shared model's."""
    people = {f"strict{seed}": _person(random.Random(seed), {ERROR: 0.1, CODE: 0.7}) for seed in range(5)}
    live = personal.as_live(people)
    assert live["strict_persons"] == 5
    assert live["last"] > live["first"] + 0.1 and live["last"] > live["shared_last"] + 0.1
    assert all(p["shown"] < p["offers"] for p in live["per_person"].values())  # fewer shown than offered


def test_as_live_a_lenient_person_is_shown_what_the_shared_model_shows():
    live = personal.as_live({f"lenient{seed}": _person(random.Random(seed), {ERROR: 0.85, CODE: 0.9})
                             for seed in range(5)})
    assert live["strict_persons"] == 0
    assert all(p["shown"] == p["offers"] for p in live["per_person"].values())  # nothing held back


def test_an_inconsistent_person_costs_little_against_the_shared_model():
    """Someone who takes half of everything, whatever it is: nothing can be predicted, so nothing can be gained;
    pooled over ten such persons the person model loses at most 0.02 against the shared model (one of them may
    lose more by chance: where the two disagree, each is right half the time), and it is never sure of a kind."""
    people = {f"coin{seed}": _person(random.Random(seed), {ERROR: 0.5, CODE: 0.5}) for seed in range(10)}
    after = personal.simulate(people)["after"]["50"]
    assert after["personal"] >= after["shared"] - 0.02
    model = PersonModel()
    for d in people["coin0"]:
        model.learn(d.shared, d.situation, d.accepted)
    assert model.explore_chance(0.3, ERROR, 0.5) > model.explore_floor  # never sure it is not wanted


def test_reward_personal_command(proactive_home, tmp_path):
    data = str(FIXTURES / "reward_small.jsonl")
    out = run_cli("reward", "personal", "--data", data, "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert set(result) == {"persons", "decisions", "after", "worst_person_delta"}
    assert set(result["after"]) == {"0", "10", "25", "50"}
    assert set(result["after"]["0"]) == {"n", "shared", "personal"}
    assert result["after"]["0"]["n"] == result["decisions"]
    live = run_cli("reward", "personal", data, "--as-live")
    assert live.returncode == 0 and "share of shown offers taken" in live.stdout
    plot = run_cli("reward", "personal", data, "--out", str(tmp_path))
    assert plot.returncode == 0 and (tmp_path / "learning_curve.png").stat().st_size > 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text(open(data).readline() + '{"obs": []}\n')
    failed = run_cli("reward", "personal", "--data", str(bad))
    assert failed.returncode == 2 and f"{bad}:2:" in failed.stderr and len(failed.stderr.strip().splitlines()) == 1
    none = run_cli("reward", "personal", data, "--session", "nowhere.json")
    assert none.returncode == 2 and "--session" in none.stderr


# -- the person's data: in the store, across restarts, purge and retention, headless ----------------------------


def _shown_and_decided(proactive_home, fake_model, headless: bool = False):
    """A real assistant's step on a copied traceback (test_live's scenario): the offer it shows and stores."""
    from proactive.assistant.agent import Agent
    from proactive.assistant.live import Assistant
    from proactive.assistant.trigger import TriggerPolicy
    from proactive.models.signals import SignalScorer
    from proactive.watcher.store.database import Store

    from .test_live import scenario

    store = Store()
    scenario(store, 1000.0)
    level = Proactivity.parse("high")
    assistant = Assistant(None, Agent(fake_model), Gate(SignalScorer(), level), FeedbackMemory(),
                          TriggerPolicy(level.min_interval_s, min_gap_s=0), record_shown_as_ignored=headless)
    assistant.trigger.episode_closed(app_changed=True)
    shown = assistant.step(store, now=2000.0)
    assert shown is not None and shown.task is not None
    return store, assistant, shown


def _restarted(fake_model):
    """A new assistant process's memory, loaded from the store as `Assistant._run` does at start."""
    from proactive.assistant.agent import Agent
    from proactive.assistant.live import Assistant
    from proactive.assistant.trigger import TriggerPolicy
    from proactive.models.signals import SignalScorer

    level = Proactivity.parse("high")
    assistant = Assistant(None, Agent(fake_model), Gate(SignalScorer(), level), FeedbackMemory(),
                          TriggerPolicy(level.min_interval_s))
    assistant.load_person()
    return assistant.memory.person


def test_what_was_learned_survives_a_restart_through_the_store_and_purge_removes_it(proactive_home, fake_model):
    from proactive.assistant import person_store
    from proactive.assistant.proposals import ProposalLog
    from proactive.watcher.store.home import Config
    from proactive.watcher.store.purging import purge

    store, assistant, shown = _shown_and_decided(proactive_home, fake_model)
    kind = kind_of(shown.task, shown.actions.get(shown.task))
    assert json.loads(store.db.execute("SELECT data FROM proposals WHERE id = ?", [shown.id]).fetchone()[0])[
        person_store.SITUATION]["kind"] == kind  # the situation it was shown in, stored with it
    ProposalLog(store).decide(shown.id, REJECTED)
    assistant.sync_decisions(store)  # what the running assistant does with a decision taken elsewhere
    assistant.memory.person.mute("A draft paragraph")
    person_store.save_muted(store, assistant.memory.person.muted)
    store.close()
    assert assistant.memory.person.tallies[kind].turned_down == 1

    again = _restarted(fake_model)
    assert again.describe() == assistant.memory.person.describe()
    assert again.to_json() == assistant.memory.person.to_json()  # the same numbers, not only the same words
    assert again.muted == {"A draft paragraph"}

    purge(None, None, Config(), timeout=5)  # `proactive purge --all` with no watcher running
    assistant.forget(None)  # what the running watcher tells the assistant after a purge
    assert not assistant.memory.person.tallies and not assistant.memory.person.muted
    after = _restarted(fake_model)
    assert not after.tallies and not after.muted
    assert after.describe() == ["Nothing learned yet: offers are made as for everyone."]


def test_retention_forgets_what_was_learned_from_the_decisions_it_deletes(proactive_home, fake_model):
    from proactive.assistant.proposals import ProposalLog

    store, assistant, shown = _shown_and_decided(proactive_home, fake_model)
    kind = kind_of(shown.task, shown.actions.get(shown.task))
    newer = ProposalLog(store).add(5000.0, None, shown.task, "", 0.7, json.loads(store.db.execute(
        "SELECT data FROM proposals WHERE id = ?", [shown.id]).fetchone()[0]))
    ProposalLog(store).decide(shown.id, REJECTED, ts=2001.0)
    ProposalLog(store).decide(newer, ACCEPTED, ts=5001.0)
    assistant.load_person(store)
    assert (assistant.memory.person.tallies[kind].shown, assistant.memory.person.tallies[kind].taken) == (2, 1)
    store.purge(before=3000.0)  # what retention does to the database
    store.close()
    assistant.forget(3000.0)
    tally = assistant.memory.person.tallies[kind]
    assert (tally.shown, tally.taken, tally.turned_down) == (1, 1, 0)  # only the kept decision is learned from


def test_headless_learns_from_the_final_decision_not_the_provisional_ignore(proactive_home, fake_model):
    from .conftest import run_cli

    store, assistant, shown = _shown_and_decided(proactive_home, fake_model, headless=True)
    kind = kind_of(shown.task, shown.actions.get(shown.task))
    assert assistant.memory.blocked(shown.task, 2001.0) is not None  # held back as ignored meanwhile
    assert kind not in assistant.memory.person.tallies  # but nothing learned from nobody's answer
    out = run_cli("decide", str(shown.id), "accepted", "--no-help")
    assert out.returncode == 0, out.stderr
    assistant.sync_decisions(store)
    tally = assistant.memory.person.tallies[kind]
    assert (tally.shown, tally.taken) == (1, 1)
    assert _restarted(fake_model).tallies[kind].taken == 1  # the same after a restart
    store.close()


def test_decide_takes_fewer(proactive_home, fake_model):
    from .conftest import run_cli

    store, assistant, shown = _shown_and_decided(proactive_home, fake_model, headless=True)
    out = run_cli("decide", str(shown.id), "fewer")
    assert out.returncode == 0 and f"proposal {shown.id}: fewer" in out.stdout, out.stderr
    assistant.sync_decisions(store)
    store.close()
    kind = kind_of(shown.task, shown.actions.get(shown.task))
    assert assistant.memory.person.tallies[kind].turned_down == 1
    again = run_cli("decide", str(shown.id), "accepted")
    assert again.returncode == 2 and "already fewer" in again.stderr  # final, like a rejection
