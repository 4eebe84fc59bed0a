"""What a player hears on request or at the start: match start, turn prompt, hand, score, last card, where is, board."""

from __future__ import annotations

import random
import re

import pytest
from narration_helpers import after, table

from voicejack.engine import SAFE_OFFSET, GameState, LastCard, legal_moves, make_rules, marble_id, marble_name, new_game, parse_move, play
from voicejack.engine import events as ev
from voicejack.narration import Narrator, Verbosity

COMPLEX = make_rules(mode="complex")  # reads "play king blue one" as the sweep

# ---------------------------------------------------------------- match start


def test_match_start_in_teams_for_a_player_and_for_the_table(full: Narrator, brief: Narrator) -> None:
    state, _ = new_game(make_rules(players=4, teams=True), seed=7)
    assert (state.dealer, state.turn) == ("green", "yellow")
    assert full.match_start(state, "red") == [
        "This match is played in the regular version.",
        "Two teams: you and Green against Blue and Yellow. You play red, opposite your partner.",
        "Turn order: you, Blue, Green, Yellow.",
        "Green deals, and Yellow plays first.",
    ]
    assert full.match_start(state, "green")[-1] == "You deal, and Yellow plays first."
    assert full.match_start(state, None) == [
        "This match is played in the regular version.",
        "Two teams: Red and Green against Blue and Yellow, partners sitting opposite each other.",
        "Turn order: Red, Blue, Green, Yellow.",
        "Green deals, and Yellow plays first.",
    ]
    # Brief: the colour and the partner; the opponents, the seat order and the dealer follow from them (R11).
    assert brief.match_start(state, "red") == ["Regular version.", "You are red, partner Green.", "Yellow first."]


def test_match_start_complex_every_player_for_themselves(full: Narrator, brief: Narrator) -> None:
    state, _ = new_game(make_rules(players=4, teams=False, mode="complex"), seed=7)
    lines = full.match_start(state, "red")
    assert lines[0].startswith("This match is played in complex mode, with six changes:")
    assert lines[1:] == [
        "You play red, every player for themselves.",
        "Turn order: you, Blue, Green, Yellow.",
        "Green deals, and Yellow plays first.",
    ]
    assert brief.match_start(state, "green")[1:] == ["You are green, each for themselves.", "Yellow first."]


@pytest.mark.parametrize("verbosity", list(Verbosity))
def test_the_complex_announcement_names_all_six_changes(verbosity: Verbosity) -> None:
    # R31 the king sweeps, R32 through walls, R33 over and onto your own marbles, R34 the five moves any
    # marble, R35 the ten forces a burn, and R33/R34 a marble on its own base is safe from both.
    state, _ = new_game(make_rules(players=4, teams=True, mode="complex"), seed=7)
    said = Narrator(verbosity).match_start(state, "red")[0].lower()
    for change in (r"\bking\b.*\bsweep", r"\bwalls?\b", r"\byour own marbles\b", r"\bfive moves any marble\b",
                   r"\bten\b.*\bburn\b", r"\bon its (own )?base is safe\b"):
        assert re.search(change, said), f"{change!r} not named in {said!r}"
    regular, _ = new_game(make_rules(players=4, teams=True), seed=7)
    assert len(Narrator(verbosity).match_start(regular, "red")[0].split()) <= 8


def test_match_start_two_players(full: Narrator, brief: Narrator) -> None:
    state, _ = new_game(make_rules(players=2), seed=7)
    assert (state.dealer, state.turn) == ("green", "red")
    assert full.match_start(state, "red") == [
        "This match is played in the regular version.",
        "You play red, against Green.",
        "Turn order: you, Green.",
        "Green deals, and you play first.",
    ]
    assert brief.match_start(state, None) == ["Regular version.", "Two players: Red against Green.", "Red first."]


