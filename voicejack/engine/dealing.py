"""Dealing (R9-R11, KA3, ON2): batches from the top of the pile, and reshuffling when it runs short."""

from __future__ import annotations

from voicejack.engine.cards import FOUR_DEAL_SIZES, TWO_PLAYER_DEAL_SIZE
from voicejack.engine.events import Dealt, Event, Reshuffled
from voicejack.engine.rulesets import Deals
from voicejack.engine.state import GameState, Rules


def deal(state: GameState, events: list[Event]) -> None:
    """R9-R11: deal the next batch, reshuffling and passing the deal on when the pile is short."""
    rules = state.rules
    if rules.book.deals is Deals.FOUR_EACH_DEALER_MOVES:
        _deal_four_each(state, events)
        return
    players = rules.players
    next_index = state.deal_index + 1
    if players == 4:
        new_cycle = next_index >= len(FOUR_DEAL_SIZES)
        size = FOUR_DEAL_SIZES[0] if new_cycle else FOUR_DEAL_SIZES[next_index]
    else:
        new_cycle = False
        size = TWO_PLAYER_DEAL_SIZE
    if new_cycle or len(state.pile) < size * players:
        cards = state.pile + state.discard
        state.rng.shuffle(cards)
        state.pile = cards
        state.discard = []
        state.dealer = rules.next_seat(state.dealer)
        next_index = 0
        size = FOUR_DEAL_SIZES[0] if players == 4 else TWO_PLAYER_DEAL_SIZE
        events.append(Reshuffled(state.dealer, len(cards)))
    deal_batch(state, size)
    state.deal_index = next_index
    events.append(Dealt(state.dealer, next_index, size, rules.next_seat(state.dealer), len(state.pile)))


def _deal_four_each(state: GameState, events: list[Event]) -> None:
    """ON2: 4 cards each every deal; the dealer moves on one seat every deal, a reshuffling one included."""
    rules = state.rules
    state.dealer = rules.next_seat(state.dealer)
    if len(state.pile) < TWO_PLAYER_DEAL_SIZE * rules.players:
        cards = state.pile + state.discard
        state.rng.shuffle(cards)
        state.pile = cards
        state.discard = []
        events.append(Reshuffled(state.dealer, len(cards)))
    deal_batch(state, TWO_PLAYER_DEAL_SIZE)
    state.deal_index = 0
    events.append(Dealt(state.dealer, 0, TWO_PLAYER_DEAL_SIZE, rules.next_seat(state.dealer), len(state.pile)))


def first_deal_size(rules: Rules) -> int:
    """Cards each player gets in a match's first deal (R9, ON2)."""
    return FOUR_DEAL_SIZES[0] if rules.players == 4 else TWO_PLAYER_DEAL_SIZE


def deal_batch(state: GameState, size: int) -> None:
    """Each player takes ``size`` cards from the top of the pile, in one block, from the player after the dealer (R9)."""
    rules = state.rules
    seat = rules.next_seat(state.dealer)
    for _ in range(rules.players):
        state.hands[seat].extend(state.pile[:size])
        del state.pile[:size]
        seat = rules.next_seat(seat)
