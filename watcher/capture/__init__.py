"""Capture: one source per stream and platform (X11 through RECORD and the X server, Wayland through the
compositor, the accessibility bus on both), the session they run in, and the choice of this session's sources
(`platform.py`). Sources never filter: the pipeline applies the privacy rules to every stream.
"""
