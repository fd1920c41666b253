"""The server's order without a display: what `ServerOrder` holds, frees and stamps (the real X case, with late
threads, is in test_capture_x11.py)."""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import given, strategies as st

from proactive.watcher.capture.ordering import SETTLED, ServerOrder, announced, later
from proactive.watcher.events import CLIPBOARD, KEY, SCROLL, WINDOW, RawEvent


class Late:
    """A device source whose thread has events it has not handed over yet: catch_up hands them over."""

    def __init__(self) -> None:
        self.unread: list[RawEvent] = []
        self.emit = None

    def catch_up(self, timeout: float) -> None:
        while self.unread:
            self.emit(self.unread.pop(0))


def key(char: str, xtime: int) -> RawEvent:
    return RawEvent("keyboard", KEY, {"char": char}, xtime=xtime)


def switch(title: str, xtime: int | None) -> RawEvent:
    return RawEvent("window", WINDOW, {"app": "XTerm", "title": title}, xtime=xtime)


def taken_in_order(queue: list[RawEvent], order: ServerOrder) -> list[str]:
    out = []
    for event in queue:
        out += [e.data.get("char") or e.data.get("title") or e.kind for e in order.admit(event)]
    return out


def test_a_switch_is_queued_behind_the_keys_a_late_source_still_has():
    queue: list[RawEvent] = []
    late = Late()
    order = ServerOrder([late], queue.append)
    late.emit = order
    order(key("a", 100))
    late.unread = [key("b", 110), key("c", 120)]  # made before the switch, not yet read by their thread
    order(switch("shell", 130))
    assert taken_in_order(queue, order) == ["a", "b", "c", "shell"]


def test_keys_stamped_after_an_announced_switch_wait_for_it():
    queue: list[RawEvent] = []
    order = ServerOrder([], queue.append)
    order(key("a", 100))
    with announced(order, 200):  # the window thread asks the server for the new window's title
        order(key("m", 210))  # typed in the new window, read first
        order(key("n", 190))  # typed before the switch, read late
        order(switch("shell", 200))
    assert taken_in_order(queue, order) == ["a", "n", "shell", "m"]


def test_an_announcement_without_an_event_frees_the_keys():
    queue: list[RawEvent] = []
    order = ServerOrder([], queue.append)
    with announced(order, 200):  # the title read is the same as before: nothing is emitted
        order(key("m", 210))
    assert queue[-1] is SETTLED
    assert taken_in_order(queue, order) == ["m"]


def test_events_without_server_time_pass_through():
    queue: list[RawEvent] = []
    order = ServerOrder([], queue.append)
    order(RawEvent("atspi", KEY, {"char": "x"}))
    order(switch("form", None))
    order(RawEvent("clipboard", CLIPBOARD, {"text": "t", "length": 1, "truncated": False}))
    assert taken_in_order(queue, order) == ["x", "form", "clipboard"]


def test_a_stuck_announcement_holds_keys_only_for_a_while(monkeypatch):
    from proactive.watcher.capture import ordering

    queue: list[RawEvent] = []
    order = ServerOrder([], queue.append)
    order.announce(200)  # its thread dies before it settles
    order(key("m", 210))
    assert taken_in_order(queue, order) == []
    monkeypatch.setattr(ordering, "PENDING_SECONDS", 0.0)
    order(key("n", 220))
    assert taken_in_order(queue[-1:], order) == ["m", "n"]


def test_held_scrolls_are_freed_in_the_servers_order():
    queue: list[RawEvent] = []
    order = ServerOrder([], queue.append)
    token = order.announce(100)
    order(RawEvent("mouse", SCROLL, {"dx": 0, "dy": -1}, xtime=130))
    order(key("k", 120))  # another thread's, read after the tick it came before
    held = taken_in_order(queue, order)  # the pipeline takes them while the switch is still being read
    order.settle(token)
    assert held == [] and taken_in_order(queue[-1:], order) == ["k", "scroll"]


def test_ts_follows_the_servers_clock_not_the_threads(monkeypatch: pytest.MonkeyPatch):
    """An event read late is dated by the server's clock, however late (a watcher stopped for minutes); the wall
    clock's jumps are followed."""
    queue: list[RawEvent] = []
    order = ServerOrder([], queue.append)
    now = time.time()
    x0 = other_clock()
    order(RawEvent("keyboard", KEY, {"char": "a"}, ts=now, xtime=x0))  # read at once
    late = RawEvent("mouse", SCROLL, {"dx": 0, "dy": 1}, ts=now + 3.0, xtime=x0 + 500)  # read 2.5 s late
    with monkeypatch.context() as m:  # (3 s pass on both clocks)
        m.setattr(time, "time", lambda real=time.time: real() + 3.0)
        m.setattr(time, "monotonic", lambda real=time.monotonic: real() + 3.0)
        order(late)
    assert abs(late.ts - (now + 0.5)) < 0.01
    stalled = RawEvent("keyboard", KEY, {"char": "s"}, ts=now + 600, xtime=x0 + 1000)  # read 10 minutes late
    with monkeypatch.context() as m:
        m.setattr(time, "time", lambda real=time.time: real() + 600)
        m.setattr(time, "monotonic", lambda real=time.monotonic: real() + 600)
        order(stalled)
    assert abs(stalled.ts - (now + 1.0)) < 0.01
    jumped = RawEvent("keyboard", KEY, {"char": "b"}, ts=now + 3600, xtime=x0)  # the wall clock jumped
    with monkeypatch.context() as m:
        m.setattr(time, "time", lambda real=time.time: real() + 3600)
        order(jumped)
    assert abs(jumped.ts - (now + 3600)) < 0.01  # (pressed as the first, read at once)
    order = ServerOrder([], queue.append)
    order(RawEvent("keyboard", KEY, {"char": "v"}, ts=now, xtime=2**32 - 500))
    wrapped = RawEvent("keyboard", KEY, {"char": "w"}, ts=now, xtime=500)  # the server's clock wrapped after 49 days
    order(wrapped)
    assert abs(wrapped.ts - now) < 0.01


