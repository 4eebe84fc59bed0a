"""The mixer: speech and cues summed into stereo float32 blocks, with ducking, stops and a limiter.

Its one job runs inside the sound card's callback, so ``mix_into`` only
adds ready float32 buffers into preallocated scratch arrays: no locks, no
I/O, no waiting, no arrays created (only views by slicing). Everything else
(synthesis, spatialisation, speech rendering) happens on other threads,
which hand finished buffers over through a ``SimpleQueue`` (cues) and a
``deque`` (speech, in order).

Stopping uses epochs instead of locks: ``stop_all``/``stop_speech`` bump a
counter, and any voice from an older epoch fades out within the next
block and is dropped. So a stop takes effect within one buffer.

The clock is ``frame``, the number of frames mixed so far: the sound card
drives it in real time, ``render`` drives it offline, so offline tests are
deterministic.
"""

from __future__ import annotations

import threading
from collections import deque
from queue import SimpleQueue
from typing import Final

import numpy as np

MAX_VOICES: Final = 64
DUCK_LEVEL: Final = 0.35      # cue gain while speech plays (about -9 dB)
DUCK_ATTACK_S: Final = 0.03
DUCK_RELEASE_S: Final = 0.25
LIMIT_CEILING: Final = 0.97   # peak the limiter aims for, leaving headroom under full scale
LIMIT_RELEASE_S: Final = 0.3


class Voice:
    """A stereo cue buffer scheduled at an absolute frame."""

    __slots__ = ("buffer", "start", "position", "gain", "epoch")

    def __init__(self, buffer: np.ndarray, start: int, gain: float, epoch: int) -> None:
        self.buffer = buffer
        self.start = start
        self.position = 0
        self.gain = np.float32(gain)
        self.epoch = epoch


class SpeechClip:
    """One sentence in the speech queue; ``buffer`` is filled in by the renderer thread when ready."""

    __slots__ = ("text", "epoch", "buffer", "failed", "position", "ready", "started_frame")

    def __init__(self, text: str, epoch: int) -> None:
        self.text = text
        self.epoch = epoch
        self.buffer: np.ndarray | None = None
        self.failed = False
        self.position = 0
        self.ready = threading.Event()
        self.started_frame = -1

    def deliver(self, buffer: np.ndarray | None) -> None:
        """Called once by the producer: the stereo float32 audio, or None if it could not be made."""
        if buffer is None:
            self.failed = True
        else:
            self.buffer = buffer
        self.ready.set()


