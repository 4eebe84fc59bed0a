"""The player's guide's worked examples, as the player hears them while choosing.

Each case pins every option of the position, in both verbosity levels:
what is offered must carry the marble, where it stands, where it lands,
whom it sends home and who is near it afterwards.
"""

from __future__ import annotations

from narration_helpers import after, describe, table

from voicejack.narration import Narrator


def test_first_turn_king_six_four_nine_all_home(full: Narrator, brief: Narrator) -> None:
    state = table(hands={"red": ["K", "6", "4", "9"]})
    assert describe(full, state) == {
        "play king out": "King: red 1 comes out onto your base at cell 0.",
    }
    assert describe(brief, state) == {"play king out": "King out: red 1 to your base at cell 0."}


def test_first_turn_told_to_the_table_then_six_and_nine_next_turn(full: Narrator, brief: Narrator) -> None:
    before, state, events = after(table(hands={"red": ["K", "6", "4", "9"]}), "play king out")
    assert full.outcome(before, events, state, listener="blue") == ["Red played a king: red 1 came out onto its own base at cell 0."]
    assert full.outcome(before, events, state, listener="red") == ["You played a king: red 1 came out onto your base at cell 0."]
    next_turn = table(marbles={"red": [0]}, hands={"red": ["6", "4", "9"]})
    assert describe(full, next_turn) == {
        "play six red one": "Six: red 1 walks from your base at cell 0 to cell 6.",
        "play nine red one": "Nine: red 1 walks from your base at cell 0 to cell 9.",
        "play four red one": (
            "Four, backwards: red 1 walks back from your base at cell 0 to cell 72. "
            "That leaves it 4 steps short of your safe zone."
        ),
    }
    assert describe(brief, next_turn) == {
        "play six red one": "Six: red 1, from your base at cell 0 to cell 6.",
        "play nine red one": "Nine: red 1, from your base at cell 0 to cell 9.",
        "play four red one": "Four back: red 1, from your base at cell 0 to cell 72. 4 steps short of your safe zone.",
    }


def test_wall_at_31_32_and_the_ace_as_one_captures_the_back_marble(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [30], "blue": [31, 32]}, hands={"red": ["Q", "A"]}, teams=False)
    assert describe(full, state) == {
        "play ace out": "Ace: red 2 comes out onto your base at cell 0.",
        "play ace red one one": (
            "Ace as 1: red 1 walks from cell 30 to cell 31. It sends home blue 1. "
            "Then Blue is 1 cell ahead of you."
        ),
    }
    assert describe(brief, state) == {
        "play ace out": "Ace out: red 2 to your base at cell 0.",
        "play ace red one one": "Ace 1: red 1, from cell 30 to cell 31. Sends home blue 1. Blue ahead by 1.",
    }


def test_seven_split_with_a_marble_on_safe_place_one(full: Narrator, brief: Narrator) -> None:
    # The guide's example (R17): only one order brings red 2 in. Red 1 three then red 2 four, and red 2 four
    # then red 1 three, end the same, so they are one option, in the engine's first order (issue 11).
    state = table(marbles={"red": ["safe 1", 71]}, hands={"red": ["7"]}, teams=False)
    assert describe(full, state) == {
        "play seven red one two red two five": (
            "Seven, split: first red 1 walks 2 steps, from safe place 1 to safe place 3. "
            "Then red 2 walks 5 steps, from cell 71 into your safe zone at place 1."
        ),
        "play seven red one three red two four": (
            "Seven, split: first red 1 walks 3 steps, from safe place 1 to safe place 4. "
            "Then red 2 walks 4 steps, from cell 71 to cell 75. Red 2 ends 1 step short of your safe zone."
        ),
    }
    assert describe(brief, state) == {
        "play seven red one two red two five": (
            "Seven split: 2 steps for red 1, from safe place 1 to safe place 3. Then 5 steps for red 2, from cell 71 into safe place 1."
        ),
        "play seven red one three red two four": (
            "Seven split: 3 steps for red 1, from safe place 1 to safe place 4. Then 4 steps for red 2, from cell 71 to cell 75. "
            "Red 2 ends 1 step short of your safe zone."
        ),
    }


def test_the_four_from_the_base_leaves_four_steps_to_the_safe_zone(full: Narrator, brief: Narrator) -> None:
    red = table(marbles={"red": [0]}, hands={"red": ["4"]}, teams=False)
    assert describe(full, red)["play four red one"] == (
        "Four, backwards: red 1 walks back from your base at cell 0 to cell 72. "
        "That leaves it 4 steps short of your safe zone."
    )
    assert describe(brief, red)["play four red one"] == (
        "Four back: red 1, from your base at cell 0 to cell 72. 4 steps short of your safe zone."
    )
    blue = table(marbles={"blue": [19]}, hands={"blue": ["4"]}, turn="blue", teams=False)
    assert describe(full, blue)["play four blue one"] == (
        "Four, backwards: blue 1 walks back from your base at cell 19 to cell 15. "
        "That leaves it 4 steps short of your safe zone."
    )


def test_two_steps_short_of_safe_place_one_with_two_five_and_six(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [74]}, hands={"red": ["2", "5", "6"]}, teams=False)
    # The 6 would carry the marble past place 4, so it is never offered (R21).
    assert describe(full, state) == {
        "play two red one": "Two: red 1 walks from cell 74 into your safe zone at place 1.",
        "play five red one": "Five: red 1 walks from cell 74 into your safe zone at place 4.",
    }
    assert describe(brief, state) == {
        "play two red one": "Two: red 1, from cell 74 into safe place 1.",
        "play five red one": "Five: red 1, from cell 74 into safe place 4.",
    }
