"""What the heuristic bot prefers in small positions a player would recognise from the guide's tips."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from voicejack.bots import HeuristicBot
from voicejack.engine import GameState, MoveKind, legal_moves, play
from voicejack.engine.events import MarbleCaptured

LEVELS = ("medium", "hard")


def chosen(state: GameState, level: str = "medium", seed: int = 0) -> str:
    moves = legal_moves(state)
    move = HeuristicBot(seed, level).choose(state, moves)
    assert move in moves
    return move.phrase


@pytest.mark.parametrize("level", LEVELS)
def test_captures_an_opponent_rather_than_walking_further(level: str, table: Callable[..., GameState]) -> None:
    # The 10 lands on green 1 (58 cells into its lap); the queen would only walk further.
    state = table({"red": [10], "green": [20]}, {"red": ["Q", "10"], "green": ["2", "3", "9", "J"]})
    assert chosen(state, level) == "play ten red one"


@pytest.mark.parametrize("level", LEVELS)
def test_captures_the_most_advanced_opponent(level: str, table: Callable[..., GameState]) -> None:
    # The 5 sends home green 1 (progress 53), the 10 green 2 (progress 2).
    state = table({"red": [10, 30], "green": [15, 40]}, {"red": ["5", "10"], "green": ["2", "3", "9", "J"]})
    assert {"play five red one", "play ten red two"} <= {m.phrase for m in legal_moves(state)}
    assert chosen(state, level) == "play five red one"


@pytest.mark.parametrize("level", LEVELS)
def test_does_not_send_its_own_marble_home(level: str, table: Callable[..., GameState]) -> None:
    # The 6 on red 1 would land on red 2.
    state = table({"red": [10, 16]}, {"red": ["6", "2"], "green": ["3", "8", "9", "J"]})
    moves = legal_moves(state)
    move = HeuristicBot(0, level).choose(state, moves)
    _, events = play(state, move)
    assert not [e for e in events if isinstance(e, MarbleCaptured)], move.phrase


def test_sends_its_own_marble_home_only_when_nothing_else_is_legal(table: Callable[..., GameState]) -> None:
    # Red 2 is wall-protected behind nothing it can pass: the only legal move lands on red 2.
    state = table({"red": [10, 16], "green": [17, 18]}, {"red": ["6"], "green": ["3", "8", "9", "J"]})
    assert [m.phrase for m in legal_moves(state)] == ["play six red one"]
    assert chosen(state) == "play six red one"


def test_does_not_send_its_partner_home(table: Callable[..., GameState]) -> None:
    # The queen would land on green 1, red's partner; the 9 walks without harm.
    state = table(
        {"red": [20], "green": [32]}, {"red": ["Q", "9"], "blue": ["2"], "green": ["3"], "yellow": ["8"]},
        players=4, teams=True,
    )
    assert chosen(state) == "play nine red one"


@pytest.mark.parametrize("level", LEVELS)
def test_plays_the_4_from_its_base(level: str, table: Callable[..., GameState]) -> None:
    state = table({"red": [0, 30]}, {"red": ["4", "6", "8"], "green": ["3", "9", "J", "2"]})
    assert chosen(state, level) == "play four red one"


@pytest.mark.parametrize("level", LEVELS)
def test_first_marble_in_goes_deepest(level: str, table: Callable[..., GameState]) -> None:
    # The 6 takes red 1 to safe place 4; the 3 would leave it on place 1 and shut the lane.
    state = table({"red": [73, 20]}, {"red": ["6", "3"], "green": ["2", "9", "J", "Q"]})
    assert chosen(state, level) == "play six red one"


@pytest.mark.parametrize("level", LEVELS)
def test_opens_the_lane_by_moving_the_settled_marble_deeper(level: str, table: Callable[..., GameState]) -> None:
    # Red 1 on safe place 1 blocks the lane: the 3 takes it to place 4.
    state = table({"red": ["safe 1", 40]}, {"red": ["3", "2"], "green": ["5", "9", "J", "Q"]})
    assert chosen(state, level) == "play three red one"


@pytest.mark.parametrize("level", LEVELS)
def test_steps_out_of_reach_of_the_opponent_behind(level: str, table: Callable[..., GameState]) -> None:
    # Green 1 is 6 cells behind red 1: walking red 1 on leaves it 14 behind, out of every regular card's reach.
    state = table({"red": [16, 50], "green": [10]}, {"red": ["8"], "green": ["2", "3", "J", "K"]})
    assert chosen(state, level) == "play eight red one"


@pytest.mark.parametrize("level", LEVELS)
def test_stays_on_a_wall_front_rather_than_stepping_into_reach(level: str, table: Callable[..., GameState]) -> None:
    # Red 2 is the protected front of a wall (red 1 right behind it), three cells ahead of green 1.
    # The 2 could walk red 2 off the wall to five cells ahead of green; walking red 3 far away is safer.
    state = table({"red": [20, 21, 60], "green": [18]}, {"red": ["2"], "green": ["3", "5", "9", "J"]})
    assert chosen(state) == "play two red three"


def test_finished_player_takes_its_partner_down_the_short_road(table: Callable[..., GameState]) -> None:
    # Red's four are in, so red's cards move green's marbles (R36): the 4 from green's base.
    state = table(
        {"red": ["safe 1", "safe 2", "safe 3", "safe 4"], "green": [38, 50]},
        {"red": ["4", "8"], "blue": ["2"], "green": ["3"], "yellow": ["9"]},
        players=4, teams=True,
    )
    assert chosen(state) == "play four green one"


def test_complex_5_delivers_the_partner_into_its_safe_zone(table: Callable[..., GameState]) -> None:
    # Green 1 is on progress 74: the 5 takes it to safe place 4 (R34); walking red 1 five is worth less.
    state = table(
        {"red": [10], "green": [36]},
        {"red": ["5"], "blue": ["2"], "green": ["3"], "yellow": ["9"]},
        players=4, teams=True, mode="complex",
    )
    assert {"play five red one", "play five green one"} <= {m.phrase for m in legal_moves(state)}
    assert chosen(state) == "play five green one"


def test_complex_king_sweeps_a_row_of_opponents_home(table: Callable[..., GameState]) -> None:
    state = table(
        {"red": [10], "green": [14, 15, 20]}, {"red": ["K", "3"], "green": ["2", "9", "J", "Q"]}, mode="complex",
    )
    assert chosen(state) == "play king red one"


def test_burns_the_least_useful_card(table: Callable[..., GameState]) -> None:
    # Red 2 stands on its base behind a green wall (cells 3 and 4); red 1 is two steps from its lane.
    # Nothing moves (R29): the king is the card that will bring the next marble out once the base is free.
    state = table(
        {"red": [74, 0], "green": [3, 4]}, {"red": ["9", "Q", "K"], "green": ["2", "3", "J", "5"]},
    )
    moves = legal_moves(state)
    assert {m.kind for m in moves} == {MoveKind.BURN}
    assert chosen(state) in ("burn nine", "burn queen")


def test_forced_to_burn_keeps_the_card_that_brings_a_marble_out(table: Callable[..., GameState]) -> None:
    state = table(
        {"red": [], "green": [40]}, {"red": ["A", "9", "Q"], "green": ["2", "3", "J"]},
        mode="complex", forced_burn=True,
    )
    assert chosen(state) in ("burn nine", "burn queen")
