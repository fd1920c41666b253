"""Write bench/help_phrasings_twelfth.jsonl: a blind set of error observations in sixteen new media.

Every ``[[case]]`` of ``bench/help_cases/*.toml`` (files sorted by name) and then of
``bench/help_heldout/set*.toml`` (sorted) gets exactly two rows.  Each row is an
observation of somebody hitting that case's error after running (or trying to run)
its command, written as one of the media below.  The two rows of a case always use
two different styles; styles are dealt from a seeded stream of shuffled 16-card decks
(a case takes two consecutive cards, and because a deck has an even number of cards a
pair never straddles two decks), so the per-style counts differ by at most one.

Styles:
- phabricator_task: a Phabricator Maniphest task page, task/Differential e-mail or
  task form in Remarkup (```lang=console blocks, ``lang=text, name=...`` headers,
  @mentions, "Restricted Owners Field" sidebar chrome).
- lab_notebook: a researcher's dated lab-notebook / electronic lab journal entry
  (Date, Aim, Procedure, Observation, Next steps; plain, org-mode, ELN export or
  timestamped log) recording the command and what it printed.
- faq_entry: a project's FAQ page copied as text (numbered "Q:"/"A:" questions,
  anchors, pilcrows, "Back to top") quoting the command and the message.
- tldr_page: a tldr-style page or personal cheat file (``- description:`` lines,
  ``{{placeholder}}`` commands) with a "Gotchas" note quoting the error somebody hit.
- terminal_html: terminal scrollback saved as HTML (ansi2html, aha, xterm.js
  serialize addon, ttyd DOM rows) with colour spans, entities and <br>.
- twitch_chat: a livestream chat log (Chatterino, TwitchDownloader, VOD replay or
  YouTube live replay) where streamer and viewers discuss the command and the error,
  which is pasted in fragments because of message-length limits.
- lms_quiz: a learning-management-system quiz export (Moodle XML, GIFT, Canvas QTI
  or Canvas printed view) whose question stem quotes the command and the output.
- reportbug_mail: a Debian reportbug mail (pseudo-headers, "Dear Maintainer"
  template, System Information block) or an Ubuntu apport/Launchpad bug mail.
- github_discussion: a GitHub Discussions thread copied as text (category,
  "Answered by", upvotes, "Marked as answer", nested replies, "Show N more replies").
- suggested_change_review: a pull-request review comment with a ```suggestion block
  and diff context, where the reviewer says that running the command gave the error
  (page copy with "Commit suggestion" chrome, or the notification e-mail).
- oncall_handoff: an on-call handoff document (shift, open items, "Action taken",
  "Still broken") in which one item records the command and the error it returned.
- rss_feed_entry: an RSS 2.0 / Atom entry from an issue tracker or status-page feed
  (<item><title>, <description><![CDATA[...]]>, <pubDate>) quoting the error.
- teams_adaptive_card: an incoming-webhook payload posted by a CI or monitoring job
  (Teams Adaptive Card, Teams MessageCard, Slack Block Kit or Slack attachments).
- grafana_alert: a Grafana / Alertmanager notification (Firing, Value:, labels,
  annotations, Source/Silence links, or the webhook JSON) whose description holds the
  failed command and the last lines returned by a log query.
- man_diagnostics: a man page DIAGNOSTICS / TROUBLESHOOTING section rendered as text
  (plain, with ^H overstrike pairs, justified and hyphenated) or an info node,
  quoting the command and the message as an example.
- code_review_audio: an automatic transcript of a recorded code-review / pairing call
  (no labels or "Speaker N:", filler words, timestamps about every 30 s) in which
  someone reads the command aloud and pastes the exact error into the call chat
  ("[chat] name: ...").

Output format: one JSON object per line,
``{"file": "set3.toml", "case": 0, "style": "<style>", "text": "<text>"}``, where
``file`` is the TOML file's base name and ``case`` the 0-based index of the
``[[case]]`` table inside it.  Everything is seeded (a deck RNG with a fixed seed
and one ``random.Random`` per row seeded by a string), so rerunning the script
produces byte-identical output.

Blind writing: this script and its texts were written without looking at the
project's code, tests, docs, other phrasing sets or their writer scripts.  The only
project data read were the ``error`` and ``command`` keys of each ``[[case]]`` table
(loaded with tomllib; nothing else in those tables was looked at), plus a glance at
two or three ProactiveBench session files for tone.  When a case has no command,
one is reconstructed from the first script path in its traceback.
"""

from __future__ import annotations

import html
import json
import random
import re
import shlex
import textwrap
import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASE_DIR = ROOT / "bench" / "help_cases"
HELDOUT_DIR = ROOT / "bench" / "help_heldout"
OUT_PATH = ROOT / "bench" / "help_phrasings_twelfth.jsonl"

STYLES = [
    "phabricator_task",
    "lab_notebook",
    "faq_entry",
    "tldr_page",
    "terminal_html",
    "twitch_chat",
    "lms_quiz",
    "reportbug_mail",
    "github_discussion",
    "suggested_change_review",
    "oncall_handoff",
    "rss_feed_entry",
    "teams_adaptive_card",
    "grafana_alert",
    "man_diagnostics",
    "code_review_audio",
]

DECK_SEED = 20251212
ROW_SEED = "help-phrasings-twelfth"

# ---------------------------------------------------------------------------
# vocabulary
# ---------------------------------------------------------------------------

FIRST_NAMES = [
    "Aisha", "Bram", "Chen", "Dana", "Emeka", "Farah", "Gustavo", "Hana", "Ilse",
    "Jonas", "Kavya", "Lars", "Mei", "Nikolai", "Olu", "Priya", "Quentin", "Rosa",
    "Sven", "Tariq", "Uma", "Vera", "Wiktor", "Ximena", "Yusuf", "Zofia", "Andrei",
    "Beatriz", "Callum", "Deniz", "Elif", "Finn", "Greta", "Hiro", "Ines", "Jamal",
    "Keiko", "Luca", "Marisol", "Noor", "Oskar", "Pavel", "Ruth", "Samir", "Tomas",
    "Ulla", "Valentina", "Wen", "Yara", "Zane", "Amara", "Bogdan", "Carmen", "Dmitri",
    "Esther", "Femi", "Gwen", "Hamza", "Ivy", "Joaquin",
]
LAST_NAMES = [
    "Adeyemi", "Bergstrom", "Castillo", "Dubois", "Eriksen", "Fontaine", "Gupta",
    "Hoffmann", "Ivanova", "Jensen", "Kowalski", "Lindqvist", "Moreau", "Nakamura",
    "Okafor", "Petrov", "Quintero", "Rossi", "Schneider", "Tanaka", "Urquhart",
    "Varga", "Walsh", "Xu", "Yilmaz", "Zielinski", "Achebe", "Brennan", "Costa",
    "Dvorak", "Eze", "Fischer", "Garcia", "Haddad", "Iqbal", "Jovanovic", "Kim",
    "Larsen", "Mensah", "Novak", "Oliveira", "Park", "Reyes", "Sato", "Toivonen",
    "Ueda", "Vasquez", "Weber", "Yamamoto", "Zhou",
]
PROJECTS = [
    "ledgerline", "tidepool", "orchard", "kestrel", "quarry", "lanternfish",
    "millstone", "parcelhub", "wavelet", "cobalt-api", "fernweh", "saltmarsh",
    "brightpath", "northwind-tools", "gullwing", "tinderbox", "harbor-sync",
    "marigold", "ridgeway", "sparrow-cli", "basalt", "copperleaf", "driftwood",
    "emberline", "foxglove", "granite-etl", "heron", "inkwell", "juniper",
    "kelpie", "loam", "moonrise", "nettle", "otterbox", "pebble-ci", "quill",
]
ORGS = [
    "acme-labs", "bluefin-io", "civic-data", "deepfield", "eastgate-dev",
    "fablehouse", "greenmesh", "hollowtree", "ironbark", "jetstream-oss",
    "kiteworks", "lumen-collective", "mapleleaf-sw", "nimbus-works", "openharbor",
]
DOMAINS = [
    "example.org", "corp.example.com", "lab.example.net", "internal.example.io",
    "dev.example.com", "eng.example.org",
]
HOST_PREFIXES = [
    "build", "ci-runner", "web", "api", "db", "worker", "devbox", "ops", "edge",
    "batch", "stage-app", "gpu", "jump", "cron", "ingest",
]
TEAMS = [
    "Platform", "Payments", "Data Infra", "Developer Experience", "Core Services",
    "Release Engineering", "SRE", "Search", "Mobile Backend", "Internal Tools",
]
LAB_TOPICS = [
    ("protein-fold benchmarks", "structural bio group"),
    ("soil moisture sensor ingest", "field station"),
    ("single-cell QC pipeline", "genomics core"),
    ("eye-tracking study analysis", "cognition lab"),
    ("ocean buoy telemetry", "coastal physics"),
    ("thesis figure regeneration", "my PhD"),
    ("spectrometer export parser", "chem lab 2"),
    ("climate downscaling runs", "atmos group"),
    ("microscopy image segmentation", "imaging facility"),
    ("corpus tokenisation for ch. 4", "computational linguistics"),
    ("traffic-count dashboard", "urban mobility project"),
    ("bird-call classifier", "ecoacoustics lab"),
]

TWITCH_EMOTES = ["Kappa", "LUL", "KEKW", "PogChamp", "monkaS", "Pog", "PepeHands",
                 "NotLikeThis", "BibleThump", "FeelsBadMan", "OMEGALUL", "Sadge",
                 "catJAM", "5Head", "SeemsGood", "ResidentSleeper", "WutFace"]
YT_EMOJI = [":PogChamp:", ":face-blue-smiling:", ":elbowcough:", ":hand-pink-waving:",
            ":text-green-game-over:", ":yt:", ":goodvibes:", ":thinking_face:"]

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
          "Nov", "Dec"]
LONG_MONTHS = ["January", "February", "March", "April", "May", "June", "July",
               "August", "September", "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
            "Sunday"]

# ---------------------------------------------------------------------------
# per-tool knowledge (flavour only: pages, packages, versions)
# ---------------------------------------------------------------------------

TOOL_ALIASES = {
    "gti": "git", "pyhton3": "python3", "python3.12": "python3", "python": "python3",
    "./gradlew": "gradle", "./mvnw": "mvn", "bin/rails": "rails", "g++": "g++",
    "apt-get": "apt",
}

TOOL_INFO = {
    # tool: (one-line description, docs url, debian package, package version)
    "python3": ("Python language interpreter.", "https://docs.python.org/3/using/cmdline.html",
                "python3.11", "3.11.2-6+deb12u1"),
    "pip": ("Python package manager.", "https://pip.pypa.io/en/stable/cli/",
            "python3-pip", "23.0.1+dfsg-1"),
    "cargo": ("Manage Rust projects and their module dependencies (crates).",
              "https://doc.rust-lang.org/cargo", "cargo", "0.66.0+ds1-1"),
    "git": ("Distributed version control system.", "https://git-scm.com/docs",
            "git", "1:2.39.2-1.1"),
    "docker": ("Manage Docker containers and images.", "https://docs.docker.com/reference/cli/docker/",
               "docker.io", "20.10.24+dfsg1-1+b3"),
    "go": ("Tool for managing Go source code.", "https://pkg.go.dev/cmd/go",
           "golang-go", "2:1.19~1"),
    "kubectl": ("Command-line tool for controlling Kubernetes clusters.",
                "https://kubernetes.io/docs/reference/kubectl/", "kubernetes-client",
                "1.20.5+really1.20.2-1.1"),
    "node": ("Server-side JavaScript platform (Node.js).", "https://nodejs.org/docs/latest/api/cli.html",
             "nodejs", "18.19.0+dfsg-6~deb12u1"),
    "npm": ("JavaScript and Node.js package manager.", "https://docs.npmjs.com/cli/",
            "npm", "9.2.0~ds1-1"),
    "npx": ("Execute binaries from npm packages.", "https://docs.npmjs.com/cli/commands/npx",
            "npm", "9.2.0~ds1-1"),
    "yarn": ("JavaScript package manager alternative to npm.", "https://yarnpkg.com/cli",
             "yarnpkg", "1.22.19+~cs24.27.18-2"),
    "tsc": ("TypeScript compiler.", "https://www.typescriptlang.org/docs/handbook/compiler-options.html",
            "node-typescript", "4.9.5+ds1-1"),
    "ssh": ("Secure Shell is a protocol used to securely log onto remote systems.",
            "https://man.openbsd.org/ssh", "openssh-client", "1:9.2p1-2+deb12u2"),
    "scp": ("Secure copy. Copy files between hosts using Secure Copy Protocol over SSH.",
            "https://man.openbsd.org/scp", "openssh-client", "1:9.2p1-2+deb12u2"),
    "ssh-add": ("Manage loaded SSH keys in the ssh-agent.", "https://man.openbsd.org/ssh-add",
                "openssh-client", "1:9.2p1-2+deb12u2"),
    "ssh-copy-id": ("Install your public key in a remote machine's authorized_keys.",
                    "https://manned.org/ssh-copy-id", "openssh-client", "1:9.2p1-2+deb12u2"),
    "javac": ("Java application compiler.", "https://docs.oracle.com/en/java/javase/17/docs/specs/man/javac.html",
              "openjdk-17-jdk-headless", "17.0.10+7-1~deb12u1"),
    "java": ("Java application launcher.", "https://docs.oracle.com/en/java/javase/17/docs/specs/man/java.html",
             "openjdk-17-jre-headless", "17.0.10+7-1~deb12u1"),
    "psql": ("PostgreSQL command-line client.", "https://www.postgresql.org/docs/current/app-psql.html",
             "postgresql-client-15", "15.6-0+deb12u1"),
    "pg_dump": ("Extract a PostgreSQL database into a script file or other archive file.",
                "https://www.postgresql.org/docs/current/app-pgdump.html",
                "postgresql-client-15", "15.6-0+deb12u1"),
    "mysql": ("The MySQL command-line tool.", "https://dev.mysql.com/doc/refman/8.0/en/mysql.html",
              "default-mysql-client", "1.1.0"),
    "sqlite3": ("The command-line interface to SQLite 3.", "https://sqlite.org/cli.html",
                "sqlite3", "3.40.1-2"),
    "redis-cli": ("Open a connection to a Redis server.", "https://redis.io/docs/connect/cli/",
                  "redis-tools", "5:7.0.15-1~deb12u1"),
    "gcc": ("Preprocess and compile C and C++ source files, then assemble and link them together.",
            "https://gcc.gnu.org", "gcc-12", "12.2.0-14"),
    "g++": ("Compiles C++ source files.", "https://gcc.gnu.org", "g++-12", "12.2.0-14"),
    "make": ("Task runner for targets described in Makefile.",
             "https://www.gnu.org/software/make/manual/make.html", "make", "4.3-4.1"),
    "cmake": ("Cross-platform build automation system, that generates recipes for native build systems.",
              "https://cmake.org/cmake/help/latest/manual/cmake.1.html", "cmake", "3.25.1-1"),
    "pkg-config": ("Provide the details of installed libraries for compiling applications.",
                   "https://www.freedesktop.org/wiki/Software/pkg-config/", "pkgconf", "1.8.1-1"),
    "bundle": ("Dependency manager for the Ruby programming language.", "https://bundler.io/man/bundle.1.html",
               "ruby-bundler", "2.3.15-2"),
    "gem": ("A package manager for the Ruby programming language.", "https://guides.rubygems.org/command-reference/",
            "ruby", "1:3.1"),
    "ruby": ("Ruby programming language interpreter.", "https://www.ruby-lang.org/",
             "ruby3.1", "3.1.2-7+deb12u1"),
    "rails": ("A server-side MVC framework written in Ruby.", "https://guides.rubyonrails.org/command_line.html",
              "rails", "2:6.1.7.3+dfsg-1"),
    "rbenv": ("Manage Ruby versions per project.", "https://github.com/rbenv/rbenv",
              "rbenv", "1.2.0-1"),
    "curl": ("Transfers data from or to a server.", "https://curl.se/docs/manpage.html",
             "curl", "7.88.1-10+deb12u5"),
    "journalctl": ("Query the systemd journal.", "https://www.freedesktop.org/software/systemd/man/journalctl.html",
                   "systemd", "252.22-1~deb12u1"),
    "systemctl": ("Control the systemd system and service manager.",
                  "https://www.freedesktop.org/software/systemd/man/systemctl.html",
                  "systemd", "252.22-1~deb12u1"),
    "mvn": ("Apache Maven. Tool for building and managing Java-based projects.",
            "https://maven.apache.org", "maven", "3.8.7-1"),
    "gradle": ("Open source build automation system.", "https://gradle.org", "gradle",
               "4.4.1-18"),
    "openssl": ("OpenSSL cryptographic toolkit.", "https://www.openssl.org/docs/manmaster/man1/",
                "openssl", "3.0.11-1~deb12u2"),
    "helm": ("A package manager for Kubernetes.", "https://helm.sh/docs/helm/", "helm",
             "3.13.2"),
    "jq": ("A JSON processor that uses a domain-specific language.", "https://jqlang.github.io/jq/manual/",
           "jq", "1.6-2.1"),
    "apt": ("Package management utility for Debian based distributions.",
            "https://manned.org/apt.8", "apt", "2.6.1"),
    "rsync": ("Transfer files either to or from a remote host (but not between two remote hosts).",
              "https://download.samba.org/pub/rsync/rsync.1", "rsync", "3.2.7-1"),
    "tar": ("Archiving utility.", "https://www.gnu.org/software/tar", "tar", "1.34+dfsg-1.2"),
    "cp": ("Copy files and directories.", "https://www.gnu.org/software/coreutils/cp",
           "coreutils", "9.1-1"),
    "rm": ("Remove files or directories.", "https://www.gnu.org/software/coreutils/rm",
           "coreutils", "9.1-1"),
    "mkdir": ("Create directories and set their permissions.",
              "https://www.gnu.org/software/coreutils/mkdir", "coreutils", "9.1-1"),
    "echo": ("Print given arguments.", "https://www.gnu.org/software/coreutils/echo",
             "coreutils", "9.1-1"),
    "sh": ("Bourne shell, the standard command language interpreter.", "https://manned.org/sh",
           "dash", "0.5.12-2"),
    "source": ("Execute commands from a file in the current shell.",
               "https://www.gnu.org/software/bash/manual/bash.html#index-source", "bash",
               "5.2.15-2+b7"),
    "cd": ("Change the current working directory.", "https://manned.org/cd",
           "bash", "5.2.15-2+b7"),
}

