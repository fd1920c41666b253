"""The tray icon and its stand-in: the app's icon with a badge for its state, and the small window shown where
no system tray exists (GNOME without the extension, bare Xvfb, the offscreen platform)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QCloseEvent, QColor, QIcon, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QWidget

ICON_FILE = Path(__file__).resolve().parent / "icons" / "proactive.png"
STATES = {"capturing": "#2e9d4f", "paused": "#8a8a8a", "thinking": "#2f6fd6", "proposal": "#e8891c"}
STATE_TEXT = {"capturing": "capturing", "paused": "paused", "thinking": "thinking",
              "proposal": "proposal waiting"}


def state_icon(state: str) -> QIcon:
    """The app icon with a badge in the state's colour in its corner (paused: the icon faded, a pause sign).

    Why a badge and not a different icon per state: the user recognises the app at a glance, and the state
    is still readable at 16 px from the badge's colour alone."""
    size = 64
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    base = QPixmap(str(ICON_FILE))
    if state == "paused":
        painter.setOpacity(0.45)
    if not base.isNull():
        painter.drawPixmap(pixmap.rect(), base)
    painter.setOpacity(1.0)
    badge = QRectF(size * 0.52, size * 0.52, size * 0.46, size * 0.46)
    painter.setPen(QPen(QColor("white"), 3))
    painter.setBrush(QColor(STATES[state]))
    painter.drawEllipse(badge)
    if state == "paused":  # two bars, so the state does not depend on colour vision
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor("white"))
        w, h = badge.width() * 0.14, badge.height() * 0.45
        for x in (badge.center().x() - 1.7 * w, badge.center().x() + 0.7 * w):
            painter.drawRect(QRectF(x, badge.center().y() - h / 2, w, h))
    painter.end()
    return QIcon(pixmap)


class FallbackWindow(QWidget):
    """The tray's stand-in where no system tray exists. It is then the only handle on the app, so closing it
    minimises it (Quit ends the app). Once the app quits it closes like any window: Qt 6 cancels a quit that a
    window refuses, so refusing then would keep the process up (SIGTERM ignored). The app quits through
    `TrayApp.quit()`, which says so, or through any `QApplication.quit()`, seen here as the application's Quit
    event (before Qt asks the windows to close; `aboutToQuit` comes after)."""

    def __init__(self) -> None:
        super().__init__()
        self.quitting = False
        app = QCoreApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802  (Qt override)
        if event.type() == QEvent.Type.Quit and watched is QCoreApplication.instance():
            self.quitting = True
        return False

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802  (Qt override)
        if self.quitting or QCoreApplication.closingDown():
            event.accept()
            return
        event.ignore()
        self.showMinimized()
