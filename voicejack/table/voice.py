"""The microphone as an input source: utterances recognised with the grammar of the moment."""

from __future__ import annotations

import threading
from collections.abc import Callable

from voicejack.language import Grammar, Heard
from voicejack.speech.microphone import Listener, Microphone, NoMicrophone, open_microphone
from voicejack.speech.recogniser import SpeechError, StreamingRecogniser
from voicejack.table.inputs import Push
from voicejack.table.settings import Settings


class VoiceSource:
    """Feeds microphone blocks to the recogniser on its own thread and pushes what it hears.

    Grammars are handed over to that thread and applied between blocks,
    so the recogniser is only ever touched by one thread (and it defers a
    switch requested mid-utterance until the utterance ends).
    """

    live = True

    def __init__(self, microphone: Microphone, recogniser: StreamingRecogniser,
                 muted: Callable[[], bool], headphones: bool) -> None:
        self.microphone = microphone
        self.recogniser = recogniser
        self.listener = Listener(recogniser, muted=muted, headphones=headphones)
        self._grammar: Grammar | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, push: Push) -> None:
        self._thread = threading.Thread(target=self._run, args=(push,), daemon=True, name="microphone")
        self._thread.start()

    def set_grammar(self, grammar: Grammar) -> None:
        with self._lock:
            self._grammar = grammar

    def _run(self, push: Push) -> None:
        self.recogniser.new_stream()
        while not self._stop.is_set():
            with self._lock:
                grammar, self._grammar = self._grammar, None
            if grammar is not None:
                self.recogniser.set_grammar(grammar)
            block = self.microphone.blocks.get(timeout=0.1)
            if block is None or self.recogniser.grammar is None:
                continue
            heard = self.listener.feed(block)
            if heard is not None and heard.text.strip():
                push(heard)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self.microphone.close()


def open_voice_source(settings: Settings, muted: Callable[[], bool] = lambda: False) -> tuple[VoiceSource | None, str]:
    """A listening microphone, or None and why not (said to the player, who then types)."""
    from voicejack.speech import make_recogniser

    try:
        recogniser = make_recogniser(settings.backend)
    except SpeechError as error:
        return None, f"speech recognition is not available ({error})"
    try:
        microphone = open_microphone(settings.input_device)
    except NoMicrophone as error:
        return None, "no microphone was found" if error.reason in ("no-device", "no-portaudio") else str(error)
    return VoiceSource(microphone, recogniser, muted, settings.headphones), ""