# generic tldr example lines per tool: (description, command with placeholders)
TLDR_EXAMPLES = {
    "python3": [("Run a script", "python3 {{path/to/script.py}}"),
                ("Start a REPL (interactive shell)", "python3"),
                ("Run a module as a script", "python3 -m {{module}} {{argument1 argument2 ...}}"),
                ("Execute a single Python command", "python3 -c \"{{command}}\"")],
    "pip": [("Install a package", "pip install {{package}}"),
            ("Install packages listed in a file", "pip install -r {{path/to/requirements.txt}}"),
            ("Upgrade a package", "pip install --upgrade {{package}}"),
            ("List installed packages", "pip list")],
    "cargo": [("Build the package in the current directory", "cargo build"),
              ("Build in release mode with optimizations", "cargo build --release"),
              ("Run the tests", "cargo test"),
              ("Add a dependency to `Cargo.toml`", "cargo add {{crate}}")],
    "git": [("Show the status of the working tree", "git status"),
            ("Fetch and integrate changes from the remote", "git pull"),
            ("Push local commits to the remote", "git push {{remote}} {{branch}}"),
            ("Switch to another branch", "git switch {{branch_name}}")],
    "docker": [("List running containers", "docker ps"),
               ("Build an image from a Dockerfile", "docker build -t {{name:tag}} {{path/to/directory}}"),
               ("Run a container in the background", "docker run -d --name {{name}} {{image}}"),
               ("Show the logs of a container", "docker logs -f {{container}}")],
    "go": [("Download and install a package", "go install {{package_path}}@{{version}}"),
           ("Compile and run a source file", "go run {{path/to/file.go}}"),
           ("Build the current module", "go build -o {{path/to/binary}} ."),
           ("Run the tests of all packages", "go test ./...")],
    "kubectl": [("List pods in the current namespace", "kubectl get pods"),
                ("Apply a configuration from a file", "kubectl apply -f {{path/to/file.yml}}"),
                ("Show details of a resource", "kubectl describe {{pod}} {{name}}"),
                ("Stream the logs of a pod", "kubectl logs -f {{pod_name}}")],
    "node": [("Run a JavaScript file", "node {{path/to/file}}"),
             ("Start a REPL", "node"),
             ("Evaluate code", "node -e \"{{code}}\""),
             ("Run with the inspector attached", "node --inspect {{path/to/file}}")],
    "npm": [("Install all dependencies of the project", "npm install"),
            ("Install a package as a dev dependency", "npm install --save-dev {{package}}"),
            ("Run a script from package.json", "npm run {{script_name}}"),
            ("List outdated packages", "npm outdated")],
    "npx": [("Run a package binary without installing it globally", "npx {{command}} {{arguments}}"),
            ("Run a specific version", "npx {{package}}@{{version}}")],
    "ssh": [("Connect to a remote server", "ssh {{username}}@{{remote_host}}"),
            ("Connect with a specific identity", "ssh -i {{path/to/key_file}} {{username}}@{{remote_host}}"),
            ("Connect on a specific port", "ssh {{username}}@{{remote_host}} -p {{2222}}")],
    "javac": [("Compile a `.java` file", "javac {{path/to/file.java}}"),
              ("Compile several files", "javac {{file1.java file2.java ...}}"),
              ("Put class files in a specific directory", "javac -d {{path/to/directory}} {{file.java}}")],
    "java": [("Execute a class containing a main method", "java {{classname}}"),
             ("Execute a `.jar` program", "java -jar {{filename.jar}}"),
             ("Run with a classpath", "java -cp {{path/to/classes}} {{classname}}")],
    "psql": [("Connect to a database", "psql {{database}}"),
             ("Connect to a database on a host as a user", "psql -h {{host}} -U {{user}} {{database}}"),
             ("Run a single command", "psql -d {{database}} -c '{{query}}'")],
    "mysql": [("Connect to a database", "mysql {{database_name}}"),
              ("Connect as a user, prompting for a password", "mysql -u {{user}} -p {{database_name}}"),
              ("Execute SQL statements", "mysql -e \"{{sql}}\" {{database_name}}")],
    "sqlite3": [("Start an interactive shell with a database", "sqlite3 {{path/to/database.db}}"),
                ("Execute an SQL statement", "sqlite3 {{path/to/database.db}} \"{{sql}}\"")],
    "gcc": [("Compile multiple source files into an executable", "gcc {{source1.c source2.c ...}} -o {{output}}"),
            ("Show common warnings", "gcc -Wall {{source.c}} -o {{output}}"),
            ("Link a library", "gcc {{source.c}} -o {{output}} -l{{library}}")],
    "make": [("Call the first target in the Makefile", "make"),
             ("Call a specific target", "make {{target}}"),
             ("Use N parallel jobs", "make -j{{4}}")],
    "cmake": [("Generate a build recipe in a build directory", "cmake -S {{.}} -B {{build}}"),
              ("Build the project", "cmake --build {{build}}")],
    "bundle": [("Install all gems in the Gemfile", "bundle install"),
               ("Run a command in the context of the bundle", "bundle exec {{command}} {{arguments}}"),
               ("Update a gem", "bundle update {{gem_name}}")],
    "curl": [("Make an HTTP GET request", "curl {{https://example.com}}"),
             ("Send JSON", "curl -X POST -H 'Content-Type: application/json' -d '{{json}}' {{url}}"),
             ("Show response headers", "curl -I {{url}}")],
    "journalctl": [("Show logs of a unit", "journalctl -u {{unit}}"),
                   ("Follow new messages", "journalctl -f"),
                   ("Show the last N lines", "journalctl -n {{lines}}")],
    "systemctl": [("Show the status of a unit", "systemctl status {{unit}}"),
                  ("Enable and start a unit", "systemctl enable --now {{unit}}"),
                  ("Restart a service", "systemctl restart {{unit}}")],
    "mvn": [("Compile a project", "mvn compile"),
            ("Package into a jar", "mvn package"),
            ("Skip tests", "mvn package -DskipTests")],
    "gradle": [("Build the project", "gradle build"),
               ("Run the tests", "gradle test"),
               ("List tasks", "gradle tasks")],
    "openssl": [("Verify a certificate against a chain", "openssl verify -untrusted {{chain.pem}} {{cert.pem}}"),
                ("Show a remote certificate", "openssl s_client -connect {{host}}:{{443}}")],
    "helm": [("Install a chart", "helm install {{name}} {{repo/chart}}"),
             ("Upgrade or install", "helm upgrade --install {{name}} {{repo/chart}} -f {{values.yml}}")],
    "echo": [("Print a text message", "echo \"{{Hello World}}\""),
             ("Append a message to a file", "echo \"{{message}}\" >> {{path/to/file}}")],
    "cp": [("Copy a file to another location", "cp {{path/to/source_file}} {{path/to/target_file}}"),
           ("Copy a directory recursively", "cp -r {{path/to/source_directory}} {{path/to/target_directory}}")],
    "scp": [("Copy a local file to a remote host", "scp {{path/to/local_file}} {{remote_host}}:{{path/to/remote_file}}"),
            ("Use a specific port", "scp -P {{port}} {{path/to/local_file}} {{remote_host}}:{{path/to/remote_file}}")],
    "rsync": [("Transfer a directory to a remote host", "rsync -av {{path/to/source}} {{remote_host}}:{{path/to/destination}}"),
              ("Show progress", "rsync -av --progress {{path/to/source}} {{path/to/destination}}")],
    "tar": [("Extract an archive", "tar xf {{path/to/source.tar[.gz|.bz2|.xz]}}"),
            ("Create a gzipped archive", "tar czf {{target.tar.gz}} {{path/to/directory}}")],
    "jq": [("Pretty-print a JSON file", "jq . {{path/to/file.json}}"),
           ("Output the value of a key", "jq '.{{key}}' {{path/to/file.json}}")],
    "apt": [("Install a package", "sudo apt install {{package}}"),
            ("Update the package lists", "sudo apt update")],
    "yarn": [("Install all dependencies", "yarn"), ("Add a package", "yarn add {{package}}")],
    "tsc": [("Compile the project using tsconfig.json", "tsc"),
            ("Type-check without emitting output", "tsc --noEmit")],
    "ruby": [("Run a Ruby script", "ruby {{path/to/script.rb}}"), ("Run a one-liner", "ruby -e {{command}}")],
    "gem": [("Install a gem", "gem install {{gem_name}}"), ("List installed gems", "gem list")],
    "redis-cli": [("Connect to the local server", "redis-cli"),
                  ("Run a command", "redis-cli {{command}}")],
    "g++": [("Compile a source file", "g++ {{path/to/source.cpp}} -o {{path/to/output}}"),
            ("Choose a language standard", "g++ -std={{c++17}} {{path/to/source.cpp}} -o {{path/to/output}}")],
    "ssh-add": [("Add the default keys to the agent", "ssh-add"), ("List loaded keys", "ssh-add -l")],
    "pg_dump": [("Dump a database to a SQL file", "pg_dump {{db_name}} > {{output_file.sql}}")],
    "rails": [("Start the development server", "bin/rails server"),
              ("Run migrations", "bin/rails db:migrate"),
              ("Open a console", "bin/rails console")],
}

SUBCOMMAND_TOOLS = {
    "git", "docker", "cargo", "go", "kubectl", "npm", "pip", "bundle", "mvn", "gradle",
    "systemctl", "helm", "yarn", "apt", "gem", "rails", "rbenv", "openssl", "cmake",
    "make", "npx", "redis-cli",
}

SPOKEN_SYMBOLS = [
    ("&&", " and and "), ("||", " or or "), ("--", " dash dash "), ("->", " arrow "),
    ("-", " dash "), ("/", " slash "), (".", " dot "), ("_", " underscore "),
    ("~", " tilde "), ("@", " at "), ("|", " pipe "), (":", " colon "), ("=", " equals "),
    (";", " semicolon "), ("*", " star "), (">", " greater than "), ("<", " less than "),
    ("'", " quote "), ('"', " quote "), ("(", " paren "), (")", " close paren "),
    ("$", " dollar "), (",", " comma "),
]

# ---------------------------------------------------------------------------
# case loading
# ---------------------------------------------------------------------------


@dataclass
class Case:
    file: str
    index: int
    command: str | None
    error: str


def load_cases() -> list[Case]:
    cases: list[Case] = []
    paths = sorted(CASE_DIR.glob("*.toml")) + sorted(HELDOUT_DIR.glob("set*.toml"))
    for path in paths:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        for i, table in enumerate(data.get("case", [])):
            # only these two keys are read, nothing else in the table
            cases.append(Case(path.name, i, table.get("command"), table.get("error", "")))
    return cases


# ---------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------


def pick(rng: random.Random, seq):
    return seq[rng.randrange(len(seq))]


def person(rng: random.Random) -> tuple[str, str]:
    return pick(rng, FIRST_NAMES), pick(rng, LAST_NAMES)


def handle_for(rng: random.Random, first: str, last: str) -> str:
    k = rng.randrange(6)
    f, lname = first.lower(), last.lower()
    if k == 0:
        return f
    if k == 1:
        return f[0] + lname
    if k == 2:
        return f"{f}.{lname}"
    if k == 3:
        return f"{f}{rng.randint(2, 99)}"
    if k == 4:
        return f"{f}_{lname[:3]}"
    return f"{lname}{f[0]}"


def new_person(rng: random.Random) -> dict:
    first, last = person(rng)
    return {"first": first, "last": last, "full": f"{first} {last}",
            "handle": handle_for(rng, first, last)}


def distinct_people(rng: random.Random, n: int) -> list[dict]:
    out: list[dict] = []
    seen: set[str] = set()
    while len(out) < n:
        p = new_person(rng)
        if p["first"] in seen:
            continue
        seen.add(p["first"])
        out.append(p)
    return out


def hostname(rng: random.Random) -> str:
    return f"{pick(rng, HOST_PREFIXES)}-{rng.randint(1, 40):02d}"


def rand_dt(rng: random.Random) -> datetime:
    base = datetime(2023, 2, 1, tzinfo=UTC)
    return base + timedelta(days=rng.randint(0, 1000), hours=rng.randint(6, 22),
                            minutes=rng.randint(0, 59), seconds=rng.randint(0, 59))


def fmt_12h(dt: datetime) -> str:
    h = dt.hour % 12 or 12
    return f"{h}:{dt.minute:02d} {'AM' if dt.hour < 12 else 'PM'}"


def phab_date(dt: datetime) -> str:
    return f"{MONTHS[dt.month - 1]} {dt.day} {dt.year}, {fmt_12h(dt)}"


def gh_date(dt: datetime) -> str:
    return f"{MONTHS[dt.month - 1]} {dt.day}, {dt.year}"


def iso(dt: datetime, frac: bool = False) -> str:
    if frac:
        return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def rfc822(dt: datetime) -> str:
    return format_datetime(dt)


def hms(seconds: int) -> str:
    return f"{seconds // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def short_hms(seconds: int) -> str:
    if seconds >= 3600:
        return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
    return f"{seconds // 60}:{seconds % 60:02d}"


def indent(text: str, prefix: str) -> str:
    return "\n".join((prefix + line) if line.strip() else prefix.rstrip() for line in text.split("\n"))


def wrap(text: str, width: int = 72, prefix: str = "") -> str:
    return textwrap.fill(text, width=width, initial_indent=prefix, subsequent_indent=prefix,
                         break_long_words=False, break_on_hyphens=False)


def hard_wrap_lines(text: str, cols: int) -> list[str]:
    """Split lines the way a terminal of `cols` columns would show them."""
    rows: list[str] = []
    for line in text.split("\n"):
        line = line.expandtabs(8)
        if not line:
            rows.append("")
            continue
        while len(line) > cols:
            rows.append(line[:cols])
            line = line[cols:]
        rows.append(line)
    return rows


def slug(text: str, n: int = 48) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:n].rstrip("-") or "error"


def clean_error(err: str) -> str:
    lines = err.strip("\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(line.rstrip() if i == len(lines) - 1 else line for i, line in enumerate(lines))


STRONG = re.compile(r"(error|fatal|panic|exception|denied|refused|traceback|failed|failure|abort)", re.I)
WEAK = re.compile(r"(not found|no such|cannot|can't|could not|couldn't|unable|invalid|"
                  r"missing|unknown|not allowed|unrecognized|expected|timed out|"
                  r"undefined|bad |no space|not a |incompatible|conflict|warning)", re.I)
GENERIC = re.compile(
    r"(collect2: error: ld returned|^make(\[\d+\])?: \*\*\*|npm (error|ERR!) (a complete log|code|errno)|"
    r"error: could not compile|aborting due to|for more information about this error|"
    r"^\s*(at |file )|compilation failed|build failed|\[error\] -> \[help 1\]|^\[error\]\s*$|"
    r"re-run maven|to see the full stack trace|full stack trace|failure: build failed|exited with code|"
    r"exit code \d+|subprocess-exited-with-error|this error originates from a subprocess|"
    r"metadata-generation-failed|failed building wheel|^(warning|note|hint)\b|traceback \(most recent|^error: command errored out|"
    r"see .* for (more|a list|details)|run with --(stacktrace|info|debug|scan)|[;{]\s*$)", re.I)
EXC_LINE = re.compile(r"^(Uncaught )?[A-Z][\w.]*(Error|Exception)(: | \[| \(|$)")
FRAME = re.compile(r"^\s*(at |File |from |\d+: )")
PY_EXC = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Warning|Interrupt|error)\b.*")


def key_line(err: str) -> str:
    lines = [ln.strip() for ln in err.split("\n") if ln.strip()]
    if not lines:
        return err.strip()
    chosen = None
    if re.match(r"^npm (error|ERR!) code ", lines[0]):
        chosen = lines[0]
    elif any(ln.startswith("Traceback") for ln in lines) or PY_EXC.match(lines[-1]):
        for ln in reversed(lines):
            if PY_EXC.match(ln):
                chosen = ln
                break
    if chosen is None:
        for ln in lines:
            if EXC_LINE.match(ln) and not GENERIC.search(ln):
                chosen = ln
                break
    if chosen is None:
        for pattern in (STRONG, WEAK):
            for ln in lines:
                if pattern.search(ln) and not GENERIC.search(ln):
                    chosen = ln
                    break
            if chosen is not None:
                break
        if chosen is None:
            for ln in lines:
                if STRONG.search(ln) and not FRAME.search(ln):
                    chosen = ln
                    break
    if chosen is None:
        chosen = lines[-1]
    if len(chosen) > 110:
        chosen = chosen[:107].rstrip() + "..."
    return chosen


def exit_code(err: str, rng: random.Random) -> int:
    if re.search(r"command not found|not found in \$PATH|No such file or directory\s*$", err.split("\n")[0]):
        return 127
    if re.search(r"^(ba|z)?sh: .*Permission denied", err, re.M):
        return 126
    if re.search(r"^fatal: ", err, re.M):
        return 128
    if re.search(r"^error(\[E\d+\])?: ", err, re.M) and "cargo" in err.lower():
        return 101
    return pick(rng, [1, 1, 1, 2])


def split_segments(cmd: str) -> list[str]:
    parts = re.split(r"\s*(?:&&|\|\||;|\|)\s*", cmd)
    return [p for p in parts if p.strip()]


def tokens(cmd: str) -> list[str]:
    try:
        return shlex.split(cmd)
    except ValueError:
        return cmd.split()


def program_of(segment: str) -> tuple[str, list[str]]:
    toks = tokens(segment)
    while toks and (re.match(r"^[A-Z_][A-Z0-9_]*=", toks[0]) or toks[0] in ("sudo", "time", "env", "nohup", "exec")):
        toks = toks[1:]
        while toks and toks[0].startswith("-") and len(toks) > 1:
            toks = toks[1:]
    if not toks:
        return segment.split()[0] if segment.split() else "sh", []
    prog = toks[0]
    rest = toks[1:]
    if prog.startswith("python") and len(rest) >= 2 and rest[0] == "-m" and rest[1] == "pip":
        return "pip", rest[2:]
    return prog, rest


def main_tool(cmd: str, err: str) -> str:
    segs = split_segments(cmd)
    progs = [program_of(s)[0] for s in segs]
    chosen = None
    for p in progs:
        base = p.split("/")[-1]
        if re.search(r"(^|\n)\s*" + re.escape(base) + r":", err):
            chosen = p
            break
    if chosen is None:
        for p in progs:
            if p not in ("cd", "source", "echo", "mkdir", "export", "tar", "head", "tail"):
                chosen = p
                break
    if chosen is None:
        chosen = progs[0] if progs else "sh"
    chosen = TOOL_ALIASES.get(chosen, chosen)
    if re.match(r"^python3(\.\d+)?$", chosen):
        chosen = "python3"
    return chosen


def is_local_script(tool: str) -> bool:
    return tool.startswith("./") or tool.startswith("/") or tool.endswith(".sh") or tool not in TOOL_INFO


STOP_DIRS = {"node_modules", "src", "lib", "target", "build", "vendor", "site-packages", "dist-packages",
             "bin", "gems", "venv", "env", "dist", "out", "classes", "tmp", "logs", "cache"}
PY_FILE = re.compile(r'File "(/[^"]+\.py)"')
HOME_PATH = re.compile(r"/home/([a-z][a-z0-9_-]*)/([A-Za-z0-9._-]+(?:/[A-Za-z0-9._-]+)*)")


@dataclass
class Ctx:
    file: str
    index: int
    cmd: str
    err: str
    key: str
    tool: str
    user: str
    cwd: str          # as the shell would show it, e.g. ~/code/app
    host: str
    project: str
    derived: bool


def make_ctx(case: Case, rng: random.Random) -> Ctx:
    err = clean_error(case.error)
    user = None
    cwd = None
    derived = False
    cmd = (case.command or "").strip()
    m = HOME_PATH.search(err)
    if m:
        user = m.group(1)
        parts = m.group(2).split("/")
        dirs = parts[:-1] if "." in parts[-1] else parts
        kept = []
        for d in dirs:
            if d.startswith((".", "_")) or d in STOP_DIRS:
                break
            kept.append(d)
        dirs = kept[:2]
        cwd = "~/" + "/".join(dirs) if dirs else "~"
    if not cmd:
        derived = True
        fm = PY_FILE.search(err)
        if fm:
            path = fm.group(1)
            base = path.rsplit("/", 1)[-1]
            folder = path.rsplit("/", 1)[0]
            home_folder = re.sub(r"^/home/[^/]+", "~", folder)
            k = rng.randrange(4)
            if k == 0:
                cmd, cwd = f"python3 {base}", home_folder
            elif k == 1:
                cmd, cwd = f"python {base}", home_folder
            elif k == 2:
                cmd = f"python3 {path}"
            else:
                cmd, cwd = f"python3 {base}", home_folder
        else:
            cmd = "python3 main.py"
    if user is None:
        user = pick(rng, ["dev", "ubuntu", "alex", "sam", "jo", "mk", "pat", "runner",
                          "deploy", "lee", "kai", "rin"])
    project = pick(rng, PROJECTS)
    if cwd is None:
        cwd = pick(rng, [f"~/src/{project}", f"~/code/{project}", f"~/work/{project}",
                         f"~/{project}", f"~/projects/{project}", f"~/repos/{project}"])
    else:
        tail = cwd.rstrip("/").split("/")[-1]
        if tail not in ("~", "") and len(tail) > 2:
            project = tail
    return Ctx(case.file, case.index, cmd, err, key_line(err), main_tool(cmd, err), user, cwd,
               hostname(rng), project, derived)


