"""Everything the player hears besides the recogniser: cues, spatial mixing and speech.

    from voicejack.audio import AudioOutput, Cue
    audio = AudioOutput()            # or AudioOutput(realtime=False) to render offline
    audio.cue(Cue.TURNED_BACK)

See output.py for the facade, sonifier.py for how events become cues, and
mixer.py for the real-time rules the sound card callback follows.

``Cue`` is imported at once (it needs nothing); the rest loads numpy and is
imported on first use, so naming a cue does not start the sound machinery.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from voicejack.audio.cuenames import Cue

if TYPE_CHECKING:
    from voicejack.audio.output import AudioOutput
    from voicejack.audio.sonifier import ScheduledCue, Sonifier

_LAZY = {"AudioOutput": "voicejack.audio.output", "ScheduledCue": "voicejack.audio.sonifier",
         "Sonifier": "voicejack.audio.sonifier"}

__all__ = ["AudioOutput", "Cue", "ScheduledCue", "Sonifier"]


def __getattr__(name: str) -> object:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
