"""Positions for the narration tests, built directly (no files).

    table(marbles={"red": [30], "blue": [31, 32]}, hands={"red": ["Q", "A"]}, teams=False)

Colours not named keep their marbles at home; a short list is padded with
"home". Players whose hand is not given hold one nine (so turns and the
complex 10 behave as at a real table). The pile is the rest of the deck.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from voicejack.engine import HOME, SAFE_OFFSET, GameState, LastCard, Move, find_move, make_rules, marble_id, play
from voicejack.engine import events as ev
from voicejack.engine.cards import full_deck
from voicejack.engine.state import Seat
from voicejack.narration import Narrator

Spot = int | str


def spot(value: Spot) -> int:
    if isinstance(value, int):
        return value
    if value == "home":
        return HOME
    assert value.startswith("safe "), value
    return SAFE_OFFSET + int(value.split()[1])


def table(
    marbles: Mapping[str, Sequence[Spot]] | None = None,
    hands: Mapping[str, Sequence[str]] | None = None,
    turn: str = "red",
    players: int = 4,
    teams: bool = True,
    mode: str = "regular",
    *,
    names: Mapping[str, str] | None = None,
    dealer: str | None = None,
    deal_index: int = 0,
    pile: Sequence[str] | None = None,
    discard: Sequence[str] = (),
    forced_burn: bool = False,
    last_card: LastCard | None = None,
    winner: tuple[str, ...] | None = None,
    rules_set: str = "voicejack",
) -> GameState:
    rules = make_rules(players=players, teams=teams, mode=mode, rule_set=rules_set)
    positions = [HOME] * 16
    for colour, spots in (marbles or {}).items():
        for number, value in enumerate(spots):
            positions[marble_id(colour, number + 1)] = spot(value)
    given = dict(hands or {})
    all_hands = {colour: list(given.get(colour, ["9"])) for colour in rules.seats}
    if pile is None:
        left = Counter(full_deck())
        left.subtract(card for hand in all_hands.values() for card in hand)
        left.subtract(discard)
        rest = sorted(left.elements())
        random.Random(0).shuffle(rest)
        pile = rest
    seats = tuple(Seat(colour, (names or {}).get(colour, colour.capitalize()), "bot") for colour in rules.seats)
    return GameState(
        rules=rules,
        seats=seats,
        marbles=positions,
        hands=all_hands,
        turn=turn,
        rng=random.Random(1),
        dealer=dealer or rules.previous_seat(turn),
        deal_index=deal_index,
        pile=list(pile),
        discard=list(discard),
        forced_burn=forced_burn,
        last_card=last_card,
        winner=winner,
    )


def after(state: GameState, phrase: str) -> tuple[GameState, GameState, list[ev.Event]]:
    """(before, after, events) of playing a legal phrase."""
    move: Move = find_move(state, phrase)
    new_state, events = play(state, move)
    return state, new_state, events


def describe(narrator: Narrator, state: GameState, listener: str | None = None) -> dict[str, str]:
    """Every legal phrase -> its description, told to the player to act."""
    return {move.phrase: text for move, text in narrator.describe_options(state, listener or state.turn)}
