"""ON11's turn timer at a server table: the server owns the clock of a person's turn.

The server cannot hear when the player's client has finished telling them
the turn (the last move, the prompt), so the clock waits for that client's
``ready``; so that no client can hold the table up, it starts anyway after
``TableTiming.ready_within`` seconds. Then, as at a local table
(voicejack/table/turn_timer.py), the seat is warned ``WARN_AT_S`` seconds
before the end and sent a tick for every second after that; when the time
is up the table burns a random card (the engine's ``time_out``).

Every message goes to the seat's own connections only: they are news for
the player who is thinking, and the burn itself reaches everyone as a move.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from typing import Any, Final

from voicejack.engine import GameState, Move, MoveKind, apply_move
from voicejack.engine import events as ev
from voicejack.engine.moves import NO_CARD
from voicejack.engine.rules import time_out

WARN_AT_S: Final = 10.0  # the warning, and a tick a second from then on (the local table's own figure)
TIME_OUT_MOVE: Final = Move(NO_CARD, MoveKind.TIME_OUT)  # its phrase, "time out", is how it is stored


def play(state: GameState, move: Move) -> list[ev.Event]:
    """Carry out a move or, for ``TIME_OUT_MOVE``, ON11's random burn: the one way a stored move is replayed."""
    return time_out(state) if move.kind is MoveKind.TIME_OUT else apply_move(state, move)


class TurnClock:
    """The clock of one turn: ``colour`` to play move ``number + 1`` within ``seconds`` once it starts."""

    def __init__(self, colour: str, number: int, seconds: int, start_within: float,
                 tell: Callable[[dict[str, Any]], None], expire: Callable[[TurnClock], None]) -> None:
        self.colour = colour
        self.number = number  # the table's move count while this turn is to be played
        self.seconds = seconds
        self._tell = tell
        self._expire = expire
        self._loop = asyncio.get_running_loop()
        self.started_at: float | None = None
        self._handles = [self._loop.call_later(start_within, self.start)]
        self.cancelled = False
        tell(self.status(start_within))

    def _message(self, event: str, **fields: Any) -> dict[str, Any]:
        return {"type": "turn_clock", "event": event, "colour": self.colour, "moves": self.number, **fields}

    @property
    def left(self) -> float:
        """Seconds left (all of them until it starts)."""
        if self.started_at is None:
            return float(self.seconds)
        return max(0.0, self.seconds - (self._loop.time() - self.started_at))

    def status(self, start_within: float | None = None) -> dict[str, Any]:
        """What a connection of the seat is told: the clock waiting for its ready, or running."""
        if self.started_at is None:
            return self._message("set", seconds=self.seconds, start_within=start_within)
        return self._message("started", seconds_left=math.ceil(self.left))

    def start(self) -> None:
        """The seat's client has told its player the turn (or it took too long to): the time runs from now."""
        if self.started_at is not None or self.cancelled:
            return
        for handle in self._handles:
            handle.cancel()
        self.started_at = self._loop.time()
        self._tell(self._message("started", seconds_left=self.seconds))
        warn_at = min(WARN_AT_S, float(self.seconds))
        later = self._loop.call_later
        self._handles = [later(self.seconds - warn_at, self._say, "warning", round(warn_at))]
        self._handles += [later(self.seconds - left, self._say, "tick", left)
                          for left in range(math.ceil(warn_at) - 1, 0, -1)]
        self._handles.append(later(self.seconds, self._run_out))

    def _say(self, event: str, seconds_left: int) -> None:
        if not self.cancelled:
            self._tell(self._message(event, seconds_left=seconds_left))

    def _run_out(self) -> None:
        if not self.cancelled:
            self._expire(self)

    def cancel(self) -> None:
        self.cancelled = True
        for handle in self._handles:
            handle.cancel()
