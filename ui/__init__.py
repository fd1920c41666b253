"""The Qt desktop app: the tray icon (or a small window where there is no tray), the proposal popup, and the
history, privacy, settings and annotation windows.

`proactive.ui` imports `proactive.assistant`, `proactive.watcher`, `proactive.models` and `proactive.eval` (the
annotation window); only `proactive.app` (the CLI and the runtime) imports it, so the rest of the project runs
without Qt (see ARCHITECTURE.md).
"""
