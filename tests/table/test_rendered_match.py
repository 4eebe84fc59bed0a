"""A match rendered to a WAV file (no sound card here: rendered offline) and checked by ear, so to speak:
every move's step sounds come before the sentence that tells the distance, and never under words."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from voicejack.app.play import play_main
from voicejack.audio.output import AudioOutput, Played
from voicejack.audio.wavio import read_wav


def test_a_recorded_match_plays_each_moves_steps_before_its_words(tmp_path: Path, monkeypatch) -> None:
    heard: list[Played] = []
    close = AudioOutput.close

    def close_and_keep_timeline(self: AudioOutput) -> None:
        heard.extend(self.played())
        close(self)

    monkeypatch.setattr(AudioOutput, "close", close_and_keep_timeline)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr("sys.stdin", io.StringIO("options\noption one\n" * 3 + "quit the game\nyes\n"))
    record = tmp_path / "match.wav"
    assert play_main(["--players", "2", "--seed", "1", "--keyboard", "--record", str(record)]) == 0

    wav = read_wav(record)
    assert wav.channels == 2
    speech = [item for item in heard if item.kind == "speech"]
    steps = [item for item in heard if item.kind == "cues" and "step" in item.what]
    assert len(steps) >= 3 and speech
    # Never a step under a sentence...
    for group in steps:
        assert not any(s.started <= group.started < s.ended for s in speech), f"steps {group} sounded under speech"
    # ...and the sentence after each group of steps starts once the steps have been heard.
    for group in steps:
        following = [s for s in speech if s.started >= group.started]
        assert following, f"nothing told after {group}"
        assert following[0].started >= group.ended
    # Green's (the bot's) moves are each told right after their steps.
    told = [s for s in speech if s.what.startswith("Green")]
    assert told
    for sentence in told:
        earlier = [item for item in heard if item.started < sentence.started]
        assert earlier and earlier[-1].kind == "cues", f"{sentence.what!r} did not follow its steps"
    # The recording holds what was logged: sound where the steps are.
    rate = wav.sample_rate
    first = steps[0]
    window = wav.samples[int(first.started * rate):int(first.ended * rate)]
    assert float(np.sqrt(np.mean(window.astype(np.float64) ** 2))) > 1e-4
    assert len(wav.samples) >= int(max(s.ended for s in speech) * rate)
