"""Where mixed audio goes: a sound card stream, a wall-clock pacer with no card, a WAV file.

All three pull blocks from the same Mixer. The sound card callback never
touches the file: when recording alongside a card it copies each block into
a preallocated ring, and a writer thread drains the ring into the WAV.
"""

from __future__ import annotations

import threading
import time
import wave
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from voicejack.audio.mixer import Mixer


class WavSink:
    """A 16-bit stereo WAV written block by block (the header is finished on close)."""

    def __init__(self, path: str | Path, sample_rate: int) -> None:
        self.path = Path(path)
        try:
            # Opened here, not by wave.open(path): a failed wave.open leaves a half-built
            # writer whose destructor raises.
            self._handle = open(self.path, "wb")  # noqa: SIM115 - closed in close()
        except OSError as error:
            raise OSError(f"cannot record to {self.path}: {error.strerror or error}") from None
        self._file: wave.Wave_write | None = wave.open(self._handle, "wb")
        self._file.setnchannels(2)
        self._file.setsampwidth(2)
        self._file.setframerate(sample_rate)
        self._lock = threading.Lock()

    def write(self, block: np.ndarray) -> None:
        pcm = np.round(np.clip(block, -1.0, 1.0) * 32767.0).astype("<i2")
        with self._lock:
            if self._file is not None:
                self._file.writeframes(pcm.tobytes())

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None
                self._handle.close()


class RingTap:
    """Single-producer (audio callback), single-consumer (writer thread) ring of stereo frames."""

    def __init__(self, frames: int) -> None:
        self._buffer = np.zeros((frames, 2), np.float32)
        self._size = frames
        self.written = 0
        self.read = 0
        self.lost = 0

    def push(self, block: np.ndarray) -> None:
        n = block.shape[0]
        if n > self._size:
            block = block[n - self._size:]
            n = self._size
        start = self.written % self._size
        first = min(n, self._size - start)
        self._buffer[start:start + first] = block[:first]
        if first < n:
            self._buffer[: n - first] = block[first:]
        self.written += n

    def pull(self) -> np.ndarray | None:
        written = self.written
        available = written - self.read
        if available > self._size:  # the writer fell a whole ring behind: keep the newest
            self.lost += available - self._size
            self.read = written - self._size
            available = self._size
        if available <= 0:
            return None
        start = self.read % self._size
        first = min(available, self._size - start)
        block = self._buffer[start:start + first].copy()
        if first < available:
            block = np.concatenate([block, self._buffer[: available - first]])
        self.read += available
        return block


class DeviceSink:
    """A sounddevice OutputStream whose callback only mixes (and copies into a tap when recording)."""

    def __init__(
        self,
        mixer: Mixer,
        device: int | str | None,
        blocksize: int,
        record: WavSink | None = None,
        ring_seconds: float = 4.0,
    ) -> None:
        import sounddevice  # OSError here when libportaudio2 is missing

        self.mixer = mixer
        self._record = record
        self._tap = RingTap(int(mixer.sample_rate * ring_seconds)) if record is not None else None
        self._stream: Any = sounddevice.OutputStream(
            samplerate=mixer.sample_rate,
            blocksize=blocksize,
            device=device,
            channels=2,
            dtype="float32",
            latency="low",
            callback=self._callback,
        )
        self._stream.start()
        self._stop_writer = threading.Event()
        self._writer: threading.Thread | None = None
        if self._tap is not None:
            self._writer = threading.Thread(target=self._drain_loop, name="voicejack-record", daemon=True)
            self._writer.start()

    def _callback(self, outdata: np.ndarray, frames: int, time_info: Any, status: Any) -> None:
        self.mixer.mix_into(outdata)
        if self._tap is not None:
            self._tap.push(outdata)

    def _drain_loop(self) -> None:
        assert self._tap is not None and self._record is not None
        while not self._stop_writer.wait(0.05):
            block = self._tap.pull()
            if block is not None:
                self._record.write(block)

    def close(self) -> None:
        try:
            self._stream.stop()
            self._stream.close()
        finally:
            self._stop_writer.set()
            if self._writer is not None:
                self._writer.join()
            if self._tap is not None and self._record is not None:
                block = self._tap.pull()
                if block is not None:
                    self._record.write(block)


class PacedSink:
    """No sound card: a thread mixes block by block at wall-clock pace, into a WAV or into nothing.

    Keeping real time matters even when nothing is heard: the game waits for
    speech to end before listening, and that must take as long as the speech.
    """

    def __init__(self, mixer: Mixer, blocksize: int, record: WavSink | None = None) -> None:
        self.mixer = mixer
        self._blocksize = blocksize
        self._record = record
        self._block = np.zeros((blocksize, 2), np.float32)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="voicejack-paced-audio", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        started = time.monotonic()
        mixed = 0
        while not self._stop.is_set():
            due = started + mixed / self.mixer.sample_rate
            delay = due - time.monotonic()
            if delay > 0 and self._stop.wait(delay):
                break
            self.mixer.mix_into(self._block)
            mixed += self._blocksize
            if self._record is not None:
                self._record.write(self._block)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()


class OfflineSink:
    """Rendering on demand, as fast as the CPU allows: the clock is the samples rendered."""

    def __init__(self, mixer: Mixer, blocksize: int, record: WavSink | None = None,
                 wait_for_speech: Callable[[], None] | None = None) -> None:
        self.mixer = mixer
        self._blocksize = blocksize
        self._record = record
        self._wait_for_speech = wait_for_speech

    def render_frames(self, frames: int) -> np.ndarray:
        out = np.zeros((frames, 2), np.float32)
        done = 0
        while done < frames:
            n = min(self._blocksize, frames - done)
            if self._wait_for_speech is not None:
                self._wait_for_speech()
            self.mixer.mix_into(out[done:done + n])
            done += n
        if self._record is not None:
            self._record.write(out)
        return out

    def close(self) -> None:
        pass
