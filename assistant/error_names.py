"""The line of a printed text that names its error ('ModuleNotFoundError: No module named …', 'E: Unable to locate
package curl', 'npm error code EACCES'): what an offer quotes and what names an error object, for the grounding of
sentences and for the records and screens it reads (one place, so both name an error alike)."""

from __future__ import annotations

import re

#: a build tool's level in brackets (Maven's `[ERROR] …`), CMake's `CMake Error at CMakeLists.txt:4 (…):`
LEVEL_LINE = re.compile(r"^\[(?:ERROR|FATAL)\] \S|^CMake Error\b")
#: the line of a copied text that names its error, strongest first: a Python exception (its last one), a tool's
#: error code, a line that starts like an error, one that names an error, a shell's complaint
ERROR_LINES: tuple[tuple[re.Pattern[str], bool], ...] = (  # (pattern, take the last match rather than the first)
    # (Node's `Error [ERR_MODULE_NOT_FOUND]: …` names its code between the two)
    (re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Warning)\b(?: \[[A-Z][A-Z\d_]+\])?(?::.*)?$"), True),
    (re.compile(r"\b(?:npm ERR!|npm error) code \w+"), False),
    (re.compile(r"^(?:E|fatal|error|error\[\w+\]|ERROR|Error(?: \[[A-Z][A-Z\d_]+\])?|FATAL|CONFLICT \(\w+\)):\s*\S"),
     False),
    (LEVEL_LINE, False),
    (re.compile(r"\b\w*Error: \S"), False),
    (re.compile(r"\b(?:error|fatal)(?:\[\w+\]| \d+ \(\w+\))?:\s*\S", re.I), False),  # "collect2: error: …", "cc1: fatal …",
    # MySQL's "ERROR 1698 (28000): …"
    (re.compile(r"command not found|[Pp]ermission denied|No such file or directory|\bnot found\b"), False),
    # a compiler's or checker's place and message with no level word (Go's `./main.go:9:7: undefined: clear`)
    (re.compile(r"^\S+\.[A-Za-z]\w*:\d+:\d+: (?!(?:warning|note|info)\b)\S"), False),
)


#: a build tool's or CI runner's closing line that counts errors or says the job failed rather than naming the
#: error (or Terraform's, Ansible's, Jenkins's, Puppet's or Salt's, that a command it ran failed): passed over while a
#: line names one
SUMMARY_LINE = re.compile(r"^error: (?:could not compile|compilation failed|aborting due to|build failed)|"
                          r"\bERROR: Job failed\b|\bError: Process completed with exit code|"
                          r"^\d+ errors?(?: generated)?\.?$|^compilation terminated\.$|^make(?:\[\d+\])?: \*\*\* |"
                          r"^ninja: build stopped|^Error: [\w-]+ provisioner error$|^Operation failed: failed running |"
                          r"^fatal: \[[^\]\n]+\]: FAILED!|^ERROR: script returned exit code \d+|^Finished: FAILURE|"
                          # a review bot's verdict, Puppet's and Salt's word that a command they ran failed, a TAP
                          # harness's tally
                          r"^Build failed\.?$|\breturned \d+ instead of one of \[|^ERROR: Minions returned with non-zero "
                          r"|^Dubious, test returned |^Result: FAIL$|^# Looks like you failed |"
                          r"Error: The command exited with status \d+$|"  # Buildkite's
                          r"^(?:\[\d+ ms\] )?(?:Error: Command failed: |\w+Command from devcontainer\.json failed)|"  # a dev container's
                          # Maven's own lines around the errors it lists
                          r"^\[ERROR\] (?:\[ERROR\] )?(?:Some problems were encountered|The build could not read|"
                          r"The project \S+ \(.*\) has \d+ errors?|To see the full stack trace|Re-run Maven|"
                          r"For more information about the errors|\[Help \d+\]|-> \[Help|COMPILATION ERROR :)|"
                          r"^\[ERROR\]\s*$|"
                          # Maven's and Gradle's word that a command they ran failed
                          r"ExecuteException: Process exited with an error|^\[ERROR\] (?:Command execution failed|"
                          r"Failed to execute goal)|^Process 'command '.*' finished with non-zero exit value|"
                          # a notebook runner's report that a cell's command failed, after the command's output
                          r"^(?:[\w.]+\.)?(?:CalledProcessError|CellExecutionError|PapermillExecutionError)\b|"
                          r"^Execution failed for task |^> Task \S+ FAILED$|^BUILD FAILED\b|^\[INFO\] BUILD FAILURE$|"
                          # a runner's or a relay's word that what it ran ended with a status ('step failed (exit
                          # 1)', 'command exited: code=1', '[host] process exited with status 127')
                          r"^(?:\[[^\]\n]+\] )?(?:the )?(?:step|command|process|job|task|script)(?: [\w.-]+)? "
                          r"(?:failed|exited)\b[^\n]{0,20}\b(?:code|status|exit)\b\W{0,3}\d+\W{0,2}$")


#: a line that only records how the command ended ('exit_code: 1', 'exit status 2', '[Process exited 1]') or only
#: a tag of the record around it ('</function_results>'): nothing the person met
CLOSING_ONLY = re.compile(r"^\W*(?:exit(?:_code| code| status)?|exited(?: with code)?|process exited|return code)\W*-?\d+\W*$|"
                          r"^</?[A-Za-z_][\w:-]*>$", re.I)


#: a line that only points elsewhere: a few words and a link ('View the full error: https://…', 'See: https://…')
LINK_ONLY = re.compile(r"^[\w ]{0,40}:?\s*<?https?://\S+>?$")


def last_line(text: str) -> str:
    """A text's last line that has a letter or digit in it (not a lone emoji or a rule under it), past a closing
    line that says only how the command ended."""
    lines = [ln.strip() for ln in reversed(text.splitlines()) if re.search(r"\w", ln)]
    return next((ln for ln in lines if not CLOSING_ONLY.match(ln)), lines[0] if lines else text.strip())


def error_line(text: str) -> str:
    """The line of a copied error that names it ('ModuleNotFoundError: No module named …', 'E: Unable to locate
    package curl', 'npm error code EACCES'): what an offer quotes, rather than the copy's first line ('Reading
    package lists... Done') or a build's closing count ('error: could not compile `app`'). '' when no line
    looks like one."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not LINK_ONLY.match(ln.strip())]
    for candidates in ([ln for ln in lines if not SUMMARY_LINE.search(ln)], lines):  # a closing count last
        for pattern, last in ERROR_LINES:
            found = [ln for ln in candidates if pattern.search(ln)]
            if found:
                return found[-1] if last else found[0]
    return ""
