"""Readouts on request: the board as navigable lines, one player's line, where a marble is, hand, score, last card.

The board readout is a list the player moves through line by line: a
summary first (whose turn, who is ahead, marbles in and on the track per
side), then one line per player in seat order from the listener, with
what is alike said once ("red 2, 3 and 4 at home"), then the last card,
then the version, the table kind and the pile.
"""

from __future__ import annotations

from collections.abc import Sequence

from voicejack.engine import GameState, Move, MoveKind, marble_colour, progress
from voicejack.engine import events as ev
from voicejack.engine.board import HOME, colour_marbles, marble_number
from voicejack.narration.facts import Relation, is_safe, is_track, relation, steps_to_safe
from voicejack.narration.outcomes import OutcomeNarrator
from voicejack.narration.viewpoint import Viewpoint

#: A recent move as the table keeps it: the state before it and its events.
Recent = tuple[GameState, Sequence[ev.Event]]

#: Events of a move that belong to the card itself (a deal or a reshuffle that followed is not the last card).
_CARD_EVENTS = (
    ev.CardPlayed, ev.MarbleCameOut, ev.MarbleWalked, ev.MarbleCaptured, ev.EnteredSafeZone, ev.MarblesSwapped,
    ev.BurnForced, ev.RandomBurn, ev.TimedOut, ev.CardBurned, ev.HandBurned, ev.PlayerFinished, ev.Won,
)


