"""Option descriptions for every kind of move, in both verbosity levels and from team and free-for-all seats."""

from __future__ import annotations

import pytest
from narration_helpers import describe, table

from voicejack.engine import MoveKind, legal_moves, play
from voicejack.narration import Narrator

# ---------------------------------------------------------------- bringing out


def test_out_capturing_an_opponent_on_your_base(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"blue": [0]}, hands={"red": ["K"]})
    assert describe(full, state)["play king out"] == (
        "King: red 1 comes out onto your base at cell 0. It sends home blue 1."
    )
    assert describe(brief, state)["play king out"] == "King out: red 1 to your base at cell 0. Sends home blue 1."


def test_out_capturing_your_partner_is_said_plainly_in_team_play(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"green": [0]}, hands={"red": ["K"]})
    assert describe(full, state)["play king out"] == (
        "King: red 1 comes out onto your base at cell 0. Careful: it sends home your partner's green 1."
    )
    assert describe(brief, state)["play king out"] == (
        "King out: red 1 to your base at cell 0. Careful: sends home your partner's green 1."
    )


def test_the_same_capture_in_free_for_all_has_no_partner(full: Narrator) -> None:
    state = table(marbles={"green": [0]}, hands={"red": ["K"]}, teams=False)
    assert describe(full, state)["play king out"] == (
        "King: red 1 comes out onto your base at cell 0. It sends home green 1."
    )


def test_a_named_seat_is_named_as_the_owner_of_its_marbles(full: Narrator) -> None:
    state = table(marbles={"blue": [0]}, hands={"red": ["K"]}, names={"blue": "Sara"})
    assert "It sends home Sara's blue 1." in describe(full, state)["play king out"]


# ------------------------------------------------------------------- walking


def test_walks_and_the_ace_name_who_is_ahead_and_behind(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [10, 20], "blue": [30, 5], "yellow": [40]}, hands={"red": ["8", "A"]})
    options = describe(full, state)
    assert options["play ace red two eleven"] == (
        "Ace as 11: red 2 walks from cell 20 to cell 31. Then Blue is 1 cell behind you, and Yellow 9 cells ahead."
    )
    assert options["play ace red one one"] == (
        "Ace as 1: red 1 walks from cell 10 to cell 11. Then Blue is 6 cells behind you."
    )
    assert options["play eight red two"] == (
        "Eight: red 2 walks from cell 20 to cell 28. Then Blue is 2 cells ahead of you."
    )
    assert options["play ace out"] == (
        "Ace: red 3 comes out onto your base at cell 0. Then Blue is 5 cells ahead of you."
    )
    short = describe(brief, state)
    assert short["play ace red two eleven"] == "Ace 11: red 2, from cell 20 to cell 31. Blue behind by 1, Yellow ahead by 9."
    assert short["play eight red one"] == "Eight: red 1, from cell 10 to cell 18. Blue behind by 13, Blue ahead by 12."


def test_neighbours_are_looked_for_within_13_cells_only(full: Narrator) -> None:
    # Yellow 14 cells ahead and Blue 15 behind are out of a single card's reach.
    state = table(marbles={"red": [20], "blue": [7], "yellow": [36]}, hands={"red": ["2"]})
    assert describe(full, state)["play two red one"] == (
        "Two: red 1 walks from cell 20 to cell 22."
    )
    state = table(marbles={"red": [20], "blue": [7], "yellow": [36], "green": [35]}, hands={"red": ["2"]})
    assert describe(full, state)["play two red one"] == (
        "Two: red 1 walks from cell 20 to cell 22. Then your partner Green is 13 cells ahead of you."
    )


def test_your_own_marbles_are_not_counted_as_neighbours(full: Narrator) -> None:
    state = table(marbles={"red": [20, 25], "blue": [30]}, hands={"red": ["2"]})
    assert describe(full, state)["play two red one"].endswith(
        "Then Blue is 8 cells ahead of you."
    )


