"""PyInstaller entry point for the frozen `proactive` app (see packaging/proactive.spec)."""

from proactive.app.cli import main

if __name__ == "__main__":
    main()