def prompt(rng: random.Random, ctx: Ctx) -> str:
    k = rng.randrange(6)
    base = ctx.cwd.rstrip("/").split("/")[-1]
    if k == 0:
        return f"{ctx.user}@{ctx.host}:{ctx.cwd}$ "
    if k == 1:
        return f"[{ctx.user}@{ctx.host} {base}]$ "
    if k == 2:
        return "$ "
    if k == 3:
        return f"{ctx.user}@{ctx.host} {ctx.cwd} % "
    if k == 4:
        return f"➜  {base} git:(main) "
    return f"{ctx.cwd} $ "


def err_lines(ctx: Ctx) -> list[str]:
    return ctx.err.split("\n")


def n_lines(ctx: Ctx) -> int:
    return len(err_lines(ctx))


def elide(ctx: Ctx, max_lines: int, head: int, marker: str) -> str:
    lines = err_lines(ctx)
    if len(lines) <= max_lines:
        return ctx.err
    tail = max_lines - head - 1
    skipped = len(lines) - head - tail
    return "\n".join(lines[:head] + [marker.format(n=skipped)] + lines[-tail:])


def short_cmd(cmd: str, n: int = 60) -> str:
    return cmd if len(cmd) <= n else cmd[: n - 3].rstrip() + "..."


def spoken(cmd: str) -> str:
    out = cmd
    for sym, word in SPOKEN_SYMBOLS:
        out = out.replace(sym, word)
    out = re.sub(r"\s+", " ", out).strip()
    out = re.sub(r"\bnpm\b", "NPM", out)
    out = re.sub(r"\bsql\b", "SQL", out, flags=re.I)
    return out


def placeholderize(cmd: str, tool: str) -> str:
    seg = split_segments(cmd)[0]
    if "$(" in seg or "`" in seg:
        return re.sub(r"(?<![\w/$(-])([\w./-]+\.(?:c|cc|cpp|py|js|ts|go|rs|java|rb|sql|yml|yaml|json|toml))\b",
                      r"{{\1}}", seg)
    toks = tokens(seg)
    if not toks:
        return cmd
    out: list[str] = []
    i = 0
    while i < len(toks) and (re.match(r"^[A-Z_][A-Z0-9_]*=", toks[i]) or toks[i] == "sudo"):
        out.append(toks[i])
        i += 1
    if i < len(toks):
        out.append(toks[i])
        i += 1
    if tool in SUBCOMMAND_TOOLS and i < len(toks) and re.match(r"^[a-z][a-z0-9:_-]*$", toks[i]):
        out.append(toks[i])
        i += 1
    prev_flag = False
    for t in toks[i:]:
        if t in (">", ">>", "<", "2>&1", "|", "&&", ";", "||", ".", "..", "./..."):
            out.append(t)
            prev_flag = False
            continue
        if t.startswith("-") and len(t) > 1:
            if "=" in t:
                name = t.split("=", 1)[0]
                out.append(f"{name}={{{{value}}}}")
            else:
                out.append(t)
            prev_flag = len(t) == 2
            continue
        if re.match(r"^https?://", t):
            ph = "url"
        elif "@" in t and not t.startswith("@"):
            ph = "user@host"
        elif " " in t:
            ph = "query" if re.search(r"select|insert|create|copy|load", t, re.I) else "text"
        elif "/" in t or re.search(r"\.[A-Za-z0-9]{1,5}$", t):
            ph = "path/to/" + t.split("/")[-1] if "/" in t else t
        elif t.isdigit():
            ph = "number"
        elif prev_flag:
            ph = "value"
        else:
            ph = t if rng_free_keep(t) else "name"
        out.append("{{user}}@{{host}}" if ph == "user@host" else "{{" + ph + "}}")
        prev_flag = False
    return " ".join(out)


def rng_free_keep(tok: str) -> bool:
    return len(tok) <= 14 and re.match(r"^[a-z][a-z0-9._-]*$", tok) is not None


def html_text(s: str) -> str:
    return html.escape(s, quote=False)


def cdata(s: str) -> str:
    return "<![CDATA[" + s.replace("]]>", "]]]]><![CDATA[>") + "]]>"


# ---------------------------------------------------------------------------
# style: phabricator_task
# ---------------------------------------------------------------------------

PHAB_TITLES = [
    "`{sc}` fails with \"{key}\"",
    "{key} when running {sc}",
    "Cannot {verb}: {key}",
    "{sc} broken on {host}",
    "[{proj}] {sc} errors out",
    "{key}",
]
PHAB_VERBS = ["build locally", "run the setup step", "bootstrap the dev env",
              "finish the deploy", "get the job running", "reproduce the release build"]


def phab_code(rng: random.Random, ctx: Ctx) -> str:
    k = rng.randrange(5)
    logname = pick(rng, ["output.txt", "console.log", "terminal.txt", f"{ctx.tool.strip('./')}.log",
                         "error.txt", "repro.txt"])
    if k == 0:
        return f"```lang=console\n$ {ctx.cmd}\n{ctx.err}\n```"
    if k == 1:
        return f"```\nlang=text, name={logname}\n{ctx.err}\n```"
    if k == 2:
        return f"```name={logname}, lang=text, lines=12\n{ctx.err}\n```"
    if k == 3:
        return indent(f"$ {ctx.cmd}\n{ctx.err}", "  ")
    return f"```lang=console, name=terminal\n{prompt(rng, ctx)}{ctx.cmd}\n{ctx.err}\n```"


def phab_title(rng: random.Random, ctx: Ctx) -> str:
    t = pick(rng, PHAB_TITLES).format(sc=short_cmd(ctx.cmd, 48), key=short_cmd(ctx.key, 70),
                                      verb=pick(rng, PHAB_VERBS), host=ctx.host, proj=ctx.project)
    return t


def phab_body(rng: random.Random, ctx: Ctx, people: list[dict], code: str) -> str:
    mention = "@" + people[1]["handle"]
    cmd_in_code = code.startswith("```lang=console") or code.startswith("  $")
    lead = pick(rng, [
        f"Running `{ctx.cmd}` in `{ctx.cwd}` stopped with the output below.",
        f"Steps to reproduce:\n\n# checkout `main` of {ctx.project}\n# run `{ctx.cmd}`\n\n**Actual result:**",
        f"While working on {ctx.project} I ran ##{ctx.cmd}## and got this:",
        f"{mention} this is the thing I mentioned in standup. `{ctx.cmd}` on {ctx.host} gives:",
        f"= Problem =\n\nThe command `{ctx.cmd}` does not complete; it prints:",
    ])
    if cmd_in_code and rng.random() < 0.3:
        lead = pick(rng, ["Repro from a clean shell:", "Full output:", "Here's what I see:"])
    tail = pick(rng, [
        "**Expected result:** the command completes without errors.",
        f"Not sure if this belongs to {ctx.project} or to the environment. {mention} any idea?",
        "Happy to pair on this if someone has a moment.",
        "Blocking me on the current task, marking as High for now.",
        f"cc {mention}",
        "",
    ])
    return "\n\n".join(x for x in [lead, code, tail] if x)


