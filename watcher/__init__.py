"""The watcher: capture sources, the privacy filter, the store and the episode builder, plus the home folder,
config schema, encryption at rest, pause control and purge/retention that they need.

It turns what happens on the desktop into filtered, redacted raw events in SQLite and closes them into episodes
(English sentences in ProactiveBench's observation format). It runs on its own (`proactive watch`) and knows
nothing of models or proposals: `proactive.watcher` imports no other package of ours (see ARCHITECTURE.md).
"""
