"""What the table is told after each kind of move: "you" for the listener, names for the others, both levels."""

from __future__ import annotations

from narration_helpers import after, table

from voicejack.engine import GameState
from voicejack.engine import events as ev
from voicejack.narration import Narrator


def told(narrator: Narrator, state: GameState, phrase: str, listener: str | None) -> list[str]:
    before, new_state, events = after(state, phrase)
    return narrator.outcome(before, events, new_state, listener)


def test_bringing_out(full: Narrator, brief: Narrator) -> None:
    state = table(hands={"red": ["K", "2"]})
    assert told(full, state, "play king out", "red") == ["You played a king: red 1 came out onto your base at cell 0."]
    assert told(full, state, "play king out", None) == ["Red played a king: red 1 came out onto its own base at cell 0."]
    # Brief: the card, the marble and where it landed; the marble's colour says who played (issue 11).
    assert told(brief, state, "play king out", "red") == ["King: red 1 out at cell 0."]


def test_bringing_out_onto_somebody_sends_them_home(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [19]}, hands={"blue": ["K", "2"]}, turn="blue")
    assert told(full, state, "play king out", "red") == [
        "Blue played a king: blue 1 came out onto its own base at cell 19.",
        "Your red 1 was sent home.",  # from the cell just named
    ]
    assert told(full, state, "play king out", "green") == [
        "Blue played a king: blue 1 came out onto its own base at cell 19.",
        "Your partner's red 1 was sent home.",
    ]
    assert told(full, state, "play king out", "blue") == [
        "You played a king: blue 1 came out onto your base at cell 19.",
        "Red 1 was sent home.",
    ]
    assert told(brief, state, "play king out", "red") == ["King: blue 1 out at cell 19.", "Your red 1 sent home."]


def test_walk_and_the_ace_value(full: Narrator, brief: Narrator) -> None:
    walk = table(marbles={"red": [10]}, hands={"red": ["9", "2"]})
    assert told(full, walk, "play nine red one", "green") == [
        "Red played a nine: red 1 walked from cell 10 to Blue's base at cell 19.",
    ]
    ace = table(marbles={"red": [10], "blue": [21]}, hands={"red": ["A", "2"]})
    assert told(full, ace, "play ace red one eleven", "red") == [
        "You played an ace as 11: red 1 walked from cell 10 to cell 21.",
        "Blue 1 was sent home.",
    ]
    assert told(brief, ace, "play ace red one eleven", None) == ["Ace 11: red 1 to cell 21.", "Blue 1 sent home."]
    assert told(full, ace, "play ace red one one", "blue") == ["Red played an ace as 1: red 1 walked from cell 10 to cell 11."]


def test_the_four_walks_back(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [0]}, hands={"red": ["4", "2"]})
    # Whose base the marble leaves was said when it came out: the start is its cell.
    assert told(full, state, "play four red one", "red") == ["You played a four: red 1 walked back from cell 0 to cell 72."]
    assert told(brief, state, "play four red one", None) == ["Four back: red 1 to cell 72."]


def test_a_complex_five_pushing_your_marble(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [20]}, hands={"blue": ["5", "2"]}, turn="blue", mode="complex")
    assert told(full, state, "play five red one", "red") == ["Blue played a five on your red 1: it moved from cell 20 to cell 25."]
    assert told(full, state, "play five red one", "green") == [
        "Blue played a five on your partner's red 1: it moved from cell 20 to cell 25.",
    ]
    # Brief names the player when the marble is not their colour.
    assert told(brief, state, "play five red one", None) == ["Blue's five on red 1: to cell 25."]
    assert told(brief, state, "play five red one", "red") == ["Blue's five on your red 1: to cell 25."]


def test_a_complex_king_sweep_sends_every_marble_home_in_one_line(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [5, 8], "blue": [12], "green": [16]}, hands={"red": ["K", "2"]}, mode="complex")
    assert told(full, state, "play king red one", "green") == [
        "Red played a king to sweep: red 1 walked 13 from cell 5 to cell 18.",
        "Sent home: your partner's red 2 from cell 8, blue 1 from cell 12 and your green 1 from cell 16.",
    ]
    assert told(brief, state, "play king red one", "red") == [
        "King sweep: red 1 to cell 18.",
        "Sent home: your red 2, blue 1 and your partner's green 1.",
    ]


