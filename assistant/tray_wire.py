"""The tray app's requests and the assistant's events as JSON lines over a connected socket pair.

`proactive run` makes the pair (`socket.socketpair`: connected at birth, nothing listens, no address anyone else
can reach) and hands one end to the tray's process. On the assistant's side `serve` reads the tray's requests
and calls the `Backend` (tray_backend.py), and `WireEvents` writes what the assistant tells the tray; on the
tray's side `RemoteBackend` writes the requests and `RemoteBackend.listen` reads the events. One message per
line: `{"op": NAME, ...arguments}`. JSON lines because both ends are ours, the messages are small and a person
can read them in a trace; a message that cannot be read is logged and skipped, never a crash.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
from collections.abc import Callable
from typing import Any

from proactive.watcher.store import home

from .live import Proposal
from .tray_backend import Backend, TrayEvents, help_from_json, help_to_json

log = logging.getLogger(__name__)

#: the fields of a proposal the tray shows and answers (its context stays with the assistant)
PROPOSAL_FIELDS = ("id", "ts", "task", "response", "score", "trigger", "actions", "candidates", "latency_s")


class Line:
    """One end of the pair: whole lines written under a lock (several threads write), read one by one."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.reader = sock.makefile("r", encoding="utf-8", newline="\n")
        self.lock = threading.Lock()

    def send(self, op: str, **args: Any) -> bool:
        """Write one message; False when the other end is gone."""
        data = (json.dumps({"op": op, **args}, ensure_ascii=False) + "\n").encode()
        with self.lock:
            try:
                self.sock.sendall(data)
            except OSError:
                return False
        return True

    def messages(self) -> Any:
        """Each message read, until the other end closes; a line that is not a message is logged and skipped."""
        for text in self.reader:
            try:
                message = json.loads(text)
            except ValueError:
                log.warning("the tray link skipped a line that is not JSON (%d characters)", len(text))
                continue
            if isinstance(message, dict) and isinstance(message.get("op"), str):
                yield message
            else:
                log.warning("the tray link skipped a message without an op")

    def close(self) -> None:
        """Both directions shut first (a thread reading sees the end), then the file and the socket closed."""
        for close in (lambda: self.sock.shutdown(socket.SHUT_RDWR), self.reader.close, self.sock.close):
            try:
                close()
            except (OSError, ValueError):
                pass


# -- the assistant's side ------------------------------------------------------------------------------------


class WireEvents:
    """`TrayEvents` written to the tray's process."""

    def __init__(self, line: Line):
        self.line = line

    def proposal(self, proposal: Proposal) -> None:
        self.line.send("proposal", proposal={name: getattr(proposal, name) for name in PROPOSAL_FIELDS})

    def busy(self, busy: bool) -> None:
        self.line.send("busy", busy=busy)

    def question(self, proposal_id: int, question: str) -> None:
        self.line.send("question", id=proposal_id, question=question)

    def help_done(self, proposal_id: int, task: str, result: Any, answers: bool) -> None:
        self.line.send("help", id=proposal_id, task=task, result=help_to_json(result), answers=answers)


def serve(backend: Backend, line: Line, reload_config: Callable[[], home.Config]) -> str:
    """Answer the tray's requests until it quits ("quit") or its end closes ("closed": it stopped, or was
    killed). `reload_config` reads config.toml again after the tray's settings window saved it."""
    backend.connect(WireEvents(line))
    try:
        for message in line.messages():
            op = message["op"]
            try:
                if op == "quit":
                    return "quit"
                _dispatch(backend, op, message, reload_config)
            except Exception:  # noqa: BLE001 - one bad request is logged; the link and capture go on
                log.exception("the tray's request %r failed", op)
        return "closed"
    finally:
        backend.connect(None)


def _dispatch(backend: Backend, op: str, message: dict[str, Any], reload_config: Callable[[], home.Config]) -> None:
    if op == "decided":
        backend.decided(int(message["id"]), str(message["decision"]), float(message["latency"]))
    elif op == "not_this_kind":
        backend.not_this_kind(int(message["id"]), float(message["latency"]))
    elif op == "reset_learning":
        backend.reset_learning()
    elif op == "consent":
        backend.consent(int(message["id"]), str(message["answer"]))
    elif op == "pause":
        backend.pause(float(message["until"]))
    elif op == "resume":
        backend.resume()
    elif op == "settings":
        backend.apply_settings(reload_config())
    elif op == "forget_episode":
        backend.forget_episode(int(message["id"]))
    elif op == "answer_model":
        backend.use_answer_model(str(message["spec"]))
    else:
        log.warning("the tray asked for %r, which this assistant does not know", op)


# -- the tray's side -----------------------------------------------------------------------------------------


class RemoteBackend:
    """The `Backend` of the assistant's process, as the tray's process reaches it: each request one message."""

    captures = True  # the supervising process runs the watcher

    def __init__(self, line: Line):
        self.line = line
        self.events: TrayEvents | None = None

    def connect(self, events: TrayEvents | None) -> None:
        self.events = events

    def listen(self, on_closed: Callable[[], object]) -> threading.Thread:
        """Read the assistant's events in a thread and hand each to the connected `TrayEvents`; `on_closed` when
        the assistant's end closes (it quit or died: the tray then quits too)."""
        def work() -> None:
            try:
                for message in self.line.messages():
                    try:
                        self._event(message)
                    except Exception:  # noqa: BLE001 - one bad message is logged, the next is read
                        log.exception("the assistant's message %r could not be shown", message.get("op"))
            except OSError:
                pass
            on_closed()

        thread = threading.Thread(target=work, name="tray-link", daemon=True)
        thread.start()
        return thread

    def _event(self, message: dict[str, Any]) -> None:
        events = self.events
        if events is None:
            return
        op = message["op"]
        if op == "proposal":
            data = message["proposal"]
            events.proposal(Proposal(**{name: data.get(name) for name in PROPOSAL_FIELDS}))
        elif op == "busy":
            events.busy(bool(message["busy"]))
        elif op == "question":
            events.question(int(message["id"]), str(message["question"]))
        elif op == "help":
            events.help_done(int(message["id"]), str(message["task"]), help_from_json(message["result"]),
                             bool(message["answers"]))
        else:
            log.warning("the assistant sent %r, which this tray does not know", op)

    def decided(self, proposal_id: int, decision: str, latency: float) -> None:
        self.line.send("decided", id=proposal_id, decision=decision, latency=latency)

    def accept(self, proposal_id: int, latency: float) -> None:
        self.decided(proposal_id, "accepted", latency)

    def not_this_kind(self, proposal_id: int, latency: float) -> None:
        self.line.send("not_this_kind", id=proposal_id, latency=latency)

    def reset_learning(self) -> None:
        self.line.send("reset_learning")

    def consent(self, proposal_id: int, answer: str) -> None:
        self.line.send("consent", id=proposal_id, answer=answer)

    def pause(self, until: float) -> None:
        self.line.send("pause", until=until)

    def resume(self) -> None:
        self.line.send("resume")

    def apply_settings(self, config: home.Config) -> None:
        self.line.send("settings")  # the settings window saved config.toml: the assistant reads it again

    def forget_episode(self, episode_id: int) -> None:
        self.line.send("forget_episode", id=episode_id)

    def use_answer_model(self, spec: str) -> None:
        self.line.send("answer_model", spec=spec)

    def quit(self) -> None:
        self.line.send("quit")