def test_a_local_servers_clock_dates_even_the_first_event_read_late_by_its_press(monkeypatch: pytest.MonkeyPatch):
    """A local X server (Xorg, Xvfb, Xwayland) counts CLOCK_MONOTONIC in milliseconds: the clocks' difference is
    known exactly from the first event, however late it is read (the least delayed event's difference dated a
    busy watcher's first keys late, and an echo reading taken after a line's Enter counted as before it)."""
    queue: list[RawEvent] = []
    order = ServerOrder([], queue.append)
    now, pressed = time.time(), time.monotonic() - 0.4  # pressed 0.4 s before it is read
    first = RawEvent("keyboard", KEY, {"char": "a"}, ts=now, xtime=int(pressed * 1000) % 2**32)
    order(first)
    assert abs(first.ts - (now - 0.4)) < 0.005
    other = ServerOrder([], queue.append)  # a server counting on another clock: the least delayed event's
    x0 = other_clock()
    late_first = RawEvent("keyboard", KEY, {"char": "c"}, ts=now, xtime=x0)
    other(late_first)
    prompt = RawEvent("keyboard", KEY, {"char": "d"}, ts=now + 0.1, xtime=x0 + 400)  # read at once, 0.4 s later
    with monkeypatch.context() as m:
        m.setattr(time, "time", lambda real=time.time: real() + 0.1)
        m.setattr(time, "monotonic", lambda real=time.monotonic: real() + 0.1)
        other(prompt)
    assert abs(prompt.ts - (now + 0.1)) < 0.005


def other_clock() -> int:
    """A server time (ms) on a clock 1000 s ahead of this machine's monotonic one: a remote server's."""
    return int((time.monotonic() + 1000) * 1000) % 2**32


@given(st.integers(0, 2**32 - 1), st.integers(1, 2**31 - 1))
def test_later_across_the_servers_wraparound(a: int, step: int):
    b = (a + step) % 2**32
    assert later(b, a) and not later(a, b) and not later(a, a)


def test_many_threads_emitting_at_once_lose_nothing():
    queue: list[RawEvent] = []
    lock = threading.Lock()

    def put(event: RawEvent) -> None:
        with lock:
            queue.append(event)

    order = ServerOrder([], put)

    def typist(base: int) -> None:
        for i in range(200):
            order(key("x", base + i))

    def switcher() -> None:
        for i in range(50):
            with announced(order, 1000 + i * 4):
                order(switch(f"w{i}", 1000 + i * 4))

    threads = [threading.Thread(target=typist, args=(b,)) for b in (900, 1000)] + [threading.Thread(target=switcher)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    taken = [e for event in list(queue) for e in order.admit(event)] + order.release(everything=True)
    assert sum(e.kind == KEY for e in taken) == 400 and sum(e.kind == WINDOW for e in taken) == 50


def test_the_watcher_takes_every_event_threads_emit_while_its_loop_flushes(tmp_path, monkeypatch):
    """A source's thread handles what it emits itself when no other thread holds the pipeline, else leaves it in
    the inbox for the holder or the loop. Four threads emitting as fast as they can while the loop flushes every
    5 ms: every event is taken exactly once, each thread's in the order it emitted them, and the emitting threads
    took events themselves (a key wakes one thread, not two)."""
    from proactive.watcher.capture.sources import Source
    from proactive.watcher.pipeline import Watcher
    from proactive.watcher.store.home import Config

    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))

    class Emitter(Source):
        name = "emitter"

        def start(self, emit) -> None:
            self.emit = emit

        def stop(self) -> None:
            pass

    source = Emitter()
    watcher = Watcher(tmp_path / "db.sqlite", Config(), [source], flush_interval=0.005)
    taken: list[tuple[str, int, str]] = []
    take = watcher._take

    def recording(event: RawEvent) -> None:
        taken.append((event.data["by"], event.data["n"], threading.current_thread().name))
        take(event)

    monkeypatch.setattr(watcher, "_take", recording)
    loop = threading.Thread(target=watcher.run, name="loop")
    loop.start()
    assert watcher.started.wait(10)

    def emitter() -> None:
        for n in range(500):
            source.emit(RawEvent("keyboard", KEY, {"char": "x", "by": threading.current_thread().name, "n": n}))
            if n % 50 == 0:
                time.sleep(0.002)  # let the loop's flushes interleave

    threads = [threading.Thread(target=emitter, name=f"emitter {i}") for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    watcher.stop()
    loop.join(10)
    assert not loop.is_alive()
    for t in threads:
        assert [n for by, n, _ in taken if by == t.name] == list(range(500)), t.name
    assert len(taken) == 2000
    assert any(by.startswith("emitter") for _, _, by in taken)
