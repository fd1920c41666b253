"""The tests' X session helpers are the benchmarks' (bench/xsession.py): one copy for both."""

from bench.xsession import WAIT_SCALE, XSession, start_x, start_xvfb, wait_for  # noqa: F401
