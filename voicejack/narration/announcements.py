"""What the table announces unasked: the match start, the turn prompt, and a short reminder on resuming."""

from __future__ import annotations

from voicejack.engine import GameState, MoveKind, legal_moves, mover_colour
from voicejack.narration.readouts import Readouts
from voicejack.narration.viewpoint import Viewpoint


class Announcements:
    def __init__(self, view: Viewpoint, readouts: Readouts) -> None:
        self.view = view
        self.readouts = readouts

    def match_start(self, state: GameState, listener: str | None) -> list[str]:
        """The version (naming what complex mode changes), the listener's colour, partner and opponents,
        the colours of named seats, the turn order (full wording only) and who deals and leads."""
        view = self.view
        order = view.seats_from(state, listener)
        lines = [*self.rules_lines(state), self._seating(state, listener)]
        for colour in order:
            if colour != listener and view.named(state, colour):
                lines.append(view.say("start.colour.other", player=view.name(state, colour), colour=view.catalogue.colour(colour)))
        if not view.brief:  # seats always go round in the same order: an experienced player knows it
            names = [view.player(state, colour, listener) for colour in order]
            lines.append(view.say("start.order", players=view.catalogue.series(names)))
        dealer, leader = state.dealer, state.turn
        if dealer == listener:
            lines.append(view.say("start.deal.you_deal", leader=view.name(state, leader)))
        elif leader == listener:
            lines.append(view.say("start.deal.you_lead", dealer=view.name(state, dealer)))
        else:
            lines.append(view.say("start.deal", dealer=view.name(state, dealer), leader=view.name(state, leader)))
        return lines

    def rules_lines(self, state: GameState) -> list[str]:
        """The rule set and version, with what sets them apart (R3, variants.md), and the turn timer (ON11)."""
        view = self.view
        rules = state.rules
        if rules.rule_set != "voicejack":
            lines = [view.say(f"start.{rules.rule_set}")]
        else:
            lines = [view.say("start.complex" if rules.complex else "start.regular")]
        if rules.timer_seconds:
            lines.append(view.say("start.timer", seconds=rules.timer_seconds))
        return lines

    def _seating(self, state: GameState, listener: str | None) -> str:
        """Who plays with and against whom, from the listener's seat."""
        view = self.view
        rules = state.rules
        order = view.seats_from(state, listener)
        colour_word = view.catalogue.colour(listener) if listener is not None else ""
        if rules.teams:
            first_team = rules.team_of(order[0])
            second_team = tuple(c for c in order if c not in first_team)
            partner = rules.partner(listener) if listener is not None else None
            if partner is not None:
                return view.say(
                    "start.teams.you", colour=colour_word, partner=view.name(state, partner),
                    team=view.team(state, first_team, listener), others=view.team(state, second_team, listener),
                )
            return view.say("start.teams", first=view.team(state, first_team, listener), second=view.team(state, second_team, listener))
        if rules.players == 4:
            return view.say("start.solo.you", colour=colour_word) if listener is not None else view.say("start.solo")
        if listener is not None:
            return view.say("start.two.you", colour=colour_word, other=view.name(state, order[1]))
        return view.say("start.two", first=view.name(state, order[0]), second=view.name(state, order[1]))

    def resume_summary(self, state: GameState, listener: str | None) -> list[str]:
        """On resuming a saved match: the listener's colour and partner, the version and the table kind, and the
        result if it was already won."""
        view = self.view
        lines = []
        if listener is not None:
            colour = view.catalogue.colour(listener)
            partner = state.rules.partner(listener)
            if partner is not None:
                lines.append(view.say("resume.you.partner", colour=colour, partner=view.name(state, partner)))
            else:
                lines.append(view.say("resume.you", colour=colour))
        lines.append(view.say("resume.table", version=self.readouts.version(state), kind=self.readouts.kind(state)))
        if state.winner is not None:  # R38: nothing more is played, so the result is all there is to hear
            lines.append(view.won(state, state.winner, listener, over=True))
        return lines

    def turn_prompt(self, state: GameState, listener: str | None) -> str:
        """'Your turn, red. You hold ...' for the player to act; "Blue's turn." for everybody else."""
        view = self.view
        if state.winner is not None:
            return view.won(state, state.winner, listener, over=True)
        colour = state.turn
        if colour == listener:
            cards = view.cards(state.hands[colour])
            colour_word = view.catalogue.colour(colour)
            plays_on = mover_colour(state, colour)
            if state.forced_burn:
                return view.say("turn.you.forced", colour=colour_word, cards=cards)
            if plays_on != colour:
                prompt = view.say(
                    "turn.you.partner", colour=colour_word,
                    partner=view.catalogue.possessive(view.name(state, plays_on)), cards=cards,
                )
            else:
                prompt = view.say("turn.you", colour=colour_word, cards=cards)
            if all(move.kind is MoveKind.BURN for move in legal_moves(state)):  # R29, KA4: say it before a try
                prompt = f"{prompt} {view.say('turn.you.burn')}"
            return prompt
        player = view.catalogue.possessive(view.name(state, colour))
        return view.say("turn.other.forced" if state.forced_burn else "turn.other", player=player)
