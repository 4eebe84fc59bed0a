"""Engine speed: complete random games per second and moves per second, per rule set, table kind and version.

A "move" is one legal-move generation plus applying a randomly chosen
move, as a bot's simulation does. Times are CPU time of this process
(time.process_time), so other work on the machine disturbs them less.
Runs on one core.

    python3 benchmarks/engine.py [--games N] [--seed S] [--rules voicejack,karooty,online]
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
#: Each rule set's versions and the tables it is played at (rules.md R1-R3, variants.md KA1, ON1).
RULE_SETS = {
    "voicejack": (("regular", "complex"), TABLES),
    "karooty": (("regular",), (TABLES[1],)),
    "online": (("regular",), TABLES),
}


def run(players: int, teams: bool, mode: str, rule_set: str, games: int, seed: int) -> tuple[float, float, float]:
    rules = make_rules(players, teams, mode, rule_set=rule_set)
    chooser = random.Random(seed)
    moves = 0
    started = time.process_time()
    for game in range(games):
        state, _ = new_game(rules, seed=seed + game)
        while state.winner is None:
            apply_move(state, chooser.choice(legal_moves(state)))
            moves += 1
    elapsed = time.process_time() - started
    return games / elapsed, moves / elapsed, moves / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default=",".join(RULE_SETS), help="rule sets to measure, comma-separated")
    args = parser.parse_args()
    print(f"Random complete games, {args.games} per row, one core, CPU time")
    print()
    print("| rules | table | version | games/s | moves/s | moves/game |")
    print("|---|---|---|---:|---:|---:|")
    for rule_set in args.rules.split(","):
        versions, tables = RULE_SETS[rule_set]
        for label, players, teams in tables:
            for mode in versions:
                games_per_second, moves_per_second, moves_per_game = run(
                    players, teams, mode, rule_set, args.games, args.seed,
                )
                print(
                    f"| {rule_set} | {label} | {mode} | {games_per_second:,.0f} | {moves_per_second:,.0f} "
                    f"| {moves_per_game:,.0f} |"
                )


if __name__ == "__main__":
    main()
