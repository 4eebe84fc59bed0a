"""The table and the deal, R1-R12."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from voicejack.engine import COLOURS, HOME, legal_moves, make_rules, new_game, play
from voicejack.engine import events as ev
from voicejack.engine.cards import full_deck


def all_cards(state) -> Counter[str]:
    return Counter([*state.pile, *state.discard, *(c for hand in state.hands.values() for c in hand)])


def test_r1_two_or_four_players_never_three() -> None:
    """R1: seats in turn order; 3 players are refused."""
    assert make_rules(players=4).seats == ("red", "blue", "green", "yellow")
    assert make_rules(players=2, teams=False).seats == ("red", "green")
    with pytest.raises(ValueError):
        make_rules(players=3)


def test_r2_teams_are_opposite_and_two_players_have_none() -> None:
    """R2: red+green against blue+yellow; 2 players never have partners."""
    rules = make_rules(players=4, teams=True)
    assert rules.partner("red") == "green" and rules.partner("blue") == "yellow"
    assert rules.team_of("yellow") == ("blue", "yellow")
    assert make_rules(players=4, teams=False).partner("red") is None
    assert make_rules(players=2, teams=True).partner("red") is None


def test_r3_version_is_chosen() -> None:
    """R3: regular or complex, nothing else."""
    assert make_rules(mode="complex").complex and not make_rules(mode="regular").complex
    with pytest.raises(ValueError):
        make_rules(mode="hard")


@pytest.mark.parametrize(("players", "teams"), [(4, True), (4, False), (2, False)])
def test_r5_r9_r11_new_game(players: int, teams: bool) -> None:
    """R5/R9/R11: all marbles home, 4 cards each, the player after the dealer leads."""
    rules = make_rules(players=players, teams=teams)
    state, events = new_game(rules, seed=3)
    assert state.marbles == [HOME] * 16
    assert all(len(state.hands[c]) == 4 for c in rules.seats)
    assert len(state.pile) == 52 - 4 * players
    assert state.turn == rules.next_seat(state.dealer)
    assert all_cards(state) == Counter(full_deck())
    assert events == [ev.Dealt(state.dealer, 0, 4, state.turn, len(state.pile))]


def test_r11_first_dealer_is_random_but_seeded() -> None:
    """R11: the first dealer comes from the seeded generator: it varies with the seed, not between runs."""
    rules = make_rules()
    dealers = {new_game(rules, seed=s)[0].dealer for s in range(40)}
    assert dealers == set(rules.seats)
    a, _ = new_game(rules, seed=11)
    b, _ = new_game(rules, seed=11)
    assert (a.dealer, a.hands, a.pile) == (b.dealer, b.hands, b.pile)


def test_r9_each_player_takes_a_block_from_the_top(position, apply_phrase) -> None:
    """R9: the next deal gives the player after the dealer the top cards, then the next seat, in blocks."""
    rest = Counter(full_deck())
    rest.subtract(["2"])
    pile = [card for card, n in sorted(rest.items()) for _ in range(n)]
    random.Random(5).shuffle(pile)
    state = position(hands={"red": ["2"], "blue": [], "green": [], "yellow": []}, dealer="blue", turn="red", pile=pile)
    after, events = apply_phrase(state, "burn hand")
    assert after.hands["green"] == pile[0:4]
    assert after.hands["yellow"] == pile[4:8]
    assert after.hands["red"] == pile[8:12]
    assert after.hands["blue"] == pile[12:16]
    assert after.pile == pile[16:]
    assert after.turn == "green"  # R11: the player after the dealer leads, not the seat after red
    assert after.deal_index == 1
    assert ev.Dealt("blue", 1, 4, "green", len(pile) - 16) in events
    assert events[-1] == ev.TurnPassed("green")


def test_r9_third_deal_of_the_cycle_is_five_each(position, apply_phrase) -> None:
    """R9: 4, 4 then 5 cards."""
    state = position(hands={"red": ["2"], "blue": [], "green": [], "yellow": []}, deal_index=1, discard=["2"] * 3)
    assert len(state.pile) == 48
    after, _ = apply_phrase(state, "burn hand")
    assert all(len(after.hands[c]) == 5 for c in COLOURS)
    assert after.deal_index == 2 and len(after.pile) == 28


def test_r10_reshuffle_after_a_four_player_cycle(position, apply_phrase) -> None:
    """R10: after 4-4-5 the pile is empty: everything played is shuffled, the dealer moves on."""
    rest = Counter(full_deck())
    rest.subtract(["7"])
    discard = [card for card, n in sorted(rest.items()) for _ in range(n)]
    state = position(
        hands={"red": ["7"], "blue": [], "green": [], "yellow": []},
        dealer="yellow", deal_index=2, discard=discard, pile=[],
    )
    after, events = apply_phrase(state, "burn hand")
    assert ev.Reshuffled("red", 52) in events
    assert ev.Dealt("red", 0, 4, "blue", 36) in events
    assert events.index(ev.Reshuffled("red", 52)) < events.index(ev.Dealt("red", 0, 4, "blue", 36))
    assert after.dealer == "red" and after.turn == "blue" and after.deal_index == 0
    assert after.discard == []
    assert all(len(after.hands[c]) == 4 for c in COLOURS)
    assert all_cards(after) == Counter(full_deck())


def test_r10_two_players_reshuffle_only_when_short(position, apply_phrase) -> None:
    """R10: 2 players need 8 cards; exactly 8 left is dealt, 7 left forces a reshuffle."""
    for left, reshuffles in ((8, False), (7, True)):
        rest = Counter(full_deck())
        rest.subtract(["7"])
        cards = [card for card, n in sorted(rest.items()) for _ in range(n)]
        pile, discard = cards[:left], cards[left:]
        state = position(
            hands={"red": ["7"], "green": []}, players=2, teams=False,
            dealer="green", deal_index=5, discard=discard, pile=pile,
        )
        after, events = apply_phrase(state, "burn hand")
        assert any(isinstance(e, ev.Reshuffled) for e in events) is reshuffles
        assert all(len(after.hands[c]) == 4 for c in ("red", "green"))
        assert all_cards(after) == Counter(full_deck())
        if reshuffles:
            assert after.dealer == "red" and after.turn == "green" and after.deal_index == 0
            assert len(after.pile) == 44
        else:
            assert after.dealer == "green" and after.turn == "red" and after.deal_index == 6
            assert after.hands["red"] == pile[:4] and after.hands["green"] == pile[4:]


def _play_until_deals(players: int, teams: bool, deals: int, seed: int) -> list[ev.Event]:
    state, events = new_game(make_rules(players=players, teams=teams), seed=seed)
    chooser = random.Random(seed)
    seen = list(events)
    while sum(isinstance(e, ev.Dealt) for e in seen) < deals and state.winner is None:
        state, events = play(state, chooser.choice(legal_moves(state)))
        seen.extend(events)
    return seen


def test_r9_r10_r11_four_player_cycle_over_a_game() -> None:
    """R9-R11: deal sizes 4, 4, 5; after each cycle a reshuffle and the next dealer; the seat after the dealer leads."""
    events = _play_until_deals(4, True, 10, seed=21)
    deals = [e for e in events if isinstance(e, ev.Dealt)]
    assert len(deals) >= 10
    rules = make_rules()
    for index, deal in enumerate(deals):
        assert deal.deal_index == index % 3
        assert deal.cards_each == (4, 4, 5)[index % 3]
        assert deal.leader == rules.next_seat(deal.dealer)
        if index % 3 == 0 and index > 0:
            assert deal.dealer == rules.next_seat(deals[index - 1].dealer)
        elif index > 0:
            assert deal.dealer == deals[index - 1].dealer
    assert sum(isinstance(e, ev.Reshuffled) for e in events) == (len(deals) - 1) // 3
    for event, after in zip(events, events[1:]):
        if isinstance(event, ev.Dealt) and isinstance(after, ev.TurnPassed):
            assert after.colour == event.leader


def test_r9_r10_two_player_deals_reshuffle_every_seventh() -> None:
    """R9/R10: 2 players get 4 each; 52 cards make six deals, the seventh needs a reshuffle."""
    events = _play_until_deals(2, False, 14, seed=4)
    deals = [e for e in events if isinstance(e, ev.Dealt)]
    assert all(d.cards_each == 4 for d in deals)
    reshuffle_positions = [i for i, d in enumerate(deals) if d.deal_index == 0 and i > 0]
    assert reshuffle_positions[:2] == [6, 12]
    assert [d.pile_left for d in deals[:7]] == [44, 36, 28, 20, 12, 4, 44]


def test_r4_r6_progress_and_bases() -> None:
    """R4/R6: bases 0, 19, 38, 57; progress is (cell - base) mod 76, safe place k counts 75 + k."""
    from voicejack.engine import BASE_CELL, progress

    assert BASE_CELL == {"red": 0, "blue": 19, "green": 38, "yellow": 57}
    assert progress("red", 75) == 75 and progress("blue", 18) == 75 and progress("blue", 0) == 57
    assert progress("yellow", 57) == 0 and progress("yellow", 56) == 75 and progress("green", 37) == 75
    assert progress("green", 76) == 76 and progress("red", 79) == 79
    assert progress("red", HOME) == -1


def test_r8_one_deck_of_ranks() -> None:
    """R8: 52 cards, four of each rank, suits ignored."""
    deck = Counter(full_deck())
    assert sum(deck.values()) == 52
    assert deck == Counter({r: 4 for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")})