def test_match_start_names_the_colour_of_a_named_seat(full: Narrator, brief: Narrator) -> None:
    state = table(hands={"red": ["9"]}, names={"blue": "Sara"}, dealer="yellow")
    lines = full.match_start(state, "red")
    assert "Sara plays blue." in lines
    assert "Two teams: you and Green against Sara and Yellow. You play red, opposite your partner." in lines
    assert "Turn order: you, Sara, Green, Yellow." in lines
    assert "Sara is blue." in brief.match_start(state, "red")


# --------------------------------------------------------------------- resuming


def test_resume_summary_repeats_colour_partner_version_and_table_kind(full: Narrator, brief: Narrator) -> None:
    teams = table(mode="complex")
    assert full.resume_summary(teams, "red") == ["You play red, and your partner is Green.", "Complex mode, two teams of two."]
    assert brief.resume_summary(teams, "blue") == ["You are blue, partner Yellow.", "Complex, teams."]
    solo = table(teams=False)
    assert full.resume_summary(solo, "green") == ["You play green.", "Regular version, every player for themselves."]
    two = table(players=2, teams=False)
    assert brief.resume_summary(two, "red") == ["You are red.", "Regular, two players."]
    assert full.resume_summary(two, None) == ["Regular version, two players."]


def test_resume_summary_of_a_won_match_says_it_is_over_and_who_won(full: Narrator, brief: Narrator) -> None:
    # R38: a won match offers nothing; a player resuming its autosave must hear the result, not only
    # "Another match?".
    safe = ["safe 1", "safe 2", "safe 3", "safe 4"]
    teams = table(marbles={"red": safe, "green": safe}, hands={colour: [] for colour in ("red", "blue", "green", "yellow")},
                  winner=("red", "green"))
    assert full.resume_summary(teams, "red")[-1] == "The match is over: you and Green won."
    assert brief.resume_summary(teams, "blue")[-1] == "Over: Red and Green won."
    two = table(marbles={"green": safe}, hands={"red": [], "green": []}, players=2, teams=False, winner=("green",))
    assert full.resume_summary(two, "red")[-1] == "The match is over: Green won."


# ---------------------------------------------------------------- turn prompt


def test_turn_prompt_for_the_player_and_for_the_others(full: Narrator, brief: Narrator) -> None:
    state = table(hands={"red": ["K", "6", "4", "9"]})
    assert full.turn_prompt(state, "red") == "Your turn, red. You hold a four, a six, a nine and a king."
    assert brief.turn_prompt(state, "red") == "Your turn: four, six, nine and king."
    assert full.turn_prompt(state, "blue") == "Red's turn."
    assert full.turn_prompt(state, None) == "Red's turn."


def test_turn_prompt_says_when_no_card_can_move_and_one_must_be_burned(full: Narrator, brief: Narrator) -> None:
    # R29: red 1 on cell 5 cannot pass blue's wall on 6-7 with either card. Before, the prompt was the plain
    # "Your turn ... You hold ...", and the player learned they must burn only by trying a move.
    state = table(marbles={"red": [5], "blue": [6, 7]}, hands={"red": ["9", "3"]})
    assert full.turn_prompt(state, "red") == (
        "Your turn, red. You hold a three and a nine. No card in your hand can move a marble, so you must burn one.")
    assert brief.turn_prompt(state, "red") == "Your turn: three and nine. No move: burn a card."
    assert full.turn_prompt(state, "blue") == "Red's turn."
    movable = table(marbles={"red": [5], "blue": [6, 7]}, hands={"red": ["9", "A"]})
    assert full.turn_prompt(movable, "red") == "Your turn, red. You hold an ace and a nine."


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