def test_landing_on_your_own_marble_is_a_careful(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [10, 21]}, hands={"red": ["A"]})
    assert describe(full, state)["play ace red one eleven"] == (
        "Ace as 11: red 1 walks from cell 10 to cell 21. Careful: it sends home your own red 2."
    )
    assert describe(brief, state)["play ace red one eleven"] == (
        "Ace 11: red 1, from cell 10 to cell 21. Careful: sends home your own red 2."
    )


def test_landing_on_another_players_base_says_whose_it_is(full: Narrator) -> None:
    state = table(marbles={"red": [10]}, hands={"red": ["9"]}, teams=False)
    assert describe(full, state)["play nine red one"] == (
        "Nine: red 1 walks from cell 10 to Blue's base at cell 19."
    )


def test_the_four_walks_back_onto_a_capture(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [30], "yellow": [26]}, hands={"red": ["4"]}, teams=False)
    assert describe(full, state)["play four red one"] == (
        "Four, backwards: red 1 walks back from cell 30 to cell 26. It sends home yellow 1."
    )
    assert describe(brief, state)["play four red one"] == (
        "Four back: red 1, from cell 30 to cell 26. Sends home yellow 1."
    )


# ------------------------------------------------------------------- the 7


def test_seven_whole_and_split_part_by_part(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [10, 20], "blue": [15]}, hands={"red": ["7"]})
    options = describe(full, state)
    assert options["play seven red one"] == (
        "Seven, all on one marble: red 1 walks from cell 10 to cell 17. Then Blue is 2 cells behind you."
    )
    # Nobody is near either marble after this split: nothing is said about neighbours (issue 11).
    assert options["play seven red one five red two two"] == (
        "Seven, split: first red 1 walks 5 steps, from cell 10 to cell 15. It sends home blue 1. "
        "Then red 2 walks 2 steps, from cell 20 to cell 22."
    )
    assert options["play seven red one one red two six"] == (
        "Seven, split: first red 1 walks 1 step, from cell 10 to cell 11. Then red 2 walks 6 steps, from cell 20 to cell 26. "
        "After the move, Blue is 4 cells ahead of red 1; Blue is 11 cells behind red 2."
    )
    short = describe(brief, state)
    assert short["play seven red one"] == "Seven: red 1, from cell 10 to cell 17. Blue behind by 2."
    assert short["play seven red one five red two two"] == (
        "Seven split: 5 steps for red 1, from cell 10 to cell 15. Sends home blue 1. "
        "Then 2 steps for red 2, from cell 20 to cell 22."
    )
    assert short["play seven red one one red two six"].endswith("Red 1: Blue ahead by 4; red 2: Blue behind by 11.")


def test_the_two_orders_of_a_split_that_end_the_same_are_one_option(full: Narrator) -> None:
    # R17: red 1 five then red 2 two, or red 2 two then red 1 five, land the same marbles on the same cells.
    state = table(marbles={"red": [10, 20], "blue": [15]}, hands={"red": ["7"]})
    phrases = [move.phrase for move, _ in full.describe_options(state, "red")]
    assert "play seven red one five red two two" in phrases
    assert "play seven red two two red one five" not in phrases
    assert len([p for p in phrases if p.startswith("play seven red one")]) == 7  # whole, and six splits
    assert not [p for p in phrases if p.startswith("play seven red two") and len(p.split()) > 4]
    assert len(phrases) == 8
    assert len(legal_moves(state)) == 14  # both orders of all six splits are legal here


# ------------------------------------------------------------------ the jack


