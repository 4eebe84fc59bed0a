"""Starting a match and the pure, copy-on-play interface."""

from __future__ import annotations

import random

from voicejack.engine.board import SEATS_FOUR, SEATS_TWO
from voicejack.engine.cards import full_deck
from voicejack.engine.events import Dealt, Event
from voicejack.engine.moves import Move
from voicejack.engine.dealing import deal_batch, first_deal_size
from voicejack.engine.rulesets import VOICEJACK
from voicejack.engine.rules import apply_move
from voicejack.engine.state import GameState, Rules, Seat, all_home


def make_rules(
    players: int = 4, teams: bool = True, mode: str = "regular",
    rule_set: str = VOICEJACK, turn_seconds: int | None = None,
) -> Rules:
    """The table's choices; ValueError, in a player's words, for a table the rule set does not allow (R1, KA1)."""
    if players not in (2, 4):
        raise ValueError("Jackaroo is played by 2 or 4 players, never 3")
    seats = SEATS_FOUR if players == 4 else SEATS_TWO
    return Rules(mode=mode, teams=teams and players == 4, seats=seats, rule_set=rule_set, turn_seconds=turn_seconds)


def default_seats(rules: Rules) -> tuple[Seat, ...]:
    return tuple(
        Seat(colour, colour.capitalize(), "human" if index == 0 else "bot")
        for index, colour in enumerate(rules.seats)
    )


def new_game(rules: Rules, seed: int = 0, seats: tuple[Seat, ...] | None = None) -> tuple[GameState, list[Event]]:
    """A match after its first deal: a random first dealer (R11), a shuffled deck, the first batch dealt."""
    rng = random.Random(seed)
    dealer = rng.choice(rules.seats)
    pile = full_deck()
    rng.shuffle(pile)
    state = GameState(
        rules=rules,
        seats=seats or default_seats(rules),
        marbles=all_home(),
        hands={colour: [] for colour in rules.seats},
        turn=rules.next_seat(dealer),
        rng=rng,
        dealer=dealer,
        deal_index=0,
        pile=pile,
    )
    size = first_deal_size(rules)
    deal_batch(state, size)
    return state, [Dealt(dealer, 0, size, state.turn, len(state.pile))]


def play(state: GameState, move: Move) -> tuple[GameState, list[Event]]:
    """Pure form of apply_move: the state after ``move`` and what happened; ``state`` is untouched."""
    after = state.copy()
    events = apply_move(after, move)
    return after, events
