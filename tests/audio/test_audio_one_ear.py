"""Sound for one ear (issue 11): every seat heard on both channels, a mono setting, a placed 2-player opponent."""

from __future__ import annotations

import numpy as np
import pytest
from audio_helpers import REPO, lag_samples, move_events, position, rms
from conftest import Notes

from voicejack.audio.cuenames import STEP_BY_COLOUR, Cue
from voicejack.audio.output import AudioOutput
from voicejack.audio.sonifier import Sonifier
from voicejack.audio.spatial import MAX_EAR_DIFFERENCE_DB
from voicejack.engine import make_rules

SENTENCE = "Blue plays a queen and sends green one home."
SPEECH_FLOOR = 0.01   # RMS of a channel that is clearly heard (the sentence centred measures about 0.07)
TABLES = [("red", 4), ("blue", 4), ("red", 2), ("green", 2)]


def output(notes: Notes, headphones: bool, mono: bool = False) -> AudioOutput:
    return AudioOutput(realtime=False, headphones=headphones, mono=mono, sounds_dir=REPO / "sounds",
                       cue_volume=1.0, notify=notes.append, on_text=None)


def level_difference_db(stereo: np.ndarray) -> float:
    return float(20 * np.log10(rms(stereo[:, 0]) / rms(stereo[:, 1])))


@pytest.mark.parametrize("headphones", [False, True], ids=["speakers", "headphones"])
@pytest.mark.parametrize(("listener", "players"), TABLES)
def test_every_seats_speech_is_heard_on_both_channels(notes: Notes, headphones: bool, listener: str, players: int) -> None:
    audio = output(notes, headphones)
    rules = make_rules(players=players, teams=players == 4)
    audio.set_table(listener, rules)
    for seat in rules.seats:
        audio.speak(SENTENCE, direction=seat)
        heard = audio.render_until_idle()
        left, right = rms(heard[:, 0]), rms(heard[:, 1])
        assert left > SPEECH_FLOOR and right > SPEECH_FLOOR, (seat, left, right)  # neither channel silent
        assert abs(level_difference_db(heard)) <= MAX_EAR_DIFFERENCE_DB + 0.05, seat
    audio.close()


@pytest.mark.parametrize("headphones", [False, True], ids=["speakers", "headphones"])
def test_the_seats_on_either_side_still_sound_on_their_side(notes: Notes, headphones: bool) -> None:
    audio = output(notes, headphones)
    audio.set_table("red", make_rules(players=4, teams=True))
    differences = {}
    for seat in ("blue", "yellow"):  # left and right of red
        audio.speak(SENTENCE, direction=seat)
        differences[seat] = level_difference_db(audio.render_until_idle())
    assert differences["blue"] > 2.0 and differences["yellow"] < -2.0  # limited, not flattened
    audio.close()


@pytest.mark.parametrize("headphones", [False, True], ids=["speakers", "headphones"])
def test_no_step_anywhere_on_the_track_leaves_an_ear_silent(notes: Notes, headphones: bool) -> None:
    """A player counting steps with one ear hears every cell of the circle, on either side."""
    audio = output(notes, headphones)
    sonifier = Sonifier("red", make_rules(players=4, teams=False))
    for cue in (*STEP_BY_COLOUR.values(), Cue.STEP_BACK, Cue.DEAL, Cue.SAFE):
        for cell in range(0, 76, 3):
            stereo = audio.cues.stereo(cue, sonifier.cell_azimuth(cell), headphones)
            assert min(rms(stereo[:, 0]), rms(stereo[:, 1])) > 0.0
            assert abs(level_difference_db(stereo)) <= MAX_EAR_DIFFERENCE_DB + 0.05, (cue, cell)
    audio.close()


@pytest.mark.parametrize("headphones", [False, True], ids=["speakers", "headphones"])
def test_mono_gives_identical_channels(notes: Notes, headphones: bool) -> None:
    audio = output(notes, headphones, mono=True)
    audio.set_table("red", make_rules(players=4, teams=True))
    walk = position({"red 1": 5, "blue 1": 12}, ["Q"])
    audio.play_events(move_events(walk, "Q"), walk, listener="red")
    audio.speak(SENTENCE, direction="blue")
    audio.cue(Cue.BURN, 90.0)
    heard = audio.render_until_idle()
    assert rms(heard) > 0.01 and np.array_equal(heard[:, 0], heard[:, 1])
    audio.set_mono(False)
    audio.speak(SENTENCE, direction="blue")
    assert not np.array_equal(*audio.render_until_idle().T)  # and back to stereo when switched off
    audio.close()


def test_switching_to_mono_folds_what_is_already_playing(notes: Notes) -> None:
    audio = output(notes, headphones=False)
    audio.set_table("red", make_rules(players=4, teams=True))
    audio.speak(SENTENCE, direction="blue")
    audio.render(0.3)
    audio.set_mono(True)
    rest = audio.render_until_idle()
    assert rms(rest) > 0.01 and np.array_equal(rest[:, 0], rest[:, 1])
    audio.close()


@pytest.mark.parametrize("headphones", [False, True], ids=["speakers", "headphones"])
def test_the_two_player_opponent_is_placed_not_centred(notes: Notes, headphones: bool) -> None:
    audio = output(notes, headphones)
    audio.set_table("red", make_rules(players=2, teams=False))
    audio.speak(SENTENCE, direction="green")
    opponent = audio.render_until_idle()
    audio.speak(SENTENCE, direction="red")
    own = audio.render_until_idle()
    assert np.array_equal(own[:, 0], own[:, 1])  # your own game's voice stays in the middle
    assert level_difference_db(opponent) < -1.0  # the opponent sits ahead-right
    if headphones:
        assert lag_samples(opponent[:, 0], opponent[:, 1]) < -10  # and reaches the right ear first
    audio.close()


def test_the_two_player_opponents_walk_is_heard_on_their_side_of_the_head(notes: Notes) -> None:
    audio = output(notes, headphones=True)
    state = position({"green 1": 38}, ["3"], turn="green", players=2, teams=False)
    timeline = audio.play_events(move_events(state, "3"), state, listener="red")
    assert all(30.0 < step.azimuth < 60.0 for step in timeline if step.cue is Cue.STEP_GREEN)
    audio.close()
