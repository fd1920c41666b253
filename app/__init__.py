"""The top floor: the `proactive` command line (`cli.py`), which gathers each package's own commands, and the
runtime that wires a running app (`runtime.py`): watcher, assistant and the tray. It may import every package;
nothing imports it (see ARCHITECTURE.md).
"""
