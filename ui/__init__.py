"""Placeholder package: built by a later issue (see DESIGN.md)."""
