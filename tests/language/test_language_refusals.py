"""A whole move clearly heard but not legal is refused with the engine's reason, never confirmed as another move
(issue 10, and issue 12's "explain a refusal")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from lang_positions import POSITIONS, others, table
from lang_random import random_positions

from voicejack.app.hear import hear_main
from voicejack.engine import GameState, Move, MoveKind, legal_moves
from voicejack.engine.board import COLOURS
from voicejack.engine.cards import WALK_VALUES
from voicejack.language import (
    Ask,
    Choice,
    Confirm,
    Conversation,
    Heard,
    NotUnderstood,
    NotUnderstoodCode,
    Resolver,
    phrase_set,
    resolve,
)
from voicejack.language.normalise import key_of
from voicejack.tablefile import save_table

# Red 1 on 12 stands in red 2's way: red 2 on 8 may walk 4 onto it (R26) but not seven past it (R22).
BEHIND_OWN = table({"red": ["7", "9"], **others("2")}, {"red": [12, 8, "home", "home"]})


def refused(state: GameState, text: str, seat: str | None = None) -> NotUnderstood:
    result = resolve(state, seat or state.turn, text)
    assert isinstance(result, NotUnderstood), result
    assert result.refused, result
    return result


@pytest.mark.parametrize("text", ["play seven red two seven", "seven red two seven", "7 r2 7",
                                  "play the seven on red two, seven steps"])
def test_r22_an_illegal_seven_is_refused_with_the_reason_not_confirmed_as_another_split(text: str) -> None:
    # Before: matched to the legal splits ("Which marble moves first?"), never refused.
    result = refused(BEHIND_OWN, text)
    assert result.reason == "Red 2 can't walk seven: your red 1 is in the way on cell 12."
    assert result.code is NotUnderstoodCode.ILLEGAL


def test_r22_the_canonical_phrase_of_the_walk_is_refused_the_same_way() -> None:
    assert refused(BEHIND_OWN, "play seven red two").reason == "Red 2 can't walk seven: your red 1 is in the way on cell 12."


def test_r24_a_wall_is_named_with_both_marbles() -> None:
    assert refused(POSITIONS["wall"], "play queen red one").reason == (
        "Red 1 can't walk twelve: blue 1 and blue 2 make a wall on cells 31 and 32.")


def test_r23_a_marble_on_its_own_base_blocks() -> None:
    state = table({"red": ["9"], **others("2")}, {"red": [15, 40, "home", "home"], "blue": [19, "home", "home", "home"]})
    assert refused(state, "nine red one").reason == (
        "Red 1 can't walk nine: blue 1 is on its own base on cell 19, and nobody passes it.")


def test_r21_past_the_end_of_the_safe_zone() -> None:
    state = table({"red": ["Q", "K"], **others("2")}, {"red": [70, "home", "home", "home"]}, teams=False)
    assert refused(state, "queen red one").reason == (
        "Red 1 can't walk twelve: only 9 steps are left to the end of its safe zone.")


def test_r36_the_partners_marble_is_named_as_the_partners() -> None:
    # Red has all four in, so red's cards move green's marbles; green 2 on 45 blocks green 1 on 40.
    state = table({"red": ["9", "2"], **others("2")},
                  {"red": ["safe 1", "safe 2", "safe 3", "safe 4"], "green": [40, 45, "home", "home"]})
    assert refused(state, "nine green one").reason == (
        "Green 1 can't walk nine: your partner's green 2 is in the way on cell 45.")


def test_r17_the_second_part_of_a_split_is_judged_after_the_first() -> None:
    # Red 1 on 8 walks 2 onto red 2 on 10 and sends it home: red 2 then has nothing to walk.
    state = table({"red": ["7", "9"], **others("2")}, {"red": [8, 10, 40, "home"]})
    assert refused(state, "seven red one two red two five").reason == (
        "After the first part of the seven, red 2 is at home: an ace or a king brings it out.")


def test_r19_r20_marbles_that_are_not_yours_or_at_home() -> None:
    mid = POSITIONS["mid"]
    assert refused(mid, "nine blue one").reason == "You move only red marbles, and blue 1 is not one."
    assert refused(mid, "nine red three").reason == "Red 3 is at home: an ace or a king brings it out."
    assert refused(mid, "seven red one five red one two").reason == "A seven splits between two different marbles."


def test_r28_burning_while_a_card_can_move_and_a_missing_card() -> None:
    assert refused(POSITIONS["mid"], "burn nine").reason == "You may burn only when no card can move a marble."
    # Before: a bare "burn" was answered "I didn't catch burn."
    assert refused(POSITIONS["mid"], "burn").reason == "You may burn only when no card can move a marble."
    missing = refused(POSITIONS["mid"], "play queen red one")
    assert (missing.reason, missing.code) == ("You have no queen.", NotUnderstoodCode.NO_CARD)


def test_the_hear_command_prints_the_reason(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    save_table(BEHIND_OWN, path)
    assert hear_main([str(path), "play seven red two seven"]) == 0
    assert capsys.readouterr().out == "not understood: Red 2 can't walk seven: your red 1 is in the way on cell 12.\n"


def _plain_illegal_moves(state: GameState) -> Iterator[Move]:
    """Every walk a card in hand names for the mover's marbles, the ones the engine does not offer."""
    legal = set(legal_moves(state))
    start = COLOURS.index(state.turn) * 4
    for card in sorted(set(state.hands[state.turn])):
        for marble in range(start, start + 4):
            if card in WALK_VALUES:
                move = Move(card, MoveKind.WALK, marble, WALK_VALUES[card])
            elif card == "4":
                move = Move(card, MoveKind.WALK, marble, 4)
            elif card == "7":
                move = Move(card, MoveKind.WALK, marble, 7)
            else:
                continue
            if move not in legal:
                yield move


