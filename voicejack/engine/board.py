"""Colours, marbles and positions on the 76-cell track (R1, R4-R7).

Positions are small ints so the hot loops stay cheap:
  HOME (-1)             a marble waiting at home
  0 .. 75               a track cell
  SAFE_OFFSET + k       safe place k (1..4) of the marble's own colour (76..79)

A marble is identified by one int made by ``marble_id`` (and only there):
red 1 is 0 and yellow 4 is 15, four ids per colour in colour order, so
``marble >> 2`` is its colour index. Colour indices are fixed (red 0,
blue 1, green 2, yellow 3) for 2 and 4 players alike.
"""

from __future__ import annotations

from typing import Final

from voicejack.engine.types import Colour, MarbleId, Position

COLOURS: Final = ("red", "blue", "green", "yellow")
COLOUR_INDEX: Final = {name: index for index, name in enumerate(COLOURS)}
SEATS_FOUR: Final = ("red", "blue", "green", "yellow")
SEATS_TWO: Final = ("red", "green")

TRACK_CELLS: Final = 76
BASE_CELL: Final = {"red": 0, "blue": 19, "green": 38, "yellow": 57}
BASE_BY_INDEX: Final = tuple(BASE_CELL[c] for c in COLOURS)

HOME: Final = -1
SAFE_OFFSET: Final = 75
SAFE_PLACES: Final = 4
MAX_PROGRESS: Final = SAFE_OFFSET + SAFE_PLACES  # 79: safe place 4

MARBLES_PER_COLOUR: Final = 4
NUMBER_WORDS: Final = ("one", "two", "three", "four")


def marble_id(colour: Colour, number: int) -> MarbleId:
    """The id of marble ``number`` (1..4) of ``colour``: the one place marble ids are made."""
    return COLOUR_INDEX[colour] * MARBLES_PER_COLOUR + (number - 1)


#: Each colour's four marble ids, by colour index (hot loops index this with ``marble >> 2``).
MARBLES_BY_INDEX: Final = tuple(range(marble_id(c, 1), marble_id(c, MARBLES_PER_COLOUR) + 1) for c in COLOURS)


#: The same as slices of the marble list: ``marbles[MARBLE_SLICES[index]]`` are one colour's four positions.
MARBLE_SLICES: Final = tuple(slice(marbles.start, marbles.stop) for marbles in MARBLES_BY_INDEX)


def colour_marbles(colour: Colour) -> range:
    """The ids of ``colour``'s four marbles, marble 1 first."""
    return MARBLES_BY_INDEX[COLOUR_INDEX[colour]]


def marble_colour(marble: MarbleId) -> Colour:
    return COLOURS[marble >> 2]


def marble_number(marble: MarbleId) -> int:
    return (marble & 3) + 1


def marble_name(marble: MarbleId) -> str:
    """'red 1' style name, as players hear it."""
    return f"{COLOURS[marble >> 2]} {(marble & 3) + 1}"


def marble_words(marble: MarbleId) -> str:
    """'red one' style words, as used in move phrases."""
    return f"{COLOURS[marble >> 2]} {NUMBER_WORDS[marble & 3]}"


def is_home(position: Position) -> bool:
    return position == HOME


def is_track(position: Position) -> bool:
    return 0 <= position < TRACK_CELLS


def is_safe(position: Position) -> bool:
    return position > SAFE_OFFSET


def safe_place(position: Position) -> int:
    """Safe place number 1..4 of a safe-zone position."""
    return position - SAFE_OFFSET


def progress(colour: Colour, position: Position) -> int:
    """Steps done on the marble's road (R6): 0..75 on the track, 76..79 in the safe zone.

    Always recomputed from the cell (R7). Home has no progress (-1).
    """
    if position == HOME:
        return -1
    if position > SAFE_OFFSET:
        return position
    return (position - BASE_CELL[colour]) % TRACK_CELLS


def position_after_progress(colour: Colour, progress_value: int) -> Position:
    """The position a marble of ``colour`` stands on at a given progress (the inverse of ``progress``)."""
    if progress_value > SAFE_OFFSET:
        return progress_value
    return (BASE_CELL[colour] + progress_value) % TRACK_CELLS


def position_to_text(position: Position) -> str:
    """Table-file spelling of a position: "home", "12" (as int elsewhere), "safe 1"."""
    if position == HOME:
        return "home"
    if position > SAFE_OFFSET:
        return f"safe {position - SAFE_OFFSET}"
    return str(position)


#: The longest forward walk of any card: the complex king's 13 (R31).
LONGEST_WALK: Final = 13


def _positions_ahead(colour_index: int, position: Position) -> tuple[Position, ...]:
    """What a marble of that colour on ``position`` steps on walking forward: step 1 first, up to 13 steps,
    never past its last safe place (R6, R7)."""
    base = BASE_BY_INDEX[colour_index]
    start = position if position > SAFE_OFFSET else (position - base) % TRACK_CELLS
    last = min(start + LONGEST_WALK, MAX_PROGRESS)
    return tuple(p if p > SAFE_OFFSET else (base + p) % TRACK_CELLS for p in range(start + 1, last + 1))


#: ``AHEAD[colour index][position]``: ``_positions_ahead`` for every track cell and safe place, made once,
#: so the walking rules step along a tuple instead of recomputing progress and cells at every step.
AHEAD: Final = tuple(
    tuple(_positions_ahead(index, position) for position in range(MAX_PROGRESS + 1)) for index in range(len(COLOURS))
)
#: ``TRACK_AHEAD[cell]``: the 13 track cells after ``cell``, for a marble pushed round the track past its own
#: base (KA10), which never turns into a safe zone.
TRACK_AHEAD: Final = tuple(
    tuple((cell + step) % TRACK_CELLS for step in range(1, LONGEST_WALK + 1)) for cell in range(TRACK_CELLS)
)
#: ``STEPS_AHEAD[colour index][position][p]``: how many steps forward position ``p`` is (1..13), for the
#: positions in ``AHEAD[colour index][position]``.
STEPS_AHEAD: Final = tuple(tuple({p: step for step, p in enumerate(ahead, 1)} for ahead in row) for row in AHEAD)
