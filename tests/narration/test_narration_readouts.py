"""What a player hears on request or at the start: match start, turn prompt, hand, score, last card, where is, board."""

from __future__ import annotations

import pytest
from narration_helpers import table

from voicejack.engine import GameState, LastCard, make_rules, marble_id, new_game, parse_move
from voicejack.narration import Narrator

COMPLEX = make_rules(mode="complex")  # reads "play king blue one" as the sweep

# ---------------------------------------------------------------- match start


def test_match_start_in_teams_for_a_player_and_for_the_table(full: Narrator, brief: Narrator) -> None:
    state, _ = new_game(make_rules(players=4, teams=True), seed=7)
    assert (state.dealer, state.turn) == ("green", "yellow")
    assert full.match_start(state, "red") == [
        "This match is played in the regular version.",
        "Two teams: you and Green against Blue and Yellow. Partners sit opposite each other.",
        "You play red.",
        "Your partner is Green, sitting opposite you.",
        "Turn order: you, Blue, Green, Yellow.",
        "Green deals, and Yellow plays first.",
    ]
    assert full.match_start(state, "green")[-1] == "You deal, and Yellow plays first."
    assert full.match_start(state, None) == [
        "This match is played in the regular version.",
        "Two teams: Red and Green against Blue and Yellow. Partners sit opposite each other.",
        "Turn order: Red, Blue, Green, Yellow.",
        "Green deals, and Yellow plays first.",
    ]
    assert brief.match_start(state, "red") == [
        "Regular version.",
        "Teams: you and Green against Blue and Yellow.",
        "You are red.",
        "Partner: Green.",
        "Order: you, Blue, Green, Yellow.",
        "Green deals, Yellow first.",
    ]


def test_match_start_complex_every_player_for_themselves(full: Narrator, brief: Narrator) -> None:
    state, _ = new_game(make_rules(players=4, teams=False, mode="complex"), seed=7)
    assert full.match_start(state, "red") == [
        "This match is played in complex mode: the king can sweep, the five moves any marble, and the ten can force a burn.",
        "Four players, every player for themselves.",
        "You play red.",
        "Turn order: you, Blue, Green, Yellow.",
        "Green deals, and Yellow plays first.",
    ]
    assert brief.match_start(state, "green")[:3] == ["Complex mode.", "Four players, each for themselves.", "You are green."]


def test_match_start_two_players(full: Narrator, brief: Narrator) -> None:
    state, _ = new_game(make_rules(players=2), seed=7)
    assert (state.dealer, state.turn) == ("green", "red")
    assert full.match_start(state, "red") == [
        "This match is played in the regular version.",
        "Two players: you against Green.",
        "You play red.",
        "Turn order: you, Green.",
        "Green deals, and you play first.",
    ]
    assert brief.match_start(state, None) == [
        "Regular version.", "Two players: Red against Green.", "Order: Red, Green.", "Green deals, Red first.",
    ]


def test_match_start_names_the_colour_of_a_named_seat(full: Narrator) -> None:
    state = table(hands={"red": ["9"]}, names={"blue": "Sara"}, dealer="yellow")
    lines = full.match_start(state, "red")
    assert "Sara plays blue." in lines
    assert "Two teams: you and Green against Sara and Yellow. Partners sit opposite each other." in lines
    assert "Turn order: you, Sara, Green, Yellow." in lines


# ---------------------------------------------------------------- turn prompt


def test_turn_prompt_for_the_player_and_for_the_others(full: Narrator, brief: Narrator) -> None:
    state = table(hands={"red": ["K", "6", "4", "9"]})
    assert full.turn_prompt(state, "red") == "Your turn, red. You hold a four, a six, a nine and a king."
    assert brief.turn_prompt(state, "red") == "Your turn: four, six, nine and king."
    assert full.turn_prompt(state, "blue") == "Red's turn."
    assert full.turn_prompt(state, None) == "Red's turn."


def test_turn_prompt_when_forced_to_burn(full: Narrator, brief: Narrator) -> None:
    state = table(hands={"red": ["9", "3"]}, forced_burn=True, mode="complex")
    assert full.turn_prompt(state, "red") == "Your turn, red: the ten forces you to burn a card. You hold a three and a nine."
    assert brief.turn_prompt(state, "red") == "Your turn, burn a card: three and nine."
    assert full.turn_prompt(state, "blue") == "Red's turn: the ten forces a burn."
    assert brief.turn_prompt(state, "blue") == "Red's turn, forced burn."


