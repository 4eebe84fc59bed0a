"""The microphone side: device choice, the callback queue, and no-microphone notices.

Real capture is tested through a virtual ALSA device (test_speech_capture_alsa.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from speech_helpers import REPO

from voicejack.speech.microphone import (
    BlockQueue,
    DeviceInfo,
    NoMicrophone,
    resolve_input_device,
)

DEVICES = [
    DeviceInfo(0, "HDA Intel PCH: ALC3246 Analog (hw:0,0)", 2, 2, 44100.0, "ALSA", True, True),
    DeviceInfo(1, "HDA Intel PCH: HDMI 0 (hw:0,3)", 0, 8, 44100.0, "ALSA", False, False),
    DeviceInfo(2, "USB Headset: Audio (hw:1,0)", 1, 2, 48000.0, "ALSA", False, False),
    DeviceInfo(3, "USB Webcam: Audio (hw:2,0)", 1, 0, 16000.0, "ALSA", False, False),
]


def test_no_choice_means_the_system_default() -> None:
    assert resolve_input_device(None, DEVICES) is None
    assert resolve_input_device("", DEVICES) is None


def test_a_device_is_picked_by_number_or_by_part_of_its_name() -> None:
    assert resolve_input_device("2", DEVICES) == 2
    assert resolve_input_device(3, DEVICES) == 3
    assert resolve_input_device("headset", DEVICES) == 2
    assert resolve_input_device("WEBCAM", DEVICES) == 3


def test_outputs_cannot_be_picked_as_microphones() -> None:
    with pytest.raises(NoMicrophone, match="no input device number 1") as caught:
        resolve_input_device("1", DEVICES)
    assert caught.value.reason == "bad-device"
    with pytest.raises(NoMicrophone, match="no input device matches 'HDMI'"):
        resolve_input_device("HDMI", DEVICES)


def test_an_ambiguous_name_asks_for_the_number_and_lists_the_candidates() -> None:
    with pytest.raises(NoMicrophone, match="several input devices") as caught:
        resolve_input_device("usb", DEVICES)
    assert "2: USB Headset" in str(caught.value) and "3: USB Webcam" in str(caught.value)


def test_the_callback_copies_each_block_and_never_blocks() -> None:
    queue = BlockQueue(max_blocks=2)
    buffer = np.arange(1600, dtype=np.int16).reshape(-1, 1)
    queue.callback(buffer, 1600, None, None)
    buffer[:] = 0  # PortAudio reuses its buffer for the next block
    queue.callback(buffer, 1600, None, None)
    queue.callback(buffer, 1600, None, None)  # full: dropped, not waited for
    first = queue.get(timeout=0.1)
    assert first is not None and first.shape == (1600,) and first[5] == 5
    assert queue.dropped == 1
    assert queue.get(timeout=0.1) is not None and queue.get(timeout=0.01) is None


def run_voicejack(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "voicejack", *args], capture_output=True, text=True, check=False, timeout=60, cwd=REPO, env=env
    )


def test_without_portaudio_the_notice_names_the_missing_package(tmp_path: Path) -> None:
    # sounddevice raises OSError at import when libportaudio2 is absent; stand in for that import.
    (tmp_path / "sounddevice.py").write_text("raise OSError('PortAudio library not found')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)])}
    done = run_voicejack(["devices"], env)
    assert done.returncode == 2
    assert "libportaudio2" in done.stderr and "type your commands" in done.stderr
    assert "Traceback" not in done.stderr
    probe = subprocess.run(
        [sys.executable, "-c", textwrap.dedent("""
            from voicejack.speech.microphone import NoMicrophone, open_microphone
            try:
                open_microphone()
            except NoMicrophone as error:
                print(error.reason)
        """)],
        capture_output=True, text=True, check=False, timeout=60, cwd=REPO, env=env,
    )
    assert probe.stdout.strip() == "no-portaudio"


def test_without_any_input_device_the_notice_offers_typing(tmp_path: Path) -> None:
    # An ALSA configuration whose default device is a card that does not exist: PortAudio loads, nothing opens.
    (tmp_path / ".asoundrc").write_text("pcm.!default {\n type hw\n card 99\n}\nctl.!default {\n type hw\n card 99\n}\n")
    env = {**os.environ, "HOME": str(tmp_path), "PYTHONPATH": str(REPO)}
    env.pop("XDG_CONFIG_HOME", None)
    probe = subprocess.run(
        [sys.executable, "-c", textwrap.dedent("""
            from voicejack.speech.microphone import NoMicrophone, open_microphone
            try:
                open_microphone()
                print("opened")
            except NoMicrophone as error:
                print(error.reason)
                print(error)
        """)],
        capture_output=True, text=True, check=False, timeout=60, cwd=REPO, env=env,
    )
    lines = probe.stdout.strip().splitlines()
    assert lines[0] == "no-device", probe.stdout + probe.stderr
    assert "type your commands" in lines[1]
    listing = run_voicejack(["devices"], env)
    assert listing.returncode == 0
    assert "none: voice input is off" in listing.stdout


def test_listening_commands_share_the_input_device_and_headphones_options() -> None:
    import argparse

    from voicejack.speech.microphone import add_input_device_argument

    parser = argparse.ArgumentParser()
    add_input_device_argument(parser)
    args = parser.parse_args(["--input-device", "headset", "--headphones"])
    assert args.input_device == "headset" and args.headphones is True
    assert resolve_input_device(args.input_device, DEVICES) == 2
    defaults = parser.parse_args([])
    assert defaults.input_device is None and defaults.headphones is False
