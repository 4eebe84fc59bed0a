"""sounddevice really capturing: a virtual ALSA device (the ALSA `file` plugin reading a raw file or a pipe).

Each test runs in a child process whose HOME holds an .asoundrc defining
the device, so ALSA (and PortAudio on top of it) see it from the start.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
from live_room import CHUNK_FRAMES, LiveRoom, device_environment, write_asoundrc
from speech_helpers import REPO, clip

from voicejack.speech.audio import BLOCK_SAMPLES

def virtual_microphone(home: Path, samples: np.ndarray) -> dict[str, str]:
    """Write the samples as the device's capture data; returns the environment that shows the device."""
    infile = home / "capture.raw"
    samples.astype("<i2").tofile(infile)
    write_asoundrc(home, infile)
    return device_environment(home, REPO)


CAPTURE = textwrap.dedent(
    """
    import json, sys, time
    import numpy as np
    from voicejack.language import Grammar
    from voicejack.speech.microphone import Listener, Microphone, list_devices
    from voicejack.speech.sphinx import SphinxRecogniser

    seconds = float(sys.argv[1])
    names = [d.name for d in list_devices() if d.inputs > 0]
    recogniser = SphinxRecogniser()
    recogniser.new_stream()
    recogniser.set_grammar(Grammar(("play king out", "play nine red two", "burn hand")))
    listener = Listener(recogniser)
    captured, heard = [], []
    with Microphone("vjmic") as microphone:
        deadline = time.monotonic() + seconds + 5.0
        while sum(len(b) for b in captured) < seconds * 16000 and time.monotonic() < deadline:
            block = microphone.blocks.get(timeout=0.5)
            if block is None:
                continue
            captured.append(block)
            result = listener.feed(block)
            if result is not None:
                heard.append(result.text)
    np.save(sys.argv[2], np.concatenate(captured))
    print(json.dumps({"inputs": names, "heard": heard, "blocks": [len(b) for b in captured[:3]]}))
    """
)


def test_the_microphone_captures_exactly_what_the_device_delivers_and_speech_in_it_is_heard(tmp_path: Path) -> None:
    speech = clip("play nine red two", "en-us", None, seed=21)
    tail = (np.random.default_rng(5).standard_normal(16_000) * 60).astype(np.int16)
    fed = np.concatenate([speech, tail])
    env = virtual_microphone(tmp_path, fed)
    seconds = (len(fed) - 4_000) / 16_000  # stop before the end of the file

    done = subprocess.run(
        [sys.executable, "-c", CAPTURE, str(seconds), str(tmp_path / "captured.npy")],
        capture_output=True, text=True, check=False, timeout=120, cwd=REPO, env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert "vjmic" in report["inputs"]
    assert report["blocks"] == [BLOCK_SAMPLES] * 3  # 20 ms blocks, 16 kHz mono int16, as requested

    captured = np.load(tmp_path / "captured.npy")
    assert captured.dtype == np.int16
    # The device hands over the file's samples unchanged, from its first sample on.
    assert np.array_equal(captured[: len(captured)], fed[: len(captured)])
    assert report["heard"] == ["play nine red two"]


def test_voicejack_devices_lists_the_virtual_microphone_and_selects_it(tmp_path: Path) -> None:
    env = virtual_microphone(tmp_path, np.zeros(16_000, dtype=np.int16))
    done = subprocess.run(
        [sys.executable, "-m", "voicejack", "devices", "--input-device", "vjmic"],
        capture_output=True, text=True, check=False, timeout=60, cwd=REPO, env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "input devices (microphones):" in done.stdout
    assert "vjmic" in done.stdout and "selects" in done.stdout
    wrong = subprocess.run(
        [sys.executable, "-m", "voicejack", "devices", "--input-device", "no such mic"],
        capture_output=True, text=True, check=False, timeout=60, cwd=REPO, env=env,
    )
    assert wrong.returncode == 2 and "no input device matches 'no such mic'" in wrong.stderr


LIVE_CAPTURE = textwrap.dedent(
    """
    import json, sys, time
    import numpy as np
    from voicejack.speech.microphone import Microphone

    seconds = float(sys.argv[1])
    captured, arrived = [], []
    with Microphone("vjmic") as microphone:
        while sum(len(b) for b in captured) < seconds * 16000:
            block = microphone.blocks.get(timeout=2.0)
            if block is None:
                break
            captured.append(block)
            arrived.append(time.monotonic())
        overflows = microphone.blocks.overflows
    np.save(sys.argv[2], np.concatenate(captured))
    # From the first block on: the backlog the pipe held before the stream opened comes at once.
    settled = next(i for i in range(1, len(arrived)) if arrived[i] - arrived[i - 1] > 0.005)
    rate = (len(arrived) - 1 - settled) * 320 / (arrived[-1] - arrived[settled])
    print(json.dumps({"overflows": overflows, "rate": rate}))
    """
)


def test_a_live_stream_through_a_pipe_is_captured_whole_and_in_real_time(tmp_path: Path) -> None:
    """The live room of the whole-match test: written at real-time pace in 80 ms chunks, what the
    microphone delivers is exactly what was written, with nothing lost, doubled or stale, at 16,000
    samples a second (not faster, which would mean the stream was padded with old data)."""
    rng = np.random.default_rng(8)
    room = LiveRoom(tmp_path / "mic.pipe", lambda count: rng.standard_normal(count) * 2000, keep=True)
    write_asoundrc(tmp_path, room.pipe)
    room.start()
    try:
        done = subprocess.run(
            [sys.executable, "-c", LIVE_CAPTURE, "4", str(tmp_path / "captured.npy")],
            capture_output=True, text=True, check=False, timeout=120, cwd=REPO,
            env=device_environment(tmp_path, REPO),
        )
    finally:
        room.stop()
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert room.error is None and report["overflows"] == 0
    assert 15_000 < report["rate"] < 17_000  # 80 ms chunks arrive in steps: a little jitter either way
    captured = np.load(tmp_path / "captured.npy")
    written = np.concatenate(room.written)
    assert len(captured) >= 4 * 16_000 and len(written) >= len(captured) + CHUNK_FRAMES
    assert np.array_equal(captured, written[: len(captured)])  # from the pipe's first sample on, unchanged
