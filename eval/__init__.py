"""Evaluation: reading recorded sessions, the replay harness (agent + gate over a session, turn by turn, judged
and cached), the proactivity metrics and calibration, replay reports, reward-model assessment against human
labels, multi-annotator labelling and the export of the user's own decisions as reward-format rows.

`proactive.eval` imports `proactive.assistant`, `proactive.watcher` and `proactive.models`, never `proactive.ui`
(see ARCHITECTURE.md).
"""
