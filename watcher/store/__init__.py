"""The store: the SQLite database (WAL, migrations, optional SQLCipher encryption with the key in the OS
keyring), the places of Proactive's files and its config, purge and retention, and the move of an older
version's folder.
"""
