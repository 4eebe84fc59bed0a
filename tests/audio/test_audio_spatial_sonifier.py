"""Where sounds are placed (pure spatial functions) and which cues a move's events become."""

from __future__ import annotations

import math

import numpy as np
import pytest
from audio_helpers import RATE, lag_samples, move_events, position, rms

from voicejack.audio import cuepack, spatial
from voicejack.audio.cuenames import STEP_BY_COLOUR, Cue
from voicejack.audio.sonifier import ScheduledCue, Sonifier
from voicejack.engine import events as ev
from voicejack.engine import make_rules
from voicejack.engine.board import SAFE_OFFSET, marble_id

# Spatial functions.


@pytest.mark.parametrize("azimuth", [-180, -135, -90, -30, 0, 30, 90, 135])
def test_speaker_panning_keeps_constant_power(azimuth: float) -> None:
    left, right = spatial.pan_gains(azimuth)
    assert math.isclose(left**2 + right**2, 1.0)


def test_speaker_panning_goes_left_for_negative_azimuth_and_never_silences_the_right() -> None:
    x = cuepack.synthesise(Cue.OUT)
    stereo = spatial.pan_speakers(x, -90)
    difference = 20 * np.log10(rms(stereo[:, 0]) / rms(stereo[:, 1]))
    assert difference == pytest.approx(spatial.MAX_EAR_DIFFERENCE_DB)  # for one earbud: down, not gone
    centre = spatial.pan_speakers(x, 0)
    assert math.isclose(rms(centre[:, 0]), rms(centre[:, 1]), rel_tol=1e-6)


def interaural_time_difference(azimuth: float) -> float:
    """Seconds the left ear hears a source later than the right (the source on the right: positive)."""
    return spatial.ear_delay(abs(spatial.wrap_azimuth(azimuth + 90))) - spatial.ear_delay(abs(spatial.wrap_azimuth(azimuth - 90)))


def test_interaural_time_difference_follows_the_spherical_head() -> None:
    itd = interaural_time_difference
    assert 0.00063 < spatial.MAX_ITD_S < 0.00068
    assert math.isclose(itd(90), spatial.MAX_ITD_S) and math.isclose(itd(-90), -spatial.MAX_ITD_S)
    assert itd(0) == pytest.approx(0.0, abs=1e-12) and itd(180) == pytest.approx(0.0, abs=1e-12)
    values = [itd(a) for a in range(0, 91, 10)]
    assert values == sorted(values)  # grows steadily as the source moves round to the side


@pytest.mark.parametrize("cue", [Cue.CAPTURE, "step-blue", Cue.YOUR_TURN])
def test_headphones_left_source_is_louder_and_earlier_on_the_left(cue: str) -> None:
    stereo = spatial.binaural(cuepack.synthesise(cue), -90, RATE)
    left, right = stereo[:, 0], stereo[:, 1]
    assert rms(left) > rms(right) * 1.05
    lag = lag_samples(left, right)
    # The pure delay is 0.66 ms (31.5 samples); the shadowed ear's filter adds some group delay
    # at low frequencies, as a real head does, so tonal cues measure a little more.
    assert 25 <= lag <= 40


