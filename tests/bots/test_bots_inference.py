"""The expert's reading of the opponents' moves this deal: public evidence only, never against the real hands,
and a burn (R28, R29) rules out the hands that could have moved."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from voicejack.bots import make_bot
from voicejack.bots.heuristic import HeuristicBot
from voicejack.bots.inference import PastTurn, likelihood, past_turns
from voicejack.bots.view import seat_view
from voicejack.engine import GameState, MoveKind, apply_move, legal_moves, make_rules, new_game

from tests.bots.test_bots_expert import redealt

SCORER = HeuristicBot(0, "medium")
TEMPERATURE = 5.0


def match_positions(players: int, teams: bool, mode: str = "regular", games: int = 2) -> Iterator[GameState]:
    """Every position of a few matches between hard bots, the history included."""
    for game in range(games):
        state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=300 + game)
        bots = {colour: make_bot("bot:hard", index) for index, colour in enumerate(state.rules.seats)}
        while state.winner is None:
            yield state
            apply_move(state, bots[state.turn].choose(state, legal_moves(state)))


@pytest.mark.parametrize("players,teams,mode", [(2, False, "regular"), (4, True, "regular"), (2, False, "complex")])
def test_the_real_hands_are_never_ruled_out(players: int, teams: bool, mode: str) -> None:
    with_evidence = 0
    for count, state in enumerate(match_positions(players, teams, mode)):
        if count % 3:
            continue
        me = state.turn
        turns = past_turns(seat_view(state, me), state.history, me)
        with_evidence += bool(turns)
        assert all(turn.move.kind is not MoveKind.BURN_HAND for turn in turns)
        assert likelihood(state, turns, SCORER, TEMPERATURE)[0] > 0
    assert with_evidence > 10


def test_the_tables_rebuilt_are_the_ones_the_opponent_saw() -> None:
    # The opponents here are hard bots: scored by the hard level, the real hands make every move they chose
    # the best one, so the rebuilt boards, discards and hand sizes are those they decided on.
    hard = HeuristicBot(0, "hard")
    checked = 0
    for count, state in enumerate(match_positions(2, False, games=1)):
        me = state.turn
        turns = past_turns(seat_view(state, me), state.history, me)
        if count % 2 or not turns:
            continue
        assert likelihood(state, turns, hard, 0.01)[0] == 1.0
        checked += 1
    assert checked > 10


def seen(turn: PastTurn) -> tuple[object, ...]:
    table = turn.table
    return (table.marbles, table.hands, table.turn, table.pile, table.discard, table.forced_burn, turn.move,
            turn.played_since)


def test_the_evidence_is_what_the_seat_sees() -> None:
    rng = random.Random(5)
    for count, state in enumerate(match_positions(2, False, games=1)):
        if count % 5:
            continue
        me = state.turn
        other = redealt(state, rng)
        mine = past_turns(seat_view(state, me), state.history, me)
        theirs = past_turns(seat_view(other, me), other.history, me)
        assert [seen(t) for t in mine] == [seen(t) for t in theirs]
        world = seat_view(state, me, random.Random(count))
        assert likelihood(world, mine, SCORER, TEMPERATURE) == likelihood(world, theirs, SCORER, TEMPERATURE)


def test_a_burn_rules_out_every_hand_that_could_have_moved() -> None:
    # R28/R29: an opponent burned one card, so no card it held then gave a legal move. Give it, in a world,
    # an ace with a marble waiting at home and its base free: that hand could have come out, so it is ruled out.
    tried = 0
    for state in match_positions(2, False, games=12):
        me = state.turn
        turns = past_turns(seat_view(state, me), state.history, me)
        burns = [turn for turn in turns if turn.move.kind is MoveKind.BURN]
        if not burns or not state.hands[burns[0].table.turn]:
            continue
        opponent = burns[0].table.turn
        world = state.copy()
        world.hands[opponent] = ["A", *world.hands[opponent][1:]]
        table = burns[0].table.copy()
        table.hands[opponent] = world.hands[opponent] + list(burns[0].played_since)
        if not any(move.kind is not MoveKind.BURN for move in legal_moves(table)):
            continue
        assert likelihood(world, turns, SCORER, TEMPERATURE)[0] == 0.0
        assert likelihood(state, turns, SCORER, TEMPERATURE)[0] > 0.0
        tried += 1
        if tried == 3:
            return
    pytest.fail(f"only {tried} burns with an ace that could have come out were met")


def test_a_table_without_its_history_gives_no_evidence(table: Callable[..., GameState]) -> None:
    state = table({"red": [5], "green": [30]}, {"red": ["2", "9"], "green": ["3", "Q"]})
    assert past_turns(seat_view(state, "red"), state.history, "red") == []
