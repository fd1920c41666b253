"""The assistant: when to think (trigger), what the person is working on (grounding), whether help is needed
(need model and gate), which grounded task to offer (agent, candidates, validator, reward-model ranking), what
accepting does (help), the feedback memory and the live loop; plus the `proactive` command line (`cli.py`) and
the runtime that wires a running app (`runtime.py`).

`proactive.assistant` imports `proactive.watcher` and `proactive.models`; only `cli.py` and `runtime.py` may also
import `proactive.eval` and `proactive.ui`, and nothing imports `cli.py` (see ARCHITECTURE.md).
"""