def test_a_seven_split_entering_the_safe_zone(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": ["safe 1", 71]}, hands={"red": ["7", "2"]})
    assert told(full, state, "play seven red one two red two five", "red") == [
        "You played a seven, split: first red 1 walked 2 steps, from safe place 1 to safe place 3.",
        "Then red 2 walked 5 steps, from cell 71 into your safe zone at place 1.",
        "You now have 2 of 4 marbles in.",
    ]
    assert told(full, state, "play seven red one two red two five", "blue") == [
        "Red played a seven, split: first red 1 walked 2 steps, from safe place 1 to safe place 3.",
        "Then red 2 walked 5 steps, from cell 71 into Red's safe zone at place 1.",
        "Red now has 2 of 4 marbles in.",
    ]
    assert told(brief, state, "play seven red one two red two five", "red") == [
        "Seven split: red 1 to safe place 3.",
        "Then red 2 into safe place 1.",
        "You have 2 in.",
    ]


def test_a_swap_and_a_swap_back_to_the_start(full: Narrator, brief: Narrator) -> None:
    theirs = table(marbles={"red": [40], "blue": [12]}, hands={"blue": ["J", "2"]}, turn="blue")
    assert told(full, theirs, "play jack blue one red one", "red") == [
        "Blue played a jack: blue 1 moved to cell 40, and your red 1 to cell 12.",
    ]
    assert told(brief, theirs, "play jack blue one red one", "green") == ["Jack: blue 1 to cell 40, your partner's red 1 to cell 12."]
    home_base = table(marbles={"red": [40], "yellow": [0]}, hands={"red": ["J", "2"]})
    assert told(full, home_base, "play jack red one yellow one", "red") == [
        "You played a jack: red 1 moved to your base at cell 0, and yellow 1 to cell 40.",
        "Red 1 is back on your base, at the very start of its road.",
    ]
    assert told(brief, home_base, "play jack red one yellow one", None) == [
        "Jack: red 1 to its own base at cell 0, yellow 1 to cell 40.",
        "Red 1 back at the start.",
    ]


def test_the_ten_forcing_a_burn_and_the_forced_burn(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [5]}, hands={"red": ["10", "2"]}, mode="complex")
    assert told(full, state, "play ten burn", "blue") == ["Red played a ten: you must burn a card and lose your turn."]
    assert told(full, state, "play ten burn", "red") == ["You played a ten: Blue must burn a card and loses the turn."]
    assert told(brief, state, "play ten burn", None) == ["Ten: Blue must burn."]
    assert told(brief, state, "play ten burn", "blue") == ["Ten: you must burn."]
    forced = table(marbles={"red": [5]}, hands={"blue": ["3", "2"]}, turn="blue", forced_burn=True, mode="complex")
    assert told(full, forced, "burn three", "blue") == ["You burned a three, forced by the ten."]
    assert told(full, forced, "burn three", "red") == ["Blue burned a three, forced by the ten."]
    assert told(brief, forced, "burn three", "red") == ["Blue burned a three, forced."]


def test_burning_a_card_and_the_whole_hand(full: Narrator, brief: Narrator) -> None:
    stuck = table(marbles={"red": [5], "blue": [6, 7]}, hands={"red": ["9", "3"]})
    assert told(full, stuck, "burn nine", "green") == ["Red could not move and burned a nine."]
    assert told(brief, stuck, "burn nine", "red") == ["You burned a nine."]
    home = table(hands={"red": ["9", "3", "3"]})
    assert told(full, home, "burn hand", "red") == [
        "You could not move and burned your whole hand: two threes and a nine. You sit out this deal.",
    ]
    assert told(full, home, "burn hand", "blue") == ["Red could not move and burned the whole hand: two threes and a nine."]
    # R30: the burned cards are read to the table, in brief too.
    assert told(brief, home, "burn hand", "red") == ["You burned two threes and nine."]
    assert told(brief, home, "burn hand", None) == ["Red burned two threes and nine."]
    # A whole hand of one card keeps its article in brief: "Red burned eight" was heard as eight cards.
    last = table(hands={"red": ["8"]})
    assert told(brief, last, "burn hand", None) == ["Red burned an eight."]
    assert told(brief, last, "burn hand", "red") == ["You burned an eight."]


LAST_IN = {"red": ["safe 2", "safe 3", "safe 4", 74]}


