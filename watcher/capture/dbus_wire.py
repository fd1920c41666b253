"""A faster reader of D-Bus messages for jeepney's connections (the accessibility bus's stream of events).

Why: on Wayland each typed character reaches the watcher as one AT-SPI signal, and jeepney reads every message
with its generic, pure-Python type machinery: the header's fields as an array of variants, the body's signature
parsed again for each message, an enum built for each flag. That took about 340 µs a message on the cold thread
that wakes for it, most of the watcher's CPU while someone types (bench/wayland_typing.py). `WireParser` gives
jeepney the same `Message` objects: the header's fields read with `struct` (their types are fixed by the
specification), the body with a parser built once per signature, and the AT-SPI event signals' body (`siiva{sv}`,
a plain value and no properties, as toolkits send them) read directly. A message it does not read quickly (file
descriptors, an unusual header field, a malformed one) is read by jeepney's own code, so it behaves as before.
"""

from __future__ import annotations

import struct
from functools import lru_cache
from typing import Any

from jeepney.low_level import (
    Endianness,
    Header,
    HeaderFields,
    Message,
    MessageFlag,
    MessageType,
    Parser,
    calc_msg_size,
    parse_signature,
)

_ENDIAN = {ord("l"): (Endianness.little, "<"), ord("B"): (Endianness.big, ">")}
_FIELDS = {field.value: field for field in HeaderFields}
_TYPES = {kind.value: kind for kind in MessageType}
_SIGNATURE = HeaderFields.signature
#: the body of every AT-SPI event signal: detail, detail1, detail2, any_data, properties
EVENT_SIGNATURE = "siiva{sv}"
_FIXED = {"i": "i", "u": "I", "b": "I"}  # variant values read directly, beside strings


class _Slow(Exception):
    """This message is left to jeepney's reader."""


class WireParser(Parser):
    """jeepney's `Parser` (what a connection reads its socket's data with), reading messages with `read_message`."""

    next_msg_size: int | None

    def get_next_message(self) -> Message | None:
        if self.fds:  # file descriptors come with some message: jeepney's reader hands them out
            return super().get_next_message()
        if self.next_msg_size is None and self.buf.bytes_buffered >= 16:
            self.next_msg_size = calc_msg_size(self.buf.peek(16))
        size = self.next_msg_size
        if size is None or self.buf.bytes_buffered < size:
            return None
        raw = self.buf.read(size)
        self.next_msg_size = None
        return read_message(raw)


def wire_parser(old: Parser) -> WireParser:
    """A `WireParser` to put in place of a connection's parser, holding what `old` had read and not parsed yet."""
    new = WireParser()
    new.buf, new.fds, new.next_msg_size = old.buf, old.fds, old.next_msg_size
    return new


def read_message(raw: bytes) -> Message:
    """The jeepney `Message` in `raw` (one whole message, no file descriptors)."""
    try:
        return _read(raw)
    except (_Slow, IndexError, KeyError, ValueError, UnicodeDecodeError, struct.error):
        return Message.from_buffer(raw)  # (raises what jeepney raises on a malformed message)


def _read(raw: bytes) -> Message:
    endianness, order = _ENDIAN[raw[0]]
    body_length, serial, fields_length = struct.unpack_from(order + "III", raw, 4)
    end = 16 + fields_length
    fields: dict[HeaderFields, Any] = {}
    pos = 16
    while pos < end:
        pos = (pos + 7) & ~7
        code, size = raw[pos], raw[pos + 1]
        kind = raw[pos + 2:pos + 2 + size]
        pos += 3 + size
        if kind in (b"s", b"o"):
            value, pos = _string(raw, pos, order)
        elif kind == b"g":
            value, pos = _signature(raw, pos)
        elif kind == b"u":
            pos = (pos + 3) & ~3
            value = struct.unpack_from(order + "I", raw, pos)[0]
            pos += 4
        else:
            raise _Slow
        fields[_FIELDS[code]] = value
    if HeaderFields.unix_fds in fields:
        raise _Slow
    header = Header.__new__(Header)  # (its __init__ builds both enums anew: most of a header's cost)
    header.endianness, header.message_type, header.flags = endianness, _TYPES[raw[1]], _flags(raw[2])
    header.protocol_version, header.body_length, header.serial, header.fields = raw[3], body_length, serial, fields
    body: tuple[Any, ...] | None = ()
    signature = fields.get(_SIGNATURE)
    if signature:
        start = (end + 7) & ~7
        if start + body_length != len(raw):
            raise _Slow
        body = _event(raw, start, order) if signature == EVENT_SIGNATURE else None
        if body is None:
            body = _body_type(signature).parse_data(raw, start, endianness)[0]
    return Message(header, body)


def _string(raw: bytes, pos: int, order: str) -> tuple[str, int]:
    pos = (pos + 3) & ~3
    size = struct.unpack_from(order + "I", raw, pos)[0]
    end = pos + 4 + size
    if raw[end] != 0:
        raise _Slow
    return raw[pos + 4:end].decode("utf-8"), end + 1


