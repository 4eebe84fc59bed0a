"""The microphone as one of the table's input sources."""

from __future__ import annotations

import threading
from collections.abc import Callable

from voicejack.language import Grammar
from voicejack.speech.microphone import NoMicrophone, VoiceInput
from voicejack.speech.recogniser import SpeechError
from voicejack.table.inputs import Push
from voicejack.table.settings import Settings


class VoiceSource:
    """Forwards what the listening thread hears (including "nothing caught", so the player is told)."""

    live = True

    def __init__(self, voice: VoiceInput) -> None:
        self.voice = voice
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, push: Push) -> None:
        self._thread = threading.Thread(target=self._forward, args=(push,), daemon=True, name="voice-forward")
        self._thread.start()

    def _forward(self, push: Push) -> None:
        while not self._stop.is_set():
            try:
                result = self.voice.heard(timeout=0.2)
            except SpeechError:
                return  # the microphone went away; typed input still works
            if result is not None:
                push(result[0])

    def set_grammar(self, grammar: Grammar) -> None:
        self.voice.set_grammar(grammar)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self.voice.stop()


def open_voice_source(settings: Settings, muted: Callable[[], bool] = lambda: False) -> tuple[VoiceSource | None, str]:
    """A listening microphone, or None and why not (said to the player, who then types)."""
    from voicejack.speech import make_recogniser

    try:
        recogniser = make_recogniser(settings.backend)
        voice = VoiceInput(recogniser, device=settings.input_device, muted=muted, headphones=settings.headphones)
        voice.start()
    except NoMicrophone as error:
        return None, "no microphone was found" if error.reason in ("no-device", "no-portaudio") else str(error)
    except SpeechError as error:
        return None, f"speech recognition is not available ({error})"
    return VoiceSource(voice), ""
