"""Every sentence the command language says itself, in one small catalogue.

Questions, choice labels, the confirmation question and "not understood"
reasons. What a move would do is told by the narration package
(``Narrator.describe_option``); this catalogue only wraps it.
"""

from __future__ import annotations

from voicejack.engine import Move, MoveKind, marble_name
from voicejack.engine.cards import RANK_WORDS


def card_name(rank: str) -> str:
    return RANK_WORDS[rank]


def numbered(value: int, unit: str) -> str:
    return f"{value} {unit}" if value == 1 else f"{value} {unit}s"


# Questions ------------------------------------------------------------------


def ask_card(burning: bool) -> str:
    return "Burn which card?" if burning else "Which card?"


def ask_what(rank: str) -> str:
    return f"What should the {card_name(rank)} do?"


def ask_marble(rank: str, splits: bool) -> str:
    if rank == "J":
        return "Which of your marbles should the jack swap?"
    if rank == "7" and splits:
        return "Which marble moves first?"
    return f"Which marble for the {card_name(rank)}?"


def ask_steps(marble: int) -> str:
    return f"How many steps for {marble_name(marble)}?"


def ask_second(rank: str, marble: int, rest: int) -> str:
    if rank == "J":
        return f"Swap {marble_name(marble)} with which marble?"
    return f"Which marble takes the other {numbered(rest, 'step')}?"


# Choice labels ----------------------------------------------------------------


def what_label(move: Move, next_player: str | None) -> str:
    if move.kind is MoveKind.OUT:
        return "bring a marble out"
    if move.kind is MoveKind.SWEEP:
        return "sweep 13"
    if move.kind is MoveKind.FORCE_BURN:
        return f"make {next_player} burn a card" if next_player else "make the next player burn a card"
    if move.card == "A":
        return numbered(move.steps, "step")
    return f"walk {move.steps}"


def steps_label(steps: int) -> str:
    return "all 7" if steps == 7 else numbered(steps, "step")


# Confirmation -----------------------------------------------------------------


def confirm_move(description: str) -> str:
    """"<description>, yes or no?"; a description of several sentences gets the question as its own."""
    text = " ".join(description.split())
    if text.endswith("."):
        body = text[:-1]
        if ". " not in body and ": " not in body:
            return f"{body}, yes or no?"
        return f"{text} Yes or no?"
    return f"{text}, yes or no?"


def confirm_command(name: str) -> str:
    what = {"quit": "Quit the match", "leave": "Leave the table and let a bot take your seat"}.get(name, name.capitalize())
    return f"{what}, yes or no?"


# Reasons ------------------------------------------------------------------------


def not_your_turn(turn: str) -> str:
    return f"It is {turn}'s turn, not yours. You can still ask for the board or your cards."


def no_card(rank: str) -> str:
    return f"You have no {card_name(rank)}."


def card_stuck(rank: str) -> str:
    return f"The {card_name(rank)} cannot move any marble now."


def marble_stuck(marble: str) -> str:
    return f"{marble} cannot move with any of your cards now."


def must_burn(whole_hand: bool) -> str:
    if whole_hand:
        return "No card can move a marble and none of yours is on the track: say burn hand."
    return "No card can move a marble, so you must burn one: say burn and a card, like burn nine."


def forced_burn() -> str:
    return "A ten made you burn: say burn and a card, like burn nine."


def over() -> str:
    return "The match is over."


def illegal(phrase: str, why: str | None) -> str:
    return f"{phrase} is not allowed now: {why}." if why else f"{phrase} is not allowed now."


def no_option(number: int, count: int) -> str:
    return f"There is no option {number}: say a number from 1 to {count}."


def not_a_choice(what: str) -> str:
    return f"{what} is not one of the choices. Say a choice, or option and its number."


def unclear() -> str:
    return "I'm not sure what I heard. Please say it again."


def empty() -> str:
    return "I didn't hear anything."


def say_more() -> str:
    return "Say a card, and a marble if it needs one, like nine red one."


def unknown(text: str) -> str:
    return f"I didn't catch {text}."