def style_phabricator_task(rng: random.Random, ctx: Ctx) -> str:
    people = distinct_people(rng, 4)
    author, other = people[0], people[1]
    dt = rand_dt(rng)
    tid = rng.randint(1200, 389000)
    domain = pick(rng, DOMAINS)
    title = phab_title(rng, ctx)
    code = phab_code(rng, ctx)
    body = phab_body(rng, ctx, people, code)
    tag = pick(rng, [ctx.project, f"{ctx.project} (Backlog)", pick(rng, TEAMS), "Release-Engineering-Team",
                     "Developer-Productivity"])
    variant = rng.randrange(5)
    if variant == 0:
        prio = pick(rng, ["Needs Triage", "High", "Medium", "Low", "Unbreak Now!"])
        owner = pick(rng, ["None", author["handle"], other["handle"]])
        comment_dt = dt + timedelta(minutes=rng.randint(5, 300))
        lines = [
            "Page Menu", "Home", "Phabricator", "Search", "",
            title,
            f"Open, {prio}Public",
            "", "Actions", "Edit Task", "Edit Related Tasks...", "Edit Related Objects...",
            "Subscribe", "Mute Notifications", "Award Token", "Flag For Later", "",
            "Assigned To", pick(rng, ["None", other["handle"]]),
            "Authored By", author["handle"], phab_date(dt),
            "Tags", tag,
            "Restricted Owners Field", owner,
            "Referenced Files", "None",
            "Subscribers", f"{author['handle']}, {other['handle']}, {people[2]['handle']}",
            "", "Description", "", body, "",
            "Details", "", "Event Timeline", "",
            f"{author['handle']} created this task.{phab_date(dt)}",
            f"{author['handle']} added a subscriber: {other['handle']}.",
            f"{other['handle']} triaged this task as {prio if prio != 'Needs Triage' else 'Medium'} priority."
            f"{phab_date(comment_dt)}",
        ]
        if rng.random() < 0.6:
            lines += [f"{other['handle']} added a comment.{phab_date(comment_dt)}",
                      pick(rng, [f"Can reproduce on {hostname(rng)} as well.",
                                 "Does this also happen on a fresh checkout?",
                                 "Thanks for the report, looking.",
                                 f"@{author['handle']} which version of {ctx.tool} is that?"])]
        lines.append("")
        lines.append("Content licensed under Creative Commons Attribution-ShareAlike (CC BY-SA) 4.0 unless otherwise noted.")
        return "\n".join(lines)
    if variant == 1:
        return "\n".join([
            f"{author['handle']} created this task.",
            f"{author['handle']} added a project: {tag}.",
            f"Restricted Application added a subscriber: {pick(rng, ['Aklapper', 'Stashbot', 'Herald'])}.",
            "",
            "TASK DESCRIPTION",
            indent(body, "  "),
            "",
            "TASK DETAIL",
            f"  https://phabricator.{domain}/T{tid}",
            "",
            "EMAIL PREFERENCES",
            f"  https://phabricator.{domain}/settings/panel/emailpreferences/",
            "",
            f"To: {author['handle']}",
            f"Cc: {other['handle']}, {people[2]['handle']}, {author['handle']}",
        ])
    if variant == 2:
        did = rng.randint(800, 60000)
        reviewer = other
        comment = "\n\n".join([
            pick(rng, [f"@{author['handle']} I patched this in locally and ran `{ctx.cmd}`:",
                       f"Tried the test plan. `{ctx.cmd}` fails for me:",
                       f"Not ready yet I think - `{ctx.cmd}` on a clean checkout prints:"]),
            code if not code.startswith("  ") else f"```lang=console\n$ {ctx.cmd}\n{ctx.err}\n```",
            pick(rng, ["Requesting changes until we understand this.",
                       "Can you update the test plan with how you ran it?",
                       "Might be my machine, but flagging it.", ""]),
        ]).strip()
        return "\n".join([
            f"{reviewer['handle']} requested changes to this revision." if rng.random() < 0.5
            else f"{reviewer['handle']} added a comment.",
            "",
            indent(comment, "  "),
            "",
            "REPOSITORY",
            f"  r{ctx.project[:4].upper()} {ctx.project}",
            "",
            "CHANGES SINCE LAST ACTION",
            f"  https://phabricator.{domain}/D{did}/new/",
            "",
            "REVISION DETAIL",
            f"  https://phabricator.{domain}/D{did}",
            "",
            "To: " + ", ".join([reviewer["handle"], author["handle"]]),
            "Cc: " + ", ".join([people[2]["handle"], people[3]["handle"]]),
        ])
    if variant == 3:
        return "\n".join([
            "Create Task", "",
            f"Title: {title}",
            f"Assigned To: {pick(rng, ['None', other['handle']])}",
            f"Status: Open    Priority: {pick(rng, ['Needs Triage', 'Normal', 'High'])}",
            "Description:",
            body,
            "",
            f"Tags: {tag}",
            f"Subscribers: {author['handle']}, {people[2]['handle']}",
            f"Restricted Owners Field: {pick(rng, ['(none)', other['handle']])}",
            f"Visible To: {pick(rng, ['Public (No Login Required)', 'All Users', 'Custom Policy'])}",
            f"Editable By: {pick(rng, ['All Users', 'Task Author'])}",
            "",
            "[ Create New Task ]  Cancel",
        ])
    did = rng.randint(800, 60000)
    lines = [
        f"D{did}: {pick(rng, ['Add', 'Fix', 'Update', 'Refactor', 'Bump'])} "
        f"{pick(rng, ['setup script', 'build config', 'deploy helper', 'CI step', 'dependency pins'])} for {ctx.project}",
        "", "Summary", pick(rng, ["Small change, see test plan.", f"Part of T{tid}.", "Follow-up to last week's cleanup."]),
        "", "Test Plan",
        f"ran `{ctx.cmd}`",
        "", "Diff Detail", f"Repository\n  r{ctx.project[:4].upper()} {ctx.project}",
        "Lint\n  Lint Passed", "Unit\n  No Test Coverage", "",
        "Event Timeline", "",
        f"{other['handle']} added inline comments.{phab_date(dt)}",
        f"{other['handle']} requested changes to this revision.",
        "",
        f"The test plan says `{ctx.cmd}` but when I run it I get",
        "",
        code,
        "",
        pick(rng, ["Restricted Owners Field: (none)", "This revision now requires changes to proceed."]),
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# style: lab_notebook
# ---------------------------------------------------------------------------

LAB_AIMS = [
    "Get {topic} running again on {host} after the OS upgrade.",
    "Re-run the {topic} step with the new parameters from {name}.",
    "Reproduce last week's numbers for {topic} before the group meeting.",
    "Set up {topic} on the new workstation ({host}).",
    "Check whether {topic} still works with the updated environment.",
    "Prepare the {topic} outputs for the collaborators' review.",
]
LAB_NEXT = [
    "Ask {name} whether they saw this on their machine.",
    "Search the error text; check the tool's issue tracker.",
    "Try again on {host2} to see if it is machine-specific.",
    "Write down exact versions ({tool} --version) before changing anything.",
    "Don't change anything else until this is understood.",
    "Bring it up at Thursday's lab meeting if still stuck.",
    "Check the README of {proj} for setup steps I might have skipped.",
    "Parked for today; continue tomorrow morning.",
]
LAB_OBS = [
    "Failed immediately. Full output:",
    "Did not work. Terminal printed:",
    "Command exited with an error (copied verbatim):",
    "Error, nothing produced in the output folder. Output was:",
    "Got the following instead of the expected result:",
    "Run aborted. Copying what it printed so I have it:",
]


def style_lab_notebook(rng: random.Random, ctx: Ctx) -> str:
    dt = rand_dt(rng)
    topic, group = pick(rng, LAB_TOPICS)
    me = new_person(rng)
    colleague = new_person(rng)
    fill = {"topic": topic, "host": ctx.host, "name": colleague["first"], "host2": hostname(rng),
            "tool": ctx.tool.split("/")[-1], "proj": ctx.project}
    aim = pick(rng, LAB_AIMS).format(**fill)
    nexts = rng.sample(LAB_NEXT, 2)
    nexts = [n.format(**fill) for n in nexts]
    obs = pick(rng, LAB_OBS)
    pre_step = pick(rng, [
        f"Logged in to {ctx.host}, cd {ctx.cwd}",
        f"Opened a terminal in {ctx.cwd}",
        f"Pulled latest {ctx.project} from the group repo",
        "Activated the usual environment",
        f"Copied input files to {ctx.cwd}/data",
    ])
    variant = rng.randrange(4)
    if variant == 0:
        entry_no = rng.randint(12, 240)
        return "\n".join([
            f"Date: {dt:%Y-%m-%d} ({WEEKDAYS[dt.weekday()]})",
            f"Project: {topic} ({group})",
            f"Entry #{entry_no} - {me['full']}",
            "",
            "Aim:",
            wrap(aim, 76, "  "),
            "",
            "Procedure:",
            f"  1. {pre_step}",
            "  2. Ran:",
            f"       $ {ctx.cmd}",
            "",
            "Observation:",
            f"  {obs}",
            "",
            indent(ctx.err, "    "),
            "",
            "Next steps:",
            f"  - {nexts[0]}",
            f"  - {nexts[1]}",
        ])
    if variant == 1:
        lines = [
            f"* {dt:%Y-%m-%d %a} {topic}",
            ":PROPERTIES:",
            f":AUTHOR:   {me['full']}",
            f":PROJECT:  {group}",
            ":END:",
            "** Aim",
            aim,
            "** Procedure",
            f"- {pre_step}",
            f"- ran the command below from =~{ctx.cwd[1:]}=" if ctx.cwd.startswith("~") else "- ran the command below",
            "#+begin_src shell",
            ctx.cmd,
            "#+end_src",
            "** Observation",
            obs,
            "#+RESULTS:",
        ]
        lines += [(": " + ln) if ln else ":" for ln in err_lines(ctx)]
        lines += ["** Next steps", f"- [ ] {nexts[0]}", f"- [ ] {nexts[1]}"]
        return "\n".join(lines)
    if variant == 2:
        exp_id = rng.randint(100, 9999)
        return "\n".join([
            f"Experiment: {topic} - {pick(rng, ['run', 'attempt', 'setup', 'session'])} {rng.randint(2, 14)}",
            f"ID: {exp_id}   Status: {pick(rng, ['Running', 'Need to be redone', 'In progress', 'Fail'])}",
            f"Tags: {group.replace(' ', '-')}, {ctx.tool.split('/')[-1]}, troubleshooting",
            f"Created {dt:%Y-%m-%d %H:%M} by {me['full']} · Last modified {dt + timedelta(hours=rng.randint(1, 8)):%Y-%m-%d %H:%M}",
            "----------------------------------------",
            "### Date",
            f"{dt.day} {LONG_MONTHS[dt.month - 1]} {dt.year}",
            "",
            "### Aim",
            aim,
            "",
            "### Procedure",
            f"1. {pre_step}",
            f"2. `{ctx.cmd}`",
            "",
            "### Observation",
            obs,
            "",
            "```",
            ctx.err,
            "```",
            "",
            "### Next steps",
            f"- {nexts[0]}",
            f"- {nexts[1]}",
            "",
            "Attached files: none",
        ])
    t0 = dt
    times = [t0 + timedelta(minutes=m) for m in sorted(rng.sample(range(1, 90), 4))]
    return "\n".join([
        f"=== {dt.day:02d}.{dt.month:02d}.{dt.year} ===",
        f"{t0:%H:%M}  Aim: {aim}",
        f"{times[0]:%H:%M}  {pre_step}.",
        f"{times[1]:%H:%M}  Procedure: {ctx.cmd}",
        f"{times[2]:%H:%M}  Observation - {obs[0].lower() + obs[1:]}",
        indent(ctx.err, "       | "),
        f"{times[3]:%H:%M}  Next steps: {nexts[0]} Also: {nexts[1][0].lower() + nexts[1][1:]}",
        f"       ({me['first'][0]}{me['last'][0]})",
    ])


# ---------------------------------------------------------------------------
# style: faq_entry
# ---------------------------------------------------------------------------

FAQ_FILLER = [
    ("How do I upgrade to the latest release?", "Pull the latest tag and read the changelog for breaking changes first."),
    ("Where are the log files written?", "By default under ~/.local/state/{proj}/logs; see the configuration page."),
    ("Which platforms are supported?", "Linux and macOS are tested in CI. Windows works via WSL2."),
    ("Can I run {proj} without root privileges?", "Yes. Nothing in the normal workflow needs root."),
    ("How do I report a security issue?", "Please do not open a public issue; e-mail the security contact listed in SECURITY.md."),
    ("Why is the first run so slow?", "The first run downloads and caches dependencies. Later runs reuse the cache."),
    ("How do I reset my local configuration?", "Delete the local config directory; it is recreated with defaults on the next run."),
    ("Is there a Docker image?", "Yes, see the installation guide for the image name and tags."),
]
FAQ_Q = [
    "Why does `{cmd}` fail with \"{key}\"?",
    "I ran `{cmd}` and got \"{key}\". What does it mean?",
    "`{cmd}` prints an error and stops. What now?",
    "What does \"{key}\" mean when running {sc}?",
    "{sc} fails right away - is my setup broken?",
]
FAQ_A_OPEN = [
    "This comes up a lot. The message is printed by {tool} itself, not by {proj}, so it usually points at the local environment rather than at our code.",
    "Several people have reported this one. The full output typically looks like this:",
    "You will usually see something like the following when this happens:",
    "This error shows up before {proj} does any real work. A typical report looks like:",
]
FAQ_A_CLOSE = [
    "Read the output from the top: the first line that names a file, package, host or permission is the one that matters. If the hints in the message don't get you further, open an issue and include the exact command and the complete output.",
    "If you are still stuck after checking the message, ask in the support channel and paste the whole output, not just the last line.",
    "We are collecting reports of this one in the issue tracker; please add your OS, the {tool} version and the full output there.",
    "The key line is the one quoted in the question. Search the tracker for it before opening a new issue - it is probably already known.",
]


def style_faq_entry(rng: random.Random, ctx: Ctx) -> str:
    proj = ctx.project.replace("-", " ").title().replace(" ", "")
    proj = pick(rng, [ctx.project, proj])
    fill = {"cmd": ctx.cmd, "key": short_cmd(ctx.key, 80), "sc": short_cmd(ctx.cmd, 40),
            "tool": ctx.tool.split("/")[-1], "proj": proj}
    q = pick(rng, FAQ_Q).format(**fill)
    filler_pairs = [(fq.format(proj=proj), fa.format(proj=ctx.project)) for fq, fa in rng.sample(FAQ_FILLER, 3)]
    fillers = [fq for fq, _ in filler_pairs]
    a_open = pick(rng, FAQ_A_OPEN).format(**fill)
    a_close = pick(rng, FAQ_A_CLOSE).format(**fill)
    pos = rng.randint(2, 14)
    sec = rng.randint(1, 4)
    variant = rng.randrange(4)
    ps = prompt(rng, ctx) if rng.random() < 0.3 else "$ "
    if variant == 0:
        toc = [f"  {sec}.{pos - 1} {fillers[0]}", f"  {sec}.{pos} {q}", f"  {sec}.{pos + 1} {fillers[1]}"]
        return "\n".join([
            f"{proj} - Frequently Asked Questions",
            f"Last updated {gh_date(rand_dt(rng))}",
            "",
            "Contents",
            *toc,
            "",
            "...",
            "",
            f"{sec}.{pos} {q}",
            "",
            "Q: " + wrap(pick(rng, [f"When I run {ctx.cmd} it stops with an error.",
                                   f"I followed the install guide, but `{ctx.cmd}` fails.",
                                   f"Running `{ctx.cmd}` gives me the message below."]), 76).lstrip(),
            "",
            "A: " + wrap(a_open, 76, "   ").lstrip(),
            "",
            indent(f"{ps}{ctx.cmd}\n{ctx.err}", "     "),
            "",
            wrap(a_close, 76, "   "),
            "",
            "   Back to top",
            "",
            f"{sec}.{pos + 1} {fillers[1]}",
        ])
    if variant == 1:
        return "\n".join([
            f"Troubleshooting FAQ — {proj} {rng.randint(0, 4)}.{rng.randint(0, 20)} documentation",
            "",
            "Navigation: index · next · previous",
            "",
            f"{q}¶",
            "",
            a_open,
            "",
            f"{ps}{ctx.cmd}",
            ctx.err,
            "",
            a_close,
            "",
            f"{fillers[0]}¶",
            "",
            filler_pairs[0][1],
            "",
            "Back to top",
            "",
            f"© Copyright {rand_dt(rng).year}, the {proj} contributors.",
        ])
    if variant == 2:
        anchor = slug(q, 40)
        return "\n".join([
            '<a id="top"></a>',
            f"# {proj} FAQ",
            "",
            f"{rng.randint(1, 3)}. [{fillers[0]}](#{slug(fillers[0], 40)})",
            f"{pos}. [{q}](#{anchor})",
            "",
            "---",
            "",
            f'<a id="{anchor}"></a>',
            f"### {pos}. {q}",
            "",
            "**Q:** " + pick(rng, [f"Running `{ctx.cmd}` gives me this:",
                                  f"`{ctx.cmd}` used to work, now it prints:",
                                  "Fresh install, first command I tried:"]),
            "",
            "```console",
            f"$ {ctx.cmd}",
            ctx.err,
            "```",
            "",
            "**A:** " + a_open.replace("like this:", "like the above.").replace("like the following when this happens:", "exactly the output above.").replace("looks like:", "looks like the above."),
            a_close,
            "",
            "[Back to top](#top)",
        ])
    return "\n".join([
        f"{proj} Help Center > FAQ > {pick(rng, ['Installation', 'Getting started', 'Errors', 'Command line'])}",
        "",
        f"Q{pos}. {q}",
        "",
        pick(rng, ["Asked by a user:", "From the support inbox:", "Reported in the forum:"]),
        f'  "I typed {ctx.cmd} and got:',
        indent(ctx.err, "   "),
        '  "',
        "",
        f"A{pos}. " + wrap(a_open, 76, "     ").lstrip(),
        "",
        wrap(a_close, 76, "     "),
        "",
        "Was this answer helpful?  Yes  No",
        "",
        f"Q{pos + 1}. {fillers[2]}",
        "",
        f"A{pos + 1}. {filler_pairs[2][1]}",
        "",
        "[Back to top]",
    ])


# ---------------------------------------------------------------------------
# style: tldr_page
# ---------------------------------------------------------------------------

GOTCHA_LEADS = [
    "{date}: ran `{cmd}` in {where} and it blew up with:",
    "Careful - `{cmd}` gave me this on {where} ({date}):",
    "Hit this on {date} running `{cmd}`:",
    "`{cmd}` does NOT just work here. Got:",
    "Note to self ({date}): `{cmd}` ->",
]
GOTCHA_TAILS = [
    "Still not sure what the proper fix is.",
    "Look at the message before retrying blindly.",
    "TODO: write down the fix once I find it.",
    "Asked in #help, no answer yet.",
    "",
]


def tldr_examples(rng: random.Random, ctx: Ctx) -> list[tuple[str, str]]:
    tool = ctx.tool
    ex = list(TLDR_EXAMPLES.get(tool, []))
    if not ex:
        name = tool.split("/")[-1]
        if tool in TOOL_INFO:
            ex = [("Display help", f"{name} --help"), ("Display the version", f"{name} --version")]
        elif name.endswith(".sh"):
            ex = [("Run the script", tool), ("Trace every command the script runs", f"bash -x {tool}")]
        else:
            ex = [(f"Run {name}", tool), ("Display help", f"{tool} --help")]
    rng.shuffle(ex)
    return ex[: rng.randint(2, min(4, len(ex)))]


def style_tldr_page(rng: random.Random, ctx: Ctx) -> str:
    tool = ctx.tool
    name = tool.split("/")[-1]
    info = TOOL_INFO.get(tool)
    desc = info[0] if info else f"Project helper script for {ctx.project}."
    url = info[1] if info else f"https://git.{pick(rng, DOMAINS)}/{ctx.project}/-/blob/main/README.md"
    dt = rand_dt(rng)
    where = pick(rng, [ctx.host, "my laptop", "the CI box", f"{ctx.project}", "the staging VM", "WSL"])
    date = pick(rng, [f"{dt:%Y-%m-%d}", f"{dt.day} {MONTHS[dt.month - 1]}", f"{dt:%d/%m/%Y}"])
    lead = pick(rng, GOTCHA_LEADS).format(date=date, cmd=ctx.cmd, where=where)
    tail = pick(rng, GOTCHA_TAILS)
    examples = tldr_examples(rng, ctx)
    mine = (pick(rng, ["Run the variant I actually use", f"Run it the way {ctx.project} expects",
                       "Do what the onboarding doc says", "Run the usual project command"]),
            placeholderize(ctx.cmd, tool))
    insert_at = rng.randint(0, len(examples))
    examples.insert(insert_at, mine)
    variant = rng.randrange(3)
    if variant == 0:
        out = [f"# {name}", "", f"> {desc}",
               f"> More information: <{url}>.", ""]
        for d, c in examples:
            out += [f"- {d}:", "", f"`{c}`", ""]
        out += ["## Gotchas", "", f"- {lead}", "", "```", ctx.err, "```"]
        if tail:
            out += ["", f"  {tail}"]
        return "\n".join(out)
    if variant == 1:
        out = ["---", "syntax: bash", f"tags: [ {name}, {pick(rng, ['dev', 'work', 'notes', 'ops'])} ]", "---"]
        for d, c in examples:
            out += [f"# To {d[0].lower() + d[1:]}:", c, ""]
        out += [f"# GOTCHA - {lead}"]
        out += ["#   " + ln if ln else "#" for ln in err_lines(ctx)]
        if tail:
            out += [f"# {tail}"]
        return "\n".join(out)
    out = [f"<!-- ~/notes/cheats/{name}.md -->", f"# {name}", "", f"> {desc}", ""]
    for d, c in examples:
        out += [f"- {d}:", "", f"`{c}`", ""]
    out += ["## Gotchas", "",
            f"> {lead}", ">", "> ```"]
    out += ["> " + ln if ln else ">" for ln in err_lines(ctx)]
    out += ["> ```"]
    if tail:
        out += ["", f"_{tail}_"]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# style: terminal_html
# ---------------------------------------------------------------------------

def line_role(line: str) -> str:
    low = line.lower()
    if re.search(r"\b(error|fatal|panic|exception|denied|failed|traceback)\b", low) or low.startswith("e: "):
        return "err"
    if re.search(r"\b(warning|warn|hint|note|help)\b", low):
        return "warn"
    return "plain"


ANSI2HTML_CSS = """.ansi2html-content { display: inline; white-space: pre-wrap; word-wrap: break-word; }
.body_foreground { color: #AAAAAA; }
.body_background { background-color: #000000; }
.inv_foreground { color: #000000; }
.inv_background { background-color: #AAAAAA; }
.ansi1 { font-weight: bold; }
.ansi31 { color: #aa0000; }
.ansi32 { color: #00aa00; }
.ansi33 { color: #aa5500; }
.ansi34 { color: #0000aa; }
.ansi36 { color: #00aaaa; }"""


def style_terminal_html(rng: random.Random, ctx: Ctx) -> str:
    user, host, cwd = ctx.user, ctx.host, ctx.cwd
    lines = err_lines(ctx)
    variant = rng.randrange(4)
    if variant == 0:
        pr = (f'<span class="ansi1 ansi32">{user}@{host}</span>:<span class="ansi1 ansi34">'
              f"{html_text(cwd)}</span>$ ")
        body = [pr + html_text(ctx.cmd)]
        for ln in lines:
            role = line_role(ln)
            if role == "err":
                body.append(f'<span class="ansi1 ansi31">{html_text(ln)}</span>')
            elif role == "warn":
                body.append(f'<span class="ansi33">{html_text(ln)}</span>')
            else:
                body.append(html_text(ln))
        body.append(pr)
        return "\n".join([
            '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">',
            "<html>", "<head>",
            '<meta http-equiv="Content-Type" content="text/html; charset=utf-8">',
            f"<title>{pick(rng, ['', 'session', 'terminal', ctx.project])}</title>",
            '<style type="text/css">', ANSI2HTML_CSS, "</style>", "</head>",
            '<body class="body_foreground body_background" style="font-size: normal;" >',
            '<pre class="ansi2html-content">',
            "\n".join(body),
            "</pre>", "</body>", "", "</html>",
        ])
    if variant == 1:
        def aha(s: str) -> str:
            return html.escape(s, quote=True).replace("&#x27;", "'")
        pr = (f'<span style="font-weight:bold;color:lime;">{user}@{host}</span>:'
              f'<span style="font-weight:bold;color:#3333FF;">{aha(cwd)}</span>$ ')
        body = [pr + aha(ctx.cmd)]
        for ln in lines:
            role = line_role(ln)
            if role == "err":
                body.append(f'<span style="color:red;">{aha(ln)}</span>')
            elif role == "warn":
                body.append(f'<span style="color:olive;">{aha(ln)}</span>')
            else:
                body.append(aha(ln))
        return "\n".join([
            '<?xml version="1.0" encoding="UTF-8" ?>',
            '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">',
            "<!-- This file was created with the aha Ansi HTML Adapter. https://github.com/theZiz/aha -->",
            '<html xmlns="http://www.w3.org/1999/xhtml">', "<head>",
            '<meta http-equiv="Content-Type" content="application/xml+xhtml; charset=UTF-8"/>',
            f"<title>{pick(rng, ['stdin', 'typescript', 'build.log'])}</title>", "</head>", "<body>", "<pre>",
            "\n".join(body), "</pre>", "</body>", "</html>",
        ])
    cols = pick(rng, [80, 100, 120, 132])
    if variant == 2:
        rows = [f"<div><span style='color: #4e9a06; font-weight: bold;'>{user}@{host}</span>"
                f"<span>:</span><span style='color: #3465a4; font-weight: bold;'>{html_text(cwd)}</span>"
                f"<span>$ {html_text(ctx.cmd)}</span></div>"]
        for row in hard_wrap_lines(ctx.err, cols):
            role = line_role(row)
            colour = {"err": "#ef2929", "warn": "#c4a000", "plain": "#d3d7cf"}[role]
            if row:
                rows.append(f"<div><span style='color: {colour};'>{html_text(row)}</span></div>")
            else:
                rows.append("<div><span></span></div>")
        rows.append(f"<div><span style='color: #4e9a06; font-weight: bold;'>{user}@{host}</span>"
                    f"<span>:</span><span style='color: #3465a4; font-weight: bold;'>{html_text(cwd)}</span>"
                    "<span>$ </span></div>")
        return ("<html><body><!--StartFragment--><pre><div style='color: #d3d7cf; background-color: #2e3436; "
                "font-family: courier-new, courier, monospace; font-size: 15px;'>"
                + "".join(rows) + "</div></pre><!--EndFragment--></body></html>")
    # ttyd / xterm.js DOM renderer rows, copied from devtools, with <br> for blank rows
    out = ['<div class="xterm-screen" style="width: 1127px; height: 627px;">',
           f'<div class="xterm-rows" style="line-height: normal;" data-cols="{cols}">']
    out.append(f'<div><span class="xterm-bold xterm-fg-10">{user}@{host}</span>:'
               f'<span class="xterm-bold xterm-fg-12">{html_text(cwd)}</span>$ {html_text(ctx.cmd)}</div>')
    for row in hard_wrap_lines(ctx.err, cols):
        role = line_role(row)
        text = html_text(row).replace("  ", " &nbsp;")
        if not row:
            out.append("<div><br></div>")
        elif role == "err":
            out.append(f'<div><span class="xterm-fg-9">{text}</span></div>')
        elif role == "warn":
            out.append(f'<div><span class="xterm-fg-11">{text}</span></div>')
        else:
            out.append(f"<div>{text}</div>")
    out.append(f'<div><span class="xterm-bold xterm-fg-10">{user}@{host}</span>:'
               f'<span class="xterm-bold xterm-fg-12">{html_text(cwd)}</span>$ '
               '<span class="xterm-cursor xterm-cursor-block"> </span></div>')
    out += ["</div>", "</div>"]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# style: twitch_chat
# ---------------------------------------------------------------------------

CHAT_OPENERS = [
    "hi chat", "what are we building today?", "is this the {proj} stream?", "yo {streamer}",
    "first time here, what language is this", "the lofi playlist today is fire",
    "how long have you been on this bug", "back from lunch, what did I miss",
    "can you bump the font size a bit", "!uptime", "hello from Brazil", "o7",
]
CHAT_REACT = [
    "uh oh {e}", "red text {e}", "F", "{e} it died", "classic", "there it is {e}",
    "nooo", "welp", "rip", "bruh {e}", "that's a lot of red", "monkaS",
]
CHAT_AFTER = [
    "read the last line chat", "works on my machine {e}", "can you scroll up?",
    "zoom in pls can't read on phone", "have you tried turning it off and on again {e}",
    "the answer is always in the first error line", "google it {e}",
    "same thing happened to me last week", "it's always the environment",
    "^ that line is the important one", "hydrate check", "{e} {e}", "chat is this real",
    "pretty sure the error tells you what to do tbh",
]
STREAMER_RUN = [
    "ok chat let's try {cmd}", "running {cmd} now, fingers crossed",
    "alright, {cmd} and then we deploy", "typing {cmd} lol pray for me",
    "moment of truth: {cmd}",
]
STREAMER_PASTE = [
    "pasting the error for the people on mobile:", "for those who can't read it, here:",
    "here's the output:", "copying it into chat so the VOD has it:", "error for chat:",
]
STREAMER_AFTER = [
    "ok I'll dig into this after the break", "gonna read this properly, one sec",
    "chat don't spoil it I want to figure it out", "this was working yesterday I swear",
    "adding it to the notes, we'll come back to it",
]


def twitch_handle(rng: random.Random) -> str:
    f, lname = person(rng)
    k = rng.randrange(6)
    if k == 0:
        return f"{f.lower()}{rng.randint(1, 9999)}"
    if k == 1:
        return f"xX_{f}_Xx"
    if k == 2:
        return f"{pick(rng, ['night', 'byte', 'null', 'rusty', 'cozy', 'sudo', 'tabs'])}_{f.lower()}"
    if k == 3:
        return f"{f}{lname[:2].upper()}"
    if k == 4:
        return f"the_{lname.lower()}"
    return f"{f.lower()}_{pick(rng, ['codes', 'dev', 'gg', 'irl', 'hacks'])}"


def chunk_text(text: str, limit: int) -> list[str]:
    flat = re.sub(r"\s*\n\s*", " ", text.strip())
    flat = re.sub(r"[ \t]+", " ", flat)
    chunks: list[str] = []
    while len(flat) > limit:
        cut = flat.rfind(" ", 0, limit)
        if cut < limit // 2:
            cut = limit
        chunks.append(flat[:cut].strip())
        flat = flat[cut:].strip()
    if flat:
        chunks.append(flat)
    return chunks


def style_twitch_chat(rng: random.Random, ctx: Ctx) -> str:
    f, _ = person(rng)
    streamer = pick(rng, [f"{f.lower()}codes", f"{f}OnRust", f"devwith{f.lower()}", f"{f.lower()}_live",
                          f"{f}Builds", f"late_night_{f.lower()}"])
    viewers = [twitch_handle(rng) for _ in range(7)]
    mod = viewers[0]
    youtube = len(ctx.err) < 900 and rng.random() < 0.3
    limit = 200 if youtube else 500
    emote = (lambda: pick(rng, YT_EMOJI)) if youtube else (lambda: pick(rng, TWITCH_EMOTES))
    msgs: list[tuple[str, str, str]] = []   # (user, role, text)
    for opener in rng.sample(CHAT_OPENERS, rng.randint(2, 4)):
        v = pick(rng, viewers[1:])
        msg = opener.format(proj=ctx.project, streamer=streamer)
        msgs.append((v, "sub" if rng.random() < 0.4 else "", msg))
        if msg == "!uptime":
            msgs.append(("Nightbot", "mod", f"{streamer} has been live for {rng.randint(1, 5)}h {rng.randint(1, 59)}m"))
    if rng.random() < 0.5:
        msgs.append((streamer, "broadcaster", pick(rng, STREAMER_RUN).format(cmd=ctx.cmd)))
    else:
        v = pick(rng, viewers[1:])
        msgs.append((v, "", pick(rng, ["what did you type?", "what command was that", "what was the command?"])))
        msgs.append((streamer, "broadcaster", f"{ctx.cmd}"))
    for _ in range(rng.randint(1, 3)):
        msgs.append((pick(rng, viewers[1:]), "", pick(rng, CHAT_REACT).format(e=emote())))
    paster, prole = (streamer, "broadcaster") if rng.random() < 0.6 else (mod, "mod")
    intro = pick(rng, STREAMER_PASTE)
    chunks = chunk_text(ctx.err, limit - 8)
    if len(chunks) == 1 and len(intro) + len(chunks[0]) + 1 <= limit:
        msgs.append((paster, prole, f"{intro} {chunks[0]}"))
    else:
        msgs.append((paster, prole, intro))
        for i, ch in enumerate(chunks):
            msgs.append((paster, prole, f"({i + 1}/{len(chunks)}) {ch}" if len(chunks) > 1 else ch))
            if rng.random() < 0.25 and i < len(chunks) - 1:
                msgs.append((pick(rng, viewers[1:]), "", pick(rng, ["wall of text " + emote(), emote(),
                                                                    "keep going", "lol the length"])))
    for _ in range(rng.randint(2, 4)):
        msgs.append((pick(rng, viewers[1:]), "sub" if rng.random() < 0.3 else "",
                     pick(rng, CHAT_AFTER).format(e=emote())))
    if rng.random() < 0.6:
        msgs.append((streamer, "broadcaster", pick(rng, STREAMER_AFTER)))
    if rng.random() < 0.3:
        msgs.append(("StreamElements", "mod", pick(rng, [
            f"Join the discord: discord.gg/{ctx.project[:6]}{rng.randint(10, 99)}",
            "Remember to follow if you're enjoying the stream!"])))
    # timestamps
    variant = 3 if youtube else rng.randrange(3)
    start = rng.randint(600, 4 * 3600)
    dt = rand_dt(rng)
    t = start
    out: list[str] = []
    if variant == 3:
        out.append(f"Live chat replay · {streamer} · {gh_date(dt)}")
        out.append("")
    for user, role, text in msgs:
        t += rng.randint(1, 25)
        if variant == 0:
            wall = (dt + timedelta(seconds=t - start)).strftime("%H:%M:%S")
            out.append(f"[{wall}]  {user}: {text}")
        elif variant == 1:
            wall = (dt + timedelta(seconds=t - start)).strftime("%Y-%m-%d %H:%M:%S")
            badge = {"broadcaster": "[Broadcaster] ", "mod": "[Moderator] ",
                     "sub": f"[Subscriber/{pick(rng, [1, 3, 6, 12, 24])}] "}.get(role, "")
            if not badge and rng.random() < 0.15:
                badge = pick(rng, ["[VIP] ", "[Prime Gaming] ", "[Turbo] "])
            out.append(f"[{wall} UTC] {badge}{user}: {text}")
        elif variant == 2:
            out.append(f"[{short_hms(t)}] {user}: {text}")
        else:
            name = user if role != "broadcaster" else f"{user} (Owner)"
            out.append(f"{short_hms(t)} {name}: {text}")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# style: lms_quiz
# ---------------------------------------------------------------------------

QUIZ_COURSES = [
    "Intro to Software Tools", "DevOps Fundamentals", "Systems Programming 201",
    "Research Computing Bootcamp", "Web Development II", "Cloud Infrastructure Lab",
    "Data Engineering Essentials", "Linux for Scientists",
]
QUIZ_STEM_LEADS = [
    "A student runs the following command in the lab VM:",
    "Your teammate types this in the project directory:",
    "During the exercise you run:",
    "Consider the following terminal session. The command was:",
    "After cloning the starter repository, Sam runs:",
]
QUIZ_MC_Q = [
    "Which line of the output identifies the actual problem?",
    "Which line should you read first to understand why the command failed?",
    "Which part of this output is the most useful to search for?",
]
GENERIC_DISTRACTORS = [
    "None of the output matters; simply rerun the command.",
    "The terminal itself crashed, so there is no useful message.",
    "The output only contains warnings; the command succeeded.",
    "The problem is always the network, regardless of the message.",
]


def quiz_kind(rng: random.Random, ctx: Ctx) -> tuple[str, list[str]]:
    """Return (kind, options) - options[0] is the keyed answer for multichoice."""
    others = []
    for ln in err_lines(ctx):
        s = ln.strip()
        if s and s != ctx.key and s not in others and len(s) < 140 and not s.startswith("^"):
            others.append(s)
    r = rng.random()
    if len(others) >= 3 and r < 0.55:
        distractors = rng.sample(others, 3)
        return "mc", [ctx.key] + distractors
    if r < 0.75:
        return "tf", []
    if len(others) >= 1 and r < 0.85:
        return "mc", [ctx.key] + others[:1] + rng.sample(GENERIC_DISTRACTORS, 2)
    return "essay", []


def style_lms_quiz(rng: random.Random, ctx: Ctx) -> str:
    course = pick(rng, QUIZ_COURSES)
    week = rng.randint(1, 12)
    lead = pick(rng, QUIZ_STEM_LEADS)
    kind, options = quiz_kind(rng, ctx)
    mcq = pick(rng, QUIZ_MC_Q)
    tfq = pick(rng, ["True or false: the command completed successfully.",
                     "True or false: this output means the command finished without problems."])
    essayq = pick(rng, ["In two or three sentences, explain what went wrong and what you would check first.",
                        "Describe what this message tells you and how you would start debugging it.",
                        "What is the error, and which part of the output tells you that?"])
    question = {"mc": mcq, "tf": tfq, "essay": essayq}[kind]
    qname = short_cmd(f"W{week} - {ctx.tool.split('/')[-1]}: {ctx.key}", 60)
    qid = rng.randint(1000, 99999)
    stem_html = (f"<p>{html_text(lead)}</p>\n<pre>{html_text(ctx.cmd)}</pre>\n"
                 f"<p>{pick(rng, ['It prints:', 'The output is:', 'and gets:'])}</p>\n"
                 f"<pre>{html_text(ctx.err)}</pre>\n<p>{html_text(question)}</p>")
    shuffled = list(options)
    rng.shuffle(shuffled)
    gfb = pick(rng, ["Always start from the line that states the failure, then read upwards for context.",
                     "Error output usually names the failing step explicitly; read it before retrying.",
                     "Copying the exact message into a search is often the fastest first step."])
    variant = rng.randrange(4)
    if variant == 0:
        out = ['<?xml version="1.0" encoding="UTF-8"?>', "<quiz>",
               "<!-- question: 0  -->", '  <question type="category">', "    <category>",
               f"      <text>$course$/top/{course}/Week {week}</text>", "    </category>", "  </question>",
               "", f"<!-- question: {qid}  -->"]
        qtype = {"mc": "multichoice", "tf": "truefalse", "essay": "essay"}[kind]
        out += [f'  <question type="{qtype}">', "    <name>", f"      <text>{html_text(qname)}</text>", "    </name>",
                '    <questiontext format="html">', f"      <text>{cdata(stem_html)}</text>", "    </questiontext>",
                '    <generalfeedback format="html">', f"      <text>{cdata('<p>' + html_text(gfb) + '</p>')}</text>",
                "    </generalfeedback>", "    <defaultgrade>1.0000000</defaultgrade>",
                f"    <penalty>{'1.0000000' if kind == 'tf' else '0.3333333'}</penalty>",
                "    <hidden>0</hidden>", "    <idnumber></idnumber>"]
        if kind == "mc":
            out += ["    <single>true</single>", "    <shuffleanswers>true</shuffleanswers>",
                    "    <answernumbering>abc</answernumbering>", "    <showstandardinstruction>0</showstandardinstruction>"]
            for opt in shuffled:
                frac = "100" if opt == options[0] else "0"
                out += [f'    <answer fraction="{frac}" format="html">',
                        f"      <text>{cdata('<p><code>' + html_text(opt) + '</code></p>')}</text>",
                        '      <feedback format="html">', "        <text></text>", "      </feedback>", "    </answer>"]
        elif kind == "tf":
            out += ['    <answer fraction="0" format="moodle_auto_format">', "      <text>true</text>",
                    '      <feedback format="html">', "        <text>Look at the output again.</text>",
                    "      </feedback>", "    </answer>",
                    '    <answer fraction="100" format="moodle_auto_format">', "      <text>false</text>",
                    '      <feedback format="html">', "        <text>Correct - the output reports an error.</text>",
                    "      </feedback>", "    </answer>"]
        else:
            out += ["    <responseformat>editor</responseformat>", "    <responserequired>1</responserequired>",
                    "    <responsefieldlines>10</responsefieldlines>", "    <attachments>0</attachments>",
                    '    <graderinfo format="html">', f"      <text>{cdata('<p>Accept any answer that quotes the key line.</p>')}</text>",
                    "    </graderinfo>"]
        out += ["  </question>", "", "</quiz>"]
        return "\n".join(out)
    if variant == 1:
        def gift(s: str) -> str:
            s = re.sub(r"([~=#{}:\\])", r"\\\1", s)
            return s.replace("\n", "\\n")
        text = gift(stem_html.replace("\n<p>", "<p>").replace("\n<pre>", "<pre>"))
        out = [f"// question: 0  name: Switch category to $course$/top/{course}/Week {week}",
               f"$CATEGORY: $course$/top/{course}/Week {week}", "",
               f"// question: {qid}  name: {gift(qname)}",
               f"::{gift(qname)}::[html]{text}{{"]
        if kind == "mc":
            for opt in shuffled:
                mark = "=" if opt == options[0] else "~"
                fb = "#" + gift(pick(rng, ["Yes.", "Right.", "Correct."])) if mark == "=" else ""
                out.append(f"\t{mark}<code>{gift(html_text(opt))}</code>{fb}")
            out.append(f"\t####{gift(gfb)}")
            out.append("}")
        elif kind == "tf":
            out[-1] += "FALSE#Read the output again.#Correct - the command failed.}"
        else:
            out[-1] += "}"
        return "\n".join(out)
    if variant == 2:
        ident = f"g{rng.getrandbits(128):032x}"
        mattext = html.escape(f"<div>{stem_html}</div>", quote=False)
        qtype = {"mc": "multiple_choice_question", "tf": "true_false_question", "essay": "essay_question"}[kind]
        ids = [str(rng.randint(1000, 9999)) for _ in range(max(2, len(shuffled)))]
        out = ['<?xml version="1.0" encoding="UTF-8"?>',
               '<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2" '
               'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
               'xsi:schemaLocation="http://www.imsglobal.org/xsd/ims_qtiasiv1p2 '
               'http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd">',
               f'  <assessment ident="{ident}" title="{html.escape(course)} - Week {week} check">',
               '    <section ident="root_section">',
               f'      <item ident="i{rng.getrandbits(64):016x}" title="Question">',
               "        <itemmetadata>", "          <qtimetadata>",
               "            <qtimetadatafield>", "              <fieldlabel>question_type</fieldlabel>",
               f"              <fieldentry>{qtype}</fieldentry>", "            </qtimetadatafield>",
               "            <qtimetadatafield>", "              <fieldlabel>points_possible</fieldlabel>",
               "              <fieldentry>1.0</fieldentry>", "            </qtimetadatafield>",
               "          </qtimetadata>", "        </itemmetadata>",
               "        <presentation>", "          <material>",
               f'            <mattext texttype="text/html">{mattext}</mattext>', "          </material>"]
        choices = shuffled if kind == "mc" else (["True", "False"] if kind == "tf" else [])
        if choices:
            out += ['          <response_lid ident="response1" rcardinality="Single">', "            <render_choice>"]
            for i, opt in enumerate(choices):
                out += [f'              <response_label ident="{ids[i]}">', "                <material>",
                        f'                  <mattext texttype="text/plain">{html.escape(opt, quote=False)}</mattext>',
                        "                </material>", "              </response_label>"]
            out += ["            </render_choice>", "          </response_lid>"]
            correct = choices.index(options[0]) if kind == "mc" else 1
            out += ["        </presentation>", "        <resprocessing>", "          <outcomes>",
                    '            <decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/>',
                    "          </outcomes>", '          <respcondition continue="No">', "            <conditionvar>",
                    f'              <varequal respident="response1">{ids[correct]}</varequal>',
                    "            </conditionvar>", '            <setvar action="Set" varname="SCORE">100</setvar>',
                    "          </respcondition>", "        </resprocessing>"]
        else:
            out += ['          <response_str ident="response1" rcardinality="Single">',
                    '            <render_fib><response_label ident="answer1" rshuffle="No"/></render_fib>',
                    "          </response_str>", "        </presentation>"]
        out += ["      </item>", "    </section>", "  </assessment>", "</questestinterop>"]
        return "\n".join(out)
    qn = rng.randint(1, 15)
    pts = "1 / 1 pts" if kind != "essay" else "0 / 2 pts"
    out = [f"{course} > Quizzes > Week {week} debugging check", "", f"Question {qn}", pts, "",
           lead, "", ctx.cmd, "", pick(rng, ["It prints:", "The output is:", "Output:"]), "", ctx.err, "", question, ""]
    if kind == "mc":
        for opt in shuffled:
            if opt == options[0]:
                out += ["Correct!", f"  {opt}"]
            else:
                out += [f"  {opt}"]
    elif kind == "tf":
        out += ["  True", "Correct!", "  False"]
    else:
        out += ["Your Answer:", pick(rng, ["(no answer submitted)", "it says error so something is wrong??",
                                           "The command failed; the last lines say why."]),
                "", "This question will be graded by your instructor."]
    out += ["", gfb]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# style: reportbug_mail
# ---------------------------------------------------------------------------

DEBIAN_RELEASES = [
    ("12.5", "bookworm", "6.1.0-18-amd64"), ("12.7", "bookworm", "6.1.0-25-amd64"),
    ("trixie/sid", "trixie", "6.6.15-amd64"), ("11.9", "bullseye", "5.10.0-28-amd64"),
    ("12.2", "bookworm", "6.1.0-13-amd64"),
]
UBUNTU_RELEASES = [
    ("22.04", "jammy", "5.15.0-97-generic", "2.20.11-0ubuntu82.5"),
    ("24.04", "noble", "6.8.0-31-generic", "2.28.1-0ubuntu3"),
    ("23.10", "mantic", "6.5.0-21-generic", "2.27.0-0ubuntu5"),
    ("20.04", "focal", "5.4.0-172-generic", "2.20.11-0ubuntu27.27"),
]
DEPENDS = [
    ("libc6", "2.36-9+deb12u4"), ("libssl3", "3.0.11-1~deb12u2"), ("zlib1g", "1:1.2.13.dfsg-1"),
    ("libcurl3-gnutls", "7.88.1-10+deb12u5"), ("perl", "5.36.0-7+deb12u1"),
    ("libpcre2-8-0", "10.42-1"), ("liberror-perl", "0.17029-2"), ("ca-certificates", "20230311"),
    ("python3", "3.11.2-1+b1"), ("libexpat1", "2.5.0-1"), ("libstdc++6", "12.2.0-14"),
]
SOURCE_PACKAGES = {
    "openssh-client": "openssh", "golang-go": "golang-defaults", "default-mysql-client": "mysql-defaults",
    "postgresql-client-15": "postgresql-15", "g++-12": "gcc-12", "openjdk-17-jdk-headless": "openjdk-17",
    "openjdk-17-jre-headless": "openjdk-17", "ruby-bundler": "bundler", "kubernetes-client": "kubernetes",
    "python3-pip": "python-pip", "redis-tools": "redis", "yarnpkg": "node-yarnpkg", "make": "make-dfsg",
}
RB_SEVERITY = ["normal", "normal", "normal", "important", "minor", "grave"]


def rb_package(ctx: Ctx) -> tuple[str, str]:
    info = TOOL_INFO.get(ctx.tool)
    if info:
        return info[2], info[3]
    return "bash", "5.2.15-2+b7"


def style_reportbug_mail(rng: random.Random, ctx: Ctx) -> str:
    me = new_person(rng)
    email = f"{me['first'].lower()}.{me['last'].lower()}@{pick(rng, ['posteo.de', 'gmail.com', 'fastmail.com', 'example.org', 'riseup.net'])}"
    pkg, ver = rb_package(ctx)
    dt = rand_dt(rng)
    subject_key = short_cmd(ctx.key, 60)
    subject = pick(rng, [f"{pkg}: {short_cmd(ctx.cmd, 40)} fails with \"{subject_key}\"",
                         f"{pkg}: {subject_key}",
                         f"{pkg}: '{short_cmd(ctx.cmd, 40)}' aborts with an error"])
    variant = rng.randrange(3)
    if variant in (0, 1):
        rel, code, kernel = pick(rng, DEBIAN_RELEASES)
        deps = rng.sample(DEPENDS, rng.randint(2, 5))
        sev = pick(rng, RB_SEVERITY)
        head = [
            'Content-Type: text/plain; charset="us-ascii"',
            "MIME-Version: 1.0",
            "Content-Transfer-Encoding: 7bit",
            f"From: {me['full']} <{email}>",
            "To: Debian Bug Tracking System <submit@bugs.debian.org>",
            f"Subject: {subject}",
            f"Message-ID: <{rng.getrandbits(64):x}.{rng.getrandbits(32):x}@{ctx.host}>",
            f"X-Mailer: reportbug {pick(rng, ['12.0.0', '13.0.1', '11.4.1'])}",
            f"Date: {rfc822(dt)}",
            "",
            f"Package: {pkg}",
            f"Version: {ver}",
            f"Severity: {sev}",
            f"X-Debbugs-Cc: {email}",
            "",
            "Dear Maintainer,",
            "",
        ]
        if variant == 0:
            body = [
                "   * What led up to the situation?",
                "",
                wrap(pick(rng, [f"I was setting up {ctx.project} on a freshly installed {code} machine.",
                                f"Routine work in {ctx.cwd}; nothing unusual changed on the system as far as I know.",
                                f"After upgrading to {code} I re-ran a command that I use every day."]), 72, "     "),
                "",
                "   * What exactly did you do (or not do) that was effective (or",
                "     ineffective)?",
                "",
                f"     I ran:  {ctx.cmd}",
                "",
                "   * What was the outcome of this action?",
                "",
                indent(ctx.err, "     "),
                "",
                "   * What outcome did you expect instead?",
                "",
                wrap(pick(rng, ["That the command completes normally.",
                                "No error, or at least an error message that tells me what to change.",
                                "Same behaviour as on my other machine."]), 72, "     "),
                "",
            ]
        else:
            body = [
                "*** Reporter, please consider answering these questions, where appropriate ***",
                "",
                "   * What led up to the situation?",
                "   * What exactly did you do (or not do) that was effective (or",
                "     ineffective)?",
                "   * What was the outcome of this action?",
                "   * What outcome did you expect instead?",
                "",
                "*** End of the template - remove these template lines ***",
                "",
                wrap(f"Running `{ctx.cmd}` {pick(rng, ['prints the following and exits non-zero', 'fails like this', 'gives this output'])}:", 72),
                "",
                indent(f"$ {ctx.cmd}\n{ctx.err}", "  "),
                "",
                wrap(pick(rng, ["I'm not sure whether this is a packaging issue or a local problem, "
                                "but the message was not helpful to me.",
                                "Please tell me if you need more information.",
                                "Reproducible every time."]), 72),
                "",
            ]
        tail = [
            "",
            "-- System Information:",
            f"Debian Release: {rel}",
            f"  APT prefers {code}-updates" if "sid" not in rel else "  APT prefers unstable",
            f"  APT policy: (500, '{code}-updates'), (500, '{code}-security'), (500, '{code}')"
            if "sid" not in rel else "  APT policy: (500, 'unstable'), (1, 'experimental')",
            "Architecture: amd64 (x86_64)",
            "",
            f"Kernel: Linux {kernel} (SMP w/{pick(rng, [4, 8, 12, 16])} CPU threads; PREEMPT)",
            "Locale: LANG=en_US.UTF-8, LC_CTYPE=en_US.UTF-8 (charmap=UTF-8), LANGUAGE not set",
            "Shell: /bin/sh linked to /usr/bin/dash",
            "Init: systemd (via /run/systemd/system)",
            "LSM: AppArmor: enabled",
            "",
            f"Versions of packages {pkg} depends on:",
        ]
        tail += [f"ii  {name:<16} {v}" for name, v in deps]
        tail += ["", f"{pkg} recommends no packages.", "", f"{pkg} suggests no packages.", "",
                 "-- no debconf information"]
        return "\n".join(head + body + tail)
    rel, code, kernel, apport = pick(rng, UBUNTU_RELEASES)
    lp = rng.randint(1900000, 2090000)
    src = SOURCE_PACKAGES.get(pkg, pkg)
    return "\n".join([
        f"From: {me['full']} <{lp}@bugs.launchpad.net>",
        f"Subject: [Bug {lp}] [NEW] {subject.split(': ', 1)[1]}",
        f"Date: {rfc822(dt)}",
        "Reply-To: Bug " + str(lp) + f" <{lp}@bugs.launchpad.net>",
        "",
        "Public bug reported:",
        "",
        wrap(pick(rng, [f"When I run `{ctx.cmd}` I get the following:",
                        f"Tried to run {ctx.cmd} in {ctx.cwd}, got this error:",
                        f"{ctx.cmd} fails on a fresh {rel} install:"]), 72),
        "",
        indent(ctx.err, "  " if rng.random() < 0.5 else ""),
        "",
        "ProblemType: Bug",
        f"DistroRelease: Ubuntu {rel}",
        f"Package: {pkg} {ver}",
        f"ProcVersionSignature: Ubuntu {kernel.replace('-generic', '')}.{rng.randint(90, 110)}-generic",
        f"Uname: Linux {kernel} x86_64",
        f"ApportVersion: {apport}",
        "Architecture: amd64",
        "CasperMD5CheckResult: pass",
        f"CurrentDesktop: {pick(rng, ['ubuntu:GNOME', 'KDE', 'XFCE'])}",
        f"Date: {dt:%a %b %d %H:%M:%S %Y}",
        f"InstallationDate: Installed on {dt - timedelta(days=rng.randint(30, 700)):%Y-%m-%d} (ubuntu {rel} release amd64)",
        "SourcePackage: " + src,
        "UpgradeStatus: No upgrade log present (probably fresh install)",
        "",
        f"** Affects: {src} (Ubuntu)",
        "     Importance: Undecided",
        "         Status: New",
        "",
        f"** Tags: amd64 apport-bug {code}",
        "",
        "-- ",
        "You received this bug notification because you are subscribed to " + src + " in Ubuntu.",
        f"https://bugs.launchpad.net/bugs/{lp}",
        "",
        "Title:",
        f"  {subject.split(': ', 1)[1]}",
        "",
        "To manage notifications about this bug go to:",
        f"https://bugs.launchpad.net/ubuntu/+source/{src}/+bug/{lp}/+subscriptions",
    ])


# ---------------------------------------------------------------------------
# style: github_discussion
# ---------------------------------------------------------------------------

GH_TITLES = [
    "`{sc}` fails with \"{key}\"",
    "Error when running {sc}",
    "{key}",
    "Help: {sc} doesn't work after following the quickstart",
    "Getting \"{key}\" - what am I missing?",
]
GH_ASK_LEADS = [
    "Hi all, I'm trying to get {proj} running locally. When I run `{cmd}` I get this:",
    "Probably something obvious, but I'm stuck. Running\n\n```\n{cmd}\n```\n\ngives me:",
    "Following the README step by step. The `{cmd}` step fails:",
    "Not sure if this is a bug or my setup, so asking here first. Output of `{cmd}`:",
    "Hey! First time contributor here. `{cmd}` errors out with",
]
GH_ANSWERS = [
    "The part that matters is `{key}` - everything around it is context. That message comes from {tool}, not from {proj}, so I'd start by checking your local setup against what it says.",
    "I had exactly this. Read the line `{key}` carefully; it tells you which step failed. In my case it was something in my environment, not the repo.",
    "Thanks for the full output, that helps. `{key}` is the line to focus on. Can you post `{tool} --version` and your OS? That'll tell us whether it's the same thing we saw in another thread.",
    "This isn't specific to {proj}; you'd get the same `{key}` from {tool} anywhere. The docs for {tool} cover this message.",
]
GH_REPLIES = [
    "Same here on {os}.", "+1, seeing this too.", "That was it for me, thanks!",
    "Did you get it working in the end?", "Converting this to an issue would be good if it affects more people.",
    "Can confirm the key line is the same on my machine.", "Thanks, worked around it for now.",
]


def style_github_discussion(rng: random.Random, ctx: Ctx) -> str:
    ppl = distinct_people(rng, 5)
    asker, maint = ppl[0]["handle"], ppl[1]["handle"]
    org = pick(rng, ORGS)
    repo = ctx.project
    num = rng.randint(40, 9000)
    dt = rand_dt(rng)
    fill = {"sc": short_cmd(ctx.cmd, 44), "key": short_cmd(ctx.key, 80), "cmd": ctx.cmd, "proj": repo,
            "tool": ctx.tool.split("/")[-1], "os": pick(rng, ["Ubuntu 22.04", "macOS 14", "Fedora 40", "WSL2", "Debian 12"])}
    title = pick(rng, GH_TITLES).format(**fill)
    lead = pick(rng, GH_ASK_LEADS).format(**fill)
    body = "\n".join([lead, "", "```", ctx.err, "```", "",
                      pick(rng, ["Any ideas?", "What am I doing wrong?", "Thanks in advance!",
                                 f"Environment: {fill['os']}", ""])]).rstrip()
    answer = pick(rng, GH_ANSWERS).format(**fill)
    ans_dt = dt + timedelta(hours=rng.randint(2, 120))
    reply_dt = ans_dt + timedelta(hours=rng.randint(1, 200))
    last_dt = reply_dt + timedelta(hours=rng.randint(1, 48))
    up_q, up_a = rng.randint(0, 12), rng.randint(1, 25)
    category = pick(rng, ["Q&A", "Q&A", "Help", "General", "Troubleshooting"])
    answered = category in ("Q&A", "Help", "Troubleshooting") and rng.random() < 0.7
    n_comments = rng.randint(1, 4)
    n_replies = rng.randint(0, 5)
    variant = rng.randrange(3)
    out = [f"{org}/{repo}", "Public", "", f"{title} #{num}", ""]
    if answered:
        out += [f"Answered by {maint}", ""]
    elif category != "General":
        out += ["Unanswered", ""]
    out += [f"{asker} asked this question in {category}" if category != "General"
            else f"{asker} started this conversation in {category}",
            f"{asker}", f"on {gh_date(dt)}", "", "Return to top", "", "Discussion options", "",
            asker, gh_date(dt), "", body, "", f"👍 {up_q}" if up_q else "", ""]
    if variant == 2:
        out += ["Beta Was this translation helpful? Give feedback.", ""]
    if answered:
        out += [f"Answered by {maint} {gh_date(ans_dt)}", "",
                answer if variant != 1 else answer.split(". ")[0] + ".", "", "View full answer", ""]
    out += [f"Replies: {n_comments} comment{'s' if n_comments > 1 else ''} · {n_replies} repl{'ies' if n_replies != 1 else 'y'}", ""]
    out += ["Comment options", "", maint, gh_date(ans_dt),
            pick(rng, ["Maintainer", "Collaborator", "Member"]), "", answer, ""]
    if answered:
        out += ["Marked as answer", ""]
    out += [f"👍 {up_a}", f"❤️ {rng.randint(0, 3)}" if rng.random() < 0.3 else "", ""]
    if n_replies:
        out += [f"{n_replies} repl{'ies' if n_replies != 1 else 'y'}", ""]
        rp = pick(rng, ppl[2:])["handle"]
        out += [rp, gh_date(reply_dt), pick(rng, GH_REPLIES).format(**fill), ""]
        if n_replies > 1:
            out += [f"Show {n_replies - 1} more repl{'ies' if n_replies > 2 else 'y'}", ""]
    out += ["Comment options", "", asker, gh_date(last_dt), "",
            pick(rng, ["Thanks, I'll look at that line again.", "OK will report back.",
                       "Makes sense, marking this as answered.", "Still happening for me, see above."]), "",
            "Sign up for free to join this conversation on GitHub. Already have an account? Sign in to comment",
            "", "Category", f"{'🙏' if category == 'Q&A' else '💬'} {category}", "Labels", pick(rng, ["None yet", "question", "setup"]),
            f"{rng.randint(2, 6)} participants"]
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text)


