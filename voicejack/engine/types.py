"""Names for the engine's domain values, so signatures say what a str or an int stands for.

They are aliases, not new types: the hot loops keep working on plain ints
and strings (see board.py for how positions and marble ids are encoded).
"""

from __future__ import annotations

from typing import TypeAlias

#: "red", "blue", "green" or "yellow" (R1).
Colour: TypeAlias = str
#: A card: "A", "2" .. "10", "J", "Q", "K" (R8; suits never matter).
Rank: TypeAlias = str
#: One of the 16 marbles, 0..15; made only by board.marble_id.
MarbleId: TypeAlias = int
#: Where a marble is: HOME, a track cell 0..75, or SAFE_OFFSET + safe place 1..4.
Position: TypeAlias = int
#: A track cell, 0..75 (R4).
Cell: TypeAlias = int