def test_jack_swaps_with_opponent_partner_and_the_own_base_warning(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [40], "blue": [12], "green": [50], "yellow": [0]}, hands={"red": ["J"]})
    assert describe(full, state) == {
        "play jack red one blue one": (
            "Jack: red 1 on cell 40 swaps places with blue 1 on cell 12. "
            "Then Yellow is 12 cells behind you."
        ),
        "play jack red one green one": (
            "Jack: red 1 on cell 40 swaps places with your partner's green 1 on cell 50. "
            "Then your partner Green is 10 cells behind you."
        ),
        "play jack red one yellow one": (
            "Jack: red 1 on cell 40 swaps places with yellow 1 on your base at cell 0. "
            "Warning: red 1 goes back to your base, the very start of its road, and gives up 40 steps of progress. "
            "Then Blue is 12 cells ahead of you."
        ),
    }
    assert describe(brief, state) == {
        "play jack red one blue one": "Jack: red 1 on cell 40, with blue 1 on cell 12. Yellow behind by 12.",
        "play jack red one green one": (
            "Jack: red 1 on cell 40, with your partner's green 1 on cell 50. Green behind by 10."
        ),
        "play jack red one yellow one": (
            "Jack: red 1 on cell 40, with yellow 1 on your base at cell 0. "
            "Warning: red 1 back to the start, losing 40 steps. Blue ahead by 12."
        ),
    }


# ---------------------------------------------------------- complex mode


def test_complex_king_sweep_names_every_marble_it_sends_home(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [5, 8], "blue": [12], "green": [16]}, hands={"red": ["K"]}, mode="complex")
    assert describe(full, state)["play king red one"] == (
        "King sweep: red 1 walks 13 from cell 5 to cell 18, sending home every marble it passes. "
        "Careful: it sends home your own red 2 on cell 8, blue 1 on cell 12 and your partner's green 1 on cell 16."
    )
    assert describe(brief, state)["play king red one"] == (
        "King sweep: red 1, from cell 5 to cell 18. Careful: sends home your own red 2, blue 1 and your partner's green 1."
    )


def test_complex_king_sweep_with_a_clear_path(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [5]}, hands={"red": ["K"]}, mode="complex")
    assert describe(full, state)["play king red one"] == (
        "King sweep: red 1 walks 13 from cell 5 to cell 18, sending home every marble it passes. Nobody is in its path."
    )
    assert describe(brief, state)["play king red one"] == "King sweep: red 1, from cell 5 to cell 18. Nobody in its path."


def test_complex_five_on_your_own_an_opponents_and_your_partners_marble(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [5], "blue": [20], "green": [33]}, hands={"red": ["5"]}, mode="complex")
    assert describe(full, state) == {
        "play five red one": "Five: red 1 walks from cell 5 to cell 10. Then Blue is 10 cells ahead of you.",
        "play five blue one": (
            "Five on blue 1: it moves from cell 20 to cell 25. Then your partner Green is 8 cells ahead of blue 1."
        ),
        "play five green one": "Five on your partner's green 1: it moves from cell 33 into Green's safe zone at place 1.",
    }
    assert describe(brief, state) == {
        "play five red one": "Five: red 1, from cell 5 to cell 10. Blue ahead by 10.",
        "play five blue one": "Five on blue 1: from cell 20 to cell 25. Green ahead by 8.",
        "play five green one": "Five on your partner's green 1: from cell 33 into safe place 1.",
    }


def test_complex_ten_forcing_a_burn_names_who_must_burn(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [5]}, hands={"red": ["10"]}, mode="complex")
    assert describe(full, state) == {
        "play ten red one": "Ten: red 1 walks from cell 5 to cell 15.",
        "play ten burn": "Ten, forcing a burn: Blue must burn a card and loses the turn. No marble moves.",
    }
    assert describe(brief, state)["play ten burn"] == "Ten, forced burn: Blue burns a card and loses the turn."
    # Blue and Yellow hold nothing: the burn falls on the partner, and that is said plainly.
    partner = table(marbles={"red": [5]}, hands={"red": ["10"], "blue": [], "yellow": []}, mode="complex")
    assert describe(full, partner)["play ten burn"] == (
        "Ten, forcing a burn: your partner Green must burn a card and loses the turn. No marble moves."
    )
    assert describe(brief, partner)["play ten burn"] == "Ten, forced burn: Green burns a card and loses the turn."


# ------------------------------------------------------------------ burning


