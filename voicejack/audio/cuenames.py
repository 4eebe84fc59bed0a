"""The names of the game's cues: one enum that the cue pack, the sonifier and every caller share.

A cue's value is also its file name in sounds/ (``<value>.wav``), so a player
replacing a sound sees the same names as ``voicejack sounds --list``. This
module imports nothing heavy, so the table can name a cue without loading
numpy or the sound card.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Cue(StrEnum):
    STEP_RED = "step-red"
    STEP_BLUE = "step-blue"
    STEP_GREEN = "step-green"
    STEP_YELLOW = "step-yellow"
    STEP_BACK = "step-back"
    CAPTURE = "capture"
    CAPTURE_OWN = "capture-own"
    SAFE = "safe"
    OUT = "out"
    BURN = "burn"
    TURNED_BACK = "turned-back"
    YOUR_TURN = "your-turn"
    DEAL = "deal"
    WIN = "win"
    SWAP = "swap"
    TICK = "tick"


# The forward step of each colour's marbles (in team play the sonifier uses the team's first colour).
STEP_BY_COLOUR: Final[dict[str, Cue]] = {
    "red": Cue.STEP_RED, "blue": Cue.STEP_BLUE, "green": Cue.STEP_GREEN, "yellow": Cue.STEP_YELLOW,
}


def cue_named(name: Cue | str) -> Cue:
    """The cue called ``name``; a ValueError listing the cues if there is none."""
    try:
        return Cue(name)
    except ValueError:
        raise ValueError(f"no cue called {name!r}; cues are: {', '.join(Cue)}") from None
