"""OpenAI-compatible chat completions over HTTP (llama-server, llama-cpp-python's server, Ollama, vLLM).

The way to use a bigger model than the built-in one, and to run many requests in parallel during replay. The
only network access the assistant ever makes is to the endpoint the user configured here.
Structured output: the schema is sent as `response_format` (json_schema, falling back to the json_object+schema
form that llama-cpp-python's server understands); the answer is parsed and validated anyway, `finish_reason` is
checked, and a bad answer is retried a bounded number of times before it is returned as a counted failure.

The endpoint is named the usual way: `openai:BASE_URL#MODEL`, where BASE_URL may end in `/v1` or not
(`http://127.0.0.1:8080` means `http://127.0.0.1:8080/v1`); an empty BASE_URL means `OPENAI_BASE_URL`, and
`OPENAI_API_KEY`, when set, is sent as a bearer token, to the configured host only (a redirect to another host
is followed without it). `check()` asks the server once before any work, so a wrong URL, key or model name is
one clear line at start rather than a run in which every turn failed. A server answering 429 or 503 (busy,
still loading its model) is asked again after a bounded backoff, honouring a small Retry-After.
"""

from __future__ import annotations

import email.utils
import errno
import json
import os
import random
import socket
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from .base import Generation, Messages, ModelError, Predictor, parse_json_output

BUSY = (429, 503)  # "too many requests", "unavailable" (llama-server answers 503 while it loads the model)


def normalize_base_url(url: str) -> str:
    """The API root of an OpenAI-compatible server: `http://h:8080`, `http://h:8080/` and `http://h:8080/v1`
    all give `http://h:8080/v1`; a path other than the root is kept (e.g. `https://host/openai/v1`), and a
    pasted `.../chat/completions` or `.../models` is cut back to its root. An empty URL means OPENAI_BASE_URL.
    Raises ModelError (one line) when no usable http(s) URL is left."""
    url = (url or "").strip() or os.environ.get("OPENAI_BASE_URL", "").strip()
    if not url:
        raise ModelError("openai: no server URL: write openai:BASE_URL#MODEL (e.g. openai:http://127.0.0.1:8080"
                         "#NAME) or set OPENAI_BASE_URL")
    url = url.rstrip("/")
    for suffix in ("/chat/completions", "/models"):
        if url.endswith(suffix):
            url = url[: -len(suffix)].rstrip("/")
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises on a bad port
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ModelError(f"openai:{url}: the endpoint must be an http(s) URL such as http://127.0.0.1:8080/v1")
    if parts.path in ("", "/"):
        url += "/v1"
    return url


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    return parts.scheme, (parts.hostname or "").lower(), port


class _KeyStaysHome(urllib.request.HTTPRedirectHandler):
    """Follows redirects as urllib does, but a redirect to another scheme, host or port loses the Authorization
    header (urllib would copy it): the key goes to the configured server only."""

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> urllib.request.Request | None:
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None and _origin(newurl) != _origin(req.full_url):
            new.remove_header("Authorization")
        return new


def retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header (a number of seconds or an HTTP date), or None when absent or bad."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _one_line(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _refused(reason: Any) -> bool:
    return isinstance(reason, ConnectionRefusedError) or getattr(reason, "errno", None) == errno.ECONNREFUSED


