"""Burning (R28-R30), partners (R19, R36), winning (R37) and the end of the match (R38)."""

from __future__ import annotations

from collections import Counter

import pytest

from voicejack.engine import (
    HOME,
    SAFE_OFFSET,
    IllegalMoveError,
    find_move,
    legal_moves,
    legal_phrases,
    marble_id,
    mover_colour,
)
from voicejack.engine import events as ev
from voicejack.engine.cards import full_deck

RED1 = marble_id("red", 1)
BLUE1 = marble_id("blue", 1)
GREEN1, GREEN2 = marble_id("green", 1), marble_id("green", 2)

RED_DONE = ["safe 1", "safe 2", "safe 3", "safe 4"]


def cards_of(state) -> Counter[str]:
    return Counter([*state.pile, *state.discard, *(c for hand in state.hands.values() for c in hand)])


# R28-R30 ---------------------------------------------------------------------


def test_r28_playing_is_compulsory(position) -> None:
    """R28: the queen is blocked by blue's base but the 4 is legal: no burning is offered."""
    state = position(marbles={"red": [10], "blue": [19]}, hands={"red": ["Q", "4"]})
    assert legal_phrases(state) == ["play four red one"]


def test_r29_burn_one_card_per_distinct_rank(position, apply_phrase) -> None:
    """R29: a marble on the track and nothing legal: burn one card of the player's choice."""
    state = position(marbles={"red": [16], "blue": [19]}, hands={"red": ["5", "Q", "Q", "9"]})
    assert legal_phrases(state) == ["burn five", "burn nine", "burn queen"]
    after, events = apply_phrase(state, "burn queen")
    assert sorted(after.hands["red"]) == sorted(["5", "Q", "9"])
    assert after.discard[-1] == "Q"
    assert after.marbles == state.marbles
    assert ev.CardBurned("red", "Q", False) in events
    assert after.turn == "blue"
    assert after.last_card is not None and after.last_card.phrase == "burn queen"
    assert cards_of(after) == Counter(full_deck())


def test_r30_burn_hand_is_the_only_phrase(position, apply_phrase) -> None:
    """R30: no legal move and no marble on the track: the whole hand goes at once."""
    state = position(hands={"red": ["2", "3", "Q"]})
    assert legal_phrases(state) == ["burn hand"]
    after, events = apply_phrase(state, "burn hand")
    assert after.hands["red"] == []
    assert after.discard[-3:] == ["2", "3", "Q"]
    assert ev.HandBurned("red", ("2", "3", "Q")) in events
    assert after.turn == "blue"
    assert cards_of(after) == Counter(full_deck())


def test_r30_safe_marbles_only_is_no_track_marble(position) -> None:
    """R30: marbles in the safe zone are not on the track."""
    state = position(marbles={"red": ["safe 1", "safe 3"]}, hands={"red": ["5", "Q"]})
    assert legal_phrases(state) == ["burn hand"]


def test_r30_player_is_out_until_next_deal(position, apply_phrase) -> None:
    """R30/R12: after burning the hand, red is skipped until the next deal."""
    state = position(
        marbles={"blue": [30]},
        hands={"red": ["2", "3"], "blue": ["2", "3"], "green": ["5"], "yellow": ["6"]},
    )
    state, _ = apply_phrase(state, "burn hand")
    assert state.turn == "blue"
    state, _ = apply_phrase(state, "play two blue one")
    state, _ = apply_phrase(state, "burn hand")   # green
    state, _ = apply_phrase(state, "burn hand")   # yellow
    assert state.turn == "blue"                    # red holds nothing and is skipped
    state, events = apply_phrase(state, "play three blue one")
    assert any(isinstance(e, ev.Dealt) for e in events)  # every hand empty: next deal


