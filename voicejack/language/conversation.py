"""Keeping the pending question between utterances, the way a table does."""

from __future__ import annotations

from voicejack.engine import GameState, Move
from voicejack.hearing import Grammar, Heard
from voicejack.language.resolution import Ask, Command, CommandName, Confirm, Dialog, Resolution
from voicejack.language.resolver import Resolver

#: Commands after which the pending question is dropped.
DROPS_DIALOG = frozenset({CommandName.CANCEL, CommandName.NO})


class Conversation:
    """One seat's side of the dialog: remembers the pending Ask/Confirm.

    A question or confirmation becomes pending; a move, "cancel" or "no"
    clears it ("no" to "option two?" goes back to the options); other commands ("read the board", "repeat") and "not
    understood" leave it pending so the player can simply answer again.
    """

    def __init__(self, seat: str, resolver: Resolver | None = None) -> None:
        self.seat = seat
        self.resolver = resolver or Resolver()
        self.pending: Dialog = None

    def grammar(self, state: GameState, listing: bool = False) -> Grammar:
        """What to listen for now; ``listing``: the table is reading out a list ("next", "previous")."""
        return self.resolver.phrase_set(state, self.seat, self.pending, listing)

    def hear(self, state: GameState, heard: Heard | str) -> Resolution:
        confirming = self.pending.move if isinstance(self.pending, Confirm) else None
        back = self.pending.back if isinstance(self.pending, Confirm) else None
        result = self.resolver.resolve(state, self.seat, heard, self.pending)
        if isinstance(result, (Ask, Confirm)):
            self.pending = result
        elif isinstance(result, Move):
            self.pending = None
        elif isinstance(result, Command) and (result.name in DROPS_DIALOG or result == confirming):
            self.pending = None  # "cancel", "no", or the command asked about (quit, leave, one heard unsure)
            if result.name is CommandName.NO and back is not None:
                self.pending = back  # not that option: the question it came from is open again
        return result

    def reset(self) -> None:
        self.pending = None
