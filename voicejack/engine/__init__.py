"""The rules engine: pure, typed, no I/O. See shared/spec/rules.md.

    >>> from voicejack.engine import make_rules, new_game, legal_moves, play
    >>> state, _ = new_game(make_rules(players=4, teams=True), seed=7)
    >>> all(move.phrase for move in legal_moves(state))
    True
"""

from voicejack.engine.board import (
    BASE_CELL,
    COLOURS,
    HOME,
    SAFE_OFFSET,
    TRACK_CELLS,
    is_home,
    is_safe,
    is_track,
    marble_colour,
    marble_id,
    marble_name,
    marble_number,
    marble_words,
    colour_marbles,
    position_to_text,
    progress,
    safe_place,
)
from voicejack.engine.events import Event
from voicejack.engine.game import make_rules, new_game, play
from voicejack.engine.moves import IllegalMoveError, Move, MoveKind, PhraseError, PhraseSyntaxError, parse_move
from voicejack.engine.rules import (
    advance,
    apply_move,
    find_move,
    forced_burn_target,
    legal_moves,
    legal_phrases,
    mover_colour,
)
from voicejack.engine.state import GameState, LastCard, Rules, Seat, winner_from_marbles
from voicejack.engine.types import Cell, Colour, MarbleId, Position, Rank
from voicejack.engine.validity import InvalidStateError, check_state
from voicejack.engine.why import IllegalReason, Why, why_illegal

__all__ = [
    "BASE_CELL", "COLOURS", "HOME", "SAFE_OFFSET", "TRACK_CELLS",
    "Cell", "Colour", "Event", "GameState", "IllegalMoveError", "InvalidStateError", "LastCard", "MarbleId", "Move",
    "MoveKind", "PhraseError", "PhraseSyntaxError", "Position", "Rank", "Rules", "Seat",
    "advance", "apply_move", "check_state", "colour_marbles", "find_move", "forced_burn_target", "is_home", "is_safe",
    "is_track", "legal_moves", "legal_phrases", "make_rules", "marble_colour", "marble_id", "marble_name",
    "marble_number", "marble_words", "mover_colour", "new_game", "parse_move", "play", "position_to_text",
    "progress", "safe_place", "winner_from_marbles",
    "IllegalReason", "Why", "why_illegal",
]
