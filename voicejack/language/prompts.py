"""Every sentence the command language says itself, in one small catalogue.

Questions, choice labels, the confirmation question and "not understood"
reasons. What a move would do is told by the narration package
(``Narrator.describe_option``); this catalogue only wraps it.
"""

from __future__ import annotations

from voicejack.engine import IllegalReason, Move, MoveKind, Why, marble_colour, marble_name
from voicejack.engine.board import SAFE_OFFSET
from voicejack.engine.cards import RANK_WORDS
from voicejack.language.words import number_word


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
    return f"{numbered(rest, 'step')} left: which marble walks them?"


def ask_meaning(labels: list[str]) -> str:
    """One utterance, two readings: "Did you mean option 2, or the two?"."""
    return f"Did you mean {', or '.join(label.rstrip('.') for label in labels)}?"


def option_label(number: int, label: str) -> str:
    return f"option {number}, {label}"


def card_label(rank: str) -> str:
    return the(card_name(rank))


def the(name: str) -> str:
    return f"the {name}"


def marble_label(marble: int, partner: str | None) -> str:
    """A marble as a choice: "red 1", and the partner's said as such ("your partner's green 1")."""
    name = marble_name(marble)
    return f"your partner's {name}" if partner is not None and marble_colour(marble) == partner else name


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


def confirm_option(number: int, description: str) -> str:
    """A bare number that can only mean an option is confirmed: "Option 2: <description>. Yes or no?"."""
    return confirm_move(f"Option {number}: {description}")


def confirm_heard_command(words: str) -> str:
    """A command heard unsure is asked about: 'Did you say read the board? Yes or no.'"""
    return f"Did you say {' '.join(words.split())}? Yes or no."


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
    if count == 1:
        return f"There is no option {number}: there is only option 1."
    return f"There is no option {number}: say a number from 1 to {count}."


def no_options_read() -> str:
    """"option three" before any list was read: the numbers mean nothing yet (phrases.md: option numbers
    are accepted after the options were read out), so nothing is guessed."""
    return "No options have been read out yet. Say options to hear them with their numbers."


def not_a_choice(what: str) -> str:
    return f"{what} is not one of the choices. Say a choice, or option and its number."


def unclear() -> str:
    return "I'm not sure what I heard. Please say it again."


def empty() -> str:
    return "I didn't hear anything."


def say_more() -> str:
    return "Say a card, and a marble if it needs one, like nine red one."


#: At most this many words of what was heard are said back, and never a long run of characters.
QUOTED_WORDS = 4
QUOTED_CHARACTERS = 32


def quoted(text: str) -> str:
    """A few words of what was heard, to say back: never the whole of a long line."""
    words = text.split()
    if not words:
        return "that"
    shown = " ".join(words[:QUOTED_WORDS])
    if len(shown) > QUOTED_CHARACTERS:
        return "that"
    return shown + (" and the rest" if len(words) > QUOTED_WORDS else "")


def unknown(text: str) -> str:
    return f"I didn't catch {quoted(text)}."


# Why a move is not allowed (the engine's reason, in words) ------------------------


def _marble_ref(marble: int, own: str, partner: str | None) -> str:
    if marble_colour(marble) == own:
        return f"your {marble_name(marble)}"
    if marble_colour(marble) == partner:
        return f"your partner's {marble_name(marble)}"
    return marble_name(marble)


