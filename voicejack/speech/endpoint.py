"""End-of-utterance detection: an energy detector with an adaptive noise floor and a hangover.

Why our own and not the recogniser's: both backends then cut utterances
the same way, pocketsphinx 5 has no built-in endpointing in its decoder,
and we only spend decoding time on speech.

How it decides, on 10 ms frames:
- the background is described by the levels of the last ``background``
  seconds of frames outside speech: the noise floor is their median and
  their spread (90th percentile minus median) says how much the
  background itself rises and falls (a fan: 1 dB; a television, people
  talking in the next room: several). Both are learnt during the first
  ``learn`` seconds, when no speech is detected (``learn_room`` feeds it
  room audio nobody listens to yet, e.g. before the first grammar); only
  after ``expect_answer`` (the game has just stopped speaking, so a player
  may answer at once) does an obvious onset against the room heard so far
  start speech then. Afterwards frames loud enough to start speech never
  count as background;
- speech starts when most of the last ``start_window`` frames are at least
  ``start_db`` (or the spread plus 3 dB, if larger) above the floor, and
  above an absolute minimum level, so digital near-silence never
  triggers; the ``preroll`` before the start is handed over too, because
  onsets are quieter than the threshold;
- speech ends after ``hangover`` of frames below ``continue_db`` (or the
  spread plus 1.5 dB) above the floor, or ``below_speech_db`` below the
  utterance's own loud level (the 80th percentile of its loud frames so
  far), whichever is higher, or when an utterance reaches
  ``max_utterance``; sound that never pauses that long is taken as the
  new background. The second bound is for a background that is itself
  speech: three people talking 15 dB below the player rise above any
  floor-based threshold often enough that the hangover never ran out,
  and utterances went on to ``max_utterance`` (benchmarks/asr.py, babble);
  frames 12 dB under the player's own voice are the others' voices.
  Only behind a busy background (level spread at least ``busy_spread_db``):
  in a steady one the quieter ends of words would count as quiet, and a
  pause inside a move would cut the player off sooner.
The hangover is the price of not cutting a player off between words
("play seven red one five ... red two two"): it is added to the response
time and is configurable. A recogniser that is sure the player has said
all there is to say may close the utterance sooner with ``cut()``
(recogniser.py: ending early after a short pause).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import Enum

import numpy as np

from voicejack.speech.audio import SAMPLE_RATE

FRAME = SAMPLE_RATE // 100  # 10 ms


@dataclass(frozen=True, slots=True)
class EndpointSettings:
    start_db: float = 6.0
    continue_db: float = 4.0
    start_window: float = 0.1  # seconds of frames looked at for a start
    start_fraction: float = 0.7
    hangover: float = 0.45
    preroll: float = 0.3
    max_utterance: float = 10.0
    min_level_db: float = -60.0  # dBFS below which nothing is speech
    background: float = 3.0  # seconds of non-speech levels the floor and spread are taken from
    learn: float = 0.3  # seconds at the start of a stream spent learning the floor (only obvious speech starts)
    # While learning: frames of room the provisional floor needs before an onset is looked for, and how
    # much more (dB) than the usual start margin an onset must stand above that floor.
    learn_onset_frames: int = 4
    learn_onset_db: float = 6.0
    learn_floor_percentile: float = 75.0  # ... the percentile of the room's levels that floor is taken at
    # Frames this far (dB) below the utterance's own loud level count as quiet for its end, however far
    # above the floor they are: other people talking behind the player (None: the floor alone decides).
    below_speech_db: float | None = 10.0
    busy_spread_db: float = 2.5  # ... only when the background's level spread (dB) is at least this


class Mark(Enum):
    START = "start"  # speech began; the event's audio holds the preroll and first frames
    AUDIO = "audio"  # more audio of the current utterance
    END = "end"  # the utterance ended (after its hangover audio, already handed over)


@dataclass(frozen=True, slots=True)
class Event:
    mark: Mark
    audio: np.ndarray  # int16, possibly empty
    sample: int  # stream position (in samples) where this event's audio starts (END: where speech ended)


def frame_levels_db(frames: np.ndarray) -> np.ndarray:
    """Level in dBFS of each row of int16 frames."""
    power = np.mean((frames.astype(np.float64) / 32768.0) ** 2, axis=1)
    levels: np.ndarray = 10.0 * np.log10(power + 1e-12)
    return levels


def quieten_other_talkers(samples: np.ndarray, below_db: float = 10.0, margin: float = 0.08,
                          attenuation_db: float = 30.0) -> np.ndarray:
    """``samples`` (int16) with the audio before the first and after the last 20 ms within ``below_db`` of
    the loudest (the player's own words, give or take ``margin`` seconds) turned down by ``attenuation_db``.

    Behind other talkers the preroll and hangover an utterance is handed over with hold their words; a short
    command ("help") then makes up a fraction of the audio, and a recogniser without a grammar writes the
    others' words down instead. What lies between the player's first and last loud frames is left alone."""
    audio = np.asarray(samples, dtype=np.int16)
    window, hop = 2 * FRAME, FRAME
    if len(audio) < window:
        return audio
    count = (len(audio) - window) // hop + 1
    levels = frame_levels_db(np.lib.stride_tricks.sliding_window_view(audio, window)[::hop][:count])
    loud = np.flatnonzero(levels > levels.max() - below_db)
    pad = round(margin * 100)
    first = max(0, int(loud[0]) - pad) * hop
    last = min(len(audio), (int(loud[-1]) + pad) * hop + window)
    floor = 10.0 ** (-attenuation_db / 20.0)
    gain = np.full(len(audio), floor)
    gain[first:last] = 1.0
    ramp = np.linspace(1.0, floor, window)  # 20 ms fades, so no click is heard as a consonant
    before = min(window, first)
    gain[first - before:first] = np.maximum(gain[first - before:first], ramp[:before][::-1])
    after = min(window, len(audio) - last)
    gain[last:last + after] = np.maximum(gain[last:last + after], ramp[:after])
    quietened: np.ndarray = np.round(audio * gain).astype(np.int16)
    return quietened


class Endpointer:
    """Cuts a continuous int16 stream into utterances; feed it blocks of any size."""

    def __init__(self, settings: EndpointSettings | None = None) -> None:
        self.settings = settings or EndpointSettings()
        s = self.settings
        self._start_frames = max(1, round(s.start_window * 100))
        self._hangover_frames = max(1, round(s.hangover * 100))
        self._max_frames = max(1, round(s.max_utterance * 100))
        self._preroll: deque[np.ndarray] = deque(maxlen=max(1, round(s.preroll * 100)))
        self._background: deque[float] = deque(maxlen=max(10, round(s.background * 100)))
        self._held_out: list[float] = []  # loud levels kept out of the background while learning
        self._spread = 0.0
        self._learn_frames = round(s.learn * 100)
        self._frames_seen = 0
        self._learning = self._learn_frames > 0  # the floor is still being learnt (see _track_floor)
        self._answer_expected = False  # speech may begin at once, even while learning (expect_answer)
        self._pending = np.zeros(0, dtype=np.int16)
        self._recent_loud: deque[bool] = deque(maxlen=self._start_frames)
        self._onset_loud: deque[bool] = deque(maxlen=self._start_frames)
        self._recent_levels: deque[float] = deque(maxlen=100)
        self._floor: float | None = None
        self._in_speech = False
        self._quiet_run = 0  # frames since the last one loud against the floor (ending early looks at it)
        self._player_quiet_run = 0  # ... against the player's own level too (the hangover counts it)
        self._speech_frames = 0
        self._position = 0  # samples consumed into frames
        self._last_loud_end = 0
        self._loud_levels: list[float] = []  # levels of the current utterance's loud frames
        self._loud_reference: float | None = None  # their 80th percentile, refreshed every 10 loud frames

    @property
    def in_speech(self) -> bool:
        return self._in_speech

    @property
    def position(self) -> int:
        """Samples consumed so far (whole frames)."""
        return self._position

    @property
    def noise_floor_db(self) -> float | None:
        return self._floor

    @property
    def speech_end_sample(self) -> int:
        """Stream position just after the last loud frame of the current or last utterance."""
        return self._last_loud_end

    @property
    def quiet_frames(self) -> int:
        """10 ms frames since the last loud one, while an utterance is in progress (0 otherwise)."""
        return self._quiet_run if self._in_speech else 0

    @property
    def busy_background(self) -> bool:
        """True when the background's level rises and falls as people talking or music do, not a fan's."""
        return self._spread >= self.settings.busy_spread_db

    @property
    def speech_over_floor_db(self) -> float:
        """How far the current utterance's loud frames stand above the noise floor (their median, dB; 0: none yet)."""
        if not self._loud_levels or self._floor is None:
            return 0.0
        return float(np.median(self._loud_levels)) - self._floor

    def cut(self) -> int:
        """End the utterance in progress now (the caller decided it is complete); returns where speech ended.

        The quiet frames already heard stay part of the utterance, not the background: the next
        utterance starts from the usual not-in-speech state.
        """
        self._in_speech = False
        self._quiet_run = self._player_quiet_run = 0
        self._speech_frames = 0
        self._recent_loud.clear()
        self._preroll.clear()
        return self._last_loud_end

    def reset(self, relearn: bool = False) -> None:
        """Forget any utterance in progress; keeps the learnt noise floor unless ``relearn`` (a new stream)."""
        if relearn:
            self._floor = None
            self._background.clear()
            self._held_out.clear()
            self._onset_loud.clear()
            self._spread = 0.0
            self._frames_seen = 0
            self._learning = self._learn_frames > 0
            self._answer_expected = False
            self._position = 0
            self._last_loud_end = 0
        self._pending = np.zeros(0, dtype=np.int16)
        self._recent_loud.clear()
        self._preroll.clear()
        self._in_speech = False
        self._quiet_run = self._player_quiet_run = 0
        self._speech_frames = 0

    def expect_answer(self) -> None:
        """Speech may begin at once (the game has just asked something): if the floor is still being
        learnt, an obvious onset against the room heard so far starts speech instead of being learnt as
        the room. Not at every stream start: a sound that begins there (music starting up) is as likely
        the room as a voice, and taking it for speech cost a music room dearly (benchmarks/asr.py)."""
        self._answer_expected = True

    def learn_room(self, samples: np.ndarray) -> None:
        """Room audio nobody acts on (nothing is listened for yet): only the background is learnt from it.

        An utterance in progress is dropped first. The game's first prompt may be answered at once, so
        the floor is better learnt from the room before it than from the first moments after it.
        """
        if self._in_speech:
            self.reset()
        frames = self._frames_of(samples)
        for level in frame_levels_db(frames) if len(frames) else []:
            self._position += FRAME
            self._track_floor(float(level))
            self._recent_levels.append(float(level))

    def _frames_of(self, samples: np.ndarray) -> np.ndarray:
        data = np.concatenate([self._pending, np.asarray(samples, dtype=np.int16).ravel()])
        usable = len(data) - len(data) % FRAME
        self._pending = data[usable:].copy()
        return data[:usable].reshape(-1, FRAME)

    def push(self, samples: np.ndarray) -> list[Event]:
        """Consume samples; return what happened, in order."""
        frames = self._frames_of(samples)
        if len(frames) == 0:
            return []
        levels = frame_levels_db(frames)
        events: list[Event] = []
        run: list[np.ndarray] = []  # audio of the current utterance within this block
        run_start = self._position
        for frame, level in zip(frames, levels):
            position = self._position
            self._position += FRAME
            self._track_floor(level)
            self._recent_levels.append(float(level))
            assert self._floor is not None
            start_margin = max(self.settings.start_db, self._spread + 3.0)
            continue_margin = max(self.settings.continue_db, self._spread + 1.5)
            audible = level >= self.settings.min_level_db
            loud_start = audible and level >= self._floor + start_margin
            loud_continue = audible and level >= self._floor + continue_margin
            if not self._in_speech:
                self._preroll.append(frame)
                if self._learning:
                    onset = self._obvious_onset(float(level)) if self._answer_expected else None
                    if onset is None:
                        continue
                    self._onset_loud.append(onset)
                    starts = len(self._onset_loud) == self._onset_loud.maxlen and (
                        sum(self._onset_loud) >= self.settings.start_fraction * len(self._onset_loud))
                else:
                    self._recent_loud.append(loud_start)
                    starts = len(self._recent_loud) == self._start_frames and (
                        sum(self._recent_loud) >= self.settings.start_fraction * self._start_frames)
                if starts:
                    self._in_speech = True
                    self._learning = False
                    self._held_out.clear()
                    self._quiet_run = self._player_quiet_run = 0
                    self._loud_levels = [float(level)]
                    self._loud_reference = None
                    self._speech_frames = len(self._preroll)
                    self._last_loud_end = position + FRAME
                    start = position + FRAME - FRAME * len(self._preroll)
                    events.append(Event(Mark.START, np.concatenate(list(self._preroll)), start))
                    self._preroll.clear()
                    self._recent_loud.clear()
                    run, run_start = [], position + FRAME
                continue
            run.append(frame)
            self._speech_frames += 1
            # Two counts of quiet: against the floor alone (what ending early after a short pause trusts:
            # judged against the player's own level it decided on half words in babble and music and gave
            # confidently wrong results, benchmarks/asr.py) and against the player's own level too (the end).
            player_loud = loud_continue and not self._under_speech(float(level))
            self._quiet_run = 0 if loud_continue else self._quiet_run + 1
            if player_loud:
                self._player_quiet_run = 0
                self._last_loud_end = position + FRAME
                self._loud_levels.append(float(level))
            else:
                self._player_quiet_run += 1
            too_long = self._speech_frames >= self._max_frames
            if self._player_quiet_run >= self._hangover_frames or too_long:
                if too_long and self._player_quiet_run < self._hangover_frames:
                    # Sound that never pauses for this long is the new background (a fan, a radio): learn it.
                    self._background.clear()
                    self._background.extend(self._recent_levels)
                    self._describe_background()
                if run:
                    events.append(Event(Mark.AUDIO, np.concatenate(run), run_start))
                events.append(Event(Mark.END, np.zeros(0, dtype=np.int16), self._last_loud_end))
                self._in_speech = False
                self._quiet_run = self._player_quiet_run = 0
                run = []
        if self._in_speech and run:
            events.append(Event(Mark.AUDIO, np.concatenate(run), run_start))
        return events

    def _under_speech(self, level: float) -> bool:
        """True when a frame is far enough below this utterance's own loud frames to be someone else."""
        drop = self.settings.below_speech_db
        if drop is None or self._spread < self.settings.busy_spread_db or len(self._loud_levels) < 10:
            return False
        if self._loud_reference is None or len(self._loud_levels) % 10 == 0:
            self._loud_reference = float(np.percentile(self._loud_levels, 80))
        return level < self._loud_reference - drop

    def flush(self) -> list[Event]:
        """End of stream: close an utterance in progress."""
        events: list[Event] = []
        if self._in_speech:
            if len(self._pending):
                events.append(Event(Mark.AUDIO, self._pending.copy(), self._position))
                self._position += len(self._pending)
            events.append(Event(Mark.END, np.zeros(0, dtype=np.int16), self._last_loud_end))
        self.reset()
        return events

    def _obvious_onset(self, level: float) -> bool | None:
        """While the floor is still being learnt: is this frame loud enough against the room heard so far
        to be the start of speech (None: too little room heard to tell)? A player may answer the game's
        first prompt at once, and the stream may only begin as the game starts speaking."""
        if len(self._background) < self.settings.learn_onset_frames or self._floor is None:
            return None
        return level >= self.settings.min_level_db and level >= self._provisional_floor() + self._learning_margin()

    def _onset_in_progress(self) -> bool:
        """While learning: loud frames among the last ``start_window`` ones, and the onset window not yet
        full past the learning time. Learning goes on until such an onset is decided, so speech begun
        just before the learning time ends is neither taken for the room nor cut at its start."""
        recent = list(self._onset_loud)[-self._start_frames:]
        longest = self._learn_frames + (self._onset_loud.maxlen or 0)
        return bool(self._held_out) and any(recent) and self._frames_seen <= longest

    def _provisional_floor(self) -> float:
        """The room's level while learning, from its upper quartile: a handful of frames cannot tell a
        floor, and the first few a noise reducer hands over are near-silent (its start-up delay)."""
        return float(np.percentile(self._background, self.settings.learn_floor_percentile))

    def _learning_margin(self) -> float:
        return max(self.settings.start_db, self._spread + 3.0) + self.settings.learn_onset_db

    def _track_floor(self, level: float) -> None:
        self._frames_seen += 1
        if self._in_speech:
            return
        if self._learning and self._frames_seen > self._learn_frames and not self._onset_in_progress():
            # Learning is over. Loud frames held out of the room while it lasted did not start speech:
            # they were the room after all (babble, music).
            self._learning = False
            if self._held_out:
                self._background.extend(self._held_out)
                self._held_out.clear()
                self._describe_background()
        floor = self._floor
        if (
            self._learning and self._answer_expected and floor is not None
            and len(self._background) >= self.settings.learn_onset_frames
        ):
            if level >= self._provisional_floor() + max(self.settings.start_db, self._spread + 3.0):
                self._held_out.append(level)  # perhaps the start of speech (see _obvious_onset)
                return
        learnt = floor is not None and not self._learning
        if learnt and floor is not None and level >= floor + max(self.settings.start_db, self._spread + 3.0):
            # Loud enough to be the start of speech: never background, or speech onsets would
            # inflate the spread until speech itself stopped counting as loud. A background that
            # really rose is learnt when it outlasts max_utterance.
            return
        self._background.append(float(level))
        self._describe_background()

    def _describe_background(self) -> None:
        median, high = np.percentile(self._background, (50, 90))
        self._floor = float(median)
        self._spread = float(high - median)
