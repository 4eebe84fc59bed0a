"""The cue pack: every game sound synthesised from numpy, so it can be rebuilt anywhere.

`voicejack sounds` writes these into sounds/ as 16-bit mono WAVs; at run
time the files win (a player may replace any of them) and these functions
are the fallback. Synthesis is seeded, so rebuilding gives identical files.

Design of the sounds, for the ear:
- step cues are short (under 90 ms) with a hard attack, so at seven steps a
  second each one is a separate countable tick; each team (or each player in
  free-for-all) has its own timbre and pitch register;
- the backward step falls in pitch, the opposite of everything forward;
- a capture of an opponent is a hit; a capture of your own or your
  partner's marble is a falling, dissonant "uh-oh" instead;
- good news rises (coming out, safe zone, your turn, win), refusals buzz low.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Final

import numpy as np

from voicejack.audio.cuenames import Cue, cue_named
from voicejack.audio.wavio import write_wav

SAMPLE_RATE: Final = 48000

CUE_DESCRIPTIONS: Final[dict[Cue, str]] = {
    Cue.STEP_RED: "one cell walked by a red marble (in teams: the red and green team)",
    Cue.STEP_BLUE: "one cell walked by a blue marble (in teams: the blue and yellow team)",
    Cue.STEP_GREEN: "one cell walked by a green marble (free-for-all and two players)",
    Cue.STEP_YELLOW: "one cell walked by a yellow marble (free-for-all)",
    Cue.STEP_BACK: "one cell walked backwards (the 4)",
    Cue.CAPTURE: "a marble of another team sent home",
    Cue.CAPTURE_OWN: "your own or your partner's marble sent home",
    Cue.SAFE: "a marble entered its safe zone",
    Cue.OUT: "a marble came out of home onto its base",
    Cue.BURN: "a card (or a whole hand) burned",
    Cue.TURNED_BACK: "turned back: that card or command is not allowed now",
    Cue.YOUR_TURN: "it is your turn",
    Cue.DEAL: "cards were dealt",
    Cue.WIN: "the match is won",
    Cue.SWAP: "two marbles swapped places (the jack)",
    Cue.TICK: "one second of the turn timer's last ten (Jackaroo Online rules)",
}


def _time(seconds: float, rate: int) -> np.ndarray:
    return np.arange(int(round(seconds * rate)), dtype=np.float64) / rate


def _decay(t: np.ndarray, attack: float, tau: float) -> np.ndarray:
    """A fast linear attack then exponential decay, the shape of a struck object."""
    rise = np.clip(t / attack, 0.0, 1.0) if attack > 0 else np.ones_like(t)
    return rise * np.exp(-np.maximum(t - attack, 0.0) / tau)


def _partials(t: np.ndarray, freqs: tuple[float, ...], amps: tuple[float, ...], taus: tuple[float, ...]) -> np.ndarray:
    out = np.zeros_like(t)
    for freq, amp, tau in zip(freqs, amps, taus, strict=True):
        out += amp * np.sin(2 * np.pi * freq * t) * _decay(t, 0.001, tau)
    return np.asarray(out)


def _chirp(t: np.ndarray, f0: float, f1: float) -> np.ndarray:
    """Exponential sweep from f0 to f1 over the length of t."""
    duration = t[-1] if t.size > 1 else 1.0
    k = np.log(f1 / f0) / duration
    return np.asarray(np.sin(2 * np.pi * f0 * (np.exp(k * t) - 1.0) / k))


def _lowpass(x: np.ndarray, cutoff: float, rate: int) -> np.ndarray:
    spectrum = np.fft.rfft(x)
    freqs = np.fft.rfftfreq(x.size, 1.0 / rate)
    spectrum *= 1.0 / np.sqrt(1.0 + (freqs / cutoff) ** 4)
    return np.asarray(np.fft.irfft(spectrum, x.size))


def _bandpass_noise(rng: np.random.Generator, n: int, low: float, high: float, rate: int) -> np.ndarray:
    spectrum = np.fft.rfft(rng.standard_normal(n))
    freqs = np.fft.rfftfreq(n, 1.0 / rate)
    spectrum[(freqs < low) | (freqs > high)] = 0.0
    noise = np.fft.irfft(spectrum, n)
    return np.asarray(noise / (np.max(np.abs(noise)) + 1e-12))


def _note(freq: float, start: float, length: float, total: float, rate: int, bright: float = 0.3) -> np.ndarray:
    t = _time(total, rate)
    local = t - start
    env = np.where(local >= 0, _decay(np.maximum(local, 0), 0.004, length / 3), 0.0)
    tone = np.sin(2 * np.pi * freq * local) + bright * np.sin(2 * np.pi * 2 * freq * local)
    return tone * env


def _finish(x: np.ndarray, rate: int, peak: float) -> np.ndarray:
    """Fade the last few ms (no click at the cut) and normalise to ``peak``."""
    fade = min(x.size, int(0.005 * rate))
    if fade:
        x = x.copy()
        x[-fade:] *= np.linspace(1.0, 0.0, fade)
    return np.asarray(x * (peak / (np.max(np.abs(x)) + 1e-12)), dtype=np.float32)


# Step cues: short, hard attack, distinct register and timbre per team/player.

def step_red(rate: int) -> np.ndarray:
    """Wood block: a mid knock with a short noise click."""
    t = _time(0.07, rate)
    rng = np.random.default_rng(1)
    click = _bandpass_noise(rng, t.size, 1500, 6000, rate) * _decay(t, 0.0005, 0.004)
    body = _partials(t, (620.0, 1710.0), (1.0, 0.35), (0.018, 0.008))
    return _finish(body + 0.5 * click, rate, 0.55)


def step_blue(rate: int) -> np.ndarray:
    """Glass: a high ping with inharmonic partials."""
    t = _time(0.08, rate)
    return _finish(_partials(t, (1480.0, 3990.0, 5210.0), (1.0, 0.4, 0.2), (0.025, 0.012, 0.008)), rate, 0.5)


def step_green(rate: int) -> np.ndarray:
    """Low marimba: a round low note with a quiet fourth harmonic."""
    t = _time(0.085, rate)
    return _finish(_partials(t, (330.0, 1320.0), (1.0, 0.25), (0.03, 0.01)), rate, 0.6)


def step_yellow(rate: int) -> np.ndarray:
    """Metal tick: a bright, buzzy clave made of odd harmonics."""
    t = _time(0.065, rate)
    freqs = (990.0, 2970.0, 4950.0)
    return _finish(_partials(t, freqs, (1.0, 0.5, 0.3), (0.015, 0.01, 0.006)), rate, 0.5)


def step_back(rate: int) -> np.ndarray:
    """A short downward blip: pitch falls, like walking the wrong way."""
    t = _time(0.08, rate)
    return _finish(_chirp(t, 1400.0, 500.0) * _decay(t, 0.001, 0.025), rate, 0.55)


def capture(rate: int) -> np.ndarray:
    """A hit: a low thump with a noisy crack, then a falling tail."""
    t = _time(0.35, rate)
    rng = np.random.default_rng(2)
    thump = np.sin(2 * np.pi * 90.0 * t) * _decay(t, 0.002, 0.08)
    crack = _bandpass_noise(rng, t.size, 800, 5000, rate) * _decay(t, 0.001, 0.03)
    tail = _chirp(t, 700.0, 150.0) * _decay(t, 0.01, 0.12) * 0.5
    return _finish(thump + 0.8 * crack + tail, rate, 0.7)


def capture_own(rate: int) -> np.ndarray:
    """Uh-oh: two falling notes a minor second apart, with a rough beating."""
    total = 0.5
    first = _note(523.25, 0.0, 0.2, total, rate) + _note(554.37, 0.0, 0.2, total, rate)
    second = _note(392.0, 0.2, 0.3, total, rate) + _note(415.3, 0.2, 0.3, total, rate)
    return _finish(first + second, rate, 0.7)


def safe(rate: int) -> np.ndarray:
    """A rising three-note chime: C, E, G."""
    total = 0.5
    notes = sum(_note(f, s, 0.3, total, rate, bright=0.15) for f, s in ((1046.5, 0.0), (1318.5, 0.08), (1568.0, 0.16)))
    return _finish(np.asarray(notes), rate, 0.6)


def out(rate: int) -> np.ndarray:
    """A pop and an upward sweep: a marble rolling out of home."""
    t = _time(0.25, rate)
    sweep = _chirp(t, 300.0, 1200.0) * _decay(t, 0.003, 0.08)
    pop = np.sin(2 * np.pi * 180.0 * t) * _decay(t, 0.001, 0.015)
    return _finish(sweep + pop, rate, 0.6)


def burn(rate: int) -> np.ndarray:
    """Crackling: noise bursts under a closing low-pass, like paper catching fire."""
    t = _time(0.45, rate)
    rng = np.random.default_rng(3)
    noise = rng.standard_normal(t.size)
    crackle = np.zeros(t.size)
    for start in rng.integers(0, int(0.38 * rate), 14):
        length = int(0.012 * rate)
        crackle[start:start + length] += rng.uniform(0.4, 1.0) * np.exp(-np.arange(length) / (0.003 * rate))
    hiss = _lowpass(noise, 2500.0, rate) * _decay(t, 0.05, 0.15) * 0.25
    return _finish(_lowpass(noise * crackle, 4000.0, rate) + hiss, rate, 0.55)


def turned_back(rate: int) -> np.ndarray:
    """Two low buzzes: the 'no' of a quiz show, soft enough not to startle."""
    total = 0.32
    t = _time(total, rate)
    square = np.zeros_like(t)
    for harmonic in (1, 3, 5, 7):
        square += np.sin(2 * np.pi * 150.0 * harmonic * t) / harmonic
    gate = ((t < 0.12) | ((t > 0.18) & (t < 0.30))).astype(np.float64)
    gate = _lowpass(gate, 80.0, rate)
    return _finish(square * gate, rate, 0.5)


def your_turn(rate: int) -> np.ndarray:
    """Ding-dong, rising: a clear call to act."""
    total = 0.55
    notes = _note(784.0, 0.0, 0.3, total, rate) + _note(1174.7, 0.15, 0.4, total, rate)
    return _finish(notes, rate, 0.6)


def deal(rate: int) -> np.ndarray:
    """A riffle: a run of short paper flicks."""
    t = _time(0.36, rate)
    rng = np.random.default_rng(4)
    flicks = np.zeros(t.size)
    for k in range(9):
        start = int((0.02 + 0.035 * k) * rate)
        length = int(0.02 * rate)
        burst = _bandpass_noise(rng, length, 2000, 9000, rate) * np.exp(-np.arange(length) / (0.004 * rate))
        flicks[start:start + length] += burst
    return _finish(flicks, rate, 0.5)


def win(rate: int) -> np.ndarray:
    """A short fanfare: C E G then a held high C with a bright edge."""
    total = 1.0
    parts = [_note(freq, start, length, total, rate, bright=0.4) for freq, start, length in (
        (523.25, 0.0, 0.2), (659.25, 0.12, 0.2), (783.99, 0.24, 0.2), (1046.5, 0.38, 0.6), (1318.5, 0.38, 0.6))]
    return _finish(np.sum(parts, axis=0), rate, 0.7)


def swap(rate: int) -> np.ndarray:
    """Two tones crossing each other: one rising, one falling."""
    t = _time(0.3, rate)
    env = _decay(t, 0.005, 0.1)
    return _finish((_chirp(t, 500.0, 1000.0) + _chirp(t, 1000.0, 500.0)) * env, rate, 0.55)


def tick(rate: int) -> np.ndarray:
    """A soft wooden tick, like a clock heard from across the room: short, quiet, never in the way of speech."""
    t = _time(0.05, rate)
    knock = _partials(t, (1800.0, 2700.0), (1.0, 0.4), (0.008, 0.005))
    return _finish(knock, rate, 0.32)  # the quietest cue of the pack


SYNTHS: Final[dict[Cue, Callable[[int], np.ndarray]]] = {
    Cue.STEP_RED: step_red,
    Cue.STEP_BLUE: step_blue,
    Cue.STEP_GREEN: step_green,
    Cue.STEP_YELLOW: step_yellow,
    Cue.STEP_BACK: step_back,
    Cue.CAPTURE: capture,
    Cue.CAPTURE_OWN: capture_own,
    Cue.SAFE: safe,
    Cue.OUT: out,
    Cue.BURN: burn,
    Cue.TURNED_BACK: turned_back,
    Cue.YOUR_TURN: your_turn,
    Cue.DEAL: deal,
    Cue.WIN: win,
    Cue.SWAP: swap,
    Cue.TICK: tick,
}


def synthesise(name: Cue | str, rate: int = SAMPLE_RATE) -> np.ndarray:
    """The built-in version of a cue as mono float32 at ``rate``."""
    return SYNTHS[cue_named(name)](rate)


def cue_filename(cue: Cue) -> str:
    return f"{cue.value}.wav"


def write_pack(directory: str | Path, rate: int = SAMPLE_RATE) -> list[Path]:
    """Write every cue as ``<name>.wav`` (16-bit mono) into ``directory``; return the paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for cue in Cue:
        path = directory / cue_filename(cue)
        write_wav(path, synthesise(cue, rate), rate)
        written.append(path)
    return written