def _at(position: int | None) -> str:
    if position is None:
        return ""
    return f" on safe place {position - SAFE_OFFSET}" if position > SAFE_OFFSET else f" on cell {position}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def refusal(reason: IllegalReason, own: str, partner: str | None, phrase: str) -> str:
    """One short sentence saying why a move clearly heard is not allowed, from the engine's reason.

    ``own`` is the listener's colour, ``partner`` their partner's (they hear
    "your red 1", "your partner's green 1"); ``phrase`` is the move as heard.
    """
    why = reason.why
    card = card_name(reason.card) if reason.card else "card"
    subject = marble_name(reason.marble) if reason.marble is not None else ""
    blocker = _marble_ref(reason.blocker, own, partner) if reason.blocker is not None else "a marble"
    steps = number_word(reason.steps) if reason.steps is not None and reason.steps <= 20 else str(reason.steps)
    cannot = f"{subject} can't walk {steps}"
    if reason.part == 2:
        cannot = f"after the first part of the seven, {cannot}"
    cannot = _capital(cannot)
    if why is Why.PASSES_OWN:
        return f"{cannot}: {blocker} is in the way{_at(reason.position)}."
    if why is Why.BASE_BLOCKS:
        return f"{cannot}: {blocker} is on its own base{_at(reason.position)}, and nobody passes it."
    if why is Why.WALL:
        if reason.second is not None and reason.position is not None:
            behind = _marble_ref(reason.second, own, partner)
            return f"{cannot}: {behind} and {blocker} make a wall on cells {(reason.position - 1) % 76} and {reason.position}."
        return f"{cannot}: {blocker} is protected by a wall{_at(reason.position)}."
    if why is Why.OVERSHOOTS:
        left = reason.left or 0
        return f"{cannot}: only {numbered(left, 'step')} {'is' if left == 1 else 'are'} left to the end of its safe zone."
    text = _simple_refusal(reason, card, subject, blocker) or illegal(phrase, None)
    return f"After the first part of the seven, {text[:1].lower()}{text[1:]}" if reason.part == 2 else text


def _simple_refusal(reason: IllegalReason, card: str, subject: str, blocker: str) -> str:
    texts: dict[Why, str] = {
        Why.GAME_OVER: over(),
        Why.NOT_YOUR_TURN: not_your_turn(reason.colour or ""),
        Why.NO_CARD: no_card(reason.card) if reason.card else "",
        Why.MUST_BURN_FORCED: forced_burn(),
        Why.MUST_BURN: must_burn(False),
        Why.MUST_BURN_HAND: must_burn(True),
        Why.CANNOT_BURN: "You may burn only when no card can move a marble.",
        Why.BURN_ONE_CARD: "A marble of yours is on the track, so burn one card, like burn nine.",
        Why.NOT_THIS_CARD: f"The {card} can't move that way.",
        Why.NOT_YOURS: f"You move only {reason.colour} marbles, and {subject} is not one.",
        Why.AT_HOME: f"{_capital(subject)} is at home: an ace or a king brings it out.",
        Why.IN_SAFE_ZONE: f"{_capital(subject)} is in its safe zone, out of reach of the {card}.",
        Why.ON_OWN_BASE: f"{_capital(subject)} is on its own base, where the {card} can't move it.",
        Why.WALL_PROTECTED: f"{_capital(subject)} is protected by a wall{_at(reason.position)}, so the jack can't swap it.",
        Why.NONE_AT_HOME: f"No {reason.colour} marble is at home: there is none to bring out.",
        Why.OWN_ON_BASE: f"{_capital(blocker)} stands on the base, so no marble can come out.",
        Why.BASE_GUARDED: f"{_capital(blocker)} on the base is protected by a wall, so no marble can come out.",
        Why.SAME_MARBLE: "A seven splits between two different marbles.",
        Why.SPLIT_SUM: "The two parts of a seven add up to seven.",
        Why.NO_MARBLE_FOR_REST: (f"After {subject} walks {number_word(reason.steps or 0)}, "
                                 f"no other marble can walk the other {number_word(7 - (reason.steps or 0))}."),
        Why.SWAP_OWN_COLOUR: "The jack swaps with a marble of another colour.",
        Why.DELIVERS_OPPONENT: f"The five can't take {subject} into its own safe zone.",
        Why.NOBODY_TO_BURN: "Nobody else holds cards, so the ten can only walk.",
        Why.NOT_COMPLEX: "That move is for complex tables; this one plays regular.",
        Why.GOAL_ENTRANCE: (f"{_capital(subject)} can't turn into its safe zone: {blocker} of the other team "
                            f"stands on its goal entrance{_at(reason.position)}."),
        Why.SWAP_PARTNER: "Under these rules the jack swaps only with an opponent, never your partner.",
        Why.BURN_ONE_CARD_RULE: "With no move, under these rules you burn one card of your choice, like burn nine.",
        Why.BURN_HAND_RULE: "With no move, under these rules your whole hand is burned: say burn hand.",
        Why.TIMER_ONLY: "Time out is what the turn timer does; it is never a move to choose.",
        Why.NO_SUCH_MARBLE: f"Nobody plays {marble_colour(reason.marble) if reason.marble is not None else 'that colour'} at this table.",
    }
    return texts.get(reason.why, "")
