"""The listener's point of view: who is "you", "your partner" or a name, and how marbles and places are called.

Every other narration module words its sentences through one ``Viewpoint``:
it holds the catalogue and the verbosity, so no module formats a template
or picks a form itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from voicejack.engine import GameState, marble_colour, marble_number
from voicejack.engine.board import SAFE_OFFSET
from voicejack.narration.catalogue import Catalogue
from voicejack.narration.facts import Relation, base_owner, hand_order, is_safe, neighbours, relation


class Viewpoint:
    """Wording for one catalogue and one verbosity; ``listener`` (a colour, or None for nobody) is passed per call."""

    def __init__(self, catalogue: Catalogue, brief: bool) -> None:
        self.catalogue = catalogue
        self.brief = brief

    # ------------------------------------------------------------ templates

    def text(self, key: str, **fields: object) -> str:
        """A fragment in the chosen form."""
        return self.catalogue.text(key, self.brief, **fields)

    def say(self, key: str, **fields: object) -> str:
        """A whole sentence: capital first letter."""
        return self.catalogue.sentence(self.text(key, **fields))

    def cards(self, ranks: Sequence[str]) -> str:
        return self.catalogue.cards(hand_order(ranks), self.brief)

    def steps(self, n: int) -> str:
        return self.catalogue.steps(n, self.brief)

    def cells(self, n: int) -> str:
        return self.catalogue.cells(n, self.brief)

    def card_title(self, rank: str) -> str:
        return self.catalogue.sentence(self.catalogue.card(rank))

    # --------------------------------------------------------------- people

    def name(self, state: GameState, colour: str) -> str:
        """What a seat is called: its player's name, or its colour when nobody named it."""
        return state.seat(colour).name.strip() if self.named(state, colour) else self.catalogue.default_name(colour)

    def named(self, state: GameState, colour: str) -> bool:
        """Whether the seat has a name of its own, not just its colour (or a pronoun)."""
        given = state.seat(colour).name.strip().lower()
        return given not in ("", colour, self.catalogue.colour(colour).lower()) and given not in self.catalogue.pronoun_names

    def player(self, state: GameState, colour: str, listener: str | None) -> str:
        return self.text("you") if colour == listener else self.name(state, colour)

    def player_poss(self, state: GameState, colour: str, listener: str | None) -> str:
        return self.text("your") if colour == listener else self.catalogue.possessive(self.name(state, colour))

    def person(self, state: GameState, colour: str, listener: str | None) -> str:
        """A player, with the partner said as such: 'your partner Green'."""
        if relation(state, colour, listener) is Relation.PARTNER:
            return self.text("player.partner", name=self.name(state, colour))
        return self.player(state, colour, listener)

    def team(self, state: GameState, team: Sequence[str], listener: str | None) -> str:
        """'you and Green', the listener first."""
        ordered = sorted(team, key=lambda c: c != listener)
        return self.text("team", first=self.player(state, ordered[0], listener), second=self.player(state, ordered[1], listener))

    def seats_from(self, state: GameState, listener: str | None) -> list[str]:
        """Turn order (R12, KA2) starting from the listener (from the first seat with no listener)."""
        seats = list(state.rules.order)
        if listener in seats:
            start = seats.index(listener)
            return seats[start:] + seats[:start]
        return seats

    def won(self, state: GameState, colours: Sequence[str], listener: str | None, over: bool) -> str:
        """Who won: as news ("Red wins the match.") or, with ``over``, as the state of a finished table."""
        prefix = "over" if over else "out.won"
        if len(colours) == 1:
            if colours[0] == listener:
                return self.say(f"{prefix}.solo.you")
            return self.say(f"{prefix}.solo", player=self.name(state, colours[0]))
        if listener in colours:
            partner = next(c for c in colours if c != listener)
            return self.say(f"{prefix}.team.you", partner=self.name(state, partner))
        return self.say(f"{prefix}.team", first=self.name(state, colours[0]), second=self.name(state, colours[1]))

    # -------------------------------------------------------------- marbles

    def marble(self, marble: int) -> str:
        """The bare marble name: 'red 1'."""
        return self.catalogue.marble(marble_colour(marble), marble_number(marble))

    def marble_ref(self, state: GameState, marble: int, listener: str | None, own: bool = False) -> str:
        """A marble with its owner made plain: 'your own red 2', "your partner's green 1", "Sara's blue 3"."""
        name = self.marble(marble)
        colour = marble_colour(marble)
        who = relation(state, colour, listener)
        if who is Relation.SELF:
            return self.text("marble.own" if own else "marble.yours", marble=name)
        if who is Relation.PARTNER:
            return self.text("marble.partner", marble=name)
        if self.named(state, colour):
            return self.text("marble.of", owner=self.catalogue.possessive(self.name(state, colour)), marble=name)
        return name

    def base(self, state: GameState, cell: int, marble: int, listener: str | None) -> str:
        owner = base_owner(state, cell)
        assert owner is not None
        if owner == listener:
            return self.text("base.yours")
        if owner == marble_colour(marble):
            return self.text("base.own")
        return self.text("base.of", owner=self.catalogue.possessive(self.name(state, owner)))

    def place(self, how: str, state: GameState, position: int, marble: int, listener: str | None, entering: bool = False) -> str:
        """A position with its preposition. ``how`` is 'at', 'from' or 'to'."""
        if position < 0:
            return self.text(f"{how}.home")
        if is_safe(position):
            place = position - SAFE_OFFSET
            if how == "to" and entering:
                return self.text("to.enter", owner=self.player_poss(state, marble_colour(marble), listener), place=place)
            return self.text(f"{how}.safe", place=place)
        if base_owner(state, position) is not None:
            return self.text(f"{how}.base", base=self.base(state, position, marble, listener), cell=position)
        return self.text(f"{how}.cell", cell=position)

    def landing(self, state: GameState, start: int, end: int, marble: int, listener: str | None) -> str:
        """Where a walk ends, 'into your safe zone' when it enters it."""
        return self.place("to", state, end, marble, listener, entering=is_safe(end) and not is_safe(start))

    def near(self, state: GameState, marble: int, listener: str | None, subject: str) -> str | None:
        """Who is nearest ahead of and behind ``marble`` within one card's reach, or None when nobody is."""
        behind, ahead = neighbours(state, marble)
        if behind is None and ahead is None:
            return None
        fields: dict[str, object] = {"subject": subject}
        if behind is not None:
            fields["behind"] = self._neighbour(state, behind.marble, listener)
            fields["nb"] = self.cells(behind.distance)
        if ahead is not None:
            fields["ahead"] = self._neighbour(state, ahead.marble, listener)
            fields["na"] = self.cells(ahead.distance)
        if behind is not None and ahead is not None:
            key = "near.both"
        else:
            key = "near.behind" if behind is not None else "near.ahead"
        return self.text(key, **fields)

    def _neighbour(self, state: GameState, marble: int, listener: str | None) -> str:
        colour = marble_colour(marble)
        if relation(state, colour, listener) is Relation.SELF:
            return self.marble_ref(state, marble, listener)
        return self.person(state, colour, listener)
