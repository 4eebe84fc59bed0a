"""Cross-check: the engine against the house-rule reference (engine_reference_house.py) on thousands of positions.

Karooty (4 players in teams) and Online (every table kind), from random
legal play and from scattered boards (walls, bases, crowded lanes, finished
players): equal phrase sets, the marbles where the reference puts them
after every move, the winner, and who acts next.
"""

from __future__ import annotations

import random
from functools import partial

import pytest

try:
    from .engine_reference import board_to_ints, winner_of
    from .engine_reference_house import house_moves, house_next_to_act
    from .test_engine_reference import scattered_position
except ImportError:
    from engine_reference import board_to_ints, winner_of  # type: ignore[no-redef]
    from engine_reference_house import house_moves, house_next_to_act  # type: ignore[no-redef]
    from test_engine_reference import scattered_position  # type: ignore[no-redef]
from voicejack.engine import GameState, legal_moves, make_rules, new_game, play

TABLES = [("karooty", 4, True), ("online", 2, False), ("online", 4, True), ("online", 4, False)]


def compare(state: GameState) -> None:
    expected = house_moves(state)
    moves = legal_moves(state)
    got = sorted(m.phrase for m in moves)
    where = (f"rules={state.rules.rule_set} teams={state.rules.teams} turn={state.turn}\nmarbles={state.marbles}\n"
             f"hands={state.hands}\nengine only: {sorted(set(got) - set(expected))}\n"
             f"reference only: {sorted(set(expected) - set(got))}")
    assert got == sorted(expected), where
    for move in moves:
        after, _ = play(state, move)
        board = expected[move.phrase]
        if board is not None:
            assert after.marbles == board_to_ints(board), f"{move.phrase}\n{where}"
        winner = winner_of(state, board) if board is not None else None
        assert after.winner == winner, f"{move.phrase}\n{where}"
        if winner is None:
            assert after.turn == house_next_to_act(state, move.phrase), f"{move.phrase}\n{where}"
            assert not after.forced_burn


def positions_from_play(name: str, players: int, teams: bool, seed: int, every: int) -> list[GameState]:
    chooser = random.Random(seed)
    state, _ = new_game(make_rules(players, teams, rule_set=name), seed=seed)
    found = []
    count = 0
    while state.winner is None:
        if count % every == 0:
            found.append(state)
        count += 1
        state, _ = play(state, chooser.choice(legal_moves(state)))
    return found


@pytest.mark.parametrize(("name", "players", "teams"), TABLES)
def test_engine_agrees_with_the_house_reference_in_random_play(name: str, players: int, teams: bool) -> None:
    checked = 0
    seed = 200
    while checked < 600:
        for state in positions_from_play(name, players, teams, seed, every=3):
            compare(state)
            checked += 1
        seed += 1


@pytest.mark.parametrize(("name", "players", "teams"), TABLES)
def test_engine_agrees_with_the_house_reference_on_scattered_boards(position, name: str, players: int,
                                                                     teams: bool) -> None:
    def house_position(**table: object) -> GameState:
        table["forced_burn"] = False  # never under a house rule set (their 10 burns at random at once)
        return position(**table, rules=name)

    rng = random.Random(f"{name}{players}{teams}")
    checked = 0
    while checked < 800:
        state = scattered_position(partial(house_position), players, teams, "regular", rng)
        if state is None:
            continue
        compare(state)
        checked += 1
