"""Everything the player hears besides the recogniser: cues, spatial mixing and speech.

    from voicejack.audio import AudioOutput
    audio = AudioOutput()            # or AudioOutput(realtime=False) to render offline

See output.py for the facade, sonifier.py for how events become cues, and
mixer.py for the real-time rules the sound card callback follows.
"""

from voicejack.audio.cuepack import CUE_NAMES
from voicejack.audio.output import AudioOutput
from voicejack.audio.sonifier import ScheduledCue, Sonifier

__all__ = ["CUE_NAMES", "AudioOutput", "ScheduledCue", "Sonifier"]