# ---------------------------------------------------------------------------
# style: suggested_change_review
# ---------------------------------------------------------------------------

def review_context(rng: random.Random, ctx: Ctx) -> tuple[str, list[str], int, list[str]]:
    """Return (path, context lines (old), index of the command line, suggestion lines)."""
    cmd = ctx.cmd
    k = rng.randrange(5)
    if k == 0:
        job = pick(rng, ["build", "test", "setup", "lint", "deploy"])
        lines = [f"  {job}:", "    runs-on: ubuntu-latest", "    steps:", "      - uses: actions/checkout@v4",
                 f"      - name: {pick(rng, ['Install', 'Build', 'Run', 'Prepare'])}", f"        run: {cmd}",
                 "      - name: Upload logs", "        if: always()"]
        sugg = ["        run: |", "          set -euo pipefail", f"          {cmd} 2>&1 | tee {ctx.tool.split('/')[-1]}.log"]
        return ".github/workflows/ci.yml", lines, 5, sugg
    if k == 1:
        target = pick(rng, ["setup", "build", "bootstrap", "dev", "check"])
        lines = [".PHONY: " + target, "", f"{target}:", f"\t{cmd}", "", "clean:", "\trm -rf build/"]
        sugg = [f"\t@echo '==> {short_cmd(cmd, 40)}'", f"\t{cmd} || (echo 'see docs/troubleshooting.md' >&2; exit 1)"]
        return "Makefile", lines, 3, sugg
    if k == 2:
        lines = ["## Getting started", "", "```console", f"$ {cmd}", "```", "",
                 "That's it, you should be good to go."]
        sugg = [f"$ {cmd}   # fails on some setups, see #{rng.randint(20, 900)}"]
        return "README.md", lines, 3, sugg
    if k == 3:
        lines = ["FROM debian:bookworm-slim", "WORKDIR /app", "COPY . .", f"RUN {cmd}", 'CMD ["./start.sh"]']
        sugg = ["RUN set -eux; \\", f"    {cmd}"]
        return "Dockerfile", lines, 3, sugg
    lines = ["#!/usr/bin/env bash", "set -e", "", 'cd "$(dirname "$0")/.."', f"{cmd}",
             'echo "done"']
    sugg = [f'echo "+ {cmd}" >&2', cmd]
    return f"scripts/{pick(rng, ['bootstrap', 'setup', 'dev', 'install'])}.sh", lines, 4, sugg


