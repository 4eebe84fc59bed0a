"""Text to speech as a renderer: sentences become float32 buffers for our own mixer.

pyttsx3's ``say()`` plays through ``aplay`` and blocks until done, so it can
be neither mixed nor interrupted. Instead each sentence is rendered with
``save_to_file`` into a temporary WAV (one utterance per ``runAndWait``, the
finished-utterance callback confirming it), read back and handed over.

libespeak-ng is initialised once per process and is not thread-safe, and
pyttsx3 applies property changes through its own command queue, so
everything touching it runs on ONE worker thread: the renderer keeps its own
copy of rate and voice per request and sets both before every utterance on
that thread. If pyttsx3 cannot start (no libespeak-ng), the ``espeak-ng``
program is called with ``-w`` instead; with neither, speech is text only.

Rendered sentences are kept in an LRU cache keyed by (text, voice, rate,
sample rate) with a memory budget, since the game repeats many sentences.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Final, Protocol

import numpy as np

from voicejack.audio.wavio import read_wav, resample, to_mono

DEFAULT_RATE_WPM: Final = 175
MIN_RATE_WPM: Final = 80
MAX_RATE_WPM: Final = 450
CACHE_BYTES: Final = 48 * 1024 * 1024
BACKENDS: Final = ("pyttsx3", "espeak-ng")


# pyttsx3 hands every caller the same engine over one process-wide libespeak-ng:
# two renderers on two threads must still take turns.
_ESPEAK_LOCK = threading.Lock()


class SpeechUnavailable(RuntimeError):
    """No speech synthesiser could be started."""


@dataclass(frozen=True, slots=True)
class VoiceInfo:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Rendered:
    """One rendered sentence: mono float32 at ``sample_rate``."""

    audio: np.ndarray
    sample_rate: int
    cached: bool
    seconds_to_render: float


class Backend(Protocol):
    name: str

    def render(self, text: str, voice: str | None, rate: int) -> tuple[np.ndarray, int]: ...

    def voices(self) -> list[VoiceInfo]: ...


def clamp_rate(rate: int) -> int:
    return max(MIN_RATE_WPM, min(MAX_RATE_WPM, int(rate)))


def _temp_wav() -> str:
    handle, path = tempfile.mkstemp(prefix="voicejack-tts-", suffix=".wav")
    os.close(handle)
    return path


def _read_and_remove(path: str) -> tuple[np.ndarray, int]:
    try:
        wav = read_wav(path)
    finally:
        try:
            os.remove(path)
        except OSError:
            pass
    return to_mono(wav.samples), wav.sample_rate


class Pyttsx3Backend:
    """pyttsx3 over libespeak-ng, used only from the thread that created it.

    pyttsx3 starts libespeak-ng in "retrieval" mode, which in espeak-ng is
    asynchronous: parameter changes and synthesis are queued to espeak's own
    thread. pyttsx3 calls ``espeak_Cancel`` whenever its loop ends while
    espeak is still busy, and a cancel throws away queued parameter changes
    and can cut the next utterance short (measured here: the rate silently
    ignored in most of 40 alternating requests, an empty file now and then).
    So the driver's properties are set directly (not through pyttsx3's
    command queue) and espeak is drained with ``espeak_Synchronize`` before
    every utterance, so pyttsx3 always finds it idle.
    """

    name = "pyttsx3"

    def __init__(self) -> None:
        import pyttsx3
        import pyttsx3.drivers._espeak as espeak_library
        import pyttsx3.drivers.espeak as espeak_driver

        # The espeak driver prints "Audio saved to ..." on every save; the
        # game's stdout is for the player, so that module's print is silenced.
        espeak_driver.print = lambda *args, **kwargs: None
        self._espeak: Any = espeak_library
        self._engine: Any = pyttsx3.init()  # a strong reference: pyttsx3 keeps engines in a weak dict
        self._driver: Any = self._engine.proxy._driver
        self._finished = threading.Event()
        self._completed = False
        self._engine.connect("finished-utterance", self._on_finished)
        self._default_voice: str | None = self._engine.getProperty("voice")

    def _on_finished(self, name: str | None = None, completed: bool = True, **_: Any) -> None:
        # Runs on espeak's thread. Only a completed utterance counts: a cancelled one
        # (completed=False) must not be mistaken for the end of the current request.
        if completed:
            self._completed = True
            self._finished.set()

    def render(self, text: str, voice: str | None, rate: int) -> tuple[np.ndarray, int]:
        with _ESPEAK_LOCK:
            return self._render(text, voice, rate)

    def _render(self, text: str, voice: str | None, rate: int) -> tuple[np.ndarray, int]:
        path = _temp_wav()
        self._espeak.Synchronize()
        # Both properties every time, so nothing leaks from the previous request;
        # voice first, since loading a voice may reset the rate.
        self._driver.setProperty("voice", voice or self._default_voice)
        self._driver.setProperty("rate", clamp_rate(rate))
        self._espeak.Synchronize()
        self._finished.clear()
        self._completed = False
        self._engine.save_to_file(text, path)
        self._engine.runAndWait()
        if not self._finished.wait(10.0) or not self._completed:
            os.remove(path)
            raise RuntimeError(f"pyttsx3 did not finish rendering {text!r}")
        return _read_and_remove(path)

    def voices(self) -> list[VoiceInfo]:
        return [VoiceInfo(id=str(v.id), name=str(v.name)) for v in self._engine.getProperty("voices")]


class EspeakCliBackend:
    """The espeak-ng program, one process per sentence (the fallback when pyttsx3 cannot start)."""

    name = "espeak-ng"

    def __init__(self, program: str | None = None) -> None:
        found = program or shutil.which("espeak-ng") or shutil.which("espeak")
        if found is None:
            raise SpeechUnavailable("the espeak-ng program is not installed")
        self._program = found

    def render(self, text: str, voice: str | None, rate: int) -> tuple[np.ndarray, int]:
        path = _temp_wav()
        command = [self._program, "-s", str(clamp_rate(rate)), "-w", path]
        if voice:
            command += ["-v", voice.split("/")[-1]]  # pyttsx3 ids look like "gmw/en-us"; the program wants "en-us"
        command += ["--", text]
        result = subprocess.run(command, capture_output=True, text=True, timeout=30)
        if result.returncode != 0:
            os.remove(path)
            raise RuntimeError(f"espeak-ng failed: {result.stderr.strip() or result.returncode}")
        return _read_and_remove(path)

    def voices(self) -> list[VoiceInfo]:
        listing = subprocess.run([self._program, "--voices"], capture_output=True, text=True, timeout=30).stdout
        voices = []
        for line in listing.splitlines()[1:]:
            fields = line.split()
            if len(fields) >= 5:
                voices.append(VoiceInfo(id=fields[4], name=fields[3].replace("_", " ")))
        return voices


def _make_backend(name: str) -> Backend:
    if name == "pyttsx3":
        return Pyttsx3Backend()
    if name == "espeak-ng":
        return EspeakCliBackend()
    raise ValueError(f"unknown speech backend {name!r}; choose from {', '.join(BACKENDS)}")


class _LruCache:
    """Rendered sentences by key, evicting the least recently used past a byte budget."""

    def __init__(self, budget_bytes: int) -> None:
        self._budget = budget_bytes
        self._bytes = 0
        self._items: OrderedDict[tuple[str, str | None, int, int], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str | None, int, int]) -> np.ndarray | None:
        with self._lock:
            audio = self._items.get(key)
            if audio is not None:
                self._items.move_to_end(key)
            return audio

    def put(self, key: tuple[str, str | None, int, int], audio: np.ndarray) -> None:
        if audio.nbytes > self._budget:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= old.nbytes
            self._items[key] = audio
            self._bytes += audio.nbytes
            while self._bytes > self._budget:
                _, evicted = self._items.popitem(last=False)
                self._bytes -= evicted.nbytes



class SpeechRenderer:
    """Renders sentences on one worker thread, with a cache; safe to call from any thread.

    ``backends`` lists what to try in order; the first that starts is used
    for the life of the renderer. ``notify`` hears, once, about a fallback.
    """

    def __init__(
        self,
        backends: tuple[str, ...] = BACKENDS,
        notify: Callable[[str], None] | None = None,
        cache_bytes: int = CACHE_BYTES,
        factory: Callable[[str], Backend] = _make_backend,
    ) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="voicejack-tts")
        self._cache = _LruCache(cache_bytes)
        self._notify = notify or (lambda message: None)
        self._factory = factory
        self._backend: Backend | None = None
        self._problems: list[str] = []
        self.notice: str | None = None  # what went wrong starting, once known
        self._ready: Future[str] = self._executor.submit(self._start, backends)

    def _start(self, backends: tuple[str, ...]) -> str:
        for name in backends:
            try:
                self._backend = self._factory(name)
            except Exception as error:  # any failure to start means "try the next one"
                self._problems.append(f"{name}: {error}")
                continue
            if self._problems:
                self.notice = f"Speech: {'; '.join(self._problems)}; using {name} instead."
                self._notify(self.notice)
            return name
        self.notice = f"Speech is unavailable ({'; '.join(self._problems) or 'no backend'}); the game will be text only."
        self._notify(self.notice)
        return "none"

    @property
    def backend(self) -> str:
        """'pyttsx3', 'espeak-ng' or 'none' (blocks until the worker has tried)."""
        return self._ready.result()

    @property
    def available(self) -> bool:
        return self.backend != "none"

    def submit(self, text: str, voice: str | None, rate: int, sample_rate: int) -> Future[Rendered]:
        """Render ``text`` (or take it from the cache). Cancel the future to drop a queued request."""
        key = (text, voice, clamp_rate(rate), sample_rate)
        audio = self._cache.get(key)
        if audio is not None:
            future: Future[Rendered] = Future()
            future.set_running_or_notify_cancel()
            future.set_result(Rendered(audio, sample_rate, cached=True, seconds_to_render=0.0))
            return future
        return self._executor.submit(self._render, key)

    def _render(self, key: tuple[str, str | None, int, int]) -> Rendered:
        import time

        text, voice, rate, sample_rate = key
        audio = self._cache.get(key)  # an identical request may have been rendered while this one queued
        if audio is not None:
            return Rendered(audio, sample_rate, cached=True, seconds_to_render=0.0)
        if self._backend is None:
            raise SpeechUnavailable("no speech synthesiser")
        started = time.perf_counter()
        mono, native_rate = self._backend.render(text, voice, rate)
        audio = resample(mono, native_rate, sample_rate)
        audio.setflags(write=False)
        self._cache.put(key, audio)
        return Rendered(audio, sample_rate, cached=False, seconds_to_render=time.perf_counter() - started)

    def render(self, text: str, voice: str | None, rate: int, sample_rate: int, timeout: float = 30.0) -> Rendered:
        """Blocking convenience around :meth:`submit`."""
        return self.submit(text, voice, rate, sample_rate).result(timeout)

    def voices(self, timeout: float = 30.0) -> list[VoiceInfo]:
        def listing() -> list[VoiceInfo]:
            return self._backend.voices() if self._backend is not None else []

        return self._executor.submit(listing).result(timeout)

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


_shared: dict[tuple[str, ...], SpeechRenderer] = {}
_shared_lock = threading.Lock()


def shared_renderer(backends: tuple[str, ...] = BACKENDS, notify: Callable[[str], None] | None = None) -> SpeechRenderer:
    """One renderer per backend list for the whole process (libespeak-ng can be initialised only once)."""
    with _shared_lock:
        renderer = _shared.get(backends)
        if renderer is None:
            renderer = SpeechRenderer(backends, notify=notify)
            _shared[backends] = renderer
        return renderer


__all__ = [
    "BACKENDS", "DEFAULT_RATE_WPM", "EspeakCliBackend", "Pyttsx3Backend", "Rendered", "SpeechRenderer",
    "SpeechUnavailable", "VoiceInfo", "clamp_rate", "shared_renderer",
]
