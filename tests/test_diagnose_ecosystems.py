"""Rules as data for the ecosystems beyond Python, pip, the shell and git (issue 35 item 2), tested both ways:
every rule answers its own example messages through `diagnose()` (no rule of an earlier family or file takes
them first) and none of its counter-examples; the facts read from this machine change the answer."""

from __future__ import annotations

import grp
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from proactive.assistant.diagnose import Situation, diagnose, ecosystems, facts, rules


def all_rules() -> Iterator[tuple[str, rules.Rule]]:
    for family in ecosystems.ECOSYSTEMS:
        for rule in rules.load(family):
            yield family, rule


@pytest.mark.parametrize(("family", "rule"), list(all_rules()), ids=lambda x: x if isinstance(x, str) else x.id)
def test_every_rule_answers_its_examples_and_none_of_its_counter_examples(family: str, rule: rules.Rule) -> None:
    assert rule.examples, f"rules/{family}.toml: {rule.id} has no examples"
    for example in rule.examples:
        found = diagnose(Situation(example, command="make"))
        assert found is not None and found.rule == rule.id, f"{rule.id}: {example!r} gave {found and found.rule}"
        for text in (found.problem, found.offer, *(s.text for s in found.steps), *(s.command or "" for s in found.steps)):
            assert "{" not in text.replace("${", "").replace("{}", ""), f"{rule.id}: unfilled {text!r}"
    for example in rule.not_examples:
        assert rule.match(Situation(example)) is None, f"{rule.id} matches its not_example {example!r}"


def test_rule_ids_are_unique_across_every_file() -> None:
    families = ("python", "packages", "shell", "git", *ecosystems.ECOSYSTEMS)
    ids = [rule.id for family in families for rule in rules.load(family)]
    assert len(ids) == len(set(ids))


def test_a_rule_naming_an_unknown_fact_is_refused_with_its_file_and_rule() -> None:
    with pytest.raises(rules.RuleError, match=r"rules/x.toml, rule 1: unknown fact 'moon_phase'"):
        rules._rule({"id": "x.y", "pattern": "x", "problem": "p", "offer": "o", "steps": [{"text": "t"}],
                     "facts": ["moon_phase"]}, "rules/x.toml, rule 1")


# ---------------------------------------------------------------- facts change the answer


def test_a_missing_header_is_answered_with_the_package_that_ships_it() -> None:
    found = diagnose(Situation("main.c:1:10: fatal error: png.h: No such file or directory\n    1 | #include <png.h>\n"
                               "compilation terminated.", command="gcc main.c -o main"))
    assert found is not None and found.rule == "c.missing_header"
    assert any(s.command and "libpng-dev" in s.command for s in found.steps) or found.details.get("installed") == "yes"
    assert found.details["package"] == "libpng-dev"


def test_an_unknown_header_is_looked_up_rather_than_guessed() -> None:
    found = diagnose(Situation("x.c:2:10: fatal error: frobnicate/frob.h: No such file or directory"))
    assert found is not None and found.rule == "c.missing_header"
    assert "package" not in found.details
    assert any(s.command and "apt-file search" in s.command for s in found.steps)


@pytest.mark.parametrize(("symbol", "flag"), [("sqrt", "-lm"), ("powf", "-lm"), ("pthread_create", "-pthread"),
                                              ("SSL_CTX_new", "-lssl -lcrypto"), ("curl_easy_init", "-lcurl"),
                                              ("std::ios_base::Init::Init()", "-lstdc++")])
def test_an_undefined_symbol_is_answered_with_its_library(symbol: str, flag: str) -> None:
    found = diagnose(Situation(f"/usr/bin/ld: /tmp/ccX.o: in function `main':\nmain.c:(.text+0x1b): undefined reference "
                               f"to `{symbol}'\ncollect2: error: ld returned 1 exit status", command="gcc main.c -o app"))
    assert found is not None and found.rule == "c.undefined_reference"
    assert found.details["flag"] == flag
    assert found.steps[0].command == f"gcc main.c -o app {flag}"


def test_an_undefined_symbol_of_no_known_library_says_what_to_link_without_a_flag() -> None:
    found = diagnose(Situation("main.c:(.text+0x1b): undefined reference to `parse_config'", command="gcc main.c"))
    assert found is not None and found.rule == "c.undefined_reference"
    assert "flag" not in found.details and "-l" not in (found.steps[0].command or "")


