"""Walking, bringing out and swapping: the movement rules of every rule set (R16-R27, KA5-KA12, ON4-ON10).

The hot paths work on the state's int lists directly; see board.py for the
encoding. VoiceJack's own rules (R22, R24) keep their fast functions
(``_reach``, ``_walk_backward``, ``_out_capture``, ``_swappable``); the house
sets' walks are the ``_house_*`` functions, parametrised by the rule set's
fields. ``movement(book)`` picks the set a rule set uses, once per rule set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from voicejack.engine.board import (
    AHEAD,
    BASE_BY_INDEX,
    TRACK_AHEAD,
    COLOUR_INDEX,
    COLOURS,
    HOME,
    MARBLE_SLICES,
    MARBLES_BY_INDEX,
    MAX_PROGRESS,
    SAFE_OFFSET,
)
from voicejack.engine.cards import SWEEP_STEPS
from voicejack.engine.rulesets import GoalEntrance, Passing, RuleSet, Walls
from voicejack.engine.state import GameState
from voicejack.engine.types import MarbleId, Position

#: A walk: the positions stepped on in order (the last is where it stops), and the marbles it sends home.
Walk = tuple[Sequence[Position], list[MarbleId]]


# --------------------------------------------------------------------------
# Walking (R21-R27)


def _walk_forward(state: GameState, marble: MarbleId, steps: int) -> Walk | None:
    """The path of ``marble`` walking ``steps`` forward, or None if a movement rule forbids it."""
    if not _reach(state, marble, steps) >> steps & 1:
        return None
    return _forward_path(state, marble, steps)


def _forward_path(state: GameState, marble: MarbleId, steps: int) -> Walk:
    """The positions a legal forward walk steps on, and the marble it lands on (R26), if any."""
    path = AHEAD[marble >> 2][state.marbles[marble]][:steps]
    end = path[-1]
    landed_on = state.board[end] if end <= SAFE_OFFSET else -1
    return path, [landed_on] if landed_on >= 0 else []


def _reach(state: GameState, marble: MarbleId, limit: int = SWEEP_STEPS) -> int:
    """Every forward walk ``marble`` may make, in one pass: bit k is set when walking k steps (1..limit) is legal.

    This is where the movement rules R21-R27 are judged for every forward
    walk; legal-move generation asks it once per marble, not once per card.
    The walks allowed are always 1..k for some k (a rule that stops one
    walk stops every longer one), so the mask is made from k at the end.
    """
    marbles = state.marbles
    position = marbles[marble]
    if position == HOME:
        return 0
    board = state.board
    colour_index = marble >> 2
    steps = 0
    for cell in AHEAD[colour_index][position][:limit]:
        if cell > SAFE_OFFSET:
            if cell in marbles[MARBLE_SLICES[colour_index]]:
                break
        else:
            occupant = board[cell]
            if occupant >= 0:
                if cell == BASE_BY_INDEX[occupant >> 2]:
                    break
                behind = board[cell - 1]
                if behind >= 0 and behind != marble:
                    break
                if occupant >> 2 == colour_index:
                    steps += 1  # landing captures, even on the mover's own colour (R22, R26), but never passes it
                    break
        steps += 1
    return (2 << steps) - 2


def _walk_backward(state: GameState, marble: MarbleId, steps: int) -> Walk | None:
    """The 4 (R16): track marbles only, over the same rules walking backwards."""
    board = state.board
    position = state.marbles[marble]
    if not 0 <= position < 76:
        return None
    colour_index = marble >> 2
    path: list[Position] = []
    captured: list[MarbleId] = []
    for step in range(1, steps + 1):
        cell = (position - step) % 76
        occupant = board[cell]
        if occupant >= 0:
            if cell == BASE_BY_INDEX[occupant >> 2]:
                return None
            behind = board[cell - 1]
            if behind >= 0 and behind != marble:
                return None
            if step != steps:
                if occupant >> 2 == colour_index:
                    return None
            else:
                captured.append(occupant)
        path.append(cell)
    return path, captured


def _sweep(state: GameState, marble: MarbleId) -> Walk | None:
    """Complex king (R31-R33): 13 forward, sending home everything passed or landed on."""
    marbles = state.marbles
    board = state.board
    position = marbles[marble]
    if not 0 <= position < 76:
        return None
    colour_index = marble >> 2
    base = BASE_BY_INDEX[colour_index]
    start = (position - base) % 76
    target = start + SWEEP_STEPS
    if target > MAX_PROGRESS:
        return None
    own = marbles[MARBLE_SLICES[colour_index]]
    path: list[Position] = []
    captured: list[MarbleId] = []
    for progress in range(start + 1, target + 1):
        if progress > SAFE_OFFSET:
            if progress in own:
                return None
            path.append(progress)
            continue
        cell = (base + progress) % 76
        occupant = board[cell]
        if occupant >= 0:
            if cell == BASE_BY_INDEX[occupant >> 2]:
                return None
            captured.append(occupant)
        path.append(cell)
    return path, captured


def _out_capture(state: GameState, colour_index: int) -> tuple[MarbleId, MarbleId] | None:
    """Bringing out (R20): (marble coming out, marble captured or -1), or None."""
    marbles = state.marbles
    for marble in MARBLES_BY_INDEX[colour_index]:
        if marbles[marble] == HOME:
            break
    else:
        return None
    base = BASE_BY_INDEX[colour_index]
    occupant = state.board[base]
    if occupant < 0:
        return marble, -1
    if occupant >> 2 == colour_index:
        return None
    if state.board[base - 1] >= 0:  # the occupant is a wall's front marble (R24, R27)
        return None
    return marble, occupant


def _swappable(state: GameState, marble: MarbleId, other: MarbleId) -> bool:
    """R18: both on the track, neither on its own base, neither wall-protected without the pair."""
    board = state.board
    for subject in (marble, other):
        cell = state.marbles[subject]
        if not 0 <= cell < 76 or cell == BASE_BY_INDEX[subject >> 2]:
            return False
        behind = board[cell - 1]
        if behind >= 0 and behind != marble and behind != other:
            return False
    return True


# --------------------------------------------------------------------------
# Making and unmaking a walk on the board


def _place(
    state: GameState, marble: MarbleId, path: Sequence[Position], captured: list[MarbleId],
) -> tuple[Position, list[tuple[MarbleId, Position]]]:
    """Move ``marble`` to the end of ``path`` and send ``captured`` home. Returns undo data."""
    marbles = state.marbles
    board = state.board
    undo = [(c, marbles[c]) for c in captured]
    for c in captured:
        cell = marbles[c]
        if 0 <= cell < 76 and board[cell] == c:
            board[cell] = -1
        marbles[c] = HOME
    start = marbles[marble]
    if 0 <= start < 76:
        board[start] = -1
    end = path[-1]
    marbles[marble] = end
    if end <= SAFE_OFFSET:
        board[end] = marble
    return start, undo


def _unplace(state: GameState, marble: MarbleId, start: Position, undo: list[tuple[MarbleId, Position]]) -> None:
    marbles = state.marbles
    board = state.board
    end = marbles[marble]
    if end <= SAFE_OFFSET:
        board[end] = -1
    marbles[marble] = start
    if 0 <= start < 76:
        board[start] = marble
    for c, position in undo:
        marbles[c] = position
        if 0 <= position < 76:
            board[position] = c


# --------------------------------------------------------------------------
# The house rule sets' walks (KA5, KA6, KA10; ON4, ON5, ON8)


def _team_indices(state: GameState, colour_index: int) -> tuple[int, ...]:
    return tuple(COLOUR_INDEX[c] for c in state.rules.team_of(COLOURS[colour_index]))


def _guards_wall(board: list[MarbleId], cell: int, occupant: MarbleId, walker_index: int, ignored: MarbleId) -> bool:
    """ON5: ``occupant`` on ``cell`` is a wall front of another colour than the walker's."""
    behind = board[cell - 1]
    return behind >= 0 and behind != ignored and behind >> 2 == occupant >> 2 != walker_index


