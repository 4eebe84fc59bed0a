"""Plain refusals: what is clearly a mistake is said to be one, with the engine's reason, before any guessing.

A whole move phrase that was heard well but is not legal ("seven red two
seven" when red 2 cannot walk seven) is refused with the reason the engine
gives (``why_illegal``), never matched to some other, legal move.
"""

from __future__ import annotations

from typing import Protocol

from voicejack.engine import GameState, Move, MoveKind, Why, marble_id, marble_name, why_illegal
from voicejack.engine.board import COLOUR_INDEX, NUMBER_WORDS
from voicejack.engine.cards import ACE_STEPS, SEVEN, WALK_VALUES, WORD_RANKS
from voicejack.engine.moves import NO_MARBLE
from voicejack.language import prompts
from voicejack.language.forms import numbers_are_values
from voicejack.language.normalise import Key
from voicejack.language.resolution import Ask, Dialog, NotUnderstood, NotUnderstoodCode, Topic
from voicejack.language.words import CARD_WORDS, NUMBER_VALUES, ORDINAL_VALUES

_Code = NotUnderstoodCode

#: The engine's reasons that have their own code (and cue); every other reason is "illegal".
_CODES: dict[Why, NotUnderstoodCode] = {
    Why.GAME_OVER: _Code.OVER,
    Why.NOT_YOUR_TURN: _Code.NOT_YOUR_TURN,
    Why.NO_CARD: _Code.NO_CARD,
    Why.MUST_BURN_FORCED: _Code.FORCED_BURN,
    Why.MUST_BURN: _Code.MUST_BURN,
    Why.MUST_BURN_HAND: _Code.MUST_BURN,
    Why.BURN_HAND_RULE: _Code.MUST_BURN,
}


class Position(Protocol):
    """What a refusal needs to know of the language of the moment (resolver.Language)."""

    state: GameState
    seat: str
    acting: bool
    moves: list[Move]
    dialog: Dialog

    @property
    def own(self) -> str: ...

    @property
    def burning(self) -> bool: ...


def refusal(language: Position, words: Key) -> NotUnderstood | None:
    """A plain "no" for what is clearly a mistake, or None to go on matching."""
    state = language.state
    if state.winner is not None:
        return NotUnderstood(prompts.over(), _Code.OVER)
    if not language.acting:
        return NotUnderstood(prompts.not_your_turn(state.turn), _Code.NOT_YOUR_TURN)
    dialog = language.dialog
    if isinstance(dialog, Ask):
        found = _answer_refusal(language, dialog, words)
        if found is not None:
            return found
    elif dialog is None:
        if _unread_option(words) is not None:
            return NotUnderstood(prompts.no_options_read(), _Code.NO_OPTION)
    hand = state.hands[language.seat]
    if words == ("burn",) and hand and not language.burning:  # R28: "burn" alone is offered only when burning
        return explain(language, Move(hand[0], MoveKind.BURN))
    move = heard_move(words, language.own, hand)
    if move is not None and move not in language.moves:
        return explain(language, move)
    first = words[0]
    if first in CARD_WORDS:
        rank = WORD_RANKS[first]
        if rank not in hand:
            return NotUnderstood(prompts.no_card(rank), _Code.NO_CARD)
        if state.forced_burn:
            return NotUnderstood(prompts.forced_burn(), _Code.FORCED_BURN)
        if language.burning:
            return NotUnderstood(prompts.must_burn(language.moves[0].kind is MoveKind.BURN_HAND), _Code.MUST_BURN)
        if not any(m.card == rank for m in language.moves):
            return NotUnderstood(prompts.card_stuck(rank), _Code.ILLEGAL)
        return None
    if state.forced_burn and first != "burn":
        return NotUnderstood(prompts.forced_burn(), _Code.FORCED_BURN)
    marble = _marble_in(words, 0, language.own)
    if marble is not None and len(words) == 2 and dialog is None:
        return NotUnderstood(prompts.marble_stuck(marble_name(marble).capitalize()), _Code.ILLEGAL)
    return None


def explain(language: Position, move: Move) -> NotUnderstood:
    """The engine's reason ``move`` is not allowed, in one sentence, with its code."""
    state = language.state
    reason = why_illegal(state, move)
    partner = state.rules.partner(language.seat) if language.seat in state.rules.seats else None
    text = prompts.refusal(reason, language.seat, partner, _spoken_phrase(move))
    return NotUnderstood(text, _CODES.get(reason.why, _Code.ILLEGAL))


def _spoken_phrase(move: Move) -> str:
    if move.kind is MoveKind.SPLIT and move.second == NO_MARBLE:
        return f"seven {marble_name(move.marble)} {move.steps}"
    return move.phrase


def _marble_in(words: Key, at: int, own: str) -> int | None:
    """The marble named by ``words[at:at + 2]`` ("red one", "marble one"), if those words name one."""
    if at + 1 >= len(words) or words[at + 1] not in NUMBER_WORDS:
        return None
    colour = own if words[at] == "marble" else words[at]
    if colour not in COLOUR_INDEX:
        return None
    return marble_id(colour, NUMBER_WORDS.index(words[at + 1]) + 1)