class Readouts:
    def __init__(self, view: Viewpoint, outcomes: OutcomeNarrator) -> None:
        self.view = view
        self.outcomes = outcomes

    # ---------------------------------------------------------------- board

    def board_lines(self, state: GameState, listener: str | None) -> list[str]:
        view = self.view
        lines = [self.summary(state, listener)]
        lines.extend(self.player_line(state, colour, listener) for colour in view.seats_from(state, listener))
        lines.append(self.last_card(state, listener))
        lines.append(view.say(
            "board.footer", version=self.version(state), kind=self.kind(state),
            cards=view.catalogue.card_count(len(state.pile), view.brief),
        ))
        return lines

    def summary(self, state: GameState, listener: str | None) -> str:
        """Whose turn (or who won), who is ahead, and each side's marbles in and on the track."""
        view = self.view
        if state.winner is not None:
            turn = view.won(state, state.winner, listener, over=True)
        elif state.turn == listener:
            turn = view.say("board.turn.you.forced" if state.forced_burn else "board.turn.you")
        else:
            player = view.catalogue.possessive(view.name(state, state.turn))
            turn = view.say("board.turn.other.forced" if state.forced_burn else "board.turn.other", player=player)
        sides = self._sides(state, listener)
        said = view.catalogue.sentence(view.catalogue.clauses(self._side_counts(state, sides, listener)))
        ranked = sorted(sides, key=lambda side: _race(state, side), reverse=True)
        if _race(state, ranked[0]) > _race(state, ranked[1]):
            standing = view.text("board.ahead", side=self._side_name(state, ranked[0], listener), sides=said)
        else:
            standing = view.text("board.level", sides=said)
        return view.text("board.summary", turn=turn, standing=standing)

    def _side_counts(self, state: GameState, sides: list[tuple[str, ...]], listener: str | None) -> list[str]:
        """Marbles in and on the track per side, the counts that are zero left out; sides all at home said together."""
        view = self.view
        items = []
        at_home = []
        for side in sides:
            name = self._side_name(state, side, listener)
            count_in = sum(state.marbles_in(c) for c in side)
            count_out = sum(_on_track(state, c) for c in side)
            if count_in and count_out:
                items.append(view.text("board.side", side=name, count_in=count_in, count_out=count_out))
            elif count_in or count_out:
                key = "board.side.in" if count_in else "board.side.out"
                items.append(view.text(key, side=name, count_in=count_in, count_out=count_out))
            else:
                at_home.append(name)
        if len(at_home) == len(sides):
            return [view.text("board.everyone_home")]
        if at_home:
            items.append(view.text("board.side.home", sides=view.catalogue.join(at_home)))
        return items

    def player_line(self, state: GameState, colour: str, listener: str | None) -> str:
        """One player: who (and partner), cards held, out of the deal or finished, then their four marbles."""
        view = self.view
        colour_word = view.catalogue.colour(colour)
        if colour == listener:
            who = view.text("board.who.you", colour=colour_word)
        elif view.named(state, colour):
            who = view.text("board.who.named", player=view.name(state, colour), colour=colour_word)
        else:
            who = view.text("board.who", player=view.name(state, colour))
        if relation(state, colour, listener) is Relation.PARTNER:
            who = view.text("board.who.partner", who=who)
        hand = state.hands.get(colour, [])
        details = [view.catalogue.card_count(len(hand), view.brief)]
        if not hand and state.winner is None:
            details.append(view.text("board.out_of_deal"))
        partner = state.rules.partner(colour)
        if partner is not None and state.is_finished(colour):
            details.append(view.text("board.finished", partner=view.player_poss(state, partner, listener)))
        marbles = view.catalogue.sentence(self._marbles(state, colour, listener))
        return view.say("board.player", who=who, details=view.catalogue.series(details), marbles=marbles)

    def _marbles(self, state: GameState, colour: str, listener: str | None) -> str:
        """A colour's four marbles, the ones on the track first, those at home said together."""
        view = self.view
        marbles = colour_marbles(colour)
        home = [m for m in marbles if state.marbles[m] == HOME]
        if len(home) == len(marbles):
            return view.text("board.all_home")
        if state.is_finished(colour):
            return view.text("board.all_in")
        placed = sorted((m for m in marbles if m not in home), key=lambda m: is_safe(state.marbles[m]))
        items = [
            view.text("board.marble", marble=view.marble(m), at=view.place("at", state, state.marbles[m], m, listener))
            for m in placed
        ]
        if home:
            group = view.catalogue.marble_group(colour, [marble_number(m) for m in home])
            items.append(view.text("board.home", marbles=group))
        return view.catalogue.series(items)

    def _sides(self, state: GameState, listener: str | None) -> list[tuple[str, ...]]:
        """The teams, or each player alone, in seat order from the listener."""
        sides: list[tuple[str, ...]] = []
        for colour in self.view.seats_from(state, listener):
            side = state.rules.team_of(colour) if state.rules.teams else (colour,)
            if not any(colour in known for known in sides):
                sides.append(tuple(sorted(side, key=lambda c: c != listener)))
        return sides

    def _side_name(self, state: GameState, side: tuple[str, ...], listener: str | None) -> str:
        if len(side) == 1:
            return self.view.player(state, side[0], listener)
        return self.view.team(state, side, listener)

    def version(self, state: GameState) -> str:
        rules = state.rules
        if rules.rule_set != "voicejack":
            return self.view.text(f"version.{rules.rule_set}")
        return self.view.text("version.complex" if rules.complex else "version.regular")

    def kind(self, state: GameState) -> str:
        rules = state.rules
        return self.view.text("kind.teams" if rules.teams else "kind.solo" if rules.players == 4 else "kind.two")

    # --------------------------------------------------------------- where

    def where_is(self, state: GameState, marble: int, listener: str | None) -> str:
        """Where one marble stands, how near its safe zone, and who is near it (when somebody is).

        A marble of a colour nobody plays (blue with two players) gets a plain answer, not an error:
        a player may well ask about it.
        """
        view = self.view
        if marble_colour(marble) not in state.rules.seats:
            return view.say("where.absent", colour=view.catalogue.colour(marble_colour(marble)))
        position = state.marbles[marble]
        sentences = [view.say("where", marble=view.marble_ref(state, marble, listener), at=view.place("at", state, position, marble, listener))]
        if is_track(position):
            short = steps_to_safe(state, marble)
            if short is not None:
                owner = view.player_poss(state, marble_colour(marble), listener)
                sentences.append(view.say("where.safe_near", steps=view.steps(short), owner=owner))
            text = view.near(state, marble, listener, view.text("where.subject"))
            if text is not None:
                sentences.append(view.say("where.near", text=text))
        return " ".join(sentences)

    # --------------------------------------------------------- hand, score

    def hand(self, state: GameState, listener: str | None) -> str:
        """The listener's own cards (with no listener: the cards of the player to act)."""
        view = self.view
        colour = listener or state.turn
        cards = state.hands.get(colour, [])
        if colour == listener:
            return view.say("hand.you", cards=view.cards(cards)) if cards else view.say("hand.you.empty")
        name = view.name(state, colour)
        return view.say("hand.other", player=name, cards=view.cards(cards)) if cards else view.say("hand.other.empty", player=name)

    def score(self, state: GameState, listener: str | None) -> str:
        """Marbles in per player or team, and how many are needed to win."""
        view = self.view
        if state.rules.teams:
            sentences = []
            for team in self._sides(state, listener):
                count = sum(state.marbles_in(c) for c in team)
                players = view.catalogue.series([self._score_item(state, c, listener) for c in team])
                if listener in team:
                    sentences.append(view.say("score.team.you", count=count, players=players))
                else:
                    names = view.text("team", first=view.name(state, team[0]), second=view.name(state, team[1]))
                    sentences.append(view.say("score.team", team=names, count=count, players=players))
            sentences.append(view.say("score.team.goal"))
            return " ".join(sentences)
        players = view.catalogue.series([self._score_item(state, c, listener) for c in view.seats_from(state, listener)])
        return " ".join([view.say("score.solo", players=players), view.say("score.solo.goal")])

    def _score_item(self, state: GameState, colour: str, listener: str | None) -> str:
        count = state.marbles_in(colour)
        amount: object = count if count else self.view.text("score.none")
        return self.view.text("score.item", count=amount, player=self.view.player(state, colour, listener))

    # ------------------------------------------------------------ last card

    def last_card(self, state: GameState, listener: str | None, recent: Recent | None = None) -> str:
        """The last card played or burned: with ``recent`` (the state before it and its events) where the
        marbles went and whom it sent home; without (a table just loaded), what the move itself says.
        Cards further back are gone, as at a real table."""
        view = self.view
        last = state.last_card
        if last is None:
            return view.say("last.none")
        if recent is not None:
            before, events = recent
            card_events = [e for e in events if isinstance(e, _CARD_EVENTS)]
            told = self.outcomes.outcome(before, card_events, state, listener, name_player=True)
            if told:
                return view.say("last.told", told=" ".join(told))
        player = view.player(state, last.colour, listener)
        move = last.move
        if move.kind is MoveKind.BURN_HAND:
            return view.say("last.burn_hand", player=player)
        if move.kind is MoveKind.BURN:
            return view.say("last.burn", player=player, card=view.catalogue.card_a(last.card))
        if move.kind is MoveKind.TIME_OUT:
            return view.say("last.time_out", player=player, card=view.catalogue.card_a(last.card))
        return view.say("last.card", player=player, what=self._what(state, move, listener))

    def _what(self, state: GameState, move: Move, listener: str | None) -> str:
        view = self.view
        card = view.catalogue.card_a(move.card)
        kind = move.kind
        if kind is MoveKind.OUT:
            return view.text("what.out", card=card)
        if kind is MoveKind.FORCE_BURN:
            return view.text("what.random_burn" if state.rules.book.random_ten else "what.force")
        marble = view.marble_ref(state, move.marble, listener)
        if kind is MoveKind.SWEEP:
            return view.text("what.plough" if state.rules.rule_set == "karooty" else "what.sweep", marble=marble)
        if kind is MoveKind.SPLIT:
            return view.text(
                "what.split", marble=marble, first_steps=move.steps,
                other=view.marble_ref(state, move.second, listener), second_steps=move.second_steps,
            )
        if kind is MoveKind.SWAP:
            return view.text("what.swap", marble=marble, other=view.marble_ref(state, move.second, listener))
        if move.card == "A":
            return view.text("what.ace", n=move.steps, marble=marble)
        return view.text("what.walk", card=card, marble=marble)


def _on_track(state: GameState, colour: str) -> int:
    return sum(1 for m in colour_marbles(colour) if is_track(state.marbles[m]))


def _race(state: GameState, side: Sequence[str]) -> tuple[int, int]:
    """How far a side is in the race: marbles in first, then the steps its marbles have walked."""
    walked = sum(progress(c, state.marbles[m]) + 1 for c in side for m in colour_marbles(c))
    return sum(state.marbles_in(c) for c in side), walked
