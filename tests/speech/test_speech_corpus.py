"""The synthetic table talk the live-room tests play behind the player."""

from __future__ import annotations

import numpy as np

from voicejack.speech.audio import SAMPLE_RATE
from voicejack.speech.corpus import Babble, make_babble, talker_track


def test_babble_goes_on_at_its_level_for_longer_than_any_talker_track() -> None:
    rng = np.random.default_rng(3)
    tracks = [rng.standard_normal(SAMPLE_RATE) * 5, rng.standard_normal(int(1.3 * SAMPLE_RATE))]
    babble = Babble(tracks, power=100.0**2)
    pieces = [babble.read(1280) for _ in range(60)]  # 4.8 s: both tracks wrap several times
    joined = np.concatenate(pieces)
    assert len(joined) == 60 * 1280
    assert abs(np.sqrt(np.mean(joined**2)) - 100.0) < 10.0
    # Read in pieces, it is the same sound as read in one go: no seam where a track starts again.
    again = Babble(tracks, power=100.0**2).read(len(joined))
    assert np.allclose(joined, again)


def test_a_talker_pauses_between_utterances_and_each_is_at_the_same_level() -> None:
    rng = np.random.default_rng(1)
    loud, soft = np.full(4000, 8000.0), np.full(4000, 800.0)
    track = talker_track([loud, soft], 5 * SAMPLE_RATE, rng)
    assert len(track) == 5 * SAMPLE_RATE
    assert np.any(track == 0.0)  # pauses
    assert np.allclose(np.unique(np.abs(track[track != 0.0])), 1.0)


def test_three_synthesised_talkers_make_babble_at_the_power_asked_for() -> None:
    babble = make_babble(("en-us", "en+f3", "en-gb"), power=1000.0**2, seconds=4.0, seed=2,
                         lines=("pass the bread please", "what time is it"))
    sound = babble.read(8 * SAMPLE_RATE)
    assert 800.0 < np.sqrt(np.mean(sound**2)) < 1250.0
