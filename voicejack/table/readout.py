"""A readout the player moves through line by line ("next", "previous", "again")."""

from __future__ import annotations

from collections.abc import Sequence

from voicejack.engine import GameState
from voicejack.engine.events import Event
from voicejack.table.messages import say

Recent = tuple[GameState, Sequence[Event]]  # the state before the last move, and that move's events


class Readout:
    """A list of lines and where the player is in it: "next", "previous", "again"."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.at = 0
        self.moved = False  # the last step reached a line (not a sentence saying there is none there)

    def start(self, lines: Sequence[str]) -> str:
        self.lines = [line for line in lines if line]
        self.at = 0
        return self.lines[0] if self.lines else ""

    def step(self, by: int) -> str:
        """The line ``by`` lines on (or back), or a sentence saying there is none there."""
        self.moved = False
        if not self.lines:
            return say("readout.none")
        target = self.at + by
        if target >= len(self.lines):
            return say("readout.end")
        if target < 0:
            return say("readout.start")
        self.at, self.moved = target, True
        return self.lines[target]
