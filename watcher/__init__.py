"""Capture sources, privacy filter, store and episode builder."""