def test_no_illegal_whole_move_of_random_positions_is_ever_played_or_confirmed() -> None:
    tried = 0
    for state in random_positions(120, seed=21):
        for move in _plain_illegal_moves(state):
            result = resolve(state, state.turn, move.phrase)
            assert isinstance(result, NotUnderstood) and result.refused, (move.phrase, result)
            assert "not allowed now" not in result.reason, (move.phrase, result.reason)  # a named reason
            tried += 1
    assert tried > 200


NO_LIST_YET = "No options have been read out yet. Say options to hear them with their numbers."


@pytest.mark.parametrize("text", ["option one", "option 1", "Option two.", "first option", "the third option"])
@pytest.mark.parametrize("typed", [True, False])
def test_an_option_number_before_any_list_is_refused_with_how_to_get_one(text: str, typed: bool) -> None:
    # Before: "I didn't catch option one." (phrases.md: option numbers count once the options were read out,
    # so nothing is guessed from a list the player never heard).
    state = POSITIONS["wall"]
    result = resolve(state, state.turn, Heard(text, typed=typed))
    assert isinstance(result, NotUnderstood) and result.refused
    assert (result.reason, result.code) == (NO_LIST_YET, NotUnderstoodCode.NO_OPTION)


def test_once_the_options_were_read_option_one_is_the_first_of_them() -> None:
    state = POSITIONS["wall"]
    conversation = Conversation(state.turn)
    options = Ask("Your options.", tuple(Choice(m.phrase, m) for m in legal_moves(state)), numbered=True)
    conversation.pending = options
    picked = conversation.hear(state, "option one")
    assert isinstance(picked, (Move, Confirm))
    assert (picked if isinstance(picked, Move) else picked.move) == options.choices[0].then


# ---------------------------------------------------------------------------- refusals by voice
# A recogniser only ever returns a sentence of its grammar. Before, the grammar held legal moves only, so a
# clearly said illegal move ("play five red three", red 3 at home) came back as the nearest legal one and was
# confirmed ("play five red two ... yes or no?"), or was thrown away as noise: never refused with its reason.


