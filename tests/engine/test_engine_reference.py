"""Cross-check: the engine against the slow reference in engine_reference.py (R13-R39).

Positions come from two sources, for every table kind and both versions:
random legal play from new_game, and randomly scattered boards (walls,
bases, crowded safe zones, finished players) that play rarely reaches.
For each position the phrase sets must be equal, and every move must leave
the marbles exactly where the reference puts them, report exactly the
captures, lane entries and finished players that happened, set the winner
exactly when a side is complete, and hand the turn to the right player.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

try:  # pytest imports this directory as the namespace package tests.engine, or by basename
    from .engine_reference import board_of, board_to_ints, next_to_act, reference_moves, winner_of
except ImportError:
    from engine_reference import (  # type: ignore[no-redef]
        board_of, board_to_ints, next_to_act, reference_moves, winner_of,
    )
from voicejack.engine import GameState, Move, MoveKind, legal_moves, make_rules, marble_id, new_game, play
from voicejack.engine import events as ev
from voicejack.engine.cards import full_deck

COLOURS = ["red", "blue", "green", "yellow"]
KINDS = [(2, False), (4, True), (4, False)]
MODES = ["regular", "complex"]


def compare(state: GameState) -> None:
    expected = reference_moves(state)
    moves = legal_moves(state)
    got = sorted(m.phrase for m in moves)
    assert got == sorted(expected), _describe(state, got, expected)
    before = board_of(state)
    for move in moves:
        after, events = play(state, move)
        where = f"{move.phrase}\n{_describe(state, got, expected)}"
        after_board = expected[move.phrase]
        if after_board is not None:
            assert after.marbles == board_to_ints(after_board), where
            check_events(state, move, before, after_board, events, where)
        winner = winner_of(state, after_board or before)
        assert after.winner == winner, where
        if winner is None:
            assert after.turn == next_to_act(state, move.phrase), where
            assert after.forced_burn == (move.phrase == "play ten burn"), where


def check_events(state: GameState, move: Move, before: dict, after: dict, events: list, where: str) -> None:
    """The events tell exactly what changed: who went home, who entered a lane, who finished."""
    def marble_ids(names: set) -> set[int]:
        return {marble_id(colour, number) for colour, number in names}

    def in_lane(board: dict, name: tuple) -> bool:
        return board[name] is not None and board[name][0] == "safe"

    went_home = {m for m in before if before[m] is not None and after[m] is None}
    captured = {e.marble for e in events if isinstance(e, ev.MarbleCaptured)}
    assert marble_ids(went_home) == captured, where
    entered = {m for m in before if not in_lane(before, m) and in_lane(after, m)}
    assert marble_ids(entered) == {e.marble for e in events if isinstance(e, ev.EnteredSafeZone)}, where
    walks = [(e.marble, len(e.path), len(set(e.path))) for e in events if isinstance(e, ev.MarbleWalked)]
    if move.kind is MoveKind.SPLIT:
        assert walks == [(move.marble, move.steps, move.steps), (move.second, move.second_steps, move.second_steps)], where
    elif move.kind in (MoveKind.WALK, MoveKind.SWEEP):
        assert walks == [(move.marble, move.steps, move.steps)], where  # every cell once, in a path as long as the card
    else:
        assert walks == [], where
    if state.rules.teams:
        finished = {
            c for c in state.rules.seats
            if all(in_lane(after, (c, n)) for n in range(1, 5)) and not all(in_lane(before, (c, n)) for n in range(1, 5))
        }
        assert {e.colour for e in events if isinstance(e, ev.PlayerFinished)} == finished, where


def _describe(state: GameState, got: list[str], expected: dict) -> str:
    missing = sorted(set(expected) - set(got))
    extra = sorted(set(got) - set(expected))
    return (
        f"mode={state.rules.mode} teams={state.rules.teams} seats={state.rules.seats} turn={state.turn}"
        f" forced={state.forced_burn}\nmarbles={state.marbles}\nhands={state.hands}\n"
        f"engine only: {extra}\nreference only: {missing}"
    )


def positions_from_play(players: int, teams: bool, mode: str, seed: int, every: int) -> list[GameState]:
    chooser = random.Random(seed)
    state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=seed)
    found = []
    count = 0
    while state.winner is None:
        if count % every == 0:
            found.append(state)
        count += 1
        state, _ = play(state, chooser.choice(legal_moves(state)))
    return found


def scattered_position(position, players: int, teams: bool, mode: str, rng: random.Random) -> GameState | None:
    """A random board: clustered marbles (walls), marbles on bases, crowded lanes, finished players."""
    seats = ("red", "blue", "green", "yellow") if players == 4 else ("red", "green")
    bases = {"red": 0, "blue": 19, "green": 38, "yellow": 57}
    taken: set[int] = set()
    marbles: dict[str, list[object]] = {}
    for colour in seats:
        if rng.random() < 0.12:
            marbles[colour] = ["safe 1", "safe 2", "safe 3", "safe 4"]
            continue
        places: list[object] = []
        safe_free = [1, 2, 3, 4]
        for _ in range(4):
            roll = rng.random()
            if roll < 0.25:
                places.append("home")
            elif roll < 0.4:
                place = rng.choice(safe_free)
                safe_free.remove(place)
                places.append(f"safe {place}")
            else:
                pick = rng.random()
                if pick < 0.15:
                    cell = rng.choice(list(bases.values()))
                elif pick < 0.5 and taken:
                    cell = (rng.choice(sorted(taken)) + rng.choice((-1, 1, 2))) % 76
                elif pick < 0.65:
                    cell = (bases[colour] - rng.randint(1, 14)) % 76  # near the lane entrance
                else:
                    cell = rng.randrange(76)
                if cell in taken:
                    places.append("home")
                else:
                    taken.add(cell)
                    places.append(cell)
        marbles[colour] = places
    finished = [c for c in seats if all(str(p).startswith("safe") for p in marbles[c])]
    if finished and not teams:
        return None  # the match would be over
    if teams and any(make_rules().partner(c) in finished for c in finished):
        return None  # the team would have won
    turn = rng.choice(seats)
    if rng.random() < 0.15:  # often nothing of the player's on the track: R30 and the forcing 10
        marbles[turn] = [p if isinstance(p, str) else "home" for p in marbles[turn]]
    deck = full_deck()
    rng.shuffle(deck)
    hands: dict[str, list[str]] = {}
    for colour in seats:
        size = rng.randint(1, 5) if colour == turn else rng.choice((0, 0, 1, 2, 4))
        hands[colour] = [deck.pop() for _ in range(size)]
    forced = rng.random() < 0.04
    return position(
        marbles=marbles, hands=hands, turn=turn, players=players, teams=teams, mode=mode,
        forced_burn=forced, seed=rng.randrange(1 << 30),
    )


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("players", "teams"), KINDS)
def test_engine_agrees_with_reference_in_random_play(players: int, teams: bool, mode: str) -> None:
    """R13-R39 over positions reached by random legal play from new_game."""
    checked = 0
    seed = 100
    while checked < 600:
        for state in positions_from_play(players, teams, mode, seed, every=3):
            compare(state)
            checked += 1
        seed += 1


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("players", "teams"), KINDS)
def test_engine_agrees_with_reference_on_scattered_boards(position, players: int, teams: bool, mode: str) -> None:
    """R13-R39 over random crowded boards: walls, bases, full lanes, finished team players."""
    rng = random.Random(f"{players}{teams}{mode}")
    checked = 0
    while checked < 800:
        state = scattered_position(position, players, teams, mode, rng)
        if state is None:
            continue
        compare(state)
        checked += 1


def test_scattered_boards_cover_the_interesting_cases(position) -> None:
    """Guard for the generator above: the rare situations really occur in what it produces."""
    seen: Counter[str] = Counter()
    rng = random.Random("coverage")
    for _ in range(400):
        mode = rng.choice(MODES)
        players, teams = rng.choice(KINDS)
        state = scattered_position(position, players, teams, mode, rng)
        if state is None:
            continue
        phrases = reference_moves(state)
        board = state.board
        if any(board[c] >= 0 and board[c - 1] >= 0 for c in range(76)):
            seen["wall"] += 1
        if any(state.on_own_base(m) for m in range(16)):
            seen["own base"] += 1
        if any(p.startswith("play seven") and len(p.split()) == 8 for p in phrases):
            seen["split"] += 1
        if any(p.startswith("play jack") for p in phrases):
            seen["swap"] += 1
        if any(p.startswith("play king") and p != "play king out" for p in phrases):
            seen["sweep"] += 1
        if "play ten burn" in phrases:
            seen["force"] += 1
        if "burn hand" in phrases:
            seen["burn hand"] += 1
        if any(p.startswith("burn ") and p != "burn hand" for p in phrases):
            seen["burn card"] += 1
        if state.rules.teams and any(state.is_finished(c) for c in state.rules.seats) and state.is_finished(state.turn):
            seen["finished mover"] += 1
    for case in ("wall", "own base", "split", "swap", "sweep", "force", "burn hand", "burn card", "finished mover"):
        assert seen[case] >= 5, (case, seen)
