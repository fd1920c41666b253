"""`proactive watch` with a real aw-server: browser pages from ActivityWatch become episodes (redacted), and our
episodes are published back as a bucket of our own (app and title: the sentences need activitywatch_text).
Without a display, ActivityWatch is the only source."""

from __future__ import annotations

import json
import os
import socket
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from aw_client import ActivityWatchClient
from aw_core.models import Event

from tests.aw_server_fixture import xdg_env

from .conftest import WatcherProcess, run_cli, wait_for

pytestmark = pytest.mark.aw

SECRET = "ghp_" + "Q7wE9rT1yU3iO5pA7sD9fG1hJ3kL5zX7cV9b"


def test_watch_reads_web_bucket_and_publishes_episodes(aw_server_url: str, proactive_home: Path, tmp_path: Path):
    (proactive_home / "config.toml").write_text(
        f'activitywatch_url = "{aw_server_url}"\nactivitywatch_poll_seconds = 0.5\n')
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    env.update(xdg_env(tmp_path / "xdg"))
    watcher = WatcherProcess(proactive_home, env, args=())
    parts = urlsplit(aw_server_url)
    os.environ.update(xdg_env(tmp_path / "client"))
    client = ActivityWatchClient("aw-test-browser", testing=True, host=parts.hostname, port=parts.port)
    bucket = f"aw-watcher-web-firefox_{socket.gethostname()}"
    client.create_bucket(bucket, "web.tab.current", queued=False)
    try:
        now = datetime.now(UTC)
        client.insert_events(bucket, [
            Event(timestamp=now, duration=5, data={"url": "https://www.google.com/search?q=requests+timeout",
                                                   "title": "requests timeout - Google Search", "audible": False,
                                                   "incognito": False}),
            # earlier than the first, sent after it; still after the reader's start less its poll of slack (0.5 s:
            # watcher/activitywatch/reader.py `_cutoff`), as `now` is after the watcher started
            Event(timestamp=now - timedelta(seconds=0.25), duration=0,
                  data={"url": f"https://example.com/callback?access_token={SECRET}", "title": "Callback",
                        "audible": False, "incognito": False}),
            Event(timestamp=now, duration=1, data={"url": "https://secret.example/private", "title": "Private stuff",
                                                   "audible": False, "incognito": True}),
        ])
        try:
            wait_for(lambda: "searches on Google for 'requests timeout'" in run_cli("episodes", env=watcher.env).stdout,
                     timeout=20, what="the web page to become an episode")
        finally:
            code, err = watcher.stop()
        assert code == 0, err
        text = run_cli("episodes", env=watcher.env).stdout
        assert "visits 'Callback' on example.com in Firefox" in text
        assert "Private stuff" not in text  # incognito tabs are dropped
        assert SECRET not in text
        blob = b"".join(p.read_bytes() for p in proactive_home.rglob("*") if p.is_file())
        assert SECRET.encode() not in blob and b"secret.example" not in blob
        # our episodes were published to ActivityWatch as a bucket of our own
        with urllib.request.urlopen(f"{aw_server_url}/api/0/buckets/") as resp:
            buckets = json.loads(resp.read())
        ours = f"aw-watcher-proactive_{socket.gethostname()}"
        assert ours in buckets, buckets
        with urllib.request.urlopen(f"{aw_server_url}/api/0/buckets/{ours}/events") as resp:
            events = json.loads(resp.read())
        assert events and all(set(e["data"]) == {"app", "title"} for e in events), events
        # by default the sentences stay home (activitywatch_text = false): the search query is not published
        assert all("requests timeout" not in json.dumps(e) and SECRET not in json.dumps(e) for e in events)
    finally:  # the server is shared by the session's aw tests
        for name in client.get_buckets():
            if name in (bucket, f"aw-watcher-proactive_{socket.gethostname()}"):
                client.delete_bucket(name, force=True)
