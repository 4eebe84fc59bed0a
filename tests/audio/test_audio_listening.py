"""Tests that listen: moves and cues rendered offline through the real mixer, then analysed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from audio_helpers import RATE, best_match, lag_samples, move_events, onsets, position, rms
from conftest import Notes

from voicejack.audio import cuepack
from voicejack.audio.cuenames import Cue
from voicejack.audio.mixer import DUCK_LEVEL, MAX_VOICES
from voicejack.audio.output import AudioOutput
from voicejack.audio.spatial import MAX_EAR_DIFFERENCE_DB
from voicejack.audio.wavio import read_wav, write_wav

BLOCK = 512


def test_a_queens_walk_is_heard_as_twelve_steps(offline: AudioOutput) -> None:
    state = position({"red 1": 5}, ["Q"])
    offline.play_events(move_events(state, "Q"), state, listener="red")
    audio = offline.render_until_idle()
    heard = onsets(audio)
    assert len(heard) == 12
    gaps = np.diff(heard)
    assert np.all(np.abs(gaps - 1 / 7) < 0.005)  # evenly paced, countable
    # Cells 6..17 lie on red's left (own base behind, next seat left): each step leans left.
    for start in heard:
        step = audio[int(start * RATE): int((start + 0.06) * RATE)]
        assert rms(step[:, 0]) > rms(step[:, 1])


def test_a_walk_travels_round_the_head(offline: AudioOutput) -> None:
    state = position({"red 1": 30}, ["10"])  # cells 31..40: from front-left through ahead to front-right
    offline.play_events(move_events(state, "10"), state, listener="red")
    audio = offline.render_until_idle()
    balance = []
    for start in onsets(audio):
        step = audio[int(start * RATE): int((start + 0.06) * RATE)]
        balance.append(20 * np.log10(rms(step[:, 1]) / rms(step[:, 0])))  # > 0: on the right
    assert len(balance) == 10
    assert balance[0] < -0.5 and balance[-1] > 0.5
    assert np.all(np.diff(balance) > 0)  # left to right, step by step


def test_a_capture_plays_the_capture_cue_after_the_walk(offline: AudioOutput) -> None:
    state = position({"red 1": 10, "blue 1": 22}, ["Q"])
    timeline = offline.play_events(move_events(state, "Q"), state, listener="red")
    audio = offline.render_until_idle()
    azimuth = timeline[-1].azimuth
    score, offset = best_match(audio, offline.cues.stereo(Cue.CAPTURE, azimuth, True))
    assert score > 0.99
    assert offset / RATE == pytest.approx(12 / 7, abs=0.002)
    own_score, _ = best_match(audio, offline.cues.stereo(Cue.CAPTURE_OWN, azimuth, True))
    assert own_score < 0.5


def test_partner_capture_plays_the_own_capture_cue(offline: AudioOutput) -> None:
    state = position({"red 1": 10, "green 1": 22}, ["Q"])
    timeline = offline.play_events(move_events(state, "Q"), state, listener="red")
    audio = offline.render_until_idle()
    own = offline.cues.stereo(Cue.CAPTURE_OWN, timeline[-1].azimuth, True)
    other = offline.cues.stereo(Cue.CAPTURE, timeline[-1].azimuth, True)
    assert best_match(audio, own)[0] > 0.99 and best_match(audio, other)[0] < 0.5


def test_a_sound_from_the_left_seat_is_louder_and_earlier_on_the_left(offline: AudioOutput) -> None:
    state = position({}, [])
    offline.set_table("red", state.rules)
    offline.cue(Cue.BURN, offline.seat_azimuth("blue"))  # blue sits on red's left
    audio = offline.render_until_idle()
    left, right = audio[:, 0], audio[:, 1]
    assert 20 * np.log10(rms(left) / rms(right)) > 1.0
    assert 25 <= lag_samples(left, right) <= 40  # about 0.6 ms later in the right ear


def test_on_speakers_the_right_seat_is_panned_right_without_delay_and_the_left_still_hears_it(notes: Notes) -> None:
    audio_out = AudioOutput(realtime=False, headphones=False, sounds_dir=None, notify=notes.append, on_text=None)
    audio_out.set_table("red", position({}, []).rules)
    audio_out.cue(Cue.DEAL, audio_out.seat_azimuth("yellow"))  # yellow sits on red's right
    audio = audio_out.render_until_idle()
    # Hard right used to leave the left channel silent; now it is the limit below, never more.
    difference = 20 * np.log10(rms(audio[:, 1]) / rms(audio[:, 0]))
    assert difference == pytest.approx(MAX_EAR_DIFFERENCE_DB, abs=0.05)
    assert lag_samples(audio[:, 1], audio[:, 0]) == 0
    audio_out.close()


def test_the_output_never_clips_however_many_sounds_overlap(offline: AudioOutput) -> None:
    offline.set_cue_volume(2.0)
    offline.set_speech_volume(2.0)
    rng = np.random.default_rng(5)
    loud = np.full((RATE // 2, 2), 0.9, np.float32) * np.sign(rng.standard_normal((RATE // 2, 1))).astype(np.float32)
    for index in range(MAX_VOICES):
        offline.mixer.play(loud if index % 4 == 0 else offline.cues.stereo(Cue.WIN, index * 11.0, True), gain=2.0)
    clip = offline.mixer.new_speech("noise")
    clip.deliver(loud)
    audio = offline.render_until_idle()
    assert audio.shape[0] >= RATE // 2
    assert np.max(np.abs(audio)) <= 1.0
    assert np.max(np.abs(audio)) > 0.9            # limited, not muted
    assert offline.mixer.peak_reduction < 0.1
    # The limiter lets go afterwards: a lone cue a few seconds later plays at its own level.
    offline.render(3.0)
    offline.set_cue_volume(1.0)
    offline.cue(Cue.SAFE)
    alone = offline.render_until_idle()
    reference = offline.cues.stereo(Cue.SAFE, 0.0, True)
    assert np.max(np.abs(alone)) == pytest.approx(np.max(np.abs(reference)), rel=0.02)


def test_stop_silences_everything_within_one_buffer(offline: AudioOutput) -> None:
    for index in range(10):
        offline.cue(Cue.WIN, index * 30.0)
    clip = offline.mixer.new_speech("tone")
    clip.deliver(np.full((RATE * 2, 2), 0.2, np.float32))
    before = offline.render(BLOCK * 20 / RATE)
    assert rms(before[-BLOCK:]) > 0.05
    offline.stop()
    assert not offline.is_speaking()
    after = offline.render(BLOCK * 10 / RATE)
    assert np.max(np.abs(after[:BLOCK])) <= np.max(np.abs(before[-BLOCK:])) + 1e-6  # fading out, never jumping up
    assert np.max(np.abs(after[BLOCK:])) == 0.0                                   # then silence
    assert offline.mixer.idle()


def test_cutting_the_timeline_leaves_the_cues_played_at_once_playing(offline: AudioOutput) -> None:
    offline.set_speech_volume(1.0)
    clip = offline.mixer.new_speech("tone")
    clip.deliver(np.full((RATE, 2), 0.2, np.float32))
    offline.render(0.1)
    offline.cue(Cue.WIN)
    offline.stop_timeline()
    audio = offline.render(0.5)
    reference = offline.cues.stereo(Cue.WIN, 0.0, True)
    rest = audio[BLOCK:]
    assert abs(float(rest.mean())) < 0.005        # the speech (a constant 0.2 here) is gone after one block
    assert rms(rest) > 0.05                        # the cue carries on
    late = int(0.3 * RATE)                         # once the duck has released, it is the cue itself
    assert best_match(audio[late - BLOCK:], reference[late:late + RATE // 10])[0] > 0.99


def test_cues_are_ducked_under_speech(offline: AudioOutput) -> None:
    offline.cue(Cue.WIN)
    plain = offline.render_until_idle()
    offline.set_speech_volume(0.0)  # speech inaudible, so only the cue is measured, but still "speaking"
    clip = offline.mixer.new_speech("silent")
    clip.deliver(np.zeros((RATE * 2, 2), np.float32))
    offline.render(0.1)  # let the duck settle
    offline.cue(Cue.WIN)
    ducked = offline.render(plain.shape[0] / RATE)
    assert rms(ducked) / rms(plain) == pytest.approx(DUCK_LEVEL, rel=0.05)


def test_speech_and_cue_volumes_are_separate(offline: AudioOutput) -> None:
    offline.set_cue_volume(0.0)
    offline.cue(Cue.WIN)
    assert np.max(np.abs(offline.render_until_idle())) == 0.0
    offline.set_cue_volume(0.5)
    offline.cue(Cue.WIN)
    half = offline.render_until_idle()
    reference = offline.cues.stereo(Cue.WIN, 0.0, True)
    assert np.max(np.abs(half)) == pytest.approx(0.5 * np.max(np.abs(reference)), rel=1e-3)


def test_offline_rendering_is_deterministic(notes: Notes) -> None:
    results = []
    for _ in range(2):
        out = AudioOutput(realtime=False, sounds_dir=None, notify=notes.append, on_text=None)
        state = position({"red 1": 10, "blue 1": 22}, ["Q"])
        out.play_events(move_events(state, "Q"), state, listener="red")
        out.cue(Cue.TURNED_BACK, 45)
        results.append(out.render_until_idle())
        out.close()
    assert np.array_equal(results[0], results[1])


def test_a_player_can_replace_a_cue_with_any_wav(tmp_path: Path, notes: Notes) -> None:
    cuepack.write_pack(tmp_path)
    t = np.arange(int(0.05 * 22050)) / 22050
    chirp = 0.4 * np.sin(2 * np.pi * 2000 * t) * np.exp(-t / 0.01)
    write_wav(tmp_path / "step-blue.wav", np.stack([chirp, chirp], axis=1), 22050)  # stereo, 22.05 kHz
    out = AudioOutput(realtime=False, sounds_dir=tmp_path, notify=notes.append, on_text=None, cue_volume=1.0)
    assert notes == []
    assert out.cues.sources[Cue.STEP_BLUE].endswith("step-blue.wav")
    assert out.cues.mono("step-blue").size == pytest.approx(0.05 * RATE, abs=1)
    state = position({"blue 1": 25}, ["3"], turn="blue")
    out.play_events(move_events(state, "3"), state, listener="red")
    audio = out.render_until_idle()
    assert len(onsets(audio)) == 3
    spectrum = np.abs(np.fft.rfft(audio[:, 0] + audio[:, 1]))
    assert np.fft.rfftfreq(audio.shape[0], 1 / RATE)[np.argmax(spectrum)] == pytest.approx(2000, abs=30)
    out.close()


def test_a_broken_or_missing_cue_falls_back_and_is_reported_once(tmp_path: Path, notes: Notes) -> None:
    cuepack.write_pack(tmp_path)
    (tmp_path / "capture.wav").write_bytes(b"RIFF\x00\x00\x00\x00WAVEjunk")
    (tmp_path / "deal.wav").unlink()
    out = AudioOutput(realtime=False, sounds_dir=tmp_path, notify=notes.append, on_text=None)
    assert len(notes) == 1 and "capture.wav unreadable" in notes[0] and "deal.wav missing" in notes[0]
    assert out.cues.sources[Cue.CAPTURE] == out.cues.sources[Cue.DEAL] == "built-in"
    assert np.array_equal(out.cues.mono("capture"), cuepack.synthesise(Cue.CAPTURE))
    out.cue(Cue.CAPTURE)
    out.cue(Cue.DEAL)
    assert rms(out.render_until_idle()) > 0.01
    assert len(notes) == 1
    out.close()


def test_recording_offline_writes_exactly_what_was_rendered(tmp_path: Path, notes: Notes) -> None:
    out = AudioOutput(realtime=False, record_path=tmp_path / "match.wav", notify=notes.append, on_text=None)
    out.cue(Cue.YOUR_TURN, -45)
    audio = out.render_until_idle()
    out.close()
    wav = read_wav(tmp_path / "match.wav")
    assert wav.sample_rate == RATE and wav.samples.shape == audio.shape
    assert np.max(np.abs(wav.samples - audio)) <= 2 / 32767  # 16-bit rounding


def test_no_sound_card_is_said_once_and_the_game_keeps_going(tmp_path: Path, notes: Notes) -> None:
    out = AudioOutput(device="voicejack-no-such-device", record_path=tmp_path / "r.wav", notify=notes.append, on_text=None)
    assert not out.has_device
    assert len(notes) == 1 and "not available" in notes[0] and "recording to" in notes[0]
    out.cue(Cue.OUT)
    assert out.wait_idle(timeout=5.0)  # paced in real time, heard by nobody, recorded
    out.close()
    recorded = read_wav(tmp_path / "r.wav").samples
    assert recorded.shape[0] >= cuepack.synthesise(Cue.OUT).size
    assert rms(recorded) > 0.005


def test_an_unwritable_recording_path_is_one_clear_error(tmp_path: Path, notes: Notes) -> None:
    with pytest.raises(OSError, match=r"cannot record to .*missing.*No such file"):
        AudioOutput(realtime=False, record_path=tmp_path / "missing" / "x.wav", notify=notes.append, on_text=None)