def test_r12_empty_hands_are_skipped(position, apply_phrase) -> None:
    """R12: the turn goes to the next player in seat order who holds cards."""
    state = position(marbles={"red": [10]}, hands={"red": ["2", "3"], "blue": [], "green": ["9"], "yellow": []})
    after, events = apply_phrase(state, "play two red one")
    assert after.turn == "green"
    assert events[-1] == ev.TurnPassed("green")
    after, _ = apply_phrase(after, "burn hand")
    assert after.turn == "red"


# R19/R36 partners -------------------------------------------------------------


def test_r36_finished_player_moves_partner_marbles(position, apply_phrase) -> None:
    """R36: red has all four in; its cards now move green's marbles, out included."""
    state = position(marbles={"red": RED_DONE, "green": [40]}, hands={"red": ["A", "K", "5"]}, teams=True)
    assert mover_colour(state, "red") == "green"
    assert legal_phrases(state) == [
        "play ace green one eleven",
        "play ace green one one",
        "play ace out",
        "play five green one",
        "play king out",
    ]
    after, events = apply_phrase(state, "play king out")
    assert after.marbles[GREEN2] == 38
    assert ev.MarbleCameOut(GREEN2, 38, "red") in events


def test_r36_out_for_partner_captures_on_partners_base(position, apply_phrase) -> None:
    """R36/R20: bringing the partner's marble out captures an opponent on the partner's base."""
    state = position(marbles={"red": RED_DONE, "blue": [38]}, hands={"red": ["A"]}, teams=True)
    assert legal_phrases(state) == ["play ace out"]
    after, events = apply_phrase(state, "play ace out")
    assert after.marbles[GREEN1] == 38 and after.marbles[BLUE1] == HOME
    assert ev.MarbleCaptured(BLUE1, 38, GREEN1, "red", "came out") in events


def test_r36_finished_player_jack_swaps_partner_marble(position) -> None:
    """R36/R18: the jack swaps the partner's marble (never the finished player's own)."""
    state = position(marbles={"red": RED_DONE, "green": [40], "blue": [20]}, hands={"red": ["J"]}, teams=True)
    assert legal_phrases(state) == ["play jack green one blue one"]


def test_r36_finished_player_with_partner_all_home_burns_hand(position) -> None:
    """R36/R30: the partner has nothing on the track and no out card: burn hand."""
    state = position(marbles={"red": RED_DONE}, hands={"red": ["3", "9"]}, teams=True)
    assert legal_phrases(state) == ["burn hand"]


def test_r36_player_finishing_is_announced_and_switches(position, apply_phrase) -> None:
    """R36: the last marble in produces PlayerFinished; from then on red moves green's marbles."""
    state = position(
        marbles={"red": [74, "safe 2", "safe 3", "safe 4"], "green": [45]},
        hands={"red": ["2", "3"]},
        teams=True,
    )
    assert mover_colour(state, "red") == "red"
    after, events = apply_phrase(state, "play two red one")
    assert ev.PlayerFinished("red", "green") in events
    assert after.winner is None
    assert mover_colour(after, "red") == "green"


def test_r36_seven_second_part_on_partner_after_first_part_finishes(position, apply_phrase) -> None:
    """R36: the first part puts red's last marble in, the second part moves green's marble."""
    state = position(
        marbles={"red": [74, "safe 2", "safe 3", "safe 4"], "green": [45]},
        hands={"red": ["7"]},
        teams=True,
    )
    assert legal_phrases(state) == ["play seven red one two green one five"]
    after, events = apply_phrase(state, "play seven red one two green one five")
    assert after.marbles[RED1] == SAFE_OFFSET + 1 and after.marbles[GREEN1] == 50
    kinds = [type(e) for e in events]
    assert kinds.index(ev.PlayerFinished) < max(i for i, k in enumerate(kinds) if k is ev.MarbleWalked)


def test_r36_seven_partner_marble_not_allowed_before_finishing(position) -> None:
    """R36: without finishing in the first part, the second part stays on own marbles."""
    state = position(
        marbles={"red": [74, "safe 1", "safe 3", "safe 4"], "green": [45]},
        hands={"red": ["7"]},
        teams=True,
    )
    # red 1 at 74 can take 1 (to 75) but never 2 (safe 1 is taken), red on safe 1 takes 1:
    # no split adds up to 7, and no part may go to green.
    assert legal_phrases(state) == ["burn seven"]


