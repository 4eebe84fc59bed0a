"""Engine speed: complete random games per second and moves per second, per rule set, table kind and version.

A "move" is one legal-move generation plus applying a randomly chosen
move, as a bot's simulation does. Times are CPU time of this process
(time.process_time), so other work on the machine disturbs them less.
Runs on one core.

    python3 benchmarks/engine.py [--games N] [--seed S] [--rules voicejack,karooty,online]
    python3 benchmarks/engine.py --peer /path/to/built/peer.mjs   # and the peer comparison

It also measures a search's own loop (a copy of the state, its legal moves,
one move applied) in steps per CPU second. Moves are applied with
``apply_move`` (which lists the events, for narration) and, in a second
column or row, with ``advance`` (the same move without the events, as bots
and searches that never narrate use it).

The peer comparison measures another Jackaroo engine side by side with
ours: random complete 4-player team games, moves per second, in
alternating rounds (ours, then the peer's, several times) so that both
meet the same load on a shared machine, timed in CPU seconds of the
process (wall-clock seconds are printed too; on a busy machine they
mostly measure the other programs). The peer is any program run as
``node PEER GAMES SEED MAX_MOVES WARM_UP`` that plays GAMES random complete
games after WARM_UP untimed ones and prints one JSON line with ``games``,
``finished``, ``moves``, ``skips``, ``seconds`` (wall clock) and
``cpu_seconds`` (node's process.cpuUsage, user and system). Nothing of the peer is
part of this repository: it is built outside it (see ``PEER_PATCH`` for
what has to be changed in the open TypeScript engine github
moh-obaida/jackaroo-online so that its games finish). The path may also
come from the environment variable VOICEJACK_PEER_ENGINE.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import time

from voicejack.engine import advance, apply_move, legal_moves, make_rules, new_game

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

PEER_ENV = "VOICEJACK_PEER_ENGINE"
PEER_MAX_MOVES = 20_000
PEER_PATCH = (
    "moh-obaida/jackaroo-online as published never finishes a random game: a marble on its own start gate "
    "may not walk forward (only a 4 moves it, back into its home), so it blocks its colour for good; and only "
    "a marble on the last home place counts as finished, so nobody ever wins. Patched locally, for measurement "
    "only: the start-gate marble may walk forward like any other (one line removed from legalMoves.ts), and a "
    "marble that enters its home counts as finished (three lines in applyAction.ts). Driven by a loop of our own "
    "that deals as its persistAction does and counts skipped turns as moves (which favours the peer)."
)


def run(players: int, teams: bool, mode: str, rule_set: str, games: int, seed: int) -> tuple[float, float, float]:
    """Games per CPU second, moves per CPU second and moves per game."""
    moves, _, cpu = _timed_random_games(players, teams, mode, games, seed, rule_set)
    return games / cpu, moves / cpu, moves / games


def _timed_random_games(players: int, teams: bool, mode: str, games: int, seed: int,
                        rule_set: str = "voicejack", quiet: bool = False) -> tuple[int, float, float]:
    """(moves, wall seconds, CPU seconds) of ``games`` random complete games; ``quiet``: with ``advance``
    (no events) instead of ``apply_move``."""
    rules = make_rules(players, teams, mode, rule_set=rule_set)
    chooser = random.Random(seed)
    play = advance if quiet else apply_move
    moves = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    for game in range(games):
        state, _ = new_game(rules, seed=seed + game)
        while state.winner is None:
            play(state, chooser.choice(legal_moves(state)))
            moves += 1
    return moves, time.perf_counter() - started, time.process_time() - cpu_started


def search_steps_per_second(rule_set: str, games: int, seed: int, quiet: bool) -> float:
    """A search's own loop, per CPU second: copy the state, generate its legal moves, apply one at random
    (with ``advance`` when ``quiet``, else ``apply_move``).

    Like a rollout, each step goes on from the copy (without history, with a generator of its own), so
    every step pays for one copy, one legal-move generation and one move, over whole random team games.
    """
    rules = make_rules(4, True, "regular", rule_set=rule_set)
    chooser = random.Random(seed)
    play = advance if quiet else apply_move
    steps = 0
    cpu_started = time.process_time()
    for game in range(games):
        state, _ = new_game(rules, seed=seed + game)
        while state.winner is None:
            state = state.copy(keep_history=False)
            play(state, chooser.choice(legal_moves(state)))
            steps += 1
    return steps / (time.process_time() - cpu_started)


def compare_with_peer(peer: str, games: int, rounds: int, seed: int) -> None:
    """Ours (with and without events) and the peer's random 4-player team games in alternating rounds;
    prints them and the ratios."""
    ours = {False: [0, 0.0, 0.0], True: [0, 0.0, 0.0]}  # quiet -> moves, CPU seconds, wall seconds
    peer_moves = peer_games = peer_finished = peer_skips = 0
    peer_seconds = peer_wall = 0.0
    for index in range(rounds):
        for quiet, totals in ours.items():
            moves, wall, cpu = _timed_random_games(4, True, "regular", games, seed + index * games, quiet=quiet)
            totals[0] += moves
            totals[1] += cpu
            totals[2] += wall
        command = ["node", peer, str(games), str(seed + index), str(PEER_MAX_MOVES), str(max(5, games // 5))]
        answer = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1])
        peer_games += int(answer["games"])
        peer_finished += int(answer["finished"])
        peer_moves += int(answer["moves"])
        peer_skips += int(answer.get("skips", 0))
        peer_seconds += float(answer["cpu_seconds"])
        peer_wall += float(answer["seconds"])
    peer_rate = peer_moves / peer_seconds
    rates = {quiet: moves / cpu for quiet, (moves, cpu, _) in ours.items()}
    print()
    print(f"Peer comparison: random complete 4-player team games, {rounds} alternating rounds of {games} games each")
    print()
    print("| engine | games | finished | moves/game | moves per CPU second | moves per wall second |")
    print("|---|---:|---:|---:|---:|---:|")
    for quiet, label in ((False, "apply_move, with events"), (True, "advance, no events")):
        played, _, wall = ours[quiet]
        print(f"| VoiceJack (Python, regular, {label}) | {rounds * games} | {rounds * games} "
              f"| {played / (rounds * games):,.0f} | {rates[quiet]:,.0f} | {played / wall:,.0f} |")
    print(f"| jackaroo-online (TypeScript, node {_node_version()}, patched) | {peer_games} | {peer_finished} "
          f"| {peer_moves / max(1, peer_games):,.0f} | {peer_rate:,.0f} | {peer_moves / peer_wall:,.0f} |")
    print()
    print(f"ours / peer: {rates[False] / peer_rate:.2f}x moves per CPU second with apply_move, "
          f"{rates[True] / peer_rate:.2f}x with advance (goal: at least 2x); "
          f"the peer's count includes {peer_skips:,} skipped turns")
    print(f"peer: {peer}")
    print(f"how the peer was patched: {PEER_PATCH}")


def _node_version() -> str:
    return subprocess.run(["node", "--version"], check=True, capture_output=True, text=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default=",".join(RULE_SETS), help="rule sets to measure, comma-separated")
    parser.add_argument("--peer", default=os.environ.get(PEER_ENV), help=f"a built peer engine (or ${PEER_ENV})")
    parser.add_argument("--peer-games", type=int, default=50, help="games per engine in each peer round")
    parser.add_argument("--peer-rounds", type=int, default=4, help="alternating rounds of the peer comparison")
    parser.add_argument("--only-peer", action="store_true", help="skip the per-table rows")
    args = parser.parse_args()
    if not args.only_peer:
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
        print()
        print("Search loop (copy + legal_moves + apply_move), 4 players in teams, regular version, one core, CPU time")
        print()
        print("| rules | steps/s with apply_move | steps/s with advance |")
        print("|---|---:|---:|")
        for rule_set in args.rules.split(","):
            told, quiet = (search_steps_per_second(rule_set, args.games, args.seed, quiet) for quiet in (False, True))
            print(f"| {rule_set} | {told:,.0f} | {quiet:,.0f} |")
    if args.peer:
        compare_with_peer(args.peer, args.peer_games, args.peer_rounds, args.seed)
    elif args.only_peer:
        parser.error(f"--only-peer needs --peer or ${PEER_ENV}")


if __name__ == "__main__":
    main()
