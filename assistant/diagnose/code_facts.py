"""Facts read from the person's own code and data at accept time: the line a compiler or runtime shows, the
source file a message names (its words: what a misspelt name meant), a JSON or YAML file's lines, the tables and
columns of a SQLite file (opened read-only). Registered with `fact_registry.fact` like the machine's facts; a fact that
cannot read what it needs gives '' and the rule's plain texts stand."""

from __future__ import annotations

import difflib
import os
import re
import shlex
import sqlite3
from pathlib import Path

from . import Situation
from .fact_registry import _table, _words, fact

#: a word naming an SQLite database file by its usual extensions
DATABASE_SUFFIXES = (".db", ".sqlite", ".sqlite3", ".db3")
_DATABASE_FILE = re.compile(r"[^\s'\"]*[\w~-]\.(?:db|sqlite3?|db3)\b")


@fact
def database_file(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """The SQLite database file a command opened, shell-quoted: sqlite3's first argument (`sqlite3 app.db
    'select …'`), else a word of the command or the message with a database file's extension (a program's
    own file); '<database file>' when neither says. `database_name` is the same name unquoted ('' unknown)."""
    words = _words(situation.command or "")
    named = next((w for w in words[1:] if not w.startswith("-")), None) \
        if words and os.path.basename(words[0]) == "sqlite3" else None
    named = named or next((w for w in words if w.endswith(DATABASE_SUFFIXES)), None)  # 'shop data.db' is one word
    if named is None:
        found = _DATABASE_FILE.search(situation.error)
        named = found[0] if found else None
    return {"database_file": shlex.quote(named) if named else "<database file>", "database_name": named or ""}


def resolved(name: str, situation: Situation) -> Path:
    """A file name from a message or a command line, relative to the working directory the command ran in."""
    path = Path(name).expanduser()
    return Path(situation.cwd) / path if not path.is_absolute() and situation.cwd else path


def _database_path(values: dict[str, str], situation: Situation) -> Path | None:
    if not values.get("database_name"):
        return None
    path = resolved(values["database_name"], situation)
    return path if path.is_file() else None


@fact
def database_tables(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`tables`: the tables the SQLite file has (read-only, never created), `close_table`, the one closest to the
    missing `table` ('users' for 'user'), and `close_column`, the column closest to a missing `column` in any of
    them ('email' for 'emial'); '' when the file cannot be read or has none."""
    out = {"tables": "", "close_table": "", "close_column": ""}
    path = _database_path(values, situation)
    if path is None:
        return out
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=1)
        try:
            names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
                                                "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
            columns = {c[1] for name in names[:50] for c in conn.execute(f"PRAGMA table_info({_sql_name(name)})")}
        finally:
            conn.close()
    except sqlite3.Error:
        return out
    close = difflib.get_close_matches(values.get("table", ""), names, n=1, cutoff=0.75)
    column = difflib.get_close_matches(values.get("column", ""), sorted(columns), n=1, cutoff=0.75)
    return {"tables": ", ".join(names[:12]) + (", …" if len(names) > 12 else ""),
            "close_table": close[0] if close else "", "close_column": column[0] if column else ""}


def _sql_name(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


#: the SQL words a statement is built of, for a misspelt one ("FORM" for FROM)
SQL_KEYWORDS = ("SELECT", "FROM", "WHERE", "GROUP", "ORDER", "BY", "HAVING", "LIMIT", "OFFSET", "INSERT", "INTO",
                "VALUES", "UPDATE", "SET", "DELETE", "JOIN", "LEFT", "INNER", "OUTER", "ON", "AND", "OR", "NOT",
                "NULL", "DISTINCT", "CREATE", "TABLE", "INDEX", "DROP", "ALTER", "UNION", "RETURNING", "BETWEEN",
                "LIKE", "EXISTS", "CASE", "WHEN", "THEN", "ELSE", "END", "PRIMARY", "KEY", "DEFAULT")


def _command_sql(command: str | None) -> str:
    """The statement a client's command line ran (`sqlite3 app.db "SELECT …"`, `psql -c '…'`, `mysql -e "…"`):
    what the message is about when the client printed no line of it."""
    try:
        words = shlex.split(command or "")
    except ValueError:
        return ""
    return next((w for w in words[1:] if " " in w and any(part.upper() in SQL_KEYWORDS for part in w.split())), "")


@fact
def sql_slip(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`slip` and `keyword`: a word of the statement the client shows (sqlite3's line above "^--- error here",
    psql's LINE 1:) that is a misspelt SQL keyword ('FORM' for FROM), and `fixed`, the statement corrected."""
    statement = re.sub(r"^\s*LINE \d+:\s*", "", shown_line(situation.error)).strip() or _command_sql(situation.command)
    for word in re.findall(r"[A-Za-z]{3,}", statement):
        if word.upper() in SQL_KEYWORDS:
            continue
        close = difflib.get_close_matches(word.upper(), SQL_KEYWORDS, n=1, cutoff=0.75)
        # a slip: the keyword's own letters swapped (FORM), or a word in capitals, as keywords are typed, a letter
        # off (SELCT); a lower-case name close to a keyword (orders, user) is the person's table or column
        if close and (sorted(close[0]) == sorted(word.upper()) or word.isupper() and len(word) >= 4):
            keyword = close[0] if word.isupper() else close[0].lower()
            return {"slip": word, "keyword": keyword,
                    "fixed": re.sub(rf"\b{re.escape(word)}\b", keyword, statement.strip(), count=1)}
    return {"slip": ""}


#: a line that is the message's own, not the code it shows: a location header, an error line, a stack frame,
#: javac's symbol and location lines, a caret line
_NOT_CODE = re.compile(r"^\s*(?:at |symbol:|location:|\^|\d+ errors?$|Node\.js v|ERROR\b)|(?:Error|error)(?:\[\w+\])?:|"
                       r"^[\w./<>~-]+:\d+(?::\d+)?\s*$|^\s*[\^~ -]+(?:error here)?\s*$|^\s*\^--- error here")


def shown_line(error: str) -> str:
    """The line of code (or SQL) a compiler, runtime or client prints with its message: the line above a caret
    line (Node, javac, sqlite3's "^--- error here"), else the first line that is not the message's own."""
    lines = error.splitlines()
    for i, line in enumerate(lines[1:], 1):
        if re.match(r"^\s*\^", line) and lines[i - 1].strip() and not _NOT_CODE.search(lines[i - 1]):
            return lines[i - 1]
    return next((line for line in lines if line.strip() and not _NOT_CODE.search(line)), "")


#: where a compiler or runtime names the source file of an error: "Main.java:3: error", "/x/app.js:2",
#: " --> src/main.rs:2:22", "./main.go:6:6: undefined"
_SOURCE_AT = re.compile(r"(?P<path>[\w./~-]+\.(?:java|[cm]?js|tsx?|jsx|rs|go|py|rb|c|cc|cpp|h|hpp|kt|cs)):\d+")
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_SOURCE_LIMIT = 1_000_000  # bytes of a source file read for its names: a generated file is not the person's code


def _source_names(situation: Situation) -> set[str]:
    """The identifiers of the source file the message names (or the person's file), read from the working
    directory: what a misspelt name in that file most likely meant."""
    found = _SOURCE_AT.search(situation.error)
    for name in (found["path"] if found else None, situation.file):
        if not name:
            continue
        path = resolved(name, situation)
        try:
            if path.is_file() and path.stat().st_size <= _SOURCE_LIMIT:
                return set(_IDENTIFIER.findall(path.read_text(encoding="utf-8", errors="replace")))
        except OSError:
            continue
    return set()


@fact
def close_name(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`close`: the name the code most likely meant by the unknown `name` ('System' for 'Sytem'): the closest of
    the language's everyday names (`rules/known_names.toml`, by the rule's `language` value) and the words of
    the file the message names; '' when none is close enough to be a slip of the fingers. `meant` is it with
    what it was read on ('JSON.stringify'), `fixed_line` the line shown with it written right."""

    name = values.get("name", "")
    if len(name) < 3:
        return {"close": ""}
    known = set(_table("known_names").get(values.get("language", ""), ()))
    if name in known:  # a real name, used where it is not defined or imported: not a slip
        return {"close": ""}
    words = known | _source_names(situation)
    words.discard(name)
    close = difflib.get_close_matches(name, sorted(words), n=1, cutoff=0.8)
    if not close:
        return {"close": ""}
    line = shown_line(situation.error)
    fixed = re.sub(rf"(?<![\w$]){re.escape(name)}(?![\w$])", close[0], line.strip()) if name in line else ""
    return {"close": close[0], "fixed_line": fixed, "meant": values.get("owner", "") + close[0]}


#: a data file named in a message ('in "compose.yaml"', "(at config.json:4)") or on the command line
_DATA_FILE = re.compile(r"[\w./~-]+\.(?:json|jsonc|geojson|ya?ml)\b")


@fact
def data_file(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`data_file` (shell-quoted) and `in_file` (" in config.json"), the JSON or YAML file the message or the
    command names ('' when neither does: the text came from a program or a pipe), and `before`, the line before
    the one the message names (a missing comma belongs at the end of that one) and, read from the file,
    `before_text`, that line as it is."""
    found = _DATA_FILE.search(situation.error) or _DATA_FILE.search(situation.command or "")
    line = int(values.get("line") or 0)
    out = {"data_file": "", "in_file": "", "before": str(max(line - 1, 1))}
    if found:
        out.update(data_file=shlex.quote(found[0]), in_file=f" in {found[0]}")
        path = resolved(found[0], situation)
        try:
            if line > 1 and path.is_file() and path.stat().st_size <= _SOURCE_LIMIT:
                lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
                out["before_text"] = lines[line - 2].rstrip() if line - 2 < len(lines) else ""
        except OSError:
            pass
    return out


#: a call on the way to the property, one level of parentheses inside: line.match(/took (\d+)ms/)[1]
_CALL = r"(?:\((?:[^()\n]|\([^()\n]*\))*\))?"
_CHAIN = rf"(?<![\w$.])([A-Za-z_$][\w$]*{_CALL}(?:\??\.[A-Za-z_$][\w$]*{_CALL}|\[[^\]\n]*\])*?)"


@fact
def js_holder(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`holder`: the expression whose property `prop` was read or set when it was undefined or null
    ('config.server' of 'config.server.name', 'totals.byRegion' of 'totals.byRegion[sale.region]'), from the
    code line Node (or a browser's 'evaluating …') shows, and `guard`, the line that reads or sets it only when
    it is there; `prop` and `value` from Safari's wording. '' when no line shows it."""
    expr = values.get("expr", "")
    if expr:  # Safari: "undefined is not an object (evaluating 'user.profile.email')"
        holder, _, prop = expr.rpartition(".")
        holder = holder.rstrip("?")
        return {"holder": holder, "prop": prop, "value": values.get("value", "undefined"),
                "guard": f"{holder}?.{prop} ?? null"}
    prop = values.get("prop", "")
    line = shown_line(situation.error)
    if not prop or not line:
        return {"holder": ""}
    setting = values.get("access") == "setting"
    dotted = re.search(_CHAIN + r"\??\." + re.escape(prop) + r"(?![\w$])", line)
    if dotted:
        holder = dotted[1]
        return {"holder": holder, "guard": f"if ({holder}) {holder}.{prop} = …;" if setting else
                f"{holder}?.{prop} ?? null"}
    literal = rf"\[\s*['\"`]?{re.escape(prop)}['\"`]?\s*\]"
    indexed = re.search(_CHAIN + r"\??\.?(" + literal + ")", line) or re.search(_CHAIN + r"\??\.?(\[[^\]\n]+\])", line)
    if indexed:
        holder, key = indexed[1], indexed[2]
        return {"holder": holder, "guard": f"if ({holder}) {holder}{key} = …;" if setting else
                f"{holder}?.{key} ?? null"}
    return {"holder": ""}


@fact
def js_assigned(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`assigned`: the name the line Node shows assigns to ('attempts' of 'attempts++'), '' when it shows none."""
    found = re.search(r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*(?:\+\+|--|[-+*/%&|^]?=(?!=))", shown_line(situation.error))
    return {"assigned": found[1] if found else ""}


@fact
def rust_number_code(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`fixed`: the code line rustc shows, with a number in quotes unquoted (`literal` set) or the text value
    parsed into the number type (`let port: u16 = line.trim().parse().expect("a number");`)."""
    code = values.get("code", "").strip()
    quoted = re.search(r'"(-?\d+(?:\.\d+)?)"', code)
    if quoted:
        return {"fixed": code[:quoted.start()] + quoted[1] + code[quoted.end():], "literal": "yes"}
    assigned = re.fullmatch(r"(.*?=\s*)(.+?)\s*;", code)
    if assigned:
        return {"fixed": f'{assigned[1]}{assigned[2]}.trim().parse::<{values.get("expected", "u32")}>()'
                         f'.expect("a number");', "literal": ""}
    return {"fixed": f'value.trim().parse::<{values.get("expected", "u32")}>()', "literal": ""}




#: what parses a String into each Java primitive
JAVA_PARSE = {"int": "Integer.parseInt", "long": "Long.parseLong", "double": "Double.parseDouble",
              "float": "Float.parseFloat", "short": "Short.parseShort", "byte": "Byte.parseByte",
              "boolean": "Boolean.parseBoolean"}


@fact
def java_parse(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`parse`: the call that turns a String into the primitive `type`, and `fixed_line`, the line javac shows
    with the value assigned wrapped in it (`int qty = Integer.parseInt(args[1]);`)."""
    parse = JAVA_PARSE.get(values.get("type", ""), "Integer.parseInt")
    assigned = re.fullmatch(r"(.*?=\s*)(.+?)\s*;", shown_line(situation.error).strip())
    return {"parse": parse, "fixed_line": f"{assigned[1]}{parse}({assigned[2]});" if assigned else f"{parse}(text)"}


@fact
def java_length(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`wrong` and `right`: how the code asked for a size ('.length') and how its type gives it ('.size()' for a
    collection, '.length()' for a String, '.length' for an array), and `fixed_line`, the line shown corrected;
    `right` '' when the type is none of these."""
    kind = values.get("type", "").strip()
    wrong = ".length" if values.get("field") else f".{values.get('method', '')}()"
    if kind.endswith("[]"):
        right = ".length"
    elif kind in ("String", "StringBuilder", "CharSequence"):
        right = ".length()"
    elif re.match(r"(?:Array|Linked)?List\b|(?:Hash|Tree|LinkedHash)?(?:Set|Map)\b|Collection\b|Deque\b|Queue\b",
                  kind):
        right = ".size()"
    else:
        right = ""
    if right == wrong:
        right = ""
    holder = values.get("holder", "")
    line = shown_line(situation.error).strip()
    fixed = re.sub(rf"\b{re.escape(holder)}{re.escape(wrong)}(?![\w(])", holder + right, line) if holder and right \
        else ""
    return {"wrong": wrong, "right": right, "fixed_line": fixed if fixed != line else ""}
