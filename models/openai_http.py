"""OpenAI-compatible chat completions over HTTP (llama-server, llama-cpp-python's server, Ollama, vLLM).

The way to use a bigger model than the built-in one, and to run many requests in parallel during replay. The
only network access the assistant ever makes is to the endpoint the user configured here.
Structured output: the schema is sent as `response_format` (json_schema, falling back to the json_object+schema
form that llama-cpp-python's server understands); the answer is parsed and validated anyway, `finish_reason` is
checked, and a bad answer is retried a bounded number of times before it is returned as a counted failure.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from typing import Any

from .base import Generation, Messages, ModelError, Predictor, parse_json_output


class OpenAICompatible(Predictor):
    def __init__(self, base_url: str, model: str = "", timeout: float = 120.0, retries: int = 2,
                 max_tokens: int = 512, api_key: str | None = None):
        if not base_url.startswith(("http://", "https://")):
            raise ModelError(f"openai:{base_url}: the endpoint must be an http(s) URL")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout = timeout
        self.retries = retries
        self.max_tokens = max_tokens
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY", "")
        self.name = f"openai:{model or self.base_url}"
        self._format_style = "json_schema"

    def _post(self, payload: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            self.base_url + "/chat/completions", data=json.dumps(payload).encode(), method="POST",
            headers={"Content-Type": "application/json",
                     **({"Authorization": f"Bearer {self.api_key}"} if self.api_key else {})})
        with urllib.request.urlopen(request, timeout=self.timeout) as resp:
            return json.loads(resp.read())

    def _response_format(self, schema: dict[str, Any]) -> dict[str, Any]:
        if self._format_style == "json_schema":
            return {"type": "json_schema", "json_schema": {"name": "output", "schema": schema, "strict": True}}
        return {"type": "json_object", "schema": schema}

    def complete_json(self, messages: Messages, schema: dict[str, Any], *, temperature: float = 0.0,
                      seed: int | None = None, fixed: dict[str, Any] | None = None) -> Generation:
        # `fixed` cannot be imposed on a remote server: each call answers whole
        started = time.perf_counter()
        error, text, finish, usage = "no attempt", "", "error", {}
        attempts = 0
        for attempt in range(self.retries + 1):
            attempts = attempt + 1
            payload: dict[str, Any] = {
                "model": self.model, "messages": messages, "max_tokens": self.max_tokens,
                # a retry samples a little, so a deterministic bad answer is not repeated verbatim
                "temperature": temperature if attempt == 0 else max(temperature, 0.5),
                "response_format": self._response_format(schema),
            }
            if seed is not None:
                payload["seed"] = seed + attempt
            try:
                reply = self._post(payload)
            except urllib.error.HTTPError as exc:
                body = exc.read().decode("utf-8", "replace")[:200]
                if exc.code in (400, 422, 500) and self._format_style == "json_schema" and "response_format" in body:
                    self._format_style = "json_object"  # an older server: use its own schema form
                    continue
                error = f"HTTP {exc.code}: {body.strip() or exc.reason}"
                continue
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                raise ModelError(f"{self.base_url}: endpoint unreachable ({getattr(exc, 'reason', exc)})") from exc
            except json.JSONDecodeError:
                error = "the endpoint answered something that is not JSON"
                continue
            try:
                choice = reply["choices"][0]
                text = choice["message"].get("content") or ""
                finish = choice.get("finish_reason") or "stop"
                usage = reply.get("usage") or {}
            except (KeyError, IndexError, TypeError, AttributeError):
                error = "the endpoint's reply has no choices[0].message"
                continue
            if finish == "length":
                error = "output truncated (finish_reason=length)"
                continue
            try:
                data = parse_json_output(text, schema)
            except ValueError as exc:
                error = str(exc)
                continue
            return Generation(data=data, text=text, finish_reason=finish,
                              prompt_tokens=int(usage.get("prompt_tokens") or 0),
                              completion_tokens=int(usage.get("completion_tokens") or 0),
                              seconds=time.perf_counter() - started, attempts=attempts)
        return Generation(data=None, text=text, finish_reason="error" if finish != "length" else "length",
                          seconds=time.perf_counter() - started, error=error, attempts=attempts,
                          prompt_tokens=int(usage.get("prompt_tokens") or 0),
                          completion_tokens=int(usage.get("completion_tokens") or 0))