def test_the_spoken_grammar_holds_the_illegal_whole_moves_of_the_hand_so_they_can_be_refused() -> None:
    grammar = phrase_set(BEHIND_OWN, "red")
    for phrase in ("play seven red two", "play seven red two seven"):
        assert phrase in grammar.phrases, phrase
        assert phrase not in grammar.obeyed
    assert "play king red one" not in grammar.phrases  # no king in hand
    assert "play nine red three" not in grammar.phrases  # red 3 is at home: "red three" would be heard for "red four"


def test_every_illegal_sentence_of_the_spoken_grammar_is_refused_with_a_reason_when_heard() -> None:
    tried = 0
    for state in [BEHIND_OWN, *random_positions(60, seed=23)]:
        legal = {move.phrase for move in legal_moves(state)}
        language = Resolver().language(state, state.turn)
        for phrase in phrase_set(state, state.turn).phrases:
            if language.by_key.get(key_of(phrase)):
                continue  # a sentence of the language itself
            assert phrase not in legal
            result = resolve(state, state.turn, Heard(phrase, (0.95,) * len(phrase.split())))
            assert isinstance(result, NotUnderstood) and result.refused, (phrase, result)
            assert "not allowed now" not in result.reason, (phrase, result.reason)
            tried += 1
    assert tried > 100


def test_out_of_turn_a_whole_move_of_the_hand_is_listened_for_and_refused_as_not_your_turn() -> None:
    state = table({"red": ["7", "9"], "blue": ["5", "Q"], "green": ["2"], "yellow": ["2"]},
                  {"red": [12, 8, "home", "home"], "blue": [30, "home", "home", "home"]})
    grammar = phrase_set(state, "blue")  # red is to play
    moves = sorted(phrase for phrase in grammar.phrases if phrase.startswith("play "))
    assert moves == ["play five blue one", "play queen blue one"]  # blue's marbles out of home only
    for phrase in moves:
        result = resolve(state, "blue", Heard(phrase, (0.95,) * len(phrase.split())))
        assert isinstance(result, NotUnderstood) and result.code is NotUnderstoodCode.NOT_YOUR_TURN
        assert result.reason.startswith("It is red's turn, not yours.")


def test_a_marble_that_is_not_one_of_the_choices_starts_its_sentence_with_a_capital() -> None:
    """Printed and spoken alike: "Red 3 is not one of the choices", never "red 3 is ..."."""
    state = POSITIONS["mid"]
    conversation = Conversation("red", Resolver())
    asked = conversation.hear(state, "seven")
    assert isinstance(asked, Ask)
    result = conversation.hear(state, "red three")
    assert isinstance(result, NotUnderstood) and result.code is NotUnderstoodCode.NO_OPTION
    assert result.reason == "Red 3 is not one of the choices. Say a choice, or option and its number."


def test_after_the_options_a_card_in_hand_that_cannot_move_is_refused_as_the_card_not_as_an_option() -> None:
    # R29: red 1 on 5 is stuck behind blue's wall on 6-7, so the three options are burns. Before, "seven" (a card
    # the player holds) was answered "There is no option 7: say a number from 1 to 3."
    state = table({"red": ["7", "9", "3"], **others("2")}, {"red": [5, "home", "home", "home"],
                                                            "blue": [6, 7, "home", "home"]})
    conversation = Conversation(state.turn)
    options = Ask("Your options.", tuple(Choice(m.phrase, m, (m.phrase,)) for m in legal_moves(state)), numbered=True)
    assert len(options.choices) == 3
    conversation.pending = options
    result = conversation.hear(state, "seven")
    assert isinstance(result, NotUnderstood) and result.refused
    assert result.reason == "No card can move a marble, so you must burn one: say burn and a card, like burn nine."
    far = conversation.hear(state, "option eight")  # a number only: still the option it names
    assert isinstance(far, NotUnderstood) and far.reason == "There is no option 8: say a number from 1 to 3."
