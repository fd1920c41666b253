"""PyInstaller entry point for the frozen `proactive` app (see packaging/proactive.spec). The frozen app is also
the tray app's own process, which `proactive run` starts as `proactive --tray-process --fd N`
(app/tray_supervisor.py): there is no separate interpreter to run its module with."""

import sys

from proactive.ui.tray_main import TRAY_PROCESS_ARG

if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == TRAY_PROCESS_ARG:
        from proactive.ui.tray_main import main as tray_process

        sys.exit(tray_process(sys.argv[2:]))
    from proactive.app.cli import main

    main()
