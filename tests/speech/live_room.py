"""A live virtual microphone: a room that never goes quiet, streamed in real time into an ALSA capture device.

The ALSA `file` plugin reads its capture data from `infile`; with a named pipe there, a writer thread that
feeds the pipe at real-time pace makes a live microphone that PortAudio, and so sounddevice, opens like any
other. Two things about the plugin decide how the writer works (test_speech_capture_alsa.py measures them):

- its slave ("null") never waits, so the pace comes from the pipe alone: a read blocks until data is there;
- it asks for a fixed number of bytes per read (1,280 with PortAudio's 320-frame blocks) and takes a short
  read for a full one, the rest of its buffer being old data. Written 20 ms at a time, the stream came out
  twice as fast as real time, half of it stale. So the writer writes whole chunks of 2,560 bytes (80 ms), a
  multiple of every such request, each in one write below PIPE_BUF (so the pipe takes it at once or not at all).

ALSA reads .asoundrc once per process, when PortAudio starts, so the device is used by a child process whose
HOME holds the .asoundrc.
"""

from __future__ import annotations

import os
import select
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from voicejack.speech.audio import SAMPLE_RATE

ASOUNDRC = """
pcm.vjfile {{
    type file
    slave {{
        pcm "null"
    }}
    file "/dev/null"
    infile "{infile}"
    format "raw"
}}
pcm.vjmic {{
    type plug
    slave {{
        pcm "vjfile"
        format S16_LE
        rate 16000
        channels 1
    }}
    hint {{
        show on
        description "VoiceJack test microphone"
    }}
}}
"""

DEVICE = "vjmic"
CHUNK_FRAMES = 1280  # 80 ms, 2,560 bytes: see the module's docstring
SLIP_SECONDS = 0.25  # a writer this far behind its clock starts again from now instead of rushing to catch up


def write_asoundrc(home: Path, infile: Path) -> None:
    """The virtual microphone ``vjmic``, capturing from ``infile`` (a file, or a named pipe)."""
    (home / ".asoundrc").write_text(ASOUNDRC.format(infile=infile))


def device_environment(home: Path, repo: Path) -> dict[str, str]:
    """The environment of a child process that sees the devices of ``home``/.asoundrc."""
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(repo)}
    env.pop("XDG_CONFIG_HOME", None)
    return env


@dataclass
class Spoken:
    """One utterance put into the room; the times (time.monotonic) are when its first and last samples went out."""

    samples: np.ndarray
    started: float = 0.0
    ended: float = 0.0
    done: threading.Event = field(default_factory=threading.Event)


class LiveRoom:
    """Writes the room into a named pipe at real-time pace: the background never stops, and what ``say`` is
    given is mixed in as soon as the current chunk is done.

    ``background(count)`` gives the next ``count`` samples of the room (float, int16 scale); a quiet
    microphone's self-noise is added on top. With ``keep=True`` every sample written is kept in ``written``.
    """

    def __init__(self, pipe: Path, background: Callable[[int], np.ndarray], seed: int = 0,
                 room_tone: float = 30.0, keep: bool = False) -> None:
        self.pipe = pipe
        self.background = background
        self.room_tone = room_tone
        self.keep = keep
        self.written: list[np.ndarray] = []
        self.frames_written = 0
        self.slips = 0
        self.started_at = 0.0
        self._rng = np.random.default_rng(seed)
        self._speech: deque[Spoken] = deque()
        self._current: tuple[Spoken, int] | None = None
        self._lock = threading.Lock()
        self._running = threading.Event()
        self._thread: threading.Thread | None = None
        self._fd = -1
        self.error: BaseException | None = None

    def start(self) -> LiveRoom:
        if not self.pipe.exists():
            os.mkfifo(self.pipe)
        # Read-write: opening never blocks, and the pipe never breaks when ALSA opens and closes it to look.
        self._fd = os.open(self.pipe, os.O_RDWR)
        self._running.set()
        self._thread = threading.Thread(target=self._run, name="live-room", daemon=True)
        self._thread.start()
        return self

    def say(self, samples: np.ndarray) -> Spoken:
        spoken = Spoken(np.asarray(samples, dtype=np.float64))
        with self._lock:
            self._speech.append(spoken)
        return spoken

    def stop(self) -> None:
        self._running.clear()
        if self._thread is not None:
            deadline = time.monotonic() + 5.0
            while self._thread.is_alive() and time.monotonic() < deadline:
                # Nobody may be reading any more: empty the pipe, so a write waiting for room returns.
                if select.select([self._fd], [], [], 0.05)[0]:
                    os.read(self._fd, 65536)
                self._thread.join(timeout=0.01)
            self._thread = None
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def _run(self) -> None:
        try:
            self.started_at = clock = time.monotonic()
            chunk_seconds = CHUNK_FRAMES / SAMPLE_RATE
            while self._running.is_set():
                now = time.monotonic()
                if now - clock > SLIP_SECONDS:
                    clock = now
                    self.slips += 1
                elif clock > now:
                    time.sleep(clock - now)
                chunk, began, finished = self._mix()
                os.write(self._fd, chunk.tobytes())
                sent = time.monotonic()  # the reader is waiting on the pipe: it has the chunk now
                for spoken in began:
                    spoken.started = sent
                for spoken in finished:
                    spoken.ended = sent
                    spoken.done.set()
                self.frames_written += len(chunk)
                if self.keep:
                    self.written.append(chunk)
                clock += chunk_seconds
        except Exception as error:  # noqa: BLE001 - reported by the caller, who checks ``error``
            self.error = error

    def _mix(self) -> tuple[np.ndarray, list[Spoken], list[Spoken]]:
        """The next chunk (little-endian int16), the utterances that begin in it and those that end in it."""
        signal = self.background(CHUNK_FRAMES) + self._rng.standard_normal(CHUNK_FRAMES) * self.room_tone
        began: list[Spoken] = []
        finished: list[Spoken] = []
        filled = 0
        with self._lock:
            while filled < CHUNK_FRAMES:
                if self._current is None:
                    if not self._speech:
                        break
                    self._current = (self._speech.popleft(), 0)
                    began.append(self._current[0])
                spoken, offset = self._current
                take = min(CHUNK_FRAMES - filled, len(spoken.samples) - offset)
                signal[filled:filled + take] += spoken.samples[offset:offset + take]
                filled += take
                if offset + take >= len(spoken.samples):
                    finished.append(spoken)
                    self._current = None
                else:
                    self._current = (spoken, offset + take)
        return np.clip(np.round(signal), -32768, 32767).astype("<i2"), began, finished
