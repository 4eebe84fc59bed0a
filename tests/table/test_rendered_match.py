"""A match rendered to a WAV file (no sound card here: rendered offline) and checked by ear, so to speak:
every move's step sounds come before the sentence that tells the distance, and never under words."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from voicejack.app.play import play_main
from voicejack.audio import cuebank, mixer
from voicejack.audio.wavio import read_wav


def test_a_recorded_match_plays_each_moves_steps_before_its_words(tmp_path: Path, monkeypatch) -> None:
    cue_names: dict[int, str] = {}
    cues: list[tuple[str, int, int]] = []   # (name, first frame, frames)
    clips: list[mixer.SpeechClip] = []
    stereo, play, new_speech = cuebank.CueBank.stereo, mixer.Mixer.play, mixer.Mixer.new_speech

    def named_stereo(self, name, azimuth, headphones):
        buffer = stereo(self, name, azimuth, headphones)
        cue_names[id(buffer)] = name
        return buffer

    def logged_play(self, buffer, start_frame=None, gain=1.0):
        cues.append((cue_names.get(id(buffer), "?"), self.frame if start_frame is None else start_frame, len(buffer)))
        play(self, buffer, start_frame, gain)

    def logged_speech(self, text):
        clip = new_speech(self, text)
        clips.append(clip)
        return clip

    monkeypatch.setattr(cuebank.CueBank, "stereo", named_stereo)
    monkeypatch.setattr(mixer.Mixer, "play", logged_play)
    monkeypatch.setattr(mixer.Mixer, "new_speech", logged_speech)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr("sys.stdin", io.StringIO("options\n1\n" * 3 + "quit\nyes\n"))
    record = tmp_path / "match.wav"
    assert play_main(["--players", "2", "--seed", "1", "--keyboard", "--record", str(record)]) == 0

    wav = read_wav(record)
    samples = wav.samples
    assert wav.channels == 2
    spoken = [(clip.started_frame, clip.started_frame + len(clip.buffer), clip.text)
              for clip in clips if clip.buffer is not None and clip.started_frame >= 0]
    steps = [(start, frames) for name, start, frames in cues if name.startswith("step")]
    assert len(steps) > 10 and spoken
    # Never a step under a sentence...
    for start, _ in steps:
        assert not any(begin <= start < end for begin, end, _ in spoken), "a step sounded under speech"
    # ...and each walk told after its steps have been heard (steps first, then the distance in words).
    walks = [(begin, text) for begin, _, text in spoken if "walked" in text and text.startswith("Green played")]
    assert walks
    for begin, text in walks:
        before = [start + frames for start, frames in steps if start < begin]
        assert before, f"no steps before {text!r}"
        assert max(before) <= begin
    # The recording holds what was logged: sound where the steps are.
    start, frames = steps[0]
    window = samples[start:start + frames]
    assert float(np.sqrt(np.mean(window.astype(np.float64) ** 2))) > 1e-4
    assert len(samples) >= max(end for _, end, _ in spoken)
