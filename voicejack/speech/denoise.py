"""Streaming spectral subtraction with comfort noise, in front of pocketsphinx.

pocketsphinx's small GMM acoustic model loses fricatives and plosives
("help", "stop") under broadband noise, and it also does worse on
near-digital silence. Measured on synthesised speech (benchmarks/asr.py)
this front end lifts 20 dB white-noise accuracy without hurting clean
speech:
- a noise power spectrum is tracked per bin (follows dips at once, rises
  slowly), so it needs no voice-activity decision;
- each frame's power spectrum has the noise subtracted (gain floored, to
  limit musical noise), overlap-added back (Hann, 75 % overlap);
- low-level white comfort noise (seeded, so results repeat) is added back,
  so the recogniser never sees the near-silence it handles badly.
Delay: one window (32 ms). The vosk backend does not use it: its neural
models are trained on noisy audio. Small neural suppressors (DTLN, GTCRN,
RNNoise) were measured in its place (benchmarks/front_ends.py, models/README
ninth round): better with steady noise and music, worse in a reverberant room.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

WINDOW = 512
HOP = 128


class FrontEnd(Protocol):
    """What stands between the microphone and pocketsphinx: int16 samples in, the finished ones out."""

    def process(self, samples: np.ndarray) -> np.ndarray: ...

    def flush(self) -> np.ndarray: ...

    def reset(self) -> None: ...


class NoiseReducer:
    def __init__(
        self,
        over_subtraction: float = 1.5,
        gain_floor: float = 0.1,
        comfort_rms: float = 60.0,
        rise_per_second_db: float = 3.0,
        seed: int = 0,
    ) -> None:
        self.over_subtraction = over_subtraction
        self.gain_floor = gain_floor
        self.comfort_rms = comfort_rms
        self._window = np.hanning(WINDOW + 1)[:-1]
        # Hann analysis + Hann synthesis at 75 % overlap sums to a constant 1.5.
        self._ola_gain = float(np.sum(self._window**2) / HOP)
        self._rise = 10 ** (rise_per_second_db / 10 / (16_000 / HOP))
        self._rng = np.random.default_rng(seed)
        self._seed = seed
        self.reset()

    def reset(self) -> None:
        self._input = np.zeros(WINDOW - HOP, dtype=np.float64)
        self._output = np.zeros(WINDOW, dtype=np.float64)
        self._noise: np.ndarray | None = None
        self._smoothed: np.ndarray | None = None
        self._warmup: list[np.ndarray] = []
        self._rng = np.random.default_rng(self._seed)

    def process(self, samples: np.ndarray) -> np.ndarray:
        """Denoise a block; returns as many samples as complete hops allow (output lags input by one window)."""
        data = np.concatenate([self._input, np.asarray(samples, dtype=np.float64).ravel()])
        hops = (len(data) - (WINDOW - HOP)) // HOP
        if hops <= 0:
            self._input = data
            return np.zeros(0, dtype=np.int16)
        out = np.empty(hops * HOP, dtype=np.float64)
        starts = np.arange(hops) * HOP
        frames = np.lib.stride_tricks.sliding_window_view(data, WINDOW)[starts] * self._window
        spectra = np.fft.rfft(frames, axis=1)
        powers = np.abs(spectra) ** 2
        for i in range(hops):
            gain = self._gain(powers[i])
            frame = np.fft.irfft(spectra[i] * gain, WINDOW) * self._window / self._ola_gain
            self._output += frame
            out[i * HOP:(i + 1) * HOP] = self._output[:HOP]
            self._output = np.concatenate([self._output[HOP:], np.zeros(HOP)])
        self._input = data[hops * HOP:]
        if self.comfort_rms > 0:
            out += self._rng.standard_normal(len(out)) * self.comfort_rms
        return np.clip(np.round(out), -32768, 32767).astype(np.int16)

    def flush(self) -> np.ndarray:
        """The delayed tail: push one window of zeros through."""
        return self.process(np.zeros(WINDOW, dtype=np.float64))

    def _gain(self, power: np.ndarray) -> np.ndarray:
        if self._smoothed is None:
            self._smoothed = power.copy()
        else:
            self._smoothed = 0.7 * self._smoothed + 0.3 * power
        if self._noise is None:
            # Learn the first few frames' average as the starting estimate.
            self._warmup.append(self._smoothed.copy())
            if len(self._warmup) < 8:
                return np.ones_like(power)
            self._noise = np.mean(self._warmup, axis=0)
            self._warmup = []
        self._noise = np.minimum(self._noise * self._rise, np.maximum(self._smoothed, 1e-6))
        ratio = self.over_subtraction * self._noise / np.maximum(power, 1e-9)
        gain: np.ndarray = np.sqrt(np.maximum(1.0 - ratio, self.gain_floor))
        return gain