def heard_move(words: Key, own: str, hand: list[str]) -> Move | None:
    """The move these key words spell out in full, legal or not; None when they are not a whole move.

    The words are normalised (fillers gone, "marble one" for the mover's
    own colour), so "play the seven on red two, seven steps" is
    ("seven", "red", "two", "seven"): the whole 7 on red 2.
    """
    if not words:
        return None
    head, rest = words[0], words[1:]
    if head == "burn":
        if rest == ("hand",):
            return Move(hand[-1] if hand else "A", MoveKind.BURN_HAND)
        return Move(WORD_RANKS[rest[0]], MoveKind.BURN) if len(rest) == 1 and rest[0] in CARD_WORDS else None
    if head == "sweep":
        marble = _marble_in(rest, 0, own)
        return Move("K", MoveKind.SWEEP, marble, 13) if marble is not None and len(rest) == 2 else None
    if head not in CARD_WORDS:
        return None
    rank = WORD_RANKS[head]
    if rest == ("out",):
        return Move(rank, MoveKind.OUT)
    if rank == "10" and rest == ("burn",):
        return Move(rank, MoveKind.FORCE_BURN)
    if rank == "K" and rest[:1] == ("sweep",):
        rest = rest[1:]
    first = _marble_in(rest, 0, own)
    if first is None:
        return None
    tail = rest[2:]
    if rank == "J":
        second = _marble_in(tail, 0, own)
        return Move(rank, MoveKind.SWAP, first, 0, second) if second is not None and len(tail) == 2 else None
    if rank == "7":
        return _seven(first, tail, own)
    if rank == "A":
        steps = NUMBER_VALUES.get(tail[0]) if len(tail) == 1 else None
        return Move(rank, MoveKind.WALK, first, steps) if steps in ACE_STEPS else None
    if tail:
        return None
    if rank == "K":
        return Move(rank, MoveKind.SWEEP, first, 13)
    if rank == "4":
        return Move(rank, MoveKind.WALK, first, 4)
    return Move(rank, MoveKind.WALK, first, WALK_VALUES[rank]) if rank in WALK_VALUES else None


def _seven(first: int, tail: Key, own: str) -> Move | None:
    """The 7 on one marble ("seven red one"), a part of it ("seven red one five") or a whole split."""
    if not tail:
        return Move("7", MoveKind.WALK, first, SEVEN)
    steps = NUMBER_VALUES.get(tail[0])
    if steps is None or not 1 <= steps <= SEVEN:
        return None
    if len(tail) == 1:
        if steps == SEVEN:
            return Move("7", MoveKind.WALK, first, SEVEN)
        return Move("7", MoveKind.SPLIT, first, steps, NO_MARBLE, SEVEN - steps)
    second = _marble_in(tail, 1, own)
    if second is None or len(tail) != 4 or tail[3] not in NUMBER_VALUES:
        return None
    return Move("7", MoveKind.SPLIT, first, steps, second, NUMBER_VALUES[tail[3]])


def not_a_choice(words: Key, dialog: Ask) -> NotUnderstood:
    """A bare number in a question whose values are numbers, naming none of them."""
    number = NUMBER_VALUES.get(words[0], 0) if len(words) == 1 else 0
    what = prompts.numbered(number, "step") if dialog.topic is Topic.STEPS else words[0].capitalize()
    return NotUnderstood(prompts.not_a_choice(what), _Code.NO_OPTION)


def _answer_refusal(language: Position, dialog: Ask, words: Key) -> NotUnderstood | None:
    """An answer of the right shape that is not among the choices."""
    number = _option_number(words, dialog)
    if number is not None and dialog.numbered and not 1 <= number <= len(dialog.choices):
        if len(words) == 1 and _stuck_card_in_hand(language, words[0]):
            return None  # "seven" with a seven in hand that cannot move names the card: refused below, with why
        if len(words) == 1 and numbers_are_values(dialog):
            return not_a_choice(words, dialog)
        return NotUnderstood(prompts.no_option(number, len(dialog.choices)), _Code.NO_OPTION)
    if dialog.topic in (Topic.MARBLE, Topic.SECOND) and len(words) == 2:
        marble = _marble_in(words, 0, language.own)
        if marble is not None:
            return NotUnderstood(prompts.not_a_choice(marble_name(marble).capitalize()), _Code.NO_OPTION)
    return None


def _stuck_card_in_hand(language: Position, word: str) -> bool:
    """Is ``word`` a card the player holds that moves no marble now?"""
    rank = WORD_RANKS.get(word)
    return (rank is not None and rank in language.state.hands[language.seat]
            and not any(move.card == rank and move.kind not in (MoveKind.BURN, MoveKind.BURN_HAND)
                        for move in language.moves))


def _unread_option(words: Key) -> int | None:
    """The number of "option three" / "third option", said when no numbered list is open."""
    if len(words) == 2 and words[0] == "option":
        return NUMBER_VALUES.get(words[1])
    if len(words) == 2 and words[1] == "option":
        return ORDINAL_VALUES.get(words[0])
    return None


def _option_number(words: Key, dialog: Ask) -> int | None:
    """The number a bare "three" / "option three" / "third" says, if the words are only that."""
    if len(words) == 2 and words[0] == "option":
        return NUMBER_VALUES.get(words[1])
    if len(words) == 1 and words[0] in ORDINAL_VALUES and dialog.numbered:
        return ORDINAL_VALUES[words[0]]
    if len(words) == 1:
        return NUMBER_VALUES.get(words[0])
    return None
