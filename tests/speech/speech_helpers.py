"""Builders shared by the speech tests: real game positions, their grammars, synthesised speech."""

from __future__ import annotations

import functools
import io
import json
import random
import shutil
import subprocess
import tempfile
import wave
from pathlib import Path

import numpy as np

from voicejack.engine import GameState, legal_moves, make_rules, new_game, play
from voicejack.language import Grammar, phrase_set
from voicejack.speech.audio import BLOCK_SAMPLES, to_recogniser_format
from voicejack.speech.corpus import make_clip, synthesise, trim_silence
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


def flite_available() -> bool:
    return shutil.which("flite") is not None


@functools.lru_cache(maxsize=32)
def flite_speech(text: str, voice: str, stretch: float = 1.0, pitch_hz: int | None = None) -> np.ndarray:
    """``text`` said by one of flite's voices (a held-out family of benchmarks/asr.py, never tuned on), slower
    for ``stretch`` over 1, its mean pitch set to ``pitch_hz``: 16 kHz int16 without padding."""
    with tempfile.TemporaryDirectory() as work:
        wav = Path(work) / "said.wav"
        pitch = ["--setf", f"int_f0_target_mean={pitch_hz}"] if pitch_hz else []
        subprocess.run(["flite", "-voice", voice, "--setf", f"duration_stretch={stretch}", *pitch, "-t", text,
                        "-o", str(wav)], check=True, capture_output=True)
        with wave.open(io.BytesIO(wav.read_bytes())) as read:
            rate, raw = read.getframerate(), read.readframes(read.getnframes())
    return trim_silence(to_recogniser_format(np.frombuffer(raw, dtype="<i2").astype(np.float64) / 32768.0, rate))


def as_callback_blocks(samples: np.ndarray, size: int = BLOCK_SAMPLES) -> list[np.ndarray]:
    """Blocks shaped as PortAudio hands them to an InputStream callback: (frames, channels) int16."""
    return [samples[i:i + size].reshape(-1, 1).copy() for i in range(0, len(samples), size)]
