"""Helpers for the audio tests: real game positions, and ways of listening to rendered audio."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from voicejack.engine import GameState, legal_moves, make_rules, new_game, play
from voicejack.engine.board import HOME, marble_id
from voicejack.engine.events import Event
from voicejack.engine.moves import Move
from voicejack.engine.state import board_from_marbles

RATE = 48000
REPO = Path(__file__).resolve().parents[2]


def position(
    marbles: dict[str, int],
    hand: list[str],
    turn: str = "red",
    players: int = 4,
    teams: bool = True,
    mode: str = "regular",
) -> GameState:
    """A real game state with the named marbles ("red 1": cell) placed and ``hand`` in the mover's hand."""
    state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=1)
    state = state.copy()
    placed = [HOME] * 16
    for name, cell in marbles.items():
        colour, number = name.split()
        placed[marble_id(colour, int(number))] = cell
    state.marbles = placed
    state.board = board_from_marbles(placed)
    state.turn = turn
    state.hands[turn] = list(hand)
    return state


def only_move(state: GameState, card: str, predicate: object = None) -> Move:
    moves = [m for m in legal_moves(state) if m.card == card and (predicate is None or predicate(m))]  # type: ignore[operator]
    assert moves, f"no legal {card} move in this position: {[m.phrase for m in legal_moves(state)]}"
    return moves[0]


def move_events(state: GameState, card: str, predicate: object = None) -> list[Event]:
    _, events = play(state, only_move(state, card, predicate))
    return events


def envelope(stereo: np.ndarray, window_s: float = 0.004) -> np.ndarray:
    """Smoothed amplitude envelope of the summed channels, one value per sample."""
    mono = np.abs(stereo).sum(axis=1) if stereo.ndim == 2 else np.abs(stereo)
    width = max(1, int(window_s * RATE))
    return np.convolve(mono, np.ones(width) / width, mode="same")


def onsets(stereo: np.ndarray, high: float = 0.3, low: float = 0.05) -> list[float]:
    """Times (s) where the envelope rises past ``high`` x its peak after having fallen below ``low`` x peak."""
    env = envelope(stereo)
    peak = env.max()
    found: list[float] = []
    armed = True
    for index in np.flatnonzero((env > high * peak) | (env < low * peak)):
        if env[index] < low * peak:
            armed = True
        elif armed:
            found.append(index / RATE)
            armed = False
    return found


def best_match(signal: np.ndarray, template: np.ndarray) -> tuple[float, int]:
    """Highest normalised cross-correlation of a stereo template inside a stereo signal, and its offset."""
    n = signal.shape[0]
    m = template.shape[0]
    size = 1 << int(np.ceil(np.log2(n + m)))
    corr = np.zeros(size)
    for channel in range(2):
        corr += np.fft.irfft(np.fft.rfft(signal[:, channel], size) * np.conj(np.fft.rfft(template[:, channel], size)), size)
    corr = corr[: n - m + 1]
    energy = np.cumsum(np.concatenate([[0.0], (signal.astype(np.float64) ** 2).sum(axis=1)]))
    window = np.sqrt(np.maximum(energy[m:] - energy[:-m], 1e-20))
    score = corr / (window * np.sqrt((template.astype(np.float64) ** 2).sum()))
    offset = int(np.argmax(score))
    return float(score[offset]), offset


def rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(x, dtype=np.float64))))


def lag_samples(left: np.ndarray, right: np.ndarray, max_lag: int = 64) -> int:
    """How many samples the right channel trails the left (negative: the right comes first)."""
    best, best_lag = -np.inf, 0
    for lag in range(-max_lag, max_lag + 1):
        if lag >= 0:
            value = float(np.dot(left[: left.size - lag], right[lag:]))
        else:
            value = float(np.dot(left[-lag:], right[: right.size + lag]))
        if value > best:
            best, best_lag = value, lag
    return best_lag
