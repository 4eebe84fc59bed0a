"""Engine speed: complete random games per second and moves per second, per table kind and version.

A "move" is one legal-move generation plus applying a randomly chosen
move, as a bot's simulation does. Runs on one core.

    python3 benchmarks/engine.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time

from voicejack.engine import apply_move, legal_moves, make_rules, new_game

TABLES = (
    ("2 players", 2, False),
    ("4 players, teams", 4, True),
    ("4 players, free-for-all", 4, False),
)


def run(players: int, teams: bool, mode: str, games: int, seed: int) -> tuple[float, float, float]:
    rules = make_rules(players, teams, mode)
    chooser = random.Random(seed)
    moves = 0
    started = time.perf_counter()
    for game in range(games):
        state, _ = new_game(rules, seed=seed + game)
        while state.winner is None:
            apply_move(state, chooser.choice(legal_moves(state)))
            moves += 1
    elapsed = time.perf_counter() - started
    return games / elapsed, moves / elapsed, moves / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per table kind and version")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Random complete games, {args.games} per row, one core")
    print()
    print("| table | version | games/s | moves/s | moves/game |")
    print("|---|---|---:|---:|---:|")
    for label, players, teams in TABLES:
        for mode in ("regular", "complex"):
            games_per_second, moves_per_second, moves_per_game = run(players, teams, mode, args.games, args.seed)
            print(f"| {label} | {mode} | {games_per_second:,.0f} | {moves_per_second:,.0f} | {moves_per_game:,.0f} |")


if __name__ == "__main__":
    main()
