"""Facts read from this machine where they decide a rule's answer, named by rules as data.

A rule that names `facts = ["docker_access"]` gets each fact's values added to the ones its pattern found
(`{in_group}`, `{socket}`), to fill its texts and choose its variant. A fact reads only local state (files,
`/proc`, the group database, `dpkg-query`), quickly, and never raises: a fact that cannot be read is left
unknown, and the rule's plain texts are used. Tables of names (the Debian package shipping a header, the
library defining a symbol) are data in `rules/debian_packages.toml` and `rules/link_symbols.toml`.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

from . import Situation
from .fact_registry import FACTS, _table, _words, fact, read  # noqa: F401 - the registry, as rules and tests name it

log = logging.getLogger(__name__)

#: how long a fact may wait for a program it asks (dpkg-query, systemctl)
SUBPROCESS_SECONDS = 1.5


def _run(*args: str) -> str | None:
    """A program's standard output, or None when it is missing, fails or takes too long."""
    if shutil.which(args[0]) is None:
        return None
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=SUBPROCESS_SECONDS, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def _home() -> Path:
    return Path(os.path.expanduser("~"))


# ---------------------------------------------------------------- packages


def installed(package: str) -> bool | None:
    """Whether a Debian package is installed (None when dpkg cannot say)."""
    out = _run("dpkg-query", "-W", "-f=${db:Status-Status}", package)
    return None if out is None and shutil.which("dpkg-query") is None else out == "installed"


def package_for(kind: str, name: str) -> str | None:
    """The Debian/Ubuntu package that ships a header, a pkg-config module or a library (`rules/debian_packages`):
    the exact name first, then its folder ('openssl/evp.h' → 'openssl/'), then a versioned library's stem."""
    table = _table("debian_packages").get(kind, {})
    if name in table:
        return table[name]
    if "/" in name and name.split("/")[0] + "/" in table:
        return table[name.split("/")[0] + "/"]
    stem = re.sub(r"[-_.]?\d[\d.]*$", "", name)
    return table.get(stem)


@fact
def debian_package(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`package` for the `header`, `pkgconfig` module, `library`, CMake package (`cmake`) or Ruby gem with a
    native extension (`gem`) the message names, and whether it is `installed`."""
    for kind in ("header", "pkgconfig", "library", "cmake", "gem"):
        name = values.get(kind)
        if name:
            package = package_for(kind, name.strip())
            if package:
                state = installed(package.split()[0])
                return {"package": package, "installed": "" if state is None else ("yes" if state else "no")}
    return {}


@fact
def link_library(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`flag` (-lm, -pthread) and its `package` for the undefined `symbol` the linker names."""
    symbol = values.get("symbol", "").strip()
    for pattern, flag, package in _link_rows():
        if pattern.fullmatch(symbol):
            return {"flag": flag, "package": package}
    return {}


@cache
def _link_rows() -> tuple[tuple[re.Pattern[str], str, str], ...]:
    return tuple((re.compile(row["symbols"]), row["flag"], row.get("package", ""))
                 for row in _table("link_symbols")["library"])


#: messages that say which program printed them, for when the command run is not known (a message read off the
#: screen, or quoted without its command): Node's stack and its fetch's "[cause]:", npm's prefix, git's "unable to
#: access" of a repository, curl's numbered errors, pip's retries, the docker daemon's answer
MESSAGE_PROGRAMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"node:internal/|^Node\.js v\d|\bfetch failed\b|\[cause\]:", re.M), "node"),
    (re.compile(r"^npm (?:ERR!|error) ", re.M), "npm"),
    (re.compile(r"^fatal: unable to access '", re.M), "git"),
    (re.compile(r"^curl: \(\d+\)", re.M), "curl"),
    (re.compile(r"^WARNING: Retrying \(Retry\(|^Could not fetch URL https://pypi", re.M), "pip"),
    (re.compile(r"^Error response from daemon: ", re.M), "docker"),
)


def message_program(error: str) -> str:
    """The program a message shows it came from ('' when it does not say)."""
    return next((program for pattern, program in MESSAGE_PROGRAMS if pattern.search(error)), "")


