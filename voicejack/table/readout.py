"""A readout the player moves through line by line ("next", "previous", "again")."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from voicejack.engine import GameState
from voicejack.engine.events import Event
from voicejack.table.messages import say

Recent = tuple[GameState, Sequence[Event]]  # the state before the last move, and that move's events


#: Makes a readout's lines again, for whoever asks (None: the table), from the position as it is now.
Reread = Callable[[str | None], Sequence[str]]


class Readout:
    """A list of lines and where the player is in it: "next", "previous", "again"; open from its start until
    ``close``."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.at = 0
        self._reread: Reread | None = None

    def start(self, lines: Sequence[str], reread: Reread | None = None) -> str:
        """Begin at the first line; with ``reread``, each step reads the lines again, so a list begun before
        some moves never tells the board as it was."""
        self.lines = [line for line in lines if line]
        self.at = 0
        self._reread = reread
        return self.lines[0] if self.lines else ""

    @property
    def open(self) -> bool:
        """A list is being read out, so "next" and "previous" are listened for."""
        return bool(self.lines)

    def close(self) -> None:
        """The player moved on (they played a move): the list is over, and "read the board" begins a new one."""
        self.lines = []
        self.at = 0
        self._reread = None

    def step(self, by: int, listener: str | None = None) -> tuple[str, bool]:
        """The line ``by`` lines on (or back) and True, or a sentence saying there is none there and False."""
        if self._reread is not None and self.lines:
            self.lines = [line for line in self._reread(listener) if line]
        if not self.lines:
            return say("readout.none"), False
        target = self.at + by
        if target >= len(self.lines):
            self.at = len(self.lines) - 1
            return say("readout.end"), False
        if target < 0:
            return say("readout.start"), False
        self.at = target
        return self.lines[target], True