def test_last_card_with_the_recent_move_says_where_marbles_went_and_who_went_home(full: Narrator, brief: Narrator) -> None:
    # Issue 11: "last card" left out the landing and the capture. The table keeps the state before the
    # last move and its events and passes them as ``recent``.
    state = table(marbles={"blue": [30], "red": [41]}, hands={"blue": ["A", "2"]}, turn="blue")
    before, after_state, events = after(state, "play ace blue one eleven")
    recent = (before, events)
    assert full.last_card(after_state, "red", recent) == (
        "Last card: Blue played an ace as 11: blue 1 walked from cell 30 to cell 41. Your red 1 was sent home."
    )
    assert brief.last_card(after_state, "red", recent) == "Last: Blue's ace 11: blue 1 to cell 41. Your red 1 sent home."
    assert brief.last_card(after_state, "blue", recent) == "Last: Your ace 11: blue 1 to cell 41. Red 1 sent home."
    # Without it (a table just loaded from a file), what the move itself says.
    assert full.last_card(after_state, "red") == "Last card: Blue played an ace as 11 on blue 1."


def test_last_card_with_the_recent_move_leaves_out_the_deal_that_followed(full: Narrator) -> None:
    state = table(marbles={"red": [10]}, hands={"red": ["2"], "blue": [], "green": [], "yellow": []}, dealer="yellow")
    before, after_state, events = after(state, "play two red one")
    assert any(isinstance(e, ev.Dealt) for e in events)
    assert full.last_card(after_state, "blue", (before, events)) == (
        "Last card: Red played a two: red 1 walked from cell 10 to cell 12."
    )


@pytest.mark.parametrize("mode", ["regular", "complex"])
def test_last_card_with_recent_names_every_landing_and_capture_over_a_match(mode: str) -> None:
    state, _ = new_game(make_rules(players=4, teams=True, mode=mode), seed=21)
    rng = random.Random(21)
    told = 0
    for _ in range(300):
        if state.winner is not None:
            break
        before = state
        state, events = play(state, rng.choice(legal_moves(state)))
        for verbosity in Verbosity:
            text = Narrator(verbosity).last_card(state, "red", (before, events))
            for event in events:
                if isinstance(event, ev.MarbleWalked):
                    assert names_place(text, event.end), text
                if isinstance(event, ev.MarbleCaptured):
                    assert marble_name(event.marble) in text.lower(), text
            told += 1
    assert told > 100


def names_place(text: str, position: int) -> bool:
    if position > SAFE_OFFSET:
        return f"place {position - SAFE_OFFSET}" in text
    return re.search(rf"\bcell {position}\b", text) is not None


# ------------------------------------------------------------------- where is


def test_where_is_a_marble(full: Narrator, brief: Narrator) -> None:
    state = table(marbles={"red": [70, "safe 2"], "blue": [0, 19]})
    assert full.where_is(state, marble_id("red", 1), "red") == (
        "Your red 1 is on cell 70. It is 6 steps short of your safe zone. Blue is 6 cells ahead of it."
    )
    assert brief.where_is(state, marble_id("red", 1), "red") == (
        "Your red 1, on cell 70. 6 steps short of your safe zone. Blue ahead by 6."
    )
    assert full.where_is(state, marble_id("red", 2), "red") == "Your red 2 is on safe place 2."
    assert full.where_is(state, marble_id("red", 3), "red") == "Your red 3 is at home."
    assert full.where_is(state, marble_id("blue", 1), "red") == (
        "Blue 1 is on your base at cell 0. Your red 1 is 6 cells behind it."
    )
    # Nobody within a card's reach: nothing more is said (issue 11).
    assert full.where_is(state, marble_id("blue", 2), None) == "Blue 2 is on its own base at cell 19."


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


def test_board_readout_is_a_summary_then_a_line_per_player(full: Narrator) -> None:
    assert full.board_lines(board_position(), "red") == [
        "It is your turn. Ahead: you and Green. You and Green: 5 in, 2 on the track; Sara and Yellow: 3 on the track.",
        "You, red: 3 cards. Red 1 on cell 30, red 4 on your base at cell 0, red 3 on safe place 1, red 2 at home.",
        "Sara, blue: no cards, out of this deal. Blue 1 on cell 31, blue 2 on cell 32, blue 3 and 4 at home.",
        "Green, your partner: 1 card, playing on your marbles. All four in the safe zone.",
        "Yellow: 2 cards. Yellow 1 on cell 45, yellow 2, 3 and 4 at home.",
        "Last card: Yellow played a seven split, 5 for yellow 1 and 2 for yellow 2.",
        "Regular version, two teams of two. 46 cards left in the pile.",
    ]
    assert full.board(board_position(), "red") == full.board_lines(board_position(), "red")


