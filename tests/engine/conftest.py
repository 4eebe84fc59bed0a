"""Shared builders for the engine tests: a GameState from a readable description.

    position(marbles={"red": [30, "home"], "blue": [31, 32]},
             hands={"red": ["Q", "A"]}, turn="red", players=4, teams=False)

Colours not named keep all four marbles at home; a shorter list is padded
with "home". Players whose hand is not given get one card each (so turns
and the complex 10 behave as at a real table), the dealer is the seat
before ``turn``, and the pile is the rest of the 52-card deck, shuffled by
a seeded generator. Nothing here reads or writes files.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

import pytest

from voicejack.engine import (
    HOME,
    SAFE_OFFSET,
    GameState,
    Rules,
    check_state,
    find_move,
    make_rules,
    marble_id,
    play,
)
from voicejack.engine import validity
from voicejack.engine.cards import full_deck
from voicejack.engine.events import Event
from voicejack.engine.state import Seat

PositionSpec = int | str
# Cards handed to players whose hand the test does not care about, in order of preference.
FILLER_CARDS = ("3", "8", "9", "6", "2", "Q", "J", "A", "K", "4", "5", "7", "10")


def parse_position(value: PositionSpec) -> int:
    """"home", "safe 1".."safe 4" or a track cell 0..75."""
    if isinstance(value, int):
        if not 0 <= value < 76:
            raise ValueError(f"track cell out of range: {value}")
        return value
    text = value.strip().lower()
    if text == "home":
        return HOME
    if text.startswith("safe "):
        place = int(text.split()[1])
        if not 1 <= place <= 4:
            raise ValueError(f"safe place out of range: {value}")
        return SAFE_OFFSET + place
    raise ValueError(f"not a position: {value!r}")


def build_position(
    marbles: Mapping[str, Sequence[PositionSpec]] | None = None,
    hands: Mapping[str, Sequence[str]] | None = None,
    turn: str = "red",
    players: int = 4,
    teams: bool = True,
    mode: str = "regular",
    *,
    dealer: str | None = None,
    deal_index: int = 0,
    discard: Iterable[str] = (),
    pile: Sequence[str] | None = None,
    forced_burn: bool = False,
    winner: tuple[str, ...] | None = None,
    seed: int = 0,
    rules: str = "voicejack",
) -> GameState:
    """``rules`` names the rule set (variants.md): voicejack, karooty or online."""
    table_rules = make_rules(players=players, teams=teams, mode=mode, rule_set=rules)
    return _build(table_rules, marbles, hands, turn, dealer, deal_index, discard, pile, forced_burn, winner, seed)


def _build(
    rules: Rules, marbles: Mapping[str, Sequence[PositionSpec]] | None, hands: Mapping[str, Sequence[str]] | None,
    turn: str, dealer: str | None, deal_index: int, discard: Iterable[str], pile: Sequence[str] | None,
    forced_burn: bool, winner: tuple[str, ...] | None, seed: int,
) -> GameState:
    positions = [HOME] * 16
    for colour, cells in (marbles or {}).items():
        if colour not in rules.seats:
            raise ValueError(f"{colour} is not at this table")
        if len(cells) > 4:
            raise ValueError(f"{colour} has only four marbles")
        for number, cell in enumerate(cells, start=1):
            positions[marble_id(colour, number)] = parse_position(cell)

    deck = Counter(full_deck())
    given = {colour: list(cards) for colour, cards in (hands or {}).items()}
    discard_list = list(discard)
    for cards in [*given.values(), discard_list]:
        deck.subtract(cards)
    if any(count < 0 for count in deck.values()):
        raise ValueError("more than four cards of a rank")
    for colour in rules.seats:
        if colour not in given:
            card = next(c for c in FILLER_CARDS if deck[c] > 0)
            deck[card] -= 1
            given[colour] = [card]
    rng = random.Random(seed)
    if pile is None:
        rest = [card for card, count in sorted(deck.items()) for _ in range(count)]
        rng.shuffle(rest)
        pile_list = rest
    else:
        pile_list = list(pile)
        if Counter(pile_list) != +deck:
            raise ValueError("hands + pile + discard must be the 52-card deck")
    seats = tuple(Seat(c, c.capitalize(), "human" if i == 0 else "bot") for i, c in enumerate(rules.seats))
    state = GameState(
        rules=rules,
        seats=seats,
        marbles=positions,
        hands=given,
        turn=turn,
        rng=rng,
        dealer=dealer or rules.previous_seat(turn),
        deal_index=deal_index,
        pile=pile_list,
        discard=discard_list,
        forced_burn=forced_burn,
        winner=winner,
    )
    check_state(state)  # the invariants of a valid table (marbles, cards, turn, winner): engine/validity.py
    return state


def do(state: GameState, phrase: str) -> tuple[GameState, list[Event]]:
    """Play the legal move with this canonical phrase (pure)."""
    return play(state, find_move(state, phrase))


@pytest.fixture(autouse=True)
def engine_debug_checks(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every move the engine applies in these tests is followed by the state check (engine/validity.py);
    the thousand-game test checks each game's end instead, or it would take four times as long."""
    validity.debug_checks = request.node.get_closest_marker("slow") is None
    yield
    validity.debug_checks = False


@pytest.fixture
def position() -> Callable[..., GameState]:
    return build_position


@pytest.fixture
def apply_phrase() -> Callable[[GameState, str], tuple[GameState, list[Event]]]:
    return do