def test_headphones_head_shadow_darkens_the_far_ear() -> None:
    noise = np.random.default_rng(0).standard_normal(RATE // 4).astype(np.float32) * 0.2
    stereo = spatial.binaural(noise, 90, RATE)

    def band(x: np.ndarray, low: float, high: float) -> float:
        spectrum = np.abs(np.fft.rfft(x)) ** 2
        freqs = np.fft.rfftfreq(x.size, 1 / RATE)
        return float(spectrum[(freqs >= low) & (freqs < high)].sum())

    left, right = stereo[:, 0], stereo[:, 1]
    assert band(left, 6000, 20000) < band(right, 6000, 20000) / 10   # treble: over 10 dB quieter in the shadow
    assert band(left, 20, 300) > band(right, 20, 300) / 2            # bass: the head hardly blocks it


def test_headphones_front_and_centre_are_symmetric() -> None:
    stereo = spatial.binaural(cuepack.synthesise(Cue.SAFE), 0, RATE)
    assert np.allclose(stereo[:, 0], stereo[:, 1], atol=1e-6)


def test_sounds_behind_are_duller_than_in_front() -> None:
    noise = np.random.default_rng(1).standard_normal(RATE // 4).astype(np.float32) * 0.2
    front, back = spatial.binaural(noise, 0, RATE), spatial.binaural(noise, 180, RATE)

    def treble(x: np.ndarray) -> float:
        spectrum = np.abs(np.fft.rfft(x[:, 0])) ** 2
        return float(spectrum[np.fft.rfftfreq(x.shape[0], 1 / RATE) > 5000].sum())

    assert treble(back) < 0.8 * treble(front)


# Geometry of the table.


def test_seats_have_directions_around_the_listener() -> None:
    sonifier = Sonifier("red", make_rules(players=4, teams=True))
    assert sonifier.seat_azimuth("green") == pytest.approx(0.0)     # partner ahead
    assert sonifier.seat_azimuth("blue") == pytest.approx(-90.0)    # next player on the left
    assert sonifier.seat_azimuth("yellow") == pytest.approx(90.0)   # previous player on the right
    assert abs(sonifier.seat_azimuth("red")) == pytest.approx(180.0)  # own seat behind
    blue = Sonifier("blue", make_rules(players=4, teams=True))
    assert blue.seat_azimuth("yellow") == pytest.approx(0.0) and blue.seat_azimuth("green") == pytest.approx(-90.0)
    # Two players: the opponent ahead-right, not centred where the listener's own voice is; own base behind-left.
    two = Sonifier("green", make_rules(players=2, teams=False))
    assert two.seat_azimuth("red") == pytest.approx(45.0) and two.seat_azimuth("green") == pytest.approx(-135.0)


def test_the_track_is_a_circle_around_the_head() -> None:
    sonifier = Sonifier("red", make_rules(players=4, teams=True))
    azimuths = [sonifier.cell_azimuth(cell) for cell in range(76)]
    steps = [(b - a + 180) % 360 - 180 for a, b in zip(azimuths, azimuths[1:] + azimuths[:1], strict=True)]
    assert all(step == pytest.approx(360 / 76) for step in steps)  # evenly, one way, a full turn per lap
    assert sonifier.position_azimuth(SAFE_OFFSET + 2, "green") == pytest.approx(sonifier.cell_azimuth(37.5))


def test_spectator_hears_from_the_first_seat_and_strangers_are_refused() -> None:
    assert Sonifier(None, make_rules(players=2, teams=False)).listener == "red"
    with pytest.raises(ValueError, match="not seated"):
        Sonifier("blue", make_rules(players=2, teams=False))


# Events to cues.


def cues_named(timeline: list[ScheduledCue], name: str) -> list[ScheduledCue]:
    return [cue for cue in timeline if cue.cue == name]


def test_a_queen_walk_is_twelve_evenly_paced_steps_moving_round() -> None:
    state = position({"red 1": 5}, ["Q"])
    sonifier = Sonifier("red", state.rules, steps_per_second=7)
    timeline = sonifier.timeline(move_events(state, "Q"), state)
    steps = cues_named(timeline, "step-red")
    assert len(steps) == 12 and len(timeline) == 12
    assert np.allclose(np.diff([s.at for s in steps]), 1 / 7, atol=1e-5)
    assert [s.azimuth for s in steps] == pytest.approx([sonifier.cell_azimuth(c) for c in range(6, 18)], abs=1e-3)


def test_team_step_sounds_are_shared_by_partners_and_differ_between_teams() -> None:
    rules = make_rules(players=4, teams=True)
    sonifier = Sonifier("red", rules)
    by_colour = {c: sonifier.step_cue(marble_id(c, 1)) for c in rules.seats}
    assert by_colour["red"] == by_colour["green"] != by_colour["blue"] == by_colour["yellow"]
    free = Sonifier("red", make_rules(players=4, teams=False))
    assert len({free.step_cue(marble_id(c, 1)) for c in rules.seats}) == 4
    assert set(STEP_BY_COLOUR.values()) == {free.step_cue(marble_id(c, 1)) for c in rules.seats}


def test_a_four_walks_back_with_the_backward_step() -> None:
    state = position({"red 1": 10}, ["4"])
    timeline = Sonifier("red", state.rules).timeline(move_events(state, "4"), state)
    assert [c.cue for c in timeline] == [Cue.STEP_BACK] * 4


def test_capture_sound_depends_on_whose_marble_went_home() -> None:
    opponent = position({"red 1": 10, "blue 1": 22}, ["Q"])
    timeline = Sonifier("red", opponent.rules).timeline(move_events(opponent, "Q"), opponent)
    assert timeline[-1].cue == Cue.CAPTURE and timeline[-1].at == pytest.approx(12 / 7, abs=1e-5)
    partner = position({"red 1": 10, "green 2": 22}, ["Q"])
    timeline = Sonifier("red", partner.rules).timeline(move_events(partner, "Q"), partner)
    assert timeline[-1].cue == Cue.CAPTURE_OWN
    # Heard from blue's seat, red capturing green is an opponent's marble going home.
    heard_by_blue = [c.cue for c in Sonifier("blue", partner.rules).timeline(move_events(partner, "Q"), partner)]
    assert heard_by_blue[-2:] == [Cue.CAPTURE, Cue.YOUR_TURN]  # and then it is blue's turn


def test_coming_out_onto_a_visitor_plays_out_then_capture_at_the_base() -> None:
    state = position({"yellow 3": 0}, ["K"])
    sonifier = Sonifier("red", state.rules)
    timeline = sonifier.timeline(move_events(state, "K"), state)
    assert [c.cue for c in timeline] == [Cue.OUT, Cue.CAPTURE]
    assert timeline[0].azimuth == timeline[1].azimuth == pytest.approx(sonifier.cell_azimuth(0))
    assert timeline[1].at > timeline[0].at


def test_entering_the_safe_zone_chimes_after_the_steps() -> None:
    state = position({"red 1": 73}, ["5"])
    timeline = Sonifier("red", state.rules).timeline(move_events(state, "5"), state)
    assert [c.cue for c in timeline] == ["step-red"] * 5 + [Cue.SAFE]


def test_sweep_captures_sound_where_the_king_passes_them() -> None:
    state = position({"red 1": 10, "blue 1": 14, "yellow 1": 20}, ["K"], mode="complex")
    events = move_events(state, "K", lambda m: m.steps == 13)
    timeline = Sonifier("red", state.rules).timeline(events, state)
    captures = cues_named(timeline, Cue.CAPTURE)
    assert [round(c.at * 7) for c in captures] == [3, 9]  # the 4th and 10th steps, cells 14 and 20


def test_burns_deals_turns_and_wins_come_from_the_right_place() -> None:
    sonifier = Sonifier("red", make_rules(players=4, teams=True))
    events = [
        ev.CardBurned("blue", "5", False),
        ev.Dealt("yellow", 0, 4, "red", 36),
        ev.TurnPassed("green"),
        ev.TurnPassed("red"),
        ev.Won(("red", "green")),
    ]
    timeline = sonifier.timeline(events)
    assert [(c.cue, c.azimuth) for c in timeline] == [
        (Cue.BURN, -90.0), (Cue.DEAL, 90.0), (Cue.YOUR_TURN, 0.0), (Cue.WIN, 0.0)]
    assert [c.at for c in timeline] == sorted(c.at for c in timeline) and len({c.at for c in timeline}) == 4


def test_every_cue_the_sonifier_names_exists() -> None:
    rules = make_rules(players=4, teams=False)
    sonifier = Sonifier("yellow", rules)
    names = {sonifier.step_cue(m) for m in range(16)}
    assert names <= set(Cue)


@pytest.mark.parametrize(("players", "teams", "mode"), [(4, True, "regular"), (4, False, "complex"), (2, False, "complex")])
def test_every_move_of_random_games_sounds_consistently(players: int, teams: bool, mode: str) -> None:
    """Random games: each walk gives one step per cell, captures match the events, every cue exists."""
    import random

    from voicejack.engine import legal_moves, new_game, play

    chooser = random.Random(11)
    for seed in range(3):
        state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=seed)
        listener = state.rules.seats[-1]
        sonifier = Sonifier(listener, state.rules)
        for _ in range(400):
            if state.winner is not None:
                break
            before = state
            state, events = play(state, chooser.choice(legal_moves(state)))
            timeline = sonifier.timeline(events, before)
            names = [cue.cue for cue in timeline]
            assert set(names) <= set(Cue)
            assert all(cue.at >= 0 for cue in timeline) and [c.at for c in timeline] == sorted(c.at for c in timeline)
            cells = sum(len(e.path) for e in events if isinstance(e, ev.MarbleWalked))
            assert sum(name.startswith("step-") for name in names) == cells
            captured = [e for e in events if isinstance(e, ev.MarbleCaptured)]
            assert names.count(Cue.CAPTURE) + names.count(Cue.CAPTURE_OWN) == len(captured)
            assert names.count(Cue.CAPTURE_OWN) == sum(sonifier.is_ours(e.marble) for e in captured)
            assert names.count(Cue.YOUR_TURN) == sum(
                isinstance(e, ev.TurnPassed) and e.colour == listener for e in events)