REVIEW_COMMENTS = [
    "I checked out this branch and ran `{cmd}` - it fails for me:",
    "Before we merge: running `{cmd}` locally gives",
    "Tried this step on a clean machine. `{cmd}` prints:",
    "This line doesn't work for me. `{cmd}` ->",
]
REVIEW_AFTER = [
    "At minimum let's make the failure visible instead of silently continuing - suggestion above.",
    "Not asking you to fix the underlying error in this PR, but can we take the suggestion so it fails loudly?",
    "Could be my environment, but I'd rather we document it. Suggestion above.",
    "Suggested change so the next person at least sees what ran.",
]


def style_suggested_change_review(rng: random.Random, ctx: Ctx) -> str:
    ppl = distinct_people(rng, 3)
    author, reviewer = ppl[0]["handle"], ppl[1]["handle"]
    path, lines, at, sugg = review_context(rng, ctx)
    start = rng.randint(3, 60)
    dt = rand_dt(rng)
    pr = rng.randint(12, 4800)
    org = pick(rng, ORGS)
    comment = pick(rng, REVIEW_COMMENTS).format(cmd=ctx.cmd)
    after = pick(rng, REVIEW_AFTER)
    variant = rng.randrange(3)
    if variant == 0:
        hunk_lines = []
        for i, ln in enumerate(lines):
            n = start + i
            mark = "+" if i >= at - 1 else " "
            hunk_lines.append(f"{n:>5} {mark} {ln}")
        out = [f"{reviewer} reviewed {pick(rng, ['on ' + gh_date(dt), str(rng.randint(2, 9)) + ' hours ago', 'yesterday'])}",
               "View reviewed changes", "", path, f"Comment on line +{start + at}",
               *hunk_lines[max(0, at - 3): at + 1], "", reviewer, gh_date(dt), "", "Suggested change", ""]
        out += [f"{start + at:>5} - {lines[at]}"]
        out += [f"{start + at + j:>5} + {s}" for j, s in enumerate(sugg)]
        out += ["", comment, "", "```", ctx.err, "```", "", after, "",
                "Commit suggestion", "Add suggestion to batch", "", "Reply...", "Resolve conversation"]
        return "\n".join(out)
    if variant == 1:
        quoted = []
        hunk_start = start + max(0, at - 3)
        ctxs = lines[max(0, at - 3): at + 1]
        quoted.append(f"> @@ -{hunk_start},{len(ctxs) - 1} +{hunk_start},{len(ctxs)} @@")
        for i, ln in enumerate(ctxs):
            quoted.append(("> +" if i == len(ctxs) - 1 else ">  ") + ln)
        return "\n".join([
            f"@{reviewer} commented on this pull request.",
            "",
            f"In {path}:",
            "",
            *quoted,
            "",
            "```suggestion",
            *sugg,
            "```",
            "",
            comment,
            "",
            "```",
            ctx.err,
            "```",
            "",
            after,
            "",
            "—",
            "Reply to this email directly, view it on GitHub:",
            f"https://github.com/{org}/{ctx.project}/pull/{pr}#discussion_r{rng.randint(10**9, 2 * 10**9)}",
            "You are receiving this because you authored the thread.",
            "",
            f"Message ID: <{org}/{ctx.project}/pull/{pr}/review/{rng.randint(10**9, 2 * 10**9)}@github.com>",
        ])
    out = [f"{pick(rng, ['Fix', 'Add', 'Update', 'Simplify'])} {pick(rng, ['onboarding steps', 'build step', 'dev setup', 'container build'])} #{pr}",
           f"{author} wants to merge {rng.randint(1, 9)} commits into main from {author}/{slug(ctx.tool, 12)}-{pick(rng, ['setup', 'fix', 'cleanup'])}",
           "", "Conversation", "Commits", "Checks", "Files changed", "",
           f"{reviewer} requested changes {gh_date(dt)}", "", f"Files changed  {path}", "",
           "```diff"]
    for i, ln in enumerate(lines[max(0, at - 2): at + 2]):
        j = max(0, at - 2) + i
        out.append(("+" if j == at else " ") + ln)
    out += ["```", "", f"**{reviewer}** left a comment on line {start + at}:", "",
            comment, "", "```", ctx.err, "```", "", "```suggestion", *sugg, "```", "", after, "",
            "[Commit suggestion]  [Add suggestion to batch]", "",
            f"{author} {gh_date(dt + timedelta(hours=rng.randint(1, 30)))}",
            pick(rng, ["Huh, works on my machine. Will try in a container.", "Good catch, looking.",
                       "I'll apply the suggestion and dig into the error separately."])]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# style: oncall_handoff
# ---------------------------------------------------------------------------

HANDOFF_NOISE = [
    ("Disk usage alert on {h}", "Rotated logs, now at 71%.", "Resolved"),
    ("Flaky synthetic check for /healthz in eu-west", "Silenced for 24h, ticket filed.", "Monitoring"),
    ("Cert expiry warning for internal dashboard (21 days)", "Renewal PR opened.", "Open, not urgent"),
    ("Customer-reported slow exports", "Could not reproduce; asked support for a request id.", "Waiting on support"),
    ("Nightly backup job took 2x longer than usual", "Looks like a one-off, watching tonight's run.", "Monitoring"),
    ("PagerDuty test page at 03:12", "Someone was testing the new escalation policy.", "Resolved, no action"),
    ("Memory creep on {h}", "Restarted the worker at 14:05; graph flat since.", "Monitoring"),
    ("Queue backlog on ingest", "Drained after scaling consumers to 6.", "Resolved"),
]
HANDOFF_CONTEXT = [
    "Deploy pipeline for {proj} went red after lunch.",
    "Dev asked for help in #{chan}: local setup of {proj} broken.",
    "Scheduled job on {h} stopped producing output.",
    "Release prep for {proj} blocked.",
    "Alert: job '{proj}-maint' failed twice overnight.",
    "Follow-up from yesterday's incident review on {proj}.",
]
HANDOFF_STILL = [
    "yes. Did not want to change anything else without the owning team.",
    "yes - no obvious cause yet. Next person: start from the error above.",
    "yes, not fixed. Owner pinged ({who}), no reply yet.",
    "yes, failed the same way on retry at {t}.",
    "yes; workaround is to skip the step manually, which is not great.",
]


