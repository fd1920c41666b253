"""Git errors get a specific next step from facts in the repository (assistant/diagnose/git_errors.py) and from
rules as data (rules/git.toml), in temporary repositories where git itself produces the conflict, the rejected
push and the other messages. The shell's errors are in tests/test_diagnose_shell.py.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from proactive.assistant.diagnose import (
    Situation,
    diagnose,
    git_errors,
)

from .diagnose_support import commands

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


# ---------------------------------------------------------------- git, in real repositories

GIT_ENV = {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "T",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
           "LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0"}


def run_git(cwd: Path, *args: str, ok: bool = True) -> str:
    env = {**os.environ, **GIT_ENV}
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=30)
    if ok:
        assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def new_repo(path: Path, content: str = "x = 1\n") -> Path:
    path.mkdir(parents=True)
    run_git(path, "init", "-q", "-b", "main")
    (path / "app.py").write_text(content)
    run_git(path, "add", ".")
    run_git(path, "commit", "-qm", "one")
    return path


@needs_git
def test_a_real_merge_conflict_names_the_conflicted_files(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo")
    (repo / "notes.md").write_text("a\n")
    run_git(repo, "add", ".")
    run_git(repo, "commit", "-qm", "notes")
    run_git(repo, "switch", "-qc", "feature")
    (repo / "app.py").write_text("x = 2\n")
    (repo / "notes.md").write_text("b\n")
    run_git(repo, "commit", "-qam", "feature")
    run_git(repo, "switch", "-q", "main")
    (repo / "app.py").write_text("x = 3\n")
    (repo / "notes.md").write_text("c\n")
    run_git(repo, "commit", "-qam", "main")
    message = run_git(repo, "merge", "feature", ok=False)
    assert "CONFLICT (content): Merge conflict in app.py" in message
    d = diagnose(Situation(message, cwd=str(repo)))
    assert d is not None and d.rule == "git.merge_conflict" and d.source == "the repository's unmerged files"
    assert d.details["files"] == "app.py, notes.md" and "git add app.py notes.md" in commands(d)
    assert "git commit --no-edit" in commands(d) and "git merge --abort" in commands(d)
    # without the working directory, the message alone names them
    d = diagnose(Situation(message))
    assert d is not None and d.details["files"] == "app.py, notes.md"
    # a later command that refuses because of them, in the same repository
    message = run_git(repo, "pull", ".", "feature", ok=False)
    d = diagnose(Situation(message, cwd=str(repo)))
    assert d is not None and d.rule == "git.merge_conflict" and "app.py" in d.problem
    # a rebase stopped on the same conflict says how to continue the rebase
    run_git(repo, "merge", "--abort")
    message = run_git(repo, "rebase", "feature", ok=False)
    d = diagnose(Situation(message, cwd=str(repo)))
    assert d is not None and "git rebase --continue" in commands(d) and "git rebase --abort" in commands(d)
    run_git(repo, "rebase", "--abort")


@needs_git
def test_a_real_rejected_push_gets_pull_rebase(tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    run_git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    a = new_repo(tmp_path / "a")
    run_git(a, "push", "-q", str(remote), "main")
    run_git(tmp_path, "clone", "-q", str(remote), "b")
    b = tmp_path / "b"
    (b / "b.txt").write_text("b\n")
    run_git(b, "add", ".")
    run_git(b, "commit", "-qm", "b")
    run_git(b, "push", "-q")
    (a / "a.txt").write_text("a\n")
    run_git(a, "add", ".")
    run_git(a, "commit", "-qm", "a")
    message = run_git(a, "push", str(remote), "main", ok=False)
    assert "[rejected]" in message
    d = diagnose(Situation(message, cwd=str(a)))
    assert d is not None and d.rule == "git.push_rejected" and d.steps[0].command == "git pull --rebase"
    # the other side of it: b is behind after a's push
    run_git(a, "pull", "-q", "--rebase", str(remote), "main")
    run_git(a, "push", "-q", str(remote), "main")
    run_git(b, "fetch", "-q")
    d = diagnose(Situation(run_git(b, "status"), cwd=str(b)))
    assert d is not None and d.rule == "git.behind" and d.steps[0].command == "git pull --ff-only"


@needs_git
def test_real_git_messages_get_their_step(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo")
    sha = run_git(repo, "rev-parse", "HEAD").strip()
    # detached HEAD
    message = run_git(repo, "checkout", sha)
    d = diagnose(Situation(message, cwd=str(repo)))
    assert d is not None and d.rule == "git.detached_head" and "git switch -c" in commands(d)
    run_git(repo, "switch", "-q", "main")
    # local changes in the way
    run_git(repo, "switch", "-qc", "other")
    (repo / "app.py").write_text("x = 5\n")
    run_git(repo, "commit", "-qam", "other")
    run_git(repo, "switch", "-q", "main")
    (repo / "app.py").write_text("x = 6\n")
    message = run_git(repo, "switch", "other", ok=False)
    d = diagnose(Situation(message, cwd=str(repo)))
    assert d is not None and d.rule == "git.local_changes" and d.steps[0].command == "git stash"
    run_git(repo, "checkout", "--", "app.py")
    # a mistyped branch
    message = run_git(repo, "checkout", "ohter", ok=False)
    assert "did not match any file(s) known to git" in message
    d = diagnose(Situation(message, cwd=str(repo)))
    assert d is not None and d.rule == "git.pathspec" and d.steps[0].command == "git switch other"
    # unrelated histories
    other = new_repo(tmp_path / "other", "y = 1\n")  # another first commit: no history in common
    message = run_git(repo, "pull", "--no-rebase", str(other), "main", ok=False)
    d = diagnose(Situation(message, cwd=str(repo)))
    assert d is not None and d.rule == "git.unrelated_histories" and "--allow-unrelated-histories" in commands(d)


@needs_git
def test_src_refspec_in_a_repository_without_a_commit_or_with_master(tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    run_git(tmp_path, "init", "-q", "--bare", str(remote))
    empty = tmp_path / "empty"
    empty.mkdir()
    run_git(empty, "init", "-q", "-b", "main")
    message = run_git(empty, "push", str(remote), "main", ok=False)
    assert "src refspec main does not match any" in message
    d = diagnose(Situation(message, cwd=str(empty)))
    assert d is not None and d.rule == "git.src_refspec" and "git commit" in d.steps[0].command
    master = tmp_path / "master"
    master.mkdir()
    run_git(master, "init", "-q", "-b", "master")
    (master / "f").write_text("f\n")
    run_git(master, "add", ".")
    run_git(master, "commit", "-qm", "f")
    message = run_git(master, "push", str(remote), "main", ok=False)
    d = diagnose(Situation(message, cwd=str(master)))
    assert d is not None and d.steps[0].command == "git push -u origin master"
    assert "git branch -M main" in commands(d)
    d = diagnose(Situation(message))  # no repository known: both likely causes
    assert d is not None and "git commit" in commands(d) and "git branch -M main" in commands(d)


@needs_git
def test_not_a_repository_finds_the_project_folder(tmp_path: Path) -> None:
    new_repo(tmp_path / "work" / "site")
    plain = tmp_path / "work"
    message = run_git(plain, "status", ok=False)
    assert "fatal: not a git repository" in message
    d = diagnose(Situation(message, cwd=str(plain)))
    assert d is not None and d.rule == "git.not_a_repository"
    assert d.steps[0].command == "cd site" and d.steps[-1].command == "git init"
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    d = diagnose(Situation(message, cwd=str(lonely)))
    assert d is not None and d.steps[0].command == "git init"
    # the file being edited lies in a repository elsewhere
    d = diagnose(Situation(message, cwd=str(lonely), file=str(tmp_path / "work" / "site" / "app.py")))
    assert d is not None and d.steps[0].command == f"cd {tmp_path / 'work' / 'site'}"


@needs_git
def test_git_runs_only_in_the_given_folder_and_only_locally(tmp_path: Path) -> None:
    assert git_errors.git(None, "status") is None  # no cwd: git is not run at all
    assert git_errors.git(str(tmp_path / "absent"), "status") is None
    message = "error: pathspec 'mian' did not match any file(s) known to git"
    d = diagnose(Situation(message))
    assert d is not None and d.steps[0].command == "git fetch && git switch mian"  # a branch only pushed
    assert d.steps[1].command == "git branch -a"


@pytest.mark.parametrize("message", [
    "On branch main\nnothing to commit, working tree clean",
    "Already up to date.",
    "To github.com:ana/site.git\n   1a2b3c4..5d6e7f8  main -> main",
])
def test_git_messages_that_are_not_errors_give_none(message: str) -> None:
    assert diagnose(Situation(message)) is None
