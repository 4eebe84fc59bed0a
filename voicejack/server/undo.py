"""Taking back a move at a server table ("undo"): the server knows which seat asked.

Only the asking seat's own last move can be taken back: one its player sent
(not a turn a bot played for them, nor a hand burned for want of a move,
R30), that is still the last move at the table (the next seat has not
acted), that showed no new cards (a deal, R9-R10, or a card burned at
random, KA11/ON9) and that did not win the match (R38), nor a turn the
clock ran out on (ON11).

The moment to say it: after such a move, when a bot is next, the server
offers the mover a pause (``undo_offer``) as long as their client asked
for with the move (at most ``TableTiming.undo_limit``). It starts once the
client says the offer has been spoken (``ready``), or after
``TableTiming.ready_within`` anyway; the bot plays when it is over. A
client that asks for none gets the bot's usual pause (``bot_delay``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from voicejack.engine import GameState
from voicejack.engine import events as ev

REFUSED = "cannot_undo"  # the error code of every refusal below (docs/protocol.md)


class Mover(Enum):
    PLAYER = "player"        # the seat's player sent the move
    BOT = "bot"              # a bot played it (a bot's seat, or a turn played for a silent or absent player)
    AUTOMATIC = "automatic"  # R30: no card could move, so the whole hand went without asking
    TIMER = "timer"          # ON11: the turn's time ran out and a card was burned at random


@dataclass(frozen=True, slots=True)
class LastMove:
    colour: str
    phrase: str
    number: int                     # the move's number at the table (1-based)
    mover: Mover
    before: GameState               # the whole table before it, generator included
    events: tuple[ev.Event, ...]
    after_own_move_of: str | None   # the seat whose player's own move came just before this one
    clock_left: float | None = None  # ON11: the seconds the mover still had; taking it back gives them back


@dataclass
class UndoPause:
    """The mover's moment to take back move ``number`` before the bot plays: ``seconds`` from their ready."""

    colour: str
    number: int
    seconds: float
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    def offer(self) -> dict[str, object]:
        return {"type": "undo_offer", "colour": self.colour, "moves": self.number, "seconds": self.seconds}

    async def wait(self, ready_within: float) -> None:
        try:
            await asyncio.wait_for(self.ready.wait(), ready_within)
        except TimeoutError:
            pass  # the client never said it had spoken the offer: the pause runs anyway
        await asyncio.sleep(self.seconds)


def why_not(last: LastMove | None, colour: str, taken_back: bool, name: Callable[[str], str]) -> str | None:
    """Why ``colour`` cannot take back the table's last move, as a sentence; None when it can."""
    if last is None:
        if taken_back:
            return "that move has already been taken back; only the last move can be, and only once"
        return "there is no move to take back"
    if last.colour != colour:
        if last.after_own_move_of == colour:
            return f"{name(last.colour)} has played since, so it is too late to take your move back"
        return f"that was {name(last.colour)}'s move; only your own last move can be taken back"
    if last.mover is Mover.AUTOMATIC:
        return "that hand was burned because no card could move, so there is nothing to take back"
    if last.mover is Mover.TIMER:
        return "the turn timer burned that card, not you: a timed-out turn cannot be taken back"
    if last.mover is Mover.BOT:
        return "a bot played that turn for you, so it cannot be taken back"
    if any(isinstance(event, ev.Won) for event in last.events):
        return "that move won the match; a winning move cannot be taken back"
    if any(isinstance(event, ev.Dealt) for event in last.events):
        return "that move ended the deal and new cards were dealt, so it cannot be taken back"
    if any(isinstance(event, ev.RandomBurn) for event in last.events):
        return "that ten burned a card at random for everyone to hear, so it cannot be taken back"
    return None
