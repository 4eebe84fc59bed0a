"""The mixer: speech and cues summed into stereo float32 blocks, with ducking, stops and a limiter.

Its one job runs inside the sound card's callback, so ``mix_into`` only
adds ready float32 buffers into preallocated scratch arrays: no locks, no
I/O, no waiting, no arrays created (only views by slicing). Everything else
(synthesis, spatialisation, speech rendering) happens on other threads,
which hand finished buffers over through a ``SimpleQueue`` (cues played at
once) and a ``deque`` (the timeline).

The timeline is one ordered queue of items, sentences (``SpeechClip``) and
groups of cues (``CueGroup``, e.g. a move's steps): each item starts at the
first block after the one before it has finished, so a move's steps are
heard before the sentence that tells their distance, and the next move's
steps after it. A sentence that is still rendering holds its place (and
everything behind it) until it is ready.

Stopping uses epochs instead of locks: ``stop_all``/``stop_timeline`` bump
a counter, and any voice from an older epoch fades out within the next
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
    """A stereo cue buffer scheduled at an absolute frame (in a CueGroup: relative to the group's start)."""

    __slots__ = ("buffer", "start", "position", "gain", "epoch", "on_timeline")

    def __init__(self, buffer: np.ndarray, start: int, gain: float, epoch: int, on_timeline: bool = False) -> None:
        self.buffer = buffer
        self.start = start
        self.position = 0
        self.gain = np.float32(gain)
        self.epoch = epoch
        self.on_timeline = on_timeline  # stopped with the timeline, not with the cues played at once


class SpeechClip:
    """One sentence on the timeline; ``buffer`` is filled in by the renderer thread when ready."""

    __slots__ = ("text", "epoch", "buffer", "failed", "position", "ready", "started_frame", "ended_frame")

    def __init__(self, text: str, epoch: int) -> None:
        self.text = text
        self.epoch = epoch
        self.buffer: np.ndarray | None = None
        self.failed = False
        self.position = 0
        self.ready = threading.Event()
        self.started_frame = -1  # the mixer's record of when it was heard (-1: not yet)
        self.ended_frame = -1

    def deliver(self, buffer: np.ndarray | None) -> None:
        """Called once by the producer: the stereo float32 audio, or None if it could not be made."""
        if buffer is None:
            self.failed = True
        else:
            self.buffer = buffer
        self.ready.set()


class CueGroup:
    """Cues that play as one item of the timeline, e.g. a move's steps; ``voices`` sorted by start offset."""

    __slots__ = ("voices", "length", "epoch", "placed", "started_frame", "ended_frame", "label")

    def __init__(self, voices: list[Voice], epoch: int, label: str = "") -> None:
        self.label = label       # what the cues are, for the record of what was heard
        self.voices = sorted(voices, key=lambda voice: voice.start)
        self.length = max((voice.start + int(voice.buffer.shape[0]) for voice in voices), default=0)
        self.epoch = epoch
        self.placed = 0          # voices handed to the mixing slots so far
        self.started_frame = -1
        self.ended_frame = -1


TimelineItem = SpeechClip | CueGroup


class Mixer:
    def __init__(self, sample_rate: int = 48000, max_block: int = 4096) -> None:
        self.sample_rate = sample_rate
        self.max_block = max_block
        self.frame = 0
        self.speech_volume = 1.0
        self.cue_volume = 1.0
        self.duck_level = DUCK_LEVEL
        self.mono = False  # both channels get their average: one ear hears everything
        self._incoming: SimpleQueue[Voice] = SimpleQueue()
        self._slots: list[Voice | None] = [None] * MAX_VOICES
        self._timeline: deque[TimelineItem] = deque()
        self._current: TimelineItem | None = None
        self._cue_epoch = 0
        self._timeline_epoch = 0
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
        self._mono_scratch = np.zeros(max_block, np.float32)

    # Producer side (any thread).

    @property
    def timeline_epoch(self) -> int:
        return self._timeline_epoch

    def play(self, stereo: np.ndarray, start_frame: int | None = None, gain: float = 1.0) -> None:
        """Play a stereo float32 (frames, 2) buffer now, beside the timeline (or at an absolute frame)."""
        self._incoming.put(Voice(_stereo(stereo), self.frame if start_frame is None else start_frame, gain,
                                 self._cue_epoch))

    def queue_cues(self, cues: list[tuple[np.ndarray, int, float]], label: str = "") -> CueGroup:
        """Queue (stereo buffer, frames after the group's start, gain) cues as one item of the timeline."""
        epoch = self._timeline_epoch
        group = CueGroup([Voice(_stereo(buffer), offset, gain, epoch, on_timeline=True)
                          for buffer, offset, gain in cues], epoch, label)
        self._timeline.append(group)
        return group

    def new_speech(self, text: str) -> SpeechClip:
        """Queue a sentence on the timeline; the caller fills it with ``clip.deliver(stereo)`` when rendered."""
        clip = SpeechClip(text, self._timeline_epoch)
        self._timeline.append(clip)
        return clip

    def stop_all(self) -> None:
        self._cue_epoch += 1
        self.stop_timeline()

    def stop_timeline(self) -> None:
        """Cut the sentence or cues playing on the timeline and drop everything queued behind them."""
        self._timeline_epoch += 1

    def timeline_active(self) -> bool:
        """Something on the timeline is playing, or queued and not cancelled (the microphone stays muted)."""
        current = self._current
        if current is not None and current.epoch == self._timeline_epoch:
            return True
        return any(self._live(item) for item in list(self._timeline))

    def now_playing(self) -> TimelineItem | None:
        """The timeline item being heard (None between items or when idle)."""
        current = self._current
        return current if current is not None and current.epoch == self._timeline_epoch else None

    def cues_active(self) -> bool:
        return not self._incoming.empty() or any(slot is not None for slot in self._slots)

    def idle(self) -> bool:
        return not self.timeline_active() and not self.cues_active() and self._current is None

    def waiting_for_speech(self) -> SpeechClip | None:
        """The first sentence on the timeline that is not rendered yet (offline rendering waits for it)."""
        for item in list(self._timeline):
            if isinstance(item, SpeechClip) and self._live(item):
                return None if item.buffer is not None else item
        return None

    def _live(self, item: TimelineItem) -> bool:
        return item.epoch == self._timeline_epoch and not (isinstance(item, SpeechClip) and item.failed)

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
        speaking = self._mix_timeline(n, frame)
        self._mix_cues(n, frame)

        cues = self._cue_bus[:n]
        duck_target = self.duck_level if speaking else 1.0
        step = n / (self.sample_rate * (DUCK_ATTACK_S if duck_target < self._duck else DUCK_RELEASE_S))
        duck_next = max(duck_target, self._duck - step) if duck_target < self._duck else min(duck_target, self._duck + step)
        if self._duck != 1.0 or duck_next != 1.0:
            _scale(cues, self._gain_ramp(self._duck, duck_next, n))
        self._duck = duck_next

        np.multiply(self._speech_bus[:n], np.float32(self.speech_volume), out=out)
        cues *= np.float32(self.cue_volume)
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
        if self.mono:
            self._fold_to_mono(out, n)
        np.clip(out, -1.0, 1.0, out=out)
        self.frame = frame + n

    def _fold_to_mono(self, out: np.ndarray, n: int) -> None:
        average = self._mono_scratch[:n]
        np.add(out[:, 0], out[:, 1], out=average)
        average *= np.float32(0.5)
        np.copyto(out[:, 0], average)
        np.copyto(out[:, 1], average)

    def _gain_ramp(self, start: float, end: float, n: int) -> np.ndarray:
        """A gain going from start to end across the block (a view of a preallocated array)."""
        gain = self._gain[:n]
        np.multiply(self._ramp[:n], np.float32(end - start), out=gain)
        gain += np.float32(start)
        return gain

    def _take_incoming(self) -> None:
        while not self._incoming.empty():
            voice = self._incoming.get_nowait()
            if voice.epoch == self._cue_epoch:
                self._add_to_slots(voice)

    def _add_to_slots(self, voice: Voice) -> None:
        for index, slot in enumerate(self._slots):
            if slot is None:
                self._slots[index] = voice
                return
        self.dropped_voices += 1

    def _stale(self, voice: Voice) -> bool:
        return voice.epoch != (self._timeline_epoch if voice.on_timeline else self._cue_epoch)

    def _mix_cues(self, n: int, frame: int) -> None:
        bus = self._cue_bus[:n]
        bus.fill(0.0)
        fading = False
        for index, voice in enumerate(self._slots):
            if voice is None:
                continue
            stale = self._stale(voice)
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

    # The timeline.

    def _mix_timeline(self, n: int, frame: int) -> bool:
        """Advance the timeline by one block; True while a sentence is heard (so cues duck under it)."""
        bus = self._speech_bus[:n]
        bus.fill(0.0)
        current = self._current
        if current is not None and current.epoch != self._timeline_epoch:
            if isinstance(current, SpeechClip):
                self._copy_speech(current, bus, n)
                _scale(bus, self._down[:n])  # cut: fade out within this block, then gone
            current.ended_frame = frame  # a group's voices already playing fade out as stale
            self._current = current = None
        if current is None:
            current = self._next_item()
            if current is None:
                return False
            current.started_frame = frame
            self._current = current
        if isinstance(current, SpeechClip):
            if self._copy_speech(current, bus, n):
                current.ended_frame = frame + n
                self._current = None
            return True
        self._place_group_voices(current, frame + n)
        if current.started_frame + current.length <= frame + n:
            current.ended_frame = current.started_frame + current.length
            self._current = None
        return False

    def _place_group_voices(self, group: CueGroup, block_end: int) -> None:
        """Hand the group's voices that start before ``block_end`` to the slots (only as they come due)."""
        voices = group.voices
        while group.placed < len(voices) and group.started_frame + voices[group.placed].start < block_end:
            voice = voices[group.placed]
            voice.start += group.started_frame
            self._add_to_slots(voice)
            group.placed += 1

    def _next_item(self) -> TimelineItem | None:
        timeline = self._timeline
        while timeline:
            head = timeline[0]
            if not self._live(head):
                timeline.popleft()
                continue
            if isinstance(head, SpeechClip) and head.buffer is None:
                return None  # still rendering: keep its place, try again next block
            return timeline.popleft()
        return None

    def _copy_speech(self, clip: SpeechClip, bus: np.ndarray, n: int) -> bool:
        buffer = clip.buffer
        assert buffer is not None
        length = int(buffer.shape[0])
        take = min(n, length - clip.position)
        bus[:take] += buffer[clip.position:clip.position + take]
        clip.position += take
        return clip.position >= length


def _stereo(buffer: np.ndarray) -> np.ndarray:
    stereo = np.ascontiguousarray(buffer, dtype=np.float32)
    if stereo.ndim != 2 or stereo.shape[1] != 2:
        raise ValueError("the mixer plays stereo (frames, 2) buffers")
    return stereo


def _scale(stereo: np.ndarray, gain: np.ndarray) -> None:
    """Multiply both channels by a per-frame gain, in place, without a temporary."""
    left = stereo[:, 0]
    left *= gain
    right = stereo[:, 1]
    right *= gain
