"""Every command says what it does and every option has help text (`proactive CMD --help` is the manual), and
the documentation's commands are the CLI's: the README's command table, and the examples of the README and the
docs/ pages parse."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click

from proactive.app.cli import cli


def commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    found = []
    for name, command in group.commands.items():
        found.append(((*path, name), command))
        if isinstance(command, click.Group):
            found += commands(command, (*path, name))
    return found


def test_every_command_and_option_has_help():
    missing = []
    for path, command in commands(cli):
        if not (command.help or "").strip():
            missing.append(" ".join(path))
        for param in command.params:
            if isinstance(param, click.Option) and not (param.help or "").strip():
                missing.append(f"{' '.join(path)} {'/'.join(param.opts)}")
    assert len(commands(cli)) > 10
    assert missing == []


README = Path(__file__).resolve().parent.parent / "README.md"
DOCS = sorted((README.parent / "docs").glob("*.md"))
LISTED = re.compile(r"^proactive ((?:[a-z][a-z-]* )?[a-z][a-z-]*)(?=\s)(.*)$")


def code_lines(*pages: Path) -> list[str]:
    """The lines of these Markdown pages' fenced code blocks."""
    return [line for page in pages
            for i, block in enumerate(page.read_text(encoding="utf-8").split("```")) if i % 2
            for line in block.splitlines()]


def readme_code() -> list[str]:
    """The lines of the README's fenced code blocks."""
    return code_lines(README)


def command_at(path: list[str]) -> click.Command | None:
    command: click.Command | None = cli
    for name in path:
        command = command.commands.get(name) if isinstance(command, click.Group) else None
    return command


def test_the_readme_command_table_names_real_commands_and_options():
    """Each `proactive CMD [SUB] [--option ...]` line of the README's command table names a command the CLI has
    and options that command takes (its synopsis: the text before the description's wide gap), and every
    visible command is in the table: the table is the first thing a user reads, so it must not drift."""
    listed: dict[str, set[str]] = {}
    for line in readme_code():
        match = LISTED.match(line)
        if not match or "#" in line:
            continue
        words, rest = match.group(1).split(), match.group(2)
        if command_at(words) is None or isinstance(command_at(words), click.Group):
            words = words[:1]  # "proactive resume   resume capture": one word, then the description
        synopsis = re.split(r"\s{3,}(?=[a-z(])", rest, maxsplit=1)[0]  # the description starts after a wide gap
        if "same options as" in synopsis:
            synopsis = ""
        listed.setdefault(" ".join(words), set()).update(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", synopsis))
    problems = []
    for name, options in listed.items():
        command = command_at(name.split())
        if command is None:
            problems.append(f"`proactive {name}` is not a command")
            continue
        known = {opt for param in command.params for opt in param.opts + param.secondary_opts}
        problems += [f"`proactive {name}` has no option {option}" for option in sorted(options - known)]
    visible = {" ".join(path) for path, command in commands(cli) if not isinstance(command, click.Group)
               and not any(command_at(list(path[:i])).hidden for i in range(1, len(path) + 1))}
    problems += [f"`proactive {name}` is missing from the README's command table" for name in sorted(visible - set(listed))]
    assert len(listed) > 15
    assert problems == []


def test_the_readme_example_commands_parse():
    """Every complete `proactive ...` example in the code blocks of the README and of the docs/ pages (not the
    command table's synopses) parses: its command exists and its options and values are accepted, as a user
    pasting it would find."""
    assert DOCS, "no docs/*.md pages"
    examples = [example for example in (line.split("  #")[0].strip() for line in code_lines(README, *DOCS))
                if example.startswith("proactive ") and not re.search(r"[\[|]|\.\.\.|\s{3,}", example)]
    assert len(examples) >= 3
    for example in examples:
        args = shlex.split(example)[1:]
        path = []
        while args and isinstance(command_at(path), click.Group) and args[0] in command_at(path).commands:
            path.append(args.pop(0))
        command = command_at(path)
        assert command is not None and not isinstance(command, click.Group), example
        try:
            command.make_context(" ".join(["proactive", *path]), list(args), resilient_parsing=False)
        except click.exceptions.BadParameter as exc:  # a placeholder path (SESSION.json) that does not exist here
            assert "does not exist" in str(exc) and exc.param is not None and exc.param.name, (example, exc)
        except click.UsageError as exc:
            raise AssertionError(f"{example}: {exc}") from exc


FIXTURES = README.parent / "tests" / "fixtures"


def test_the_documented_commands_over_a_proactivebench_checkout_run_as_written(tmp_path: Path, proactive_home: Path,
                                                                             monkeypatch):
    """The commands the README and docs/ give over a checkout of ProactiveBench's repository (`--proactivebench
    ProactiveAgent`) run exactly as written, beside a miniature checkout laid out as that repository is, made
    from the test fixtures: the sessions the line names, labels, zipped archived traces of two agents and one
    trace that cannot be read (the `{"Operation": "browser.search"}` entry that once made the replay line exit
    2). The replay line finishes, names the broken baseline and writes its report."""
    import json
    import shutil
    import zipfile

    from .conftest import run_cli

    text = "\n".join(page.read_text(encoding="utf-8") for page in (README, *DOCS))
    documented = sorted({c for c in re.findall(r"`(proactive [^`]+)`", text) + code_lines(README, *DOCS)
                         if c.startswith("proactive ") and "--proactivebench ProactiveAgent" in c})
    replay = [shlex.split(c) for c in documented if c.startswith("proactive replay") and "--out" in c]
    assert replay, documented
    words = replay[0]
    names = [w for w in words if w.endswith(".json")]
    checkout = tmp_path / "ProactiveAgent"
    (checkout / "dataset" / "test_data").mkdir(parents=True)
    (checkout / "dataset" / "reward_data").mkdir(parents=True)
    (checkout / "eval").mkdir()
    shutil.copy(FIXTURES / "reward_small.jsonl", checkout / "dataset" / "reward_data" / "train_data.jsonl")
    # the first two turns only: the built-in model's time per turn is the model tests' business
    session = json.dumps(json.loads((FIXTURES / "session_small.json").read_text(encoding="utf-8"))[:2])
    traces = {model: json.dumps(json.loads((FIXTURES / "baselines" / model / "session_small.json")
                                           .read_text(encoding="utf-8"))[:2])
              for model in ("always-silent", "always-speaks")}
    with zipfile.ZipFile(checkout / "eval" / "traces.zip", "w") as z:
        for name in names:
            (checkout / "dataset" / "test_data" / name).write_text(session, encoding="utf-8")
            for model, trace in traces.items():
                z.writestr(f"eval/traces_new/{model}/{name}", trace)
        z.writestr(f"eval/traces_new/broken-agent/{names[0]}", '[{"observation": {"time": "1", "event": "e"}, '
                   '"agent_response": [{"Operation": "browser.search"}]}]')
    monkeypatch.chdir(tmp_path)  # where the checkout is, as a shell beside it would
    for command in documented:
        result = run_cli(*shlex.split(command)[1:], cwd=tmp_path)
        assert result.returncode == 0, (command, result.stderr[-2000:])
    report = (tmp_path / words[words.index("--out") + 1] / "report.md").read_text(encoding="utf-8")
    assert "broken-agent" in report and "always-speaks" in report
