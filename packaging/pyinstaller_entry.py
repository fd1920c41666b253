"""PyInstaller entry point for the frozen `proactive` app (see packaging/proactive.spec)."""

from proactive.assistant.cli import main

if __name__ == "__main__":
    main()
