"""Moves by card, R13-R20: each test is a small position with the exact set of legal phrases."""

from __future__ import annotations

import pytest

from voicejack.engine import HOME, legal_phrases, marble_id, progress
from voicejack.engine import events as ev

RED1, RED2, RED3 = marble_id("red", 1), marble_id("red", 2), marble_id("red", 3)
BLUE1 = marble_id("blue", 1)
GREEN1 = marble_id("green", 1)


@pytest.mark.parametrize(
    ("card", "word", "cell"),
    [("2", "two", 12), ("3", "three", 13), ("5", "five", 15), ("6", "six", 16),
     ("8", "eight", 18), ("9", "nine", 19), ("10", "ten", 20), ("Q", "queen", 22)],
)
def test_r13_walking_cards_walk_their_value(position, apply_phrase, card: str, word: str, cell: int) -> None:
    """R13: 2 3 5 6 8 9 10 walk that many cells, the queen 12."""
    state = position(marbles={"red": [10]}, hands={"red": [card]}, turn="red")
    assert legal_phrases(state) == [f"play {word} red one"]
    after, _ = apply_phrase(state, f"play {word} red one")
    assert after.marbles[RED1] == cell
    assert after.board[cell] == RED1 and after.board[10] == -1


def test_r13_every_walking_card_at_once(position) -> None:
    """R13: one phrase per distinct walking card, for each marble on the track."""
    state = position(marbles={"red": [10, 40]}, hands={"red": ["2", "3", "5", "6", "8", "9", "10", "Q", "Q"]})
    words = ["two", "three", "five", "six", "eight", "nine", "ten", "queen"]
    assert legal_phrases(state) == sorted(f"play {w} red {n}" for w in words for n in ("one", "two"))


def test_r14_ace_out_one_or_eleven(position, apply_phrase) -> None:
    """R14: the ace brings a marble out, or walks 1, or walks 11."""
    state = position(marbles={"red": [10]}, hands={"red": ["A"]})
    assert legal_phrases(state) == ["play ace out", "play ace red one eleven", "play ace red one one"]
    assert apply_phrase(state, "play ace red one one")[0].marbles[RED1] == 11
    assert apply_phrase(state, "play ace red one eleven")[0].marbles[RED1] == 21
    out = apply_phrase(state, "play ace out")[0]
    assert out.marbles[RED2] == 0 and out.marbles[RED1] == 10


def test_r14_ace_with_own_marble_on_base_only_walks(position) -> None:
    """R14 with R20: an own marble on the base stops the ace bringing another out."""
    state = position(marbles={"red": [0]}, hands={"red": ["A"]})
    assert legal_phrases(state) == ["play ace red one eleven", "play ace red one one"]


def test_r15_regular_king_only_brings_out(position) -> None:
    """R15: in the regular version the king brings a marble out and does nothing else."""
    state = position(marbles={"red": [10]}, hands={"red": ["K"]})
    assert legal_phrases(state) == ["play king out"]


def test_r15_regular_king_with_base_taken_is_no_move(position) -> None:
    """R15 + R20 + R29: king cannot come out onto an own marble; the only choice is burning."""
    state = position(marbles={"red": [0, 10]}, hands={"red": ["K"]})
    assert legal_phrases(state) == ["burn king"]


def test_r15_complex_king_also_sweeps(position) -> None:
    """R15: in complex mode the king also offers the sweep on each track marble."""
    state = position(marbles={"red": [10]}, hands={"red": ["K"]}, mode="complex")
    assert legal_phrases(state) == ["play king out", "play king red one"]


def test_r16_four_walks_backwards(position, apply_phrase) -> None:
    """R16: the 4 walks four cells backwards."""
    state = position(marbles={"red": [10]}, hands={"red": ["4"]})
    assert legal_phrases(state) == ["play four red one"]
    after, events = apply_phrase(state, "play four red one")
    assert after.marbles[RED1] == 6
    walked = [e for e in events if isinstance(e, ev.MarbleWalked)]
    assert walked == [ev.MarbleWalked(RED1, 10, (9, 8, 7, 6), True, "red")]


