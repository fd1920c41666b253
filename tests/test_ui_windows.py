"""The tray's own windows on their own: the state icons (ui/tray_icon.py) and the help window with its copy
buttons (ui/result_window.py), rendered as real widgets with screenshots. The tray app end to end is
tests/test_ui_app.py."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from .conftest import screenshot  # noqa: E402


def test_state_icons_differ(qtbot):
    from proactive.ui.tray_icon import STATES, state_icon

    images = {state: state_icon(state).pixmap(32, 32).toImage() for state in STATES}
    assert all(not image.isNull() for image in images.values())
    assert len({bytes(image.constBits()) for image in images.values()}) == len(STATES)


def test_result_window_gives_each_command_its_copy_button(qtbot):
    """A fix's next steps: each command on its own line with its own copy button (steps without one get none)."""
    from PySide6.QtGui import QGuiApplication

    from proactive.assistant.help import Help
    from proactive.ui.result_window import ResultWindow

    result = Help(("fix",), "Python cannot find the module 'numpyy'.", steps=(
        {"text": "Install the close match 'numpy'.", "command": "python3 -m pip install numpy"},
        {"text": "Or check the spelling of the import.", "command": None},
        {"text": "Check it imports.", "command": "python3 -c 'import numpy'"}))
    window = ResultWindow("Give the next step for the error", result)
    qtbot.addWidget(window)
    window.show()
    assert len(window.command_buttons) == 2
    screenshot(window, "tray-result-fix.png")
    for button, command in zip(window.command_buttons, ("python3 -m pip install numpy", "python3 -c 'import numpy'"),
                               strict=True):
        button.click()
        assert QGuiApplication.clipboard().text() == command


def test_a_line_of_code_is_offered_as_code_and_a_pseudo_file_is_never_named(qtbot):
    """`python3 -c 'import numpyy'`: the corrected import is a line of Python ("Copy code", never "$ import
    numpy", which a shell would run as ImageMagick's import), the install is a command ("Copy command"), and
    `<string>` (no file the person can open) appears nowhere."""
    from proactive.assistant.diagnose import Situation, diagnose
    from proactive.assistant.help import Help, fix_lines
    from proactive.ui.result_window import ResultWindow

    for program, error in ((["-c", "import numpyy"], "No module named 'numpyy'"),
                           (["-c", "import jsom"], "No module named 'jsom'")):
        trace = ('Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n'
                 f"ModuleNotFoundError: {error}\n")
        found = diagnose(Situation(trace, "python3 " + " ".join(program), None))
        assert found is not None
        text = "\n".join(fix_lines(found))
        assert "<string>" not in text and "<string>" not in found.offer, text
        code = [s for s in found.steps if s.command and s.command.startswith("import ")]
        assert code and code[0].language == "python" and f"$ {code[0].command}" not in text
        steps = tuple({"text": s.text, "command": s.command, "copy": s.copy_label if s.command else None}
                      for s in found.steps)
        window = ResultWindow("Give the next step", Help(("fix",), text, steps=steps))
        qtbot.addWidget(window)
        labels = [b.text() for b in window.command_buttons]
        assert labels == ["Copy code" if s.language == "python" else "Copy command"
                          for s in found.steps if s.command], labels
        assert labels[0] == "Copy code"


def test_the_result_window_fits_a_1366_by_768_screen(qtbot):
    """A long answer with many commands still fits a laptop screen with a panel (its smallest size), and it is
    drawn at 1366x768 (a screenshot)."""
    from proactive.assistant.help import Help
    from proactive.ui.result_window import ResultWindow

    steps = tuple({"text": f"Step {n}.", "command": f"python3 -m pip install package{n} --upgrade"}
                  for n in range(8)) + tuple(
        {"text": f"From page {n}", "command": "\n".join(f"line {k} of example {n}" for k in range(12)),
         "copy": "Copy code", "page": f"https://example.org/{n}"} for n in range(6))
    result = Help(("fix",), "\n".join(f"Line {n} of a long explanation of the error." for n in range(80)),
                  steps=steps)
    window = ResultWindow("Explain the error 'ReadTimeout' and suggest a fix for client.py", result)
    qtbot.addWidget(window)
    window.show()
    hint = window.minimumSizeHint()
    assert hint.width() <= 1366 and hint.height() <= 768 - 48, hint
    assert window.width() <= 1366 and window.height() <= 768 - 48
    assert len(window.command_buttons) == 14
    from PySide6.QtGui import QGuiApplication

    area = QGuiApplication.primaryScreen().availableGeometry()
    assert window.height() <= area.height() and window.width() <= area.width(), (window.size(), area)
    window.resize(1366, 768)
    screenshot(window, "tray-result_1366x768.png")
