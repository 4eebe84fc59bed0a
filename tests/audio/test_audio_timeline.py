"""One ordered timeline: a move's steps, then the sentence telling it, then the next move (issue 11).

Rendered offline through the real mixer and synthesiser, then checked two
ways: from the mixer's record of when each item started and ended, and from
the samples themselves (rendering the same sequence once with only the cues
audible and once with only the speech).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from audio_helpers import RATE, REPO, best_match, move_events, onsets, position, rms
from conftest import Notes

from voicejack.audio.cuenames import Cue
from voicejack.audio.mixer import CueGroup, SpeechClip
from voicejack.audio.output import AudioOutput
from voicejack.audio.wavio import read_wav

BLOCK = 512
FIRST_SENTENCE = "Red one walks twelve cells to cell seventeen."
SECOND_SENTENCE = "Blue one walks three cells."


def two_moves(audio: AudioOutput) -> None:
    """[steps of a queen's walk, its sentence, steps of a three, its sentence], queued at once as the table does."""
    queen = position({"red 1": 5}, ["Q"])
    three = position({"blue 1": 25}, ["3"], turn="blue")
    audio.play_events(move_events(queen, "Q"), queen, listener="red")
    audio.speak(FIRST_SENTENCE)
    audio.play_events(move_events(three, "3"), three, listener="red")
    audio.speak(SECOND_SENTENCE, direction="blue")


def render_recording_items(audio: AudioOutput, max_seconds: float = 30.0) -> tuple[np.ndarray, list[CueGroup | SpeechClip]]:
    """Render until idle, one block at a time, noting every timeline item the mixer played, in order."""
    blocks: list[np.ndarray] = []
    items: list[CueGroup | SpeechClip] = []
    while not audio.mixer.idle() and len(blocks) * BLOCK < max_seconds * RATE:
        blocks.append(audio.render(BLOCK / RATE))
        item = audio.mixer.now_playing()
        if item is not None and (not items or items[-1] is not item):
            items.append(item)
    return np.concatenate(blocks), items


def output(notes: Notes, cue_volume: float = 1.0, speech_volume: float = 1.0) -> AudioOutput:
    return AudioOutput(realtime=False, headphones=True, sounds_dir=REPO / "sounds", cue_volume=cue_volume,
                       speech_volume=speech_volume, notify=notes.append, on_text=None)


def active_frames(audio: np.ndarray) -> np.ndarray:
    return np.flatnonzero(np.any(np.abs(audio) > 1e-5, axis=1))


def test_each_sentence_comes_after_its_steps_and_the_next_steps_after_the_sentence(notes: Notes) -> None:
    audio = output(notes)
    audio.set_table("red", position({}, []).rules)
    two_moves(audio)
    assert audio.is_speaking()  # the whole timeline counts, step sounds included
    mixed, items = render_recording_items(audio)
    assert not audio.is_speaking() and notes == []
    assert [type(item) for item in items] == [CueGroup, SpeechClip, CueGroup, SpeechClip]
    assert [item.text for item in items if isinstance(item, SpeechClip)] == [FIRST_SENTENCE, SECOND_SENTENCE]
    for earlier, later in zip(items, items[1:], strict=False):
        assert 0 <= earlier.started_frame < earlier.ended_frame <= later.started_frame
        assert later.started_frame - earlier.ended_frame <= BLOCK  # one after the other, no long gap
    audio.close()

    # The same from the samples: cues alone, then speech alone (offline rendering is deterministic).
    cues_only = output(notes, speech_volume=0.0)
    cues_only.set_table("red", position({}, []).rules)
    two_moves(cues_only)
    cue_audio, _ = render_recording_items(cues_only)
    cues_only.close()
    speech_only = output(notes, cue_volume=0.0)
    speech_only.set_table("red", position({}, []).rules)
    two_moves(speech_only)
    speech_audio, _ = render_recording_items(speech_only)
    speech_only.close()
    assert cue_audio.shape == speech_audio.shape == mixed.shape
    for item, heard in zip(items, (cue_audio, speech_audio, cue_audio, speech_audio), strict=True):
        inside = heard[item.started_frame:item.ended_frame]
        assert rms(inside) > 0.01
    # Every cue sample lies inside a step group, every speech sample inside a sentence.
    groups = [item for item in items if isinstance(item, CueGroup)]
    sentences = [item for item in items if isinstance(item, SpeechClip)]
    for frames, owners in ((active_frames(cue_audio), groups), (active_frames(speech_audio), sentences)):
        inside = np.zeros(frames.size, bool)
        for item in owners:
            inside |= (frames >= item.started_frame) & (frames < item.ended_frame + BLOCK)  # fade-out tail
        assert inside.all()
    first_walk = cue_audio[groups[0].started_frame:groups[0].ended_frame]
    second_walk = cue_audio[groups[1].started_frame:groups[1].ended_frame]
    assert len(onsets(first_walk)) == 12 and len(onsets(second_walk)) == 3  # counted before being told


def test_stop_clears_everything_queued_within_one_buffer(offline: AudioOutput) -> None:
    offline.set_table("red", position({}, []).rules)
    two_moves(offline)
    playing = offline.render(0.5)  # inside the first walk
    assert rms(playing[-BLOCK * 8:]) > 0.005
    offline.stop()
    assert not offline.is_speaking()
    after = offline.render(3.0)
    assert np.max(np.abs(after[BLOCK:])) == 0.0  # nothing of the sentences or of the second walk
    assert offline.mixer.idle()


def test_stop_during_a_sentence_drops_the_steps_queued_behind_it(offline: AudioOutput) -> None:
    offline.set_table("red", position({}, []).rules)
    two_moves(offline)
    while not isinstance(offline.mixer.now_playing(), SpeechClip):
        offline.render(BLOCK / RATE)
    offline.render(0.3)
    offline.stop()
    after = offline.render(4.0)
    assert np.max(np.abs(after[BLOCK:])) == 0.0 and offline.mixer.idle()


def test_an_interrupting_sentence_cuts_what_is_playing_and_what_is_queued(offline: AudioOutput) -> None:
    offline.set_table("red", position({}, []).rules)
    two_moves(offline)
    offline.render(0.5)
    offline.speak("Stop.", interrupt=True)
    rest, items = render_recording_items(offline)
    assert [item.text for item in items if isinstance(item, SpeechClip)] == ["Stop."]
    assert not any(isinstance(item, CueGroup) for item in items)  # the second walk was dropped too
    assert rest.shape[0] / RATE < 1.2


def test_a_cue_plays_at_once_even_while_the_timeline_is_busy(offline: AudioOutput) -> None:
    offline.set_speech_volume(0.0)  # the sentence plays, unheard, so only the cue is measured
    offline.speak("This sentence goes on for a while, long enough for a refusal to sound in the middle of it.")
    offline.render(0.5)
    offline.cue(Cue.TURNED_BACK, 60.0)
    heard = offline.render(0.5)
    assert offline.is_speaking()
    score, offset = best_match(heard, offline.cues.stereo(Cue.TURNED_BACK, 60.0, True))
    assert score > 0.99 and offset < BLOCK  # beside the sentence, within one buffer, not after it


def test_the_turn_cue_comes_once_from_the_events(offline: AudioOutput) -> None:
    """The events own the turn cue (issue 10): a bot's move that passes the turn to the listener sounds it."""
    state = position({"blue 1": 25}, ["3"], turn="blue")
    timeline = offline.play_events(move_events(state, "3"), state, listener="yellow")
    assert [item.cue for item in timeline].count(Cue.YOUR_TURN) == 0
    timeline = offline.play_events(move_events(state, "3"), state, listener="green")
    assert [item.cue for item in timeline].count(Cue.YOUR_TURN) == 1  # green plays after blue
    audio = offline.render_until_idle()
    turn = next(item for item in timeline if item.cue is Cue.YOUR_TURN)
    score, _ = best_match(audio, offline.cues.stereo(Cue.YOUR_TURN, turn.azimuth, True))
    assert score > 0.99


def test_a_sentence_still_rendering_holds_the_steps_queued_behind_it(offline: AudioOutput) -> None:
    offline.set_table("red", position({}, []).rules)
    text = "A sentence never said before in these tests, number 7311."
    offline.speak(text)
    three = position({"blue 1": 25}, ["3"], turn="blue")
    offline.play_events(move_events(three, "3"), three, listener="red")
    _, items = render_recording_items(offline)
    assert [type(item) for item in items] == [SpeechClip, CueGroup]
    assert items[0].ended_frame <= items[1].started_frame


@pytest.mark.parametrize("blocks_before", [1, 3])
def test_step_spacing_is_exact_whatever_block_the_walk_starts_in(notes: Notes, blocks_before: int) -> None:
    audio = output(notes)
    audio.render(blocks_before * BLOCK / RATE + 0.0013)  # the walk is queued between two blocks
    queen = position({"red 1": 5}, ["Q"])
    audio.play_events(move_events(queen, "Q"), queen, listener="red")
    heard = onsets(audio.render_until_idle())
    assert len(heard) == 12 and np.all(np.abs(np.diff(heard) - 1 / 7) < 0.002)
    audio.close()


def test_a_recording_can_be_checked_against_what_was_played(tmp_path: Path, notes: Notes) -> None:
    """played() gives each item's place in the recording: the order, and both channels while a seat speaks."""
    audio = AudioOutput(realtime=False, headphones=False, record_path=tmp_path / "match.wav", sounds_dir=REPO / "sounds",
                        notify=notes.append, on_text=None)
    audio.set_table("red", position({}, []).rules)
    two_moves(audio)
    audio.render_until_idle()
    played = audio.played()
    audio.close()
    assert [item.kind for item in played] == ["cues", "speech", "cues", "speech"]
    assert played[0].what == " ".join(["step-red"] * 12) and played[2].what == " ".join(["step-blue"] * 3)
    assert [item.what for item in played if item.kind == "speech"] == [FIRST_SENTENCE, SECOND_SENTENCE]
    for earlier, later in zip(played, played[1:], strict=False):
        assert earlier.started < earlier.ended <= later.started
    recording = read_wav(tmp_path / "match.wav").samples
    blue_speaks = recording[int(played[3].started * RATE):int(played[3].ended * RATE)]
    assert min(rms(blue_speaks[:, 0]), rms(blue_speaks[:, 1])) > 0.01  # blue sits on the left: the right still hears
    assert rms(blue_speaks[:, 0]) > rms(blue_speaks[:, 1])


def test_what_a_stop_dropped_is_not_in_the_record(offline: AudioOutput) -> None:
    offline.set_table("red", position({}, []).rules)
    two_moves(offline)
    offline.render(0.5)
    offline.stop()
    offline.render(1.0)
    played = offline.played()
    assert len(played) == 1 and played[0].kind == "cues" and 0 < played[0].ended < 0.52
