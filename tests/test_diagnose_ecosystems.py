"""Rules as data for the ecosystems beyond Python, pip, the shell and git, tested both ways:
every rule answers its own example messages through `diagnose()` (no rule of an earlier family or file takes
them first) and none of its counter-examples; the facts read from this machine change the answer."""

from __future__ import annotations

import grp
import os
import re
import stat
from pathlib import Path

import pytest

from proactive.assistant.diagnose import Situation, diagnose, ecosystems, facts, rules

from .test_diagnose_shell import all_rules


@pytest.mark.parametrize(("family", "rule"), list(all_rules(ecosystems.ECOSYSTEMS)), ids=lambda x: x if isinstance(x, str) else x.id)
def test_every_rule_answers_its_examples_and_none_of_its_counter_examples(family: str, rule: rules.Rule) -> None:
    assert rule.examples, f"rules/{family}.toml: {rule.id} has no examples"
    for example in rule.examples:
        found = diagnose(Situation(example, command="make"))
        assert found is not None and found.rule == rule.id, f"{rule.id}: {example!r} gave {found and found.rule}"
        for text in (found.problem, found.offer, *(s.text for s in found.steps), *(s.command or "" for s in found.steps)):
            # a placeholder left unfilled ({port}); a literal brace of code ("extern \"C\" {", "${HOME}") is text
            assert not re.search(r"(?<![$\w])\{[A-Za-z_]\w*\}", text), f"{rule.id}: unfilled {text!r}"
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
                                              ("SSL_CTX_new", "-lssl -lcrypto"), ("curl_easy_init", "-lcurl")])
def test_an_undefined_symbol_is_answered_with_its_library(symbol: str, flag: str) -> None:
    found = diagnose(Situation(f"/usr/bin/ld: /tmp/ccX.o: in function `main':\nmain.c:(.text+0x1b): undefined reference "
                               f"to `{symbol}'\ncollect2: error: ld returned 1 exit status", command="gcc main.c -o app"))
    assert found is not None and found.rule == "c.undefined_reference"
    assert found.details["flag"] == flag
    assert found.steps[0].command == f"gcc main.c -o app {flag}"


def test_a_cxx_library_symbol_linked_by_gcc_is_answered_with_g_plus_plus() -> None:
    found = diagnose(Situation("main.cpp:(.text+0x1b): undefined reference to `std::ios_base::Init::Init()'",
                               command="gcc main.cpp -o app"))
    assert found.rule == "c.undefined_reference" and found.steps[0].command == "g++ main.cpp -o app"


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
    monkeypatch.setattr(grp, "getgrnam", lambda name: group)
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


