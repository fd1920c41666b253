"""A screencast's subtitles read as their transcript: cues' numbers and timings out, wrapped lines joined, a
sentence split over cues made whole again; the error read out in it gets the help a copied one gets."""

from __future__ import annotations

import pytest

from proactive.assistant.subtitles import transcript
from tests.bench_support import help_quality

SRT = """41
00:03:10,120 --> 00:03:13,400
Now we run pip install reqeusts.

42
00:03:13,900 --> 00:03:16,050
Hmm.

43
00:03:16,300 --> 00:03:20,800
The terminal says: ERROR: No matching
distribution found for reqeusts

44
00:03:21,000 --> 00:03:23,500
Let's see why.
"""

VTT = """WEBVTT

7
00:00:41.500 --> 00:00:44.000 align:start
You can see here: "ModuleNotFoundError:

8
00:00:44.100 --> 00:00:47.900
No module named 'yaml'".

9
00:00:48.000 --> 00:00:50.000
Pause the video if you want to read it.
"""


def test_cues_become_the_lines_of_a_transcript():
    assert transcript(SRT) == ("Now we run pip install reqeusts.\nHmm.\nThe terminal says: ERROR: No matching "
                               "distribution found for reqeusts\nLet's see why.")
    # a quote left open at a cue's end goes on in the next cue, though that one starts with a capital
    assert transcript(VTT).splitlines() == [
        "You can see here: \"ModuleNotFoundError: No module named 'yaml'\".",
        "Pause the video if you want to read it."]


@pytest.mark.parametrize("text", [
    "The user reads a talk's abstract: it starts at 00:03:10,120 --> and ends later.",
    "Meeting 10:00 --> 11:00 in room 4",
    "one cue only\n00:00:01,000 --> 00:00:02,000\nHello",
])
def test_text_with_fewer_than_two_timed_cues_is_left_as_it_is(text):
    assert transcript(text) == text


@pytest.mark.parametrize("text, expect", [(SRT, ["pip index versions reqeusts"]), (VTT, ["pip install pyyaml"])])
def test_an_error_read_out_in_subtitles_gets_its_specific_help(text, expect, tmp_path, monkeypatch):
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": text}], expect)
    assert got["ok"], got


def test_a_meetings_speaker_names_are_no_words_said(tmp_path, monkeypatch):
    """A meeting's captions name who spoke before each cue ('Ana Ruiz: '): the name goes, so a sentence a speaker
    splits over two cues reads whole, and the message in it gets the live help."""
    vtt = ("WEBVTT\n\n12\n00:05:01.000 --> 00:05:04.000\nLi Wei: Okay, what happened when you deployed?\n\n"
           "13\n00:05:04.500 --> 00:05:08.000\nAna Ruiz: So I type cargo build in the repo and\n\n"
           "14\n00:05:08.500 --> 00:05:12.000\nAna Ruiz: it says error[E0425]: cannot find value `cfg` in this scope.\n")
    said = transcript(vtt)
    assert "Ana Ruiz" not in said and "Li Wei" not in said
    assert "So I type cargo build in the repo and it says error[E0425]" in said
    # a cue whose text only looks like a name and a colon stays, when not every cue has one
    assert "Note: x" in transcript("1\n00:00:01.000 --> 00:00:02.000\nNote: x\n\n2\n00:00:02.000 --> 00:00:03.000\nyes\n")