def test_r16_four_over_own_empty_base_lands_on_progress_74(position, apply_phrase) -> None:
    """R16/R7: from progress 2 backwards over the own empty base lands on progress 74."""
    state = position(marbles={"red": [2]}, hands={"red": ["4"]})
    assert legal_phrases(state) == ["play four red one"]
    after, _ = apply_phrase(state, "play four red one")
    assert after.marbles[RED1] == 74
    assert progress("red", after.marbles[RED1]) == 74


def test_r16_four_over_own_empty_base_for_blue(position, apply_phrase) -> None:
    """R16/R7 for a base that is not cell 0: blue at 20 (progress 1) goes to 16 (progress 73)."""
    state = position(marbles={"blue": [20]}, hands={"blue": ["4"]}, turn="blue")
    after, _ = apply_phrase(state, "play four blue one")
    assert after.marbles[BLUE1] == 16
    assert progress("blue", 16) == 73


def test_r16_four_never_in_or_out_of_safe_zone(position) -> None:
    """R16/R25: a marble in the safe zone is not moved by the 4."""
    state = position(marbles={"red": ["safe 3", "safe 1"]}, hands={"red": ["4"]})
    assert legal_phrases(state) == ["burn hand"]  # no track marble either: R30


def test_r16_four_only_for_track_marbles(position) -> None:
    """R16: safe marbles get no 4; the track marble does."""
    state = position(marbles={"red": ["safe 3", 30]}, hands={"red": ["4"]})
    assert legal_phrases(state) == ["play four red two"]


def test_r16_four_obeys_walls_bases_and_own_colour_backwards(position) -> None:
    """R16 with R22-R24 walking back: no passing own colour, an own-base marble or a wall's front."""
    state = position(
        marbles={"red": [45, 43, 22], "blue": [19]},
        hands={"red": ["4"]},
    )
    # red 1 at 45 would pass red 2 at 43; red 2 lands on 39, free; red 3 at 22 would pass 19,
    # where blue 1 stands on its own base.
    assert legal_phrases(state) == ["play four red two"]
    state = position(marbles={"red": [65], "blue": [62, 61]}, hands={"red": ["4"]})
    # blue 1 on 62 is protected by blue 2 on 61: red cannot pass it backwards
    assert legal_phrases(state) == ["burn four"]
    state = position(marbles={"red": [65], "blue": [61, 60]}, hands={"red": ["4"]})
    # it would land on 61, the protected front of the wall 60-61
    assert legal_phrases(state) == ["burn four"]
    state = position(marbles={"red": [65], "blue": [63]}, hands={"red": ["4"]})
    # a lone marble of another colour is passed freely
    assert legal_phrases(state) == ["play four red one"]
    state = position(marbles={"red": [65], "blue": [61]}, hands={"red": ["4"]})
    assert legal_phrases(state) == ["play four red one"]


def test_r16_four_lands_and_captures(position, apply_phrase) -> None:
    """R16 + R26: landing backwards on a marble captures it."""
    state = position(marbles={"red": [40], "blue": [36]}, hands={"red": ["4"]})
    after, events = apply_phrase(state, "play four red one")
    assert after.marbles[BLUE1] == HOME and after.marbles[RED1] == 36
    assert ev.MarbleCaptured(BLUE1, 36, RED1, "red", "landed") in events


def test_r7_four_from_own_base_to_progress_72(position, apply_phrase) -> None:
    """R7: a marble stepping back off its base (progress 0) with a 4 stands on progress 72."""
    state = position(marbles={"green": [38]}, hands={"green": ["4"]}, turn="green")
    after, _ = apply_phrase(state, "play four green one")
    assert after.marbles[marble_id("green", 1)] == 34
    assert progress("green", 34) == 72


def test_r17_seven_whole_or_split_both_orders(position) -> None:
    """R17: 7 on one marble, or split a+b over two marbles, every legal order listed."""
    state = position(marbles={"red": [10, 30]}, hands={"red": ["7"]})
    words = ["zero", "one", "two", "three", "four", "five", "six"]
    expected = ["play seven red one", "play seven red two"]
    for a in range(1, 7):
        expected.append(f"play seven red one {words[a]} red two {words[7 - a]}")
        expected.append(f"play seven red two {words[a]} red one {words[7 - a]}")
    assert legal_phrases(state) == sorted(expected)


