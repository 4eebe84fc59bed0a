"""sounddevice really capturing: a virtual ALSA device (the ALSA `file` plugin reading a raw file).

Each test runs in a child process whose HOME holds an .asoundrc defining
the device, so ALSA (and PortAudio on top of it) see it from the start.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
from speech_helpers import REPO, clip

from voicejack.speech.audio import BLOCK_SAMPLES

ASOUNDRC = """
pcm.vjfile {{
    type file
    slave {{
        pcm "null"
    }}
    file "/dev/null"
    infile "{infile}"
    format "raw"
}}
pcm.vjmic {{
    type plug
    slave {{
        pcm "vjfile"
        format S16_LE
        rate 16000
        channels 1
    }}
    hint {{
        show on
        description "VoiceJack test microphone"
    }}
}}
"""


def virtual_microphone(home: Path, samples: np.ndarray) -> dict[str, str]:
    """Write the samples as the device's capture data; returns the environment that shows the device."""
    infile = home / "capture.raw"
    samples.astype("<i2").tofile(infile)
    (home / ".asoundrc").write_text(ASOUNDRC.format(infile=infile))
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(REPO)}
    env.pop("XDG_CONFIG_HOME", None)
    return env


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