def test_turn_prompt_when_playing_on_the_partners_marbles(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": ["safe 1", "safe 2", "safe 3", "safe 4"]}, hands={"red": ["9", "3"]})
    assert full.turn_prompt(state, "red") == "Your turn, red, playing on Green's marbles. You hold a three and a nine."
    assert brief.turn_prompt(state, "red") == "Your turn, on Green's marbles: three and nine."


@pytest.mark.parametrize(
    ("winner", "listener", "expected"),
    [
        (("red",), "red", "The match is over: you won."),
        (("red",), "blue", "The match is over: Red won."),
        (("red", "green"), "green", "The match is over: you and Red won."),
        (("red", "green"), None, "The match is over: Red and Green won."),
    ],
)
def test_turn_prompt_once_the_match_is_won(full: Narrator, winner: tuple[str, ...], listener: str | None, expected: str) -> None:
    state = table(hands={c: [] for c in ("red", "blue", "green", "yellow")}, winner=winner, teams=len(winner) == 2)
    assert full.turn_prompt(state, listener) == expected


# ------------------------------------------------------------ hand and score


def test_hand_is_read_grouped_in_rank_order(full: Narrator, brief: Narrator) -> None:
    state = table(hands={"red": ["Q", "9", "A", "9"], "blue": []})
    assert full.hand(state, "red") == "You hold an ace, two nines and a queen."
    assert brief.hand(state, "red") == "Your cards: ace, two nines and queen."
    assert full.hand(state, "blue") == "You hold no cards: you are out until the next deal."
    assert full.hand(state, None) == "Red holds an ace, two nines and a queen."


def test_score_in_teams(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": ["safe 1"], "green": ["safe 1", "safe 2", "safe 3", "safe 4"], "yellow": ["safe 4"]})
    assert full.score(state, "red") == (
        "Your team has 5 of 8 marbles in: 1 for you, 4 for Green. "
        "Blue and Yellow have 1 of 8 marbles in: none for Blue, 1 for Yellow. A team needs all 8 in to win."
    )
    assert brief.score(state, "blue") == (
        "Your team 1 of 8: 0 for you, 1 for Yellow. Red and Green 5 of 8: 1 for Red, 4 for Green. 8 to win."
    )


def test_score_every_player_for_themselves_and_two_players(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": ["safe 1", "safe 2"], "green": ["safe 4"]}, teams=False)
    assert full.score(state, "red") == (
        "Marbles in: 2 for you, none for Blue, 1 for Green, none for Yellow. The first to bring in all 4 wins."
    )
    assert brief.score(state, None) == "In: 2 for Red, 0 for Blue, 1 for Green, 0 for Yellow. 4 to win."
    two = table(marbles={"green": ["safe 4"]}, players=2, teams=False)
    assert full.score(two, "green") == "Marbles in: 1 for you, none for Red. The first to bring in all 4 wins."


# ------------------------------------------------------------------ last card


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("play ace out", "Last card: Blue played an ace to bring a marble out."),
        ("play nine blue one", "Last card: Blue played a nine on blue 1."),
        ("play ace blue one eleven", "Last card: Blue played an ace as 11 on blue 1."),
        ("play king blue one", "Last card: Blue played a king to sweep with blue 1."),
        ("play jack blue one red two", "Last card: Blue played a jack to swap blue 1 with your red 2."),
        ("play seven blue one five blue two two", "Last card: Blue played a seven split, 5 for blue 1 and 2 for blue 2."),
        ("play five green one", "Last card: Blue played a five on your partner's green 1."),
        ("play ten burn", "Last card: Blue played a ten to force a burn."),
        ("burn nine", "Last card: Blue burned a nine."),
        ("burn hand", "Last card: Blue burned the whole hand."),
    ],
)
def test_last_card_says_who_played_what_and_how(full: Narrator, phrase: str, expected: str) -> None:
    card = {"burn nine": "9", "burn hand": "3"}.get(phrase, "9")
    state = table(last_card=LastCard("blue", card, parse_move(phrase, COMPLEX)))
    assert full.last_card(state, "red") == expected


def test_last_card_brief_and_none_yet(full: Narrator, brief: Narrator) -> None:
    assert full.last_card(table(), "red") == "No card has been played yet."
    assert brief.last_card(table(), "red") == "No card played yet."
    state = table(last_card=LastCard("red", "A", parse_move("play ace red one eleven", COMPLEX)))
    assert brief.last_card(state, "red") == "Last: you, ace 11, your red 1."
    assert brief.last_card(state, None) == "Last: Red, ace 11, red 1."


# ------------------------------------------------------------------- where is


def test_where_is_a_marble(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [70, "safe 2"], "blue": [0, 19]})
    assert full.where_is(state, marble_id("red", 1), "red") == (
        "Your red 1 is on cell 70. It is 6 steps short of your safe zone. "
        "Blue is 6 cells ahead of it, and nobody is within 13 cells behind."
    )
    assert brief.where_is(state, marble_id("red", 1), "red") == (
        "Your red 1, on cell 70. 6 steps short of your safe zone. Blue ahead by 6, nobody near behind."
    )
    assert full.where_is(state, marble_id("red", 2), "red") == "Your red 2 is on safe place 2."
    assert full.where_is(state, marble_id("red", 3), "red") == "Your red 3 is at home."
    assert full.where_is(state, marble_id("blue", 1), "red") == (
        "Blue 1 is on your base at cell 0. Your red 1 is 6 cells behind it, and nobody is within 13 cells ahead."
    )
    assert full.where_is(state, marble_id("blue", 2), None) == (
        "Blue 2 is on its own base at cell 19. Nobody is within 13 cells of it, ahead or behind."
    )