def test_burning_one_card_when_nothing_moves(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [5], "blue": [6, 7]}, hands={"red": ["9", "3"]})
    assert describe(full, state) == {
        "burn three": "Burn the three: it goes unplayed, and your turn passes.",
        "burn nine": "Burn the nine: it goes unplayed, and your turn passes.",
    }
    assert describe(brief, state) == {"burn three": "Burn the three.", "burn nine": "Burn the nine."}


def test_burning_a_card_forced_by_the_ten(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [5]}, hands={"red": ["9", "3"]}, forced_burn=True, mode="complex")
    assert describe(full, state) == {
        "burn three": "Burn the three, as the ten forces you to.",
        "burn nine": "Burn the nine, as the ten forces you to.",
    }
    assert describe(brief, state) == {"burn three": "Burn the three.", "burn nine": "Burn the nine."}


def test_burning_the_whole_hand_reads_the_cards(full: Narrator, brief: Narrator) -> None:
    state = table(hands={"red": ["9", "3", "Q", "3"]})
    assert describe(full, state) == {
        "burn hand": "Burn your whole hand: two threes, a nine and a queen. You are out until the next deal.",
    }
    assert describe(brief, state) == {"burn hand": "Burn hand: two threes, nine and queen. Out until the next deal."}


# ------------------------------------------------------ finishing, partners


def test_playing_on_your_partners_marbles_after_finishing(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": ["safe 1", "safe 2", "safe 3", "safe 4"], "green": [30]}, hands={"red": ["6"]})
    assert describe(full, state) == {
        "play six green one": (
            "Six: green 1 walks from cell 30 to cell 36. That leaves it 2 steps short of Green's safe zone."
        ),
    }
    assert describe(brief, state) == {
        "play six green one": "Six: green 1, from cell 30 to cell 36. 2 steps short of Green's safe zone.",
    }


def test_the_move_that_finishes_you_or_wins(full: Narrator, brief: Narrator) -> None:
    last_in = {"red": ["safe 2", "safe 3", "safe 4", 74]}
    ffa = table(marbles=last_in, hands={"red": ["2"]}, teams=False)
    assert describe(full, ffa)["play two red four"] == (
        "Two: red 4 walks from cell 74 into your safe zone at place 1. That wins the match."
    )
    assert describe(brief, ffa)["play two red four"] == "Two: red 4, from cell 74 into safe place 1. Wins the match."
    team = table(marbles={**last_in, "green": [10]}, hands={"red": ["2"]})
    assert describe(full, team)["play two red four"] == (
        "Two: red 4 walks from cell 74 into your safe zone at place 1. "
        "That brings in your last marble, and you then play on Green's marbles."
    )
    assert describe(brief, team)["play two red four"] == (
        "Two: red 4, from cell 74 into safe place 1. Your last marble in; then you play Green's marbles."
    )
    both = table(marbles={**last_in, "green": ["safe 1", "safe 2", "safe 3", "safe 4"]}, hands={"red": ["2"]})
    assert describe(full, both)["play two red four"].endswith("That wins the match.")


# --------------------------------------------------------------- the list


@pytest.mark.parametrize("mode", ["regular", "complex"])
def test_describe_options_covers_every_distinct_ending_in_the_engines_order(full: Narrator, mode: str) -> None:
    state = table(
        marbles={"red": [5, 40], "blue": [12], "green": [50], "yellow": [0]},
        hands={"red": ["J", "7", "A", "5", "10"]}, mode=mode,
    )
    described = full.describe_options(state, "red")
    moves = legal_moves(state)
    offered = [move for move, _ in described]
    assert offered == [move for move in moves if move in offered]  # the engine's order
    # Every legal move ends like one option; the others are the second orders of 7 splits (issue 11).
    endings = {tuple(play(state, move)[0].marbles) for move in offered}
    assert all(tuple(play(state, move)[0].marbles) in endings for move in moves)
    assert all(move.kind is MoveKind.SPLIT for move in moves if move not in offered)
    assert all(text.endswith(".") for _, text in described)
    assert len({text for _, text in described}) == len(described)  # no two options sound the same
