"""ON11's turn timer at the table: a clock for one human turn that runs only while the game is silent.

The clock counts the time a player has to think, so it stands still while
the game itself is speaking to them (the prompt, an answer, the warning).
In the last ``WARN_AT_S`` seconds it asks for a spoken warning once and a
soft tick every second; when it runs out the table burns a random card
(engine ``time_out``).
"""

from __future__ import annotations

from enum import Enum
from typing import Final

WARN_AT_S: Final = 10.0   # the spoken warning, and the ticks from then on
POLL_S: Final = 0.2       # how often the clock looks at the input and the speech


class Signal(Enum):
    WARN = "warn"   # "10 seconds left."
    TICK = "tick"   # one soft tick


class TurnTimer:
    def __init__(self, seconds: float) -> None:
        self.left = float(seconds)
        self._warned = False
        self._next_tick = min(WARN_AT_S, self.left) - 1.0

    @property
    def expired(self) -> bool:
        return self.left <= 0.0

    def wait(self, other: float | None) -> float:
        """How long to listen before looking at the clock again (``other``: another deadline, or None)."""
        return POLL_S if other is None else max(0.0, min(other, POLL_S))

    def advance(self, elapsed: float, speaking: bool) -> list[Signal]:
        """``elapsed`` seconds went by; they count unless the game was speaking. What the table should do now."""
        if speaking or elapsed <= 0:
            return []
        self.left -= elapsed
        signals: list[Signal] = []
        if not self._warned and self.left <= WARN_AT_S and not self.expired:
            self._warned = True
            signals.append(Signal.WARN)
        while self._warned and self.left <= self._next_tick and self._next_tick > 0:
            self._next_tick -= 1.0
            signals.append(Signal.TICK)
        return signals

    @property
    def seconds_left(self) -> int:
        return max(0, round(self.left))
