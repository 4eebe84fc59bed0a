"""Speech through the real synthesiser (pyttsx3 over libespeak-ng), rendered offline and listened to."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from audio_helpers import RATE, envelope, lag_samples, position, rms
from conftest import Notes

from voicejack.audio.cuenames import Cue
from voicejack.audio.output import AudioOutput
from voicejack.audio.tts import EspeakCliBackend, SpeechRenderer, SpeechUnavailable

BLOCK = 512
SENTENCE = "Red one walks twelve cells to cell seventeen."


def voiced_seconds(audio: np.ndarray) -> float:
    env = envelope(audio, 0.02)
    return float(np.count_nonzero(env > 0.02 * env.max()) / RATE)


def test_speech_is_heard_and_the_microphone_stays_muted_meanwhile(offline: AudioOutput) -> None:
    assert offline.renderer.backend == "pyttsx3"
    offline.speak(SENTENCE)
    assert offline.is_speaking()
    audio = offline.render_until_idle()
    assert not offline.is_speaking()
    assert 1.5 < audio.shape[0] / RATE < 6.0
    assert rms(audio) > 0.02 and voiced_seconds(audio) > 1.0
    assert np.array_equal(audio[:, 0], audio[:, 1])  # your own game's voice is centred


def test_interrupted_speech_stops_within_one_buffer(offline: AudioOutput) -> None:
    offline.speak(SENTENCE)
    start = offline.render(0.5)
    assert rms(start[-4 * BLOCK:]) > 0.005  # mid-sentence
    offline.stop()
    assert not offline.is_speaking()
    after = offline.render(0.5)
    assert np.max(np.abs(after[BLOCK:])) == 0.0
    assert offline.mixer.idle()


def test_a_new_sentence_can_interrupt_the_old_one(offline: AudioOutput) -> None:
    offline.speak("This long sentence is about to be cut off by something more urgent, so it never finishes.")
    offline.speak("Nor is this queued one ever heard.")
    offline.render(0.4)
    offline.speak("Stop.", interrupt=True)
    audio = offline.render_until_idle()
    assert audio.shape[0] / RATE < 1.2  # only the short word is left to say
    assert voiced_seconds(audio[BLOCK:]) > 0.1


def test_sentences_queue_in_order(offline: AudioOutput, notes: Notes) -> None:
    offline.speak("One.")
    first = offline.render_until_idle().shape[0]
    offline.speak("One.")
    offline.speak("Two three four five six seven.")
    both = offline.render_until_idle().shape[0]
    assert both > first * 2 and notes == []


def test_rate_changes_how_long_a_sentence_takes(offline: AudioOutput) -> None:
    offline.set_rate(120)
    offline.speak(SENTENCE)
    slow = voiced_seconds(offline.render_until_idle())
    assert offline.set_rate(320) == 320
    offline.speak(SENTENCE)
    fast = voiced_seconds(offline.render_until_idle())
    assert fast < slow * 0.6
    assert offline.set_rate(5) == 80  # clamped to what the synthesiser can do


def test_the_voice_can_be_changed(offline: AudioOutput) -> None:
    ids = {voice.id for voice in offline.voices()}
    assert {"gmw/en", "gmw/en-us"} <= ids
    renders = []
    for voice in ("gmw/en", "gmw/en-us"):
        offline.set_voice(voice)
        offline.speak("Tomato, water, dance.")
        renders.append(offline.render_until_idle())
    assert renders[0].shape != renders[1].shape or not np.allclose(renders[0], renders[1])


def test_rendered_sentences_are_cached(offline: AudioOutput) -> None:
    text = "A sentence for the cache test, number 41."
    first = offline.renderer.render(text, None, 175, RATE)
    again = offline.renderer.render(text, None, 175, RATE)
    other_rate = offline.renderer.render(text, None, 240, RATE)
    assert not first.cached and again.cached and not other_rate.cached
    assert again.audio is first.audio
    assert other_rate.audio.size < first.audio.size


def test_another_players_announcement_comes_from_their_seat(offline: AudioOutput) -> None:
    offline.set_table("red", position({}, []).rules)
    offline.speak("Blue plays a queen.", direction="blue")  # blue sits on red's left
    audio = offline.render_until_idle()
    assert 20 * np.log10(rms(audio[:, 0]) / rms(audio[:, 1])) > 1.0
    assert lag_samples(audio[:, 0], audio[:, 1]) > 20
    offline.speak("My own move.", direction="red")
    own = offline.render_until_idle()
    assert np.array_equal(own[:, 0], own[:, 1])


def test_speech_and_cues_mix_together(offline: AudioOutput) -> None:
    offline.speak("Your turn.")
    offline.cue(Cue.YOUR_TURN, 90)
    audio = offline.render_until_idle()
    assert rms(audio[:, 1]) > rms(audio[:, 0])  # the cue on the right adds to the centred voice
    assert np.max(np.abs(audio)) <= 1.0


def test_speaking_from_several_threads_is_safe(notes: Notes) -> None:
    out = AudioOutput(realtime=False, notify=notes.append, on_text=None, sounds_dir=None)
    errors: list[BaseException] = []

    def talk(index: int) -> None:
        try:
            for k in range(5):
                out.set_rate(120 + 40 * ((index + k) % 5))
                out.speak(f"Thread {index} sentence {k}.")
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=talk, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    audio = out.render_until_idle()
    assert not errors and not out.is_speaking()
    assert audio.shape[0] / RATE > 20 * 0.5  # all twenty sentences were spoken
    out.close()


def test_espeak_program_is_the_fallback_when_pyttsx3_cannot_start(notes: Notes) -> None:
    def factory(name: str) -> EspeakCliBackend:
        if name == "pyttsx3":
            raise OSError("libespeak-ng.so.1: cannot open shared object file")
        return EspeakCliBackend()

    renderer = SpeechRenderer(notify=notes.append, factory=factory)  # type: ignore[arg-type]
    assert renderer.backend == "espeak-ng"
    assert len(notes) == 1 and "using espeak-ng" in notes[0]
    out = AudioOutput(realtime=False, renderer=renderer, notify=notes.append, on_text=None, sounds_dir=None)
    out.speak(SENTENCE)
    audio = out.render_until_idle()
    assert voiced_seconds(audio) > 1.0
    out.close()
    renderer.close()


def test_with_no_synthesiser_speech_becomes_text(notes: Notes) -> None:
    def factory(name: str) -> EspeakCliBackend:
        raise SpeechUnavailable(f"{name} missing")

    renderer = SpeechRenderer(factory=factory)  # type: ignore[arg-type]
    printed: list[str] = []
    out = AudioOutput(realtime=False, renderer=renderer, notify=notes.append, on_text=printed.append, sounds_dir=None)
    out.speak("Your turn.")
    out.speak("Red plays a king.")
    assert printed == ["Your turn.", "Red plays a king."]
    assert len(notes) == 1 and "text only" in notes[0]
    assert not out.is_speaking()
    out.cue(Cue.YOUR_TURN)
    assert rms(out.render_until_idle()) > 0.01  # cues still play
    out.close()
    renderer.close()


def test_espeak_program_renders_with_a_voice_and_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = EspeakCliBackend()
    slow, rate = backend.render("Testing one two three.", "gmw/en-us", 100)
    fast, _ = backend.render("Testing one two three.", "gmw/en-us", 300)
    assert rate == 22050 and slow.size > fast.size * 1.8 and rms(slow) > 0.01
    monkeypatch.setattr("voicejack.audio.tts.shutil.which", lambda name: None)
    with pytest.raises(SpeechUnavailable, match="not installed"):
        EspeakCliBackend()


def test_rate_and_voice_never_leak_between_requests() -> None:
    """pyttsx3/espeak-ng used to drop property changes (see Pyttsx3Backend); every request gets its own."""
    renderer = SpeechRenderer(("pyttsx3",))
    try:
        for index in range(12):
            voice = ("gmw/en", "gmw/en-us", None)[index % 3]
            text = f"Rate check sentence {index} goes here."
            slow = renderer.render(text, voice, 100, RATE).audio.size
            fast = renderer.render(text, voice, 300, RATE).audio.size
            assert fast < slow * 0.6, (index, voice, slow, fast)
    finally:
        renderer.close()
