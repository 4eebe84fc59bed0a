"""WAV reading of any format a player might supply, resampling, and the cue pack on disk."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest
from audio_helpers import RATE, REPO

from voicejack.audio import cuepack
from voicejack.audio.cuenames import STEP_BY_COLOUR, Cue
from voicejack.app.sounds import sounds_main
from voicejack.audio.wavio import WavError, load_mono, read_wav, resample, write_wav


def write_raw_wav(path: Path, payload: bytes, channels: int, rate: int, bits: int, tag: int, extensible: bool = False) -> None:
    """A hand-built RIFF file, for encodings the wave module cannot write (24-bit, float, extensible)."""
    block = channels * bits // 8
    if extensible:
        fmt = struct.pack("<HHIIHHHHI16s", 0xFFFE, channels, rate, rate * block, block, bits, 22, bits, 3,
                          struct.pack("<H", tag) + b"\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71")
    else:
        fmt = struct.pack("<HHIIHH", tag, channels, rate, rate * block, block, bits)
    chunks = b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(payload)) + payload
    path.write_bytes(b"RIFF" + struct.pack("<I", 4 + len(chunks)) + b"WAVE" + chunks)


def tone(freq: float, seconds: float, rate: int) -> np.ndarray:
    return (0.5 * np.sin(2 * np.pi * freq * np.arange(int(seconds * rate)) / rate)).astype(np.float32)


def dominant_frequency(x: np.ndarray, rate: int) -> float:
    spectrum = np.abs(np.fft.rfft(x * np.hanning(x.size)))
    return float(np.fft.rfftfreq(x.size, 1 / rate)[np.argmax(spectrum)])


def test_16_bit_round_trip(tmp_path: Path) -> None:
    x = tone(440, 0.1, RATE)
    write_wav(tmp_path / "a.wav", x, RATE)
    wav = read_wav(tmp_path / "a.wav")
    assert wav.sample_rate == RATE and wav.channels == 1
    assert np.max(np.abs(wav.samples[:, 0] - x)) <= 1 / 32767


@pytest.mark.parametrize(("bits", "tag", "extensible"), [(24, 1, False), (32, 3, False), (8, 1, False), (32, 1, True)])
def test_other_encodings_decode_to_the_same_signal(tmp_path: Path, bits: int, tag: int, extensible: bool) -> None:
    left = tone(300, 0.05, 22050)
    right = -left
    frames = np.stack([left, right], axis=1)
    if tag == 3:
        payload = frames.astype("<f4").tobytes()
    elif bits == 8:
        payload = np.round(frames * 127 + 128).astype(np.uint8).tobytes()
    elif bits == 24:
        ints = np.round(frames * (2**23 - 1)).astype(np.int32).reshape(-1)
        payload = b"".join(int(v).to_bytes(3, "little", signed=True) for v in ints)
    else:
        payload = np.round(frames * (2**31 - 1)).astype("<i4").tobytes()
    write_raw_wav(tmp_path / "b.wav", payload, 2, 22050, bits, tag, extensible)
    wav = read_wav(tmp_path / "b.wav")
    assert wav.sample_rate == 22050 and wav.channels == 2
    tolerance = 1 / 100 if bits == 8 else 1e-5
    assert np.max(np.abs(wav.samples - frames)) <= tolerance


def test_not_a_wav_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "junk.wav").write_bytes(b"this is not audio at all")
    with pytest.raises(WavError, match="not a WAV"):
        read_wav(tmp_path / "junk.wav")
    with pytest.raises(WavError, match="cannot read"):
        read_wav(tmp_path / "absent.wav")


@pytest.mark.parametrize("rate_in", [8000, 22050, 44100, 96000])
def test_resampling_keeps_pitch_and_duration(rate_in: int) -> None:
    x = tone(1000, 0.3, rate_in)
    y = resample(x, rate_in, RATE)
    assert abs(y.size - 0.3 * RATE) <= 1
    assert abs(dominant_frequency(y, RATE) - 1000) < 5
    assert abs(np.max(np.abs(y[1000:-1000])) - 0.5) < 0.02


def test_load_mono_downmixes_stereo(tmp_path: Path) -> None:
    both = np.stack([tone(500, 0.1, 44100), tone(500, 0.1, 44100)], axis=1)
    write_wav(tmp_path / "s.wav", both, 44100)
    mono = load_mono(tmp_path / "s.wav", RATE)
    assert mono.ndim == 1 and abs(mono.size - 0.1 * RATE) <= 1
    assert abs(np.max(np.abs(mono[500:-500])) - 0.5) < 0.02


def test_every_cue_is_short_bounded_and_ends_quietly() -> None:
    for name in Cue:
        x = cuepack.synthesise(name)
        assert x.dtype == np.float32 and 0 < x.size <= RATE * 1.0, name
        assert 0.3 < np.max(np.abs(x)) <= 0.75, name  # headroom left for overlaps
        assert np.max(np.abs(x[-10:])) < 0.01, name   # faded: no click at the end


def test_step_cues_are_short_enough_to_count_at_seven_a_second() -> None:
    for name in (*STEP_BY_COLOUR.values(), Cue.STEP_BACK):
        assert cuepack.synthesise(name).size / RATE < 1 / 7 * 0.7, name


def spectral_centroid(x: np.ndarray) -> float:
    spectrum = np.abs(np.fft.rfft(x, 8192))
    return float(np.sum(np.fft.rfftfreq(8192, 1 / RATE) * spectrum) / np.sum(spectrum))


def test_step_cues_differ_from_each_other() -> None:
    names = (*STEP_BY_COLOUR.values(), Cue.STEP_BACK)
    sounds = {name: cuepack.synthesise(name) for name in names}
    centroids = sorted(spectral_centroid(x) for x in sounds.values())
    assert min(np.diff(centroids)) > 150  # distinct pitch registers, not just colour
    for a in names:
        for b in names:
            if a < b:
                x, y = sounds[a], sounds[b]
                corr = np.max(np.abs(np.correlate(x, y, "full"))) / (np.linalg.norm(x) * np.linalg.norm(y))
                assert corr < 0.5, (a, b, corr)


def test_capture_of_your_own_marble_sounds_unlike_a_capture() -> None:
    x, y = cuepack.synthesise(Cue.CAPTURE), cuepack.synthesise(Cue.CAPTURE_OWN)
    corr = np.max(np.abs(np.correlate(x, y, "full"))) / (np.linalg.norm(x) * np.linalg.norm(y))
    assert corr < 0.3


def test_committed_sounds_are_what_the_generator_makes() -> None:
    for name in Cue:
        wav = read_wav(REPO / "sounds" / cuepack.cue_filename(name))
        assert wav.sample_rate == cuepack.SAMPLE_RATE and wav.channels == 1, name
        assert np.max(np.abs(wav.samples[:, 0] - cuepack.synthesise(name))) <= 2 / 32767, name


def test_sounds_command_writes_the_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert sounds_main(["--out", str(tmp_path / "pack")]) == 0
    files = sorted(p.name for p in (tmp_path / "pack").glob("*.wav"))
    assert files == sorted(f"{name}.wav" for name in Cue)
    assert "Wrote 16 cues" in capsys.readouterr().out
    for path in (tmp_path / "pack").glob("*.wav"):
        header = path.read_bytes()[:44]
        assert struct.unpack_from("<HHI", header, 20)[1:] == (1, cuepack.SAMPLE_RATE)  # mono, 48 kHz
        assert struct.unpack_from("<H", header, 34)[0] == 16


def test_sounds_command_reports_mistakes_with_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert sounds_main(["--out", str(blocker / "sub")]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert sounds_main(["--rate", "12", "--out", str(tmp_path)]) == 2
    (tmp_path / "pack").mkdir()
    cuepack.write_pack(tmp_path / "pack")
    (tmp_path / "pack" / "win.wav").write_bytes(b"broken")
    assert sounds_main(["--check", "--out", str(tmp_path / "pack")]) == 2
    captured = capsys.readouterr()
    assert "win: built-in" in captured.out and "win.wav unreadable" in captured.err
    assert sounds_main(["--list"]) == 0
    assert "capture-own" in capsys.readouterr().out
