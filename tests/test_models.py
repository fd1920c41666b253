"""Model backends: the real default GGUF in-process, llama-cpp-python's real OpenAI-compatible server, and the
documented behaviour on garbage (invalid JSON, truncated output, empty output, a file that is not GGUF)."""

from __future__ import annotations

import jsonschema
import pytest

from proactive.assistant.prompt import AGENT_SCHEMA, PromptBuilder
from proactive.models.base import ModelError, parse_json_output
from proactive.models.default import default_model_path
from proactive.models.llama_cpp import LlamaCppModel
from proactive.models.openai_http import OpenAICompatible
from proactive.models.registry import load_model

from .conftest import FIXTURES, run_cli

OBS = [{"time": "1763800041.2", "event": "The user copies an error message starting 'TimeoutError: timed out' "
                                         "from the terminal."}]
JUDGE = {"type": "object", "properties": {"thought": {"type": "string", "maxLength": 60},
                                          "judgement": {"enum": ["accepted", "rejected"]}},
         "required": ["thought", "judgement"]}


def messages(model) -> list[dict]:
    return PromptBuilder(model.count_tokens).messages(OBS)


def test_default_gguf_fills_the_agent_schema(default_model):
    gen = default_model.complete_json(messages(default_model), AGENT_SCHEMA)
    assert gen.error is None and gen.finish_reason in ("stop", "length")
    jsonschema.validate(gen.data, AGENT_SCHEMA)
    assert 0.0 <= gen.probs["Proactive Task"]["null"] <= 1.0
    assert gen.completion_tokens > 0 and 0 < gen.engine_seconds <= gen.seconds


def test_enum_is_chosen_with_probabilities(default_model):
    gen = default_model.complete_json(messages(default_model), JUDGE)
    assert gen.data["judgement"] in ("accepted", "rejected")
    assert sum(gen.probs["judgement"].values()) == pytest.approx(1.0)


def test_fixed_fields_are_kept(default_model):
    gen = default_model.complete_json(messages(default_model), AGENT_SCHEMA, temperature=0.8, seed=3,
                                      fixed={"Purpose": "Fix the timeout", "Thoughts": "An error was copied."})
    assert gen.data["Purpose"] == "Fix the timeout" and gen.data["Thoughts"] == "An error was copied."
    jsonschema.validate(gen.data, AGENT_SCHEMA)


def test_same_prompt_twice_reuses_the_cache():
    model = LlamaCppModel(default_model_path(), n_ctx=4096)  # its own: nothing cached from other tests
    msgs = messages(model)
    first = model.complete_json(msgs, AGENT_SCHEMA)
    again = model.complete_json(msgs, AGENT_SCHEMA)
    # the prompt prefix is not evaluated again: far fewer tokens processed (counted, not timed)
    assert first.prompt_tokens > 100 and again.prompt_tokens < first.prompt_tokens / 4, (first.prompt_tokens,
                                                                                          again.prompt_tokens)


@pytest.mark.parametrize(
    "content, make",
    [
        (b"this is not a model at all" * 10, "junk"),
        (b"GGUF" + b"\x03\x00\x00\x00" + b"\x00" * 64, "truncated"),
        (None, "missing"),
        (None, "directory"),
    ],
)
def test_unusable_model_file_is_a_clear_error(tmp_path, content, make):
    path = tmp_path / "model.gguf"
    if content is not None:
        path.write_bytes(content)
    if make == "directory":
        path.mkdir()
    with pytest.raises(ModelError) as err:
        load_model(str(path))
    assert str(path) in str(err.value) and "\n" not in str(err.value)
    out = run_cli("predict", str(FIXTURES / "session_small.json"), "--model", str(path))
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_openai_backend_against_the_real_llama_cpp_server(llama_server):
    model = OpenAICompatible(llama_server, "default")
    gen = model.complete_json(messages(model), AGENT_SCHEMA)
    assert gen.error is None, gen.error
    jsonschema.validate(gen.data, AGENT_SCHEMA)
    assert gen.completion_tokens > 0
    spec_model = load_model(f"openai:{llama_server}#default")
    assert spec_model.complete_json(messages(model), JUDGE).data["judgement"] in ("accepted", "rejected")


VALID = '{"Purpose": "p", "Thoughts": "t", "Proactive Task": null, "Response": ""}'


@pytest.mark.parametrize(
    "replies, ok, error",
    [
        ([("not json at all", "stop")] * 3, False, "invalid JSON"),
        ([('{"Purpose": "p", "Thou', "length")] * 3, False, "truncated"),
        ([("", "stop")] * 3, False, "empty output"),
        ([(None, "stop")] * 3, False, "empty output"),
        ([('{"Purpose": 3}', "stop")] * 3, False, "schema mismatch"),
        ([("not json", "stop"), (VALID, "stop")], True, None),
        ([("```json\n" + VALID + "\n```", "stop")], True, None),
    ],
    ids=["invalid-json", "truncated", "empty-string", "null-content", "wrong-types", "retry-recovers", "fenced"],
)
def test_garbage_output_is_counted_never_raised(scripted, replies, ok, error):
    for content, finish in replies:
        scripted.reply(content, finish)
    model = OpenAICompatible(scripted.url, "m", retries=2)
    gen = model.complete_json([{"role": "user", "content": "x"}], AGENT_SCHEMA)
    assert (gen.data is not None) == ok
    if error:
        assert error in gen.error and gen.attempts == 3
    assert scripted.requests[-1]["response_format"]["type"] == "json_schema"


