"""Properties over many random positions: canonical phrases, the dialog tree, and never an illegal move."""

from __future__ import annotations

import random

from lang_random import random_positions

from voicejack.engine import GameState, Move, MoveKind, legal_moves
from voicejack.engine.cards import RANK_WORDS
from voicejack.language import (
    Ask,
    Command,
    Confirm,
    Heard,
    Language,
    NotUnderstood,
    Resolution,
    Resolver,
    phrase_set,
    sends_home_own,
)
from voicejack.language.normalise import normalise

POSITIONS = list(random_positions(120, seed=11))
RESOLVER = Resolver()


def test_the_sample_is_varied() -> None:
    assert {state.rules.mode for state in POSITIONS} == {"regular", "complex"}
    assert {state.rules.players for state in POSITIONS} == {2, 4}
    kinds = {move.kind for state in POSITIONS for move in legal_moves(state)}
    assert {MoveKind.OUT, MoveKind.WALK, MoveKind.SPLIT, MoveKind.SWAP, MoveKind.BURN_HAND} <= kinds


def test_every_canonical_phrase_resolves_to_its_own_move() -> None:
    checked = 0
    for state in POSITIONS:
        for move in legal_moves(state):
            result = RESOLVER.resolve(state, state.turn, move.phrase)
            if sends_home_own(state, state.turn, move):
                assert isinstance(result, Confirm) and result.move == move, move.phrase
            else:
                assert result == move, (move.phrase, result)
            # Spoken the same way (no typing extras), with full confidence, it is the same.
            spoken = RESOLVER.resolve(state, state.turn, Heard(move.phrase, (1.0,) * len(move.phrase.split())))
            assert spoken == result
            checked += 1
    assert checked > 300


def _walk(state: GameState, result: Resolution, reached: list[Move]) -> None:
    """Answer every question with every option number, collecting the moves reached."""
    if isinstance(result, Confirm):
        assert isinstance(result.move, Move)
        result = RESOLVER.resolve(state, state.turn, "yes", result)
    if isinstance(result, Move):
        reached.append(result)
        return
    assert isinstance(result, Ask), result
    assert len(result.choices) >= 2  # a question with one answer is never asked (R39)
    for number in range(1, len(result.choices) + 1):
        _walk(state, RESOLVER.resolve(state, state.turn, f"option {number}", result), reached)


def test_naming_a_card_leads_through_questions_to_each_of_its_moves_exactly_once() -> None:
    for state in POSITIONS[::2]:
        moves = legal_moves(state)
        if moves[0].kind in (MoveKind.BURN, MoveKind.BURN_HAND):
            continue
        for card in {move.card for move in moves}:
            reached: list[Move] = []
            _walk(state, RESOLVER.resolve(state, state.turn, RANK_WORDS[card]), reached)
            assert sorted(m.phrase for m in reached) == sorted(m.phrase for m in moves if m.card == card)


def _check(state: GameState, result: Resolution) -> None:
    legal = set(legal_moves(state))
    if isinstance(result, Move):
        assert result in legal
    elif isinstance(result, Confirm):
        assert isinstance(result.move, Command) or result.move in legal
    elif isinstance(result, Ask):
        assert result.moves() <= legal and len(result.choices) >= 2
    else:
        assert isinstance(result, (Command, NotUnderstood))


def test_random_word_salad_never_yields_an_illegal_move() -> None:
    rng = random.Random(5)
    extra = ["um", "please", "the", "and", "banana", "fifteen", "twenty", "7", "11", "r1", "q", "for", "to"]
    for state in POSITIONS[::3]:
        words = sorted(phrase_set(state, state.turn).words()) + extra
        pending = None
        for _ in range(40):
            text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 8)))
            result = RESOLVER.resolve(state, state.turn, text, pending)
            _check(state, result)
            pending = result if isinstance(result, (Ask, Confirm)) else pending


def test_mangled_canonical_phrases_never_yield_an_illegal_move() -> None:
    """Each legal phrase with a word dropped, doubled or replaced: a move, a question or a refusal, all legal."""
    rng = random.Random(9)
    vocabulary = ["red", "blue", "green", "yellow", "one", "two", "three", "four", "five", "seven", "eleven", "nine"]
    for state in POSITIONS[::4]:
        for move in legal_moves(state)[:25]:
            words = move.phrase.split()
            spot = rng.randrange(len(words))
            for mangled in (words[:spot] + words[spot + 1:], words[:spot + 1] + words[spot:],
                            words[:spot] + [rng.choice(vocabulary)] + words[spot + 1:]):
                result = RESOLVER.resolve(state, state.turn, " ".join(mangled))
                _check(state, result)
                if isinstance(result, Move):
                    # Played at once only when the words are still exactly a form of the language
                    # (a dropped "play", a doubled filler, a 7 split whose last number is implied).
                    language = Language(state, state.turn)
                    key = normalise(" ".join(mangled), typed=True).primary
                    assert key in language.by_key, (move.phrase, mangled, result)


def test_a_player_not_to_act_never_gets_a_move() -> None:
    for state in POSITIONS[::5]:
        for seat in state.rules.seats:
            if seat == state.turn:
                continue
            for move in legal_moves(state)[:10]:
                result = RESOLVER.resolve(state, seat, move.phrase)
                assert isinstance(result, NotUnderstood) and result.code == "not_your_turn"
