"""The rooms the benchmark's players speak in: what gets between a synthesised voice and the microphone.

    quiet     a quiet microphone's self-noise only
    20 dB     white noise 20 dB below the speech
    room      a laptop across a reverberant room: a synthetic impulse response (exponentially decaying
              noise, RT60 0.4-0.8 s, direct sound about as strong as the reverberation), fan noise 20 dB
              below the reverberant speech, all through a band-limited microphone (200-3,600 Hz)
    babble    three other talkers (other synthesised voices saying table chatter, with short pauses)
              together 15 dB below the player
    music     synthesised music (chords of harmonic tones, bass, kick and hi-hat), 15 dB below the player

Every clip has a second of background before the speech (the microphone listens all the time, so the
endpointer has heard the room before anyone speaks) and 1.2 s after it; speech levels are normalised,
and every level is an active-speech power ratio (voicejack.speech.corpus.speech_power).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from voicejack.speech.audio import SAMPLE_RATE
from voicejack.speech.corpus import Clip, speech_power, talker_track

CONDITIONS = ("quiet", "20 dB", "room", "babble", "music")
SPEECH_RMS = 3000.0
ROOM_TONE_RMS = 30.0
LEAD_SECONDS = 1.0
TAIL_SECONDS = 1.2
BABBLE_TALKERS = 3
BABBLE_DB = 15.0
MUSIC_DB = 15.0


def make_clip(speech: np.ndarray, condition: str, seed: int, chatter: Sequence[np.ndarray] = ()) -> Clip:
    """``speech`` in ``condition``; ``chatter`` holds other talkers' utterances for the babble."""
    rng = np.random.default_rng(seed)
    power = speech_power(speech)
    voice = speech.astype(np.float64) * (SPEECH_RMS / np.sqrt(power) if power > 0 else 1.0)
    lead = int(LEAD_SECONDS * SAMPLE_RATE)
    length = lead + len(voice) + int(TAIL_SECONDS * SAMPLE_RATE)
    signal = np.zeros(length)
    signal[lead:lead + len(voice)] = voice
    reference = SPEECH_RMS**2
    if condition == "20 dB":
        signal += rng.standard_normal(length) * np.sqrt(reference / 10 ** 2.0)
    elif condition == "room":
        signal = reverberate(signal, rng)
        reference = speech_power(signal[lead:lead + len(voice)])
        signal += fan(length, rng) * np.sqrt(reference / 10 ** 2.0)
    elif condition == "babble":
        if not chatter:
            raise ValueError("babble needs other talkers' utterances")
        babble = sum(talker(chatter, length, rng) for _ in range(BABBLE_TALKERS))
        signal += scaled(np.asarray(babble), reference / 10 ** (BABBLE_DB / 10))
    elif condition == "music":
        signal += scaled(music(length, rng), reference / 10 ** (MUSIC_DB / 10))
    elif condition != "quiet":
        raise ValueError(f"unknown condition {condition!r} (one of {', '.join(CONDITIONS)})")
    signal += rng.standard_normal(length) * ROOM_TONE_RMS
    if condition == "room":
        signal = band_limit(signal, 200.0, 3600.0)
    samples = np.clip(np.round(signal), -32768, 32767).astype(np.int16)
    return Clip(samples, lead, lead + len(voice))


def scaled(noise: np.ndarray, power: float) -> np.ndarray:
    mean = float(np.mean(noise**2))
    return noise * np.sqrt(power / mean) if mean > 0 else noise


