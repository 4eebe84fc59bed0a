"""``advance`` is ``apply_move`` without the events: over random games of every rule set and table kind it
leaves exactly the state ``apply_move`` leaves (R9-R39, KA1-KA13, ON1-ON12)."""

from __future__ import annotations

import random

import pytest

from voicejack.engine import GameState, advance, apply_move, legal_moves, make_rules, new_game

TABLES = [
    ("voicejack", "regular", 2, False), ("voicejack", "regular", 4, True), ("voicejack", "regular", 4, False),
    ("voicejack", "complex", 2, False), ("voicejack", "complex", 4, True), ("voicejack", "complex", 4, False),
    ("karooty", "regular", 4, True),
    ("online", "regular", 2, False), ("online", "regular", 4, True), ("online", "regular", 4, False),
]


def _everything(state: GameState) -> tuple[object, ...]:
    return (
        state.marbles, state.board, state.hands, state.turn, state.dealer, state.deal_index, state.pile,
        state.discard, state.forced_burn, state.last_card, state.winner, state.history, state.rng.getstate(),
    )


@pytest.mark.parametrize(("rule_set", "mode", "players", "teams"), TABLES)
def test_advance_leaves_the_state_apply_move_leaves(rule_set: str, mode: str, players: int, teams: bool) -> None:
    for game in range(4):
        told, _ = new_game(make_rules(players, teams, mode, rule_set=rule_set), seed=game)
        quiet = told.copy()
        chooser = random.Random(game)
        while told.winner is None:
            moves = legal_moves(told)
            assert legal_moves(quiet) == moves
            move = chooser.choice(moves)
            apply_move(told, move)
            advance(quiet, move)
            assert _everything(quiet) == _everything(told)