def style_oncall_handoff(rng: random.Random, ctx: Ctx) -> str:
    ppl = distinct_people(rng, 4)
    out_p, in_p, eng, owner = ppl
    dt = rand_dt(rng)
    team = pick(rng, TEAMS)
    h = ctx.host
    chan = pick(rng, ["dev-help", "platform", "eng-support", "oncall", ctx.project])
    fill = {"proj": ctx.project, "h": h, "chan": chan, "who": "@" + owner["handle"],
            "t": f"{(dt + timedelta(hours=2)):%H:%M}"}
    noise = [(a.format(h=hostname(rng)), b, c) for a, b, c in rng.sample(HANDOFF_NOISE, rng.randint(2, 3))]
    context = pick(rng, HANDOFF_CONTEXT).format(**fill)
    still = pick(rng, HANDOFF_STILL).format(**fill)
    who_ran = pick(rng, [eng["first"], out_p["first"], "I"])
    action = pick(rng, [f"{who_ran} ran `{ctx.cmd}` on {h} (in {ctx.cwd}) to reproduce.",
                        f"{who_ran} re-ran the failing step by hand on {h}: `{ctx.cmd}`",
                        f"Reproduced with `{ctx.cmd}` from {ctx.cwd} on {h}."])
    end = dt + timedelta(days=pick(rng, [1, 7]))
    pos = rng.randint(0, len(noise))
    variant = rng.randrange(4)
    if variant == 0:
        out = [f"# On-call handoff - {team} - {dt:%Y-%m-%d}", "",
               f"**Shift:** {dt:%a %d %b %H:%M} -> {end:%a %d %b %H:%M} UTC",
               f"**Outgoing:** @{out_p['handle']}  **Incoming:** @{in_p['handle']}",
               f"**Pages:** {rng.randint(1, 9)} ({rng.randint(0, 3)} actionable)", "", "## Open items", ""]
        items = [f"- **{a}** - {b} _Status: {c}_" for a, b, c in noise]
        main = "\n".join([f"- **{context}** (SEV{rng.randint(3, 4)})",
                          f"  - Action taken: {action}",
                          "  - Result:", "    ```", indent(ctx.err, "    "), "    ```",
                          f"  - Still broken: {still}"])
        items.insert(pos, main)
        out += items
        out += ["", "## Notes", pick(rng, ["Quiet night otherwise.", "Runbook links updated.", "Dashboards are green apart from the above."])]
        return "\n".join(out)
    if variant == 1:
        out = [f"Subject: [handoff] {team} on-call {dt:%d %b} -> {in_p['first']}", "",
               f"Hi {in_p['first']},", "",
               f"Handing over {team} on-call. Shift was {dt:%a %d %b %H:%M} - {end:%a %d %b %H:%M} UTC.", "",
               "OPEN ITEMS", ""]
        blocks = [f"* {a}\n  Action taken: {b}\n  Status: {c}" for a, b, c in noise]
        main = "\n".join([f"* {context}", f"  Action taken: {action}", "  Output:", "",
                          indent(ctx.err, "      "), "", f"  Still broken: {still}"])
        blocks.insert(pos, main)
        out += ["\n\n".join(blocks), "", "Shout if anything is unclear.", "", f"-- {out_p['first']}"]
        return "\n".join(out)
    if variant == 2:
        out = [f"{team} On-Call Handoff", f"Week {dt.isocalendar()[1]} | {out_p['full']} -> {in_p['full']}",
               "", "| # | Item | Action taken | Status |", "|---|------|--------------|--------|"]
        rows = [(a, b, c) for a, b, c in noise]
        rows.insert(pos, (context, action + " See error below.", "Still broken"))
        for i, (a, b, c) in enumerate(rows, 1):
            out.append(f"| {i} | {a} | {b} | {c} |")
        main_no = pos + 1
        out += ["", f"Item {main_no} - error output:", "", "{code}", f"$ {ctx.cmd}", ctx.err, "{code}", "",
                f"Still broken: {still}", "", f"Last updated by {out_p['full']}, {dt:%d %b %Y %H:%M}"]
        return "\n".join(out)
    out = [f"On-call handoff :pager: {team} :arrow_right: @{in_p['handle']}", "",
           f"Shift: {dt:%a %d %b %H:%M} – {end:%a %d %b %H:%M} UTC · outgoing @{out_p['handle']}", "",
           "Open items"]
    bullets = [f"● {a} — {b} ({c.lower()})" for a, b, c in noise]
    main = "\n".join([f"● {context}", f"   ○ Action taken: {action}", "   ○ It returned:", "```",
                      ctx.err, "```", f"   ○ Still broken: {still}"])
    bullets.insert(pos, main)
    out += bullets
    out += ["", pick(rng, ["Nothing else burning.", "Have a calm shift!", "Runbook for the first item is stale, sorry."])]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# style: rss_feed_entry
# ---------------------------------------------------------------------------

def style_rss_feed_entry(rng: random.Random, ctx: Ctx) -> str:
    me = new_person(rng)
    dt = rand_dt(rng)
    org = pick(rng, ORGS)
    domain = pick(rng, DOMAINS)
    num = rng.randint(10, 7000)
    title = pick(rng, [f"{short_cmd(ctx.cmd, 50)} fails: {short_cmd(ctx.key, 70)}",
                       f"#{num} {short_cmd(ctx.key, 90)}",
                       f"Error running {short_cmd(ctx.cmd, 50)}",
                       f"[{ctx.project}] {short_cmd(ctx.key, 80)}"])
    intro = pick(rng, [f"Running <code>{html_text(ctx.cmd)}</code> fails with the output below.",
                       f"{html_text(me['first'])} reported that <code>{html_text(ctx.cmd)}</code> stops with an error:",
                       f"Steps: run <code>{html_text(ctx.cmd)}</code> from <code>{html_text(ctx.cwd)}</code>.",
                       f"After updating, <code>{html_text(ctx.cmd)}</code> no longer works:"])
    pre = f"<pre><code>{html_text(ctx.err)}</code></pre>"
    variant = rng.randrange(4)
    if variant == 0:
        link = f"https://git.{domain}/{org}/{ctx.project}/issues/{num}"
        item = ["  <item>", f"    <title>{html.escape(title, quote=False)}</title>", f"    <link>{link}</link>",
                f"    <description>{cdata('<p>' + intro + '</p>' + chr(10) + pre)}</description>",
                f"    <author>{me['first'].lower()}@{domain} ({me['full']})</author>",
                f'    <guid isPermaLink="true">{link}</guid>', f"    <pubDate>{rfc822(dt)}</pubDate>", "  </item>"]
        return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>', '<rss version="2.0">', "<channel>",
                          f"  <title>{ctx.project} issues</title>",
                          f"  <link>https://git.{domain}/{org}/{ctx.project}/issues</link>",
                          f"  <description>Feed of issues for {org}/{ctx.project}</description>",
                          f"  <lastBuildDate>{rfc822(dt + timedelta(minutes=rng.randint(1, 90)))}</lastBuildDate>",
                          *item, "</channel>", "</rss>"])
    if variant == 1:
        tag = f"tag:github.com,2008:Issue/{rng.randint(10**8, 3 * 10**9)}"
        gh_user = handle_for(rng, me["first"], me["last"]).replace(".", "-")
        content = f"<p>{intro}</p>\n{pre}\n<p>{html_text(pick(rng, ['Any help appreciated.', 'Happens every time.', 'Environment details on request.']))}</p>"
        return "\n".join([
            "<entry>", f"  <id>{tag}</id>", f"  <published>{iso(dt)}</published>",
            f"  <updated>{iso(dt + timedelta(minutes=rng.randint(0, 300)))}</updated>",
            f'  <link type="text/html" rel="alternate" href="https://github.com/{org}/{ctx.project}/issues/{num}"/>',
            f"  <title>{html.escape(title, quote=False)}</title>",
            f'  <content type="html">{html.escape(content, quote=False)}</content>',
            "  <author>", f"    <name>{gh_user}</name>",
            f"    <uri>https://github.com/{gh_user}</uri>", "  </author>",
            "</entry>",
        ])
    if variant == 2:
        stage = pick(rng, ["Investigating", "Identified", "Monitoring"])
        status_html = (f"<p><small>{MONTHS[dt.month - 1]} <var data-var='date'>{dt.day:>2}</var>, "
                       f"<var data-var='time'>{dt:%H:%M}</var> UTC</small><br><strong>{stage}</strong> - "
                       f"{html_text(pick(rng, ['Builds are failing at the dependency step.', 'Deployments to staging are failing.', 'Scheduled jobs are failing on some runners.']))} "
                       f"The failing step runs <code>{html_text(ctx.cmd)}</code>, which exits with:</p>{pre}")
        link = f"https://status.{domain}/incidents/{rng.getrandbits(48):012x}"
        return "\n".join([
            '<?xml version="1.0" encoding="UTF-8"?>',
            '<rss xmlns:dc="http://purl.org/dc/elements/1.1/" version="2.0">', "  <channel>",
            f"    <title>{ctx.project.title()} Status - Incident History</title>",
            f"    <link>https://status.{domain}</link>",
            "    <description>Statuspage</description>", "    <item>",
            f"      <title>{html.escape(pick(rng, ['Degraded CI builds', 'Failing deployments', 'Job failures on ' + ctx.host]), quote=False)}</title>",
            f"      <description>{cdata(status_html)}</description>",
            f"      <pubDate>{rfc822(dt)}</pubDate>", f"      <link>{link}</link>", f"      <guid>{link}</guid>",
            "    </item>", "  </channel>", "</rss>",
        ])
    key = f"{ctx.project[:4].upper()}-{num}"
    link = f"https://jira.{domain}/browse/{key}"
    return "\n".join([
        "<item>",
        f"    <title>[{key}] {html.escape(title, quote=False)}</title>",
        f"    <link>{link}</link>",
        f'    <project id="{rng.randint(10000, 19999)}" key="{key.split("-")[0]}">{ctx.project}</project>',
        f"    <description>{cdata('<p>' + intro + '</p>' + chr(10) + pre)}</description>",
        f"    <environment>{html.escape(pick(rng, ['Ubuntu 22.04, ' + ctx.host, 'macOS 14.4', 'CI runner ' + ctx.host]), quote=False)}</environment>",
        f'    <key id="{rng.randint(100000, 999999)}">{key}</key>',
        f"    <summary>{html.escape(title, quote=False)}</summary>",
        f'    <type id="1" iconUrl="https://jira.{domain}/images/icons/issuetypes/bug.svg">Bug</type>',
        f'    <status id="1">{pick(rng, ["Open", "In Progress", "To Do"])}</status>',
        f'    <reporter username="{me["first"].lower()}">{me["full"]}</reporter>',
        f"    <created>{dt:%a, %d %b %Y %H:%M:%S} +0000</created>",
        f"    <pubDate>{rfc822(dt)}</pubDate>",
        "</item>",
    ])


# ---------------------------------------------------------------------------
# style: teams_adaptive_card
# ---------------------------------------------------------------------------

def slack_escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def ci_meta(rng: random.Random, ctx: Ctx) -> dict:
    org = pick(rng, ORGS)
    system = pick(rng, ["GitHub Actions", "GitLab CI", "Jenkins", "Buildkite", "cron"])
    run = rng.randint(1000, 99999)
    branch = pick(rng, ["main", "develop", f"feature/{slug(ctx.tool, 10)}-update", "release/2.4"])
    job = pick(rng, ["build", "test", "setup", "nightly", "deploy-staging", "integration"])
    if system == "GitHub Actions":
        url = f"https://github.com/{org}/{ctx.project}/actions/runs/{run}{rng.randint(100000, 999999)}"
    elif system == "GitLab CI":
        url = f"https://gitlab.{pick(rng, DOMAINS)}/{org}/{ctx.project}/-/jobs/{run}"
    elif system == "Jenkins":
        url = f"https://jenkins.{pick(rng, DOMAINS)}/job/{ctx.project}/job/{branch.replace('/', '%2F')}/{run % 900}/console"
    elif system == "Buildkite":
        url = f"https://buildkite.com/{org}/{ctx.project}/builds/{run}"
    else:
        url = f"https://logs.{pick(rng, DOMAINS)}/{ctx.host}/cron/{job}"
    return {"org": org, "system": system, "run": run, "branch": branch, "job": job, "url": url,
            "commit": f"{rng.getrandbits(28):07x}", "exit": exit_code(ctx.err, rng)}


def style_teams_adaptive_card(rng: random.Random, ctx: Ctx) -> str:
    m = ci_meta(rng, ctx)
    output = ctx.err
    if rng.random() < 0.3:
        output = elide(ctx, 40, 12, "… ({n} lines truncated) …")
    title = pick(rng, [f"❌ {ctx.project} / {m['job']} failed", f"{m['system']}: {m['job']} failed on {m['branch']}",
                       f"Job failed: {ctx.project} #{m['run']}", f"[FAILED] {ctx.project} {m['job']}"])
    step_line = pick(rng, [f"Step `{ctx.cmd}` exited with code {m['exit']}",
                           f"Command: `{ctx.cmd}` (exit {m['exit']})",
                           f"Failed command: `{ctx.cmd}`"])
    variant = rng.randrange(4)
    indent_n = pick(rng, [2, 2, 4, None])
    if variant == 0:
        body = [
            {"type": "TextBlock", "text": title, "weight": "Bolder", "size": "Medium", "wrap": True},
            {"type": "FactSet", "facts": [
                {"title": "Repository", "value": f"{m['org']}/{ctx.project}"},
                {"title": "Branch", "value": m["branch"]},
                {"title": "Commit", "value": m["commit"]},
                {"title": "Runner", "value": ctx.host}]},
            {"type": "TextBlock", "text": step_line, "wrap": True},
        ]
        if rng.random() < 0.5:
            body.append({"type": "TextBlock", "text": output, "wrap": True, "fontType": "Monospace",
                         "size": "Small", "color": "Attention"})
        else:
            body.append({"type": "Container", "style": "emphasis", "items": [
                {"type": "TextBlock", "text": ln if ln else " ", "wrap": True, "fontType": "Monospace",
                 "spacing": "None", "size": "Small"} for ln in output.split("\n")]})
        payload = {"type": "message", "attachments": [{
            "contentType": "application/vnd.microsoft.card.adaptive", "contentUrl": None,
            "content": {"$schema": "http://adaptivecards.io/schemas/adaptive-card.json", "type": "AdaptiveCard",
                        "version": pick(rng, ["1.2", "1.4", "1.5"]), "body": body,
                        "actions": [{"type": "Action.OpenUrl", "title": "View run", "url": m["url"]}],
                        "msteams": {"width": "Full"}}}]}
    elif variant == 1:
        payload = {"@type": "MessageCard", "@context": "http://schema.org/extensions",
                   "themeColor": pick(rng, ["d70000", "FF0000", "E81123"]), "summary": title,
                   "sections": [{"activityTitle": title,
                                 "activitySubtitle": f"{m['system']} · {m['branch']} · {m['commit']}",
                                 "facts": [{"name": "Host", "value": ctx.host}, {"name": "Command", "value": ctx.cmd},
                                           {"name": "Exit code", "value": str(m["exit"])}],
                                 "markdown": True},
                                {"title": "Output", "text": "<pre>" + html_text(output) + "</pre>"}],
                   "potentialAction": [{"@type": "OpenUri", "name": "Open log",
                                        "targets": [{"os": "default", "uri": m["url"]}]}]}
    elif variant == 2:
        code = slack_escape(output)
        if len(code) > 2900:
            code = "…" + code[-2880:]
        payload = {"channel": pick(rng, ["#ci-alerts", "#builds", f"#{ctx.project}-dev", "#deploys"]),
                   "text": f"{title}: {ctx.key}",
                   "blocks": [
                       {"type": "header", "text": {"type": "plain_text", "text": title[:150], "emoji": True}},
                       {"type": "section", "fields": [
                           {"type": "mrkdwn", "text": f"*Repo:*\n{m['org']}/{ctx.project}"},
                           {"type": "mrkdwn", "text": f"*Branch:*\n`{m['branch']}`"},
                           {"type": "mrkdwn", "text": f"*Host:*\n{ctx.host}"},
                           {"type": "mrkdwn", "text": f"*Exit:*\n{m['exit']}"}]},
                       {"type": "section", "text": {"type": "mrkdwn", "text": slack_escape(step_line)}},
                       {"type": "section", "text": {"type": "mrkdwn", "text": "```" + code + "```"}},
                       {"type": "context", "elements": [
                           {"type": "mrkdwn", "text": f"<{m['url']}|View logs> · {m['system']} run {m['run']}"}]}]}
    else:
        payload = {"username": pick(rng, ["ci-bot", "Jenkins", "cronbot", "deploy-notifier"]),
                   "icon_emoji": pick(rng, [":rotating_light:", ":x:", ":robot_face:"]),
                   "attachments": [{"color": "danger", "fallback": f"{title} - {ctx.key}",
                                    "title": title, "title_link": m["url"],
                                    "fields": [{"title": "Command", "value": f"`{slack_escape(ctx.cmd)}`", "short": False},
                                               {"title": "Host", "value": ctx.host, "short": True},
                                               {"title": "Exit code", "value": str(m["exit"]), "short": True}],
                                    "text": "```\n" + slack_escape(output) + "\n```",
                                    "mrkdwn_in": ["text", "fields"],
                                    "footer": m["system"], "ts": int(rand_dt(rng).timestamp())}]}
    text = json.dumps(payload, indent=indent_n, ensure_ascii=False)
    prefix = pick(rng, ["", "", f"POST {pick(rng, ['https://hooks.slack.com/services/T0000/B0000/XXXXXXXX', 'https://outlook.office.com/webhook/…/IncomingWebhook/…', 'https://prod-12.westeurope.logic.azure.com:443/workflows/…/triggers/manual/paths/invoke'])}\nContent-Type: application/json\n\n"])
    if variant >= 2 and "slack" not in prefix and prefix:
        prefix = "POST https://hooks.slack.com/services/T0000/B0000/XXXXXXXX\nContent-Type: application/json\n\n"
    if variant < 2 and "slack" in prefix:
        prefix = "POST https://outlook.office.com/webhook/…/IncomingWebhook/…\nContent-Type: application/json\n\n"
    return prefix + text


# ---------------------------------------------------------------------------
# style: grafana_alert
# ---------------------------------------------------------------------------

def loki_lines(rng: random.Random, ctx: Ctx, dt: datetime, stamped: bool, max_lines: int) -> str:
    lines = elide(ctx, max_lines, 10, "[... {n} lines omitted ...]").split("\n")
    if not stamped:
        return "\n".join(lines)
    unit = pick(rng, [ctx.project, "cron", "job-runner", ctx.tool.split("/")[-1]])
    pid = rng.randint(900, 65000)
    out = []
    t = dt
    for ln in lines:
        t += timedelta(milliseconds=rng.randint(0, 40))
        out.append(f"{iso(t, frac=True)} {ctx.host} {unit}[{pid}]: {ln}")
    return "\n".join(out)


