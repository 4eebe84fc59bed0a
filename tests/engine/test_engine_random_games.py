"""1,000 random complete games across every table kind and both versions (R37, R38)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from voicejack.engine import check_state, legal_moves, make_rules, new_game
from voicejack.engine import events as ev
from voicejack.engine.rules import apply_move

KINDS = [(2, False), (4, True), (4, False)]
MODES = ["regular", "complex"]
GAMES = 1000
MOVE_LIMIT = 50_000  # far beyond any real game; only guards against an endless loop


@pytest.mark.slow
def test_a_thousand_random_games_all_end_with_a_winner() -> None:
    outcomes: Counter[tuple[int, bool, str]] = Counter()
    for game in range(GAMES):
        players, teams = KINDS[game % 3]
        mode = MODES[(game // 3) % 2]
        state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=game)
        chooser = random.Random(-game)
        wins = []
        for _ in range(MOVE_LIMIT):
            moves = legal_moves(state)
            if not moves:
                break
            events = apply_move(state, chooser.choice(moves))
            wins.extend(e for e in events if isinstance(e, ev.Won))
        assert state.winner is not None, f"game {game} ({players}, {teams}, {mode}) did not finish"
        check_state(state)
        assert wins == [ev.Won(state.winner)]
        rules = state.rules
        assert all(state.is_finished(c) for c in state.winner)
        if rules.teams:
            assert state.winner in (rules.team_of("red"), rules.team_of("blue"))
        else:
            assert len(state.winner) == 1
        outcomes[(players, teams, mode)] += 1
    assert sum(outcomes.values()) == GAMES
    assert len(outcomes) == 6
