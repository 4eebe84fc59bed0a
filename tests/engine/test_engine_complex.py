"""Complex mode, R31-R35: king sweep, the 5 on any marble, the 10 forcing a burn."""

from __future__ import annotations

from voicejack.engine import HOME, SAFE_OFFSET, legal_phrases, marble_id
from voicejack.engine import events as ev

RED1, RED2 = marble_id("red", 1), marble_id("red", 2)
BLUE1, BLUE2 = marble_id("blue", 1), marble_id("blue", 2)
GREEN1 = marble_id("green", 1)
YELLOW1 = marble_id("yellow", 1)


# R31-R33 king sweep --------------------------------------------------------


def test_r31_r33_sweep_captures_everything_passed(position, apply_phrase) -> None:
    """R31-R33: the sweep sends home opponents, a wall front, own and partner marbles, and the one landed on."""
    state = position(
        marbles={"red": [10, 15], "blue": [12, 13], "green": [18], "yellow": [23]},
        hands={"red": ["K"]},
        mode="complex",
    )
    assert legal_phrases(state) == ["play king out", "play king red one", "play king red two"]
    after, events = apply_phrase(state, "play king red one")
    assert after.marbles[RED1] == 23
    for victim in (BLUE1, BLUE2, RED2, GREEN1, YELLOW1):
        assert after.marbles[victim] == HOME
    assert [p for p in after.board if p >= 0] == [RED1]
    captures = [e for e in events if isinstance(e, ev.MarbleCaptured)]
    assert captures == [
        ev.MarbleCaptured(BLUE1, 12, RED1, "red", "swept"),
        ev.MarbleCaptured(BLUE2, 13, RED1, "red", "swept"),
        ev.MarbleCaptured(RED2, 15, RED1, "red", "swept"),
        ev.MarbleCaptured(GREEN1, 18, RED1, "red", "swept"),
        ev.MarbleCaptured(YELLOW1, 23, RED1, "red", "landed"),
    ]
    walked = [e for e in events if isinstance(e, ev.MarbleWalked)]
    assert walked == [ev.MarbleWalked(RED1, 10, tuple(range(11, 24)), False, "red", True)]


def test_r33_sweep_illegal_over_a_marble_on_its_own_base(position) -> None:
    """R33/R23: blue on 19 (its base) on the path, or as the landing cell, makes the sweep illegal."""
    state = position(marbles={"red": [10], "blue": [19]}, hands={"red": ["K"]}, mode="complex")
    assert legal_phrases(state) == ["play king out"]
    state = position(marbles={"red": [6], "blue": [19]}, hands={"red": ["K"]}, mode="complex")
    assert legal_phrases(state) == ["play king out"]
    state = position(marbles={"red": [5], "blue": [19]}, hands={"red": ["K"]}, mode="complex")
    assert legal_phrases(state) == ["play king out", "play king red one"]  # stops on 18


def test_r33_sweep_blocked_by_opponent_or_partner_on_own_base(position) -> None:
    """R33/R23: yellow on 57 or the partner green on 38 stops red's sweep; red 2 may sweep off its own base."""
    state = position(marbles={"red": [50, 0], "yellow": [57]}, hands={"red": ["K"]}, mode="complex")
    assert legal_phrases(state) == ["play king red two"]
    state = position(marbles={"red": [30, 0], "green": [38]}, hands={"red": ["K"]}, mode="complex", teams=True)
    assert legal_phrases(state) == ["play king red two"]


def test_r33_sweep_into_safe_zone_exact_and_not_over_safe_marbles(position, apply_phrase) -> None:
    """R33/R21/R25: the sweep enters the lane by exact count and never passes or lands on a safe marble."""
    state = position(marbles={"red": [65, "safe 4"], "blue": [70]}, hands={"red": ["K"]}, mode="complex")
    assert legal_phrases(state) == ["play king out", "play king red one"]
    after, events = apply_phrase(state, "play king red one")
    assert after.marbles[RED1] == SAFE_OFFSET + 3
    assert after.marbles[BLUE1] == HOME
    assert ev.EnteredSafeZone(RED1, 3) in events
    walked = next(e for e in events if isinstance(e, ev.MarbleWalked))
    assert walked.path == (*range(66, 76), 76, 77, 78)
    state = position(marbles={"red": [66, "safe 4"]}, hands={"red": ["K"]}, mode="complex")
    assert legal_phrases(state) == ["play king out"]  # would land on safe 4
    state = position(marbles={"red": [65, "safe 2"]}, hands={"red": ["K"]}, mode="complex")
    assert legal_phrases(state) == ["play king out"]  # would pass safe 2
    state = position(marbles={"red": [67]}, hands={"red": ["K"]}, mode="complex")
    assert legal_phrases(state) == ["play king out"]  # would need safe place 5