def test_a_mistyped_make_target_is_matched_against_the_makefile_it_ran(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text("deploy-staging:\n\t./deploy.sh staging\n\ncoverage: build\n\tpytest --cov\n")
    error = "make: *** No rule to make target 'deploy-stagin'.  Stop."
    found = diagnose(Situation(error, command="make deploy-stagin", cwd=str(tmp_path)))
    assert found.rule == "make.no_rule" and found.steps[0].command == "make deploy-staging"
    found = diagnose(Situation("make: *** No rule to make target 'instal'.  Stop.", command="make instal"))
    assert found.steps[0].command == "make install"  # a common target when the Makefile cannot be read
    found = diagnose(Situation("make: *** No rule to make target 'frobnicate'.  Stop.", command="make frobnicate"))
    assert "close_target" not in found.details or not found.details["close_target"]
    assert "make -qp" in (found.steps[0].command or "")


@pytest.mark.parametrize(("image", "close"), [("ngnix", "nginx"), ("postgress", "postgres"), ("reddis", "redis"),
                                              ("myteam/api", "")])
def test_a_mistyped_official_image_is_named(image: str, close: str) -> None:
    error = (f"Unable to find image '{image}:latest' locally\ndocker: Error response from daemon: pull access denied "
             f"for {image}, repository does not exist or may require 'docker login': denied")
    found = diagnose(Situation(error, command=f"docker run {image}"))
    assert found.rule == "docker.pull_denied"
    assert found.details["close_image"] == close
    assert (found.steps[0].command == f"docker pull {close}") if close else "docker login" in found.steps[0].command


def test_java_names_fill_the_import_the_package_and_the_dependency() -> None:
    found = diagnose(Situation("A.java:4: error: cannot find symbol\n        Scanner in = new Scanner(System.in);\n"
                               "        ^\n  symbol:   class Scanner\n  location: class A"))
    assert found.rule == "java.missing_import" and found.steps[0].command == "import java.util.Scanner;"
    found = diagnose(Situation("A.java:1: error: cannot find symbol\n  symbol:   class Frobnicator\n  location: class A"))
    assert found.rule == "java.missing_import" and "import" not in found.details
    found = diagnose(Situation("Main.java:3: error: package com.fasterxml.jackson.databind does not exist"))
    assert found.details["artifact"] == "com.fasterxml.jackson.core:jackson-databind"
    found = diagnose(Situation("Error: Could not find or load main class Main\nCaused by: java.lang.NoClassDefFoundError: "
                               "Main (wrong name: org/acme/tools/Main)"))
    assert found.rule == "java.wrong_name" and found.steps[0].command == "java org.acme.tools.Main"


@pytest.fixture
def systemctl_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A systemctl that lists a few units (a real program on PATH: the containers tests run in have no systemd)."""
    program = tmp_path / "bin" / "systemctl"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\nprintf 'postgresql.service enabled enabled\\nnginx.service enabled enabled\\n"
                       "ssh.service enabled enabled\\n'\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{program.parent}{os.pathsep}{os.environ['PATH']}")
    return program


@pytest.mark.parametrize(("error", "command"), [
    ("Failed to start postgres.service: Unit postgres.service not found.", "sudo systemctl start postgresql.service"),
    ("Failed to restart ngnix.service: Unit ngnix.service not found.", "sudo systemctl restart nginx.service"),
    ("Unit shh.service could not be found.", "systemctl status ssh.service"),
])
def test_a_unit_not_found_is_answered_with_the_closest_installed_unit(systemctl_on_path: Path, error: str,
                                                                      command: str) -> None:
    found = diagnose(Situation(error))
    assert found.rule == "systemd.unit_not_found" and found.steps[0].command == command


def test_no_close_unit_gives_the_search_and_where_a_unit_file_goes(systemctl_on_path: Path) -> None:
    found = diagnose(Situation("Failed to enable unit: Unit file ledger.service does not exist."))
    assert found.details["close_unit"] == ""
    commands = [s.command or "" for s in found.steps]
    assert "grep -i ledger.service" in commands[0] and "/etc/systemd/system" in commands[1]


def test_an_unknown_nginx_directive_is_matched_against_nginx_s_directives() -> None:
    found = diagnose(Situation('nginx: [emerg] unknown directive "proxy_pas" in /etc/nginx/sites-enabled/app:9'))
    assert found.rule == "nginx.unknown_directive" and found.details["close_word"] == "proxy_pass"
    found = diagnose(Situation('nginx: [emerg] unknown directive "brotli" in /etc/nginx/nginx.conf:30'))
    assert found.details["close_word"] == "" and found.steps[0].command == "sudo nginx -t"


def test_a_rule_text_with_a_lone_brace_is_refused_when_loaded() -> None:
    with pytest.raises(rules.RuleError, match=r"rules/x.toml, rule 2: Single '\{'"):
        rules._rule({"id": "x.y", "pattern": "x", "problem": "p", "offer": "o",
                     "steps": [{"text": "for i in s {", "command": "x"}]}, "rules/x.toml, rule 2")


@pytest.mark.parametrize("quoted", ["'<string.h>' or provide a declaration of 'strlen'",
                                    "\u2018<string.h>\u2019 or provide a declaration of \u2018strlen\u2019"])
def test_typographic_quotes_are_read_as_plain_ones(quoted: str) -> None:
    """gcc (and coreutils) quote with ‘ ’ in a UTF-8 locale and with ' in the C locale: the same answer."""
    found = diagnose(Situation(f"slugify.c:7:16: error: implicit declaration of function \u2018strlen\u2019\n"
                               f"slugify.c:3:1: note: include {quoted}", command="make"))
    assert found is not None and found.steps[0].command == "#include <string.h>"


@pytest.mark.parametrize(("command", "step"), [("python3 inventory/models.py", "python3 -m inventory.models"),
                                               ("python3 ./app/cli/main.py --fast", "python3 -m app.cli.main"),
                                               (None, None), ("python3 /opt/tool/run.py", None)])
def test_a_relative_import_in_a_script_names_the_module_to_run(command: str | None, step: str | None) -> None:
    """The module is read from the command that ran the script by a relative path; an absolute path or no command
    gives the general step (the folder above the package is not known)."""
    found = diagnose(Situation("ImportError: attempted relative import with no known parent package",
                               command=command))
    assert found is not None and found.steps[0].command == step


@pytest.mark.parametrize(("name", "path"), [("http", "net/http"), ("json", "encoding/json"),
                                            ("filepath", "path/filepath"), ("healthHandler", None)])
def test_an_undefined_go_name_of_the_standard_library_names_its_import(name: str, path: str | None) -> None:
    found = diagnose(Situation(f"# example.com/app\n./main.go:12:15: undefined: {name}", command="go build"))
    assert found is not None
    text = " ".join(s.text for s in found.steps)
    assert (f'"{path}"' in text) if path else ("standard library" not in text and found.steps[0].command == "go run .")


def test_a_module_missing_from_an_interpreter_is_installed_with_that_interpreter() -> None:
    found = diagnose(Situation("/home/dev/app/.venv/bin/python3: No module named yaml", command="python3 -m yaml"))
    assert found is not None and found.steps[0].command == "/home/dev/app/.venv/bin/python3 -m pip install PyYAML"


@pytest.mark.parametrize(("command", "first"), [
    ("npm install react-beautiful-dnd", "npm install react-beautiful-dnd@latest"),
    ("npm i -D @vitejs/plugin-react@4.2.1", "npm install @vitejs/plugin-react@latest"),
    ("pnpm add vue-router", "npm install vue-router@latest"),
    ("npm install", None),
    (None, None),
])
def test_an_eresolve_without_its_report_names_the_package_the_command_installs(command: str | None,
                                                                               first: str | None) -> None:
    """npm's peer report cut off (a replayed session quotes a few lines): the package the command installed is the
    one to upgrade; a whole-project install names none, and only the report's reading and the flag are given."""
    found = diagnose(Situation("npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree",
                               command=command))
    assert found is not None and found.rule == "npm.eresolve_plain"
    assert found.steps[0].command == first
    assert "--legacy-peer-deps" in (found.steps[-1].command or "")


@pytest.mark.parametrize(("command", "grant"), [
    ('psql -U reporting -d shop -c "SELECT id, total FROM orders;"', "GRANT SELECT ON table orders TO reporting"),
    ("psql -U app -d shop -c 'insert into orders values (1)'", "GRANT INSERT ON table orders TO app"),
    ("psql -d shop", "GRANT ALL ON table orders TO <role>"),
])
def test_a_refused_statement_is_granted_what_it_needed(command: str, grant: str) -> None:
    """The GRANT names the privilege the refused statement needed (least privilege), ALL only when none is seen."""
    found = diagnose(Situation("ERROR:  permission denied for table orders", command=command))
    assert found is not None and grant in (found.steps[0].command or "")


@pytest.mark.parametrize(("text", "host"), [
    ("$ git clone git@gitlab.example.com:platform/infra.git\nCloning into 'infra'...\nHost key verification failed.\n"
     "fatal: Could not read from remote repository.", "gitlab.example.com"),
    ("fatal: unable to access ssh://deploy@git.acme.io/app.git\nHost key verification failed.", "git.acme.io"),
    ("Host key verification failed.\r\nlost connection", "<host>"),
])
def test_an_unverified_host_key_names_the_host_to_record(text: str, host: str) -> None:
    found = diagnose(Situation(text))
    assert found is not None and found.rule == "ssh.host_key_unverified"
    assert found.steps[0].command == f"ssh-keyscan {host} >> ~/.ssh/known_hosts"


@pytest.mark.parametrize(("text", "conversion"), [
    ("./main.go:8:11: invalid operation: quantity * price (mismatched types int and float64)", "float64(quantity)"),
    ("./stats.go:14:9: invalid operation: total / count (mismatched types float32 and int)", "float32(count)"),
    ("./main.go:9:14: invalid operation: a + b (mismatched types int and int64)", None),
    ("./m.go:3:9: invalid operation: len(items) * ratio (mismatched types int and float64)", None),
])
def test_go_mismatched_numbers_convert_the_integer_to_the_float(text: str, conversion: str | None) -> None:
    """An integer beside a float is converted to the float (nothing cut off); other pairs, or operands that are not
    plain names, keep the rule's general step."""
    found = diagnose(Situation(text))
    assert found is not None and found.rule == "go.mismatched_types"
    assert found.steps[0].command == conversion


def test_a_ca_file_that_cannot_be_loaded_is_read_for_its_format(tmp_path: Path) -> None:
    """curl's "error setting certificate file": a DER file on this machine (whatever its name) gets the openssl
    conversion; a PEM file does not; a file not here is judged by its name (.cer, .der)."""
    der = tmp_path / "corp.crt"
    der.write_bytes(bytes([0x30, 0x82, 0x03, 0x1F]) + bytes(range(256)))
    pem = tmp_path / "corp-root.cer"
    pem.write_text("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")

    def first(path: str) -> str | None:
        found = diagnose(Situation(f"curl: (77) error setting certificate file: {path}"))
        assert found is not None and found.rule == "tls.ca_file_missing"
        return found.steps[0].command

    assert first(str(der)) == f"openssl x509 -inform der -in {der} -out {der.with_suffix('.pem')}"
    assert "openssl" not in (first(str(pem)) or "")
    assert (first("/home/nobody/Downloads/AcmeRootCA.cer") or "").startswith("openssl x509 -inform der")
    assert "openssl" not in (first("/home/nobody/ca-bundle.pem") or "")


def test_a_rule_step_written_in_the_persons_language_is_code_to_copy_not_a_command() -> None:
    """A `use` line for a std::io trait is Rust for the file, offered as code (never as a shell command)."""
    found = diagnose(Situation("error[E0599]: no method named `read_line` found for struct `StdinLock<'static>` in "
                               "the current scope"))
    assert found is not None and found.rule == "rust.io_trait_not_in_scope"
    assert (found.steps[0].command, found.steps[0].language, found.steps[0].copy_label) == (
        "use std::io::BufRead;", "rust", "Copy code")


def test_without_the_command_the_message_names_its_program_or_none_is_promised() -> None:
    """Node's fetch names itself by its "[cause]:"; a bare x509 line names no program, and the offer then promises
    the system-wide step only (not "for ?"); a kubelet event names no pod: the step says where to put it."""
    node = diagnose(Situation("TypeError: fetch failed\n  [cause]: Error: unable to get local issuer certificate"))
    assert node is not None and "NODE_EXTRA_CA_CERTS" in node.steps[0].text
    bare = diagnose(Situation("x509: certificate signed by unknown authority"))
    assert bare is not None and bare.offer == "how to trust your CA system-wide"
    pull = diagnose(Situation("Warning  Failed  9s  kubelet  Error: ImagePullBackOff"))
    assert pull is not None and pull.steps[0].command == "kubectl describe pod <pod>"


@pytest.mark.parametrize("command, program", [
    ("cd web && npm ci", "npm"),
    ("cd /srv/app; pip install -r requirements.txt", "pip"),
    ("pushd tools && sudo gem install bundler", "gem"),
    ("npm ci", "npm"),
])
def test_the_program_is_the_one_run_after_a_change_of_folder(command: str, program: str) -> None:
    """'cd app && npm install' runs npm in app: the failing program, whose own setting the help names, is npm."""
    found = diagnose(Situation("unable to get local issuer certificate", command=command))
    assert found is not None and found.offer.endswith(f"for {program}"), found


@pytest.mark.parametrize(("text", "command", "std", "fixed"), [
    ("stats.cpp:5:21: error: 'span' is not a member of 'std'", "g++ -Wall -o stats stats.cpp", "20",
     "g++ -std=c++20 -Wall -o stats stats.cpp"),
    ("main.cpp:3:10: error: no member named 'optional' in namespace 'std'", "clang++ -std=c++14 main.cpp", "17",
     "clang++ -std=c++17 main.cpp"),
    ("app.cpp:9:5: error: 'println' is not a member of 'std'", "make", "23", "g++ -std=c++23 <your sources> -o <program>"),
])
def test_a_standard_library_name_of_a_newer_standard_asks_for_that_standard(text: str, command: str, std: str,
                                                                            fixed: str) -> None:
    """The standard that added the name, and the person's own compiler line with it (an older -std= replaced)."""
    d = diagnose(Situation(text, command=command))
    assert d is not None and d.rule == "cxx.standard_name" and f"is part of C++{std}," in d.problem
    assert d.steps[0].command == fixed


def test_a_self_signed_server_is_trusted_by_its_own_certificate_for_the_command_that_failed() -> None:
    """A server's own self-signed certificate (not a CA in a chain): save the certificate of the host and port the
    command used, then the same command with that one file trusted."""
    d = diagnose(Situation("curl: (60) SSL certificate problem: self-signed certificate",
                           command="curl -sS https://localhost:8443/metrics"))
    assert d is not None and d.rule == "tls.untrusted_issuer"
    assert d.steps[0].command.startswith("openssl s_client -connect localhost:8443 ")
    assert d.steps[1].command == "curl --cacert server.pem -sS https://localhost:8443/metrics"
    d = diagnose(Situation("fatal: unable to access 'https://git.lab.test/a.git/': SSL certificate problem: "
                           "self-signed certificate", command="git clone https://git.lab.test/a.git"))
    assert d is not None and "-connect git.lab.test:443 " in d.steps[0].command
    assert d.steps[1].command == "git -c http.sslCAInfo=server.pem clone https://git.lab.test/a.git"
    chain = diagnose(Situation("curl: (60) SSL certificate problem: self-signed certificate in certificate chain",
                               command="curl https://example.test/"))
    assert chain is not None and "server.pem" not in " ".join(s.command or "" for s in chain.steps)


def test_the_unit_the_message_names_is_the_one_to_read_whatever_the_command() -> None:
    error = ("Mar 14 10:02:11 devbox systemd[1]: reportbot.service: Main process exited, code=exited, "
             "status=217/USER")
    d = diagnose(Situation(error, command="journalctl -u reportbot.service -n 5"))
    assert d is not None and d.steps[0].command == "systemctl cat reportbot.service"
    d = diagnose(Situation("Main process exited, code=exited, status=217/USER", command="sudo systemctl start web"))
    assert d is not None and d.steps[0].command == "systemctl cat web"


def test_an_es_module_import_without_its_extension_names_the_file_that_exists(tmp_path: Path) -> None:
    """The extension of the file on disk (an .mjs importer may import a .js file); .js, said as a guess, when the
    file is not here."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "utils.js").write_text("export const x = 1;\n")
    error = (f"Error [ERR_MODULE_NOT_FOUND]: Cannot find module '{src}/utils' imported from {src}/index.mjs")
    d = diagnose(Situation(error))
    assert d is not None and d.steps[0].command == "import … from './utils.js';" and "found" in d.steps[0].text
    (src / "utils.js").rename(src / "utils.mjs")
    d = diagnose(Situation(error))
    assert d is not None and d.steps[0].command == "import … from './utils.mjs';"
    d = diagnose(Situation(error.replace(str(src), "/nowhere/app")))
    assert d is not None and d.steps[0].command == "import … from './utils.js';" and "found" not in d.steps[0].text


def test_a_go_struct_tag_with_a_space_after_its_colon_is_written_without() -> None:
    d = diagnose(Situation("./user.go:12:2: struct field tag `json:\"name\" db: \"user_name\"` not compatible with "
                           "reflect.StructTag.Get: bad syntax for struct tag value"))
    assert d is not None and d.rule == "go.struct_tag_syntax" and d.steps[0].command == '`db:"user_name"`'
