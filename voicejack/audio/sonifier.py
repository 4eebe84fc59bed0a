"""From engine events to a timeline of cues placed around the listener's head.

The picture the listener hears: they sit in the middle of the board facing
their partner. The 76-cell track is a circle around their head. Their own
base is behind them, the next player's base to their left, their partner's
ahead, the previous player's to their right; marbles walk clockwise seen
from above, so a marble leaving your base passes your left ear, goes round
in front of you and comes back by your right ear. Each seat's sounds
(burns, deals, announcements) come from that seat's direction.

With two players the whole circle is turned 45 degrees: the opponent sits
ahead-right and your own base behind-left. Straight ahead would put the
opponent's voice in the middle, where your own game's voice is, so their
news would not sound placed at all.

A walk is one step cue per cell, at a pace the ear can count (seven a
second by default); the step cue is chosen by the walking marble's colour
(one per team in team play, one per player otherwise), backward steps have
their own cue, and each step sounds at the azimuth of the cell stepped on.
Nothing here recomputes rules: everything comes from the events, and the
events are the one source of the "your turn" cue (a TurnPassed to the
listener) and of the win cue (Won): the table does not play them itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from voicejack.audio.cuenames import STEP_BY_COLOUR, Cue
from voicejack.audio.spatial import wrap_azimuth
from voicejack.engine import events as ev
from voicejack.engine.board import BASE_CELL, HOME, SAFE_OFFSET, TRACK_CELLS, marble_colour
from voicejack.engine.state import GameState, Rules

DEFAULT_STEPS_PER_SECOND: Final = 7.0
_DEGREES_PER_CELL: Final = 360.0 / TRACK_CELLS
TWO_PLAYER_TURN_DEG: Final = 45.0

# How long after a cue the next event's sound may start (seconds): enough not to mask it.
_AFTER: Final[dict[Cue, float]] = {
    Cue.OUT: 0.3, Cue.CAPTURE: 0.4, Cue.CAPTURE_OWN: 0.5, Cue.SAFE: 0.45, Cue.BURN: 0.45,
    Cue.SWAP: 0.45, Cue.DEAL: 0.4, Cue.WIN: 1.0, Cue.YOUR_TURN: 0.5,
}


@dataclass(frozen=True, slots=True)
class ScheduledCue:
    at: float        # seconds after the first event
    cue: Cue
    azimuth: float   # degrees: 0 ahead, +90 right, -90 left, 180 behind
    gain: float = 1.0


class Sonifier:
    def __init__(self, listener: str | None, rules: Rules, steps_per_second: float = DEFAULT_STEPS_PER_SECOND) -> None:
        """``listener`` is the colour whose ears we render for (None: a spectator in the first seat)."""
        if steps_per_second <= 0:
            raise ValueError("steps_per_second must be positive")
        self.rules = rules
        self.listener = listener if listener is not None else rules.seats[0]
        if self.listener not in rules.seats:
            raise ValueError(f"{self.listener} is not seated at this table ({', '.join(rules.seats)})")
        self.steps_per_second = steps_per_second
        self._turn = TWO_PLAYER_TURN_DEG if len(rules.seats) == 2 else 0.0

    @property
    def step_interval(self) -> float:
        return 1.0 / self.steps_per_second

    # Geometry.

    def cell_azimuth(self, cell: float) -> float:
        """Azimuth of a track cell (fractions allowed): own base behind, the circle running clockwise."""
        return wrap_azimuth(180.0 + self._turn + (cell - BASE_CELL[self.listener]) * _DEGREES_PER_CELL)

    def position_azimuth(self, position: int, colour: str) -> float:
        """Azimuth of any position of a ``colour`` marble: safe places sit just inside that colour's base."""
        if position == HOME:
            return self.cell_azimuth(BASE_CELL[colour])
        if position > SAFE_OFFSET:
            return self.cell_azimuth(BASE_CELL[colour] - 0.5)
        return self.cell_azimuth(position)

    def seat_azimuth(self, colour: str) -> float:
        """Where a player sits: the direction of their base (your own seat is behind you, or behind-left)."""
        return self.cell_azimuth(BASE_CELL[colour])

    # Identity.

    def step_cue(self, marble: int) -> Cue:
        """One step sound per team in team play, per player otherwise."""
        colour = marble_colour(marble)
        if self.rules.teams:
            colour = self.rules.team_of(colour)[0]
        return STEP_BY_COLOUR[colour]

    def is_ours(self, marble: int) -> bool:
        """The listener's or their partner's marble."""
        return marble_colour(marble) in self.rules.team_of(self.listener)

    # Events to Cue.

    def timeline(self, events: Iterable[ev.Event], state_before: GameState | None = None) -> list[ScheduledCue]:
        """The cues for one move's events, in time order. ``state_before`` only lends its rules if given."""
        if state_before is not None and state_before.rules != self.rules:
            return Sonifier(self.listener, state_before.rules, self.steps_per_second).timeline(events)
        out: list[ScheduledCue] = []
        clock = 0.0
        walk_times: dict[int, float] = {}   # position -> when the last walk stepped there (for sweeps)
        for event in events:
            clock = self._event(event, clock, out, walk_times)
        out.sort(key=lambda cue: cue.at)
        return out

    def _event(self, event: ev.Event, clock: float, out: list[ScheduledCue], walk_times: dict[int, float]) -> float:
        def add(at: float, cue: Cue, azimuth: float, gain: float = 1.0) -> None:
            out.append(ScheduledCue(round(at, 6), cue, round(azimuth, 3), gain))

        match event:
            case ev.MarbleCameOut(marble=marble, cell=cell):
                add(clock, Cue.OUT, self.cell_azimuth(cell))
                return clock + _AFTER[Cue.OUT]
            case ev.MarbleWalked(marble=marble, path=path, backward=backward):
                colour = marble_colour(marble)
                cue = Cue.STEP_BACK if backward else self.step_cue(marble)
                walk_times.clear()
                for index, position in enumerate(path):
                    at = clock + index * self.step_interval
                    add(at, cue, self.position_azimuth(position, colour))
                    walk_times[position] = at
                return clock + len(path) * self.step_interval
            case ev.MarbleCaptured(marble=marble, position=position, how=how):
                cue = Cue.CAPTURE_OWN if self.is_ours(marble) else Cue.CAPTURE
                if how == "swept" and position in walk_times:
                    add(walk_times[position], cue, self.cell_azimuth(position))
                    return clock
                add(clock, cue, self.cell_azimuth(position))
                return clock + _AFTER[cue]
            case ev.MarblesSwapped(marble_from=marble_from, other_from=other_from):
                add(clock, Cue.SWAP, self.cell_azimuth(marble_from), 0.8)
                add(clock + 0.12, Cue.SWAP, self.cell_azimuth(other_from), 0.8)
                return clock + 0.12 + _AFTER[Cue.SWAP]
            case ev.EnteredSafeZone(marble=marble, place=place):
                add(clock, Cue.SAFE, self.position_azimuth(SAFE_OFFSET + place, marble_colour(marble)))
                return clock + _AFTER[Cue.SAFE]
            case ev.CardBurned(colour=colour) | ev.HandBurned(colour=colour):
                add(clock, Cue.BURN, self.seat_azimuth(colour))
                return clock + _AFTER[Cue.BURN]
            case ev.Dealt(dealer=dealer):
                add(clock, Cue.DEAL, self.seat_azimuth(dealer))
                return clock + _AFTER[Cue.DEAL]
            case ev.TurnPassed(colour=colour) if colour == self.listener:
                add(clock, Cue.YOUR_TURN, 0.0)
                return clock + _AFTER[Cue.YOUR_TURN]
            case ev.Won():
                add(clock, Cue.WIN, 0.0)
                return clock + _AFTER[Cue.WIN]
            case _:
                # CardPlayed, BurnForced, PlayerFinished, Reshuffled, others' TurnPassed: spoken, not sounded.
                return clock


__all__ = ["DEFAULT_STEPS_PER_SECOND", "ScheduledCue", "Sonifier"]