def test_r36_no_partner_moves_without_teams(position) -> None:
    """R36 applies to team play only (free-for-all: red has won instead)."""
    state = position(marbles={"red": [74, "safe 2", "safe 3", "safe 4"], "green": [45]}, hands={"red": ["7"]}, teams=False)
    assert legal_phrases(state) == ["burn seven"]


# R37/R38 winning -----------------------------------------------------------------


def test_r37_team_win_needs_all_eight(position, apply_phrase) -> None:
    """R37: red finished, green's last marble comes in on red's card: the team wins."""
    state = position(
        marbles={"red": RED_DONE, "green": [36, "safe 2", "safe 3", "safe 4"]},
        hands={"red": ["2", "9"]},
        teams=True,
    )
    assert legal_phrases(state) == ["play two green one"]
    after, events = apply_phrase(state, "play two green one")
    assert after.winner == ("red", "green")
    assert events[-1] == ev.Won(("red", "green"))


def test_r37_one_partner_finishing_is_not_a_win(position, apply_phrase) -> None:
    """R37: four marbles in are not enough in team play."""
    state = position(marbles={"red": [74, "safe 2", "safe 3", "safe 4"]}, hands={"red": ["2"]}, teams=True)
    after, events = apply_phrase(state, "play two red one")
    assert after.winner is None
    assert not any(isinstance(e, ev.Won) for e in events)


def test_r37_partner_pushed_in_by_complex_five_wins(position, apply_phrase) -> None:
    """R37/R34: a finished red pushes green's last marble in with a 5: the team wins."""
    state = position(
        marbles={"red": RED_DONE, "green": [33, "safe 2", "safe 3", "safe 4"]},
        hands={"red": ["5"]},
        teams=True,
        mode="complex",
    )
    after, events = apply_phrase(state, "play five green one")
    assert after.winner == ("red", "green")


@pytest.mark.parametrize(("players", "colour", "last_cell"), [(4, "red", 74), (4, "yellow", 55), (2, "green", 36)])
def test_r37_first_four_wins_without_teams(position, apply_phrase, players: int, colour: str, last_cell: int) -> None:
    """R37: free-for-all and 2 players: the first player with four in wins at once."""
    state = position(
        marbles={colour: [last_cell, "safe 2", "safe 3", "safe 4"]},
        hands={colour: ["2", "5"]},
        turn=colour,
        players=players,
        teams=False,
    )
    after, events = apply_phrase(state, f"play two {colour} one")
    assert after.winner == (colour,)
    assert ev.Won((colour,)) in events
    assert not any(isinstance(e, ev.PlayerFinished) for e in events)


def test_r38_nothing_offered_or_dealt_after_a_win(position, apply_phrase) -> None:
    """R38: the winning move empties every hand, yet nothing is dealt and nothing is offered."""
    state = position(
        marbles={"red": [74, "safe 2", "safe 3", "safe 4"]},
        hands={"red": ["2"], "blue": [], "green": [], "yellow": []},
        teams=False,
    )
    after, events = apply_phrase(state, "play two red one")
    assert after.winner == ("red",)
    assert not any(isinstance(e, (ev.Dealt, ev.Reshuffled, ev.TurnPassed)) for e in events)
    assert all(hand == [] for hand in after.hands.values())
    assert legal_moves(after) == [] and legal_phrases(after) == []
    with pytest.raises(IllegalMoveError):
        find_move(after, "burn hand")


def test_r38_cards_in_hand_after_a_win_are_not_offered(position) -> None:
    """R38: a table whose winner is set offers nothing, even with cards in hand."""
    state = position(
        marbles={"red": RED_DONE},
        hands={"red": ["2"], "blue": ["K"]},
        turn="blue",
        teams=False,
        winner=("red",),
    )
    assert legal_phrases(state) == []
