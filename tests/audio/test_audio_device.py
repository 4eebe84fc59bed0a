"""Playing through a real sounddevice OutputStream into a virtual ALSA device, then reading back what it got.

There is no sound card here (nor in CI), so ALSA is given a "file" PCM that
writes every frame it receives to a raw file and passes it on to the "null"
PCM. ALSA reads its configuration once, when PortAudio starts, so the
playback runs in a subprocess whose XDG_CONFIG_HOME points at our asoundrc.
The null PCM does not keep real time: the stream runs as fast as the CPU
allows, which changes nothing about what is played.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from audio_helpers import RATE, REPO, rms

from voicejack.audio.cuenames import Cue
from voicejack.audio.cuebank import CueBank
from voicejack.audio.wavio import read_wav

PROBE = textwrap.dedent(
    """
    import json, sys
    import sounddevice
    from voicejack.audio import AudioOutput

    record_path = sys.argv[1]
    devices = [d["name"] for d in sounddevice.query_devices() if d["max_output_channels"] > 0]
    notes = []
    out = AudioOutput(device="voicejack_test_output", headphones=False, cue_volume=1.0, speech_volume=1.0,
                      record_path=record_path, record_ring_seconds=120.0, notify=notes.append, on_text=None)
    report = {"devices": devices, "has_device": out.has_device, "notes": notes}
    if out.has_device:
        out.cue("capture", azimuth=-45.0)
        report["cue_idle"] = out.wait_idle(20.0)
        out.speak("Testing the virtual sound card.")
        report["speech_idle"] = out.wait_idle(20.0)
        report["frames_mixed"] = out.mixer.frame
        report["lost"] = out.device_sink._tap.lost
    out.close()
    print(json.dumps(report))
    """
)


def first_sound(frames: np.ndarray) -> int:
    return int(np.flatnonzero(np.any(frames != 0.0, axis=1))[0])


def alsa_config(folder: Path, raw: Path) -> Path:
    config = folder / "config"
    (config / "alsa").mkdir(parents=True)
    (config / "alsa" / "asoundrc").write_text(textwrap.dedent(f"""
        pcm.voicejack_test_file {{
            type file
            slave.pcm "null"
            file "{raw}"
            format "raw"
        }}
        pcm.voicejack_test_output {{
            type plug
            slave {{
                pcm "voicejack_test_file"
                format FLOAT_LE
                rate {RATE}
                channels 2
            }}
        }}
    """))
    return config


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], np.ndarray, np.ndarray]:
    folder = tmp_path_factory.mktemp("alsa")
    raw = folder / "played.raw"
    record = folder / "recorded.wav"
    env = dict(os.environ, XDG_CONFIG_HOME=str(alsa_config(folder, raw)))
    result = subprocess.run([sys.executable, "-c", PROBE, str(record)], env=env, capture_output=True, text=True,
                            timeout=120, cwd=REPO)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["has_device"], f"the virtual ALSA device did not open: {report}"
    played_frames = np.fromfile(raw, dtype="<f4")
    return report, played_frames[: played_frames.size // 2 * 2].reshape(-1, 2), read_wav(record).samples


def test_the_virtual_device_is_listed_and_opened(played: tuple[dict[str, object], np.ndarray, np.ndarray]) -> None:
    report, _, _ = played
    assert "voicejack_test_output" in report["devices"]  # type: ignore[operator]
    assert report["notes"] == [] and report["cue_idle"] and report["speech_idle"]


def test_the_device_received_exactly_the_cue_that_was_sent(played: tuple[dict[str, object], np.ndarray, np.ndarray]) -> None:
    _, audio, _ = played
    expected = CueBank(RATE, REPO / "sounds").stereo(Cue.CAPTURE, -45.0, False)
    start = first_sound(audio) - first_sound(expected)
    assert np.allclose(audio[start:start + expected.shape[0]], expected, atol=1e-6)
    assert rms(audio[start:start + expected.shape[0], 0]) > rms(audio[start:start + expected.shape[0], 1])  # panned left


def test_the_device_received_the_speech(played: tuple[dict[str, object], np.ndarray, np.ndarray]) -> None:
    _, audio, _ = played
    expected = CueBank(RATE, REPO / "sounds").stereo(Cue.CAPTURE, -45.0, False)
    cue_start = first_sound(audio)
    after_cue = audio[cue_start + expected.shape[0]:]
    voiced = np.flatnonzero(np.abs(after_cue[:, 0]) > 0.01)
    assert voiced.size > 0.5 * RATE * 0.3  # a good part of a second of voice
    speech = after_cue[voiced[0]: voiced[-1]]
    assert np.array_equal(speech[:, 0], speech[:, 1])  # our own announcement: centred


def test_recording_while_playing_keeps_every_frame(played: tuple[dict[str, object], np.ndarray, np.ndarray]) -> None:
    report, audio, recorded = played
    assert report["lost"] == 0
    assert recorded.shape[0] >= report["frames_mixed"]  # the stream runs on until closed
    # PortAudio primes the device with silence before the first callback, so the device
    # may have received some zeros the mixer never made: align on the first sound.
    offset = first_sound(audio) - first_sound(recorded)
    assert offset >= 0 and np.max(np.abs(audio[:offset]), initial=0.0) == 0.0
    played_back = audio[offset:offset + recorded.shape[0]]
    assert played_back.shape[0] >= recorded.shape[0] - 4096  # at most the last block is still in flight at close
    assert np.max(np.abs(played_back - recorded[: played_back.shape[0]])) <= 2.0 / 32767  # 16-bit rounding


def test_the_device_and_an_offline_render_play_the_same_samples(
    played: tuple[dict[str, object], np.ndarray, np.ndarray],
) -> None:
    """The real-time path and the offline path (which every other test listens to) are one mixer."""
    from voicejack.audio.output import AudioOutput

    out = AudioOutput(realtime=False, headphones=False, cue_volume=1.0, sounds_dir=REPO / "sounds",
                      notify=lambda message: None, on_text=None)
    out.cue(Cue.CAPTURE, -45.0)
    offline = out.render_until_idle()
    out.close()
    _, audio, _ = played
    start = first_sound(audio) - first_sound(offline)
    assert np.allclose(audio[start:start + offline.shape[0]], offline, atol=1e-6)