def test_r17_split_needs_two_different_marbles(position) -> None:
    """R17: one marble on the board gives only the whole 7."""
    state = position(marbles={"red": [10]}, hands={"red": ["7"]})
    assert legal_phrases(state) == ["play seven red one"]


def test_r17_second_part_judged_after_first(position) -> None:
    """R17: red 2 at 12 blocks red 1 at 10 from passing; moving red 2 first clears the road."""
    state = position(marbles={"red": [10, 12]}, hands={"red": ["7"]})
    # Red 1 first: one step to 11 is its only part (two steps would capture red 2, leaving no
    # second marble; more would pass it). Red 2 first by a: then red 1 walks 7 - a and must stop
    # short of where red 2 now stands.
    words = ["zero", "one", "two", "three", "four", "five", "six"]
    expected = ["play seven red two", "play seven red one one red two six"]
    for a in range(1, 7):
        red2_end = 12 + a
        red1_end = 10 + 7 - a
        if red1_end <= red2_end:  # red 1 does not pass red 2 (landing on it is a capture)
            expected.append(f"play seven red two {words[a]} red one {words[7 - a]}")
    assert legal_phrases(state) == sorted(expected)


def test_r17_split_parts_capture(position, apply_phrase) -> None:
    """R17/R26: each part of a split captures as a walk does."""
    state = position(marbles={"red": [10, 30], "blue": [13, 34]}, hands={"red": ["7"]})
    after, events = apply_phrase(state, "play seven red one three red two four")
    assert after.marbles[RED1] == 13 and after.marbles[RED2] == 34
    assert after.marbles[BLUE1] == HOME and after.marbles[marble_id("blue", 2)] == HOME
    captures = [e for e in events if isinstance(e, ev.MarbleCaptured)]
    assert captures == [
        ev.MarbleCaptured(BLUE1, 13, RED1, "red", "landed"),
        ev.MarbleCaptured(marble_id("blue", 2), 34, RED2, "red", "landed"),
    ]


def test_r17_first_part_capturing_own_second_marble(position) -> None:
    """R17 + R22: if the first part lands on the other own marble, it is home and cannot move second."""
    state = position(marbles={"red": [10, 13, 40]}, hands={"red": ["7"]})
    phrases = legal_phrases(state)
    assert "play seven red one three red three four" in phrases
    assert "play seven red one three red two four" not in phrases


def test_r18_jack_swaps_with_any_other_colour_in_reach(position, apply_phrase) -> None:
    """R18: swap with partner or opponent; never home, safe zone, own base, or a wall's front."""
    state = position(
        marbles={
            "red": [10, "home", "safe 4"],
            "blue": [30, 45, 46],
            "green": [50, "safe 2"],
            "yellow": [57],
        },
        hands={"red": ["J"]},
        teams=True,
    )
    assert legal_phrases(state) == [
        "play jack red one blue one",
        "play jack red one blue two",
        "play jack red one green one",
    ]
    after, events = apply_phrase(state, "play jack red one green one")
    assert after.marbles[RED1] == 50 and after.marbles[GREEN1] == 10
    assert after.board[50] == RED1 and after.board[10] == GREEN1
    assert events[1] == ev.MarblesSwapped(RED1, GREEN1, 10, 50, "red")
    assert not any(isinstance(e, ev.MarbleCaptured) for e in events)


def test_r18_jack_wall_judged_without_both_swapped_marbles(position) -> None:
    """R18/R24: blue 1 stands behind red 1 on 29/30; the swap of the pair itself is allowed,
    while red 1 is wall-protected against every other swap."""
    state = position(marbles={"red": [30], "blue": [29], "green": [50]}, hands={"red": ["J"]})
    assert legal_phrases(state) == ["play jack red one blue one"]
    state = position(marbles={"red": [29], "blue": [30], "green": [50]}, hands={"red": ["J"]})
    # blue 1 on 30 is protected only by red 1, which takes part in the swap
    assert legal_phrases(state) == ["play jack red one blue one", "play jack red one green one"]