def test_the_key_files_real_mode_and_owner_are_read(tmp_path: Path) -> None:
    key = tmp_path / "id_test"
    key.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    key.chmod(0o644)
    found = diagnose(Situation(f"Permissions 0644 for '{key}' are too open."))
    assert found is not None and found.details["mode"] == "0644" and found.details["own_key"] == "yes"
    assert found.steps[0].command == f"chmod 600 {key}"
    assert stat.S_IMODE(key.stat().st_mode) == 0o644  # a diagnosis reads, never changes


def test_a_missing_key_file_gives_the_plain_step(tmp_path: Path) -> None:
    found = diagnose(Situation(f"Permissions 0644 for '{tmp_path}/gone' are too open."))
    assert found is not None and found.details["key_here"] == "no" and "chmod 600" in (found.steps[0].command or "")


def test_publickey_names_the_persons_own_key_when_there_is_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    error = "git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository."
    found = diagnose(Situation(error))
    assert found is not None and "ssh-keygen -t ed25519" in (found.steps[0].command or "")
    (tmp_path / ".ssh").mkdir()
    (tmp_path / ".ssh" / "id_ed25519.pub").write_text("ssh-ed25519 AAAA test\n")
    found = diagnose(Situation(error))
    assert found is not None and found.steps[0].command == "ssh-copy-id -i ~/.ssh/id_ed25519.pub git@github.com"


def test_docker_group_membership_decides_between_usermod_and_newgrp(monkeypatch: pytest.MonkeyPatch) -> None:
    error = "permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock"
    me = os.environ.get("USER", "root")
    group = grp.struct_group(("docker", "x", 4242, [me]))
    monkeypatch.setattr(facts.grp, "getgrnam", lambda name: group)
    monkeypatch.setattr(facts.os, "getgroups", lambda: [0])
    monkeypatch.setattr(facts.os, "getgid", lambda: 0)
    monkeypatch.setenv("USER", me)
    assert diagnose(Situation(error)).steps[0].command == "newgrp docker"
    group = grp.struct_group(("docker", "x", 4242, []))
    assert "usermod -aG docker" in (diagnose(Situation(error)).steps[0].command or "")


def test_the_kube_config_and_its_contexts_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    error = 'error: no context exists with the name: "prod"'
    monkeypatch.setenv("KUBECONFIG", str(tmp_path / "none"))
    found = diagnose(Situation(error))
    assert found is not None and found.details["kubeconfig"] == ""
    config = tmp_path / "config"
    config.write_text("apiVersion: v1\nclusters: []\ncontexts:\n- context:\n    cluster: kind-dev\n    user: kind-dev\n"
                      "  name: kind-dev\n- context:\n    cluster: staging\n    user: me\n  name: staging\n"
                      "current-context: kind-dev\nkind: Config\n")
    monkeypatch.setenv("KUBECONFIG", str(config))
    found = diagnose(Situation(error))
    assert found.details["contexts"] == "kind-dev, staging"
    assert any("kind-dev, staging" in s.text for s in found.steps)


def test_a_needed_jdk_that_is_installed_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    error = ("Error: LinkageError occurred while loading main class App\n\tjava.lang.UnsupportedClassVersionError: App "
             "has been compiled by a more recent version of the Java Runtime (class file version 65.0), this version "
             "of the Java Runtime only recognizes class file versions up to 55.0")
    monkeypatch.setenv("PROACTIVE_JVM_DIR", str(tmp_path))
    found = diagnose(Situation(error, command="java App"))
    assert found.details["needed"] == "21" and found.details["running"] == "11" and found.details["jdk"] == ""
    assert any("openjdk-21" in (s.command or "") for s in found.steps)
    (tmp_path / "java-21-openjdk-amd64").mkdir()
    found = diagnose(Situation(error, command="java App"))
    assert found.details["jdk"].endswith("java-21-openjdk-amd64")
    assert any(f"{tmp_path}/java-21-openjdk-amd64/bin/java" in (s.command or "") for s in found.steps)


def test_a_fact_that_fails_leaves_the_plain_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(values: dict[str, str], situation: Situation) -> dict[str, str]:
        raise OSError("unreadable")

    monkeypatch.setitem(facts.FACTS, "ssh_keys", broken)
    found = diagnose(Situation("ana@10.0.0.5: Permission denied (publickey)."))
    assert found is not None and found.rule == "ssh.publickey" and "ssh-keygen" in (found.steps[0].command or "")


def test_every_table_entry_names_a_package() -> None:
    table = facts._table("debian_packages")
    assert {"header", "pkgconfig", "library", "cmake", "gem"} <= set(table)
    for kind, names in table.items():
        for name, package in names.items():
            assert package.strip() and (kind == "gem" or " " not in package.strip()), (kind, name)
    for pattern, flag, _package in facts._link_rows():
        assert flag and pattern.pattern