def _house_reach(
    state: GameState, marble: MarbleId, limit: int = SWEEP_STEPS, *,
    own_blocks: bool, same_colour_walls: bool, guarded_entrance: bool,
    passes_all: bool = False, track_only: bool = False,
) -> int:
    """Every forward walk ``marble`` may make under a house rule set, as a bit mask like ``_reach``.

    ``own_blocks``: KA5, the own colour can be neither passed nor landed on.
    ``same_colour_walls``: ON5. ``guarded_entrance``: KA6. ``passes_all``:
    the Karooty 5 (KA10), which passes anything not on its own base.
    ``track_only``: a pushed opponent (KA10) goes on past its own base.
    """
    marbles = state.marbles
    board = state.board
    position = marbles[marble]
    if position == HOME:
        return 0
    colour_index = marble >> 2
    base = BASE_BY_INDEX[colour_index]
    ahead = TRACK_AHEAD[position] if track_only else AHEAD[colour_index][position]
    steps = 0
    for cell in ahead[:limit]:
        if cell > SAFE_OFFSET:
            if cell == SAFE_OFFSET + 1 and guarded_entrance:
                guard = board[base - 1]
                if guard >= 0 and guard != marble and guard >> 2 not in _team_indices(state, colour_index):
                    break  # KA6: the other team stands on the goal entrance
            if cell in marbles[MARBLE_SLICES[colour_index]]:
                break
        else:
            occupant = board[cell]
            if occupant >= 0:
                occupant_index = occupant >> 2
                if cell == BASE_BY_INDEX[occupant_index]:
                    break
                if same_colour_walls and _guards_wall(board, cell, occupant, colour_index, marble):
                    break
                if own_blocks and not passes_all and occupant_index == colour_index:
                    break
        steps += 1
    return (2 << steps) - 2  # the walks 1..steps, as in _reach


def track_path(state: GameState, marble: MarbleId, steps: int) -> Walk:
    """KA10: a pushed opponent's path along the track only, past its own base; progress is recomputed (R7)."""
    position = state.marbles[marble]
    path: list[Position] = [(position + step) % 76 for step in range(1, steps + 1)]
    landed_on = state.board[path[-1]]
    return path, [landed_on] if landed_on >= 0 else []