def test_r18_jack_mover_on_own_base_cannot_swap(position) -> None:
    """R18/R23: the mover's marble on its own base is out of reach of the jack too."""
    state = position(marbles={"red": [0], "blue": [30]}, hands={"red": ["J"]})
    assert legal_phrases(state) == ["burn jack"]


def test_r18_jack_onto_own_base_via_opponent_standing_on_it(position, apply_phrase) -> None:
    """R18: an opponent standing on my base can be swapped; my marble lands on my own base."""
    state = position(marbles={"red": [40], "blue": [0]}, hands={"red": ["J"]})
    assert legal_phrases(state) == ["play jack red one blue one"]
    after, _ = apply_phrase(state, "play jack red one blue one")
    assert after.marbles[RED1] == 0 and after.marbles[BLUE1] == 40
    assert after.on_own_base(RED1)


def test_r18_jack_swaps_with_marble_on_a_foreign_base(position) -> None:
    """R18: only the base of the marble's own colour protects it; blue on green's base is in reach."""
    state = position(marbles={"red": [40], "blue": [38]}, hands={"red": ["J"]})
    assert legal_phrases(state) == ["play jack red one blue one"]


def test_r18_jack_needs_another_colour(position) -> None:
    """R18: two own marbles do not swap with each other."""
    state = position(marbles={"red": [10, 20]}, hands={"red": ["J"]})
    assert legal_phrases(state) == ["burn jack"]


def test_r19_movers_are_own_marbles_until_finished(position) -> None:
    """R19: before finishing, the partner's marbles are not the player's to walk."""
    state = position(marbles={"red": ["safe 4", "safe 3", "safe 2"], "green": [50]}, hands={"red": ["3"]})
    assert legal_phrases(state) == ["burn hand"]


def test_r20_out_lowest_numbered_home_marble(position, apply_phrase) -> None:
    """R20: the lowest-numbered marble still at home comes out on the base."""
    state = position(marbles={"red": [10, "home", "home", 20]}, hands={"red": ["K"]})
    after, events = apply_phrase(state, "play king out")
    assert after.marbles[RED2] == 0 and after.marbles[RED3] == HOME
    assert events[1] == ev.MarbleCameOut(RED2, 0, "red")


def test_r20_out_captures_opponent_on_base(position, apply_phrase) -> None:
    """R20: an opponent on my base is captured when I come out."""
    state = position(marbles={"blue": [0]}, hands={"red": ["K"]})
    assert legal_phrases(state) == ["play king out"]
    after, events = apply_phrase(state, "play king out")
    assert after.marbles[BLUE1] == HOME and after.marbles[RED1] == 0
    assert ev.MarbleCaptured(BLUE1, 0, RED1, "red", "came out") in events


def test_r20_out_captures_partner_on_base(position, apply_phrase) -> None:
    """R20: a partner on my base is captured too."""
    state = position(marbles={"green": [0]}, hands={"red": ["A"]}, teams=True)
    assert legal_phrases(state) == ["play ace out"]
    after, _ = apply_phrase(state, "play ace out")
    assert after.marbles[GREEN1] == HOME and after.marbles[RED1] == 0


def test_r20_out_refused_when_opponent_on_base_is_wall_protected(position) -> None:
    """R20/R24: an opponent on my base with a marble right behind it (cell 75) is protected."""
    state = position(marbles={"blue": [0], "yellow": [75]}, hands={"red": ["K"]})
    assert legal_phrases(state) == ["burn hand"]


def test_r20_out_refused_with_own_marble_on_base(position) -> None:
    """R20: an own marble on the base stops the next one coming out."""
    state = position(marbles={"red": [0]}, hands={"red": ["K"]})
    assert legal_phrases(state) == ["burn king"]


def test_r20_out_with_no_marble_at_home(position) -> None:
    """R20: with no marble at home there is nothing to bring out."""
    state = position(marbles={"red": [10, 20, 30, 40]}, hands={"red": ["K"]})
    assert legal_phrases(state) == ["burn king"]
