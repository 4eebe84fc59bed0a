"""The five movement rules and capturing, R21-R27."""

from __future__ import annotations

from voicejack.engine import HOME, SAFE_OFFSET, legal_phrases, marble_id
from voicejack.engine import events as ev

RED1, RED2 = marble_id("red", 1), marble_id("red", 2)
BLUE1 = marble_id("blue", 1)
GREEN1 = marble_id("green", 1)
YELLOW1 = marble_id("yellow", 1)


# R21 exact count -----------------------------------------------------------


def test_r21_exact_count_into_safe_zone(position, apply_phrase) -> None:
    """R21: from progress 73 a 5 reaches safe 3, a 6 safe 4, a queen would overshoot."""
    state = position(marbles={"red": [73]}, hands={"red": ["5", "6", "Q"]})
    assert legal_phrases(state) == ["play five red one", "play six red one"]
    assert apply_phrase(state, "play five red one")[0].marbles[RED1] == SAFE_OFFSET + 3
    assert apply_phrase(state, "play six red one")[0].marbles[RED1] == SAFE_OFFSET + 4


def test_r21_exact_count_inside_safe_zone(position, apply_phrase) -> None:
    """R21/R25: safe 2 takes a 2 to safe 4 and nothing bigger; an ace walks 1."""
    state = position(marbles={"red": ["safe 2", 10]}, hands={"red": ["2", "3", "A"]})
    assert legal_phrases(state) == [
        "play ace out",
        "play ace red one one",
        "play ace red two eleven",
        "play ace red two one",
        "play three red two",
        "play two red one",
        "play two red two",
    ]
    assert apply_phrase(state, "play two red one")[0].marbles[RED1] == SAFE_OFFSET + 4


def test_r21_safe_four_never_moves(position) -> None:
    """R21: a marble on safe place 4 has no move at all."""
    state = position(marbles={"red": ["safe 4"]}, hands={"red": ["A", "2"]})
    assert legal_phrases(state) == ["play ace out"]


# R22 own colour ------------------------------------------------------------


def test_r22_never_pass_own_colour_but_may_land(position, apply_phrase) -> None:
    """R22: red 1 may land on red 2 (sending it home) but not walk over it."""
    state = position(marbles={"red": [10, 13]}, hands={"red": ["2", "3", "5"]})
    assert legal_phrases(state) == [
        "play five red two",
        "play three red one",
        "play three red two",
        "play two red one",
        "play two red two",
    ]
    after, events = apply_phrase(state, "play three red one")
    assert after.marbles[RED1] == 13 and after.marbles[RED2] == HOME
    assert ev.MarbleCaptured(RED2, 13, RED1, "red", "landed") in events


def test_r22_own_colour_backwards(position, apply_phrase) -> None:
    """R22: backwards too: no passing, landing captures the own marble."""
    state = position(marbles={"red": [10, 8]}, hands={"red": ["4"]})
    assert legal_phrases(state) == ["play four red two"]
    state = position(marbles={"red": [10, 6]}, hands={"red": ["4"]})
    assert legal_phrases(state) == ["play four red one", "play four red two"]
    after, _ = apply_phrase(state, "play four red one")
    assert after.marbles[RED1] == 6 and after.marbles[RED2] == HOME


def test_r22_other_colours_are_passed_freely(position) -> None:
    """R22: lone marbles of other colours (partner, opponent) do not block."""
    state = position(marbles={"red": [10], "blue": [12], "green": [15], "yellow": [20]}, hands={"red": ["Q"]})
    assert legal_phrases(state) == ["play queen red one"]


# R23 own base --------------------------------------------------------------


def test_r23_marble_on_own_base_blocks_everybody(position) -> None:
    """R23: blue on its base (19) cannot be passed or landed on by red."""
    state = position(marbles={"red": [15], "blue": [19]}, hands={"red": ["3", "4", "5", "Q"]})
    # 3 -> 18 stops short; 4 walks back to 11; 5 and the queen pass 19.
    assert legal_phrases(state) == ["play four red one", "play three red one"]
    state = position(marbles={"red": [23], "blue": [19]}, hands={"red": ["4"]})
    assert legal_phrases(state) == ["burn four"]  # would land on 19
    state = position(marbles={"red": [15], "blue": [19]}, hands={"red": ["A"]})
    # ace 11 passes 19; ace 1 to 16; out is free
    assert legal_phrases(state) == ["play ace out", "play ace red one one"]


def test_r23_own_base_blocks_its_owners_other_marbles(position) -> None:
    """R23: blue 1 on its base blocks blue 2 as well, forwards and backwards."""
    state = position(marbles={"blue": [19, 21]}, hands={"blue": ["4"]}, turn="blue")
    assert legal_phrases(state) == ["play four blue one"]  # blue 2 would pass 19
    state = position(marbles={"blue": [19, 23]}, hands={"blue": ["4"]}, turn="blue")
    assert legal_phrases(state) == ["play four blue one"]  # blue 2 would land on 19: no own capture there


