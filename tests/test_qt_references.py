"""The installed Qt bindings keep Python's reference counts: a call that returns nothing gives back `None` without
dropping a reference to it.

PySide6-Essentials 6.12.0 dropped one on every such call; `None`'s count fell with each, and a few minutes of
the tray's History window ("Fatal Python error: none_dealloc") killed the process. pyproject.toml keeps that
release out; this test fails on any release that has the bug, whatever its number. It runs the calls in a fresh
interpreter so that nothing else in the test process touches `None`'s count meanwhile. (On Python 3.12 and
later `None` is immortal and its count never moves: there the test checks the void calls run.)
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

PROBE = textwrap.dedent("""
    import sys
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QLabel, QTableWidget

    app = QApplication([])
    table, label, timer = QTableWidget(3, 3), QLabel(), QTimer()
    calls = [table.clearSelection, table.clearContents, lambda: table.setSortingEnabled(False),
             lambda: label.setText("x"), timer.stop, lambda: table.setRowCount(3)]
    for call in calls:
        call()  # warm up: caches filled once
    before = sys.getrefcount(None)
    for _ in range(1000):
        for call in calls:
            call()
    print(sys.getrefcount(None) - before)
""")


def test_void_qt_calls_keep_the_reference_count_of_none():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    drift = int(out.stdout.strip().splitlines()[-1])
    # each void call returning None must hand back the reference it gives: 6,000 calls, not one lost (a few
    # references may be taken and kept by Python's own caches, never thousands)
    assert abs(drift) < 50, f"None's reference count moved by {drift} over 6,000 void Qt calls"