def _signature(raw: bytes, pos: int) -> tuple[str, int]:
    end = pos + 1 + raw[pos]
    if raw[end] != 0:
        raise _Slow
    return raw[pos + 1:end].decode("ascii"), end + 1


def _event(raw: bytes, pos: int, order: str) -> tuple[Any, ...] | None:
    """An AT-SPI event's body whose any_data is a string or a number and whose properties are empty (as toolkits
    send them); None for other bodies (jeepney's parser reads those)."""
    detail, pos = _string(raw, pos, order)
    pos = (pos + 3) & ~3
    detail1, detail2 = struct.unpack_from(order + "ii", raw, pos)
    kind, pos = _signature(raw, pos + 8)
    value: Any
    if kind == "s":
        value, pos = _string(raw, pos, order)
    elif kind in _FIXED:
        pos = (pos + 3) & ~3
        value = struct.unpack_from(order + _FIXED[kind], raw, pos)[0]
        value = bool(value) if kind == "b" else value
        pos += 4
    else:
        return None
    pos = (pos + 3) & ~3
    if struct.unpack_from(order + "I", raw, pos)[0] != 0 or len(raw) not in (pos + 4, (pos + 11) & ~7):
        return None  # (an empty array is padded to its entries' alignment, 8)
    return detail, detail1, detail2, (kind, value), {}


@lru_cache(maxsize=64)
def _body_type(signature: str) -> Any:
    """jeepney's parser of a body of this signature (jeepney builds it anew for each message)."""
    return parse_signature(list(f"({signature})"))


@lru_cache(maxsize=16)
def _flags(value: int) -> MessageFlag:
    return MessageFlag(value)


def serialise(message: Message, serial: int) -> bytes:
    """The bytes of `message` with `serial`, as jeepney's `message.serialise(serial=serial)` makes them, built with
    `struct` for what a client asking many questions sends (watcher/capture/browser_page.py reads a page's tree with
    thousands of calls: jeepney's generic serialiser took most of that time): a little-endian message whose header
    fields are strings, object paths, signatures or numbers and whose body holds strings, object paths and 32-bit
    integers. Any other message is serialised by jeepney's own code."""
    try:
        return _serialise(message, serial)
    except (_Slow, KeyError, TypeError, ValueError, UnicodeEncodeError, struct.error):
        return message.serialise(serial=serial)


_FIELD_KINDS = {1: "o", 2: "s", 3: "s", 4: "s", 5: "u", 6: "s", 7: "s", 8: "g", 9: "u"}  # jeepney's header_field_codes


def _serialise(message: Message, serial: int) -> bytes:
    header = message.header
    if header.endianness is not Endianness.little:
        raise _Slow
    fields = header.fields
    signature = fields.get(_SIGNATURE, "")
    body = _simple_body(signature, message.body) if signature else b""
    out = bytearray()
    for field, value in sorted(fields.items()):  # each field starts 8-aligned (the array starts at offset 16)
        out += b"\0" * (-len(out) % 8)
        out += _field(field, value)
    size = len(out)
    out += b"\0" * (-size % 8)
    return struct.pack("<cBBBIII", b"l", header.message_type.value, header.flags.value, header.protocol_version,
                       len(body), serial, size) + bytes(out) + body


@lru_cache(maxsize=1024)
def _field(field: HeaderFields, value: str | int) -> bytes:
    """One header field (code, variant), from an 8-aligned offset: a call's interface, member and destination
    repeat from one call to the next."""
    kind = _FIELD_KINDS[field.value]
    out = struct.pack("<BB", field.value, 1) + kind.encode() + b"\0"
    if kind == "u":
        return out + struct.pack("<I", value)
    if not isinstance(value, str):
        raise _Slow
    if kind == "g":
        data = value.encode("ascii")
        return out + bytes((len(data),)) + data + b"\0"
    data = value.encode("utf-8")
    return out + struct.pack("<I", len(data)) + data + b"\0"


@lru_cache(maxsize=256)
def _simple_body(signature: str, values: tuple[Any, ...]) -> bytes:
    """A body of strings and object paths ('s', 'o') and 32-bit integers ('i', 'u'); other types raise _Slow (an
    unhashable body, TypeError from the cache). The same questions are asked of many objects: kept."""
    if len(signature) != len(values):
        raise _Slow
    out = bytearray()
    for kind, value in zip(signature, values, strict=True):
        out += b"\0" * (-len(out) % 4)
        if kind in "so" and isinstance(value, str):
            data = value.encode("utf-8")
            out += struct.pack("<I", len(data)) + data + b"\0"
        elif kind in "iu" and isinstance(value, int) and not isinstance(value, bool):
            out += struct.pack("<i" if kind == "i" else "<I", value)
        else:
            raise _Slow
    return bytes(out)