def test_r23_own_base_marble_does_not_close_the_safe_zone(position) -> None:
    """R6/R23: blue 2 coming round at progress 74 (cell 17) turns into the lane before cell 19."""
    state = position(marbles={"blue": [19, 17]}, hands={"blue": ["2", "3"]}, turn="blue")
    assert legal_phrases(state) == [
        "play three blue one",
        "play three blue two",
        "play two blue one",
        "play two blue two",
    ]


def test_r23_owner_walks_off_base(position, apply_phrase) -> None:
    """R23: its owner may walk it off with any card that walks it (the 4 included)."""
    state = position(marbles={"yellow": [57]}, hands={"yellow": ["3", "4"]}, turn="yellow")
    assert legal_phrases(state) == ["play four yellow one", "play three yellow one"]
    assert apply_phrase(state, "play three yellow one")[0].marbles[YELLOW1] == 60


def test_r23_marble_on_foreign_base_is_not_protected(position, apply_phrase) -> None:
    """R23 is about the marble's own base: blue on red's base can be passed and landed on."""
    state = position(marbles={"yellow": [70], "blue": [0]}, hands={"yellow": ["6", "8"]}, turn="yellow")
    assert legal_phrases(state) == ["play eight yellow one", "play six yellow one"]
    after, _ = apply_phrase(state, "play six yellow one")
    assert after.marbles[BLUE1] == HOME and after.marbles[YELLOW1] == 0


# R24 walls -----------------------------------------------------------------


def test_r24_wall_front_cannot_be_passed_or_landed_on(position) -> None:
    """R24: blue 31-32 is a wall; 32 is protected, 31 (the back) is exposed."""
    state = position(marbles={"red": [28], "blue": [31, 32]}, hands={"red": ["3", "4", "5", "6", "Q"]})
    # 3 lands on 31 (capture), 4 goes back to 24, 5 lands on 33 passing 32, 6 passes 32, Q passes.
    assert legal_phrases(state) == ["play four red one", "play three red one"]


def test_r24_wall_of_mixed_colours(position, apply_phrase) -> None:
    """R24: a wall needs no single colour: green 40 with yellow 41 protects yellow."""
    state = position(marbles={"red": [35], "green": [40], "yellow": [41]}, hands={"red": ["5", "6", "8"]})
    assert legal_phrases(state) == ["play five red one"]
    after, _ = apply_phrase(state, "play five red one")
    assert after.marbles[GREEN1] == HOME


def test_r24_own_marble_builds_a_wall_for_an_opponent(position) -> None:
    """R24: my own red 2 on 40 makes blue on 41 a protected front for my red 1 walking back."""
    state = position(marbles={"red": [45, 40], "blue": [41]}, hands={"red": ["4"]})
    # red 1 cannot land on 41 (protected by red 2); red 2 walks back to 36.
    assert legal_phrases(state) == ["play four red two"]


def test_r24_the_moving_marble_does_not_make_a_wall(position, apply_phrase) -> None:
    """R24: red 1 right behind blue on 31 does not protect it against red 1 itself."""
    state = position(marbles={"red": [30], "blue": [31]}, hands={"red": ["A", "3"]})
    assert legal_phrases(state) == [
        "play ace out",
        "play ace red one eleven",
        "play ace red one one",
        "play three red one",
    ]
    after, _ = apply_phrase(state, "play ace red one one")
    assert after.marbles[BLUE1] == HOME and after.marbles[RED1] == 31


def test_r24_three_in_a_row_only_the_back_is_exposed(position) -> None:
    """R24: blue 46 47 48: only 46 can be landed on; nothing can be passed."""
    state = position(marbles={"red": [44], "blue": [46, 47, 48]}, hands={"red": ["2", "3", "5", "J"]})
    assert legal_phrases(state) == ["play jack red one blue one", "play two red one"]


def test_r24_wall_across_cell_75_and_0(position) -> None:
    """R24: cells 75 and 0 are neighbours: blue on 75 protects green on 0."""
    state = position(marbles={"yellow": [70], "blue": [75], "green": [0]}, hands={"yellow": ["5", "6", "8"]}, turn="yellow")
    assert legal_phrases(state) == ["play five yellow one"]


def test_r24_no_walls_in_safe_zone(position) -> None:
    """R24: walls exist on the track only: red in safe 1 does not protect anything on cell 0."""
    state = position(marbles={"red": ["safe 1"], "blue": [0], "yellow": [71]}, hands={"yellow": ["5"]}, turn="yellow")
    assert legal_phrases(state) == ["play five yellow one"]


