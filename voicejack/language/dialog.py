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
from typing import Protocol

from voicejack.engine import (
    GameState,
    Move,
    MoveKind,
    forced_burn_target,
    marble_colour,
    marble_words,
    mover_colour,
)
from voicejack.engine.cards import RANK_ORDER, RANK_WORDS
from voicejack.engine.moves import NO_MARBLE
from voicejack.language import prompts
from voicejack.language.resolution import Ask, Choice, Topic
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


FACETS: tuple[tuple[Topic, Callable[[Move], FacetValue]], ...] = (
    (Topic.CARD, lambda move: move.card),
    (Topic.WHAT, _what),
    (Topic.MARBLE, _marble),
    (Topic.STEPS, _steps),
    (Topic.SECOND, _second),
)


class Wording(Protocol):
    """How a choice's detail is worded: what a move would do, where a marble stands."""

    def option(self, state: GameState, move: Move, listener: str) -> str: ...

    def landing(self, state: GameState, move: Move, listener: str) -> str: ...

    def where(self, state: GameState, marble: int, listener: str) -> str: ...


class NarratorWording:
    """The narration package's own words, brief or full (the player's detail setting)."""

    def __init__(self, brief: bool = True) -> None:
        from voicejack.narration.narrator import Narrator, Verbosity

        self.narrator = Narrator(Verbosity.BRIEF if brief else Verbosity.FULL)

    def option(self, state: GameState, move: Move, listener: str) -> str:
        return self.narrator.describe_option(state, move, listener)

    def landing(self, state: GameState, move: Move, listener: str) -> str:
        return self.narrator.first_landing(state, move, listener)

    def where(self, state: GameState, marble: int, listener: str) -> str:
        """The first sentence of the narrator's answer to "where is ...": where the marble stands."""
        first = self.narrator.where_is(state, marble, listener).split(". ")[0]
        return first if first.endswith(".") else first + "."


class QuestionBuilder:
    """Builds the question tree for one position and seat (labels need both).

    With a ``wording``, each choice carries its detail: what it would do when
    it leads to one move, where the marble stands when it leads to more questions.
    """

    def __init__(self, state: GameState, seat: str, wording: Wording | None = None) -> None:
        self.state = state
        self.seat = seat
        self.wording = wording
        seated = seat in state.rules.seats
        self.own = mover_colour(state, seat) if seated else seat
        self.partner = state.rules.partner(seat) if seated else None
        self.next_player = forced_burn_target(state, seat) if seated else None

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

    def _question(self, topic: Topic, groups: dict[FacetValue, list[Move]], candidates: list[Move]) -> Ask:
        first = candidates[0]
        choices = tuple(
            self._choice(topic, value, moves)
            for value, moves in sorted(groups.items(), key=lambda item: self._value_order(topic, item[0]))
        )
        if topic is Topic.CARD:
            burning = all(m.kind in (MoveKind.BURN, MoveKind.BURN_HAND) for m in candidates)
            question = prompts.ask_card(burning)
        elif topic is Topic.WHAT:
            question = prompts.ask_what(first.card)
        elif topic is Topic.MARBLE:
            splits = any(m.kind is MoveKind.SPLIT for m in candidates)
            question = prompts.ask_marble(first.card, splits)
        elif topic is Topic.STEPS:
            question = prompts.ask_steps(first.marble)
        else:
            question = prompts.ask_second(first.card, first.marble, first.second_steps)
        return Ask(question, choices, topic)

    def _choice(self, topic: Topic, value: FacetValue, moves: list[Move]) -> Choice:
        then = self.build(moves)
        detail = ""
        if self.wording is not None:
            if topic is Topic.STEPS:
                # How far the first marble walks: where it would land says it all; the rest is asked next.
                detail = self.wording.landing(self.state, moves[0], self.seat)
            elif isinstance(then, Move):
                detail = self.wording.option(self.state, then, self.seat)
            elif topic in (Topic.MARBLE, Topic.SECOND):
                detail = self.wording.where(self.state, _number(value), self.seat)
        return Choice(self._label(topic, value, moves[0]), then, self._answers(topic, value, moves[0]), detail)

    def _value_order(self, topic: Topic, value: FacetValue) -> tuple[int, int]:
        if topic is Topic.CARD:
            return (0, RANK_ORDER[str(value)])
        if topic is Topic.WHAT:
            order = {"out": 0, "walk": 1, "sweep": 1, "burn": 2}
            return (order.get(str(value), 1), value if isinstance(value, int) else 0)
        if topic in (Topic.MARBLE, Topic.SECOND):
            marble = _number(value)
            return (0 if marble_colour(marble) == self.own else 1, marble)
        return (0, _number(value))

    def _label(self, topic: Topic, value: FacetValue, move: Move) -> str:
        if topic is Topic.CARD:
            return RANK_WORDS[str(value)]
        if topic is Topic.WHAT:
            return prompts.what_label(move, self.next_player)
        if topic is Topic.STEPS:
            return prompts.steps_label(_number(value))
        return prompts.marble_label(_number(value), self.partner)

    def _answers(self, topic: Topic, value: FacetValue, move: Move) -> tuple[str, ...]:
        """The values a player may say to pick this choice ("option three" is added by the matcher)."""
        if topic is Topic.CARD:
            word = RANK_WORDS[str(value)]
            return (word, f"the {word}", f"burn {word}") if move.kind is MoveKind.BURN else (word, f"the {word}")
        if topic is Topic.WHAT:
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
        if topic is Topic.STEPS:
            word = number_word(_number(value))
            forms = (word, f"{word} steps" if value != 1 else "one step")
            return forms + (("all", "all seven") if value == 7 else ())
        marble = _number(value)
        names = marble_forms(marble, self.own)
        # Of the mover's own marbles the number alone is the value too: "one" for red 1.
        return names + ((names[0].split()[1],) if marble_colour(marble) == self.own else ())


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
