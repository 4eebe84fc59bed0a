"""The card-first dialog: from a set of still-possible moves to one question at a time.

A set of legal moves (everything the player's words left open) becomes
either the single move it holds (R39: no question when only one move
fits) or a question about the first thing that still differs, in the
guide's order: which card, what the card should do, which marble, how
many steps (the 7), which marble second (the rest of the 7, or the jack's
partner in the swap). Each choice leads to the next question or a move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from voicejack.engine import (
    GameState,
    Move,
    MoveKind,
    forced_burn_target,
    marble_colour,
    marble_name,
    marble_words,
    mover_colour,
)
from voicejack.engine.cards import RANK_ORDER, RANK_WORDS
from voicejack.engine.moves import NO_MARBLE
from voicejack.language import prompts
from voicejack.language.resolution import Ask, Choice
from voicejack.language.words import number_word

FacetValue = str | int | None
_NO_MARBLE_KINDS = (MoveKind.OUT, MoveKind.FORCE_BURN, MoveKind.BURN, MoveKind.BURN_HAND)


def _what(move: Move) -> FacetValue:
    if move.kind is MoveKind.OUT:
        return "out"
    if move.kind is MoveKind.FORCE_BURN:
        return "burn"
    if move.kind is MoveKind.SWEEP:
        return "sweep"
    if move.card == "A" and move.kind is MoveKind.WALK:
        return move.steps
    if move.card in ("K", "10") and move.kind is MoveKind.WALK:
        return "walk"
    return None


def _marble(move: Move) -> FacetValue:
    return None if move.kind in _NO_MARBLE_KINDS else move.marble


def _steps(move: Move) -> FacetValue:
    return move.steps if move.card == "7" else None


def _second(move: Move) -> FacetValue:
    return None if move.second == NO_MARBLE else move.second


FACETS: tuple[tuple[str, Callable[[Move], FacetValue]], ...] = (
    ("card", lambda move: move.card),
    ("what", _what),
    ("marble", _marble),
    ("steps", _steps),
    ("second", _second),
)


class QuestionBuilder:
    """Builds the question tree for one position and seat (labels need both)."""

    def __init__(self, state: GameState, seat: str) -> None:
        self.state = state
        self.seat = seat
        self.own = mover_colour(state, seat) if seat in state.rules.seats else seat
        self.next_player = forced_burn_target(state, seat) if seat in state.rules.seats else None

    def build(self, moves: Iterable[Move]) -> Move | Ask:
        """The single move, or the first question that tells the moves apart."""
        candidates = sorted(set(moves), key=_move_order)
        if not candidates:
            raise ValueError("no moves to ask about")
        if len(candidates) == 1:
            return candidates[0]
        for topic, facet in FACETS:
            groups: dict[FacetValue, list[Move]] = {}
            for move in candidates:
                groups.setdefault(facet(move), []).append(move)
            if len(groups) > 1:
                return self._question(topic, groups, candidates)
        raise AssertionError("two different moves agree on every facet")

    def _question(self, topic: str, groups: dict[FacetValue, list[Move]], candidates: list[Move]) -> Ask:
        first = candidates[0]
        choices = tuple(
            Choice(self._label(topic, value, moves[0]), self.build(moves), self._answers(topic, value, moves[0]))
            for value, moves in sorted(groups.items(), key=lambda item: self._value_order(topic, item[0]))
        )
        if topic == "card":
            burning = all(m.kind in (MoveKind.BURN, MoveKind.BURN_HAND) for m in candidates)
            question = prompts.ask_card(burning)
        elif topic == "what":
            question = prompts.ask_what(first.card)
        elif topic == "marble":
            splits = any(m.kind is MoveKind.SPLIT for m in candidates)
            question = prompts.ask_marble(first.card, splits)
        elif topic == "steps":
            question = prompts.ask_steps(first.marble)
        else:
            question = prompts.ask_second(first.card, first.marble, first.second_steps)
        return Ask(question, choices, topic)

    def _value_order(self, topic: str, value: FacetValue) -> tuple[int, int]:
        if topic == "card":
            return (0, RANK_ORDER[str(value)])
        if topic == "what":
            order = {"out": 0, "walk": 1, "sweep": 1, "burn": 2}
            return (order.get(str(value), 1), value if isinstance(value, int) else 0)
        if topic in ("marble", "second"):
            marble = _number(value)
            return (0 if marble_colour(marble) == self.own else 1, marble)
        return (0, _number(value))

    def _label(self, topic: str, value: FacetValue, move: Move) -> str:
        if topic == "card":
            return RANK_WORDS[str(value)]
        if topic == "what":
            return prompts.what_label(move, self.next_player)
        if topic == "steps":
            return prompts.steps_label(_number(value))
        return marble_name(_number(value))

    def _answers(self, topic: str, value: FacetValue, move: Move) -> tuple[str, ...]:
        """Spoken forms that pick this choice (option numbers are added by the matcher)."""
        if topic == "card":
            word = RANK_WORDS[str(value)]
            return (word, f"the {word}", f"burn {word}") if move.kind is MoveKind.BURN else (word, f"the {word}")
        if topic == "what":
            if value == "out":
                return ("out", "bring out")
            if value == "sweep":
                return ("sweep",)
            if value == "walk":
                return ("walk", f"walk {number_word(move.steps)}")
            if value == "burn":
                return ("burn",) + ((f"make {self.next_player} burn",) if self.next_player else ())
            word = number_word(_number(value))
            return (word, f"{word} steps" if value != 1 else "one step", f"walk {word}")
        if topic == "steps":
            word = number_word(_number(value))
            forms = (word, f"{word} steps" if value != 1 else "one step")
            return forms + (("all", "all seven") if value == 7 else ())
        return marble_forms(_number(value), self.own)


def marble_forms(marble: int, own: str) -> tuple[str, ...]:
    """How a marble may be named: "red one", and for the mover's own colour "marble one" / "number one"."""
    words = marble_words(marble)
    if marble_colour(marble) != own:
        return (words,)
    number = words.split()[1]
    return (words, f"marble {number}", f"number {number}")


def _number(value: FacetValue) -> int:
    """A marble id or a step count (the facets that are numbers)."""
    assert isinstance(value, int)
    return value


def _move_order(move: Move) -> tuple[int, str]:
    return (RANK_ORDER.get(move.card, len(RANK_ORDER)), move.phrase)  # burn hand names no card