def reverberate(signal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    rt60 = rng.uniform(0.4, 0.8)
    taps = int(0.7 * SAMPLE_RATE)
    t = np.arange(taps) / SAMPLE_RATE
    tail = rng.standard_normal(taps) * np.exp(-6.91 * t / rt60)
    tail[: int(0.004 * SAMPLE_RATE)] = 0.0  # the first reflections arrive a few ms after the direct sound
    tail *= np.sqrt(rng.uniform(0.7, 1.4) / np.sum(tail**2))  # direct-to-reverberant ratio about 0 dB
    response = tail
    response[0] = 1.0
    return convolved(signal, response)


def convolved(signal: np.ndarray, response: np.ndarray) -> np.ndarray:
    """``signal`` through an impulse response (FFT convolution), cut to the signal's length."""
    size = 1 << int(np.ceil(np.log2(len(signal) + len(response))))
    wet: np.ndarray = np.fft.irfft(np.fft.rfft(signal, size) * np.fft.rfft(response, size), size)[: len(signal)]
    return wet


def fan(length: int, rng: np.random.Generator) -> np.ndarray:
    """A fan: low-frequency rumble (leaky-integrated noise), some hiss, and a motor hum with harmonics."""
    white = rng.standard_normal(length)
    rumble = np.convolve(white, 0.995 ** np.arange(2000))[:length]
    rumble /= np.std(rumble)
    t = np.arange(length) / SAMPLE_RATE
    hum_hz = rng.uniform(90, 130)
    hum = sum(np.sin(2 * np.pi * hum_hz * k * t + rng.uniform(0, 6.3)) / k for k in range(1, 5))
    noise = rumble + 0.4 * white + 0.5 * np.asarray(hum)
    return noise / np.std(noise)


def band_limit(signal: np.ndarray, low: float, high: float) -> np.ndarray:
    spectrum = np.fft.rfft(signal)
    frequencies = np.fft.rfftfreq(len(signal), 1 / SAMPLE_RATE)
    gain = np.clip((frequencies - low / 2) / (low / 2), 0, 1) * np.clip((high * 1.3 - frequencies) / (high * 0.3), 0, 1)
    limited: np.ndarray = np.fft.irfft(spectrum * gain, len(signal))
    return limited


def talker(chatter: Sequence[np.ndarray], length: int, rng: np.random.Generator) -> np.ndarray:
    """One other person at the table: utterances one after another with short pauses, from a random point."""
    return talker_track(chatter, length, rng)


def music(length: int, rng: np.random.Generator) -> np.ndarray:
    """Something music-like from numpy alone: a chord progression of harmonic tones over bass and drums,
    already playing when the clip begins (the first two seconds made are dropped)."""
    played = length + 2 * SAMPLE_RATE
    return _music(played, rng)[2 * SAMPLE_RATE:]


def _music(length: int, rng: np.random.Generator) -> np.ndarray:
    t_all = np.arange(length) / SAMPLE_RATE
    beat = 60.0 / rng.uniform(90, 130)
    roots = rng.choice([45, 50, 52, 55, 57], size=64)
    out = np.zeros(length)
    position = float(rng.uniform(0, beat))
    index = 0
    while position < length / SAMPLE_RATE:
        start = int(position * SAMPLE_RATE)
        span = min(length - start, int(2 * beat * SAMPLE_RATE))
        t = t_all[:span]
        envelope = np.exp(-t / (0.6 * beat))
        root = int(roots[index % len(roots)])
        for note in (root + 12, root + 16, root + 19):
            hz = 440.0 * 2 ** ((note - 69) / 12)
            out[start:start + span] += envelope * sum(np.sin(2 * np.pi * hz * k * t) / k for k in range(1, 7))
        bass_hz = 440.0 * 2 ** ((root - 69) / 12)
        out[start:start + span] += 1.5 * envelope * np.sin(2 * np.pi * bass_hz * t)
        kick = min(span, int(0.15 * SAMPLE_RATE))
        out[start:start + kick] += 3.0 * np.sin(2 * np.pi * 60 * t[:kick]) * np.exp(-t[:kick] / 0.04)
        hat_at = start + int(beat / 2 * SAMPLE_RATE)
        hat = min(max(0, length - hat_at), int(0.05 * SAMPLE_RATE))
        if hat:
            burst = np.diff(rng.standard_normal(hat + 1)) * np.exp(-np.arange(hat) / (0.01 * SAMPLE_RATE))
            out[hat_at:hat_at + hat] += 0.8 * burst
        position += 2 * beat
        index += 1
    return out