def _house_backward(
    state: GameState, marble: MarbleId, steps: int, *, own_blocks: bool, same_colour_walls: bool,
) -> Walk | None:
    """The 4 (R16) under KA5 or ON4-ON5."""
    board = state.board
    position = state.marbles[marble]
    if not 0 <= position < 76:
        return None
    colour_index = marble >> 2
    path: list[Position] = []
    captured: list[MarbleId] = []
    for step in range(1, steps + 1):
        cell = (position - step) % 76
        occupant = board[cell]
        if occupant >= 0:
            if cell == BASE_BY_INDEX[occupant >> 2]:
                return None
            if same_colour_walls and _guards_wall(board, cell, occupant, colour_index, marble):
                return None
            if own_blocks and occupant >> 2 == colour_index:
                return None
            if step == steps:
                captured.append(occupant)
        path.append(cell)
    return path, captured


def _house_out(state: GameState, colour_index: int, *, same_colour_walls: bool) -> tuple[MarbleId, MarbleId] | None:
    """Bringing out (R20, KA8, ON6): only the own colour on the base, or another colour's wall front, bars it."""
    marbles = state.marbles
    for marble in MARBLES_BY_INDEX[colour_index]:
        if marbles[marble] == HOME:
            break
    else:
        return None
    base = BASE_BY_INDEX[colour_index]
    occupant = state.board[base]
    if occupant < 0:
        return marble, -1
    if occupant >> 2 == colour_index:
        return None
    if same_colour_walls and _guards_wall(state.board, base, occupant, colour_index, marble):
        return None
    return marble, occupant


def _house_swappable(state: GameState, marble: MarbleId, other: MarbleId, *, same_colour_walls: bool) -> bool:
    """KA12, ON10: both on the track, neither on its own base, (ON) neither a wall front without the pair."""
    board = state.board
    for subject in (marble, other):
        cell = state.marbles[subject]
        if not 0 <= cell < 76 or cell == BASE_BY_INDEX[subject >> 2]:
            return False
        if same_colour_walls:
            behind = board[cell - 1]
            if behind >= 0 and behind != marble and behind != other and behind >> 2 == subject >> 2:
                return False
    return True


# --------------------------------------------------------------------------
# Choosing a rule set's walks


class Movement(NamedTuple):
    """The walking functions one rule set uses."""

    reach: Callable[[GameState, MarbleId, int], int]
    backward: Callable[[GameState, MarbleId, int], Walk | None]
    out: Callable[[GameState, int], tuple[MarbleId, MarbleId] | None]
    swappable: Callable[[GameState, MarbleId, MarbleId], bool]
    #: KA10: the 5's walk of a marble of the mover's team, which passes everything but own bases.
    five_reach: Callable[[GameState, MarbleId, int], int]
    #: KA10: the 5 pushing an opponent, along the track past its own base.
    opponent_five_reach: Callable[[GameState, MarbleId, int], int]


def _make_movement(book: RuleSet) -> Movement:
    if book.passing is Passing.OWN_COLOUR_LANDS and book.walls is Walls.ANY_COLOUR:
        return Movement(_reach, _walk_backward, _out_capture, _swappable, _reach, _reach)
    own_blocks = book.passing is Passing.OWN_COLOUR_BLOCKS
    same = book.walls is Walls.SAME_COLOUR
    guarded = book.goal_entrance is GoalEntrance.GUARDED

    # Closures rather than functools.partial: a partial with keywords costs five times a plain call, and
    # the reach is asked several times a move.
    def reach(state: GameState, marble: MarbleId, limit: int) -> int:
        return _house_reach(
            state, marble, limit, own_blocks=own_blocks, same_colour_walls=same, guarded_entrance=guarded,
        )

    def five_reach(state: GameState, marble: MarbleId, limit: int) -> int:
        return _house_reach(
            state, marble, limit, own_blocks=own_blocks, same_colour_walls=same, guarded_entrance=guarded,
            passes_all=True,
        )

    def opponent_five_reach(state: GameState, marble: MarbleId, limit: int) -> int:
        return _house_reach(
            state, marble, limit, own_blocks=own_blocks, same_colour_walls=same, guarded_entrance=guarded,
            passes_all=True, track_only=True,
        )

    def backward(state: GameState, marble: MarbleId, steps: int) -> Walk | None:
        return _house_backward(state, marble, steps, own_blocks=own_blocks, same_colour_walls=same)

    def out(state: GameState, colour_index: int) -> tuple[MarbleId, MarbleId] | None:
        return _house_out(state, colour_index, same_colour_walls=same)

    def swappable(state: GameState, marble: MarbleId, other: MarbleId) -> bool:
        return _house_swappable(state, marble, other, same_colour_walls=same)

    return Movement(reach, backward, out, swappable, five_reach, opponent_five_reach)


_MOVEMENTS: dict[RuleSet, Movement] = {}


def movement(book: RuleSet) -> Movement:
    """The walking functions of ``book``, made once per rule set."""
    found = _MOVEMENTS.get(book)
    if found is None:
        found = _MOVEMENTS[book] = _make_movement(book)
    return found
