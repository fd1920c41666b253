"""git errors: a merge conflict, not a repository, a pathspec that matches nothing, a branch with no commit to
push; then the rules as data (`rules/git.toml`: rejected push, detached HEAD, local changes, unrelated
histories...).

Facts come from the repository in the Situation's working directory, and only when one is given: local git
commands (`git diff --name-only --diff-filter=U`, `git branch`, `git rev-parse`) with a short timeout, never a
command that reaches the network, never a prompt.
"""

from __future__ import annotations

import difflib
import logging
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

from . import Diagnosis, Situation, Step, diagnoser, rules

log = logging.getLogger(__name__)

TIMEOUT = 2.0


def git(cwd: str | None, *args: str) -> str | None:
    """The output of a local git command run in `cwd`, or None when there is no cwd, no git, or it fails."""
    if not cwd or not os.path.isdir(cwd):
        return None
    exe = shutil.which("git")
    if exe is None:
        return None
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "USER")}
    env.update(LC_ALL="C", GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0", GIT_PAGER="cat", GIT_ASKPASS="true",
               GIT_SSH_COMMAND="false")
    try:
        done = subprocess.run([exe, "-C", cwd, "--no-pager", *args], capture_output=True, text=True,
                              timeout=TIMEOUT, env=env, stdin=subprocess.DEVNULL, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        log.debug("git %s in %s failed: %s", args, cwd, exc)
        return None
    return done.stdout if done.returncode == 0 else None


def _lines(text: str | None) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def _quote_all(paths: list[str]) -> str:
    return " ".join(shlex.quote(p) for p in paths)


# ---------------------------------------------------------------- merge conflict

_CONFLICT = re.compile(r"CONFLICT \((?P<kind>[^)]*)\): (?:Merge conflict in (?P<file>\S+)|(?P<other>\S+) deleted in)")
_CONFLICT_STATE = re.compile(r"Automatic merge failed; fix conflicts|you need to resolve your current index first|"
                             r"Pulling is not possible because you have unmerged files|"
                             r"Committing is not possible because you have unmerged files|"
                             r"error: could not apply [0-9a-f]+|Resolve all conflicts manually")


def _operation(cwd: str | None, error: str) -> str:
    """The operation stopped by the conflict: 'rebase', 'cherry-pick', 'revert' or 'merge'."""
    git_dir = git(cwd, "rev-parse", "--absolute-git-dir")
    if git_dir:
        root = Path(git_dir.strip())
        if (root / "rebase-merge").exists() or (root / "rebase-apply").exists():
            return "rebase"
        if (root / "CHERRY_PICK_HEAD").exists():
            return "cherry-pick"
        if (root / "REVERT_HEAD").exists():
            return "revert"
        if (root / "MERGE_HEAD").exists():
            return "merge"
    if re.search(r"could not apply|git rebase --continue", error):
        return "rebase"
    return "merge"


@diagnoser
def merge_conflict(situation: Situation) -> Diagnosis | None:
    """A merge, rebase or cherry-pick stopped by conflicts: the conflicted files (from the repository when
    the working directory is one, else from the message) and how to finish or give up."""
    in_message = [m["file"] or m["other"] for m in _CONFLICT.finditer(situation.error)]
    if not in_message and not _CONFLICT_STATE.search(situation.error):
        return None
    unmerged = _lines(git(situation.cwd, "diff", "--name-only", "--diff-filter=U"))
    files = unmerged or list(dict.fromkeys(in_message))
    op = _operation(situation.cwd, situation.error)
    finish = {"merge": "git commit --no-edit", "rebase": "git rebase --continue",
              "cherry-pick": "git cherry-pick --continue", "revert": "git revert --continue"}[op]
    named = ", ".join(files[:8]) + (f" and {len(files) - 8} more" if len(files) > 8 else "")
    steps = []
    if files:
        steps.append(Step(f"Open the conflicted file(s) and keep the right text between the <<<<<<<, ======= and "
                          f">>>>>>> markers: {named}."))
        steps.append(Step("Mark them resolved.", f"git add {_quote_all(files[:8])}" if len(files) <= 8 else "git add -u"))
    else:
        steps.append(Step("List the conflicted files, then resolve the <<<<<<< ======= >>>>>>> blocks in each.",
                          "git diff --name-only --diff-filter=U"))
        steps.append(Step("Mark them resolved.", "git add -u"))
    steps.append(Step(f"Finish the {op}.", finish))
    steps.append(Step(f"Or give up and return to where you were before the {op}.", f"git {op} --abort"))
    details = {"files": ", ".join(files), "operation": op}
    problem = (f"The {op} stopped on conflicts in {named}." if files else f"The {op} stopped on conflicts.")
    return Diagnosis("git.merge_conflict", problem, tuple(steps),
                     f"the conflicted files ({named}) and how to finish the {op}" if files
                     else f"how to resolve the conflicts and finish the {op}",
                     "the repository's unmerged files" if unmerged else "the message", details)


# ---------------------------------------------------------------- not a git repository

_NOT_REPO = re.compile(r"fatal: not a git repository(?: \(or any of the parent directories\))?(?:: (?P<dir>\S+))?")


def _repos_below(folder: str, depth: int = 2, limit: int = 5) -> list[str]:
    """Git repositories in `folder`'s subfolders, `depth` levels down (hidden folders skipped)."""
    found: list[str] = []
    level = [Path(folder)]
    for _ in range(depth):
        below = []
        for parent in level:
            try:
                children = sorted(p for p in parent.iterdir() if p.is_dir() and not p.name.startswith("."))
            except OSError:
                continue
            for child in children:
                if (child / ".git").exists():
                    found.append(str(child))
                else:
                    below.append(child)
        level = below[:200]
        if len(found) >= limit:
            break
    return found[:limit]


def _repo_above(path: str) -> str | None:
    for parent in [Path(path), *Path(path).parents]:
        if (parent / ".git").exists():
            return str(parent)
    return None


@diagnoser
def not_a_repository(situation: Situation) -> Diagnosis | None:
    """`fatal: not a git repository`: the project folder, when one is found above or below the working
    directory or the file, else `git init`."""
    m = _NOT_REPO.search(situation.error)
    if m is None:
        return None
    steps: list[Step] = []
    details: dict[str, str] = {}
    where = situation.cwd
    above = _repo_above(situation.file) if situation.file and os.path.isabs(situation.file) else None
    if above is None and where:
        above = _repo_above(where)
    if above is not None:
        details["repository"] = above
        steps.append(Step(f"'{above}' is a git repository (it has a .git folder) but git did not look there from "
                          "where you ran it: run the command from it.", f"cd {shlex.quote(above)}"))
    if where and above is None:
        below = _repos_below(where)
        if below:
            details["repositories"] = ", ".join(below)
            rel = os.path.relpath(below[0], where)
            others = f" (also: {', '.join(os.path.relpath(b, where) for b in below[1:])})" if len(below) > 1 else ""
            steps.append(Step(f"This folder is not a repository, but '{rel}' in it is{others}: go there first.",
                              f"cd {shlex.quote(rel)}"))
    steps.append(Step("Or, to start a new repository in this folder:", "git init"))
    offer = (f"the repository folder to go to ({details.get('repository') or details['repositories'].split(', ')[0]})"
             if details else "how to go to your project or start a repository (git init)")
    here = f" ({where})" if where else ""
    return Diagnosis("git.not_a_repository", f"git runs only inside a repository, and this folder{here} is not in one.",
                     tuple(steps), offer, "the folders around the working directory", details)


# ---------------------------------------------------------------- pathspec did not match

_PATHSPEC = re.compile(r"error: pathspec '(?P<spec>[^']+)' did not match any file\(s\) known to git")


@diagnoser
def pathspec(situation: Situation) -> Diagnosis | None:
    """`error: pathspec 'x' did not match`: close branch names (local and remote-tracking) or tracked files."""
    m = _PATHSPEC.search(situation.error)
    if m is None:
        return None
    spec = m["spec"]
    details = {"pathspec": spec}
    refs = _lines(git(situation.cwd, "branch", "-a", "--format=%(refname:short)"))
    if refs:
        remotes = set(_lines(git(situation.cwd, "remote")))
        refs = [r for r in refs if r not in remotes and not r.endswith("/HEAD")]
        locals_ = {r for r in refs if r.split("/", 1)[0] not in remotes}
        names = {r.split("/", 1)[1] if r not in locals_ else r for r in refs}
        exact_remote = [r for r in refs if r not in locals_ and r.split("/", 1)[1] == spec]
        if exact_remote:
            details["branch"] = spec
            return Diagnosis("git.pathspec", f"There is no local branch '{spec}', but the remote has one "
                             f"({exact_remote[0]}).",
                             (Step("Create the local branch from it and switch to it.", f"git switch {spec}"),),
                             f"the command that switches to '{spec}'", "the repository's branches", details)
        close = difflib.get_close_matches(spec, sorted(names), n=3, cutoff=0.6)
        if close:
            details["branch"] = close[0]
            also = f" (or: {', '.join(close[1:])})" if len(close) > 1 else ""
            return Diagnosis("git.pathspec", f"No branch or file is named '{spec}'.",
                             (Step(f"Did you mean the branch '{close[0]}'?{also}", f"git switch {close[0]}"),
                              Step("Or create a new branch with that name.", f"git switch -c {spec}")),
                             f"the close branch name '{close[0]}'", "the repository's branches", details)
        files = _lines(git(situation.cwd, "ls-files"))
        close = difflib.get_close_matches(spec, files, n=3, cutoff=0.7)
        if close:
            details["file"] = close[0]
            fixed = situation.command.replace(spec, close[0], 1) if situation.command and spec in situation.command \
                else None
            return Diagnosis("git.pathspec", f"No branch or tracked file is named '{spec}'.",
                             (Step(f"Did you mean the file '{close[0]}'?", fixed),),
                             f"the close file name '{close[0]}'", "the repository's files", details)
        return Diagnosis("git.pathspec", f"No branch or tracked file is named '{spec}' (branches: "
                         f"{', '.join(sorted(names)[:6])}).",
                         (Step(f"To create the branch '{spec}' and switch to it:", f"git switch -c {spec}"),),
                         f"the branches there are, and how to create '{spec}'", "the repository's branches", details)
    return Diagnosis("git.pathspec", f"git knows no branch or tracked file named '{spec}'.",
                     (Step(f"If '{spec}' is a branch someone pushed, fetch the remote's branches first, then switch to "
                           "it.", f"git fetch && git switch {spec}"),
                      Step("List the branches, local and remote, to find the right name.", "git branch -a"),
                      Step(f"Or create the branch '{spec}' and switch to it.", f"git switch -c {spec}")),
                     f"the commands that fetch and switch to '{spec}', or list the branches", "the message", details)


# ---------------------------------------------------------------- src refspec does not match any

_REFSPEC = re.compile(r"error: src refspec (?P<branch>\S+) does not match any")


@diagnoser
def src_refspec(situation: Situation) -> Diagnosis | None:
    """`src refspec main does not match any`: no commit yet, or the branch has another name (master)."""
    m = _REFSPEC.search(situation.error)
    if m is None:
        return None
    branch = m["branch"]
    details = {"branch": branch}
    first_commit = Step("If the repository has no commit yet, make the first one (a branch exists only once it has "
                        "a commit).", 'git add -A && git commit -m "First commit"')
    if git(situation.cwd, "rev-parse", "--git-dir") is not None:
        has_commit = git(situation.cwd, "rev-parse", "--verify", "-q", "HEAD") is not None
        current = (git(situation.cwd, "symbolic-ref", "--short", "-q", "HEAD") or "").strip()
        details["current"] = current
        if not has_commit:
            return Diagnosis("git.src_refspec", f"There is nothing to push: the repository has no commit yet, so "
                             f"'{branch}' does not exist.",
                             (Step("Make the first commit.", 'git add -A && git commit -m "First commit"'),
                              Step("Then push it.", f"git push -u origin {current or branch}")),
                             "the commands for the first commit and push", "the repository", details)
        if current and current != branch:
            return Diagnosis("git.src_refspec", f"There is no branch '{branch}' here: your branch is '{current}'.",
                             (Step(f"Push the branch you have, '{current}'.", f"git push -u origin {current}"),
                              Step(f"Or rename it to '{branch}' first, then push.",
                                   f"git branch -M {branch} && git push -u origin {branch}")),
                             f"the push command for your branch '{current}'", "the repository's branches", details)
        return None
    other = "master" if branch == "main" else "main"
    return Diagnosis("git.src_refspec", f"There is no local branch '{branch}' to push.",
                     (first_commit,
                      Step(f"If your branch has another name (such as '{other}'), rename it to '{branch}', then push.",
                           f"git branch -M {branch} && git push -u origin {branch}")),
                     "the commands for a first commit or a renamed branch", "the message", details)


# ---------------------------------------------------------------- rules as data


@diagnoser
def git_rules(situation: Situation) -> Diagnosis | None:
    """Messages whose next step is known from the message alone (`rules/git.toml`)."""
    return rules.match("git", situation)
