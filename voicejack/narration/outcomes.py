"""Outcomes: what the table is told after a move, one sentence per line, in the order things happened.

Every outcome names where each moved marble ended and every marble sent
home. The full form says who played what and from where; the brief form
says only the card, the marble and where it landed (the player is named
only when the marble is not their own colour).
"""

from __future__ import annotations

from collections.abc import Sequence

from voicejack.engine import GameState, MoveKind, marble_colour
from voicejack.engine import events as ev
from voicejack.narration.facts import Relation, goes_round_again, is_push, is_track, relation
from voicejack.narration.viewpoint import Viewpoint

MARBLES_EACH = 4


class OutcomeNarrator:
    def __init__(self, view: Viewpoint) -> None:
        self.view = view

    def outcome(
        self, before: GameState, events: Sequence[ev.Event], after: GameState, listener: str | None,
        name_player: bool = False,
    ) -> list[str]:
        """The lines of a move; ``name_player`` names the player in the brief form too (retelling it later)."""
        view = self.view
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
                lines.append(view.say(
                    "out.out", **self._played(before, played, event.marble, listener, name_player), marble=view.marble(event.marble),
                    base=view.base(before, event.cell, event.marble, listener), cell=event.cell,
                ))
            elif isinstance(event, ev.MarbleWalked):
                assert played is not None, "a marble walks only after a card is played"
                lines.append(self._walk(before, played, event, walks_told, listener, name_player))
                walks_told += 1
            elif isinstance(event, ev.MarbleCaptured):
                group = [event]
                while index < len(events) and isinstance(events[index], ev.MarbleCaptured):
                    group.append(events[index])  # type: ignore[arg-type]
                    index += 1
                sweep = played is not None and played.move.kind is MoveKind.SWEEP
                lines.append(self._captured(before, group, listener, sweep))
            elif isinstance(event, ev.EnteredSafeZone):
                colour = marble_colour(event.marble)
                entered[colour] = entered.get(colour, 0) + 1
                count = before.marbles_in(colour) + entered[colour]
                if count == MARBLES_EACH:
                    continue  # the finish or the win that follows says it
                if colour == listener:
                    lines.append(view.say("out.entered.you", count=count))
                else:
                    lines.append(view.say("out.entered", player=view.name(before, colour), count=count))
            elif isinstance(event, ev.MarblesSwapped):
                assert played is not None, "marbles swap only when a jack is played"
                lines.extend(self._swap(before, after, played, event, listener, name_player))
            elif isinstance(event, ev.BurnForced):
                player = view.player(before, event.colour, listener)
                if event.target == listener:
                    lines.append(view.say("out.force.you", player=player))
                else:
                    lines.append(view.say("out.force", player=player, target=view.name(before, event.target)))
            elif isinstance(event, ev.RandomBurn):
                key = "out.random_burn" if event.loses_turn else "out.random_burn.keeps"
                player = view.player(before, event.colour, listener)
                card = view.catalogue.card_a(event.card)
                if event.target == listener:
                    lines.append(view.say(f"{key}.you", player=player, card=card))
                else:
                    lines.append(view.say(key, player=player, target=view.name(before, event.target), card=card))
            elif isinstance(event, ev.TimedOut):
                card = view.catalogue.card_a(event.card)
                if event.colour == listener:
                    lines.append(view.say("out.time_out.you", card=card))
                else:
                    lines.append(view.say("out.time_out", player=view.name(before, event.colour), card=card))
            elif isinstance(event, ev.CardBurned):
                lines.append(view.say(
                    "out.burned.forced" if event.forced else "out.burned",
                    player=view.player(before, event.colour, listener), card=view.catalogue.card_a(event.card),
                ))
            elif isinstance(event, ev.HandBurned):
                # One card keeps its article even in brief: "burned eight" sounds like a count of cards.
                cards = view.catalogue.card_a(event.cards[0]) if len(event.cards) == 1 else view.cards(event.cards)
                if event.colour == listener:
                    lines.append(view.say("out.hand_burned.you", cards=cards))
                else:
                    lines.append(view.say("out.hand_burned", player=view.name(before, event.colour), cards=cards))
            elif isinstance(event, ev.PlayerFinished):
                lines.append(self._finished(before, event, listener))
            elif isinstance(event, ev.Won):
                lines.append(view.won(before, event.colours, listener, over=False))
            elif isinstance(event, ev.Reshuffled):
                lines.append(view.say("out.reshuffled"))
            elif isinstance(event, ev.Dealt):
                lines.extend(self._dealt(before, after, event, listener))
            # TurnPassed is told by the turn prompt; a forced turn by BurnForced.
        return lines

    def _played(
        self, before: GameState, played: ev.CardPlayed, marble: int, listener: str | None, name_player: bool,
    ) -> dict[str, object]:
        """Who played which card: 'player' and 'card' for the full form, 'play' ("Ace", "Red's ace") for the brief."""
        view = self.view
        card = view.catalogue.card(played.card)
        if marble_colour(marble) == played.colour and not name_player:
            play = view.catalogue.sentence(card)
        else:
            play = view.text("out.play.by", player=view.player_poss(before, played.colour, listener), card=card)
        return {"player": view.player(before, played.colour, listener), "card": view.catalogue.card_a(played.card), "play": play}

    def _walk(
        self, before: GameState, played: ev.CardPlayed, walk: ev.MarbleWalked, told: int, listener: str | None,
        name_player: bool,
    ) -> str:
        """One walk; ``told`` walks of the same move were told before it (the second part of a split).

        A marble leaving a base is said to leave its cell: whose base it stood on was told when it got there.
        """
        view = self.view
        origin = view.text("from.cell", cell=walk.start) if is_track(walk.start) else view.place("from", before, walk.start, walk.marble, listener)
        fields = {
            **self._played(before, played, walk.marble, listener, name_player),
            "origin": origin,
            "dest": view.landing(before, walk.start, walk.end, walk.marble, listener),
            "marble": view.marble(walk.marble),
        }
        move = played.move
        if move.kind is MoveKind.SPLIT:
            steps = view.steps(move.steps if told == 0 else move.second_steps)
            return view.say("out.split.first" if told == 0 else "out.split.second", steps=steps, **fields)
        if walk.sweep:
            return view.say("out.plough" if before.rules.rule_set == "karooty" else "out.sweep", **fields)  # KA9
        if played.ace_value is not None:
            return view.say("out.ace", n=played.ace_value, **fields)
        if walk.backward:
            return view.say("out.back", **fields)
        if is_push(before, walk.colour, played.card, walk.marble):
            key = "out.push.round" if goes_round_again(walk.start, walk.end, walk.marble) else "out.push"
            return view.say(key, **{**fields, "marble": view.marble_ref(before, walk.marble, listener)})
        return view.say("out.walk", **fields)

    def _captured(self, before: GameState, group: list[ev.MarbleCaptured], listener: str | None, sweep: bool) -> str:
        """Who was sent home; where each stood only for a sweep (any other capture is on the cell just told)."""
        view = self.view
        if len(group) == 1 and not sweep:
            return view.say("out.captured.one", marble=view.marble_ref(before, group[0].marble, listener))
        items = [
            view.text(
                "out.captured.item", marble=view.marble_ref(before, c.marble, listener),
                origin=view.place("from", before, c.position, c.marble, listener),
            )
            for c in group
        ]
        return view.say("out.captured.many", marbles=view.catalogue.join(items))

    def _swap(
        self, before: GameState, after: GameState, played: ev.CardPlayed, swap: ev.MarblesSwapped, listener: str | None,
        name_player: bool,
    ) -> list[str]:
        view = self.view
        lines = [view.say(
            "out.swap", **self._played(before, played, swap.marble, listener, name_player), marble=view.marble(swap.marble),
            dest=view.place("to", before, swap.other_from, swap.marble, listener),
            other=view.marble_ref(before, swap.other, listener),
            other_dest=view.place("to", before, swap.marble_from, swap.other, listener),
        )]
        if after.on_own_base(swap.marble):
            lines.append(view.say(
                "out.swap.restart", marble=view.marble(swap.marble),
                base=view.base(after, swap.other_from, swap.marble, listener),
            ))
        return lines

    def _finished(self, state: GameState, event: ev.PlayerFinished, listener: str | None) -> str:
        view = self.view
        partner = event.partner or event.colour
        if event.colour == listener:
            return view.say("out.finished.you", partner=view.catalogue.possessive(view.name(state, partner)))
        if relation(state, event.colour, listener) is Relation.PARTNER:
            return view.say("out.finished.partner", player=view.name(state, event.colour))
        return view.say("out.finished", player=view.name(state, event.colour), partner=view.player_poss(state, partner, listener))

    def _dealt(self, before: GameState, after: GameState, deal: ev.Dealt, listener: str | None) -> list[str]:
        """The new deal, and the listener's new cards, in full wording, unless they lead.

        Their turn prompt reads the cards; brief wording leaves them to it.
        """
        view = self.view
        if deal.dealer == listener:
            key = "out.dealt.you_deal"
        elif deal.leader == listener:
            key = "out.dealt.you_lead"
        else:
            key = "out.dealt"
        lines = [view.say(key, dealer=view.name(before, deal.dealer), leader=view.name(before, deal.leader), count=deal.cards_each)]
        if listener is not None and listener != deal.leader and not view.brief and after.hands.get(listener):
            lines.append(view.say("out.your_cards", cards=view.cards(after.hands[listener])))
        return lines
