"""Trigger policy, agent loop and the `proactive` command line."""