def test_where_is_a_marble_of_a_colour_not_at_the_table(full: Narrator, brief: Narrator) -> None:
    state = table(players=2, teams=False)
    assert full.where_is(state, marble_id("blue", 1), "red") == "Nobody plays blue at this table."
    assert brief.where_is(state, marble_id("yellow", 3), None) == "No yellow at this table."


# ---------------------------------------------------------------------- board


def board_position() -> GameState:
    return table(
        marbles={
            "red": [30, "home", "safe 1", 0], "blue": [31, 32],
            "green": ["safe 1", "safe 2", "safe 3", "safe 4"], "yellow": [45],
        },
        hands={"red": ["A", "9", "9"], "blue": [], "green": ["K"], "yellow": ["2", "3"]},
        names={"blue": "Sara"},
        last_card=LastCard("yellow", "7", parse_move("play seven yellow one five yellow two two", COMPLEX)),
    )


def test_board_readout_for_a_player(full: Narrator) -> None:
    assert full.board(board_position(), "red") == [
        "Regular version, teams, you and Green against Sara and Yellow.",
        "It is your turn.",
        "Last card: Yellow played a seven split, 5 for yellow 1 and 2 for yellow 2.",
        "You, red: 3 cards.",
        "Red 1 is on cell 30.",
        "Red 2 is at home.",
        "Red 3 is on safe place 1.",
        "Red 4 is on your base at cell 0.",
        "Sara, blue: no cards, out of this deal.",
        "Blue 1 is on cell 31.",
        "Blue 2 is on cell 32.",
        "Blue 3 is at home.",
        "Blue 4 is at home.",
        "Green, your partner: 1 card, all marbles in, playing on your marbles.",
        "Green 1 is on safe place 1.",
        "Green 2 is on safe place 2.",
        "Green 3 is on safe place 3.",
        "Green 4 is on safe place 4.",
        "Yellow: 2 cards.",
        "Yellow 1 is on cell 45.",
        "Yellow 2 is at home.",
        "Yellow 3 is at home.",
        "Yellow 4 is at home.",
        "46 cards left in the pile.",
    ]


def test_board_readout_brief_for_the_table(brief: Narrator) -> None:
    lines = brief.board(board_position(), None)
    assert lines[:5] == [
        "Regular, teams, Red and Green against Sara and Yellow.",
        "Red's turn.",
        "Last: Yellow, seven split, 5 for yellow 1, 2 for yellow 2.",
        "Red: 3 cards.",
        "Red 1, on cell 30.",
    ]
    assert "Red 4, on its own base at cell 0." in lines
    assert "Sara, blue: no cards, out of this deal." in lines
    assert "Green: 1 card, all in, playing Red's marbles." in lines
    assert lines[-1] == "Pile: 46 cards."
    assert len(lines) == 3 + 4 * 5 + 1


def test_board_readout_two_players_and_a_won_match(full: Narrator) -> None:
    state = table(
        marbles={"red": ["safe 1", "safe 2", "safe 3", "safe 4"], "green": [19]},
        hands={"red": [], "green": []}, players=2, teams=False, winner=("red",),
    )
    lines = full.board(state, "green")
    assert lines[:3] == ["Regular version, two players.", "The match is over: Red won.", "No card has been played yet."]
    assert "You, green: no cards." in lines  # once won, nobody is "out of this deal"
    assert "Green 1 is on cell 19." in lines  # no blue seat: cell 19 is nobody's base


def test_a_seat_called_you_is_named_by_its_colour_to_everybody_else(full: Narrator) -> None:
    # The table calls a lone human seat "You"; the others must not hear "You's turn".
    state = table(hands={"red": ["9"]}, names={"red": "You"})
    assert full.turn_prompt(state, "blue") == "Red's turn."
    assert full.board(state, None)[1:4] == ["It is Red's turn.", "No card has been played yet.", "Red: 1 card."]
    assert full.turn_prompt(state, "red") == "Your turn, red. You hold a nine."
