"""The narrator: options, outcomes, the board and the score as sentences to be heard.

Every sentence comes from the catalogue (``catalogue.py``); this module
only decides which facts to say, in which order (most important first),
and from whose point of view: "you" for the listener, names for everybody
else. Results of moves come from the engine's own preview (``play``),
never from rules recomputed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from voicejack.engine import (
    GameState,
    Move,
    MoveKind,
    legal_moves,
    marble_colour,
    marble_number,
    mover_colour,
    play,
    progress,
)
from voicejack.engine import events as ev
from voicejack.engine.board import SAFE_OFFSET, colour_marbles
from voicejack.narration.catalogue import ENGLISH, Catalogue
from voicejack.narration.facts import (
    BURN_HAND_PHRASE,
    NEAR_RANGE,
    Relation,
    base_owner,
    hand_order,
    is_safe,
    is_track,
    neighbours,
    relation,
    steps_to_safe,
)

MARBLES_EACH = 4


class Verbosity(Enum):
    FULL = "full"    # for learning: whole sentences
    BRIEF = "brief"  # for experienced players: the same facts, fewer words


class Narrator:
    """Turns a state, a move or the events of a move into sentences for one listener.

    ``listener`` is the colour of the person hearing (they are "you"), or
    None to name everybody (a shared screen-less table, the CLI).
    """

    def __init__(self, verbosity: Verbosity = Verbosity.FULL, catalogue: Catalogue = ENGLISH) -> None:
        self.verbosity = verbosity
        self.catalogue = catalogue

    @property
    def brief(self) -> bool:
        return self.verbosity is Verbosity.BRIEF

    # ------------------------------------------------------------ wording

    def _t(self, key: str, **fields: object) -> str:
        return self.catalogue.text(key, self.brief, **fields)

    def _s(self, key: str, **fields: object) -> str:
        """A whole sentence: capital first letter."""
        return self.catalogue.sentence(self._t(key, **fields))

    def name(self, state: GameState, colour: str) -> str:
        """What a seat is called: its player's name, or its colour when nobody named it."""
        return state.seat(colour).name.strip() if self._named(state, colour) else self.catalogue.default_name(colour)

    def _named(self, state: GameState, colour: str) -> bool:
        """Whether the seat has a name of its own, not just its colour (or a pronoun)."""
        given = state.seat(colour).name.strip().lower()
        return given not in ("", colour, self.catalogue.colour(colour).lower()) and given not in self.catalogue.pronoun_names

    def _player(self, state: GameState, colour: str, listener: str | None) -> str:
        return self._t("you") if colour == listener else self.name(state, colour)

    def _player_poss(self, state: GameState, colour: str, listener: str | None) -> str:
        return self._t("your") if colour == listener else self.catalogue.possessive(self.name(state, colour))

    def _person(self, state: GameState, colour: str, listener: str | None) -> str:
        """A player, with the partner said as such: 'your partner Green'."""
        if relation(state, colour, listener) is Relation.PARTNER:
            return self._t("player.partner", name=self.name(state, colour))
        return self._player(state, colour, listener)

    def _marble(self, marble: int) -> str:
        """The bare marble name: 'red 1'."""
        return self.catalogue.marble(marble_colour(marble), marble_number(marble))

    def _marble_ref(self, state: GameState, marble: int, listener: str | None, own: bool = False) -> str:
        """A marble with its owner made plain: 'your own red 2', "your partner's green 1", "Sara's blue 3"."""
        name = self._marble(marble)
        colour = marble_colour(marble)
        who = relation(state, colour, listener)
        if who is Relation.SELF:
            return self._t("marble.own" if own else "marble.yours", marble=name)
        if who is Relation.PARTNER:
            return self._t("marble.partner", marble=name)
        if self._named(state, colour):
            return self._t("marble.of", owner=self.catalogue.possessive(self.name(state, colour)), marble=name)
        return name

    def _base(self, state: GameState, cell: int, marble: int, listener: str | None) -> str:
        owner = base_owner(state, cell)
        assert owner is not None
        if owner == listener:
            return self._t("base.yours")
        if owner == marble_colour(marble):
            return self._t("base.own")
        return self._t("base.of", owner=self.catalogue.possessive(self.name(state, owner)))

    def _place(self, how: str, state: GameState, position: int, marble: int, listener: str | None, entering: bool = False) -> str:
        """A position with its preposition. ``how`` is 'at', 'from' or 'to'."""
        if position < 0:
            return self._t(f"{how}.home")
        if is_safe(position):
            place = position - SAFE_OFFSET
            if how == "to" and entering:
                owner = self._player_poss(state, marble_colour(marble), listener)
                return self._t("to.enter", owner=owner, place=place)
            return self._t(f"{how}.safe", place=place)
        if base_owner(state, position) is not None:
            return self._t(f"{how}.base", base=self._base(state, position, marble, listener), cell=position)
        return self._t(f"{how}.cell", cell=position)

    def _card_title(self, rank: str) -> str:
        return self.catalogue.sentence(self.catalogue.card(rank))

    def _cards(self, ranks: Sequence[str]) -> str:
        return self.catalogue.cards(hand_order(ranks), self.brief)

    def _steps(self, n: int) -> str:
        return self.catalogue.steps(n, self.brief)

    def _near(self, state: GameState, marble: int, listener: str | None, subject: str) -> str:
        """Who is nearest ahead of and behind ``marble`` on ``state``, without the final stop."""
        behind, ahead = neighbours(state, marble)
        range_text = self.catalogue.cells(NEAR_RANGE, False)
        fields: dict[str, object] = {"subject": subject, "range": range_text}
        if behind is not None:
            fields["behind"] = self._neighbour(state, behind.marble, listener)
            fields["nb"] = self.catalogue.cells(behind.distance, self.brief)
        if ahead is not None:
            fields["ahead"] = self._neighbour(state, ahead.marble, listener)
            fields["na"] = self.catalogue.cells(ahead.distance, self.brief)
        if behind is not None and ahead is not None:
            key = "near.both"
        elif behind is not None:
            key = "near.behind"
        elif ahead is not None:
            key = "near.ahead"
        else:
            key = "near.none"
        return self._t(key, **fields)

    def _neighbour(self, state: GameState, marble: int, listener: str | None) -> str:
        colour = marble_colour(marble)
        if relation(state, colour, listener) is Relation.SELF:
            return self._marble_ref(state, marble, listener)
        return self._person(state, colour, listener)

    # ------------------------------------------------------------ options

    def describe_options(self, state: GameState, listener: str) -> list[tuple[Move, str]]:
        """Every legal move with its description, in the engine's stable order (by card, then marble)."""
        return [(move, self.describe_option(state, move, listener)) for move in legal_moves(state)]

    def describe_option(self, state: GameState, move: Move, listener: str) -> str:
        """What choosing ``move`` would do, told to ``listener`` (normally the player to move)."""
        after, events = play(state, move)
        kind = move.kind
        if kind is MoveKind.BURN:
            return self._s("opt.burn.forced" if state.forced_burn else "opt.burn", card=self.catalogue.card(move.card))
        if kind is MoveKind.BURN_HAND:
            return self._s("opt.burn_hand", cards=self._cards(state.hands[state.turn]))
        if kind is MoveKind.FORCE_BURN:
            target = next(e.target for e in events if isinstance(e, ev.BurnForced))
            return self._s("opt.force_burn", target=self._person(state, target, listener))

        sentences: list[str] = []
        moved: list[int] = []
        walks = [e for e in events if isinstance(e, ev.MarbleWalked)]
        if kind is MoveKind.OUT:
            out = next(e for e in events if isinstance(e, ev.MarbleCameOut))
            sentences.append(self._s(
                "opt.out", card=self._card_title(move.card), marble=self._marble(out.marble),
                base=self._base(state, out.cell, out.marble, listener), cell=out.cell,
            ))
            sentences.extend(self._option_captures(state, events, listener, sweep=False))
            moved.append(out.marble)
        elif kind is MoveKind.SWAP:
            sentences.append(self._s(
                "opt.swap", marble=self._marble(move.marble), at=self._place("at", state, state.marbles[move.marble], move.marble, listener),
                other=self._marble_ref(state, move.second, listener),
                other_at=self._place("at", state, state.marbles[move.second], move.second, listener),
            ))
            if after.on_own_base(move.marble):
                lost = self._steps(_progress_of(state, move.marble))
                sentences.append(self._s(
                    "opt.swap.warning", marble=self._marble(move.marble),
                    base=self._base(after, after.marbles[move.marble], move.marble, listener), steps=lost,
                ))
            moved.append(move.marble)
        elif kind is MoveKind.SPLIT:
            for index, walk in enumerate(walks):
                steps = move.steps if index == 0 else move.second_steps
                sentences.append(self._s(
                    "opt.split.first" if index == 0 else "opt.split.second",
                    marble=self._marble(walk.marble), steps=self._steps(steps),
                    origin=self._walk_place("from", state, walk, listener), dest=self._walk_place("to", state, walk, listener),
                ))
                sentences.extend(self._option_captures(state, _captures_after(events, walk), listener, sweep=False))
                moved.append(walk.marble)
        else:
            walk = walks[0]
            sentences.append(self._walk_option(state, move, walk, listener))
            sentences.extend(self._option_captures(state, events, listener, sweep=kind is MoveKind.SWEEP))
            moved.append(walk.marble)

        sentences.extend(self._option_ending(state, events, listener))
        on_track = [marble for marble in moved if is_track(after.marbles[marble])]
        split = kind is MoveKind.SPLIT
        sentences.extend(self._option_safe_near(after, on_track, listener, split))
        sentences.extend(self._option_near(after, on_track, listener, split))
        return " ".join(sentences)

    def _option_safe_near(self, after: GameState, marbles: list[int], listener: str, split: bool) -> list[str]:
        """How short of its safe zone each moved marble ends, when one card could bring it in."""
        sentences = []
        for marble in marbles:
            short = steps_to_safe(after, marble)
            if short is None:
                continue
            owner = self._player_poss(after, marble_colour(marble), listener)
            if split:
                sentences.append(self._s("opt.safe_near.named", marble=self._marble(marble), steps=self._steps(short), owner=owner))
            else:
                sentences.append(self._s("opt.safe_near", steps=self._steps(short), owner=owner))
        return sentences

    def _option_near(self, after: GameState, marbles: list[int], listener: str, split: bool) -> list[str]:
        """Who would be nearest ahead of and behind each moved marble."""
        if not marbles:
            return []
        if split:
            items = [
                self._t("opt.near.item", marble=self._marble(m), text=self._near(after, m, listener, self._marble(m)))
                for m in marbles
            ]
            return [self._s("opt.near.split", items=self.catalogue.clauses(items))]
        marble = marbles[0]
        subject = self._t("you") if marble_colour(marble) == listener else self._marble(marble)
        return [self._s("opt.near", text=self._near(after, marble, listener, subject))]

    def _walk_place(self, how: str, state: GameState, walk: ev.MarbleWalked, listener: str | None) -> str:
        if how == "from":
            return self._place("from", state, walk.start, walk.marble, listener)
        entering = is_safe(walk.end) and not is_safe(walk.start)
        return self._place("to", state, walk.end, walk.marble, listener, entering=entering)

    def _walk_option(self, state: GameState, move: Move, walk: ev.MarbleWalked, listener: str) -> str:
        origin = self._walk_place("from", state, walk, listener)
        dest = self._walk_place("to", state, walk, listener)
        marble = self._marble(walk.marble)
        if move.kind is MoveKind.SWEEP:
            return self._s("opt.sweep", marble=marble, origin=origin, dest=dest)
        if move.card == "A":
            return self._s("opt.ace", n=move.steps, marble=marble, origin=origin, dest=dest)
        if move.backward:
            return self._s("opt.back", marble=marble, origin=origin, dest=dest)
        if move.card == "7":
            return self._s("opt.seven", marble=marble, origin=origin, dest=dest)
        if _is_push(state, state.turn, move.card, walk.marble):
            return self._s("opt.push", marble=self._marble_ref(state, walk.marble, listener), origin=origin, dest=dest)
        return self._s("opt.walk", card=self._card_title(move.card), marble=marble, origin=origin, dest=dest)

    def _option_captures(self, state: GameState, events: Sequence[ev.Event], listener: str | None, sweep: bool) -> list[str]:
        captures = [e for e in events if isinstance(e, ev.MarbleCaptured)]
        if not captures:
            return [self._s("opt.sweep.clear")] if sweep else []
        items = []
        careful = False
        for capture in captures:
            ref = self._marble_ref(state, capture.marble, listener, own=True)
            careful = careful or relation(state, marble_colour(capture.marble), listener) is not Relation.OTHER
            if sweep:
                ref = self._t("opt.capture.item", marble=ref, at=self._place("at", state, capture.position, capture.marble, listener))
            items.append(ref)
        return [self._s("opt.capture.careful" if careful else "opt.capture", marbles=self.catalogue.join(items))]

    def _option_ending(self, state: GameState, events: Sequence[ev.Event], listener: str) -> list[str]:
        if any(isinstance(e, ev.Won) for e in events):
            return [self._s("opt.win")]
        for e in events:
            if isinstance(e, ev.PlayerFinished) and e.colour == state.turn and e.partner is not None:
                return [self._s("opt.finish", partner=self._player_poss(state, e.partner, listener))]
        return []

    # ----------------------------------------------------------- outcomes

    def outcome(self, before: GameState, events: Sequence[ev.Event], after: GameState, listener: str | None) -> list[str]:
        """What the table is told after a move, one sentence per line, in the order things happened."""
        lines: list[str] = []
        played: ev.CardPlayed | None = None
        walks_told = 0
        entered: dict[str, int] = {}
        index = 0
        while index < len(events):
            event = events[index]
            index += 1
            if isinstance(event, ev.CardPlayed):
                played = event
            elif isinstance(event, ev.MarbleCameOut):
                assert played is not None, "a marble comes out only after a card is played"
                lines.append(self._s(
                    "out.out", player=self._player(before, event.colour, listener),
                    card=self.catalogue.card_a(played.card), marble=self._marble(event.marble),
                    base=self._base(before, event.cell, event.marble, listener), cell=event.cell,
                ))
            elif isinstance(event, ev.MarbleWalked):
                assert played is not None, "a marble walks only after a card is played"
                lines.append(self._walk_outcome(before, played, event, walks_told, listener))
                walks_told += 1
            elif isinstance(event, ev.MarbleCaptured):
                group = [event]
                while index < len(events) and isinstance(events[index], ev.MarbleCaptured):
                    group.append(events[index])  # type: ignore[arg-type]
                    index += 1
                lines.append(self._captured_outcome(before, group, listener))
            elif isinstance(event, ev.EnteredSafeZone):
                colour = marble_colour(event.marble)
                entered[colour] = entered.get(colour, 0) + 1
                count = before.marbles_in(colour) + entered[colour]
                if count == MARBLES_EACH:
                    continue  # the finish or the win that follows says it
                if colour == listener:
                    lines.append(self._s("out.entered.you", count=count))
                else:
                    lines.append(self._s("out.entered", player=self.name(before, colour), count=count))
            elif isinstance(event, ev.MarblesSwapped):
                lines.extend(self._swap_outcome(before, after, event, listener))
            elif isinstance(event, ev.BurnForced):
                player = self._player(before, event.colour, listener)
                if event.target == listener:
                    lines.append(self._s("out.force.you", player=player))
                else:
                    lines.append(self._s("out.force", player=player, target=self.name(before, event.target)))
            elif isinstance(event, ev.CardBurned):
                lines.append(self._s(
                    "out.burned.forced" if event.forced else "out.burned",
                    player=self._player(before, event.colour, listener), card=self.catalogue.card_a(event.card),
                ))
            elif isinstance(event, ev.HandBurned):
                cards = self._cards(event.cards)
                if event.colour == listener:
                    lines.append(self._s("out.hand_burned.you", cards=cards))
                else:
                    lines.append(self._s("out.hand_burned", player=self.name(before, event.colour), cards=cards))
            elif isinstance(event, ev.PlayerFinished):
                lines.append(self._finished_outcome(before, event, listener))
            elif isinstance(event, ev.Won):
                lines.append(self._won(before, event.colours, listener, "out.won"))
            elif isinstance(event, ev.Reshuffled):
                lines.append(self._s("out.reshuffled"))
            elif isinstance(event, ev.Dealt):
                lines.extend(self._dealt_outcome(before, after, event, listener))
            # TurnPassed is told by the turn prompt; a forced turn by BurnForced.
        return lines

    def _walk_outcome(
        self, before: GameState, played: ev.CardPlayed, walk: ev.MarbleWalked, told: int, listener: str | None,
    ) -> str:
        """One walk; ``told`` walks of the same move were told before it (the second part of a split)."""
        origin = self._walk_place("from", before, walk, listener)
        dest = self._walk_place("to", before, walk, listener)
        marble = self._marble(walk.marble)
        player = self._player(before, walk.colour, listener)
        move = played.move
        if move.kind is MoveKind.SPLIT:
            steps = self._steps(move.steps if told == 0 else move.second_steps)
            key = "out.split.first" if told == 0 else "out.split.second"
            return self._s(key, player=player, marble=marble, steps=steps, origin=origin, dest=dest)
        if walk.sweep:
            return self._s("out.sweep", player=player, marble=marble, origin=origin, dest=dest)
        if played.ace_value is not None:
            return self._s("out.ace", player=player, n=played.ace_value, marble=marble, origin=origin, dest=dest)
        if walk.backward:
            return self._s("out.back", player=player, marble=marble, origin=origin, dest=dest)
        if _is_push(before, walk.colour, played.card, walk.marble):
            return self._s("out.push", player=player, marble=self._marble_ref(before, walk.marble, listener), origin=origin, dest=dest)
        return self._s("out.walk", player=player, card=self.catalogue.card_a(played.card), marble=marble, origin=origin, dest=dest)

    def _captured_outcome(self, before: GameState, group: list[ev.MarbleCaptured], listener: str | None) -> str:
        if len(group) == 1:
            capture = group[0]
            return self._s(
                "out.captured.one", marble=self._marble_ref(before, capture.marble, listener),
                origin=self._place("from", before, capture.position, capture.marble, listener),
            )
        items = [
            self._t(
                "out.captured.item", marble=self._marble_ref(before, c.marble, listener),
                origin=self._place("from", before, c.position, c.marble, listener),
            )
            for c in group
        ]
        return self._s("out.captured.many", marbles=self.catalogue.join(items))

    def _swap_outcome(self, before: GameState, after: GameState, swap: ev.MarblesSwapped, listener: str | None) -> list[str]:
        lines = [self._s(
            "out.swap", player=self._player(before, swap.colour, listener), marble=self._marble(swap.marble),
            dest=self._place("to", before, swap.other_from, swap.marble, listener),
            other=self._marble_ref(before, swap.other, listener),
            other_dest=self._place("to", before, swap.marble_from, swap.other, listener),
        )]
        if after.on_own_base(swap.marble):
            lines.append(self._s(
                "out.swap.restart", marble=self._marble(swap.marble),
                base=self._base(after, swap.other_from, swap.marble, listener),
            ))
        return lines

    def _finished_outcome(self, state: GameState, event: ev.PlayerFinished, listener: str | None) -> str:
        partner = event.partner or event.colour
        if event.colour == listener:
            return self._s("out.finished.you", partner=self.catalogue.possessive(self.name(state, partner)))
        if relation(state, event.colour, listener) is Relation.PARTNER:
            return self._s("out.finished.partner", player=self.name(state, event.colour))
        return self._s("out.finished", player=self.name(state, event.colour), partner=self._player_poss(state, partner, listener))

    def _won(self, state: GameState, colours: Sequence[str], listener: str | None, prefix: str) -> str:
        if len(colours) == 1:
            if colours[0] == listener:
                return self._s(f"{prefix}.solo.you")
            return self._s(f"{prefix}.solo", player=self.name(state, colours[0]))
        if listener in colours:
            partner = next(c for c in colours if c != listener)
            return self._s(f"{prefix}.team.you", partner=self.name(state, partner))
        return self._s(f"{prefix}.team", first=self.name(state, colours[0]), second=self.name(state, colours[1]))

    def _dealt_outcome(self, before: GameState, after: GameState, deal: ev.Dealt, listener: str | None) -> list[str]:
        if deal.dealer == listener:
            key = "out.dealt.you_deal"
        elif deal.leader == listener:
            key = "out.dealt.you_lead"
        else:
            key = "out.dealt"
        lines = [self._s(key, dealer=self.name(before, deal.dealer), leader=self.name(before, deal.leader), count=deal.cards_each)]
        if listener is not None and after.hands.get(listener):
            lines.append(self._s("out.your_cards", cards=self._cards(after.hands[listener])))
        return lines

    # -------------------------------------------------------- match start

    def match_start(self, state: GameState, listener: str | None) -> list[str]:
        """The version, teams or not, colours and partners, who deals and who leads."""
        rules = state.rules
        lines = [self._s("start.complex" if rules.complex else "start.regular")]
        order = _seats_from(state, listener)
        if rules.teams:
            first_team = rules.team_of(order[0])
            second_team = tuple(c for c in order if c not in first_team)
            lines.append(self._s(
                "start.teams", first=self._team(state, first_team, listener), second=self._team(state, second_team, listener),
            ))
        elif rules.players == 4:
            lines.append(self._s("start.solo"))
        else:
            lines.append(self._s(
                "start.two", first=self._player(state, order[0], listener), second=self._player(state, order[1], listener),
            ))
        for colour in order:
            if colour == listener:
                lines.append(self._s("start.colour.you", colour=self.catalogue.colour(colour)))
            elif self._named(state, colour):
                lines.append(self._s("start.colour.other", player=self.name(state, colour), colour=self.catalogue.colour(colour)))
        if listener is not None and rules.partner(listener) is not None:
            lines.append(self._s("start.partner", player=self.name(state, rules.partner(listener) or listener)))
        names = [self._player(state, colour, listener) for colour in order]
        lines.append(self._s("start.order", players=self.catalogue.series(names)))
        dealer, leader = state.dealer, state.turn
        if dealer == listener:
            lines.append(self._s("start.deal.you_deal", leader=self.name(state, leader)))
        elif leader == listener:
            lines.append(self._s("start.deal.you_lead", dealer=self.name(state, dealer)))
        else:
            lines.append(self._s("start.deal", dealer=self.name(state, dealer), leader=self.name(state, leader)))
        return lines

    def _team(self, state: GameState, team: Sequence[str], listener: str | None) -> str:
        ordered = sorted(team, key=lambda c: c != listener)  # "you" first
        return self._t("start.team", first=self._player(state, ordered[0], listener), second=self._player(state, ordered[1], listener))

    # ----------------------------------------------------- on request

    def turn_prompt(self, state: GameState, listener: str | None) -> str:
        """'Your turn, red. You hold ...' for the player to act; "Blue's turn." for everybody else."""
        if state.winner is not None:
            return self._won(state, state.winner, listener, "over")
        colour = state.turn
        if colour == listener:
            cards = self._cards(state.hands[colour])
            plays_on = mover_colour(state, colour)
            if state.forced_burn:
                return self._s("turn.you.forced", colour=self.catalogue.colour(colour), cards=cards)
            if plays_on != colour:
                return self._s(
                    "turn.you.partner", colour=self.catalogue.colour(colour),
                    partner=self.catalogue.possessive(self.name(state, plays_on)), cards=cards,
                )
            return self._s("turn.you", colour=self.catalogue.colour(colour), cards=cards)
        player = self.catalogue.possessive(self.name(state, colour))
        return self._s("turn.other.forced" if state.forced_burn else "turn.other", player=player)

    def hand(self, state: GameState, listener: str | None) -> str:
        """The listener's own cards (with no listener: the cards of the player to act)."""
        colour = listener or state.turn
        cards = state.hands.get(colour, [])
        if colour == listener:
            return self._s("hand.you", cards=self._cards(cards)) if cards else self._s("hand.you.empty")
        name = self.name(state, colour)
        return self._s("hand.other", player=name, cards=self._cards(cards)) if cards else self._s("hand.other.empty", player=name)

    def score(self, state: GameState, listener: str | None) -> str:
        """Marbles in per player or team, and how many are needed to win."""
        rules = state.rules
        order = _seats_from(state, listener)
        if rules.teams:
            sentences = []
            done: set[str] = set()
            for colour in order:
                if colour in done:
                    continue
                team = sorted(rules.team_of(colour), key=lambda c: c != listener)
                done.update(team)
                count = sum(state.marbles_in(c) for c in team)
                players = self.catalogue.series([self._score_item(state, c, listener) for c in team])
                if listener in team:
                    sentences.append(self._s("score.team.you", count=count, players=players))
                else:
                    names = self._t("start.team", first=self.name(state, team[0]), second=self.name(state, team[1]))
                    sentences.append(self._s("score.team", team=names, count=count, players=players))
            sentences.append(self._s("score.team.goal"))
            return " ".join(sentences)
        players = self.catalogue.series([self._score_item(state, c, listener) for c in order])
        return " ".join([self._s("score.solo", players=players), self._s("score.solo.goal")])

    def _score_item(self, state: GameState, colour: str, listener: str | None) -> str:
        count = state.marbles_in(colour)
        amount: object = count if count else self._t("score.none")
        return self._t("score.item", count=amount, player=self._player(state, colour, listener))

    def last_card(self, state: GameState, listener: str | None) -> str:
        """The last card played or burned and how: cards further back are gone, as at a real table."""
        last = state.last_card
        if last is None:
            return self._s("last.none")
        player = self._player(state, last.colour, listener)
        if last.phrase == BURN_HAND_PHRASE:
            return self._s("last.burn_hand", player=player)
        move = last.move
        if move.kind is MoveKind.BURN:
            return self._s("last.burn", player=player, card=self.catalogue.card_a(last.card))
        return self._s("last.card", player=player, what=self._what(state, move, listener))

    def _what(self, state: GameState, move: Move, listener: str | None) -> str:
        card = self.catalogue.card_a(move.card)
        kind = move.kind
        if kind is MoveKind.OUT:
            return self._t("what.out", card=card)
        if kind is MoveKind.FORCE_BURN:
            return self._t("what.force")
        marble = self._marble_ref(state, move.marble, listener)
        if kind is MoveKind.SWEEP:
            return self._t("what.sweep", marble=marble)
        if kind is MoveKind.SPLIT:
            return self._t(
                "what.split", marble=marble, first_steps=move.steps,
                other=self._marble_ref(state, move.second, listener), second_steps=move.second_steps,
            )
        if kind is MoveKind.SWAP:
            return self._t("what.swap", marble=marble, other=self._marble_ref(state, move.second, listener))
        if move.card == "A":
            return self._t("what.ace", n=move.steps, marble=marble)
        return self._t("what.walk", card=card, marble=marble)

    def where_is(self, state: GameState, marble: int, listener: str | None) -> str:
        """Where one marble stands, how near its safe zone, and who is near it.

        A marble of a colour nobody plays (blue with two players) gets a plain answer, not an error:
        a player may well ask about it.
        """
        if marble_colour(marble) not in state.rules.seats:
            return self._s("where.absent", colour=self.catalogue.colour(marble_colour(marble)))
        position = state.marbles[marble]
        sentences = [self._s(
            "where", marble=self._marble_ref(state, marble, listener), at=self._place("at", state, position, marble, listener),
        )]
        if is_track(position):
            short = steps_to_safe(state, marble)
            if short is not None:
                owner = self._player_poss(state, marble_colour(marble), listener)
                sentences.append(self._s("where.safe_near", steps=self._steps(short), owner=owner))
            text = self._near(state, marble, listener, self._t("where.subject"))
            sentences.append(self._s("where.near", text=text))
        return " ".join(sentences)

    def board(self, state: GameState, listener: str | None) -> list[str]:
        """The readout: table kind, whose turn, the last card, then each player and their four marbles, then the pile."""
        rules = state.rules
        version = self._t("board.complex" if rules.complex else "board.regular")
        order = _seats_from(state, listener)
        if rules.teams:
            first_team = rules.team_of(order[0])
            second_team = tuple(c for c in order if c not in first_team)
            kind = self._t(
                "board.teams", first=self._team(state, first_team, listener), second=self._team(state, second_team, listener),
            )
        else:
            kind = self._t("board.solo" if rules.players == 4 else "board.two")
        lines = [self._s("board.header", version=version, kind=kind)]
        if state.winner is not None:
            lines.append(self._won(state, state.winner, listener, "over"))
        elif state.turn == listener:
            lines.append(self._s("board.turn.you.forced" if state.forced_burn else "board.turn.you"))
        else:
            player = self.catalogue.possessive(self.name(state, state.turn))
            lines.append(self._s("board.turn.other.forced" if state.forced_burn else "board.turn.other", player=player))
        lines.append(self.last_card(state, listener))
        for colour in order:
            lines.append(self._board_player(state, colour, listener))
            for marble in colour_marbles(colour):
                lines.append(self._s(
                    "board.marble", marble=self._marble(marble),
                    at=self._place("at", state, state.marbles[marble], marble, listener),
                ))
        lines.append(self._s("board.pile", cards=self.catalogue.card_count(len(state.pile), self.brief)))
        return lines

    def _board_player(self, state: GameState, colour: str, listener: str | None) -> str:
        colour_word = self.catalogue.colour(colour)
        if colour == listener:
            who = self._t("board.who.you", colour=colour_word)
        elif self._named(state, colour):
            who = self._t("board.who.named", player=self.name(state, colour), colour=colour_word)
        else:
            who = self._t("board.who", player=self.name(state, colour))
        if relation(state, colour, listener) is Relation.PARTNER:
            who = self._t("board.who.partner", who=who)
        hand = state.hands.get(colour, [])
        details = [self.catalogue.card_count(len(hand), self.brief)]
        if not hand and state.winner is None:
            details.append(self._t("board.out_of_deal"))
        partner = state.rules.partner(colour)
        if partner is not None and state.is_finished(colour):
            details.append(self._t("board.finished", partner=self._player_poss(state, partner, listener)))
        return self._s("board.player", who=who, details=self.catalogue.series(details))


# ------------------------------------------------------------------ helpers


def _progress_of(state: GameState, marble: int) -> int:
    return progress(marble_colour(marble), state.marbles[marble])


def _is_push(state: GameState, player: str, card: str, marble: int) -> bool:
    """A complex 5 walking a marble that is not one of the marbles the player plays with."""
    return card == "5" and state.rules.complex and marble_colour(marble) != mover_colour(state, player)


def _captures_after(events: Sequence[ev.Event], walk: ev.MarbleWalked) -> list[ev.Event]:
    """The captures reported right after one walk (one part of a split)."""
    start = list(events).index(walk) + 1
    found: list[ev.Event] = []
    for event in events[start:]:
        if not isinstance(event, ev.MarbleCaptured):
            break
        found.append(event)
    return found


def _seats_from(state: GameState, listener: str | None) -> list[str]:
    """Seat order starting from the listener (from the first seat with no listener)."""
    seats = list(state.rules.seats)
    if listener in seats:
        start = seats.index(listener)
        return seats[start:] + seats[:start]
    return seats
