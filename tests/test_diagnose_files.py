"""Diagnoses that read the person's own files: the name a misspelt one meant (from the file the message names),
the value that was undefined (from the line Node shows), the tables a real SQLite file has, the line of a JSON
file that wants its comma, the Rust line that turns text into a number. The messages are the ones this machine's
javac, node, cargo, python -m json.tool, jq and sqlite3 printed for these files; the files are written here."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from proactive.assistant.diagnose import Situation, diagnose


def answer(error: str, command: str | None = None, cwd: Path | None = None, file: str | None = None):
    found = diagnose(Situation(error, command=command, file=file, cwd=str(cwd) if cwd else None))
    assert found is not None, f"no diagnosis for {error!r}"
    return found


def commands(found) -> list[str]:
    return [s.command for s in found.steps if s.command]


@pytest.mark.parametrize(("source", "error", "meant"), [
    ("class Main {}", "Main.java:3: error: package Sytem does not exist\n        Sytem.out.println(\"ready\");\n"
                      "             ^\n1 error", "System"),
    ("class Report {\n  static int totalCount() { return 1; }\n}",
     "Report.java:6: error: cannot find symbol\n        int n = totlCount();\n                ^\n"
     "  symbol:   method totlCount()\n  location: class Report", "totalCount"),
])
def test_a_misspelt_java_name_is_named_with_the_name_meant(tmp_path: Path, source: str, error: str,
                                                            meant: str) -> None:
    (tmp_path / error.split(":")[0]).write_text(source)
    found = answer(error, "javac " + error.split(":")[0], tmp_path)
    assert found.rule == "java.misspelt_name" and f"'{meant}'" in found.problem


def test_a_java_class_that_exists_but_is_not_imported_is_no_misspelling(tmp_path: Path) -> None:
    error = ("Inventory.java:3: error: cannot find symbol\n    private List<String> items = new ArrayList<>();\n"
             "                                     ^\n  symbol:   class ArrayList\n  location: class Inventory")
    assert answer(error, "javac Inventory.java", tmp_path).rule == "java.missing_import"


def test_a_misspelt_javascript_name_is_found_among_the_files_own_names(tmp_path: Path) -> None:
    (tmp_path / "users.js").write_text("function loadUsers() { return []; }\nconst list = loadUser();\n")
    error = (f"{tmp_path}/users.js:2\nconst list = loadUser();\n             ^\n\nReferenceError: loadUser is not defined\n"
             f"    at Object.<anonymous> ({tmp_path}/users.js:2:14)")
    found = answer(error, "node users.js", tmp_path)
    assert found.rule == "js.misspelt_name" and "'loadUsers'" in found.problem
    (tmp_path / "users.js").write_text("const list = fetchEverything();\n")
    assert answer(error.replace("loadUser", "fetchEverything"), "node users.js", tmp_path).rule == "js.not_defined"


@pytest.mark.parametrize(("code", "message", "guard"), [
    ("console.log(config.server.name);", "Cannot read properties of undefined (reading 'name')",
     "config.server?.name ?? null"),
    ("const n = res.data.items.length + 1;", "Cannot read properties of null (reading 'length')",
     "res.data.items?.length ?? null"),
    ("document.querySelector('#out').textContent = msg;", "Cannot set properties of null (setting 'textContent')",
     "if (document.querySelector('#out')) document.querySelector('#out').textContent = …;"),
    ("return user?.profile.email;", "Cannot read properties of undefined (reading 'email')",
     "user?.profile?.email ?? null"),
])
def test_the_value_that_was_undefined_is_named_from_the_line_node_shows(code: str, message: str, guard: str) -> None:
    error = f"/home/dev/app/main.js:7\n    {code}\n              ^\n\nTypeError: {message}\n    at main (/home/dev/app/main.js:7:15)"
    found = answer(error, "node main.js")
    assert found.rule == "js.undefined_property"
    assert commands(found) == [guard]


def test_an_undefined_value_without_its_line_is_still_explained() -> None:
    found = answer("Uncaught TypeError: Cannot read properties of undefined (reading 'map')\n    at render (app.js:4:20)")
    assert found.rule == "js.undefined_property" and "'.map'" in found.problem and not commands(found)


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    with sqlite3.connect(tmp_path / "shop data.db") as conn:
        conn.execute("CREATE TABLE user (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL)")
    return tmp_path


def test_a_missing_table_is_answered_with_the_tables_the_file_has(shop: Path) -> None:
    found = answer("Error: in prepare, no such table: users", "sqlite3 'shop data.db' 'select name from users'", shop)
    assert "'user'" in found.problem and commands(found) == ["sqlite3 'shop data.db' '.schema user'"]
    found = answer("Error: in prepare, no such table: invoices", "sqlite3 'shop data.db' 'select * from invoices'",
                   shop)
    assert "orders, user" in found.problem and commands(found) == ["sqlite3 'shop data.db' '.schema'"]
    before = sorted(p.name for p in shop.iterdir())
    found = answer("Error: in prepare, no such table: users", "sqlite3 other.db 'select 1 from users'", shop)
    assert commands(found) == ["sqlite3 other.db '.tables'"]
    assert sorted(p.name for p in shop.iterdir()) == before  # read, never created


def test_a_python_program_s_missing_table_names_the_database_not_the_program(shop: Path) -> None:
    found = answer("sqlite3.OperationalError: no such table: users", "python3 report.py --db 'shop data.db'", shop)
    assert commands(found) == ["sqlite3 'shop data.db' '.schema user'"]


@pytest.mark.parametrize(("error", "command"), [
    ("Expecting ',' delimiter: line 3 column 3 (char 19)", "python3 -m json.tool config.json"),
    ("jq: error (at config.json:4): parse error: Expected separator between values at line 3, column 8",
     "jq .port config.json"),
    ("Expecting ',' delimiter: line 3 column 3 (char 19)", "cat config.json | python3 -m json.tool"),
])
def test_a_missing_comma_in_a_json_file_is_shown_on_its_line(tmp_path: Path, error: str, command: str) -> None:
    (tmp_path / "config.json").write_text('{\n  "port": 8080\n  "host": "0.0.0.0"\n}\n')
    found = answer(error, command, tmp_path)
    assert found.rule == "json.missing_comma" and "config.json" in found.problem
    assert commands(found) == ['  "port": 8080,'] and found.steps[0].language == "json"


def test_json_read_from_a_pipe_has_no_file_to_name() -> None:
    found = answer("SyntaxError: Expected ',' or '}' after property value in JSON at position 19 (line 3 column 3)",
                   "node fetch.js")
    assert found.rule == "json.missing_comma" and "line 3" in found.problem and not commands(found)


@pytest.mark.parametrize(("code", "fixed"), [
    ('let count: u32 = "42";', "let count: u32 = 42;"),
    ("let port: u16 = line;", 'let port: u16 = line.trim().parse::<u16>().expect("a number");'),
    ('let ratio: f64 = "0.75";', "let ratio: f64 = 0.75;"),
])
def test_rust_text_where_a_number_is_needed_gets_its_line_rewritten(code: str, fixed: str) -> None:
    expected = code.split(":")[1].split("=")[0].strip()
    found_type = "&str" if '"' in code else "String"
    error = (f"   Compiling ticker v0.1.0 (/home/dev/ticker)\nerror[E0308]: mismatched types\n --> src/main.rs:2:22\n"
             f"  |\n2 |     {code}\n  |                ---   ^^^^ expected `{expected}`, found `{found_type}`\n"
             f"  |                |\n  |                expected due to this\n\nFor more information about this "
             f"error, try `rustc --explain E0308`.")
    found = answer(error, "cargo build")
    assert found.rule == "rust.text_for_number" and commands(found) == [fixed]
    assert found.steps[0].language == "rust"


def test_a_rust_error_without_a_rule_is_headed_by_its_error_line_not_cargo_s_progress() -> None:
    error = ("   Compiling ticker v0.1.0 (/home/dev/ticker)\nerror[E0599]: no method named `lenght` found for struct "
             "`Vec<u32>` in the current scope\n --> src/main.rs:3:22\n\nFor more information about this error, try "
             "`rustc --explain E0599`.")
    found = answer(error, "cargo build")
    assert "error[E0599]" in found.problem and "Compiling" not in found.problem


def test_a_misspelt_column_is_answered_with_the_column_the_file_has(shop: Path) -> None:
    found = answer("Error: in prepare, no such column: nmae\n  SELECT nmae FROM user;\n         ^--- error here",
                   "sqlite3 'shop data.db' 'SELECT nmae FROM user;'", shop)
    assert found.rule == "sqlite.no_column" and "'name'" in found.problem


@pytest.mark.parametrize(("statement", "fixed"), [
    ("SELECT id, total FORM invoices WHERE paid = 0;", "SELECT id, total FROM invoices WHERE paid = 0;"),
    ("SELCT * FROM orders;", "SELECT * FROM orders;"),
    ("select * form orders order by id;", "select * from orders order by id;"),
    ("SELECT * FROM orders WHERE user = 1 ORDR BY id;", "SELECT * FROM orders WHERE user = 1 ORDER BY id;"),
])
def test_a_misspelt_sql_keyword_is_corrected_in_the_statement_shown(statement: str, fixed: str) -> None:
    error = f'Error: in prepare, near "x": syntax error (1)\n  {statement}\n         ^--- error here'
    found = answer(error, f"sqlite3 shop.db '{statement}'")
    assert found.rule == "sql.misspelt_keyword" and commands(found) == [fixed]


@pytest.mark.parametrize(("error", "command", "fixed"), [
    ('Error: in prepare, near "invoices": syntax error (17)', 'sqlite3 billing.db "SELECT id FORM invoices;"',
     "SELECT id FROM invoices;"),
    ('ERROR:  syntax error at or near "SELEC"', "psql -d shop -c 'SELEC name FROM users;'", "SELECT name FROM users;"),
    ("ERROR 1064 (42000) at line 1: You have an error in your SQL syntax; check the manual that corresponds to your "
     "MySQL server version for the right syntax to use near 'FORM t' at line 1", 'mysql -e "SELECT * FORM t" shop',
     "SELECT * FROM t"),
])
def test_a_misspelt_keyword_is_corrected_in_the_statement_the_command_ran(error: str, command: str,
                                                                           fixed: str) -> None:
    """A client that prints no line of the statement (sqlite3's one-line message, psql's without LINE 1:): the
    statement is the one its command line ran, never the message's own words."""
    found = answer(error, command)
    assert found.rule == "sql.misspelt_keyword" and commands(found) == [fixed]


