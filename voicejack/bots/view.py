"""What one seat may know, as a GameState of its own (hidden information).

A seat sees the board, its own hand, the played and burned cards and how
many cards every other hand and the pile hold. It does not see the other
hands, the order of the pile, or the generator that will shuffle the next
pile. ``seat_view`` builds a state in which all of that is replaced by the
cards the seat has not seen, in an order that depends only on what it
knows (or on the bot's own generator, to sample one possible world).
Bots compute everything from such a view, so they cannot cheat even by
accident.
"""

from __future__ import annotations

import random
from collections import Counter

from voicejack.engine import GameState
from voicejack.engine.cards import RANK_ORDER, full_deck

_FULL_DECK = Counter(full_deck())


def unseen_cards(state: GameState, colour: str) -> list[str]:
    """The cards ``colour`` has not seen (the other hands and the pile together), sorted by rank.

    Normally the full deck minus the seat's own hand and the played cards.
    A hand-made table whose cards do not add up to one deck falls back on
    the hidden cards' ranks, which is all a real table would let one count.
    """
    counts = _FULL_DECK.copy()
    counts.subtract(state.hands[colour])
    counts.subtract(state.discard)
    needed = len(state.pile) + sum(len(hand) for seat, hand in state.hands.items() if seat != colour)
    if min(counts.values(), default=0) < 0 or sum(counts.values()) != needed:
        hidden = list(state.pile)
        for seat, hand in state.hands.items():
            if seat != colour:
                hidden.extend(hand)
        return sorted(hidden, key=RANK_ORDER.__getitem__)
    return sorted(counts.elements(), key=RANK_ORDER.__getitem__)


def seat_view(state: GameState, colour: str, rng: random.Random | None = None) -> GameState:
    """A copy of ``state`` holding only what ``colour`` may know.

    The other hands keep their sizes and the pile its length, but their
    cards are the unseen cards: in rank order, or shuffled by ``rng`` to
    sample one world consistent with what the seat knows. The view's own
    generator is fresh, and its history is empty.
    """
    unseen = unseen_cards(state, colour)
    if rng is not None:
        rng.shuffle(unseen)
    hands: dict[str, list[str]] = {}
    taken = 0
    for seat in state.rules.seats:
        if seat == colour:
            hands[seat] = list(state.hands[seat])
            continue
        size = len(state.hands[seat])
        hands[seat] = unseen[taken:taken + size]
        taken += size
    return GameState(
        rules=state.rules,
        seats=state.seats,
        marbles=list(state.marbles),
        hands=hands,
        turn=state.turn,
        rng=random.Random(0),
        dealer=state.dealer,
        deal_index=state.deal_index,
        pile=unseen[taken:],
        discard=list(state.discard),
        forced_burn=state.forced_burn,
        last_card=state.last_card,
        winner=state.winner,
        history=[],
        board=list(state.board),
    )