def test_r23_sweep_off_own_base(position, apply_phrase) -> None:
    """R23: the owner may sweep off its own base."""
    state = position(marbles={"red": [0]}, hands={"red": ["K"]}, mode="complex")
    assert legal_phrases(state) == ["play king red one"]
    assert apply_phrase(state, "play king red one")[0].marbles[RED1] == 13


def test_r32_sweep_lands_on_a_wall_front(position, apply_phrase) -> None:
    """R32: the sweep may land on a wall-protected marble and capture it."""
    state = position(marbles={"red": [0, 10], "blue": [22, 23]}, hands={"red": ["K"]}, mode="complex")
    # red 1 (own base, 0) -> 13 passes red 2 at 10 and sends it home too (R33); red 2 -> 23.
    assert legal_phrases(state) == ["play king red one", "play king red two"]
    after, _ = apply_phrase(state, "play king red two")
    assert after.marbles[BLUE1] == HOME and after.marbles[BLUE2] == HOME and after.marbles[RED2] == 23


def test_r31_regular_king_never_sweeps(position) -> None:
    """R15/R31: the sweep is a complex-mode move only."""
    state = position(marbles={"red": [0]}, hands={"red": ["K"]}, mode="regular")
    assert legal_phrases(state) == ["burn king"]


# R34 complex 5 -------------------------------------------------------------


def test_r34_five_moves_any_track_marble(position) -> None:
    """R34: own, partner, opponent; never a marble on its own base; never an opponent into its lane;
    a partner into its lane is fine."""
    marbles = {
        "red": [10, 0],
        "blue": [30, 19, 17],    # blue 2 on its base; blue 3 at progress 74 would enter blue's lane
        "green": [36],            # partner at progress 74: into green's lane is allowed
        "yellow": [54],           # progress 73: would enter yellow's lane
    }
    state = position(marbles=marbles, hands={"red": ["5"]}, mode="complex", teams=True)
    assert legal_phrases(state) == ["play five blue one", "play five green one", "play five red one"]
    state = position(marbles=marbles, hands={"red": ["5"]}, mode="complex", teams=False)
    assert legal_phrases(state) == ["play five blue one", "play five red one"]


def test_r34_partner_pushed_into_its_safe_zone(position, apply_phrase) -> None:
    """R34: a partner's marble may be taken into its safe zone."""
    state = position(marbles={"green": [36]}, hands={"red": ["5"]}, mode="complex", teams=True)
    after, events = apply_phrase(state, "play five green one")
    assert after.marbles[GREEN1] == SAFE_OFFSET + 4
    assert ev.EnteredSafeZone(GREEN1, 4) in events


def test_r34_five_pushes_a_wall_front(position) -> None:
    """R24/R34: a wall-protected marble may still be pushed by a 5; the mover needs no track marble."""
    state = position(marbles={"blue": [30], "yellow": [29]}, hands={"red": ["5"]}, mode="complex")
    assert legal_phrases(state) == ["play five blue one", "play five yellow one"]


def test_r34_five_follows_the_pushed_marbles_colour_rules(position, apply_phrase) -> None:
    """R34: a pushed blue marble may not pass blue; landing captures, reported as by the blue marble."""
    state = position(marbles={"blue": [30, 33], "yellow": [38, 43]}, hands={"red": ["5"]}, mode="complex")
    # blue 1 would pass blue 2; blue 2 -> 38 captures yellow 1 (not on its own base);
    # yellow 1 -> 43 lands on yellow 2 (own colour: capture allowed); yellow 2 -> 48.
    assert legal_phrases(state) == ["play five blue two", "play five yellow one", "play five yellow two"]
    after, events = apply_phrase(state, "play five blue two")
    assert after.marbles[YELLOW1] == HOME
    assert ev.MarbleCaptured(YELLOW1, 38, marble_id("blue", 2), "red", "landed") in events


