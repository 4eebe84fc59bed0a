"""Reading and writing WAV files, and bringing any WAV to the mixer's format.

The standard-library ``wave`` module only reads integer PCM, and players
replacing a cue may hand us 24-bit, float or multichannel files, so the RIFF
chunks are parsed here directly. Everything is returned as float32 in -1..1.
"""

from __future__ import annotations

import struct
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

_PCM = 1
_IEEE_FLOAT = 3
_EXTENSIBLE = 0xFFFE


class WavError(ValueError):
    """A file that is not a WAV we can read, with one clear message."""


@dataclass(frozen=True, slots=True)
class Wav:
    samples: np.ndarray  # float32, shape (frames, channels)
    sample_rate: int

    @property
    def channels(self) -> int:
        return int(self.samples.shape[1])

    @property
    def seconds(self) -> float:
        return int(self.samples.shape[0]) / self.sample_rate


def read_wav(path: str | Path) -> Wav:
    """Read a PCM (8/16/24/32-bit) or float (32/64-bit) WAV of any rate and channel count."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise WavError(f"{path}: cannot read ({error.strerror or error})") from None
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise WavError(f"{path}: not a WAV file (no RIFF/WAVE header)")
    fmt: tuple[int, int, int, int] | None = None
    payload: bytes | None = None
    offset = 12
    while offset + 8 <= len(data):
        chunk_id = data[offset:offset + 4]
        (size,) = struct.unpack_from("<I", data, offset + 4)
        body = data[offset + 8:offset + 8 + size]
        if chunk_id == b"fmt ":
            if len(body) < 16:
                raise WavError(f"{path}: fmt chunk too short")
            tag, channels, rate, _, _, bits = struct.unpack_from("<HHIIHH", body)
            if tag == _EXTENSIBLE and len(body) >= 26:
                (tag,) = struct.unpack_from("<H", body, 24)
            fmt = (tag, channels, rate, bits)
        elif chunk_id == b"data":
            payload = body
        offset += 8 + size + (size & 1)
    if fmt is None or payload is None:
        raise WavError(f"{path}: missing fmt or data chunk")
    tag, channels, rate, bits = fmt
    if channels < 1 or rate < 1:
        raise WavError(f"{path}: {channels} channels at {rate} Hz makes no sense")
    samples = _decode(payload, tag, bits, path)
    frames = samples.size // channels
    if frames == 0:
        raise WavError(f"{path}: no audio in the file")
    samples = samples[: frames * channels].reshape(frames, channels)
    return Wav(samples=np.ascontiguousarray(samples, dtype=np.float32), sample_rate=rate)


def _decode(payload: bytes, tag: int, bits: int, path: Path) -> np.ndarray:
    if tag == _PCM:
        if bits == 8:
            return (np.frombuffer(payload, np.uint8).astype(np.float32) - 128.0) / 128.0
        if bits == 16:
            return np.frombuffer(payload[: len(payload) // 2 * 2], "<i2").astype(np.float32) / 32768.0
        if bits == 24:
            raw = np.frombuffer(payload[: len(payload) // 3 * 3], np.uint8).reshape(-1, 3).astype(np.int32)
            value = raw[:, 0] | (raw[:, 1] << 8) | (raw[:, 2] << 16)
            value = np.where(value >= 1 << 23, value - (1 << 24), value)
            return value.astype(np.float32) / float(1 << 23)
        if bits == 32:
            return (np.frombuffer(payload[: len(payload) // 4 * 4], "<i4").astype(np.float64) / 2.0**31).astype(np.float32)
    if tag == _IEEE_FLOAT:
        if bits == 32:
            return np.frombuffer(payload[: len(payload) // 4 * 4], "<f4").astype(np.float32)
        if bits == 64:
            return np.frombuffer(payload[: len(payload) // 8 * 8], "<f8").astype(np.float32)
    raise WavError(f"{path}: unsupported WAV encoding (format tag {tag}, {bits} bits)")


def write_wav(path: str | Path, samples: np.ndarray, sample_rate: int) -> None:
    """Write float samples (frames,) or (frames, channels) as 16-bit PCM, clipping to -1..1."""
    array = np.asarray(samples, dtype=np.float32)
    if array.ndim == 1:
        array = array[:, None]
    pcm = np.round(np.clip(array, -1.0, 1.0) * 32767.0).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(int(array.shape[1]))
        out.setsampwidth(2)
        out.setframerate(int(sample_rate))
        out.writeframes(pcm.tobytes())


def to_mono(samples: np.ndarray) -> np.ndarray:
    """Average the channels (a downmix that keeps a centred sound at its level)."""
    if samples.ndim == 1:
        return samples.astype(np.float32, copy=False)
    return np.asarray(samples.mean(axis=1, dtype=np.float32))


def resample(mono: np.ndarray, rate_in: int, rate_out: int) -> np.ndarray:
    """Band-limited resampling by zero-padded FFT (exact for short cues and sentences).

    Padding both ends keeps the FFT's wrap-around from smearing the end of a
    sound onto its start.
    """
    mono = np.asarray(mono, dtype=np.float32)
    if rate_in == rate_out or mono.size == 0:
        return mono.copy()
    pad = 256
    padded = np.concatenate([np.zeros(pad, np.float32), mono, np.zeros(pad, np.float32)])
    n_in = padded.size
    n_out = int(round(n_in * rate_out / rate_in))
    spectrum = np.fft.rfft(padded)
    bins_out = n_out // 2 + 1
    if bins_out <= spectrum.size:
        spectrum = spectrum[:bins_out]
    else:
        spectrum = np.concatenate([spectrum, np.zeros(bins_out - spectrum.size, spectrum.dtype)])
    out = np.fft.irfft(spectrum, n_out) * (n_out / n_in)
    start = int(round(pad * rate_out / rate_in))
    length = int(round(mono.size * rate_out / rate_in))
    return out[start:start + length].astype(np.float32)


def load_mono(path: str | Path, sample_rate: int) -> np.ndarray:
    """Any WAV as mono float32 at ``sample_rate``."""
    wav = read_wav(path)
    return resample(to_mono(wav.samples), wav.sample_rate, sample_rate)
