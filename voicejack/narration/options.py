"""Options: what choosing a move would do, told to the player choosing it.

Every option carries what the player's guide promises: the marble, where
it stands (and whose base), where it would land, whom it would send home
(flagged when it is the player's own or partner's), and who would be
nearest ahead and behind, said only when somebody is within a card's
reach. Results come from the engine's own preview (``play``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from voicejack.engine import GameState, Move, MoveKind, legal_moves, marble_colour, play, progress
from voicejack.engine import events as ev
from voicejack.narration.facts import Relation, goes_round_again, is_push, is_track, relation, steps_to_safe
from voicejack.narration.viewpoint import Viewpoint


class OptionNarrator:
    def __init__(self, view: Viewpoint) -> None:
        self.view = view

    def describe_options(self, state: GameState, listener: str) -> list[tuple[Move, str]]:
        """Every distinct legal move with its description, in the engine's order (by card, then marble).

        Moves of the same card that end in the same position (the two orders of a 7 split that
        land the same marbles on the same cells and send the same marbles home) are one option:
        the first in the engine's order stands for them.
        """
        return [(group[0], self._describe(state, group[0], after, events, listener)) for group, after, events in self._groups(state)]

    def option_groups(self, state: GameState) -> list[tuple[Move, ...]]:
        """The legal moves grouped by how they end, each group in the engine's order, its first move the option read."""
        return [group for group, _, _ in self._groups(state)]

    def _groups(self, state: GameState) -> list[tuple[tuple[Move, ...], GameState, Sequence[ev.Event]]]:
        groups: dict[Hashable, tuple[list[Move], GameState, Sequence[ev.Event]]] = {}
        for move in legal_moves(state):
            after, events = play(state, move)
            ending = _ending(move, after, events)
            if ending in groups:
                groups[ending][0].append(move)
            else:
                groups[ending] = ([move], after, events)
        return [(tuple(moves), after, events) for moves, after, events in groups.values()]

    def describe_option(self, state: GameState, move: Move, listener: str) -> str:
        """What choosing ``move`` would do, told to ``listener`` (normally the player to move)."""
        after, events = play(state, move)
        return self._describe(state, move, after, events, listener)

    def first_landing(self, state: GameState, move: Move, listener: str) -> str:
        """Where the move's first walking marble would land ("to cell 61"): all a steps question needs to say."""
        _, events = play(state, move)
        walk = next((event for event in events if isinstance(event, ev.MarbleWalked)), None)
        if walk is None:
            return self.describe_option(state, move, listener)
        return self.view.landing(state, walk.start, walk.path[-1], walk.marble, listener)

    def _describe(self, state: GameState, move: Move, after: GameState, events: Sequence[ev.Event], listener: str) -> str:
        view = self.view
        kind = move.kind
        if kind is MoveKind.BURN:
            return view.say("opt.burn.forced" if state.forced_burn else "opt.burn", card=view.catalogue.card(move.card))
        if kind is MoveKind.BURN_HAND:
            return view.say("opt.burn_hand", cards=view.cards(state.hands[state.turn]))
        if kind is MoveKind.FORCE_BURN:
            for event in events:
                if isinstance(event, ev.RandomBurn):  # KA11, ON9
                    key = "opt.random_burn" if event.loses_turn else "opt.random_burn.keeps"
                    return view.say(key, target=view.person(state, event.target, listener))
            target = next(e.target for e in events if isinstance(e, ev.BurnForced))
            return view.say("opt.force_burn", target=view.person(state, target, listener))

        sentences: list[str] = []
        moved: list[int] = []
        walks = [e for e in events if isinstance(e, ev.MarbleWalked)]
        if kind is MoveKind.OUT:
            out = next(e for e in events if isinstance(e, ev.MarbleCameOut))
            sentences.append(view.say(
                "opt.out", card=view.card_title(move.card), marble=view.marble(out.marble),
                base=view.base(state, out.cell, out.marble, listener), cell=out.cell,
            ))
            sentences.extend(self._captures(state, events, listener, sweep=False))
            moved.append(out.marble)
        elif kind is MoveKind.SWAP:
            sentences.extend(self._swap(state, move, after, listener))
            moved.append(move.marble)
        elif kind is MoveKind.SPLIT:
            for index, walk in enumerate(walks):
                steps = move.steps if index == 0 else move.second_steps
                sentences.append(view.say(
                    "opt.split.first" if index == 0 else "opt.split.second",
                    marble=view.marble(walk.marble), steps=view.steps(steps),
                    origin=view.place("from", state, walk.start, walk.marble, listener),
                    dest=view.landing(state, walk.start, walk.end, walk.marble, listener),
                ))
                sentences.extend(self._captures(state, _captures_after(events, walk), listener, sweep=False))
                moved.append(walk.marble)
        else:
            walk = walks[0]
            sentences.append(self._walk(state, move, walk, listener))
            sentences.extend(self._captures(state, events, listener, sweep=kind is MoveKind.SWEEP))
            moved.append(walk.marble)

        sentences.extend(self._ending(state, events, listener))
        on_track = [marble for marble in moved if is_track(after.marbles[marble])]
        split = kind is MoveKind.SPLIT
        sentences.extend(self._safe_near(after, on_track, listener, split))
        sentences.extend(self._near(after, on_track, listener, split))
        return " ".join(sentences)

    def _walk(self, state: GameState, move: Move, walk: ev.MarbleWalked, listener: str) -> str:
        view = self.view
        fields = {
            "marble": view.marble(walk.marble),
            "origin": view.place("from", state, walk.start, walk.marble, listener),
            "dest": view.landing(state, walk.start, walk.end, walk.marble, listener),
        }
        if move.kind is MoveKind.SWEEP:
            return view.say("opt.plough" if state.rules.rule_set == "karooty" else "opt.sweep", **fields)  # KA9
        if move.card == "A":
            return view.say("opt.ace", n=move.steps, **fields)
        if move.backward:
            return view.say("opt.back", **fields)
        if move.card == "7":
            return view.say("opt.seven", **fields)
        if is_push(state, state.turn, move.card, walk.marble):
            key = "opt.push.round" if goes_round_again(walk.start, walk.end, walk.marble) else "opt.push"
            return view.say(key, **{**fields, "marble": view.marble_ref(state, walk.marble, listener)})
        return view.say("opt.walk", card=view.card_title(move.card), **fields)

    def _swap(self, state: GameState, move: Move, after: GameState, listener: str) -> list[str]:
        view = self.view
        sentences = [view.say(
            "opt.swap", marble=view.marble(move.marble),
            at=view.place("at", state, state.marbles[move.marble], move.marble, listener),
            other=view.marble_ref(state, move.second, listener),
            other_at=view.place("at", state, state.marbles[move.second], move.second, listener),
        )]
        if after.on_own_base(move.marble):
            lost = view.steps(progress(marble_colour(move.marble), state.marbles[move.marble]))
            sentences.append(view.say(
                "opt.swap.warning", marble=view.marble(move.marble),
                base=view.base(after, after.marbles[move.marble], move.marble, listener), steps=lost,
            ))
        return sentences

    def _captures(self, state: GameState, events: Sequence[ev.Event], listener: str, sweep: bool) -> list[str]:
        view = self.view
        captures = [e for e in events if isinstance(e, ev.MarbleCaptured)]
        if not captures:
            return [view.say("opt.sweep.clear")] if sweep else []
        items = []
        careful = False
        for capture in captures:
            ref = view.marble_ref(state, capture.marble, listener, own=True)
            careful = careful or relation(state, marble_colour(capture.marble), listener) is not Relation.OTHER
            if sweep:  # the sweep sends home what it passes, not only where it lands: say where each was
                ref = view.text("opt.capture.item", marble=ref, at=view.place("at", state, capture.position, capture.marble, listener))
            items.append(ref)
        return [view.say("opt.capture.careful" if careful else "opt.capture", marbles=view.catalogue.join(items))]

    def _ending(self, state: GameState, events: Sequence[ev.Event], listener: str) -> list[str]:
        if any(isinstance(e, ev.Won) for e in events):
            return [self.view.say("opt.win")]
        for e in events:
            if isinstance(e, ev.PlayerFinished) and e.colour == state.turn and e.partner is not None:
                return [self.view.say("opt.finish", partner=self.view.player_poss(state, e.partner, listener))]
        return []

    def _safe_near(self, after: GameState, marbles: list[int], listener: str, split: bool) -> list[str]:
        """How short of its safe zone each moved marble ends, when one card could bring it in."""
        view = self.view
        sentences = []
        for marble in marbles:
            short = steps_to_safe(after, marble)
            if short is None:
                continue
            owner = view.player_poss(after, marble_colour(marble), listener)
            if split:
                sentences.append(view.say("opt.safe_near.named", marble=view.marble(marble), steps=view.steps(short), owner=owner))
            else:
                sentences.append(view.say("opt.safe_near", steps=view.steps(short), owner=owner))
        return sentences

    def _near(self, after: GameState, marbles: list[int], listener: str, split: bool) -> list[str]:
        """Who would be nearest ahead of and behind each moved marble; nothing when nobody is near."""
        view = self.view
        if split:
            items = []
            for marble in marbles:
                text = view.near(after, marble, listener, view.marble(marble))
                if text is not None:
                    items.append(view.text("opt.near.item", marble=view.marble(marble), text=text))
            return [view.say("opt.near.split", items=view.catalogue.clauses(items))] if items else []
        if not marbles:
            return []
        marble = marbles[0]
        subject = view.text("you") if marble_colour(marble) == listener else view.marble(marble)
        text = view.near(after, marble, listener, subject)
        return [view.say("opt.near", text=text)] if text is not None else []


def _ending(move: Move, after: GameState, events: Sequence[ev.Event]) -> Hashable:
    """What a move leaves behind, for telling apart moves that end the same."""
    captured = frozenset(e.marble for e in events if isinstance(e, ev.MarbleCaptured))
    return move.card, move.kind, tuple(after.marbles), captured, after.turn, after.forced_burn


def _captures_after(events: Sequence[ev.Event], walk: ev.MarbleWalked) -> list[ev.Event]:
    """The captures reported right after one walk (one part of a split)."""
    start = list(events).index(walk) + 1
    found: list[ev.Event] = []
    for event in events[start:]:
        if not isinstance(event, ev.MarbleCaptured):
            break
        found.append(event)
    return found
