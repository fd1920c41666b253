"""A terminal line's privacy, judged from its terminal's echo state while it is typed (`TerminalLines`).

A mixin of the privacy stage (watcher/privacy/stage.py), kept apart because it is the one place that decides,
key by key, whether the line being typed in a terminal may be kept: the echo state is read at the first key, at
Enter and every ECHO_READ_SECONDS between (echo_state.py), each reading is applied only to the keys pressed
before it was taken, and a line whose state was not read in time is hidden as unseen (fail closed).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from proactive.watcher.events import KEY_BATCH_SECONDS
from proactive.watcher.privacy.compose import TextComposer
from proactive.watcher.privacy.echo_state import UNSEEN, VISIBLE, Reading
from proactive.watcher.privacy.filter import PrivacyFilter
from proactive.watcher.privacy.secret_shape import typed_secret

log = logging.getLogger("proactive.watcher.pipeline")  # the tests wait on these debug lines under that name

ECHO_READ_SECONDS = 0.25  # while a line is typed, a terminal's echo state is read again after this long
#: a key handled this long after it was pressed, beyond the KEY_BATCH_SECONDS a source may keep it: the pieces of its
#: terminal line wait for the line's end, where its echo readings are judged against when the line ended
#: (TerminalLines._judge_line)
ECHO_LATE_SECONDS = 0.1
#: a key typed this long after the line's last echo reading taken before the line ended is not vouched for by it:
#: the readings' spacing, a key's wait in its source, and lateness (0.6 s)
ECHO_TRUST_SECONDS = ECHO_READ_SECONDS + KEY_BATCH_SECONDS + ECHO_LATE_SECONDS


class TerminalLines:
    """The state of the terminal line being typed, and the judging of its echo readings."""

    filter: PrivacyFilter
    composer: TextComposer

    def _lines_init(self) -> None:
        self.line_raw = False  # every key of the line being typed went to a line editor (raw mode)
        self.echo_hidden = False  # the line being typed is hidden because its terminal does not show it
        self._echo_cache: tuple[Any, float, Reading | None] = (None, 0.0, None)  # window pid, until, reading
        #: the echo readings taken while the terminal line being typed was typed: when (epoch s), what they showed;
        #: the first `line_applied` of them are known to have been taken before the line ended and were applied
        self.line_reads: list[tuple[float, Reading]] = []
        self.line_applied = 0
        self.line_last_key: float | None = None  # when its last key was pressed (None: no terminal line is open)
        self.line_begun = 0.0  # when its first key was pressed (the debug log's, which tests wait on)

    def _key(self, ts: float, char: str | None, key: str | None, timed: bool = False) -> None:
        """A key pressed at `ts`; `timed`: `ts` is the X server's time of the press (never later than the press,
        however late the key is handled here), so the line's echo readings can be judged by it (`_judge_line`)."""
        enter = key == "enter"
        by_shell = False
        reading = self._echo_reading(enter, ts) if self.filter.window else None
        if reading is None:
            self.line_last_key = None  # not a terminal: no echo state to judge the line by
        else:
            self._apply_reads(ts, ended=enter)
            if enter:
                if not timed or time.time() - ts <= ECHO_LATE_SECONDS:  # else: the program it started
                    self._echo(reading, enter=True)
                by_shell = self._read_by_shell(ts)
                log.debug("line ended at %.3f: %s", ts, "read by the shell's line editor" if by_shell
                          else "not known to be read by a shell's line editor")
                self._judge_line(ts)
            elif timed:
                self.line_last_key = ts
                if time.time() - ts > KEY_BATCH_SECONDS + ECHO_LATE_SECONDS:
                    self.composer.hold = True
        if by_shell and self.filter.read_by_shell() and self.composer.hide_line == "password":
            # no prompt consumed the line: the prediction that hid it never came; unless the line is one word that
            # is no command, as a password typed for a prompt that did not come (root's `sudo ls`) is
            if not typed_secret("".join(self.composer.line), asked=True):
                self.composer.hide_line = None
        elif enter and reading is not None and not self.composer.hide_line and typed_secret(
                "".join(self.composer.line), asked=False):
            self.composer.hide_line = "password"  # a password typed at the shell where nothing asked for it
        finished = self.composer.key(ts, char, key)
        if finished is not None and (reading is not None or self.filter.in_terminal()):
            hidden, self.echo_hidden = self.echo_hidden, False
            self.composer.hide_line = "password" if self.filter.asks_password(finished, hidden, by_shell) else None
            if self.composer.hide_line:  # (never the line in the log: it may hold a secret)
                log.debug("the next line is hidden unless a shell's line editor reads it: this one may ask a password")

    def _focus_changed(self) -> None:
        """Another window has the focus: the next line is hidden as the filter says for that window (its terminal
        may still owe answers to a prompt), not as the window left said: a command that asks in one terminal
        hides nothing typed in another meanwhile (the filter keeps each terminal's count)."""
        if not self.composer.line and not self.composer.sent:
            self.composer.hide_line = "password" if self.filter.hides_typing() else None

    def _read_by_shell(self, t_end: float) -> bool:
        """Whether the terminal line ending at `t_end` went to an interactive shell's own line editor: every echo
        reading applied to it (those taken before it ended: `_apply_reads`) showed the shell's line editor reading
        in raw mode (`Reading.shell`), and there was one at least, vouching for its last key as `_judge_line`
        asks (keys read late, or a line whose readings all came after it, are not vouched for). An empty line
        (Enter alone: the readings held are still the previous line's) is not."""
        if not self.composer.line and not self.composer.sent:
            return False
        in_time = [r for at, r in self.line_reads if at < t_end]
        last = self.line_last_key if self.line_last_key is not None else t_end
        at_last = max((at for at, _ in self.line_reads if at < t_end), default=None)
        # a reading taken while keys waited unread (`queued`: a busy shell, or one that has not read the Enter
        # before them) tells nothing either way; at least one other must show the shell reading the line
        return (any(not r.queued for r in in_time) and all(r.mode == VISIBLE and r.raw and r.shell for r in in_time)
                and at_last is not None and last <= at_last + ECHO_TRUST_SECONDS)

    def _echo_reading(self, enter: bool, ts: float) -> Reading | None:
        """The focused terminal's echo state, read at the first key of a line, at Enter and at most every
        ECHO_READ_SECONDS in between (a prompt that appears while a line is typed is still seen before its Enter),
        so typing costs a few `tcgetattr` a second, not one per key. `ts`: when the key was pressed."""
        now = time.monotonic()
        pid, until, reading = self._echo_cache
        starting = not self.composer.line and not self.composer.sent
        if starting and not enter:  # a new line
            self.line_reads, self.line_applied, self.line_raw, self.echo_hidden = [], 0, True, False
            self.line_begun = ts
        if starting or enter or now >= until or pid != self.filter.window.get("pid"):
            reading = self.filter.echo_reading()
            self._echo_cache = (self.filter.window.get("pid"), now + ECHO_READ_SECONDS, reading)
            if not enter and reading is not None:
                self.line_reads.append((time.time(), reading))
                # (the tests wait for this line before a line's Enter: the condition `_judge_line` keeps it by)
                log.debug("echo state read at %.3f for the line begun at %.3f: %s", self.line_reads[-1][0],
                          self.line_begun, reading.why)
                if reading.mode != VISIBLE:
                    self.composer.hold = True  # no piece of the line while it may be hidden (_apply_reads)
        return reading

    def _apply_reads(self, t: float, ended: bool = False) -> None:
        """Applies to the line (`_echo`) the readings taken before `t`, when a key of it was pressed or it
        `ended` (the readings taken after that are about what came next: never applied).
        Why not each reading as it is taken: keys are handled a batch at a time, a reading when the first of a
        batch is, and the line's Enter may be later in the same batch: a reading taken after it shows the program
        the line started (a password prompt's echo off), not the line, which would then be hidden and not read
        as the command that asks for the next lines (watcher.password_prompts)."""
        reads = self.line_reads
        while self.line_applied < len(reads) and reads[self.line_applied][0] < t:
            self._echo(reads[self.line_applied][1], enter=False)
            self.line_applied += 1
        if ended:
            self.line_applied = len(reads)

    def _end_line(self, t_end: float, field_end: bool = False) -> None:
        """The line being typed ends, by an event of time `t_end` (another key's, a focus change's, now for a
        pause or a stop): judged (`_judge_line`), then flushed; `field_end`: the episode shows it as a line of its
        own (vim's Escape: what is typed next is not its continuation)."""
        self._apply_reads(t_end, ended=True)
        self._judge_line(t_end)
        self.composer.flush(field_end=field_end)

    def _drop_line(self, t_end: float) -> bool:
        """The line being typed is not kept as text (vim's command line, said as what it does or cancelled), but
        it is judged like any line first: one judged hidden (its echo off or unseen, or a prompt's answer) is
        stored as hidden, never dropped, so the fact that it was hidden is kept and nothing resets its hiding.
        Returns whether it was hidden."""
        self._apply_reads(t_end, ended=True)
        self._judge_line(t_end)
        if self.composer.hide_line:
            self.composer.flush()
            return True
        self.composer.discard()
        return False

    def _judge_line(self, t_end: float) -> None:
        """The terminal line being typed ends at `t_end` (when its Enter, or what else ended it, happened): it is
        stored only if its echo state was read while it was typed. Why: the state is read when a key is handled,
        which a busy machine or a stopped watcher puts after the person typed the whole line and the program that
        asked for it with echo off had it and turned echo on again: a reading taken after `t_end` tells nothing of
        the line. Within a line echo can only go off (the program that turns it off turns it on again once it has
        the line), so a reading showing it on before `t_end` speaks for the keys typed before it, and for those
        typed up to ECHO_TRUST_SECONDS after it, as while keys are read in time: the time between readings while
        typing (ECHO_READ_SECONDS, plus the KEY_BATCH_SECONDS a key may wait in its source before the reading
        due at it is taken), give or take ECHO_LATE_SECONDS (the reading due at the line's last key may come
        after its Enter). Otherwise the line is hidden as unseen (fail closed)."""
        last, self.line_last_key = self.line_last_key, None
        if last is None or self.composer.hide_line:
            return
        in_time = [at for at, _ in self.line_reads if at < t_end]
        if not in_time or last > max(in_time) + ECHO_TRUST_SECONDS:
            log.debug("line hidden: its echo state was read only after it was sent")
            self.composer.hide_line = UNSEEN

    def _echo(self, reading: Reading, enter: bool) -> None:
        """Hide the line being typed when its terminal does not show it (echo off with line input: a password
        prompt, whatever program asks; or an echo we cannot see: a remote session). Read during the whole line,
        so a prompt that appears after the first key still hides the whole line. At Enter the reading counts only
        when the line went to a program reading whole lines: a line editor's Enter (the shell's readline) starts
        the next program, whose prompt belongs to the next line. (Pieces of a line may be stored before its echo turns off
        only when typed ahead of a prompt, echoed on screen, after a pause of a second, and never a trailing
        word: the composer holds back the unfinished token.)"""
        if enter:
            if not self.composer.line or self.line_raw:
                return
        else:
            self.line_raw = self.line_raw and reading.raw
        if reading.mode != VISIBLE:
            if not self.echo_hidden:
                log.debug("line hidden: %s", reading.why)
            self.composer.hide_line, self.echo_hidden = reading.mode, True