def test_r24_wall_protection_in_a_seven_split(position) -> None:
    """R24: in a split the marble of the part being judged is ignored for walls.

    Red 1 on 29 is the only thing behind blue on 30, so red 1's own part may pass or land on it."""
    state = position(marbles={"red": [29, 20], "blue": [30]}, hands={"red": ["7"]})
    phrases = legal_phrases(state)
    assert "play seven red two three red one four" in phrases   # red 1 passes 30
    assert "play seven red two six red one one" in phrases      # red 1 lands on 30
    assert "play seven red one one red two six" in phrases      # red 1 captures first, then red 2
    state = position(marbles={"red": [29, 20], "blue": [30], "yellow": [31]}, hands={"red": ["7"]})
    phrases = legal_phrases(state)
    assert "play seven red two three red one four" not in phrases  # yellow on 31 is protected by blue


# R25 safe zone -------------------------------------------------------------


def test_r25_no_landing_or_passing_in_the_lane(position) -> None:
    """R25: red 1 on safe 1 blocks red 2 at progress 73 from landing on or passing it."""
    state = position(marbles={"red": ["safe 1", 73]}, hands={"red": ["3", "5", "6"]})
    # red 2: 3 -> safe 1 (occupied), 5 -> passes safe 1, 6 -> passes. red 1: 3 -> safe 4.
    assert legal_phrases(state) == ["play three red one"]
    state = position(marbles={"red": ["safe 3", 73]}, hands={"red": ["2", "3", "5"]})
    # red 2: 2 -> cell 75, 3 -> safe 1, 5 -> safe 3 (occupied); red 1 on safe 3 needs a 1.
    assert legal_phrases(state) == ["play three red two", "play two red two"]


def test_r25_other_colours_never_enter(position, apply_phrase) -> None:
    """R25/R6: blue passing red's base goes on round the track; only red enters red's lane."""
    state = position(marbles={"blue": [74], "red": ["safe 1"]}, hands={"blue": ["5"]}, turn="blue")
    after, events = apply_phrase(state, "play five blue one")
    assert after.marbles[BLUE1] == 3
    assert not any(isinstance(e, ev.EnteredSafeZone) for e in events)


def test_r25_safe_marble_cannot_be_swapped(position) -> None:
    """R25: the jack cannot reach into a safe zone."""
    state = position(marbles={"red": [10], "blue": ["safe 1", "safe 2"]}, hands={"red": ["J"]})
    assert legal_phrases(state) == ["burn jack"]


def test_r6_marble_never_passes_its_own_base_twice(position) -> None:
    """R6: red at progress 74 with a 9 would need safe place 8: not offered (no second lap)."""
    state = position(marbles={"red": [74]}, hands={"red": ["9", "10", "Q"]})
    assert legal_phrases(state) == ["burn nine", "burn queen", "burn ten"]


# R26/R27 captures ----------------------------------------------------------


def test_r26_landing_captures_any_colour(position, apply_phrase) -> None:
    """R26: landing sends home the marble standing there: opponent, partner or own."""
    state = position(marbles={"red": [10, 18], "blue": [12], "green": [15]}, hands={"red": ["2", "5", "8"]})
    for phrase, victim, cell in [
        ("play two red one", BLUE1, 12),
        ("play five red one", GREEN1, 15),
        ("play eight red one", RED2, 18),
    ]:
        after, events = apply_phrase(state, phrase)
        assert after.marbles[victim] == HOME and after.marbles[RED1] == cell
        assert after.board[cell] == RED1
        assert ev.MarbleCaptured(victim, cell, RED1, "red", "landed") in events


def test_r26_passing_does_not_capture(position, apply_phrase) -> None:
    """R26: marbles walked over stay where they are."""
    state = position(marbles={"red": [10], "blue": [12], "green": [15]}, hands={"red": ["8"]})
    after, events = apply_phrase(state, "play eight red one")
    assert after.marbles[BLUE1] == 12 and after.marbles[GREEN1] == 15
    assert not any(isinstance(e, ev.MarbleCaptured) for e in events)


def test_r27_never_capturable(position) -> None:
    """R27: own-base marble, wall front and safe marble cannot be captured by landing."""
    # 38 is green's base with green on it; 44 is a wall front (43 behind it).
    state = position(
        marbles={"red": [32], "green": [38], "blue": [43, 44]},
        hands={"red": ["6", "Q", "A"]},
    )
    # 6 -> 38 (green own base): no. Q -> 44 passing 38: no. Ace 1 -> 33. Ace 11 -> 43 passing 38: no.
    assert legal_phrases(state) == ["play ace out", "play ace red one one"]
