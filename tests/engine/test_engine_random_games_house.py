"""Random complete games under the house rule sets (KA1-KA13, ON1-ON12): every one ends with a winner.

The default run plays a hundred games per table with the state checked
after every move; the slow run a thousand per table, checked every 25
moves and at the end. Every random choice the rules make (the 10's burn,
the timer's burn) comes from the table's seeded generator: a game replayed
from its seed is the same game.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from voicejack.engine import check_state, legal_moves, make_rules, new_game
from voicejack.engine import events as ev
from voicejack.engine.rules import apply_move, time_out

TABLES = [("karooty", 4, True), ("online", 2, False), ("online", 4, True), ("online", 4, False)]
MOVE_LIMIT = 50_000  # far beyond any real game; only guards against an endless loop


def play_out(name: str, players: int, teams: bool, seed: int, check_every: int) -> tuple[list[str], Counter[type]]:
    """One random game to its end; its history phrases and a count of its event kinds."""
    state, _ = new_game(make_rules(players, teams, rule_set=name), seed=seed)
    chooser = random.Random(-seed)
    seen: Counter[type] = Counter()
    wins = []
    for count in range(MOVE_LIMIT):
        moves = legal_moves(state)
        if not moves:
            break
        if name == "online" and chooser.random() < 0.02:
            events = time_out(state)  # ON11, now and then
        else:
            events = apply_move(state, chooser.choice(moves))
        seen.update(type(e) for e in events)
        wins.extend(e for e in events if isinstance(e, ev.Won))
        if count % check_every == 0:
            check_state(state)
    assert state.winner is not None, f"{name} game {seed} ({players}, {teams}) did not finish"
    check_state(state)
    assert wins == [ev.Won(state.winner)]
    assert all(state.is_finished(c) for c in state.winner)
    if state.rules.teams:
        assert state.winner in (state.rules.team_of("red"), state.rules.team_of("blue"))
    else:
        assert len(state.winner) == 1
    return [move.phrase for _, move in state.history], seen


@pytest.mark.parametrize(("name", "players", "teams"), TABLES)
def test_a_hundred_random_games_checked_after_every_move(name: str, players: int, teams: bool) -> None:
    seen: Counter[type] = Counter()
    for seed in range(100):
        seen += play_out(name, players, teams, seed, check_every=MOVE_LIMIT)[1]  # the debug checks check every move
    assert seen[ev.RandomBurn] > 0 and seen[ev.Dealt] > 0 and seen[ev.Reshuffled] > 0
    assert (seen[ev.CardBurned] > 0) == (name == "karooty")   # KA4 burns one card
    assert (seen[ev.HandBurned] > 0) == (name == "online")    # ON3 burns the hand
    assert seen[ev.BurnForced] == 0                           # nobody chooses what a 10 burns


@pytest.mark.parametrize(("name", "players", "teams"), TABLES[:2])
def test_a_game_replayed_from_its_seed_is_the_same_game(name: str, players: int, teams: bool) -> None:
    assert play_out(name, players, teams, 7, check_every=50) == play_out(name, players, teams, 7, check_every=50)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "teams"), TABLES)
def test_a_thousand_random_games_all_end_with_a_winner(name: str, players: int, teams: bool) -> None:
    for seed in range(1000):
        play_out(name, players, teams, 1000 + seed, check_every=100)
