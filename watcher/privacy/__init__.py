"""Privacy: the filter every event passes (pause, excluded apps and titles, password contexts, hidden terminal
input judged from the pty's echo state), the typed-text composer, and secret redaction on every string.
Everything here fails closed.
"""
