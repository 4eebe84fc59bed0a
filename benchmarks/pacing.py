"""Pacing: how many words (and seconds at the speech rate) a player listens to, full and brief wording.

    python3 benchmarks/pacing.py                 # 24 bot matches, 10 match starts per wording (about a minute)
    python3 benchmarks/pacing.py --matches 8 --starts 4

Three measures, each in full and brief wording:

    bot move        what the table is told about one bot's move (``Narrator.outcome``), heard by red, over
                    seeded bot-only matches (2 players, 4 in teams, 4 each for themselves; regular and
                    complex); red's own moves are left out, as red would be the human
    option          one option read to red on red's turns in the same matches (``describe_options``), and
                    how many options a turn offers
    first prompt    everything printed before and with the first "Your turn" of a 4-player match started
                    with ``voicejack play --no-sound --keyboard --players 4 --seed S`` (HOME in a temporary
                    folder, input "quit the game" and "yes"), leaving out the welcome line, as
                    /work/shared/hooks/before-stop counts it

Seconds are words at the speech rate of the settings (175 words a minute unless they say otherwise, or
``--rate``). Words are what ``str.split`` counts.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from voicejack.bots import make_bot
from voicejack.engine import apply_move, legal_moves, make_rules, new_game
from voicejack.narration import Narrator, Verbosity
from voicejack.table.settings import load_settings

LISTENER = "red"
TABLES = [(2, False, "regular"), (4, True, "regular"), (4, False, "regular"),
          (2, False, "complex"), (4, True, "complex"), (4, False, "complex")]
MATCH_SEED_BASE = 500
PROMPT_SEEDS_FROM = 1
PROMPT_TIMEOUT = 120


@dataclass
class Counts:
    bot_moves: list[int]
    options: list[int]
    options_per_turn: list[int]


def words(text: str) -> int:
    return len(text.split())


def narrated_matches(narrator: Narrator, matches: int) -> Counts:
    counts = Counts([], [], [])
    for index in range(matches):
        players, teams, mode = TABLES[index % len(TABLES)]
        seed = MATCH_SEED_BASE + index
        state, _ = new_game(make_rules(players, teams, mode), seed=seed)
        bots = {colour: make_bot("bot", seed=seed * 10 + n) for n, colour in enumerate(state.rules.seats)}
        while state.winner is None:
            moves = legal_moves(state)
            mover = state.turn
            if mover == LISTENER:
                described = narrator.describe_options(state, LISTENER)
                counts.options.extend(words(text) for _, text in described)
                counts.options_per_turn.append(len(described))
            before = state.copy()
            events = apply_move(state, bots[mover].choose(state, moves))
            if mover != LISTENER:
                counts.bot_moves.append(words(" ".join(narrator.outcome(before, events, state, LISTENER))))
    return counts


def first_prompt_words(seed: int, wording: str) -> int:
    """Words printed before and with the first 'Your turn' of a fresh 4-player match, the welcome line left out."""
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": ""}
        command = [sys.executable, "-c", "import sys; from voicejack.app.main import main; sys.exit(main(sys.argv[1:]))",
                   "play", "--no-sound", "--keyboard",
                   "--players", "4", "--seed", str(seed), f"--{wording}"]
        result = subprocess.run(command, input="quit the game\nyes\n", capture_output=True, text=True,
                                env=env, cwd=ROOT, timeout=PROMPT_TIMEOUT, check=False)
    lines = result.stdout.splitlines()
    told: list[str] = []
    for line in lines[1:]:
        told.append(line)
        if line.startswith("Your turn"):
            return words(" ".join(told))
    raise RuntimeError(f"seed {seed}: no turn prompt in {result.stdout[-400:]!r} {result.stderr[-400:]!r}")


def percentile(values: Sequence[int], fraction: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(fraction * len(ordered)))])


def rows(label: str, values: Sequence[int], rate: int) -> Iterator[str]:
    median, p90 = statistics.median(values), percentile(values, 0.9)
    yield (f"{label:<22}{median:>8.1f}{p90:>8.1f}{max(values):>8d}"
           f"{median * 60 / rate:>10.1f}{p90 * 60 / rate:>10.1f}{len(values):>8d}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=24, help="bot-only matches per wording")
    parser.add_argument("--starts", type=int, default=10, help="4-player match starts (seeds 1..N) per wording")
    parser.add_argument("--rate", type=int, help="words a minute (default: the settings, else 175)")
    args = parser.parse_args(argv)
    rate = args.rate or load_settings()[0].speech_rate
    print(f"Speech rate {rate} words a minute; median, 90th percentile and most, in words, then seconds.")
    print(f"{'':<22}{'median':>8}{'p90':>8}{'max':>8}{'median s':>10}{'p90 s':>10}{'count':>8}")
    for verbosity in Verbosity:
        narrator = Narrator(verbosity)
        counts = narrated_matches(narrator, args.matches)
        starts = [first_prompt_words(seed, verbosity.value) for seed in range(PROMPT_SEEDS_FROM, PROMPT_SEEDS_FROM + args.starts)]
        name = verbosity.value
        for line in (*rows(f"{name}: bot move", counts.bot_moves, rate),
                     *rows(f"{name}: option", counts.options, rate),
                     *rows(f"{name}: first prompt", starts, rate)):
            print(line)
        print(f"{name}: options per turn  median {statistics.median(counts.options_per_turn):.0f}, "
              f"most {max(counts.options_per_turn)}; first prompt by seed {starts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