def test_server_errors_and_non_json_bodies(scripted):
    scripted.raw(500, "internal error")
    scripted.raw(200, "<html>proxy</html>")
    scripted.raw(502, "bad gateway")  # (429 and 503 are asked again after a backoff: tests/test_model_server.py)
    gen = OpenAICompatible(scripted.url, "m", retries=2).complete_json([{"role": "user", "content": "x"}],
                                                                       AGENT_SCHEMA)
    assert gen.data is None and "HTTP 502" in gen.error


def test_old_server_gets_the_json_object_form(scripted):
    scripted.raw(400, '{"error": "unsupported response_format type json_schema"}')
    scripted.reply(VALID)
    gen = OpenAICompatible(scripted.url, "m").complete_json([{"role": "user", "content": "x"}], AGENT_SCHEMA)
    assert gen.data is not None
    assert scripted.requests[-1]["response_format"] == {"type": "json_object", "schema": AGENT_SCHEMA}


def test_unreachable_endpoint_is_a_model_error():
    with pytest.raises(ModelError, match="unreachable"):
        OpenAICompatible("http://127.0.0.1:9/v1", "m").complete_json([{"role": "user", "content": "x"}],
                                                                     AGENT_SCHEMA)


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"Purpose": "' + "x" * 200 + '", "Thoughts": "t", "Proactive Task": null, "Response": "r"}',
         AGENT_SCHEMA["properties"]["Purpose"]["maxLength"]),
        (VALID, 1),
    ],
)
def test_parse_cuts_overlong_strings(text, expected):
    assert len(parse_json_output(text, AGENT_SCHEMA)["Purpose"]) == expected


def test_llm_judge_gives_the_models_probability_of_accepting(default_model):
    """The judge's score is the model's own probability of the verdict "accepted" for that prompt (not the verdict
    rounded to 0 or 1), and P(need) is the judge rejecting silence."""
    from proactive.models.judge import JUDGE_SCHEMA, LLMJudge

    judge = LLMJudge(default_model)
    for task in (None, "Suggest a fix for the TimeoutError in client.py"):
        gen = default_model.complete_json(judge.messages(OBS, task), JUDGE_SCHEMA)
        verdicts = gen.probs["judgement"]
        assert set(verdicts) == {"accepted", "rejected"} and sum(verdicts.values()) == pytest.approx(1.0)
        assert judge.score(OBS, task) == pytest.approx(verdicts["accepted"])
    assert judge.need(OBS) == pytest.approx(1.0 - judge.score(OBS, None))


def test_rm_eval_with_an_llm_judge(tmp_path):
    """The built-in model as the paper's judge over labelled rows (three of them: each is a generation, and the
    judge's quality is measured by bench/rm_study.py, not here)."""
    import json

    rows = (FIXTURES / "labels_small.jsonl").read_text(encoding="utf-8").splitlines()[:3]
    data = tmp_path / "three.jsonl"
    data.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = run_cli("rm", "eval", "--data", str(data), "--rm", "llm:default", "--json", timeout=300)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["n"] == 3 and result["rm"] == "llm:default" and result["failures"] == 0


def test_llm_judge_failure_is_raised_for_counting(scripted):
    from proactive.models.judge import JudgeFailure, LLMJudge

    for _ in range(3):
        scripted.reply("garbage")
    with pytest.raises(JudgeFailure):
        LLMJudge(OpenAICompatible(scripted.url, "m")).score(OBS, None)


def test_the_fake_model_is_instant_deterministic_and_valid():
    """`--model fake` (fast tests): ranks the offers in order, answers any schema with a valid object, and an
    agent over it chooses among the grounded offers as over the built-in model."""
    from proactive.assistant.agent import Agent
    from proactive.assistant.prompt import AGENT_SCHEMA
    from proactive.models.registry import load_model, model_problem

    assert model_problem("fake") is None
    fake = load_model("fake")
    ranks = fake.rank_options([{"role": "user", "content": "1 or 2 or 3?"}], 3)
    assert ranks == sorted(ranks, reverse=True) and abs(sum(ranks) - 1) < 1e-9
    answer = fake.complete_json([{"role": "user", "content": "?"}], AGENT_SCHEMA)
    assert answer.data is not None and answer.data["Proactive Task"] is None
    context = [{"time": "1", "event": "The user copies an error message starting 'TimeoutError: timed out' from "
                                      "the terminal."}]
    fake.calls = 0
    prediction = Agent(fake, k=3).predict(context)
    assert prediction.candidates and all("TimeoutError: timed out" in c for c in prediction.candidates)
    assert fake.calls == (1 if len(prediction.candidates) > 1 else 0)  # one ranking when there is a choice
