"""In-process GGUF models through llama-cpp-python, with schema-guided generation.

Why not a JSON grammar: measured here with the default 135M model on 2 cores, grammar-constrained sampling runs
at about 57 tokens/s against 113 without, and every structural token (`{"Purpose": "`, `", "Thoughts": "`...)
costs a full decode step. Schema-guided filling writes the structure itself and lets the model produce only the
values: the keys go into the prompt (batched, ~300 tokens/s), each string value is generated freely until its
closing quote or its `maxLength`, and a nullable field or an enum is decided by comparing the model's
probabilities for the alternatives, which also tells the caller how sure the model was (`Generation.probs`).
The output therefore always parses and follows the schema. llama-cpp-python reuses the KV cache for the longest
common prefix of consecutive prompts, so a context that only grows at its end is cheap to re-run.
"""

from __future__ import annotations

import json
import math
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from . import sharing
from .base import Generation, Messages, ModelError, Predictor, is_nullable, max_length, parse_json_output
from .extras import needs

GGUF_MAGIC = b"GGUF"
CAPABLE_PARAMS = 1_000_000_000
CHATML = ("{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n"
          "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


def check_gguf(path: Path) -> None:
    """Fail early, with a clear message, on a path that is not a readable GGUF file."""
    if not path.exists():
        raise ModelError(f"{path}: no such model file")
    if not path.is_file():
        raise ModelError(f"{path}: not a file")
    try:
        with open(path, "rb") as f:
            magic = f.read(4)
    except OSError as exc:
        raise ModelError(f"{path}: cannot read model file ({exc.strerror})") from exc
    if magic != GGUF_MAGIC:
        raise ModelError(f"{path}: not a GGUF model file")


class LlamaCppModel(Predictor):
    """A GGUF model loaded in this process. Thread-safe (one generation at a time)."""

    def __init__(self, path: Path | str, n_ctx: int = 4096, n_threads: int | None = None, seed: int = 0):
        self.path = Path(path)
        check_gguf(self.path)
        sharing.passive_waits()
        with needs("local", "an in-process GGUF model (llama-cpp-python)"):
            from llama_cpp import Llama
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter
        try:
            # llama-cpp-python defaults to half the cores; on a 2-core laptop that halves our speed. Each call
            # then uses the cores that are free at that moment (sharing.py)
            threads = n_threads or sharing.cores()
            self.llm = Llama(model_path=str(self.path), n_ctx=n_ctx, n_threads=threads, n_threads_batch=threads,
                             seed=seed, verbose=False)
        except (ValueError, RuntimeError) as exc:
            raise ModelError(f"{self.path}: cannot load model ({exc})") from exc
        self.name = self.path.stem
        # below ~1B parameters a model cannot write a usable task (measured with the built-in 135M one,
        # see docs/assistant.md): it only ranks grounded offers
        self.capable = self.llm._model.n_params() >= CAPABLE_PARAMS
        template = self.llm.metadata.get("tokenizer.chat_template") or CHATML
        eos = self.llm._model.token_get_text(self.llm.token_eos())
        bos = self.llm._model.token_get_text(self.llm.token_bos()) if self.llm.token_bos() >= 0 else ""
        self.formatter = Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)
        self.n_vocab = self.llm.n_vocab()
        self.lock = threading.Lock()
        self.max_threads = n_threads
        self._engine = 0.0  # seconds inside llama.cpp during the current generation
        self._prompt_tokens = 0
        self._completion_tokens = 0

    # -- tokens and engine calls -----------------------------------------------------------------------------

    def _share_cpu(self) -> None:
        """Before a generation: threads for the cores free now, the calling thread at low priority."""
        sharing.lower_priority()
        n = sharing.threads_now(self.max_threads)
        self.llm._ctx.set_n_threads(n, n)
        self.threads_used = n

    def count_tokens(self, text: str) -> int:
        return len(self.llm.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def _prompt(self, messages: Messages) -> str:
        """The chat template applied to `messages`. llama-cpp-python types them as its own TypedDicts (one per
        role); ours are the same {"role", "content"} dicts, typed plainly."""
        return self.formatter(messages=messages).prompt  # type: ignore[arg-type]

    def _tokens(self, text: str) -> list[int]:
        return self.llm.tokenize(text.encode("utf-8"), add_bos=False, special=True)

    def _cached_prefix(self, tokens: list[int]) -> int:
        """How many leading `tokens` the model's KV cache already holds."""
        common = 0
        for a, b in zip(self.llm.input_ids[: self.llm.n_tokens], tokens, strict=False):
            if a != b:
                break
            common += 1
        return common

    def _prime(self, tokens: list[int]) -> np.ndarray:
        """Make the model state equal to `tokens` (reusing the cached prefix) and return the next-token logits."""
        llm = self.llm
        common = min(self._cached_prefix(tokens), len(tokens) - 1)  # evaluate >= 1 token for fresh logits
        start = time.perf_counter()
        llm.n_tokens = common
        llm.eval(tokens[common:])
        self._engine += time.perf_counter() - start
        self._prompt_tokens += len(tokens) - common
        return np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(self.n_vocab,)).copy()

    def _string(self, prefix: str, limit: int, temperature: float) -> str:
        """Generate a JSON string's content after `prefix` (which ends with the opening quote)."""
        tokens = self._tokens(prefix)
        self._prompt_tokens += len(tokens) - min(self._cached_prefix(tokens), len(tokens) - 1)
        out = b""
        budget = limit // 2 + 8
        gen = self.llm.generate(tokens, temp=temperature, top_k=40, top_p=0.95, repeat_penalty=1.1, reset=True)
        try:
            for _ in range(budget):
                start = time.perf_counter()
                token = next(gen)  # llama.cpp evaluates the pending tokens and samples the next one
                self._engine += time.perf_counter() - start
                if token == self.llm.token_eos():
                    break
                self._completion_tokens += 1
                out += self.llm.detokenize([token])
                text = out.decode("utf-8", "ignore")
                cut = min((i for i in (text.find('"'), text.find("\n")) if i >= 0), default=-1)
                if cut >= 0:
                    out = text[:cut].encode()
                    break
                if len(text) >= limit:
                    break
        except StopIteration:
            pass
        finally:
            gen.close()
        return out.decode("utf-8", "ignore").strip()[:limit]

    def _choose(self, prefix: str, options: list[str]) -> tuple[int, list[float]]:
        """Pick the most probable continuation among `options` (JSON fragments) after `prefix`; returns the
        chosen index and the probabilities renormalised over the options (first token of each)."""
        base = self._tokens(prefix)
        logits = self._prime(base)
        logp = logits - (logits.max() + math.log(np.exp(logits - logits.max()).sum()))
        scores = []
        for option in options:
            full = self._tokens(prefix + option)
            common = 0
            for a, b in zip(base, full, strict=False):
                if a != b:
                    break
                common += 1
            first = full[common] if common < len(full) else full[-1]
            scores.append(float(logp[first]))
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        probs = [w / total for w in weights]
        return int(np.argmax(scores)), probs

    # -- the interface ---------------------------------------------------------------------------------------

    def rank_options(self, messages: Messages, n: int) -> list[float] | None:
        """One forward pass: the next-token probabilities of "1".."n" after the prompt, renormalised."""
        with self.lock:
            self._engine, self._prompt_tokens, self._completion_tokens = 0.0, 0, 0
            self._share_cpu()
            try:
                logits = self._prime(self._tokens(self._prompt(messages)))
            except (ValueError, RuntimeError):
                return None
            self.last_rank_stats = (self._engine, self._prompt_tokens)
            ids = [self._tokens(str(i))[0] for i in range(1, n + 1)]
            chosen = np.array([logits[t] for t in ids], dtype=np.float64)
            weights = np.exp(chosen - chosen.max())
            return [float(w) for w in weights / weights.sum()]

    def complete_json(self, messages: Messages, schema: dict[str, Any], *, temperature: float = 0.0,
                      seed: int | None = None, fixed: dict[str, Any] | None = None) -> Generation:
        props = schema.get("properties", {})
        with self.lock:
            self._engine, self._prompt_tokens, self._completion_tokens = 0.0, 0, 0
            self._share_cpu()
            started = time.perf_counter()
            if seed is not None:
                self.llm.set_seed(seed)
            prompt = self._prompt(messages)
            text = prompt + "{"
            data: dict[str, Any] = {}
            probs: dict[str, dict[str, float]] = {}
            finish = "stop"
            try:
                for i, (name, spec) in enumerate(props.items()):
                    text += ("" if i == 0 else ", ") + json.dumps(name) + ":"
                    if fixed and name in fixed:
                        data[name] = fixed[name]
                        text += " " + json.dumps(fixed[name], ensure_ascii=False)
                        continue
                    if "enum" in spec:
                        options = [" " + json.dumps(v) for v in spec["enum"]]
                        idx, p = self._choose(text, options)
                        data[name] = spec["enum"][idx]
                        probs[name] = {str(v): pv for v, pv in zip(spec["enum"], p, strict=True)}
                        text += options[idx]
                        continue
                    if is_nullable(spec):
                        idx, p = self._choose(text, [" null", ' "'])
                        probs[name] = {"null": p[0]}
                        if idx == 0:
                            data[name] = None
                            text += " null"
                            continue
                    limit = max_length(spec) or 200
                    value = self._string(text + ' "', limit, temperature)
                    if len(value) >= limit:
                        finish = "length"
                    data[name] = value
                    text += " " + json.dumps(value, ensure_ascii=False)
                out = json.dumps(data, ensure_ascii=False)
                parsed = parse_json_output(out, schema)
                error = None
            except (ValueError, RuntimeError) as exc:  # engine failure (e.g. context full): a counted failure
                parsed, out, error, finish = None, json.dumps(data, ensure_ascii=False), str(exc)[:200], "error"
            return Generation(data=parsed, text=out, finish_reason=finish, prompt_tokens=self._prompt_tokens,
                              completion_tokens=self._completion_tokens, seconds=time.perf_counter() - started,
                              engine_seconds=self._engine, error=error, probs=probs)

    def close(self) -> None:
        if hasattr(self.llm, "close"):
            self.llm.close()
