"""AudioOutput: the one object the game uses for everything it plays.

    audio = AudioOutput(headphones=True)              # the default sound card
    audio.set_table(listener="red", rules=state.rules)
    audio.play_events(events, state_before)           # steps, captures... around the head
    audio.speak("Red 1 walks to cell 12.")            # after the steps have finished
    audio.speak("Blue plays a queen.", direction="blue")  # from blue's seat, after that
    audio.cue(Cue.TURNED_BACK)                        # at once, beside whatever is playing
    audio.stop()                                      # silence within one buffer, queue cleared
    audio.close()

One timeline: every ``speak`` and every ``play_events`` starts only once
everything queued before it, sentences and step sounds alike, has finished,
so a move is heard as its steps and then the sentence telling the distance,
and the next move's steps never play under that sentence. ``cue`` plays at
once; ``speak(..., interrupt=True)`` cuts the timeline first.
``is_speaking``/``wait_idle`` cover the whole timeline.

For one ear: directions never leave a channel silent (see spatial.py), and
``mono=True`` (or ``set_mono``) makes both channels identical.

Modes:
- ``realtime=True`` (default): a sound card stream; if there is no card (or
  no PortAudio), one line says so and the game carries on, mixing at wall
  clock pace into ``record_path`` or into nothing.
- ``realtime=False``: offline. Nothing happens until ``render(seconds)`` or
  ``render_until_idle()`` is called, and time is counted in rendered
  samples, so tests and recordings are deterministic.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterable
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

import numpy as np

from voicejack.audio.cuebank import CueBank
from voicejack.audio.cuenames import Cue
from voicejack.audio.cuepack import SAMPLE_RATE
from voicejack.audio.mixer import CueGroup, Mixer, SpeechClip
from voicejack.audio.sinks import DeviceSink, OfflineSink, PacedSink, WavSink
from voicejack.audio.sonifier import DEFAULT_STEPS_PER_SECOND, ScheduledCue, Sonifier
from voicejack.audio.spatial import spatialise
from voicejack.audio.tts import BACKENDS, DEFAULT_RATE_WPM, Rendered, SpeechRenderer, VoiceInfo, clamp_rate, shared_renderer
from voicejack.engine.events import Event
from voicejack.engine.state import GameState, Rules

DEFAULT_BLOCKSIZE: Final = 512   # 10.7 ms at 48 kHz: a stop is heard within that
_SPEECH_WAIT_S: Final = 30.0
_RECORD_ITEMS: Final = 512       # how many timeline items played() remembers


@dataclass(frozen=True, slots=True)
class Played:
    """One item of the timeline as it was heard, in seconds on the mixer's clock (a recording's time)."""

    kind: Literal["speech", "cues"]
    what: str        # the sentence, or the cue names in order
    started: float
    ended: float     # -1.0 while it is still playing


def _to_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _to_stdout(text: str) -> None:
    print(text, flush=True)


class AudioOutput:
    def __init__(
        self,
        device: int | str | None = None,
        record_path: str | Path | None = None,
        headphones: bool = True,
        speech_rate: int = DEFAULT_RATE_WPM,
        voice: str | None = None,
        speech_volume: float = 1.0,
        cue_volume: float = 0.8,
        sounds_dir: str | Path | None = None,
        realtime: bool = True,
        play_to_device: bool = True,
        sample_rate: int = SAMPLE_RATE,
        blocksize: int = DEFAULT_BLOCKSIZE,
        steps_per_second: float = DEFAULT_STEPS_PER_SECOND,
        seat_voices: bool = True,
        speech_backends: tuple[str, ...] = BACKENDS,
        notify: Callable[[str], None] = _to_stderr,
        on_text: Callable[[str], None] | None = _to_stdout,
        renderer: SpeechRenderer | None = None,
        record_ring_seconds: float = 4.0,
        mono: bool = False,
    ) -> None:
        """``notify`` hears each problem once (no sound card, missing cue files, no speech).

        ``on_text`` receives what would have been spoken when no synthesiser works.
        ``seat_voices``: other players' announcements come from their seat's direction.
        ``mono``: both channels identical, for one earbud or one ear.
        """
        self.sample_rate = sample_rate
        self.blocksize = blocksize
        self.headphones = headphones
        self.seat_voices = seat_voices
        self.steps_per_second = steps_per_second
        self._notify_callback = notify
        self._told: set[str] = set()
        self._on_text = on_text
        self._rate = clamp_rate(speech_rate)
        self._voice = voice
        self._sonifier: Sonifier | None = None
        self._pending: list[tuple[SpeechClip, Future[Rendered]]] = []
        self._pending_lock = threading.Lock()
        self._queued: deque[SpeechClip | CueGroup] = deque(maxlen=_RECORD_ITEMS)
        self.mixer = Mixer(sample_rate)
        self.set_mono(mono)
        self.set_speech_volume(speech_volume)
        self.set_cue_volume(cue_volume)
        self.cues = CueBank(sample_rate, sounds_dir, notify=self._notify)
        self.renderer = renderer if renderer is not None else shared_renderer(speech_backends)
        self._record = WavSink(record_path, sample_rate) if record_path is not None else None
        self.device_sink: DeviceSink | None = None
        self._sink: DeviceSink | PacedSink | OfflineSink
        self.realtime = realtime
        if not realtime:
            self._sink = OfflineSink(self.mixer, blocksize, self._record, self._wait_for_next_speech)
            return
        if play_to_device:
            try:
                self.device_sink = DeviceSink(self.mixer, device, blocksize, self._record, record_ring_seconds)
                self._sink = self.device_sink
                return
            except Exception as error:  # OSError (no PortAudio), PortAudioError, ValueError (no such device)
                what = "No sound card found" if device is None else f"Sound output {device!r} is not available"
                where = f"recording to {self._record.path}" if self._record else "continuing without sound"
                self._notify(f"{what} ({_one_line(error)}); {where}.")
        self._sink = PacedSink(self.mixer, blocksize, self._record)

    # Problems, said once each.

    def _notify(self, message: str) -> None:
        if message not in self._told:
            self._told.add(message)
            self._notify_callback(message)

    @property
    def has_device(self) -> bool:
        return self.device_sink is not None

    # The table.

    def set_table(self, listener: str | None, rules: Rules) -> None:
        """Whose ears we render for, and the seating (for directions and team step sounds)."""
        self._sonifier = Sonifier(listener, rules, self.steps_per_second)

    def _sonifier_for(self, listener: str | None, rules: Rules) -> Sonifier:
        current = self._sonifier
        if current is not None and current.rules == rules and (listener is None or listener == current.listener):
            return current
        self._sonifier = Sonifier(listener, rules, self.steps_per_second)
        return self._sonifier

    def seat_azimuth(self, colour: str) -> float:
        if self._sonifier is None:
            raise RuntimeError("call set_table() before asking for a seat's direction")
        return self._sonifier.seat_azimuth(colour)

    # Cues.

    def _cue_sound(self, name: Cue | str, azimuth: float) -> np.ndarray:
        return self.cues.stereo(name, 0.0 if self.mono else azimuth, self.headphones)

    def play_events(self, events: Iterable[Event], state_before: GameState, listener: str | None = None) -> list[ScheduledCue]:
        """Queue a move's sounds for ``listener`` (default: the one given to set_table) on the timeline.

        They start once everything queued before has finished; the turn and win cues come from
        the events themselves (TurnPassed to the listener, Won).
        """
        sonifier = self._sonifier_for(listener, state_before.rules)
        timeline = sonifier.timeline(events, state_before)
        if timeline:
            self._queued.append(self.mixer.queue_cues(
                [(self._cue_sound(item.cue, item.azimuth), int(round(item.at * self.sample_rate)), item.gain)
                 for item in timeline],
                label=" ".join(item.cue.value for item in timeline)))
        return timeline

    def cue(self, name: Cue | str, azimuth: float = 0.0, gain: float = 1.0) -> None:
        """Play one cue at once, beside the timeline, e.g. ``cue(Cue.TURNED_BACK)``."""
        self.mixer.play(self._cue_sound(name, azimuth), gain=gain)

    # Speech.

    def speak(self, text: str, direction: float | str | None = None, interrupt: bool = False) -> None:
        """Queue a sentence on the timeline. ``direction``: an azimuth in degrees or a seat colour (None: centred).

        ``interrupt=True`` first cuts what the timeline is playing and drops what it holds.
        """
        if interrupt:
            self.stop_timeline()
        text = " ".join(text.split())
        if not text:
            return
        if not self.renderer.available:
            if self.renderer.notice:
                self._notify(self.renderer.notice)
            if self._on_text is not None:
                self._on_text(text)
            return
        if self.renderer.notice:
            self._notify(self.renderer.notice)
        azimuth = self._direction(direction)
        clip = self.mixer.new_speech(text)
        self._queued.append(clip)
        future = self.renderer.submit(text, self._voice, self._rate, self.sample_rate)
        with self._pending_lock:
            self._pending = [(c, f) for c, f in self._pending if not f.done()]
            self._pending.append((clip, future))
        future.add_done_callback(lambda done: self._deliver(clip, done, azimuth))

    def _direction(self, direction: float | str | None) -> float | None:
        if direction is None or not self.seat_voices or self.mono:
            return None
        if isinstance(direction, str):
            if self._sonifier is None:
                return None
            if direction == self._sonifier.listener:
                return None  # your own announcements are not placed behind you
            return self._sonifier.seat_azimuth(direction)
        return float(direction)

    def _deliver(self, clip: SpeechClip, future: Future[Rendered], azimuth: float | None) -> None:
        """On the renderer thread (or at once for a cached sentence): make the stereo buffer."""
        if future.cancelled() or clip.epoch != self.mixer.timeline_epoch:
            clip.deliver(None)
            return
        error = future.exception()
        if error is not None:
            self._notify(f"Speech failed ({_one_line(error)}).")
            if self._on_text is not None:
                self._on_text(clip.text)
            clip.deliver(None)
            return
        mono = future.result().audio
        if azimuth is None:
            stereo = np.repeat(mono[:, None], 2, axis=1)
        else:
            stereo = spatialise(mono, azimuth, self.sample_rate, self.headphones)
            if not self.headphones:
                stereo *= np.float32(2**0.5)  # constant-power panning would make a placed voice quieter than a centred one
        clip.deliver(np.ascontiguousarray(stereo, dtype=np.float32))

    def played(self) -> list[Played]:
        """The timeline items heard so far (the last 512 queued), in the order they started.

        With ``record_path`` the times are positions in the recording, so a test can check a
        match's order (steps before the sentence telling them) and each channel while a seat speaks.
        """
        heard = []
        for item in list(self._queued):
            if item.started_frame < 0:
                continue  # not reached yet, or dropped by a stop before it was heard
            ended = item.ended_frame / self.sample_rate if item.ended_frame >= 0 else -1.0
            if isinstance(item, SpeechClip):
                heard.append(Played("speech", item.text, item.started_frame / self.sample_rate, ended))
            else:
                heard.append(Played("cues", item.label, item.started_frame / self.sample_rate, ended))
        return sorted(heard, key=lambda played: played.started)

    def is_speaking(self) -> bool:
        """True while the timeline plays or holds something, speech or step sounds (the microphone is muted meanwhile)."""
        return self.mixer.timeline_active()

    def set_rate(self, words_per_minute: int) -> int:
        """Speech rate for the next sentences; returns the rate actually used (80..450)."""
        self._rate = clamp_rate(words_per_minute)
        return self._rate

    @property
    def rate(self) -> int:
        return self._rate

    def set_voice(self, voice: str | None) -> None:
        """A voice id from :meth:`voices` (e.g. "gmw/en-us"), or None for the default."""
        self._voice = voice

    @property
    def voice(self) -> str | None:
        return self._voice

    def voices(self) -> list[VoiceInfo]:
        return self.renderer.voices()

    # Volume, mono and stopping.

    def set_mono(self, mono: bool) -> None:
        """Both channels identical from now on (sounds placed before are folded to mono as they play)."""
        self.mono = bool(mono)
        self.mixer.mono = self.mono

    def set_speech_volume(self, volume: float) -> None:
        self.mixer.speech_volume = max(0.0, min(2.0, float(volume)))

    def set_cue_volume(self, volume: float) -> None:
        self.mixer.cue_volume = max(0.0, min(2.0, float(volume)))

    def stop(self) -> None:
        """Silence everything within one buffer: cues, and the timeline playing and queued."""
        self.mixer.stop_all()
        self._cancel_pending()

    def stop_timeline(self) -> None:
        """Cut the timeline (the sentence or step sounds playing, everything queued); cues played at once go on."""
        self.mixer.stop_timeline()
        self._cancel_pending()

    def _cancel_pending(self) -> None:
        with self._pending_lock:
            for _, future in self._pending:
                future.cancel()
            self._pending = []

    # Time.

    def _wait_for_next_speech(self) -> None:
        """Offline only: a sentence still rendering holds the clock, so output never depends on CPU speed."""
        clip = self.mixer.waiting_for_speech()
        if clip is not None:
            clip.ready.wait(_SPEECH_WAIT_S)

    def render(self, seconds: float) -> np.ndarray:
        """Offline mode: mix the next ``seconds`` and return them as (frames, 2) float32."""
        if not isinstance(self._sink, OfflineSink):
            raise RuntimeError("render() is for offline mode (realtime=False)")
        return self._sink.render_frames(int(round(seconds * self.sample_rate)))

    def render_until_idle(self, max_seconds: float = 120.0) -> np.ndarray:
        """Offline mode: mix until nothing is playing or queued; returns everything mixed."""
        if not isinstance(self._sink, OfflineSink):
            raise RuntimeError("render_until_idle() is for offline mode (realtime=False)")
        blocks = []
        limit = int(max_seconds * self.sample_rate)
        rendered = 0
        while not self.mixer.idle() and rendered < limit:
            blocks.append(self._sink.render_frames(self.blocksize))
            rendered += self.blocksize
        return np.concatenate(blocks) if blocks else np.zeros((0, 2), np.float32)

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Until all speech and cues have played; False on timeout. Offline: renders (and discards) them."""
        if isinstance(self._sink, OfflineSink):
            self.render_until_idle(timeout if timeout is not None else 120.0)
            return self.mixer.idle()
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.mixer.idle():
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    # Life cycle.

    def close(self) -> None:
        self.stop()
        self._sink.close()
        if self._record is not None:
            self._record.close()

    def __enter__(self) -> AudioOutput:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text or type(error).__name__