def test_finishing_in_team_play_moves_on_to_the_partners_marbles(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={**LAST_IN, "green": [10]}, hands={"red": ["2", "3"]})
    walked = "Red played a two: red 4 walked from cell 74 into Red's safe zone at place 1."
    assert told(full, state, "play two red four", "red") == [
        "You played a two: red 4 walked from cell 74 into your safe zone at place 1.",
        "You have all four marbles in, and now you play on your partner Green's marbles.",
    ]
    assert told(full, state, "play two red four", "green") == [walked, "Your partner Red has all four marbles in and now plays on your marbles."]
    assert told(full, state, "play two red four", "blue") == [walked, "Red has all four marbles in and now plays on Green's marbles."]
    assert told(brief, state, "play two red four", "red")[1] == "You have all four in; now you play Green's marbles."
    assert told(brief, state, "play two red four", "green")[1] == "Red has all four in and now plays your marbles."


def test_the_winner_solo_and_team(full: Narrator, brief: Narrator) -> None:
    solo = table(marbles=LAST_IN, hands={"red": ["2", "3"]}, teams=False)
    assert told(full, solo, "play two red four", "red")[-1] == "You win the match!"
    assert told(full, solo, "play two red four", "blue")[-1] == "Red wins the match."
    assert told(brief, solo, "play two red four", "red")[-1] == "You win!"
    assert told(brief, solo, "play two red four", None)[-1] == "Red wins."
    team = table(marbles={**LAST_IN, "green": ["safe 1", "safe 2", "safe 3", "safe 4"]}, hands={"red": ["2", "3"]})
    assert told(full, team, "play two red four", "green")[-1] == "You and your partner Red win the match!"
    assert told(full, team, "play two red four", "yellow")[-1] == "Red and Green win the match."
    assert told(brief, team, "play two red four", "red")[-1] == "You and Green win!"
    assert told(brief, team, "play two red four", None)[-1] == "Red and Green win."


def test_a_new_deal_tells_the_listener_their_new_cards(full: Narrator, brief: Narrator) -> None:
    state = table(
        marbles={"red": [10]}, hands={"red": ["2"], "blue": [], "green": [], "yellow": []},
        dealer="yellow", deal_index=0, pile=["4", "8", "J", "J", "A", "2", "3", "J"] + ["9"] * 4 + ["6"] * 4,
    )
    # Red leads: the turn prompt that follows reads the new cards, so the deal does not (issue 11).
    assert told(full, state, "play two red one", "red") == [
        "You played a two: red 1 walked from cell 10 to cell 12.",
        "New deal: Yellow dealt 4 cards each, and you play first.",
    ]
    assert told(full, state, "play two red one", "blue")[1:] == [
        "New deal: Yellow dealt 4 cards each, and Red plays first.",
        "Your cards: an ace, a two, a three and a jack.",
    ]
    assert told(full, state, "play two red one", None)[1:] == ["New deal: Yellow dealt 4 cards each, and Red plays first."]
    assert told(brief, state, "play two red one", "red")[1:] == ["New deal, 4 each; you first."]
    # Brief leaves the new cards to the listener's turn prompt even when others play first.
    assert told(brief, state, "play two red one", "blue")[1:] == ["New deal, 4 each; Red first."]


def test_a_reshuffle_passes_the_deal_on(full: Narrator, brief: Narrator) -> None:
    # The third deal of the cycle is done: the cards are gathered and the deal passes from Yellow to Red.
    state = table(
        marbles={"red": [10]}, hands={"red": ["2"], "blue": [], "green": [], "yellow": []}, dealer="yellow", deal_index=2,
    )
    before, new_state, events = after(state, "play two red one")
    assert any(isinstance(e, ev.Reshuffled) for e in events)
    assert sorted(new_state.hands["red"]) == ["4", "5", "5", "7"]
    assert full.outcome(before, events, new_state, "red")[1:] == [
        "The played cards were gathered and shuffled into a new pile.",
        "New deal: you dealt 4 cards each, and Blue plays first.",
        "Your cards: a four, two fives and a seven.",
    ]
    assert brief.outcome(before, events, new_state, "blue")[1:3] == ["Cards reshuffled.", "New deal, 4 each; you first."]


def test_the_outcome_of_every_move_works_without_a_listener(full: Narrator) -> None:
    # `voicejack apply` prints the outcome with listener None: nobody is "you".
    state = table(marbles={"red": [5, 8], "blue": [12], "green": [16]}, hands={"red": ["K", "2"]}, mode="complex")
    lines = told(full, state, "play king red one", None)
    assert lines == [
        "Red played a king to sweep: red 1 walked 13 from cell 5 to cell 18.",
        "Sent home: red 2 from cell 8, blue 1 from cell 12 and green 1 from cell 16.",
    ]
