"""The heuristic bot under the house rule sets (variants.md): what blocks, what protects, the goal entrance,
and that it still beats random play at every table."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from voicejack.bots import HeuristicBot, make_bot
from voicejack.bots.arena import play_match
from voicejack.bots.heuristic import Weights, _blocker, _Context, _danger
from voicejack.bots.view import seat_view
from voicejack.engine import GameState, find_move, legal_moves, make_rules


def danger(state: GameState) -> float:
    view = seat_view(state, state.turn)
    return _danger(view, _Context(view, state.turn, Weights()), None)


def test_walls_of_one_colour_or_none_decide_what_is_exposed(table: Callable[..., GameState]) -> None:
    """R24 protects red 1 on 40 with its partner's green 1 behind it from blue 1 on 28 (a queen away);
    ON5 (walls of one colour) and KA5 (no walls) do not."""
    marbles = {"red": [40], "green": [39], "blue": [28]}
    hands = {"red": ["2"], "blue": ["Q", "3"], "green": ["9"], "yellow": ["9"]}
    voicejack = danger(table(marbles, hands, players=4, teams=True))  # green 1 alone is exposed (an ace away)
    assert danger(table(marbles, hands, players=4, teams=True, rules="online")) > voicejack + 10
    assert danger(table(marbles, hands, players=4, teams=True, rules="karooty")) > voicejack + 10


def test_what_blocks_a_walk_follows_the_rule_set(table: Callable[..., GameState]) -> None:
    """KA5: only the own colour blocks; ON5: a pair of one colour blocks the others; R24: any pair blocks."""
    state = table({"red": [30, 31], "blue": [20, 25], "green": [40], "yellow": [39]}, {"red": ["2"]},
                  players=4, teams=False)
    board = state.board
    blue1, red1 = 4, 0
    blockers = {name: _blocker(make_rules(4, False, rule_set=name).book) for name in ("voicejack", "online")}
    blockers["karooty"] = _blocker(make_rules(4, True, rule_set="karooty").book)
    assert [blockers[n](board, 31, blue1) for n in ("voicejack", "online", "karooty")] == [True, True, False]
    assert [blockers[n](board, 25, blue1) for n in ("voicejack", "online", "karooty")] == [True, False, True]
    assert [blockers[n](board, 40, red1) for n in ("voicejack", "online", "karooty")] == [True, False, False]


def test_the_bot_values_barring_an_opponents_goal_entrance_ka6(table: Callable[..., GameState]) -> None:
    """Red 1 on 50: the 6 stops on yellow's entrance (56), the 3 on 53; only the entrance term tells them apart."""
    state = table({"red": [50]}, {"red": ["3", "6"], "blue": ["9"], "green": ["9"], "yellow": ["9"]},
                  players=4, teams=True, rules="karooty")
    on_entrance, short = find_move(state, "play six red one"), find_move(state, "play three red one")
    with_term = HeuristicBot(0, weights=Weights()).scores(state, [on_entrance, short])
    without = HeuristicBot(0, weights=Weights(entrance=0.0)).scores(state, [on_entrance, short])
    assert (with_term[0] - with_term[1]) - (without[0] - without[1]) == pytest.approx(Weights().entrance)


@pytest.mark.parametrize(("name", "players", "teams"), [("karooty", 4, True), ("online", 2, False),
                                                          ("online", 4, True), ("online", 4, False)])
def test_medium_beats_random_under_every_rule_set(name: str, players: int, teams: bool) -> None:
    rules = make_rules(players, teams, rule_set=name)
    wins = 0
    for game in range(30):
        ours = set(rules.team_of(rules.seats[game % players]))
        bots = {c: make_bot("bot:medium" if c in ours else "bot:random", game) for c in rules.seats}
        result = play_match(rules, bots, seed=7_000 + game)
        assert result.winner is not None
        wins += set(result.winner) <= ours
    assert wins >= (24 if players == 2 or teams else 15)


def test_every_move_the_bot_chooses_is_legal(table: Callable[..., GameState]) -> None:
    state = table({"red": [10], "green": [30]}, {"red": ["5", "10", "K", "J"], "green": ["2", "3"]}, rules="online")
    assert HeuristicBot(0).choose(state, legal_moves(state)) in legal_moves(state)
