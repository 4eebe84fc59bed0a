"""The cues the game plays: loaded from sounds/ (replaceable), the built-in synthesis as fallback.

A player may drop their own ``<cue>.wav`` into the sounds directory, at any
sample rate, bit depth and channel count: it is downmixed to mono and
resampled to the mixer's rate on load. A missing or unreadable file falls
back to the synthesised cue, and the bank says so once, in one message.
Spatialised (stereo) versions are cached per direction, since steps come
back to the same 76 cells all game.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Final

import numpy as np

from voicejack.audio.cuenames import Cue, cue_named
from voicejack.audio.cuepack import cue_filename, synthesise
from voicejack.audio.spatial import spatialise
from voicejack.audio.wavio import WavError, load_mono

_STEREO_CACHE_ITEMS: Final = 1024
_MAX_CUE_SECONDS: Final = 10.0  # a longer replacement is cut, so one file cannot stall the game


def default_sounds_dir() -> Path:
    """$VOICEJACK_SOUNDS if set, else the sounds/ folder of this checkout."""
    override = os.environ.get("VOICEJACK_SOUNDS")
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[2] / "sounds"


class CueBank:
    def __init__(
        self,
        sample_rate: int,
        sounds_dir: str | Path | None = None,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        self.sample_rate = sample_rate
        self.sounds_dir = Path(sounds_dir) if sounds_dir is not None else default_sounds_dir()
        self.sources: dict[Cue, str] = {}   # cue -> the file it came from, or "built-in"
        self.problems: list[str] = []
        self._mono: dict[Cue, np.ndarray] = {}
        self._stereo: OrderedDict[tuple[Cue, float, bool], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        if not self.sounds_dir.is_dir():
            self.problems.append("folder not found")
            for cue in Cue:
                self.sources[cue] = "built-in"
                self._mono[cue] = _readonly(synthesise(cue, sample_rate))
        else:
            for cue in Cue:
                self._mono[cue] = self._load(cue)
        if self.problems and notify is not None:
            notify(self.notice())

    def _load(self, cue: Cue) -> np.ndarray:
        path = self.sounds_dir / cue_filename(cue)
        if not path.exists():
            self.problems.append(f"{path.name} missing")
        else:
            try:
                audio = load_mono(path, self.sample_rate)[: int(_MAX_CUE_SECONDS * self.sample_rate)]
                if not np.all(np.isfinite(audio)):
                    raise WavError(f"{path}: contains invalid samples")
                self.sources[cue] = str(path)
                return _readonly(audio)
            except WavError as error:
                self.problems.append(f"{path.name} unreadable ({error})")
        self.sources[cue] = "built-in"
        return _readonly(synthesise(cue, self.sample_rate))

    def notice(self) -> str:
        return f"Sounds in {self.sounds_dir}: {'; '.join(self.problems)}. Using the built-in sounds for those."

    def mono(self, name: Cue | str) -> np.ndarray:
        return self._mono[cue_named(name)]

    def seconds(self, name: Cue | str) -> float:
        return int(self.mono(name).shape[0]) / self.sample_rate

    def stereo(self, name: Cue | str, azimuth: float, headphones: bool) -> np.ndarray:
        """The cue placed at ``azimuth`` (cached; the result must not be modified)."""
        key = (cue_named(name), round(azimuth, 1), headphones)
        with self._lock:
            cached = self._stereo.get(key)
            if cached is not None:
                self._stereo.move_to_end(key)
                return cached
        stereo = _readonly(spatialise(self.mono(name), key[1], self.sample_rate, headphones))
        with self._lock:
            self._stereo[key] = stereo
            while len(self._stereo) > _STEREO_CACHE_ITEMS:
                self._stereo.popitem(last=False)
        return stereo


def _readonly(array: np.ndarray) -> np.ndarray:
    array = np.ascontiguousarray(array, dtype=np.float32)
    array.setflags(write=False)
    return array
