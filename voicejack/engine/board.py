"""Colours, marbles and positions on the 76-cell track (R1, R4-R7).

Positions are small ints so the hot loops stay cheap:
  HOME (-1)             a marble waiting at home
  0 .. 75               a track cell
  SAFE_OFFSET + k       safe place k (1..4) of the marble's own colour (76..79)

A marble is identified by one int, ``colour_index * 4 + (number - 1)``, so
red 1 is 0 and yellow 4 is 15. Colour indices are fixed (red 0, blue 1,
green 2, yellow 3) for 2 and 4 players alike.
"""

from __future__ import annotations

from typing import Final

COLOURS: Final = ("red", "blue", "green", "yellow")
COLOUR_INDEX: Final = {name: index for index, name in enumerate(COLOURS)}
SEATS_FOUR: Final = ("red", "blue", "green", "yellow")
SEATS_TWO: Final = ("red", "green")

TRACK_CELLS: Final = 76
CELLS_BETWEEN_BASES: Final = 19
BASE_CELL: Final = {"red": 0, "blue": 19, "green": 38, "yellow": 57}
BASE_BY_INDEX: Final = tuple(BASE_CELL[c] for c in COLOURS)

HOME: Final = -1
SAFE_OFFSET: Final = 75
SAFE_PLACES: Final = 4
LAST_TRACK_PROGRESS: Final = 75
MAX_PROGRESS: Final = SAFE_OFFSET + SAFE_PLACES  # 79: safe place 4

MARBLES_PER_COLOUR: Final = 4
NUMBER_WORDS: Final = ("one", "two", "three", "four")


def marble_id(colour: str, number: int) -> int:
    return COLOUR_INDEX[colour] * 4 + (number - 1)


def marble_colour(marble: int) -> str:
    return COLOURS[marble >> 2]


def marble_number(marble: int) -> int:
    return (marble & 3) + 1


def marble_name(marble: int) -> str:
    """'red 1' style name, as players hear it."""
    return f"{COLOURS[marble >> 2]} {(marble & 3) + 1}"


def marble_words(marble: int) -> str:
    """'red one' style words, as used in move phrases."""
    return f"{COLOURS[marble >> 2]} {NUMBER_WORDS[marble & 3]}"


def colour_marbles(colour: str) -> range:
    start = COLOUR_INDEX[colour] * 4
    return range(start, start + 4)


def is_home(position: int) -> bool:
    return position == HOME


def is_track(position: int) -> bool:
    return 0 <= position < TRACK_CELLS


def is_safe(position: int) -> bool:
    return position > SAFE_OFFSET


def safe_place(position: int) -> int:
    """Safe place number 1..4 of a safe-zone position."""
    return position - SAFE_OFFSET


def safe_position(place: int) -> int:
    return SAFE_OFFSET + place


def progress(colour: str, position: int) -> int:
    """Steps done on the marble's road (R6): 0..75 on the track, 76..79 in the safe zone.

    Always recomputed from the cell (R7). Home has no progress (-1).
    """
    if position == HOME:
        return -1
    if position > SAFE_OFFSET:
        return position
    return (position - BASE_CELL[colour]) % TRACK_CELLS


def position_after_progress(colour: str, progress_value: int) -> int:
    """The position a marble of ``colour`` stands on at a given progress."""
    if progress_value > LAST_TRACK_PROGRESS:
        return progress_value
    return (BASE_CELL[colour] + progress_value) % TRACK_CELLS


def base_owner(cell: int) -> str | None:
    """The colour whose base is this track cell, if any."""
    for colour, base in BASE_CELL.items():
        if base == cell:
            return colour
    return None


def position_to_text(position: int) -> str:
    """Table-file spelling of a position: "home", "12" (as int elsewhere), "safe 1"."""
    if position == HOME:
        return "home"
    if position > SAFE_OFFSET:
        return f"safe {position - SAFE_OFFSET}"
    return str(position)