class OpenAICompatible(Predictor):
    def __init__(self, base_url: str = "", model: str = "", timeout: float = 120.0, retries: int = 2,
                 max_tokens: int = 512, api_key: str | None = None, busy_retries: int = 5, backoff: float = 0.5,
                 max_retry_after: float = 15.0, check_timeout: float = 10.0):
        self.base_url = normalize_base_url(base_url)
        self.model = model
        self.timeout = timeout
        self.retries = retries
        self.max_tokens = max_tokens
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY", "")
        # 429/503: asked again up to `busy_retries` times, waiting backoff * 2^i (or a Retry-After up to
        # `max_retry_after` seconds; a longer one is not waited for)
        self.busy_retries = busy_retries
        self.backoff = backoff
        self.max_retry_after = max_retry_after
        self.check_timeout = check_timeout
        self.name = f"openai:{model or self.base_url}"
        self._format_style = "json_schema"
        self._opener = urllib.request.build_opener(_KeyStaysHome())

    # ---------------------------------------------------------------------------------------------- transport

    def _request(self, path: str, payload: dict[str, Any] | None, timeout: float) -> bytes:
        """GET (no payload) or POST JSON to BASE_URL + path; 429 and 503 are retried with backoff. Raises
        urllib.error.HTTPError for any other error status (or a busy server that stayed busy) and
        URLError/TimeoutError/ConnectionError when nothing answers."""
        headers = {"Accept": "application/json"}
        if payload is not None:
            headers["Content-Type"] = "application/json"
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        data = None if payload is None else json.dumps(payload).encode()
        for attempt in range(self.busy_retries + 1):
            request = urllib.request.Request(self.base_url + path, data=data, headers=headers,
                                             method="GET" if data is None else "POST")
            try:
                with self._opener.open(request, timeout=timeout) as resp:
                    return bytes(resp.read())
            except urllib.error.HTTPError as exc:
                if exc.code not in BUSY or attempt == self.busy_retries:
                    raise
                wait = retry_after(exc.headers.get("Retry-After") if exc.headers else None)
                if wait is None:
                    wait = self.backoff * 2 ** attempt * (1 + 0.25 * random.random())
                elif wait > self.max_retry_after:
                    raise  # "come back in ten minutes": not waited for
                exc.close()
                time.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    def _post(self, payload: dict[str, Any]) -> dict[str, Any]:
        return dict(json.loads(self._request("/chat/completions", payload, self.timeout)))

    def _unreachable(self, exc: BaseException, timeout: float) -> ModelError:
        """The one line for a server that did not answer at all."""
        url = self.base_url
        reason = getattr(exc, "reason", exc)
        if isinstance(reason, TimeoutError) or isinstance(exc, TimeoutError):
            return ModelError(f"{url}: endpoint unreachable (no answer within {timeout:g} s): is the server running "
                              f"at {url}?")
        if _refused(reason):
            return ModelError(f"{url}: endpoint unreachable (connection refused): is the server running at {url}?")
        if isinstance(reason, socket.gaierror):
            return ModelError(f"{url}: endpoint unreachable (cannot resolve {urlsplit(url).hostname}): check the URL")
        return ModelError(f"{url}: endpoint unreachable ({_one_line(str(reason), 100)}): is the server running at "
                          f"{url}?")

    def _http_error(self, exc: urllib.error.HTTPError, path: str) -> ModelError:
        """The one line for an error status, naming what to fix."""
        try:
            body = _one_line(exc.read().decode("utf-8", "replace"), 120)
        except OSError:
            body = ""
        status = f"HTTP {exc.code}" + (f" ({body})" if body else f" {exc.reason}" if exc.reason else "")
        url = self.base_url
        if exc.code in (401, 403):
            sent = "the key was refused" if self.api_key else "no key was sent"
            return ModelError(f"{url}: {status}, {sent}: check the key (OPENAI_API_KEY)")
        if exc.code == 404:
            model = f" #{self.model}" if self.model else ""
            return ModelError(f"{url}{path}: {status}: check the URL and the model name{model}")
        if exc.code in BUSY:
            return ModelError(f"{url}: {status}: the server is busy (overloaded or still loading its model): "
                              "try again later")
        return ModelError(f"{url}{path}: {status}: check the URL, the model name and the server's log")

    # ------------------------------------------------------------------------------------------------- check

    def _listing(self) -> tuple[list[str] | None, bool]:
        """(the names GET /models reports or None, whether a one-token completion should tell more)."""
        try:
            raw = self._request("/models", None, self.check_timeout)
        except urllib.error.HTTPError as exc:
            if exc.code not in (404, 405, 501):
                raise self._http_error(exc, "/models") from None
            exc.close()
            # 404: no such route here (a wrong path, or a server without /models): a completion tells more;
            # 405/501: a server without GET at all: it answered, there is nothing more to learn
            return None, exc.code == 404
        except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as exc:
            raise self._unreachable(exc, self.check_timeout) from None
        try:
            data = json.loads(raw)["data"]
            return [str(m["id"]) for m in data if isinstance(m, dict) and "id" in m], True
        except (ValueError, KeyError, TypeError):
            return None, True  # a web page or something else: does this URL complete?

    def _probe(self) -> None:
        """A one-token completion: whether the URL completes and the model name exists."""
        payload = {"model": self.model, "messages": [{"role": "user", "content": "Say OK."}], "max_tokens": 1,
                   "temperature": 0.0}
        try:
            raw = self._request("/chat/completions", payload, self.timeout)
        except urllib.error.HTTPError as exc:
            if exc.code in (400, 422):  # it understood the request and disliked a detail: it is a completion API
                exc.close()
                return
            raise self._http_error(exc, "/chat/completions") from None
        except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as exc:
            raise self._unreachable(exc, self.timeout) from None
        try:
            json.loads(raw)["choices"]
        except (ValueError, KeyError, TypeError):
            raise ModelError(f"{self.base_url}/chat/completions: the answer is not an OpenAI-compatible "
                             f"completion ({_one_line(raw.decode('utf-8', 'replace'), 60)}): check the URL") from None

    def check(self) -> None:
        """Ask the server once, before any work: raises ModelError with one line naming the fix (start the server,
        the URL, the key, the model name) when it cannot be used. Without a model name, a server serving one
        model gets that one; a server serving several asks for a choice."""
        names, probe = self._listing()
        if names is None:  # no /models: a one-token completion tells whether this URL works
            if probe:
                self._probe()
            return
        if not self.model:
            if len(names) > 1:
                shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
                raise ModelError(f"{self.base_url}: the server has several models ({shown}): name one, e.g. "
                                 f"openai:{self.base_url}#{names[0]}")
            if names:
                self.model = names[0]
                self.name = f"openai:{self.model}"
            return
        if self.model in names or f"{self.model}:latest" in names:
            return
        # not listed: servers that ignore the name (llama-server) or load on demand still answer; others say 404
        try:
            self._probe()
        except ModelError as exc:
            if names and "HTTP 404" in str(exc):
                shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
                raise ModelError(f"{exc} (the server lists: {shown})") from None
            raise

    # -------------------------------------------------------------------------------------------- generation

    def _response_format(self, schema: dict[str, Any]) -> dict[str, Any]:
        if self._format_style == "json_schema":
            return {"type": "json_schema", "json_schema": {"name": "output", "schema": schema, "strict": True}}
        return {"type": "json_object", "schema": schema}

    def complete_json(self, messages: Messages, schema: dict[str, Any], *, temperature: float = 0.0,
                      seed: int | None = None, fixed: dict[str, Any] | None = None) -> Generation:
        # `fixed` cannot be imposed on a remote server: each call answers whole. Safe to call from several
        # threads at once (replay --parallel): no state but the response_format style, which only ever degrades.
        started = time.perf_counter()
        error, text, finish = "no attempt", "", "error"
        usage: dict[str, Any] = {}
        attempts = 0
        for attempt in range(self.retries + 1):
            attempts = attempt + 1
            style = self._format_style
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
                if exc.code in (400, 422, 500) and style == "json_schema" and "response_format" in body:
                    self._format_style = "json_object"  # an older server: use its own schema form
                    continue
                error = f"HTTP {exc.code}: {body.strip() or exc.reason}"
                if exc.code in BUSY:  # already retried with backoff: asking again at once would not help
                    break
                continue
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                raise self._unreachable(exc, self.timeout) from exc
            except (json.JSONDecodeError, UnicodeDecodeError, TypeError, ValueError):
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