class Mixer:
    def __init__(self, sample_rate: int = 48000, max_block: int = 4096) -> None:
        self.sample_rate = sample_rate
        self.max_block = max_block
        self.frame = 0
        self.speech_volume = 1.0
        self.cue_volume = 1.0
        self.master_volume = 1.0
        self.duck_level = DUCK_LEVEL
        self._incoming: SimpleQueue[Voice] = SimpleQueue()
        self._slots: list[Voice | None] = [None] * MAX_VOICES
        self._speech_queue: deque[SpeechClip] = deque()
        self._speech: SpeechClip | None = None
        self._cue_epoch = 0
        self._speech_epoch = 0
        self._duck = 1.0
        self._limit = 1.0
        self.dropped_voices = 0
        self.peak_reduction = 1.0  # the lowest limiter gain so far (1.0 = never limited)
        self._cue_bus = np.zeros((max_block, 2), np.float32)
        self._fade_bus = np.zeros((max_block, 2), np.float32)
        self._speech_bus = np.zeros((max_block, 2), np.float32)
        self._tmp = np.zeros((max_block, 2), np.float32)
        # Ramps are 1-D and applied channel by channel: broadcasting an (n, 1) column
        # over (n, 2) in place makes numpy allocate a buffer on every call.
        self._index = np.arange(1, max_block + 1, dtype=np.float32)
        self._ramp = np.zeros(max_block, np.float32)
        self._down = np.zeros(max_block, np.float32)
        self._gain = np.zeros(max_block, np.float32)

    # Producer side (any thread).

    @property
    def cue_epoch(self) -> int:
        return self._cue_epoch

    @property
    def speech_epoch(self) -> int:
        return self._speech_epoch

    def play(self, stereo: np.ndarray, start_frame: int | None = None, gain: float = 1.0) -> None:
        """Schedule a stereo float32 (frames, 2) buffer at an absolute frame (None: as soon as possible)."""
        buffer = np.ascontiguousarray(stereo, dtype=np.float32)
        if buffer.ndim != 2 or buffer.shape[1] != 2:
            raise ValueError("the mixer plays stereo (frames, 2) buffers")
        self._incoming.put(Voice(buffer, self.frame if start_frame is None else start_frame, gain, self._cue_epoch))

    def new_speech(self, text: str) -> SpeechClip:
        """Queue a sentence; the caller fills it with ``clip.deliver(stereo)`` when rendered."""
        clip = SpeechClip(text, self._speech_epoch)
        self._speech_queue.append(clip)
        return clip

    def stop_all(self) -> None:
        self._cue_epoch += 1
        self.stop_speech()

    def stop_cues(self) -> None:
        self._cue_epoch += 1

    def stop_speech(self) -> None:
        self._speech_epoch += 1

    def speech_active(self) -> bool:
        """Speech playing, or queued and not cancelled (the microphone stays muted meanwhile)."""
        current = self._speech
        if current is not None and current.epoch == self._speech_epoch:
            return True
        return any(clip.epoch == self._speech_epoch and not clip.failed for clip in list(self._speech_queue))

    def cues_active(self) -> bool:
        return not self._incoming.empty() or any(slot is not None for slot in self._slots)

    def idle(self) -> bool:
        return not self.speech_active() and not self.cues_active() and self._speech is None

    def waiting_for_speech(self) -> SpeechClip | None:
        """The queued sentence the mixer would play next but which is not rendered yet."""
        for clip in list(self._speech_queue):
            if clip.epoch != self._speech_epoch or clip.failed:
                continue
            return None if clip.buffer is not None else clip
        return None

    # Consumer side (the audio thread only).

    def mix_into(self, out: np.ndarray) -> None:
        """Fill ``out`` ((frames, 2) float32) with the next block and advance the clock."""
        frames = out.shape[0]
        done = 0
        while done < frames:
            n = min(self.max_block, frames - done)
            self._mix_block(out[done:done + n], n)
            done += n

    def _mix_block(self, out: np.ndarray, n: int) -> None:
        frame = self.frame
        self._take_incoming()
        np.multiply(self._index[:n], np.float32(1.0 / n), out=self._ramp[:n])   # 1/n .. 1
        np.subtract(np.float32(1.0), self._ramp[:n], out=self._down[:n])         # fade-out ramp to 0
        speaking = self._mix_speech(n, frame)
        self._mix_cues(n, frame)

        cues = self._cue_bus[:n]
        duck_target = self.duck_level if speaking else 1.0
        step = n / (self.sample_rate * (DUCK_ATTACK_S if duck_target < self._duck else DUCK_RELEASE_S))
        duck_next = max(duck_target, self._duck - step) if duck_target < self._duck else min(duck_target, self._duck + step)
        if self._duck != 1.0 or duck_next != 1.0:
            _scale(cues, self._gain_ramp(self._duck, duck_next, n))
        self._duck = duck_next

        np.multiply(self._speech_bus[:n], np.float32(self.speech_volume * self.master_volume), out=out)
        cues *= np.float32(self.cue_volume * self.master_volume)
        out += cues

        # Limiter: a whole block never exceeds the ceiling; the gain comes back up slowly.
        peak = float(max(out.max(), -out.min()))
        allowed = 1.0 if peak <= LIMIT_CEILING else LIMIT_CEILING / peak
        if allowed < self._limit:
            self._limit = allowed
            out *= np.float32(allowed)
        else:
            target = min(allowed, self._limit + n / (self.sample_rate * LIMIT_RELEASE_S))
            if self._limit < 1.0 or target < 1.0:
                _scale(out, self._gain_ramp(self._limit, target, n))
            self._limit = target
        self.peak_reduction = min(self.peak_reduction, self._limit)
        np.clip(out, -1.0, 1.0, out=out)
        self.frame = frame + n

    def _gain_ramp(self, start: float, end: float, n: int) -> np.ndarray:
        """A gain going from start to end across the block (a view of a preallocated array)."""
        gain = self._gain[:n]
        np.multiply(self._ramp[:n], np.float32(end - start), out=gain)
        gain += np.float32(start)
        return gain

    def _take_incoming(self) -> None:
        while not self._incoming.empty():
            voice = self._incoming.get_nowait()
            if voice.epoch != self._cue_epoch:
                continue
            for index, slot in enumerate(self._slots):
                if slot is None:
                    self._slots[index] = voice
                    break
            else:
                self.dropped_voices += 1

    def _mix_cues(self, n: int, frame: int) -> None:
        bus = self._cue_bus[:n]
        bus.fill(0.0)
        fading = False
        for index, voice in enumerate(self._slots):
            if voice is None:
                continue
            stale = voice.epoch != self._cue_epoch
            if stale and voice.position == 0:
                self._slots[index] = None  # stopped before it was heard
                continue
            if stale and not fading:
                self._fade_bus[:n].fill(0.0)
                fading = True
            finished = self._add_voice(voice, self._fade_bus[:n] if stale else bus, n, frame)
            if finished or stale:
                self._slots[index] = None
        if fading:
            fade = self._fade_bus[:n]
            _scale(fade, self._down[:n])
            bus += fade

    def _add_voice(self, voice: Voice, bus: np.ndarray, n: int, frame: int) -> bool:
        """Add the voice's part of this block; True when it has played to the end."""
        offset = 0
        if voice.position == 0:
            offset = voice.start - frame
            if offset >= n:
                return False
            offset = max(offset, 0)  # late (scheduled in the past): start at once, from its beginning
        length = int(voice.buffer.shape[0])
        take = min(n - offset, length - voice.position)
        tmp = self._tmp[:take]
        np.multiply(voice.buffer[voice.position:voice.position + take], voice.gain, out=tmp)
        bus[offset:offset + take] += tmp
        voice.position += take
        return voice.position >= length

    def _mix_speech(self, n: int, frame: int) -> bool:
        bus = self._speech_bus[:n]
        bus.fill(0.0)
        clip = self._speech
        if clip is not None and clip.epoch != self._speech_epoch:
            self._copy_speech(clip, bus, n)
            _scale(bus, self._down[:n])  # cut: fade out within this block, then gone
            self._speech = None
            clip = None
        if clip is None:
            clip = self._next_speech()
            if clip is None:
                return False
            clip.started_frame = frame
            self._speech = clip
        if self._copy_speech(clip, bus, n):
            self._speech = None
        return True

    def _next_speech(self) -> SpeechClip | None:
        queue = self._speech_queue
        while queue:
            head = queue[0]
            if head.epoch != self._speech_epoch or head.failed:
                queue.popleft()
                continue
            if head.buffer is None:
                return None  # still rendering: keep its place, try again next block
            return queue.popleft()
        return None

    def _copy_speech(self, clip: SpeechClip, bus: np.ndarray, n: int) -> bool:
        buffer = clip.buffer
        assert buffer is not None
        length = int(buffer.shape[0])
        take = min(n, length - clip.position)
        bus[:take] += buffer[clip.position:clip.position + take]
        clip.position += take
        return clip.position >= length


def _scale(stereo: np.ndarray, gain: np.ndarray) -> None:
    """Multiply both channels by a per-frame gain, in place, without a temporary."""
    left = stereo[:, 0]
    left *= gain
    right = stereo[:, 1]
    right *= gain
