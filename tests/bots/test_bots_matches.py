"""Whole matches between bots: deterministic given the seeds, always legal, and the heuristic is strong."""

from __future__ import annotations

import pytest

from voicejack.bots import BOT_KINDS, make_bot
from voicejack.bots.arena import play_match
from voicejack.engine import Move, apply_move, legal_moves, make_rules, new_game

TABLES = ((2, False, "regular"), (2, False, "complex"), (4, True, "regular"), (4, True, "complex"),
          (4, False, "regular"), (4, False, "complex"))


def history(kind: str, seed: int, players: int = 2, teams: bool = False, mode: str = "regular") -> list[tuple[str, Move]]:
    state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=4)
    bots = {colour: make_bot(kind, seed + index) for index, colour in enumerate(state.rules.seats)}
    while state.winner is None:
        apply_move(state, bots[state.turn].choose(state, legal_moves(state)))
    return state.history


@pytest.mark.parametrize("kind", BOT_KINDS)
def test_same_seeds_same_match(kind: str) -> None:
    assert history(kind, seed=1) == history(kind, seed=1)


@pytest.mark.parametrize("kind", ["bot:random", "bot:easy"])
def test_bots_that_draw_lots_play_differently_with_other_seeds(kind: str) -> None:
    assert history(kind, seed=1) != history(kind, seed=2)


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}p-{'teams' if t[1] else 'ffa'}-{t[2]}")
@pytest.mark.parametrize("kind", BOT_KINDS)
def test_every_bot_finishes_matches_of_every_kind_with_legal_moves(kind: str, table: tuple[int, bool, str]) -> None:
    players, teams, mode = table
    rules = make_rules(players=players, teams=teams, mode=mode)
    result = play_match(rules, {c: make_bot(kind, i) for i, c in enumerate(rules.seats)}, seed=21)
    assert result.winner is not None  # play_match raises if a bot answers with an illegal move


def win_rate(kind: str, opponent: str, games: int, players: int = 2, teams: bool = False,
             mode: str = "regular", heuristic_seats: int = 1) -> float:
    """Share of seeded matches won by ``kind``; seats alternate so neither side always leads."""
    rules = make_rules(players=players, teams=teams, mode=mode)
    seats = rules.seats
    wins = 0
    for game in range(games):
        if teams:
            ours = set(rules.team_of(seats[game % 2]))
        else:
            ours = {seats[(game + i * len(seats) // 2) % len(seats)] for i in range(heuristic_seats)}
        bots = {c: make_bot(kind if c in ours else opponent, game * 4 + i) for i, c in enumerate(seats)}
        result = play_match(rules, bots, seed=1000 + game)
        assert result.winner is not None
        wins += set(result.winner) <= ours
    return wins / games


def test_heuristic_beats_random_in_two_player_games() -> None:
    # The benchmark's target is 90% over 1,000 games (it measures about 97%); 200 seeded games here.
    assert win_rate("bot", "bot:random", 200) >= 0.85


def test_heuristic_team_beats_random_team() -> None:
    assert win_rate("bot", "bot:random", 40, players=4, teams=True) >= 0.9


def test_heuristic_wins_most_free_for_alls_against_three_random_seats() -> None:
    # A quarter would be an even share.
    assert win_rate("bot", "bot:random", 60, players=4) >= 0.6


def test_heuristic_beats_random_in_complex_mode() -> None:
    assert win_rate("bot", "bot:random", 100, mode="complex") >= 0.85


def test_medium_beats_easy() -> None:
    # About 70% over 1,000 games.
    assert win_rate("bot:medium", "bot:easy", 300) >= 0.58


@pytest.mark.slow
def test_hard_beats_random_and_holds_its_own_against_medium() -> None:
    assert win_rate("bot:hard", "bot:random", 150) >= 0.85
    # About 55% over 1,000 games; here only that it is no weaker.
    assert win_rate("bot:hard", "bot:medium", 300) >= 0.47
