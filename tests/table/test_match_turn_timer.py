"""ON11's turn timer through the real loop: the warning, the soft ticks, the pause while the game speaks,
and the random burn when the time runs out."""

from __future__ import annotations

from pathlib import Path

import pytest

from voicejack.audio.cuenames import Cue
from voicejack.engine import make_rules, new_game
from voicejack.engine.state import Seat
from voicejack.table.turn_timer import Signal, TurnTimer


def online_state(seconds: int):
    state, _ = new_game(make_rules(2, False, rule_set="online", turn_seconds=seconds), seed=12,
                        seats=(Seat("red", "You", "human"), Seat("green", "Green", "bot")))
    assert state.turn == "red"  # your turn first
    return state


def test_the_clock_warns_ticks_and_stands_still_while_the_game_speaks() -> None:
    timer = TurnTimer(12)
    assert timer.advance(1.5, speaking=False) == []
    assert timer.advance(30.0, speaking=True) == []  # the game was talking: no time spent
    assert timer.advance(0.6, speaking=False) == [Signal.WARN]
    assert timer.advance(1.0, speaking=False) == [Signal.TICK]
    assert timer.advance(9.0, speaking=False) == [Signal.TICK] * 8 and timer.expired


def test_time_runs_out_through_the_loop(tmp_path: Path, kit) -> None:
    state = online_state(3)
    hand = list(state.hands["red"])
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json", seconds_per_word=0.05)
    audio.when_said(lambda text, seat: text.startswith("Time is up"), lambda: source.type("quit", "yes", gap=0.2))
    match.run(announce_start=False)
    (colour, move), *_ = match.state.history
    assert (colour, move.phrase) == ("red", "time out")
    burned = match.state.discard[0]
    assert burned in hand  # one card of the hand, drawn by the table's generator
    said = [text for _, kind, text, _ in audio.log if kind == "speech"]
    warning = next(i for i, text in enumerate(said) if text.endswith("seconds left."))
    told = next(i for i, text in enumerate(said) if text.startswith("Time is up: you burned"))
    assert warning < told
    ticks = [at for at, kind, name, _ in audio.log if kind == "cue" and name == Cue.TICK]
    assert len(ticks) == 2  # the last seconds, one soft tick each
    prompt_end = next(at for at, kind, text, _ in audio.log if kind == "speech" and text.startswith("Your turn"))
    timed_out_at = next(at for at, kind, text, _ in audio.log if kind == "speech" and text.startswith("Time is up"))
    words = len(next(text for text in said if text.startswith("Your turn")).split())
    # the prompt's own speaking time did not count against the three seconds
    assert timed_out_at - prompt_end >= 3.0 + words * 0.05 - 0.3


def test_a_move_in_time_stops_the_clock(tmp_path: Path, kit) -> None:
    state = online_state(3)
    match, audio, source, _ = kit.live_match(state, tmp_path / "s.json")
    audio.when_said(lambda text, seat: text.startswith("Your turn"),
                    lambda: source.type("options", "1", "yes", "quit", "yes", gap=0.2))
    match.run(announce_start=False)
    assert match.state.history and match.state.history[0][1].phrase != "time out"


@pytest.mark.parametrize("seconds", [0])
def test_no_timer_when_switched_off(tmp_path: Path, kit, seconds: int) -> None:
    state = online_state(seconds)
    _, _, transcript = kit.run_match(state, ["quit", "yes"], tmp_path / "s.json", announce=False)
    assert not any("seconds left" in line for line in transcript.lines)
