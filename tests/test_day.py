"""The day benchmark's short form (bench/day.py, day bench/days/ci.json): a few minutes of a coding day run live
through `proactive run` with the built-in model, real xterm, vim and lxterminal, copies, a pause. It checks that
the report is made and its figures are sane, that capture fidelity was computed from stored sentences, and that
nothing crashed; whether the targets are met is the benchmark's business (docs/benchmarks.md), not the suite's."""

from __future__ import annotations

import shutil
import time

import pytest

from bench.day import run_day, table

pytestmark = pytest.mark.x11

TOOLS = ("Xvfb", "openbox", "trayer", "xdotool", "xclip", "xterm", "lxterminal", "vim", "dbus-daemon")


def test_a_short_day_is_measured_end_to_end() -> None:
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        pytest.fail(f"missing {missing}: install them with packaging/setup.sh test")
    started = time.monotonic()
    report = run_day("ci", speed=2.0)
    print(table(report), f"\n(wall {time.monotonic() - started:.0f} s)")

    # the day ran to its end with the product up: no exit before the end, a clean stop, no tray restart
    assert report["crashes"]["exit_before_end"] is None, report["crashes"]
    assert report["crashes"]["exit_code"] == 0, report["crashes"]
    assert report["crashes"]["tray_restarts"] == 0, report["crashes"]
    assert report["crashes"]["tray_state"] == "running", report["crashes"]

    # every labelled step of the day was a moment; the figures are within their ranges
    assert report["moments"] == 9 and report["moments_wanting_help"] == 3
    assert 0 <= report["moments_with_offer_worth_taking"] <= 3
    assert report["offers_shown"] >= report["offers_giving_labelled_help"] >= 0
    assert report["offers_shown"] + report["silent_decisions"] >= 1, "the assistant never decided anything"
    assert report["interruptions_per_hour"] is not None and report["interruptions_per_hour"] >= 0
    if report["latency_n"]:
        assert 0 <= report["latency_p50_s"] <= report["latency_p95_s"] <= 20
    assert 2.5 <= report["script_minutes"] <= 6, report["script_minutes"]
    for moment in report["per_moment"]:
        for offer in moment["offers"]:
            assert offer["accept_error"] is None, offer  # every offer shown could be accepted

    # capture fidelity was computed from the stored sentences: the shell's and vim's lines were judged
    fidelity = report["fidelity"]
    assert fidelity["lines"] >= 6, fidelity
    assert fidelity["exact"] + fidelity["withheld"] + fidelity["wrong"] + fidelity["missing"] == fidelity["lines"]
    assert fidelity["exact_share"] is not None and fidelity["exact"] >= 1, fidelity
    assert fidelity["paused_stored"] + fidelity["paused_not_stored"] == 1, fidelity

    # the product's processes were measured
    assert report["max_rss_mb"]["run"] > 50 and report["max_rss_mb"]["tray"] > 30, report["max_rss_mb"]
    assert report["cpu_percent_of_one_core"]["run"] > 0