def style_grafana_alert(rng: random.Random, ctx: Ctx) -> str:
    dt = rand_dt(rng)
    domain = pick(rng, DOMAINS)
    alertname = pick(rng, ["JobFailed", "CronJobFailed", "DeployStepFailed", "BatchCommandError",
                           "ScriptExitNonZero", "PipelineStepFailed"])
    folder = pick(rng, TEAMS)
    job = pick(rng, [f"{ctx.project}-nightly", f"{ctx.project}-deploy", "maintenance", f"{ctx.project}-sync", "backup"])
    uid = f"{rng.getrandbits(40):010x}"
    stamped = rng.random() < 0.5
    logq = f'{{host="{ctx.host}", job="{job}"}} |= "" | tail 40' if rng.random() < 0.3 else \
        f'{{job="{job}", host="{ctx.host}"}}'
    logs = loki_lines(rng, ctx, dt, stamped, 45)
    status = exit_code(ctx.err, rng)
    desc = (f"Command `{ctx.cmd}` on {ctx.host} exited with status {status}.\n"
            f"Last output lines from Loki ({logq}):\n{logs}")
    summary = pick(rng, [f"{job} failed on {ctx.host}", f"{ctx.tool.split('/')[-1]} step failing in {job}",
                         f"Job {job}: {short_cmd(ctx.key, 70)}"])
    source = f"https://grafana.{domain}/alerting/grafana/{uid}/view?orgId=1"
    silence = (f"https://grafana.{domain}/alerting/silence/new?alertmanager=grafana&matcher=alertname%3D{alertname}"
               f"&matcher=host%3D{ctx.host}&orgId=1")
    value = pick(rng, ["A=1", "B=1, C=1", "A=2", "B=3", "failed=1"])
    variant = rng.randrange(4)
    if variant == 0:
        return "\n".join([
            f"[FIRING:1] {alertname} {folder} ({ctx.host} {job})",
            "**Firing**", "",
            f"Value: {value}",
            "Labels:",
            f" - alertname = {alertname}",
            f" - grafana_folder = {folder}",
            f" - host = {ctx.host}",
            f" - job = {job}",
            f" - severity = {pick(rng, ['warning', 'critical', 'page'])}",
            "Annotations:",
            " - description = " + desc,
            f" - summary = {summary}",
            f"Source: {source}",
            f"Silence: {silence}",
            f"Dashboard: https://grafana.{domain}/d/{uid[:8]}?orgId=1",
            f"Panel: https://grafana.{domain}/d/{uid[:8]}?orgId=1&viewPanel={rng.randint(1, 30)}",
        ])
    if variant == 1:
        payload = {
            "receiver": pick(rng, ["team-webhook", "oncall", "slack-platform"]),
            "status": "firing",
            "alerts": [{
                "status": "firing",
                "labels": {"alertname": alertname, "host": ctx.host, "job": job,
                           "severity": pick(rng, ["warning", "critical"])},
                "annotations": {"description": desc, "summary": summary},
                "startsAt": iso(dt, frac=True),
                "endsAt": "0001-01-01T00:00:00Z",
                "generatorURL": f"http://prometheus.{domain}:9090/graph?g0.expr=job_last_exit_code%7Bjob%3D%22{job}%22%7D+%3E+0",
                "fingerprint": f"{rng.getrandbits(64):016x}",
            }],
            "groupLabels": {"alertname": alertname},
            "commonLabels": {"alertname": alertname, "host": ctx.host, "job": job},
            "commonAnnotations": {"summary": summary},
            "externalURL": f"http://alertmanager.{domain}:9093",
            "version": "4",
            "groupKey": f'{{}}:{{alertname="{alertname}"}}',
            "truncatedAlerts": 0,
        }
        return json.dumps(payload, indent=2, ensure_ascii=False)
    if variant == 2:
        return "\n".join([
            f"Subject: [FIRING:1] {alertname} ({ctx.host} {job})", "",
            f"1 alert for alertname={alertname}", "",
            "View In Alertmanager", "",
            "[1] Firing", "",
            "Labels", f"alertname = {alertname}", f"host = {ctx.host}", f"job = {job}",
            f"severity = {pick(rng, ['warning', 'critical'])}", "",
            "Annotations", f"description = {desc}", f"summary = {summary}", "",
            f"Source: http://prometheus.{domain}:9090/graph?g0.expr=job_last_exit_code",
            "", "Sent by Alertmanager",
        ])
    return "\n".join([
        f"Grafana · {folder}", "",
        f"[FIRING:1] {alertname}", "",
        "1 firing alert instance", "",
        f"{alertname}", f"Started {dt:%Y-%m-%d %H:%M:%S} +0000 UTC", "",
        f"Value: {value}", "",
        "Summary", summary, "",
        "Description", desc, "",
        "Labels", f"alertname {alertname}", f"grafana_folder {folder}", f"host {ctx.host}", f"job {job}", "",
        "View alert   Silence   View dashboard   View panel", "",
        f"Sent by Grafana v{pick(rng, ['10.4.1', '11.0.0', '11.2.2', '10.2.3'])} © {dt.year} Grafana Labs",
    ])


# ---------------------------------------------------------------------------
# style: man_diagnostics
# ---------------------------------------------------------------------------

VOWELS = set("aeiouy")


def justify(text: str, width: int, hyphenate: bool = True) -> list[str]:
    words = text.split()
    rows: list[list[str]] = []
    cur: list[str] = []
    while words:
        w = words.pop(0)
        if not cur:
            cur = [w]
            continue
        cur_len = len(" ".join(cur))
        if cur_len + 1 + len(w) <= width:
            cur.append(w)
            continue
        if hyphenate and len(w) >= 8 and re.match(r"^[A-Za-z]+[,.;:]?$", w):
            room = width - cur_len - 2
            cut = None
            core = w.rstrip(",.;:")
            hi = min(room, len(core) - 3)
            for suffix in ("ing", "tion", "ment", "ness", "able", "ity", "ally", "ive"):
                c = len(core) - len(suffix)
                if core.endswith(suffix) and 3 <= c <= hi:
                    cut = c
                    break
            if cut is None:
                for c in range(hi, 2, -1):
                    a, b = core[c - 1].lower(), core[c].lower()
                    if a not in VOWELS and b not in VOWELS and a != b and core[c - 2].lower() in VOWELS:
                        cut = c
                        break
            if cut:
                cur.append(w[:cut] + "-")
                rows.append(cur)
                cur = [w[cut:]]
                continue
        rows.append(cur)
        cur = [w]
    if cur:
        rows.append(cur)
    out: list[str] = []
    for i, row in enumerate(rows):
        if i == len(rows) - 1 or len(row) == 1:
            out.append(" ".join(row))
            continue
        gaps = len(row) - 1
        spaces = width - sum(len(w) for w in row)
        base, extra = divmod(spaces, gaps)
        line = ""
        for j, w in enumerate(row[:-1]):
            # groff alternates the side that receives the extra spaces; start from the right
            add = 1 if (gaps - 1 - j) < extra else 0
            line += w + " " * (base + add)
        out.append(line + row[-1])
    return out


def bold(s: str, mode: str) -> str:
    if mode == "bs":
        return "".join(ch + "\b" + ch if ch.strip() else ch for ch in s)
    if mode == "caret":
        return "".join(ch + "^H" + ch if ch.strip() else ch for ch in s)
    return s


def uline(s: str, mode: str) -> str:
    if mode == "bs":
        return "".join("_\b" + ch if ch.strip() else ch for ch in s)
    if mode == "caret":
        return "".join("_^H" + ch if ch.strip() else ch for ch in s)
    return s


MAN_DIAG_PARAS = [
    "When {prog} cannot complete the requested operation it writes a diagnostic message to standard error and exits with a non-zero status. Messages from underlying tools and libraries are passed through unchanged, so the text may not mention {prog} at all.",
    "Most failures are reported on the last line of output; the preceding lines give context such as the file, package, host or object that was being processed when the error occurred.",
    "The following session, reported by a user, shows a typical failure. The command and its complete output are reproduced verbatim:",
    "If the message is not self-explanatory, rerun the command with increased verbosity and include the complete output, the exact command line and the version of {prog} in any bug report.",
    "Diagnostics are not localized; searching for the exact text of the final line is usually the quickest way to find related reports.",
]


def style_man_diagnostics(rng: random.Random, ctx: Ctx) -> str:
    prog = ctx.tool.split("/")[-1]
    info = TOOL_INFO.get(ctx.tool)
    shellish = bool(re.match(r"^(ba|z|da)?sh: ", ctx.err)) or ctx.tool not in TOOL_INFO
    project_page = shellish or rng.random() < 0.25
    if project_page:
        page = f"{ctx.project}-troubleshooting".upper()
        sect = "7"
        center = f"{ctx.project} Manual"
        name_line = f"{ctx.project}-troubleshooting - common errors when working on {ctx.project}"
        prog_disp = ctx.project
        heading = "TROUBLESHOOTING"
    else:
        sub = ""
        toks = tokens(split_segments(ctx.cmd)[0])
        if prog in SUBCOMMAND_TOOLS and len(toks) > 1:
            i = 1
            while i < len(toks) and (toks[i].startswith("-") or "=" in toks[i]):
                i += 1
            if i < len(toks) and re.match(r"^[a-z][a-z-]+$", toks[i]):
                sub = toks[i]
        page = (f"{prog}-{sub}" if sub else prog).upper()
        sect = "1"
        center = pick(rng, ["User Commands", "General Commands Manual", f"{prog.capitalize()} Manual"])
        if sub:
            name_line = f"{page.lower()} - the {sub} command of {prog}"
        else:
            name_line = f"{page.lower()} - {info[0][0].lower() + info[0][1:].rstrip('.') if info else 'command-line tool'}"
        prog_disp = page.lower().replace("-", " ") if sub else prog
        heading = pick(rng, ["DIAGNOSTICS", "DIAGNOSTICS", "TROUBLESHOOTING"])
    dt = rand_dt(rng)
    version = pick(rng, ["1.4.2", "2.3.0", "0.9.8", "3.1", "1.12.5"])
    if info and not project_page:
        version = re.sub(r"^\d+:", "", info[3])
        version = re.split(r"[-+~]", version)[0]
    variant = rng.randrange(4)
    if variant == 3:
        # GNU info node
        node_no = rng.randint(4, 12)
        sec_no = rng.randint(1, 6)
        title = f'{node_no}.{sec_no} "{short_cmd(ctx.key, 60)}"'
        paras = [p.format(prog=prog_disp) for p in MAN_DIAG_PARAS[:2]]
        out = [f"File: {ctx.project}.info,  Node: Troubleshooting,  Next: Reporting Bugs,  Prev: "
               f"{pick(rng, ['Configuration', 'Invoking', 'Environment Variables'])},  Up: Top", "",
               f"{node_no} Troubleshooting", "*" * len(f"{node_no} Troubleshooting"), ""]
        out += ["   " + "\n".join(textwrap.wrap(paras[0], 72, subsequent_indent="")).replace("\n", "\n"), ""]
        out += [title, "=" * len(title), "",
                "   " + "\n".join(textwrap.wrap(f"A failed invocation of {prog_disp} looks like this:", 72)), ""]
        out += [indent(f"$ {ctx.cmd}\n{ctx.err}", "     "), ""]
        out += ["\n".join(textwrap.wrap(paras[1], 72, initial_indent="   ")), ""]
        out += ["   *Note Reporting Bugs::, for what to include when the message above is not enough.", ""]
        return "\n".join(out)
    mode = {0: "plain", 1: "plain", 2: pick(rng, ["bs", "caret"])}[variant]
    width = pick(rng, [78, 80])
    left = f"{page}({sect})"
    gap = width - 2 * len(left) - len(center)
    lpad = max(1, gap // 2)
    rpad = max(1, gap - lpad)
    header = left + " " * lpad + center + " " * rpad + left
    foot_left = f"{prog_disp} {version}" if not project_page else f"{ctx.project} {dt.year}"
    foot_mid = f"{LONG_MONTHS[dt.month - 1]} {dt.year}"
    fgap = width - len(foot_left) - len(foot_mid) - len(left)
    footer = foot_left + " " * max(1, fgap // 2) + foot_mid + " " * max(1, fgap - fgap // 2) + left
    body_w = width - 7 - rng.randint(0, 6)
    paras = [p.format(prog=prog_disp) for p in MAN_DIAG_PARAS]
    out = [header, "", bold("NAME", mode)]
    out += ["       " + r for r in justify(name_line, body_w, hyphenate=False)]
    out += [""]
    if not project_page and rng.random() < 0.6:
        out += [bold("SYNOPSIS", mode), "       " + bold(prog_disp, mode) + " [" + uline("options", mode) + "] ...", ""]
    if rng.random() < 0.5:
        out += [bold("DESCRIPTION", mode)]
        out += ["       " + r for r in justify(
            f"This page describes the messages printed by {prog_disp} and what to collect before asking for help. "
            f"It was last revised for {prog_disp} {version}.", body_w)]
        out += ["", "       ...", ""]
    out += [bold(heading, mode)]
    chosen = [paras[0], paras[2]] if rng.random() < 0.5 else [paras[1], paras[2]]
    for para in chosen:
        out += ["       " + r for r in justify(para, body_w)]
        out += [""]
    ex = indent(f"$ {ctx.cmd}\n{ctx.err}", "              ")
    if mode != "plain":
        ex_lines = ex.split("\n")
        ex_lines[0] = ex_lines[0].replace(ctx.cmd, bold(ctx.cmd, mode), 1)
        ex = "\n".join(ex_lines)
    out += [ex, ""]
    out += ["       " + r for r in justify(paras[3], body_w)]
    out += ["", bold("EXIT STATUS", mode),
            "       " + pick(rng, ["0 on success, and >0 if an error occurs.",
                                   "Zero on success; non-zero when any error was reported.",
                                   "1 on any failure described above."]), ""]
    see_also = pick(rng, ["git(1), ssh(1), bash(1)", "make(1), gcc(1)", f"{prog}(1), {ctx.project}(7)",
                          "journalctl(1), systemctl(1)", "bash(1), environ(7)"])
    out += [bold("SEE ALSO", mode), "       " + see_also, "", footer]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# style: code_review_audio
# ---------------------------------------------------------------------------

CALL_OPEN = [
    "okay so um can everyone see my screen yeah cool so this is the branch with the {thing} changes",
    "right so uh where were we yeah I wanted to show you the thing that broke on {proj}",
    "okay recording's on so um this is the review for the {thing} PR",
    "so yeah um before we look at the diff I just want to run it once so we know where we are",
]
CALL_THINGS = ["config cleanup", "dependency bump", "deploy script", "migration", "build refactor",
               "onboarding docs", "new endpoint", "caching"]
CALL_RUN = [
    "so I'm gonna run uh {sp} and uh let's see",
    "okay so the command is {sp} um just from the project root",
    "I'll just type it in so it's {sp} yeah enter",
    "let me run um {sp} like the readme says",
]
CALL_FAIL = [
    "and yeah there it is it fails um let me paste it in the chat so we have the exact text",
    "oh okay so that's the error I was talking about I'll put it in the chat",
    "and it dies right away um I'll drop the output in the chat because it's hard to read from here",
    "yeah see so that's that's what I get every time let me copy it into the chat",
]
CALL_OTHER = [
    "hm has that ever worked on your machine",
    "did this start after the rebase or was it always like that",
    "can you scroll up a bit I want to see the first line",
    "yeah I think I've seen something like that before but I don't remember what it was",
    "okay let's not go down the rabbit hole now let's just note it",
    "is that the same on CI or only locally",
    "wait which version of {tool} is that",
]
CALL_READ = [
    "so the important bit is it says {said}",
    "right so it literally says {said} which um okay",
    "yeah the last part {said} that's the thing",
]
CALL_CLOSE = [
    "okay um I'll make a ticket for that and we can continue with the diff",
    "cool let's uh let's park it I'll look after the call",
    "okay yeah that makes sense let's move on to the next file",
    "alright I'll ping the channel about it and we'll see",
]


def say(text: str, rng: random.Random) -> str:
    s = text
    if rng.random() < 0.3:
        s = re.sub(r"\bgit\b", "get", s)
    if rng.random() < 0.6:
        for word, heard in (("kubectl", "cube control"), ("psql", "P SQL"), ("sqlite3", "sqlite three"),
                            ("python3", "python three"), ("javac", "java C"), ("gcc", "GCC")):
            s = re.sub(r"\b" + word + r"\b", heard, s)
    if rng.random() < 0.4:
        s = s.replace(" dot py", ".py").replace(" dot js", ".js").replace(" dot sh", ".sh")
    return s


def spoken_key(key: str) -> str:
    s = re.sub(r"[`'\"()\[\]{}<>]", "", key)
    s = re.sub(r"[:;,]", "", s)
    s = re.sub(r"\s+", " ", s).strip().lower()
    return s[:140]


def style_code_review_audio(rng: random.Random, ctx: Ctx) -> str:
    ppl = distinct_people(rng, 3)
    n_speak = rng.randint(2, 3)
    speakers = ppl[:n_speak]
    runner = rng.randrange(n_speak)
    others = [i for i in range(n_speak) if i != runner]
    fill = {"thing": pick(rng, CALL_THINGS), "proj": ctx.project, "tool": ctx.tool.split("/")[-1],
            "sp": say(spoken(ctx.cmd), rng), "said": spoken_key(ctx.key)}
    segs: list[tuple[int, str]] = []   # (speaker index or -1 for chat, text)
    segs.append((runner, pick(rng, CALL_OPEN).format(**fill)))
    if rng.random() < 0.5:
        segs.append((pick(rng, others), pick(rng, ["yep I can see it", "yeah looks good go ahead", "mhm"])))
    segs.append((runner, pick(rng, CALL_RUN).format(**fill)))
    segs.append((runner, pick(rng, CALL_FAIL).format(**fill)))
    chat_name = speakers[runner]["first"] if rng.random() < 0.7 else f"{speakers[runner]['first']} {speakers[runner]['last']}"
    if rng.random() < 0.4:
        segs.append((-1, f"[chat] {chat_name}: {ctx.cmd}"))
    segs.append((-1, f"[chat] {chat_name}: {ctx.err}"))
    other_lines = [x for x in CALL_OTHER if "{tool}" not in x or ctx.tool in TOOL_INFO
                   and ctx.tool not in ("source", "cd", "echo", "mkdir", "rm", "cp")]
    remarks = rng.sample(other_lines, 2)
    segs.append((pick(rng, others), remarks[0].format(**fill)))
    if rng.random() < 0.7:
        segs.append((runner, pick(rng, CALL_READ).format(**fill)))
    segs.append((pick(rng, others), remarks[1].format(**fill)))
    segs.append((runner, pick(rng, CALL_CLOSE).format(**fill)))
    t = rng.randint(0, 1500)
    variant = rng.randrange(3)
    out: list[str] = []
    if variant == 0:
        out.append(pick(rng, [f"Transcript - {ctx.project} review", "Auto-generated transcript", "Recording transcript (auto)"]))
        out.append("")
    for who, text in segs:
        if who == -1:
            out.append(text)
            out.append("")
            continue
        t += rng.randint(24, 36)
        if variant == 0:
            out.append(f"[{hms(t)}] {text}")
        elif variant == 1:
            out.append(hms(t))
            out.append(f"Speaker {who + 1}: {text}")
        else:
            out.append(f"Speaker {who + 1}  {short_hms(t)}")
            out.append(text)
        out.append("")
    return "\n".join(out).rstrip()


# ---------------------------------------------------------------------------
# driver
# ---------------------------------------------------------------------------

STYLE_FUNCS = {
    "phabricator_task": style_phabricator_task,
    "lab_notebook": style_lab_notebook,
    "faq_entry": style_faq_entry,
    "tldr_page": style_tldr_page,
    "terminal_html": style_terminal_html,
    "twitch_chat": style_twitch_chat,
    "lms_quiz": style_lms_quiz,
    "reportbug_mail": style_reportbug_mail,
    "github_discussion": style_github_discussion,
    "suggested_change_review": style_suggested_change_review,
    "oncall_handoff": style_oncall_handoff,
    "rss_feed_entry": style_rss_feed_entry,
    "teams_adaptive_card": style_teams_adaptive_card,
    "grafana_alert": style_grafana_alert,
    "man_diagnostics": style_man_diagnostics,
    "code_review_audio": style_code_review_audio,
}


def deal_styles(n_cases: int) -> list[tuple[str, str]]:
    """Deal two cards per case from a stream of shuffled 16-card decks.

    A deck has an even number of cards, so the two cards of a case always come from
    the same deck and are therefore different styles.
    """
    rng = random.Random(DECK_SEED)
    cards: list[str] = []
    while len(cards) < 2 * n_cases:
        deck = list(STYLES)
        rng.shuffle(deck)
        cards.extend(deck)
    return [(cards[2 * i], cards[2 * i + 1]) for i in range(n_cases)]


def build_rows() -> list[dict]:
    cases = load_cases()
    pairs = deal_styles(len(cases))
    rows: list[dict] = []
    for case, pair in zip(cases, pairs, strict=True):
        for slot, style in enumerate(pair):
            rng = random.Random(f"{ROW_SEED}|{case.file}|{case.index}|{slot}|{style}")
            ctx = make_ctx(case, rng)
            text = STYLE_FUNCS[style](rng, ctx)
            rows.append({"file": case.file, "case": case.index, "style": style, "text": text})
    return rows


def main() -> None:
    rows = build_rows()
    with OUT_PATH.open("w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["style"]] = counts.get(row["style"], 0) + 1
    print(f"wrote {len(rows)} rows to {OUT_PATH}")
    for style in STYLES:
        print(f"  {style:<24} {counts.get(style, 0)}")


if __name__ == "__main__":
    main()
