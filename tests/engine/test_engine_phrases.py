"""Canonical phrases (shared/spec/phrases.md): the list is a set, and a phrase finds its move again."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voicejack.engine import (
    IllegalMoveError,
    Move,
    MoveKind,
    PhraseSyntaxError,
    apply_move,
    find_move,
    legal_moves,
    legal_phrases,
    make_rules,
    marble_id,
    new_game,
    parse_move,
)
from voicejack.engine.moves import NO_CARD

RED1, RED2 = marble_id("red", 1), marble_id("red", 2)


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


# ---------------------------------------------------------------- the notation read back: parse_move


REGULAR = make_rules(mode="regular")
COMPLEX = make_rules(mode="complex")


@pytest.mark.parametrize(
    ("phrase", "move"),
    [
        ("play ace out", Move("A", MoveKind.OUT)),
        ("play king out", Move("K", MoveKind.OUT)),
        ("play ace red one eleven", Move("A", MoveKind.WALK, RED1, 11)),
        ("play ace blue four one", Move("A", MoveKind.WALK, marble_id("blue", 4), 1)),
        ("play nine red two", Move("9", MoveKind.WALK, RED2, 9)),
        ("play queen red one", Move("Q", MoveKind.WALK, RED1, 12)),
        ("play four red two", Move("4", MoveKind.WALK, RED2, 4)),
        ("play seven red two", Move("7", MoveKind.WALK, RED2, 7)),
        ("play seven red one five red two two", Move("7", MoveKind.SPLIT, RED1, 5, RED2, 2)),
        ("play jack red one blue three", Move("J", MoveKind.SWAP, RED1, 0, marble_id("blue", 3))),
        ("play ten burn", Move("10", MoveKind.FORCE_BURN)),
        ("burn nine", Move("9", MoveKind.BURN)),
        ("burn hand", Move(NO_CARD, MoveKind.BURN_HAND)),
    ],
)
def test_parse_move_reads_every_form(phrase: str, move: Move) -> None:
    assert parse_move(phrase, REGULAR) == move == Move.from_phrase(phrase, COMPLEX)
    assert move.phrase == phrase


def test_the_king_with_a_marble_depends_on_the_version() -> None:
    """R15, R31: the sweep in the complex version; in the regular one a 13-step walk that is never legal."""
    assert parse_move("play king red one", COMPLEX) == Move("K", MoveKind.SWEEP, RED1, 13)
    assert parse_move("play king red one", REGULAR) == Move("K", MoveKind.WALK, RED1, 13)


@pytest.mark.parametrize(
    ("words", "reason"),
    [
        ("", "the phrase is empty"),
        ("dance", "a move starts with 'play' or 'burn'"),
        ("play", "after 'play' name a card"),
        ("play joker red one", "after 'play' name a card"),
        ("burn", "say 'burn' and a card"),
        ("burn red", "say 'burn' and a card"),
        ("play jack red one", "a jack names two marbles"),
        ("play ace red one", "say how far the ace walks"),
        ("play ace red one two", "an ace walks 'one' or 'eleven'"),
        ("play nine red five", "expected a marble here"),
        ("play seven red one five red two", "that is not a way to play the seven"),
        ("play seven red one fifty red two two", "expected a number of steps here"),
        ("play two out", "that is not a way to play the two"),
    ],
)
def test_parse_move_says_what_is_wrong(words: str, reason: str) -> None:
    with pytest.raises(PhraseSyntaxError, match=reason):
        parse_move(words, REGULAR)


@pytest.mark.parametrize(
    ("phrase", "reason"),
    [
        ("play queen red one", "red holds no queen"),
        ("burn nine", r"a card in the hand can move, and playing is compulsory \(R28\)"),
        ("burn hand", r"a card in the hand can move, and playing is compulsory \(R28\)"),
        ("play nine red two", "is not a legal move for red now"),
    ],
)
def test_find_move_says_why_a_move_is_illegal(position, phrase: str, reason: str) -> None:
    state = position(marbles={"red": [10]}, hands={"red": ["9", "A", "J"]})
    with pytest.raises(IllegalMoveError, match=reason):
        find_move(state, phrase)


def test_find_move_on_a_won_match(position) -> None:
    """R38: once won, nothing is legal."""
    state = position(marbles={"red": ["safe 1", "safe 2", "safe 3", "safe 4"]}, teams=False, winner=("red",))
    with pytest.raises(IllegalMoveError, match=r"the match is over \(R38\)"):
        find_move(state, "play king out")


def test_burning_the_wrong_way(position) -> None:
    """R29: with a marble on the track one card is burned; R30: with none the whole hand goes."""
    on_track = position(marbles={"red": [16], "blue": [19]}, hands={"red": ["Q", "9"]})
    with pytest.raises(IllegalMoveError, match=r"one card is burned \(R29\)"):
        find_move(on_track, "burn hand")
    all_home = position(hands={"red": ["2", "3"]})
    with pytest.raises(IllegalMoveError, match=r"the whole hand goes \(R30\)"):
        find_move(all_home, "burn two")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from([(2, False), (4, True), (4, False)]), mode=st.sampled_from(["regular", "complex"]),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_every_legal_move_reads_back_from_its_phrase(kind: tuple[int, bool], mode: str, seed: int) -> None:
    """Round trip over every position of a random game: parse_move(move.phrase) == move, and find_move finds it."""
    players, teams = kind
    state, _ = new_game(make_rules(players, teams, mode), seed=seed)
    chooser = random.Random(seed)
    while state.winner is None:
        moves = legal_moves(state)
        for move in moves:
            assert parse_move(move.phrase, state.rules) == move
            assert find_move(state, move.phrase) == move
        apply_move(state, chooser.choice(moves))
