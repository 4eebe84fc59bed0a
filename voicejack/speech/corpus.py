"""Synthetic speech for tests and benchmarks: espeak-ng voices, seeded noise, room-tone padding, babble.

Real microphones never deliver exact digital silence, and pocketsphinx
does measurably worse on clips padded with zeros, so every clip is padded
with low-level noise instead.

``Babble`` is other people at the table talking on and on, read block by
block for as long as wanted (a live room), at a level relative to the player.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import wave
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from voicejack.speech.audio import SAMPLE_RATE, to_recogniser_format

# Voices from the plain Debian espeak-ng package (no mbrola data needed).
VOICES: tuple[str, ...] = ("en-us", "en", "en-us+m3", "en-us+f2", "en-gb-scotland")

# Speech samples quieter than this (int16) do not count towards the speech level.
_ACTIVE_LEVEL = 300


class SynthesisError(RuntimeError):
    """espeak-ng is missing or failed."""


def espeak_available() -> bool:
    return shutil.which("espeak-ng") is not None


def synthesise(text: str, voice: str = "en-us", words_per_minute: int = 150, pitch: int | None = None) -> np.ndarray:
    """``text`` spoken by espeak-ng, as 16 kHz mono int16 without leading or trailing padding.

    ``pitch`` is espeak-ng's 0-99 (None: the voice's own, 50).
    """
    if not espeak_available():
        raise SynthesisError("espeak-ng is not installed (Debian package espeak-ng)")
    pitch_option = [] if pitch is None else ["-p", str(pitch)]
    result = subprocess.run(
        ["espeak-ng", "-v", voice, "-s", str(words_per_minute), *pitch_option, "--stdout", text],
        capture_output=True,
        check=False,
    )
    if result.returncode != 0 or not result.stdout:
        raise SynthesisError(f"espeak-ng failed for voice {voice!r}: {result.stderr.decode(errors='replace').strip()}")
    with wave.open(io.BytesIO(result.stdout)) as wav:
        rate = wav.getframerate()
        raw = wav.readframes(wav.getnframes())
    samples = np.frombuffer(raw, dtype="<i2").astype(np.float64) / 32768.0
    return trim_silence(to_recogniser_format(samples, rate))


def trim_silence(samples: np.ndarray, level: int = 64) -> np.ndarray:
    """Drop the leading and trailing near-silence espeak-ng adds around an utterance."""
    loud = np.flatnonzero(np.abs(samples.astype(np.int32)) > level)
    if len(loud) == 0:
        return samples[:0]
    return samples[loud[0]:loud[-1] + 1]


def speech_power(samples: np.ndarray) -> float:
    """Mean power of the active (non-silent) samples, the reference for an SNR."""
    values = samples.astype(np.float64)
    active = values[np.abs(values) > _ACTIVE_LEVEL]
    return float(np.mean(active**2)) if len(active) else 0.0


def babble_like(length: int, rng: np.random.Generator) -> np.ndarray:
    """Unit-power noise with a speech-like spectrum and slow level changes (a crude babble stand-in)."""
    white = rng.standard_normal(length)
    # Pink-ish tilt: white noise plus a leaky integral of it, then a slow amplitude wobble.
    leak = 0.97 ** np.arange(256)
    tilted = np.convolve(white, leak)[:length] + 2.0 * white
    wobble = 1.0 + 0.5 * np.sin(2 * np.pi * 3.0 * np.arange(length) / SAMPLE_RATE + rng.uniform(0, 2 * np.pi))
    noise = tilted * wobble
    unit: np.ndarray = noise / np.sqrt(np.mean(noise**2))
    return unit


@dataclass(frozen=True, slots=True)
class Clip:
    """A padded, noisy utterance and where the speech in it ends."""

    samples: np.ndarray
    speech_start: int
    speech_end: int  # sample index just after the last speech sample


def make_clip(
    speech: np.ndarray,
    snr_db: float | None,
    seed: int,
    noise: str = "white",
    lead_seconds: float = 0.5,
    tail_seconds: float = 1.0,
    room_level: float = 20.0,
) -> Clip:
    """Pad ``speech`` with room tone and add noise at ``snr_db`` (None: clean, room tone only).

    The room tone (white noise at ``room_level`` int16 RMS) stands in for a
    quiet microphone's self-noise so the clip never holds digital zeros.
    """
    rng = np.random.default_rng(seed)
    lead = int(lead_seconds * SAMPLE_RATE)
    tail = int(tail_seconds * SAMPLE_RATE)
    length = lead + len(speech) + tail
    signal = np.zeros(length, dtype=np.float64)
    signal[lead:lead + len(speech)] = speech
    signal += rng.standard_normal(length) * room_level
    if snr_db is not None:
        unit = babble_like(length, rng) if noise == "babble" else rng.standard_normal(length)
        sigma = np.sqrt(speech_power(speech) / 10 ** (snr_db / 10))
        signal += unit * sigma
    samples = np.clip(np.round(signal), -32768, 32767).astype(np.int16)
    return Clip(samples, lead, lead + len(speech))


# What the others at a table say while someone plays (never words of the game's command language).
TABLE_TALK: tuple[str, ...] = (
    "could you pass me the salt please",
    "wait a moment let me think",
    "did you see the match last night",
    "i will put the kettle on",
    "the traffic was awful this morning",
    "she said she would ring back later",
    "my brother bought a new bicycle",
    "it rained the whole weekend",
    "who wants another biscuit",
    "we should go to the seaside in summer",
    "have you finished that book yet",
    "the dog needs a walk after this",
)


def talker_track(utterances: Sequence[np.ndarray], length: int, rng: np.random.Generator,
                 pause: tuple[float, float] = (0.05, 0.4)) -> np.ndarray:
    """One person talking for ``length`` samples: utterances in random order with short pauses, each
    at unit active power, starting somewhere inside the first one (float64)."""
    if not utterances:
        raise ValueError("a talker needs something to say")
    pieces: list[np.ndarray] = []
    total = 0
    offset = int(rng.integers(0, SAMPLE_RATE))
    while total < length + offset:
        said = utterances[int(rng.integers(len(utterances)))].astype(np.float64)
        power = speech_power(said)
        pieces.append(said / np.sqrt(power) if power > 0 else said)
        pieces.append(np.zeros(int(rng.uniform(*pause) * SAMPLE_RATE)))
        total += len(pieces[-2]) + len(pieces[-1])
    track: np.ndarray = np.concatenate(pieces)[offset:offset + length]
    return track


class Babble:
    """Several talkers going on for ever: each one's track is played round and round, and the tracks have
    different lengths, so the mix does not repeat for a long time. ``read`` gives the next samples (float64)
    with the talkers together at mean power ``power``."""

    def __init__(self, tracks: Sequence[np.ndarray], power: float) -> None:
        if not tracks:
            raise ValueError("babble needs at least one talker")
        total = sum(float(np.mean(track.astype(np.float64) ** 2)) for track in tracks)
        gain = np.sqrt(power / total) if total > 0 else 0.0
        self._tracks = [track.astype(np.float64) * gain for track in tracks]
        self._positions = [0] * len(tracks)

    def read(self, count: int) -> np.ndarray:
        mixed = np.zeros(count)
        for index, track in enumerate(self._tracks):
            start = self._positions[index]
            wrapped = np.take(track, np.arange(start, start + count), mode="wrap")
            mixed += wrapped
            self._positions[index] = (start + count) % len(track)
        return mixed


def make_babble(voices: Sequence[str], power: float, seconds: float = 40.0, seed: int = 0,
                lines: Sequence[str] = TABLE_TALK, words_per_minute: int = 160) -> Babble:
    """One talker per voice saying ``lines`` (tracks of about ``seconds`` each, no two the same length)."""
    rng = np.random.default_rng(seed)
    tracks = []
    for index, voice in enumerate(voices):
        said = [synthesise(line, voice, words_per_minute) for line in lines]
        length = int(seconds * (1.0 + 0.17 * index) * SAMPLE_RATE)
        tracks.append(talker_track(said, length, rng))
    return Babble(tracks, power)
