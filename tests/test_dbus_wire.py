"""watcher/capture/dbus_wire.py reads D-Bus messages as jeepney does: the same header, fields and body for the AT-SPI
event signals it reads itself and for every other message it hands to jeepney's code, in either byte order, fed
to the parser whole or a byte at a time; and the accessibility source reads a real bus through it."""

from __future__ import annotations

import pytest

pytest.importorskip("jeepney")

from hypothesis import (  # noqa: E402
    given,
    settings,
    strategies as st,  # noqa: E402
)
from jeepney import DBusAddress, new_method_return, new_signal  # noqa: E402
from jeepney.low_level import Endianness, HeaderFields, Message, Parser  # noqa: E402

from proactive.watcher.capture.dbus_wire import EVENT_SIGNATURE, WireParser, read_message, wire_parser  # noqa: E402

names = st.from_regex(r"[a-z][a-z0-9_]{0,12}(\.[a-z][a-z0-9_]{0,12}){1,3}", fullmatch=True)
paths = st.from_regex(r"(/[A-Za-z0-9_]{1,10}){1,4}", fullmatch=True)
text = st.text(max_size=40)
int32 = st.integers(-2**31, 2**31 - 1)
#: any_data as toolkits send it (read directly) and as they may (read by jeepney)
variants = st.one_of(st.tuples(st.just("s"), text), st.tuples(st.just("i"), int32),
                     st.tuples(st.just("u"), st.integers(0, 2**32 - 1)), st.tuples(st.just("b"), st.booleans()),
                     st.tuples(st.just("(so)"), st.tuples(text, paths)), st.tuples(st.just("as"), st.lists(text)))
properties = st.one_of(st.just({}), st.dictionaries(text, st.tuples(st.just("s"), text), max_size=2))


def same(a: Message, b: Message) -> None:
    for part in ("endianness", "message_type", "flags", "protocol_version", "body_length", "serial", "fields"):
        assert getattr(a.header, part) == getattr(b.header, part), part
    assert a.body == b.body


@settings(max_examples=100, deadline=None)
@given(big=st.booleans(), interface=names, member=st.from_regex(r"[A-Z][A-Za-z]{0,15}", fullmatch=True),
       path=paths, sender=st.from_regex(r":1\.[0-9]{1,4}", fullmatch=True), detail=text, one=int32, two=int32,
       any_data=variants, props=properties, serial=st.integers(1, 2**32 - 1))
def test_an_event_signal_reads_as_jeepney_reads_it(big, interface, member, path, sender, detail, one, two, any_data,
                                                   props, serial):
    message = new_signal(DBusAddress(path, interface=interface), member, EVENT_SIGNATURE,
                         (detail, one, two, any_data, props))
    message.header.fields[HeaderFields.sender] = sender
    if big:
        message.header.endianness = Endianness.big
    raw = message.serialise(serial=serial)
    same(read_message(raw), Message.from_buffer(raw))


@settings(max_examples=60, deadline=None)
@given(big=st.booleans(), signature_body=st.one_of(
    st.tuples(st.just("u"), st.tuples(st.integers(0, 2**32 - 1))), st.tuples(st.just("s"), st.tuples(text)),
    st.tuples(st.just("a(so)"), st.tuples(st.lists(st.tuples(text, paths), max_size=4))),
    st.tuples(st.just(""), st.just(())), st.tuples(st.just("v"), st.tuples(variants))),
    chunk=st.integers(1, 64))
def test_replies_and_other_bodies_read_as_jeepney_reads_them_in_any_pieces(big, signature_body, chunk):
    """A method's reply (the role, the registry's children, a pid): jeepney's body parser, built once per
    signature; the bytes may come in any pieces, several messages at once."""
    signature, body = signature_body
    call = new_signal(DBusAddress("/a", interface="a.b"), "Ping")  # (only its serial is replied to)
    call.header.serial = 5
    reply = new_method_return(call, signature, body) if signature else new_method_return(call)
    reply.header.fields[HeaderFields.sender] = ":1.7"
    if big:
        reply.header.endianness = Endianness.big
    raw = reply.serialise(serial=9) * 2
    ours, theirs = WireParser(), Parser()
    read: list[Message] = []
    for start in range(0, len(raw), chunk):
        ours.add_data(raw[start:start + chunk])
        read.extend(iter(ours.get_next_message, None))
    theirs.add_data(raw)
    expected = list(iter(theirs.get_next_message, None))
    assert len(read) == len(expected) == 2
    for a, b in zip(read, expected, strict=True):
        same(a, b)


def test_a_parser_put_in_place_keeps_what_was_read_before():
    first = new_signal(DBusAddress("/x", interface="a.b"), "One", "s", ("one",)).serialise(serial=1)
    second = new_signal(DBusAddress("/x", interface="a.b"), "Two", "s", ("two",)).serialise(serial=2)
    old = Parser()
    old.add_data(first + second[:10])
    new = wire_parser(old)
    new.add_data(second[10:])
    assert [m.body for m in iter(new.get_next_message, None)] == [("one",), ("two",)]


def test_a_malformed_message_is_refused_as_jeepney_refuses_it():
    raw = bytearray(new_signal(DBusAddress("/x", interface="a.b"), "One", "s", ("one",)).serialise(serial=1))
    raw[-1] = ord("x")  # the string's terminating NUL
    with pytest.raises(AssertionError):
        Message.from_buffer(bytes(raw))
    with pytest.raises(AssertionError):
        read_message(bytes(raw))


def test_a_typed_characters_event_is_read_without_jeepneys_generic_reader(monkeypatch: pytest.MonkeyPatch):
    """The message each typed character brings (TextChanged, any_data the text) never reaches jeepney's reader or
    its signature parser, which were most of the cost."""
    import proactive.watcher.capture.dbus_wire as wire

    message = new_signal(DBusAddress("/org/a11y/atspi/accessible/7", interface="org.a11y.atspi.Event.Object"),
                         "TextChanged", EVENT_SIGNATURE, ("insert", 3, 1, ("s", "é"), {}))
    message.header.fields[HeaderFields.sender] = ":1.42"
    raw = message.serialise(serial=3)

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("jeepney's reader was used")

    monkeypatch.setattr(wire.Message, "from_buffer", refuse)
    monkeypatch.setattr(wire, "parse_signature", refuse)
    wire._body_type.cache_clear()
    read = read_message(raw)
    assert read.body == ("insert", 3, 1, ("s", "é"), {})
    assert read.header.fields[HeaderFields.member] == "TextChanged"
