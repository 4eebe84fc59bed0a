"""What is said about taking a move back ("undo"): the moment offered before a bot plays, the news that a
move was taken back, the hint in the list of options, and why a move stands."""

from __future__ import annotations

from typing import Final

from voicejack.engine import GameState
from voicejack.narration.viewpoint import Viewpoint

#: Why a move cannot be taken back; each is the template "undo.<reason>". Those marked True name a seat.
REFUSAL_REASONS: Final[dict[str, bool]] = {
    "nothing": False,  # no move yet (or none since the match was resumed)
    "again": False,    # the last move was taken back already
    "bot": True,       # a bot's move, not the player's
    "since": True,     # the next seat has played since
    "timer": False,    # ON11: the turn timer burned the card
    "forced": False,   # R30: the hand was burned for want of a move
    "won": False,      # R38
    "deal": False,     # R9, R10: new cards were dealt
    "random": True,    # KA11, ON9: a card of that seat's hand was burned at random
}


class TakeBackNarrator:
    def __init__(self, view: Viewpoint) -> None:
        self._view = view

    def offer(self, first: bool, seconds: float, listening: str = "open", wake: str = "") -> str:
        """The pause before a bot plays: a whole sentence the first time in a match, a word afterwards. The
        sentence says what to do in the microphone's ``listening`` mode (open, wake or push; ``wake`` is the
        wake word): in wake mode "take that back" alone is ignored, so the player is told to say the wake word."""
        how = self._view.text(f"undo.how.{listening}", wake=wake)
        return self._view.say("undo.offer.first" if first else "undo.offer", seconds=f"{seconds:g}", how=how)

    def taken_back(self, state: GameState, colour: str, phrase: str, listener: str | None) -> str:
        """``colour``'s move, said as ``phrase`` (the move notation), was taken back."""
        if colour == listener:
            return self._view.say("undo.done.you", phrase=phrase)
        return self._view.say("undo.done", player=self._view.player_poss(state, colour, listener), phrase=phrase)

    def hint(self, state: GameState, colour: str, listener: str | None) -> str:
        """After the list of options: undo would take back ``colour``'s move now."""
        return self._view.say("undo.hint", player=self._view.player_poss(state, colour, listener))

    def refusal(self, state: GameState, reason: str, colour: str | None) -> str:
        """Why the last move stands (``reason`` one of REFUSAL_REASONS; ``colour`` the seat it names)."""
        if REFUSAL_REASONS[reason]:
            if colour is None:
                raise ValueError(f"the refusal {reason!r} names a seat")
            name = self._view.name(state, colour)
            return self._view.say(f"undo.{reason}", name=name, player=self._view.catalogue.possessive(name))
        return self._view.say(f"undo.{reason}")