def test_r34_five_cannot_push_over_an_own_base_marble(position) -> None:
    """R34/R23: nothing is pushed past a marble on its own base."""
    state = position(marbles={"blue": [35], "green": [38]}, hands={"red": ["5"]}, mode="complex", teams=False)
    assert legal_phrases(state) == ["burn hand"]


def test_r34_own_marble_on_own_base_not_movable_by_five(position) -> None:
    """R23/R34: not even the owner's 5 moves a marble off its base in complex mode."""
    state = position(marbles={"red": [0]}, hands={"red": ["5"]}, mode="complex")
    assert legal_phrases(state) == ["burn five"]
    state = position(marbles={"red": [0]}, hands={"red": ["5"]}, mode="regular")
    assert legal_phrases(state) == ["play five red one"]


def test_r34_own_marble_into_own_safe_zone(position) -> None:
    """R34: the mover's own marble may of course enter its own lane."""
    state = position(marbles={"red": [73]}, hands={"red": ["5"]}, mode="complex", teams=False)
    assert legal_phrases(state) == ["play five red one"]


# R35 complex 10 ------------------------------------------------------------


def test_r35_ten_forces_next_player_with_cards(position, apply_phrase) -> None:
    """R35: blue holds nothing, so green is made to burn, only burn, and then yellow plays."""
    state = position(
        marbles={"red": [10], "green": [40]},
        hands={"red": ["10"], "blue": [], "green": ["3", "3", "8"], "yellow": ["9"]},
        mode="complex",
    )
    assert legal_phrases(state) == ["play ten burn", "play ten red one"]
    after, events = apply_phrase(state, "play ten burn")
    assert after.marbles[RED1] == 10
    played = events[0]
    assert isinstance(played, ev.CardPlayed) and played.card == "10" and played.forces_burn
    assert events[1:] == [ev.BurnForced("red", "green"), ev.TurnPassed("green", True)]
    assert after.turn == "green" and after.forced_burn
    assert legal_phrases(after) == ["burn eight", "burn three"]  # even with a legal 3 on the board
    burned, events = apply_phrase(after, "burn three")
    assert ev.CardBurned("green", "3", True) in events
    assert burned.turn == "yellow" and not burned.forced_burn
    assert sorted(burned.hands["green"]) == ["3", "8"]


def test_r35_not_offered_when_nobody_else_holds_cards(position) -> None:
    """R35: the search stops before coming back to the mover: the 10 is only a walk."""
    state = position(
        marbles={"red": [10]},
        hands={"red": ["10", "3"], "blue": [], "green": [], "yellow": []},
        mode="complex",
    )
    assert legal_phrases(state) == ["play ten red one", "play three red one"]


def test_r35_forcing_ten_is_a_legal_move_without_track_marbles(position) -> None:
    """R35/R28: the forcing 10 is a move, so a hand holding it is not burned."""
    state = position(hands={"red": ["10", "2"]}, mode="complex")
    assert legal_phrases(state) == ["play ten burn"]


def test_r35_regular_ten_never_forces(position) -> None:
    """R35 is complex only."""
    state = position(marbles={"red": [10]}, hands={"red": ["10"]}, mode="regular")
    assert legal_phrases(state) == ["play ten red one"]


def test_r35_two_players_turn_comes_back(position, apply_phrase) -> None:
    """R35 with 2 players: green burns, then play goes on with red."""
    state = position(
        marbles={"red": [10]}, hands={"red": ["10", "2"], "green": ["5"]}, players=2, teams=False, mode="complex",
    )
    after, _ = apply_phrase(state, "play ten burn")
    assert after.turn == "green" and legal_phrases(after) == ["burn five"]
    after, _ = apply_phrase(after, "burn five")
    assert after.turn == "red"
    assert legal_phrases(after) == ["play two red one"]


def test_r35_forced_last_card_leads_to_the_next_deal(position, apply_phrase) -> None:
    """R35/R10: when the forced burn empties every hand, the next batch is dealt."""
    state = position(
        marbles={"red": [10]}, hands={"red": ["10"], "blue": ["4"], "green": [], "yellow": []}, mode="complex",
    )
    after, _ = apply_phrase(state, "play ten burn")
    after, events = apply_phrase(after, "burn four")
    assert any(isinstance(e, ev.Dealt) for e in events)
    assert all(len(hand) == 4 for hand in after.hands.values())
