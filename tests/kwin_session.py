"""The tests' headless KWin session is the benchmarks' (bench/kwin_session.py): one copy for both."""

from bench.kwin_session import KWinSession, kwin_session, missing_tools, start_kwin  # noqa: F401
