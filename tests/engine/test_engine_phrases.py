"""Canonical phrases (shared/spec/phrases.md): the list is a set, and a phrase finds its move again."""

from __future__ import annotations

import pytest

from voicejack.engine import IllegalMoveError, MoveKind, PhraseSyntaxError, find_move, legal_moves, legal_phrases


def test_two_cards_of_one_rank_give_one_phrase(position) -> None:
    state = position(marbles={"red": [10]}, hands={"red": ["9", "9", "9"]})
    assert legal_phrases(state) == ["play nine red one"]
    assert len(legal_moves(state)) == 1


def test_burn_phrases_one_per_distinct_rank(position) -> None:
    state = position(marbles={"red": [16], "blue": [19]}, hands={"red": ["Q", "Q", "9", "9"]})
    assert legal_phrases(state) == ["burn nine", "burn queen"]


@pytest.mark.parametrize(
    ("phrase", "kind"),
    [
        ("play king out", MoveKind.OUT),
        ("play ace red one eleven", MoveKind.WALK),
        ("play seven red one five red two two", MoveKind.SPLIT),
        ("play seven red two", MoveKind.WALK),
        ("play jack red one blue one", MoveKind.SWAP),
        ("play four red two", MoveKind.WALK),
    ],
)
def test_find_move_returns_the_move_of_each_form(position, phrase: str, kind: MoveKind) -> None:
    state = position(marbles={"red": [10, 30], "blue": [50]}, hands={"red": ["K", "A", "7", "J", "4"]})
    move = find_move(state, phrase)
    assert move.kind is kind and move.phrase == phrase


def test_find_move_normalises_case_and_spaces(position) -> None:
    state = position(hands={"red": ["K"]})
    assert find_move(state, "  Play   KING out ").phrase == "play king out"


@pytest.mark.parametrize("words", ["", "dance", "play", "play nine", "play ace red one", "burn", "burn red",
                                   "play jack red one", "play ace red one two", "play nine red five"])
def test_words_that_are_no_move_phrase(position, words: str) -> None:
    state = position(marbles={"red": [10]}, hands={"red": ["9", "A", "J"]})
    with pytest.raises(PhraseSyntaxError):
        find_move(state, words)


@pytest.mark.parametrize("phrase", ["play nine red two", "play king out", "play queen red one", "burn nine",
                                    "play king red one", "play ten burn", "burn hand"])
def test_well_formed_but_illegal_phrases(position, phrase: str) -> None:
    state = position(marbles={"red": [10]}, hands={"red": ["9", "A", "J"]})
    with pytest.raises(IllegalMoveError):
        find_move(state, phrase)


def test_forced_burn_only_offers_burns(position) -> None:
    """R35: the player made to burn answers with burn <card>, one phrase per rank."""
    state = position(marbles={"red": [10]}, hands={"red": ["9", "A", "A"]}, forced_burn=True, mode="complex")
    assert legal_phrases(state) == ["burn ace", "burn nine"]
    with pytest.raises(IllegalMoveError):
        find_move(state, "play nine red one")