@fact
def command_words(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """The command that failed: `command`, its `program` (after sudo), its first argument (`subcommand`: 'get' of
    'go get x') and its last (`target`). Without the command, `program` is the one the message says printed it."""
    words = _words(situation.command or "")
    if not words:  # unknown: the texts name the place to fill in rather than nothing
        return {"command": "<your command>", "program": message_program(situation.error), "target": "<name>",
                "user": "<role>",
                "database": "<database>", "privilege": "ALL", "http_command": "curl -v http://<host>:<port>/",
                "gxx_command": "g++ <your sources> -o <program>"}
    args = [w for w in words[1:] if not w.startswith("-")]
    command = situation.command or ""
    cxx = {"gcc": "g++", "cc": "c++", "clang": "clang++"}.get(words[0])
    return {"command": command, "program": os.path.basename(words[0]),
            "gxx_command": " ".join([cxx, *words[1:]]) if cxx else "g++ <your sources> -o <program>",
            "http_command": command.replace("https://", "http://") if "https://" in command else
            "curl -v http://<host>:<port>/",
            "target": args[-1] if args else "<name>",
            "subcommand": args[0] if args else "",
            "user": _option(words, ("-U", "-u", "--username", "--user")) or "<role>",
            "database": _option(words, ("-d", "--dbname", "--database")) or "<database>",
            "privilege": _privilege(command)}


@fact
def cxx_standard(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`std`: the C++ standard that added the name the rule matched (its group `n17`, `n20` or `n23`, or those of
    the pattern's second wording, `n172`...), and `cxx_command`: the compiler's command line with that standard
    asked for (the person's own line when it ran a C++ compiler, a line to complete otherwise)."""
    std = next((n for n in ("23", "20", "17") if values.get("n" + n) or values.get(f"n{n}2")), "20")
    option = f"-std=c++{std}"
    words = (situation.command or "").split()
    at = next((i for i, w in enumerate(words) if os.path.basename(w) in _CXX_COMPILERS), None)
    if at is None:
        return {"std": std, "cxx_command": f"g++ {option} <your sources> -o <program>"}
    words = [w for w in words if not w.startswith("-std=")]
    return {"std": std, "cxx_command": " ".join([*words[:at + 1], option, *words[at + 1:]])}


#: the C++ compilers whose command line takes -std=
_CXX_COMPILERS = frozenset({"g++", "c++", "clang++", "gcc", "clang", "cc"} | {f"g++-{v}" for v in range(9, 16)}
                           | {f"clang++-{v}" for v in range(11, 21)})


def _privilege(command: str) -> str:
    """The SQL privilege a command's statement needs (`psql -c 'SELECT …'` -> SELECT; ALL when none is seen):
    a GRANT of what was refused, not of everything."""
    found = re.search(r"\b(SELECT|INSERT|UPDATE|DELETE|TRUNCATE)\b", command, re.IGNORECASE)
    return found[1].upper() if found else "ALL"


#: a JavaScript package manager's install of named packages: "npm install x", "npm i -D x", "yarn add x", "pnpm add x"
_JS_INSTALL = re.compile(r"^(?:npm (?:install|i|add)|yarn add|pnpm (?:add|install|i)|bun add)\b(?P<args>.*)$")


@fact
def import_path(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """For an ES module import of a file without its extension, when Node did not say it: the missing path
    ('/home/dev/calc/utils') relative to the importing file ('/home/dev/calc/index.mjs'), with the extension of the
    file found on disk (`suggest`), else with .js, the extension most modules have (`guess`: the importer's own
    extension is no sign of its neighbours')."""
    path, importer = values.get("path", ""), values.get("from", "")
    ext = os.path.splitext(importer)[1]
    if values.get("suggest") or not path or os.path.splitext(path)[1] or ext not in (".js", ".mjs", ".cjs"):
        return {}
    rel = os.path.relpath(path, os.path.dirname(importer)) if path.startswith("/") else path
    rel = rel if rel.startswith(".") else "./" + rel
    full = path if path.startswith("/") else os.path.join(os.path.dirname(importer), path)
    found = next((e for e in (ext, ".js", ".mjs", ".cjs") if os.path.isfile(full + e)), None)
    return {"suggest": rel + found} if found else {"guess": rel + ".js"}


@fact
def ssh_destination(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`host` of an ssh command line ('ssh -p 2222 git@git.example.com'), as known_hosts names it: the name, or
    '[name]:port' for another port than 22."""
    words = (situation.command or "").split()
    while words and (words[0] in ("sudo", "env") or "=" in words[0]):
        words = words[1:]
    if not words or os.path.basename(words[0]) != "ssh":
        return {}
    port, dest, i = "", "", 1
    while i < len(words):
        word = words[i]
        if word == "-p" and i + 1 < len(words):
            port, i = words[i + 1], i + 2
            continue
        if word.startswith("-"):
            i += 2 if word in ("-i", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-b", "-c", "-E", "-e", "-m",
                               "-O", "-Q", "-S", "-W", "-w", "-B") else 1
            continue
        dest = word
        break
    host = dest.rsplit("@", 1)[-1]
    if not host:
        return {}
    return {"host": f"[{host}]:{port}" if port and port != "22" else host}


@fact
def js_requested(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`requested`: the first package an npm/yarn/pnpm install command names, without its version ("" when the
    command names none: `npm install` of the whole project)."""
    found = _JS_INSTALL.match(" ".join((situation.command or "").split()))
    names = [w for w in (found["args"].split() if found else []) if not w.startswith("-")]
    if not names:
        return {"requested": ""}
    name = names[0]
    return {"requested": name[:name.index("@", 1)] if "@" in name[1:] else name}


def _option(words: list[str], names: tuple[str, ...]) -> str:
    """The value of a command-line option given as `-U app`, `-Uapp` or `--username=app` ('' when absent)."""
    for i, word in enumerate(words):
        for name in names:
            if word == name and i + 1 < len(words):
                return words[i + 1]
            if word.startswith(name + "=") or (len(name) == 2 and word.startswith(name) and len(word) > 2):
                return word[len(name):].lstrip("=")
    return ""


#: targets most Makefiles have, for a mistyped one when the Makefile itself cannot be read
COMMON_TARGETS = ("all", "install", "uninstall", "clean", "distclean", "test", "check", "build", "run", "dist",
                  "release", "debug", "lint", "format", "docs", "help", "deploy", "setup")


@fact
def make_targets(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`close_target`: the Makefile's target (or a common one) closest to the `target` make did not know."""
    import difflib

    wanted = values.get("target", "")
    names = list(COMMON_TARGETS)
    if situation.cwd:
        for name in ("GNUmakefile", "makefile", "Makefile"):
            path = Path(situation.cwd) / name
            if path.is_file():
                text = path.read_text(encoding="utf-8", errors="replace")
                names = re.findall(r"^([A-Za-z0-9_.-]+)\s*:(?!=)", text, re.M) + names
                break
    close = difflib.get_close_matches(wanted, names, n=1, cutoff=0.7)
    return {"close_target": close[0] if close and close[0] != wanted else ""}


@fact
def lowercase(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`<name>_lower` for each value (an image tag must be lowercase)."""
    return {f"{k}_lower": v.lower() for k, v in values.items() if not k.endswith("_lower")}


# ---------------------------------------------------------------- ssh


@fact
def key_file(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """The private `key`'s actual `mode` (octal) and owner, when the file is here."""
    path = values.get("key", "")
    try:
        st = os.stat(os.path.expanduser(path))
    except OSError:
        return {"key_here": "no"}
    return {"key_here": "yes", "mode": f"{st.st_mode & 0o777:04o}", "own_key": "yes" if st.st_uid == os.getuid()
            else "no"}


@fact
def ssh_keys(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """The person's `public_key` (the first of ~/.ssh's usual keys), or none: then a key must be made first."""
    folder = _home() / ".ssh"
    for name in ("id_ed25519", "id_ecdsa", "id_rsa"):
        if (folder / f"{name}.pub").is_file():
            return {"public_key": f"~/.ssh/{name}.pub"}
    return {"public_key": ""}


# ---------------------------------------------------------------- docker, kubernetes, ports


@fact
def docker_access(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`in_group`: "yes" (this session has the docker group), "later" (a member, but this login predates it:
    log out and in, or `newgrp docker`), "no"; `group` "no" when no docker group exists at all."""
    import grp  # POSIX only: imported where used (tests/test_portability.py)

    try:
        group = grp.getgrnam("docker")
    except KeyError:
        return {"group": "no", "in_group": "no"}
    user = os.environ.get("USER") or os.environ.get("LOGNAME") or ""
    if group.gr_gid in os.getgroups() or os.getgid() == group.gr_gid:
        return {"group": "yes", "in_group": "yes"}
    return {"group": "yes", "in_group": "later" if user in group.gr_mem else "no"}


@fact
def kubeconfig(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`kubeconfig`: the config kubectl reads, when it exists; its `contexts` (comma-separated) and current one."""
    paths = [p for p in os.environ.get("KUBECONFIG", "").split(os.pathsep) if p] or [str(_home() / ".kube/config")]
    here = [p for p in paths if os.path.isfile(p)]
    if not here:
        return {"kubeconfig": "", "contexts": "", "current_context": ""}
    text = Path(here[0]).read_text(encoding="utf-8", errors="replace")
    contexts = re.findall(r"^\s*-?\s*context:\s*\n(?:\s+\S.*\n)*?\s*name:\s*(\S+)", text, re.M)
    current = re.search(r"^current-context:\s*\"?([^\"\s]*)", text, re.M)
    return {"kubeconfig": here[0], "contexts": ", ".join(dict.fromkeys(contexts)),
            "current_context": current.group(1) if current else ""}


@fact
def port_listening(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """Whether something listens on the `port` (default `default_port`) here, and what, when it can be seen."""
    from .ports import port_holders

    port = values.get("port") or values.get("default_port") or ""
    if not port.isdigit():
        return {}
    holders = port_holders(int(port))
    if not holders:
        return {"listening": "no", "port": port}
    first = holders[0]
    holder = f"{first.name} (pid {first.pid})" if first.pid else f"a process of {first.user}"
    return {"listening": "yes", "port": port, "holder": holder}


#: official Docker Hub images, for a mistyped name (docker pull ngnix)
OFFICIAL_IMAGES = ("nginx", "redis", "postgres", "mysql", "mariadb", "mongo", "node", "python", "golang", "rust",
                   "ubuntu", "debian", "alpine", "busybox", "httpd", "traefik", "memcached", "rabbitmq", "elasticsearch",
                   "grafana/grafana", "prom/prometheus", "openjdk", "eclipse-temurin", "maven", "gradle", "php", "ruby",
                   "wordpress", "nextcloud", "registry", "hello-world", "caddy", "haproxy", "influxdb", "cassandra",
                   "consul", "vault", "jenkins/jenkins", "sonarqube", "adminer", "phpmyadmin", "minio/minio",
                   "gitlab/gitlab-ce", "amazonlinux", "fedora", "centos", "rockylinux", "archlinux", "gcc", "tomcat",
                   "zookeeper", "neo4j", "couchdb", "solr", "kong", "sentry", "ghost", "drupal", "joomla", "composer")


@fact
def close_image(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`close_image`: the official image whose name is closest to a mistyped `image` (nginx for ngnix)."""
    import difflib

    image = values.get("image", "").removeprefix("docker.io/").removeprefix("library/").split(":")[0]
    if not image or image in OFFICIAL_IMAGES:
        return {"close_image": ""}
    close = difflib.get_close_matches(image, OFFICIAL_IMAGES, n=1, cutoff=0.75)
    return {"close_image": close[0] if close else ""}


@fact
def java_names(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """The names a javac or java message leaves out: the `import` of a JDK `class`, the Maven `artifact` of a
    `package` (group, artifact_id), and the dotted `class_name` and `package` of a slashed `class_path`."""
    table = _table("java_names")
    out: dict[str, str] = {}
    if values.get("class") in table["imports"]:
        out["import"] = f"{table['imports'][values['class']]}.{values['class']}"
    package = values.get("package", "")
    prefixes = sorted((p for p in table["artifacts"] if package == p or package.startswith(p + ".")), key=len)
    if prefixes:
        out["artifact"] = table["artifacts"][prefixes[-1]]
        out["group"], _, out["artifact_id"] = out["artifact"].partition(":")
    if values.get("class_path"):
        dotted = values["class_path"].replace("/", ".")
        out.update({"class_name": dotted, "package": dotted.rpartition(".")[0],
                    "package_folder": values["class_path"].split("/")[0]})
    return out


# ---------------------------------------------------------------- toolchains


def java_release(major: str) -> str:
    """The Java release a class file's major version means (JVM spec §4.1: 49 = Java 5, 52 = 8, 55 = 11 …)."""
    number = int(float(major))
    return str(number - 44) if number >= 49 else "1.4"


@fact
def java_runtimes(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """The Java `needed` (from a class file version or a release), the runtime in use (`running`), and an
    installed JDK of the needed release (`jdk`), read from /usr/lib/jvm."""
    out: dict[str, str] = {}
    if values.get("needed_class"):
        out["needed"] = java_release(values["needed_class"])
    if values.get("running_class"):
        out["running"] = java_release(values["running_class"])
    needed = out.get("needed") or values.get("release", "")
    jvm = Path(os.environ.get("PROACTIVE_JVM_DIR", "/usr/lib/jvm"))
    jdks = sorted(p.name for p in jvm.iterdir() if p.is_dir() and not p.is_symlink()) if jvm.is_dir() else []
    out["jdks"] = ", ".join(jdks)
    match = next((j for j in jdks if re.search(rf"(?:^|[-_.]){re.escape(needed)}(?:[-_.]|$)", j)), "") \
        if needed else ""
    out["jdk"] = str(jvm / match) if match else ""
    return out


@fact
def rust_toolchain(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """The installed `rustc` version (e.g. 1.75.0), when rustc is on PATH."""
    out = _run("rustc", "--version") or ""
    found = re.search(r"rustc (\d+\.\d+\.\d+)", out)
    return {"rustc": found.group(1) if found else ""}


# ---------------------------------------------------------------- systemd, TLS


@fact
def systemd_units(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`close_unit`: an installed unit whose name is close to the `unit` not found (nginx for ngnix.service)."""
    import difflib

    wanted = values.get("unit", "")
    stem, _, kind = wanted.rpartition(".") if "." in wanted else (wanted, "", "service")
    out = _run("systemctl", "list-unit-files", "--no-legend", "--no-pager", "--plain", f"--type={kind}")
    names = {line.split()[0].rpartition(".")[0]: line.split()[0] for line in (out or "").splitlines() if line.split()}
    close = difflib.get_close_matches(stem, list(names), n=1, cutoff=0.6)  # by name: ".service" is not a likeness
    unit = names[close[0]] if close and names[close[0]] != wanted else ""
    verb = values.get("verb") or "status"
    return {"close_unit": unit, "close_command": f"{'' if verb == 'status' else 'sudo '}systemctl {verb} {unit}"}


@fact
def close_word(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`close_word`: the known word closest to the mistyped `word`, from the list of `rules/vocabularies.toml`
    named by the rule's `vocabulary` value (nginx's directives when none)."""
    import difflib

    table = _table("vocabularies")
    words = table.get(values.get("vocabulary") or "nginx", [])
    word = values.get("word", "")
    close = difflib.get_close_matches(word, words, n=1, cutoff=0.75)
    return {"close_word": close[0] if close and close[0] != word else ""}


@fact
def unit_in_message(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`target`: the systemd unit the message names ('reportbot.service: Main process exited…'), which is the
    unit to look at even when the command was another (journalctl's `-n 5` is no unit); unchanged otherwise."""
    found = re.search(r"(?<![\w@.-])([\w@:.-]+\.(?:service|socket|timer|mount|path|target|scope))\b(?=:|\s|'|$)",
                      situation.error)
    return {"target": found[1]} if found else {}


@fact
def server_certificate(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """For a server with its own self-signed certificate: `save_command`, which saves the certificate the server
    presents (its host and port from the command's URL), and `trust_command`, the person's command trusting that
    one file (curl's --cacert, wget's --ca-certificate, git's http.sslCAInfo; curl on the URL otherwise)."""
    words = _words(situation.command or "")
    url = next((w for w in words if re.match(r"https://", w)), "")
    found = re.match(r"https://(?:[^@/]*@)?(?P<host>\[[^\]]+\]|[^:/?#]+)(?::(?P<port>\d+))?", url)
    host, port = (found["host"], found["port"] or "443") if found else ("<host>", "443")
    save = f"openssl s_client -connect {host}:{port} -servername {host} </dev/null | openssl x509 > server.pem"
    program = os.path.basename(words[0]) if words else ""
    option = {"curl": "--cacert server.pem", "wget": "--ca-certificate=server.pem"}.get(program)
    if option:
        trust = " ".join([words[0], option, *words[1:]])
    elif program == "git":
        trust = " ".join(["git", "-c", "http.sslCAInfo=server.pem", *words[1:]])
    else:
        trust = f"curl --cacert server.pem {url or f'https://{host}:{port}/'}"
    return {"save_command": save, "trust_command": trust}


@fact
def ca_store(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`ca_bundle`: the system's CA bundle when it exists ("no" when ca-certificates is missing)."""
    for path in ("/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"):
        if os.path.isfile(path):
            return {"ca_bundle": path}
    return {"ca_bundle": "no"}


@fact
def python_module(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`module`: the dotted module of the script the failed command ran (`python3 inventory/models.py` ->
    `inventory.models`), which `python3 -m` runs as part of its package; `distribution`: the PyPI name of the
    `missing` module (rules/python_modules.toml: yaml -> PyYAML; else its own name)."""
    out: dict[str, str] = {}
    script = next((w for w in (situation.command or "").split() if w.endswith(".py")), "")
    if script and not os.path.isabs(script):
        out["module"] = script.removeprefix("./")[:-3].replace("/", ".")
    missing = values.get("missing", "").strip()
    if missing:
        top = missing.split(".")[0]
        out["distribution"] = _table("python_modules")["modules"].get(top, {}).get("pypi") or top
    return out


@fact
def go_import(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`import_path`: the standard library package a Go identifier `name` is the last element of (http ->
    net/http, json -> encoding/json: rules/go_packages.toml), when it is one."""
    path = _table("go_packages")["std"].get(values.get("name", "").strip())
    return {"import_path": path} if path else {}


#: an operation with two plain operands, as go vet and the compiler print it ("quantity * price")
_GO_BINARY = re.compile(r"^\s*(?P<a>[\w.]+(?:\(\))?)\s*(?:[-+*/%&|^]|<<|>>|[<>]=?|[!=]=)\s*(?P<b>[\w.]+(?:\(\))?)\s*$")


@fact
def go_conversion(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`conversion`: the operand of a Go operation on mismatched number types to convert, converted (an integer
    next to a float becomes the float: `float64(quantity)`, no fraction lost); "" when the types are not one of
    each, or the operands are not two plain names."""
    left, right = values.get("left", ""), values.get("right", "")
    found = _GO_BINARY.match(values.get("expr", ""))
    floats = {"float32", "float64"}
    if found is None or (left in floats) == (right in floats):
        return {"conversion": ""}
    integer, wider = (found["a"], right) if right in floats else (found["b"], left)
    return {"conversion": f"{wider}({integer})", "wider": wider}


@fact
def ca_file_format(values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`der_like` "yes" when the CA file a tool could not load is binary DER rather than PEM: read on this machine
    when it exists, else told by its name (.der, .cer: Windows' and browsers' export); `pem_path` beside it."""
    path = (values.get("cafile") or "").strip().rstrip(".,;'\"")
    if not path:
        return {}
    where = Path(os.path.expanduser(path))
    try:
        with where.open("rb") as file:
            der = b"-----BEGIN" not in file.read(4096)
    except OSError:  # not on this machine: its name says what it likely is
        der = where.suffix.lower() in (".der", ".cer")
    return {"der_like": "yes" if der else "", "pem_path": str(where.with_suffix(".pem"))}
