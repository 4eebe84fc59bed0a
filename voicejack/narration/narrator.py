"""The narrator: one object for everything the player hears, over the modules that each do one job.

``viewpoint`` words things for the listener ("you", "your partner",
names, marbles, places), ``options`` tells what a move would do,
``outcomes`` what a move did, ``readouts`` the board, hand, score, last
card and where a marble is, ``announcements`` the match start, the turn
prompt and the reminder on resuming, ``takeback`` what is said about
"undo". All wording is in ``catalogue.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from voicejack.engine import GameState, Move
from voicejack.engine import events as ev
from voicejack.narration.announcements import Announcements
from voicejack.narration.catalogue import ENGLISH, Catalogue
from voicejack.narration.options import OptionNarrator
from voicejack.narration.outcomes import OutcomeNarrator
from voicejack.narration.readouts import Readouts, Recent
from voicejack.narration.takeback import TakeBackNarrator
from voicejack.narration.viewpoint import Viewpoint


class Verbosity(Enum):
    FULL = "full"    # for learning: whole sentences
    BRIEF = "brief"  # for experienced players: the facts that matter, as few words as will carry them


class Narrator:
    """Turns a state, a move or the events of a move into sentences for one listener.

    ``listener`` is the colour of the person hearing (they are "you"), or
    None to name everybody (a shared screen-less table, the CLI).
    """

    def __init__(self, verbosity: Verbosity = Verbosity.FULL, catalogue: Catalogue = ENGLISH) -> None:
        self._verbosity = verbosity
        self.catalogue = catalogue
        self._view = Viewpoint(catalogue, verbosity is Verbosity.BRIEF)
        self._options = OptionNarrator(self._view)
        self._outcomes = OutcomeNarrator(self._view)
        self._readouts = Readouts(self._view, self._outcomes)
        self._announcements = Announcements(self._view, self._readouts)
        self._takeback = TakeBackNarrator(self._view)

    @property
    def verbosity(self) -> Verbosity:
        return self._verbosity

    @property
    def brief(self) -> bool:
        return self._view.brief

    def name(self, state: GameState, colour: str) -> str:
        """What a seat is called: its player's name, or its colour when nobody named it."""
        return self._view.name(state, colour)

    # Options and outcomes.

    def describe_options(self, state: GameState, listener: str) -> list[tuple[Move, str]]:
        """Every distinct legal move with its description; moves that end the same are one option."""
        return self._options.describe_options(state, listener)

    def option_groups(self, state: GameState) -> list[tuple[Move, ...]]:
        """The legal moves grouped by how they end; the first of each group is the option describe_options reads."""
        return self._options.option_groups(state)

    def describe_option(self, state: GameState, move: Move, listener: str) -> str:
        return self._options.describe_option(state, move, listener)

    def first_landing(self, state: GameState, move: Move, listener: str) -> str:
        """Where the first marble the move walks would land, e.g. "to cell 61"."""
        return self._options.first_landing(state, move, listener)

    def outcome(self, before: GameState, events: Sequence[ev.Event], after: GameState, listener: str | None) -> list[str]:
        """What the table is told after a move, one sentence per line, in the order things happened."""
        return self._outcomes.outcome(before, events, after, listener)

    # Announcements.

    def match_start(self, state: GameState, listener: str | None) -> list[str]:
        return self._announcements.match_start(state, listener)

    def rules_lines(self, state: GameState) -> list[str]:
        """The rule set and version, with what sets them apart, and the turn timer: "what are the rules"."""
        return self._announcements.rules_lines(state)

    def resume_summary(self, state: GameState, listener: str | None) -> list[str]:
        """For ``voicejack resume``: the listener's colour and partner, the version and the table kind."""
        return self._announcements.resume_summary(state, listener)

    def turn_prompt(self, state: GameState, listener: str | None) -> str:
        return self._announcements.turn_prompt(state, listener)

    # Readouts on request.

    def board_lines(self, state: GameState, listener: str | None) -> list[str]:
        """The board as lines to step through: a summary first, one line per player, last card, table and pile."""
        return self._readouts.board_lines(state, listener)

    def board(self, state: GameState, listener: str | None) -> list[str]:
        """The board readout (the same lines as ``board_lines``)."""
        return self._readouts.board_lines(state, listener)

    def player_line(self, state: GameState, colour: str, listener: str | None) -> str:
        """One player's line of the board readout."""
        return self._readouts.player_line(state, colour, listener)

    def where_is(self, state: GameState, marble: int, listener: str | None) -> str:
        return self._readouts.where_is(state, marble, listener)

    def hand(self, state: GameState, listener: str | None) -> str:
        return self._readouts.hand(state, listener)

    def score(self, state: GameState, listener: str | None) -> str:
        return self._readouts.score(state, listener)

    def last_card(self, state: GameState, listener: str | None, recent: Recent | None = None) -> str:
        """The last card; with ``recent`` (the state before it and its events) where it sent marbles."""
        return self._readouts.last_card(state, listener, recent)

    # Taking a move back ("undo").

    def undo_offer(self, first: bool, seconds: float, listening: str = "open", wake: str = "") -> str:
        """The moment before a bot plays, to say undo: a whole sentence the first time in a match, in the words
        of the microphone's ``listening`` mode ("open", "wake" with the ``wake`` word, or "push")."""
        return self._takeback.offer(first, seconds, listening, wake)

    def taken_back(self, state: GameState, colour: str, phrase: str, listener: str | None) -> str:
        """``colour``'s move (``phrase``, its notation) was taken back."""
        return self._takeback.taken_back(state, colour, phrase, listener)

    def undo_hint(self, state: GameState, colour: str, listener: str | None) -> str:
        """After the list of options: undo would take back ``colour``'s move now."""
        return self._takeback.hint(state, colour, listener)

    def undo_refusal(self, state: GameState, reason: str, colour: str | None = None) -> str:
        """Why the last move stands: ``reason`` is one of takeback.REFUSAL_REASONS, ``colour`` the seat it names."""
        return self._takeback.refusal(state, reason, colour)
