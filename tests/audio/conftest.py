"""Fixtures for the audio tests: offline outputs that collect their notices."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# The suite runs with --import-mode=importlib, which puts no test folder on sys.path;
# the test modules here import their listening helpers from audio_helpers.py.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from audio_helpers import REPO  # noqa: E402

from voicejack.audio.output import AudioOutput  # noqa: E402


class Notes(list[str]):
    """Collects notify() messages."""


@pytest.fixture
def notes() -> Notes:
    return Notes()


@pytest.fixture
def offline(notes: Notes) -> Iterator[AudioOutput]:
    """An offline output using the committed cue pack, headphones on, cues at full volume."""
    audio = AudioOutput(realtime=False, headphones=True, cue_volume=1.0, sounds_dir=REPO / "sounds",
                        notify=notes.append, on_text=None)
    yield audio
    audio.close()


