"""Audio plumbing shared by every recogniser: the one format they take, WAV input, resampling.

Recognisers take 16 kHz mono signed 16-bit samples as numpy int16 arrays,
in blocks of any length. Everything else (WAV files at other rates, stereo,
8/24/32-bit, float) is converted here.
"""

from __future__ import annotations

import wave
from collections.abc import Iterator
from pathlib import Path

import numpy as np

SAMPLE_RATE = 16_000
# 20 ms: what the microphone callback delivers and what tests feed, so a
# recorded file goes through exactly the same block sizes as live audio.
# A result can only come at the end of a block, so the block adds up to its
# own length to the response time (0.1 s blocks: ~50 ms more at the median,
# 80 ms more at the 95th percentile, benchmarks/asr.py); processing cost
# per second of audio is the same.
BLOCK_SAMPLES = 320


class AudioFormatError(ValueError):
    """A file that is not a WAV recording we can read."""


def read_wav(path: str | Path) -> tuple[np.ndarray, int]:
    """Samples (float64 in [-1, 1], shape (frames, channels)) and the sample rate of a PCM WAV file."""
    try:
        with wave.open(str(path), "rb") as wav:
            channels = wav.getnchannels()
            width = wav.getsampwidth()
            rate = wav.getframerate()
            raw = wav.readframes(wav.getnframes())
    except FileNotFoundError:
        raise AudioFormatError(f"no such file: {path}") from None
    except (wave.Error, EOFError) as error:
        raise AudioFormatError(f"{path} is not a PCM WAV file ({error})") from None
    if width == 1:  # 8-bit WAV is unsigned
        data = (np.frombuffer(raw, dtype=np.uint8).astype(np.float64) - 128.0) / 128.0
    elif width == 2:
        data = np.frombuffer(raw, dtype="<i2").astype(np.float64) / 32768.0
    elif width == 3:
        bytes3 = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        value = bytes3[:, 0] | (bytes3[:, 1] << 8) | (bytes3[:, 2] << 16)
        value = np.where(value >= 1 << 23, value - (1 << 24), value)
        data = value.astype(np.float64) / float(1 << 23)
    elif width == 4:
        data = np.frombuffer(raw, dtype="<i4").astype(np.float64) / float(1 << 31)
    else:
        raise AudioFormatError(f"{path}: unsupported sample width of {width} bytes")
    usable = len(data) - len(data) % channels
    return data[:usable].reshape(-1, channels), rate


def resample(samples: np.ndarray, rate_from: int, rate_to: int) -> np.ndarray:
    """Band-limited resampling of a 1-D float signal (FFT method: exact for whole recordings)."""
    if rate_from == rate_to or len(samples) == 0:
        return samples.astype(np.float64)
    length = round(len(samples) * rate_to / rate_from)
    spectrum = np.fft.rfft(samples.astype(np.float64))
    bins = length // 2 + 1
    kept = np.zeros(bins, dtype=np.complex128)
    shared = min(bins, len(spectrum))
    kept[:shared] = spectrum[:shared]
    return np.fft.irfft(kept, length) * (length / len(samples))


def to_int16(samples: np.ndarray) -> np.ndarray:
    """Float samples in [-1, 1] to int16, clipping anything louder."""
    return np.clip(np.round(samples * 32768.0), -32768, 32767).astype(np.int16)


def to_recogniser_format(samples: np.ndarray, rate: int) -> np.ndarray:
    """(frames, channels) or (frames,) float samples at any rate -> 16 kHz mono int16."""
    mono = samples.mean(axis=1) if samples.ndim == 2 else samples
    return to_int16(resample(mono, rate, SAMPLE_RATE))


def load_for_recognition(path: str | Path) -> np.ndarray:
    """A WAV file as 16 kHz mono int16 samples."""
    samples, rate = read_wav(path)
    return to_recogniser_format(samples, rate)


def write_wav(path: str | Path, samples: np.ndarray, rate: int = SAMPLE_RATE) -> None:
    """Write mono int16 samples as a 16-bit PCM WAV file."""
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(np.asarray(samples, dtype="<i2").tobytes())


def blocks(samples: np.ndarray, size: int = BLOCK_SAMPLES) -> Iterator[np.ndarray]:
    """Split samples into consecutive blocks as a live input stream would deliver them."""
    for start in range(0, len(samples), size):
        yield samples[start:start + size]