def test_board_readout_brief_for_the_table(brief: Narrator) -> None:
    assert brief.board_lines(board_position(), None) == [
        "Red's turn. Ahead: Red and Green. Red and Green 5 in, 2 out; Sara and Yellow 3 out.",
        "Red: 3 cards. Red 1 on cell 30, red 4 on its own base at cell 0, red 3 on safe place 1, red 2 at home.",
        "Sara, blue: no cards, out of this deal. Blue 1 on cell 31, blue 2 on cell 32, blue 3 and 4 at home.",
        "Green: 1 card, playing Red's marbles. All in.",
        "Yellow: 2 cards. Yellow 1 on cell 45, yellow 2, 3 and 4 at home.",
        "Last: Yellow, seven split, 5 for yellow 1, 2 for yellow 2.",
        "Regular, teams. Pile: 46 cards.",
    ]


def test_a_players_line_on_request_is_their_line_of_the_readout(full: Narrator, brief: Narrator) -> None:
    state = board_position()
    for narrator in (full, brief):
        lines = narrator.board_lines(state, "green")
        for index, colour in enumerate(["green", "yellow", "red", "blue"], start=1):  # seat order from the listener
            assert narrator.player_line(state, colour, "green") == lines[index]
    assert full.player_line(state, "red", "green") == (
        "Red, your partner: 3 cards. Red 1 on cell 30, red 4 on its own base at cell 0, red 3 on safe place 1, red 2 at home."
    )


def test_the_summary_says_who_is_ahead_and_groups_sides_at_home(full: Narrator, brief: Narrator) -> None:
    fresh, _ = new_game(make_rules(players=4, teams=True), seed=7)
    assert full.board_lines(fresh, "red")[0] == "It is Yellow's turn. Nobody is ahead. Every marble is at home."
    assert brief.board_lines(fresh, "red")[0] == "Yellow's turn. Level. All at home."
    state = table(marbles={"red": [30], "blue": [31, 32]}, teams=False, names={"blue": "Sara"})
    assert full.board_lines(state, None)[0] == (
        "It is Red's turn. Ahead: Red. Red: 1 on the track; Sara: 2 on the track; Green and Yellow: all at home."
    )
    # Marbles in count before steps walked: one marble in beats two far along the track.
    ahead = table(marbles={"red": ["safe 1"], "blue": [70, 71]}, teams=False)
    assert full.board_lines(ahead, "blue")[0].startswith("It is Red's turn. Ahead: Red.")


def test_board_readout_two_players_and_a_won_match(full: Narrator) -> None:
    state = table(
        marbles={"red": ["safe 1", "safe 2", "safe 3", "safe 4"], "green": [19]},
        hands={"red": [], "green": []}, players=2, teams=False, winner=("red",),
    )
    lines = full.board_lines(state, "green")
    assert lines[0] == "The match is over: Red won. Ahead: Red. You: 1 on the track; Red: 4 in."
    assert "You, green: no cards. Green 1 on cell 19, green 2, 3 and 4 at home." in lines  # once won, nobody is "out of this deal"
    # No blue seat: cell 19 is nobody's base.
    assert lines[-2:] == ["No card has been played yet.", "Regular version, two players. 52 cards left in the pile."]


def test_a_seat_called_you_is_named_by_its_colour_to_everybody_else(full: Narrator) -> None:
    # The table calls a lone human seat "You"; the others must not hear "You's turn".
    state = table(hands={"red": ["9"]}, names={"red": "You"})
    assert full.turn_prompt(state, "blue") == "Red's turn."
    assert full.board_lines(state, None)[:2] == ["It is Red's turn. Nobody is ahead. Every marble is at home.", "Red: 1 card. All four at home."]
    assert full.turn_prompt(state, "red") == "Your turn, red. You hold a nine."
