"""Builders shared by the speech tests: real game positions, their grammars, synthesised speech."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import numpy as np

from voicejack.engine import GameState, legal_moves, make_rules, new_game, play
from voicejack.language import Grammar, phrase_set
from voicejack.speech.audio import BLOCK_SAMPLES
from voicejack.speech.corpus import make_clip, synthesise
from voicejack.tablefile import table_from_text

REPO = Path(__file__).resolve().parents[2]


def random_positions(count: int, seed: int = 3, players: int = 4) -> list[GameState]:
    """Positions reached by seeded random play, each with at least three legal moves."""
    rng = random.Random(seed)
    found: list[GameState] = []
    game = 0
    while len(found) < count:
        state, _ = new_game(make_rules(players=players, teams=players == 4), seed=seed * 100 + game)
        game += 1
        for _ in range(300):
            if state.winner is not None:
                break
            moves = legal_moves(state)
            if len(moves) >= 3 and rng.random() < 0.2:
                found.append(state)
                if len(found) == count:
                    break
            state, _ = play(state, rng.choice(moves))
    return found


def behind_own_marble(turn: str = "red") -> GameState:
    """Red holds 7 9 5 4; red 1 on 10 stands in the way of red 2 on 5 (R22); red 3 and 4 are at home."""
    return table_from_text(json.dumps({
        "format": "voicejack-table/1", "mode": "regular",
        "players": [{"colour": "red", "kind": "human", "hand": ["7", "9", "5", "4"]},
                    {"colour": "green", "hand": ["K", "3", "2", "8"]}],
        "marbles": {"red": [10, 5, "home", "home"], "green": [40, "home", "home", "home"]},
        "turn": turn, "seed": 3}))


def grammar_of(state: GameState) -> Grammar:
    return phrase_set(state, state.turn)


@functools.lru_cache(maxsize=64)
def speech(text: str, voice: str = "en-us") -> np.ndarray:
    return synthesise(text, voice)


def clip(text: str, voice: str = "en-us", snr_db: float | None = None, seed: int = 0) -> np.ndarray:
    """``text`` spoken with room tone around it (and noise at ``snr_db``), as 16 kHz int16."""
    return make_clip(speech(text, voice), snr_db, seed=seed, room_level=60.0).samples


def as_callback_blocks(samples: np.ndarray, size: int = BLOCK_SAMPLES) -> list[np.ndarray]:
    """Blocks shaped as PortAudio hands them to an InputStream callback: (frames, channels) int16."""
    return [samples[i:i + size].reshape(-1, 1).copy() for i in range(0, len(samples), size)]
