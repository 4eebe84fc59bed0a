"""The expert bot: it searches worlds sampled from its seat's view, stays within its thinking time,
and gives the same answer to the same view and seed."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest

from voicejack.bots import ALL_BOT_KINDS, Bot, ExpertBot, bot_level, make_bot
from voicejack.bots.arena import play_match
from voicejack.bots.expert import DEFAULT_THINK, ExpertOptions, parse_expert_options, sample_world
from voicejack.engine import GameState, apply_move, legal_moves, make_rules, new_game

# Few worlds and a clock that never cuts in: the answer depends on the view and the seed only.
FIXED = "bot:expert:samples=4:candidates=4:think=60"
TABLES = ((2, False, "regular"), (4, True, "regular"), (4, False, "complex"), (2, False, "complex"),
          (4, True, "complex"), (4, False, "regular"))


def table_id(table: tuple[int, bool, str]) -> str:
    players, teams, mode = table
    return f"{players}p-{'teams' if teams else 'ffa'}-{mode}"


def positions_from_matches(players: int, teams: bool, mode: str, wanted: int = 10) -> list[GameState]:
    """Positions with a real choice, met in matches between hard bots."""
    found: list[GameState] = []
    game = 0
    while len(found) < wanted:
        state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=50 + game)
        bots = {colour: make_bot("bot:hard", index) for index, colour in enumerate(state.rules.seats)}
        turn = 0
        while state.winner is None and len(found) < wanted:
            moves = legal_moves(state)
            if turn % 7 == 3 and len(moves) > 2:
                found.append(state.copy())
            apply_move(state, bots[state.turn].choose(state, moves))
            turn += 1
        game += 1
    return found


def redealt(state: GameState, rng: random.Random) -> GameState:
    """The same table with everything the player to act cannot see dealt again: the other hands
    (same sizes), the order of the pile, and the generator of the reshuffles to come."""
    me = state.turn
    other = state.copy()
    others = [seat for seat in state.rules.seats if seat != me]
    hidden = list(other.pile) + [card for seat in others for card in other.hands[seat]]
    rng.shuffle(hidden)
    for seat in others:
        size = len(other.hands[seat])
        other.hands[seat], hidden = hidden[:size], hidden[size:]
    other.pile = hidden
    other.rng = random.Random(rng.random())
    return other


@pytest.fixture(scope="module", params=TABLES[:4], ids=table_id)
def positions(request: pytest.FixtureRequest) -> list[GameState]:
    return positions_from_matches(*request.param)


def test_redealing_the_hidden_cards_never_changes_the_choice(positions: list[GameState]) -> None:
    rng = random.Random(8)
    searched = 0
    for state in positions:
        moves = legal_moves(state)
        bot = make_bot(FIXED, seed=3)
        assert isinstance(bot, ExpertBot)
        first = bot.choose(state, moves)
        searched += bot.last_worlds > 0
        for _ in range(2):
            other = redealt(state, rng)
            assert other.hands != state.hands or other.pile != state.pile
            assert make_bot(FIXED, seed=3).choose(other, moves) == first
    assert searched >= len(positions) // 2  # most of these positions are real searches, not shortcuts


def test_the_same_view_and_seed_give_the_same_move_even_from_a_bot_that_has_played_before(
    positions: list[GameState],
) -> None:
    veteran = make_bot(FIXED, seed=5)
    for state in positions[3:]:
        veteran.choose(state, legal_moves(state))  # whatever it decided before must not matter
    for state in positions[:3]:
        moves = legal_moves(state)
        assert veteran.choose(state, moves) == make_bot(FIXED, seed=5).choose(state.copy(), moves)


def test_the_seed_draws_the_worlds() -> None:
    # Over many positions, other seeds sample other worlds, and now and then that changes a close call.
    found = positions_from_matches(2, False, "regular", wanted=40)
    differences = sum(
        make_bot(FIXED, seed=1).choose(state, legal_moves(state)) != make_bot(FIXED, seed=2).choose(state, legal_moves(state))
        for state in found
    )
    assert differences > 0


def test_one_legal_move_is_played_without_searching() -> None:
    state, _ = new_game(make_rules(players=2), seed=1)
    bot = ExpertBot(0)
    only = legal_moves(state)[:1]
    started = time.perf_counter()
    assert bot.choose(state, only) == only[0]
    assert bot.last_worlds == 0 and time.perf_counter() - started < 0.05


def test_moves_that_leave_the_same_position_are_one_choice(table: Callable[..., GameState]) -> None:
    # The only seven: red 1 may walk at most 4 (blue 1 on its base at 19), red 2 at most 3 (green 1 on its
    # base at 38), so the two orders of the split 4 + 3 are the only moves, and they end the same.
    state = table(
        {"red": [14, 34], "blue": [19], "green": [38]},
        {"red": ["7"], "blue": ["2", "3", "5", "6"], "green": ["2", "3", "5", "6"], "yellow": ["2", "3", "5", "6"]},
        players=4,
    )
    moves = legal_moves(state)
    assert len(moves) == 2
    bot = ExpertBot(0)
    assert bot.choose(state, moves) == moves[0]
    assert bot.last_worlds == 0


def test_a_winning_move_is_played_at_once(table: Callable[..., GameState]) -> None:
    # R37: red's last marble walks into its safe zone with the 3 and wins; the 2 would not.
    state = table({"red": ["safe 4", "safe 3", "safe 2", 73]}, {"red": ["2", "3"], "green": ["2", "3", "5", "6"]})
    bot = ExpertBot(0)
    assert bot.choose(state, legal_moves(state)).phrase == "play three red four"
    assert bot.last_worlds == 0


def test_a_finished_player_brings_the_partners_marble_home(table: Callable[..., GameState]) -> None:
    # R36: red's marbles are all in, so its 5 moves green's; green 1 stands 3 cells before its lane.
    state = table(
        {"red": ["safe 1", "safe 2", "safe 3", "safe 4"], "green": [35, 60], "blue": [10], "yellow": [70]},
        {"red": ["5", "8"], "blue": ["2", "3", "9", "J"], "green": ["2", "3", "9", "J"], "yellow": ["2", "3", "9", "J"]},
        players=4, teams=True,
    )
    # Four sampled worlds are too few to tell the 5 home from the 8 reliably; with enough of them every seed plays R36's move.
    for seed in range(3):
        move = make_bot("bot:expert:samples=64:candidates=4:think=60", seed=seed).choose(state, legal_moves(state))
        assert move.phrase == "play five green one"


@pytest.mark.parametrize("think", [0.05, 0.3])
def test_it_thinks_no_longer_than_its_budget(think: float) -> None:
    # Far more worlds than the clock allows, so the clock decides when to stop.
    bot = ExpertBot(1, ExpertOptions(think=think, samples=100_000))
    slowest = 0.0
    for state in positions_from_matches(4, True, "regular", wanted=4):
        started = time.perf_counter()
        bot.choose(state, legal_moves(state))
        slowest = max(slowest, time.perf_counter() - started)
    assert slowest <= think + 0.05


def test_the_default_budget_is_one_second_at_most() -> None:
    assert ExpertOptions().think == DEFAULT_THINK <= 1.0
    # The calibrated rate buys a real search: 20 worlds for 6 candidates, each rollout about 8 plies at 4 players.
    assert ExpertOptions().plies(4) >= 6 * 20 * 8


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_plays_complete_matches_at_every_table_kind(table: tuple[int, bool, str]) -> None:
    players, teams, mode = table
    rules = make_rules(players=players, teams=teams, mode=mode)
    kinds = {colour: ("bot:expert:samples=2:candidates=3" if index % 2 == 0 else "bot:hard")
             for index, colour in enumerate(rules.seats)}
    result = play_match(rules, {c: make_bot(kind, i) for i, (c, kind) in enumerate(kinds.items())}, seed=7)
    assert result.winner is not None  # play_match raises on an illegal move


def test_sampled_worlds_keep_what_the_seat_knows(positions: list[GameState]) -> None:
    for state in positions[:5]:
        me = state.turn
        world = sample_world(state, me, random.Random(4))
        assert world.marbles == state.marbles and world.hands[me] == state.hands[me]
        assert world.discard == state.discard and len(world.pile) == len(state.pile)
        assert {c: len(h) for c, h in world.hands.items()} == {c: len(h) for c, h in state.hands.items()}


# --------------------------------------------------------------------------
# At the table: the seat kind and its options


def test_the_expert_kind_and_its_options() -> None:
    assert bot_level("bot:expert") == "expert" and bot_level("bot:expert:think=0.5") == "expert"
    assert "bot:expert" in ALL_BOT_KINDS
    bot = make_bot("bot:expert:think=0.5", seed=2)
    assert isinstance(bot, Bot) and isinstance(bot, ExpertBot) and bot.name == "bot:expert"
    assert bot.options.think == 0.5
    assert parse_expert_options("think=0.25,samples=9") == ExpertOptions(think=0.25, samples=9)
    assert parse_expert_options("clock=cpu").clock == "cpu"  # the budget in CPU time of the bot's own thread


@pytest.mark.parametrize("kind,message", [
    ("bot:expert:think=never", "think needs a float"),
    ("bot:expert:think=0", "above 0"),
    ("bot:expert:depth=3", "unknown expert option"),
    ("bot:expert:clock=sundial", "wall"),
    ("bot:hard:think=1", "unknown bot kind"),
    ("bot:genius", "bot:expert"),
])
def test_bad_expert_kinds_are_refused_with_what_is_accepted(kind: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(kind)


def test_seats_on_the_command_line_take_the_expert() -> None:
    from voicejack.app.play import _seats

    seats = _seats(("red", "blue", "green", "yellow"), "human,bot:expert,bot,bot:expert:think=0.5", None)
    assert [seat.kind for seat in seats] == ["human", "bot:expert", "bot", "bot:expert:think=0.5"]
    with pytest.raises(ValueError, match="unknown expert option"):
        _seats(("red", "green"), "human,bot:expert:speed=2", None)

