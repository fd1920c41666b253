"""The tests' headless sway session is the benchmarks' (bench/wayland_session.py): one copy for both."""

from bench.wayland_session import WaylandSession, start_wayland, wayland_session  # noqa: F401
