"""The microphone as one of the table's input sources."""

from __future__ import annotations

from collections.abc import Callable

from voicejack.language import Grammar, Heard
from voicejack.speech.listening import WakeWordError
from voicejack.speech.microphone import NoMicrophone, VoiceInput
from voicejack.speech.recogniser import SpeechError
from voicejack.table.inputs import Push, Utterance
from voicejack.table.listening import make_gate
from voicejack.table.messages import say
from voicejack.table.presenter import Presenter
from voicejack.table.settings import Settings


class VoiceSource:
    """What the listening thread hears, and its gate lets through, goes straight into the hub, with the
    grammar it was heard under (including "nothing caught", so the player is told). With a ``presenter``,
    the players are told when listening stops on an error (typing goes on)."""

    live = True

    def __init__(self, voice: VoiceInput, presenter: Presenter | None = None) -> None:
        self.voice = voice
        self.gate = voice.gate
        if presenter is not None:
            def tell(error: BaseException) -> None:
                presenter.say(say("speech_off", reason=_reason(error)), remember=False)

            voice.on_failure = tell

    def start(self, push: Push) -> None:
        def receive(heard: Heard, grammar: Grammar | None) -> None:
            push(Utterance(heard, grammar))

        self.voice.deliver_to(receive)

    def set_grammar(self, grammar: Grammar) -> None:
        self.voice.set_grammar(grammar)

    def close(self) -> None:
        self.voice.stop()


def open_voice_source(settings: Settings, muted: Callable[[], bool] = lambda: False,
                      presenter: Presenter | None = None) -> tuple[VoiceSource | None, str]:
    """A listening microphone, or None and why not (said to the player, who then types)."""
    from voicejack.speech import make_recogniser

    try:
        recogniser = make_recogniser(settings.backend)
        gate = make_gate(settings, recogniser, presenter)
        voice = VoiceInput(recogniser, device=settings.input_device, muted=muted, headphones=settings.headphones,
                           gate=gate)
        voice.start()
    except NoMicrophone as error:
        if error.reason in ("no-device", "no-portaudio"):
            return None, "no microphone was found"
        return None, str(error)
    except WakeWordError as error:
        return None, str(error)
    except SpeechError as error:
        return None, f"speech recognition is not available ({error})"
    return VoiceSource(voice, presenter), ""


def _reason(error: BaseException) -> str:
    """The error as the middle of a sentence: no full stop of its own."""
    return (str(error) or type(error).__name__).rstrip(". ")