def test_a_syntax_error_without_a_misspelt_keyword_is_not_called_one() -> None:
    error = 'Error: in prepare, near ")": syntax error (1)\n  SELECT count(* FROM orders;\n              ^--- error here'
    found = diagnose(Situation(error, command="sqlite3 shop.db 'SELECT count(* FROM orders;'"))
    assert found is None or found.rule != "sql.misspelt_keyword"


@pytest.mark.parametrize(("code", "message", "guard"), [
    ("total += Number(line.match(/took (\\d+)ms/)[1]);", "Cannot read properties of null (reading '1')",
     "line.match(/took (\\d+)ms/)?.[1] ?? null"),
    ("totals.byRegion[sale.region] = sale.amount;", "Cannot set properties of undefined (setting 'north')",
     "if (totals.byRegion) totals.byRegion[sale.region] = …;"),
    ("const first = rows[0]['email'];", "Cannot read properties of undefined (reading 'email')",
     "rows[0]?.['email'] ?? null"),
])
def test_an_undefined_value_read_by_index_is_named_too(code: str, message: str, guard: str) -> None:
    error = f"/home/dev/app/main.js:7\n  {code}\n      ^\n\nTypeError: {message}\n    at main (/home/dev/app/main.js:7:15)"
    assert commands(answer(error, "node main.js")) == [guard]


def test_a_misspelt_method_is_written_with_what_it_was_called_on() -> None:
    error = ("/home/dev/app/report.js:3\nconsole.log(JSON.stringfy(rows));\n                 ^\n\n"
             "TypeError: JSON.stringfy is not a function\n    at Object.<anonymous> (/home/dev/app/report.js:3:18)")
    found = answer(error, "node report.js")
    assert "'JSON.stringify'" in found.problem and commands(found) == ["console.log(JSON.stringify(rows));"]
