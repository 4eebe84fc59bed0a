"""Taking back the last move at a local table: "undo", "take that back".

Every move the table plays is kept as a ``PlayedMove``: a copy of the
position before it, what it did, who decided it and how the table stood
(its turn count, the turn timer, what "last card" told). "undo" puts the
position back exactly as long as the move was a person's own choice,
nobody has acted since, it showed no new cards (a deal, R9-R10, or a card
burned at random from another hand, KA11/ON9) and it did not win the
match (R38).

Several people sharing one device cannot be told apart by voice, so at a
local table "your own move" means the last move was a human seat's and
no one has acted since; whoever says undo takes it back.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from voicejack.engine import GameState, Move
from voicejack.engine import events as ev
from voicejack.table.readout import Recent


class Decider(Enum):
    """Who decided a move: only a person's own choice can be taken back."""

    HUMAN = "human"
    BOT = "bot"
    TIMER = "timer"    # ON11: the turn timer ran out and a card was burned at random
    FORCED = "forced"  # R30: no card could move, so the whole hand went without asking


class TookBack(Exception):
    """The last move was taken back: the position is restored and saved; the loop starts that turn again."""


@dataclass(frozen=True, slots=True)
class PlayedMove:
    colour: str
    move: Move
    decider: Decider
    before: GameState           # a copy of the position just before the move
    events: tuple[ev.Event, ...]
    turns: int                  # the match's count of turns before the move
    recent: Recent | None       # what "last card" told before the move
    clock_left: float | None = None  # ON11: the seconds the mover still had on the turn timer
    after_human: str | None = None   # the human seat whose move this one came straight after


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why "undo" does nothing: a reason of narration.takeback.REFUSAL_REASONS, and the seat it names, if any."""

    reason: str
    colour: str | None = None


def why_not(last: PlayedMove | None, taken_back: bool) -> Refusal | None:
    """Why the last move cannot be taken back at a local table (None: it can)."""
    if last is None:
        return Refusal("again" if taken_back else "nothing")
    if last.decider is Decider.BOT:
        # Right after a person's move the bot's is news that it came too late; otherwise it is simply not theirs.
        return Refusal("since", last.colour) if last.after_human else Refusal("bot", last.colour)
    if last.decider is Decider.TIMER:
        return Refusal("timer")
    if last.decider is Decider.FORCED:
        return Refusal("forced")
    if any(isinstance(event, ev.Won) for event in last.events):
        return Refusal("won")  # R38
    if any(isinstance(event, ev.Dealt) for event in last.events):
        return Refusal("deal")  # R9, R10
    for event in last.events:
        if isinstance(event, ev.RandomBurn):
            return Refusal("random", event.target)  # KA11, ON9
    return None


def offers_undo(last: PlayedMove) -> bool:
    """Is this a move the table should pause after, so that its player can take it back?"""
    return why_not(last, False) is None


def restore(state: GameState, last: PlayedMove) -> None:
    """Put ``state`` back, in place, exactly as it was before ``last``; only who sits where stays as now
    (a player who left the table meanwhile stays replaced by a bot)."""
    seats = state.seats
    state.become(last.before)
    state.seats = seats
