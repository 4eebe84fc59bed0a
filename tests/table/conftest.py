from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from voicejack.audio.sonifier import Sonifier
from voicejack.engine import GameState, make_rules, new_game
from voicejack.engine.state import Seat
from voicejack.language import Heard
from voicejack.table.inputs import InputHub, ScriptSource, Utterance
from voicejack.table.match import Match, MatchConfig
from voicejack.table.presenter import Presenter
from voicejack.table.settings import Settings


class Transcript(Presenter):
    """A text-only presenter that also keeps every cue (the table's own, and those the audio's sonifier
    makes from a move's events), so tests can hear what a player would."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.cues: list[str] = []
        self.sonifier: Sonifier | None = None
        super().__init__(None, write=self.lines.append)

    def set_table(self, listener, rules) -> None:
        self.sonifier = Sonifier(listener, rules)

    def cue(self, name: str) -> None:
        self.cues.append(name)
        self.lines.append(f"<cue {name}>")

    def events(self, events, before, listener) -> None:
        assert self.sonifier is not None, "set_table comes first"
        for scheduled in self.sonifier.timeline(events, before):
            if not scheduled.cue.startswith("step"):
                self.cues.append(scheduled.cue)
                self.lines.append(f"<cue {scheduled.cue}>")

    def stop(self) -> None:
        self.lines.append("<stop>")

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


class FakeAudio:
    """Stands in for AudioOutput with its promised behaviour, in wall-clock time: one ordered timeline
    (each ``speak`` and ``play_events`` starts when what was queued before has finished, ``cue`` plays at
    once, ``stop`` clears everything), speech lasting ``seconds_per_word``. ``log`` keeps what started
    when: (seconds, "speech" | "cue" | "stop", what, seat)."""

    has_device = True

    def __init__(self, seconds_per_word: float = 0.0, cue_time: float = 0.0, **options: object) -> None:
        """``cue_time`` scales the cues' timeline (0: a move's sounds take no time, 1: real time)."""
        self.options = options
        self.seconds_per_word = seconds_per_word
        self.cue_time = cue_time
        self.log: list[tuple[float, str, str, str | None]] = []
        self.sonifier: Sonifier | None = None
        self.mono: bool | None = None
        self.rate = 175
        self._busy_until = time.monotonic()
        self._lock = threading.Lock()
        self._hooks: list[tuple[Callable[[str, str | None], bool], Callable[[], None]]] = []

    def when_said(self, match: Callable[[str, str | None], bool], then: Callable[[], None]) -> None:
        """Run ``then`` (once) as soon as a sentence for which ``match(text, seat)`` holds starts to be queued."""
        self._hooks.append((match, then))

    def _queue(self, seconds: float) -> float:
        with self._lock:
            start = max(time.monotonic(), self._busy_until)
            self._busy_until = start + seconds
            return start

    def set_table(self, listener, rules) -> None:
        self.sonifier = Sonifier(listener, rules)

    def play_events(self, events, state_before, listener=None):
        assert self.sonifier is not None, "set_table comes first"
        timeline = self.sonifier.timeline(events, state_before)
        length = max((cue.at for cue in timeline), default=0.0) + (0.1 if timeline else 0.0)
        start = self._queue(length * self.cue_time)
        self.log.extend((start + cue.at * self.cue_time, "cue", cue.cue, None) for cue in timeline)
        return timeline

    def speak(self, text: str, direction: str | None = None, interrupt: bool = False) -> None:
        if interrupt:
            self.stop()
        start = self._queue(len(text.split()) * self.seconds_per_word)
        self.log.append((start, "speech", text, direction))
        for hook in list(self._hooks):
            if hook[0](text, direction):
                self._hooks.remove(hook)
                threading.Thread(target=hook[1], daemon=True).start()

    def cue(self, name: str, azimuth: float = 0.0, gain: float = 1.0) -> None:
        self.log.append((time.monotonic(), "cue", name, None))

    def stop(self) -> None:
        with self._lock:
            self._busy_until = time.monotonic()
        self.log.append((time.monotonic(), "stop", "", None))

    def wait_idle(self, timeout: float | None = None) -> bool:
        remaining = self._busy_until - time.monotonic()
        if remaining > 0:
            time.sleep(remaining if timeout is None else min(remaining, timeout))
        return time.monotonic() >= self._busy_until

    def is_speaking(self) -> bool:
        return time.monotonic() < self._busy_until

    def set_rate(self, rate: int) -> int:
        self.rate = rate
        return rate

    def set_speech_volume(self, volume: float) -> None:
        pass

    def set_cue_volume(self, volume: float) -> None:
        pass

    def set_mono(self, mono: bool) -> None:
        self.mono = mono

    def close(self) -> None:
        pass

    def cues(self, name: str) -> list[float]:
        return [at for at, kind, what, _ in self.log if kind == "cue" and what == name]


class LiveSource:
    """A person at the keyboard: lines arrive whenever ``type`` is called, not when the game listens."""

    live = True

    def __init__(self) -> None:
        self.typed_at: dict[str, float] = {}

    def start(self, push) -> None:
        self._push = push

    def type(self, *lines: str, gap: float = 0.0) -> None:
        for line in lines:
            self.typed_at.setdefault(line, time.monotonic())
            self._push(Utterance(Heard(line, typed=True)))
            time.sleep(gap)

    def push(self, utterance: Utterance) -> None:
        self._push(utterance)

    def set_grammar(self, grammar) -> None:
        pass

    def close(self) -> None:
        pass


class TimedLines:
    """Printed lines with the time each was printed."""

    def __init__(self) -> None:
        self.lines: list[tuple[float, str]] = []

    def __call__(self, line: str) -> None:
        self.lines.append((time.monotonic(), line))

    def first(self, text: str, after: float = 0.0) -> float:
        return next(at for at, line in self.lines if text in line and at >= after)

    @property
    def text(self) -> str:
        return "\n".join(line for _, line in self.lines)


def live_match(state: GameState, save: Path, seconds_per_word: float = 0.0, settings: Settings | None = None):
    """A match with a FakeAudio presenter and a LiveSource; returns (match, audio, source, printed)."""
    audio = FakeAudio(seconds_per_word)
    printed = TimedLines()
    hub = InputHub()
    source = LiveSource()
    hub.add(source)
    match = Match(state, Presenter(audio, write=printed), hub, MatchConfig(save, settings=settings or Settings()))
    return match, audio, source, printed


def two_player_state(seed: int = 5, mode: str = "regular") -> GameState:
    state, _ = new_game(make_rules(2, False, mode), seed=seed,
                        seats=(Seat("red", "You", "human"), Seat("green", "Green", "bot")))
    return state


def run_match(state: GameState, lines: Iterable[str], save: Path, settings: Settings | None = None,
              announce: bool = True, on_settings=None):
    hub = InputHub()
    hub.add(ScriptSource(lines))
    transcript = Transcript()
    match = Match(state, transcript, hub, MatchConfig(save, settings=settings or Settings(), on_settings=on_settings))
    outcome = match.run(announce_start=announce)
    return match, outcome, transcript


ALWAYS_FIRST_OPTION = ("options", "1", "yes")


class Kit:
    """The helpers above, handed to tests as one fixture (conftest modules are not importable)."""

    Transcript = Transcript
    FakeAudio = FakeAudio
    live_match = staticmethod(live_match)
    two_player_state = staticmethod(two_player_state)
    run_match = staticmethod(run_match)

    @staticmethod
    def always_first_option():
        return itertools.cycle(ALWAYS_FIRST_OPTION)


@pytest.fixture
def kit() -> type[Kit]:
    return Kit
