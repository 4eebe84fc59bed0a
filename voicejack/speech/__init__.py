"""Offline speech recognition for VoiceJack: pocketsphinx (built in), checked by Whisper tiny.en and Moonshine
base where installed, or vosk with an English model.

    >>> from voicejack.hearing import Grammar
    >>> from voicejack.speech import make_recogniser
    >>> recogniser = make_recogniser("sphinx")
    >>> recogniser.set_grammar(Grammar(("play king out", "burn hand")))
    >>> recogniser.name
    'sphinx'

Feed ``recogniser.accept(block)`` 16 kHz mono int16 blocks (a Listener
does it from a Microphone); each ended utterance comes back as a Heard.
Backends load lazily, so importing this package loads neither library.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from voicejack.hearing import Grammar, Heard
from voicejack.speech.audio import AudioFormatError, blocks, load_for_recognition
from voicejack.speech.recogniser import (
    GrammarError,
    Recogniser,
    SpeechError,
    StreamingRecogniser,
)

BACKENDS = ("auto", "vosk", "sphinx", "sphinx+whisper", "sphinx+whisper+moonshine")

__all__ = [
    "BACKENDS",
    "AudioFormatError",
    "GrammarError",
    "Recogniser",
    "SpeechError",
    "StreamingRecogniser",
    "choose_backend",
    "make_recogniser",
    "pad_with_room_tone",
    "recognise_file",
    "recognise_samples",
]


def choose_backend(backend: str = "auto", vosk_model: str | Path | None = None) -> str:
    """The recogniser a backend name stands for; 'auto' takes the best one installed.

    'auto' is 'sphinx+whisper' when faster-whisper and a Whisper tiny.en model are there (voicejack[whisper]:
    it turns far fewer mishearings into wrong moves, for 0.2-0.5 s more wait after speech, models/README.md),
    with Moonshine's second opinion when that is installed too (voicejack[moonshine]: more moves and commands
    right in noise and about half as many wrong, for about 0.1 s more); else 'vosk' when an English vosk
    model is present; else 'sphinx', which always works. The checked recognisers come before a vosk model
    found in the models directory because the one English vosk model that could be measured here (a small
    US English model) lost to them in every room of the benchmark, by far in noise (models/README.md,
    sixteenth round); a model the player names (``vosk_model``, $VOICEJACK_VOSK_MODEL) is used as asked.
    """
    if backend not in BACKENDS:
        raise SpeechError(f"unknown speech backend {backend!r} (choose from {', '.join(BACKENDS)})")
    if backend != "auto":
        return backend
    from voicejack.speech.models import MODEL_ENV, find_vosk_model
    from voicejack.speech.vosk_backend import check_model_layout

    path = find_vosk_model(vosk_model)
    usable = path is not None and path.is_dir() and not check_model_layout(path)
    if usable and (vosk_model or os.environ.get(MODEL_ENV)):
        return "vosk"
    if whisper_ready():
        return "sphinx+whisper+moonshine" if moonshine_ready() else "sphinx+whisper"
    return "vosk" if usable else "sphinx"


def whisper_ready() -> bool:
    """Can the Whisper second pass run here: faster-whisper importable and a tiny.en model found?"""
    import importlib.util

    from voicejack.speech.whisper_backend import find_whisper_model

    return importlib.util.find_spec("faster_whisper") is not None and find_whisper_model() is not None


def moonshine_ready() -> bool:
    """Can Moonshine give its second opinion here: onnxruntime importable and the model found?"""
    import importlib.util

    from voicejack.speech.moonshine_backend import find_moonshine_model

    return importlib.util.find_spec("onnxruntime") is not None and find_moonshine_model() is not None


def make_recogniser(backend: str = "auto", vosk_model: str | Path | None = None) -> StreamingRecogniser:
    """A ready recogniser (set a grammar before feeding audio). Raises SpeechError with a clear message."""
    chosen = choose_backend(backend, vosk_model)
    if chosen == "vosk":
        from voicejack.speech.models import DEFAULT_MODEL, MODEL_ENV, find_vosk_model
        from voicejack.speech.vosk_backend import VoskRecogniser

        path = find_vosk_model(vosk_model)
        if path is None:
            raise SpeechError(
                f"no vosk model found: run 'voicejack model download' (needs internet) to fetch {DEFAULT_MODEL}, "
                f"set {MODEL_ENV} to a model directory, or use --backend sphinx (built in, works offline)"
            )
        return VoskRecogniser(path)
    if chosen.startswith("sphinx+whisper"):
        from voicejack.speech.whisper_backend import SphinxWhisperRecogniser

        if chosen == "sphinx+whisper+moonshine":
            from voicejack.speech.moonshine_backend import MoonshineScorer

            return SphinxWhisperRecogniser(second_opinion=MoonshineScorer())
        return SphinxWhisperRecogniser()
    from voicejack.speech.sphinx import SphinxRecogniser

    return SphinxRecogniser()


def recognise_samples(samples: np.ndarray, grammar: Grammar, recogniser: StreamingRecogniser) -> Heard:
    """The first utterance in 16 kHz mono int16 samples, fed block by block like the microphone.

    Returns Heard("") when no speech was found at all.
    """
    from voicejack.speech.microphone import Listener

    recogniser.new_stream()
    recogniser.set_grammar(grammar)
    listener = Listener(recogniser)
    for heard in listener.feed_all(blocks(pad_with_room_tone(samples))):
        recogniser.reset()
        return heard
    return Heard("")


def pad_with_room_tone(samples: np.ndarray, lead: float = 0.5, tail: float = 0.7, seed: int = 0) -> np.ndarray:
    """Recordings often start right on the first word: give the endpointer background noise to learn
    from before it, and room for its hangover after it (noise at the recording's own quietest level)."""
    samples = np.asarray(samples, dtype=np.int16)
    frames = samples[: len(samples) // 160 * 160].reshape(-1, 160).astype(np.float64)
    quiet = float(np.sqrt(np.percentile(np.mean(frames**2, axis=1), 10))) if len(frames) else 0.0
    level = max(quiet, 30.0)
    rng = np.random.default_rng(seed)
    before = rng.standard_normal(int(lead * 16_000)) * level
    after = rng.standard_normal(int(tail * 16_000)) * level
    padded = np.concatenate([before, samples.astype(np.float64), after])
    return np.clip(np.round(padded), -32768, 32767).astype(np.int16)


def recognise_file(path: str | Path, grammar: Grammar, backend: str = "auto") -> Heard:
    """What a recording says, restricted to ``grammar`` (any PCM WAV: converted to 16 kHz mono).

    backend: 'auto' (vosk if an English model is present, else the best pocketsphinx pairing installed), 'vosk',
    'sphinx', 'sphinx+whisper' or 'sphinx+whisper+moonshine'.
    Raises AudioFormatError for an unreadable file, SpeechError for a missing model.
    """
    samples = load_for_recognition(path)
    return recognise_samples(samples, grammar, make_recogniser(backend))
