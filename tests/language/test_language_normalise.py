"""The normaliser: what was heard or typed, as the words the matcher compares."""

from __future__ import annotations

import pytest

from voicejack.language.match import allowed_cost, word_distance
from voicejack.language.normalise import key_of, normalise


@pytest.mark.parametrize(("text", "typed", "expected"), [
    ("Um, play the NINE on red-two please!", False, ("nine", "red", "two")),
    ("play nine red to", False, ("nine", "red", "two")),
    ("swap red one to blue three", False, ("jack", "red", "one", "blue", "three")),
    ("play jack swap red one with blue three", False, ("jack", "red", "one", "blue", "three")),
    ("play seven red one for red two six", False, ("seven", "red", "one", "red", "two", "six")),
    ("play nine red for", False, ("nine", "red", "four")),
    ("nine red won", False, ("nine", "red", "one")),
    ("read the board", False, ("read", "board")),
    ("nine read one", False, ("nine", "red", "one")),
    ("play nine number two", False, ("nine", "marble", "two")),
    ("play nine red marble two", False, ("nine", "red", "two")),
    ("where's blue one", False, ("where", "blue", "one")),
    ("what\u2019s the score", False, ("what", "score")),
    ("play seven all of it", False, ("seven", "all")),
    ("the whole seven", False, ("all", "seven")),
    ("play 7 red 1 5 red 2 2", True, ("seven", "red", "one", "five", "red", "two", "two")),
    ("play 7 red 15 red 22", True, ("seven", "red", "one", "five", "red", "two", "two")),
    ("7 r15 r22", True, ("seven", "red", "one", "five", "red", "two", "two")),
    ("play ace red 1 11", True, ("ace", "red", "one", "eleven")),
    ("play ace red 111", True, ("ace", "red", "one", "eleven")),
    ("9 red1", True, ("nine", "red", "one")),
    ("15", True, ("fifteen",)),
    ("10 burn", True, ("ten", "burn")),
    ("q r2", True, ("queen", "red", "two")),
    ("q r2", False, ("q", "r2")),  # letters are typing shortcuts only
    ("a out", True, ("ace", "out")),
    ("play a nine", True, ("nine",)),
    ("burn a", True, ("burn", "ace")),
    ("a", False, ()),
    ("k", True, ("king",)),
    ("j r1 b1", True, ("jack", "red", "one", "blue", "one")),
    ("option 3", True, ("option", "three")),
    ("#3", True, ("option", "three")),
    ("choice two", False, ("option", "two")),
    ("2nd", True, ("second",)),
    ("the first one", False, ("first", "one")),
    ("", False, ()),
    ("um uh please", False, ()),
])
def test_literal_reading(text: str, typed: bool, expected: tuple[str, ...]) -> None:
    assert normalise(text, typed).primary == expected


def test_a_compound_after_a_colour_is_also_read_digit_by_digit() -> None:
    readings = normalise("seven red fifteen red twenty two").readings
    assert readings[0] == ("seven", "red", "fifteen", "red", "twenty", "two")
    assert ("seven", "red", "one", "five", "red", "two", "two") in readings
    assert len(readings) == 4
    assert normalise("ace red eleven").readings == (("ace", "red", "eleven"), ("ace", "red", "one", "one"))
    assert normalise("play fifteen").readings == (("fifteen",),)  # not after a colour: one reading


def test_content_marks_the_raw_words_that_carried_meaning() -> None:
    heard = normalise("um play nine red one please")
    assert heard.raw_words == ("um", "play", "nine", "red", "one", "please")
    assert heard.content == (False, False, True, True, True, False)
    assert normalise("red1 please", True).content == (True, False)


def test_key_of_a_form_is_its_literal_reading() -> None:
    assert key_of("play the nine on red two") == key_of("nine red two") == ("nine", "red", "two")


@pytest.mark.parametrize(("heard", "key", "distance"), [
    (("nine", "red", "one"), ("nine", "red", "one"), 0),
    (("nine", "red"), ("nine", "red", "one"), 1),
    (("nine", "red", "one", "blue"), ("nine", "red", "one"), 1),
    (("nine", "bed", "one"), ("nine", "red", "one"), 1),
    (("seven", "red", "one", "five", "red", "two"), ("seven", "red", "one", "five", "red", "two", "two"), 1),
    (("a", "b"), ("c", "d", "e"), 3),
])
def test_word_distance(heard: tuple[str, ...], key: tuple[str, ...], distance: int) -> None:
    assert word_distance(heard, key) == distance
    assert word_distance(key, heard) == distance


def test_allowed_cost_needs_two_right_words_and_grows_with_length() -> None:
    assert allowed_cost(1, 1) < 0 and allowed_cost(1, 2) < 1   # one or two words: exact only
    assert allowed_cost(2, 2) == 0
    assert allowed_cost(3, 3) == 1 and allowed_cost(2, 3) == 1
    assert allowed_cost(6, 7) == 2
