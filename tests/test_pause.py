"""Pause state read from `paused.json` fails closed: anything that is not a pause written by proactive means
paused, said once in the log; a timed pause ends when it says."""

from __future__ import annotations

import logging
import math
import time

import pytest

from proactive.watcher import control


@pytest.mark.parametrize(
    "content",
    ["NaN", "true", "[]", "{}", '{"until": "abc"}', '{"until": true}', '{"until": NaN}', '{"until": Infinity}',
     '{"until": [1]}', "\udcff", ""],
)
def test_malformed_pause_file_means_paused(proactive_home, caplog, content):
    control.pause_path().write_text(content, errors="surrogateescape")
    control._warned.clear()
    with caplog.at_level(logging.WARNING):
        assert control.read_pause() == math.inf
        assert control.read_pause() == math.inf
    assert len([r for r in caplog.records if "capture stays paused" in r.message]) == 1


def test_pause_file_that_is_a_directory_means_paused(proactive_home):
    control.pause_path().mkdir()
    assert control.read_pause() == math.inf


def test_timed_pause_ends_and_is_acknowledged(proactive_home):
    pause_id = control.write_pause(time.time() + 0.3)
    assert control.read_pause() is not None
    control.acknowledge_pause()
    assert control.wait_acknowledged(pause_id, timeout=0.5)
    time.sleep(0.35)
    assert control.read_pause() is None
    assert control.write_pause(math.inf) != pause_id
    assert control.read_pause() == math.inf
    assert not control.wait_acknowledged("someone-else", timeout=0.1)
