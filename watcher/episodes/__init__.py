"""Episodes: one per focus span, rendered as English sentences in ProactiveBench's observation format, and the
wording they share.
"""
