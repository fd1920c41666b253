"""The assistant: when to think (trigger), what the person is working on (grounding), whether help is needed
(need model and gate), which grounded task to offer (agent, candidates, validator, reward-model ranking), what
accepting does (help), the feedback memory and the live loop; what it needs before it runs (`setup.py`) and its
commands (`commands.py`).

`proactive.assistant` imports `proactive.watcher` and `proactive.models` only (see ARCHITECTURE.md).
"""
