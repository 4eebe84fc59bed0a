"""Bots decide from what their seat may know: permuting the hidden cards never changes a choice."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from voicejack.bots import BOT_KINDS, make_bot, seat_view, unseen_cards
from voicejack.engine import (
    GameState,
    Move,
    apply_move,
    legal_moves,
    make_rules,
    new_game,
)
from voicejack.engine.cards import full_deck

TABLES = ((2, False, "regular"), (4, True, "regular"), (4, False, "complex"), (2, False, "complex"))


def hidden_permuted(state: GameState, rng: random.Random) -> GameState:
    """The same table where the other hands and the pile hold the same cards in another order and the
    shuffling generator is another: everything the player to act cannot see is changed."""
    colour = state.turn
    other = state.copy()
    others = [seat for seat in state.rules.seats if seat != colour]
    hidden = list(other.pile) + [card for seat in others for card in other.hands[seat]]
    rng.shuffle(hidden)
    for seat in others:
        size = len(other.hands[seat])
        other.hands[seat], hidden = hidden[:size], hidden[size:]
    other.pile = hidden
    other.rng = random.Random(rng.random())
    return other


def sample_positions(players: int, teams: bool, mode: str, games: int = 3, every: int = 5) -> list[GameState]:
    """Positions met in real matches between medium bots."""
    found: list[GameState] = []
    for game in range(games):
        state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=game)
        bots = {colour: make_bot("bot", index) for index, colour in enumerate(state.rules.seats)}
        turn = 0
        while state.winner is None:
            moves = legal_moves(state)
            if turn % every == 0 and len(moves) > 1:
                found.append(state.copy())
            apply_move(state, bots[state.turn].choose(state, moves))
            turn += 1
    return found


@pytest.fixture(scope="module", params=TABLES, ids=lambda t: f"{t[0]}p-{'teams' if t[1] else 'ffa'}-{t[2]}")
def positions(request: pytest.FixtureRequest) -> list[GameState]:
    return sample_positions(*request.param)


def choices_differ(kind: str, positions: list[GameState], seed: int = 11) -> list[str]:
    rng = random.Random(5)
    differences = []
    for state in positions:
        moves = legal_moves(state)
        permuted = hidden_permuted(state, rng)
        assert legal_moves(permuted) == moves  # the legal moves never depend on hidden cards
        first = make_bot(kind, seed).choose(state, moves)
        second = make_bot(kind, seed).choose(permuted, moves)
        if first != second:
            differences.append(f"{first.phrase} / {second.phrase}")
    return differences


@pytest.mark.parametrize("kind", BOT_KINDS)
def test_choice_does_not_depend_on_hidden_cards(kind: str, positions: list[GameState]) -> None:
    assert len(positions) > 30
    assert choices_differ(kind, positions) == []


class PeekingBot:
    """A cheat, to show the test above would catch one: it plays its first move unless the next
    player holds a queen."""

    name = "peeking"

    def choose(self, state: GameState, moves: list[Move]) -> Move:
        next_seat = state.rules.next_seat(state.turn)
        return moves[-1] if "Q" in state.hands[next_seat] else moves[0]


def test_the_permutation_check_catches_a_bot_that_peeks(positions: list[GameState]) -> None:
    rng = random.Random(5)
    caught = 0
    for state in positions:
        moves = legal_moves(state)
        permuted = hidden_permuted(state, rng)
        caught += PeekingBot().choose(state, moves) != PeekingBot().choose(permuted, moves)
    assert caught > 0


def test_seat_view_keeps_what_the_seat_knows_and_nothing_else(positions: list[GameState]) -> None:
    for state in positions[:10]:
        me = state.turn
        view = seat_view(state, me)
        assert view.marbles == state.marbles and view.board == state.board
        assert view.hands[me] == state.hands[me]
        assert view.discard == state.discard and view.last_card == state.last_card
        assert {c: len(h) for c, h in view.hands.items()} == {c: len(h) for c, h in state.hands.items()}
        assert len(view.pile) == len(state.pile)
        # The unseen cards are the deck less the seat's own hand and the played cards.
        expected = Counter(full_deck()) - Counter(state.hands[me]) - Counter(state.discard)
        assert Counter(unseen_cards(state, me)) == expected
        hidden = Counter(view.pile) + sum((Counter(view.hands[c]) for c in view.hands if c != me), Counter())
        assert hidden == expected
        # Same view whatever the hidden order: nothing of it leaks.
        permuted = seat_view(hidden_permuted(state, random.Random(1)), me)
        assert (permuted.hands, permuted.pile) == (view.hands, view.pile)
        assert permuted.rng.getstate() == view.rng.getstate()
        assert view.history == []


def test_a_sampled_world_is_one_consistent_deal_of_the_unseen_cards() -> None:
    state, _ = new_game(make_rules(players=4, teams=True), seed=3)
    me = state.turn
    world = seat_view(state, me, random.Random(2))
    assert world.hands[me] == state.hands[me]
    dealt = Counter(world.pile) + sum((Counter(world.hands[c]) for c in world.hands if c != me), Counter())
    assert dealt == Counter(unseen_cards(state, me))
    assert seat_view(state, me, random.Random(2)).hands == world.hands
    assert seat_view(state, me, random.Random(4)).hands != world.hands


def test_unseen_cards_of_a_hand_built_state_that_is_not_one_deck() -> None:
    # Built by editing a state, not loaded from a table file: five aces, so the deck cannot be counted.
    state, _ = new_game(make_rules(players=2), seed=3)
    state.hands["green"] = ["A"] * 5
    state.pile = ["K", "2"]
    assert unseen_cards(state, "red") == ["A"] * 5 + ["2", "K"]
    assert make_bot("bot", 0).choose(state, legal_moves(state)) in legal_moves(state)
