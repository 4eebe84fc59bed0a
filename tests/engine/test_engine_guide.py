"""The worked examples of the player's guide (shared/seeds/player-guide.txt), as tests."""

from __future__ import annotations

from voicejack.engine import HOME, SAFE_OFFSET, legal_phrases, marble_id, progress

RED1, RED2 = marble_id("red", 1), marble_id("red", 2)
BLUE1, BLUE2 = marble_id("blue", 1), marble_id("blue", 2)


def test_first_turn_king_six_four_nine_all_home(position, apply_phrase) -> None:
    """An example first turn: only the king can be played, and it asks nothing."""
    state = position(hands={"red": ["K", "6", "4", "9"]})
    assert legal_phrases(state) == ["play king out"]
    after, _ = apply_phrase(state, "play king out")
    assert after.marbles[RED1] == 0
    # next turn (same hand minus the king): the 6 and the 9 walk red 1 from its base
    later = position(marbles={"red": [0]}, hands={"red": ["6", "4", "9"]})
    assert legal_phrases(later) == ["play four red one", "play nine red one", "play six red one"]
    assert apply_phrase(later, "play six red one")[0].marbles[RED1] == 6
    assert apply_phrase(later, "play nine red one")[0].marbles[RED1] == 9


def test_wall_and_capture_at_cells_30_to_32(position, apply_phrase) -> None:
    """The wall 31-32 stops the queen; the ace as one captures the exposed back marble on 31."""
    state = position(marbles={"red": [30], "blue": [31, 32]}, hands={"red": ["Q", "A"]})
    # the ace could also bring red 2 out (its base is free); the queen and the ace as eleven are refused
    assert legal_phrases(state) == ["play ace out", "play ace red one one"]
    after, _ = apply_phrase(state, "play ace red one one")
    assert after.marbles[RED1] == 31 and after.marbles[BLUE1] == HOME
    # The wall is broken: blue 2 on 32 lost its blue neighbour. Red 1 now stands behind it, so
    # (R24) it is exposed to red 1 itself, and red 1 shields it from anybody coming from behind.
    broken = position(marbles={"red": [31], "blue": ["home", 32], "yellow": [29]}, hands={"red": ["A"]})
    assert "play ace red one one" in legal_phrases(broken)
    assert apply_phrase(broken, "play ace red one one")[0].marbles[BLUE2] == HOME
    yellow = position(marbles={"red": [31], "blue": ["home", 32], "yellow": [29]}, hands={"yellow": ["3", "2"]}, turn="yellow")
    assert legal_phrases(yellow) == ["play two yellow one"]  # lands on red 1; 32 stays protected


def test_base_makes_nothing_work(position) -> None:
    """"If the marble on cell 32 had been standing on its own base": blue on 19 with blue 2 behind it."""
    state = position(marbles={"red": [17], "blue": [19, 18]}, hands={"red": ["Q", "A"]})
    # ace one lands on 18 (the exposed back); 19 can never be passed nor landed on
    assert legal_phrases(state) == ["play ace out", "play ace red one one"]
    state = position(marbles={"red": [18], "blue": [19]}, hands={"red": ["Q", "A"]})
    assert legal_phrases(state) == ["play ace out"]


def test_seven_split_with_marble_on_safe_place_one(position, apply_phrase) -> None:
    """The 7 with red 1 on safe 1 and red 2 five steps short of the lane: legal in one order only."""
    state = position(marbles={"red": ["safe 1", 71]}, hands={"red": ["7"]})
    phrases = legal_phrases(state)
    assert "play seven red one two red two five" in phrases
    assert "play seven red two five red one two" not in phrases  # would land on safe 1
    assert phrases == [
        "play seven red one three red two four",
        "play seven red one two red two five",
        "play seven red two four red one three",
    ]
    after, _ = apply_phrase(state, "play seven red one two red two five")
    assert after.marbles[RED1] == SAFE_OFFSET + 3 and after.marbles[RED2] == SAFE_OFFSET + 1


def test_four_played_from_the_base(position, apply_phrase) -> None:
    """The short road: king out, a 4 back to progress 72, four steps from safe place 1."""
    state = position(marbles={"red": [0]}, hands={"red": ["4", "5"]})
    after, events = apply_phrase(state, "play four red one")
    assert after.marbles[RED1] == 72 and progress("red", 72) == 72
    after.turn = "red"
    assert legal_phrases(after) == ["play five red one"]
    done, _ = apply_phrase(after, "play five red one")
    assert done.marbles[RED1] == SAFE_OFFSET + 2


def test_two_steps_from_safe_place_one_with_two_five_six(position, apply_phrase) -> None:
    """A 2 puts it on safe 1, a 5 on safe 4, a 6 is no use."""
    state = position(marbles={"red": [74]}, hands={"red": ["2", "5", "6"]})
    assert legal_phrases(state) == ["play five red one", "play two red one"]
    assert apply_phrase(state, "play two red one")[0].marbles[RED1] == SAFE_OFFSET + 1
    assert apply_phrase(state, "play five red one")[0].marbles[RED1] == SAFE_OFFSET + 4


def test_jack_onto_own_base_warning_case(position, apply_phrase) -> None:
    """The jack with an opponent on my base: allowed, and my marble restarts its road."""
    state = position(marbles={"red": [60], "yellow": [0]}, hands={"red": ["J"]})
    assert legal_phrases(state) == ["play jack red one yellow one"]
    after, _ = apply_phrase(state, "play jack red one yellow one")
    assert progress("red", after.marbles[RED1]) == 0
