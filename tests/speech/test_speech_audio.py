"""WAV input of any common PCM shape becomes the recognisers' 16 kHz mono int16."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest

from voicejack.speech.audio import (
    AudioFormatError,
    load_for_recognition,
    read_wav,
    resample,
    write_wav,
)


def write_pcm(path: Path, samples: np.ndarray, rate: int, width: int) -> None:
    """samples: float (frames, channels) in [-1, 1]."""
    channels = samples.shape[1]
    if width == 1:
        raw = np.round(samples * 127 + 128).astype(np.uint8).tobytes()
    elif width == 2:
        raw = np.round(samples * 32767).astype("<i2").tobytes()
    elif width == 3:
        ints = np.round(samples * (2**23 - 1)).astype("<i4").ravel()
        raw = b"".join(int(v).to_bytes(3, "little", signed=True) for v in ints)
    else:
        raw = np.round(samples * (2**31 - 1)).astype("<i4").tobytes()
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(channels)
        wav.setsampwidth(width)
        wav.setframerate(rate)
        wav.writeframes(raw)


def dominant_frequency(samples: np.ndarray, rate: int = 16_000) -> float:
    spectrum = np.abs(np.fft.rfft(samples.astype(np.float64)))
    return float(np.argmax(spectrum) * rate / len(samples))


@pytest.mark.parametrize("width", [1, 2, 3, 4])
@pytest.mark.parametrize("rate,channels", [(44_100, 2), (22_050, 1), (8_000, 1), (16_000, 2)])
def test_any_pcm_wav_becomes_16k_mono_int16_keeping_pitch_and_length(tmp_path: Path, width: int, rate: int, channels: int) -> None:
    seconds = 0.5
    t = np.arange(int(rate * seconds)) / rate
    tone = 0.5 * np.sin(2 * np.pi * 440.0 * t)
    samples = np.stack([tone] * channels, axis=1)
    path = tmp_path / "tone.wav"
    write_pcm(path, samples, rate, width)

    out = load_for_recognition(path)

    assert out.dtype == np.int16 and out.ndim == 1
    assert abs(len(out) - int(16_000 * seconds)) <= 1
    assert dominant_frequency(out) == pytest.approx(440.0, abs=3.0)
    assert np.max(np.abs(out)) == pytest.approx(0.5 * 32768, rel=0.05)


def test_stereo_is_mixed_down_not_left_only(tmp_path: Path) -> None:
    t = np.arange(16_000) / 16_000
    left = 0.4 * np.sin(2 * np.pi * 300 * t)
    right = 0.4 * np.sin(2 * np.pi * 1000 * t)
    path = tmp_path / "stereo.wav"
    write_pcm(path, np.stack([left, right], axis=1), 16_000, 2)
    out = load_for_recognition(path).astype(np.float64)
    spectrum = np.abs(np.fft.rfft(out))
    assert spectrum[300] > 0.3 * spectrum.max() and spectrum[1000] > 0.3 * spectrum.max()


def test_write_then_read_round_trips(tmp_path: Path) -> None:
    samples = (np.random.default_rng(1).standard_normal(3_200) * 3000).astype(np.int16)
    write_wav(tmp_path / "x.wav", samples)
    data, rate = read_wav(tmp_path / "x.wav")
    assert rate == 16_000
    assert np.array_equal(np.round(data[:, 0] * 32768).astype(np.int16), samples)


def test_resampling_is_band_limited() -> None:
    t = np.arange(48_000) / 48_000
    above_new_nyquist = np.sin(2 * np.pi * 12_000 * t)
    out = resample(above_new_nyquist, 48_000, 16_000)
    assert np.sqrt(np.mean(out**2)) < 0.01


def test_unreadable_files_give_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "notes.wav").write_text("these are not samples")
    with pytest.raises(AudioFormatError, match="not a PCM WAV"):
        load_for_recognition(tmp_path / "notes.wav")
    with pytest.raises(AudioFormatError, match="no such file"):
        load_for_recognition(tmp_path / "missing.wav")
